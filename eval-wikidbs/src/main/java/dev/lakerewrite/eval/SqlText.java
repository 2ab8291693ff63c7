package dev.lakerewrite.eval;

import java.util.Locale;
import java.util.Objects;

/**
 * Lexical facts about SQL text that the harness needs without a parser.
 */
public final class SqlText {

  private SqlText() {}

  /**
   * Whether the statement orders its result: an {@code ORDER BY} outside every parenthesis, string literal,
   * quoted identifier and comment. {@code ORDER BY} inside a subquery, a CTE or a window ({@code OVER (ORDER BY
   * ...)}) does not order the result and is ignored; an {@code ORDER BY} after a top-level {@code UNION} orders
   * the whole result and counts. Linear in the length of the text.
   */
  public static boolean hasTopLevelOrderBy(String sql) {
    Objects.requireNonNull(sql, "sql");
    int depth = 0;
    String previousWord = null;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i < n && sql.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c == '\'' || c == '"') {
        i = skipQuoted(sql, i, c);
        previousWord = null;
      } else if (c == '(') {
        depth++;
        previousWord = null;
        i++;
      } else if (c == ')') {
        depth = Math.max(0, depth - 1);
        previousWord = null;
        i++;
      } else if (Character.isLetter(c) || c == '_') {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
          i++;
        }
        String word = sql.substring(start, i).toUpperCase(Locale.ROOT);
        if (depth == 0 && word.equals("BY") && "ORDER".equals(previousWord)) {
          return true;
        }
        previousWord = word;
      } else {
        if (!Character.isWhitespace(c)) {
          previousWord = null;
        }
        i++;
      }
    }
    return false;
  }

  /** The index just after the quoted token starting at {@code start}; doubled quotes are escapes. */
  private static int skipQuoted(String sql, int start, char quote) {
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
}
