package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.llm.LlmFailure;
import dev.lakerewrite.core.llm.LlmGateway;
import dev.lakerewrite.core.match.AssumedSchema;
import dev.lakerewrite.core.sql.QueryAnalysis;
import dev.lakerewrite.core.sql.SqlSyntaxException;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.sql.Sql;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The closed feedback loop of thesis §4.1, one rewrite at a time: per iteration, basic retrieval (query–table
 * relevance, then table–table reranking with the join graph), proposal by the rewriter, execution through the
 * safe executor, evaluation by the self-checker, and the update of history and scratchpad by the chosen
 * data-lake actions. Stops on OUTPUT_QUERY, at the iteration limit (returning the best candidate by the
 * checker's ranking), when a budget runs out, or when neither agent has anything new. Every step is traced.
 *
 * <p>Agent failures (an LLM that times out, answers garbage, or proposes a DROP) are recorded as failed steps,
 * never thrown: a rewrite always returns a result with a reason.
 */
final class RewriteLoop {
  private final RewriterConfig config;
  private final RewriterAgent rewriter;
  private final CheckerAgent checker;
  private final LakeTools tools;
  private final LakeSession session;
  private final LlmGateway gateway;

  public RewriteLoop(RewriterConfig config, RewriterAgent rewriter, CheckerAgent checker, LakeTools tools,
      LakeSession session, LlmGateway gateway) {
    this.config = config;
    this.rewriter = rewriter;
    this.checker = checker;
    this.tools = tools;
    this.session = session;
    this.gateway = gateway;
  }

  /** Runs the loop for one user query. */
  public RewriteResult run(String userQuery, Duration indexing) {
    Run run = new Run(userQuery, indexing);
    return run.execute();
  }

  private final class Run {
    final String userQuery;
    /** The user query as DuckDB parses it ({@link DialectNormalizer}): what is analysed and rewritten. */
    String query;
    final Duration indexing;
    final RewriteTrace.Recorder trace = new RewriteTrace.Recorder();
    final long deadline;
    final Scratchpad scratchpad = new Scratchpad(config.sectionLimits());
    final List<RewriteCandidate> history = new ArrayList<>();
    final Set<String> seenSql = new LinkedHashSet<>();
    final List<Action> performed = new ArrayList<>();
    long retrievalNanos;
    long proposalNanos;
    long executionNanos;
    long evaluationNanos;
    long actionNanos;
    Optional<QueryAnalysis> analysis = Optional.empty();
    Map<String, Double> relevance = Map.of();
    int iteration;

    Run(String userQuery, Duration indexing) {
      this.userQuery = userQuery;
      this.query = userQuery;
      this.indexing = indexing;
      long wall = config.budget().maxWallTime().toNanos();
      long now = System.nanoTime();
      this.deadline = now + wall < now ? Long.MAX_VALUE : now + wall;
    }

    private @Nullable Set<String> lakeColumns;

    /** Whether some lake table has a column of this name, case-insensitive (read once per rewrite, when asked). */
    private boolean isLakeColumn(String name) {
      if (lakeColumns == null) {
        Set<String> names = new HashSet<>();
        for (String t : tools.tableNames()) {
          tools.columnNames(t).forEach(c -> names.add(c.toLowerCase(Locale.ROOT)));
        }
        lakeColumns = names;
      }
      return lakeColumns.contains(name.toLowerCase(Locale.ROOT));
    }

    RewriteResult execute() {
      trace.add(0, "input", "query", Map.of("sql", userQuery));
      DialectNormalizer.Normalized normalized = DialectNormalizer.normalize(userQuery, session.parser(),
          this::isLakeColumn);
      if (!normalized.changes().isEmpty()) {
        query = normalized.sql();
        trace.add(0, "input", "normalized", Map.of("sql", query, "changes", normalized.changes()));
      }
      try {
        analysis = Optional.of(session.analyze(query));
      } catch (SqlSyntaxException e) {
        QueryError err = new QueryError(e.notAQuery() ? ErrorKind.REJECTED : ErrorKind.PARSE,
            "the user query cannot be rewritten: " + e.getMessage(), e.position(), userQuery);
        trace.add(0, "input", "error", Map.of("kind", err.kind().name(), "message", err.message(),
            "position", err.position()));
        return finish(-1, StopReason.INVALID_QUERY, err.message(), Optional.of(err));
      }
      QueryAnalysis a = analysis.get();
      trace.add(0, "input", "analysis", Map.of("tables", a.columnsByTable(), "predicates",
          a.predicates().stream().map(p -> p.column().column() + " " + p.operator() + " " + p.literals()).toList(),
          "outputs", a.outputColumns().stream().map(QueryAnalysis.OutputColumn::name).toList()));
      long t0 = System.nanoTime();
      relevance = tools.queryRelevance(assumedTables(a));
      retrievalNanos += System.nanoTime() - t0;

      for (iteration = 1; iteration <= config.maxIterations(); iteration++) {
        if (Thread.currentThread().isInterrupted()) {
          return finishBest(StopReason.INTERRUPTED, "the thread was interrupted before iteration " + iteration);
        }
        if (System.nanoTime() >= deadline) {
          return finishBest(StopReason.BUDGET_EXHAUSTED, "the wall-time budget of " + config.budget().maxWallTime()
              + " ran out before iteration " + iteration);
        }
        List<Evidence.TablePreview> retrieved = basicRetrieval();
        RewriteState state = state(retrieved);
        Optional<Proposal> proposal = propose(state);
        if (proposal.isEmpty() && budgetGone()) {
          return finishBest(StopReason.BUDGET_EXHAUSTED, "an LLM budget ran out while proposing");
        }
        boolean newCandidate = false;
        if (proposal.isPresent()) {
          newCandidate = executeCandidate(proposal.get(), retrieved);
        }
        long t1 = System.nanoTime();
        Decision decision = decide(state(List.of()));
        evaluationNanos += System.nanoTime() - t1;
        applyScores(decision);
        Optional<Action.OutputQuery> output = decision.actions().stream()
            .filter(Action.OutputQuery.class::isInstance).map(Action.OutputQuery.class::cast).findFirst();
        if (output.isPresent() && output.get().candidate() < history.size()) {
          return finish(output.get().candidate(), StopReason.OUTPUT_QUERY,
              "the checker chose candidate " + output.get().candidate(), Optional.empty());
        }
        if (budgetGone()) {
          return finishBest(StopReason.BUDGET_EXHAUSTED, "an LLM budget ran out");
        }
        if (Thread.currentThread().isInterrupted()) {
          // Checked before the actions too: an interrupted model call fails fast, and the actions after it would not.
          return finishBest(StopReason.INTERRUPTED, "the thread was interrupted in iteration " + iteration);
        }
        if (iteration == config.maxIterations()) {
          break; // evidence gathered now could never be used: no rewriter turn follows
        }
        boolean newEvidence = runActions(decision);
        if (!newCandidate && !newEvidence && proposal.isPresent()) {
          return finishBest(StopReason.NO_PROGRESS,
              "the rewriter repeated an earlier candidate and the checker asked for no new evidence");
        }
      }
      return finishBest(StopReason.MAX_ITERATIONS, "the iteration limit of " + config.maxIterations()
          + " was reached");
    }

    /**
     * Assumed tables with the columns the query uses on them, unqualified ones where the assumed schema places them
     * ({@link OfflinePlanner#assumedTables(QueryAnalysis, AssumedSchema)}).
     */
    Map<String, List<String>> assumedTables(QueryAnalysis a) {
      AssumedSchema schema;
      try {
        schema = AssumedSchema.of(new Trees(session.parser()).statement(query));
      } catch (RuntimeException e) {
        // The analysis parsed this query; a tree the schema walk cannot read keeps the analysis's own columns.
        Map<String, List<String>> out = new LinkedHashMap<>();
        a.columnsByTable().forEach((t, cols) -> out.put(t, new ArrayList<>(cols)));
        return out;
      }
      return OfflinePlanner.assumedTables(a, schema);
    }

    boolean budgetGone() {
      return gateway.calls().stream().anyMatch(c -> c.failure().filter(k -> k == LlmFailure.Kind.BUDGET_EXHAUSTED)
          .isPresent()) || System.nanoTime() >= deadline;
    }

    RewriteState state(List<Evidence.TablePreview> retrieved) {
      return new RewriteState(query, analysis, iteration, config.maxIterations(), history, scratchpad,
          retrieved, config.enabledActions(), tools, config, performed);
    }

    /** Thesis §5.1: R_Q in the first iteration, then S_k = R_Q + max Ω over the scratchpad's tables. */
    List<Evidence.TablePreview> basicRetrieval() {
      long t0 = System.nanoTime();
      Set<String> context = scratchpad.contextTables();
      Map<String, Double> scores = new LinkedHashMap<>();
      Map<String, String> why = new LinkedHashMap<>();
      for (Map.Entry<String, Double> e : relevance.entrySet()) {
        String t = e.getKey();
        if (context.contains(t) || scratchpad.isEvicted(t)) {
          continue;
        }
        double omega = 0;
        String via = null;
        if (config.joinGraph()) {
          for (String c : context) {
            double o = tools.joinability(t, c);
            if (o > omega) {
              omega = o;
              via = c;
            }
          }
        }
        scores.put(t, e.getValue() + omega);
        why.put(t, via == null ? String.format("R_Q %.3f", e.getValue())
            : String.format("R_Q %.3f + Ω %.3f with %s", e.getValue(), omega, via));
      }
      List<Map.Entry<String, Double>> ranked = new ArrayList<>(scores.entrySet());
      ranked.sort(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry::getKey));
      List<Evidence.TablePreview> out = new ArrayList<>();
      List<Map<String, Object>> traced = new ArrayList<>();
      for (Map.Entry<String, Double> e : ranked.subList(0, Math.min(config.topK(), ranked.size()))) {
        out.add(tools.tablePreview(e.getKey(), config.previewRows(), e.getValue(), "basic retrieval"));
        traced.add(Map.of("table", e.getKey(), "score", round(e.getValue()), "why", why.get(e.getKey())));
      }
      trace.add(iteration, "retrieval", "retrieved", Map.of("tables", traced));
      retrievalNanos += System.nanoTime() - t0;
      return out;
    }

    Optional<Proposal> propose(RewriteState state) {
      long t0 = System.nanoTime();
      try {
        Proposal p = rewriter.propose(state);
        trace.add(iteration, "proposal", "proposal", Map.of("sql", p.sql(), "reason", p.reason(),
            "used_tables", p.usedTables()));
        return Optional.of(p);
      } catch (LlmFailure f) {
        trace.add(iteration, "proposal", "agent_failure", Map.of("role", f.role().name(), "kind", f.kind().name(),
            "message", f.getMessage()));
        scratchpad.add(Scratchpad.Section.NOTES, "rewriter-failure-" + iteration, iteration,
            "Iteration " + iteration + ": the rewriter produced no usable answer (" + f.kind() + ").", f.kind());
        return Optional.empty();
      } catch (RuntimeException e) {
        trace.add(iteration, "proposal", "agent_failure", Map.of("kind", e.getClass().getSimpleName(),
            "message", String.valueOf(e.getMessage())));
        return Optional.empty();
      } finally {
        proposalNanos += System.nanoTime() - t0;
      }
    }

    /** Executes a proposal and records it; false when it repeats an earlier candidate. */
    boolean executeCandidate(Proposal p, List<Evidence.TablePreview> retrieved) {
      String key = normalized(p.sql());
      if (!seenSql.add(key)) {
        trace.add(iteration, "execution", "duplicate", Map.of("sql", p.sql()));
        scratchpad.add(Scratchpad.Section.NOTES, "duplicate-" + iteration, iteration, "Iteration " + iteration
            + ": the proposed query repeats an earlier candidate; propose a different one.", p.sql());
        return false;
      }
      long t0 = System.nanoTime();
      Execution e = session.execute(p.sql(), limitsWithinBudget());
      executionNanos += System.nanoTime() - t0;
      List<String> used = usedTables(p, e);
      RewriteCandidate c = new RewriteCandidate(history.size(), iteration, p.sql(), p.reason(), used,
          e.isSuccess() ? Optional.of(e.table()) : Optional.empty(), e.error(), e.elapsed(), 0, List.of(),
          p.mapping());
      history.add(c);
      Map<String, Object> data = new LinkedHashMap<>();
      data.put("index", c.index());
      data.put("sql", c.sql());
      data.put("ok", e.isSuccess());
      data.put("elapsed_ms", e.elapsed().toMillis());
      if (e.isSuccess()) {
        data.put("rows", e.table().rowCount());
        data.put("columns", e.table().columnNames());
      } else {
        QueryError err = e.error().orElseThrow();
        data.put("error_kind", err.kind().name());
        data.put("error", err.message());
        data.put("position", err.position());
      }
      trace.add(iteration, "execution", "candidate", data);
      // Thesis §4.2: tables from basic retrieval enter the scratchpad when the rewriter uses them.
      for (String t : used) {
        if (!scratchpad.hasTable(t) && !scratchpad.isEvicted(t)) {
          double rel = retrieved.stream().filter(r -> r.table().equals(t)).mapToDouble(Evidence.TablePreview::relevance)
              .findFirst().orElse(relevance.getOrDefault(t, 0.0));
          addTable(tools.tablePreview(t, config.previewRows(), rel, "used by candidate " + c.index()));
        }
      }
      return true;
    }

    /**
     * The candidates' query limits, with the time limit cut to what is left of the wall-time budget (at least
     * 1 ms), so that a slow candidate cannot carry the rewrite past its budget.
     */
    QueryLimits limitsWithinBudget() {
      QueryLimits limits = config.queryLimits();
      long remaining = deadline - System.nanoTime();
      if (remaining < limits.timeout().toNanos()) {
        limits = limits.withTimeout(Duration.ofNanos(Math.max(remaining, 1_000_000L)));
      }
      return limits;
    }

    List<String> usedTables(Proposal p, Execution e) {
      Set<String> out = new LinkedHashSet<>();
      for (String t : p.usedTables()) {
        tools.resolveTable(t).ifPresent(out::add);
      }
      try {
        for (String t : session.analyze(p.sql()).tableNames()) {
          tools.resolveTable(t).ifPresent(out::add);
        }
      } catch (RuntimeException ignored) {
        // A candidate that does not parse reads no tables; its error is in the history.
      }
      return new ArrayList<>(out);
    }

    Decision decide(RewriteState state) {
      try {
        Decision d = checker.decide(state);
        trace.add(iteration, "evaluation", "decision", Map.of(
            "actions", d.actions().stream().map(Action::describe).toList(),
            "best", d.best().isPresent() ? d.best().getAsInt() : -1,
            "reasoning", d.reasoning().render()));
        String note = d.reasoning().render();
        if (!note.isBlank()) {
          scratchpad.add(Scratchpad.Section.NOTES, "reasoning-" + iteration, iteration,
              "Checker, iteration " + iteration + ":\n" + note, d.reasoning());
        }
        return d;
      } catch (LlmFailure f) {
        trace.add(iteration, "evaluation", "agent_failure", Map.of("role", f.role().name(), "kind", f.kind().name(),
            "message", f.getMessage()));
        return new Decision(List.of(), Decision.Reasoning.NONE, Map.of(), java.util.OptionalInt.empty());
      } catch (RuntimeException e) {
        trace.add(iteration, "evaluation", "agent_failure", Map.of("kind", e.getClass().getSimpleName(),
            "message", String.valueOf(e.getMessage())));
        return new Decision(List.of(), Decision.Reasoning.NONE, Map.of(), java.util.OptionalInt.empty());
      }
    }

    void applyScores(Decision d) {
      for (Map.Entry<Integer, Double> s : d.scores().entrySet()) {
        int i = s.getKey();
        if (i >= 0 && i < history.size()) {
          RewriteCandidate c = history.get(i);
          List<String> note = d.best().isPresent() && d.best().getAsInt() == i && !d.reasoning().outputQuality().isBlank()
              ? List.of(d.reasoning().outputQuality()) : c.assessment();
          history.set(i, c.judged(s.getValue(), note));
        }
      }
      if (d.best().isPresent()) {
        lastBest = d.best().getAsInt();
      }
    }

    int lastBest = -1;

    /** Runs the decision's evidence actions; true when any of them added something new. */
    boolean runActions(Decision d) {
      boolean added = false;
      for (Action a : d.actions()) {
        if (a instanceof Action.OutputQuery || !config.enabled(a.type())) {
          continue;
        }
        long t0 = System.nanoTime();
        performed.add(a);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("action", a.describe());
        try {
          long before = scratchpad.version();
          apply(a, data);
          added |= scratchpad.version() != before;
          data.put("ok", true);
        } catch (RuntimeException e) {
          data.put("ok", false);
          data.put("error", String.valueOf(e.getMessage()));
          scratchpad.add(Scratchpad.Section.NOTES, "action-error-" + iteration + "-" + a.describe(), iteration,
              a.describe() + " failed: " + e.getMessage(), e.getMessage());
        } finally {
          long ms = (System.nanoTime() - t0) / 1_000_000;
          data.put("elapsed_ms", ms);
          actionNanos += System.nanoTime() - t0;
          trace.add(iteration, "action", "action", data);
        }
      }
      return added;
    }

    void apply(Action a, Map<String, Object> data) {
      int rows = config.previewRows();
      if (a instanceof Action.SearchTable st) {
        List<Evidence.TableHit> hits = tools.searchTable(st.domain(), st.columns(), 3, scratchpad.contextTables());
        for (Evidence.TableHit h : hits) {
          addTable(tools.tablePreview(h.table(), rows, h.score(), "SEARCH_TABLE " + st.domain() + " " + st.columns()));
        }
        data.put("found", hits.stream().map(h -> h.table() + " (" + round(h.score()) + ")").toList());
      } else if (a instanceof Action.SearchValue sv) {
        Evidence.ValueSearch vs = tools.searchValue(sv.table(), sv.value(), VALUE_HITS);
        scratchpad.add(Scratchpad.Section.VALUES, vs.table() + "|" + sv.value(), iteration, vs.render(rows), vs);
        data.put("found", vs.hits().stream().map(h -> h.column() + "='" + h.value() + "' (" + round(h.score()) + ")")
            .toList());
      } else if (a instanceof Action.FindJoinPath fj) {
        List<Evidence.JoinPath> paths = tools.findJoinPaths(fj.tableA(), fj.tableB(), 3);
        for (int i = 0; i < paths.size(); i++) {
          Evidence.JoinPath p = paths.get(i);
          String key = p.from() + "|" + p.to() + "|" + p.rank();
          if (i == 0) {
            scratchpad.add(Scratchpad.Section.JOINS, key, iteration, p.render(rows), p);
          } else {
            scratchpad.addAlternative(Scratchpad.Section.JOINS, key, iteration, p.render(rows), p);
          }
          for (Evidence.JoinStep s : p.steps()) {
            for (String t : List.of(s.leftTable(), s.rightTable())) {
              if (!scratchpad.hasTable(t)) {
                addTable(tools.tablePreview(t, rows, relevance.getOrDefault(t, 0.0), "on a join path"));
              }
            }
          }
        }
        data.put("paths", paths.stream().map(Evidence.JoinPath::sqlJoin).toList());
      } else if (a instanceof Action.UnionSearch us) {
        List<Evidence.UnionPartner> partners = tools.unionSearch(us.baseTable(), 3);
        for (Evidence.UnionPartner p : partners) {
          scratchpad.add(Scratchpad.Section.UNIONS, p.baseTable() + "|" + p.table(), iteration, p.render(), p);
          if (!scratchpad.hasTable(p.table())) {
            addTable(tools.tablePreview(p.table(), rows, p.score(), "UNION_SEARCH from " + us.baseTable()));
          }
        }
        data.put("partners", partners.stream().map(p -> p.table() + " (" + round(p.score()) + ")").toList());
      } else if (a instanceof Action.BuildCte bc) {
        Evidence.CleanedTable ct = tools.buildCte(bc.table(), bc.columns(), bc.goal());
        scratchpad.add(Scratchpad.Section.CTES, ct.baseTable(), iteration, ct.render(rows), ct);
        for (Evidence.Udf u : ct.udfs()) {
          scratchpad.add(Scratchpad.Section.UDFS, u.signature(), iteration, u.render(), u);
        }
        data.put("cte", ct.name());
        data.put("cleaned", ct.cleanedColumns().keySet());
      } else if (a instanceof Action.EvictTable et) {
        scratchpad.evictTable(et.table());
        data.put("evicted", et.table());
      }
    }

    void addTable(Evidence.TablePreview p) {
      List<Scratchpad.Entry> evicted = scratchpad.add(Scratchpad.Section.TABLES, p.table(), iteration,
          p.render(config.previewRows()), p);
      for (Scratchpad.Entry e : evicted) {
        trace.add(iteration, "update", "time_eviction", Map.of("section", e.section().name(), "key", e.key()));
      }
    }

    RewriteResult finishBest(StopReason reason, String detail) {
      int best = bestCandidate();
      return finish(best, reason, detail + (best >= 0 ? "; returning candidate " + best : "; no candidate ran"),
          Optional.empty());
    }

    /**
     * The chosen candidate, when the binder rejected it for its types, repaired ({@link TypeRepairs}) until it binds:
     * at most {@value #MAX_TYPE_REPAIRS} repairs, each fixing one expression. The repaired query joins the history as
     * a candidate of its own, its reason saying what was read as what; empty when no repair applies or the repaired
     * query still does not bind. Only the output is repaired: during the search a type error is evidence against the
     * column it blames ({@link TypeRefutations}), and the next candidate reads another.
     */
    private Optional<Integer> repairedTypes(RewriteCandidate c) {
      if (c.error().isEmpty() || c.error().get().kind() != ErrorKind.BINDER) {
        return Optional.empty();
      }
      String sql = c.sql();
      QueryError error = c.error().get();
      Execution e = null;
      List<String> notes = new ArrayList<>();
      for (int i = 0; i < MAX_TYPE_REPAIRS && error != null && error.kind() == ErrorKind.BINDER; i++) {
        Optional<TypeRepairs.Repair> r = TypeRepairs.repair(new Trees(session.parser()), sql, error);
        if (r.isEmpty()) {
          break;
        }
        long t0 = System.nanoTime();
        e = session.execute(r.get().sql(), limitsWithinBudget());
        executionNanos += System.nanoTime() - t0;
        trace.add(iteration, "execution", "type_repair", Map.of("candidate", c.index(), "note", r.get().note(),
            "sql", r.get().sql(), "ok", e.isSuccess()));
        sql = r.get().sql();
        error = e.error().orElse(null);
        notes.add(r.get().note());
      }
      if (e == null || error != null && (error.kind() == ErrorKind.BINDER || error.kind() == ErrorKind.PARSE)) {
        return Optional.empty();
      }
      String reason = (c.reason().isEmpty() ? "" : c.reason() + " ") + "Repaired: " + String.join("; ", notes) + ".";
      RewriteCandidate repaired = new RewriteCandidate(history.size(), c.iteration(), sql, reason, c.usedTables(),
          e.isSuccess() ? Optional.of(e.table()) : Optional.empty(), e.error(), e.elapsed(), c.score(), List.of(),
          c.mapping());
      history.add(repaired);
      return Optional.of(repaired.index());
    }

    /**
     * The checker's latest pick, else the highest-scored candidate that ran (later ones win ties: they were built
     * with more evidence), else -1 when none ran. When every candidate failed, one that binds on the lake (it
     * failed while running) is returned before one the binder rejected, and the earliest first: it is the best
     * mapping's query, the later ones are the search's less likely alternatives.
     */
    int bestCandidate() {
      if (lastBest >= 0 && lastBest < history.size() && history.get(lastBest).succeeded()) {
        return lastBest;
      }
      Optional<RewriteCandidate> ran = history.stream().filter(RewriteCandidate::succeeded)
          .max(Comparator.comparingDouble(RewriteCandidate::score).thenComparingInt(RewriteCandidate::index));
      if (ran.isPresent()) {
        return ran.get().index();
      }
      return history.stream()
          .min(Comparator.comparingInt((RewriteCandidate c) -> bindsOnTheLake(c) ? 0 : 1)
              .thenComparingInt(RewriteCandidate::index))
          .map(RewriteCandidate::index).orElse(-1);
    }

    private static boolean bindsOnTheLake(RewriteCandidate c) {
      return c.error().map(e -> e.kind() == ErrorKind.RUNTIME || e.kind() == ErrorKind.TIMEOUT).orElse(false);
    }

    RewriteResult finish(int chosen, StopReason reason, String detail, Optional<QueryError> preError) {
      if (chosen >= 0 && history.get(chosen).result().isEmpty()) {
        Optional<Integer> repaired = repairedTypes(history.get(chosen));
        if (repaired.isPresent()) {
          detail += "; candidate " + chosen + " repaired for its types as candidate " + repaired.get();
          chosen = repaired.get();
        }
      }
      String sql = chosen >= 0 ? history.get(chosen).sql() : "";
      Optional<ResultTable> result = chosen >= 0 ? history.get(chosen).result() : Optional.empty();
      Optional<QueryError> error = chosen >= 0 ? history.get(chosen).error() : preError;
      if (chosen >= 0 && result.isPresent()) {
        Optional<String> renamed = renameToAssumed(sql, result.get());
        if (renamed.isPresent()) {
          Execution e = session.execute(renamed.get(), limitsWithinBudget());
          if (e.isSuccess()) {
            sql = renamed.get();
            result = Optional.of(e.table());
            trace.add(iteration, "selection", "renamed", Map.of("sql", sql));
          }
        }
      }
      if (chosen >= 0 && config.minConfidence() > 0) {
        dev.lakerewrite.core.match.ColumnMapping m = history.get(chosen).mapping();
        if (!m.isEmpty() && m.confidence() < config.minConfidence()) {
          List<String> unsure = new ArrayList<>();
          m.columnConfidence().entrySet().stream().sorted(Map.Entry.comparingByValue()).limit(3)
              .forEach(c -> unsure.add(c.getKey() + " → " + String.join(", ", m.columns().get(c.getKey()))
                  + String.format(Locale.ROOT, " (%.2f)", c.getValue())));
          String why = String.format(Locale.ROOT, "refused: the mapping's confidence %.2f is below the minimum %.2f;"
              + " least sure: %s", m.confidence(), config.minConfidence(), String.join("; ", unsure));
          trace.add(Math.min(iteration, config.maxIterations()), "selection", "refused", Map.of("detail", why));
          result = Optional.empty();
          error = Optional.of(new QueryError(ErrorKind.REJECTED, why, -1, sql));
          reason = StopReason.LOW_CONFIDENCE;
          detail = why;
        }
      }
      if (chosen < 0 && error.isEmpty()) {
        error = Optional.of(new QueryError(ErrorKind.RUNTIME, "no rewritten query was produced: " + detail, -1,
            userQuery));
      }
      trace.add(Math.min(iteration, config.maxIterations()), "selection", "result", Map.of("stop", reason.name(),
          "detail", detail, "chosen", chosen, "sql", sql));
      long total = trace.elapsedMillis();
      RewriteResult.Timings timings = new RewriteResult.Timings(Duration.ofMillis(total), indexing,
          Duration.ofNanos(retrievalNanos), Duration.ofNanos(proposalNanos), Duration.ofNanos(executionNanos),
          Duration.ofNanos(evaluationNanos), Duration.ofNanos(actionNanos));
      return new RewriteResult(userQuery, sql, result, error, chosen, history, reason, detail,
          Math.min(iteration, config.maxIterations()), gateway.usage(), gateway.calls(), timings, trace.build());
    }

    /**
     * When the chosen result's columns are named differently from the user's assumed output names (same
     * count, no name of another position), renames them positionally, so results read as the user expects.
     */
    Optional<String> renameToAssumed(String sql, ResultTable result) {
      if (analysis.isEmpty()) {
        return Optional.empty();
      }
      List<QueryAnalysis.OutputColumn> outs = analysis.get().outputColumns();
      if (outs.isEmpty() || outs.stream().anyMatch(QueryAnalysis.OutputColumn::star)
          || outs.size() != result.columnCount()) {
        return Optional.empty();
      }
      List<String> assumed = outs.stream().map(QueryAnalysis.OutputColumn::name).toList();
      List<String> actual = result.columnNames();
      if (assumed.equals(actual)) {
        return Optional.empty();
      }
      for (int i = 0; i < actual.size(); i++) {
        for (int j = 0; j < assumed.size(); j++) {
          if (i != j && actual.get(i).equalsIgnoreCase(assumed.get(j))) {
            return Optional.empty();
          }
        }
      }
      String body = sql.strip();
      while (body.endsWith(";")) {
        body = body.substring(0, body.length() - 1).strip();
      }
      String cols = String.join(", ", assumed.stream().map(Sql::quoted).toList());
      return Optional.of("SELECT * FROM (\n" + body + "\n) AS result(" + cols + ")");
    }
  }

  /** Hits kept per SEARCH_VALUE (prompts show the top three, thesis §4.2). */
  static final int VALUE_HITS = 8;
  /** Type repairs tried on one candidate the binder rejected (each fixes one expression). */
  static final int MAX_TYPE_REPAIRS = 3;

  /** SQL compared for repetition: whitespace collapsed, trailing semicolons dropped; case kept (literals). */
  static String normalized(String sql) {
    String s = sql.strip().replaceAll("\\s+", " ");
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }

  static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
