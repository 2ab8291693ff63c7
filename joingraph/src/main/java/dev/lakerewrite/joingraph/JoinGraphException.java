package dev.lakerewrite.joingraph;

import org.jspecify.annotations.Nullable;

/** A join graph could not be built, read, written or executed against the lake; {@link #reason()} says which. */
public final class JoinGraphException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What failed. */
  public enum Reason {
    /** Reading tables, columns or values from the lake failed. */
    READ_LAKE,
    /** The embedder failed or returned vectors of the wrong dimension. */
    EMBED,
    /** The graph file could not be written. */
    WRITE_FILE,
    /** The graph file could not be read or is not a join graph file of this format. */
    READ_FILE
  }

  private final Reason reason;

  public JoinGraphException(Reason reason, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public JoinGraphException(Reason reason, String message) {
    this(reason, message, null);
  }

  public Reason reason() {
    return reason;
  }
}
