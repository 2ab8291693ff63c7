package dev.lakerewrite.core.optimize;

import dev.lakerewrite.core.equivalence.EquivalenceEvidence;
import java.util.Objects;
import java.util.Optional;

/**
 * One candidate rewrite and everything verification and timing found out about it.
 *
 * @param id its number within the optimisation, from 1
 * @param source who proposed it
 * @param label the recipe or step that produced it ({@code decorrelate-scalar-aggregate}, {@code llm-iteration-2})
 * @param explanation what the rewrite does and why it should help
 * @param sql the candidate query (empty when the proposal could not even be turned into SQL)
 * @param verdict the verdict
 * @param reason why that verdict, in one line (the error, the differing instance, the speedup)
 * @param equivalence the equivalence evidence, when it got that far
 * @param originalTiming the original's timing measured alternately with this candidate, when timed
 * @param timing this candidate's timing, when timed
 * @param speedup original trimmed mean / candidate trimmed mean; 0 when not timed
 */
public record OptimizationCandidate(int id, CandidateSource source, String label, String explanation, String sql,
    CandidateVerdict verdict, String reason, Optional<EquivalenceEvidence> equivalence, Optional<Timing> originalTiming,
    Optional<Timing> timing, double speedup) {
  public OptimizationCandidate {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(explanation, "explanation");
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(equivalence, "equivalence");
    Objects.requireNonNull(originalTiming, "originalTiming");
    Objects.requireNonNull(timing, "timing");
  }

  /** {@code #3 RULE decorrelate-scalar-aggregate: FASTER (1.84x)}. */
  public String summary() {
    return "#" + id + " " + source + " " + label + ": " + verdict
        + (speedup > 0 ? String.format(java.util.Locale.ROOT, " (%.2fx)", speedup) : "") + " - " + reason;
  }
}
