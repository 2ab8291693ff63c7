package dev.lakerewrite.eval.perturb;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A SQL token stream, enough to tell which names and literals a query mentions: string literals and comments are
 * read as such (so a name inside a string is no reference), quoted identifiers are unquoted.
 */
final class SqlTokens {

  enum Kind { WORD, QUOTED, STRING, NUMBER, SYMBOL }

  record Token(Kind kind, String text) {
    /** The identifier this token names (words and quoted identifiers), lower case; null otherwise. */
    String identifier() {
      return kind == Kind.WORD || kind == Kind.QUOTED ? text.toLowerCase(Locale.ROOT) : null;
    }

    boolean isKeyword(String keyword) {
      return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    boolean isLiteral() {
      return kind == Kind.STRING || kind == Kind.NUMBER;
    }

    boolean isSymbol(String s) {
      return kind == Kind.SYMBOL && text.equals(s);
    }
  }

  private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", ">", "<=", ">=");

  private SqlTokens() {}

  static List<Token> tokenize(String sql) {
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
  static List<String> statements(String script) {
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
    return out.stream().map(String::strip).filter(x -> !tokenize(x).isEmpty()).toList();
  }

  /** Whether the token at {@code i} is compared with a literal ({@code col = 'x'}, {@code 'x' < col}, {@code col IN (1, 2)}, {@code col BETWEEN ...}, {@code col LIKE ...}). */
  static boolean comparedWithLiteral(List<Token> tokens, int i) {
    int j = i + 1;
    if (j < tokens.size() && tokens.get(j).isKeyword("NOT")) {
      j++;
    }
    if (j < tokens.size()) {
      Token op = tokens.get(j);
      if ((op.kind() == Kind.SYMBOL && COMPARISONS.contains(op.text())) || op.isKeyword("LIKE")
          || op.isKeyword("ILIKE") || op.isKeyword("BETWEEN") || op.isKeyword("IN")) {
        for (int k = j + 1; k < Math.min(tokens.size(), j + 4); k++) {
          Token t = tokens.get(k);
          if (t.isLiteral()) {
            return true;
          }
          if (!(t.isSymbol("(") || t.isSymbol("-") || t.isKeyword("DATE") || t.isKeyword("INTERVAL")
              || t.isKeyword("TIMESTAMP"))) {
            break;
          }
        }
      }
    }
    if (i >= 2) {
      Token op = tokens.get(i - 1);
      Token lit = tokens.get(i - 2);
      return op.kind() == Kind.SYMBOL && COMPARISONS.contains(op.text()) && lit.isLiteral();
    }
    return false;
  }

  /**
   * Whether the token at {@code i} is one side of an equality with another column ({@code a.x = b.y},
   * {@code x = y}): {@code isColumn} tells which identifiers name columns.
   */
  static boolean equatedWithColumn(List<Token> tokens, int i, java.util.function.Predicate<String> isColumn) {
    int after = i + 1;
    if (after + 1 < tokens.size() && tokens.get(after).isSymbol("=")) {
      int k = after + 1;
      if (k + 2 < tokens.size() && tokens.get(k + 1).isSymbol(".")) {
        k += 2;
      }
      String id = tokens.get(k).identifier();
      if (id != null && isColumn.test(id)) {
        return true;
      }
    }
    int before = i - 1;
    if (before >= 0 && tokens.get(before).isSymbol(".")) {
      before -= 2;
    }
    if (before >= 1 && tokens.get(before).isSymbol("=")) {
      String id = tokens.get(before - 1).identifier();
      return id != null && isColumn.test(id);
    }
    return false;
  }
}
