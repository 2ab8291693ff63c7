package dev.lakerewrite.eval.perturb;

import dev.lakerewrite.eval.SqlText;
import dev.lakerewrite.eval.SqlText.Kind;
import dev.lakerewrite.eval.SqlText.Token;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Token patterns over {@link SqlText#tokens}: which columns a query compares with literals or with each other. */
final class SqlTokens {

  private static final Set<String> COMPARISONS = Set.of("=", "<>", "!=", "<", ">", "<=", ">=");

  private SqlTokens() {}

  static List<Token> tokenize(String sql) {
    return SqlText.tokens(sql);
  }

  static List<String> statements(String script) {
    return SqlText.statements(script);
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
