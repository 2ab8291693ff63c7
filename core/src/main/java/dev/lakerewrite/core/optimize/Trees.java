package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.Engine;
import dev.lakerewrite.core.sql.ParsedSql;
import dev.lakerewrite.core.sql.SqlParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Parse and render helpers over DuckDB's JSON syntax trees ({@link SqlParser}): whole queries, query nodes,
 * expressions, table references and WHERE conjuncts. Every rewrite the optimizer builds goes through these, so
 * what it emits is what DuckDB itself would print for the tree.
 */
final class Trees {
  static final ObjectMapper JSON = new ObjectMapper();

  private final SqlParser parser;
  private final Engine target;

  Trees(SqlParser parser) {
    this(parser, Engine.DUCKDB);
  }

  /** Trees whose {@link #renderForTarget} output runs on {@code target}. */
  Trees(SqlParser parser, Engine target) {
    this.parser = Objects.requireNonNull(parser, "parser");
    this.target = Objects.requireNonNull(target, "target");
  }

  Engine target() {
    return target;
  }

  /** Renders a statement for the target engine (DuckDB's printer, translated for PostgreSQL). */
  String renderForTarget(ObjectNode statement) {
    return forTarget(render(statement));
  }

  /** Text rendered by DuckDB, translated for the target engine (unchanged on DuckDB). */
  String forTarget(String duckdbText) {
    return target == Engine.POSTGRESQL ? PostgresDialect.fromDuckDb(duckdbText) : duckdbText;
  }

  SqlParser parser() {
    return parser;
  }

  /** The single statement of {@code sql}, as a fresh (editable) copy. */
  ObjectNode statement(String sql) {
    ParsedSql parsed = parser.parse(sql);
    if (parsed.statementCount() != 1) {
      throw new IllegalArgumentException("expected one statement, got " + parsed.statementCount());
    }
    return parsed.statement(0).deepCopy();
  }

  /** The query node (SELECT_NODE, SET_OPERATION_NODE...) of {@code sql}, editable. */
  ObjectNode node(String sql) {
    return (ObjectNode) statement(sql).get("node");
  }

  /** Renders a statement tree. */
  String render(ObjectNode statement) {
    return parser.render(statement);
  }

  /** Renders a bare query node (with its own CTEs). */
  String renderNode(JsonNode node) {
    ObjectNode statement = JSON.createObjectNode();
    statement.set("node", node.deepCopy());
    statement.putArray("named_param_map");
    return parser.render(statement);
  }

  /** Renders an expression without its alias. */
  String expression(JsonNode expression) {
    ObjectNode copy = expression.deepCopy();
    copy.put("alias", "");
    return parser.renderExpression(copy);
  }

  /** Parses one expression. */
  ObjectNode parseExpression(String text) {
    ObjectNode node = node("SELECT " + text);
    JsonNode list = node.path("select_list");
    if (list.size() != 1) {
      throw new IllegalArgumentException("expected one expression, got " + list.size() + ": " + text);
    }
    return (ObjectNode) list.get(0);
  }

  /** Parses a FROM clause (one or more table references, joins). */
  ObjectNode parseFrom(String text) {
    return (ObjectNode) node("SELECT * FROM " + text).get("from_table");
  }

  /** Renders a FROM clause (table reference tree). */
  String renderFrom(JsonNode fromTable) {
    ObjectNode node = node("SELECT * FROM lakerewrite_placeholder");
    node.set("from_table", fromTable.deepCopy());
    String sql = renderNode(node);
    String prefix = "SELECT * FROM ";
    return sql.startsWith(prefix) ? sql.substring(prefix.length()) : sql;
  }

  /** The conjuncts of a boolean expression (an AND tree flattened); empty for null. */
  static List<JsonNode> conjuncts(JsonNode e) {
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
  static List<JsonNode> disjuncts(JsonNode e) {
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
  static String and(List<String> parts) {
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
  static void visit(JsonNode n, Consumer<JsonNode> visitor) {
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
  static void visitShallow(JsonNode n, Consumer<JsonNode> visitor) {
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

  /** The column references of an expression (not descending into subqueries), as their name parts. */
  static List<List<String>> columnRefs(JsonNode expression) {
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
  static boolean hasSubquery(JsonNode expression) {
    boolean[] found = {false};
    visit(expression, n -> {
      if ("SUBQUERY".equals(n.path("class").asText()) || "SUBQUERY".equals(n.path("type").asText())) {
        found[0] = true;
      }
    });
    return found[0];
  }

  /** Whether the expression calls an aggregate function (outside subqueries; window functions excluded). */
  static boolean hasAggregate(JsonNode expression) {
    boolean[] found = {false};
    visitShallow(expression, n -> {
      if ("FUNCTION".equals(n.path("class").asText()) && dev.lakerewrite.core.sql.SqlAnalyzer.isAggregate(n.path("function_name").asText())) {
        found[0] = true;
      }
    });
    return found[0];
  }

  /** The LIMIT modifier of a query node, if it has one. */
  static JsonNode limitModifier(JsonNode node) {
    for (JsonNode m : node.path("modifiers")) {
      if ("LIMIT_MODIFIER".equals(m.path("type").asText()) || "LIMIT_PERCENT_MODIFIER".equals(m.path("type").asText())) {
        return m;
      }
    }
    return null;
  }

  /** The ORDER BY modifier of a query node, if it has one. */
  static JsonNode orderModifier(JsonNode node) {
    for (JsonNode m : node.path("modifiers")) {
      if ("ORDER_MODIFIER".equals(m.path("type").asText())) {
        return m;
      }
    }
    return null;
  }

  /** Removes the outermost LIMIT/OFFSET of a query; returns whether there was one. */
  static boolean removeLimit(ObjectNode node) {
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
  static List<ObjectNode> ctes(JsonNode node) {
    List<ObjectNode> out = new ArrayList<>();
    for (JsonNode e : node.path("cte_map").path("map")) {
      out.add((ObjectNode) e);
    }
    return out;
  }

  /** Base table names referenced anywhere in a tree (including subqueries and CTE bodies), lower-cased. */
  static List<String> baseTables(JsonNode tree) {
    List<String> out = new ArrayList<>();
    visit(tree, n -> {
      if ("BASE_TABLE".equals(n.path("type").asText()) && n.has("table_name")) {
        out.add(n.path("table_name").asText().toLowerCase(Locale.ROOT));
      }
    });
    return out;
  }

  /** The base tables and subqueries joined in a FROM tree, left to right (joins flattened). */
  static List<JsonNode> fromItems(JsonNode from) {
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
  static String referenceName(JsonNode fromItem) {
    String alias = fromItem.path("alias").asText("");
    if (!alias.isEmpty()) {
      return alias;
    }
    return fromItem.path("table_name").asText("");
  }
}
