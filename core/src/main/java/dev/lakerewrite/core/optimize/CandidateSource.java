package dev.lakerewrite.core.optimize;

/** Where a candidate rewrite came from. */
public enum CandidateSource {
  /** The rule-based proposer: a recipe applied where the query's structure or plan shows its pathology. */
  RULE,
  /** A CTE materialisation hint ({@code MATERIALIZED} / {@code NOT MATERIALIZED}), QUITE's hint injection. */
  HINT,
  /** A verified rewrite of a structurally identical query from the demonstration pool, replayed. */
  DEMONSTRATION,
  /** A language model (one-shot or agentic loop). */
  LLM
}
