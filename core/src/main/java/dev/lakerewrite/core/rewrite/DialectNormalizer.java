package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.SqlSyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Accepts user queries written with SQLite, MySQL, SQL Server or PostgreSQL habits that DuckDB's parser refuses,
 * by rewriting only what stops it: {@code `name`} and {@code [name]} identifiers become {@code "name"}, MySQL's
 * {@code LIMIT offset, count} becomes {@code LIMIT count OFFSET offset}, and a keyword used as a column or table
 * name ({@code show}, {@code character}, {@code year}...) is quoted where the parser stops at it. A query that
 * parses as written is never touched; every change is listed for the trace. String literals and comments are never
 * edited. At most {@link #MAX_QUOTED} keywords are quoted, each parse linear in the query's length.
 */
final class DialectNormalizer {
  static final int MAX_QUOTED = 16;
  private static final Pattern LIMIT_COMMA = Pattern.compile("(?i)\\bLIMIT\\s+(\\d+)\\s*,\\s*(\\d+)");
  private static final Pattern NEAR = Pattern.compile("at or near \"([^\"]+)\"");

  /**
   * The query DuckDB can parse and what was changed to get it.
   *
   * @param sql the query to rewrite (the input when nothing was changed)
   * @param changes one line per change, empty when the input parsed as written
   */
  record Normalized(String sql, List<String> changes) {}

  private DialectNormalizer() {}

  static Normalized normalize(String sql, SqlParser parser) {
    if (parses(sql, parser) == null) {
      return new Normalized(sql, List.of());
    }
    List<String> changes = new ArrayList<>();
    String s = lexical(sql, changes);
    for (int i = 0; i < MAX_QUOTED; i++) {
      SqlSyntaxException e = parses(s, parser);
      if (e == null) {
        return new Normalized(s, changes);
      }
      String quoted = quoteKeywordAt(s, e);
      if (quoted == null) {
        break;
      }
      int[] word = wordChanged(s, quoted);
      changes.add("quoted the keyword " + s.substring(word[0], word[1]) + " used as a name");
      s = quoted;
    }
    // Nothing we know of helps: the original's error is the one to report.
    return new Normalized(sql, List.of());
  }

  private static @Nullable SqlSyntaxException parses(String sql, SqlParser parser) {
    try {
      parser.parse(sql);
      return null;
    } catch (SqlSyntaxException e) {
      return e.notAQuery() ? null : e;
    }
  }

  /** Backticks and brackets to double quotes, {@code LIMIT a, b}; outside string literals and comments. */
  private static String lexical(String sql, List<String> changes) {
    StringBuilder out = new StringBuilder(sql.length());
    boolean backtick = false;
    boolean bracket = false;
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      int end = skipLiteralOrComment(sql, i);
      if (end > i) {
        out.append(sql, i, end);
        i = end;
        continue;
      }
      if (c == '`') {
        int close = sql.indexOf('`', i + 1);
        if (close > i) {
          out.append('"').append(sql.substring(i + 1, close).replace("\"", "\"\"")).append('"');
          backtick = true;
          i = close + 1;
          continue;
        }
      }
      if (c == '[' && bracketIdentifier(sql, i)) {
        int close = sql.indexOf(']', i + 1);
        out.append('"').append(sql, i + 1, close).append('"');
        bracket = true;
        i = close + 1;
        continue;
      }
      out.append(c);
      i++;
    }
    if (backtick) {
      changes.add("`name` identifiers written as \"name\"");
    }
    if (bracket) {
      changes.add("[name] identifiers written as \"name\"");
    }
    String s = out.toString();
    Matcher m = LIMIT_COMMA.matcher(s);
    if (m.find() && !insideLiteral(s, m.start())) {
      changes.add("LIMIT " + m.group(1) + ", " + m.group(2) + " written as LIMIT " + m.group(2) + " OFFSET "
          + m.group(1));
      s = s.substring(0, m.start()) + "LIMIT " + m.group(2) + " OFFSET " + m.group(1) + s.substring(m.end());
    }
    return s;
  }

  /** A {@code [name]} in a position where a name can stand (not a list literal or an index). */
  private static boolean bracketIdentifier(String sql, int i) {
    int close = sql.indexOf(']', i + 1);
    if (close < 0 || !sql.substring(i + 1, close).matches("[A-Za-z_][A-Za-z0-9_ $#]*")) {
      return false;
    }
    int p = i - 1;
    while (p >= 0 && Character.isWhitespace(sql.charAt(p))) {
      p--;
    }
    // After a name or a closing parenthesis, [x] would index it.
    return p < 0 || !(Character.isLetterOrDigit(sql.charAt(p)) || sql.charAt(p) == '_' || sql.charAt(p) == ')'
        || sql.charAt(p) == '"' || sql.charAt(p) == ']') || keywordBefore(sql, p);
  }

  /** Whether the word ending at {@code p} is a keyword after which a name follows (SELECT, FROM, ...). */
  private static boolean keywordBefore(String sql, int p) {
    int start = p;
    while (start >= 0 && (Character.isLetter(sql.charAt(start)) || sql.charAt(start) == '_')) {
      start--;
    }
    String word = sql.substring(start + 1, p + 1).toUpperCase(Locale.ROOT);
    return List.of("SELECT", "FROM", "JOIN", "WHERE", "AND", "OR", "ON", "BY", "AS", "DISTINCT", "NOT", "HAVING",
        "SET", "INTO", "UPDATE", "TABLE", "WHEN", "THEN", "ELSE", "IN").contains(word);
  }

  /** The end of a string literal, quoted identifier or comment starting at {@code i}, or {@code i}. */
  private static int skipLiteralOrComment(String sql, int i) {
    char c = sql.charAt(i);
    int n = sql.length();
    if (c == '\'' || c == '"') {
      int j = i + 1;
      while (j < n) {
        if (sql.charAt(j) == c) {
          if (j + 1 < n && sql.charAt(j + 1) == c) {
            j += 2;
            continue;
          }
          return j + 1;
        }
        j++;
      }
      return n;
    }
    if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
      int nl = sql.indexOf('\n', i);
      return nl < 0 ? n : nl;
    }
    if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
      int close = sql.indexOf("*/", i + 2);
      return close < 0 ? n : close + 2;
    }
    return i;
  }

  private static boolean insideLiteral(String sql, int pos) {
    int i = 0;
    while (i < pos) {
      int end = skipLiteralOrComment(sql, i);
      if (end > i) {
        if (end > pos) {
          return true;
        }
        i = end;
      } else {
        i++;
      }
    }
    return false;
  }

  /**
   * The query with the bare word the parser stopped at (or the one before it, when the parser only noticed at the
   * next token: {@code SELECT character FROM} fails at FROM) in double quotes, or null when there is none.
   */
  private static @Nullable String quoteKeywordAt(String sql, SqlSyntaxException e) {
    List<int[]> words = bareWords(sql);
    if (words.isEmpty()) {
      return null;
    }
    int position = e.position();
    Matcher near = NEAR.matcher(String.valueOf(e.getMessage()));
    String token = near.find() ? near.group(1) : null;
    int at = -1;
    for (int k = 0; k < words.size(); k++) {
      int[] w = words.get(k);
      boolean hit = position >= 0 ? w[0] <= position && position < Math.max(w[1], w[0] + 1) : token != null
          && sql.substring(w[0], w[1]).equalsIgnoreCase(token);
      if (hit) {
        at = k;
        break;
      }
    }
    if (at < 0 && position >= 0) {
      for (int k = words.size() - 1; k >= 0; k--) {
        if (words.get(k)[1] <= position) {
          at = k + 1 < words.size() ? k + 1 : k;
          break;
        }
      }
    }
    if (at < 0) {
      return null;
    }
    // The word at the error, then the one before it.
    for (int k = at; k >= Math.max(0, at - 1); k--) {
      int[] w = words.get(k);
      String word = sql.substring(w[0], w[1]);
      if (STRUCTURAL.contains(word.toUpperCase(Locale.ROOT))) {
        continue;
      }
      return sql.substring(0, w[0]) + '"' + word + '"' + sql.substring(w[1]);
    }
    return null;
  }

  /** Words that are the query's own structure: never names. */
  private static final List<String> STRUCTURAL = List.of("SELECT", "FROM", "WHERE", "GROUP", "ORDER", "BY", "HAVING",
      "LIMIT", "OFFSET", "JOIN", "ON", "USING", "AND", "OR", "NOT", "AS", "WITH", "UNION", "EXCEPT", "INTERSECT",
      "ALL", "DISTINCT", "IN", "EXISTS", "BETWEEN", "LIKE", "ILIKE", "IS", "NULL", "CASE", "WHEN", "THEN", "ELSE",
      "END", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL", "ASC", "DESC", "TRUE", "FALSE", "CAST",
      "INTERVAL", "DATE", "TIMESTAMP", "OVER", "PARTITION", "FILTER", "LATERAL", "VALUES", "ANY", "SOME");

  /** Start and end offsets of the unquoted words outside literals and comments. */
  private static List<int[]> bareWords(String sql) {
    List<int[]> out = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n) {
      int end = skipLiteralOrComment(sql, i);
      if (end > i) {
        i = end;
        continue;
      }
      char c = sql.charAt(i);
      if (Character.isLetter(c) || c == '_') {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
          j++;
        }
        if (j >= n || sql.charAt(j) != '(') { // a function's name is not one to quote
          out.add(new int[] {i, j});
        }
        i = j;
      } else if (Character.isDigit(c)) {
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
          i++;
        }
      } else {
        i++;
      }
    }
    return out;
  }

  /** The word of {@code before} that {@code after} put in quotes. */
  private static int[] wordChanged(String before, String after) {
    int i = 0;
    while (i < before.length() && before.charAt(i) == after.charAt(i)) {
      i++;
    }
    int j = i;
    while (j < before.length() && (Character.isLetterOrDigit(before.charAt(j)) || before.charAt(j) == '_')) {
      j++;
    }
    return new int[] {i, j};
  }
}
