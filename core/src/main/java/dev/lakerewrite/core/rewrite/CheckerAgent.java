package dev.lakerewrite.core.rewrite;

/**
 * Judges the executed candidates and chooses the next data-lake actions (thesis §4.1, "Evaluation").
 * Implementations: {@link LlmCheckerAgent} and the offline {@link OfflineCheckerAgent}.
 */
interface CheckerAgent {
  /**
   * The next actions and the ranking of candidates.
   *
   * @throws dev.lakerewrite.core.llm.LlmFailure when an LLM-backed agent gets no usable answer
   */
  Decision decide(RewriteState state);
}
