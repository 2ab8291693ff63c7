package dev.lakerewrite.joingraph;

/** Quoting for the trusted SQL this module writes; lake identifiers hold spaces, quotes and parentheses. */
final class Sql {
  private Sql() {}

  /** {@code my "odd" col} → {@code "my ""odd"" col"}. */
  static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  /** {@code schema.relation}, both quoted; {@code main} is written out too, so that names never resolve elsewhere. */
  static String qualified(String schema, String relation) {
    return quote(schema) + "." + quote(relation);
  }

  /** A SQL string literal. */
  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
