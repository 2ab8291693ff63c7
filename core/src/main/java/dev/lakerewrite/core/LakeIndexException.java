package dev.lakerewrite.core;

/**
 * A lake's indexes (the retrieval index, the join graph, the column profiles, the cleaning functions) could not be
 * built or loaded: thrown by {@link DataLake#index()}, and turned into a result with
 * {@link dev.lakerewrite.core.rewrite.StopReason#INDEX_FAILED} by {@link LakeRewriter#rewrite}, which never
 * throws for it. The message names the lake and the failing component; the cause is the component's exception
 * (for example a {@code RetrievalException} or a {@code JoinGraphException}).
 */
public class LakeIndexException extends LakeRewriteException {
  private static final long serialVersionUID = 1L;

  public LakeIndexException(String message, Throwable cause) {
    super(message, cause);
  }
}
