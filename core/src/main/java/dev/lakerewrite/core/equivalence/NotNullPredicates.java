package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.Trees;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Removes the {@code WHERE} conjuncts {@code c IS NOT NULL} that the schema makes TRUE: {@code c} a NOT NULL column
 * of a table the block reads through inner joins only (TPC-DS q51's {@code ss_item_sk IS NOT NULL}, a key column).
 * Run before the normal form ({@link Normalizer}), so that a query with such a conjunct and one without it have the
 * same normal form: a proof, as the conjunct holds on every row the block's FROM produces.
 *
 * <p>Conservative: a block whose FROM holds an outer join, a subquery, a table function or a name that is also a
 * CTE of the statement is left as it is, and so is a column that more than one of its tables has (by name) or that
 * none has (an outer reference). Linear in the size of the tree.
 */
final class NotNullPredicates {
  private NotNullPredicates() {}

  /** A copy of the statement without the redundant conjuncts (the statement itself when there are none). */
  static JsonNode withoutRedundant(JsonNode statement, Schema schema) {
    Set<String> cteNames = new HashSet<>();
    Trees.visit(statement, n -> {
      for (JsonNode e : n.path("cte_map").path("map")) {
        cteNames.add(e.path("key").asText("").toLowerCase(Locale.ROOT));
      }
    });
    JsonNode copy = statement.deepCopy();
    boolean[] changed = {false};
    Trees.visit(copy, n -> {
      if (n instanceof ObjectNode o && "SELECT_NODE".equals(o.path("type").asText(""))
          && o.path("where_clause").isObject()) {
        Map<String, Schema.Table> tables = new HashMap<>();
        if (innerBaseTables(o.path("from_table"), schema, cteNames, tables)) {
          JsonNode where = o.get("where_clause");
          if (redundant(where, tables)) {
            o.set("where_clause", Normalizer.trueConstant());
            changed[0] = true;
          } else if ("CONJUNCTION".equals(where.path("class").asText(""))
              && "CONJUNCTION_AND".equals(where.path("type").asText(""))) {
            ArrayNode children = (ArrayNode) where.path("children");
            for (int i = 0; i < children.size(); i++) {
              if (redundant(children.get(i), tables)) {
                children.set(i, Normalizer.trueConstant());
                changed[0] = true;
              }
            }
          }
        }
      }
    });
    return changed[0] ? copy : statement;
  }

  /**
   * Collects the block's tables by the names its columns may be qualified with (alias, else table name); false
   * when the FROM holds anything but base tables under inner or cross joins.
   */
  private static boolean innerBaseTables(JsonNode from, Schema schema, Set<String> cteNames,
      Map<String, Schema.Table> out) {
    switch (from.path("type").asText("")) {
      case "BASE_TABLE" -> {
        String name = from.path("table_name").asText("");
        if (name.isEmpty() || cteNames.contains(name.toLowerCase(Locale.ROOT))
            || !from.path("schema_name").asText("").isEmpty()) {
          return false;
        }
        Optional<Schema.Table> table = schema.table(name);
        if (table.isEmpty()) {
          return false;
        }
        String alias = from.path("alias").asText("");
        return out.put((alias.isEmpty() ? name : alias).toLowerCase(Locale.ROOT), table.get()) == null;
      }
      case "JOIN" -> {
        String type = from.path("join_type").asText("INNER");
        String ref = from.path("ref_type").asText("REGULAR");
        return "INNER".equals(type) && List.of("REGULAR", "CROSS").contains(ref)
            && innerBaseTables(from.path("left"), schema, cteNames, out)
            && innerBaseTables(from.path("right"), schema, cteNames, out);
      }
      default -> {
        return false;
      }
    }
  }

  /** Whether the expression is {@code c IS NOT NULL} for a NOT NULL column of exactly one of the tables. */
  private static boolean redundant(JsonNode e, Map<String, Schema.Table> tables) {
    if (!"OPERATOR_IS_NOT_NULL".equals(e.path("type").asText("")) || e.path("children").size() != 1) {
      return false;
    }
    JsonNode ref = e.path("children").get(0);
    if (!"COLUMN_REF".equals(ref.path("class").asText(""))) {
      return false;
    }
    JsonNode names = ref.path("column_names");
    String column = Trees.columnName(ref);
    Schema.Column found = null;
    if (names.size() == 2) {
      Schema.Table t = tables.get(names.get(0).asText("").toLowerCase(Locale.ROOT));
      found = t == null ? null : t.column(column).orElse(null);
    } else if (names.size() == 1) {
      for (Schema.Table t : tables.values()) {
        Optional<Schema.Column> c = t.column(column);
        if (c.isPresent()) {
          if (found != null) {
            return false; // ambiguous by name: left to the engine
          }
          found = c.get();
        }
      }
    }
    return found != null && !found.nullable();
  }
}
