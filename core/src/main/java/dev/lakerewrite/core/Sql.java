package dev.lakerewrite.core;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Quoting helpers that always produce valid DuckDB SQL. Lake column names are header text verbatim (spaces,
 * apostrophes, parentheses), so every identifier the library writes goes through {@link #identifier}.
 */
public final class Sql {
  private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_]*");
  /**
   * DuckDB 2.0's reserved, column-name and type-function keywords ({@code SELECT keyword_name FROM
   * duckdb_keywords() WHERE keyword_category <> 'unreserved'}; a test keeps the list complete), plus date-part
   * words, which are safer quoted.
   */
  private static final Set<String> KEYWORDS = Set.of(
      "all", "analyse", "analyze", "and", "anti", "any", "array", "as", "asc", "asof", "asymmetric", "at",
      "authorization", "between", "bigint", "binary", "bit", "boolean", "both", "by", "case", "cast", "char",
      "character", "check", "coalesce", "collate", "collation", "column", "columns", "concurrently",
      "constraint", "create", "cross", "day", "dec", "decimal", "default", "deferrable", "desc", "describe",
      "distinct", "do", "else", "end", "except", "exists", "extract", "false", "fetch", "float", "for",
      "foreign", "freeze", "from", "full", "generated", "glob", "group", "grouping", "grouping_id", "having",
      "hour", "ilike", "in", "initially", "inner", "inout", "int", "integer", "intersect", "interval", "into",
      "is", "isnull", "join", "lambda", "lateral", "leading", "left", "like", "limit", "map", "minute", "month",
      "national", "natural", "nchar", "none", "not", "notnull", "null", "nullif", "numeric", "offset", "on",
      "only", "or", "order", "out", "outer", "overlaps", "overlay", "pivot", "pivot_longer", "pivot_wider",
      "placing", "position", "positional", "precision", "primary", "qualify", "real", "references", "returning",
      "right", "row", "second", "select", "semi", "setof", "show", "similar", "smallint", "some", "struct",
      "substring", "summarize", "symmetric", "table", "tablesample", "then", "time", "timestamp", "to",
      "trailing", "treat", "trim", "true", "try_cast", "tuple", "union", "unique", "unpack", "unpivot", "using",
      "values", "varchar", "variadic", "verbose", "when", "where", "window", "with", "xmlattributes",
      "xmlconcat", "xmlelement", "xmlexists", "xmlforest", "xmlnamespaces", "xmlparse", "xmlpi", "xmlroot",
      "xmlserialize", "xmltable", "year");

  private Sql() {}

  /**
   * Quotes an identifier when it needs it: {@code population} stays bare, {@code topic's main category} becomes
   * {@code "topic's main category"}, {@code a"b} becomes {@code "a""b"}, keywords are always quoted.
   *
   * @throws IllegalArgumentException if the name is empty or contains a NUL character
   */
  public static String identifier(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("an identifier cannot be empty");
    }
    if (name.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("an identifier cannot contain NUL: " + literal(name.replace('\0', '?')));
    }
    if (PLAIN.matcher(name).matches() && !KEYWORDS.contains(name)) {
      return name;
    }
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  /** Always-quoted form of an identifier, for generated SQL that should read uniformly. */
  public static String quoted(String name) {
    Objects.requireNonNull(name, "name");
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  /** {@code table.column}, each part quoted as needed. */
  public static String qualified(String table, String column) {
    return identifier(table) + "." + identifier(column);
  }

  /** A string literal: {@code O'Brien} becomes {@code 'O''Brien'}; null becomes {@code NULL}. */
  public static String literal(String value) {
    if (value == null) {
      return "NULL";
    }
    return '\'' + value.replace("'", "''") + '\'';
  }

  /** Whether {@code word} is a keyword that must be quoted to serve as an identifier. */
  public static boolean isKeyword(String word) {
    return KEYWORDS.contains(word.toLowerCase(Locale.ROOT));
  }
}
