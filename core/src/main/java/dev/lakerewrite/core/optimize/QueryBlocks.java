package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The clause-addressable blocks of a query (the prompt design's block ids): each CTE body, the main query, and
 * each branch of a set operation ({@code main_query.union[1]}, {@code cte.union[0]}), with clauses
 * {@code select, from, where, group_by, having, qualify, order_by}. Blocks point into the (mutable) statement
 * tree they were built from, so edits through {@link #setClause} change that tree.
 */
final class QueryBlocks {
  static final List<String> CLAUSES = List.of("select", "from", "where", "group_by", "having", "qualify", "order_by");
  static final String MAIN = "main_query";

  /** One block: its id, the CTE it belongs to (empty for the main query), and its SELECT node. */
  record Block(String id, String cte, ObjectNode node) {}

  private final Trees trees;
  private final ObjectNode statement;
  private final Map<String, Block> blocks = new LinkedHashMap<>();

  QueryBlocks(Trees trees, ObjectNode statement) {
    this.trees = trees;
    this.statement = statement;
    ObjectNode root = (ObjectNode) statement.get("node");
    for (ObjectNode cte : Trees.ctes(root)) {
      String name = cte.path("key").asText();
      add(name, name, (ObjectNode) cte.path("value").path("query_node"));
    }
    add(MAIN, "", root);
  }

  private void add(String id, String cte, ObjectNode node) {
    if ("SET_OPERATION_NODE".equals(node.path("type").asText())) {
      List<ObjectNode> branches = new ArrayList<>();
      flatten(node, branches);
      for (int i = 0; i < branches.size(); i++) {
        blocks.put(id + ".union[" + i + "]", new Block(id + ".union[" + i + "]", cte, branches.get(i)));
      }
    } else {
      blocks.put(id, new Block(id, cte, node));
    }
  }

  private static void flatten(ObjectNode node, List<ObjectNode> out) {
    if ("SET_OPERATION_NODE".equals(node.path("type").asText())) {
      for (JsonNode child : node.path("children")) {
        flatten((ObjectNode) child, out);
      }
      for (String side : List.of("left", "right")) {
        if (node.path(side).isObject()) {
          flatten((ObjectNode) node.get(side), out);
        }
      }
    } else {
      out.add(node);
    }
  }

  ObjectNode statement() {
    return statement;
  }

  List<Block> blocks() {
    return List.copyOf(blocks.values());
  }

  /** The block with this id (case-insensitive); {@code main_query} also finds a lone union branch. */
  Optional<Block> block(String id) {
    for (Block b : blocks.values()) {
      if (b.id().equalsIgnoreCase(id)) {
        return Optional.of(b);
      }
    }
    return Optional.empty();
  }

  /** Names of the blocks, for error messages. */
  List<String> ids() {
    return List.copyOf(blocks.keySet());
  }

  /** The clause's SQL text ("" when the block has no such clause). */
  String clause(Block b, String clause) {
    ObjectNode n = b.node();
    switch (clause) {
      case "select": {
        List<String> items = new ArrayList<>();
        for (JsonNode item : n.path("select_list")) {
          String text = trees.expression(item);
          String alias = item.path("alias").asText("");
          items.add(alias.isEmpty() ? text : text + " AS " + Sql.identifier(alias));
        }
        return String.join(", ", items);
      }
      case "from":
        return n.path("from_table").isObject() && !"EMPTY".equals(n.path("from_table").path("type").asText())
            ? trees.renderFrom(n.get("from_table")) : "";
      case "where":
        return expressionOrEmpty(n.get("where_clause"));
      case "having":
        return expressionOrEmpty(n.get("having"));
      case "qualify":
        return expressionOrEmpty(n.get("qualify"));
      case "group_by": {
        List<String> items = new ArrayList<>();
        for (JsonNode g : n.path("group_expressions")) {
          items.add(trees.expression(g));
        }
        return String.join(", ", items);
      }
      case "order_by": {
        JsonNode order = Trees.orderModifier(n);
        if (order == null) {
          return "";
        }
        List<String> items = new ArrayList<>();
        for (JsonNode o : order.path("orders")) {
          String dir = o.path("type").asText("");
          items.add(trees.expression(o.path("expression")) + (dir.equals("DESCENDING") ? " DESC"
              : dir.equals("ASCENDING") ? " ASC" : ""));
        }
        return String.join(", ", items);
      }
      default:
        throw new IllegalArgumentException(unknownClause(clause));
    }
  }

  private String expressionOrEmpty(JsonNode e) {
    return e == null || e.isNull() || e.isMissingNode() ? "" : trees.expression(e);
  }

  /**
   * Replaces a clause with SQL text (empty text removes WHERE, HAVING, QUALIFY, GROUP BY and ORDER BY).
   *
   * @throws IllegalArgumentException for an unknown clause or text that is not a valid clause
   */
  void setClause(Block b, String clause, String text) {
    ObjectNode n = b.node();
    String t = text == null ? "" : text.strip();
    try {
      switch (clause) {
        case "select" -> {
          require(!t.isEmpty(), "the select clause cannot be empty");
          ObjectNode parsed = trees.node("SELECT " + t + " FROM lakerewrite_placeholder");
          n.set("select_list", parsed.get("select_list"));
        }
        case "from" -> {
          require(!t.isEmpty(), "the from clause cannot be empty");
          n.set("from_table", trees.parseFrom(t));
        }
        case "where" -> n.set("where_clause", t.isEmpty() ? Trees.JSON.nullNode()
            : trees.node("SELECT * FROM lakerewrite_placeholder WHERE " + t).get("where_clause"));
        case "having" -> n.set("having", t.isEmpty() ? Trees.JSON.nullNode()
            : trees.node("SELECT * FROM lakerewrite_placeholder GROUP BY ALL HAVING " + t).get("having"));
        case "qualify" -> n.set("qualify", t.isEmpty() ? Trees.JSON.nullNode()
            : trees.node("SELECT * FROM lakerewrite_placeholder QUALIFY " + t).get("qualify"));
        case "group_by" -> {
          if (t.isEmpty()) {
            n.set("group_expressions", Trees.JSON.createArrayNode());
            n.set("group_sets", Trees.JSON.createArrayNode());
            n.put("aggregate_handling", "STANDARD_HANDLING");
          } else {
            ObjectNode parsed = trees.node("SELECT * FROM lakerewrite_placeholder GROUP BY " + t);
            n.set("group_expressions", parsed.get("group_expressions"));
            n.set("group_sets", parsed.get("group_sets"));
            n.set("aggregate_handling", parsed.get("aggregate_handling"));
          }
        }
        case "order_by" -> {
          ArrayNode mods = Trees.JSON.createArrayNode();
          if (!t.isEmpty()) {
            mods.add(Trees.orderModifier(trees.node("SELECT * FROM lakerewrite_placeholder ORDER BY " + t)));
          }
          for (JsonNode m : n.path("modifiers")) {
            if (!"ORDER_MODIFIER".equals(m.path("type").asText())) {
              mods.add(m);
            }
          }
          n.set("modifiers", mods);
        }
        default -> throw new IllegalArgumentException(unknownClause(clause));
      }
    } catch (dev.lakerewrite.core.sql.SqlSyntaxException e) {
      throw new IllegalArgumentException("the new " + clause + " clause of " + b.id() + " does not parse: "
          + e.getMessage());
    }
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }

  static String unknownClause(String clause) {
    return "unknown clause '" + clause + "': use one of " + String.join(", ", CLAUSES);
  }

  /** Names referenced as tables inside a subtree (including subqueries), lower-cased. */
  static List<String> tableNames(JsonNode subtree) {
    return Trees.baseTables(subtree);
  }

  /** The names of the CTEs of the statement, lower-cased. */
  List<String> cteNames() {
    List<String> out = new ArrayList<>();
    for (ObjectNode cte : Trees.ctes(statement.get("node"))) {
      out.add(cte.path("key").asText().toLowerCase(Locale.ROOT));
    }
    return out;
  }
}
