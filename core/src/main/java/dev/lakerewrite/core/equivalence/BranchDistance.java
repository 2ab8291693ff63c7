package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Instances on which a comparison only one query has is evaluated exactly on its boundary, found with the engine
 * measuring the comparison's <i>branch distance</i> where it is evaluated: wherever the comparison sits — a WHERE or
 * HAVING clause, a CASE in the select list, an aggregate's argument, a join's ON, inside a CTE, a derived table or
 * an uncorrelated subquery — and whatever its sides compute — aggregates, CTE outputs, window values, scalar
 * subqueries. A boundary made strict ({@code <} for {@code <=}) changes the answer only on a row or group whose two
 * sides are equal, and a constant moved by one only on the values between; instances built column by column, or
 * by moving cells until the results' row counts change ({@link ThresholdSearch}), miss such rows wherever the
 * comparison's outcome does not change a row count (a CASE's branch, a comparison inside a scalar subquery) or its
 * sides are not one row's cells ({@link Boundaries}).
 *
 * <p>For each comparison {@code L op R} (each bound of a {@code BETWEEN}) among the {@linkplain
 * MutationSearch#differingExpressions expressions one query has and the other lacks}, a <i>probe</i> query is cut from
 * the query: its block, with the statement's CTEs, selecting {@code CAST((L) - (R) AS DOUBLE)} (days between dates)
 * over the rows or groups at which the comparison decides its clause — the clause with the comparison made TRUE
 * IS DISTINCT FROM the clause with it made FALSE (the row- or group-level evaluation, without the grouping, where the
 * comparison filters rows or sits inside an aggregate's argument). On a starting instance, one numeric or date cell
 * of a column the comparison's sides read (through CTE and derived-table outputs, by name) is moved; the distances
 * that changed give a secant step to the value where one of them is zero (exact for the sums, averages and
 * products of one cell; iterated for ratios), rounded to the column's unit, and that instance and one unit either
 * side are run through both queries. This is the alternating variable method of search-based test generation on
 * the branch distance (Korel, "Automated software test data generation", IEEE TSE 1990; McMinn, "Search-based
 * software test data generation: a survey", STVR 2004), applied to SQL as EvoSQL does (Castelein, Aniche, Soltani,
 * Panichella and van Deursen, ICSE 2018), with the engine itself as the distance's interpreter, and aimed, like
 * XData's mutation-killing datasets (Chandra et al., VLDB J. 2015), at the one comparison a mutant changed.
 *
 * <p>Two more steps of that method make a row on the boundary tell the queries apart. <b>Reaching</b> (the approach
 * level): where no row of a starting instance reaches the comparison, cells the comparison's block reads are moved
 * far out or in, one at a time, each move kept where the queries' results and CTEs gain rows, until the probe
 * returns a distance ({@code reach}). <b>Unmasking</b>: with one evaluation on the boundary, the comparison's other
 * evaluations are moved, by one large move of another cell each, to the side where the comparison holds, the
 * boundary kept ({@code Solver.unmasked}): a row on the boundary reaches the answer only through a join with another
 * group that passes the same comparison (TPC-DS q39's two months of one item).
 *
 * <p>Cost: per check at most {@value #MAX_SITES} comparisons, {@value #MAX_SEEDS} starting instances each, {@value
 * #MAX_CELLS} cells per instance, {@value #MAX_EVALUATIONS} probe evaluations (one instance loaded and one probe
 * run each), {@code maxTrials} instances run through both queries and {@value #MAX_REACH_RUNS} more while reaching;
 * no probe is cut where the comparison's block reads an outer query's columns (it would not bind alone).
 */
final class BranchDistance {
  /** Comparisons probed per check at most. */
  static final int MAX_SITES = 4;
  /** Starting instances per comparison at most (those on which its probe returns a distance). */
  static final int MAX_SEEDS = 4;
  /** Cells moved per starting instance at most. */
  static final int MAX_CELLS = 8;
  /** Starting instances per comparison whose probe returns nothing that moves of cells are to make reach it. */
  static final int MAX_REACHED = 2;
  /** Runs of both queries per check that tell whether a move towards a comparison gave more rows, at most. */
  static final int MAX_REACH_RUNS = 12;
  /** Cells of one starting instance put on the boundary at most (then the next instance). */
  static final int MAX_SOLVED = 2;
  /** Probe evaluations per check at most. */
  static final int MAX_EVALUATIONS = 120;
  /** Instances run through both queries per check at most. */
  static final int MAX_TRIALS = 24;
  /** A distance at most this far from zero is on the boundary. */
  private static final double ZERO = 1e-9;
  /** Secant steps per changed distance at most. */
  private static final int MAX_STEPS = 4;

  private BranchDistance() {}

  /**
   * One comparison's probe: {@code sql} returns one distance per evaluation; {@code reads}, the lower-case column
   * names its sides read, nearest first; {@code blockReads}, those and the names the rest of its block reads (its
   * conditions); {@code what}, the comparison's text; {@code passing}, the sign of the
   * distances at which it holds ({@link Side}).
   */
  record Site(String sql, List<String> reads, List<String> blockReads, String what, int passing) {}

  /** The distances a probe returns on an instance (NULLs left out); null when it cannot run there. */
  interface Distances {
    @Nullable List<Double> of(Database instance, String probe) throws SQLException;
  }

  /**
   * The probes of the comparisons among {@code differing} (nodes of the statements' trees), those that hold no other
   * differing comparison first; at most {@value #MAX_SITES}, distinct.
   */
  static List<Site> sites(List<JsonNode> statements, List<JsonNode> differing, SqlParser parser) {
    Set<JsonNode> comparisons = Collections.newSetFromMap(new IdentityHashMap<>());
    Set<JsonNode> qualifiedDiffering = qualifiedDiffering(statements);
    for (JsonNode n : differing) {
      if (!sides(n).isEmpty() && qualifiedDiffering.contains(n)) {
        comparisons.add(n);
      }
    }
    List<JsonNode> innermostFirst = new ArrayList<>();
    List<JsonNode> enclosing = new ArrayList<>();
    Set<JsonNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    for (JsonNode n : differing) {
      if (!comparisons.contains(n) || !seen.add(n)) {
        continue;
      }
      boolean[] holds = {false};
      Trees.visit(n, d -> holds[0] |= d != n && comparisons.contains(d));
      (holds[0] ? enclosing : innermostFirst).add(n);
    }
    innermostFirst.addAll(enclosing);
    Map<String, List<String>> outputs = outputReads(statements);
    Map<String, Site> out = new LinkedHashMap<>();
    for (JsonNode c : innermostFirst) {
      for (JsonNode s : statements) {
        List<Object> path = path(s, c);
        if (path == null) {
          continue;
        }
        for (Side side : sides(c)) {
          if (out.size() >= MAX_SITES) {
            return List.copyOf(out.values());
          }
          Site site = site(s, path, side, outputs, parser);
          if (site != null) {
            out.putIfAbsent(site.sql(), site);
          }
        }
      }
    }
    return List.copyOf(out.values());
  }

  /**
   * The comparisons whose text with its qualifiers (without locations and aliases) one statement has more often than
   * the other: {@code ss2.store_sales > 0} made {@code >= 0} differs, {@code ss1.store_sales > 0} beside it does
   * not, although both read {@code store_sales > 0} without qualifiers.
   */
  private static Set<JsonNode> qualifiedDiffering(List<JsonNode> statements) {
    Map<String, Integer> counts = new HashMap<>();
    Map<JsonNode, String> texts = new IdentityHashMap<>();
    for (int q = 0; q < statements.size(); q++) {
      int sign = q == 0 ? 1 : -1;
      Trees.visit(statements.get(q), n -> {
        if (!sides(n).isEmpty()) {
          JsonNode copy = n.deepCopy();
          Trees.visit(copy, c -> {
            if (c instanceof ObjectNode o) {
              o.remove("query_location");
              o.remove("query_location_length");
              o.remove("alias");
            }
          });
          texts.put(n, copy.toString());
          counts.merge(copy.toString(), sign, Integer::sum);
        }
      });
    }
    Set<JsonNode> out = Collections.newSetFromMap(new IdentityHashMap<>());
    texts.forEach((n, text) -> {
      if (counts.get(text) != 0) {
        out.add(n);
      }
    });
    return out;
  }

  /**
   * One boundary of a comparison: {@code left - right} is its distance, and the comparison holds off the boundary
   * where the distance has the sign {@code passing} (1 for {@code >}, {@code >=} and a BETWEEN's lower bound, -1 for
   * {@code <}, {@code <=} and its upper bound, 0 for {@code =} and {@code <>}).
   */
  private record Side(JsonNode left, JsonNode right, int passing) {}

  /** The sides of each boundary of a comparison ({@code BETWEEN}: both bounds); empty for other nodes. */
  private static List<Side> sides(JsonNode n) {
    String cls = n.path("class").asText("");
    String type = n.path("type").asText("");
    List<Side> out = new ArrayList<>();
    if (cls.equals("COMPARISON")) {
      switch (type) {
        case "COMPARE_LESSTHAN", "COMPARE_LESSTHANOREQUALTO" -> out.add(new Side(n.path("left"), n.path("right"), -1));
        case "COMPARE_GREATERTHAN", "COMPARE_GREATERTHANOREQUALTO" ->
            out.add(new Side(n.path("left"), n.path("right"), 1));
        case "COMPARE_EQUAL", "COMPARE_NOTEQUAL" -> out.add(new Side(n.path("left"), n.path("right"), 0));
        default -> { }
      }
    } else if (cls.equals("BETWEEN")) {
      out.add(new Side(n.path("input"), n.path("lower"), 1));
      out.add(new Side(n.path("input"), n.path("upper"), -1));
    }
    out.removeIf(side -> !reads(side.left()) && !reads(side.right()));
    return out;
  }

  /** Whether an expression reads a column (a subquery's too). */
  private static boolean reads(JsonNode e) {
    boolean[] found = {false};
    Trees.visit(e, n -> found[0] |= "COLUMN_REF".equals(n.path("class").asText("")));
    return found[0];
  }

  /**
   * The probe of one boundary {@code L - R} of the comparison at {@code path} in statement {@code s}: its block
   * (the innermost SELECT holding it) with the statement's CTEs, selecting the distance where the comparison decides
   * its clause; null where the block cannot be cut out or rendered.
   */
  private static @Nullable Site site(JsonNode s, List<Object> path, Side side, Map<String, List<String>> outputs,
      SqlParser parser) {
    int block = -1;
    for (int i = 0; i < path.size(); i++) {
      if ("SELECT_NODE".equals(at(s, path.subList(0, i)).path("type").asText(""))) {
        block = i;
      }
    }
    if (block < 0 || block >= path.size()) {
      return null;
    }
    boolean rowLevel = false;
    for (int i = block + 1; i < path.size(); i++) {
      JsonNode n = at(s, path.subList(0, i));
      if ("FUNCTION".equals(n.path("class").asText("")) && SqlAnalyzer.isAggregate(n.path("function_name")
          .asText(""))) {
        rowLevel = true; // an aggregate's argument: evaluated on each row of the group
      }
      if ("WINDOW".equals(n.path("class").asText(""))) {
        return null;
      }
    }
    String clause = String.valueOf(path.get(block));
    ObjectNode copy = (ObjectNode) s.deepCopy();
    ObjectNode node = (ObjectNode) at(copy, path.subList(0, block));
    List<Object> inClause = path.subList(block + 1, path.size());
    ObjectNode distance = distance(side, parser);
    if (distance == null) {
      return null;
    }
    switch (clause) {
      case "where_clause", "having" -> {
        node.set(clause, decides(node.get(clause), inClause, parser));
        rowLevel |= clause.equals("where_clause");
      }
      case "from_table" -> {
        // A join's ON: the join made an inner join on TRUE, the comparison's deciding rows kept by the WHERE.
        int join = -1;
        for (int i = 0; i < inClause.size(); i++) {
          if ("condition".equals(inClause.get(i))) {
            join = i;
          }
        }
        if (join < 0) {
          return null;
        }
        ObjectNode j = (ObjectNode) at(node.get(clause), inClause.subList(0, join));
        JsonNode decides = decides(j.get("condition"), inClause.subList(join + 1, inClause.size()), parser);
        j.set("condition", constant("TRUE", parser));
        j.put("join_type", "INNER");
        JsonNode where = node.get("where_clause");
        node.set("where_clause", where == null || where.isNull() ? decides : and(where, decides, parser));
        rowLevel = true;
      }
      case "select_list" -> { /* evaluated on every row (group) the block returns */ }
      default -> {
        return null;
      }
    }
    if (rowLevel) {
      node.putArray("group_expressions");
      node.putArray("group_sets");
      node.set("having", null);
      node.put("aggregate_handling", "STANDARD_HANDLING");
    }
    node.set("qualify", null);
    node.putArray("modifiers");
    node.putArray("select_list").add(distance);
    // The statement's CTEs (and those of the blocks around this one) stay in scope.
    ObjectNode cteMap = node.get("cte_map") instanceof ObjectNode o ? o : node.putObject("cte_map");
    ArrayNode ctes = cteMap.get("map") instanceof ArrayNode a ? a : cteMap.putArray("map");
    Set<String> own = new HashSet<>();
    ctes.forEach(e -> own.add(e.path("key").asText("").toLowerCase(Locale.ROOT)));
    for (int i = 0; i < block; i++) {
      JsonNode outer = at(s, path.subList(0, i));
      for (JsonNode e : outer.path("cte_map").path("map")) {
        if (own.add(e.path("key").asText("").toLowerCase(Locale.ROOT))) {
          ctes.add(e.deepCopy());
        }
      }
    }
    copy.set("node", node);
    String sql;
    try {
      sql = parser.render(copy);
    } catch (RuntimeException e) {
      return null; // a tree the renderer cannot write back
    }
    List<String> reads = new ArrayList<>();
    for (JsonNode e : List.of(side.left(), side.right())) {
      reads.addAll(columnNames(e));
    }
    List<String> all = expanded(reads, outputs);
    // Then what the rest of the block reads: the conditions a row must meet before the comparison decides anything.
    List<String> reach = new ArrayList<>(reads);
    JsonNode original = at(s, path.subList(0, block));
    for (String field : List.of("where_clause", "having", "from_table", "select_list")) {
      reach.addAll(columnNames(original.path(field)));
    }
    reach = expanded(reach, outputs);
    String what;
    try {
      what = parser.renderExpression(side.left()) + " - " + parser.renderExpression(side.right());
    } catch (RuntimeException e) {
      what = "a comparison";
    }
    return new Site(sql, List.copyOf(all), List.copyOf(reach), what, side.passing());
  }

  /** The lower-case names of the columns an expression reads (its subqueries' too), in order. */
  private static List<String> columnNames(JsonNode e) {
    List<String> out = new ArrayList<>();
    Trees.visit(e, n -> {
      if ("COLUMN_REF".equals(n.path("class").asText(""))) {
        out.add(Trees.columnName(n).toLowerCase(Locale.ROOT));
      }
    });
    return out;
  }

  /** The names, then those the outputs among them are computed from, transitively; each once. */
  private static List<String> expanded(List<String> names, Map<String, List<String>> outputs) {
    Set<String> all = new LinkedHashSet<>(names);
    for (List<String> frontier = names; !frontier.isEmpty(); ) {
      List<String> next = new ArrayList<>();
      for (String name : frontier) {
        for (String r : outputs.getOrDefault(name, List.of())) {
          if (all.add(r)) {
            next.add(r);
          }
        }
      }
      frontier = next;
    }
    return List.copyOf(all);
  }

  /**
   * {@code CAST((L) - (R) AS DOUBLE)}, the days between two dates being such a difference too; null where the
   * sides cannot be written.
   */
  private static @Nullable ObjectNode distance(Side side, SqlParser parser) {
    ObjectNode cast = (ObjectNode) parser.parse("SELECT CAST((a) - (b) AS DOUBLE)").statement(0).path("node")
        .path("select_list").get(0).deepCopy();
    List<JsonNode> arguments = new ArrayList<>();
    Trees.visit(cast, n -> {
      if ("COLUMN_REF".equals(n.path("class").asText(""))) {
        arguments.add(n);
      }
    });
    if (arguments.size() != 2) {
      return null;
    }
    for (int i = 0; i < 2; i++) {
      ObjectNode copy = (ObjectNode) (i == 0 ? side.left() : side.right()).deepCopy();
      copy.remove("alias");
      Trees.replace((ObjectNode) arguments.get(i), copy);
    }
    cast.put("alias", "distance");
    return cast;
  }

  /**
   * {@code (clause with the comparison TRUE) IS DISTINCT FROM (clause with it FALSE)}: the rows (groups) at which the
   * comparison decides the clause; TRUE where the clause is the comparison.
   */
  private static JsonNode decides(JsonNode clause, List<Object> path, SqlParser parser) {
    if (path.isEmpty()) {
      return constant("TRUE", parser);
    }
    JsonNode whenTrue = clause.deepCopy();
    JsonNode whenFalse = clause.deepCopy();
    Trees.replace((ObjectNode) at(whenTrue, path), constant("TRUE", parser));
    Trees.replace((ObjectNode) at(whenFalse, path), constant("FALSE", parser));
    ObjectNode distinct = (ObjectNode) parser.parse("SELECT 1 WHERE (TRUE) IS DISTINCT FROM (FALSE)").statement(0)
        .path("node").path("where_clause").deepCopy();
    distinct.set("left", whenTrue);
    distinct.set("right", whenFalse);
    return distinct;
  }

  private static ObjectNode and(JsonNode a, JsonNode b, SqlParser parser) {
    ObjectNode and = (ObjectNode) parser.parse("SELECT 1 WHERE TRUE AND FALSE").statement(0).path("node")
        .path("where_clause").deepCopy();
    ArrayNode children = and.putArray("children");
    children.add(a);
    children.add(b);
    return and;
  }

  private static ObjectNode constant(String sql, SqlParser parser) {
    return (ObjectNode) parser.parse("SELECT " + sql).statement(0).path("node").path("select_list").get(0).deepCopy();
  }

  /** The node at a path (field names and array indices) from {@code root}. */
  private static JsonNode at(JsonNode root, List<Object> path) {
    JsonNode n = root;
    for (Object step : path) {
      n = step instanceof Integer i ? n.path(i) : n.path((String) step);
    }
    return n;
  }

  /** The path from {@code root} to {@code target} (by identity), or null where the tree does not hold it. */
  static @Nullable List<Object> path(JsonNode root, JsonNode target) {
    if (root == target) {
      return new ArrayList<>();
    }
    if (root.isObject()) {
      for (var it = root.fields(); it.hasNext(); ) {
        var f = it.next();
        List<Object> p = path(f.getValue(), target);
        if (p != null) {
          p.add(0, f.getKey());
          return p;
        }
      }
    } else if (root.isArray()) {
      for (int i = 0; i < root.size(); i++) {
        List<Object> p = path(root.get(i), target);
        if (p != null) {
          p.add(0, i);
          return p;
        }
      }
    }
    return null;
  }

  /**
   * Per lower-case output name (a select item's alias, in any block of the statements), the lower-case names of the
   * columns its expression reads: what a comparison of a CTE's {@code year_total} moves when it moves a cell.
   */
  private static Map<String, List<String>> outputReads(List<JsonNode> statements) {
    Map<String, List<String>> out = new HashMap<>();
    for (JsonNode item : ThresholdSearch.selectItems(statements)) {
      String alias = item.path("alias").asText("").toLowerCase(Locale.ROOT);
      if (alias.isEmpty()) {
        continue;
      }
      List<String> names = out.computeIfAbsent(alias, k -> new ArrayList<>());
      Trees.visit(item, n -> {
        if ("COLUMN_REF".equals(n.path("class").asText(""))) {
          String name = Trees.columnName(n).toLowerCase(Locale.ROOT);
          if (!names.contains(name) && !name.equals(alias)) {
            names.add(name);
          }
        }
      });
    }
    return out;
  }

  // ---- the search ---------------------------------------------------------------------------------------------

  /**
   * Moves cells of the seeds until an evaluation of a site's comparison sits on its boundary, and runs that
   * instance and its neighbours one unit either side through {@code probe}; the first on which the queries differ,
   * or null when none did within the counts.
   */
  static ThresholdSearch.@Nullable Outcome search(List<ThresholdSearch.Seed> seeds, List<Site> sites,
      Distances engine, int maxTrials, ThresholdSearch.Probe probe) throws SQLException {
    Budget budget = new Budget(maxTrials);
    for (Site site : sites) {
      int used = 0;
      int reached = 0;
      for (ThresholdSearch.Seed seed : seeds) {
        if (used >= MAX_SEEDS || budget.spent()) {
          break;
        }
        Database start = seed.instance();
        List<Double> before = budget.evaluate(engine, start, site.sql());
        if (before == null) {
          break; // the probe does not run (a block that reads an outer query's columns)
        }
        if (before.isEmpty() && reached < MAX_REACHED) {
          // No row reaches the comparison: one large move of a cell the block reads, where that gives it rows.
          reached++;
          Database moved = reach(start, site, engine, budget, probe);
          if (budget.found != null) {
            return budget.found;
          }
          List<Double> there = moved == null ? null : budget.evaluate(engine, moved, site.sql());
          if (there != null && !there.isEmpty()) {
            start = moved;
            before = there;
          }
        }
        if (before.isEmpty()) {
          continue;
        }
        used++;
        int moved = 0;
        int solved = 0;
        for (Cell cell : cells(start, site.reads())) {
          if (moved++ >= MAX_CELLS || solved >= MAX_SOLVED || budget.spent()) {
            break;
          }
          Solver solver = new Solver(site, start, cell, before, engine, budget, probe);
          ThresholdSearch.Outcome o = solver.run();
          if (o != null) {
            return o;
          }
          if (solver.solved) {
            solved++; // on the boundary without a difference: other rows of this seed mask it alike
          }
        }
      }
    }
    return null;
  }

  /**
   * The seed with cells of columns the comparison's block reads moved far out or in (ten times their magnitude, at
   * least a hundred units), one cell at a time, until the probe returns a distance: a row (group) that now meets the
   * block's other conditions; null when none does within {@value #MAX_CELLS} cells. A move that does not yet give
   * the probe rows is kept where it gives the two queries' results and CTEs more rows (run through both queries,
   * at most {@value #MAX_REACH_RUNS} per check): TPC-DS q39b's outer comparison of a month's coefficient of variation
   * is reached only when two months of one item pass the CTE's own {@code cov > 1}, one move each. The approach
   * level of search-based testing: first reach the comparison, then put it on its boundary.
   */
  private static @Nullable Database reach(Database seed, Site site, Distances engine, Budget budget,
      ThresholdSearch.Probe probe) throws SQLException {
    Database current = seed;
    int level = -1;
    boolean measured = false;
    int tried = 0;
    for (Cell cell : cells(seed, site.blockReads())) {
      BigDecimal x = cell.value(current);
      if (x == null) {
        continue;
      }
      if (tried++ >= MAX_CELLS || budget.spent()) {
        break;
      }
      BigDecimal large = cell.unit().multiply(BigDecimal.valueOf(100)).max(x.abs().multiply(BigDecimal.TEN));
      for (BigDecimal v : List.of(x.add(large), x.subtract(large))) {
        if (cell.text(v) == null) {
          continue;
        }
        Database moved = cell.with(current, v, "(a row reaches the comparison)");
        List<Double> d = budget.evaluate(engine, moved, site.sql());
        if (d != null && !d.isEmpty()) {
          return moved;
        }
        if (!measured) {
          measured = true;
          level = rows(budget.reachRun(probe, current));
        }
        int there = rows(budget.reachRun(probe, moved));
        if (budget.found != null) {
          return null;
        }
        if (there > level) {
          current = moved;
          level = there;
          break;
        }
      }
    }
    return null;
  }

  /** The rows of both results and of the queries' CTEs on a run, -1 without a run. */
  private static int rows(ThresholdSearch.@Nullable Outcome o) {
    return o == null ? -1 : o.signature().stream().mapToInt(Integer::intValue).filter(n -> n > 0).sum();
  }

  /** The counts one check spends: probe evaluations and instances run through both queries. */
  private static final class Budget {
    private final int maxTrials;
    private int evaluations;
    private int trials;
    private int reachRuns;
    /** A run of a move towards a comparison on which the queries differed. */
    ThresholdSearch.@Nullable Outcome found;
    private final Set<List<List<List<String>>>> tried = new HashSet<>();

    Budget(int maxTrials) {
      this.maxTrials = maxTrials;
    }

    boolean spent() {
      return evaluations >= MAX_EVALUATIONS || trials >= maxTrials;
    }

    @Nullable List<Double> evaluate(Distances engine, Database instance, String sql) throws SQLException {
      if (evaluations >= MAX_EVALUATIONS) {
        return null;
      }
      evaluations++;
      return engine.of(instance, sql);
    }

    /** A run of a move towards the comparison, counted apart; null when none is left. */
    ThresholdSearch.@Nullable Outcome reachRun(ThresholdSearch.Probe probe, Database instance) throws SQLException {
      if (reachRuns >= MAX_REACH_RUNS) {
        return null;
      }
      reachRuns++;
      ThresholdSearch.Outcome o = probe.run(instance);
      if (o != null && o.different()) {
        found = o;
      }
      return o;
    }

    ThresholdSearch.@Nullable Outcome run(ThresholdSearch.Probe probe, Database instance) throws SQLException {
      if (trials >= maxTrials || !tried.add(instance.content(null))) {
        return null;
      }
      trials++;
      return probe.run(instance);
    }
  }

  /** A cell to move: a table's row and column, and its type. */
  private record Cell(Schema.Table table, int row, int column, ValueType type) {
    @Nullable BigDecimal value(Database db) {
      String v = db.rows(table).get(row).get(column);
      if (v == null) {
        return null;
      }
      try {
        return type.family() == ValueType.Family.DATE ? BigDecimal.valueOf(LocalDate.parse(v.strip()).toEpochDay())
            : new BigDecimal(v.strip());
      } catch (RuntimeException e) {
        return null;
      }
    }

    /** The cell's text for a number of its unit (days for a date); null outside the type's range. */
    @Nullable String text(BigDecimal x) {
      if (type.family() == ValueType.Family.DATE) {
        try {
          return LocalDate.ofEpochDay(x.longValueExact()).toString();
        } catch (RuntimeException e) {
          return null;
        }
      }
      return type.number(x);
    }

    BigDecimal unit() {
      if (type.family() == ValueType.Family.DATE) {
        return BigDecimal.ONE;
      }
      Schema.Column c = table.columns().get(column);
      return BigDecimal.ONE.movePointLeft(ThresholdSearch.scale(type, c.type()));
    }

    /** The instance with the cell at {@code x}; named after the move where {@code what} says why. */
    Database with(Database db, BigDecimal x, String what) {
      String text = text(x);
      Database out = db.withCell(table, row, column, text);
      return what.isEmpty() ? out : out.named(db.name() + ", " + table.name().toLowerCase(Locale.ROOT) + "."
          + table.columns().get(column).name().toLowerCase(Locale.ROOT) + " = " + text + " " + what);
    }
  }

  /**
   * The cells of the columns a site reads, in the order of {@code reads}, each column's first rows first: numeric
   * and date columns outside keys and foreign keys (a moved key would drop the joins the distance needs).
   */
  private static List<Cell> cells(Database db, List<String> reads) {
    List<Cell> out = new ArrayList<>();
    for (String name : reads) {
      for (Schema.Table t : db.tables()) {
        int c = t.columnIndex(name);
        if (c < 0 || t.inKey(name) || t.foreignKeys().stream().anyMatch(f -> f.columns().stream()
            .anyMatch(name::equalsIgnoreCase))) {
          continue;
        }
        ValueType type = ValueType.of(t.columns().get(c).valueType());
        if (!type.numeric() && type.family() != ValueType.Family.DATE) {
          continue;
        }
        List<List<String>> rows = db.rows(t);
        for (int r = 0; r < Math.min(rows.size(), MAX_CELLS); r++) {
          out.add(new Cell(t, r, c, type));
        }
      }
    }
    // Interleave: each column's first row before any column's second.
    List<Cell> interleaved = new ArrayList<>();
    for (int r = 0; interleaved.size() < out.size(); r++) {
      for (Cell cell : out) {
        if (cell.row() == r) {
          interleaved.add(cell);
        }
      }
    }
    return interleaved;
  }

  /** One cell moved until a distance that changes with it is zero, secant step by secant step. */
  private static final class Solver {
    private final Site site;
    private final Database seed;
    private final Cell cell;
    private final List<Double> before;
    private final Distances engine;
    private final Budget budget;
    private final ThresholdSearch.Probe probe;
    /** Whether a value of the cell put the distance on zero, or between two neighbouring values. */
    boolean solved;

    Solver(Site site, Database seed, Cell cell, List<Double> before, Distances engine, Budget budget,
        ThresholdSearch.Probe probe) {
      this.site = site;
      this.seed = seed;
      this.cell = cell;
      this.before = before;
      this.engine = engine;
      this.budget = budget;
      this.probe = probe;
    }

    ThresholdSearch.@Nullable Outcome run() throws SQLException {
      BigDecimal x0 = cell.value(seed);
      if (x0 == null) {
        return null;
      }
      BigDecimal unit = cell.unit();
      // A small step first (the zero of a sum or an average), then large ones either way: a ratio of the cell to
      // sums that hold it (a coefficient of variation) has its zeros far from the cell's value, on either side.
      BigDecimal large = unit.multiply(BigDecimal.valueOf(100)).max(x0.abs().multiply(BigDecimal.TEN));
      List<Root> roots = new ArrayList<>();
      steps:
      for (BigDecimal step : List.of(unit.multiply(BigDecimal.TEN), large, large.negate())) {
        BigDecimal x1 = x0.add(step);
        if (cell.text(x1) == null || budget.spent()) {
          continue;
        }
        List<Double> after = budget.evaluate(engine, cell.with(seed, x1, ""), site.sql());
        if (after == null) {
          return null;
        }
        List<Double> removed = minus(before, after);
        List<Double> added = minus(after, before);
        Collections.sort(removed);
        Collections.sort(added);
        List<Double> unchanged = minus(before, removed);
        for (int k = 0; k < Math.min(2, Math.min(removed.size(), added.size())); k++) {
          Root r = root(x0, removed.get(k), x1, added.get(k), unchanged, unit);
          if (r != null && roots.stream().noneMatch(o -> o.x().compareTo(r.x()) == 0)) {
            roots.add(r);
            if (r.exact()) {
              break steps;
            }
          }
        }
      }
      roots.sort((p, q) -> Boolean.compare(q.exact(), p.exact()));
      for (Root r : roots.subList(0, Math.min(2, roots.size()))) {
        solved = true;
        Database base = r.exact() ? unmasked(cell.with(seed, r.x(), "")) : seed;
        for (BigDecimal v : List.of(r.x(), r.x().subtract(unit), r.x().add(unit))) {
          if (cell.text(v) == null) {
            continue;
          }
          ThresholdSearch.Outcome o = budget.run(probe, cell.with(base, v, "(on the boundary of " + site.what()
              + (v.equals(r.x()) ? " = 0)" : ", one unit off)")));
          if (o != null && o.different()) {
            return o;
          }
        }
      }
      return null;
    }

    /**
     * The instance with one evaluation on the boundary and as many of the comparison's other evaluations as one
     * large move of another cell each (out or in, first-improvement hill climbing) puts on the side where the
     * comparison holds, the boundary kept: another group of the query that must pass the same comparison for the
     * first to reach the answer (TPC-DS q39's two months of one item, joined: one month's coefficient of variation
     * exactly 1, the other's above).
     */
    private Database unmasked(Database onBoundary) throws SQLException {
      if (site.passing() == 0) {
        return onBoundary;
      }
      List<Double> at = budget.evaluate(engine, onBoundary, site.sql());
      int failing = at == null ? 0 : failing(at);
      Database current = onBoundary;
      int tried = 0;
      for (Cell other : cells(seed, site.reads())) {
        if (failing == 0 || tried++ >= MAX_CELLS || budget.spent()) {
          break;
        }
        BigDecimal x = other.value(current);
        if (other.equals(cell) || x == null) {
          continue;
        }
        BigDecimal large = other.unit().multiply(BigDecimal.valueOf(100)).max(x.abs().multiply(BigDecimal.TEN));
        for (BigDecimal moved : List.of(x.add(large), x.subtract(large))) {
          if (other.text(moved) == null) {
            continue;
          }
          Database candidate = other.with(current, moved, "(its other evaluations on the side that holds)");
          List<Double> d = budget.evaluate(engine, candidate, site.sql());
          if (d != null && d.stream().anyMatch(v -> Math.abs(v) <= ZERO) && failing(d) < failing) {
            current = candidate;
            failing = failing(d);
            break;
          }
        }
      }
      return current;
    }

    /** The evaluations off the side where the comparison holds, one of those exactly on the boundary left out. */
    private int failing(List<Double> distances) {
      int zeros = 0;
      int off = 0;
      for (double v : distances) {
        if (Math.abs(v) <= ZERO) {
          zeros++;
        } else if (v * site.passing() < 0) {
          off++;
        }
      }
      return off + Math.max(0, zeros - 1);
    }

    /** A value of the cell where a distance is zero ({@code exact}), or next to where it crosses zero. */
    private record Root(BigDecimal x, boolean exact) {}

    /** Secant steps from (xa, fa) and (xb, fb), in units of the cell, to a zero; null where there is none. */
    private @Nullable Root root(BigDecimal xa, double fa, BigDecimal xb, double fb, List<Double> unchanged,
        BigDecimal unit) throws SQLException {
      BigDecimal x = null;
      boolean exact = false;
      for (int step = 0; step < MAX_STEPS && fa != fb && !budget.spent(); step++) {
        BigDecimal next;
        try {
          next = xb.subtract(BigDecimal.valueOf(fb).multiply(xb.subtract(xa))
              .divide(BigDecimal.valueOf(fb - fa), MathContext.DECIMAL64));
        } catch (ArithmeticException | NumberFormatException e) {
          return null;
        }
        next = next.divide(unit, 0, RoundingMode.HALF_EVEN).multiply(unit);
        if (cell.text(next) == null) {
          return null;
        }
        x = next;
        if (next.compareTo(xb) == 0 || next.compareTo(xa) == 0) {
          break; // neighbouring units: the zero lies between two values of the column
        }
        List<Double> at = budget.evaluate(engine, cell.with(seed, next, ""), site.sql());
        if (at == null) {
          return null;
        }
        List<Double> moved = minus(at, unchanged);
        double f = moved.isEmpty() ? Double.NaN : moved.stream().min((p, q) -> Double.compare(Math.abs(p),
            Math.abs(q))).orElseThrow();
        if (Double.isNaN(f)) {
          break;
        }
        if (Math.abs(f) <= 1e-9 * Math.max(1, Math.abs(fa))) {
          exact = true;
          break;
        }
        xa = xb;
        fa = fb;
        xb = next;
        fb = f;
      }
      return x == null ? null : new Root(x, exact);
    }
  }

  /** The multiset difference {@code a - b}. */
  private static List<Double> minus(List<Double> a, List<Double> b) {
    Map<Double, Integer> count = new HashMap<>();
    b.forEach(v -> count.merge(v, 1, Integer::sum));
    List<Double> out = new ArrayList<>();
    for (Double v : a) {
      Integer n = count.get(v);
      if (n != null && n > 0) {
        count.put(v, n - 1);
      } else {
        out.add(v);
      }
    }
    return out;
  }
}
