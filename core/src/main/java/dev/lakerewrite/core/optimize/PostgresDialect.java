package dev.lakerewrite.core.optimize;

import dev.lakerewrite.sql.SqlSpans;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The optimizer analyses and edits SQL with DuckDB's parser and renders it with DuckDB's printer; for a PostgreSQL
 * target the printed text is translated where the two dialects differ in what the printer emits:
 * {@code count_star()} is {@code count(*)}, the interval builders {@code to_days(n)}... are
 * {@code (n) * CAST('1 day' AS INTERVAL)}, and {@code DOUBLE} is {@code DOUBLE PRECISION}. Every translation is
 * text DuckDB parses again (so a translated query can be analysed once more) and translating twice changes
 * nothing. String literals are left alone.
 *
 * <p>Identifiers: DuckDB's printer quotes every name that is a keyword or holds a capital letter, and keeps the case
 * the author wrote ({@code sum(x) AS RETURNS} prints as {@code AS "RETURNS"}). PostgreSQL folds unquoted names to
 * lower case but matches quoted ones exactly, so the printed {@code "RETURNS"} would no longer be the
 * {@code returns} the rest of the query names (TPC-DS q5). A quoted name is therefore folded to lower case unless
 * the author's own text quotes it exactly so ({@code "CustomerName"} written quoted stays as written, and is quoted
 * again where the printer dropped its quotes, as it does for table names). DuckDB
 * compares names without regard to case, so the folding changes nothing there. Linear in the length of the text.
 */
final class PostgresDialect {
  private static final Map<String, String> INTERVAL_UNITS = Map.of(
      "to_years", "year", "to_months", "month", "to_weeks", "week", "to_days", "day", "to_hours", "hour",
      "to_minutes", "minute", "to_seconds", "second", "to_milliseconds", "millisecond",
      "to_microseconds", "microsecond");
  private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private PostgresDialect() {}

  /**
   * Text DuckDB printed, for this target engine (unchanged for DuckDB).
   *
   * @param duckdbText what DuckDB's printer produced
   * @param authored the query as its author wrote it for the target, whose quoted names keep their case
   */
  static String forTarget(dev.lakerewrite.core.Engine target, String duckdbText, String authored) {
    return target == dev.lakerewrite.core.Engine.POSTGRESQL ? fromDuckDb(duckdbText, quotedNames(authored))
        : duckdbText;
  }

  /** The quoted identifiers of a text, quotes included, exactly as written. */
  static Set<String> quotedNames(String sql) {
    Set<String> names = new HashSet<>();
    int i = 0;
    while (i < sql.length()) {
      int end = SqlSpans.endOfQuoted(sql, i);
      if (end > i) {
        if (sql.charAt(i) == '"') {
          names.add(sql.substring(i, end));
        }
        i = end;
      } else {
        i++;
      }
    }
    return names;
  }

  static String fromDuckDb(String sql, Set<String> keepQuoted) {
    StringBuilder out = new StringBuilder(sql.length() + 32);
    int i = 0;
    while (i < sql.length()) {
      char ch = sql.charAt(i);
      int end = SqlSpans.endOfQuoted(sql, i);
      if (end > i) {
        String quoted = sql.substring(i, end);
        out.append(ch == '"' && !keepQuoted.contains(quoted) ? quoted.toLowerCase(Locale.ROOT) : quoted);
        i = end;
        continue;
      }
      if (Character.isLetter(ch) || ch == '_') {
        Matcher m = WORD.matcher(sql).region(i, sql.length());
        m.lookingAt();
        String word = m.group();
        int after = m.end();
        boolean call = after < sql.length() && sql.charAt(after) == '(';
        String lower = word.toLowerCase(Locale.ROOT);
        if (call && lower.equals("count_star") && sql.startsWith("()", after)) {
          out.append("count(*)");
          i = after + 2;
          continue;
        }
        if (call && INTERVAL_UNITS.containsKey(lower)) {
          int close = matchingParen(sql, after);
          if (close > 0) {
            String argument = fromDuckDb(sql.substring(after + 1, close), keepQuoted);
            out.append("((").append(argument).append(") * CAST('1 ").append(INTERVAL_UNITS.get(lower))
                .append("' AS INTERVAL))");
            i = close + 1;
            continue;
          }
        }
        if (lower.equals("double") && !call && !followedBy(sql, after, "PRECISION")) {
          out.append(word).append(" PRECISION");
          i = after;
          continue;
        }
        // The printer drops the quotes of some names the author quoted (table names): quote them again.
        String quoted = '"' + word + '"';
        out.append(!call && keepQuoted.contains(quoted) ? quoted : word);
        i = after;
        continue;
      }
      out.append(ch);
      i++;
    }
    return out.toString();
  }

  private static boolean followedBy(String sql, int from, String word) {
    int i = from;
    while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
      i++;
    }
    return sql.regionMatches(true, i, word, 0, word.length());
  }

  /** The index of the parenthesis closing the one at {@code open}, or -1. */
  private static int matchingParen(String sql, int open) {
    int depth = 0;
    int i = open;
    while (i < sql.length()) {
      char ch = sql.charAt(i);
      int end = SqlSpans.endOfQuoted(sql, i);
      if (end > i) {
        i = end;
        continue;
      }
      if (ch == '(') {
        depth++;
      } else if (ch == ')') {
        depth--;
        if (depth == 0) {
          return i;
        }
      }
      i++;
    }
    return -1;
  }
}
