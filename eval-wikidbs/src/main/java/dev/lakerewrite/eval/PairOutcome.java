package dev.lakerewrite.eval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The run of one pair with one variant: what was predicted, how it scored, and what it took.
 *
 * @param variant the configuration that ran
 * @param pair the pair (with its gold result)
 * @param status how the run ended
 * @param reason why it failed, timed out, was skipped or has no result; empty when it completed
 * @param noisyLake whether the user query ran on the noisy lake
 * @param sql the chosen rewritten query (empty when none)
 * @param prediction the returned result, when there is one
 * @param predictionTruncated whether the prediction was cut at the row cap
 * @param score the metrics of thesis §7.3 ({@link ResultScore#FAILED} without a prediction)
 * @param iterations iterations the loop ran
 * @param stopReason why the loop stopped (core's {@code StopReason} name), empty when it did not return
 * @param executedActions actions the loop ran, per type
 * @param requestedActions actions the checker asked for, per type (OUTPUT_QUERY included)
 * @param latencyMillis wall time of the rewrite as the harness measured it
 * @param llmCalls LLM calls that answered
 * @param tokens LLM tokens (input and output)
 * @param costUsd estimated LLM cost
 * @param discovery required-table discovery, when the rewrite returned
 * @param selection checker selection, when the rewrite returned
 * @param traceFile the trace's JSON-lines file relative to the output folder, when written
 * @param mapping the chosen column mapping scored against the pair's gold mapping, when the rewriter reports its
 *     mapping and the pair has one ({@link MappingAccuracy})
 */
public record PairOutcome(Variant variant, QueryResultPair pair, PairStatus status, String reason, boolean noisyLake,
    String sql, Optional<PlainTable> prediction, boolean predictionTruncated, ResultScore score, int iterations,
    String stopReason, Map<String, Integer> executedActions, Map<String, Integer> requestedActions,
    long latencyMillis, long llmCalls, long tokens, double costUsd, Optional<TableDiscovery> discovery,
    Optional<CandidateSelection> selection, Optional<String> traceFile, Optional<MappingAccuracy.Score> mapping) {

  /** An outcome without a mapping score. */
  public PairOutcome(Variant variant, QueryResultPair pair, PairStatus status, String reason, boolean noisyLake,
      String sql, Optional<PlainTable> prediction, boolean predictionTruncated, ResultScore score, int iterations,
      String stopReason, Map<String, Integer> executedActions, Map<String, Integer> requestedActions,
      long latencyMillis, long llmCalls, long tokens, double costUsd, Optional<TableDiscovery> discovery,
      Optional<CandidateSelection> selection, Optional<String> traceFile) {
    this(variant, pair, status, reason, noisyLake, sql, prediction, predictionTruncated, score, iterations,
        stopReason, executedActions, requestedActions, latencyMillis, llmCalls, tokens, costUsd, discovery,
        selection, traceFile, Optional.empty());
  }

  public PairOutcome {
    Objects.requireNonNull(variant, "variant");
    Objects.requireNonNull(pair, "pair");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(prediction, "prediction");
    Objects.requireNonNull(score, "score");
    Objects.requireNonNull(stopReason, "stopReason");
    executedActions = Collections.unmodifiableMap(new LinkedHashMap<>(executedActions));
    requestedActions = Collections.unmodifiableMap(new LinkedHashMap<>(requestedActions));
    Objects.requireNonNull(discovery, "discovery");
    Objects.requireNonNull(selection, "selection");
    Objects.requireNonNull(traceFile, "traceFile");
    Objects.requireNonNull(mapping, "mapping");
  }

  /** Whether the rewrite's chosen query was rejected by DuckDB's binder (a table or column that does not exist). */
  public boolean binderRejected() {
    return status == PairStatus.NO_RESULT && reason.startsWith("BINDER");
  }

  /** An outcome without a returned rewrite (failed, timed out, skipped). */
  static PairOutcome without(Variant variant, QueryResultPair pair, PairStatus status, String reason,
      boolean noisyLake, long latencyMillis) {
    return new PairOutcome(variant, pair, status, reason, noisyLake, "", Optional.empty(), false, ResultScore.FAILED,
        0, "", Map.of(), Map.of(), latencyMillis, 0, 0, 0, Optional.empty(), Optional.empty(), Optional.empty());
  }

  public double f1() {
    return score.f1();
  }

  public boolean executionMatch() {
    return score.executionMatch();
  }
}
