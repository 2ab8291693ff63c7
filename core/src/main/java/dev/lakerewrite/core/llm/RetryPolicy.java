package dev.lakerewrite.core.llm;

import java.time.Duration;
import java.util.Objects;

/**
 * Retries of retryable LLM failures (rate limits, server errors, timeouts) with exponential backoff:
 * the k-th retry waits {@code min(maxBackoff, initialBackoff · 2^(k-1))}. Non-retryable failures
 * (authentication, invalid requests) are never retried.
 */
public record RetryPolicy(int maxRetries, Duration initialBackoff, Duration maxBackoff) {
  /** 3 retries, waiting 1 s, 2 s, 4 s. */
  public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofSeconds(1), Duration.ofSeconds(8));
  public static final RetryPolicy NONE = new RetryPolicy(0, Duration.ZERO, Duration.ZERO);

  public RetryPolicy {
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must be >= 0, was " + maxRetries);
    }
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (initialBackoff.isNegative() || maxBackoff.isNegative()) {
      throw new IllegalArgumentException("backoffs must not be negative");
    }
  }

  /** The wait before retry number {@code retry} (1-based). */
  public Duration backoff(int retry) {
    long millis = initialBackoff.toMillis() << Math.min(30, Math.max(0, retry - 1));
    return Duration.ofMillis(Math.min(maxBackoff.toMillis(), millis));
  }
}
