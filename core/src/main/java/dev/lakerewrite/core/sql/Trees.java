package dev.lakerewrite.core.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The one set of helpers for reading and editing DuckDB's JSON syntax trees ({@link SqlParser}): whole queries,
 * query nodes, expressions, table references, CTEs and WHERE conjuncts. New nodes are made by parsing SQL text
 * with DuckDB's own parser, so every node has exactly the shape the engine expects, and edited trees are rendered
 * back by DuckDB, so what the rewriter and the optimizer emit is what DuckDB itself prints for the tree. Each
 * walk is linear in the size of the tree. Public because the rewriter ({@code core.rewrite}) and the optimizer
 * ({@code core.optimize}) both edit trees; an instance is bound to its parser's thread rules.
 */
public final class Trees {
  /** The JSON mapper for syntax trees (shared; do not reconfigure). */
  public static final ObjectMapper JSON = new ObjectMapper();

  private final SqlParser parser;

  public Trees(SqlParser parser) {
    this.parser = Objects.requireNonNull(parser, "parser");
  }

  /** The parser these helpers parse and render with. */
  public SqlParser parser() {
    return parser;
  }

  /** The single statement of {@code sql}, as a fresh (editable) copy. */
  public ObjectNode statement(String sql) {
    ParsedSql parsed = parser.parse(sql);
    if (parsed.statementCount() != 1) {
      throw new IllegalArgumentException("expected one statement, got " + parsed.statementCount());
    }
    return parsed.statement(0).deepCopy();
  }

  /** The query node (SELECT_NODE, SET_OPERATION_NODE...) of {@code sql}, editable. */
  public ObjectNode node(String sql) {
    return (ObjectNode) statement(sql).get("node");
  }

  /** Renders a statement tree. */
  public String render(ObjectNode statement) {
    return parser.render(statement);
  }

  /** Renders a bare query node (with its own CTEs). */
  public String renderNode(JsonNode node) {
    ObjectNode statement = JSON.createObjectNode();
    statement.set("node", node.deepCopy());
    statement.putArray("named_param_map");
    return parser.render(statement);
  }

  /** Renders an expression without its alias. */
  public String expression(JsonNode expression) {
    ObjectNode copy = expression.deepCopy();
    copy.put("alias", "");
    return parser.renderExpression(copy);
  }

  /** Parses one expression. */
  public ObjectNode parseExpression(String text) {
    ObjectNode node = node("SELECT " + text);
    JsonNode list = node.path("select_list");
    if (list.size() != 1) {
      throw new IllegalArgumentException("expected one expression, got " + list.size() + ": " + text);
    }
    return (ObjectNode) list.get(0);
  }

  /** Parses a FROM clause (one or more table references, joins). */
  public ObjectNode parseFrom(String text) {
    return (ObjectNode) node("SELECT * FROM " + text).get("from_table");
  }

  /** Renders a FROM clause (table reference tree). */
  public String renderFrom(JsonNode fromTable) {
    ObjectNode node = node("SELECT * FROM lakerewrite_placeholder");
    node.set("from_table", fromTable.deepCopy());
    String sql = renderNode(node);
    String prefix = "SELECT * FROM ";
    return sql.startsWith(prefix) ? sql.substring(prefix.length()) : sql;
  }

  /** The cte_map entries of {@code WITH <definitions> SELECT 1}. */
  public List<JsonNode> cteEntries(String definitions) {
    List<JsonNode> out = new ArrayList<>();
    statement("WITH " + definitions + " SELECT 1").path("node").path("cte_map").path("map").forEach(out::add);
    return out;
  }

  /** Visits every SELECT_NODE of a tree, outer ones first (CTE bodies, set-operation branches, subqueries). */
  public static void selectNodes(JsonNode node, Consumer<ObjectNode> visitor) {
    visit(node, n -> {
      if ("SELECT_NODE".equals(n.path("type").asText()) && n.has("select_list")) {
        visitor.accept((ObjectNode) n);
      }
    });
  }

  /** Column names of a COLUMN_REF node, e.g. {@code ["r", "label"]}. */
  public static List<String> columnNames(JsonNode columnRef) {
    List<String> out = new ArrayList<>();
    columnRef.path("column_names").forEach(n -> out.add(n.asText()));
    return out;
  }

  /** The column a COLUMN_REF names, without its qualifier: {@code label} for {@code r.label}. */
  public static String columnName(JsonNode columnRef) {
    JsonNode names = columnRef.path("column_names");
    return names.path(names.size() - 1).asText();
  }

  /** Points a COLUMN_REF at {@code qualifier.column} (no qualifier when null). */
  public static void setColumn(ObjectNode columnRef, @Nullable String qualifier, String column) {
    ArrayNode names = columnRef.putArray("column_names");
    if (qualifier != null) {
      names.add(qualifier);
    }
    names.add(column);
  }

  /**
   * Replaces the content of {@code target} with a copy of {@code replacement} in place (so that parents keep
   * pointing at it). An expression or table reference keeps the target's alias: it is still selected, or
   * referred to, under the same name; a node without an alias (a query node) takes the replacement as it is.
   */
  public static void replace(ObjectNode target, ObjectNode replacement) {
    JsonNode alias = target.get("alias");
    target.removeAll();
    target.setAll(replacement.deepCopy());
    if (alias != null) {
      target.set("alias", alias);
    }
  }

  /**
   * The operands of a set operation node, in order: DuckDB writes a chain of one operator as a {@code children}
   * list, a single operation as {@code left} and {@code right}. A new, modifiable list.
   */
  public static List<JsonNode> setOperands(JsonNode setOperation) {
    List<JsonNode> operands = new ArrayList<>();
    if (setOperation.path("children").isArray() && !setOperation.path("children").isEmpty()) {
      setOperation.path("children").forEach(operands::add);
    } else {
      operands.add(setOperation.path("left"));
      operands.add(setOperation.path("right"));
    }
    return operands;
  }

  /** The conjuncts of a boolean expression (an AND tree flattened); empty for null. */
  public static List<JsonNode> conjuncts(@Nullable JsonNode e) {
    List<JsonNode> out = new ArrayList<>();
    if (e == null || e.isNull() || e.isMissingNode()) {
      return out;
    }
    if ("CONJUNCTION_AND".equals(e.path("type").asText())) {
      for (JsonNode c : e.path("children")) {
        out.addAll(conjuncts(c));
      }
    } else {
      out.add(e);
    }
    return out;
  }

  /** The disjuncts of a boolean expression (an OR tree flattened). */
  public static List<JsonNode> disjuncts(@Nullable JsonNode e) {
    List<JsonNode> out = new ArrayList<>();
    if ("CONJUNCTION_OR".equals(e.path("type").asText())) {
      for (JsonNode c : e.path("children")) {
        out.addAll(disjuncts(c));
      }
    } else {
      out.add(e);
    }
    return out;
  }

  /** Joins rendered conjuncts with AND (each parenthesised); "true" when empty. */
  public static String and(List<String> parts) {
    if (parts.isEmpty()) {
      return "true";
    }
    if (parts.size() == 1) {
      return parts.get(0);
    }
    StringBuilder sb = new StringBuilder();
    for (String p : parts) {
      if (sb.length() > 0) {
        sb.append(" AND ");
      }
      sb.append('(').append(p).append(')');
    }
    return sb.toString();
  }

  /** Visits every object node of a tree, depth first, parents before children. */
  public static void visit(@Nullable JsonNode n, Consumer<JsonNode> visitor) {
    if (n == null) {
      return;
    }
    if (n.isObject()) {
      visitor.accept(n);
    }
    if (n.isContainerNode()) {
      for (JsonNode child : n) {
        visit(child, visitor);
      }
    }
  }

  /** Visits every object node, but does not descend into subqueries (expression or FROM subqueries). */
  public static void visitShallow(@Nullable JsonNode n, Consumer<JsonNode> visitor) {
    if (n == null) {
      return;
    }
    if (n.isObject()) {
      visitor.accept(n);
      n.fields().forEachRemaining(f -> {
        if (!f.getKey().equals("subquery") && !f.getKey().equals("cte_map")) {
          visitShallow(f.getValue(), visitor);
        }
      });
    } else if (n.isArray()) {
      for (JsonNode child : n) {
        visitShallow(child, visitor);
      }
    }
  }

  /**
   * Whether a FROM tree joins only by commas and inner joins (with ON conditions, not USING, NATURAL, POSITIONAL or
   * LATERAL), not descending into subqueries.
   */
  public static boolean innerJoinsOnly(JsonNode from) {
    return joinsOnly(from, n -> n.path("using_columns").isEmpty()
        && Set.of("REGULAR", "CROSS").contains(n.path("ref_type").asText("REGULAR")));
  }

  /** Whether a FROM tree joins only by commas and inner joins without ON conditions or USING (cross products). */
  public static boolean crossJoinsOnly(JsonNode from) {
    return joinsOnly(from, n -> !n.path("condition").isObject() && n.path("using_columns").isEmpty());
  }

  /** Whether every join of a FROM tree (not descending into subqueries) is an inner join {@code allowed} accepts. */
  private static boolean joinsOnly(JsonNode from, java.util.function.Predicate<JsonNode> allowed) {
    boolean[] ok = {true};
    visitShallow(from, n -> {
      if ("JOIN".equals(n.path("type").asText())
          && (!"INNER".equals(n.path("join_type").asText("INNER")) || !allowed.test(n))) {
        ok[0] = false;
      }
    });
    return ok[0];
  }

  /** The column references of an expression (not descending into subqueries), as their name parts. */
  public static List<List<String>> columnRefs(JsonNode expression) {
    List<List<String>> out = new ArrayList<>();
    visitShallow(expression, n -> {
      if ("COLUMN_REF".equals(n.path("class").asText())) {
        List<String> parts = new ArrayList<>();
        n.path("column_names").forEach(p -> parts.add(p.asText()));
        out.add(parts);
      }
    });
    return out;
  }

  /** Whether the expression holds a subquery anywhere. */
  public static boolean hasSubquery(JsonNode expression) {
    boolean[] found = {false};
    visit(expression, n -> {
      if ("SUBQUERY".equals(n.path("class").asText()) || "SUBQUERY".equals(n.path("type").asText())) {
        found[0] = true;
      }
    });
    return found[0];
  }

  /** Whether the expression calls an aggregate function (outside subqueries; window functions excluded). */
  public static boolean hasAggregate(JsonNode expression) {
    boolean[] found = {false};
    visitShallow(expression, n -> {
      if ("FUNCTION".equals(n.path("class").asText()) && SqlAnalyzer.isAggregate(n.path("function_name").asText())) {
        found[0] = true;
      }
    });
    return found[0];
  }

  /** Whether the expression holds a window function (outside subqueries). */
  public static boolean hasWindow(JsonNode expression) {
    boolean[] found = {false};
    visitShallow(expression, n -> {
      if ("WINDOW".equals(n.path("class").asText())) {
        found[0] = true;
      }
    });
    return found[0];
  }

  /** The LIMIT modifier of a query node, if it has one. */
  public static @Nullable JsonNode limitModifier(JsonNode node) {
    for (JsonNode m : node.path("modifiers")) {
      if ("LIMIT_MODIFIER".equals(m.path("type").asText()) || "LIMIT_PERCENT_MODIFIER".equals(m.path("type").asText())) {
        return m;
      }
    }
    return null;
  }

  /** Whether a query node is SELECT DISTINCT (a DISTINCT modifier, DISTINCT ON included). */
  public static boolean hasDistinct(JsonNode node) {
    for (JsonNode m : node.path("modifiers")) {
      if ("DISTINCT_MODIFIER".equals(m.path("type").asText())) {
        return true;
      }
    }
    return false;
  }

  /** The ORDER BY modifier of a query node, if it has one. */
  public static @Nullable JsonNode orderModifier(JsonNode node) {
    for (JsonNode m : node.path("modifiers")) {
      if ("ORDER_MODIFIER".equals(m.path("type").asText())) {
        return m;
      }
    }
    return null;
  }

  /** Removes the outermost LIMIT/OFFSET of a query; returns whether there was one. */
  public static boolean removeLimit(ObjectNode node) {
    JsonNode mods = node.path("modifiers");
    if (!mods.isArray()) {
      return false;
    }
    ArrayNode kept = JSON.createArrayNode();
    boolean removed = false;
    for (JsonNode m : mods) {
      String type = m.path("type").asText();
      if (type.equals("LIMIT_MODIFIER") || type.equals("LIMIT_PERCENT_MODIFIER")) {
        removed = true;
      } else {
        kept.add(m);
      }
    }
    node.set("modifiers", kept);
    return removed;
  }

  /** The CTE entries ({key, value}) of a node's WITH clause. */
  public static List<ObjectNode> ctes(JsonNode node) {
    List<ObjectNode> out = new ArrayList<>();
    for (JsonNode e : node.path("cte_map").path("map")) {
      out.add((ObjectNode) e);
    }
    return out;
  }

  /** Base table names referenced anywhere in a tree (including subqueries and CTE bodies), lower-cased. */
  public static List<String> baseTables(JsonNode tree) {
    List<String> out = new ArrayList<>();
    visit(tree, n -> {
      if ("BASE_TABLE".equals(n.path("type").asText()) && n.has("table_name")) {
        out.add(n.path("table_name").asText().toLowerCase(Locale.ROOT));
      }
    });
    return out;
  }

  /** The base tables and subqueries joined in a FROM tree, left to right (joins flattened). */
  public static List<JsonNode> fromItems(@Nullable JsonNode from) {
    List<JsonNode> out = new ArrayList<>();
    if (from == null || from.isNull() || from.isMissingNode()) {
      return out;
    }
    if ("JOIN".equals(from.path("type").asText())) {
      out.addAll(fromItems(from.path("left")));
      out.addAll(fromItems(from.path("right")));
    } else {
      out.add(from);
    }
    return out;
  }

  /** The name a FROM item is referred to by: its alias, else its table name; empty for anonymous subqueries. */
  public static String referenceName(JsonNode fromItem) {
    String alias = fromItem.path("alias").asText("");
    if (!alias.isEmpty()) {
      return alias;
    }
    return fromItem.path("table_name").asText("");
  }
}
