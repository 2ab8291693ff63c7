package dev.lakerewrite.core.llm;

/** Who is asking the model: usage is accounted per role, and each role may use its own model. */
public enum Role {
  /** Proposes rewritten queries (thesis §4.1). */
  REWRITER,
  /** Judges candidates and chooses actions (thesis §4.1). */
  CHECKER,
  /** Writes cleaning UDFs and the CTE for BUILD_CTE (thesis ch. 6). */
  CLEANER,
  /** The Retriever–Reader baseline: answers with a table directly (thesis §7.2). */
  READER,
  /** Proposes faster equivalent queries (the performance pipeline). */
  OPTIMIZER
}
