package dev.lakerewrite.core.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the statements of a SQL text, skipping comments and honouring quoted strings, identifiers and
 * dollar-quoted bodies: to explain refusals ("found 2 statements: SELECT, DROP") and to optimise a script
 * statement by statement. Whether SQL is admitted is decided by DuckDB's parser, never by this lexer. Linear in
 * the text length.
 */
public final class StatementSplitter {
  private StatementSplitter() {}

  /**
   * The statements of a script, each from its first token to the semicolon that ends it (exclusive) or the end of
   * the text, without surrounding whitespace; comment-only pieces are left out.
   */
  public static List<String> statements(String sql) {
    List<int[]> ranges = statementStarts(sql);
    List<String> out = new ArrayList<>();
    for (int[] r : ranges) {
      out.add(sql.substring(r[0], r[1]).strip());
    }
    return out;
  }

  /** Ranges ({@code [start, end)}) from the first token of each non-empty statement to its terminating semicolon. */
  static List<int[]> statementStarts(String sql) {
    List<int[]> out = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    boolean atStatementStart = true;
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int nl = sql.indexOf('\n', i);
        i = nl < 0 ? n : nl + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c == ';') {
        if (!atStatementStart) {
          out.get(out.size() - 1)[1] = i;
        }
        atStatementStart = true;
        i++;
      } else {
        if (atStatementStart) {
          out.add(new int[] {i, n});
          atStatementStart = false;
        }
        i = skipToken(sql, i);
      }
    }
    return out;
  }

  private static int skipToken(String sql, int i) {
    char c = sql.charAt(i);
    if (c == '\'' || c == '"') {
      return skipQuoted(sql, i, c);
    }
    if (c == '$') {
      int tagEnd = sql.indexOf('$', i + 1);
      if (tagEnd > 0 && sql.substring(i + 1, tagEnd).matches("[A-Za-z_]*")) {
        String tag = sql.substring(i, tagEnd + 1);
        int close = sql.indexOf(tag, tagEnd + 1);
        return close < 0 ? sql.length() : close + tag.length();
      }
    }
    return i + 1;
  }

  private static int skipQuoted(String sql, int i, char quote) {
    int j = i + 1;
    while (j < sql.length()) {
      if (sql.charAt(j) == quote) {
        if (j + 1 < sql.length() && sql.charAt(j + 1) == quote) {
          j += 2;
          continue;
        }
        return j + 1;
      }
      j++;
    }
    return sql.length();
  }
}
