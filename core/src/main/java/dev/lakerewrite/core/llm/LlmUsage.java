package dev.lakerewrite.core.llm;

import java.util.Map;

/**
 * What LLM calls consumed: calls, retries, failures, tokens and estimated cost, in total and per role.
 * Token counts come from the provider's usage report; when a provider reports none, they are estimated
 * (four characters a token) and {@link #estimatedTokenCalls} counts those calls.
 *
 * @param calls calls that returned an answer
 * @param failedCalls calls that failed after their retries
 * @param retries retries made
 * @param inputTokens prompt tokens
 * @param outputTokens completion tokens
 * @param costUsd estimated cost from the price table
 * @param unpricedCalls calls to models the price table does not know (costed at 0)
 * @param estimatedTokenCalls calls whose token counts were estimated
 * @param byRole the same figures per role (by role, the per-role map is empty)
 */
public record LlmUsage(long calls, long failedCalls, long retries, long inputTokens, long outputTokens,
    double costUsd, long unpricedCalls, long estimatedTokenCalls, Map<Role, LlmUsage> byRole) {
  public static final LlmUsage NONE = new LlmUsage(0, 0, 0, 0, 0, 0, 0, 0, Map.of());

  public LlmUsage {
    byRole = Map.copyOf(byRole);
  }

  public long totalTokens() {
    return inputTokens + outputTokens;
  }

  /** The sum of two usages (e.g. over the pairs of an evaluation run). */
  public LlmUsage plus(LlmUsage o) {
    java.util.Map<Role, LlmUsage> roles = new java.util.EnumMap<>(Role.class);
    roles.putAll(byRole);
    o.byRole.forEach((r, u) -> roles.merge(r, u, LlmUsage::plus));
    return new LlmUsage(calls + o.calls, failedCalls + o.failedCalls, retries + o.retries,
        inputTokens + o.inputTokens, outputTokens + o.outputTokens, costUsd + o.costUsd,
        unpricedCalls + o.unpricedCalls, estimatedTokenCalls + o.estimatedTokenCalls, roles);
  }
}
