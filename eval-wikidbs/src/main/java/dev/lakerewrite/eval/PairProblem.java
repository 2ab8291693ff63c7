package dev.lakerewrite.eval;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Something wrong with a pair file, found while loading it. Loading never stops at a bad pair: it keeps the good
 * ones and returns these beside them.
 *
 * @param severity {@link Severity#ERROR}: the pair was dropped (or, for {@link Kind#SYNTAX}, reading stopped);
 *     {@link Severity#WARNING}: the pair was kept
 * @param kind what went wrong
 * @param source the file or resource name
 * @param index zero-based position of the pair in the file, or -1 when the problem is not about one pair
 * @param pairId the pair's id when it has one, else {@code null}
 * @param line one-based line of the pair's opening brace (or of the syntax error), or -1 when unknown
 * @param column one-based column, or -1 when unknown
 * @param message what is wrong, in words, with the database error or a "did you mean" where there is one
 */
public record PairProblem(
    Severity severity, Kind kind, String source, int index, @Nullable String pairId, int line, int column,
    String message) {

  /** Whether the pair survived. */
  public enum Severity {
    ERROR,
    WARNING
  }

  /** The kinds of problem. */
  public enum Kind {
    /** The file is not valid JSON; pairs after the error were not read. */
    SYNTAX,
    /** The file's top level is neither an array of pairs nor an object with a {@code pairs} array. */
    FILE_STRUCTURE,
    /** A required field is absent or null. */
    MISSING_FIELD,
    /** A field has the wrong type or an invalid value. */
    INVALID_FIELD,
    /** A field name the format does not know (kept pair; probably a typo). */
    UNKNOWN_FIELD,
    /** A difficulty tag outside the thesis's seven. */
    UNKNOWN_TAG,
    /** A second pair with an id already used (the first one is kept). */
    DUPLICATE_ID,
    /** Fields that contradict each other ({@code noisy} without the Noise tag, or the reverse). */
    INCONSISTENT,
    /** A required table that the lake does not have. */
    UNKNOWN_TABLE,
    /** The golden query failed on the lake. */
    GOLDEN_QUERY_FAILED,
    /** The golden query's result is empty or all NULL: a pair that cannot tell a good rewrite from a bad one. */
    TRIVIAL_RESULT,
    /** The stored result table differs from what the golden query returns on this lake (the stored one is kept). */
    RESULT_MISMATCH
  }

  public PairProblem {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(message, "message");
  }

  /** {@code source:line:column: severity kind: pair #index 'id': message}, compiler style. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(source);
    if (line > 0) {
      sb.append(':').append(line);
      if (column > 0) {
        sb.append(':').append(column);
      }
    }
    sb.append(": ").append(severity.name().toLowerCase(java.util.Locale.ROOT)).append(' ').append(kind);
    if (index >= 0) {
      sb.append(": pair #").append(index);
      if (pairId != null) {
        sb.append(" '").append(pairId).append('\'');
      }
    }
    return sb.append(": ").append(message).toString();
  }
}
