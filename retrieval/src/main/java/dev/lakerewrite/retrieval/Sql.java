package dev.lakerewrite.retrieval;

import java.util.Objects;

/** SQL text helpers for the trusted statements this module runs on the lake. */
public final class Sql {
  private Sql() {}

  /**
   * Quotes an identifier for DuckDB: wrapped in double quotes, inner double quotes doubled. Names in a lake hold
   * spaces, apostrophes, parentheses and quotes ({@code topic's main category}, {@code FIPS 10-4 (countries)}),
   * so every identifier this module writes goes through here.
   */
  public static String quoteIdentifier(String identifier) {
    Objects.requireNonNull(identifier, "identifier");
    if (identifier.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("identifier contains a NUL character: " + identifier.replace('\0', '?'));
    }
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  /** Quotes a string literal: wrapped in single quotes, inner single quotes doubled. */
  public static String quoteLiteral(String value) {
    Objects.requireNonNull(value, "value");
    if (value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("literal contains a NUL character");
    }
    return '\'' + value.replace("'", "''") + '\'';
  }
}
