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
 * the query: its block, with the statement's CTEs, selecting {@code CAST((L) - (R) AS DOUBLE)} (days between dates;
 * where that cannot run, as for a date against a date plus an interval, the days between their epochs, {@code
 * CAST((epoch(L) - epoch(R)) / 86400 AS DOUBLE)})
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
 * level): where no row of a starting instance reaches the comparison, a row is added to an empty table the block
 * reads, joined to the rows present (a return beside a sale, for a comparison inside {@code NOT EXISTS} over
 * returns), or cells the block reads are moved far out or in, one at a time, each move kept where the queries'
 * results and CTEs gain rows, until the probe returns a distance ({@code reach}). <b>Unmasking</b>: with one
 * evaluation on the boundary, the comparison's other evaluations are moved, by one large move of another cell each,
 * to the side where the comparison holds, the boundary kept ({@code Solver.unmasking}): a row on the boundary reaches
 * the answer only through a join with another group that passes the same comparison (TPC-DS q39's two months of one
 * item).
 *
 * <p>Where no cell moves the distance, whole rows do. The number of copies of a row (under fresh keys, alone or with
 * the rows joining it) is a variable like a cell: a ratio of counts ({@code count(r_ticket) * 1.0 / count(*) > 0.25})
 * is put on its bound by copies of a sale ({@code Copies}). And a starting instance on which no variable reaches
 * the bound is made more varied by a copy of a row with one column changed ({@code diversified}): a second brand in a
 * category (a brand's share of it is 1 while it is alone there), a sale in another month beside a December one (a
 * CASE's condition inside a sum). A zero that lies between two values of the moved cell is looked for again on a grid
 * {@value #GRID} times finer ({@code scaled}: 0.3 of two sums of cents). A correlated subquery's comparison is probed
 * with its outer block joined to it.
 *
 * <p>Cost: per check at most {@value #MAX_SITES} comparisons, {@value #MAX_SEEDS} starting instances each, {@value
 * #MAX_CELLS} cells and {@value #MAX_COPY_VARIABLES} row multiplicities per instance, {@value #MAX_EVALUATIONS} probe
 * evaluations (one instance loaded and one probe run each), {@code maxTrials} instances run through both queries and
 * {@value #MAX_REACH_RUNS} more while reaching; each probe evaluation is linear in the instance's rows for the
 * queries the checker runs (a few dozen rows), so a check adds at most a few hundred small queries.
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
  /** Rows added to an empty table, joined to the rows present, tried per starting instance at most. */
  static final int MAX_PARTNERS = 4;
  /** How much finer the grid is on which a zero between two values of a cell is looked for again. */
  static final int GRID = 60;
  /** Row multiplicities moved per starting instance at most. */
  static final int MAX_COPY_VARIABLES = 4;
  /** Copies of a row a multiplicity takes at most. */
  static final int MAX_COPIES = 64;
  /** Starting instances made more varied by a copied row, per starting instance, at most. */
  static final int MAX_DIVERSIFIED = 2;
  /** Cells of one starting instance put on the boundary at most (then the next instance). */
  static final int MAX_SOLVED = 2;
  /** Probe evaluations per check at most. */
  static final int MAX_EVALUATIONS = 160;
  /** Instances run through both queries per check at most. */
  static final int MAX_TRIALS = 24;
  /** A distance at most this far from zero is on the boundary. */
  private static final double ZERO = 1e-9;
  /** Secant steps per changed distance at most. */
  private static final int MAX_STEPS = 8;

  private BranchDistance() {}

  /**
   * One comparison's probes (its block alone; for a correlated subquery's comparison, then its outer block joined to
   * it): each returns one distance per evaluation; {@code reads}, the lower-case column
   * names its sides read, nearest first; {@code blockReads}, those and the names the rest of its block reads (its
   * conditions); {@code what}, the comparison's text; {@code passing}, the sign of the
   * distances at which it holds ({@link Side}).
   */
  record Site(List<String> probes, List<String> reads, List<String> blockReads, String what, int passing) {
    /** The probe in use: the first that ran ({@link BranchDistance#search} drops those that do not bind). */
    String sql() {
      return probes.get(0);
    }

    /** The site with its next probe in use. */
    Site next() {
      return new Site(probes.subList(1, probes.size()), reads, blockReads, what, passing);
    }
  }

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
            out.putIfAbsent(site.probes().toString(), site);
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
   * its clause; where that block reads an outer block's columns (a correlated {@code NOT EXISTS}, {@code IN} or
   * scalar subquery), the outer block's FROM joined to it, the outer WHERE without the subquery's conjunct (the
   * pairs of an outer row and a row of the subquery at which the comparison decides). Null where no probe can be
   * cut out or rendered.
   */
  private static @Nullable Site site(JsonNode s, List<Object> path, Side side, Map<String, List<String>> outputs,
      SqlParser parser) {
    int block = -1;
    int parent = -1;
    for (int i = 0; i < path.size(); i++) {
      if ("SELECT_NODE".equals(at(s, path.subList(0, i)).path("type").asText(""))) {
        parent = block;
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
    List<String> probes = new ArrayList<>();
    // Numbers and dates subtract to a number; a date against a date plus an interval (a timestamp) does not, and
    // is measured in days between their epochs instead.
    List<ObjectNode> distances = new ArrayList<>();
    for (String form : List.of(NUMERIC_DISTANCE, TEMPORAL_DISTANCE)) {
      ObjectNode d = distance(side, form, parser);
      if (d != null) {
        distances.add(d);
      }
    }
    for (boolean outer : new boolean[] {false, true}) {
      for (ObjectNode distance : distances) {
        ObjectNode copy = (ObjectNode) s.deepCopy();
        ObjectNode node = (ObjectNode) at(copy, path.subList(0, block));
        Boolean level = decided(node, path.subList(block, path.size()), parser);
        if (level == null) {
          return null;
        }
        String probe = !outer ? rendered(copy, node, s, path.subList(0, block), distance, rowLevel || level, parser)
            : parent < 0 || !level ? null : correlated(s, path, parent, block, distance, parser);
        if (probe != null) {
          probes.add(probe);
        }
      }
    }
    if (probes.isEmpty()) {
      return null;
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
    return new Site(List.copyOf(probes), List.copyOf(all), List.copyOf(reach), what, side.passing());
  }

  /**
   * Makes the clause of {@code node} that holds the comparison ({@code path}: the clause's field, then the way down
   * to the comparison) keep the rows (groups) at which the comparison decides it; whether the probe evaluates rows
   * (a WHERE or a join's ON) rather than groups; null for another clause.
   */
  private static @Nullable Boolean decided(ObjectNode node, List<Object> path, SqlParser parser) {
    String clause = String.valueOf(path.get(0));
    List<Object> inClause = path.subList(1, path.size());
    switch (clause) {
      case "where_clause", "having" -> {
        node.set(clause, decides(node.get(clause), inClause, parser));
        return clause.equals("where_clause");
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
        return true;
      }
      case "select_list" -> {
        return false; // evaluated on every row (group) the block returns
      }
      default -> {
        return null;
      }
    }
  }

  /**
   * The probe statement: {@code node} (a block of {@code copy}) selecting the distance, without its ordering and
   * limit, without its grouping where it evaluates rows, with the CTEs of the blocks around it ({@code outer}: the
   * path to it in the original statement {@code s}); null where it cannot be rendered.
   */
  private static @Nullable String rendered(ObjectNode copy, ObjectNode node, JsonNode s, List<Object> outer,
      ObjectNode distance, boolean rowLevel, SqlParser parser) {
    if (rowLevel) {
      node.putArray("group_expressions");
      node.putArray("group_sets");
      node.set("having", null);
      node.put("aggregate_handling", "STANDARD_HANDLING");
    }
    node.set("qualify", null);
    node.putArray("modifiers");
    node.putArray("select_list").add(distance.deepCopy());
    // The statement's CTEs (and those of the blocks around this one) stay in scope.
    ObjectNode cteMap = node.get("cte_map") instanceof ObjectNode o ? o : node.putObject("cte_map");
    ArrayNode ctes = cteMap.get("map") instanceof ArrayNode a ? a : cteMap.putArray("map");
    Set<String> own = new HashSet<>();
    ctes.forEach(e -> own.add(e.path("key").asText("").toLowerCase(Locale.ROOT)));
    for (int i = 0; i < outer.size(); i++) {
      for (JsonNode e : at(s, outer.subList(0, i)).path("cte_map").path("map")) {
        if (own.add(e.path("key").asText("").toLowerCase(Locale.ROOT))) {
          ctes.add(e.deepCopy());
        }
      }
    }
    copy.set("node", node);
    try {
      return parser.render(copy);
    } catch (RuntimeException e) {
      return null; // a tree the renderer cannot write back
    }
  }

  /**
   * The probe of a comparison in the WHERE of a subquery that may read its outer block's columns: the outer block
   * ({@code parent}) with the subquery's FROM joined to its own, its clause's conjunct holding the subquery made
   * TRUE, and the subquery's deciding WHERE added; null where the subquery is not an expression of the outer
   * block's WHERE, HAVING or select list.
   */
  private static @Nullable String correlated(JsonNode s, List<Object> path, int parent, int block, ObjectNode distance,
      SqlParser parser) {
    String parentClause = String.valueOf(path.get(parent));
    if (!Set.of("where_clause", "having", "select_list").contains(parentClause)) {
      return null; // a derived table in FROM: not correlated
    }
    boolean inSubquery = false;
    for (int i = parent + 1; i < block; i++) {
      inSubquery |= "SUBQUERY".equals(at(s, path.subList(0, i)).path("class").asText(""));
    }
    if (!inSubquery) {
      return null;
    }
    ObjectNode copy = (ObjectNode) s.deepCopy();
    ObjectNode outer = (ObjectNode) at(copy, path.subList(0, parent));
    ObjectNode inner = (ObjectNode) at(copy, path.subList(0, block));
    if (decided(inner, path.subList(block, path.size()), parser) == null) {
      return null;
    }
    JsonNode innerWhere = inner.get("where_clause");
    // The outer clause's conjunct that holds the subquery (or the whole clause) made TRUE.
    if (!parentClause.equals("select_list")) {
      JsonNode clause = outer.get(parentClause);
      List<Object> down = path.subList(parent + 1, block);
      if ("CONJUNCTION_AND".equals(clause.path("type").asText("")) && down.size() >= 2
          && "children".equals(down.get(0)) && down.get(1) instanceof Integer k) {
        ((ArrayNode) clause.get("children")).set(k, constant("TRUE", parser));
      } else {
        outer.set(parentClause, constant("TRUE", parser));
      }
    }
    ObjectNode cross = (ObjectNode) parser.parse("SELECT 1 FROM a, b").statement(0).path("node").path("from_table")
        .deepCopy();
    cross.set("left", outer.get("from_table"));
    cross.set("right", inner.get("from_table"));
    outer.set("from_table", cross);
    JsonNode where = outer.get("where_clause");
    if (innerWhere != null && !innerWhere.isNull()) {
      outer.set("where_clause", where == null || where.isNull() ? innerWhere : and(where, innerWhere, parser));
    }
    // The subquery's own CTEs too.
    ObjectNode cteMap = outer.get("cte_map") instanceof ObjectNode o ? o : outer.putObject("cte_map");
    ArrayNode ctes = cteMap.get("map") instanceof ArrayNode a ? a : cteMap.putArray("map");
    inner.path("cte_map").path("map").forEach(e -> ctes.add(e.deepCopy()));
    return rendered(copy, outer, s, path.subList(0, parent), distance, true, parser);
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
   * The distance {@code form} with the comparison's sides for {@code a} and {@code b}; null where they cannot be
   * written.
   */
  private static @Nullable ObjectNode distance(Side side, String form, SqlParser parser) {
    ObjectNode cast = (ObjectNode) parser.parse("SELECT " + form).statement(0).path("node").path("select_list").get(0)
        .deepCopy();
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

  /** The distance of two numbers (or two dates: the days between them), {@code a} and {@code b} standing for L, R. */
  private static final String NUMERIC_DISTANCE = "CAST((a) - (b) AS DOUBLE)";
  /** The days between two dates or timestamps ({@code d_date > d2.d_date + INTERVAL 30 DAY}). */
  private static final String TEMPORAL_DISTANCE = "CAST((epoch(a) - epoch(b)) / 86400 AS DOUBLE)";

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
   * What moves of whole rows need: the queries' equalities (the rows joining a copy's fresh keys, {@link
   * MutationSearch#copied}; the partner of a row added to an empty table, {@link MutationSearch#partners}), the
   * columns they read, the columns they group or partition by, and the columns' value pools.
   */
  record RowMoves(List<QueryFacts.ColumnComparison> joins, Set<String> read, Set<String> grouped, Domains domains) {}

  /**
   * Moves cells of the seeds (and how many copies of a row they hold) until an evaluation of a site's comparison
   * sits on its boundary, and runs that instance and its neighbours one unit either side through {@code probe}; the
   * first on which the queries differ, or null when none did within the counts.
   */
  static ThresholdSearch.@Nullable Outcome search(List<ThresholdSearch.Seed> seeds, List<Site> sites,
      Distances engine, RowMoves rows, int maxTrials, ThresholdSearch.Probe probe) throws SQLException {
    Budget budget = new Budget(maxTrials);
    for (Site given : sites) {
      Site site = given;
      int used = 0;
      int reached = 0;
      for (ThresholdSearch.Seed seed : seeds) {
        if (used >= MAX_SEEDS || budget.spent()) {
          break;
        }
        Database start = seed.instance();
        List<Double> before = budget.evaluate(engine, start, site.sql());
        while (before == null && site.probes().size() > 1) {
          // The block alone does not bind (it reads an outer block's columns): the next probe.
          site = site.next();
          before = budget.evaluate(engine, start, site.sql());
        }
        if (before == null) {
          break;
        }
        if (before.isEmpty() && reached < MAX_REACHED) {
          // No row reaches the comparison: one large move of a cell the block reads, where that gives it rows.
          reached++;
          Database moved = reach(start, site, engine, budget, probe, rows);
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
        Attempt attempt = new Attempt(site, engine, budget, probe);
        List<Variable> variables = new ArrayList<>(cells(start, site.reads()).subList(0,
            Math.min(MAX_CELLS, cells(start, site.reads()).size())));
        variables.addAll(copies(start, site, rows));
        ThresholdSearch.Outcome o = attempt.on(start, before, variables);
        if (o != null) {
          return o;
        }
        if (!attempt.exact) {
          // No variable of this seed reaches the bound: the seed made more varied by one copied row first.
          for (Database varied : diversified(start, before, site, rows, engine, budget)) {
            List<Double> there = budget.evaluate(engine, varied, site.sql());
            if (there == null || there.isEmpty()) {
              continue;
            }
            List<Cell> cells = cells(varied, site.reads());
            o = attempt.on(varied, there, new ArrayList<>(cells.subList(0, Math.min(MAX_CELLS, cells.size()))));
            if (o != null) {
              return o;
            }
          }
        }
      }
    }
    return null;
  }

  /** The variables of one starting instance tried in turn, and whether one of them reached the bound exactly. */
  private static final class Attempt {
    private final Site site;
    private final Distances engine;
    private final Budget budget;
    private final ThresholdSearch.Probe probe;
    boolean exact;

    Attempt(Site site, Distances engine, Budget budget, ThresholdSearch.Probe probe) {
      this.site = site;
      this.engine = engine;
      this.budget = budget;
      this.probe = probe;
    }

    ThresholdSearch.@Nullable Outcome on(Database start, List<Double> before, List<Variable> variables)
        throws SQLException {
      int solved = 0;
      boolean refined = false;
      for (Variable v : variables) {
        if (solved >= MAX_SOLVED || budget.spent()) {
          break;
        }
        Solver solver = new Solver(site, start, v, before, engine, budget, probe);
        ThresholdSearch.Outcome o = solver.run();
        if (o != null) {
          return o;
        }
        if (v instanceof Cell && solver.solved && !solver.exact && !refined) {
          // The zero lies between two values of the cell: the same instance on a grid GRID times finer.
          refined = true;
          Database scaled = scaled(start, site, (Cell) v);
          List<Double> there = budget.evaluate(engine, scaled, site.sql());
          if (there != null && !there.isEmpty()) {
            Solver again = new Solver(site, scaled, v, there, engine, budget, probe);
            o = again.run();
            if (o != null) {
              return o;
            }
            exact |= again.exact;
          }
        }
        exact |= solver.exact;
        if (solver.solved) {
          solved++; // on the boundary without a difference: other rows of this seed mask it alike
        }
      }
      return null;
    }
  }

  /**
   * The instance with every number in the moved cell's column, and every decimal in another column the comparison's
   * sides read, multiplied by {@value #GRID} (a product of small primes): ratios between them kept, every difference
   * scaled. A weekend share of 0.4 between one sale of
   * 0.01 on a weekend and one of 0.01 on a weekday needs 0.0067: no value of either cell; at 0.60 and 0.60 the
   * weekend sale at 0.40 meets it exactly.
   */
  private static Database scaled(Database db, Site site, Cell moved) {
    Database out = db;
    for (Schema.Table t : db.tables()) {
      for (int c = 0; c < t.columns().size(); c++) {
        Cell first = movable(t, c, site.reads()) ? new Cell(t, 0, c, ValueType.of(t.columns().get(c).valueType()))
            : null;
        boolean same = t == moved.table() && c == moved.column();
        if (first == null || !same && !Set.of(ValueType.Family.DECIMAL, ValueType.Family.FLOAT)
            .contains(first.type().family())) {
          continue; // integers elsewhere are codes and counts more often than measures (a month compared with 12)
        }
        for (int r = 0; r < db.rows(t).size(); r++) {
          Cell cell = new Cell(t, r, c, first.type());
          BigDecimal x = cell.value(out);
          if (x != null && cell.takes(x.multiply(BigDecimal.valueOf(GRID)))) {
            out = cell.at(out, x.multiply(BigDecimal.valueOf(GRID)), "");
          }
        }
      }
    }
    return out.named(db.name() + ", its numbers " + GRID + " times larger");
  }

  /** Whether column {@code c} of {@code t} is named in {@code reads}, and neither in a key nor a foreign key. */
  private static boolean movable(Schema.Table t, int c, List<String> reads) {
    String name = t.columns().get(c).name();
    return reads.contains(name.toLowerCase(Locale.ROOT)) && !t.inKey(name) && t.foreignKeys().stream()
        .noneMatch(f -> f.columns().stream().anyMatch(name::equalsIgnoreCase));
  }

  /**
   * How many copies the first row of each table holding a column the comparison's block reads has, alone and with
   * the rows that join it; at most {@value #MAX_COPY_VARIABLES}.
   */
  private static List<Variable> copies(Database db, Site site, RowMoves rows) {
    List<Variable> out = new ArrayList<>();
    Set<Schema.Table> seen = new HashSet<>();
    for (String name : site.blockReads()) {
      for (Schema.Table t : db.tables()) {
        if (t.columnIndex(name) >= 0 && !db.rows(t).isEmpty() && seen.add(t)) {
          for (boolean withFacts : new boolean[] {false, true}) {
            if (out.size() < MAX_COPY_VARIABLES) {
              out.add(new Copies(t, 0, withFacts, rows.joins(), rows.read()));
            }
          }
        }
      }
    }
    return out;
  }

  /**
   * The instance with the first row of a table copied, with the rows that join it, and one column of the copy
   * changed (a text gets a suffix, a number one more, a date the next day): a second group where the comparison's
   * block reads or the queries group by that column, or a row on the other side of a CASE's condition within the
   * same group — kept where the comparison's distances take a value they did not have (a brand's share of its
   * category below 1, a store's weekend share between 0 and 1); at most {@value #MAX_DIVERSIFIED}.
   */
  private static List<Database> diversified(Database db, List<Double> before, Site site, RowMoves rows,
      Distances engine, Budget budget) throws SQLException {
    List<Database> out = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>(site.blockReads());
    names.addAll(rows.grouped());
    int tried = 0;
    Set<Double> had = new HashSet<>(before);
    for (String name : names) {
      for (Schema.Table t : db.tables()) {
        int c = t.columnIndex(name);
        if (c < 0 || db.rows(t).isEmpty() || t.inKey(name) || t.foreignKeys().stream().anyMatch(f -> f.columns()
            .stream().anyMatch(name::equalsIgnoreCase))) {
          continue;
        }
        String other = another(ValueType.of(t.columns().get(c).valueType()), db.rows(t).get(0).get(c));
        if (other == null || out.size() >= MAX_DIVERSIFIED || tried++ >= MAX_CELLS || budget.spent()) {
          continue;
        }
        Database copy = MutationSearch.copied(db, t, 0, c, other, rows.joins(), rows.read(), true);
        if (copy == null) {
          continue;
        }
        copy = copy.named(db.name() + ", a copy of " + t.name().toLowerCase(Locale.ROOT) + " row 1 with " + name
            + " = " + other);
        List<Double> d = budget.evaluate(engine, copy, site.sql());
        if (d != null && d.stream().anyMatch(v -> !had.contains(v))) {
          out.add(copy);
        }
      }
    }
    return out;
  }

  /** Another value of a cell's type: a text with a suffix, a number one more, the next day; null otherwise. */
  private static @Nullable String another(ValueType type, @Nullable String value) {
    if (value == null) {
      return null;
    }
    try {
      return switch (type.family()) {
        case STRING -> value + "*";
        case INTEGER, DECIMAL, FLOAT -> type.number(new BigDecimal(value.strip()).add(BigDecimal.ONE));
        case DATE -> LocalDate.parse(value.strip()).plusDays(1).toString();
        default -> null;
      };
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * The seed with a row added to an empty table the comparison's block reads, joined to the rows present ({@link
   * MutationSearch#partners}: a return matching a sale, where the comparison sits in a {@code NOT EXISTS} over
   * returns), or else with cells of columns the block reads moved far out or in (ten times their magnitude, at
   * least a hundred units), one cell at a time, until the probe returns a distance: a row (group) that now meets the
   * block's other conditions; null when none does within {@value #MAX_CELLS} cells. A move that does not yet give
   * the probe rows is kept where it gives the two queries' results and CTEs more rows (run through both queries,
   * at most {@value #MAX_REACH_RUNS} per check): TPC-DS q39b's outer comparison of a month's coefficient of variation
   * is reached only when two months of one item pass the CTE's own {@code cov > 1}, one move each. The approach
   * level of search-based testing: first reach the comparison, then put it on its boundary.
   */
  private static @Nullable Database reach(Database seed, Site site, Distances engine, Budget budget,
      ThresholdSearch.Probe probe, RowMoves rows) throws SQLException {
    // A table the block reads may be empty (a NOT EXISTS side no witness fills): a row joined to the rows present.
    List<Database> partners = MutationSearch.partners(seed, new HashSet<>(site.blockReads()), rows.domains(),
        rows.joins());
    for (Database added : partners.subList(0, Math.min(MAX_PARTNERS, partners.size()))) {
      List<Double> d = budget.evaluate(engine, added, site.sql());
      if (d != null && !d.isEmpty()) {
        return added;
      }
    }
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
      BigDecimal large = cell.large(x);
      for (BigDecimal v : List.of(x.add(large), x.subtract(large))) {
        if (!cell.takes(v)) {
          continue;
        }
        Database moved = cell.at(current, v, "(a row reaches the comparison)");
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

  /** What the search moves: a numeric or date cell, or how many copies of a row an instance holds. */
  private interface Variable {
    /** Its value on an instance (the cell's number, days for a date; no copies yet), null where it has none. */
    @Nullable BigDecimal value(Database db);

    /** Its smallest step. */
    BigDecimal unit();

    /** The exploratory moves from {@code x0}: a small one first, then large ones. */
    List<BigDecimal> steps(BigDecimal x0);

    /** Whether it can take the value {@code x}. */
    boolean takes(BigDecimal x);

    /** The instance with it at {@code x}; named after the move where {@code what} says why. */
    Database at(Database db, BigDecimal x, String what);
  }

  /** A cell to move: a table's row and column, and its type. */
  private record Cell(Schema.Table table, int row, int column, ValueType type) implements Variable {
    @Override
    public @Nullable BigDecimal value(Database db) {
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

    @Override
    public boolean takes(BigDecimal x) {
      return text(x) != null;
    }

    @Override
    public BigDecimal unit() {
      if (type.family() == ValueType.Family.DATE) {
        return BigDecimal.ONE;
      }
      Schema.Column c = table.columns().get(column);
      return BigDecimal.ONE.movePointLeft(ThresholdSearch.scale(type, c.type()));
    }

    /** Ten units, then ten times the value (at least a hundred units) either way. */
    @Override
    public List<BigDecimal> steps(BigDecimal x0) {
      BigDecimal large = large(x0);
      return List.of(unit().multiply(BigDecimal.TEN), large, large.negate());
    }

    BigDecimal large(BigDecimal x0) {
      return unit().multiply(BigDecimal.valueOf(100)).max(x0.abs().multiply(BigDecimal.TEN));
    }

    @Override
    public Database at(Database db, BigDecimal x, String what) {
      String text = text(x);
      Database out = db.withCell(table, row, column, text);
      return what.isEmpty() ? out : out.named(db.name() + ", " + table.name().toLowerCase(Locale.ROOT) + "."
          + table.columns().get(column).name().toLowerCase(Locale.ROOT) + " = " + text + " " + what);
    }
  }

  /**
   * How many copies of one row an instance holds besides it, each under fresh keys ({@link MutationSearch#copied}),
   * with the rows that join it by those keys copied too ({@code withFacts}: a sale with its return) or alone (a
   * sale without one): a count, or a ratio of counts ({@code count(sr_ticket_number) * 1.0 / count(*) > 0.2}), moves
   * with it as a sum moves with a cell, and is put on its bound by the same secant steps (one return among five
   * sales).
   */
  private record Copies(Schema.Table table, int row, boolean withFacts, List<QueryFacts.ColumnComparison> joins,
      Set<String> read) implements Variable {
    @Override
    public BigDecimal value(Database db) {
      return BigDecimal.ZERO;
    }

    @Override
    public BigDecimal unit() {
      return BigDecimal.ONE;
    }

    @Override
    public List<BigDecimal> steps(BigDecimal x0) {
      return List.of(BigDecimal.ONE, BigDecimal.valueOf(4));
    }

    @Override
    public boolean takes(BigDecimal x) {
      return x.signum() >= 0 && x.compareTo(BigDecimal.valueOf(MAX_COPIES)) <= 0 && x.stripTrailingZeros().scale() <= 0;
    }

    @Override
    public Database at(Database db, BigDecimal x, String what) {
      Database out = db;
      for (int k = 0; k < x.intValue(); k++) {
        Database next = MutationSearch.copied(out, table, row, -1, null, joins, read, withFacts);
        if (next == null) {
          break;
        }
        out = next;
      }
      return what.isEmpty() ? out : out.named(db.name() + ", row " + (row + 1) + " of "
          + table.name().toLowerCase(Locale.ROOT) + " copied " + x.intValue() + " time(s)"
          + (withFacts ? " with the rows joining it " : " ") + what);
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

  /** A cell set to a value. */
  private record Move(Cell cell, BigDecimal x) {}

  /** One variable moved until a distance that changes with it is zero, secant step by secant step. */
  private static final class Solver {
    private final Site site;
    private final Database seed;
    private final Variable variable;
    private final List<Double> before;
    private final Distances engine;
    private final Budget budget;
    private final ThresholdSearch.Probe probe;
    /** Whether a value of the variable put a distance on zero, or between two neighbouring values. */
    boolean solved;
    /** Whether a value put a distance exactly on zero. */
    boolean exact;

    Solver(Site site, Database seed, Variable variable, List<Double> before, Distances engine, Budget budget,
        ThresholdSearch.Probe probe) {
      this.site = site;
      this.seed = seed;
      this.variable = variable;
      this.before = before;
      this.engine = engine;
      this.budget = budget;
      this.probe = probe;
    }

    ThresholdSearch.@Nullable Outcome run() throws SQLException {
      BigDecimal x0 = variable.value(seed);
      if (x0 == null) {
        return null;
      }
      BigDecimal unit = variable.unit();
      // A small step first (the zero of a sum or an average), then large ones either way: a ratio of the cell to
      // sums that hold it (a coefficient of variation) has its zeros far from the cell's value, on either side.
      List<Root> roots = new ArrayList<>();
      steps:
      for (BigDecimal step : variable.steps(x0)) {
        BigDecimal x1 = x0.add(step);
        if (!variable.takes(x1) || budget.spent()) {
          continue;
        }
        List<Double> after = budget.evaluate(engine, variable.at(seed, x1, ""), site.sql());
        if (after == null) {
          return null;
        }
        List<Double> removed = minus(before, after);
        List<Double> added = minus(after, before);
        Collections.sort(removed);
        Collections.sort(added);
        List<Double> unchanged = minus(before, removed);
        for (int k = 0; k < Math.min(2, Math.min(removed.size(), added.size())); k++) {
          Root r = root(x0, removed.get(k), x1, added.get(k), unchanged, unit, k);
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
        exact |= r.exact();
        List<Move> moves = r.exact() ? unmasking(variable.at(seed, r.x(), "")) : List.of();
        for (BigDecimal v : List.of(r.x(), r.x().subtract(unit), r.x().add(unit))) {
          if (!variable.takes(v)) {
            continue;
          }
          Database instance = variable.at(seed, v, "(on the boundary of " + site.what()
              + (v.equals(r.x()) ? " = 0)" : ", one unit off)"));
          for (Move m : moves) {
            instance = m.cell().at(instance, m.x(), "(its other evaluations on the side that holds)");
          }
          ThresholdSearch.Outcome o = budget.run(probe, instance);
          if (o != null && o.different()) {
            return o;
          }
        }
      }
      return null;
    }

    /**
     * The moves of other cells that put as many of the comparison's other evaluations as one large move each (out
     * or in, first-improvement hill climbing) can on the side where the comparison holds, the boundary kept: another
     * group of the query that must pass the same comparison for the first to reach the answer (TPC-DS q39's two
     * months of one item, joined: one month's coefficient of variation exactly 1, the other's above).
     */
    private List<Move> unmasking(Database onBoundary) throws SQLException {
      List<Move> moves = new ArrayList<>();
      if (site.passing() == 0) {
        return moves;
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
        if (other.equals(variable) || x == null) {
          continue;
        }
        BigDecimal large = other.large(x);
        for (BigDecimal moved : List.of(x.add(large), x.subtract(large))) {
          if (!other.takes(moved)) {
            continue;
          }
          Database candidate = other.at(current, moved, "");
          List<Double> d = budget.evaluate(engine, candidate, site.sql());
          if (d != null && d.stream().anyMatch(v -> Math.abs(v) <= ZERO) && failing(d) < failing) {
            current = candidate;
            failing = failing(d);
            moves.add(new Move(other, moved));
            break;
          }
        }
      }
      return moves;
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

    /**
     * Secant steps from (xa, fa) and (xb, fb), in units of the variable, to a zero of the {@code k}-th (in order) of
     * the distances the variable moves; null where there is none.
     */
    private @Nullable Root root(BigDecimal xa, double fa, BigDecimal xb, double fb, List<Double> unchanged,
        BigDecimal unit, int k) throws SQLException {
      for (int step = 0; step < MAX_STEPS && fa != fb && !budget.spent(); step++) {
        BigDecimal next;
        try {
          next = xb.subtract(BigDecimal.valueOf(fb).multiply(xb.subtract(xa))
              .divide(BigDecimal.valueOf(fb - fa), MathContext.DECIMAL64));
        } catch (ArithmeticException | NumberFormatException e) {
          return null;
        }
        next = next.divide(unit, 0, RoundingMode.HALF_EVEN).multiply(unit);
        if (!variable.takes(next)) {
          return null;
        }
        if (next.compareTo(xb) == 0 || next.compareTo(xa) == 0) {
          return new Root(next, false); // within half a unit of the zero: it lies between two values of the column
        }
        List<Double> at = budget.evaluate(engine, variable.at(seed, next, ""), site.sql());
        if (at == null) {
          return null;
        }
        // The evaluations the variable moves, in order: the k-th is the one followed (two groups' shares of one
        // partition both move with one cell, one up and one down).
        List<Double> moved = minus(at, unchanged);
        Collections.sort(moved);
        double f = moved.isEmpty() ? Double.NaN : moved.get(Math.min(k, moved.size() - 1));
        if (Double.isNaN(f)) {
          return null;
        }
        if (Math.abs(f) <= 1e-9 * Math.max(1, Math.abs(fa))) {
          return new Root(next, true);
        }
        xa = xb;
        fa = fb;
        xb = next;
        fb = f;
      }
      return null; // no convergence, or a step (a CASE's condition moved across): no zero to stand on
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
