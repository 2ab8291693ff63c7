package dev.lakerewrite.core.optimize;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Why a candidate is considered equivalent to the original, or not: the result comparison on every instance it
 * was run on (the target with any LIMIT removed, then further instances of the same schema). Equivalent only
 * if it agrees everywhere; the first disagreement stops the checks.
 *
 * @param equivalent whether every instance agreed
 * @param ordered whether row order was compared (the outer query has ORDER BY)
 * @param limitRemoved whether a LIMIT/OFFSET was removed before comparing
 * @param checks per instance, in the order run
 */
public record EquivalenceEvidence(boolean equivalent, boolean ordered, boolean limitRemoved,
    List<InstanceCheck> checks) {
  public EquivalenceEvidence {
    checks = List.copyOf(Objects.requireNonNull(checks, "checks"));
  }

  /** The first instance where the results differ, if any. */
  public Optional<InstanceCheck> firstDifference() {
    return checks.stream().filter(c -> !c.equivalent()).findFirst();
  }

  /** One line per instance. */
  public String summary() {
    StringBuilder sb = new StringBuilder(equivalent ? "equivalent" : "NOT equivalent");
    sb.append(ordered ? " (ordered" : " (as multisets").append(limitRemoved ? ", LIMIT removed)" : ")");
    for (InstanceCheck c : checks) {
      sb.append("\n  ").append(c.summary());
    }
    return sb.toString();
  }
}
