package dev.lakerewrite.core.optimize;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Where a plan's cost goes, per {@link PlanSymptom}: the share of the total operator time (of the estimated rows
 * when the plan was not measured) spent in operators that show the symptom, counting a correlated subplan or a
 * nested loop with its whole subtree. A symptom is <em>dominant</em> from {@link #DOMINANT} of the total; the
 * optimizer proposes only recipes that target a dominant symptom. An estimated plan (the original ran past its
 * limit, so it could not be measured) cannot rule a recipe out: estimated rows say little of where time goes (a
 * CTE scanned four times is a small share of rows beside the millions that build it, TPC-DS q11 on PostgreSQL),
 * and these are the queries that need a rewrite most; there every recipe applies, heaviest symptom first.
 * Linear in the number of operators.
 */
final class PlanProfile {
  /** Share of the plan's cost from which a symptom is dominant. */
  static final double DOMINANT = 0.10;
  private static final long LARGE = 100_000;

  /** A join's actual rows at least this many times its estimate (and at least {@link #MISESTIMATED_ROWS}). */
  static final long MISESTIMATE = 10;
  private static final long MISESTIMATED_ROWS = 1_000;

  /** A multi-key join keeps at most this share of its larger input's rows to be selective. */
  static final long SELECTIVE = 10;
  private static final java.util.regex.Pattern EQUALITY =
      java.util.regex.Pattern.compile("([\\w.\"]+) = ([\\w.\"]+)");

  private final Map<PlanSymptom, Double> shares;
  private final boolean measured;
  private final Set<String> lateFilters;
  private final List<List<List<String>>> multiKeyJoins;

  private PlanProfile(Map<PlanSymptom, Double> shares, boolean measured) {
    this(shares, measured, Set.of(), List.of());
  }

  private PlanProfile(Map<PlanSymptom, Double> shares, boolean measured, Set<String> lateFilters,
      List<List<List<String>>> multiKeyJoins) {
    this.shares = shares;
    this.measured = measured;
    this.lateFilters = Set.copyOf(lateFilters);
    this.multiKeyJoins = List.copyOf(multiKeyJoins);
  }

  /** The profile of a plan; null (no plan could be read) gives a profile in which every symptom counts. */
  static PlanProfile of(ExecutionPlan plan) {
    Map<PlanSymptom, Double> shares = new EnumMap<>(PlanSymptom.class);
    if (plan == null) {
      for (PlanSymptom s : PlanSymptom.values()) {
        shares.put(s, 1.0);
      }
      return new PlanProfile(shares, false);
    }
    boolean measured = plan.analyzed();
    List<ExecutionPlan.Operator> ops = plan.operators();
    double total = 0;
    for (ExecutionPlan.Operator o : ops) {
      total += cost(o, measured);
    }
    if (total <= 0) {
      total = 1;
    }
    Map<String, Double> scanCost = new HashMap<>();
    Map<String, Integer> scanCount = new HashMap<>();
    List<List<List<String>>> multiKeyJoins = new ArrayList<>();
    for (ExecutionPlan.Operator o : ops) {
      String type = o.type();
      String info = String.join(" ", o.info().values()).toUpperCase(Locale.ROOT);
      double own = cost(o, measured) / total;
      if ("SubPlan".equalsIgnoreCase(o.info().getOrDefault("Relationship", "")) && (o.loops() > 1 || !measured)
          || type.startsWith("DELIM_") || type.equals("RIGHT_DELIM_JOIN") || type.equals("LEFT_DELIM_JOIN")) {
        // Estimates say nothing of how often a subplan runs (once per outer row): it counts as dominant.
        add(shares, PlanSymptom.CORRELATED_SUBQUERY, measured ? subtree(o, measured) / total : 1.0);
      }
      if ((type.contains("NESTED_LOOP") || type.equals("CROSS_PRODUCT") || type.contains("BLOCKWISE")
          || type.contains("PIECEWISE")) && largeInputs(o)) {
        add(shares, PlanSymptom.NESTED_LOOP_JOIN, subtree(o, measured) / total);
      }
      String table = o.info().get("Table");
      if (table != null && type.contains("SCAN")) {
        String t = table.substring(table.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        scanCost.merge(t, own, Double::sum);
        scanCount.merge(t, 1, Integer::sum);
      }
      ExecutionPlan.Operator input = o.children().isEmpty() ? null : belowPassThrough(o.children().get(0));
      if (isAggregate(type) && input != null && isJoin(input.type())) {
        add(shares, PlanSymptom.AGGREGATE_OVER_JOIN, (cost(o, measured) + cost(input, measured)) / total);
      }
      boolean discards = o.scanned() > LARGE && o.rows() >= 0 && o.rows() < o.scanned() / 10;
      if (type.equals("FILTER") || discards || type.contains("CTE") && o.info().containsKey("Filters")) {
        add(shares, PlanSymptom.LATE_FILTER, own);
      }
      if (info.contains(" OR ")) {
        add(shares, PlanSymptom.OR_CONDITION, isJoin(type) ? subtree(o, measured) / total : own);
      }
      if (type.contains("SETOP") || type.contains("INTERSECT") || type.contains("EXCEPT")) {
        add(shares, PlanSymptom.SET_OPERATION, subtree(o, measured) / total);
      }
      if (type.contains("CTE")) {
        add(shares, PlanSymptom.CTE_SCAN, Math.max(own, 0.5 * subtree(o, measured) / total));
      }
      if (type.contains("WINDOW") || type.equalsIgnoreCase("WindowAgg")) {
        add(shares, PlanSymptom.WINDOW, own);
      }
      List<List<String>> keys = measured && isJoin(type) ? equalities(o.info().get("Conditions")) : List.of();
      ExecutionPlan.Operator larger = keys.size() < 2 ? null : largerInput(o);
      if (larger != null && larger.rows() >= LARGE && o.rows() >= 0 && o.rows() * SELECTIVE <= larger.rows()) {
        add(shares, PlanSymptom.SELECTIVE_MULTI_KEY_JOIN, (cost(o, measured) + cost(larger, measured)) / total);
        multiKeyJoins.add(keys);
      }
      String joinType = o.info().getOrDefault("Join Type", "").toUpperCase(Locale.ROOT);
      if (isJoin(type) && (joinType.contains("LEFT") || joinType.contains("RIGHT") || joinType.contains("FULL"))) {
        add(shares, PlanSymptom.OUTER_JOIN, own);
      }
    }
    scanCount.forEach((t, n) -> {
      if (n > 1) {
        add(shares, PlanSymptom.REPEATED_SCAN, scanCost.get(t));
      }
    });
    Set<String> late = new java.util.TreeSet<>();
    if (measured) {
      lateFilters(plan.root(), late);
    }
    return new PlanProfile(shares, measured, late, multiKeyJoins);
  }

  /**
   * The column equalities of a join condition as pairs of lower-case column names without qualifier: DuckDB's
   * {@code a = b, c = d}, PostgreSQL's {@code ((x.a = y.b) AND (x.c = y.d))}.
   */
  static List<List<String>> equalities(String conditions) {
    List<List<String>> out = new ArrayList<>();
    if (conditions == null) {
      return out;
    }
    java.util.regex.Matcher m = EQUALITY.matcher(conditions);
    while (m.find()) {
      out.add(List.of(bare(m.group(1)), bare(m.group(2))));
    }
    return out;
  }

  private static String bare(String name) {
    return name.substring(name.lastIndexOf('.') + 1).replace("\"", "").toLowerCase(Locale.ROOT);
  }

  /** The input of a join with the most rows (below pass-through operators), null without two. */
  private static ExecutionPlan.Operator largerInput(ExecutionPlan.Operator join) {
    if (join.children().size() != 2) {
      return null;
    }
    ExecutionPlan.Operator a = belowPassThrough(join.children().get(0));
    ExecutionPlan.Operator b = belowPassThrough(join.children().get(1));
    return a.rows() >= b.rows() ? a : b;
  }

  /**
   * The measured joins on two or more column equalities that keep at most 1 / {@link #SELECTIVE} of their larger
   * input's rows (at least {@code 100,000}): each as its equalities, pairs of bare lower-case column names.
   */
  List<List<List<String>>> multiKeyJoins() {
    return multiKeyJoins;
  }

  /**
   * The aliases of filtered scans that a measured plan joins only above a join it misestimated: the scan is the
   * inner side of a join (below a hash, memoize or materialize node) whose outer side holds a join with at least
   * {@link #MISESTIMATE} times the rows estimated, and its filter discards at least half of what it reads. The
   * planner, believing the rows few, put the selective filter last (TPC-DS q17 on PostgreSQL: store returns joined
   * to store sales estimated at one row, 30,000 actual, each probing catalog sales by index, and the date
   * dimension's quarter filter applied to the 33 rows that come out at the top).
   */
  private static void lateFilters(ExecutionPlan.Operator o, Set<String> out) {
    if (isJoin(o.type()) && o.children().size() == 2) {
      ExecutionPlan.Operator inner = o.children().get(1);
      while (inner.children().size() == 1 && INNER_PASS_THROUGH.contains(inner.type())) {
        inner = inner.children().get(0);
      }
      String alias = inner.info().get("Alias");
      if (alias != null && inner.type().contains("SCAN") && inner.info().containsKey("Filters")
          && inner.scanned() > 0 && inner.rows() >= 0 && 2 * inner.rows() <= inner.scanned()
          && misestimatedJoin(o.children().get(0))) {
        out.add(alias.toLowerCase(Locale.ROOT));
      }
    }
    for (ExecutionPlan.Operator c : o.children()) {
      lateFilters(c, out);
    }
  }

  private static final Set<String> INNER_PASS_THROUGH = Set.of("HASH", "MEMOIZE", "MATERIALIZE");

  private static boolean misestimatedJoin(ExecutionPlan.Operator o) {
    if (isJoin(o.type()) && o.rows() >= MISESTIMATED_ROWS && o.estimated() >= 0
        && o.rows() >= MISESTIMATE * Math.max(1, o.estimated())) {
      return true;
    }
    for (ExecutionPlan.Operator c : o.children()) {
      if (misestimatedJoin(c)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The aliases (lower case) of filtered scans the measured plan applies only above a misestimated join (empty for
   * an estimated plan).
   */
  Set<String> lateFilters() {
    return lateFilters;
  }

  private static void add(Map<PlanSymptom, Double> shares, PlanSymptom s, double share) {
    shares.merge(s, Math.min(1.0, share), (a, b) -> Math.min(1.0, a + b));
  }

  /** An operator's own cost: measured time, or for estimated plans its estimated rows. */
  private static double cost(ExecutionPlan.Operator o, boolean measured) {
    return measured ? Math.max(0, o.seconds()) : Math.max(0, o.estimated());
  }

  private static double subtree(ExecutionPlan.Operator o, boolean measured) {
    double c = cost(o, measured);
    for (ExecutionPlan.Operator child : o.children()) {
      c += subtree(child, measured);
    }
    return c;
  }

  private static boolean largeInputs(ExecutionPlan.Operator o) {
    double product = 1;
    for (ExecutionPlan.Operator c : o.children()) {
      long rows = c.rows() >= 0 ? c.rows() : c.estimated();
      product *= Math.max(1, rows);
    }
    return product > 1e6 || o.loops() > 1000;
  }

  /** Operators that pass their input's rows on to an aggregate: DuckDB projects, PostgreSQL sorts and gathers. */
  private static final Set<String> PASS_THROUGH = Set.of("PROJECTION", "SORT", "INCREMENTAL_SORT",
      "GATHER", "GATHER_MERGE");

  /** The first operator below a chain of {@link #PASS_THROUGH} operators. */
  private static ExecutionPlan.Operator belowPassThrough(ExecutionPlan.Operator o) {
    ExecutionPlan.Operator at = o;
    while (at.children().size() == 1 && PASS_THROUGH.contains(at.type())) {
      at = at.children().get(0);
    }
    return at;
  }

  private static boolean isAggregate(String type) {
    return type.contains("GROUP_BY") || type.equals("AGGREGATE") || type.contains("HASH_AGGREGATE")
        || type.equals("UNGROUPED_AGGREGATE");
  }

  private static boolean isJoin(String type) {
    return type.contains("JOIN") || type.equals("NESTED_LOOP") || type.equals("HASH_JOIN")
        || type.equals("MERGE_JOIN") || type.equals("CROSS_PRODUCT");
  }

  /** The share of this symptom (0 when absent). */
  double share(PlanSymptom s) {
    return shares.getOrDefault(s, 0.0);
  }

  /** Whether any of these symptoms is dominant; always, when the plan could not be measured. */
  boolean dominantAny(Collection<PlanSymptom> symptoms) {
    return !measured || symptoms.stream().anyMatch(s -> share(s) >= DOMINANT);
  }

  /** The largest share among these symptoms (recipes are tried in this order). */
  double weight(Collection<PlanSymptom> symptoms) {
    return symptoms.stream().mapToDouble(this::share).max().orElse(0);
  }

  /** The dominant symptoms with their shares, for the trace. */
  String describe() {
    List<String> parts = new ArrayList<>();
    shares.entrySet().stream().filter(e -> e.getValue() >= DOMINANT)
        .sorted(Map.Entry.<PlanSymptom, Double>comparingByValue().reversed())
        .forEach(e -> parts.add(String.format(Locale.ROOT, "%s %.0f%%", e.getKey(), 100 * e.getValue())));
    return (measured ? "measured plan: " : "estimated plan: ")
        + (parts.isEmpty() ? "no dominant symptom" : String.join(", ", parts))
        + (lateFilters.isEmpty() ? "" : "; filters applied above a misestimated join: " + String.join(", ",
            lateFilters))
        + (measured ? "" : " (estimates cannot rule a recipe out: every recipe is tried)");
  }
}
