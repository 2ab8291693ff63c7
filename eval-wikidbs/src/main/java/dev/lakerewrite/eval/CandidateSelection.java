package dev.lakerewrite.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Whether the self-checker picked the best candidate (thesis §7.4.3, "candidate selection quality"): every
 * candidate that ran is scored against the gold result, and the selection is right when the chosen candidate's F1
 * is the highest.
 *
 * <p>Candidates are scored as the loop would return them: core renames a chosen result's columns to the user's
 * output names when they differ positionally (same count, no name at another position); the same renaming is
 * applied to every candidate, so none is penalised for a naming the loop would have fixed. The chosen candidate
 * scores what the rewrite actually returned.
 *
 * @param candidateF1 F1 per candidate, in history order; {@code NaN} for a candidate that did not run
 * @param chosen the chosen candidate's index, or -1
 * @param chosenF1 the returned prediction's F1 (0 when nothing was chosen)
 */
public record CandidateSelection(List<Double> candidateF1, int chosen, double chosenF1) {

  private static final double EPSILON = 1e-9;

  public CandidateSelection {
    candidateF1 = Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(candidateF1, "candidateF1")));
  }

  /** Candidates in the history. */
  public int candidates() {
    return candidateF1.size();
  }

  /** Candidates that ran. */
  public int ran() {
    return (int) candidateF1.stream().filter(f -> !f.isNaN()).count();
  }

  /** The highest F1 among the candidates that ran and the returned prediction (0 when none ran). */
  public double bestF1() {
    double best = chosen >= 0 ? chosenF1 : 0;
    for (double f : candidateF1) {
      if (!Double.isNaN(f)) {
        best = Math.max(best, f);
      }
    }
    return best;
  }

  /** The index of the first candidate with the best F1, or -1. */
  public int best() {
    double best = bestF1();
    for (int i = 0; i < candidateF1.size(); i++) {
      double f = i == chosen ? Math.max(chosenF1, nan0(candidateF1.get(i))) : candidateF1.get(i);
      if (!Double.isNaN(f) && f >= best - EPSILON) {
        return i;
      }
    }
    return -1;
  }

  /** Whether there was a choice to judge: a candidate ran and one was chosen. */
  public boolean eligible() {
    return chosen >= 0 && ran() > 0;
  }

  /** Whether there was a real choice: at least two candidates ran with different F1. */
  public boolean contested() {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double f : candidateF1) {
      if (!Double.isNaN(f)) {
        min = Math.min(min, f);
        max = Math.max(max, f);
      }
    }
    return eligible() && max - min > EPSILON;
  }

  /** Whether the chosen candidate is a best one. */
  public boolean correct() {
    return eligible() && chosenF1 >= bestF1() - EPSILON;
  }

  /**
   * A candidate's result as the loop would return it: renamed positionally to the user's output names when the
   * counts agree, the names differ, no output is a star, and no result name equals (ignoring case) a user name
   * at another position. This mirrors core's renaming of the chosen result ({@code RewriteLoop}), which core does
   * not expose per candidate.
   */
  static PlainTable presented(PlainTable result, List<String> assumed) {
    List<String> actual = result.columns();
    if (assumed.isEmpty() || assumed.size() != actual.size() || assumed.equals(actual)
        || assumed.stream().anyMatch(n -> n.equals("*") || n.endsWith(".*"))) {
      return result;
    }
    for (int i = 0; i < actual.size(); i++) {
      for (int j = 0; j < assumed.size(); j++) {
        if (i != j && actual.get(i).equalsIgnoreCase(assumed.get(j))) {
          return result;
        }
      }
    }
    return new PlainTable(assumed, result.rows());
  }

  private static double nan0(double f) {
    return Double.isNaN(f) ? 0 : f;
  }
}
