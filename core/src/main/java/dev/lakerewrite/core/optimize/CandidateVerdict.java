package dev.lakerewrite.core.optimize;

/** What verification and timing concluded about one candidate rewrite, from worst to best. */
public enum CandidateVerdict {
  /** It does not parse or bind (EXPLAIN failed), the executor refused it, or it failed while running. */
  NOT_EXECUTABLE,
  /** Its result differs from the original's on at least one database instance. */
  NOT_EQUIVALENT,
  /** Equivalent, but its trimmed mean time is not below the original's (or it ran past the time limit). */
  SLOWER,
  /** Equivalent and faster, but by less than the minimum speedup (1.10× by default): not a win. */
  NEGLIGIBLE,
  /** Equivalent and at least the minimum speedup faster. */
  FASTER
}
