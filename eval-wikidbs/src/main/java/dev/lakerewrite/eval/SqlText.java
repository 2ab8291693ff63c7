package dev.lakerewrite.eval;

import java.util.ArrayList;
import java.util.List;
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
    Token previous = null;
    for (Token t : tokens(sql)) {
      if (t.isSymbol("(")) {
        depth++;
      } else if (t.isSymbol(")")) {
        depth = Math.max(0, depth - 1);
      } else if (depth == 0 && t.isKeyword("BY") && previous != null && previous.isKeyword("ORDER")) {
        return true;
      }
      previous = t;
    }
    return false;
  }

  /** Token kinds: words (keywords and bare names), quoted names, string literals, numbers, symbols. */
  public enum Kind { WORD, QUOTED, STRING, NUMBER, SYMBOL }

  /**
   * One token; quoted names and strings without their quotes.
   *
   * @param kind what it is
   * @param text its text
   */
  public record Token(Kind kind, String text) {
    /** The identifier this token names (words and quoted identifiers), lower case; null otherwise. */
    public String identifier() {
      return kind == Kind.WORD || kind == Kind.QUOTED ? text.toLowerCase(Locale.ROOT) : null;
    }

    public boolean isKeyword(String keyword) {
      return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    public boolean isLiteral() {
      return kind == Kind.STRING || kind == Kind.NUMBER;
    }

    public boolean isSymbol(String s) {
      return kind == Kind.SYMBOL && text.equals(s);
    }
  }

  /**
   * The tokens of SQL text: string literals and comments read as such (a name inside a string is no reference),
   * quoted identifiers unquoted. Linear in the length of the text.
   */
  public static List<Token> tokens(String sql) {
    Objects.requireNonNull(sql, "sql");
    List<Token> out = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i < n && sql.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c == '\'' || c == '"') {
        StringBuilder b = new StringBuilder();
        int j = i + 1;
        while (j < n) {
          char d = sql.charAt(j);
          if (d == c) {
            if (j + 1 < n && sql.charAt(j + 1) == c) {
              b.append(c);
              j += 2;
              continue;
            }
            break;
          }
          b.append(d);
          j++;
        }
        out.add(new Token(c == '\'' ? Kind.STRING : Kind.QUOTED, b.toString()));
        i = j + 1;
      } else if (Character.isLetter(c) || c == '_') {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_' || sql.charAt(j) == '$')) {
          j++;
        }
        out.add(new Token(Kind.WORD, sql.substring(i, j)));
        i = j;
      } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
        int j = i;
        while (j < n && (Character.isDigit(sql.charAt(j)) || sql.charAt(j) == '.')) {
          j++;
        }
        out.add(new Token(Kind.NUMBER, sql.substring(i, j)));
        i = j;
      } else {
        String two = i + 1 < n ? sql.substring(i, i + 2) : "";
        if (two.equals("<=") || two.equals(">=") || two.equals("<>") || two.equals("!=") || two.equals("||")
            || two.equals("::")) {
          out.add(new Token(Kind.SYMBOL, two));
          i += 2;
        } else {
          out.add(new Token(Kind.SYMBOL, String.valueOf(c)));
          i++;
        }
      }
    }
    return out;
  }

  /** The statements of a SQL script: split at semicolons outside strings, quoted names and comments; blank ones dropped. */
  public static List<String> statements(String script) {
    Objects.requireNonNull(script, "script");
    List<String> out = new ArrayList<>();
    int start = 0;
    int i = 0;
    int n = script.length();
    while (i < n) {
      char c = script.charAt(i);
      if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
        while (i < n && script.charAt(i) != '\n') {
          i++;
        }
      } else if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
        int end = script.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c == '\'' || c == '"') {
        int j = i + 1;
        while (j < n && !(script.charAt(j) == c && (j + 1 >= n || script.charAt(j + 1) != c))) {
          j += script.charAt(j) == c ? 2 : 1;
        }
        i = j + 1;
      } else if (c == ';') {
        out.add(script.substring(start, i));
        start = ++i;
      } else {
        i++;
      }
    }
    out.add(script.substring(Math.min(start, n)));
    return out.stream().map(String::strip).filter(x -> !tokens(x).isEmpty()).toList();
  }


}
