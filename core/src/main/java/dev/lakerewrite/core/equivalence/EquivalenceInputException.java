package dev.lakerewrite.core.equivalence;

import dev.lakerewrite.core.LakeRewriteException;

/**
 * Input an equivalence check cannot start from, and the user can fix: a query that does not parse, is not a
 * query, or names a table or column the schema does not have (with the nearest names); a schema script that
 * fails or creates no table; a database that cannot be read. Says which part is wrong and where.
 */
public final class EquivalenceInputException extends LakeRewriteException {
  private static final long serialVersionUID = 1L;

  /** Which input is wrong. */
  public enum Part {
    LEFT, RIGHT, SCHEMA, DATABASE
  }

  private final Part part;
  private final int position;

  public EquivalenceInputException(Part part, String message, int position) {
    super(prefix(part) + message);
    this.part = part;
    this.position = position;
  }

  private static String prefix(Part part) {
    return switch (part) {
      case LEFT -> "the left query: ";
      case RIGHT -> "the right query: ";
      case SCHEMA -> "";
      case DATABASE -> "";
    };
  }

  /** Which input is wrong. */
  public Part part() {
    return part;
  }

  /** The character offset of the error in that input, or -1 when unknown. */
  public int position() {
    return position;
  }
}
