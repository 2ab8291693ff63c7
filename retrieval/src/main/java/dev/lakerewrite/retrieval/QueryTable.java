package dev.lakerewrite.retrieval;

import java.util.List;
import java.util.Objects;

/**
 * A table as a user's query assumes it (thesis §5.1.1): the name the query gives it and the columns the query
 * references on it.
 *
 * @param name the assumed table name; null when the query's columns belong to no named table
 * @param columns the referenced column names, in order of appearance
 */
public record QueryTable(String name, List<String> columns) {
  public QueryTable {
    Objects.requireNonNull(columns, "columns");
    columns = List.copyOf(columns);
    if ((name == null || name.isBlank()) && columns.isEmpty()) {
      throw new IllegalArgumentException("a query table needs a name or at least one column");
    }
  }

  public static QueryTable of(String name, String... columns) {
    return new QueryTable(name, List.of(columns));
  }

  /** The embedded snippet ({@link Snippets#query}). */
  public String snippet() {
    return Snippets.query(name, columns);
  }
}
