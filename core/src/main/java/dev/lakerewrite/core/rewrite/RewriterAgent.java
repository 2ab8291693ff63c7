package dev.lakerewrite.core.rewrite;

/**
 * Proposes the next rewritten query from the rewrite history, the scratchpad and the tables retrieved this
 * iteration (thesis §4.1, "Proposal"). Implementations: {@link LlmRewriterAgent} and the offline
 * {@link OfflineRewriterAgent}; both see the same state.
 */
interface RewriterAgent {
  /**
   * The next candidate.
   *
   * @throws dev.lakerewrite.core.llm.LlmFailure when an LLM-backed agent gets no usable answer (the loop
   *     records a failed step)
   */
  Proposal propose(RewriteState state);
}
