package dev.lakerewrite.core.optimize;

import java.util.List;

/**
 * When interleaved timings show a candidate faster than the original, decided pair by pair (a sequential test):
 * each pair is one run of the original and one of the candidate back to back, its ratio original time over
 * candidate time. After at least {@code minPairs} pairs the candidate is {@link Outcome#FASTER} once the one-sided
 * 97.5 % lower confidence bound of its speedup (a paired t-test on the logarithms of the ratios) clears the
 * {@code margin}; it is {@link Outcome#NOT_FASTER} once the 95 % upper bound falls below the margin, once most
 * pairs show it slower than the original, or when {@code maxPairs} pairs have not shown it faster. Until then
 * more pairs are needed ({@link Outcome#UNDECIDED}). Before {@code minPairs}, from {@link #EARLY_PAIRS} pairs, a
 * large gain is decided FASTER already when its bound clears the margin times {@link #EARLY_FACTOR}: simulated (10 %
 * spread, 5 pairs at least, cap 15), a 2x gain is decided on 3 pairs instead of 5, a 1.3x one on 4.4, and a
 * candidate as fast as the original is accepted as rarely as before (0.3 %; 3.6 % against 3.1 % at 30 % spread).
 *
 * <p>A fixed number of pairs is either too few for a small gain or too many for a large one, and a bound
 * computed after every pair at 95 % would be cleared by chance far more often than one time in twenty; the
 * stricter 97.5 % per look keeps the chance of accepting a candidate that is not faster by the margin near 5 %
 * over the up to {@code maxPairs - minPairs + 1} looks (and a winner is timed again on fresh pairs by the same
 * rule). The margin is what the bound must clear, not what the estimate must: a timing that scatters by 10 %
 * cannot show a 5 % gain, however many times its mean says so, within the cap.
 *
 * @param margin the speedup the lower bound must clear (at least 1)
 * @param minPairs pairs measured before any decision (at least 2: one pair has no spread)
 * @param maxPairs the cap: undecided after this many pairs means not shown faster
 */
record SpeedupRule(double margin, int minPairs, int maxPairs) {
  /** The margin a speedup's lower bound must clear by default: 5 % (within it, load alone moves a timing). */
  static final double DEFAULT_MARGIN = 1.05;
  /** Pairs from which a large gain may be decided before {@code minPairs}. */
  static final int EARLY_PAIRS = 3;
  /** How far beyond the margin the bound must be for a decision before {@code minPairs} pairs. */
  static final double EARLY_FACTOR = 1.10;

  SpeedupRule {
    if (!(margin >= 1.0) || Double.isInfinite(margin)) {
      throw new IllegalArgumentException("margin must be a finite number >= 1, was " + margin);
    }
    if (minPairs < 2 || maxPairs < minPairs) {
      throw new IllegalArgumentException("need 2 <= minPairs <= maxPairs, was " + minPairs + ", " + maxPairs);
    }
  }

  /**
   * The rule for a configured number of timed runs: at least that many pairs (and at least 3), at most three times
   * as many.
   */
  static SpeedupRule forRuns(double margin, int timedRuns) {
    int min = Math.max(3, timedRuns);
    return new SpeedupRule(margin, min, Math.max(min, 3 * timedRuns));
  }

  /** What the pairs measured so far decide. */
  enum Outcome {
    /** The lower bound of the speedup clears the margin. */
    FASTER,
    /** The candidate cannot or did not show the margin. */
    NOT_FASTER,
    /** More pairs are needed. */
    UNDECIDED
  }

  /** The decision after these pairs' ratios (original time over candidate time, in the order measured). */
  Outcome decide(List<Double> ratios) {
    int n = ratios.size();
    if (n < minPairs) {
      // A large gain need not wait for the pairs a small one needs: from 3 pairs its bound may clear the margin by
      // a further 10 % (a stricter boundary for the early looks, so that they add next to nothing to the chance of
      // accepting a candidate that is not faster).
      return n >= EARLY_PAIRS && lowerBound(ratios) > margin * EARLY_FACTOR ? Outcome.FASTER : Outcome.UNDECIDED;
    }
    if (lowerBound(ratios) > margin) {
      return Outcome.FASTER;
    }
    long slower = ratios.stream().filter(r -> r < 1.0).count();
    if (n >= maxPairs || 2 * slower > n || upperBound(ratios) < margin) {
      return Outcome.NOT_FASTER;
    }
    return Outcome.UNDECIDED;
  }

  /** The one-sided 97.5 % lower confidence bound of the speedup (the bound a decision to accept rests on). */
  static double lowerBound(List<Double> ratios) {
    return bound(array(ratios), -Verifier.studentT(ratios.size() - 1, 0.975));
  }

  /** The one-sided 95 % upper confidence bound of the speedup. */
  static double upperBound(List<Double> ratios) {
    return bound(array(ratios), Verifier.studentT(ratios.size() - 1, 0.95));
  }

  private static double[] array(List<Double> ratios) {
    return ratios.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * {@code exp(m + t * s / sqrt(n))} for the mean {@code m} and standard deviation {@code s} of the log ratios (at
   * least two): the confidence bounds of a speedup from paired timings, here and in {@link Verifier.TimedPair}.
   */
  static double bound(double[] ratios, double t) {
    int n = ratios.length;
    double mean = 0;
    for (double r : ratios) {
      mean += Math.log(r);
    }
    mean /= n;
    double squares = 0;
    for (double r : ratios) {
      squares += (Math.log(r) - mean) * (Math.log(r) - mean);
    }
    return Math.exp(mean + t * Math.sqrt(squares / (n - 1)) / Math.sqrt(n));
  }
}
