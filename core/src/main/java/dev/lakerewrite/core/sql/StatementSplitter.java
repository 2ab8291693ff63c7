package dev.lakerewrite.core.sql;

import dev.lakerewrite.sql.SqlSpans;
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
      } else if (SqlSpans.endOfComment(sql, i) > i) {
        i = SqlSpans.endOfComment(sql, i);
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
    int end = SqlSpans.endOfSpan(sql, i);
    return end > i ? end : i + 1;
  }
}
