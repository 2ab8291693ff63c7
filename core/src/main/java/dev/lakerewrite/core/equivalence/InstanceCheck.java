package dev.lakerewrite.core.optimize;

import java.util.List;
import java.util.Objects;

/**
 * The comparison of a candidate's result with the original's on one database instance.
 *
 * @param instance which instance: {@code target}, {@code sample}, {@code generated}
 * @param equivalent whether the results agree (multiset, and order where the query orders)
 * @param detail how they agree or differ, in one line
 * @param originalRows rows the original returned there (-1 when it could not run)
 * @param candidateRows rows the candidate returned there (-1 when it could not run)
 * @param onlyInOriginal some rows the original returned and the candidate did not (feedback)
 * @param onlyInCandidate some rows the candidate returned and the original did not (feedback)
 */
public record InstanceCheck(String instance, boolean equivalent, String detail, int originalRows, int candidateRows,
    List<List<Object>> onlyInOriginal, List<List<Object>> onlyInCandidate) {
  public InstanceCheck {
    Objects.requireNonNull(instance, "instance");
    Objects.requireNonNull(detail, "detail");
    onlyInOriginal = copy(onlyInOriginal);
    onlyInCandidate = copy(onlyInCandidate);
  }

  private static List<List<Object>> copy(List<List<Object>> rows) {
    return rows.stream().map(r -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(r))).toList();
  }

  /** One line: {@code generated: different row counts: 3 vs 4 (...)}. */
  public String summary() {
    return instance + ": " + detail;
  }
}
