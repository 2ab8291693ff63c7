package dev.lakerewrite.core.rewrite;

/** Why the rewriting loop stopped. */
public enum StopReason {
  /** The checker chose a candidate with OUTPUT_QUERY. */
  OUTPUT_QUERY,
  /** The iteration limit was reached; the best candidate by the checker's ranking was returned. */
  MAX_ITERATIONS,
  /** A token, cost or wall-time budget ran out; the best candidate so far was returned. */
  BUDGET_EXHAUSTED,
  /** The agents had nothing new to try (the same candidate again, no action left). */
  NO_PROGRESS,
  /** The user query could not be analysed (not SQL, not a query) and no candidate ran. */
  INVALID_QUERY,
  /**
   * The chosen mapping's confidence was below the rewriter's opt-in minimum ({@code minConfidence}): no result is
   * returned; the error says which columns were too unsure.
   */
  LOW_CONFIDENCE,
  /**
   * The lake's indexes (retrieval index, join graph, profiles, cleaning functions) could not be built or loaded, so
   * no candidate ran; the error says which lake, which step and which component failed (as
   * {@code DataLake.index()} would throw it, a {@code LakeIndexException}).
   */
  INDEX_FAILED,
  /**
   * The rewriting thread was interrupted; the best candidate so far was returned and the thread's interrupt flag
   * is left set for the caller.
   */
  INTERRUPTED
}
