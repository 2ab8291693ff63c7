package dev.lakerewrite.core;

/** Thrown by the few APIs that cannot return a {@link QueryError} as data; carries it. */
public final class QueryFailedException extends LakeRewriteException {
  private static final long serialVersionUID = 1L;
  private final transient QueryError error;

  public QueryFailedException(QueryError error) {
    super(error.summary());
    this.error = error;
  }

  public QueryError error() {
    return error;
  }
}
