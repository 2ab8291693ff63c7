package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.Engine;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code prefilter-top-k-window}: a block that keeps the first K rows of each partition of a ranking window
 * ({@code SELECT ... FROM (SELECT c, ..., rank() OVER (PARTITION BY p ORDER BY x DESC) AS rk FROM t) AS a WHERE
 * rk <= K}) makes the engine sort every row of every partition to keep K of each. The rows that can reach rank K
 * are known before ranking: rank is 1 plus the number of rows ordered strictly before, so a row of rank at most K
 * has at most K - 1 rows with a greater x, and its x is at least the K-th largest x of its partition (counting
 * duplicates). The window's input is therefore filtered first to the rows whose x reaches that threshold, found
 * per partition by a top-K aggregate ({@code list_min(max(x, K))}, DuckDB's {@code max(arg, n)}): every row
 * ordered before a kept row has a greater or equal x and is kept too, so each kept row keeps its rank (and
 * row_number its peers), and the outer filter returns the same rows. Under DuckDB's default NULLS LAST, rows with
 * a NULL x come after every other row: they are kept only where the partition has fewer than K non-NULL values (so
 * nothing before them was dropped); with NULLS FIRST they are always kept. Further order keys after x only order
 * peers, which are kept together.
 *
 * <p>Applies when the window's block is a plain projection (column references, {@code *} and the one ranking
 * window, over one FROM item, without grouping, DISTINCT, QUALIFY or modifiers), the window is rank() or
 * row_number() ordered first by a column of that item and partitioned by columns of it, and the outer block has
 * a top-level conjunct {@code rk <= K}, {@code rk < K} or {@code rk = 1}. DuckDB only ({@code max(x, n)}); the
 * filtered input is a CTE read twice, {@code MATERIALIZED}. Linear in the size of the block.
 */
final class TopKPrefilter {
  /** Beyond this K the top-K aggregate keeps long lists per partition; the sort it saves is rarely larger. */
  static final long MAX_K = 10_000;

  private TopKPrefilter() {}

  static @Nullable String apply(RuleProposer rules, ObjectNode node, RuleProposer.Context ctx) {
    if (ctx.catalog().engine() != Engine.DUCKDB || !isSelect(node)) {
      return null;
    }
    JsonNode from = node.path("from_table");
    if (!"SUBQUERY".equals(from.path("type").asText()) || from.path("alias").asText("").isEmpty()) {
      return null;
    }
    String outerAlias = from.path("alias").asText();
    JsonNode inner = from.path("subquery").path("node");
    if (!plainProjection(inner)) {
      return null;
    }
    JsonNode item = inner.path("from_table");
    String type = item.path("type").asText();
    if (!type.equals("SUBQUERY") && !type.equals("BASE_TABLE")) {
      return null;
    }
    String itemName = Trees.referenceName(item);
    ObjectNode window = null;
    for (JsonNode e : inner.path("select_list")) {
      String cls = e.path("class").asText();
      if (cls.equals("WINDOW")) {
        if (window != null) {
          return null;
        }
        window = (ObjectNode) e;
      } else if (!cls.equals("COLUMN_REF") && !plainStar(e)) {
        return null;
      }
    }
    if (window == null || window.path("alias").asText("").isEmpty()) {
      return null;
    }
    String fn = window.path("function_name").asText("").toLowerCase(Locale.ROOT);
    if (!Set.of("rank", "row_number").contains(fn) || !window.path("arguments").isEmpty()
        || !window.path("filter_expr").isNull() || window.path("orders").isEmpty()) {
      return null;
    }
    List<String> partition = new ArrayList<>();
    for (JsonNode p : window.path("partitions")) {
      String column = columnOf(p, itemName);
      if (column == null) {
        return null;
      }
      partition.add(column);
    }
    JsonNode first = window.path("orders").get(0);
    String x = columnOf(first.path("expression"), itemName);
    if (x == null) {
      return null;
    }
    boolean descending = "DESCENDING".equals(first.path("type").asText());
    boolean nullsFirst = "NULLS_FIRST".equals(first.path("null_order").asText());
    Long k = limit(node.get("where_clause"), outerAlias, window.path("alias").asText());
    if (k == null) {
      return null;
    }
    String in = ctx.fresh("lr_in");
    String top = ctx.fresh("lr_k");
    String threshold = ctx.fresh("lr_t");
    String nonNull = ctx.fresh("lr_c");
    List<String> keys = new ArrayList<>();
    List<String> joins = new ArrayList<>();
    for (int i = 0; i < partition.size(); i++) {
      String key = ctx.fresh("lr_p");
      keys.add(Sql.identifier(in) + "." + Sql.identifier(partition.get(i)) + " AS " + Sql.identifier(key));
      joins.add("(" + Sql.identifier(in) + "." + Sql.identifier(partition.get(i)) + " IS NOT DISTINCT FROM "
          + Sql.identifier(top) + "." + Sql.identifier(key) + ")");
    }
    String value = Sql.identifier(in) + "." + Sql.identifier(x);
    String aggregate = (descending ? "list_min(max(" : "list_max(min(") + value + ", " + k + "))";
    StringBuilder topK = new StringBuilder("SELECT ");
    for (String key : keys) {
      topK.append(key).append(", ");
    }
    topK.append(aggregate).append(" AS ").append(Sql.identifier(threshold)).append(", count(").append(value)
        .append(") AS ").append(Sql.identifier(nonNull)).append(" FROM ").append(Sql.identifier(in));
    if (!keys.isEmpty()) {
      topK.append(" GROUP BY ").append(String.join(", ", keys.stream()
          .map(s -> s.substring(0, s.lastIndexOf(" AS "))).toList()));
    }
    String t = Sql.identifier(top) + "." + Sql.identifier(threshold);
    String reaches = value + (descending ? " >= " : " <= ") + t;
    String nulls = nullsFirst ? value + " IS NULL"
        : "(" + value + " IS NULL AND " + Sql.identifier(top) + "." + Sql.identifier(nonNull) + " < " + k + ")";
    List<String> where = new ArrayList<>(joins);
    where.add("(" + reaches + " OR " + nulls + ")");
    String source = "SELECT * FROM " + ctx.trees().renderFrom(item);
    String filtered = "(WITH " + Sql.identifier(in) + " AS MATERIALIZED (" + source + ") SELECT "
        + Sql.identifier(in) + ".* FROM " + Sql.identifier(in) + ", (" + topK + ") AS " + Sql.identifier(top)
        + " WHERE " + String.join(" AND ", where) + ") AS " + Sql.identifier(itemName);
    ((ObjectNode) inner).set("from_table", ctx.trees().parseFrom(filtered));
    return "the rows of " + itemName + " that can rank within the first " + k + " of " + fn + "() OVER ("
        + (partition.isEmpty() ? "" : "PARTITION BY " + String.join(", ", partition) + " ") + "ORDER BY " + x
        + (descending ? " DESC" : "") + ") are kept before ranking: " + x + " reaching its partition's " + k
        + (descending ? "-th largest" : "-th smallest") + " value";
  }

  private static boolean isSelect(JsonNode n) {
    return "SELECT_NODE".equals(n.path("type").asText());
  }

  /** A SELECT over one FROM item that neither groups, filters after grouping, deduplicates nor orders. */
  private static boolean plainProjection(JsonNode n) {
    return isSelect(n) && n.path("modifiers").isEmpty() && n.path("cte_map").path("map").isEmpty()
        && n.path("group_expressions").isEmpty() && n.path("group_sets").isEmpty() && n.path("having").isNull()
        && n.path("qualify").isNull() && n.path("where_clause").isNull()
        && "STANDARD_HANDLING".equals(n.path("aggregate_handling").asText("STANDARD_HANDLING"));
  }

  private static boolean plainStar(JsonNode e) {
    return "STAR".equals(e.path("class").asText()) && e.path("exclude_list").isEmpty()
        && e.path("replace_list").isEmpty() && e.path("rename_list").isEmpty() && !e.path("columns").asBoolean()
        && e.path("expr").isNull();
  }

  /** The column name of a reference to a column of the item named {@code item} (unqualified or so qualified). */
  private static @Nullable String columnOf(JsonNode e, String item) {
    if (!"COLUMN_REF".equals(e.path("class").asText())) {
      return null;
    }
    JsonNode names = e.path("column_names");
    if (names.size() == 1) {
      return names.get(0).asText();
    }
    return names.size() == 2 && names.get(0).asText().equalsIgnoreCase(item) ? names.get(1).asText() : null;
  }

  /** K of a top-level conjunct {@code rk <= K}, {@code rk < K + 1} or {@code rk = 1} (either side); else null. */
  private static @Nullable Long limit(@Nullable JsonNode where, String alias, String rank) {
    for (JsonNode c : Trees.conjuncts(where)) {
      String op = c.path("type").asText();
      for (boolean flipped : new boolean[] {false, true}) {
        JsonNode column = flipped ? c.path("right") : c.path("left");
        JsonNode constant = flipped ? c.path("left") : c.path("right");
        String name = columnOf(column, alias);
        if (name == null || !name.equalsIgnoreCase(rank) || !"CONSTANT".equals(constant.path("class").asText())) {
          continue;
        }
        long n;
        try {
          n = Long.parseLong(constant.path("literal").path("text").asText());
        } catch (NumberFormatException e) {
          continue;
        }
        String kind = constant.path("literal").path("kind").asText("");
        if (!kind.isEmpty() && !Set.of("INTEGER", "BIGINT", "SMALLINT", "TINYINT", "HUGEINT").contains(kind)) {
          continue;
        }
        long k = switch (op) {
          case "COMPARE_LESSTHANOREQUALTO" -> flipped ? -1 : n;
          case "COMPARE_GREATERTHANOREQUALTO" -> flipped ? n : -1;
          case "COMPARE_LESSTHAN" -> flipped ? -1 : n - 1;
          case "COMPARE_GREATERTHAN" -> flipped ? n - 1 : -1;
          case "COMPARE_EQUAL" -> n == 1 ? 1 : -1;
          default -> -1;
        };
        if (k >= 1 && k <= MAX_K) {
          return k;
        }
      }
    }
    return null;
  }
}
