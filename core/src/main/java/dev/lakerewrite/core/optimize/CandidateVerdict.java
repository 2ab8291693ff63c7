package dev.lakerewrite.core.optimize;

/** What verification and timing concluded about one candidate rewrite, from worst to best. */
public enum CandidateVerdict {
  /** It does not parse or bind (EXPLAIN failed), the executor refused it, or it failed while running. */
  NOT_EXECUTABLE,
  /** Its result differs from the original's on at least one database instance. */
  NOT_EQUIVALENT,
  /** Equivalent, but its trimmed mean time is not below the original's (or it ran past the time limit). */
  SLOWER,
  /**
   * Equivalent and not slower, but not shown faster (the 97.5 % lower confidence bound of its speedup did not
   * clear the margin within the cap on timed pairs, see {@code Optimizer.Builder#margin}, or it is below a minimum
   * speedup set on the builder), or planned like the original: not a win.
   */
  NEGLIGIBLE,
  /**
   * Equivalent and shown faster: the 97.5 % lower confidence bound of its speedup clears the margin (and any
   * minimum is met).
   */
  FASTER
}
