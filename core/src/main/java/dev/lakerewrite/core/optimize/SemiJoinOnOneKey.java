package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code semi-join-on-one-key}: where the measured plan joins a large table on two or more column equalities and
 * keeps few of its rows ({@link PlanProfile#multiKeyJoins()}: TPC-DS q93 probes all 2.9 million store sales rows
 * into the 8,000 returns of one reason, on item and ticket), the large table is first reduced by a semi-join on one
 * of those columns: {@code l.a IN (SELECT r.b FROM <the tables joined to r without l> WHERE <their conditions>)}.
 * The join itself stays, so the filter is redundant and the result unchanged: every row the block keeps has an
 * {@code r} row with {@code r.b = l.a} that meets those conditions. DuckDB pushes a one-column join's keys into the
 * probe side's scan (for several columns only their ranges), so the scan drops the rows before they are probed.
 *
 * <p>The column is the large table's one with the most distinct values (DuckDB's statistics; the first equality
 * where they are unknown). Only in a block whose joins are inner, or left joins a WHERE condition makes inner (a
 * comparison with a column of their right side), only where the large side is a base table, and only where the
 * small side has a filter of its own or (by the statistics) at most half as many distinct keys (TPC-H q9's
 * partsupp, unfiltered, holds every part key of lineitem).
 */
final class SemiJoinOnOneKey implements Recipe {
  static final String ID = "semi-join-on-one-key";

  /** At most this many candidates per query (one per selective join the block structure allows). */
  private static final int MAX_CANDIDATES = 3;

  private static final KnowledgeBase.Recipe KNOWLEDGE = new KnowledgeBase.Recipe(ID, "join",
      "Join on several keys that keeps few rows of a large table: a semi-join on one key first",
      "A large table is joined on two or more columns (item and ticket number) to a small, filtered side (the returns of one reason); the engine probes every row of the large table into the hash table, because it pushes a join's keys into the large table's scan only for a join on one column.",
      "Keep the join and add l.a IN (SELECT r.b FROM <the tables joined to r, not through l> WHERE <their own conditions>) for the large table's most selective key column a: the scan then drops the rows no small-side row can match before the join.",
      "DuckDB pushes a one-column join's keys into the probe side's scan (a dynamic filter), for several columns only their min/max ranges. Redundant: the join still checks every key.",
      "composite key join selective semi join in subquery dynamic filter probe side scan store_sales store_returns ticket_number reason",
      "SELECT ss_customer_sk, sum(ss_quantity) FROM store_sales, store_returns, reason WHERE sr_item_sk = ss_item_sk AND sr_ticket_number = ss_ticket_number AND sr_reason_sk = r_reason_sk AND r_reason_desc = 'reason 28' GROUP BY ss_customer_sk",
      "SELECT ss_customer_sk, sum(ss_quantity) FROM store_sales, store_returns, reason WHERE sr_item_sk = ss_item_sk AND sr_ticket_number = ss_ticket_number AND sr_reason_sk = r_reason_sk AND r_reason_desc = 'reason 28' AND store_sales.ss_ticket_number IN (SELECT store_returns.sr_ticket_number FROM store_returns, reason WHERE sr_reason_sk = r_reason_sk AND r_reason_desc = 'reason 28') GROUP BY ss_customer_sk");

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
    return EnumSet.of(PlanSymptom.SELECTIVE_MULTI_KEY_JOIN);
  }

  /** Only where a measured plan shows a selective join on several keys. */
  @Override
  public boolean appliesTo(PlanProfile plan) {
    return !plan.multiKeyJoins().isEmpty() && plan.dominantAny(targets());
  }

  /** Without the plan there is nothing to go by. */
  @Override
  public List<RuleProposer.Proposal> candidates(String sql, RuleProposer rules) {
    return List.of();
  }

  @Override
  public List<RuleProposer.Proposal> candidates(String sql, RuleProposer rules, PlanProfile plan) {
    return candidates(sql, rules, plan.multiKeyJoins());
  }

  /** One candidate per site that matches one of these joins (each a list of equalities of bare column names). */
  List<RuleProposer.Proposal> candidates(String sql, RuleProposer rules, List<List<List<String>>> joins) {
    Trees trees = rules.trees();
    List<RuleProposer.Proposal> out = new ArrayList<>();
    ObjectNode statement = trees.statement(sql);
    Set<String> seen = new LinkedHashSet<>();
    seen.add(RuleProposer.normalize(trees.render(statement)));
    for (int k = 0; out.size() < MAX_CANDIDATES; k++) {
      ObjectNode copy = statement.deepCopy();
      int[] remaining = {k};
      String what = null;
      boolean sites = false;
      RuleProposer.Context ctx = rules.context(copy);
      for (ObjectNode node : RuleProposer.queryNodes(copy)) {
        Applied a = apply(node, ctx, joins, remaining);
        if (a.sites() > 0) {
          sites = true;
        }
        if (a.what() != null) {
          what = a.what();
          break;
        }
      }
      if (what == null) {
        if (!sites || remaining[0] >= 0) {
          break;
        }
        continue;
      }
      if (seen.add(RuleProposer.normalize(trees.render(copy)))) {
        out.add(new RuleProposer.Proposal(CandidateSource.RULE, ID, what, trees.render(copy)));
      }
    }
    return out;
  }

  /** What one block gave: the sites it has and, when the {@code remaining[0]}-th was among them, what was done. */
  private record Applied(int sites, @Nullable String what) {}

  /**
   * Applies the rewrite at the {@code remaining[0]}-th site of this block (counting down across blocks): a pair of
   * items joined by two or more column equalities, one of them a base table, matching a selective join of the plan.
   */
  private static Applied apply(ObjectNode node, RuleProposer.Context ctx, List<List<List<String>>> joins,
      int[] remaining) {
    if (!"SELECT_NODE".equals(node.path("type").asText())) {
      return new Applied(0, null);
    }
    List<JsonNode> where = Trees.conjuncts(node.get("where_clause"));
    Scope scope = ctx.scope(node);
    List<JsonNode> conjuncts = new ArrayList<>(where);
    if (!joinConditions(node.path("from_table"), where, scope, conjuncts)) {
      return new Applied(0, null);
    }
    // Columns the block's equalities make equal, by name: the plan may join on an equality the engine derived
    // (TPC-DS q29: catalog sales to store sales on the item, where the query joins both to the returns).
    java.util.Map<String, String> classes = new java.util.HashMap<>();
    for (JsonNode c : conjuncts) {
      if ("COMPARE_EQUAL".equals(c.path("type").asText()) && "COLUMN_REF".equals(c.path("left").path("class").asText())
          && "COLUMN_REF".equals(c.path("right").path("class").asText())) {
        union(classes, name(c.path("left")), name(c.path("right")));
      }
    }
    // Column equalities between two items, grouped by the pair.
    List<Scope.Item> items = scope.items();
    int sites = 0;
    for (int i = 0; i < items.size(); i++) {
      for (int j = 0; j < items.size(); j++) {
        if (i == j) {
          continue;
        }
        Scope.Item large = items.get(i);
        Scope.Item small = items.get(j);
        if (!isLargerTable(large, small, ctx)) {
          continue;
        }
        List<JsonNode[]> keys = new ArrayList<>();
        for (JsonNode c : conjuncts) {
          JsonNode[] pair = columnEquality(c, large, small, scope);
          if (pair != null) {
            keys.add(pair);
          }
        }
        if (keys.size() < 2 || !matches(keys, joins, classes)) {
          continue;
        }
        sites++;
        if (remaining[0]-- > 0) {
          continue;
        }
        String what = rewrite(node, ctx, scope, conjuncts, large, small, keys);
        return new Applied(sites, what);
      }
    }
    return new Applied(sites, null);
  }

  /**
   * Adds the ON conditions of the block's joins to {@code out}; false when a join is neither inner nor a left join
   * that a WHERE condition makes inner (a comparison with a column of its right side, a single item), or joins by
   * USING, NATURAL, LATERAL or POSITIONAL.
   */
  private static boolean joinConditions(JsonNode from, List<JsonNode> where, Scope scope, List<JsonNode> out) {
    boolean[] ok = {true};
    Trees.visitShallow(from, n -> {
      if (!"JOIN".equals(n.path("type").asText())) {
        return;
      }
      String type = n.path("join_type").asText("INNER");
      if (!n.path("using_columns").isEmpty()
          || !Set.of("REGULAR", "CROSS").contains(n.path("ref_type").asText("REGULAR"))) {
        ok[0] = false;
      } else if ("LEFT".equals(type)) {
        JsonNode right = n.path("right");
        if ("JOIN".equals(right.path("type").asText()) || !nullRejected(Trees.referenceName(right), where, scope)) {
          ok[0] = false;
        }
      } else if (!"INNER".equals(type)) {
        ok[0] = false;
      }
      out.addAll(Trees.conjuncts(n.get("condition")));
    });
    return ok[0];
  }

  private static final Set<String> COMPARISONS = Set.of("COMPARE_EQUAL", "COMPARE_NOTEQUAL", "COMPARE_LESSTHAN",
      "COMPARE_GREATERTHAN", "COMPARE_LESSTHANOREQUALTO", "COMPARE_GREATERTHANOREQUALTO");

  /** Whether a WHERE conjunct compares a column of this item directly (false for NULL, so its NULL rows go). */
  private static boolean nullRejected(String alias, List<JsonNode> where, Scope scope) {
    for (JsonNode c : where) {
      if (!COMPARISONS.contains(c.path("type").asText()) || Trees.hasSubquery(c)) {
        continue;
      }
      for (JsonNode side : List.of(c.path("left"), c.path("right"))) {
        if ("COLUMN_REF".equals(side.path("class").asText())) {
          List<String> parts = new ArrayList<>();
          side.path("column_names").forEach(p -> parts.add(p.asText()));
          Scope.Resolution r = scope.resolve(parts);
          if (r.item() != null && r.item().name().equalsIgnoreCase(alias)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Whether {@code large} is a base table of the catalog with more estimated rows than {@code small}. */
  private static boolean isLargerTable(Scope.Item large, Scope.Item small, RuleProposer.Context ctx) {
    if (!isTable(large.node(), ctx)) {
      return false;
    }
    long l = ctx.catalog().table(large.node().path("table_name").asText()).map(Catalog.Table::estimatedRows)
        .orElse(-1L);
    if (l <= 0) {
      return false;
    }
    if (!isTable(small.node(), ctx)) {
      return true;
    }
    long s = ctx.catalog().table(small.node().path("table_name").asText()).map(Catalog.Table::estimatedRows)
        .orElse(-1L);
    return l > s;
  }

  /** {@code large.a = small.b} (either way round): the two column references {large's, small's}, else null. */
  private static JsonNode @Nullable [] columnEquality(JsonNode c, Scope.Item large, Scope.Item small, Scope scope) {
    if (!"COMPARE_EQUAL".equals(c.path("type").asText())) {
      return null;
    }
    JsonNode left = c.path("left");
    JsonNode right = c.path("right");
    if (!"COLUMN_REF".equals(left.path("class").asText()) || !"COLUMN_REF".equals(right.path("class").asText())) {
      return null;
    }
    Scope.Item l = owner(left, scope);
    Scope.Item r = owner(right, scope);
    if (l == large && r == small) {
      return new JsonNode[] {left, right};
    }
    if (l == small && r == large) {
      return new JsonNode[] {right, left};
    }
    return null;
  }

  private static Scope.@Nullable Item owner(JsonNode column, Scope scope) {
    List<String> parts = new ArrayList<>();
    column.path("column_names").forEach(p -> parts.add(p.asText()));
    return scope.resolve(parts).item();
  }

  /**
   * Whether two or more of these equalities are those of one selective join of the plan: by column names, up to
   * the columns the block's equalities make equal ({@code classes}).
   */
  private static boolean matches(List<JsonNode[]> keys, List<List<List<String>>> joins,
      java.util.Map<String, String> classes) {
    for (List<List<String>> join : joins) {
      int hit = 0;
      for (JsonNode[] k : keys) {
        String cls = find(classes, name(k[0]));
        if (join.stream().anyMatch(e -> find(classes, e.get(0)).equals(cls) && find(classes, e.get(1)).equals(cls))) {
          hit++;
        }
      }
      if (hit >= 2) {
        return true;
      }
    }
    return false;
  }

  private static String name(JsonNode column) {
    return Trees.columnName(column).toLowerCase(Locale.ROOT);
  }

  private static String find(java.util.Map<String, String> classes, String name) {
    String at = name;
    while (classes.containsKey(at) && !classes.get(at).equals(at)) {
      at = classes.get(at);
    }
    return at;
  }

  private static void union(java.util.Map<String, String> classes, String a, String b) {
    String ra = find(classes, a);
    String rb = find(classes, b);
    if (!ra.equals(rb)) {
      classes.put(ra, rb);
    }
  }

  /** Adds the semi-join on the large table's most selective key column; what it did, or null. */
  private static @Nullable String rewrite(ObjectNode node, RuleProposer.Context ctx, Scope scope,
      List<JsonNode> conjuncts, Scope.Item large, Scope.Item small, List<JsonNode[]> keys) {
    Trees trees = ctx.trees();
    // The small side: the items reachable from it by conditions that do not read the large table.
    Set<Scope.Item> side = new LinkedHashSet<>();
    side.add(small);
    List<List<Scope.Item>> owners = new ArrayList<>();
    for (JsonNode c : conjuncts) {
      List<Scope.Item> o = Trees.hasSubquery(c) ? null : scope.owners(c);
      owners.add(o);
    }
    boolean grew = true;
    while (grew) {
      grew = false;
      for (List<Scope.Item> o : owners) {
        if (o != null && !o.contains(large) && o.stream().anyMatch(side::contains) && !side.containsAll(o)) {
          side.addAll(o);
          grew = true;
        }
      }
    }
    List<String> filters = new ArrayList<>();
    for (int i = 0; i < conjuncts.size(); i++) {
      List<Scope.Item> o = owners.get(i);
      if (o != null && !o.isEmpty() && side.containsAll(o)) {
        filters.add(trees.expression(conjuncts.get(i)));
      }
    }
    JsonNode[] key = keys.get(0);
    long best = -1;
    String table = large.node().path("table_name").asText();
    for (JsonNode[] k : keys) {
      OptionalLong d = ctx.catalog().distinctValues(table, Trees.columnName(k[0]));
      if (d.isPresent() && d.getAsLong() > best) {
        best = d.getAsLong();
        key = k;
      }
    }
    // Without a filter of its own the small side can only reduce the large table if it holds few of its keys.
    boolean filtered = false;
    for (List<Scope.Item> o : owners) {
      filtered |= o != null && o.size() == 1 && side.contains(o.get(0));
    }
    if (!filtered) {
      OptionalLong mine = ctx.catalog().distinctValues(table, Trees.columnName(key[0]));
      OptionalLong theirs = isTable(small.node(), ctx) ? ctx.catalog().distinctValues(
          small.node().path("table_name").asText(), Trees.columnName(key[1])) : OptionalLong.empty();
      if (mine.isEmpty() || theirs.isEmpty() || 2 * theirs.getAsLong() > mine.getAsLong()) {
        return null;
      }
    }
    List<String> from = new ArrayList<>();
    for (Scope.Item i : scope.items()) {
      if (side.contains(i)) {
        from.add(trees.renderFrom(i.node()));
      }
    }
    String largeColumn = Sql.identifier(large.name()) + "." + Sql.identifier(Trees.columnName(key[0]));
    String semiJoin = largeColumn + " IN (SELECT " + Sql.identifier(small.name()) + "."
        + Sql.identifier(Trees.columnName(key[1])) + " FROM " + String.join(", ", from)
        + (filters.isEmpty() ? "" : " WHERE " + Trees.and(filters)) + ")";
    JsonNode oldWhere = node.get("where_clause");
    String condition = oldWhere == null || oldWhere.isNull() ? semiJoin
        : "(" + trees.expression(oldWhere) + ") AND " + semiJoin;
    ObjectNode parsed = trees.node("SELECT 1 WHERE " + condition);
    node.set("where_clause", parsed.get("where_clause"));
    return Trees.referenceName(large.node()) + " joins " + Trees.referenceName(small.node()) + " on "
        + keys.size() + " columns: reduced first by " + largeColumn + " IN (" + String.join(", ", from)
        + (filters.isEmpty() ? "" : " filtered by " + filters.size() + " condition(s)") + ")";
  }

  /** A base table, not a CTE of the statement. */
  private static boolean isTable(JsonNode item, RuleProposer.Context ctx) {
    return "BASE_TABLE".equals(item.path("type").asText()) && !ctx.cteColumns().containsKey(
        item.path("table_name").asText("").toLowerCase(Locale.ROOT))
        && ctx.catalog().table(item.path("table_name").asText("")).isPresent();
  }
}
