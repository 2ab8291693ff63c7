package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.Engine;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code self-join-to-filter-aggregates}: a grouped CTE read several times in one block, each copy keeping the
 * groups of other constant values of some grouping columns (a year, a quarter, a month, a sale type) and the
 * copies joined on the other grouping columns ({@code FROM t a, t b WHERE a.k = b.k AND a.y = 2001 AND b.y =
 * 2002}), computes every copy in one grouped scan: grouped by the join key only, each copy's aggregates written
 * {@code agg(..) FILTER (WHERE <its filter>)} (on DuckDB {@code agg(CASE WHEN <its filter> THEN .. END)} for the
 * aggregates that skip NULLs, which it runs faster: TPC-DS q39a 81 ms against 113 ms, q11's shape 423 against
 * 659), and the join of the copies replaced by conditions on that one row
 * ({@code HAVING count(*) FILTER (WHERE <its filter>) > 0} for each copy, as the inner join dropped a key some copy
 * lacks; the key {@code IS NOT NULL}, as the join's equalities dropped NULL keys). The engine scans and groups the
 * fact tables once per UNION branch instead of materialising every group and joining copies of it (PostgreSQL
 * estimates CTE scans poorly and nests loops over them).
 *
 * <p>The scan groups by the CTE's GROUP BY expressions less those every copy of the branch fixes to one value by a
 * conjunct {@code copy.col = constant} (the year). A group of the scan and a copy then stand for exactly one group
 * of the CTE, the one with the copy's constants: the rows of the scan group that pass copy i's filter are the rows
 * of that CTE group, so each FILTER aggregate equals copy i's value, and the group is one of copy i's rows exactly
 * when some of its rows pass the filter; a grouping column fixed by the filter is read back as
 * {@code min(col) FILTER (WHERE ..)}, the value itself. When the remaining grouping expressions are the join key
 * alone, or besides it only columns of a base table whose whole primary key is among the join-key columns (the note
 * names the primary key that proved it), each copy keeps at most one row per key and the copies of a branch share
 * one row of its scan. Otherwise (TPC-DS q4, q11, q74 group by {@code c_customer_id} and the customer's names, and
 * no declared constraint makes the id unique) a copy may keep several rows per key, which the original's join
 * pairs crosswise; the scan then also groups by those columns, becomes a CTE with a flag per copy ({@code lr_in_a},
 * its rows present), and each copy reads it under its own alias, joined on the key and kept where its flag holds,
 * so every pair the original formed is formed once (PostgreSQL only: DuckDB ran that form slower than the original
 * on TPC-DS SF1, q4 0.79x, q11 0.69x, q64 0.74x, q74 0.84x, where PostgreSQL ran q4, q11 and q74 from past 20 s
 * into 4 to 8 s). Refused when no grouping column would be dropped that way (the copies would read the CTE again
 * under other names). A copy's filter moves into
 * FILTER only when it reads grouping columns and constants alone (constant within a group); conditions on its
 * aggregates stay outside, renamed. A CTE that is a UNION ALL of grouped branches (a store and a web part with a
 * constant sale-type column) is handled when each copy's filter selects exactly one branch by that constant (string
 * literals compared by their text); the branches' scans are then joined on the key. A branch may also be a
 * projection and filter over one grouped derived table (the filter becomes part of the copy's HAVING). Refused:
 * a join key that is not a grouping column of every branch, a copy whose filter two branches may pass (a key could
 * then have a row from each branch), a copy filter that reads another table or a non-deterministic function, outer
 * joins, UNION (not ALL), ROLLUP and grouping sets, HAVING, windows, DISTINCT or LIMIT inside the CTE, subqueries in
 * the
 * block, and {@code *}. Linear in the size of the block.
 */
final class SelfJoinToFilterAggregates implements Recipe {
  static final String ID = "self-join-to-filter-aggregates";

  private static final KnowledgeBase.Recipe KNOWLEDGE = new KnowledgeBase.Recipe(ID, "cte",
      "Grouped CTE joined to itself on its key with constant filters: one scan with FILTER aggregates",
      "A CTE groups a fact table by a key and some period or type columns (customer and year, county and quarter) and"
          + " the query joins several copies of it on the key, each copy filtered to another constant (a.year = 2001,"
          + " b.year = 2002). Every group of every period is computed and materialised, then the copies are joined;"
          + " PostgreSQL estimates CTE scans badly and may nest loops over them.",
      "Group once by the key only, filtered to the rows some copy keeps, and compute each copy's aggregates with"
          + " agg(x) FILTER (WHERE <copy filter>); keep a key only where every copy has rows (HAVING count(*) FILTER"
          + " (WHERE <copy filter>) > 0 for each, as the inner join did) and the key is not NULL. Conditions on the"
          + " copies' aggregates become conditions on that one row. That holds when each copy keeps one row per key:"
          + " every other grouping column is fixed by an equality to a constant in every copy or determined by a"
          + " grouped primary key. Otherwise group also by those columns and let each copy read that one scan (a"
          + " CTE) under its own alias, joined on the key, where its rows are present. A UNION ALL CTE with a constant type column is grouped per branch, the branches joined on"
          + " the key.",
      "Neither DuckDB nor PostgreSQL merges self-joined copies of a grouped CTE; DuckDB materialises the CTE and"
          + " joins its scans, PostgreSQL materialises it and may nest loops over the copies.",
      "cte self join same key different year quarter month sale type filter aggregate conditional aggregation"
          + " pivot year over year growth materialized cte scan",
      "WITH t AS (SELECT c, y, sum(v) AS s FROM f GROUP BY c, y) SELECT a.c, b.s / a.s FROM t a, t b"
          + " WHERE a.c = b.c AND a.y = 2001 AND b.y = 2002 AND a.s > 0",
      "SELECT m.c, m.s2 / m.s1 FROM (SELECT c, sum(v) FILTER (WHERE y = 2001) AS s1, sum(v) FILTER (WHERE y ="
          + " 2002) AS s2 FROM f WHERE c IS NOT NULL AND (y = 2001 OR y = 2002) GROUP BY c HAVING count(*) FILTER"
          + " (WHERE y = 2001) > 0 AND count(*) FILTER (WHERE y = 2002) > 0) AS m WHERE m.s1 > 0");

  private static final Set<PlanSymptom> TARGETS = EnumSet.of(PlanSymptom.CTE_SCAN, PlanSymptom.REPEATED_SCAN,
      PlanSymptom.NESTED_LOOP_JOIN, PlanSymptom.AGGREGATE_OVER_JOIN);

  /**
   * Aggregates of one argument that ignore NULLs: {@code agg(CASE WHEN f THEN x END)} is {@code agg(x) FILTER (WHERE
   * f)} for them (the rows where f fails or is NULL give NULL, which they skip).
   */
  private static final Set<String> NULL_IGNORING = Set.of("sum", "avg", "min", "max", "count", "stddev",
      "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "median", "bool_and", "bool_or", "mean");

  /** Functions whose value changes from row to row or call to call: a filter with them is not a group's. */
  private static final Set<String> VOLATILE = Set.of("random", "gen_random_uuid", "uuid", "nextval", "setseed",
      "currval");

  /** A core select item's kind: a grouping expression, a constant, or an expression over aggregates only. */
  private enum Kind { GROUP, CONSTANT, AGGREGATE }

  /** A synthetic column name standing for the core's select item of this index in a branch's column expressions. */
  private static final String ITEM = "lr#";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public KnowledgeBase.Recipe knowledge() {
    return KNOWLEDGE;
  }

  @Override
  public Set<PlanSymptom> targets() {
    return TARGETS;
  }

  @Override
  public List<RuleProposer.Proposal> candidates(String sql, RuleProposer rules) {
    return rules.applyAtEverySite(sql, ID, (r, node, ctx) -> apply(node, ctx));
  }

  @Override
  public String toString() {
    return ID;
  }

  /** Rewrites one block in place; what was done, or null where the recipe does not apply. */
  static @Nullable String apply(ObjectNode node, RuleProposer.Context ctx) {
    if (!"SELECT_NODE".equals(node.path("type").asText()) || !Trees.crossJoinsOnly(node.path("from_table"))) {
      return null;
    }
    for (String field : List.of("select_list", "where_clause", "having", "qualify", "group_expressions",
        "modifiers")) {
      if (Trees.hasSubquery(node.path(field))) {
        return null;
      }
    }
    boolean[] star = {false};
    Trees.visitShallow(node.path("select_list"), n -> star[0] |= "STAR".equals(n.path("class").asText())
        && !n.has("function_name"));
    if (star[0]) {
      return null;
    }
    Map<String, List<String>> copies = new LinkedHashMap<>();
    Set<String> names = new LinkedHashSet<>();
    for (JsonNode item : Trees.fromItems(node.path("from_table"))) {
      String name = Trees.referenceName(item).toLowerCase(Locale.ROOT);
      if (!name.isEmpty() && !names.add(name)) {
        return null;
      }
      String table = item.path("table_name").asText("").toLowerCase(Locale.ROOT);
      if ("BASE_TABLE".equals(item.path("type").asText()) && ctx.cteColumns().containsKey(table)
          && RuleProposer.cteEntry(ctx.statement(), table) != null && item.path("column_name_alias").isEmpty()) {
        copies.computeIfAbsent(table, k -> new ArrayList<>()).add(Trees.referenceName(item));
      }
    }
    List<String> done = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : copies.entrySet()) {
      if (e.getValue().size() >= 2) {
        String what = new Merge(node, ctx, e.getKey(), e.getValue()).run();
        if (what != null) {
          done.add(what);
        }
      }
    }
    return done.isEmpty() ? null : String.join("; ", done);
  }

  /** One UNION ALL branch of the CTE: a grouped core and, per CTE column, its expression over the core's items. */
  private static final class Branch {
    final ObjectNode core;
    final List<JsonNode> items = new ArrayList<>();
    final List<Kind> kinds = new ArrayList<>();
    /** Per CTE column, an expression whose column references are {@code lr#j} (the core's item j). */
    final List<JsonNode> columns = new ArrayList<>();
    /** The projection's filter over the core (a derived table's WHERE), in {@code lr#j} terms; null for none. */
    @Nullable JsonNode filter;
    /** The core's distinct GROUP BY expressions, by rendered text. */
    final Map<String, JsonNode> groups = new LinkedHashMap<>();

    Branch(ObjectNode core) {
      this.core = core;
    }

    /** The item a CTE column is a bare reference to, when that item is a grouping expression; else -1. */
    int groupItem(int column) {
      JsonNode e = columns.get(column);
      if (!"COLUMN_REF".equals(e.path("class").asText())) {
        return -1;
      }
      int j = itemIndex(e);
      return j >= 0 && kinds.get(j) == Kind.GROUP ? j : -1;
    }

    /** Whether a CTE column is constant within a group (reads grouping items and constants only). */
    boolean groupLevel(int column) {
      JsonNode e = columns.get(column);
      if (Trees.hasAggregate(e) || Trees.hasWindow(e)) {
        return false;
      }
      for (List<String> ref : Trees.columnRefs(e)) {
        if (kinds.get(Integer.parseInt(ref.get(0).substring(ITEM.length()))) == Kind.AGGREGATE) {
          return false;
        }
      }
      return true;
    }
  }

  private static int itemIndex(JsonNode ref) {
    String name = Trees.columnName(ref);
    return name.startsWith(ITEM) ? Integer.parseInt(name.substring(ITEM.length())) : -1;
  }

  /** The merge of one CTE's copies in one block. */
  private static final class Merge {
    final ObjectNode node;
    final RuleProposer.Context ctx;
    final Trees trees;
    final String cte;
    final List<String> aliases;
    final List<String> columns;
    final Map<String, String> aliasOf = new LinkedHashMap<>();

    Merge(ObjectNode node, RuleProposer.Context ctx, String cte, List<String> aliases) {
      this.node = node;
      this.ctx = ctx;
      this.trees = ctx.trees();
      this.cte = cte;
      this.aliases = aliases;
      this.columns = ctx.cteColumns().get(cte) == null ? List.of() : ctx.cteColumns().get(cte);
      aliases.forEach(a -> aliasOf.put(a.toLowerCase(Locale.ROOT), a));
    }

    int column(String name) {
      for (int i = 0; i < columns.size(); i++) {
        if (columns.get(i).equalsIgnoreCase(name)) {
          return i;
        }
      }
      return -1;
    }

    /** The copy a column reference reads ({@code alias.col}), or null. */
    @Nullable String copyOf(List<String> ref) {
      return ref.size() == 2 ? aliasOf.get(ref.get(0).toLowerCase(Locale.ROOT)) : null;
    }

    @Nullable String run() {
      if (columns.isEmpty()) {
        return null;
      }
      ObjectNode entry = RuleProposer.cteEntry(ctx.statement(), cte);
      if (entry == null || !entry.path("value").path("aliases").isEmpty()) {
        return null;
      }
      List<Branch> branches = branches(entry.path("value").path("query_node"));
      if (branches == null) {
        ctx.refuse("the copies of " + cte + " are left as they are: its body is not a grouped block, a UNION ALL of"
            + " grouped blocks, or a projection over one (no HAVING, window, DISTINCT, LIMIT, grouping sets or *)");
        return null;
      }
      // The block's conjuncts: equalities between copies, each copy's own conditions, the rest.
      Map<String, String> parent = new HashMap<>();
      List<JsonNode> equalities = new ArrayList<>();
      Map<String, List<JsonNode>> own = new LinkedHashMap<>();
      aliases.forEach(a -> own.put(a, new ArrayList<>()));
      List<JsonNode> rest = new ArrayList<>();
      for (JsonNode c : Trees.conjuncts(node.get("where_clause"))) {
        Set<String> read = new LinkedHashSet<>();
        boolean other = false;
        for (List<String> ref : Trees.columnRefs(c)) {
          String copy = copyOf(ref);
          if (copy != null) {
            if (column(ref.get(1)) < 0) {
              return null;
            }
            read.add(copy);
          } else if (ref.size() == 1 && column(ref.get(0)) >= 0 || ref.size() > 2) {
            return null; // an unqualified name the copies share, or a qualified one this rule does not read
          } else {
            other = true;
          }
        }
        String[] pair = sameColumnEquality(c);
        if (pair != null && aliasOf.containsKey(pair[0]) && aliasOf.containsKey(pair[1])) {
          union(parent, pair[0] + "." + pair[2], pair[1] + "." + pair[2]);
          equalities.add(c);
        } else if (read.size() == 1 && !other && !Trees.hasAggregate(c) && !Trees.hasWindow(c) && !isVolatile(c)) {
          own.get(read.iterator().next()).add(c);
        } else {
          rest.add(c);
        }
      }
      // The join key: the columns every copy is equated on.
      List<Integer> key = new ArrayList<>();
      for (int i = 0; i < columns.size(); i++) {
        String root = find(parent, aliases.get(0).toLowerCase(Locale.ROOT) + "." + columns.get(i).toLowerCase(Locale.ROOT));
        boolean all = true;
        for (String a : aliases) {
          all &= find(parent, a.toLowerCase(Locale.ROOT) + "." + columns.get(i).toLowerCase(Locale.ROOT)).equals(root)
              && parent.containsKey(root);
        }
        if (all) {
          key.add(i);
        }
      }
      if (key.isEmpty()) {
        ctx.refuse("the copies of " + cte + " are left as they are: no column equates every copy with the others");
        return null;
      }
      for (JsonNode eq : equalities) {
        String[] pair = sameColumnEquality(eq);
        if (!key.contains(column(pair[2]))) {
          rest.add(eq);
        }
      }
      // Each copy reads exactly one branch; its filters on grouping columns and constants move into FILTER.
      Map<String, Integer> branchOf = new LinkedHashMap<>();
      Map<String, List<JsonNode>> rowFilters = new LinkedHashMap<>();
      for (String a : aliases) {
        int serving = -1;
        for (int b = 0; b < branches.size(); b++) {
          Boolean possible = true;
          for (JsonNode c : own.get(a)) {
            if (groupLevel(c, branches.get(b))
                && Boolean.FALSE.equals(RuleProposer.literalEquality(trees, row(c, branches.get(b))))) {
              possible = false;
            }
          }
          if (possible) {
            if (serving >= 0) {
              ctx.refuse("the copies of " + cte + " are left as they are: the filters of " + a + " do not select"
                  + " one UNION ALL branch by a constant, so a key could have a row from each of two branches");
              return null; // two branches may hold this copy's rows: a key could have two rows
            }
            serving = b;
          }
        }
        if (serving < 0) {
          ctx.refuse("the copies of " + cte + " are left as they are: the filters of " + a + " rule out every"
              + " UNION ALL branch");
          return null;
        }
        branchOf.put(a, serving);
        Branch branch = branches.get(serving);
        List<JsonNode> filters = new ArrayList<>();
        for (JsonNode c : own.get(a)) {
          if (!groupLevel(c, branch)) {
            rest.add(c);
          } else if (!Boolean.TRUE.equals(RuleProposer.literalEquality(trees, row(c, branch)))) {
            filters.add(c);
          }
        }
        rowFilters.put(a, filters);
      }
      // One row per key in every copy: each grouping expression is a key column, fixed by every copy's filter,
      // or determined by a grouped primary key.
      Map<Integer, List<String>> copiesOf = new LinkedHashMap<>();
      for (String a : aliases) {
        copiesOf.computeIfAbsent(branchOf.get(a), k -> new ArrayList<>()).add(a);
      }
      Map<Integer, Scan> scans = new LinkedHashMap<>();
      for (Map.Entry<Integer, List<String>> e : copiesOf.entrySet()) {
        Scan scan = scan(branches.get(e.getKey()), e.getValue(), key, rowFilters);
        if (scan == null) {
          return null;
        }
        scans.put(e.getKey(), scan);
      }
      // The columns the block still reads of each copy.
      List<JsonNode> kept = new ArrayList<>();
      for (JsonNode c : Trees.conjuncts(node.get("where_clause"))) {
        if (rest.contains(c)) {
          kept.add(c);
        }
      }
      Map<String, Set<Integer>> needed = new LinkedHashMap<>();
      aliases.forEach(a -> needed.put(a, new LinkedHashSet<>()));
      for (JsonNode part : readParts(kept)) {
        for (List<String> ref : Trees.columnRefs(part)) {
          String copy = copyOf(ref);
          if (copy != null) {
            needed.get(copy).add(column(ref.get(1)));
          }
        }
      }
      // The scans, one derived table per branch; a branch whose copies may each keep several rows per key is one
      // CTE, read by each copy under its own alias and joined on the key as the copies were.
      Map<String, String> outName = new HashMap<>();
      Map<String, String> aliasOfCopy = new LinkedHashMap<>();
      Map<String, String> fromOfAlias = new LinkedHashMap<>();
      List<String> flags = new ArrayList<>();
      List<String[]> ctes = new ArrayList<>();
      for (Map.Entry<Integer, Scan> e : scans.entrySet()) {
        Scan scan = e.getValue();
        if (scan.shared()) {
          String name = ctx.fresh("lr_m");
          ctes.add(new String[] {name, scan.renderShared(needed, key, outName)});
          for (String copy : scan.copies) {
            String alias = ctx.fresh("lr_m");
            aliasOfCopy.put(copy, alias);
            fromOfAlias.put(alias, Sql.identifier(name) + " AS " + Sql.identifier(alias));
            flags.add(Sql.identifier(alias) + "." + Sql.identifier(outName.get(copy.toLowerCase(Locale.ROOT) + ".in")));
          }
        } else {
          String alias = ctx.fresh("lr_m");
          fromOfAlias.put(alias, "(" + scan.render(needed, key, outName) + ") AS " + Sql.identifier(alias));
          scan.copies.forEach(copy -> aliasOfCopy.put(copy, alias));
        }
      }
      // The block: the copies replaced by the scans, the copies' columns by the scans' columns.
      List<String> from = new ArrayList<>();
      List<String> order = new ArrayList<>();
      for (JsonNode item : Trees.fromItems(node.path("from_table"))) {
        String copy = aliasOf.get(Trees.referenceName(item).toLowerCase(Locale.ROOT));
        if (copy == null || !"BASE_TABLE".equals(item.path("type").asText())) {
          from.add(trees.renderFrom(item));
        } else if (!order.contains(aliasOfCopy.get(copy))) {
          order.add(aliasOfCopy.get(copy));
          from.add(fromOfAlias.get(aliasOfCopy.get(copy)));
        }
      }
      List<String> where = new ArrayList<>();
      for (int i = 1; i < order.size(); i++) {
        for (int m = 0; m < key.size(); m++) {
          where.add(Sql.identifier(order.get(0)) + "." + Sql.identifier("lr_k" + m) + " = "
              + Sql.identifier(order.get(i)) + "." + Sql.identifier("lr_k" + m));
        }
      }
      where.addAll(flags);
      java.util.function.Consumer<JsonNode> rename = tree -> Trees.visitShallow(tree, n -> {
        if (!"COLUMN_REF".equals(n.path("class").asText())) {
          return;
        }
        String copy = copyOf(Trees.columnNames(n));
        if (copy == null) {
          return;
        }
        int c = column(Trees.columnName(n));
        int m = key.indexOf(c);
        Trees.setColumn((ObjectNode) n, aliasOfCopy.get(copy),
            m >= 0 ? "lr_k" + m : outName.get(copy.toLowerCase(Locale.ROOT) + "." + c));
      });
      ObjectNode edited = node.deepCopy();
      for (JsonNode c : kept) {
        JsonNode copy = c.deepCopy();
        rename.accept(copy);
        where.add(trees.expression(copy));
      }
      for (JsonNode item : edited.path("select_list")) {
        if ("COLUMN_REF".equals(item.path("class").asText()) && item.path("alias").asText("").isEmpty()
            && copyOf(Trees.columnNames(item)) != null) {
          ((ObjectNode) item).put("alias", Trees.columnName(item));
        }
      }
      for (String field : List.of("select_list", "having", "qualify", "group_expressions", "modifiers")) {
        rename.accept(edited.path(field));
      }
      edited.set("from_table", trees.parseFrom(String.join(", ", from)));
      edited.set("where_clause", where.isEmpty() ? Trees.JSON.nullNode()
          : withoutAlias(trees.parseExpression(Trees.and(where))));
      Trees.replace(node, edited);
      for (int i = ctes.size() - 1; i >= 0; i--) {
        addCteAfter(ctes.get(i)[0], ctes.get(i)[1]);
      }
      removeIfUnused(ctx.statement(), cte);
      List<String> keyNames = key.stream().map(columns::get).toList();
      StringBuilder what = new StringBuilder("the " + aliases.size() + " copies of " + cte + " joined on "
          + String.join(", ", keyNames) + " computed in " + (scans.size() == 1 ? "one grouped scan" : scans.size()
          + " grouped scans (one per UNION ALL branch, joined on the key)") + ", each copy's aggregates restricted"
          + " to its filter (" + (caseForm() ? "agg(CASE WHEN ..)" : "FILTER (WHERE ..)") + ")"
          + " and a key kept only where every copy has rows");
      Set<String> proofs = new LinkedHashSet<>();
      Set<String> free = new LinkedHashSet<>();
      for (Scan scan : scans.values()) {
        proofs.addAll(scan.proofs);
        free.addAll(scan.free);
      }
      if (!proofs.isEmpty()) {
        what.append("; one row per key and copy: the other grouping columns are determined by the ")
            .append(String.join(", ", proofs));
      }
      if (!free.isEmpty()) {
        what.append("; ").append(String.join(", ", free)).append(" can take several values per key (no declared"
            + " constraint says otherwise), so the scans also group by them, and a branch read by several copies"
            + " is one CTE each copy reads under its own alias, joined on the key as before");
      }
      return what.toString();
    }

    /** Adds a CTE just after this CTE's entry, in the same WITH (so it sees what this one saw). */
    void addCteAfter(String name, String body) {
      JsonNode added = trees.node("WITH " + Sql.identifier(name) + " AS (" + body + ") SELECT 1").path("cte_map")
          .path("map").get(0);
      boolean[] done = {false};
      Trees.visit(ctx.statement(), n -> {
        JsonNode map = n.path("cte_map").path("map");
        if (done[0] || !map.isArray()) {
          return;
        }
        for (int i = 0; i < map.size(); i++) {
          if (map.get(i).path("key").asText().equalsIgnoreCase(cte)) {
            ((ArrayNode) map).insert(i + 1, added.deepCopy());
            done[0] = true;
            return;
          }
        }
      });
      if (!done[0]) {
        throw new IllegalStateException("the CTE " + cte + " is no longer in the statement");
      }
    }

    /** DuckDB runs {@code sum(CASE WHEN f THEN x END)} faster than {@code sum(x) FILTER (WHERE f)}. */
    boolean caseForm() {
      return ctx.catalog().engine() == Engine.DUCKDB;
    }

    /** {@code fn(arg)} over the rows where {@code f} holds ({@code count_star} with an empty arg: count(*)). */
    String conditional(String fn, String arg, String f) {
      if (fn.equals("count_star")) {
        return caseForm() ? "count(CASE WHEN " + f + " THEN 1 END)" : "count(*) FILTER (WHERE " + f + ")";
      }
      return caseForm() ? fn + "(CASE WHEN " + f + " THEN " + arg + " END)" : fn + "(" + arg + ") FILTER (WHERE " + f + ")";
    }

    /** The block's parts that may read copies, besides the WHERE conjuncts kept. */
    List<JsonNode> readParts(List<JsonNode> kept) {
      List<JsonNode> out = new ArrayList<>(kept);
      for (String field : List.of("select_list", "having", "qualify", "group_expressions", "modifiers")) {
        out.add(node.path(field));
      }
      return out;
    }

    /** Whether a copy's conjunct reads only columns constant within a group of this branch. */
    boolean groupLevel(JsonNode c, Branch b) {
      for (List<String> ref : Trees.columnRefs(c)) {
        if (!b.groupLevel(column(ref.get(1)))) {
          return false;
        }
      }
      return true;
    }

    /** A copy's conjunct in terms of the core's rows: each CTE column replaced by its row-level expression. */
    ObjectNode row(JsonNode c, Branch b) {
      ObjectNode copy = c.deepCopy();
      substitute(copy, ref -> {
        ObjectNode e = b.columns.get(column(Trees.columnName(ref))).deepCopy();
        substitute(e, item -> withoutAlias(b.items.get(itemIndex(item))));
        return e;
      });
      return copy;
    }

    /** The scan of one branch for its copies, or null when a copy could keep two rows for one key. */
    @Nullable Scan scan(Branch b, List<String> copies, List<Integer> key, Map<String, List<JsonNode>> rowFilters) {
      Map<String, String> groupOfItem = new HashMap<>();
      Set<String> keyGroups = new LinkedHashSet<>();
      List<String> keyExprs = new ArrayList<>();
      for (int k : key) {
        int j = b.groupItem(k);
        if (j < 0) {
          ctx.refuse("the copies of " + cte + " are left as they are: the join column " + columns.get(k)
              + " is not a grouping column of every UNION ALL branch they read");
          return null; // the join key is not a grouping column of this branch
        }
        String text = trees.expression(b.items.get(j));
        keyGroups.add(text);
        keyExprs.add(text);
      }
      for (int j = 0; j < b.items.size(); j++) {
        if (b.kinds.get(j) == Kind.GROUP) {
          groupOfItem.put(String.valueOf(j), trees.expression(b.items.get(j)));
        }
      }
      // Grouping expressions each copy fixes by an equality to a constant.
      Map<String, String> filter = new LinkedHashMap<>();
      Set<String> fixedByAll = null;
      for (String a : copies) {
        Set<String> fixed = new LinkedHashSet<>();
        List<String> parts = new ArrayList<>();
        for (JsonNode c : rowFilters.get(a)) {
          String[] eq = constantEquality(c);
          if (eq != null) {
            int j = b.groupItem(column(eq[0]));
            if (j >= 0) {
              fixed.add(groupOfItem.get(String.valueOf(j)));
            }
          }
          parts.add(trees.expression(row(c, b)));
        }
        filter.put(a, parts.isEmpty() ? "true" : Trees.and(parts));
        if (fixedByAll == null) {
          fixedByAll = fixed;
        } else {
          fixedByAll.retainAll(fixed);
        }
      }
      List<String> grouped = new ArrayList<>(keyExprs);
      List<String> free = new ArrayList<>();
      List<String> proofs = new ArrayList<>();
      Scope scope = ctx.scope(b.core);
      for (Map.Entry<String, JsonNode> g : b.groups.entrySet()) {
        if (keyGroups.contains(g.getKey()) || fixedByAll.contains(g.getKey())) {
          continue;
        }
        String proof = determinedByKey(g.getValue(), b, key, scope);
        if (proof == null) {
          free.add(g.getKey()); // a copy may keep several rows for one key: one per value of these columns
        } else if (!proofs.contains(proof)) {
          proofs.add(proof);
        }
        grouped.add(g.getKey());
      }
      if (!free.isEmpty() && copies.size() >= 2 && grouped.containsAll(b.groups.keySet())) {
        ctx.refuse("the copies of " + cte + " are left as they are: " + String.join(", ", free) + " can take"
            + " several values per key and no grouping column is fixed by every copy, so the copies would read "
            + cte + " itself again");
        return null; // the copies would read the CTE itself again, under other names: nothing gained
      }
      if (!free.isEmpty() && copies.size() >= 2 && ctx.catalog().engine() == Engine.DUCKDB) {
        ctx.refuse("the copies of " + cte + " are left as they are on DuckDB: " + String.join(", ", free)
            + " can take several values per key (no declared constraint says otherwise), and the exact form for"
            + " that, one scan each copy reads separately, ran slower than the original on DuckDB");
        return null; // measured slower on DuckDB (TPC-DS SF1: q4 0.79x, q11 0.69x, q64 0.74x, q74 0.84x)
      }
      return new Scan(b, copies, filter, grouped, keyExprs, free, proofs);
    }

    /**
     * The primary key that determines a grouping column ({@code table(pk)}) when the column is a column of a base
     * table whose whole primary key is among the key columns; else null.
     */
    @Nullable String determinedByKey(JsonNode group, Branch b, List<Integer> key, Scope scope) {
      if (!"COLUMN_REF".equals(group.path("class").asText())) {
        return null;
      }
      Scope.Resolution r = scope.resolve(Trees.columnNames(group));
      if (r.kind() != Scope.Kind.LOCAL || r.item() == null
          || !"BASE_TABLE".equals(r.item().node().path("type").asText())) {
        return null;
      }
      String table = r.item().node().path("table_name").asText();
      List<String> pk = ctx.catalog().table(table).map(Catalog.Table::primaryKey).orElse(List.of());
      if (pk.isEmpty()) {
        return null;
      }
      Set<String> keyed = new LinkedHashSet<>();
      for (int k : key) {
        JsonNode e = b.items.get(b.groupItem(k));
        if ("COLUMN_REF".equals(e.path("class").asText())) {
          Scope.Resolution kr = scope.resolve(Trees.columnNames(e));
          if (kr.kind() == Scope.Kind.LOCAL && kr.item() == r.item()) {
            keyed.add(Trees.columnName(e).toLowerCase(Locale.ROOT));
          }
        }
      }
      return pk.stream().allMatch(p -> keyed.contains(p.toLowerCase(Locale.ROOT)))
          ? "primary key " + table.toLowerCase(Locale.ROOT) + "(" + String.join(", ", pk) + ")" : null;
    }

    /** The grouped scan of one branch for its copies. */
    final class Scan {
      final Branch b;
      final List<String> copies;
      final Map<String, String> filter;
      final List<String> grouped;
      final List<String> keyExprs;
      /** Grouping expressions neither in the key, nor fixed by every copy, nor determined by a grouped key. */
      final List<String> free;
      /** The primary keys that showed the other grouping expressions determined by the key. */
      final List<String> proofs;

      Scan(Branch b, List<String> copies, Map<String, String> filter, List<String> grouped, List<String> keyExprs,
          List<String> free, List<String> proofs) {
        this.b = b;
        this.copies = copies;
        this.filter = filter;
        this.grouped = grouped;
        this.keyExprs = keyExprs;
        this.free = free;
        this.proofs = proofs;
      }

      /**
       * Whether the copies must read the scan separately: a copy may keep several rows for one key (one per value
       * of the free grouping expressions), so two copies of this branch pair them crosswise, as the original's
       * join did; one row of the scan holds one combination of them only.
       */
      boolean shared() {
        return !free.isEmpty() && copies.size() >= 2;
      }

      /** A core item's value for one copy, in the grouped scan's select list. */
      ObjectNode value(int j, String copy) {
        ObjectNode item = withoutAlias(b.items.get(j));
        String f = filter.get(copy);
        return switch (b.kinds.get(j)) {
          case CONSTANT -> item;
          case GROUP -> grouped.contains(trees.expression(item)) ? item
              : trees.parseExpression(conditional("min", trees.expression(item), f));
          case AGGREGATE -> {
            List<ObjectNode> calls = new ArrayList<>();
            Trees.visitShallow(item, n -> {
              if ("FUNCTION".equals(n.path("class").asText())
                  && SqlAnalyzer.isAggregate(n.path("function_name").asText())) {
                calls.add((ObjectNode) n);
              }
            });
            for (ObjectNode n : calls) {
              restrict(n, f);
            }
            yield withoutAlias(item);
          }
        };
      }

      /** Restricts one aggregate call to the rows of a copy: its argument under CASE on DuckDB, else FILTER. */
      void restrict(ObjectNode call, String f) {
        String fn = call.path("function_name").asText("").toLowerCase(Locale.ROOT);
        JsonNode args = call.path("arguments");
        boolean plain = !call.path("filter").isObject() && call.path("order_bys").path("orders").isEmpty();
        if (caseForm() && plain && fn.equals("count_star") && args.isEmpty()) {
          Trees.replace(call, trees.parseExpression(conditional("count_star", "", f)));
        } else if (caseForm() && plain && NULL_IGNORING.contains(fn) && args.size() == 1
            && args.get(0).path("name").asText("").isEmpty() && args.get(0).path("expression").isObject()) {
          ((ObjectNode) args.get(0)).set("expression", withoutAlias(trees.parseExpression("CASE WHEN " + f
              + " THEN " + trees.expression(args.get(0).get("expression")) + " END")));
        } else {
          JsonNode existing = call.get("filter");
          String condition = existing != null && existing.isObject()
              ? "(" + trees.expression(existing) + ") AND (" + f + ")" : f;
          call.set("filter", withoutAlias(trees.parseExpression(condition)));
        }
      }

      /** An expression over core items ({@code lr#j}) as this copy's value. */
      String valueOf(JsonNode expression, String copy) {
        ObjectNode e = expression.deepCopy();
        substitute(e, ref -> value(itemIndex(ref), copy));
        return trees.expression(e);
      }

      /**
       * The scan read by each copy separately (a CTE): per copy its columns and a flag {@code lr_in_<copy>}, true
       * where the group has rows of the copy (and passes the branch's own filter for it); a group is kept when
       * some copy's flag holds.
       */
      String renderShared(Map<String, Set<Integer>> needed, List<Integer> key, Map<String, String> outName) {
        List<String> select = new ArrayList<>();
        for (int m = 0; m < keyExprs.size(); m++) {
          select.add(keyExprs.get(m) + " AS " + Sql.identifier("lr_k" + m));
        }
        Set<String> used = new LinkedHashSet<>();
        List<String> present = new ArrayList<>();
        for (String copy : copies) {
          for (int c : needed.get(copy)) {
            if (key.contains(c)) {
              continue;
            }
            String name = unique(used, "lr_" + copy.toLowerCase(Locale.ROOT) + "_" + columns.get(c).toLowerCase(Locale.ROOT));
            outName.put(copy.toLowerCase(Locale.ROOT) + "." + c, name);
            select.add(valueOf(b.columns.get(c), copy) + " AS " + Sql.identifier(name));
          }
          String in = conditional("count_star", "", filter.get(copy)) + " > 0";
          if (b.filter != null) {
            in = in + " AND (" + valueOf(b.filter, copy) + ")";
          }
          String name = unique(used, "lr_in_" + copy.toLowerCase(Locale.ROOT));
          outName.put(copy.toLowerCase(Locale.ROOT) + ".in", name);
          select.add("(" + in + ") AS " + Sql.identifier(name));
          present.add("(" + in + ")");
        }
        return "SELECT " + String.join(", ", select) + " FROM " + trees.renderFrom(b.core.get("from_table"))
            + " WHERE " + Trees.and(scanWhere()) + " GROUP BY " + String.join(", ", grouped) + " HAVING "
            + String.join(" OR ", present);
      }

      /** The branch's own conditions, the key not NULL, and some copy's filter. */
      List<String> scanWhere() {
        List<String> where = new ArrayList<>();
        for (JsonNode c : Trees.conjuncts(b.core.get("where_clause"))) {
          where.add(trees.expression(c));
        }
        for (String k : keyExprs) {
          where.add("(" + k + ") IS NOT NULL");
        }
        Set<String> any = new LinkedHashSet<>();
        for (String copy : copies) {
          any.add(filter.get(copy));
        }
        if (!any.contains("true")) {
          where.add(any.size() == 1 ? any.iterator().next() : "(" + String.join(") OR (", any) + ")");
        }
        return where;
      }

      String render(Map<String, Set<Integer>> needed, List<Integer> key, Map<String, String> outName) {
        List<String> select = new ArrayList<>();
        for (int m = 0; m < keyExprs.size(); m++) {
          select.add(keyExprs.get(m) + " AS " + Sql.identifier("lr_k" + m));
        }
        Set<String> used = new LinkedHashSet<>();
        for (String copy : copies) {
          for (int c : needed.get(copy)) {
            if (key.contains(c)) {
              continue;
            }
            String name = unique(used, "lr_" + copy.toLowerCase(Locale.ROOT) + "_" + columns.get(c).toLowerCase(Locale.ROOT));
            outName.put(copy.toLowerCase(Locale.ROOT) + "." + c, name);
            select.add(valueOf(b.columns.get(c), copy) + " AS " + Sql.identifier(name));
          }
        }
        List<String> where = scanWhere();
        List<String> having = new ArrayList<>();
        for (String copy : copies) {
          having.add(conditional("count_star", "", filter.get(copy)) + " > 0");
          if (b.filter != null) {
            having.add("(" + valueOf(b.filter, copy) + ")");
          }
        }
        return "SELECT " + String.join(", ", select) + " FROM " + trees.renderFrom(b.core.get("from_table"))
            + " WHERE " + Trees.and(where) + " GROUP BY " + String.join(", ", grouped) + " HAVING "
            + Trees.and(having);
      }
    }

    /**
     * The CTE's branches, each a grouped core with its columns' expressions; null when a branch is not one (or
     * the CTE is a UNION that removes duplicates).
     */
    @Nullable List<Branch> branches(JsonNode body) {
      List<JsonNode> selects = new ArrayList<>();
      if (!unionAll(body, selects)) {
        return null;
      }
      List<Branch> out = new ArrayList<>();
      for (JsonNode s : selects) {
        Branch b = branch((ObjectNode) s);
        if (b == null || b.columns.size() != columns.size()) {
          return null;
        }
        out.add(b);
      }
      return out;
    }

    @Nullable Branch branch(ObjectNode select) {
      if (isGroupedCore(select)) {
        Branch b = core(select);
        if (b == null) {
          return null;
        }
        for (int j = 0; j < b.items.size(); j++) {
          b.columns.add(trees.parseExpression(Sql.identifier(ITEM + j)));
        }
        return b;
      }
      // A projection and filter over one grouped derived table.
      JsonNode from = select.path("from_table");
      if (!plain(select) || !select.path("group_expressions").isEmpty() || !select.path("having").isNull()
          || Trees.hasAggregate(select.path("select_list")) || Trees.hasWindow(select.path("select_list"))
          || !"SUBQUERY".equals(from.path("type").asText()) || !from.path("column_name_alias").isEmpty()) {
        return null;
      }
      JsonNode inner = from.path("subquery").path("node");
      if (!inner.isObject() || !isGroupedCore(inner)) {
        return null;
      }
      Branch b = core((ObjectNode) inner);
      List<String> itemNames = Scope.outputNames(inner);
      if (b == null || itemNames == null) {
        return null;
      }
      String sub = Trees.referenceName(from);
      java.util.function.Function<JsonNode, @Nullable ObjectNode> onItems = e -> {
        ObjectNode copy = e.deepCopy();
        boolean[] ok = {!Trees.hasSubquery(copy) && !isVolatile(copy)};
        Trees.visitShallow(copy, n -> {
          if ("COLUMN_REF".equals(n.path("class").asText())) {
            List<String> p = Trees.columnNames(n);
            int j = indexOf(itemNames, p.get(p.size() - 1));
            if (j < 0 || p.size() > 2 || p.size() == 2 && !p.get(0).equalsIgnoreCase(sub)) {
              ok[0] = false;
            } else {
              Trees.setColumn((ObjectNode) n, null, ITEM + j);
            }
          }
        });
        if ("COLUMN_REF".equals(copy.path("class").asText()) && !Trees.columnName(copy).startsWith(ITEM)) {
          ok[0] = false;
        }
        return ok[0] ? copy : null;
      };
      for (JsonNode item : select.path("select_list")) {
        ObjectNode e = onItems.apply(withoutAlias(item));
        if (e == null || "STAR".equals(item.path("class").asText())) {
          return null;
        }
        b.columns.add(e);
      }
      if (!select.path("where_clause").isNull() && select.has("where_clause")) {
        b.filter = onItems.apply(select.get("where_clause"));
        if (b.filter == null) {
          return null;
        }
      }
      return b;
    }

    /** The items of a grouped SELECT classified: grouping expressions, constants, aggregates. */
    @Nullable Branch core(ObjectNode select) {
      Branch b = new Branch(select);
      Set<String> aliases = new LinkedHashSet<>();
      for (JsonNode item : select.path("select_list")) {
        aliases.add(item.path("alias").asText("").toLowerCase(Locale.ROOT));
      }
      for (JsonNode g : select.path("group_expressions")) {
        if ("CONSTANT".equals(g.path("class").asText()) || Trees.hasAggregate(g) || Trees.hasWindow(g)
            || isVolatile(g)) {
          return null; // GROUP BY 1 or an odd grouping
        }
        List<String> p = "COLUMN_REF".equals(g.path("class").asText()) ? Trees.columnNames(g) : List.of();
        if (p.size() == 1 && aliases.contains(p.get(0).toLowerCase(Locale.ROOT))) {
          return null; // possibly a select alias
        }
        b.groups.putIfAbsent(trees.expression(g), g);
      }
      for (JsonNode item : select.path("select_list")) {
        String text = trees.expression(item);
        Kind kind;
        if ("STAR".equals(item.path("class").asText()) || Trees.hasWindow(item) || isVolatile(item)) {
          return null;
        } else if (b.groups.containsKey(text)) {
          kind = Kind.GROUP;
        } else if (Trees.columnRefs(item).isEmpty() && !Trees.hasAggregate(item)) {
          kind = Kind.CONSTANT;
        } else if (Trees.hasAggregate(item) && onlyInsideAggregates(item)) {
          kind = Kind.AGGREGATE;
        } else {
          return null;
        }
        b.items.add(item);
        b.kinds.add(kind);
      }
      return b;
    }
  }

  // ---------------------------------------------------------------------------------------------------------

  private static boolean isGroupedCore(JsonNode s) {
    return "SELECT_NODE".equals(s.path("type").asText()) && plain(s) && !s.path("group_expressions").isEmpty()
        && s.path("group_sets").size() <= 1 && s.path("having").isNull() && !s.path("from_table").isNull();
  }

  /** No DISTINCT, ORDER BY, LIMIT, QUALIFY, WITH, sample, or GROUP BY ALL. */
  private static boolean plain(JsonNode s) {
    return s.path("modifiers").isEmpty() && s.path("qualify").isNull() && s.path("cte_map").path("map").isEmpty()
        && (s.path("sample").isNull() || s.path("sample").isMissingNode())
        && "STANDARD_HANDLING".equals(s.path("aggregate_handling").asText("STANDARD_HANDLING"));
  }

  /** Collects the SELECT branches of a UNION ALL tree (the node itself for a SELECT); false for anything else. */
  private static boolean unionAll(JsonNode n, List<JsonNode> out) {
    if ("SELECT_NODE".equals(n.path("type").asText())) {
      out.add(n);
      return true;
    }
    if (!"SET_OPERATION_NODE".equals(n.path("type").asText()) || !"UNION".equals(n.path("setop_type").asText())
        || !n.path("setop_all").asBoolean(false) || !n.path("modifiers").isEmpty()) {
      return false;
    }
    List<JsonNode> children = new ArrayList<>();
    n.path("children").forEach(children::add);
    for (String side : List.of("left", "right")) {
      if (n.path(side).isObject()) {
        children.add(n.get(side));
      }
    }
    for (JsonNode c : children) {
      if (!unionAll(c, out)) {
        return false;
      }
    }
    return !children.isEmpty();
  }

  /** Whether every column reference of the expression sits inside an aggregate call. */
  private static boolean onlyInsideAggregates(JsonNode e) {
    if ("FUNCTION".equals(e.path("class").asText()) && SqlAnalyzer.isAggregate(e.path("function_name").asText())) {
      return !Trees.hasAggregate(e.path("arguments")) && !Trees.hasAggregate(e.path("children"))
          && !Trees.hasAggregate(e.path("filter")) && !Trees.hasWindow(e);
    }
    if ("COLUMN_REF".equals(e.path("class").asText())) {
      return false;
    }
    if ("SUBQUERY".equals(e.path("class").asText()) || "WINDOW".equals(e.path("class").asText())) {
      return false;
    }
    for (JsonNode child : e) {
      if (child.isContainerNode() && !onlyInsideAggregates(child)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isVolatile(JsonNode e) {
    boolean[] found = {false};
    Trees.visitShallow(e, n -> found[0] |= "FUNCTION".equals(n.path("class").asText())
        && VOLATILE.contains(n.path("function_name").asText("").toLowerCase(Locale.ROOT)));
    return found[0];
  }

  /** {@code a.col = b.col} between two different FROM items: {a, b, col}; else null. */
  private static String @Nullable [] sameColumnEquality(JsonNode c) {
    if (!"COMPARE_EQUAL".equals(c.path("type").asText())) {
      return null;
    }
    List<String> l = "COLUMN_REF".equals(c.path("left").path("class").asText())
        ? Trees.columnNames(c.path("left")) : List.of();
    List<String> r = "COLUMN_REF".equals(c.path("right").path("class").asText())
        ? Trees.columnNames(c.path("right")) : List.of();
    if (l.size() != 2 || r.size() != 2 || l.get(0).equalsIgnoreCase(r.get(0)) || !l.get(1).equalsIgnoreCase(r.get(1))) {
      return null;
    }
    return new String[] {l.get(0).toLowerCase(Locale.ROOT), r.get(0).toLowerCase(Locale.ROOT),
        l.get(1).toLowerCase(Locale.ROOT)};
  }

  /** {@code x.col = <constant>} (either side): {col}; else null. */
  private static String @Nullable [] constantEquality(JsonNode c) {
    if (!"COMPARE_EQUAL".equals(c.path("type").asText())) {
      return null;
    }
    for (String[] sides : new String[][] {{"left", "right"}, {"right", "left"}}) {
      JsonNode col = c.path(sides[0]);
      JsonNode value = c.path(sides[1]);
      if ("COLUMN_REF".equals(col.path("class").asText()) && Trees.columnRefs(value).isEmpty()
          && !Trees.hasSubquery(value) && !Trees.hasAggregate(value) && !isVolatile(value)) {
        return new String[] {Trees.columnName(col)};
      }
    }
    return null;
  }

  /** Drops the CTE's definition when nothing reads it any more. */
  private static void removeIfUnused(JsonNode statement, String name) {
    if (Trees.baseTables(statement).stream().anyMatch(t -> t.equalsIgnoreCase(name))) {
      return;
    }
    Trees.visit(statement, n -> {
      JsonNode map = n.path("cte_map").path("map");
      if (map.isArray()) {
        for (int i = map.size() - 1; i >= 0; i--) {
          if (map.get(i).path("key").asText().equalsIgnoreCase(name)) {
            ((ArrayNode) map).remove(i);
          }
        }
      }
    });
  }

  private static ObjectNode withoutAlias(JsonNode e) {
    ObjectNode copy = e.deepCopy();
    copy.put("alias", "");
    return copy;
  }

  /** Replaces every column reference in the tree (the root included) by the function's expression for it. */
  private static void substitute(ObjectNode tree, java.util.function.Function<JsonNode, ObjectNode> f) {
    List<ObjectNode> refs = new ArrayList<>();
    Trees.visitShallow(tree, n -> {
      if ("COLUMN_REF".equals(n.path("class").asText())) {
        refs.add((ObjectNode) n);
      }
    });
    if ("COLUMN_REF".equals(tree.path("class").asText()) && !refs.contains(tree)) {
      refs.add(tree);
    }
    for (ObjectNode n : refs) {
      Trees.replace(n, f.apply(n.deepCopy()));
    }
  }

  /** The name, or the name with underscores appended until no earlier name is the same; recorded as used. */
  private static String unique(Set<String> used, String name) {
    String out = name;
    while (!used.add(out)) {
      out = out + "_";
    }
    return out;
  }

  private static int indexOf(List<String> names, String name) {
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  private static void union(Map<String, String> parent, String a, String b) {
    parent.putIfAbsent(a, a);
    parent.putIfAbsent(b, b);
    String ra = find(parent, a);
    String rb = find(parent, b);
    if (!ra.equals(rb)) {
      parent.put(ra, rb);
    }
  }

  private static String find(Map<String, String> parent, String x) {
    String r = x;
    while (parent.containsKey(r) && !parent.get(r).equals(r)) {
      r = parent.get(r);
    }
    return r;
  }
}
