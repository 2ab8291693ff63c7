package dev.lakerewrite.core.optimize;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Measured run times of one query: the timed runs after the warm-up, and their trimmed mean (the fastest and the
 * slowest run dropped, as E3-Rewrite's evaluation does with five runs).
 *
 * @param runs the timed runs, in the order run (warm-ups excluded)
 * @param trimmedMean the mean without the minimum and maximum (the plain mean below three runs)
 * @param timedOut whether a run hit the time limit (the figures are then a lower bound)
 */
public record Timing(List<Duration> runs, Duration trimmedMean, boolean timedOut) {
  public Timing {
    runs = List.copyOf(Objects.requireNonNull(runs, "runs"));
    Objects.requireNonNull(trimmedMean, "trimmedMean");
  }

  /** Builds the timing of these runs. */
  public static Timing of(List<Duration> runs, boolean timedOut) {
    if (runs.isEmpty()) {
      return new Timing(runs, Duration.ZERO, timedOut);
    }
    List<Duration> sorted = new ArrayList<>(runs);
    sorted.sort(null);
    List<Duration> kept = sorted.size() >= 3 ? sorted.subList(1, sorted.size() - 1) : sorted;
    long nanos = 0;
    for (Duration d : kept) {
      nanos += d.toNanos();
    }
    return new Timing(runs, Duration.ofNanos(nanos / kept.size()), timedOut);
  }

  /** The trimmed mean in milliseconds. */
  public double millis() {
    return trimmedMean.toNanos() / 1e6;
  }
}
