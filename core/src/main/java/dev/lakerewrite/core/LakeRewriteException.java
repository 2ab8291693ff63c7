package dev.lakerewrite.core;

/**
 * The root of lakerewrite's unchecked exceptions. Every message says what went wrong and where (which file, which
 * table, which argument), and suggests the nearest valid name when a name was wrong.
 */
public class LakeRewriteException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public LakeRewriteException(String message) {
    super(message);
  }

  public LakeRewriteException(String message, Throwable cause) {
    super(message, cause);
  }
}
