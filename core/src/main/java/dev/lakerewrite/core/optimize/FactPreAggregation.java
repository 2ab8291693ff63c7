package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code pre-aggregate-fact-table}: a grouped block that joins its largest table (the fact table) to others by
 * commas or inner joins (their ON conditions count as WHERE conditions) aggregates the fact table first, grouped
 * by every fact column the rest of the block reads (its join keys, its grouping columns, the columns of conditions
 * across tables), and joins the partial aggregates instead of the rows (eager aggregation, Yan and Larson, "Eager
 * Aggregation and Lazy Aggregation", VLDB 1995). Every row of a partial group joins the same rows of the other
 * tables, so each aggregate combines from its partials: sum of sums, sum of counts, min of mins, max of maxes, an average as the sum of sums over the sum of counts. An
 * aggregate whose argument also reads other tables is pre-aggregated only as a {@code CASE} whose conditions read
 * no fact column but the grouped ones and whose results are fact expressions, {@code NULL} (or {@code 0} in a sum):
 * within a partial group the condition has one value, so {@code sum(CASE WHEN c THEN x END)} is
 * {@code sum(CASE WHEN c THEN sum(x) END)}. Conditions on the fact table alone go inside, and a table joined to it
 * by an equality and filtered (to at most {@link #MAX_SEMI_JOIN_SELECTIVITY} of its rows, estimated from the
 * column statistics) is repeated inside as {@code key IN (SELECT ... WHERE its filters)} (a semi-join that keeps
 * the partial aggregation to the rows the join keeps).
 *
 * <p>Proposed only when the engine's statistics say the grouped fact columns have at least
 * {@link #MIN_ROWS_PER_GROUP} times fewer value combinations (the product of their distinct counts) than the table
 * has rows: only then are the joins above it fed fewer rows. Without statistics (PostgreSQL) it is not
 * proposed. Linear in the size of the block.
 */
final class FactPreAggregation {
  /** The partial groups must be at least this many times fewer than the fact table's rows. */
  static final long MIN_ROWS_PER_GROUP = 20;
  /**
   * A filtered table is repeated inside as a semi-join only when its filters keep at most this share of its rows
   * (estimated from the statistics): a weak filter costs a probe per fact row and saves little.
   */
  static final double MAX_SEMI_JOIN_SELECTIVITY = 1.0 / 3;

  private static final Set<String> AGGREGATES = Set.of("sum", "count", "count_star", "min", "max", "avg");

  private FactPreAggregation() {}

  static @Nullable String apply(RuleProposer rules, ObjectNode node, RuleProposer.Context ctx) {
    Trees trees = ctx.trees();
    if (!"SELECT_NODE".equals(node.path("type").asText()) || node.path("group_expressions").isEmpty()
        || node.path("group_sets").size() != 1
        || !"STANDARD_HANDLING".equals(node.path("aggregate_handling").asText("STANDARD_HANDLING"))
        || !Trees.innerJoinsOnly(node.path("from_table"))) {
      return null;
    }
    for (String clause : List.of("select_list", "where_clause", "group_expressions", "having", "qualify")) {
      if (Trees.hasSubquery(node.path(clause))) {
        return null;
      }
    }
    // The conditions of inner joins are conditions of the WHERE clause like any other.
    List<JsonNode> conjuncts = new ArrayList<>(Trees.conjuncts(node.get("where_clause")));
    List<ObjectNode> joins = new ArrayList<>();
    Trees.visitShallow(node.path("from_table"), n -> {
      if ("JOIN".equals(n.path("type").asText())) {
        joins.add((ObjectNode) n);
        conjuncts.addAll(Trees.conjuncts(n.get("condition")));
      }
    });
    if (conjuncts.stream().anyMatch(Trees::hasSubquery)) {
      return null;
    }
    Scope scope = ctx.scope(node);
    List<Scope.Item> items = scope.items();
    if (items.size() < 2) {
      return null;
    }
    // The fact table: the largest base table (a CTE reference is not one).
    Scope.Item fact = null;
    Catalog.Table factTable = null;
    for (Scope.Item item : items) {
      if (item.columns() == null) {
        return null;
      }
      String name = item.node().path("table_name").asText().toLowerCase(Locale.ROOT);
      if (!"BASE_TABLE".equals(item.node().path("type").asText()) || ctx.cteColumns().containsKey(name)) {
        continue;
      }
      Optional<Catalog.Table> t = ctx.catalog().table(name);
      if (t.isPresent() && (factTable == null || t.get().estimatedRows() > factTable.estimatedRows())) {
        fact = item;
        factTable = t.get();
      }
    }
    if (fact == null) {
      return null;
    }
    // Conditions on the fact table alone are applied inside.
    List<String> inside = new ArrayList<>();
    List<JsonNode> outside = new ArrayList<>();
    for (JsonNode c : conjuncts) {
      List<Scope.Item> owners = scope.owners(c);
      if (owners == null) {
        return null;
      }
      if (owners.size() == 1 && owners.get(0) == fact && !Trees.hasAggregate(c)) {
        inside.add(trees.expression(c));
      } else {
        outside.add(c);
      }
    }
    // Every aggregate call of the block (windows over them included) must combine from partials.
    List<ObjectNode> aggregates = new ArrayList<>();
    for (String clause : List.of("select_list", "having", "qualify", "modifiers")) {
      if (!collectAggregates(node.get(clause), aggregates)) {
        return null;
      }
    }
    if (aggregates.isEmpty()) {
      return null;
    }
    Map<JsonNode, Boolean> partialSites = new IdentityHashMap<>();
    List<Plan> plans = new ArrayList<>();
    for (ObjectNode a : aggregates) {
      Plan p = plan(a, scope, fact);
      if (p == null) {
        return null;
      }
      plans.add(p);
      p.sites().forEach(s -> partialSites.put(s, true));
      if (p.argument() != null && p.sites().isEmpty()) {
        partialSites.put(p.argument(), true);
      }
    }
    // Every other reference to the fact table reads a column it is grouped by.
    Set<String> keys = new LinkedHashSet<>();
    List<JsonNode> rest = new ArrayList<>(outside);
    for (String clause : List.of("select_list", "group_expressions", "having", "qualify", "modifiers")) {
      rest.add(node.get(clause));
    }
    for (JsonNode r : rest) {
      if (!collectKeys(r, scope, fact, partialSites, keys)) {
        return null;
      }
    }
    if (keys.isEmpty()) {
      return null;
    }
    long combinations = 1;
    for (String k : keys) {
      OptionalLong d = ctx.catalog().distinctValues(factTable.name(), k);
      if (d.isEmpty()) {
        return null;
      }
      combinations = Math.multiplyExact(combinations, Math.max(1, d.getAsLong()));
      if (combinations > factTable.estimatedRows() / MIN_ROWS_PER_GROUP) {
        return null;
      }
    }
    // Tables joined to the fact table by an equality and filtered: the same filter inside, as a semi-join.
    for (JsonNode c : outside) {
      String semi = semiJoin(c, conjuncts, scope, fact, trees, ctx.catalog());
      if (semi != null) {
        inside.add(semi);
      }
    }
    String ref = fact.name();
    StringBuilder derived = new StringBuilder("SELECT ");
    for (String k : keys) {
      derived.append(Sql.identifier(ref)).append('.').append(Sql.identifier(k)).append(" AS ")
          .append(Sql.identifier(k)).append(", ");
    }
    Map<String, String> partials = new LinkedHashMap<>();
    List<String> combined = new ArrayList<>();
    for (Plan p : plans) {
      combined.add(p.combine(trees, partials, ref, ctx));
    }
    partials.forEach((text, name) -> derived.append(text).append(" AS ").append(name).append(", "));
    derived.setLength(derived.length() - 2);
    derived.append(" FROM ").append(trees.renderFrom(fact.node()));
    if (!inside.isEmpty()) {
      derived.append(" WHERE ").append(Trees.and(inside));
    }
    derived.append(" GROUP BY ").append(String.join(", ", keys.stream().map(k -> Sql.identifier(ref) + "."
        + Sql.identifier(k)).toList()));
    for (int i = 0; i < plans.size(); i++) {
      ObjectNode a = plans.get(i).call();
      String alias = a.path("alias").asText("");
      Trees.replace(a, trees.parseExpression(combined.get(i)));
      a.put("alias", alias);
    }
    ObjectNode item = (ObjectNode) fact.node();
    Trees.replace(item, trees.parseFrom("(" + derived + ") AS " + Sql.identifier(ref)));
    item.put("alias", ref);
    List<String> where = new ArrayList<>();
    outside.forEach(c -> where.add(trees.expression(c)));
    for (ObjectNode j : joins) {
      j.putNull("condition");
      j.put("ref_type", "CROSS");
    }
    if (where.isEmpty()) {
      node.putNull("where_clause");
    } else {
      node.set("where_clause", trees.parseExpression(Trees.and(where)));
    }
    return aggregates.size() + " aggregate(s) over " + factTable.name() + " computed first per ("
        + String.join(", ", keys) + "), at most " + combinations + " groups for its " + factTable.estimatedRows()
        + " rows, then joined";
  }

  /**
   * How one aggregate call is pre-aggregated: over its whole argument ({@code sites} empty), or over the fact
   * expressions in the results of its CASE argument ({@code sites}).
   */
  private record Plan(ObjectNode call, String function, @Nullable JsonNode argument, List<JsonNode> sites) {
    String combine(Trees trees, Map<String, String> partials, String ref, RuleProposer.Context ctx) {
      String q = Sql.identifier(ref) + ".";
      if (argument == null) {
        return "CAST(coalesce(sum(" + q + partial(partials, "count(*)", ctx) + "), 0) AS BIGINT)";
      }
      if (sites.isEmpty()) {
        String arg = trees.expression(argument);
        String distinct = call.path("distinct").asBoolean(false) ? "DISTINCT " : "";
        return switch (function) {
          case "count" -> "CAST(coalesce(sum(" + q + partial(partials, "count(" + arg + ")", ctx) + "), 0) AS BIGINT)";
          case "avg" -> "sum(" + q + partial(partials, "sum(" + arg + ")", ctx) + ") / sum("
              + q + partial(partials, "count(" + arg + ")", ctx) + ")";
          default -> function + "(" + q + partial(partials, function + "(" + distinct + arg + ")", ctx) + ")";
        };
      }
      // A CASE: each fact result is replaced by its partial aggregate.
      ObjectNode copy = argument.deepCopy();
      List<JsonNode> copies = new ArrayList<>();
      collectSites(argument, copy, sites, copies);
      String outer = function.equals("count") ? "sum" : function;
      for (JsonNode site : copies) {
        String inner = function + "(" + trees.expression(site) + ")";
        Trees.replace((ObjectNode) site, trees.parseExpression(q + partial(partials, inner, ctx)));
      }
      String text = outer + "(" + trees.expression(copy) + ")";
      return function.equals("count") ? "CAST(coalesce(" + text + ", 0) AS BIGINT)" : text;
    }
  }

  /** The nodes of {@code copy} at the positions of {@code sites} in {@code original}. */
  private static void collectSites(JsonNode original, JsonNode copy, List<JsonNode> sites, List<JsonNode> out) {
    for (JsonNode s : sites) {
      if (s == original) {
        out.add(copy);
        return;
      }
    }
    if (original.isObject()) {
      original.fieldNames().forEachRemaining(f -> collectSites(original.get(f), copy.get(f), sites, out));
    } else if (original.isArray()) {
      for (int i = 0; i < original.size(); i++) {
        collectSites(original.get(i), copy.get(i), sites, out);
      }
    }
  }

  private static String partial(Map<String, String> partials, String text, RuleProposer.Context ctx) {
    return partials.computeIfAbsent(text, t -> ctx.fresh("lr_pa"));
  }

  /** The aggregate calls of a clause (inside window functions too); false for one that does not combine. */
  private static boolean collectAggregates(@Nullable JsonNode e, List<ObjectNode> out) {
    if (e == null || !e.isContainerNode()) {
      return true;
    }
    if (e.isObject() && "FUNCTION".equals(e.path("class").asText())
        && SqlAnalyzer.isAggregate(e.path("function_name").asText())) {
      out.add((ObjectNode) e);
      return !Trees.hasAggregate(argumentsOf(e));
    }
    for (JsonNode child : e) {
      if (!collectAggregates(child, out)) {
        return false;
      }
    }
    return true;
  }

  private static JsonNode argumentsOf(JsonNode call) {
    return call.path("arguments").isArray() && !call.path("arguments").isEmpty() ? call.path("arguments")
        : call.path("children");
  }

  private static @Nullable JsonNode soleArgument(JsonNode call) {
    JsonNode args = argumentsOf(call);
    if (args.size() != 1) {
      return null;
    }
    JsonNode a = args.get(0);
    return a.has("expression") ? a.get("expression") : a;
  }

  /** How an aggregate call combines from partials; null when it does not. */
  private static @Nullable Plan plan(ObjectNode call, Scope scope, Scope.Item fact) {
    String fn = call.path("function_name").asText().toLowerCase(Locale.ROOT);
    boolean distinct = call.path("distinct").asBoolean(false);
    if (!AGGREGATES.contains(fn) || call.path("filter").isObject()
        || !call.path("order_bys").path("orders").isEmpty() || distinct && !fn.equals("min") && !fn.equals("max")) {
      return null;
    }
    if (fn.equals("count_star")) {
      return argumentsOf(call).isEmpty() ? new Plan(call, fn, null, List.of()) : null;
    }
    JsonNode arg = soleArgument(call);
    if (arg == null) {
      return null;
    }
    List<Scope.Item> owners = scope.owners(arg);
    if (owners == null) {
      return null;
    }
    if (owners.size() == 1 && owners.get(0) == fact && !Trees.hasAggregate(arg) && !Trees.hasWindow(arg)) {
      return new Plan(call, fn, arg, List.of());
    }
    // A CASE whose results are fact expressions or NULL (or 0 in a sum).
    if (!"CASE".equals(arg.path("class").asText()) || fn.equals("avg") || distinct) {
      return null;
    }
    List<JsonNode> results = new ArrayList<>();
    arg.path("case_checks").forEach(c -> results.add(c.path("then_expr")));
    results.add(arg.path("else_expr"));
    List<JsonNode> sites = new ArrayList<>();
    for (JsonNode r : results) {
      if (r.isMissingNode() || r.isNull() || isNullLiteral(r) || fn.equals("sum") && isZero(r)) {
        continue;
      }
      List<Scope.Item> ro = scope.owners(r);
      if (ro == null || ro.size() != 1 || ro.get(0) != fact || Trees.hasAggregate(r) || Trees.hasWindow(r)) {
        return null;
      }
      sites.add(r);
    }
    if (sites.isEmpty()) {
      return null;
    }
    return new Plan(call, fn, arg, sites);
  }

  private static boolean isNullLiteral(JsonNode e) {
    return "CONSTANT".equals(e.path("class").asText()) && "NULL_LITERAL".equals(e.path("literal").path("kind").asText());
  }

  private static boolean isZero(JsonNode e) {
    return "CONSTANT".equals(e.path("class").asText()) && "INTEGER".equals(e.path("literal").path("kind").asText())
        && "0".equals(e.path("literal").path("text").asText());
  }

  /**
   * Adds the fact columns an expression reads outside the partial aggregates (the keys); false when a column
   * cannot be resolved.
   */
  private static boolean collectKeys(@Nullable JsonNode e, Scope scope, Scope.Item fact,
      Map<JsonNode, Boolean> partialSites, Set<String> keys) {
    if (e == null || !e.isContainerNode() || partialSites.containsKey(e)) {
      return true;
    }
    if (e.isObject() && "COLUMN_REF".equals(e.path("class").asText())) {
      List<String> parts = Trees.columnNames(e);
      Scope.Resolution r = scope.resolve(parts);
      if (r.kind() != Scope.Kind.LOCAL) {
        // An output alias in ORDER BY is no fact column; anything else unresolved stops the rewrite.
        return parts.size() == 1;
      }
      if (r.item() == fact) {
        String name = parts.get(parts.size() - 1);
        for (String c : fact.columns()) {
          if (c.equalsIgnoreCase(name)) {
            keys.add(c);
            return true;
          }
        }
        return false;
      }
      return true;
    }
    if (e.isObject() && ("SUBQUERY".equals(e.path("class").asText()))) {
      return false;
    }
    for (JsonNode child : e) {
      if (!collectKeys(child, scope, fact, partialSites, keys)) {
        return false;
      }
    }
    return true;
  }

  /**
   * For {@code fact.k = other.c} where {@code other} is a base table the block also filters by conditions of its
   * own: {@code fact.k IN (SELECT other.c FROM other WHERE those conditions)}; else null.
   */
  private static @Nullable String semiJoin(JsonNode c, List<JsonNode> conjuncts, Scope scope, Scope.Item fact,
      Trees trees, Catalog catalog) {
    if (!"COMPARE_EQUAL".equals(c.path("type").asText()) || !"COLUMN_REF".equals(c.path("left").path("class").asText())
        || !"COLUMN_REF".equals(c.path("right").path("class").asText())) {
      return null;
    }
    Scope.Resolution l = scope.resolve(Trees.columnNames(c.path("left")));
    Scope.Resolution r = scope.resolve(Trees.columnNames(c.path("right")));
    if (l.item() == null || r.item() == null) {
      return null;
    }
    JsonNode factSide;
    JsonNode otherSide;
    Scope.Item other;
    if (l.item() == fact && r.item() != fact) {
      factSide = c.path("left");
      otherSide = c.path("right");
      other = r.item();
    } else if (r.item() == fact && l.item() != fact) {
      factSide = c.path("right");
      otherSide = c.path("left");
      other = l.item();
    } else {
      return null;
    }
    if (!"BASE_TABLE".equals(other.node().path("type").asText())) {
      return null;
    }
    List<String> filters = new ArrayList<>();
    double selectivity = 1;
    String table = other.node().path("table_name").asText();
    for (JsonNode w : conjuncts) {
      List<Scope.Item> owners = scope.owners(w);
      if (owners != null && owners.size() == 1 && owners.get(0) == other && !Trees.hasAggregate(w)) {
        filters.add(trees.expression(w));
        selectivity *= selectivity(w, table, catalog);
      }
    }
    if (filters.isEmpty() || selectivity > MAX_SEMI_JOIN_SELECTIVITY) {
      return null;
    }
    return Sql.identifier(fact.name()) + "." + Sql.identifier(Trees.columnName(factSide)) + " IN (SELECT "
        + qualified(other, otherSide) + " FROM " + trees.renderFrom(other.node()) + " WHERE " + Trees.and(filters)
        + ")";
  }

  /**
   * The share of a table's rows a condition on its columns keeps, from the column statistics: 1 / distinct values
   * for an equality with a constant, k / distinct values for an IN list of k constants, the covered share of the
   * column's range for BETWEEN and comparisons with constants; 1 (no estimate) otherwise.
   */
  static double selectivity(JsonNode c, String table, Catalog catalog) {
    String type = c.path("type").asText();
    String cls = c.path("class").asText();
    JsonNode column = null;
    Double lo = null;
    Double hi = null;
    double share = 1;
    if (cls.equals("COMPARISON") && "COLUMN_REF".equals(c.path("left").path("class").asText())
        || cls.equals("COMPARISON") && "COLUMN_REF".equals(c.path("right").path("class").asText())) {
      boolean left = "COLUMN_REF".equals(c.path("left").path("class").asText());
      column = left ? c.path("left") : c.path("right");
      Double v = constant(left ? c.path("right") : c.path("left"));
      if (v == null) {
        return 1;
      }
      String op = left ? type : switch (type) {
        case "COMPARE_LESSTHAN" -> "COMPARE_GREATERTHAN";
        case "COMPARE_GREATERTHAN" -> "COMPARE_LESSTHAN";
        case "COMPARE_LESSTHANOREQUALTO" -> "COMPARE_GREATERTHANOREQUALTO";
        case "COMPARE_GREATERTHANOREQUALTO" -> "COMPARE_LESSTHANOREQUALTO";
        default -> type;
      };
      switch (op) {
        case "COMPARE_EQUAL" -> {
          OptionalLong d = catalog.distinctValues(table, Trees.columnName(column));
          return d.isPresent() ? 1.0 / Math.max(1, d.getAsLong()) : 1;
        }
        case "COMPARE_LESSTHAN", "COMPARE_LESSTHANOREQUALTO" -> hi = v;
        case "COMPARE_GREATERTHAN", "COMPARE_GREATERTHANOREQUALTO" -> lo = v;
        default -> {
          return 1;
        }
      }
    } else if (cls.equals("BETWEEN") && "COLUMN_REF".equals(c.path("input").path("class").asText())) {
      column = c.path("input");
      lo = constant(c.path("lower"));
      hi = constant(c.path("upper"));
      if (lo == null || hi == null) {
        return 1;
      }
    } else if (type.equals("COMPARE_IN") && "COLUMN_REF".equals(c.path("children").path(0).path("class").asText())) {
      int k = c.path("children").size() - 1;
      for (int i = 1; i <= k; i++) {
        if (SqlAnalyzer.literal(c.path("children").get(i)) == null) {
          return 1;
        }
      }
      OptionalLong d = catalog.distinctValues(table, Trees.columnName(c.path("children").get(0)));
      return d.isPresent() ? Math.min(1, (double) k / Math.max(1, d.getAsLong())) : 1;
    } else {
      return 1;
    }
    Optional<double[]> range = catalog.numericRange(table, Trees.columnName(column));
    if (range.isEmpty() || range.get()[1] < range.get()[0]) {
      return 1;
    }
    double min = range.get()[0];
    double max = range.get()[1];
    double from = lo == null ? min : Math.max(min, lo);
    double to = hi == null ? max : Math.min(max, hi);
    share = (to - from + 1) / (max - min + 1);
    return Math.max(0, Math.min(1, share));
  }

  /** The value of a numeric constant, or of +, -, * over such constants (1200 + 11); null otherwise. */
  private static @Nullable Double constant(JsonNode e) {
    String[] lit = SqlAnalyzer.literal(e);
    if (lit != null) {
      try {
        return lit[1] == null ? null : Double.valueOf(lit[1]);
      } catch (NumberFormatException x) {
        return null;
      }
    }
    if ("FUNCTION".equals(e.path("class").asText())) {
      List<JsonNode> args = SqlAnalyzer.arguments(e);
      String fn = e.path("function_name").asText();
      if (args.size() == 1 && fn.equals("-")) {
        Double v = constant(args.get(0));
        return v == null ? null : -v;
      }
      if (args.size() == 2) {
        Double a = constant(args.get(0));
        Double b = constant(args.get(1));
        if (a == null || b == null) {
          return null;
        }
        return switch (fn) {
          case "+" -> a + b;
          case "-" -> a - b;
          case "*" -> a * b;
          default -> null;
        };
      }
    }
    return null;
  }

  private static String qualified(Scope.Item item, JsonNode column) {
    return Sql.identifier(item.name()) + "." + Sql.identifier(Trees.columnName(column));
  }

}
