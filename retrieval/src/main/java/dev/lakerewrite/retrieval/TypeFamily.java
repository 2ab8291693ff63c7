package dev.lakerewrite.retrieval;

import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The coarse type family of a column (thesis §5.3, UNION_SEARCH): numeric, boolean, datetime or string. A lake
 * built from CSV files often stores numbers, flags and dates as text, so the family is inferred from sampled
 * values by parse success rates, falling back to the declared SQL type when values say nothing.
 */
public enum TypeFamily {
  NUMERIC,
  BOOLEAN,
  DATETIME,
  STRING;

  private static final Pattern INVISIBLE = Pattern.compile("[\\p{Cc}\\p{Cf}]+");

  /** Share of non-blank samples that must parse for a family to be inferred. */
  static final double PARSE_THRESHOLD = 0.9;

  private static final Set<String> BOOLEAN_WORDS = Set.of(
      "true", "false", "t", "f", "yes", "no", "y", "n", "wahr", "falsch", "oui", "non", "si", "ja", "nein");
  /**
   * Numbers as CSV files write them: signs, grouping with ',' '.' spaces or apostrophes (Swiss style), decimal
   * comma, percent.
   */
  private static final Pattern NUMBER = Pattern.compile(
      "[+-]?(\\d{1,3}([,. '\\u2019\\u00A0\\u202F]\\d{3})+([.,]\\d+)?|\\d+([.,]\\d+)?|[.,]\\d+)([eE][+-]?\\d+)?%?");
  private static final Pattern DATE = Pattern.compile(String.join("|",
      "[+-]?\\d{4}-\\d{2}-\\d{2}([tT ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?)?([zZ]|[+-]\\d{2}:?\\d{2})?",
      "\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{2,4}",
      "\\d{4}/\\d{1,2}/\\d{1,2}",
      "\\d{1,2} [A-Za-z]{3,9}\\.? \\d{4}",
      "[A-Za-z]{3,9}\\.? \\d{1,2},? \\d{4}",
      "\\d{8}T\\d{6}Z?"));

  /**
   * Infers the family of a column from its declared SQL type name (as DuckDB reports it, may be null) and a
   * sample of its values (nulls and blanks ignored). A declared numeric, boolean or temporal type wins; a text
   * column is judged by its values.
   */
  public static TypeFamily infer(String sqlType, Collection<String> sample) {
    Objects.requireNonNull(sample, "sample");
    TypeFamily declared = fromSqlType(sqlType);
    if (declared != STRING) {
      return declared;
    }
    return fromValues(sample);
  }

  /** The family a SQL type name belongs to; text, blobs, nested and unknown types count as {@link #STRING}. */
  public static TypeFamily fromSqlType(String sqlType) {
    if (sqlType == null) {
      return STRING;
    }
    String t = sqlType.toUpperCase(Locale.ROOT);
    if (t.equals("BOOLEAN") || t.equals("BOOL")) {
      return BOOLEAN;
    }
    if (t.startsWith("DATE") || t.startsWith("TIME") || t.startsWith("TIMESTAMP") || t.startsWith("INTERVAL")) {
      return DATETIME;
    }
    if (t.matches("(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?|INT[1248]|DECIMAL.*|NUMERIC.*|DOUBLE|FLOAT[48]?|REAL|VARINT)")) {
      return NUMERIC;
    }
    return STRING;
  }

  /** Infers the family from values alone: the first family at least 90 % of the non-blank values parse as. */
  public static TypeFamily fromValues(Collection<String> sample) {
    int total = 0;
    int numbers = 0;
    int booleans = 0;
    int dates = 0;
    for (String raw : sample) {
      if (raw == null || raw.isBlank()) {
        continue;
      }
      // Stray whitespace (no-break spaces too), control and invisible characters and markup tags do not change what
      // a value is (noisy lakes have them).
      String v = Values.withoutTags(INVISIBLE.matcher(raw).replaceAll("")).replace('\u00A0', ' ').strip();
      if (v.isEmpty()) {
        continue;
      }
      total++;
      if (isBooleanWord(v)) {
        booleans++;
      } else if (NUMBER.matcher(v).matches()) {
        numbers++;
      } else if (DATE.matcher(v).matches()) {
        dates++;
      }
    }
    if (total == 0) {
      return STRING;
    }
    if (booleans >= PARSE_THRESHOLD * total) {
      return BOOLEAN;
    }
    if (numbers >= PARSE_THRESHOLD * total) {
      return NUMERIC;
    }
    if (dates >= PARSE_THRESHOLD * total) {
      return DATETIME;
    }
    return STRING;
  }

  /** Whether {@code value} is a boolean word ({@code true}, {@code t}, {@code yes}, … in any case). */
  public static boolean isBooleanWord(String value) {
    return BOOLEAN_WORDS.contains(Names.Text.stripDiacritics(value.strip()).toLowerCase(Locale.ROOT));
  }
}
