package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

  /** Settings of verification and timing. */
  record Settings(Duration queryTimeout, int maxComparedRows, int warmups, int runs) {}

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
      int n = Math.min(original.runs().size(), candidate.runs().size());
      if (candidate.timedOut() || n == 0) {
        return 0;
      }
      double[] ratios = new double[n];
      for (int i = 0; i < n; i++) {
        ratios[i] = (double) original.runs().get(i).toNanos() / Math.max(1, candidate.runs().get(i).toNanos());
      }
      java.util.Arrays.sort(ratios);
      return n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
    }

    /** The per-pair ratios original run i / candidate run i, sorted. */
    double[] pairRatios() {
      int n = Math.min(original.runs().size(), candidate.runs().size());
      double[] ratios = new double[n];
      for (int i = 0; i < n; i++) {
        ratios[i] = (double) original.runs().get(i).toNanos() / Math.max(1, candidate.runs().get(i).toNanos());
      }
      java.util.Arrays.sort(ratios);
      return ratios;
    }

    /** The conservative speedup a decision rests on: the smaller of the trimmed-mean and the paired estimate. */
    double speedup() {
      return Math.min(trimmedSpeedup(), pairedSpeedup());
    }
  }

  private final Trees trees;
  private final Instance target;
  private final List<Instance> instances;
  private final Settings settings;
  private final String original;
  private final String originalUnlimited;
  private final String originalLimit;
  private ResultComparison.Order order;
  private final Map<String, Execution> originalResults = new LinkedHashMap<>();
  private Duration originalElapsed = Duration.ZERO;
  private boolean originalTimedOut;

  Verifier(Trees trees, Instance target, List<Instance> furtherInstances, Settings settings, String original) {
    this.trees = trees;
    this.target = target;
    this.instances = List.copyOf(furtherInstances);
    this.settings = settings;
    this.original = original;
    ObjectNode statement = trees.statement(original);
    ObjectNode node = (ObjectNode) statement.get("node");
    this.originalLimit = limitText(node);
    Trees.removeLimit(node);
    this.originalUnlimited = PostgresDialect.forTarget(target.executor().engine(), trees.render(statement));
    this.order = null;
  }

  private Verifier(Verifier base, ResultComparison.Order order) {
    this.trees = base.trees;
    this.target = base.target;
    this.instances = base.instances;
    this.settings = base.settings;
    this.original = base.original;
    this.originalUnlimited = base.originalUnlimited;
    this.originalLimit = base.originalLimit;
    this.order = order;
  }

  /**
   * Runs the original on the target (without LIMIT) and on every further instance, and works out how its rows are
   * ordered. Returns the failure when the original itself fails on the target.
   */
  static Prepared prepare(Trees trees, Instance target, List<Instance> further, Settings settings, String original) {
    Verifier v = new Verifier(trees, target, further, settings, original);
    Execution onTarget = target.executor().execute(v.originalUnlimited, limits(settings, settings.queryTimeout()));
    if (!onTarget.isSuccess() && onTarget.error().orElseThrow().kind() == ErrorKind.TIMEOUT) {
      // An original that runs for minutes: its time limit is a lower bound of its time, and candidates are
      // checked on the further instances only (there must be one where the original finishes).
      Verifier timedOut = new Verifier(v, ResultComparison.Order.strict());
      timedOut.originalTimedOut = true;
      timedOut.originalElapsed = settings.queryTimeout();
      timedOut.originalResults.put(target.name(), onTarget);
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
    for (Instance i : ordered.instances) {
      ordered.originalResults.put(i.name(), i.execute(ordered.originalUnlimited,
          limits(settings, settings.queryTimeout())));
    }
    return new Prepared(ordered, null);
  }

  /** The prepared verifier, or why the original cannot be optimised. */
  record Prepared(Verifier verifier, String failure) {}

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

  /** The instances the original ran on, with a note for those where it failed (they are skipped). */
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
    String unlimited = PostgresDialect.forTarget(target.executor().engine(), trees.render(statement));
    Duration candidateLimitTime = candidateTimeout();
    List<Instance> all = new ArrayList<>();
    all.add(target);
    all.addAll(instances);
    for (Instance instance : all) {
      Execution mine = originalResults.get(instance.name());
      if (mine == null || !mine.isSuccess()) {
        continue;
      }
      Duration limit = instance == target ? candidateLimitTime : settings.queryTimeout();
      Execution theirs = instance.execute(unlimited, limits(settings, limit));
      if (!theirs.isSuccess()) {
        QueryError e = theirs.error().orElseThrow();
        if (instance == target && e.kind() == ErrorKind.TIMEOUT) {
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

  /** A candidate gets a few times the original's run time (at least two seconds), within the query timeout. */
  Duration candidateTimeout() {
    Duration generous = originalElapsed.multipliedBy(5).plusSeconds(2);
    return generous.compareTo(settings.queryTimeout()) < 0 ? generous : settings.queryTimeout();
  }

  /**
   * Times the candidate against the original, alternating (ABBA) after one warm-up each, with the LIMITs in place;
   * stops early if the candidate runs past its time limit.
   */
  TimedPair time(String candidate) {
    return time(candidate, settings.runs());
  }

  /** {@link #time(String)} with a given number of timed runs per side. */
  TimedPair time(String candidate, int runs) {
    QueryLimits originalLimits = new QueryLimits(settings.queryTimeout(), settings.maxComparedRows());
    QueryLimits candidateLimits = new QueryLimits(candidateTimeout(), settings.maxComparedRows());
    List<Duration> o = new ArrayList<>();
    List<Duration> c = new ArrayList<>();
    if (originalTimedOut) {
      // Never re-run an original that takes minutes: its limit stands for each of its runs (a lower bound).
      for (int w = 0; w < settings.warmups(); w++) {
        if (run(candidate, candidateLimits) == null) {
          return new TimedPair(Timing.of(List.of(originalElapsed), true), Timing.of(List.of(candidateLimits
              .timeout()), true));
        }
      }
      for (int r = 0; r < runs; r++) {
        Duration d = run(candidate, candidateLimits);
        if (d == null) {
          c.add(candidateLimits.timeout());
          return new TimedPair(Timing.of(o, true), Timing.of(c, true));
        }
        c.add(d);
        o.add(originalElapsed);
      }
      return new TimedPair(Timing.of(o, true), Timing.of(c, false));
    }
    for (int w = 0; w < settings.warmups(); w++) {
      run(original, originalLimits);
      if (run(candidate, candidateLimits) == null) {
        return new TimedPair(Timing.of(o, false), Timing.of(List.of(candidateLimits.timeout()), true));
      }
    }
    for (int r = 0; r < runs; r++) {
      boolean originalFirst = r % 2 == 0;
      if (originalFirst) {
        o.add(orTimeout(run(original, originalLimits), originalLimits));
      }
      Duration d = run(candidate, candidateLimits);
      if (d == null) {
        c.add(candidateLimits.timeout());
        return new TimedPair(Timing.of(o, false), Timing.of(c, true));
      }
      c.add(d);
      if (!originalFirst) {
        o.add(orTimeout(run(original, originalLimits), originalLimits));
      }
    }
    return new TimedPair(Timing.of(o, false), Timing.of(c, false));
  }

  private static Duration orTimeout(Duration d, QueryLimits limits) {
    return d == null ? limits.timeout() : d;
  }

  /**
   * One timed run through the executor (the query was admitted before; admitting it again stays out of the
   * timing); null when it failed or timed out.
   */
  private Duration run(String sql, QueryLimits limits) {
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
