package dev.lakerewrite.core;

import dev.lakerewrite.core.llm.LlmCall;
import dev.lakerewrite.core.llm.LlmUsage;
import dev.lakerewrite.core.match.ColumnMapping;
import dev.lakerewrite.core.rewrite.RewriteCandidate;
import dev.lakerewrite.core.rewrite.RewriteTrace;
import dev.lakerewrite.core.rewrite.StopReason;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a rewrite returns: the chosen SQL and its result (or error), every candidate with its outcome, why the
 * loop stopped, LLM usage, timings and the whole trace.
 *
 * @param userQuery the query as the user wrote it
 * @param sql the chosen rewritten query (empty when no candidate was produced)
 * @param result its result, when it ran
 * @param error why there is no result: the chosen candidate's error, or why no candidate exists
 * @param chosen the index of the chosen candidate, or -1
 * @param candidates the rewrite history
 * @param stopReason why the loop stopped
 * @param stopDetail the stop in words
 * @param iterations iterations run
 * @param usage LLM calls, tokens and estimated cost (zero offline)
 * @param llmCalls every LLM call with prompt and answer
 * @param timings where the time went
 * @param trace every step, also as JSON lines
 */
public record RewriteResult(String userQuery, String sql, Optional<ResultTable> result, Optional<QueryError> error,
    int chosen, List<RewriteCandidate> candidates, StopReason stopReason, String stopDetail, int iterations,
    LlmUsage usage, List<LlmCall> llmCalls, Timings timings, RewriteTrace trace) {

  public RewriteResult {
    Objects.requireNonNull(userQuery, "userQuery");
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(error, "error");
    candidates = List.copyOf(candidates);
    Objects.requireNonNull(stopReason, "stopReason");
    llmCalls = List.copyOf(llmCalls);
  }

  /** Whether a rewritten query ran and produced the result. */
  public boolean succeeded() {
    return result.isPresent();
  }

  /**
   * The column mapping the chosen rewrite applies: assumed {@code table.column} → lake columns, with per-column
   * and overall confidence and warnings ({@link ColumnMapping#NONE} when its agent does not report one).
   */
  public ColumnMapping mapping() {
    return chosenCandidate().map(RewriteCandidate::mapping).orElse(ColumnMapping.NONE);
  }

  /** The chosen mapping's calibrated confidence (0 when no mapping is reported). */
  public double confidence() {
    return mapping().confidence();
  }

  /** What the chosen mapping is unsure of or could not find. */
  public List<String> warnings() {
    return mapping().warnings();
  }

  /** The chosen candidate, if any. */
  public Optional<RewriteCandidate> chosenCandidate() {
    return chosen < 0 ? Optional.empty() : Optional.of(candidates.get(chosen));
  }

  /**
   * Wall time per phase of the loop.
   *
   * @param total the whole rewrite
   * @param indexing building or loading the lake's indexes (zero once they exist)
   * @param retrieval basic retrieval
   * @param proposal the rewriter agent
   * @param execution running candidates
   * @param evaluation the checker agent
   * @param actions data-lake actions
   */
  public record Timings(Duration total, Duration indexing, Duration retrieval, Duration proposal,
      Duration execution, Duration evaluation, Duration actions) {}

  @Override
  public String toString() {
    return "RewriteResult[" + stopReason + ", " + candidates.size() + " candidates, "
        + (result.isPresent() ? result.get().rowCount() + " rows" : error.map(QueryError::summary).orElse("no result"))
        + "]\n" + sql;
  }
}
