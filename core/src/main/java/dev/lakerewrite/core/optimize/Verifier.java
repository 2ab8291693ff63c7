package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.Engine;
import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.QueryFailedException;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.equivalence.EquivalenceEvidence;
import dev.lakerewrite.core.equivalence.InstanceCheck;
import dev.lakerewrite.core.equivalence.ResultComparison;
import dev.lakerewrite.core.sql.Trees;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Verifies candidates against one original query, the same way for every candidate: executable (admitted by the
 * safe executor, binds, EXPLAIN works), equivalent (results equal on the target with any LIMIT removed, then on
 * every further instance; multiset, ordered where the original orders), and timed (warm-up, then runs alternating
 * with the original; trimmed means). The original's results per instance are computed once.
 */
final class Verifier {
  /** Rows beyond which a result is too large to compare (the comparison is then refused, not guessed). */
  static final int DEFAULT_MAX_COMPARED_ROWS = 1_000_000;
  private static final int DIFF_ROWS = 5;
  private static final String ADMISSION_PREFIX = "SELECT * FROM (\n";

  /** Settings of verification and timing: the original's time limit, the rows compared at most, warm-up runs. */
  record Settings(Duration queryTimeout, int maxComparedRows, int warmups) {}

  /** The outcome of the executability check. */
  record Executability(boolean ok, Optional<QueryError> error, Optional<ExecutionPlan> plan) {}

  /** The original's timing and a candidate's, measured alternately (run i of each side back to back). */
  record TimedPair(Timing original, Timing candidate) {
    /** Original trimmed mean over candidate trimmed mean. */
    double trimmedSpeedup() {
      if (candidate.timedOut() || candidate.trimmedMean().isZero()) {
        return candidate.timedOut() ? 0 : Double.POSITIVE_INFINITY;
      }
      return (double) original.trimmedMean().toNanos() / candidate.trimmedMean().toNanos();
    }

    /**
     * The median of the per-pair ratios (original run i / candidate run i): the two runs of a pair are back to back,
     * so load that drifts over the measurement (other processes on the machine) cancels out.
     */
    double pairedSpeedup() {
      double[] ratios = pairRatios();
      int n = ratios.length;
      if (candidate.timedOut() || n == 0) {
        return 0;
      }
      return n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
    }

    /** The per-pair ratios original run i / candidate run i, sorted. */
    double[] pairRatios() {
      double[] ratios = ratios(original.runs(), candidate.runs()).stream().mapToDouble(Double::doubleValue)
          .toArray();
      java.util.Arrays.sort(ratios);
      return ratios;
    }

    /** The conservative speedup a decision rests on: the smaller of the trimmed-mean and the paired estimate. */
    double speedup() {
      return Math.min(trimmedSpeedup(), pairedSpeedup());
    }

    /**
     * The one-sided 95 % lower confidence bound of the speedup: the pairs' ratios (original over candidate, run
     * back to back) are taken as independent draws, and the bound is {@code exp(m - t * s / sqrt(n))} for the mean
     * {@code m} and standard deviation {@code s} of their logarithms and Student's t quantile with {@code n - 1}
     * degrees of freedom (the paired t-test on log times). Above 1, the candidate is faster with 95 % confidence
     * however small its gain; a large gain measured with scattered pairs stays below 1. One pair gives its ratio
     * (there is no spread to estimate), none or a candidate that timed out 0.
     */
    double lowerBound() {
      return lowerBound(0.95);
    }

    /** The one-sided lower confidence bound at {@code level} (0.95 or 0.975), as {@link #lowerBound()}. */
    double lowerBound(double level) {
      double[] ratios = pairRatios();
      int n = ratios.length;
      if (candidate.timedOut() || n == 0) {
        return 0;
      }
      return n == 1 ? ratios[0] : SpeedupRule.bound(ratios, -studentT(n - 1, level));
    }
  }

  /** One-sided 95 % quantiles of Student's t for 1 to 30 degrees of freedom (any statistics table). */
  private static final double[] T95 = {6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812,
      1.796, 1.782, 1.771, 1.761, 1.753, 1.746, 1.740, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708,
      1.706, 1.703, 1.701, 1.699, 1.697};
  /** One-sided 97.5 % quantiles of Student's t for 1 to 30 degrees of freedom (any statistics table). */
  private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
      2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
      2.056, 2.052, 2.048, 2.045, 2.042};

  /**
   * The one-sided quantile of Student's t with {@code df} degrees of freedom at {@code level} 0.95 or 0.975: the
   * table up to 30, beyond it the Cornish-Fisher expansion around the normal quantile (Abramowitz and Stegun
   * 26.7.5; exact to three decimals there).
   */
  static double studentT(int df, double level) {
    if (df < 1) {
      throw new IllegalArgumentException("degrees of freedom must be at least 1, was " + df);
    }
    double[] table;
    double z;
    if (level == 0.95) {
      table = T95;
      z = 1.6448536;
    } else if (level == 0.975) {
      table = T975;
      z = 1.9599640;
    } else {
      throw new IllegalArgumentException("quantiles at 0.95 and 0.975 only, not " + level);
    }
    if (df <= table.length) {
      return table[df - 1];
    }
    double z3 = z * z * z;
    double z5 = z3 * z * z;
    return z + (z3 + z) / (4.0 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96.0 * df * df);
  }

  private final Trees trees;
  private final Instance target;
  private final java.util.function.Supplier<List<Instance>> furtherInstances;
  private @Nullable List<Instance> instances;
  private final Settings settings;
  private final String original;
  private final String originalUnlimited;
  private final String originalLimit;
  private ResultComparison.@Nullable Order order;
  private final Map<String, Execution> originalResults = new LinkedHashMap<>();
  private Duration originalElapsed = Duration.ZERO;
  private boolean originalTimedOut;

  Verifier(Trees trees, Instance target, java.util.function.Supplier<List<Instance>> furtherInstances,
      Settings settings, String original) {
    this.trees = trees;
    this.target = target;
    this.furtherInstances = furtherInstances;
    this.settings = settings;
    this.original = original;
    ObjectNode statement = trees.statement(original);
    ObjectNode node = (ObjectNode) statement.get("node");
    this.originalLimit = limitText(node);
    Trees.removeLimit(node);
    this.originalUnlimited = PostgresDialect.forTarget(target.executor().engine(), trees.render(statement), original);
    this.order = null;
  }

  private Verifier(Verifier base, ResultComparison.Order order) {
    this.trees = base.trees;
    this.target = base.target;
    this.furtherInstances = base.furtherInstances;
    this.settings = base.settings;
    this.original = base.original;
    this.originalUnlimited = base.originalUnlimited;
    this.originalLimit = base.originalLimit;
    this.order = order;
  }

  /** {@link #prepare(Trees, Instance, java.util.function.Supplier, Settings, String)} with instances built already. */
  static Prepared prepare(Trees trees, Instance target, List<Instance> further, Settings settings, String original) {
    List<Instance> copy = List.copyOf(further);
    return prepare(trees, target, () -> copy, settings, original);
  }

  /**
   * Runs the original on the target (without LIMIT) and works out how its rows are ordered. The further instances
   * are built (and the original run on them) only when the first candidate is checked for equivalence, or at once
   * when the original runs past its limit on the target (they are then the only place to compare): most queries
   * get no candidate that gets that far, and building a sample of a large database takes seconds. Returns the
   * failure when the original itself fails on the target.
   */
  static Prepared prepare(Trees trees, Instance target, java.util.function.Supplier<List<Instance>> further,
      Settings settings, String original) {
    Verifier v = new Verifier(trees, target, further, settings, original);
    Execution onTarget = target.executor().execute(v.originalUnlimited, limits(settings, settings.queryTimeout()));
    if (!onTarget.isSuccess() && onTarget.error().orElseThrow().kind() == ErrorKind.TIMEOUT) {
      // Once more before its limit stands for its time: a first run may read cold pages or meet a load peak
      // (TPC-DS q48 on PostgreSQL ran past 20 s once and in 2.5 s after, and a candidate was credited 9.5x).
      onTarget = target.executor().execute(v.originalUnlimited, limits(settings, settings.queryTimeout()));
    }
    if (!onTarget.isSuccess() && onTarget.error().orElseThrow().kind() == ErrorKind.TIMEOUT) {
      // An original that runs for minutes: its time limit is a lower bound of its time, and candidates are
      // checked on the further instances only (there must be one where the original finishes).
      Verifier timedOut = new Verifier(v, ResultComparison.Order.strict());
      timedOut.originalTimedOut = true;
      timedOut.originalElapsed = settings.queryTimeout();
      timedOut.originalResults.put(target.name(), onTarget);
      timedOut.instances = List.copyOf(further.get());
      for (Instance i : timedOut.instances) {
        Execution e = i.execute(timedOut.originalUnlimited, limits(settings, settings.queryTimeout()));
        timedOut.originalResults.put(i.name(), e);
        if (e.isSuccess()) {
          timedOut.order = timedOut.orderOf(e.table());
        }
      }
      if (timedOut.originalResults.values().stream().noneMatch(Execution::isSuccess)) {
        return new Prepared(null, onTarget.error().orElseThrow().summary() + "; and no smaller instance to check"
            + " candidates on finishes either");
      }
      return new Prepared(timedOut, null);
    }
    if (!onTarget.isSuccess()) {
      return new Prepared(null, onTarget.error().orElseThrow().summary());
    }
    if (onTarget.table().truncated()) {
      return new Prepared(null, "the original returns more than " + settings.maxComparedRows()
          + " rows without its LIMIT: too many to compare results");
    }
    Verifier ordered = new Verifier(v, v.orderOf(onTarget.table()));
    ordered.originalElapsed = onTarget.elapsed();
    ordered.originalResults.put(target.name(), onTarget);
    return new Prepared(ordered, null);
  }

  /** The further instances, built and the original run on each at the first call. */
  private List<Instance> instances() {
    if (instances == null) {
      instances = List.copyOf(furtherInstances.get());
      for (Instance i : instances) {
        originalResults.put(i.name(), i.execute(originalUnlimited, limits(settings, settings.queryTimeout())));
      }
    }
    return instances;
  }

  /** The prepared verifier, or why the original cannot be optimised. */
  record Prepared(@Nullable Verifier verifier, @Nullable String failure) {}

  private static QueryLimits limits(Settings s, Duration timeout) {
    return new QueryLimits(timeout, s.maxComparedRows());
  }

  String original() {
    return original;
  }

  Duration originalElapsed() {
    return originalElapsed;
  }

  /** Whether the original ran past the query timeout on the target (its time is then a lower bound). */
  boolean originalTimedOut() {
    return originalTimedOut;
  }

  /** The original's result on the target, or on the first instance where it finished when it timed out there. */
  ResultTable originalResult() {
    return originalResults.values().stream().filter(Execution::isSuccess).findFirst().orElseThrow().table();
  }

  boolean ordered() {
    return order.ordered();
  }

  /**
   * The instances the original ran on so far (further instances only once a candidate was checked on them), with a
   * note for those where it failed (they are skipped).
   */
  List<String> instanceNotes() {
    List<String> out = new ArrayList<>();
    originalResults.forEach((name, e) -> out.add(name + ": " + (e.isSuccess()
        ? e.table().rowCount() + " rows from the original" : "skipped, the original fails there: "
        + e.error().orElseThrow().summary())));
    return out;
  }

  /** Admission (one read-only query), binding, and the plan from EXPLAIN. */
  Executability executable(String sql) {
    String body = stripSemicolons(sql);
    Execution admitted = target.executor().execute(ADMISSION_PREFIX + body + "\n) AS lakerewrite_admission LIMIT 0",
        new QueryLimits(settings.queryTimeout(), 1));
    if (!admitted.isSuccess()) {
      QueryError e = admitted.error().orElseThrow();
      int pos = e.position() >= ADMISSION_PREFIX.length() ? e.position() - ADMISSION_PREFIX.length() : -1;
      String message = e.message().replace("lakerewrite_admission", "query");
      return new Executability(false, Optional.of(new QueryError(e.kind(), message, pos, sql)), Optional.empty());
    }
    Execution explained = target.executor().explain(body, false,
        new QueryLimits(settings.queryTimeout(), 10));
    if (!explained.isSuccess()) {
      return new Executability(false, explained.error(), Optional.empty());
    }
    return new Executability(true, Optional.empty(), Optional.of(plan(explained, false)));
  }

  /** The original's plan with actual cardinalities and timings (runs the query once more). */
  Optional<ExecutionPlan> analyzedPlan(String sql) {
    Execution e = target.executor().explain(stripSemicolons(sql), true,
        new QueryLimits(settings.queryTimeout(), 10));
    return e.isSuccess() ? Optional.of(plan(e, true)) : Optional.empty();
  }

  /** The original's plan with estimated cardinalities only (does not run it). */
  Optional<ExecutionPlan> estimatedPlan(String sql) {
    Execution e = target.executor().explain(stripSemicolons(sql), false,
        new QueryLimits(settings.queryTimeout(), 10));
    return e.isSuccess() ? Optional.of(plan(e, false)) : Optional.empty();
  }

  private static ExecutionPlan plan(Execution e, boolean analyzed) {
    ResultTable t = e.table();
    int col = t.columnIndex("explain_value").orElse(t.columnCount() - 1);
    return ExecutionPlan.parse(String.valueOf(t.get(0, col)), analyzed);
  }

  /** Outcome of the equivalence check; {@code timedOut} when the candidate ran past its time limit. */
  record Equivalence(EquivalenceEvidence evidence, boolean timedOut, Optional<QueryError> error) {}

  /** Compares the candidate's results with the original's on every instance, stopping at the first difference. */
  Equivalence equivalent(String candidate) {
    List<InstanceCheck> checks = new ArrayList<>();
    ObjectNode statement = trees.statement(candidate);
    ObjectNode node = (ObjectNode) statement.get("node");
    String candidateLimit = limitText(node);
    boolean limitRemoved = Trees.removeLimit(node);
    limitRemoved |= !originalLimit.isEmpty();
    if (!candidateLimit.equals(originalLimit)) {
      checks.add(new InstanceCheck("target", false, "LIMIT differs: the original has "
          + (originalLimit.isEmpty() ? "none" : originalLimit) + ", the candidate "
          + (candidateLimit.isEmpty() ? "none" : candidateLimit), -1, -1, List.of(), List.of()));
      return new Equivalence(new EquivalenceEvidence(false, order.ordered(), limitRemoved, checks), false,
          Optional.empty());
    }
    String unlimited = PostgresDialect.forTarget(target.executor().engine(), trees.render(statement), original);
    List<Instance> all = new ArrayList<>();
    all.add(target);
    all.addAll(instances());
    for (Instance instance : all) {
      Execution mine = originalResults.get(instance.name());
      if (mine == null || !mine.isSuccess()) {
        continue;
      }
      Duration limit = instance == target ? candidateTimeout() : timeoutAfter(mine.elapsed());
      Execution theirs = instance.execute(unlimited, limits(settings, limit));
      if (!theirs.isSuccess()) {
        QueryError e = theirs.error().orElseThrow();
        if (e.kind() == ErrorKind.TIMEOUT) {
          checks.add(new InstanceCheck(instance.name(), false, "ran past the time limit of " + limit.toMillis()
              + " ms", mine.table().rowCount(), -1, List.of(), List.of()));
          return new Equivalence(new EquivalenceEvidence(false, order.ordered(), limitRemoved, checks), true,
              Optional.of(e));
        }
        checks.add(new InstanceCheck(instance.name(), false, "the candidate fails here: " + e.summary(),
            mine.table().rowCount(), -1, List.of(), List.of()));
        return new Equivalence(new EquivalenceEvidence(false, order.ordered(), limitRemoved, checks), false,
            Optional.of(e));
      }
      if (theirs.table().truncated()) {
        checks.add(new InstanceCheck(instance.name(), false, "the candidate returns more than "
            + settings.maxComparedRows() + " rows", mine.table().rowCount(), -1, List.of(), List.of()));
        return new Equivalence(new EquivalenceEvidence(false, order.ordered(), limitRemoved, checks), false,
            Optional.empty());
      }
      ResultComparison.Outcome outcome = ResultComparison.compare(mine.table(), theirs.table(), order, DIFF_ROWS);
      if (!outcome.equal() && order.ordered() && order.keyColumns().isEmpty()
          && outcome.detail().startsWith("same rows in a different order")) {
        outcome = compareWithSortKeys(instance, statement, limit).orElse(outcome);
      }
      checks.add(new InstanceCheck(instance.name(), outcome.equal(), outcome.detail(), mine.table().rowCount(),
          theirs.table().rowCount(), outcome.onlyInFirst(), outcome.onlyInSecond()));
      if (!outcome.equal()) {
        return new Equivalence(new EquivalenceEvidence(false, order.ordered(), limitRemoved, checks), false,
            Optional.empty());
      }
    }
    if (checks.isEmpty()) {
      checks.add(new InstanceCheck("target", false, "no instance where the original finishes to compare on", -1,
          -1, List.of(), List.of()));
      return new Equivalence(new EquivalenceEvidence(false, order.ordered(), limitRemoved, checks), false,
          Optional.empty());
    }
    return new Equivalence(new EquivalenceEvidence(true, order.ordered(), limitRemoved, checks), false,
        Optional.empty());
  }

  /**
   * The original orders by expressions that are not output columns, so its ties cannot be told from its rows:
   * both queries run again with those expressions appended as output columns (the candidate must order by the
   * same expressions), and are compared ordered by them, ties in any order. Each row then carries its sort keys,
   * so equal results are equally sorted. Empty when that cannot be done (DISTINCT, another ORDER BY, a failure).
   */
  private Optional<ResultComparison.Outcome> compareWithSortKeys(Instance instance, ObjectNode candidate,
      Duration limit) {
    try {
      ObjectNode originalStatement = trees.statement(original);
      Trees.removeLimit((ObjectNode) originalStatement.get("node"));
      ObjectNode candidateStatement = candidate.deepCopy();
      List<Integer> keys = new ArrayList<>();
      if (!appendSortKeys((ObjectNode) originalStatement.get("node"), keys)
          || !appendSortKeys((ObjectNode) candidateStatement.get("node"), new ArrayList<>())
          || !orderTexts(originalStatement.get("node")).equals(orderTexts(candidateStatement.get("node")))) {
        return Optional.empty();
      }
      Engine engine = target.executor().engine();
      Execution mine = instance.execute(
          PostgresDialect.forTarget(engine, trees.render(originalStatement), original),
          limits(settings, settings.queryTimeout()));
      Execution theirs = instance.execute(
          PostgresDialect.forTarget(engine, trees.render(candidateStatement), original), limits(settings, limit));
      if (!mine.isSuccess() || !theirs.isSuccess() || mine.table().truncated() || theirs.table().truncated()) {
        return Optional.empty();
      }
      // Appended keys (marked negative: -1 is the first) are the last columns; a star hides how many come before.
      int columns = mine.table().columnCount();
      int appended = (int) keys.stream().filter(k -> k < 0).count();
      List<Integer> indexes = keys.stream().map(k -> k >= 0 ? k : columns - appended + (-k - 1)).toList();
      ResultComparison.Outcome keyed = ResultComparison.compare(mine.table(), theirs.table(),
          ResultComparison.Order.byKeys(indexes), DIFF_ROWS);
      return Optional.of(keyed.equal() ? new ResultComparison.Outcome(true, "same rows, sorted alike (compared"
          + " with the ORDER BY expressions as columns; ties in another order)", List.of(), List.of()) : keyed);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Appends the ORDER BY expressions of a plain SELECT as output columns; {@code keys} gets each ORDER BY item's
   * output column (a position) or, for an appended one, -1, -2, ... in order. False for other shapes.
   */
  private static boolean appendSortKeys(ObjectNode node, List<Integer> keys) {
    JsonNode orderBy = Trees.orderModifier(node);
    if (!"SELECT_NODE".equals(node.path("type").asText()) || orderBy == null
        || node.path("modifiers").findValues("type").stream().anyMatch(t -> t.asText().contains("DISTINCT"))) {
      return false;
    }
    com.fasterxml.jackson.databind.node.ArrayNode list = (com.fasterxml.jackson.databind.node.ArrayNode)
        node.get("select_list");
    int k = 0;
    for (JsonNode o : orderBy.path("orders")) {
      JsonNode e = o.path("expression");
      if ("CONSTANT".equals(e.path("class").asText())) {
        try {
          keys.add(Integer.parseInt(e.path("literal").path("text").asText()) - 1);
          continue;
        } catch (NumberFormatException notAPosition) {
          return false;
        }
      }
      ObjectNode copy = e.deepCopy();
      copy.put("alias", "lr_sort_key" + (++k));
      list.add(copy);
      keys.add(-k);
    }
    return true;
  }

  private List<String> orderTexts(JsonNode node) {
    List<String> out = new ArrayList<>();
    for (JsonNode o : Trees.orderModifier(node).path("orders")) {
      out.add(o.path("type").asText() + " " + trees.expression(o.path("expression")));
    }
    return out;
  }

  /** A candidate gets a few times the original's run time (at least two seconds), within the query timeout. */
  Duration candidateTimeout() {
    return timeoutAfter(originalElapsed);
  }

  /** Five times this time of the original's, plus two seconds, within the query timeout. */
  private Duration timeoutAfter(Duration original) {
    Duration generous = original.multipliedBy(5).plusSeconds(2);
    return generous.compareTo(settings.queryTimeout()) < 0 ? generous : settings.queryTimeout();
  }

  private static List<Double> ratios(List<Duration> original, List<Duration> candidate) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < Math.min(original.size(), candidate.size()); i++) {
      out.add((double) original.get(i).toNanos() / Math.max(1, candidate.get(i).toNanos()));
    }
    return out;
  }

  /** Pairs timed until a {@link SpeedupRule} decides, and what it decided. */
  record Sequential(TimedPair pairs, SpeedupRule.Outcome outcome) {}

  /** One timed pair: the original's run and the candidate's; {@code candidateTimedOut}: it ran past its limit. */
  record Pair(Duration original, Duration candidate, boolean candidateTimedOut) {}

  /** Where timed pairs come from: pair {@code i} (from 0) runs the original first when {@code originalFirst}. */
  interface PairSource {
    Pair pair(int i, boolean originalFirst);
  }

  /**
   * Times pairs from {@code source}, alternating which side runs first (ABBA), until {@code rule} decides (at most
   * its cap; undecided then is NOT_FASTER); a candidate past its limit ends timing, NOT_FASTER.
   * {@code originalTimedOut}: the original's times are its limit (a lower bound).
   */
  static Sequential sequential(SpeedupRule rule, PairSource source, boolean originalTimedOut) {
    List<Duration> o = new ArrayList<>();
    List<Duration> c = new ArrayList<>();
    SpeedupRule.Outcome outcome = SpeedupRule.Outcome.UNDECIDED;
    for (int i = 0; i < rule.maxPairs() && outcome == SpeedupRule.Outcome.UNDECIDED; i++) {
      Pair pair = source.pair(i, i % 2 == 0);
      o.add(pair.original());
      c.add(pair.candidate());
      if (pair.candidateTimedOut()) {
        return new Sequential(new TimedPair(Timing.of(o, originalTimedOut), Timing.of(c, true)),
            SpeedupRule.Outcome.NOT_FASTER);
      }
      outcome = rule.decide(ratios(o, c));
    }
    if (outcome == SpeedupRule.Outcome.UNDECIDED) {
      outcome = SpeedupRule.Outcome.NOT_FASTER;
    }
    return new Sequential(new TimedPair(Timing.of(o, originalTimedOut), Timing.of(c, false)), outcome);
  }

  /**
   * Times the candidate against the original pair by pair (after one warm-up each, with the LIMITs in place) until
   * {@code rule} decides whether it is faster by the rule's margin; a candidate past its time limit is NOT_FASTER at
   * once. An original that ran past the query timeout is not run again: its limit stands for each of its runs.
   */
  Sequential timeUntilDecided(String candidate, SpeedupRule rule) {
    QueryLimits originalLimits = new QueryLimits(settings.queryTimeout(), settings.maxComparedRows());
    QueryLimits candidateLimits = new QueryLimits(candidateTimeout(), settings.maxComparedRows());
    for (int w = 0; w < settings.warmups(); w++) {
      if (!originalTimedOut) {
        run(original, originalLimits);
      }
      if (run(candidate, candidateLimits) == null) {
        return new Sequential(new TimedPair(Timing.of(List.of(), originalTimedOut),
            Timing.of(List.of(candidateLimits.timeout()), true)), SpeedupRule.Outcome.NOT_FASTER);
      }
    }
    return sequential(rule, (i, originalFirst) -> {
      Duration o = null;
      if (originalTimedOut) {
        o = originalElapsed;
      } else if (originalFirst) {
        o = orTimeout(run(original, originalLimits), originalLimits);
      }
      Duration d = run(candidate, candidateLimits);
      if (d == null) {
        return new Pair(o == null ? originalElapsed : o, candidateLimits.timeout(), true);
      }
      if (o == null) {
        o = orTimeout(run(original, originalLimits), originalLimits);
      }
      return new Pair(o, d, false);
    }, originalTimedOut);
  }

  private static Duration orTimeout(Duration d, QueryLimits limits) {
    return d == null ? limits.timeout() : d;
  }

  /**
   * One timed run through the executor (the query was admitted before; admitting it again stays out of the
   * timing); null when it failed or timed out.
   */
  private @Nullable Duration run(String sql, QueryLimits limits) {
    Execution e;
    try {
      e = target.executor().admit(sql).execute(limits);
    } catch (QueryFailedException refused) {
      return null;
    }
    return e.isSuccess() ? e.elapsed() : null;
  }

  private String limitText(ObjectNode node) {
    JsonNode limit = Trees.limitModifier(node);
    if (limit == null) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    if (limit.path("limit").isObject()) {
      sb.append("LIMIT ").append(trees.expression(limit.get("limit")));
    }
    if (limit.path("offset").isObject()) {
      sb.append(sb.length() > 0 ? " " : "").append("OFFSET ").append(trees.expression(limit.get("offset")));
    }
    return sb.toString();
  }

  /**
   * How the original orders its rows: not at all (no outer ORDER BY), by output columns (ties may come in any
   * order), or strictly when an ORDER BY item is not an output column.
   */
  private ResultComparison.Order orderOf(ResultTable result) {
    ObjectNode node = trees.node(original);
    JsonNode orderBy = Trees.orderModifier(node);
    if (orderBy == null || orderBy.path("orders").isEmpty()) {
      return ResultComparison.Order.NONE;
    }
    List<String> names = result.columnNames().stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
    List<String> selectTexts = new ArrayList<>();
    if ("SELECT_NODE".equals(node.path("type").asText())) {
      for (JsonNode item : node.path("select_list")) {
        selectTexts.add(trees.expression(item).toLowerCase(Locale.ROOT));
      }
    }
    List<Integer> keys = new ArrayList<>();
    for (JsonNode o : orderBy.path("orders")) {
      JsonNode e = o.path("expression");
      int index = -1;
      if ("CONSTANT".equals(e.path("class").asText())) {
        try {
          index = Integer.parseInt(e.path("literal").path("text").asText(e.path("value").path("value").asText())) - 1;
        } catch (NumberFormatException ignored) {
          index = -1;
        }
      } else if ("COLUMN_REF".equals(e.path("class").asText())) {
        JsonNode parts = e.path("column_names");
        String last = parts.get(parts.size() - 1).asText().toLowerCase(Locale.ROOT);
        if (names.indexOf(last) >= 0 && names.indexOf(last) == names.lastIndexOf(last)) {
          index = names.indexOf(last);
        }
      }
      if (index < 0) {
        int at = selectTexts.indexOf(trees.expression(e).toLowerCase(Locale.ROOT));
        index = at;
      }
      if (index < 0 || index >= names.size()) {
        return ResultComparison.Order.strict();
      }
      keys.add(index);
    }
    return ResultComparison.Order.byKeys(keys);
  }

  static String stripSemicolons(String sql) {
    String body = sql.strip();
    while (body.endsWith(";")) {
      body = body.substring(0, body.length() - 1).strip();
    }
    return body;
  }
}
