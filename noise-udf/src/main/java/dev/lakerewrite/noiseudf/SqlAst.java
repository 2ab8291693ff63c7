package dev.lakerewrite.noiseudf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Helpers over the syntax trees of DuckDB's own parser ({@link dev.lakerewrite.sql.DuckDbParser}). Validation
 * walks the tree; what gets registered is the rendering of the validated tree, never the model's text, so nothing
 * can be smuggled past the parser (comments, second statements, odd quoting).
 */
final class SqlAst {

  static final ObjectMapper JSON = new ObjectMapper();

  private SqlAst() {}

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

  /** Names of all functions called anywhere in the statements (lower-cased). */
  static Set<String> calledFunctions(List<? extends JsonNode> statements) {
    Set<String> out = new HashSet<>();
    statements.forEach(s -> collectCalls(s, out));
    return out;
  }

  /** Names of all functions called anywhere below {@code node} (lower-cased). */
  static Set<String> calledFunctions(JsonNode node) {
    Set<String> out = new HashSet<>();
    collectCalls(node, out);
    return out;
  }

  private static void collectCalls(@Nullable JsonNode node, Set<String> out) {
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
  static List<String> singleSelectProblems(List<? extends JsonNode> statements) {
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
