package dev.lakerewrite.core.optimize;

/** The outcome of one optimisation. Only {@link #IMPROVED} returns SQL other than the original. */
public enum OptimizeVerdict {
  /** A verified, equivalent rewrite shown faster (and confirmed on fresh timings) is returned. */
  IMPROVED,
  /** Equivalent candidates were found, but none was shown faster: the original is returned. */
  NO_FASTER_CANDIDATE,
  /** Candidates were proposed, but none was executable and equivalent: the original is returned. */
  NO_EQUIVALENT_CANDIDATE,
  /** No candidate was proposed (no recipe applies, no model configured or it proposed nothing). */
  NO_CANDIDATE,
  /** The original query itself failed (did not bind, ran past the time limit, or returned too many rows). */
  ORIGINAL_FAILED
}
