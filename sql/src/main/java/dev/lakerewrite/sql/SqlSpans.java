package dev.lakerewrite.sql;

/**
 * Where the spans of SQL text that a scanner must read over, not into, end: string literals and quoted
 * identifiers (a doubled quote escapes the quote), {@code --} and {@code /* *}{@code /} comments, and
 * PostgreSQL's dollar-quoted bodies ({@code $$...$$}, {@code $tag$...$tag$}). The one copy every hand-written
 * scanner of lakerewrite uses (splitting scripts into statements, translating DuckDB's printed SQL for
 * PostgreSQL, the harness's tokens). Each method takes the index where a span may start and returns the index
 * just past it, or the start itself when no such span starts there; an unterminated span ends at the end of the
 * text. Linear in the length of the span.
 */
public final class SqlSpans {
  private SqlSpans() {}

  /**
   * The end of the string literal ({@code '...'}) or quoted identifier ({@code "..."}) starting at {@code start}.
   */
  public static int endOfQuoted(CharSequence sql, int start) {
    if (start >= sql.length()) {
      return start;
    }
    char quote = sql.charAt(start);
    if (quote != '\'' && quote != '"') {
      return start;
    }
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return sql.length();
  }

  /** The end of the comment starting at {@code start}: a line comment ends after its newline. */
  public static int endOfComment(CharSequence sql, int start) {
    if (startsWith(sql, start, "--")) {
      for (int i = start + 2; i < sql.length(); i++) {
        if (sql.charAt(i) == '\n') {
          return i + 1;
        }
      }
      return sql.length();
    }
    if (startsWith(sql, start, "/*")) {
      for (int i = start + 2; i + 1 < sql.length(); i++) {
        if (sql.charAt(i) == '*' && sql.charAt(i + 1) == '/') {
          return i + 2;
        }
      }
      return sql.length();
    }
    return start;
  }

  /** The end of the dollar-quoted body starting at {@code start} ({@code $$...$$} or {@code $tag$...$tag$}). */
  public static int endOfDollarQuoted(CharSequence sql, int start) {
    if (start >= sql.length() || sql.charAt(start) != '$') {
      return start;
    }
    int tagEnd = start + 1;
    while (tagEnd < sql.length() && (Character.isLetter(sql.charAt(tagEnd)) || sql.charAt(tagEnd) == '_')) {
      tagEnd++;
    }
    if (tagEnd >= sql.length() || sql.charAt(tagEnd) != '$') {
      return start;
    }
    String tag = sql.subSequence(start, tagEnd + 1).toString();
    int close = sql.toString().indexOf(tag, tagEnd + 1);
    return close < 0 ? sql.length() : close + tag.length();
  }

  /**
   * The end of whichever span starts at {@code start}: a quoted string or identifier, a comment, or a
   * dollar-quoted body.
   */
  public static int endOfSpan(CharSequence sql, int start) {
    int end = endOfQuoted(sql, start);
    if (end == start) {
      end = endOfComment(sql, start);
    }
    if (end == start) {
      end = endOfDollarQuoted(sql, start);
    }
    return end;
  }

  private static boolean startsWith(CharSequence sql, int at, String prefix) {
    if (at < 0 || at + prefix.length() > sql.length()) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (sql.charAt(at + i) != prefix.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
