package dev.lakerewrite.core.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds where the statements of a SQL text begin, skipping comments and honouring quoted strings,
 * identifiers and dollar-quoted bodies. Used to explain refusals ("found 2 statements: SELECT, DROP") and to run
 * schema scripts statement by statement (so an error names its statement): whether SQL is admitted is decided
 * by DuckDB's parser, never by this lexer. Linear in the text length.
 */
public final class StatementSplitter {
  private StatementSplitter() {}

  /**
   * The statements of a script, in order, each from its first token to just before its terminating semicolon
   * (or the end of the text); empty statements and comments between statements are dropped.
   */
  public static List<String> split(String sql) {
    List<String> out = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    int start = -1;
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
        if (start >= 0) {
          out.add(sql.substring(start, i).strip());
          start = -1;
        }
        i++;
      } else {
        if (start < 0) {
          start = i;
        }
        i = skipToken(sql, i);
      }
    }
    if (start >= 0) {
      out.add(sql.substring(start).strip());
    }
    return out;
  }

  /** Offsets ({@code [start]}) of the first token of each non-empty statement. */
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
        atStatementStart = true;
        i++;
      } else {
        if (atStatementStart) {
          out.add(new int[] {i});
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
