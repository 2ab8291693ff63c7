/**
 * The one way lakerewrite talks to language models ({@link LlmGateway}): models per role, timeouts, retries, JSON
 * contracts, budgets, usage and estimated cost.
 *
 * <p>Users configure models through {@code Rewriter.builder()} and {@code Optimizer.builder()} and read
 * {@link LlmUsage} and {@link LlmCall} from results; {@link LlmGateway}, {@link JsonContract} and {@link LlmFailure}
 * are public because the rewriting loop ({@code core.rewrite}) and the optimizer ({@code core.optimize}) use them.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link JsonContract}: The JSON an LLM must answer with: a record type and the checks its content must pass.
 *   <li>{@link LlmBudget}: Limits on what LLM calls may consume within one rewrite (or optimisation).
 *   <li>{@link LlmCall}: One LLM call as the trace records it.
 *   <li>{@link LlmFailure}: An LLM call that did not produce a usable answer.
 *   <li>{@link LlmGateway}: The one way lakerewrite talks to LLMs, per rewrite (or optimisation): models per Role.
 *   <li>{@link LlmUsage}: What LLM calls consumed: calls, retries, failures, tokens and estimated cost.
 *   <li>{@link ModelConfig}: An OpenAI-compatible endpoint configured without code, from environment variables.
 *   <li>{@link Price}: What a model charges, in US dollars per million tokens.
 *   <li>{@link PriceTable}: Prices per model name, for estimated cost.
 *   <li>{@link RetryPolicy}: Retries of retryable LLM failures.
 *   <li>{@link Role}: Who is asking the model: usage is accounted per role, and each role may use its own model.
 * </ul>
 */
@NullMarked
package dev.lakerewrite.core.llm;

import org.jspecify.annotations.NullMarked;
