package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How a query's result is to be compared: whether its outer query orders the rows and on which keys, and which
 * window (OFFSET, LIMIT) of the ordered rows it returns. The query is run without its outer LIMIT/OFFSET and
 * with every ORDER BY key that is not an output column appended as a hidden column, so that ties (rows equal on
 * the keys, which may come in any order) are known and the window can be applied, and judged, by the checker.
 */
final class OutputShape {
  static final String HIDDEN_PREFIX = "lakerewrite_order_key_";

  private final String runnable;
  private final int hidden;
  private final List<Integer> keyColumns;
  private final boolean ordered;
  private final boolean strict;
  private final long offset;
  private final long limit;
  private final boolean windowKnown;
  private final String limitText;

  private OutputShape(String runnable, int hidden, List<Integer> keyColumns, boolean ordered, boolean strict,
      long offset, long limit, boolean windowKnown, String limitText) {
    this.runnable = runnable;
    this.hidden = hidden;
    this.keyColumns = List.copyOf(keyColumns);
    this.ordered = ordered;
    this.strict = strict;
    this.offset = offset;
    this.limit = limit;
    this.windowKnown = windowKnown;
    this.limitText = limitText;
  }

  /** The SQL to run on instances (LIMIT/OFFSET removed, hidden keys appended; the text as given if neither). */
  String runnable() {
    return runnable;
  }

  /** How many hidden key columns follow the visible ones in the runnable query's result. */
  int hidden() {
    return hidden;
  }

  /**
   * Positions of the ORDER BY keys in a runnable result of this width, in order; empty when unordered or strict.
   */
  List<Integer> keyColumns(int width) {
    List<Integer> out = new ArrayList<>(keyColumns.size());
    for (int k : keyColumns) {
      out.add(k >= 0 ? k : width - hidden + (-k - 1));
    }
    return out;
  }

  boolean ordered() {
    return ordered;
  }

  /** Ordered, but the keys could not be made visible: every row counts as its own tie group. */
  boolean strict() {
    return strict;
  }

  long offset() {
    return offset;
  }

  /** The LIMIT, or -1 when there is none. */
  long limit() {
    return limit;
  }

  /** False when LIMIT or OFFSET is not a constant row count (then the query runs as written). */
  boolean windowKnown() {
    return windowKnown;
  }

  boolean hasWindow() {
    return limit >= 0 || offset > 0;
  }

  /** {@code LIMIT 10 OFFSET 5}, or empty. */
  String limitText() {
    return limitText;
  }

  /** The shape of a single query (the statement is parsed again here and not changed). */
  static OutputShape of(String sql, JsonNode statement, SqlParser parser) {
    ObjectNode copy = (ObjectNode) statement.deepCopy();
    ObjectNode node = (ObjectNode) copy.path("node");
    JsonNode orderBy = null;
    JsonNode limitModifier = null;
    for (JsonNode m : node.path("modifiers")) {
      String type = m.path("type").asText("");
      if (type.equals("ORDER_MODIFIER")) {
        orderBy = m;
      } else if (type.equals("LIMIT_MODIFIER") || type.equals("LIMIT_PERCENT_MODIFIER")) {
        limitModifier = m;
      }
    }
    boolean ordered = orderBy != null && !orderBy.path("orders").isEmpty();
    long limit = -1;
    long offset = 0;
    boolean windowKnown = true;
    String limitText = "";
    if (limitModifier != null) {
      if (limitModifier.path("type").asText("").equals("LIMIT_PERCENT_MODIFIER")) {
        windowKnown = false;
      } else {
        JsonNode l = limitModifier.path("limit");
        JsonNode o = limitModifier.path("offset");
        if (l.isObject()) {
          limit = QueryFacts.constantLong(l);
          windowKnown &= limit >= 0;
          limitText = "LIMIT " + (limit >= 0 ? limit : "?");
        }
        if (o.isObject()) {
          offset = QueryFacts.constantLong(o);
          windowKnown &= offset >= 0;
          limitText += (limitText.isEmpty() ? "" : " ") + "OFFSET " + (offset >= 0 ? offset : "?");
          offset = Math.max(0, offset);
        }
      }
    }
    if (!windowKnown) {
      // A percentage or an expression: the query runs as written and its rows are compared as they come.
      return new OutputShape(sql, 0, List.of(), ordered, ordered, 0, -1, false, limitText);
    }
    if (!ordered && limitModifier == null) {
      return new OutputShape(sql, 0, List.of(), false, false, 0, -1, true, "");
    }
    // Remove the window.
    ArrayNode kept = Trees.JSON.createArrayNode();
    for (JsonNode m : node.path("modifiers")) {
      if (m != limitModifier) {
        kept.add(m);
      }
    }
    node.set("modifiers", kept);
    if (!ordered) {
      return new OutputShape(parser.render(copy), 0, List.of(), false, false, offset, limit, true, limitText);
    }
    // With a star the output positions are known only once the query runs: keys then go to hidden columns.
    boolean star = hasStar(leftmostSelect(node));
    List<String> names = star ? List.of() : outputNames(node, parser);
    List<String> texts = star ? List.of() : outputTexts(node, parser);
    List<Integer> keys = new ArrayList<>();
    List<JsonNode> toAppend = new ArrayList<>();
    boolean appendable = "SELECT_NODE".equals(node.path("type").asText()) && !Trees.hasDistinct(node);
    int visible = names.size();
    for (JsonNode o : orderBy.path("orders")) {
      JsonNode e = o.path("expression");
      int index = resolve(e, names, texts, parser);
      if (index < 0 && "STAR".equals(e.path("class").asText()) && !star) {
        // ORDER BY ALL: every output column, left to right.
        for (int i = 0; i < visible; i++) {
          keys.add(i);
        }
        continue;
      }
      if (index >= 0) {
        keys.add(index);
      } else if (appendable && !"STAR".equals(e.path("class").asText())) {
        keys.add(-(toAppend.size() + 1));
        toAppend.add(e);
      } else {
        return new OutputShape(parser.render(copy), 0, List.of(), true, true, offset, limit, true, limitText);
      }
    }
    if (!toAppend.isEmpty()) {
      ArrayNode list = (ArrayNode) node.path("select_list");
      for (int i = 0; i < toAppend.size(); i++) {
        ObjectNode e = (ObjectNode) toAppend.get(i).deepCopy();
        e.put("alias", HIDDEN_PREFIX + (i + 1));
        list.add(e);
      }
    }
    return new OutputShape(parser.render(copy), toAppend.size(), keys, true, false, offset, limit, true, limitText);
  }

  private static final java.util.regex.Pattern TRAILING_WINDOW = java.util.regex.Pattern.compile(
      "(?is)^(.*?)\\s+(?:LIMIT\\s+\\d+(?:\\s+OFFSET\\s+\\d+(?:\\s+ROWS?)?)?|OFFSET\\s+\\d+(?:\\s+ROWS?)?"
          + "(?:\\s+LIMIT\\s+\\d+)?|(?:OFFSET\\s+\\d+\\s+ROWS?\\s+)?FETCH\\s+(?:FIRST|NEXT)\\s+\\d+\\s+ROWS?"
          + "\\s+ONLY)\\s*$");

  /**
   * The shape of a query that must run as written (another engine's dialect: PostgreSQL): keys only where they
   * are output columns (else every row is its own tie group), and the window taken off the text only when it is
   * a trailing {@code LIMIT n [OFFSET m]} (else the query runs with it and its rows are compared as they come).
   *
   * @param statement DuckDB's tree of the query, or null when DuckDB's parser cannot read it
   */
  static OutputShape asWritten(String sql, @Nullable JsonNode statement, SqlParser parser) {
    if (statement == null) {
      boolean ordered = sql.toUpperCase(java.util.Locale.ROOT).contains("ORDER BY");
      return new OutputShape(sql, 0, List.of(), ordered, ordered, 0, -1, false, "");
    }
    JsonNode node = statement.path("node");
    JsonNode orderBy = null;
    JsonNode limitModifier = null;
    for (JsonNode m : node.path("modifiers")) {
      String type = m.path("type").asText("");
      if (type.equals("ORDER_MODIFIER")) {
        orderBy = m;
      } else if (type.equals("LIMIT_MODIFIER") || type.equals("LIMIT_PERCENT_MODIFIER")) {
        limitModifier = m;
      }
    }
    boolean ordered = orderBy != null && !orderBy.path("orders").isEmpty();
    List<Integer> keys = new ArrayList<>();
    boolean strict = false;
    if (ordered) {
      boolean star = hasStar(leftmostSelect(node));
      List<String> names = star ? List.of() : outputNames(node, parser);
      List<String> texts = star ? List.of() : outputTexts(node, parser);
      for (JsonNode o : orderBy.path("orders")) {
        int index = star ? -1 : resolve(o.path("expression"), names, texts, parser);
        if (index < 0) {
          strict = true;
          keys.clear();
          break;
        }
        keys.add(index);
      }
    }
    if (limitModifier == null) {
      return new OutputShape(sql, 0, keys, ordered, strict, 0, -1, true, "");
    }
    long limit = QueryFacts.constantLong(limitModifier.path("limit"));
    long offset = limitModifier.path("offset").isObject() ? QueryFacts.constantLong(limitModifier.path("offset")) : 0;
    java.util.regex.Matcher m = TRAILING_WINDOW.matcher(sql);
    boolean constant = !limitModifier.path("type").asText("").equals("LIMIT_PERCENT_MODIFIER")
        && (limit >= 0 || !limitModifier.path("limit").isObject()) && offset >= 0;
    if (!constant || !m.matches()) {
      return new OutputShape(sql, 0, keys, ordered, ordered, 0, -1, false, "");
    }
    String text = (limit >= 0 ? "LIMIT " + limit : "") + (offset > 0 ? (limit >= 0 ? " " : "") + "OFFSET " + offset
        : "");
    return new OutputShape(m.group(1), 0, keys, ordered, strict, offset, limit, true, text);
  }

  /** This shape without its window (the whole ordered result). */
  static OutputShape unwindowed(OutputShape s) {
    return new OutputShape(s.runnable, s.hidden, s.keyColumns, s.ordered, s.strict, 0, -1, true, "");
  }

  /** The same query compared strictly (no hidden keys): when the hidden keys cannot be bound. */
  OutputShape strictFallback(String sql, JsonNode statement, SqlParser parser) {
    ObjectNode copy = (ObjectNode) statement.deepCopy();
    ObjectNode node = (ObjectNode) copy.path("node");
    ArrayNode kept = Trees.JSON.createArrayNode();
    for (JsonNode m : node.path("modifiers")) {
      String type = m.path("type").asText("");
      if (!type.equals("LIMIT_MODIFIER") && !type.equals("LIMIT_PERCENT_MODIFIER")) {
        kept.add(m);
      }
    }
    node.set("modifiers", kept);
    return new OutputShape(parser.render(copy), 0, List.of(), ordered, ordered, offset, limit, windowKnown,
        limitText);
  }

  private static int resolve(JsonNode e, List<String> names, List<String> texts, SqlParser parser) {
    String cls = e.path("class").asText("");
    if (cls.equals("CONSTANT")) {
      long position = QueryFacts.constantLong(e);
      return position >= 1 && position <= names.size() ? (int) position - 1 : -2;
    }
    if (cls.equals("COLUMN_REF") && e.path("column_names").size() == 1) {
      String name = e.path("column_names").get(0).asText().toLowerCase(Locale.ROOT);
      int first = names.indexOf(name);
      if (first >= 0 && first == names.lastIndexOf(name)) {
        return first;
      }
    }
    String text = expressionText(e, parser);
    int at = texts.indexOf(text);
    return at >= 0 && at == texts.lastIndexOf(text) ? at : -1;
  }

  private static JsonNode leftmostSelect(JsonNode node) {
    JsonNode n = node;
    for (int depth = 0; depth < 64 && "SET_OPERATION_NODE".equals(n.path("type").asText()); depth++) {
      JsonNode children = n.path("children");
      n = children.isArray() && !children.isEmpty() ? children.get(0) : n.path("left");
    }
    return n;
  }

  private static List<String> outputNames(JsonNode node, SqlParser parser) {
    List<String> out = new ArrayList<>();
    for (JsonNode item : leftmostSelect(node).path("select_list")) {
      String alias = item.path("alias").asText("");
      if (!alias.isEmpty()) {
        out.add(alias.toLowerCase(Locale.ROOT));
      } else if ("COLUMN_REF".equals(item.path("class").asText())) {
        JsonNode parts = item.path("column_names");
        out.add(parts.get(parts.size() - 1).asText().toLowerCase(Locale.ROOT));
      } else {
        out.add("\u0000" + out.size());
      }
    }
    return out;
  }

  private static List<String> outputTexts(JsonNode node, SqlParser parser) {
    List<String> out = new ArrayList<>();
    if (!"SELECT_NODE".equals(node.path("type").asText())) {
      return out;
    }
    for (JsonNode item : node.path("select_list")) {
      out.add(expressionText(item, parser));
    }
    return out;
  }

  private static String expressionText(JsonNode e, SqlParser parser) {
    ObjectNode copy = (ObjectNode) e.deepCopy();
    copy.put("alias", "");
    try {
      return parser.renderExpression(copy).toLowerCase(Locale.ROOT);
    } catch (RuntimeException ex) {
      return "\u0000" + System.identityHashCode(e);
    }
  }

  private static boolean hasStar(JsonNode node) {
    for (JsonNode item : node.path("select_list")) {
      if ("STAR".equals(item.path("class").asText())) {
        return true;
      }
    }
    return false;
  }
}
