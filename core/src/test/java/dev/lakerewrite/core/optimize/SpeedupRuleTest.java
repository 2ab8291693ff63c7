package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The acceptance rule for timings, with scripted timings (nothing is timed here): pairs are measured until the
 * lower confidence bound of the speedup clears the margin or cannot, within a cap, and a candidate whose bound does
 * not clear it is not faster.
 */
class SpeedupRuleTest {
  private static final SpeedupRule RULE = new SpeedupRule(1.05, 3, 9);

  /** A source that hands out these pairs in order (original ms, candidate ms) and records who ran first. */
  private static final class Scripted implements Verifier.PairSource {
    final double[][] pairs;
    final List<Boolean> originalFirst = new ArrayList<>();

    Scripted(double[]... pairs) {
      this.pairs = pairs;
    }

    @Override
    public Verifier.Pair pair(int i, boolean first) {
      originalFirst.add(first);
      double[] p = pairs[i];
      boolean timedOut = p[1] < 0;
      return new Verifier.Pair(ms(p[0]), ms(timedOut ? 500 : p[1]), timedOut);
    }
  }

  private static Duration ms(double ms) {
    return Duration.ofNanos((long) (ms * 1e6));
  }

  private static Verifier.Sequential run(SpeedupRule rule, double[]... pairs) {
    return Verifier.sequential(rule, new Scripted(pairs), false);
  }

  @Test
  void aClearGainIsDecidedOnTheFewestPairs() {
    Verifier.Sequential s = run(RULE, new double[] {2200, 1720}, new double[] {2180, 1700}, new double[] {2250, 1740},
        new double[] {2210, 1710});
    assertThat(s.outcome()).isEqualTo(SpeedupRule.Outcome.FASTER);
    assertThat(s.pairs().pairRatios()).hasSize(3);
  }

  @Test
  void aLargeGainIsDecidedBeforeTheConfiguredPairsAndASmallOneWaitsForThem() {
    // Five timed runs configured: a 2x gain whose bound clears the margin by a further 10 % is decided on 3 pairs,
    // a consistent 1.12x (bound above the margin, not above 1.155) on the 5 pairs configured.
    SpeedupRule rule = SpeedupRule.forRuns(1.05, 5);
    Verifier.Sequential large = run(rule, new double[] {2000, 1000}, new double[] {2100, 1010},
        new double[] {1980, 1000}, new double[] {2000, 1000}, new double[] {2000, 1000});
    assertThat(large.outcome()).isEqualTo(SpeedupRule.Outcome.FASTER);
    assertThat(large.pairs().pairRatios()).hasSize(3);
    double[][] small = new double[6][];
    for (int i = 0; i < 6; i++) {
      small[i] = new double[] {1120 + 5 * (i % 2), 1000};
    }
    Verifier.Sequential s = run(rule, small);
    assertThat(s.outcome()).isEqualTo(SpeedupRule.Outcome.FASTER);
    assertThat(s.pairs().pairRatios()).hasSize(5);
  }

  @Test
  void pairsAlternateWhichSideRunsFirst() {
    Scripted source = new Scripted(new double[] {100, 100}, new double[] {100, 101}, new double[] {100, 99},
        new double[] {100, 100}, new double[] {101, 100}, new double[] {100, 100}, new double[] {99, 100},
        new double[] {100, 100}, new double[] {100, 100});
    Verifier.sequential(RULE, source, false);
    assertThat(source.originalFirst).containsExactly(true, false, true);
  }

  @Test
  void noiseAroundParityIsNotFasterAndStopsEarly() {
    // The candidate is as fast as the original: the ratios scatter by 10 % around 1. Never FASTER; once most pairs
    // show it slower, or its upper bound is below the margin, timing stops before the cap.
    Verifier.Sequential s = run(RULE, new double[] {2450, 2200}, new double[] {2300, 2500},
        new double[] {2200, 2350}, new double[] {2600, 2400}, new double[] {2350, 2420}, new double[] {2400, 2390},
        new double[] {2500, 2610}, new double[] {2380, 2300}, new double[] {2410, 2450});
    assertThat(s.outcome()).isEqualTo(SpeedupRule.Outcome.NOT_FASTER);
    assertThat(s.pairs().pairRatios().length).isLessThan(9);
  }

  @Test
  void aConsistentGainWithinTheMarginIsNotFaster() {
    // 3 % faster in every pair, with little scatter: real, but within what load alone moves a timing. The upper
    // bound falls below 1.05 and timing stops.
    double[][] pairs = new double[9][];
    for (int i = 0; i < 9; i++) {
      pairs[i] = new double[] {1000 + 10 * (i % 3), (1000 + 10 * (i % 3)) / (1.03 + 0.004 * (i % 2))};
    }
    Verifier.Sequential s = run(RULE, pairs);
    assertThat(s.outcome()).isEqualTo(SpeedupRule.Outcome.NOT_FASTER);
    assertThat(s.pairs().speedup()).isBetween(1.02, 1.04);
    assertThat(s.pairs().pairRatios().length).isLessThan(9);
    // Without a margin the same pairs show a real gain.
    assertThat(run(new SpeedupRule(1.0, 3, 9), pairs).outcome()).isEqualTo(SpeedupRule.Outcome.FASTER);
  }

  @Test
  void aScatteredGainNeedsMorePairsAndIsRefusedAtTheCap() {
    // Mostly 1.3x, scattered: undecided on the first pairs, shown faster once enough of them narrow the bound.
    double[][] scattered = {{1300, 1000}, {1000, 1050}, {1500, 1000}, {1400, 1000}, {1250, 1000}, {1350, 1000},
        {1300, 1000}, {1450, 1000}, {1200, 1000}};
    Verifier.Sequential s = run(RULE, scattered);
    assertThat(s.outcome()).isEqualTo(SpeedupRule.Outcome.FASTER);
    assertThat(s.pairs().pairRatios().length).isBetween(5, 9);
    // The same gain whose pairs keep contradicting each other is refused once the cap is reached.
    double[][] contradicting = {{1600, 1000}, {1000, 1150}, {1700, 1000}, {1000, 1100}, {1800, 1000},
        {1000, 1200}, {1600, 1000}, {1300, 1000}, {1000, 1000}};
    Verifier.Sequential refused = run(RULE, contradicting);
    assertThat(refused.outcome()).isEqualTo(SpeedupRule.Outcome.NOT_FASTER);
    assertThat(refused.pairs().pairRatios()).hasSize(9);
    assertThat(refused.pairs().pairedSpeedup()).isGreaterThan(1.2);
  }

  @Test
  void aCandidatePastItsLimitEndsTimingNotFaster() {
    Verifier.Sequential s = run(RULE, new double[] {2000, 1000}, new double[] {2000, -1}, new double[] {2000, 1000});
    assertThat(s.outcome()).isEqualTo(SpeedupRule.Outcome.NOT_FASTER);
    assertThat(s.pairs().candidate().timedOut()).isTrue();
    assertThat(s.pairs().pairRatios()).hasSize(2);
  }

  @Test
  void anOriginalPastTheLimitCountsWithItsLimitAsALowerBound() {
    Verifier.Sequential s = Verifier.sequential(RULE, new Scripted(new double[] {20000, 900},
        new double[] {20000, 950}, new double[] {20000, 920}), true);
    assertThat(s.outcome()).isEqualTo(SpeedupRule.Outcome.FASTER);
    assertThat(s.pairs().original().timedOut()).isTrue();
  }

  /**
   * Simulated timings with a fixed seed: pairs whose ratios are log-normal around the true speedup, 10 % spread.
   * A candidate no faster than the original is accepted in well under one timing in a hundred, one at the margin
   * in few, a clear gain (1.3x) nearly always; a winner passes the rule twice (its confirmation on fresh pairs).
   */
  @Test
  void acceptanceRatesOnSimulatedTimings() {
    Random random = new Random(42);
    assertThat(acceptedShare(random, 1.0, 0.10)).isLessThan(0.01);
    assertThat(acceptedShare(random, 1.05, 0.10)).isLessThan(0.15);
    assertThat(acceptedShare(random, 1.3, 0.10)).isGreaterThan(0.95);
    assertThat(acceptedShare(random, 1.3, 0.30)).isBetween(0.2, 0.9);
  }

  private static double acceptedShare(Random random, double speedup, double spread) {
    int accepted = 0;
    int trials = 2000;
    SpeedupRule rule = SpeedupRule.forRuns(1.05, 5);
    for (int t = 0; t < trials; t++) {
      Verifier.PairSource source = (i, first) -> new Verifier.Pair(ms(1000),
          ms(1000 / (speedup * Math.exp(spread * random.nextGaussian()))), false);
      accepted += Verifier.sequential(rule, source, false).outcome() == SpeedupRule.Outcome.FASTER ? 1 : 0;
    }
    return (double) accepted / trials;
  }

  @Test
  void quantilesAndBadRules() {
    assertThat(Verifier.studentT(9, 0.975)).isEqualTo(2.262);
    assertThat(Verifier.studentT(60, 0.975)).isCloseTo(2.000, org.assertj.core.data.Offset.offset(0.001));
    assertThatThrownBy(() -> Verifier.studentT(5, 0.9)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SpeedupRule(0.9, 3, 9)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SpeedupRule(1.05, 1, 9)).isInstanceOf(IllegalArgumentException.class);
    assertThat(SpeedupRule.forRuns(1.05, 2)).isEqualTo(new SpeedupRule(1.05, 3, 6));
    assertThat(SpeedupRule.forRuns(1.05, 5)).isEqualTo(new SpeedupRule(1.05, 5, 15));
  }
}
