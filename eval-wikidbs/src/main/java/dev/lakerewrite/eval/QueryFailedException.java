package dev.lakerewrite.eval;

/** A query that did not run; the message is the engine's (or the executor's) error. */
public class QueryFailedException extends Exception {
  private static final long serialVersionUID = 1L;

  public QueryFailedException(String message) {
    super(message);
  }

  public QueryFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
