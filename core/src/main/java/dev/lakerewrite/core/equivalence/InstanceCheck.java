package dev.lakerewrite.core.equivalence;

import java.util.List;
import java.util.Objects;

/**
 * The comparison of the right (candidate) query's result with the left (original) query's on one database
 * instance.
 *
 * @param instance which instance: {@code target}, {@code sample}, {@code generated #3 (...)}
 * @param equivalent whether the results agree (multiset, and order where the left query orders)
 * @param detail how they agree or differ, in one line
 * @param originalRows rows the left query returned there (-1 when it could not run)
 * @param candidateRows rows the right query returned there (-1 when it could not run)
 * @param onlyInOriginal some rows the left query returned and the right did not
 * @param onlyInCandidate some rows the right query returned and the left did not
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
