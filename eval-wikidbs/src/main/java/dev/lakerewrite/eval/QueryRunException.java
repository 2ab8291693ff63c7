package dev.lakerewrite.eval;

/** A query that did not run; the message is the engine's (or the executor's) error. */
public final class QueryRunException extends Exception {
  private static final long serialVersionUID = 1L;

  public QueryRunException(String message) {
    super(message);
  }

  public QueryRunException(String message, Throwable cause) {
    super(message, cause);
  }
}
