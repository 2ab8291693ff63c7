package dev.lakerewrite.noiseudf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * DuckDB's own parser as a library: {@code json_serialize_sql} turns SQL into its AST as JSON (read with
 * Jackson), {@code json_deserialize_sql} renders an AST back to SQL. Validation walks the AST; what gets
 * registered is the rendering of the validated AST, never the model's text, so nothing can be smuggled past the
 * parser (comments, second statements, odd quoting).
 */
final class SqlAst {

  static final ObjectMapper JSON = new ObjectMapper();

  private SqlAst() {}

  /** Thrown when DuckDB cannot parse the text; the message is DuckDB's. */
  static final class ParseException extends Exception {
    private static final long serialVersionUID = 1L;

    ParseException(String message) {
      super(message);
    }
  }

  /** Parses SQL text; returns the array of statements. */
  static ArrayNode parse(Connection connection, String sql) throws SQLException, ParseException {
    String json = Sql.query(connection, "SELECT json_serialize_sql(?)", sql).get(0).get(0);
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (java.io.IOException e) {
      throw new ParseException("unreadable parser output: " + e.getMessage());
    }
    if (root.path("error").asBoolean(false)) {
      throw new ParseException(root.path("error_message").asText("syntax error"));
    }
    return (ArrayNode) root.path("statements");
  }

  /** Renders one SELECT statement node back to SQL. */
  static String render(Connection connection, JsonNode statement) throws SQLException {
    ObjectNode root = JSON.createObjectNode();
    root.put("error", false);
    root.putArray("statements").add(statement);
    return Sql.query(connection, "SELECT json_deserialize_sql(CAST(? AS JSON))", root.toString()).get(0).get(0);
  }

  /** A deep copy without {@code query_location*} fields, for comparing ASTs. */
  static JsonNode withoutLocations(JsonNode node) {
    JsonNode copy = node.deepCopy();
    strip(copy);
    return copy;
  }

  private static void strip(JsonNode node) {
    if (node instanceof ObjectNode o) {
      o.remove("query_location");
      o.remove("query_location_length");
      // REPLACE (...) is a map: its order does not survive rendering and does not matter.
      if (o.get("replace_list") instanceof ArrayNode replace) {
        List<JsonNode> entries = new ArrayList<>();
        replace.forEach(entries::add);
        entries.sort(java.util.Comparator.comparing(e -> e.path("key").asText()));
        replace.removeAll();
        entries.forEach(replace::add);
      }
      for (Iterator<JsonNode> it = o.elements(); it.hasNext(); ) {
        strip(it.next());
      }
    } else if (node instanceof ArrayNode a) {
      for (JsonNode child : a) {
        strip(child);
      }
    }
  }

  /** Names of all functions called anywhere below {@code node} (lower-cased). */
  static Set<String> calledFunctions(JsonNode node) {
    Set<String> out = new HashSet<>();
    collectCalls(node, out);
    return out;
  }

  private static void collectCalls(JsonNode node, Set<String> out) {
    if (node == null) {
      return;
    }
    if (node.isObject()) {
      if ("FUNCTION".equals(node.path("class").asText()) || "WINDOW".equals(node.path("class").asText())) {
        out.add(node.path("function_name").asText().toLowerCase(Locale.ROOT));
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        collectCalls(it.next().getValue(), out);
      }
    } else if (node.isArray()) {
      for (JsonNode child : node) {
        collectCalls(child, out);
      }
    }
  }

  /** Statement list of {@code sql}, or an explanation of why it is not exactly one SELECT. */
  static List<String> singleSelectProblems(ArrayNode statements) {
    List<String> problems = new ArrayList<>();
    if (statements.size() != 1) {
      problems.add("expected exactly one statement, found " + statements.size());
      return problems;
    }
    JsonNode node = statements.get(0).path("node");
    if (!"SELECT_NODE".equals(node.path("type").asText())) {
      problems.add("expected a plain SELECT, found " + node.path("type").asText("?")
          + " (set operations, VALUES and the like are not allowed)");
    }
    return problems;
  }
}
