package dev.lakerewrite.core;

import java.nio.file.Path;

/** A lake could not be opened or loaded: a missing or empty folder, an unreadable file, a broken database file. */
public final class LakeLoadException extends LakeRewriteException {
  private static final long serialVersionUID = 1L;
  private final transient Path path;

  public LakeLoadException(Path path, String message) {
    super(path + ": " + message);
    this.path = path;
  }

  public LakeLoadException(Path path, String message, Throwable cause) {
    super(path + ": " + message, cause);
    this.path = path;
  }

  /** The file or folder the problem is about. */
  public Path path() {
    return path;
  }
}
