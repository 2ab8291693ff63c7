package dev.lakerewrite.core.optimize;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The optimizer analyses and edits SQL with DuckDB's parser and renders it with DuckDB's printer; for a PostgreSQL
 * target the printed text is translated where the two dialects differ in what the printer emits:
 * {@code count_star()} is {@code count(*)}, the interval builders {@code to_days(n)}... are
 * {@code (n) * CAST('1 day' AS INTERVAL)}, and {@code DOUBLE} is {@code DOUBLE PRECISION}. Every translation is
 * text DuckDB parses again (so a translated query can be analysed once more) and translating twice changes
 * nothing. String literals and quoted identifiers are left alone. Linear in the length of the text.
 */
final class PostgresDialect {
  private static final Map<String, String> INTERVAL_UNITS = Map.of(
      "to_years", "year", "to_months", "month", "to_weeks", "week", "to_days", "day", "to_hours", "hour",
      "to_minutes", "minute", "to_seconds", "second", "to_milliseconds", "millisecond",
      "to_microseconds", "microsecond");
  private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private PostgresDialect() {}

  /** Text DuckDB printed, for this target engine (unchanged for DuckDB). */
  static String forTarget(dev.lakerewrite.core.Engine target, String duckdbText) {
    return target == dev.lakerewrite.core.Engine.POSTGRESQL ? fromDuckDb(duckdbText) : duckdbText;
  }

  static String fromDuckDb(String sql) {
    StringBuilder out = new StringBuilder(sql.length() + 32);
    int i = 0;
    while (i < sql.length()) {
      char ch = sql.charAt(i);
      if (ch == '\'' || ch == '"') {
        int end = endOfQuoted(sql, i);
        out.append(sql, i, end);
        i = end;
        continue;
      }
      if (Character.isLetter(ch) || ch == '_') {
        Matcher m = WORD.matcher(sql).region(i, sql.length());
        m.lookingAt();
        String word = m.group();
        int after = m.end();
        boolean call = after < sql.length() && sql.charAt(after) == '(';
        String lower = word.toLowerCase(java.util.Locale.ROOT);
        if (call && lower.equals("count_star") && sql.startsWith("()", after)) {
          out.append("count(*)");
          i = after + 2;
          continue;
        }
        if (call && INTERVAL_UNITS.containsKey(lower)) {
          int close = matchingParen(sql, after);
          if (close > 0) {
            String argument = fromDuckDb(sql.substring(after + 1, close));
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
        out.append(word);
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

  /** The index just past the literal or quoted identifier starting at {@code start} (doubled quotes escape). */
  private static int endOfQuoted(String sql, int start) {
    char q = sql.charAt(start);
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == q) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == q) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return sql.length();
  }

  /** The index of the parenthesis closing the one at {@code open}, or -1. */
  private static int matchingParen(String sql, int open) {
    int depth = 0;
    int i = open;
    while (i < sql.length()) {
      char ch = sql.charAt(i);
      if (ch == '\'' || ch == '"') {
        i = endOfQuoted(sql, i);
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
