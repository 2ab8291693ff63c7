package dev.lakerewrite.core.rewrite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.ParsedSql;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.SqlSyntaxException;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Accepts user queries written with SQLite, MySQL, SQL Server or PostgreSQL habits that DuckDB's parser refuses,
 * by rewriting only what stops it: {@code `name`} and {@code [name]} identifiers become {@code "name"}, MySQL's
 * {@code LIMIT offset, count} becomes {@code LIMIT count OFFSET offset}, and a keyword used as a column or table
 * name ({@code show}, {@code character}, {@code year}...) is quoted where the parser stops at it. Then two habits
 * DuckDB's binder would refuse are repaired in the parsed query: a column selected beside aggregates without being
 * grouped, and (with the lake's column names) a double-quoted string literal. Otherwise a query that parses as
 * written is never touched; every change is listed for the trace. String literals and comments are never edited.
 * At most {@link #MAX_QUOTED} keywords are quoted, each parse linear in the query's length.
 */
final class DialectNormalizer {
  static final int MAX_QUOTED = 16;
  private static final Pattern LIMIT_COMMA = Pattern.compile("(?i)\\bLIMIT\\s+(\\d+)\\s*,\\s*(\\d+)");
  private static final Pattern NEAR = Pattern.compile("at or near \"([^\"]+)\"");

  /**
   * The query DuckDB can parse and what was changed to get it.
   *
   * @param sql the query to rewrite (the input when nothing was changed)
   * @param changes one line per change, empty when the input parsed as written
   */
  record Normalized(String sql, List<String> changes) {}

  /** Text {@code [start, end)} of the query (character indexes) replaced by {@code text}. */
  private record Edit(int start, int end, String text) {}

  /** Edits that repair one habit together, and the trace line that says so. */
  private record Repair(List<Edit> edits, String change) {}

  private DialectNormalizer() {}

  static Normalized normalize(String sql, SqlParser parser) {
    return normalize(sql, parser, name -> true);
  }

  /**
   * As {@link #normalize(String, SqlParser)}, and with the lake's column names known: a double-quoted name compared
   * with a column ({@code currency = "USD"}, {@code IN ("a", "b")}, {@code LIKE "%x"}) that no lake table has as a
   * column and that the query names nowhere else is the string literal MySQL and SQLite read there.
   *
   * @param isLakeColumn whether some table of the lake has a column of this name (case-insensitive)
   */
  static Normalized normalize(String sql, SqlParser parser, Predicate<String> isLakeColumn) {
    ParsedSql parsed = tryParse(sql, parser);
    if (parsed != null) {
      return repaired(sql, parsed, parser, isLakeColumn, new ArrayList<>());
    }
    if (parses(sql, parser) == null) {
      return new Normalized(sql, List.of()); // a statement that is not a query: refused later, as it is
    }
    List<String> changes = new ArrayList<>();
    String s = lexical(sql, changes);
    for (int i = 0; i < MAX_QUOTED; i++) {
      SqlSyntaxException e = parses(s, parser);
      if (e == null) {
        ParsedSql now = tryParse(s, parser);
        return now == null ? new Normalized(s, changes) : repaired(s, now, parser, isLakeColumn, changes);
      }
      String quoted = quoteKeywordAt(s, e);
      if (quoted == null) {
        break;
      }
      int[] word = wordChanged(s, quoted);
      changes.add("quoted the keyword " + s.substring(word[0], word[1]) + " used as a name");
      s = quoted;
    }
    // Nothing we know of helps: the original's error is the one to report.
    return new Normalized(sql, List.of());
  }

  /**
   * SQLite and MySQL let an aggregating query select a column that is neither grouped nor aggregated (the value of
   * some row of the group); DuckDB and PostgreSQL refuse it. Each such select item, a bare column, is wrapped in
   * {@code any_value(...)} under its own name, which is what those engines return. Only top-level select items are
   * touched, edited in place in the text (the rest of the query keeps its spelling). Linear in the tree's size.
   */
  private static @Nullable Repair bareColumnsBesideAggregates(String sql, ParsedSql parsed) {
    List<Edit> edits = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (ObjectNode statement : parsed.statements()) {
      Trees.selectNodes(statement, node -> {
        JsonNode groups = node.path("group_expressions");
        boolean aggregating = !groups.isEmpty();
        for (JsonNode item : node.path("select_list")) {
          aggregating |= Trees.hasAggregate(item) && !"WINDOW".equals(item.path("class").asText());
        }
        if (!aggregating || node.path("group_sets").size() > 1
            || !"STANDARD_HANDLING".equals(node.path("aggregate_handling").asText("STANDARD_HANDLING"))) {
          return;
        }
        for (JsonNode item : node.path("select_list")) {
          if (!"COLUMN_REF".equals(item.path("class").asText()) || grouped(item, groups)) {
            continue;
          }
          int[] span = sourceSpan(sql, item);
          if (span == null) {
            continue;
          }
          String name = Trees.columnName(item);
          boolean unnamed = item.path("alias").asText("").isEmpty();
          edits.add(new Edit(span[0], span[1], "any_value(" + sql.substring(span[0], span[1]) + ")"
              + (unnamed ? " AS " + Sql.identifier(name) : "")));
          names.add(name);
        }
      });
    }
    return edits.isEmpty() ? null : new Repair(edits, "selected beside aggregates without being grouped, as SQLite"
        + " and MySQL allow: " + String.join(", ", names) + " read as any_value(...)");
  }

  private static final Set<String> LIKE_FUNCTIONS = Set.of("~~", "!~~", "~~*", "!~~*",
      "like_escape", "not_like_escape", "ilike_escape", "not_ilike_escape");

  /** Double-quoted names used as string literals (see {@link #normalize(String, SqlParser, Predicate)}). */
  private static @Nullable Repair doubleQuotedLiterals(String sql, ParsedSql parsed,
      Predicate<String> isLakeColumn) {
    Map<String, Integer> references = new HashMap<>();
    Map<String, List<int[]>> candidates = new LinkedHashMap<>();
    for (ObjectNode statement : parsed.statements()) {
      Trees.visit(statement, n -> {
        if ("COLUMN_REF".equals(n.path("class").asText())) {
          references.merge(Trees.columnName(n).toLowerCase(Locale.ROOT), 1, Integer::sum);
        }
        if (!n.path("alias").asText("").isEmpty()) {
          references.merge(n.path("alias").asText().toLowerCase(Locale.ROOT), 1_000, Integer::sum); // a name it defines
        }
        List<JsonNode> operands = comparedOperands(n);
        boolean columnOperand = operands.stream().anyMatch(o -> "COLUMN_REF".equals(o.path("class").asText())
            && quotedSpan(sql, o) == null);
        if (!columnOperand) {
          return;
        }
        for (JsonNode o : operands) {
          int[] span = "COLUMN_REF".equals(o.path("class").asText()) ? quotedSpan(sql, o) : null;
          if (span != null && Trees.columnNames(o).size() == 1) {
            candidates.computeIfAbsent(Trees.columnNames(o).get(0), k -> new ArrayList<>()).add(span);
          }
        }
      });
    }
    List<Edit> edits = new ArrayList<>();
    List<String> literals = new ArrayList<>();
    candidates.forEach((name, spans) -> {
      if (!isLakeColumn.test(name) && references.getOrDefault(name.toLowerCase(Locale.ROOT), 0) == spans.size()) {
        for (int[] span : spans) {
          String text = sql.substring(span[0] + 1, span[1] - 1).replace("\"\"", "\"");
          edits.add(new Edit(span[0], span[1], Sql.literal(text)));
        }
        literals.add("\"" + name + "\"");
      }
    });
    return edits.isEmpty() ? null : new Repair(edits, "double-quoted " + String.join(", ", literals)
        + " read as string literal" + (literals.size() > 1 ? "s" : "")
        + " (no lake column has that name; MySQL and SQLite read it so)");
  }

  /**
   * The binder-level repairs of a query that parses, each kept only when the repaired text still parses: first
   * double-quoted literals, then bare columns beside aggregates (found on the text the first left).
   */
  private static Normalized repaired(String sql, ParsedSql parsed, SqlParser parser, Predicate<String> isLakeColumn,
      List<String> changes) {
    String s = sql;
    ParsedSql tree = parsed;
    Repair literals = doubleQuotedLiterals(s, tree, isLakeColumn);
    if (literals != null) {
      String edited = applied(s, literals.edits());
      ParsedSql again = tryParse(edited, parser);
      if (again != null) {
        s = edited;
        tree = again;
        changes.add(literals.change());
      }
    }
    Repair bare = bareColumnsBesideAggregates(s, tree);
    if (bare != null) {
      String edited = applied(s, bare.edits());
      if (tryParse(edited, parser) != null) {
        s = edited;
        changes.add(bare.change());
      }
    }
    return new Normalized(s, changes);
  }

  /** The text with the edits applied (they do not overlap), last first so earlier indexes stay valid. */
  private static String applied(String sql, List<Edit> edits) {
    List<Edit> byStart = new ArrayList<>(edits);
    byStart.sort(Comparator.comparingInt(Edit::start).reversed());
    StringBuilder out = new StringBuilder(sql);
    for (Edit e : byStart) {
      out.replace(e.start(), e.end(), e.text());
    }
    return out.toString();
  }

  private static @Nullable ParsedSql tryParse(String sql, SqlParser parser) {
    try {
      return parser.parse(sql);
    } catch (SqlSyntaxException e) {
      return null;
    }
  }

  /** The operands a comparison, IN list or LIKE compares; empty for any other node. */
  private static List<JsonNode> comparedOperands(JsonNode n) {
    List<JsonNode> out = new ArrayList<>();
    String cls = n.path("class").asText("");
    String type = n.path("type").asText("");
    if ("COMPARISON".equals(cls)) {
      out.add(n.path("left"));
      out.add(n.path("right"));
    } else if ("OPERATOR".equals(cls) && (type.equals("COMPARE_IN") || type.equals("COMPARE_NOT_IN"))) {
      n.path("children").forEach(out::add);
    } else if ("FUNCTION".equals(cls) && LIKE_FUNCTIONS.contains(n.path("function_name").asText())) {
      n.path("children").forEach(out::add);
      n.path("arguments").forEach(a -> out.add(a.has("expression") ? a.path("expression") : a));
    }
    return out;
  }

  /** The character span of a node written in double quotes in {@code sql}, quotes included; else null. */
  private static int @Nullable [] quotedSpan(String sql, JsonNode node) {
    int[] span = sourceSpan(sql, node);
    if (span == null || span[1] - span[0] < 2 || sql.charAt(span[0]) != '"' || sql.charAt(span[1] - 1) != '"') {
      return null;
    }
    return span;
  }

  /** The character span {@code [start, end)} a parsed node was written at in {@code sql}; null when unknown. */
  private static int @Nullable [] sourceSpan(String sql, JsonNode node) {
    if (!node.has("query_location_length")) {
      return null;
    }
    int location = node.path("query_location").asInt(-1);
    int start = charIndex(sql, location);
    int end = charIndex(sql, location + node.path("query_location_length").asInt());
    return start < 0 || end <= start ? null : new int[] {start, end};
  }

  /** Whether a selected column is one of the GROUP BY expressions, or names one by its alias. */
  private static boolean grouped(JsonNode column, JsonNode groups) {
    List<String> parts = Trees.columnNames(column);
    String name = Trees.columnName(column);
    String alias = column.path("alias").asText("");
    for (JsonNode g : groups) {
      if (!"COLUMN_REF".equals(g.path("class").asText())) {
        if ("CONSTANT".equals(g.path("class").asText())) {
          return true; // GROUP BY 1: positions are not resolved here, so nothing is wrapped
        }
        continue;
      }
      List<String> gp = Trees.columnNames(g);
      String gName = Trees.columnName(g);
      boolean sameName = gName.equalsIgnoreCase(name) && (gp.size() == 1 || parts.size() == 1
          || gp.get(gp.size() - 2).equalsIgnoreCase(parts.get(parts.size() - 2)));
      if (sameName || gp.size() == 1 && gName.equalsIgnoreCase(alias)) {
        return true;
      }
    }
    return false;
  }

  /** The index in {@code s} of the character at a UTF-8 byte offset (DuckDB's query locations count bytes). */
  static int charIndex(String s, int byteOffset) {
    if (byteOffset < 0) {
      return -1;
    }
    int bytes = 0;
    for (int i = 0; i < s.length(); i++) {
      if (bytes == byteOffset) {
        return i;
      }
      if (bytes > byteOffset) {
        return -1;
      }
      int cp = s.codePointAt(i);
      bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (Character.charCount(cp) == 2) {
        i++;
      }
    }
    return bytes == byteOffset ? s.length() : -1;
  }

  private static @Nullable SqlSyntaxException parses(String sql, SqlParser parser) {
    try {
      parser.parse(sql);
      return null;
    } catch (SqlSyntaxException e) {
      return e.notAQuery() ? null : e;
    }
  }

  /** Backticks and brackets to double quotes, {@code LIMIT a, b}; outside string literals and comments. */
  private static String lexical(String sql, List<String> changes) {
    StringBuilder out = new StringBuilder(sql.length());
    boolean backtick = false;
    boolean bracket = false;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      int end = skipLiteralOrComment(sql, i);
      if (end > i) {
        out.append(sql, i, end);
        i = end;
        continue;
      }
      if (c == '`') {
        int close = sql.indexOf('`', i + 1);
        if (close > i) {
          out.append('"').append(sql.substring(i + 1, close).replace("\"", "\"\"")).append('"');
          backtick = true;
          i = close + 1;
          continue;
        }
      }
      if (c == '[' && bracketIdentifier(sql, i)) {
        int close = sql.indexOf(']', i + 1);
        out.append('"').append(sql, i + 1, close).append('"');
        bracket = true;
        i = close + 1;
        continue;
      }
      out.append(c);
      i++;
    }
    if (backtick) {
      changes.add("`name` identifiers written as \"name\"");
    }
    if (bracket) {
      changes.add("[name] identifiers written as \"name\"");
    }
    String s = out.toString();
    Matcher m = LIMIT_COMMA.matcher(s);
    if (m.find() && !insideLiteral(s, m.start())) {
      changes.add("LIMIT " + m.group(1) + ", " + m.group(2) + " written as LIMIT " + m.group(2) + " OFFSET "
          + m.group(1));
      s = s.substring(0, m.start()) + "LIMIT " + m.group(2) + " OFFSET " + m.group(1) + s.substring(m.end());
    }
    return s;
  }

  /** A {@code [name]} in a position where a name can stand (not a list literal or an index). */
  private static boolean bracketIdentifier(String sql, int i) {
    int close = sql.indexOf(']', i + 1);
    if (close < 0 || !sql.substring(i + 1, close).matches("[A-Za-z_][A-Za-z0-9_ $#]*")) {
      return false;
    }
    int p = i - 1;
    while (p >= 0 && Character.isWhitespace(sql.charAt(p))) {
      p--;
    }
    // After a name or a closing parenthesis, [x] would index it.
    return p < 0 || !(Character.isLetterOrDigit(sql.charAt(p)) || sql.charAt(p) == '_' || sql.charAt(p) == ')'
        || sql.charAt(p) == '"' || sql.charAt(p) == ']') || keywordBefore(sql, p);
  }

  /** Whether the word ending at {@code p} is a keyword after which a name follows (SELECT, FROM, ...). */
  private static boolean keywordBefore(String sql, int p) {
    int start = p;
    while (start >= 0 && (Character.isLetter(sql.charAt(start)) || sql.charAt(start) == '_')) {
      start--;
    }
    String word = sql.substring(start + 1, p + 1).toUpperCase(Locale.ROOT);
    return List.of("SELECT", "FROM", "JOIN", "WHERE", "AND", "OR", "ON", "BY", "AS", "DISTINCT", "NOT", "HAVING",
        "SET", "INTO", "UPDATE", "TABLE", "WHEN", "THEN", "ELSE", "IN").contains(word);
  }

  /** The end of a string literal, quoted identifier or comment starting at {@code i}, or {@code i}. */
  private static int skipLiteralOrComment(String sql, int i) {
    char c = sql.charAt(i);
    int n = sql.length();
    if (c == '\'' || c == '"') {
      int j = i + 1;
      while (j < n) {
        if (sql.charAt(j) == c) {
          if (j + 1 < n && sql.charAt(j + 1) == c) {
            j += 2;
            continue;
          }
          return j + 1;
        }
        j++;
      }
      return n;
    }
    if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
      int nl = sql.indexOf('\n', i);
      return nl < 0 ? n : nl;
    }
    if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
      int close = sql.indexOf("*/", i + 2);
      return close < 0 ? n : close + 2;
    }
    return i;
  }

  private static boolean insideLiteral(String sql, int pos) {
    int i = 0;
    while (i < pos) {
      int end = skipLiteralOrComment(sql, i);
      if (end > i) {
        if (end > pos) {
          return true;
        }
        i = end;
      } else {
        i++;
      }
    }
    return false;
  }

  /**
   * The query with the bare word the parser stopped at (or the one before it, when the parser only noticed at the
   * next token: {@code SELECT character FROM} fails at FROM) in double quotes, or null when there is none.
   */
  private static @Nullable String quoteKeywordAt(String sql, SqlSyntaxException e) {
    List<int[]> words = bareWords(sql);
    if (words.isEmpty()) {
      return null;
    }
    int position = e.position();
    Matcher near = NEAR.matcher(String.valueOf(e.getMessage()));
    String token = near.find() ? near.group(1) : null;
    int at = -1;
    for (int k = 0; k < words.size(); k++) {
      int[] w = words.get(k);
      boolean hit = position >= 0 ? w[0] <= position && position < Math.max(w[1], w[0] + 1) : token != null
          && sql.substring(w[0], w[1]).equalsIgnoreCase(token);
      if (hit) {
        at = k;
        break;
      }
    }
    if (at < 0 && position >= 0) {
      for (int k = words.size() - 1; k >= 0; k--) {
        if (words.get(k)[1] <= position) {
          at = k + 1 < words.size() ? k + 1 : k;
          break;
        }
      }
    }
    if (at < 0) {
      return null;
    }
    // The word at the error, then the one before it.
    for (int k = at; k >= Math.max(0, at - 1); k--) {
      int[] w = words.get(k);
      String word = sql.substring(w[0], w[1]);
      if (STRUCTURAL.contains(word.toUpperCase(Locale.ROOT))) {
        continue;
      }
      return sql.substring(0, w[0]) + '"' + word + '"' + sql.substring(w[1]);
    }
    return null;
  }

  /** Words that are the query's own structure: never names. */
  private static final List<String> STRUCTURAL = List.of("SELECT", "FROM", "WHERE", "GROUP", "ORDER", "BY", "HAVING",
      "LIMIT", "OFFSET", "JOIN", "ON", "USING", "AND", "OR", "NOT", "AS", "WITH", "UNION", "EXCEPT", "INTERSECT",
      "ALL", "DISTINCT", "IN", "EXISTS", "BETWEEN", "LIKE", "ILIKE", "IS", "NULL", "CASE", "WHEN", "THEN", "ELSE",
      "END", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL", "ASC", "DESC", "TRUE", "FALSE", "CAST",
      "INTERVAL", "DATE", "TIMESTAMP", "OVER", "PARTITION", "FILTER", "LATERAL", "VALUES", "ANY", "SOME");

  /** Start and end offsets of the unquoted words outside literals and comments. */
  private static List<int[]> bareWords(String sql) {
    List<int[]> out = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n) {
      int end = skipLiteralOrComment(sql, i);
      if (end > i) {
        i = end;
        continue;
      }
      char c = sql.charAt(i);
      if (Character.isLetter(c) || c == '_') {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
          j++;
        }
        if (j >= n || sql.charAt(j) != '(') { // a function's name is not one to quote
          out.add(new int[] {i, j});
        }
        i = j;
      } else if (Character.isDigit(c)) {
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
          i++;
        }
      } else {
        i++;
      }
    }
    return out;
  }

  /** The word of {@code before} that {@code after} put in quotes. */
  private static int[] wordChanged(String before, String after) {
    int i = 0;
    while (i < before.length() && before.charAt(i) == after.charAt(i)) {
      i++;
    }
    int j = i;
    while (j < before.length() && (Character.isLetterOrDigit(before.charAt(j)) || before.charAt(j) == '_')) {
      j++;
    }
    return new int[] {i, j};
  }
}
