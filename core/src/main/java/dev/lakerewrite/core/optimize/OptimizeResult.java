package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.equivalence.EquivalenceEvidence;
import dev.lakerewrite.core.llm.LlmUsage;
import dev.lakerewrite.core.sql.Trees;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of {@link Optimizer#optimize}: the SQL to run (a verified faster rewrite, or the original), its
 * measured speedup, the verdict, the equivalence evidence of the returned rewrite, every candidate with its
 * verdict, LLM usage and the trace.
 *
 * @param originalSql the query as given
 * @param sql the query to run: the chosen rewrite when {@link #verdict()} is {@link OptimizeVerdict#IMPROVED},
 *     else the original
 * @param verdict what happened
 * @param speedup the chosen rewrite's confirmed speedup (original time / rewrite time); 1.0 when the original is
 *     returned
 * @param chosen the chosen candidate, when one is returned
 * @param candidates every candidate tried, in the order tried
 * @param originalTime the original's trimmed mean time (from the chosen candidate's alternating runs, else from
 *     the first timed candidate); empty when nothing was timed
 * @param instances the database instances the candidates were checked on, with a note each
 * @param failure why the original could not be optimised ({@link OptimizeVerdict#ORIGINAL_FAILED}), else empty
 * @param usage LLM usage ({@link LlmUsage#NONE} offline)
 * @param trace the steps, in order
 * @param elapsed wall time of the whole optimisation
 */
public record OptimizeResult(String originalSql, String sql, OptimizeVerdict verdict, double speedup,
    Optional<OptimizationCandidate> chosen, List<OptimizationCandidate> candidates, Optional<Timing> originalTime, List<String> instances,
    Optional<String> failure, LlmUsage usage, List<OptimizationEvent> trace, Duration elapsed) {

  public OptimizeResult {
    Objects.requireNonNull(originalSql, "originalSql");
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(chosen, "chosen");
    candidates = List.copyOf(candidates);
    Objects.requireNonNull(originalTime, "originalTime");
    instances = List.copyOf(instances);
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(usage, "usage");
    trace = List.copyOf(trace);
    Objects.requireNonNull(elapsed, "elapsed");
  }

  /** Whether a rewrite (not the original) is returned. */
  public boolean improved() {
    return verdict == OptimizeVerdict.IMPROVED;
  }

  /**
   * Whether {@link #speedup()} is a lower bound: the original ran past the time limit, which stands for its time
   * (report it as "&ge; N&times;").
   */
  public boolean speedupIsLowerBound() {
    return chosen.flatMap(OptimizationCandidate::originalTiming).map(Timing::timedOut).orElse(false);
  }

  /** The equivalence evidence of the returned rewrite (empty when the original is returned). */
  public Optional<EquivalenceEvidence> equivalence() {
    return chosen.flatMap(OptimizationCandidate::equivalence);
  }

  /** How many candidates got each verdict. */
  public java.util.Map<CandidateVerdict, Long> verdictCounts() {
    java.util.Map<CandidateVerdict, Long> out = new java.util.EnumMap<>(CandidateVerdict.class);
    for (OptimizationCandidate c : candidates) {
      out.merge(c.verdict(), 1L, Long::sum);
    }
    return out;
  }

  /** The trace as JSON lines (one object per event, then one per candidate). */
  public String traceJsonLines() {
    StringBuilder sb = new StringBuilder();
    for (OptimizationEvent e : trace) {
      ObjectNode o = Trees.JSON.createObjectNode();
      o.put("at_ms", e.at().toMillis());
      o.put("state", e.state());
      o.put("event", e.event());
      o.put("message", e.message());
      sb.append(o).append('\n');
    }
    for (OptimizationCandidate c : candidates) {
      ObjectNode o = Trees.JSON.createObjectNode();
      o.put("candidate", c.id());
      o.put("source", c.source().name());
      o.put("label", c.label());
      o.put("verdict", c.verdict().name());
      o.put("speedup", c.speedup());
      o.put("reason", c.reason());
      o.put("sql", c.sql());
      sb.append(o).append('\n');
    }
    return sb.toString();
  }

  /** A short human-readable report. */
  public String summary() {
    StringBuilder sb = new StringBuilder();
    sb.append(verdict).append(String.format(Locale.ROOT, ", speedup %s%.2fx, %d candidates, %d ms",
        speedupIsLowerBound() ? ">=" : "", speedup,
        candidates.size(), elapsed.toMillis()));
    failure.ifPresent(f -> sb.append("\noriginal failed: ").append(f));
    for (OptimizationCandidate c : candidates) {
      sb.append("\n  ").append(c.summary());
    }
    return sb.toString();
  }
}
