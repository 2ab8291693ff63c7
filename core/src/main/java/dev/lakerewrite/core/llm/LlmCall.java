package dev.lakerewrite.core.llm;

import java.time.Duration;
import java.util.Optional;

/**
 * One LLM call as the trace records it.
 *
 * @param role who asked
 * @param model the model name as reported (or configured)
 * @param attempts 1 plus the retries made
 * @param latency wall time including retries and backoff
 * @param inputTokens prompt tokens (estimated if the provider reported none)
 * @param outputTokens completion tokens (estimated likewise)
 * @param costUsd estimated cost
 * @param prompt the messages sent, rendered as text (capped)
 * @param answer the answer text (capped), empty if the call failed
 * @param failure why it failed, if it did
 */
public record LlmCall(Role role, String model, int attempts, Duration latency, long inputTokens, long outputTokens,
    double costUsd, String prompt, String answer, Optional<LlmFailure.Kind> failure) {}
