package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.sql.QueryAnalysis;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The self-checker without a model. It judges every candidate from execution evidence (errors, empty results,
 * NULL-heavy columns, fan-out blow-ups, coverage of the requested columns, how well the mapping fits) and asks
 * for the evidence the {@link OfflinePlanner} still lacks: SEARCH_VALUE for filter values the lake does not hold,
 * SEARCH_TABLE for columns no table in sight has, FIND_JOIN_PATH for tables that must be joined, UNION_SEARCH when
 * several tables answer the assumed one equally well, BUILD_CTE when detection finds noise on a column the query
 * uses. With nothing left to learn, or in the last iteration, it outputs the best candidate; but while every
 * candidate so far failed or returned no rows, it holds the output back so that the rewriter's next turn runs an
 * alternative plan (execution-guided search, {@link OfflinePlanner#alternative}).
 */
final class OfflineCheckerAgent implements CheckerAgent {

  @Override
  public Decision decide(RewriteState state) {
    Map<Integer, Double> scores = new HashMap<>();
    for (RewriteCandidate c : state.history()) {
      scores.put(c.index(), score(c, state));
    }
    int best = best(state, scores);
    if (state.analysis().isEmpty()) {
      return output(best, scores, "the user query does not parse; nothing to plan");
    }
    OfflinePlanner.Plan plan = new OfflinePlanner(state).plan();
    List<Action> todo = new ArrayList<>();
    Set<String> done = new LinkedHashSet<>();
    state.performedActions().forEach(a -> done.add(OfflinePlanner.question(a)));
    for (Action a : plan.wanted()) {
      if (state.enabled(a.type()) && !done.contains(OfflinePlanner.question(a))) {
        todo.add(a);
      }
    }
    RewriteCandidate latest = state.latest().orElse(null);
    String quality = latest == null ? "no candidate yet"
        : String.format("candidate %d scores %.2f%s", latest.index(), scores.get(latest.index()),
            latest.error().map(e -> " (" + e.summary() + ")").orElse(""));
    Decision.Reasoning reasoning = new Decision.Reasoning(
        String.format("mapping confidence %.2f; %s", plan.confidence(), describeMapping(plan)), quality,
        todo.isEmpty() ? "none" : String.join(", ", todo.stream().map(Action::describe).toList()),
        String.join("; ", plan.notes()));
    List<TypeRefutations.Refutation> refuted = latest == null ? List.of() : TypeRefutations.of(latest, state.lake());
    if (todo.isEmpty() && !state.lastIteration() && !refuted.isEmpty()) {
      // The latest candidate's types say which lake columns were wrong; the next plan ranks them last.
      String which = String.join(", ", refuted.stream()
          .map(r -> r.lakeTable() + "." + r.lakeColumn() + " for " + r.assumedColumn()).distinct().toList());
      Decision.Reasoning retry = new Decision.Reasoning(reasoning.intentCoverage(),
          reasoning.outputQuality() + "; its types refute " + which + ": trying the next best columns",
          reasoning.missingInformation(), reasoning.suggestedImprovement());
      return new Decision(List.of(), retry, scores, best < 0 ? OptionalInt.empty() : OptionalInt.of(best));
    }
    if (todo.isEmpty() && !state.lastIteration() && !state.history().isEmpty()
        && state.history().stream().allMatch(OfflineRewriterAgent::failed)) {
      // Nothing has run yet with rows, and no evidence is missing: the next turn tries an alternative plan
      // (execution-guided search); with none left the rewriter repeats itself and the loop returns the best.
      Decision.Reasoning searching = new Decision.Reasoning(reasoning.intentCoverage(),
          reasoning.outputQuality() + "; every candidate failed or returned no rows: trying an alternative mapping",
          reasoning.missingInformation(), reasoning.suggestedImprovement());
      return new Decision(List.of(), searching, scores, best < 0 ? OptionalInt.empty() : OptionalInt.of(best));
    }
    if (todo.isEmpty() || state.lastIteration()) {
      if (best < 0) {
        return new Decision(todo, reasoning, scores, OptionalInt.empty());
      }
      List<Action> out = new ArrayList<>();
      out.add(new Action.OutputQuery(best));
      return new Decision(out, reasoning, scores, OptionalInt.of(best));
    }
    return new Decision(todo, reasoning, scores, best < 0 ? OptionalInt.empty() : OptionalInt.of(best));
  }

  private static String describeMapping(OfflinePlanner.Plan plan) {
    List<String> parts = new ArrayList<>();
    for (OfflinePlanner.TableChoice t : plan.tables().values()) {
      parts.add(t.assumed() + "→" + (t.mergedInto() != null ? "(merged into " + t.mergedInto() + ")" : t.lake())
          + (t.unmapped().isEmpty() ? "" : " missing " + t.unmapped()));
    }
    return String.join(", ", parts);
  }

  private static Decision output(int best, Map<Integer, Double> scores, String why) {
    Decision.Reasoning r = new Decision.Reasoning(why, "", "", "");
    if (best < 0) {
      return new Decision(List.of(), r, scores, OptionalInt.empty());
    }
    return new Decision(List.of(new Action.OutputQuery(best)), r, scores, OptionalInt.of(best));
  }

  /** The best candidate: highest score, the later one on ties (it was built with more evidence). */
  static int best(RewriteState state, Map<Integer, Double> scores) {
    int best = -1;
    double bestScore = -1;
    for (RewriteCandidate c : state.history()) {
      double s = scores.get(c.index());
      if (s >= bestScore - 1e-9 && s > 0) {
        best = c.index();
        bestScore = s;
      }
    }
    return best;
  }

  /**
   * A candidate's score in [0, 1] from execution evidence alone: 0 for an error; then penalties for an empty
   * result, all-NULL columns, fewer or more columns than the user asked for, and a row count far beyond the
   * largest table read (a fan-out blow-up).
   */
  static double score(RewriteCandidate c, RewriteState state) {
    if (c.result().isEmpty()) {
      return 0;
    }
    ResultTable r = c.result().get();
    double s = 1.0;
    if (r.rowCount() == 0) {
      s *= 0.3;
    } else {
      int nullColumns = 0;
      for (int i = 0; i < r.columnCount(); i++) {
        if (r.columnValues(i).stream().allMatch(v -> v == null)) {
          nullColumns++;
        }
      }
      if (r.columnCount() > 0) {
        s *= 1 - 0.6 * nullColumns / (double) r.columnCount();
      }
    }
    if (state.analysis().isPresent()) {
      QueryAnalysis a = state.analysis().get();
      boolean star = a.outputColumns().stream().anyMatch(QueryAnalysis.OutputColumn::star);
      if (!star && !a.outputColumns().isEmpty() && a.outputColumns().size() != r.columnCount()) {
        s *= 0.8;
      }
      long largest = 0;
      for (String t : c.usedTables()) {
        largest = Math.max(largest, state.lake().table(t).rowCount());
      }
      if (!a.hasAggregates() && largest > 0 && r.rowCount() > 3 * largest && !r.truncated()) {
        s *= 0.5;
      }
    }
    return s;
  }
}
