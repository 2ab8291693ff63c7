package dev.lakerewrite.eval;

/** How the run of one pair ended. Every status but {@link #SKIPPED} is scored (a missing prediction scores 0). */
public enum PairStatus {
  /** The rewrite returned a result. */
  COMPLETED,
  /** The rewrite returned, but without a result (no candidate ran, or the chosen one failed). */
  NO_RESULT,
  /** The rewrite threw. */
  FAILED,
  /** The rewrite did not return within the pair's hard time limit. */
  TIMED_OUT,
  /** Not run (a Noise pair without a noisy lake); not scored. */
  SKIPPED;

  /** Whether the pair counts in the metrics. */
  public boolean scored() {
    return this != SKIPPED;
  }

  /** Whether the rewrite returned (its trace and candidates exist). */
  public boolean returned() {
    return this == COMPLETED || this == NO_RESULT;
  }

  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
