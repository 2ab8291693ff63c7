package dev.lakerewrite.sql;

/**
 * DuckDB's parser refused a text, or its syntax tree is too deep to read; the message is DuckDB's (or says how
 * deep), with the character position where DuckDB reports one.
 */
public final class SqlParseException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String errorType;
  private final int position;

  public SqlParseException(String message, String errorType, int position) {
    super(message);
    this.errorType = errorType;
    this.position = position;
  }

  /** DuckDB's error type ({@code parser}, {@code not implemented}, ...), or {@code nesting}; may be empty. */
  public String errorType() {
    return errorType;
  }

  /** The 0-based character offset DuckDB points at, or -1 when it gives none. */
  public int position() {
    return position;
  }
}
