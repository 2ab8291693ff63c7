package dev.lakerewrite.core.equivalence;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What an equivalence verdict rests on: the result comparison on every database instance the two queries ran on,
 * how many instances that was, how many result rows were compared, and how long it took. Equivalent only if
 * every instance agreed; the first disagreement stops the checks.
 *
 * @param equivalent whether every instance agreed
 * @param ordered whether row order was compared (the left query has an outer ORDER BY)
 * @param limitRemoved whether a LIMIT/OFFSET was taken off before comparing (and the window compared apart)
 * @param checks per instance, in the order run
 * @param instancesTried instances both queries ran on (including ones where they could not be compared)
 * @param rowsCompared result rows compared, both sides, over all instances
 * @param elapsed wall time of the whole check
 */
public record EquivalenceEvidence(boolean equivalent, boolean ordered, boolean limitRemoved,
    List<InstanceCheck> checks, int instancesTried, long rowsCompared, Duration elapsed) {
  public EquivalenceEvidence {
    checks = List.copyOf(Objects.requireNonNull(checks, "checks"));
    Objects.requireNonNull(elapsed, "elapsed");
    if (instancesTried < 0 || rowsCompared < 0) {
      throw new IllegalArgumentException("instancesTried and rowsCompared must not be negative, were "
          + instancesTried + " and " + rowsCompared);
    }
  }

  /** Evidence from these checks alone (instances = checks, rows counted from them, no time recorded). */
  public EquivalenceEvidence(boolean equivalent, boolean ordered, boolean limitRemoved, List<InstanceCheck> checks) {
    this(equivalent, ordered, limitRemoved, checks, checks.size(),
        checks.stream().mapToLong(c -> Math.max(0, c.originalRows()) + Math.max(0, c.candidateRows())).sum(),
        Duration.ZERO);
  }

  /** The first instance where the results differ, if any. */
  public Optional<InstanceCheck> firstDifference() {
    return checks.stream().filter(c -> !c.equivalent()).findFirst();
  }

  /** One line per instance. */
  public String summary() {
    StringBuilder sb = new StringBuilder(equivalent ? "equivalent" : "NOT equivalent");
    sb.append(ordered ? " (ordered" : " (as multisets").append(limitRemoved ? ", LIMIT removed)" : ")");
    sb.append(" on ").append(instancesTried).append(" instance(s), ").append(rowsCompared).append(" rows compared");
    if (!elapsed.isZero()) {
      sb.append(", ").append(elapsed.toMillis()).append(" ms");
    }
    for (InstanceCheck c : checks) {
      sb.append("\n  ").append(c.summary());
    }
    return sb.toString();
  }
}
