package dev.lakerewrite.eval.perturb;

import dev.lakerewrite.eval.SqlText;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The SQL shapes a query has (issue 12: the rewriter must keep every one of them binding). A query has several.
 */
public enum SqlShape {
  /** Selection and projection from one table. */
  SELECT,
  /** An equi-join of different tables. */
  JOIN,
  /** Aggregates, with or without GROUP BY/HAVING. */
  AGGREGATE,
  /** ORDER BY, possibly with LIMIT. */
  ORDER_LIMIT,
  /** An uncorrelated subquery returning one value. */
  SCALAR_SUBQUERY,
  /** {@code x IN (SELECT ...)}. */
  IN_SUBQUERY,
  /** {@code EXISTS (SELECT ...)}. */
  EXISTS_SUBQUERY,
  /** A subquery that refers to the outer query's aliases. */
  CORRELATED_SUBQUERY,
  /** A subquery in FROM. */
  DERIVED_TABLE,
  /** {@code WITH name AS (...)}. */
  CTE,
  /** UNION, INTERSECT or EXCEPT. */
  SET_OPERATION,
  /** The same table twice under different aliases. */
  SELF_JOIN;

  /** The spelling in pair files and reports ({@code correlated-subquery}). */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static Optional<SqlShape> fromLabel(String label) {
    String key = label.strip().toUpperCase(Locale.ROOT).replace('-', '_');
    for (SqlShape s : values()) {
      if (s.name().equals(key)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /**
   * The shapes of a hand-written query, read from its tokens (for queries the generator did not write, whose shapes
   * it knows): subqueries by {@code (SELECT}, their kind by the token before, correlation by an outer alias used
   * inside, a self-join by a table named twice.
   *
   * @param tables the schema's table names (lower case)
   */
  public static Set<SqlShape> detect(String sql, Set<String> tables) {
    List<SqlText.Token> t = SqlTokens.tokenize(sql);
    Set<SqlShape> out = EnumSet.noneOf(SqlShape.class);
    Map<String, Integer> tableUses = new TreeMap<>();
    List<String> aliases = new ArrayList<>();
    for (int i = 0; i < t.size(); i++) {
      SqlText.Token k = t.get(i);
      String id = k.identifier();
      if (k.isKeyword("WITH") && i == 0) {
        out.add(CTE);
      }
      if (k.isKeyword("UNION") || k.isKeyword("INTERSECT") || k.isKeyword("EXCEPT")) {
        out.add(SET_OPERATION);
      }
      if (k.isKeyword("GROUP") || k.isKeyword("HAVING") || (id != null && i + 1 < t.size() && t.get(i + 1).isSymbol("(")
          && Set.of("sum", "avg", "count", "min", "max").contains(id))) {
        out.add(AGGREGATE);
      }
      if (k.isKeyword("ORDER") || k.isKeyword("LIMIT")) {
        out.add(ORDER_LIMIT);
      }
      if (k.isKeyword("JOIN")) {
        out.add(JOIN);
      }
      if (id != null && k.kind() == SqlText.Kind.WORD && tables.contains(id) && i > 0
          && (t.get(i - 1).isKeyword("FROM") || t.get(i - 1).isKeyword("JOIN") || t.get(i - 1).isSymbol(","))) {
        tableUses.merge(id, 1, Integer::sum);
        if (i + 1 < t.size() && t.get(i + 1).kind() == SqlText.Kind.WORD && !isClauseWord(t.get(i + 1))) {
          String alias = t.get(i + 1).isKeyword("AS") && i + 2 < t.size() ? t.get(i + 2).identifier()
              : t.get(i + 1).identifier();
          if (alias != null) {
            aliases.add(alias);
          }
        }
      }
      if (k.isSymbol("(") && i + 1 < t.size() && t.get(i + 1).isKeyword("SELECT")) {
        SqlText.Token before = i > 0 ? t.get(i - 1) : null;
        if (before != null && before.isKeyword("EXISTS")) {
          out.add(EXISTS_SUBQUERY);
        } else if (before != null && before.isKeyword("IN")) {
          out.add(IN_SUBQUERY);
        } else if (before != null && (before.isKeyword("FROM") || before.isKeyword("JOIN"))) {
          out.add(DERIVED_TABLE);
        } else if (before != null && before.isKeyword("AS")) {
          out.add(CTE);
        } else {
          out.add(SCALAR_SUBQUERY);
        }
        if (correlated(t, i, aliases)) {
          out.add(CORRELATED_SUBQUERY);
        }
      }
    }
    if (tableUses.values().stream().anyMatch(n -> n > 1) && !out.contains(SET_OPERATION)) {
      out.add(SELF_JOIN);
    }
    if (tableUses.size() > 1 && !out.contains(JOIN)) {
      out.add(JOIN); // comma joins
    }
    if (out.isEmpty() || out.equals(EnumSet.of(ORDER_LIMIT))) {
      out.add(SELECT);
    }
    return out;
  }

  private static boolean isClauseWord(SqlText.Token k) {
    for (String w : List.of("WHERE", "JOIN", "ON", "GROUP", "ORDER", "LIMIT", "INNER", "LEFT", "RIGHT", "FULL",
        "CROSS", "UNION", "EXCEPT", "INTERSECT", "HAVING", "NATURAL", "USING")) {
      if (k.isKeyword(w)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the subquery opening at {@code open} uses an alias declared outside it ({@code alias.column}). */
  private static boolean correlated(List<SqlText.Token> t, int open, List<String> outerAliases) {
    int depth = 0;
    List<String> inner = new ArrayList<>();
    int end = open;
    for (int i = open; i < t.size(); i++) {
      if (t.get(i).isSymbol("(")) {
        depth++;
      } else if (t.get(i).isSymbol(")")) {
        depth--;
        if (depth == 0) {
          end = i;
          break;
        }
      }
      if ((t.get(i).isKeyword("FROM") || t.get(i).isKeyword("JOIN")) && i + 2 < t.size()) {
        SqlText.Token a = t.get(i + 2).isKeyword("AS") && i + 3 < t.size() ? t.get(i + 3) : t.get(i + 2);
        if (a.identifier() != null) {
          inner.add(a.identifier());
        }
        inner.add(String.valueOf(t.get(i + 1).identifier()));
      }
    }
    for (int i = open; i < end; i++) {
      String id = t.get(i).identifier();
      if (id != null && i + 1 < end && t.get(i + 1).isSymbol(".") && outerAliases.contains(id) && !inner.contains(id)) {
        return true;
      }
    }
    return false;
  }
}
