package dev.lakerewrite.core;

import java.time.Duration;
import java.util.Objects;

/**
 * Per-query limits of the safe executor: wall-time limit (the query is cancelled when it passes it) and row cap
 * (rows beyond it are not fetched; the result is marked truncated). Immutable.
 *
 * @param timeout wall-time limit, positive
 * @param maxRows row cap, at least 1
 */
public record QueryLimits(Duration timeout, int maxRows) {
  /** 30 seconds and 10,000 rows. */
  public static final QueryLimits DEFAULT = new QueryLimits(Duration.ofSeconds(30), 10_000);

  public QueryLimits {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, was " + timeout);
    }
    if (maxRows < 1) {
      throw new IllegalArgumentException("maxRows must be at least 1, was " + maxRows);
    }
  }

  public QueryLimits withTimeout(Duration newTimeout) {
    return new QueryLimits(newTimeout, maxRows);
  }

  public QueryLimits withMaxRows(int newMaxRows) {
    return new QueryLimits(timeout, newMaxRows);
  }
}
