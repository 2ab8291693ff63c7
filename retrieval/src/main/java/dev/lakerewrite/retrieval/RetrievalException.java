package dev.lakerewrite.retrieval;

/**
 * A failure of the retrieval layer that the caller cannot fix by changing an argument: the embedding model could
 * not be loaded, the lake could not be read, the on-disk cache or index is unusable. Argument mistakes are
 * {@link IllegalArgumentException}s instead.
 */
public class RetrievalException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RetrievalException(String message) {
    super(message);
  }

  public RetrievalException(String message, Throwable cause) {
    super(message, cause);
  }
}
