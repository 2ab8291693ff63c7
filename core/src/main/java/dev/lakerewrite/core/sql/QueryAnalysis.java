package dev.lakerewrite.core.sql;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a query says about the schema its author assumes: the tables it names, the columns it uses per table,
 * the literals it filters on, how it joins, groups, orders and limits. Feeds retrieval (query snippets), the
 * offline agents and the optimizer's block map. Produced by {@link SqlAnalyzer}.
 *
 * @param sql the analysed text
 * @param tables base tables named anywhere in the query (CTE names excluded), in order of appearance
 * @param columnsByTable per base table name (as written), the columns the query references on it, resolved
 *     through aliases; in order of appearance, without duplicates
 * @param unresolvedColumns column references that could not be tied to one table (unqualified with several
 *     tables in scope, or qualified by an unknown alias)
 * @param outputColumns the outermost select list (first branch of a set operation)
 * @param predicates column-versus-literal conditions from WHERE, HAVING, QUALIFY and JOIN ... ON
 * @param joins column = column conditions between two different tables (explicit joins and WHERE clauses)
 * @param groupBy GROUP BY expressions as SQL text
 * @param orderBy outermost ORDER BY items
 * @param limit outermost LIMIT, when it is a constant
 * @param cteNames names of the common table expressions defined anywhere in the query
 * @param hasUnion whether the query has a UNION (any set operation counts as {@link #hasSetOperation})
 * @param hasSetOperation whether the query has UNION, INTERSECT or EXCEPT
 * @param hasAggregates whether an aggregate function appears
 * @param hasSubqueries whether a subquery (in FROM or in an expression) appears
 */
public record QueryAnalysis(
    String sql,
    List<TableReference> tables,
    Map<String, List<String>> columnsByTable,
    List<ColumnReference> unresolvedColumns,
    List<OutputColumn> outputColumns,
    List<Predicate> predicates,
    List<JoinCondition> joins,
    List<String> groupBy,
    List<OrderItem> orderBy,
    OptionalLong limit,
    List<String> cteNames,
    boolean hasUnion,
    boolean hasSetOperation,
    boolean hasAggregates,
    boolean hasSubqueries) {

  public QueryAnalysis {
    tables = List.copyOf(tables);
    columnsByTable = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(columnsByTable));
    unresolvedColumns = List.copyOf(unresolvedColumns);
    outputColumns = List.copyOf(outputColumns);
    predicates = List.copyOf(predicates);
    joins = List.copyOf(joins);
    groupBy = List.copyOf(groupBy);
    orderBy = List.copyOf(orderBy);
    cteNames = List.copyOf(cteNames);
  }

  /** Distinct base table names, in order of appearance. */
  public List<String> tableNames() {
    return tables.stream().map(TableReference::name).distinct().toList();
  }

  /** The columns referenced on one table (matched case-insensitively), empty if none or unknown. */
  public List<String> columnsOf(String table) {
    for (Map.Entry<String, List<String>> e : columnsByTable.entrySet()) {
      if (e.getKey().equalsIgnoreCase(table)) {
        return e.getValue();
      }
    }
    return List.of();
  }

  public boolean hasOrderBy() {
    return !orderBy.isEmpty();
  }

  /** A base table as the query names it. */
  public record TableReference(String name, Optional<String> alias) {
    public TableReference {
      java.util.Objects.requireNonNull(name, "name");
      java.util.Objects.requireNonNull(alias, "alias");
    }
  }

  /** A column reference: its table when resolved, and the column name as written. */
  public record ColumnReference(Optional<String> table, String column) {}

  /**
   * One output column of the outermost query.
   *
   * @param name the alias, or the column name for a bare column reference, or the expression text
   * @param expression the expression as SQL text
   * @param source the base table column when the expression is a bare column reference
   * @param star whether the item is {@code *} or {@code t.*}
   */
  public record OutputColumn(String name, String expression, Optional<ColumnReference> source, boolean star) {}

  /**
   * A condition between one column (possibly inside a function such as {@code lower(x)}) and literals.
   *
   * @param column the column, resolved to its table where possible
   * @param operator {@code =}, {@code <>}, {@code <}, {@code <=}, {@code >}, {@code >=}, {@code IN},
   *     {@code NOT IN}, {@code LIKE}, {@code NOT LIKE}, {@code ILIKE}, {@code NOT ILIKE}, {@code BETWEEN}
   * @param literals the literal values as text (two for BETWEEN, several for IN)
   * @param literalKinds DuckDB's kind of each literal (STRING, INTEGER, NUMERIC, DATE...)
   * @param clause where it appears: WHERE, HAVING, QUALIFY, JOIN or SELECT (a comparison in the select list, such as
   *     {@code CASE WHEN status = 'F'})
   */
  public record Predicate(ColumnReference column, String operator, List<String> literals,
      List<String> literalKinds, String clause) {}

  /** {@code leftTable.leftColumn = rightTable.rightColumn}; tables may be empty when unresolved. */
  public record JoinCondition(ColumnReference left, ColumnReference right, String joinType) {}

  /** An ORDER BY item. */
  public record OrderItem(String expression, boolean descending) {}
}
