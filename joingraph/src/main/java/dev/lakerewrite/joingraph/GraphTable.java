package dev.lakerewrite.joingraph;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A node of the join graph: a lake table and what the build measured about its columns.
 *
 * @param name how the graph (and core's catalog) calls the table
 * @param schema the schema SQL finds it in ({@code main} for a plain lake)
 * @param relation the table's name inside that schema
 * @param columns its columns in declaration order
 */
public record GraphTable(String name, String schema, String relation, List<GraphColumn> columns) {
  public GraphTable {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(relation, "relation");
    columns = List.copyOf(columns);
  }

  /** The column called {@code column} (verbatim). */
  public Optional<GraphColumn> column(String column) {
    return columns.stream().filter(c -> c.name().equals(column)).findFirst();
  }
}
