package dev.lakerewrite.core.optimize;

import static dev.lakerewrite.core.sql.Trees.replace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The offline proposer: applies the knowledge base's recipes where the query's structure shows their pathology,
 * each at every site where it applies (and at all sites at once), plus QUITE-style CTE materialisation hints.
 * Every proposal is only a candidate: verification and timing decide. Recipes ({@link #RECIPES}):
 * <ul>
 *   <li>{@code decorrelate-scalar-aggregate}: {@code x > (SELECT agg(..) FROM .. WHERE inner.k = outer.k)} becomes
 *       a join with the aggregate grouped by {@code k} (never for COUNT, whose empty-group value is 0, not NULL);
 *   <li>{@code in-subquery-to-join}: an uncorrelated {@code x IN (SELECT c ...)} conjunct becomes a join with the
 *       distinct values;
 *   <li>{@code not-in-to-not-exists}: {@code x NOT IN (SELECT c ...)} becomes {@code NOT EXISTS}, only when both
 *       sides are declared NOT NULL (otherwise the two differ);
 *   <li>{@code eager-aggregation}: aggregation after a fan-out join is pushed below the join (pre-aggregate the
 *       many side by the join key);
 *   <li>{@code prune-unused-cte-columns}: CTE columns nothing reads are not computed (and leave GROUP BY when a
 *       grouped primary key determines them);
 *   <li>{@code pre-aggregate-grouping-sets}: a ROLLUP / CUBE / GROUPING SETS block aggregates the finest groups
 *       once in a derived table and combines the grouping sets from those partial aggregates;
 *   <li>{@code consolidate-repeated-scan}: a HAVING that compares with a scalar subquery over the same FROM and
 *       WHERE becomes one scan with a window aggregate;
 *   <li>{@code implied-or-filters}: an OR of conjunctions over several tables implies a per-table OR that can be
 *       pushed into each scan;
 *   <li>{@code or-to-union-all}: an OR across different columns becomes UNION ALL branches made disjoint with
 *       {@code IS NOT TRUE};
 *   <li>{@code left-join-to-inner}: a LEFT JOIN whose right side a WHERE condition rejects NULLs for is inner;
 *   <li>{@code set-operation-to-semi-join}: INTERSECT / EXCEPT become EXISTS / NOT EXISTS with
 *       {@code IS NOT DISTINCT FROM};
 *   <li>{@code push-filter-into-cte}: a literal filter on a CTE referenced once is also applied inside it;
 *   <li>{@code cte-materialized} / {@code cte-not-materialized}: DuckDB's materialisation hints.
 * </ul>
 * Each site check is linear in the size of the block; a query with b blocks yields O(b) candidates per recipe.
 */
final class RuleProposer {
  /** The ids of the recipes with rules (from {@link RecipeRegistry}). */
  static final List<String> RECIPES = RecipeRegistry.ruleIds();

  private static final Map<String, String> COMPARISON_OPS = Map.of(
      "COMPARE_EQUAL", "=", "COMPARE_NOTEQUAL", "<>", "COMPARE_LESSTHAN", "<", "COMPARE_GREATERTHAN", ">",
      "COMPARE_LESSTHANOREQUALTO", "<=", "COMPARE_GREATERTHANOREQUALTO", ">=");

  /** A candidate the proposer produced. */
  record Proposal(CandidateSource source, String label, String explanation, String sql) {}

  /** What a rule sees: the tree it edits, the catalog, and the CTE columns of that tree. */
  record Context(Trees trees, Catalog catalog, ObjectNode statement, Map<String, List<String>> cteColumns,
      int[] counter, Set<String> refusals) {
    Scope scope(JsonNode node) {
      return Scope.of(node, catalog, cteColumns);
    }

    /**
     * Records why a rule left a site that has the shape it targets alone (the session traces it as
     * {@code recipe-refused}); for the refusals a user would want to know about, not for every non-match.
     */
    void refuse(String why) {
      refusals.add(why);
    }

    String fresh(String prefix) {
      return prefix + (++counter[0]);
    }
  }

  private final Trees trees;
  private final Catalog catalog;
  private final Set<String> enabled;
  private final Set<String> refusals = new LinkedHashSet<>();

  RuleProposer(Trees trees, Catalog catalog, Set<String> enabled) {
    this.trees = trees;
    this.catalog = catalog;
    this.enabled = Set.copyOf(enabled);
  }

  /**
   * All proposals of every enabled recipe for the query, at most {@code max}, without duplicates or no-ops (for
   * tests and callers without a plan; the optimizer selects recipes by the plan and calls them one by one).
   */
  List<Proposal> propose(String sql, int max) {
    List<Proposal> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    seen.add(normalize(trees.render(trees.statement(sql))));
    for (Recipe r : RecipeRegistry.ALL) {
      if (enabled.contains(r.id())) {
        for (Proposal p : r.candidates(sql, this)) {
          if (seen.add(normalize(p.sql()))) {
            out.add(p);
          }
        }
      }
    }
    return out.size() > max ? List.copyOf(out.subList(0, max)) : List.copyOf(out);
  }

  /** The reasons rules gave for leaving sites alone since the last call (each once), then forgets them. */
  List<String> takeRefusals() {
    List<String> out = List.copyOf(refusals);
    refusals.clear();
    return out;
  }

  static String normalize(String sql) {
    return sql.replaceAll("\\s+", " ").strip().toLowerCase(Locale.ROOT);
  }

  private void add(List<Proposal> out, Set<String> seen, Proposal p) {
    String rendered;
    try {
      rendered = trees.render(trees.statement(p.sql()));
    } catch (RuntimeException e) {
      throw new IllegalStateException("recipe " + p.label() + " produced SQL that does not parse: "
          + e.getMessage(), e);
    }
    if (seen.add(normalize(rendered))) {
      out.add(new Proposal(p.source(), p.label(), p.explanation(), rendered));
    }
  }

  /**
   * Applies a block rule at each site separately, then at all sites together when there are several. A site where
   * the rule throws makes the whole recipe fail (the caller records it): a rule that throws has a bug.
   */
  List<Proposal> applyAtEverySite(String sql, String label, RuleRecipe.NodeRule rule) {
    ObjectNode statement = trees.statement(sql);
    List<Proposal> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    seen.add(normalize(trees.render(statement)));
    int sites = queryNodes(statement).size();
    List<String> descriptions = new ArrayList<>();
    for (int i = 0; i < sites; i++) {
      ObjectNode copy = statement.deepCopy();
      Context ctx = context(copy);
      String what = rule.apply(this, queryNodes(copy).get(i), ctx);
      if (what != null) {
        descriptions.add(what);
        add(out, seen, new Proposal(CandidateSource.RULE, label, what, trees.render(copy)));
      }
    }
    if (descriptions.size() > 1) {
      ObjectNode copy = statement.deepCopy();
      Context ctx = context(copy);
      List<ObjectNode> nodes = queryNodes(copy);
      int applied = 0;
      for (int i = nodes.size() - 1; i >= 0; i--) {
        if (rule.apply(this, nodes.get(i), ctx) != null) {
          applied++;
        }
      }
      if (applied > 1) {
        add(out, seen, new Proposal(CandidateSource.RULE, label + "-all", "all " + applied + " sites: "
            + String.join("; ", descriptions), trees.render(copy)));
      }
    }
    return out;
  }

  Trees trees() {
    return trees;
  }

  Context context(ObjectNode statement) {
    return new Context(trees, catalog, statement, Scope.cteColumns(statement.get("node")), new int[] {0}, refusals);
  }

  /** Every SELECT and set-operation node of the tree, parents before children. */
  static List<ObjectNode> queryNodes(JsonNode tree) {
    List<ObjectNode> out = new ArrayList<>();
    Trees.visit(tree, n -> {
      String type = n.path("type").asText();
      if ((type.equals("SELECT_NODE") || type.equals("SET_OPERATION_NODE")) && n.has("modifiers")) {
        out.add((ObjectNode) n);
      }
    });
    return out;
  }

  private static boolean isSelect(JsonNode n) {
    return "SELECT_NODE".equals(n.path("type").asText());
  }

  private static boolean plainSubquery(JsonNode sub) {
    return isSelect(sub) && sub.path("modifiers").isEmpty() && sub.path("cte_map").path("map").isEmpty();
  }

  private void setWhere(ObjectNode node, List<String> conjuncts) {
    node.set("where_clause", conjuncts.isEmpty() ? Trees.JSON.nullNode()
        : trees.node("SELECT * FROM lakerewrite_placeholder WHERE " + Trees.and(conjuncts)).get("where_clause"));
  }

  private List<String> rendered(List<JsonNode> conjuncts) {
    List<String> out = new ArrayList<>();
    for (JsonNode c : conjuncts) {
      out.add(trees.expression(c));
    }
    return out;
  }

  private static String comparisonOp(JsonNode comparison, boolean flipped) {
    String op = COMPARISON_OPS.get(comparison.path("type").asText());
    if (op == null || !flipped) {
      return op;
    }
    return switch (op) {
      case "<" -> ">";
      case ">" -> "<";
      case "<=" -> ">=";
      case ">=" -> "<=";
      default -> op;
    };
  }

  private static boolean isScalarSubquery(JsonNode e) {
    return "SUBQUERY".equals(e.path("class").asText()) && "SCALAR".equals(e.path("subquery_type").asText());
  }

  private static boolean containsFunction(JsonNode e, Set<String> names) {
    boolean[] found = {false};
    Trees.visitShallow(e, n -> {
      if (("FUNCTION".equals(n.path("class").asText()) || "WINDOW".equals(n.path("class").asText()))
          && names.contains(n.path("function_name").asText().toLowerCase(Locale.ROOT))) {
        found[0] = true;
      }
    });
    return found[0];
  }

  // ---------------------------------------------------------------------------------------------------------
  // merge-repeated-aggregate-subqueries

  private static final Set<String> MERGEABLE_AGGREGATES = Set.of("count", "count_star", "sum", "avg", "min", "max");
  private static final java.util.regex.Pattern BARE_NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** One subquery that could share a pass: where it sits, its FROM text, WHERE conjuncts and aggregates. */
  private record AggregateSite(ObjectNode at, boolean derived, String from, List<String> conjuncts,
      List<String> aggregates, List<String> names) {}

  /**
   * Subqueries of one block that aggregate over the same FROM (same tables, same joins) with different WHERE
   * conjuncts become reads of one CTE that computes all their aggregates in one pass, each with its own conjuncts
   * as a FILTER clause and the shared conjuncts (and the OR of the differing ones) in WHERE. Sites: uncorrelated
   * scalar subqueries in the SELECT list, WHERE and HAVING, and derived tables of a FROM list without join
   * conditions. FILTER gives each aggregate exactly the rows its subquery's WHERE kept, so empty inputs still
   * give count 0 and NULL otherwise. Linear in the size of the block.
   */
  @Nullable String mergeRepeatedAggregates(ObjectNode node, Context ctx) {
    return mergeAggregateSubqueries(node, ctx, false);
  }

  /**
   * Subqueries of one block that aggregate over the same FROM with the same WHERE conjuncts (TPC-DS q9: a count and
   * two averages per quantity range) become reads of one CTE per distinct WHERE computing all their aggregates: the
   * same rows, read once per filter instead of once per subquery, and no FILTER clause (one pass over the union of
   * several filters with a FILTER per aggregate ran slower on DuckDB: q9 0.9x against 1.6x for this). Exact: an
   * aggregate without GROUP BY gives one row whatever else is computed beside it. Linear in the size of the block.
   */
  @Nullable String shareIdenticalAggregateSubqueries(ObjectNode node, Context ctx) {
    return mergeAggregateSubqueries(node, ctx, true);
  }

  private @Nullable String mergeAggregateSubqueries(ObjectNode node, Context ctx, boolean sameWhere) {
    if (!isSelect(node)) {
      return null;
    }
    List<AggregateSite> sites = new ArrayList<>();
    for (String clause : List.of("select_list", "where_clause", "having")) {
      JsonNode part = node.get(clause);
      if (part != null && !part.isNull()) {
        collectScalarSites(part, ctx, sites);
      }
    }
    boolean crossOnly = true;
    JsonNode from = node.get("from_table");
    List<JsonNode> joins = new ArrayList<>();
    Trees.visitShallow(from, n -> {
      if ("JOIN".equals(n.path("type").asText())) {
        joins.add(n);
      }
    });
    for (JsonNode j : joins) {
      crossOnly &= !j.path("condition").isObject() && j.path("using_columns").isEmpty();
    }
    if (crossOnly) {
      for (JsonNode item : Trees.fromItems(from)) {
        if ("SUBQUERY".equals(item.path("type").asText())) {
          AggregateSite site = site((ObjectNode) item, item.path("subquery").path("node"), true, ctx);
          if (site != null) {
            sites.add(site);
          }
        }
      }
    }
    java.util.Map<String, List<AggregateSite>> groups = new java.util.LinkedHashMap<>();
    for (AggregateSite site : sites) {
      String key = site.from();
      if (sameWhere) {
        List<String> sorted = new ArrayList<>(site.conjuncts());
        java.util.Collections.sort(sorted);
        key += "\u0000" + String.join("\u0000", sorted);
      }
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(site);
    }
    List<String> merged = new ArrayList<>();
    for (List<AggregateSite> group : groups.values()) {
      if (group.size() < 2) {
        continue;
      }
      List<String> common = new ArrayList<>(group.get(0).conjuncts());
      for (AggregateSite site : group) {
        common.retainAll(site.conjuncts());
      }
      String cte = ctx.fresh("lr_agg");
      List<String> columns = new ArrayList<>();
      Set<String> own = new LinkedHashSet<>();
      List<List<String>> owns = new ArrayList<>();
      boolean everyRowNeeded = false;
      int column = 0;
      List<List<String>> columnNames = new ArrayList<>();
      for (AggregateSite site : group) {
        List<String> rest = new ArrayList<>(site.conjuncts());
        rest.removeAll(common);
        String filter = rest.isEmpty() ? "" : " FILTER (WHERE " + Trees.and(rest) + ")";
        everyRowNeeded |= rest.isEmpty();
        if (!rest.isEmpty() && own.add("(" + Trees.and(rest) + ")")) {
          owns.add(rest);
        }
        List<String> names = new ArrayList<>();
        for (String aggregate : site.aggregates()) {
          String name = "lr_m" + (++column);
          columns.add(aggregate + filter + " AS " + name);
          names.add(name);
        }
        columnNames.add(names);
      }
      List<String> where = new ArrayList<>(common);
      if (!everyRowNeeded) {
        // Any condition every subquery's rows satisfy will do (the FILTERs select each one's rows): one range
        // holding all the subqueries' ranges on one column is cheaper per row than their OR, and prunes scans.
        String hull = rangeHull(owns);
        where.add(hull != null ? hull : "(" + String.join(" OR ", own) + ")");
      }
      addCte(ctx, cte, "SELECT " + String.join(", ", columns) + " FROM " + group.get(0).from()
          + (where.isEmpty() ? "" : " WHERE " + Trees.and(where)));
      for (int i = 0; i < group.size(); i++) {
        AggregateSite site = group.get(i);
        List<String> names = columnNames.get(i);
        if (site.derived()) {
          List<String> items = new ArrayList<>();
          for (int k = 0; k < names.size(); k++) {
            items.add(names.get(k) + " AS " + outputName(site.names().get(k)));
          }
          ObjectNode replacement = trees.parseFrom("(SELECT " + String.join(", ", items) + " FROM " + cte + ") AS "
              + outputName(site.at().path("alias").asText()));
          replace(site.at(), replacement);
        } else {
          String alias = site.at().path("alias").asText("");
          ObjectNode replacement = trees.parseExpression("(SELECT " + names.get(0) + " FROM " + cte + ")");
          replacement.put("alias", alias);
          replace(site.at(), replacement);
        }
      }
      merged.add(group.size() + " subqueries over " + abbreviate(group.get(0).from()) + " share one pass ("
          + cte + ")");
    }
    return merged.isEmpty() ? null : String.join("; ", merged);
  }

  private void collectScalarSites(JsonNode e, Context ctx, List<AggregateSite> out) {
    if (e.isObject() && isScalarSubquery(e)) {
      AggregateSite site = site((ObjectNode) e, e.path("subquery").path("node"), false, ctx);
      if (site != null && site.aggregates().size() == 1) {
        out.add(site);
      }
      return;
    }
    if (e.isObject() || e.isArray()) {
      for (JsonNode child : e) {
        collectScalarSites(child, ctx, out);
      }
    }
  }

  /** The site of one subquery, or null when it is not a plain uncorrelated aggregate over base tables. */
  private @Nullable AggregateSite site(ObjectNode at, JsonNode sub, boolean derived, Context ctx) {
    if (!plainSubquery(sub) || !sub.path("group_expressions").isEmpty() || sub.path("having").isObject()
        || !uncorrelated(sub, ctx) || sub.path("select_list").isEmpty()) {
      return null;
    }
    List<String> aggregates = new ArrayList<>();
    List<String> names = new ArrayList<>();
    JsonNode aliases = at.path("column_name_alias");
    int i = 0;
    for (JsonNode item : sub.path("select_list")) {
      String fn = item.path("function_name").asText("").toLowerCase(Locale.ROOT);
      if (!"FUNCTION".equals(item.path("class").asText()) || !MERGEABLE_AGGREGATES.contains(fn)
          || item.path("filter").isObject() || !item.path("order_bys").path("orders").isEmpty()
          || Trees.hasSubquery(item)) {
        return null;
      }
      if (item.path("distinct").asBoolean(false) && catalog.engine() == dev.lakerewrite.core.Engine.DUCKDB) {
        // DuckDB runs count(DISTINCT ..) FILTER (WHERE ..) far slower than separate passes (TPC-DS q28: 0.09x;
        // as count(DISTINCT CASE ..) still 0.65x); PostgreSQL gains from the merge (q28: 2.47x).
        return null;
      }
      aggregates.add(trees.expression(item));
      String name = aliases.size() > i ? aliases.get(i).asText() : item.path("alias").asText("");
      if (derived && name.isEmpty()) {
        return null; // an unnamed column of a derived table: its generated name is the engine's, not ours
      }
      names.add(name);
      i++;
    }
    if (derived && at.path("alias").asText("").isEmpty()) {
      return null;
    }
    return new AggregateSite(at, derived, trees.renderFrom(sub.get("from_table")),
        rendered(Trees.conjuncts(sub.get("where_clause"))), aggregates, names);
  }

  /** A name as the user wrote it: bare when it can be (so case folding stays the engine's), else quoted. */
  private static String outputName(String name) {
    return BARE_NAME.matcher(name).matches() && !Sql.isKeyword(name) ? name : Sql.quoted(name);
  }

  /** Appends a CTE to the statement's WITH clause (after the existing ones, which it may read). */
  private void addCte(Context ctx, String name, String body) {
    addCte(ctx, name + " AS (" + body + ")", false);
  }

  /**
   * Adds a CTE ({@code definition}: {@code name AS [MATERIALIZED] (body)}) to the statement's top-level WITH clause,
   * after the existing ones (which it may read), or before them when {@code first} (a CTE that reads base tables
   * only, which a block inside an existing CTE may then read).
   */
  static void addCte(Context ctx, String definition, boolean first) {
    JsonNode entry = ctx.trees().node("WITH " + definition + " SELECT 1").path("cte_map").path("map").get(0);
    ObjectNode top = (ObjectNode) ctx.statement().get("node");
    ObjectNode cteMap = top.has("cte_map") && top.get("cte_map").isObject() ? (ObjectNode) top.get("cte_map")
        : top.putObject("cte_map");
    ArrayNode map = cteMap.has("map") && cteMap.get("map").isArray() ? (ArrayNode) cteMap.get("map")
        : cteMap.putArray("map");
    if (first) {
      map.insert(0, entry.deepCopy());
    } else {
      map.add(entry.deepCopy());
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // decorrelate-scalar-aggregate

  /**
   * A WHERE conjunct {@code x op (SELECT agg(..) FROM .. WHERE ..)}: the comparison, which side the subquery is on,
   * the other side, the subquery's block and its one select item (an aggregate, no window, no nested subquery).
   */
  private record AggregateComparison(JsonNode comparison, boolean subOnLeft, JsonNode other, JsonNode sub,
      JsonNode item) {}

  /** Arithmetic operators: NULL in, NULL out, so an aggregate over no rows still makes the comparison NULL. */
  /**
   * {@code c BETWEEN lo AND hi} with the smallest {@code lo} and the largest {@code hi} when each condition is one
   * range ({@code c BETWEEN a AND b}) or equality ({@code c = a}) on the same column with numeric literal bounds;
   * else null. Every row satisfying one of the conditions satisfies it.
   */
  private @Nullable String rangeHull(List<List<String>> conditions) {
    String column = null;
    java.math.BigDecimal lo = null;
    java.math.BigDecimal hi = null;
    String loText = null;
    String hiText = null;
    for (List<String> c : conditions) {
      if (c.size() != 1) {
        return null;
      }
      JsonNode e = trees.parseExpression(c.get(0));
      JsonNode col;
      JsonNode low;
      JsonNode high;
      if ("BETWEEN".equals(e.path("class").asText())) {
        col = e.path("input");
        low = e.path("lower");
        high = e.path("upper");
      } else if ("COMPARE_EQUAL".equals(e.path("type").asText())
          && "COLUMN_REF".equals(e.path("left").path("class").asText())) {
        col = e.path("left");
        low = e.path("right");
        high = low;
      } else {
        return null;
      }
      String[] a = dev.lakerewrite.core.sql.SqlAnalyzer.literal(low);
      String[] b = dev.lakerewrite.core.sql.SqlAnalyzer.literal(high);
      if (!"COLUMN_REF".equals(col.path("class").asText()) || a == null || b == null || a[1] == null
          || b[1] == null || !a[1].matches("-?[0-9]+(\\.[0-9]+)?") || !b[1].matches("-?[0-9]+(\\.[0-9]+)?")) {
        return null;
      }
      String text = trees.expression(col);
      if (column != null && !column.equals(text)) {
        return null;
      }
      column = text;
      java.math.BigDecimal x = new java.math.BigDecimal(a[1]);
      java.math.BigDecimal y = new java.math.BigDecimal(b[1]);
      if (lo == null || x.compareTo(lo) < 0) {
        lo = x;
        loText = a[1];
      }
      if (hi == null || y.compareTo(hi) > 0) {
        hi = y;
        hiText = b[1];
      }
    }
    return column == null ? null : "(" + column + " BETWEEN " + loText + " AND " + hiText + ")";
  }

  private static final Set<String> NULL_PROPAGATING_OPERATORS = Set.of("+", "-", "*", "/");

  /**
   * The one scalar subquery a comparison side computes with, reached only through arithmetic operators and casts
   * ({@code 1.2 * (SELECT avg(..) ..)}, TPC-DS q6), or null. Only NULL-propagating wrappers qualify: where the
   * subquery finds no rows its NULL must still make the comparison NULL, as a join partner missing does.
   */
  private static JsonNode soleScalarSubquery(JsonNode side) {
    if (isScalarSubquery(side)) {
      return side;
    }
    List<JsonNode> children = new ArrayList<>();
    String cls = side.path("class").asText();
    if ("CAST".equals(cls)) {
      children.add(side.path("child"));
    } else if ("FUNCTION".equals(cls) && side.path("is_operator").asBoolean(false)
        && NULL_PROPAGATING_OPERATORS.contains(side.path("function_name").asText())) {
      children.addAll(dev.lakerewrite.core.sql.SqlAnalyzer.arguments(side));
    } else {
      return null;
    }
    JsonNode found = null;
    for (JsonNode child : children) {
      if (Trees.hasSubquery(child)) {
        if (found != null) {
          return null;
        }
        found = soleScalarSubquery(child);
        if (found == null) {
          return null;
        }
      }
    }
    return found;
  }

  /**
   * The comparison side that held the subquery, with the subquery replaced by {@code value} (the subquery alone
   * becomes just {@code value}).
   */
  private String sideWithValue(AggregateComparison ac, String value) {
    JsonNode side = ac.subOnLeft() ? ac.comparison().path("left") : ac.comparison().path("right");
    if (isScalarSubquery(side)) {
      return value;
    }
    JsonNode copy = side.deepCopy();
    replace((ObjectNode) soleScalarSubquery(copy), trees.parseExpression(value));
    return trees.expression(copy);
  }

  /** The conjunct as an {@link AggregateComparison}, or null when it is none (grouped or limited subqueries too). */
  private static @Nullable AggregateComparison aggregateComparison(JsonNode c) {
    if (!"COMPARISON".equals(c.path("class").asText())) {
      return null;
    }
    JsonNode leftSub = soleScalarSubquery(c.path("left"));
    boolean subOnLeft = leftSub != null;
    JsonNode subquery = subOnLeft ? leftSub : soleScalarSubquery(c.path("right"));
    if (subquery == null) {
      return null;
    }
    JsonNode other = subOnLeft ? c.path("right") : c.path("left");
    JsonNode sub = subquery.path("subquery").path("node");
    if (Trees.hasSubquery(other) || !plainSubquery(sub) || sub.path("select_list").size() != 1
        || !sub.path("group_expressions").isEmpty() || !sub.path("having").isNull()
        || !sub.path("qualify").isNull()) {
      return null;
    }
    JsonNode item = sub.path("select_list").get(0);
    if (!Trees.hasAggregate(item) || Trees.hasWindow(item) || Trees.hasSubquery(item)) {
      return null;
    }
    return new AggregateComparison(c, subOnLeft, other, sub, item);
  }


  String decorrelate(ObjectNode node, Context ctx) {
    return decorrelate(node, ctx, false);
  }

  /**
   * {@code decorrelate-with-key-filter}: as {@link #decorrelate(ObjectNode, Context)}, and the pre-aggregation is
   * restricted to the correlation keys the outer query can use: {@code inner_key IN (SELECT outer_key FROM
   * outer_table WHERE its own filters)} (a magic set; QUITE's "highly selective join first"). Rows for other
   * keys would find no join partner, so the result is the same; only one correlation column, whose outer table has
   * filters of its own.
   */
  String decorrelateWithKeyFilter(ObjectNode node, Context ctx) {
    return decorrelate(node, ctx, true);
  }

  private @Nullable String decorrelate(ObjectNode node, Context ctx, boolean keyFilter) {
    if (!isSelect(node)) {
      return null;
    }
    List<JsonNode> conjuncts = Trees.conjuncts(node.get("where_clause"));
    Scope outer = ctx.scope(node);
    for (int idx = 0; idx < conjuncts.size(); idx++) {
      JsonNode c = conjuncts.get(idx);
      AggregateComparison ac = aggregateComparison(c);
      if (ac == null || containsFunction(ac.item(), Set.of("count", "count_star", "count_if", "countif"))) {
        continue;
      }
      boolean subOnLeft = ac.subOnLeft();
      JsonNode other = ac.other();
      JsonNode sub = ac.sub();
      JsonNode item = ac.item();
      Scope inner = ctx.scope(sub);
      if (inner.owners(item) == null) {
        continue;
      }
      List<String> local = new ArrayList<>();
      List<String[]> correlation = new ArrayList<>();
      boolean ok = true;
      for (JsonNode sc : Trees.conjuncts(sub.get("where_clause"))) {
        if (Trees.hasSubquery(sc)) {
          ok = false;
          break;
        }
        if (inner.owners(sc) != null) {
          local.add(trees.expression(sc));
          continue;
        }
        String[] pair = correlationPair(sc, inner, outer);
        if (pair == null) {
          ok = false;
          break;
        }
        correlation.add(pair);
      }
      if (!ok || correlation.isEmpty()) {
        continue;
      }
      String restriction = null;
      if (keyFilter) {
        restriction = keyRestriction(correlation, conjuncts, idx, outer, node);
        if (restriction == null) {
          continue;
        }
        local.add(restriction);
      }
      String alias = ctx.fresh("lr_sq");
      StringBuilder derived = new StringBuilder("(SELECT ");
      List<String> keys = new ArrayList<>();
      for (int k = 0; k < correlation.size(); k++) {
        derived.append(correlation.get(k)[0]).append(" AS lr_k").append(k + 1).append(", ");
        keys.add(correlation.get(k)[0]);
      }
      derived.append(trees.expression(item)).append(" AS lr_value FROM ")
          .append(trees.renderFrom(sub.get("from_table")));
      if (!local.isEmpty()) {
        derived.append(" WHERE ").append(Trees.and(local));
      }
      derived.append(" GROUP BY ").append(String.join(", ", keys)).append(") AS ").append(alias);
      String op = comparisonOp(c, subOnLeft);
      List<String> newConjuncts = new ArrayList<>();
      for (int i = 0; i < conjuncts.size(); i++) {
        if (i == idx) {
          newConjuncts.add(trees.expression(other) + " " + op + " " + sideWithValue(ac, alias + ".lr_value"));
          for (int k = 0; k < correlation.size(); k++) {
            newConjuncts.add(alias + ".lr_k" + (k + 1) + " = " + correlation.get(k)[1]);
          }
        } else {
          newConjuncts.add(trees.expression(conjuncts.get(i)));
        }
      }
      node.set("from_table", trees.parseFrom(trees.renderFrom(node.get("from_table")) + ", " + derived));
      setWhere(node, newConjuncts);
      return "the correlated aggregate subquery in " + "WHERE (" + abbreviate(trees.expression(c))
          + ") becomes a join with the aggregate grouped by " + String.join(", ", keys)
          + (restriction == null ? "" : ", computed only for the keys " + abbreviate(restriction));
    }
    return null;
  }

  /**
   * {@code correlated-aggregate-to-window} (WinMagic, Zuzarte et al., SIGMOD 2003): a WHERE comparison with a
   * correlated scalar aggregate subquery that reads the same relation as one of the block's FROM items, correlated
   * only by equalities of the same columns ({@code inner.c = outer.c}), no other filter, becomes a window aggregate
   * over that relation partitioned by those columns, computed in one scan beside each row: {@code FROM (SELECT *,
   * agg(..) OVER (PARTITION BY c) AS w FROM r) AS outer ... WHERE x op outer.w AND outer.c IS NOT NULL}. The outer
   * row is itself in its partition, so the aggregate never runs over an empty input (COUNT included); a NULL key
   * matches nothing in the subquery (the comparison is then NULL), hence {@code IS NOT NULL}. Linear in the size
   * of the block.
   */
  @Nullable String aggregateToWindow(ObjectNode node, Context ctx) {
    if (!isSelect(node)) {
      return null;
    }
    List<JsonNode> conjuncts = Trees.conjuncts(node.get("where_clause"));
    Scope outer = ctx.scope(node);
    for (int idx = 0; idx < conjuncts.size(); idx++) {
      JsonNode c = conjuncts.get(idx);
      AggregateComparison ac = aggregateComparison(c);
      if (ac == null) {
        continue;
      }
      boolean subOnLeft = ac.subOnLeft();
      JsonNode other = ac.other();
      JsonNode sub = ac.sub();
      JsonNode item = ac.item();
      List<JsonNode> innerFrom = Trees.fromItems(sub.path("from_table"));
      if (innerFrom.size() != 1 || !"BASE_TABLE".equals(innerFrom.get(0).path("type").asText())
          || item.findValues("distinct").stream().anyMatch(JsonNode::asBoolean)) {
        continue;
      }
      String table = innerFrom.get(0).path("table_name").asText();
      Scope inner = ctx.scope(sub);
      if (inner.owners(item) == null) {
        continue;
      }
      Scope.Item outerItem = null;
      List<String[]> keys = new ArrayList<>();
      boolean ok = !Trees.conjuncts(sub.get("where_clause")).isEmpty();
      for (JsonNode sc : Trees.conjuncts(sub.get("where_clause"))) {
        String[] pair = Trees.hasSubquery(sc) ? null : correlationPair(sc, inner, outer);
        if (pair == null) {
          ok = false;
          break;
        }
        JsonNode innerColumn = trees.parseExpression(pair[0]);
        JsonNode outerColumn = trees.parseExpression(pair[1]);
        List<String> innerParts = parts(innerColumn);
        List<String> outerParts = parts(outerColumn);
        Scope.Item owner = outer.resolve(outerParts).item();
        if (owner == null || !"BASE_TABLE".equals(owner.node().path("type").asText())
            || !owner.node().path("table_name").asText().equalsIgnoreCase(table)
            || !innerParts.get(innerParts.size() - 1).equalsIgnoreCase(outerParts.get(outerParts.size() - 1))
            || outerItem != null && outerItem != owner) {
          ok = false;
          break;
        }
        outerItem = owner;
        keys.add(pair);
      }
      if (!ok || outerItem == null) {
        continue;
      }
      String partition = String.join(", ", keys.stream().map(k -> k[0]).toList());
      ObjectNode windowed = item.deepCopy();
      windowed.put("alias", "");
      List<ObjectNode> aggregates = new ArrayList<>();
      Trees.visitShallow(windowed, n -> {
        if ("FUNCTION".equals(n.path("class").asText())
            && dev.lakerewrite.core.sql.SqlAnalyzer.isAggregate(n.path("function_name").asText())) {
          aggregates.add((ObjectNode) n);
        }
      });
      for (ObjectNode a : aggregates) {
        replace(a, trees.parseExpression(trees.expression(a) + " OVER (PARTITION BY " + partition + ")"));
      }
      String innerAlias = Trees.referenceName(innerFrom.get(0));
      String column = ctx.fresh("lr_w");
      String name = outerItem.name();
      ObjectNode derived = trees.parseFrom("(SELECT *, " + trees.expression(windowed) + " AS " + column + " FROM "
          + Sql.identifier(table) + " AS " + Sql.identifier(innerAlias) + ") AS " + Sql.identifier(name));
      ObjectNode target = (ObjectNode) outerItem.node();
      target.put("alias", name);
      replace(target, derived);
      List<String> newConjuncts = new ArrayList<>();
      for (int i = 0; i < conjuncts.size(); i++) {
        if (i == idx) {
          newConjuncts.add(trees.expression(other) + " " + comparisonOp(c, subOnLeft) + " "
              + sideWithValue(ac, Sql.identifier(name) + "." + column));
          for (String[] k : keys) {
            newConjuncts.add(k[1] + " IS NOT NULL");
          }
        } else {
          newConjuncts.add(trees.expression(conjuncts.get(i)));
        }
      }
      setWhere(node, newConjuncts);
      return "the correlated aggregate over " + table + " in WHERE (" + abbreviate(trees.expression(c))
          + ") becomes a window aggregate partitioned by " + partition + " in one scan of " + table;
    }
    return null;
  }

  /**
   * {@code inner_key IN (SELECT outer_key FROM outer_table WHERE ...)} from the outer WHERE conjuncts that read only
   * the outer table owning the single correlation column (not the subquery's own conjunct); null without such.
   */
  private @Nullable String keyRestriction(List<String[]> correlation, List<JsonNode> conjuncts, int skip, Scope outer,
      ObjectNode node) {
    if (correlation.size() != 1) {
      return null;
    }
    JsonNode outerColumn = trees.parseExpression(correlation.get(0)[1]);
    if (!"COLUMN_REF".equals(outerColumn.path("class").asText())) {
      return null;
    }
    Scope.Item owner = outer.resolve(parts(outerColumn)).item();
    if (owner == null || !"BASE_TABLE".equals(owner.node().path("type").asText())) {
      return null;
    }
    List<String> filters = new ArrayList<>();
    for (int i = 0; i < conjuncts.size(); i++) {
      JsonNode c = conjuncts.get(i);
      List<Scope.Item> owners = i == skip || Trees.hasSubquery(c) ? null : outer.owners(c);
      if (owners != null && !owners.isEmpty() && owners.stream().allMatch(owner::equals)) {
        filters.add(trees.expression(c));
      }
    }
    if (filters.isEmpty()) {
      return null;
    }
    String table = owner.node().path("table_name").asText();
    String alias = owner.node().path("alias").asText("");
    return correlation.get(0)[0] + " IN (SELECT " + correlation.get(0)[1] + " FROM " + Sql.identifier(table)
        + (alias.isEmpty() ? "" : " AS " + Sql.identifier(alias)) + " WHERE " + Trees.and(filters) + ")";
  }

  /** {innerText, outerText} for {@code inner.col = outer.col}; null when the conjunct is not such an equality. */
  private String @Nullable [] correlationPair(JsonNode c, Scope inner, Scope outer) {
    if (!"COMPARE_EQUAL".equals(c.path("type").asText())) {
      return null;
    }
    JsonNode l = c.path("left");
    JsonNode r = c.path("right");
    if (!"COLUMN_REF".equals(l.path("class").asText()) || !"COLUMN_REF".equals(r.path("class").asText())) {
      return null;
    }
    Scope.Kind lk = inner.resolve(parts(l)).kind();
    Scope.Kind rk = inner.resolve(parts(r)).kind();
    if (lk == Scope.Kind.LOCAL && rk == Scope.Kind.OUTER && outer.resolve(parts(r)).kind() == Scope.Kind.LOCAL) {
      return new String[] {trees.expression(l), trees.expression(r)};
    }
    if (rk == Scope.Kind.LOCAL && lk == Scope.Kind.OUTER && outer.resolve(parts(l)).kind() == Scope.Kind.LOCAL) {
      return new String[] {trees.expression(r), trees.expression(l)};
    }
    return null;
  }

  private static List<String> parts(JsonNode columnRef) {
    List<String> out = new ArrayList<>();
    columnRef.path("column_names").forEach(p -> out.add(p.asText()));
    return out;
  }

  private static String abbreviate(String s) {
    String one = s.replaceAll("\\s+", " ");
    return one.length() > 80 ? one.substring(0, 77) + "..." : one;
  }

  // ---------------------------------------------------------------------------------------------------------
  // in-subquery-to-join and not-in-to-not-exists

  private static boolean isInSubquery(JsonNode e) {
    return "SUBQUERY".equals(e.path("class").asText()) && "ANY".equals(e.path("subquery_type").asText())
        && "COMPARE_EQUAL".equals(e.path("comparison_type").asText());
  }

  /** Whether a subquery only uses its own names (no correlation we could miss). */
  private boolean uncorrelated(JsonNode sub, Context ctx) {
    if (!isSelect(sub)) {
      return false;
    }
    Scope s = ctx.scope(sub);
    for (String clause : List.of("select_list", "where_clause", "group_expressions", "having")) {
      JsonNode part = sub.get(clause);
      if (part != null && !part.isNull()) {
        if (Trees.hasSubquery(part) || s.owners(part) == null) {
          return false;
        }
      }
    }
    for (JsonNode item : Trees.fromItems(sub.path("from_table"))) {
      if (!"BASE_TABLE".equals(item.path("type").asText())) {
        return false;
      }
    }
    return !"JOIN".equals(sub.path("from_table").path("type").asText())
        || s.owners(conditionsOf(sub.path("from_table"))) != null;
  }

  private static JsonNode conditionsOf(JsonNode from) {
    ArrayNode out = Trees.JSON.createArrayNode();
    Trees.visitShallow(from, n -> {
      if ("JOIN".equals(n.path("type").asText()) && n.path("condition").isObject()) {
        out.add(n.get("condition"));
      }
    });
    return out;
  }

  @Nullable String inToJoin(ObjectNode node, Context ctx) {
    if (!isSelect(node)) {
      return null;
    }
    List<JsonNode> conjuncts = Trees.conjuncts(node.get("where_clause"));
    for (int idx = 0; idx < conjuncts.size(); idx++) {
      JsonNode c = conjuncts.get(idx);
      if (!isInSubquery(c) || Trees.hasSubquery(c.path("child"))) {
        continue;
      }
      JsonNode sub = c.path("subquery").path("node");
      if (!uncorrelated(sub, ctx) || sub.path("select_list").size() != 1 || !sub.path("cte_map").path("map").isEmpty()) {
        continue;
      }
      String alias = ctx.fresh("lr_in");
      JsonNode item = sub.path("select_list").get(0);
      boolean unique = sub.path("group_expressions").size() == 1
          && trees.expression(sub.path("group_expressions").get(0)).equals(trees.expression(item))
          && sub.path("group_sets").size() <= 1;
      String subText = trees.renderNode(sub);
      String derived = unique ? "(" + subText + ") AS " + alias + "(lr_v)"
          : "(SELECT DISTINCT lr_v FROM (" + subText + ") AS lr_src(lr_v)) AS " + alias;
      List<String> newConjuncts = new ArrayList<>();
      for (int i = 0; i < conjuncts.size(); i++) {
        newConjuncts.add(i == idx ? trees.expression(c.path("child")) + " = " + alias + ".lr_v"
            : trees.expression(conjuncts.get(i)));
      }
      node.set("from_table", trees.parseFrom(trees.renderFrom(node.get("from_table")) + ", " + derived));
      setWhere(node, newConjuncts);
      return abbreviate(trees.expression(c.path("child"))) + " IN (subquery) becomes a join with its "
          + (unique ? "grouped (unique)" : "distinct") + " values";
    }
    return null;
  }

  @Nullable String notInToNotExists(ObjectNode node, Context ctx) {
    if (!isSelect(node)) {
      return null;
    }
    List<JsonNode> conjuncts = Trees.conjuncts(node.get("where_clause"));
    Scope scope = ctx.scope(node);
    for (int idx = 0; idx < conjuncts.size(); idx++) {
      JsonNode c = conjuncts.get(idx);
      if (!"OPERATOR_NOT".equals(c.path("type").asText()) || c.path("children").size() != 1
          || !isInSubquery(c.path("children").get(0))) {
        continue;
      }
      JsonNode in = c.path("children").get(0);
      JsonNode sub = in.path("subquery").path("node");
      JsonNode x = in.path("child");
      if (!uncorrelated(sub, ctx) || sub.path("select_list").size() != 1) {
        continue;
      }
      if (!notNull(x, scope) || !notNull(sub.path("select_list").get(0), ctx.scope(sub))) {
        continue;
      }
      String alias = ctx.fresh("lr_ni");
      List<String> newConjuncts = new ArrayList<>();
      for (int i = 0; i < conjuncts.size(); i++) {
        newConjuncts.add(i == idx ? "NOT EXISTS (SELECT 1 FROM (" + trees.renderNode(sub) + ") AS " + alias
            + "(lr_v) WHERE " + alias + ".lr_v = " + trees.expression(x) + ")" : trees.expression(conjuncts.get(i)));
      }
      setWhere(node, newConjuncts);
      return abbreviate(trees.expression(x)) + " NOT IN (subquery) becomes NOT EXISTS (both sides are NOT NULL)";
    }
    return null;
  }

  /** Whether an expression is a column declared NOT NULL in the catalog (outer joins aside). */
  private boolean notNull(JsonNode e, Scope scope) {
    if (!"COLUMN_REF".equals(e.path("class").asText())) {
      return false;
    }
    List<String> p = parts(e);
    Scope.Resolution r = scope.resolve(p);
    if (r.kind() != Scope.Kind.LOCAL || !"BASE_TABLE".equals(r.item().node().path("type").asText())) {
      return false;
    }
    Optional<Catalog.Table> t = catalog.table(r.item().node().path("table_name").asText());
    return t.flatMap(x -> x.column(p.get(p.size() - 1))).map(col -> !col.nullable()).orElse(false);
  }

  // ---------------------------------------------------------------------------------------------------------
  // eager-aggregation

  private static final Set<String> DECOMPOSABLE = Set.of("count", "sum", "min", "max");

  @Nullable String eagerAggregation(ObjectNode node, Context ctx) {
    if (!isSelect(node) || node.path("group_expressions").isEmpty() || !node.path("having").isNull()
        || !node.path("qualify").isNull()) {
      return null;
    }
    JsonNode from = node.path("from_table");
    if (!"JOIN".equals(from.path("type").asText())) {
      return null;
    }
    String joinType = from.path("join_type").asText();
    if (!joinType.equals("LEFT") && !joinType.equals("INNER") || !from.path("using_columns").isEmpty()
        || !"REGULAR".equals(from.path("ref_type").asText())) {
      return null;
    }
    JsonNode right = from.path("right");
    if (!"BASE_TABLE".equals(right.path("type").asText()) || ctx.cteColumns().containsKey(
        right.path("table_name").asText().toLowerCase(Locale.ROOT))) {
      return null;
    }
    Scope scope = ctx.scope(node);
    Scope.Item r = scope.item(Trees.referenceName(right)).orElse(null);
    if (r == null || r.columns() == null) {
      return null;
    }
    List<String[]> keys = new ArrayList<>();
    List<String> rightOnly = new ArrayList<>();
    for (JsonNode c : Trees.conjuncts(from.path("condition"))) {
      List<Scope.Item> owners = scope.owners(c);
      if (owners == null || Trees.hasSubquery(c)) {
        return null;
      }
      if (owners.size() == 1 && owners.get(0) == r) {
        rightOnly.add(trees.expression(c));
        continue;
      }
      if (!"COMPARE_EQUAL".equals(c.path("type").asText()) || !"COLUMN_REF".equals(c.path("left").path("class").asText())
          || !"COLUMN_REF".equals(c.path("right").path("class").asText())) {
        return null;
      }
      Scope.Item lo = scope.resolve(parts(c.path("left"))).item();
      Scope.Item ro = scope.resolve(parts(c.path("right"))).item();
      if (ro == r && lo != r) {
        keys.add(new String[] {trees.expression(c.path("right")), trees.expression(c.path("left"))});
      } else if (lo == r && ro != r) {
        keys.add(new String[] {trees.expression(c.path("left")), trees.expression(c.path("right"))});
      } else {
        return null;
      }
    }
    if (keys.isEmpty()) {
      return null;
    }
    for (JsonNode c : Trees.conjuncts(node.get("where_clause"))) {
      List<Scope.Item> owners = scope.owners(c);
      if (owners == null || owners.contains(r)) {
        return null;
      }
    }
    for (JsonNode g : node.path("group_expressions")) {
      List<Scope.Item> owners = scope.owners(g);
      if (owners == null || owners.contains(r)) {
        return null;
      }
    }
    // Aggregates over the right side only; nothing else may touch the right side.
    List<ObjectNode> aggregates = new ArrayList<>();
    for (JsonNode item : node.path("select_list")) {
      if (Trees.hasWindow(item) || Trees.hasSubquery(item)) {
        return null;
      }
      if (!collectAggregates(item, scope, r, aggregates)) {
        return null;
      }
    }
    if (aggregates.isEmpty()) {
      return null;
    }
    String alias = ctx.fresh("lr_ea");
    StringBuilder derived = new StringBuilder("(SELECT ");
    List<String> groupKeys = new ArrayList<>();
    for (int k = 0; k < keys.size(); k++) {
      derived.append(keys.get(k)[0]).append(" AS lr_k").append(k + 1).append(", ");
      groupKeys.add(keys.get(k)[0]);
    }
    List<String> replacements = new ArrayList<>();
    for (int a = 0; a < aggregates.size(); a++) {
      ObjectNode agg = aggregates.get(a);
      derived.append(a == 0 ? "" : ", ").append(trees.expression(agg)).append(" AS lr_a").append(a + 1);
      String fn = agg.path("function_name").asText().toLowerCase(Locale.ROOT);
      String ref = alias + ".lr_a" + (a + 1);
      replacements.add(switch (fn) {
        case "count" -> joinType.equals("LEFT") ? "CAST(coalesce(sum(" + ref + "), 0) AS BIGINT)"
            : "CAST(sum(" + ref + ") AS BIGINT)";
        case "sum" -> "sum(" + ref + ")";
        default -> fn + "(" + ref + ")";
      });
    }
    derived.append(" FROM ").append(trees.renderFrom(right));
    if (!rightOnly.isEmpty()) {
      derived.append(" WHERE ").append(Trees.and(rightOnly));
    }
    derived.append(" GROUP BY ").append(String.join(", ", groupKeys)).append(") AS ").append(alias);
    for (int a = 0; a < aggregates.size(); a++) {
      ObjectNode agg = aggregates.get(a);
      String keepAlias = agg.path("alias").asText("");
      replace(agg, trees.parseExpression(replacements.get(a)));
      agg.put("alias", keepAlias);
    }
    List<String> on = new ArrayList<>();
    for (int k = 0; k < keys.size(); k++) {
      on.add(keys.get(k)[1] + " = " + alias + ".lr_k" + (k + 1));
    }
    ((ObjectNode) from).set("right", trees.parseFrom(derived.toString()));
    ((ObjectNode) from).set("condition", trees.parseExpression(Trees.and(on)));
    return "the " + aggregates.size() + " aggregate(s) over " + Trees.referenceName(right)
        + " are computed before the " + joinType + " JOIN, grouped by the join key " + String.join(", ", groupKeys);
  }

  /**
   * Collects the aggregate calls of a select item; false when the item cannot be pre-aggregated (an aggregate
   * that is not decomposable or also reads the left side, or a bare column of the right side).
   */
  private boolean collectAggregates(JsonNode e, Scope scope, Scope.Item right, List<ObjectNode> out) {
    if (e == null || !e.isContainerNode()) {
      return true;
    }
    if (e.isObject() && "FUNCTION".equals(e.path("class").asText())
        && dev.lakerewrite.core.sql.SqlAnalyzer.isAggregate(e.path("function_name").asText())) {
      String fn = e.path("function_name").asText().toLowerCase(Locale.ROOT);
      if (!DECOMPOSABLE.contains(fn) || e.path("distinct").asBoolean(false) || e.path("filter").isObject()
          || e.path("arguments").isEmpty() && e.path("children").isEmpty()) {
        return false;
      }
      List<Scope.Item> owners = scope.owners(e);
      if (owners == null || owners.size() != 1 || owners.get(0) != right) {
        return false;
      }
      out.add((ObjectNode) e);
      return true;
    }
    if (e.isObject() && "COLUMN_REF".equals(e.path("class").asText())) {
      Scope.Resolution res = scope.resolve(parts(e));
      return res.kind() == Scope.Kind.LOCAL && res.item() != right;
    }
    for (JsonNode child : e) {
      if (!collectAggregates(child, scope, right, out)) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------------------
  // pre-aggregate-grouping-sets

  /** Aggregates whose value over a grouping set combines from their values over its finest groups. */
  private static final Set<String> COMBINABLE = Set.of("count", "count_star", "sum", "min", "max", "avg");

  /**
   * A block grouped by ROLLUP, CUBE or GROUPING SETS aggregates its input once by every grouping column together
   * (the finest groups) in a derived table, and the grouping sets are then computed from those partial results:
   * sum of sums, sum of counts (0 for an empty set, as a count gives), min of mins, max of maxes, and an average as
   * the sum of sums over the sum of counts. Distributive and algebraic aggregates compose over the lattice of
   * groupings (Gray et al., "Data Cube", ICDE 1996). Only when every grouping expression is a column (each bare
   * name once), every aggregate is one of those without DISTINCT, FILTER or ORDER BY, and no clause holds a
   * subquery. Linear in the size of the block.
   */
  @Nullable String preAggregateGroupingSets(ObjectNode node, Context ctx) {
    if (!isSelect(node) || node.path("group_sets").size() < 2 || !node.path("from_table").isObject()
        || "EMPTY".equals(node.path("from_table").path("type").asText())) {
      return null;
    }
    Scope scope = ctx.scope(node);
    Set<String> groupNames = new LinkedHashSet<>();
    List<String> groupKeys = new ArrayList<>();
    List<String> bareKeys = new ArrayList<>();
    StringBuilder inner = new StringBuilder("SELECT ");
    for (JsonNode g : node.path("group_expressions")) {
      if (!"COLUMN_REF".equals(g.path("class").asText()) || scope.resolve(parts(g)).kind() != Scope.Kind.LOCAL) {
        return null;
      }
      String name = Trees.columnName(g);
      if (!groupNames.add(name.toLowerCase(Locale.ROOT))) {
        return null;
      }
      String key = trees.expression(g);
      groupKeys.add(key);
      bareKeys.add(name);
      inner.append(key).append(" AS ").append(Sql.identifier(name)).append(", ");
    }
    Set<String> aliases = new LinkedHashSet<>();
    for (JsonNode item : node.path("select_list")) {
      aliases.add(item.path("alias").asText("").toLowerCase(Locale.ROOT));
    }
    List<ObjectNode> aggregates = new ArrayList<>();
    List<ObjectNode> columns = new ArrayList<>();
    for (JsonNode item : node.path("select_list")) {
      if (!groupingSetsOperands(item, scope, groupNames, Set.of(), aggregates, columns)) {
        return null;
      }
    }
    for (String clause : List.of("having", "qualify", "modifiers")) {
      if (!groupingSetsOperands(node.get(clause), scope, groupNames, aliases, aggregates, columns)) {
        return null;
      }
    }
    if (aggregates.isEmpty()) {
      return null;
    }
    // Each distinct partial aggregate is computed once in the derived table.
    Map<String, String> partials = new java.util.LinkedHashMap<>();
    List<String> combined = new ArrayList<>();
    for (ObjectNode a : aggregates) {
      String fn = a.path("function_name").asText().toLowerCase(Locale.ROOT);
      String text = trees.expression(a);
      String argument = text.substring(text.indexOf('(') + 1, text.lastIndexOf(')'));
      combined.add(switch (fn) {
        case "count", "count_star" -> "CAST(coalesce(sum(" + partial(partials, text) + "), 0) AS BIGINT)";
        case "avg" -> "sum(" + partial(partials, "sum(" + argument + ")") + ") / sum("
            + partial(partials, "count(" + argument + ")") + ")";
        default -> fn + "(" + partial(partials, text) + ")";
      });
    }
    partials.forEach((text, name) -> inner.append(text).append(" AS ").append(name).append(", "));
    inner.setLength(inner.length() - 2);
    inner.append(" FROM ").append(trees.renderFrom(node.path("from_table")));
    if (node.path("where_clause").isObject()) {
      inner.append(" WHERE ").append(trees.expression(node.path("where_clause")));
    }
    inner.append(" GROUP BY ").append(String.join(", ", groupKeys));
    // Unnamed select items keep the name the engine gave them.
    for (JsonNode item : node.path("select_list")) {
      if (item.path("alias").asText("").isEmpty() && !"COLUMN_REF".equals(item.path("class").asText())) {
        ((ObjectNode) item).put("alias", trees.expression(item));
      }
    }
    for (int i = 0; i < aggregates.size(); i++) {
      ObjectNode a = aggregates.get(i);
      String alias = a.path("alias").asText("");
      replace(a, trees.parseExpression(combined.get(i)));
      a.put("alias", alias);
    }
    for (ObjectNode c : columns) {
      Trees.setColumn(c, null, Trees.columnName(c));
    }
    ArrayNode keys = node.putArray("group_expressions");
    for (String name : bareKeys) {
      keys.add(trees.parseExpression(Sql.identifier(name)));
    }
    node.set("from_table", trees.parseFrom("(" + inner + ") AS " + ctx.fresh("lr_gs")));
    node.putNull("where_clause");
    return aggregates.size() + " aggregate(s) computed once over the finest groups (" + String.join(", ", groupKeys)
        + "), the " + node.path("group_sets").size() + " grouping sets combined from them";
  }

  private static String partial(Map<String, String> partials, String text) {
    return partials.computeIfAbsent(text, t -> "lr_p" + (partials.size() + 1));
  }

  /**
   * Collects the aggregate calls and the column references outside them in one clause of a grouping-sets block;
   * false when the clause cannot be computed from partial aggregates (a subquery, an aggregate that does not
   * combine, a column that is neither a grouping column nor, outside the select list, an output alias).
   */
  private boolean groupingSetsOperands(@Nullable JsonNode e, Scope scope, Set<String> groupNames,
      Set<String> aliases, List<ObjectNode> aggregates, List<ObjectNode> columns) {
    if (e == null || !e.isContainerNode()) {
      return true;
    }
    String cls = e.path("class").asText("");
    if (e.isObject() && ("SUBQUERY".equals(cls) || "SUBQUERY".equals(e.path("type").asText()))) {
      return false;
    }
    if (e.isObject() && "FUNCTION".equals(cls)
        && dev.lakerewrite.core.sql.SqlAnalyzer.isAggregate(e.path("function_name").asText())) {
      String fn = e.path("function_name").asText().toLowerCase(Locale.ROOT);
      if (!COMBINABLE.contains(fn) || e.path("distinct").asBoolean(false) || e.path("filter").isObject()
          || !e.path("order_bys").path("orders").isEmpty() || e.path("children").size() > 1
          || Trees.hasWindow(e) || Trees.hasSubquery(e) || scope.owners(e) == null) {
        return false;
      }
      aggregates.add((ObjectNode) e);
      return true;
    }
    if (e.isObject() && "COLUMN_REF".equals(cls)) {
      String name = Trees.columnName(e).toLowerCase(Locale.ROOT);
      if (groupNames.contains(name)) {
        columns.add((ObjectNode) e);
        return true;
      }
      return e.path("column_names").size() == 1 && aliases.contains(name);
    }
    for (JsonNode child : e) {
      if (!groupingSetsOperands(child, scope, groupNames, aliases, aggregates, columns)) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------------------
  // consolidate-repeated-scan

  @Nullable String consolidate(ObjectNode node, Context ctx) {
    if (!isSelect(node) || node.path("group_expressions").isEmpty() || !node.path("having").isObject()
        || !node.path("qualify").isNull() || !node.path("cte_map").path("map").isEmpty()) {
      return null;
    }
    JsonNode having = node.get("having");
    AggregateComparison ac = aggregateComparison(having);
    if (ac == null) {
      return null;
    }
    boolean subOnLeft = ac.subOnLeft();
    JsonNode other = ac.other();
    JsonNode sub = ac.sub();
    String from = trees.renderFrom(node.get("from_table"));
    if (!from.equals(trees.renderFrom(sub.get("from_table")))) {
      return null;
    }
    Set<String> outerWhere = new LinkedHashSet<>(rendered(Trees.conjuncts(node.get("where_clause"))));
    Set<String> innerWhere = new LinkedHashSet<>(rendered(Trees.conjuncts(sub.get("where_clause"))));
    if (!outerWhere.equals(innerWhere)) {
      return null;
    }
    ObjectNode total = sub.path("select_list").get(0).deepCopy();
    List<ObjectNode> aggs = new ArrayList<>();
    Trees.visitShallow(total, n -> {
      if ("FUNCTION".equals(n.path("class").asText()) && dev.lakerewrite.core.sql.SqlAnalyzer.isAggregate(n.path("function_name").asText())) {
        aggs.add((ObjectNode) n);
      }
    });
    if (aggs.isEmpty()) {
      return null;
    }
    for (ObjectNode agg : aggs) {
      String fn = agg.path("function_name").asText().toLowerCase(Locale.ROOT);
      if (agg.path("distinct").asBoolean(false) || agg.path("filter").isObject()
          || !(DECOMPOSABLE.contains(fn) || fn.equals("count_star"))) {
        return null;
      }
      String combine = fn.equals("count") || fn.equals("count_star") ? "sum" : fn;
      replace(agg, trees.parseExpression(combine + "(" + trees.expression(agg) + ") OVER ()"));
    }
    List<String> names = Scope.outputNames(node);
    if (names == null) {
      return null;
    }
    String modifiers = modifiersText(node, names);
    if (modifiers == null) {
      return null;
    }
    List<String> items = new ArrayList<>();
    for (JsonNode item : node.path("select_list")) {
      String alias = item.path("alias").asText("");
      items.add(trees.expression(item) + (alias.isEmpty() ? "" : " AS " + Sql.identifier(alias)));
    }
    List<String> groups = new ArrayList<>();
    node.path("group_expressions").forEach(g -> groups.add(trees.expression(g)));
    String alias = ctx.fresh("lr_cs");
    String op = comparisonOp(having, subOnLeft);
    String inner = "SELECT " + String.join(", ", items) + ", " + trees.expression(other) + " AS lr_having_value, "
        + sideWithValue(ac, trees.expression(total)) + " AS lr_total FROM " + from
        + (outerWhere.isEmpty() ? "" : " WHERE " + Trees.and(new ArrayList<>(outerWhere)))
        + " GROUP BY " + String.join(", ", groups);
    String text = "SELECT " + String.join(", ", names.stream().map(n -> alias + "." + Sql.identifier(n)).toList())
        + " FROM (" + inner + ") AS " + alias + " WHERE " + alias + ".lr_having_value " + op + " " + alias
        + ".lr_total" + modifiers;
    replace(node, trees.node(text));
    return "the HAVING subquery re-scans the same FROM/WHERE; one scan computes both, the total as a window"
        + " aggregate over the groups";
  }

  /** ORDER BY / LIMIT of a node as SQL text (leading space), when they only use output names; else null. */
  private @Nullable String modifiersText(JsonNode node, List<String> names) {
    JsonNode order = Trees.orderModifier(node);
    if (order != null) {
      for (JsonNode o : order.path("orders")) {
        JsonNode e = o.path("expression");
        boolean ok = "CONSTANT".equals(e.path("class").asText())
            || "COLUMN_REF".equals(e.path("class").asText()) && e.path("column_names").size() == 1
            && names.stream().anyMatch(n -> n.equalsIgnoreCase(e.path("column_names").get(0).asText()));
        if (!ok) {
          return null;
        }
      }
    }
    if (node.path("modifiers").isEmpty()) {
      return "";
    }
    ObjectNode dummy = trees.node("SELECT * FROM lakerewrite_placeholder");
    dummy.set("modifiers", node.get("modifiers").deepCopy());
    String sql = trees.renderNode(dummy);
    int at = sql.indexOf("lakerewrite_placeholder");
    return sql.substring(at + "lakerewrite_placeholder".length());
  }

  // ---------------------------------------------------------------------------------------------------------
  // implied-or-filters

  @Nullable String impliedOrFilters(ObjectNode node, Context ctx) {
    if (!isSelect(node)) {
      return null;
    }
    List<JsonNode> conjuncts = Trees.conjuncts(node.get("where_clause"));
    Set<String> existing = new LinkedHashSet<>(rendered(conjuncts));
    Scope scope = ctx.scope(node);
    List<String> implied = new ArrayList<>();
    for (JsonNode c : conjuncts) {
      if (!"CONJUNCTION_OR".equals(c.path("type").asText()) || Trees.hasSubquery(c)) {
        continue;
      }
      List<JsonNode> disjuncts = Trees.disjuncts(c);
      List<Scope.Item> involved = new ArrayList<>();
      boolean resolvable = true;
      for (JsonNode d : disjuncts) {
        List<Scope.Item> owners = scope.owners(d);
        if (owners == null) {
          resolvable = false;
          break;
        }
        for (Scope.Item o : owners) {
          if (involved.stream().noneMatch(x -> x == o)) {
            involved.add(o);
          }
        }
      }
      if (!resolvable || involved.size() < 2) {
        continue;
      }
      for (Scope.Item table : involved) {
        List<String> perDisjunct = new ArrayList<>();
        for (JsonNode d : disjuncts) {
          List<String> mine = new ArrayList<>();
          for (JsonNode part : Trees.conjuncts(d)) {
            List<Scope.Item> owners = scope.owners(part);
            if (owners != null && owners.size() == 1 && owners.get(0) == table) {
              mine.add(trees.expression(part));
            }
          }
          if (mine.isEmpty()) {
            perDisjunct = null;
            break;
          }
          perDisjunct.add(Trees.and(mine));
        }
        if (perDisjunct == null) {
          continue;
        }
        List<String> distinct = new ArrayList<>(new LinkedHashSet<>(perDisjunct));
        String filter = distinct.size() == 1 ? distinct.get(0)
            : "(" + String.join(") OR (", distinct) + ")";
        String normalized = trees.expression(trees.parseExpression(filter));
        if (!existing.contains(normalized) && !implied.contains(filter)) {
          implied.add(filter);
        }
      }
    }
    if (implied.isEmpty()) {
      return null;
    }
    List<String> all = new ArrayList<>(existing);
    all.addAll(implied);
    setWhere(node, all);
    return "the OR across tables implies " + implied.size() + " single-table filter(s) that can be pushed into"
        + " the scans: " + abbreviate(String.join(" AND ", implied));
  }

  // ---------------------------------------------------------------------------------------------------------
  // or-to-union-all

  @Nullable String orToUnionAll(ObjectNode node, Context ctx) {
    if (!isSelect(node) || !node.path("modifiers").isEmpty() || !node.path("group_expressions").isEmpty()
        || !node.path("having").isNull() || !node.path("qualify").isNull()
        || !node.path("cte_map").path("map").isEmpty()) {
      return null;
    }
    for (JsonNode item : node.path("select_list")) {
      if (Trees.hasAggregate(item) || Trees.hasWindow(item) || Trees.hasSubquery(item)) {
        return null;
      }
    }
    List<JsonNode> conjuncts = Trees.conjuncts(node.get("where_clause"));
    for (int idx = 0; idx < conjuncts.size(); idx++) {
      JsonNode c = conjuncts.get(idx);
      if (!"CONJUNCTION_OR".equals(c.path("type").asText()) || Trees.hasSubquery(c)) {
        continue;
      }
      List<JsonNode> disjuncts = Trees.disjuncts(c);
      if (disjuncts.size() < 2 || disjuncts.size() > 4) {
        continue;
      }
      Set<Set<String>> columnSets = new LinkedHashSet<>();
      for (JsonNode d : disjuncts) {
        Set<String> cols = new LinkedHashSet<>();
        Trees.columnRefs(d).forEach(p -> cols.add(String.join(".", p).toLowerCase(Locale.ROOT)));
        columnSets.add(cols);
      }
      if (columnSets.size() < disjuncts.size()) {
        continue;
      }
      List<String> rest = new ArrayList<>();
      for (int i = 0; i < conjuncts.size(); i++) {
        if (i != idx) {
          rest.add(trees.expression(conjuncts.get(i)));
        }
      }
      List<String> branches = new ArrayList<>();
      for (int i = 0; i < disjuncts.size(); i++) {
        ObjectNode branch = node.deepCopy();
        List<String> where = new ArrayList<>(rest);
        where.add(trees.expression(disjuncts.get(i)));
        for (int j = 0; j < i; j++) {
          where.add("(" + trees.expression(disjuncts.get(j)) + ") IS NOT TRUE");
        }
        setWhere(branch, where);
        branches.add(trees.renderNode(branch));
      }
      replace(node, trees.node(String.join("\nUNION ALL\n", branches)));
      return "the OR over different columns (" + abbreviate(trees.expression(c)) + ") becomes " + disjuncts.size()
          + " UNION ALL branches, made disjoint with IS NOT TRUE";
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------------------------
  // left-join-to-inner

  @Nullable String leftJoinToInner(ObjectNode node, Context ctx) {
    if (!isSelect(node)) {
      return null;
    }
    Scope scope = ctx.scope(node);
    List<JsonNode> conjuncts = Trees.conjuncts(node.get("where_clause"));
    List<String> changed = new ArrayList<>();
    Trees.visitShallow(node.get("from_table"), n -> {
      if (!"JOIN".equals(n.path("type").asText()) || !"LEFT".equals(n.path("join_type").asText())) {
        return;
      }
      JsonNode right = n.path("right");
      if ("JOIN".equals(right.path("type").asText())) {
        return;
      }
      Scope.Item item = scope.item(Trees.referenceName(right)).orElse(null);
      if (item == null) {
        return;
      }
      for (JsonNode c : conjuncts) {
        if (rejectsNulls(c, scope, item)) {
          ((ObjectNode) n).put("join_type", "INNER");
          changed.add(Trees.referenceName(right) + " (WHERE " + abbreviate(trees.expression(c)) + ")");
          return;
        }
      }
    });
    return changed.isEmpty() ? null : "LEFT JOIN becomes INNER JOIN for " + String.join(", ", changed)
        + ": the WHERE condition already rejects the NULL rows the outer join would add";
  }

  private static final Set<String> NULL_REJECTING_FUNCTIONS = Set.of("~~", "!~~", "~~*", "!~~*", "like_escape",
      "not_like_escape", "ilike_escape", "prefix", "suffix", "contains", "starts_with", "ends_with");

  /** Whether a conjunct is false or NULL whenever the item's columns are all NULL. */
  private static boolean rejectsNulls(JsonNode c, Scope scope, Scope.Item item) {
    String cls = c.path("class").asText();
    String type = c.path("type").asText();
    List<JsonNode> operands = new ArrayList<>();
    if (cls.equals("COMPARISON") && !type.contains("DISTINCT")) {
      operands.add(c.path("left"));
      operands.add(c.path("right"));
    } else if (cls.equals("BETWEEN")) {
      operands.add(c.path("input"));
    } else if (cls.equals("OPERATOR") && (type.equals("COMPARE_IN") || type.equals("OPERATOR_IS_NOT_NULL"))) {
      operands.add(c.path("children").path(0));
    } else if (cls.equals("FUNCTION") && NULL_REJECTING_FUNCTIONS.contains(c.path("function_name").asText())) {
      c.path("children").forEach(operands::add);
      for (JsonNode a : c.path("arguments")) {
        operands.add(a.path("expression"));
      }
    } else {
      return false;
    }
    for (JsonNode o : operands) {
      JsonNode e = o;
      while ("CAST".equals(e.path("class").asText())) {
        e = e.path("child");
      }
      if ("COLUMN_REF".equals(e.path("class").asText())) {
        Scope.Resolution r = scope.resolve(parts(e));
        if (r.kind() == Scope.Kind.LOCAL && r.item() == item) {
          return true;
        }
      }
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------------------------
  // set-operation-to-semi-join

  @Nullable String setOperationToSemiJoin(ObjectNode node, Context ctx) {
    if (!"SET_OPERATION_NODE".equals(node.path("type").asText()) || node.path("setop_all").asBoolean(true)
        || !node.path("cte_map").path("map").isEmpty()) {
      return null;
    }
    String op = node.path("setop_type").asText();
    if (!op.equals("INTERSECT") && !op.equals("EXCEPT")) {
      return null;
    }
    JsonNode children = node.path("children");
    if (children.size() != 2 || !isSelect(children.get(0)) || !isSelect(children.get(1))) {
      return null;
    }
    List<String> names = Scope.outputNames(children.get(0));
    if (names == null || names.size() != children.get(1).path("select_list").size()) {
      return null;
    }
    String modifiers = modifiersText(node, names);
    if (modifiers == null) {
      return null;
    }
    List<String> cols = new ArrayList<>();
    List<String> outputs = new ArrayList<>();
    List<String> matches = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      cols.add("lr_c" + (i + 1));
      outputs.add("lr_l.lr_c" + (i + 1) + " AS " + Sql.identifier(names.get(i)));
      matches.add("lr_l.lr_c" + (i + 1) + " IS NOT DISTINCT FROM lr_r.lr_c" + (i + 1));
    }
    String text = "SELECT DISTINCT " + String.join(", ", outputs) + " FROM (" + trees.renderNode(children.get(0))
        + ") AS lr_l(" + String.join(", ", cols) + ") WHERE " + (op.equals("EXCEPT") ? "NOT " : "")
        + "EXISTS (SELECT 1 FROM (" + trees.renderNode(children.get(1)) + ") AS lr_r(" + String.join(", ", cols)
        + ") WHERE " + String.join(" AND ", matches) + ")" + modifiers;
    replace(node, trees.node(text));
    return op + " becomes a " + (op.equals("EXCEPT") ? "NOT EXISTS anti" : "EXISTS semi")
        + " join with IS NOT DISTINCT FROM (NULLs match as in set operations)";
  }

  // ---------------------------------------------------------------------------------------------------------
  // push-filter-into-cte

  @Nullable String pushFilterIntoCte(ObjectNode node, Context ctx) {
    if (!isSelect(node)) {
      return null;
    }
    Map<String, Integer> references = cteReferenceCounts(ctx.statement());
    Scope scope = ctx.scope(node);
    List<String> pushed = new ArrayList<>();
    for (JsonNode c : Trees.conjuncts(node.get("where_clause"))) {
      if (Trees.hasSubquery(c)) {
        continue;
      }
      List<List<String>> refs = Trees.columnRefs(c);
      if (refs.size() != 1) {
        continue;
      }
      Scope.Resolution r = scope.resolve(refs.get(0));
      if (r.kind() != Scope.Kind.LOCAL || !"BASE_TABLE".equals(r.item().node().path("type").asText())) {
        continue;
      }
      String cte = r.item().node().path("table_name").asText().toLowerCase(Locale.ROOT);
      ObjectNode body = cteBody(ctx.statement(), cte);
      if (body == null || references.getOrDefault(cte, 0) != 1 || !isSelect(body)
          || !body.path("modifiers").isEmpty() || !body.path("qualify").isNull()) {
        continue;
      }
      String column = refs.get(0).get(refs.get(0).size() - 1);
      JsonNode source = null;
      for (JsonNode item : body.path("select_list")) {
        String name = item.path("alias").asText("");
        if (name.isEmpty() && "COLUMN_REF".equals(item.path("class").asText())) {
          JsonNode p = item.path("column_names");
          name = p.get(p.size() - 1).asText();
        }
        if (name.equalsIgnoreCase(column)) {
          source = item;
        }
      }
      if (source == null || Trees.hasAggregate(source) || Trees.hasWindow(source) || Trees.hasSubquery(source)) {
        continue;
      }
      boolean grouped = !body.path("group_expressions").isEmpty();
      boolean aggregated = grouped || body.path("select_list").findValues("function_name").stream()
          .anyMatch(f -> dev.lakerewrite.core.sql.SqlAnalyzer.isAggregate(f.asText()));
      String sourceText = trees.expression(source);
      if (aggregated && (!grouped || rendered(listOf(body.path("group_expressions"))).stream()
          .noneMatch(sourceText::equals))) {
        continue;
      }
      ObjectNode filter = c.deepCopy();
      List<ObjectNode> columnNodes = new ArrayList<>();
      Trees.visitShallow(filter, n -> {
        if ("COLUMN_REF".equals(n.path("class").asText())) {
          columnNodes.add((ObjectNode) n);
        }
      });
      for (ObjectNode n : columnNodes) {
        ObjectNode s = source.deepCopy();
        s.put("alias", "");
        replace(n, s);
      }
      List<String> where = rendered(Trees.conjuncts(body.get("where_clause")));
      String text = trees.expression(filter);
      if (where.contains(text)) {
        continue;
      }
      where.add(text);
      setWhere(body, where);
      pushed.add(cte + ": " + abbreviate(text));
    }
    return pushed.isEmpty() ? null : "filters also applied inside the CTE(s) " + String.join("; ", pushed);
  }

  private static List<JsonNode> listOf(JsonNode array) {
    List<JsonNode> out = new ArrayList<>();
    array.forEach(out::add);
    return out;
  }

  private static ObjectNode cteBody(JsonNode statement, String name) {
    ObjectNode entry = cteEntry(statement, name);
    return entry == null ? null : (ObjectNode) entry.path("value").path("query_node");
  }

  /** The first {@code cte_map} entry named {@code name} anywhere in the tree (key and value), or null. */
  static @Nullable ObjectNode cteEntry(JsonNode statement, String name) {
    ObjectNode[] found = {null};
    Trees.visit(statement, n -> {
      for (JsonNode e : n.path("cte_map").path("map")) {
        if (e.path("key").asText().equalsIgnoreCase(name) && found[0] == null) {
          found[0] = (ObjectNode) e;
        }
      }
    });
    return found[0];
  }

  /** How many times each CTE name is referenced as a table anywhere in the statement. */
  static Map<String, Integer> cteReferenceCounts(JsonNode statement) {
    Set<String> names = Scope.cteColumns(statement.get("node")).keySet();
    Map<String, Integer> counts = new java.util.LinkedHashMap<>();
    names.forEach(n -> counts.put(n, 0));
    for (String t : Trees.baseTables(statement)) {
      counts.computeIfPresent(t, (k, v) -> v + 1);
    }
    return counts;
  }

  // ---------------------------------------------------------------------------------------------------------
  // prune-unused-cte-columns

  /**
   * {@code prune-unused-cte-columns}: a CTE output column that nothing outside the CTE's select list reads is not
   * computed. A column that is also a GROUP BY expression leaves the grouping too, but only when the block groups by
   * the whole primary key of the one table the expression reads: the key determines it, so the groups stay the same
   * (otherwise it stays in GROUP BY). Never under DISTINCT (a column fewer would merge rows), for a CTE with a
   * column list, one grouped by ordinals, ALL or grouping sets, or one that some block reads with {@code *}, USING
   * or NATURAL. Linear in the size of the statement.
   */
  List<Proposal> pruneUnusedCteColumns(String sql, String label) {
    ObjectNode statement = trees.statement(sql);
    List<Proposal> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    seen.add(normalize(trees.render(statement)));
    Set<String> readImplicitly = implicitlyReadTables(statement);
    ObjectNode copy = statement.deepCopy();
    Context ctx = context(copy);
    List<String> done = new ArrayList<>();
    for (ObjectNode entry : Trees.ctes(copy.get("node"))) {
      String name = entry.path("key").asText();
      JsonNode found = entry.path("value").path("query_node");
      if (!found.isObject()) {
        continue;
      }
      ObjectNode body = (ObjectNode) found;
      if (readImplicitly.contains(name.toLowerCase(Locale.ROOT)) || !entry.path("value").path("aliases").isEmpty()
          || !isSelect(body) || Trees.hasDistinct(body) || !"STANDARD_HANDLING".equals(body.path("aggregate_handling")
          .asText("STANDARD_HANDLING")) || body.path("group_sets").size() > 1) {
        continue;
      }
      JsonNode groups = body.path("group_expressions");
      boolean ordinal = false;
      for (JsonNode g : groups) {
        ordinal |= "CONSTANT".equals(g.path("class").asText());
      }
      JsonNode order = Trees.orderModifier(body);
      if (order != null) {
        for (JsonNode o : order.path("orders")) {
          ordinal |= "CONSTANT".equals(o.path("expression").path("class").asText());
        }
      }
      if (ordinal) {
        continue;
      }
      Set<String> read = namesReadOutside(copy, body);
      Scope scope = ctx.scope(body);
      List<String> groupTexts = new ArrayList<>();
      for (JsonNode g : groups) {
        groupTexts.add(trees.expression(withoutAlias(g)));
      }
      List<String> dropped = new ArrayList<>();
      List<String> ungrouped = new ArrayList<>();
      ArrayNode items = (ArrayNode) body.path("select_list");
      for (int i = items.size() - 1; i >= 0 && items.size() > 1; i--) {
        JsonNode item = items.get(i);
        String output = outputColumnName(item);
        if (output == null || read.contains(output.toLowerCase(Locale.ROOT))) {
          continue;
        }
        String text = trees.expression(withoutAlias(item));
        int group = groupTexts.lastIndexOf(text);
        items.remove(i);
        dropped.add(0, output);
        if (group >= 0 && determinedByGroupedKey(body, groups.get(group), scope)) {
          removeGroup(body, group);
          groupTexts.remove(group);
          ungrouped.add(0, text);
        }
      }
      if (!dropped.isEmpty()) {
        done.add(name + ": " + String.join(", ", dropped) + " never read"
            + (ungrouped.isEmpty() ? "" : "; " + String.join(", ", ungrouped)
            + " left GROUP BY (determined by a grouped primary key)"));
      }
    }
    if (!done.isEmpty()) {
      add(out, seen, new Proposal(CandidateSource.RULE, label, "CTE columns not computed: "
          + String.join("; ", done), trees.render(copy)));
    }
    return out;
  }

  /** CTE or table names that some block reads with {@code *} or through USING / NATURAL joins, lower-cased. */
  private static Set<String> implicitlyReadTables(JsonNode statement) {
    Set<String> out = new LinkedHashSet<>();
    Trees.selectNodes(statement, n -> {
      boolean star = false;
      for (JsonNode item : n.path("select_list")) {
        boolean[] found = {false};
        Trees.visit(item, e -> found[0] |= "STAR".equals(e.path("class").asText()) && !e.has("function_name"));
        star |= found[0];
      }
      boolean[] implicitJoin = {false};
      Trees.visitShallow(n.path("from_table"), j -> implicitJoin[0] |= "JOIN".equals(j.path("type").asText())
          && (!j.path("using_columns").isEmpty() || "NATURAL".equals(j.path("ref_type").asText())));
      if (star || implicitJoin[0]) {
        for (JsonNode item : Trees.fromItems(n.path("from_table"))) {
          if ("BASE_TABLE".equals(item.path("type").asText())) {
            out.add(item.path("table_name").asText().toLowerCase(Locale.ROOT));
          }
        }
      }
    });
    return out;
  }

  /** Last name parts of every column reference in the statement outside one block's select list, lower-cased. */
  private static Set<String> namesReadOutside(JsonNode statement, ObjectNode body) {
    JsonNode items = body.path("select_list");
    Set<String> out = new LinkedHashSet<>();
    Trees.visit(statement, n -> {
      if (n == items) {
        return;
      }
      if ("COLUMN_REF".equals(n.path("class").asText())) {
        out.add(Trees.columnName(n).toLowerCase(Locale.ROOT));
      }
    });
    // A column reference inside the select list that names another item's alias reads it too (DuckDB allows it).
    for (JsonNode item : items) {
      for (List<String> p : Trees.columnRefs(item)) {
        out.add(p.get(p.size() - 1).toLowerCase(Locale.ROOT));
      }
    }
    return out;
  }

  private static @Nullable String outputColumnName(JsonNode item) {
    String alias = item.path("alias").asText("");
    if (!alias.isEmpty()) {
      return alias;
    }
    if ("COLUMN_REF".equals(item.path("class").asText())) {
      return Trees.columnName(item);
    }
    return null;
  }

  private static JsonNode withoutAlias(JsonNode e) {
    ObjectNode copy = (ObjectNode) e.deepCopy();
    copy.put("alias", "");
    return copy;
  }

  /** Whether a grouping expression reads one base table only, whose whole primary key is grouped as columns. */
  private boolean determinedByGroupedKey(ObjectNode body, JsonNode expression, Scope scope) {
    List<Scope.Item> owners = scope.owners(expression);
    if (owners == null || owners.size() != 1 || Trees.hasSubquery(expression) || Trees.hasAggregate(expression)
        || !"BASE_TABLE".equals(owners.get(0).node().path("type").asText())) {
      return false;
    }
    Scope.Item table = owners.get(0);
    List<String> key = catalog.table(table.node().path("table_name").asText()).map(Catalog.Table::primaryKey)
        .orElse(List.of());
    if (key.isEmpty()) {
      return false;
    }
    Set<String> grouped = new LinkedHashSet<>();
    for (JsonNode g : body.path("group_expressions")) {
      if (g != expression && "COLUMN_REF".equals(g.path("class").asText())) {
        Scope.Resolution r = scope.resolve(parts(g));
        if (r.kind() == Scope.Kind.LOCAL && r.item() == table) {
          grouped.add(Trees.columnName(g).toLowerCase(Locale.ROOT));
        }
      }
    }
    return key.stream().allMatch(k -> grouped.contains(k.toLowerCase(Locale.ROOT)));
  }

  /** Removes one GROUP BY expression and renumbers the grouping set that refers to them by position. */
  private static void removeGroup(ObjectNode body, int index) {
    ((ArrayNode) body.path("group_expressions")).remove(index);
    for (JsonNode set : body.path("group_sets")) {
      ArrayNode indices = (ArrayNode) set;
      for (int i = indices.size() - 1; i >= 0; i--) {
        int v = indices.get(i).asInt();
        if (v == index) {
          indices.remove(i);
        } else if (v > index) {
          indices.set(i, Trees.JSON.getNodeFactory().numberNode(v - 1));
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // push-filters-into-shared-cte

  /**
   * {@code push-filters-into-shared-cte}: a CTE read several times, each read filtering it differently (a year, a
   * channel), computes every row although only those some read keeps are used. Each read's own conjuncts (only its
   * columns, no subquery, on CTE columns that are plain or grouping columns in every UNION branch) are ANDed, the
   * reads' conjunctions ORed, and the disjunction is added to every branch's WHERE in terms of the branch's own
   * expressions; the reads keep their filters. Not when a read has no such filter (it needs every row), sits in an
   * outer join, or a branch has a window, LIMIT, DISTINCT or grouping sets (a filter would change their rows).
   * Linear in the size of the statement.
   */
  List<Proposal> pushFiltersIntoSharedCte(String sql, String label) {
    ObjectNode statement = trees.statement(sql);
    List<Proposal> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    Map<String, Integer> references = cteReferenceCounts(statement);
    for (ObjectNode entry : Trees.ctes(statement.get("node"))) {
      String name = entry.path("key").asText();
      if (references.getOrDefault(name.toLowerCase(Locale.ROOT), 0) < 2) {
        continue;
      }
      ObjectNode copy = statement.deepCopy();
      Map<String, List<String>> cteColumns = Scope.cteColumns(copy.get("node"));
      List<String> columns = cteColumns.get(name.toLowerCase(Locale.ROOT));
      ObjectNode body = cteBody(copy, name);
      List<ObjectNode> branches = body == null ? null : unionBranches(body);
      if (columns == null || branches == null || branches.stream().anyMatch(b -> !filterable(b, columns.size()))) {
        continue;
      }
      List<List<JsonNode>> reads = readFilters(copy, name, columns, branches, cteColumns);
      if (reads == null || reads.size() != references.get(name.toLowerCase(Locale.ROOT))) {
        continue;
      }
      String shown = null;
      boolean changed = false;
      for (ObjectNode branch : branches) {
        Set<String> alternatives = new LinkedHashSet<>();
        for (List<JsonNode> read : reads) {
          List<String> conjunction = new ArrayList<>();
          boolean never = false;
          for (JsonNode c : read) {
            ObjectNode substituted = substituteColumns(c, columns, branch);
            Boolean constant = literalEquality(trees, substituted);
            if (constant == null) {
              conjunction.add(trees.expression(substituted));
            } else if (!constant) {
              never = true; // e.g. channel 'w' asked of the 's' branch: this read needs no row of the branch
            }
          }
          if (!never) {
            alternatives.add(conjunction.isEmpty() ? "true" : Trees.and(conjunction));
          }
        }
        String predicate = anyOf(alternatives);
        if (predicate == null) {
          continue;
        }
        List<String> where = rendered(Trees.conjuncts(branch.get("where_clause")));
        where.add(predicate);
        setWhere(branch, where);
        shown = shown == null ? predicate : shown;
        changed = true;
      }
      if (!changed) {
        continue;
      }
      add(out, seen, new Proposal(CandidateSource.RULE, label, "each of the " + reads.size() + " reads of " + name
          + " keeps only some rows: their filters, ORed, are applied inside it (" + abbreviate(shown) + ")",
          trees.render(copy)));
    }
    return out;
  }

  /** The SELECT branches of a query node joined by UNION [ALL] (the node itself when it is a SELECT); else null. */
  private static @Nullable List<ObjectNode> unionBranches(ObjectNode node) {
    List<ObjectNode> out = new ArrayList<>();
    if (isSelect(node)) {
      out.add(node);
      return out;
    }
    if (!"SET_OPERATION_NODE".equals(node.path("type").asText()) || !"UNION".equals(node.path("setop_type").asText())
        || !node.path("modifiers").isEmpty()) {
      return null;
    }
    List<JsonNode> children = new ArrayList<>();
    node.path("children").forEach(children::add);
    for (String side : List.of("left", "right")) {
      if (node.path(side).isObject()) {
        children.add(node.get(side));
      }
    }
    for (JsonNode child : children) {
      List<ObjectNode> sub = unionBranches((ObjectNode) child);
      if (sub == null) {
        return null;
      }
      out.addAll(sub);
    }
    return out.isEmpty() ? null : out;
  }

  /** Whether a filter on the output of this branch can be applied to its input instead. */
  private static boolean filterable(ObjectNode branch, int columns) {
    return branch.path("select_list").size() == columns && branch.path("modifiers").isEmpty()
        && branch.path("qualify").isNull() && branch.path("group_sets").size() <= 1
        && !Trees.hasWindow(branch.path("select_list")) && branch.path("cte_map").path("map").isEmpty();
  }

  /**
   * For each read of the CTE (a FROM item of some block), its pushable WHERE conjuncts; null when a read has none,
   * sits in an outer join or where a read cannot be told apart.
   */
  private List<List<JsonNode>> readFilters(ObjectNode statement, String cte, List<String> columns,
      List<ObjectNode> branches, Map<String, List<String>> cteColumns) {
    List<List<JsonNode>> reads = new ArrayList<>();
    boolean[] ok = {true};
    Trees.selectNodes(statement, block -> {
      List<JsonNode> items = Trees.fromItems(block.path("from_table")).stream().filter(i ->
          "BASE_TABLE".equals(i.path("type").asText()) && i.path("table_name").asText().equalsIgnoreCase(cte))
          .toList();
      if (items.isEmpty() || !ok[0]) {
        return;
      }
      boolean[] outer = {false};
      Trees.visitShallow(block.path("from_table"), n -> {
        if ("JOIN".equals(n.path("type").asText()) && !"INNER".equals(n.path("join_type").asText("INNER"))) {
          outer[0] = true;
        }
      });
      Scope scope = Scope.of(block, catalog, cteColumns);
      for (JsonNode i : items) {
        Scope.Item item = scope.item(Trees.referenceName(i)).orElse(null);
        List<JsonNode> mine = new ArrayList<>();
        for (JsonNode c : Trees.conjuncts(block.get("where_clause"))) {
          List<Scope.Item> owners = Trees.hasSubquery(c) ? null : scope.owners(c);
          if (owners != null && owners.size() == 1 && owners.get(0) == item
              && Trees.columnRefs(c).stream().allMatch(ref -> pushable(ref, columns, branches))) {
            mine.add(c);
          }
        }
        if (item == null || mine.isEmpty() || outer[0]) {
          ok[0] = false;
          return;
        }
        reads.add(mine);
      }
    });
    return ok[0] ? reads : null;
  }

  /**
   * The value of a comparison of two literals by equality or inequality ({@code 's' = 'w'}, which a UNION branch's
   * constant column gives), null for anything else.
   */
  static @Nullable Boolean literalEquality(Trees trees, JsonNode e) {
    String type = e.path("type").asText();
    if (!"COMPARISON".equals(e.path("class").asText())
        || !type.equals("COMPARE_EQUAL") && !type.equals("COMPARE_NOTEQUAL")
        || !"CONSTANT".equals(e.path("left").path("class").asText())
        || !"CONSTANT".equals(e.path("right").path("class").asText())) {
      return null;
    }
    // Only string literals: their text is their value ('s' = 's'); numbers may be spelled differently (1 = 1.0).
    String left = trees.expression(e.path("left"));
    String right = trees.expression(e.path("right"));
    if (!left.startsWith("'") || !right.startsWith("'")) {
      return null;
    }
    return type.equals("COMPARE_EQUAL") == left.equals(right);
  }

  /** Whether the CTE column a reference names is, in every branch, a plain expression or a grouping key. */
  private boolean pushable(List<String> ref, List<String> columns, List<ObjectNode> branches) {
    int index = indexOfIgnoreCase(columns, ref.get(ref.size() - 1));
    if (index < 0) {
      return false;
    }
    for (ObjectNode branch : branches) {
      JsonNode source = branch.path("select_list").get(index);
      if (Trees.hasAggregate(source) || Trees.hasWindow(source) || Trees.hasSubquery(source)) {
        return false;
      }
      boolean grouped = !branch.path("group_expressions").isEmpty() || Trees.hasAggregate(branch.path("select_list"));
      if (grouped && !Trees.columnRefs(source).isEmpty()) {
        String text = trees.expression(source);
        String alias = source.path("alias").asText("");
        boolean key = false;
        for (JsonNode g : branch.path("group_expressions")) {
          List<String> gp = "COLUMN_REF".equals(g.path("class").asText()) ? parts(g) : List.of();
          key |= trees.expression(g).equals(text) || gp.size() == 1 && gp.get(0).equalsIgnoreCase(alias);
        }
        if (!key) {
          return false;
        }
      }
    }
    return true;
  }

  private static int indexOfIgnoreCase(List<String> names, String name) {
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  /** A copy of the conjunct with each CTE column replaced by the branch's expression for it. */
  private static ObjectNode substituteColumns(JsonNode conjunct, List<String> columns, ObjectNode branch) {
    ObjectNode copy = conjunct.deepCopy();
    List<ObjectNode> refs = new ArrayList<>();
    Trees.visitShallow(copy, n -> {
      if ("COLUMN_REF".equals(n.path("class").asText())) {
        refs.add((ObjectNode) n);
      }
    });
    if ("COLUMN_REF".equals(copy.path("class").asText()) && !refs.contains(copy)) {
      refs.add(copy);
    }
    for (ObjectNode n : refs) {
      List<String> p = parts(n);
      ObjectNode source = branch.path("select_list").get(indexOfIgnoreCase(columns, p.get(p.size() - 1))).deepCopy();
      source.put("alias", "");
      replace(n, source);
    }
    return copy;
  }

  // ---------------------------------------------------------------------------------------------------------
  // push-semi-joins-into-cte

  /**
   * A CTE whose every read is joined by equality to a filtered table ({@code wss.d_week_seq = d.d_week_seq AND
   * d.d_month_seq BETWEEN 1212 AND 1223}, TPC-DS q59) computes the groups of every key although each read keeps only
   * the keys the filtered table has. Each read's restriction — for every such equality, the CTE column {@code IN}
   * the values of the other column over the rows the filtered table's own conjuncts keep; with the read's own
   * literal filters beside it — is ANDed, the reads' restrictions ORed, and the disjunction added to every UNION
   * branch's WHERE in terms of the branch's own expressions (the column must be a plain or grouping column of every
   * branch, so a group is kept or dropped whole). Exact: a row of the CTE a read's WHERE would drop for want of a
   * join partner is not there; NULL keys join nothing and are not IN anything. Not when a read sits in an outer
   * join or has no such equality and no filter (it needs every row), or a branch has a window, LIMIT, DISTINCT or
   * grouping sets; the filtered table must be a table, not a CTE or subquery. Says why it leaves a CTE whose reads
   * join a filtered table alone. Linear in the size of the statement.
   */
  List<Proposal> pushSemiJoinsIntoCte(String sql, String label) {
    ObjectNode statement = trees.statement(sql);
    List<Proposal> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    Map<String, Integer> references = cteReferenceCounts(statement);
    for (ObjectNode entry : Trees.ctes(statement.get("node"))) {
      String name = entry.path("key").asText();
      int count = references.getOrDefault(name.toLowerCase(Locale.ROOT), 0);
      if (count < 1) {
        continue;
      }
      ObjectNode copy = statement.deepCopy();
      Map<String, List<String>> cteColumns = Scope.cteColumns(copy.get("node"));
      List<String> columns = cteColumns.get(name.toLowerCase(Locale.ROOT));
      ObjectNode body = cteBody(copy, name);
      List<ObjectNode> branches = body == null ? null : unionBranches(body);
      List<String> why = new ArrayList<>();
      List<List<String[]>> reads = columns == null || branches == null ? null
          : semiJoinReads(copy, name, columns, branches, cteColumns, why);
      if (reads == null || reads.stream().noneMatch(r -> r.stream().anyMatch(x -> x[1] != null))) {
        if (!why.isEmpty()) {
          refusals.add("the reads of " + name + " are left as they are: " + why.get(0));
        }
        continue;
      }
      if (branches.stream().anyMatch(b -> !filterable(b, columns.size()))) {
        refusals.add("the reads of " + name + " are left as they are: a branch of its body has a window, LIMIT,"
            + " DISTINCT or grouping sets (a filter inside would change its rows)");
        continue;
      }
      if (reads.size() != count) {
        refusals.add("the reads of " + name + " are left as they are: it is read " + count + " times, "
            + reads.size() + " of them as a FROM item");
        continue;
      }
      String shown = null;
      boolean changed = false;
      for (ObjectNode branch : branches) {
        Set<String> alternatives = new LinkedHashSet<>();
        // Reads restricted only by one key of one table read the same way: one IN with their filters ORed (a
        // disjunction of IN subqueries runs as a mark join per subquery).
        Map<String, List<String>> sameKey = new LinkedHashMap<>();
        for (List<String[]> read : reads) {
          if (read.size() == 1 && read.get(0)[1] != null) {
            String key = trees.expression(substituteColumns(trees.parseExpression(read.get(0)[0]), columns, branch))
                + " IN (" + read.get(0)[1];
            sameKey.computeIfAbsent(key, k -> new ArrayList<>()).add(read.get(0)[2]);
          }
        }
        for (Map.Entry<String, List<String>> e : sameKey.entrySet()) {
          List<String> filters = e.getValue().stream().distinct().toList();
          alternatives.add(e.getKey() + " WHERE " + (filters.size() == 1 ? filters.get(0)
              : "(" + String.join(") OR (", filters) + ")") + ")");
        }
        for (List<String[]> read : reads) {
          if (read.size() == 1 && read.get(0)[1] != null) {
            continue;
          }
          List<String> conjunction = new ArrayList<>();
          boolean never = false;
          for (String[] r : read) {
            ObjectNode substituted = substituteColumns(trees.parseExpression(r[0]), columns, branch);
            if (r[1] != null) {
              conjunction.add(trees.expression(substituted) + " IN (" + r[1] + " WHERE " + r[2] + ")");
              continue;
            }
            Boolean constant = literalEquality(trees, substituted);
            if (constant == null) {
              conjunction.add(trees.expression(substituted));
            } else if (!constant) {
              never = true;
            }
          }
          if (!never) {
            alternatives.add(conjunction.isEmpty() ? "true" : Trees.and(conjunction));
          }
        }
        String predicate = anyOf(alternatives);
        if (predicate == null) {
          continue;
        }
        List<String> where = rendered(Trees.conjuncts(branch.get("where_clause")));
        where.add(predicate);
        setWhere(branch, where);
        shown = shown == null ? predicate : shown;
        changed = true;
      }
      if (changed) {
        add(out, seen, new Proposal(CandidateSource.RULE, label, "each of the " + reads.size() + " reads of " + name
            + " keeps only the keys a filtered table joined to it has: those keys are kept inside it ("
            + abbreviate(shown) + ")", trees.render(copy)));
      }
    }
    return out;
  }

  /**
   * For each read of the CTE, its restrictions: {@code {conjunct, null, null}} for a filter of its own (as
   * push-filters-into-shared-cte takes them), {@code {cte column, subquery without its WHERE, its filter}} for an
   * equality with a column of a filtered table in the same block. Null (with the reason in {@code why} where the
   * shape was there) when a read sits in an outer join or has no restriction.
   */
  private @Nullable List<List<String[]>> semiJoinReads(ObjectNode statement, String cte, List<String> columns,
      List<ObjectNode> branches, Map<String, List<String>> cteColumns, List<String> why) {
    List<List<String[]>> reads = new ArrayList<>();
    boolean[] ok = {true};
    boolean[] semiSeen = {false};
    Trees.selectNodes(statement, block -> {
      List<JsonNode> items = Trees.fromItems(block.path("from_table")).stream().filter(i ->
          "BASE_TABLE".equals(i.path("type").asText()) && i.path("table_name").asText().equalsIgnoreCase(cte))
          .toList();
      if (items.isEmpty()) {
        return;
      }
      boolean[] outer = {false};
      Trees.visitShallow(block.path("from_table"), n -> {
        if ("JOIN".equals(n.path("type").asText()) && !"INNER".equals(n.path("join_type").asText("INNER"))) {
          outer[0] = true;
        }
      });
      Scope scope = Scope.of(block, catalog, cteColumns);
      List<JsonNode> conjuncts = new ArrayList<>(Trees.conjuncts(block.get("where_clause")));
      for (JsonNode c : conditionsOf(block.path("from_table"))) {
        conjuncts.addAll(Trees.conjuncts(c));
      }
      for (JsonNode i : items) {
        Scope.Item item = scope.item(Trees.referenceName(i)).orElse(null);
        List<String[]> mine = new ArrayList<>();
        for (JsonNode c : conjuncts) {
          if (item == null || Trees.hasSubquery(c) || containsFunction(c, VOLATILE_FUNCTIONS)) {
            continue;
          }
          List<Scope.Item> owners = scope.owners(c);
          if (owners != null && owners.size() == 1 && owners.get(0) == item
              && Trees.columnRefs(c).stream().allMatch(ref -> pushable(ref, columns, branches))) {
            mine.add(new String[] {trees.expression(c), null, null});
            continue;
          }
          String[] semi = semiJoin(c, item, scope, conjuncts, columns, branches, cteColumns);
          if (semi != null) {
            mine.add(semi);
          }
        }
        semiSeen[0] |= mine.stream().anyMatch(m -> m[1] != null);
        if (outer[0] && !mine.isEmpty()) {
          why.add("a read (" + item.name() + ") sits in an outer join");
        }
        if (item == null || mine.isEmpty() || outer[0]) {
          if (item != null && mine.isEmpty() && !outer[0]) {
            why.add("a read (" + item.name() + ") is neither filtered nor joined to a filtered table, so it needs"
                + " every row");
          }
          ok[0] = false;
          continue;
        }
        reads.add(mine);
      }
    });
    if (!semiSeen[0]) {
      why.clear(); // nothing of this recipe's shape: no reason to give
    }
    return ok[0] ? reads : null;
  }

  private static final Set<String> VOLATILE_FUNCTIONS = Set.of("random", "gen_random_uuid", "uuid", "nextval",
      "setseed", "currval");

  /**
   * {@code {cte column, SELECT x FROM t AS d, d's own conjuncts}} when the conjunct equates a pushable column
   * of the read with a column {@code x} of a table item {@code d} of the block that the block filters by conjuncts
   * of its own (no subquery); else null.
   */
  private String @Nullable [] semiJoin(JsonNode c, Scope.Item read, Scope scope, List<JsonNode> conjuncts,
      List<String> columns, List<ObjectNode> branches, Map<String, List<String>> cteColumns) {
    if (!"COMPARE_EQUAL".equals(c.path("type").asText())
        || !"COLUMN_REF".equals(c.path("left").path("class").asText())
        || !"COLUMN_REF".equals(c.path("right").path("class").asText())) {
      return null;
    }
    List<Scope.Item> left = scope.owners(c.path("left"));
    List<Scope.Item> right = scope.owners(c.path("right"));
    if (left == null || right == null || left.size() != 1 || right.size() != 1) {
      return null;
    }
    JsonNode mine;
    JsonNode theirs;
    Scope.Item other;
    if (left.get(0) == read && right.get(0) != read) {
      mine = c.path("left");
      theirs = c.path("right");
      other = right.get(0);
    } else if (right.get(0) == read && left.get(0) != read) {
      mine = c.path("right");
      theirs = c.path("left");
      other = left.get(0);
    } else {
      return null;
    }
    JsonNode node = other.node();
    String table = node.path("table_name").asText("");
    if (!"BASE_TABLE".equals(node.path("type").asText()) || table.isEmpty()
        || cteColumns.containsKey(table.toLowerCase(Locale.ROOT)) || catalog.table(table).isEmpty()
        || !node.path("schema_name").asText("").isEmpty() || !pushable(parts(mine), columns, branches)) {
      return null;
    }
    List<String> filters = new ArrayList<>();
    for (JsonNode f : conjuncts) {
      List<Scope.Item> owners = Trees.hasSubquery(f) || containsFunction(f, VOLATILE_FUNCTIONS) ? null
          : scope.owners(f);
      if (owners != null && owners.size() == 1 && owners.get(0) == other && !Trees.columnRefs(f).isEmpty()) {
        filters.add(trees.expression(f));
      }
    }
    if (filters.isEmpty()) {
      return null;
    }
    String alias = Trees.referenceName(node);
    return new String[] {trees.expression(mine), "SELECT " + trees.expression(theirs) + " FROM "
        + Sql.identifier(table) + (alias.equalsIgnoreCase(table) ? "" : " AS " + Sql.identifier(alias)),
        Trees.and(filters)};
  }

  // ---------------------------------------------------------------------------------------------------------
  // self-join-to-lag-lead

  /**
   * {@code self-join-to-lag-lead}: a block that joins a CTE numbered by {@code rank() OVER (PARTITION BY p ORDER BY
   * o) AS rn} to itself to read the previous and the next row ({@code v.p = w.p AND v.rn = w.rn + 1}, {@code - 1})
   * reads them with {@code lag} / {@code lead} instead, in one scan. Exact only when rn numbers each partition 1, 2,
   * 3, ... without ties (the CTE groups by exactly p and o, so each (p, o) is one row) and the join equates every
   * partition column: then the row numbered rn - 1 in v's partition is the row before v in the window's order.
   * Two forms. When the block holds every read of the CTE and each column it reads of a neighbour is computed
   * without a window, the CTE computes {@code lag(expr) OVER w} / {@code lead(expr) OVER w} itself, w the
   * numbering's own window (one sort serves rn and the neighbours: TPC-DS q47 1.3x on DuckDB, the other form 1.1x),
   * and the block keeps {@code v.rn > 1} and {@code v.lr_next IS NOT NULL} ({@code lead(1) OVER w}). Otherwise the
   * block reads {@code (SELECT *, lag(c) OVER (PARTITION BY p ORDER BY rn) ..., count(*) OVER (PARTITION BY p) AS
   * lr_n FROM v)} and keeps {@code v.rn > 1 AND v.rn < v.lr_n}. Both keep {@code v.p IS NOT NULL} (the join dropped
   * NULL partitions). A self-join on rn ± 1 that misses a condition is left alone with the reason (traced as
   * {@code recipe-refused}): a numbering that can tie, a join that does not equate the whole partition, a neighbour
   * read as a whole row or a block that reads {@code *}, a CTE with a column list. Linear in the size of the
   * statement.
   */
  @Nullable String selfJoinToLagLead(ObjectNode node, Context ctx) {
    if (!isSelect(node) || !Trees.crossJoinsOnly(node.path("from_table"))) {
      return null;
    }
    List<JsonNode> items = Trees.fromItems(node.path("from_table"));
    List<JsonNode> conjuncts = Trees.conjuncts(node.get("where_clause"));
    for (JsonNode base : items) {
      if (!"BASE_TABLE".equals(base.path("type").asText())) {
        continue;
      }
      String cte = base.path("table_name").asText();
      ObjectNode entry = cteEntry(ctx.statement(), cte);
      JsonNode body = entry == null ? null : entry.path("value").path("query_node");
      if (body == null || !isSelect(body)) {
        continue;
      }
      String x = Trees.referenceName(base);
      // The numbering the block steps through: {@code x.rn = y.rn + 1} (y precedes x) or {@code - 1} (y follows).
      Ranking ranking = null;
      Map<String, Integer> offsets = new java.util.LinkedHashMap<>();
      Set<Integer> used = new java.util.HashSet<>();
      for (Ranking r : rankings((ObjectNode) body)) {
        for (int i = 0; i < conjuncts.size(); i++) {
          Object[] step = "COMPARE_EQUAL".equals(conjuncts.get(i).path("type").asText())
              ? rnStep(conjuncts.get(i), x, r.rn()) : null;
          if (step != null && isItemOf(items, (String) step[0], cte) && !offsets.containsKey((String) step[0])) {
            offsets.put((String) step[0], (Integer) step[1]);
            used.add(i);
          }
        }
        if (!offsets.isEmpty()) {
          ranking = r;
          break;
        }
      }
      if (ranking == null) {
        continue;
      }
      String refused = "the self-joins of " + cte + " on " + ranking.rn() + " +/- 1 are left as they are: ";
      if (!entry.path("value").path("aliases").isEmpty()) {
        ctx.refuse(refused + "the CTE has a column list");
        continue;
      }
      if (ranking.tie() != null) {
        ctx.refuse(refused + ranking.tie());
        continue;
      }
      Set<String> partitionKey = new LinkedHashSet<>();
      ranking.partition().forEach(p -> partitionKey.add(p.toLowerCase(Locale.ROOT)));
      Map<String, Set<String>> equated = new java.util.LinkedHashMap<>();
      for (int i = 0; i < conjuncts.size(); i++) {
        String[] pair = "COMPARE_EQUAL".equals(conjuncts.get(i).path("type").asText())
            ? equatedColumn(conjuncts.get(i), x) : null;
        if (pair != null && offsets.containsKey(pair[0]) && partitionKey.contains(pair[1].toLowerCase(Locale.ROOT))) {
          equated.computeIfAbsent(pair[0], k -> new LinkedHashSet<>()).add(pair[1].toLowerCase(Locale.ROOT));
          used.add(i);
        }
      }
      String partial = offsets.keySet().stream().filter(y -> !equated.getOrDefault(y, Set.of()).equals(partitionKey))
          .map(y -> y + " is joined on " + (equated.containsKey(y) ? String.join(", ", equated.get(y))
              : "no partition column")).findFirst().orElse(null);
      if (partial != null) {
        ctx.refuse(refused + partial + ", not on the whole partition (" + String.join(", ", ranking.partition())
            + "), so its row " + ranking.rn() + " +/- 1 need not be the neighbour in " + x + "'s partition");
        continue;
      }
      boolean[] star = {false};
      Trees.visitShallow(node.path("select_list"), n -> star[0] |= "STAR".equals(n.path("class").asText()));
      if (star[0]) {
        ctx.refuse(refused + "the block reads * (the neighbours' columns would be lost)");
        continue;
      }
      List<JsonNode> kept = new ArrayList<>();
      for (int i = 0; i < conjuncts.size(); i++) {
        if (!used.contains(i)) {
          kept.add(conjuncts.get(i));
        }
      }
      LagLeadSite site = new LagLeadSite(node, ctx, items, cte, (ObjectNode) body, x, ranking, offsets, kept);
      String what = site.inTheCte();
      if (what == null) {
        what = site.overTheCte();
      }
      if (what == null) {
        ctx.refuse(refused + "a neighbour is read as a whole row");
        continue;
      }
      return what;
    }
    return null;
  }

  /**
   * A ranking window of a CTE body: its output name, its partition as output names (null when a partition
   * expression is not an output column), its window clause ({@code OVER (...)}), and why it can tie (null when each
   * partition is numbered 1, 2, 3, ... without ties).
   */
  private record Ranking(String rn, @Nullable List<String> partition, String over, @Nullable String tie) {}

  /**
   * The rank(), dense_rank() and row_number() outputs of a CTE body. One numbers each partition without ties when
   * its partition is plain output columns and the body is grouped by exactly its partition and order expressions
   * (each (partition, order) one row), with no DISTINCT, LIMIT or grouping sets.
   */
  private List<Ranking> rankings(ObjectNode body) {
    Set<String> groups = new LinkedHashSet<>();
    body.path("group_expressions").forEach(g -> groups.add(trees.expression(g).toLowerCase(Locale.ROOT)));
    Map<String, String> outputs = new java.util.LinkedHashMap<>();
    for (JsonNode item : body.path("select_list")) {
      if ("COLUMN_REF".equals(item.path("class").asText())) {
        List<String> p = parts(item);
        String alias = item.path("alias").asText("");
        outputs.putIfAbsent(trees.expression(item).toLowerCase(Locale.ROOT), alias.isEmpty() ? p.get(p.size() - 1) : alias);
      }
    }
    List<Ranking> out = new ArrayList<>();
    for (JsonNode item : body.path("select_list")) {
      String fn = item.path("function_name").asText("").toLowerCase(Locale.ROOT);
      String alias = item.path("alias").asText("");
      if (!"WINDOW".equals(item.path("class").asText()) || alias.isEmpty()
          || !Set.of("rank", "dense_rank", "row_number").contains(fn)) {
        continue;
      }
      Set<String> keys = new LinkedHashSet<>();
      List<String> partition = new ArrayList<>();
      for (JsonNode e : item.path("partitions")) {
        String text = trees.expression(e).toLowerCase(Locale.ROOT);
        keys.add(text);
        partition.add(outputs.get(text));
      }
      for (JsonNode o : item.path("orders")) {
        keys.add(trees.expression(o.path("expression")).toLowerCase(Locale.ROOT));
      }
      String text = trees.expression(item);
      int over = text.toUpperCase(Locale.ROOT).indexOf(" OVER ");
      String tie = null;
      if (partition.isEmpty() || partition.contains(null)) {
        tie = "the numbering's partition is not a list of the CTE's output columns";
      } else if (!body.path("modifiers").isEmpty() || body.path("group_sets").size() > 1) {
        tie = "the CTE has DISTINCT, ORDER BY, LIMIT or grouping sets";
      } else if (!keys.equals(groups)) {
        tie = groups.isEmpty() ? "the CTE is not grouped, so two rows can share a partition and an order value"
            : "the CTE groups by " + String.join(", ", groups) + ", not by exactly the numbering's partition and order"
            + " (" + String.join(", ", keys) + "), so " + alias + " can tie or skip";
      } else if (over < 0) {
        tie = "its window clause could not be read";
      }
      out.add(new Ranking(alias, partition.contains(null) ? null : partition, over < 0 ? "" : text.substring(over + 1),
          tie));
    }
    return out;
  }

  /** One block's self-joins of a numbered CTE on rn +/- 1, every condition checked; builds either form. */
  private final class LagLeadSite {
    private final ObjectNode node;
    private final Context ctx;
    private final List<JsonNode> items;
    private final String cte;
    private final ObjectNode body;
    private final String x;
    private final Ranking ranking;
    private final Map<String, Integer> offsets;
    private final List<JsonNode> kept;

    LagLeadSite(ObjectNode node, Context ctx, List<JsonNode> items, String cte, ObjectNode body, String x,
        Ranking ranking, Map<String, Integer> offsets, List<JsonNode> kept) {
      this.node = node;
      this.ctx = ctx;
      this.items = items;
      this.cte = cte;
      this.body = body;
      this.x = x;
      this.ranking = ranking;
      this.offsets = offsets;
      this.kept = kept;
    }

    /** The neighbour a column reference reads ({@code y.c} with y one of the joined copies), or null. */
    private @Nullable String neighbour(List<String> ref) {
      return ref.size() == 2 ? offsets.keySet().stream().filter(k -> k.equalsIgnoreCase(ref.get(0))).findFirst()
          .orElse(null) : null;
    }

    /** A copy of the block without its WHERE, and copies of the conjuncts it keeps, each neighbour read from x. */
    private record Rewritten(ObjectNode probe, List<JsonNode> conditions) {}

    /**
     * Rewrites every column reference of the block (a copy of it and of its kept conjuncts) that reads a neighbour
     * with {@code mapping} (y, column) -> the column of x to read instead, or null when it cannot; null when some
     * reference cannot be mapped or a neighbour is read as a whole row.
     */
    private @Nullable Rewritten rewrite(java.util.function.BiFunction<String, String, String> mapping) {
      ObjectNode probe = node.deepCopy();
      probe.set("where_clause", Trees.JSON.nullNode());
      List<JsonNode> conditions = new ArrayList<>();
      kept.forEach(c -> conditions.add(c.deepCopy()));
      boolean[] ok = {true};
      java.util.function.Consumer<JsonNode> edit = tree -> Trees.visit(tree, n -> {
        if (!ok[0] || !"COLUMN_REF".equals(n.path("class").asText())) {
          return;
        }
        List<String> p = parts(n);
        String y = neighbour(p);
        if (y == null) {
          if (p.size() == 1 && offsets.keySet().stream().anyMatch(k -> k.equalsIgnoreCase(p.get(0)))) {
            ok[0] = false; // a neighbour used as a whole row
          }
          return;
        }
        String column = mapping.apply(y, p.get(1));
        if (column == null) {
          ok[0] = false;
        } else {
          Trees.setColumn((ObjectNode) n, x, column);
        }
      });
      edit.accept(probe);
      conditions.forEach(edit);
      return ok[0] ? new Rewritten(probe, conditions) : null;
    }

    /** The block's FROM without the neighbours, x read as {@code xItem}. */
    private String from(ObjectNode probe, String xItem) {
      List<String> from = new ArrayList<>();
      for (JsonNode item : Trees.fromItems(probe.path("from_table"))) {
        String name = Trees.referenceName(item);
        if (offsets.keySet().stream().noneMatch(name::equalsIgnoreCase)) {
          from.add(name.equalsIgnoreCase(x) ? xItem : trees.renderFrom(item));
        }
      }
      return String.join(", ", from);
    }

    private List<String> notNullPartition() {
      List<String> out = new ArrayList<>();
      for (String col : ranking.partition()) {
        out.add(Sql.identifier(x) + "." + Sql.identifier(col) + " IS NOT NULL");
      }
      return out;
    }

    /** Replaces the block: the rewritten copy, x read as {@code xItem}, the kept conjuncts and {@code extra}. */
    private void finish(Rewritten r, String xItem, List<String> extra) {
      List<String> where = new ArrayList<>(rendered(r.conditions()));
      where.addAll(extra);
      where.addAll(notNullPartition());
      r.probe().set("from_table", trees.parseFrom(from(r.probe(), xItem)));
      setWhere(r.probe(), where);
      replace(node, r.probe());
    }

    private String lagLead() {
      return (offsets.containsValue(-1) ? "lag" : "") + (offsets.containsValue(-1) && offsets.containsValue(1)
          ? " and " : "") + (offsets.containsValue(1) ? "lead" : "");
    }

    /** The form with lag/lead computed in the CTE over its numbering's own window; null where it does not fit. */
    @Nullable String inTheCte() {
      long reads = Trees.baseTables(ctx.statement()).stream().filter(t -> t.equalsIgnoreCase(cte)).count();
      if (reads != 1 + offsets.size()) {
        return null; // another block reads the CTE: its columns must stay as they are
      }
      Map<String, JsonNode> outputs = new java.util.HashMap<>();
      for (JsonNode item : body.path("select_list")) {
        String alias = item.path("alias").asText("");
        String name = !alias.isEmpty() ? alias
            : "COLUMN_REF".equals(item.path("class").asText()) ? parts(item).get(parts(item).size() - 1) : null;
        if (name != null) {
          outputs.putIfAbsent(name.toLowerCase(Locale.ROOT), item);
        }
      }
      Map<String, String> columns = new java.util.LinkedHashMap<>();
      List<String> windows = new ArrayList<>();
      Rewritten r = rewrite((y, c) -> {
        if (ranking.partition().stream().anyMatch(c::equalsIgnoreCase)) {
          return ranking.partition().stream().filter(c::equalsIgnoreCase).findFirst().orElseThrow();
        }
        JsonNode item = outputs.get(c.toLowerCase(Locale.ROOT));
        if (item == null || Trees.hasWindow(item) || Trees.hasSubquery(item)) {
          return null; // a window cannot hold another (the numbering itself, a windowed average)
        }
        String fn = offsets.get(y) < 0 ? "lag" : "lead";
        return columns.computeIfAbsent(fn + " " + c.toLowerCase(Locale.ROOT), k -> {
          String column = ctx.fresh("lr_" + fn + "_");
          windows.add(fn + "(" + trees.expression(item) + ") " + ranking.over() + " AS " + column);
          return column;
        });
      });
      if (r == null) {
        return null;
      }
      List<String> extra = new ArrayList<>();
      if (offsets.containsValue(-1)) {
        extra.add(Sql.identifier(x) + "." + Sql.identifier(ranking.rn()) + " > 1");
      }
      if (offsets.containsValue(1)) {
        String next = ctx.fresh("lr_next_");
        windows.add("lead(1) " + ranking.over() + " AS " + next);
        extra.add(Sql.identifier(x) + "." + next + " IS NOT NULL");
      }
      finish(r, trees.renderFrom(Trees.fromItems(node.path("from_table")).stream()
          .filter(i -> Trees.referenceName(i).equalsIgnoreCase(x)).findFirst().orElseThrow()), extra);
      // After the block is replaced: when the block defines the CTE, its copy of the body is the one that counts.
      com.fasterxml.jackson.databind.node.ArrayNode list = (com.fasterxml.jackson.databind.node.ArrayNode)
          cteEntry(ctx.statement(), cte).path("value").path("query_node").get("select_list");
      trees.node("SELECT " + String.join(", ", windows) + " FROM lakerewrite_placeholder").path("select_list")
          .forEach(list::add);
      return "the self-joins of " + cte + " on " + ranking.rn() + " +/- 1 read the neighbouring rows with "
          + lagLead() + " computed in " + cte + " over its numbering's own window (" + ranking.over() + ")";
    }

    /** The form with lag/lead over the CTE's rows ordered by the number; null where a neighbour is a whole row. */
    @Nullable String overTheCte() {
      String partition = String.join(", ", ranking.partition().stream().map(Sql::identifier).toList());
      Map<String, String> columns = new java.util.LinkedHashMap<>();
      List<String> windows = new ArrayList<>();
      Rewritten r = rewrite((y, c) -> {
        String fn = offsets.get(y) < 0 ? "lag" : "lead";
        return columns.computeIfAbsent(y.toLowerCase(Locale.ROOT) + "." + c.toLowerCase(Locale.ROOT), k -> {
          String column = ctx.fresh("lr_" + fn + "_");
          windows.add(fn + "(" + Sql.identifier(c) + ") OVER (PARTITION BY " + partition + " ORDER BY "
              + Sql.identifier(ranking.rn()) + ") AS " + column);
          return column;
        });
      });
      if (r == null) {
        return null;
      }
      String rn = Sql.identifier(x) + "." + Sql.identifier(ranking.rn());
      List<String> extra = new ArrayList<>();
      if (offsets.containsValue(-1)) {
        extra.add(rn + " > 1");
      }
      if (offsets.containsValue(1)) {
        windows.add("count(*) OVER (PARTITION BY " + partition + ") AS lr_n");
        extra.add(rn + " < " + Sql.identifier(x) + ".lr_n");
      }
      finish(r, "(SELECT *, " + String.join(", ", windows) + " FROM " + Sql.identifier(cte) + ") AS "
          + Sql.identifier(x), extra);
      return "the self-joins of " + cte + " on " + ranking.rn() + " +/- 1 read the neighbouring rows with "
          + lagLead() + " over (PARTITION BY " + partition + ")";
    }
  }

  /** {yName, -1} for {@code x.rn = y.rn + 1} (y precedes x), {yName, +1} for {@code x.rn = y.rn - 1}; else null. */
  private static Object @Nullable [] rnStep(JsonNode c, String x, String rn) {
    for (boolean flipped : new boolean[] {false, true}) {
      JsonNode plain = flipped ? c.path("right") : c.path("left");
      JsonNode shifted = flipped ? c.path("left") : c.path("right");
      if (!isColumn(plain, x, rn) || !"FUNCTION".equals(shifted.path("class").asText())) {
        continue;
      }
      String op = shifted.path("function_name").asText();
      JsonNode args = shifted.path("arguments");
      if (args.size() != 2 || !op.equals("+") && !op.equals("-")) {
        continue;
      }
      JsonNode column = args.get(0).path("expression");
      JsonNode one = args.get(1).path("expression");
      List<String> p = "COLUMN_REF".equals(column.path("class").asText()) ? parts(column) : List.of();
      if (p.size() != 2 || !p.get(1).equalsIgnoreCase(rn) || p.get(0).equalsIgnoreCase(x)
          || !"CONSTANT".equals(one.path("class").asText()) || !"1".equals(one.path("literal").path("text").asText())) {
        continue;
      }
      return new Object[] {p.get(0), op.equals("+") ? -1 : 1};
    }
    return null;
  }

  /** {yName, column} for {@code x.col = y.col} (either order, the same column); else null. */
  private static String @Nullable [] equatedColumn(JsonNode c, String x) {
    JsonNode l = c.path("left");
    JsonNode r = c.path("right");
    if (!"COLUMN_REF".equals(l.path("class").asText()) || !"COLUMN_REF".equals(r.path("class").asText())) {
      return null;
    }
    List<String> lp = parts(l);
    List<String> rp = parts(r);
    if (lp.size() != 2 || rp.size() != 2 || !lp.get(1).equalsIgnoreCase(rp.get(1))) {
      return null;
    }
    if (lp.get(0).equalsIgnoreCase(x) && !rp.get(0).equalsIgnoreCase(x)) {
      return new String[] {rp.get(0), lp.get(1)};
    }
    if (rp.get(0).equalsIgnoreCase(x) && !lp.get(0).equalsIgnoreCase(x)) {
      return new String[] {lp.get(0), rp.get(1)};
    }
    return null;
  }

  private static boolean isColumn(JsonNode e, String qualifier, String column) {
    List<String> p = "COLUMN_REF".equals(e.path("class").asText()) ? parts(e) : List.of();
    return p.size() == 2 && p.get(0).equalsIgnoreCase(qualifier) && p.get(1).equalsIgnoreCase(column);
  }

  private static boolean isItemOf(List<JsonNode> items, String name, String cte) {
    return items.stream().anyMatch(i -> "BASE_TABLE".equals(i.path("type").asText())
        && Trees.referenceName(i).equalsIgnoreCase(name) && i.path("table_name").asText().equalsIgnoreCase(cte));
  }


  // ---------------------------------------------------------------------------------------------------------
  // self-join-to-grouping

  /**
   * {@code self-join-to-grouping}: a CTE that pairs rows of one table with the same key and a different value
   * ({@code FROM t a, t b WHERE a.k = b.k AND a.c <> b.c}) and is only ever read as a set of keys (every reference
   * sits in the FROM of an {@code IN} or {@code EXISTS} subquery that reads none of its other columns) becomes a
   * grouping: {@code SELECT k FROM t WHERE k IS NOT NULL GROUP BY k HAVING min(c) < max(c)}. The keys with two
   * different non-NULL values are exactly those whose smallest value is below their largest; the self-join's row
   * count, quadratic in the rows per key, no longer matters. Linear in the size of the statement.
   */
  List<Proposal> selfJoinToGrouping(String sql, String label) {
    ObjectNode statement = trees.statement(sql);
    List<Proposal> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (ObjectNode entry : Trees.ctes(statement.get("node"))) {
      ObjectNode copy = statement.deepCopy();
      String name = entry.path("key").asText();
      ObjectNode body = cteBody(copy, name);
      String grouping = body == null ? null : groupingOfSelfJoin(body);
      if (grouping == null || !readAsKeySetOnly(copy, name, body)) {
        continue;
      }
      replace(body, trees.node(grouping));
      add(out, seen, new Proposal(CandidateSource.RULE, label, "the self-join CTE " + name + " is only read as a set"
          + " of keys: one grouping with HAVING min(..) < max(..) instead", trees.render(copy)));
    }
    return out;
  }

  /** The grouping that yields the keys of a {@code t a, t b, a.k = b.k, a.c <> b.c} self-join; null for others. */
  private @Nullable String groupingOfSelfJoin(ObjectNode body) {
    if (!isSelect(body) || !body.path("modifiers").isEmpty() || !body.path("group_expressions").isEmpty()
        || !body.path("having").isNull() || !body.path("qualify").isNull()
        || !body.path("cte_map").path("map").isEmpty() || Trees.hasSubquery(body.path("select_list"))) {
      return null;
    }
    List<JsonNode> from = Trees.fromItems(body.path("from_table"));
    if (from.size() != 2 || !"BASE_TABLE".equals(from.get(0).path("type").asText())
        || !"BASE_TABLE".equals(from.get(1).path("type").asText())
        || !from.get(0).path("table_name").asText().equalsIgnoreCase(from.get(1).path("table_name").asText())
        || "JOIN".equals(body.path("from_table").path("type").asText())
        && body.path("from_table").path("condition").isObject()) {
      return null;
    }
    String a = Trees.referenceName(from.get(0)).toLowerCase(Locale.ROOT);
    String b = Trees.referenceName(from.get(1)).toLowerCase(Locale.ROOT);
    if (a.equals(b)) {
      return null;
    }
    List<String> keys = new ArrayList<>();
    String differing = null;
    for (JsonNode c : Trees.conjuncts(body.get("where_clause"))) {
      String type = c.path("type").asText();
      String[] columns = pairedColumns(c, a, b);
      if (columns == null) {
        return null;
      }
      if (type.equals("COMPARE_EQUAL")) {
        keys.add(columns[0]);
      } else if (type.equals("COMPARE_NOTEQUAL") && differing == null) {
        differing = columns[0];
      } else {
        return null;
      }
    }
    if (keys.isEmpty() || differing == null) {
      return null;
    }
    List<String> items = new ArrayList<>();
    for (JsonNode item : body.path("select_list")) {
      List<String> p = "COLUMN_REF".equals(item.path("class").asText()) ? parts(item) : List.of();
      if (p.size() != 2) {
        return null;
      }
      String column = p.get(1);
      if (!keys.contains(column.toLowerCase(Locale.ROOT))) {
        continue; // a non-key column: the references may not read it (checked by the caller)
      }
      String output = item.path("alias").asText("").isEmpty() ? column : item.path("alias").asText();
      items.add(Sql.identifier(column) + " AS " + Sql.identifier(output));
    }
    if (items.isEmpty()) {
      return null;
    }
    String table = Sql.identifier(from.get(0).path("table_name").asText());
    List<String> notNull = keys.stream().map(k -> Sql.identifier(k) + " IS NOT NULL").toList();
    return "SELECT " + String.join(", ", items) + " FROM " + table + " WHERE " + String.join(" AND ", notNull)
        + " GROUP BY " + String.join(", ", keys.stream().map(Sql::identifier).toList()) + " HAVING min("
        + Sql.identifier(differing) + ") < max(" + Sql.identifier(differing) + ")";
  }

  /** The lower-cased column name of {@code a.col op b.col} (either order), or null. */
  private static String @Nullable [] pairedColumns(JsonNode comparison, String a, String b) {
    JsonNode l = comparison.path("left");
    JsonNode r = comparison.path("right");
    if (!"COMPARISON".equals(comparison.path("class").asText()) || !"COLUMN_REF".equals(l.path("class").asText())
        || !"COLUMN_REF".equals(r.path("class").asText())) {
      return null;
    }
    List<String> lp = parts(l);
    List<String> rp = parts(r);
    if (lp.size() != 2 || rp.size() != 2 || !lp.get(1).equalsIgnoreCase(rp.get(1))) {
      return null;
    }
    Set<String> qualifiers = Set.of(lp.get(0).toLowerCase(Locale.ROOT), rp.get(0).toLowerCase(Locale.ROOT));
    return qualifiers.equals(Set.of(a, b)) ? new String[] {lp.get(1).toLowerCase(Locale.ROOT)} : null;
  }

  /**
   * Whether every reference to the CTE is a FROM item of an IN or EXISTS subquery's own block (where only the set
   * of its rows matters: no aggregate, grouping, DISTINCT, window or LIMIT) that names none of the CTE's non-key
   * output columns and does not select *.
   */
  private boolean readAsKeySetOnly(ObjectNode statement, String cte, ObjectNode body) {
    java.util.Set<JsonNode> setSubqueries = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    Trees.visit(statement, n -> {
      String type = n.path("subquery_type").asText();
      if ("SUBQUERY".equals(n.path("class").asText()) && (type.equals("ANY") || type.equals("EXISTS"))) {
        setSubqueries.add(n.path("subquery").path("node"));
      }
    });
    Set<String> nonKeyOutputs = new LinkedHashSet<>();
    for (JsonNode item : body.path("select_list")) {
      String alias = item.path("alias").asText("");
      List<String> p = parts(item);
      String output = (alias.isEmpty() ? p.get(p.size() - 1) : alias).toLowerCase(Locale.ROOT);
      if (!isKeyOutput(body, output)) {
        nonKeyOutputs.add(output);
      }
    }
    int[] found = {0};
    boolean[] ok = {true};
    Trees.selectNodes(statement, select -> {
      boolean reads = Trees.fromItems(select.path("from_table")).stream().anyMatch(i ->
          "BASE_TABLE".equals(i.path("type").asText()) && i.path("table_name").asText().equalsIgnoreCase(cte));
      if (!reads || select == body) {
        return;
      }
      found[0]++;
      boolean plain = setSubqueries.contains(select) && select.path("modifiers").isEmpty()
          && select.path("group_expressions").isEmpty() && select.path("having").isNull()
          && select.path("qualify").isNull() && !Trees.hasAggregate(select.path("select_list"))
          && !Trees.hasWindow(select.path("select_list"))
          && select.path("select_list").findValues("class").stream().noneMatch(c -> c.asText().equals("STAR"));
      if (!plain) {
        ok[0] = false;
        return;
      }
      for (List<String> ref : Trees.columnRefs(select)) {
        if (nonKeyOutputs.contains(ref.get(ref.size() - 1).toLowerCase(Locale.ROOT))) {
          ok[0] = false;
        }
      }
    });
    long references = Trees.baseTables(statement).stream().filter(t -> t.equalsIgnoreCase(cte)).count();
    return ok[0] && found[0] > 0 && found[0] == references;
  }

  /** Whether the output column of this self-join body is one of its key columns. */
  private static boolean isKeyOutput(ObjectNode body, String output) {
    Set<String> keys = new LinkedHashSet<>();
    for (JsonNode c : Trees.conjuncts(body.get("where_clause"))) {
      if ("COMPARE_EQUAL".equals(c.path("type").asText())) {
        List<String> p = parts(c.path("left"));
        keys.add(p.get(p.size() - 1).toLowerCase(Locale.ROOT));
      }
    }
    for (JsonNode item : body.path("select_list")) {
      List<String> p = parts(item);
      String alias = item.path("alias").asText("");
      String name = (alias.isEmpty() ? p.get(p.size() - 1) : alias).toLowerCase(Locale.ROOT);
      if (name.equals(output)) {
        return keys.contains(p.get(p.size() - 1).toLowerCase(Locale.ROOT));
      }
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------------------------
  // CTE materialisation hints

  /**
   * The CTE materialisation hints (QUITE's NOT_MATERIALIZE and its opposite): {@code MATERIALIZED} on the CTEs
   * referenced more than once (all together, then each alone), {@code NOT MATERIALIZED} on every CTE.
   */
  List<Proposal> cteHint(String sql, String label, String hint) {
    ObjectNode statement = trees.statement(sql);
    List<Proposal> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    List<ObjectNode> ctes = Trees.ctes(statement.get("node"));
    if (ctes.isEmpty()) {
      return out;
    }
    Map<String, Integer> refs = cteReferenceCounts(statement);
    if (hint.equals("MATERIALIZED")) {
      List<String> shared = ctes.stream().map(e -> e.path("key").asText())
          .filter(n -> refs.getOrDefault(n.toLowerCase(Locale.ROOT), 0) > 1).toList();
      if (!shared.isEmpty()) {
        add(out, seen, new Proposal(CandidateSource.HINT, label, "MATERIALIZED on the CTE(s) referenced"
            + " more than once (" + String.join(", ", shared) + "): computed once, not re-evaluated per reference",
            withHint(statement, shared, "CTE_MATERIALIZE_ALWAYS")));
      }
      if (shared.size() > 1) {
        for (String one : shared) {
          add(out, seen, new Proposal(CandidateSource.HINT, label, "MATERIALIZED on " + one,
              withHint(statement, List.of(one), "CTE_MATERIALIZE_ALWAYS")));
        }
      }
    } else {
      List<String> all = ctes.stream().map(e -> e.path("key").asText()).toList();
      add(out, seen, new Proposal(CandidateSource.HINT, label, "NOT MATERIALIZED on every CTE ("
          + String.join(", ", all) + "): inlined, so filters and joins can be pushed into them",
          withHint(statement, all, "CTE_MATERIALIZE_NEVER")));
    }
    return out;
  }

  private String withHint(ObjectNode statement, List<String> names, String hint) {
    ObjectNode copy = statement.deepCopy();
    for (ObjectNode e : Trees.ctes(copy.get("node"))) {
      if (names.stream().anyMatch(n -> n.equalsIgnoreCase(e.path("key").asText()))) {
        ((ObjectNode) e.get("value")).put("materialized", hint);
      }
    }
    return trees.render(copy);
  }

  /**
   * The OR of the conditions under which some read needs a row: {@code false} when no read needs any, null when one
   * needs every row ({@code true} among them: nothing can be filtered).
   */
  private static @Nullable String anyOf(Set<String> alternatives) {
    if (alternatives.isEmpty()) {
      return "false";
    }
    if (alternatives.contains("true")) {
      return null;
    }
    return alternatives.size() == 1 ? alternatives.iterator().next()
        : "(" + String.join(") OR (", alternatives) + ")";
  }

}
