package dev.lakerewrite.core.rewrite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.ParsedSql;
import dev.lakerewrite.core.sql.SqlParser;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Small edits on DuckDB's syntax trees (the JSON of {@code json_serialize_sql}): new expression and table nodes
 * are made by parsing SQL text with DuckDB's own parser, so every node has exactly the shape the engine expects,
 * and the edited tree is rendered back by DuckDB. Linear in the tree size per walk.
 */
final class AstEditor {
  private final SqlParser parser;

  AstEditor(SqlParser parser) {
    this.parser = parser;
  }

  /** A deep copy of the single statement of {@code sql}. */
  ObjectNode statement(String sql) {
    ParsedSql p = parser.parse(sql);
    if (p.statementCount() != 1) {
      throw new IllegalArgumentException("expected one statement, got " + p.statementCount());
    }
    return p.statement(0).deepCopy();
  }

  /** The expression node of SQL text such as {@code clean_number("population")}. */
  ObjectNode expression(String sqlExpression) {
    JsonNode node = statement("SELECT " + sqlExpression).path("node").path("select_list").get(0);
    return (ObjectNode) node;
  }

  /** The FROM node of SQL text such as {@code region_of_new_zealand AS r JOIN capital AS c ON ...}. */
  ObjectNode fromClause(String sqlFrom) {
    return (ObjectNode) statement("SELECT * FROM " + sqlFrom).path("node").path("from_table");
  }

  /** The cte_map entries of {@code WITH <definitions> SELECT 1}. */
  List<JsonNode> cteEntries(String definitions) {
    List<JsonNode> out = new ArrayList<>();
    statement("WITH " + definitions + " SELECT 1").path("node").path("cte_map").path("map").forEach(out::add);
    return out;
  }

  /** SQL text of one expression node. */
  String renderExpression(JsonNode expression) {
    ObjectNode copy = (ObjectNode) expression.deepCopy();
    copy.put("alias", "");
    return parser.renderExpression(copy);
  }

  String render(ObjectNode statement) {
    return parser.render(statement);
  }

  /** Visits every SELECT_NODE of a tree, outer ones first (CTE bodies, set-operation branches, subqueries). */
  static void selectNodes(JsonNode node, Consumer<ObjectNode> visitor) {
    if (node == null) {
      return;
    }
    if (node.isObject()) {
      if ("SELECT_NODE".equals(node.path("type").asText()) && node.has("select_list")) {
        visitor.accept((ObjectNode) node);
      }
      node.fields().forEachRemaining(f -> selectNodes(f.getValue(), visitor));
    } else if (node.isArray()) {
      node.forEach(child -> selectNodes(child, visitor));
    }
  }

  /** Column names of a COLUMN_REF node, e.g. {@code ["r", "label"]}. */
  static List<String> columnNames(JsonNode columnRef) {
    List<String> out = new ArrayList<>();
    columnRef.path("column_names").forEach(n -> out.add(n.asText()));
    return out;
  }

  /** Points a COLUMN_REF at {@code qualifier.column} (qualifier may be null). */
  static void setColumn(ObjectNode columnRef, String qualifier, String column) {
    ArrayNode names = columnRef.putArray("column_names");
    if (qualifier != null) {
      names.add(qualifier);
    }
    names.add(column);
  }

  /** Replaces the content of {@code target} with that of {@code replacement}, keeping the target's alias. */
  static void replace(ObjectNode target, ObjectNode replacement) {
    String alias = target.path("alias").asText("");
    target.removeAll();
    target.setAll(replacement.deepCopy());
    target.put("alias", alias);
  }
}
