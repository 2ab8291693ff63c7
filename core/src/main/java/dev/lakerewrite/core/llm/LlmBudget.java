package dev.lakerewrite.core.llm;

import java.time.Duration;
import java.util.Objects;

/**
 * Limits on what LLM calls may consume within one rewrite (or optimisation). A call is not started when the
 * tokens used so far plus the new prompt's estimated size would pass {@code maxTokens}, when the cost so far
 * has reached {@code maxCostUsd}, or when the wall time has passed {@code maxWallTime}; so a budget is never
 * knowingly exceeded, and at most one call's answer can exceed it.
 */
public record LlmBudget(long maxTokens, double maxCostUsd, Duration maxWallTime) {
  public static final LlmBudget UNLIMITED = new LlmBudget(Long.MAX_VALUE, Double.POSITIVE_INFINITY,
      Duration.ofDays(365));

  public LlmBudget {
    if (maxTokens < 1) {
      throw new IllegalArgumentException("maxTokens must be at least 1, was " + maxTokens);
    }
    if (!(maxCostUsd > 0)) {
      throw new IllegalArgumentException("maxCostUsd must be positive, was " + maxCostUsd);
    }
    Objects.requireNonNull(maxWallTime, "maxWallTime");
    if (maxWallTime.isNegative() || maxWallTime.isZero()) {
      throw new IllegalArgumentException("maxWallTime must be positive, was " + maxWallTime);
    }
  }

  public LlmBudget withMaxTokens(long tokens) {
    return new LlmBudget(tokens, maxCostUsd, maxWallTime);
  }

  public LlmBudget withMaxCostUsd(double cost) {
    return new LlmBudget(maxTokens, cost, maxWallTime);
  }

  public LlmBudget withMaxWallTime(Duration time) {
    return new LlmBudget(maxTokens, maxCostUsd, time);
  }
}
