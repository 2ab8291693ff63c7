package dev.lakerewrite.core.optimize;

import dev.lakerewrite.core.Engine;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.equivalence.EquivalenceChecker;
import dev.lakerewrite.core.equivalence.EquivalenceEvidence;
import dev.lakerewrite.core.equivalence.EquivalenceResult;
import dev.lakerewrite.core.equivalence.InstanceCheck;
import dev.lakerewrite.core.llm.LlmUsage;
import dev.lakerewrite.core.sql.QueryAnalysis;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One optimisation: prepares the context (catalog, instances, the original's results and plan, the Block Map),
 * gathers candidates (demonstrations, rules and hints, the LLM), verifies and times each the same way, and
 * selects — never returning anything slower or different from the original.
 */
final class OptimizationSession {
  private final QueryOptimizer config;
  private final String sql;
  private final Connection connection;
  private final long start = System.nanoTime();
  private final List<OptimizationEvent> trace = new ArrayList<>();
  private final List<OptimizationCandidate> candidates = new ArrayList<>();
  private final Map<String, OptimizationCandidate> bySql = new LinkedHashMap<>();
  private final List<Instance> owned = new ArrayList<>();
  private @Nullable EquivalenceChecker checker;
  private @Nullable String checkerFailure;
  private final dev.lakerewrite.core.llm.LlmGateway gateway;

  Trees trees;
  Engine engine = Engine.DUCKDB;
  Catalog catalog;
  @Nullable Verifier verifier;
  QueryAnalysis analysis;
  @Nullable ExecutionPlan plan;
  private String originalShape;
  private long candidatesStart;
  private boolean budgetTraced;
  private final Map<String, OptimizationCandidate> byShape = new LinkedHashMap<>();
  BlockMap blockMap;
  EditOperations operations;

  OptimizationSession(QueryOptimizer config, String sql, Connection connection) {
    this.config = config;
    this.sql = Verifier.stripSemicolons(sql);
    this.connection = connection;
    this.gateway = config.gatewayForCall();
  }

  QueryOptimizer config() {
    return config;
  }

  String sql() {
    return sql;
  }

  List<OptimizationCandidate> candidates() {
    return candidates;
  }

  void trace(String state, String event, String message) {
    trace.add(new OptimizationEvent(Duration.ofNanos(System.nanoTime() - start), state, event, message));
  }

  OptimizeResult run() {
    try {
      Optional<String> failure = prepare();
      if (failure.isPresent()) {
        trace("TERMINATION", "original-failed", failure.get());
        return result(OptimizeVerdict.ORIGINAL_FAILED, null, failure);
      }
      candidatesStart = System.nanoTime();
      proposeDemonstrations();
      if (config.rules) {
        proposeRules();
        composeRules();
      }
      if (gateway != null) {
        new LlmProposer(this, gateway).run();
      }
      OptimizationCandidate chosen = select();
      OptimizeVerdict verdict;
      if (chosen != null) {
        verdict = OptimizeVerdict.IMPROVED;
        if (chosen.speedup() >= config.demonstrationSpeedup) {
          config.demonstrations.add(new DemonstrationPool.Demonstration(sql, chosen.sql(), chosen.speedup(),
              chosen.label(), chosen.explanation()));
          trace("TERMINATION", "demonstration-added", String.format(Locale.ROOT,
              "candidate #%d (%.2fx) added to the demonstration pool", chosen.id(), chosen.speedup()));
        }
      } else if (candidates.isEmpty()) {
        verdict = OptimizeVerdict.NO_CANDIDATE;
      } else if (candidates.stream().anyMatch(c -> c.verdict().compareTo(CandidateVerdict.SLOWER) >= 0)) {
        verdict = OptimizeVerdict.NO_FASTER_CANDIDATE;
      } else {
        verdict = OptimizeVerdict.NO_EQUIVALENT_CANDIDATE;
      }
      trace("TERMINATION", "done", verdict + (chosen == null ? ": the original is returned"
          : ": candidate #" + chosen.id() + " is returned"));
      return result(verdict, chosen, Optional.empty());
    } finally {
      for (Instance i : owned) {
        i.close();
      }
      if (checker != null) {
        checker.close();
      }
    }
  }

  /**
   * The candidate as the equivalence checker judges it against the original: empty when it proves or finds it
   * EQUIVALENT, else the candidate recorded as NOT_EQUIVALENT with the checker's counterexample or reason. Every
   * candidate the optimizer may return passes here, so its guarantee is exactly the checker's: on the schema's
   * constraints, generated instances (targeted and random) and the syntactic proof, not only the database at hand.
   */
  private Optional<OptimizationCandidate> checkerRejects(int id, CandidateSource source, String label,
      String explanation, String text) {
    if (checker == null && checkerFailure == null) {
      try {
        checker = EquivalenceChecker.builder().connection(connection).useData(false)
            .queryTimeout(config.queryTimeout).build();
      } catch (RuntimeException e) {
        checkerFailure = e.getMessage();
      }
    }
    String why;
    Optional<EquivalenceEvidence> evidence = Optional.empty();
    if (checker == null) {
      why = "the equivalence checker cannot read this database's schema: " + checkerFailure;
    } else {
      @Nullable EquivalenceResult r = null;
      @Nullable String failure = null;
      try {
        r = checker.check(sql, text);
      } catch (RuntimeException e) {
        failure = e.getMessage();
      }
      if (r == null) {
        why = "the equivalence checker cannot check it: " + failure;
        trace("VERIFICATION", "checker", "#" + id + " " + why);
      } else {
        trace("VERIFICATION", "checker", "#" + id + " " + r.summary().lines().findFirst().orElse(""));
        if (r.verdict() == EquivalenceResult.Verdict.EQUIVALENT) {
          return Optional.empty();
        }
        if (r.tiesOnly()) {
          // The original's own LIMIT lets it return either set of tied rows: the candidate is as right as it is.
          trace("VERIFICATION", "checker", "#" + id + " accepted: it differs from the original only in which tied "
              + "rows a LIMIT without a total order keeps");
          return Optional.empty();
        }
        why = r.verdict() == EquivalenceResult.Verdict.NOT_EQUIVALENT
            ? "the equivalence checker found a counterexample: " + r.counterexample().map(c -> c.difference())
                .orElse(r.explanation())
            : "the equivalence checker could not show it equivalent: " + r.reason().orElse(r.explanation());
        evidence = Optional.of(r.evidence());
      }
    }
    return Optional.of(record(new OptimizationCandidate(id, source, label, explanation, text,
        CandidateVerdict.NOT_EQUIVALENT, why, evidence, Optional.empty(), Optional.empty(), 0)));
  }

  private Optional<String> prepare() {
    try {
      engine = Engine.of(connection);
    } catch (SQLException | IllegalArgumentException e) {
      return Optional.of("cannot use this connection: " + e.getMessage());
    }
    // Refuse what the executor would refuse before analysing it: a megabyte of SQL costs seconds to analyse.
    Optional<dev.lakerewrite.core.QueryError> refused = dev.lakerewrite.core.SafeExecutor.on(connection).admission(sql);
    if (refused.isPresent()) {
      return Optional.of(refused.get().summary());
    }
    // PostgreSQL queries are analysed with DuckDB's parser on a private connection (the shared subset of SQL);
    // what it renders is translated back for PostgreSQL before it runs there.
    SqlParser parser = engine == Engine.DUCKDB ? SqlParser.on(connection) : SqlParser.standalone();
    trees = new Trees(parser);
    try {
      analysis = new SqlAnalyzer(parser).analyze(sql);
    } catch (RuntimeException e) {
      return Optional.of("the query does not parse: " + e.getMessage());
    }
    try {
      catalog = Catalog.read(connection, engine);
    } catch (SQLException e) {
      return Optional.of("cannot read the database catalog: " + e.getMessage());
    }
    operations = new EditOperations(trees, name -> catalog.hasTable(name) || isView(name));
    Instance target = new Instance("target", "the database the query runs on", connection, false);
    Verifier.Settings settings = new Verifier.Settings(config.queryTimeout, config.maxComparedRows, config.warmups);
    Verifier.Prepared prepared = Verifier.prepare(trees, target, this::furtherInstances, settings, sql);
    if (prepared.verifier() == null) {
      return Optional.of(prepared.failure());
    }
    verifier = prepared.verifier();
    if (verifier.originalTimedOut()) {
      trace("CONTEXT", "original", "the original runs past its limit of " + verifier.originalElapsed().toMillis()
          + " ms (a lower bound of its time; speedups against it are lower bounds too); it returns "
          + verifier.originalResult().rowCount() + " rows on the smaller instance");
    } else {
      trace("CONTEXT", "original", "the original runs in " + verifier.originalElapsed().toMillis()
          + " ms and returns " + verifier.originalResult().rowCount() + " rows without its LIMIT"
          + (verifier.ordered() ? ", ordered" : ""));
    }
    // An original that ran past its limit would do so again under EXPLAIN ANALYZE: its estimated plan instead.
    plan = (verifier.originalTimedOut() ? verifier.estimatedPlan(sql) : verifier.analyzedPlan(sql)).orElse(null);
    if (plan != null) {
      trace("CONTEXT", "execution-hint", plan.linearize());
    }
    // The shape of the plan the engine chooses for the original (EXPLAIN, as for every candidate): a candidate
    // planned the same way runs the same operators and needs no timing.
    originalShape = (verifier.originalTimedOut() ? Optional.ofNullable(plan) : verifier.estimatedPlan(sql))
        .map(ExecutionPlan::shape).orElse(null);
    try {
      blockMap = BlockMap.of(trees, sql);
      trace("CONTEXT", "block-map", blockMap.format());
    } catch (RuntimeException e) {
      trace("CONTEXT", "block-map-failed", String.valueOf(e.getMessage()));
    }
    return Optional.empty();
  }

  /**
   * The further instances candidates must agree on, built when the verifier first needs them (on PostgreSQL a
   * sampled view of the database itself, on DuckDB a sample and a generated instance in memory).
   */
  private List<Instance> furtherInstances() {
    List<Instance> further = new ArrayList<>();
    if (config.furtherInstances && engine == Engine.POSTGRESQL) {
      addPostgresSample(further);
    } else if (config.furtherInstances) {
      InstanceBuilder builder = new InstanceBuilder(connection, catalog, analysis);
      if (!builder.tables().isEmpty()) {
        addInstance("sample", further, () -> builder.sample(config.sampleRows, config.seed));
        addInstance("generated", further, () -> builder.generated(config.generatedRows, config.seed));
      }
    }
    return further;
  }

  /**
   * PostgreSQL: the same database seen through CTEs that sample its large tables (no writes): where the original
   * finishes on the whole database it is a second check, where it runs for minutes the only one.
   */
  private void addPostgresSample(List<Instance> further) {
    try (java.sql.Statement st = connection.createStatement();
         java.sql.ResultSet rs = st.executeQuery("SELECT current_schema()")) {
      rs.next();
      // About 5 x sampleRows rows per large table (10,000 by default): an original that runs for minutes usually
      // runs a correlated subplan per outer row over the sample, work quadratic in its size.
      Optional<SampledView> view = SampledView.of(catalog, rs.getString(1), analysis.tableNames(),
          config.sampleRows * 5L);
      if (view.isPresent()) {
        further.add(new Instance("sample", "the database with " + view.get().description(), connection, false,
            view.get()));
        trace("CONTEXT", "instance", "sample (" + view.get().description() + ")");
      } else {
        trace("CONTEXT", "instances", "no table is large enough to sample: candidates are compared on the"
            + " database itself");
      }
    } catch (SQLException | RuntimeException e) {
      trace("CONTEXT", "instance-failed", "sample: " + e.getMessage());
    }
  }

  /** Builds one further instance; a failure only leaves it out (and is traced). */
  private interface InstanceFactory {
    Instance build() throws SQLException;
  }

  private void addInstance(String name, List<Instance> further, InstanceFactory factory) {
    try {
      Instance i = factory.build();
      owned.add(i);
      further.add(i);
      trace("CONTEXT", "instance", i.toString());
    } catch (SQLException | RuntimeException e) {
      trace("CONTEXT", "instance-failed", name + " instance: " + e.getMessage());
    }
  }

  private boolean isView(String name) {
    try (java.sql.PreparedStatement ps = connection.prepareStatement(engine == Engine.POSTGRESQL
        ? "SELECT count(*) FROM information_schema.views WHERE lower(table_name) = lower(?)"
        + " AND table_schema = current_schema()"
        : "SELECT count(*) FROM duckdb_views() WHERE lower(view_name) = lower(?) AND NOT internal")) {
      ps.setString(1, name);
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getLong(1) > 0;
      }
    } catch (SQLException e) {
      return false;
    }
  }

  private void proposeDemonstrations() {
    if (config.demonstrations.size() == 0) {
      return;
    }
    String normalized = normalize(trees.render(trees.statement(sql)));
    for (DemonstrationPool.Scored s : config.demonstrations.retrieve(sql, trees, null, 3, 1.0)) {
      String original;
      try {
        original = normalize(trees.render(trees.statement(s.demonstration().originalSql())));
      } catch (RuntimeException e) {
        continue;
      }
      if (original.equals(normalized)) {
        trace("REASONING", "demonstration", "the pool holds a verified rewrite of this very query ("
            + s.demonstration().label() + ", " + String.format(Locale.ROOT, "%.2fx", s.demonstration().speedup())
            + "): replayed");
        evaluate(CandidateSource.DEMONSTRATION, s.demonstration().label(),
            "replayed from the demonstration pool: " + s.demonstration().explanation(), s.demonstration().rewrittenSql());
      }
    }
  }

  /**
   * Plan-driven proposals: the measured plan's dominant symptoms ({@link PlanProfile}) select the recipes that
   * target them, tried heaviest symptom first; each recipe's candidates are verified. A recipe that throws is
   * recorded in the trace (and the others still run).
   */
  private void proposeRules() {
    PlanProfile profile = PlanProfile.of(plan);
    trace("REASONING", "plan-profile", profile.describe() + (plan == null ? " (no plan could be read)" : ""));
    List<Recipe> selected = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (Recipe r : RecipeRegistry.ALL) {
      if (r.adviceOnly() || !config.recipes.contains(r.id())) {
        continue;
      }
      if (r.appliesTo(profile)) {
        selected.add(r);
      } else {
        skipped.add(r.id());
      }
    }
    selected.sort(Comparator.comparingDouble((Recipe r) -> profile.weight(r.targets())).reversed());
    trace("REASONING", "recipes", "targeting the plan: " + (selected.isEmpty() ? "none"
        : String.join(", ", selected.stream().map(Recipe::id).toList()))
        + (skipped.isEmpty() ? "" : "; not targeted by it: " + String.join(", ", skipped)));
    RuleProposer rules = new RuleProposer(trees, catalog, config.recipes);
    int proposed = 0;
    for (Recipe r : selected) {
      List<RuleProposer.Proposal> proposals;
      try {
        proposals = r.candidates(sql, rules, profile);
      } catch (RuntimeException e) {
        trace("REASONING", "recipe-failed", r.id() + " threw " + e.getClass().getSimpleName() + ": "
            + e.getMessage());
        continue;
      } finally {
        for (String why : rules.takeRefusals()) {
          trace("REASONING", "recipe-refused", r.id() + ": " + why);
        }
      }
      for (RuleProposer.Proposal p : proposals) {
        if (budgetSpent()) {
          return;
        }
        if (proposed++ >= config.maxRuleCandidates) {
          trace("REASONING", "rules-capped", "more candidates than maxRuleCandidates ("
              + config.maxRuleCandidates + "): the rest are not tried");
          return;
        }
        evaluate(p.source(), p.label(), p.explanation(), p.sql());
      }
    }
  }

  /** At most this many composite candidates per query. */
  static final int MAX_COMPOSITES = 4;

  /**
   * Rewrites that were each shown faster compose: the fastest rule or hint candidate's query is rewritten again by
   * the recipe of every other one shown faster than the original (and planned otherwise than it), and each
   * composite is verified and timed against the original like any candidate (E3-Rewrite and QUITE refine a
   * verified rewrite the same way). Shown faster here is looser than the test a candidate wins by (its lower bound
   * clearing the margin): the 95 % lower confidence bound of its speedup above 1
   * ({@link Verifier.TimedPair#lowerBound()}), also for a gain below the margin or a configured minimum speedup,
   * since a composite is timed on its own; a larger point estimate measured with scattered pairs is noise and takes
   * no part. Recipes that
   * measured slower are not tried again. Nothing happens with fewer than two such recipes.
   */
  private void composeRules() {
    List<RuleProposer.Proposal> composites = compositions(candidates, new RuleProposer(trees, catalog,
        config.recipes), failure -> trace("REASONING", "recipe-failed", failure));
    for (RuleProposer.Proposal p : composites) {
      if (budgetSpent()) {
        return;
      }
      evaluate(p.source(), p.label(), p.explanation(), p.sql());
    }
  }

  /**
   * The composite proposals for candidates measured so far (see {@link #composeRules}): the fastest qualifying
   * candidate rewritten by each other qualifying candidate's recipe, at most {@link #MAX_COMPOSITES}; a recipe
   * that throws is reported to {@code failures} and skipped.
   */
  static List<RuleProposer.Proposal> compositions(List<OptimizationCandidate> measured, RuleProposer rules,
      java.util.function.Consumer<String> failures) {
    List<OptimizationCandidate> gains = new ArrayList<>();
    Set<String> recipes = new LinkedHashSet<>();
    measured.stream()
        .filter(c -> (c.source() == CandidateSource.RULE || c.source() == CandidateSource.HINT)
            && (c.verdict() == CandidateVerdict.FASTER || c.verdict() == CandidateVerdict.NEGLIGIBLE)
            && shownFaster(c) && !c.reason().startsWith(SAME_PLAN) && !c.reason().startsWith(SAME_QUERY))
        .sorted(Comparator.comparingDouble(OptimizationCandidate::speedup).reversed())
        .forEach(c -> {
          if (recipes.add(recipeId(c.label()))) {
            gains.add(c);
          }
        });
    List<RuleProposer.Proposal> out = new ArrayList<>();
    if (gains.size() < 2) {
      return out;
    }
    OptimizationCandidate base = gains.get(0);
    for (OptimizationCandidate other : gains.subList(1, gains.size())) {
      Optional<Recipe> recipe = RecipeRegistry.byId(recipeId(other.label()));
      if (recipe.isEmpty()) {
        continue;
      }
      List<RuleProposer.Proposal> proposals;
      try {
        proposals = recipe.get().candidates(base.sql(), rules);
      } catch (RuntimeException e) {
        failures.accept(recipe.get().id() + " on candidate #" + base.id() + " threw " + e.getClass().getSimpleName()
            + ": " + e.getMessage());
        continue;
      }
      for (RuleProposer.Proposal p : proposals) {
        if (out.size() >= MAX_COMPOSITES) {
          return out;
        }
        out.add(new RuleProposer.Proposal(p.source(), base.label() + "+" + p.label(), "on candidate #" + base.id()
            + " (" + base.explanation() + "): " + p.explanation(), p.sql()));
      }
    }
    return out;
  }

  /** Whether a candidate's own timing against the original shows it faster (95 % lower bound above 1). */
  static boolean shownFaster(OptimizationCandidate c) {
    return c.originalTiming().isPresent() && c.timing().isPresent()
        && new Verifier.TimedPair(c.originalTiming().get(), c.timing().get()).lowerBound() > 1.0;
  }

  /** The recipe a candidate label names ({@code eager-aggregation-all} and composites name their first). */
  private static String recipeId(String label) {
    String first = label.contains("+") ? label.substring(0, label.indexOf('+')) : label;
    return first.endsWith("-all") ? first.substring(0, first.length() - 4) : first;
  }

  /**
   * Whether the time budget for trying candidates is spent (counted from the end of the preparation); traced once.
   * Candidates not tried then are not recorded; the best verified one is still confirmed and returned.
   */
  boolean budgetSpent() {
    if (candidatesStart == 0 || System.nanoTime() - candidatesStart < config.budget.toNanos()) {
      return false;
    }
    if (!budgetTraced) {
      budgetTraced = true;
      trace("REASONING", "budget-spent", "the budget of " + config.budget.toSeconds() + " s for trying candidates"
          + " is spent: no further candidate is tried");
    }
    return true;
  }

  /** The reason of a candidate that was not run because it plans like the original or an earlier candidate. */
  static final String SAME_PLAN = "same plan as ";
  /** The reason of a candidate that is the same query as an earlier one. */
  static final String SAME_QUERY = "same query as ";

  static String normalize(String s) {
    return s.replaceAll("\\s+", " ").strip().toLowerCase(Locale.ROOT);
  }

  /** Verifies and times one candidate, records it and returns it. */
  OptimizationCandidate evaluate(CandidateSource source, String label, String explanation, String candidateSql) {
    int id = candidates.size() + 1;
    String text = candidateSql == null ? ""
        : PostgresDialect.forTarget(engine, Verifier.stripSemicolons(candidateSql), sql);
    String key = normalize(text);
    OptimizationCandidate earlier = bySql.get(key);
    if (earlier != null) {
      OptimizationCandidate c = new OptimizationCandidate(id, source, label, explanation, text, earlier.verdict(),
          SAME_QUERY + "candidate #" + earlier.id() + ": " + earlier.reason(), earlier.equivalence(),
          earlier.originalTiming(), earlier.timing(), earlier.speedup());
      return record(c);
    }
    if (text.isBlank()) {
      return record(new OptimizationCandidate(id, source, label, explanation, text, CandidateVerdict.NOT_EXECUTABLE,
          "no SQL", Optional.empty(), Optional.empty(), Optional.empty(), 0));
    }
    if (key.equals(normalize(sql))) {
      return record(new OptimizationCandidate(id, source, label, explanation, text, CandidateVerdict.NEGLIGIBLE,
          "identical to the original", Optional.empty(), Optional.empty(), Optional.empty(), 1.0));
    }
    trace("VERIFICATION", "candidate", "#" + id + " " + source + " " + label + ": " + explanation);
    Verifier.Executability exec = verifier.executable(text);
    if (!exec.ok()) {
      String why = exec.error().map(QueryError::summary).orElse("not executable");
      return record(new OptimizationCandidate(id, source, label, explanation, text, CandidateVerdict.NOT_EXECUTABLE, why,
          Optional.empty(), Optional.empty(), Optional.empty(), 0));
    }
    // Cheap rejection before any check that runs the candidate: the engine plans it exactly as the original (or as
    // an earlier candidate), so it runs the same operators and cannot be faster (DuckDB's optimizer undoes many
    // rewrites: it already materialises a CTE that is used twice, inlines one used once, decorrelates).
    String shape = exec.plan().map(ExecutionPlan::shape).orElse(null);
    if (shape != null && shape.equals(originalShape)) {
      return record(new OptimizationCandidate(id, source, label, explanation, text, CandidateVerdict.NEGLIGIBLE,
          SAME_PLAN + "the original: the engine runs the same operators", Optional.empty(), Optional.empty(),
          Optional.empty(), 1.0));
    }
    OptimizationCandidate samePlan = shape == null ? null : byShape.get(shape);
    if (samePlan != null && samePlan.verdict().compareTo(CandidateVerdict.SLOWER) >= 0) {
      Optional<OptimizationCandidate> rejected = checkerRejects(id, source, label, explanation, text);
      if (rejected.isPresent()) {
        return rejected.get();
      }
    }
    if (samePlan != null) {
      return record(new OptimizationCandidate(id, source, label, explanation, text, samePlan.verdict(),
          SAME_PLAN + "candidate #" + samePlan.id() + ": " + samePlan.reason(), samePlan.equivalence(),
          samePlan.originalTiming(), samePlan.timing(), samePlan.speedup()));
    }
    OptimizationCandidate verified = verify(id, source, label, explanation, text);
    if (shape != null) {
      byShape.putIfAbsent(shape, verified);
    }
    return verified;
  }

  /** The check that runs the candidate: equivalence on every instance, then timing against the original. */
  private OptimizationCandidate verify(int id, CandidateSource source, String label, String explanation,
      String text) {
    Verifier.Equivalence eq = verifier.equivalent(text);
    if (eq.timedOut()) {
      return record(new OptimizationCandidate(id, source, label, explanation, text, CandidateVerdict.SLOWER,
          "ran past its time limit of " + verifier.candidateTimeout().toMillis() + " ms while checking equivalence",
          Optional.of(eq.evidence()), Optional.empty(), Optional.empty(), 0));
    }
    if (!eq.evidence().equivalent()) {
      String why = eq.evidence().firstDifference().map(InstanceCheck::summary).orElse("results differ");
      CandidateVerdict v = eq.error().isPresent() && eq.evidence().checks().size() == 1
          ? CandidateVerdict.NOT_EXECUTABLE : CandidateVerdict.NOT_EQUIVALENT;
      return record(new OptimizationCandidate(id, source, label, explanation, text, v, why, Optional.of(eq.evidence()),
          Optional.empty(), Optional.empty(), 0));
    }
    // Then the public checker: the schema's constraints, targeted and random instances; a candidate it does not
    // find EQUIVALENT is never returned, however well it matched the database at hand.
    Optional<OptimizationCandidate> rejected = checkerRejects(id, source, label, explanation, text);
    if (rejected.isPresent()) {
      return rejected.get();
    }
    trace("DECISION", "timing", "#" + id + " is equivalent on " + eq.evidence().checks().size()
        + " instance(s); timing against the original");
    // Pair by pair until the rule decides: a large gain is shown in a few pairs, a small one needs more, and a
    // candidate whose lower bound does not clear the margin within the cap is not faster.
    Verifier.Sequential measured = verifier.timeUntilDecided(text, rule());
    Verifier.TimedPair timed = measured.pairs();
    double speedup = timed.speedup();
    CandidateVerdict verdict;
    String reason;
    if (timed.candidate().timedOut()) {
      verdict = CandidateVerdict.SLOWER;
      reason = "ran past its time limit of " + verifier.candidateTimeout().toMillis() + " ms";
    } else if (speedup < 1.0) {
      verdict = CandidateVerdict.SLOWER;
      reason = timingText(timed);
    } else if (speedup < config.minSpeedup) {
      verdict = CandidateVerdict.NEGLIGIBLE;
      reason = timingText(timed) + ", below the " + config.minSpeedup + "x minimum";
    } else if (measured.outcome() != SpeedupRule.Outcome.FASTER) {
      // Not shown faster by the margin: the pairs scatter too much for their gain, or the gain is within it.
      verdict = CandidateVerdict.NEGLIGIBLE;
      reason = timingText(timed) + ", not shown faster by the " + config.margin + "x margin";
    } else {
      verdict = CandidateVerdict.FASTER;
      reason = timingText(timed);
    }
    return record(new OptimizationCandidate(id, source, label, explanation, text, verdict, reason, Optional.of(eq.evidence()),
        Optional.of(timed.original()), Optional.of(timed.candidate()), Double.isInfinite(speedup) ? 1e6 : speedup));
  }

  /** Records a proposal that could not be turned into a valid query (edit operations failed to apply). */
  OptimizationCandidate evaluateInvalid(String label, String explanation, String text, String why) {
    return record(new OptimizationCandidate(candidates.size() + 1, CandidateSource.LLM, label, explanation, text,
        CandidateVerdict.NOT_EXECUTABLE, why, Optional.empty(), Optional.empty(), Optional.empty(), 0));
  }

  private static String timingText(Verifier.TimedPair t) {
    return String.format(Locale.ROOT, "%.2fx: %.1f ms vs the original's %.1f ms (trimmed means %.2fx, median of"
        + " paired runs %.2fx; the smaller counts; 97.5%% lower bound %.2fx over %d pairs)", t.speedup(),
        t.candidate().millis(), t.original().millis(), t.trimmedSpeedup(), t.pairedSpeedup(), lowerBound(t),
        t.pairRatios().length);
  }

  /** The rule a candidate's timing and a winner's confirmation are decided by. */
  private SpeedupRule rule() {
    return SpeedupRule.forRuns(config.margin, config.timedRuns);
  }

  /** The 97.5 % lower bound {@link SpeedupRule} decides by, 0 without two pairs or for a candidate past its limit. */
  private static double lowerBound(Verifier.TimedPair t) {
    return t.lowerBound(0.975);
  }

  private OptimizationCandidate record(OptimizationCandidate c) {
    candidates.add(c);
    bySql.putIfAbsent(normalize(c.sql()), c);
    trace(c.verdict() == CandidateVerdict.FASTER || c.verdict() == CandidateVerdict.NEGLIGIBLE
        || c.verdict() == CandidateVerdict.SLOWER ? "DECISION" : "VERIFICATION", "verdict", c.summary());
    return c;
  }

  /**
   * The fastest FASTER candidate that holds its speedup when timed again on fresh pairs (if confirmation is on): on
   * those pairs alone (the first timing chose the candidate, so it is biased in its favour) the {@link SpeedupRule}
   * must decide FASTER again — the 97.5 % lower confidence bound of the speedup clears the margin within the cap
   * on pairs — and the smaller of both estimates must reach the minimum speedup. A consistent small gain is
   * confirmed, a large one measured with scattered pairs is not. Candidates that do not hold are downgraded. Null
   * when there is none.
   */
  private @Nullable OptimizationCandidate select() {
    List<OptimizationCandidate> faster = new ArrayList<>(candidates.stream()
        .filter(c -> c.verdict() == CandidateVerdict.FASTER && !c.reason().startsWith(SAME_QUERY)
            && !c.reason().startsWith(SAME_PLAN)).toList());
    faster.sort(Comparator.comparingDouble(OptimizationCandidate::speedup).reversed());
    for (OptimizationCandidate best : faster) {
      if (!config.confirmWinner) {
        return best;
      }
      // Fresh pairs by the same rule (the first timing chose the candidate, so it is biased in its favour), so that
      // a gain measured while other processes loaded the machine is not mistaken for a real one: the lower bound
      // of the speedup on these pairs alone must clear the margin within the cap, else it is not returned.
      Verifier.Sequential confirmation = verifier.timeUntilDecided(best.sql(), rule());
      Verifier.TimedPair again = confirmation.pairs();
      double bound = lowerBound(again);
      double confirmed = Math.min(best.speedup(), again.speedup());
      String note = String.format(Locale.ROOT, "re-timed at %.2fx (%d pairs, 97.5%% lower bound %.2fx, margin %.2fx)",
          again.speedup(), again.pairRatios().length, bound, config.margin);
      if (!again.candidate().timedOut() && confirmation.outcome() == SpeedupRule.Outcome.FASTER && confirmed > 1.0
          && confirmed >= config.minSpeedup) {
        OptimizationCandidate c = new OptimizationCandidate(best.id(), best.source(), best.label(), best.explanation(), best.sql(),
            CandidateVerdict.FASTER, best.reason() + "; confirmed: " + note,
            best.equivalence(), best.originalTiming(), best.timing(), confirmed);
        candidates.set(candidates.indexOf(best), c);
        trace("DECISION", "confirmed", c.summary());
        return c;
      }
      CandidateVerdict downgraded = again.candidate().timedOut() || again.speedup() < 1.0
          ? CandidateVerdict.SLOWER : CandidateVerdict.NEGLIGIBLE;
      OptimizationCandidate c = new OptimizationCandidate(best.id(), best.source(), best.label(), best.explanation(), best.sql(), downgraded,
          best.reason() + "; NOT confirmed: " + note,
          best.equivalence(), best.originalTiming(), best.timing(), confirmed);
      candidates.set(candidates.indexOf(best), c);
      trace("DECISION", "not-confirmed", c.summary());
    }
    return null;
  }

  private OptimizeResult result(OptimizeVerdict verdict, @Nullable OptimizationCandidate chosen, Optional<String> failure) {
    Optional<Timing> originalTime = chosen != null ? chosen.originalTiming()
        : candidates.stream().map(OptimizationCandidate::originalTiming).flatMap(Optional::stream).findFirst();
    LlmUsage usage = gateway == null ? LlmUsage.NONE : gateway.usage();
    return new OptimizeResult(sql, chosen != null ? chosen.sql() : sql, verdict, chosen != null ? chosen.speedup() : 1.0,
        Optional.ofNullable(chosen), candidates, originalTime,
        verifier == null ? List.of() : verifier.instanceNotes(), failure, usage, trace,
        Duration.ofNanos(System.nanoTime() - start));
  }
}
