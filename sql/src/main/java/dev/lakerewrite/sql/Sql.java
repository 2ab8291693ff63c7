package dev.lakerewrite.sql;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Quoting that always produces valid DuckDB SQL, the one copy every module uses. Lake column names are header
 * text verbatim (spaces, apostrophes, parentheses, quotes), so every identifier lakerewrite writes goes through
 * {@link #identifier} or {@link #quoted}, and every string value through {@link #literal}.
 *
 * <p>NUL: DuckDB reads SQL text only up to the first NUL character, so a NUL inside quotes would cut the
 * statement there. An identifier cannot hold one (it is refused with the reason); a string value can, and
 * {@link #literal} spells it {@code chr(0)}, so the value is kept exactly. {@code null} values become {@code NULL}.
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
    checkIdentifier(name);
    if (PLAIN.matcher(name).matches() && !KEYWORDS.contains(name)) {
      return name;
    }
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  /**
   * The always-quoted form of an identifier, for generated SQL that should read uniformly or must never
   * resolve a name case-insensitively.
   *
   * @throws IllegalArgumentException if the name is empty or contains a NUL character
   */
  public static String quoted(String name) {
    checkIdentifier(name);
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  /**
   * {@code "qualifier"."name"}, both always quoted ({@code "main"."capital"}, {@code "t"."GeoNames ID"}).
   *
   * @throws IllegalArgumentException if a part is empty or contains a NUL character
   */
  public static String quoted(String qualifier, String name) {
    return quoted(qualifier) + "." + quoted(name);
  }

  /** {@code table.column}, each part quoted as needed. */
  public static String qualified(String table, String column) {
    return identifier(table) + "." + identifier(column);
  }

  /**
   * A string literal: {@code O'Brien} becomes {@code 'O''Brien'}; null becomes {@code NULL}; a NUL character
   * is written {@code chr(0)} ({@code 'a' || chr(0) || 'b'}, parenthesised), so that the value survives exactly.
   */
  public static String literal(@Nullable String value) {
    if (value == null) {
      return "NULL";
    }
    if (value.indexOf('\0') < 0) {
      return quote(value);
    }
    StringBuilder sb = new StringBuilder("(");
    String[] parts = value.split("\0", -1);
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        sb.append(" || chr(0) || ");
      }
      sb.append(quote(parts[i]));
    }
    return sb.append(')').toString();
  }

  /** Whether {@code word} is a keyword that must be quoted to serve as an identifier. */
  public static boolean isKeyword(String word) {
    return KEYWORDS.contains(word.toLowerCase(Locale.ROOT));
  }

  private static String quote(String value) {
    return '\'' + value.replace("'", "''") + '\'';
  }

  private static void checkIdentifier(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("an identifier cannot be empty");
    }
    if (name.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("an identifier cannot contain NUL: " + quote(name.replace('\0', '?')));
    }
  }
}
