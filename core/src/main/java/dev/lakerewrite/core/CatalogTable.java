package dev.lakerewrite.core;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A lake table: its name in SQL, its columns with DuckDB types, its row count, and the file it was loaded from.
 *
 * @param name the table name as queries must write it (quote with {@link dev.lakerewrite.sql.Sql#identifier})
 * @param columns the columns in table order
 * @param rowCount the exact number of rows
 * @param source the CSV file the table came from, when the lake was loaded from files
 */
public record CatalogTable(String name, List<Column> columns, long rowCount, Optional<Path> source) {

  public CatalogTable {
    Objects.requireNonNull(name, "name");
    columns = List.copyOf(columns);
    Objects.requireNonNull(source, "source");
  }

  /** Column names in table order. */
  public List<String> columnNames() {
    return columns.stream().map(Column::name).toList();
  }

  /** The column with this exact name, or else the one matching case-insensitively. */
  public Optional<Column> column(String columnName) {
    for (Column c : columns) {
      if (c.name().equals(columnName)) {
        return Optional.of(c);
      }
    }
    return columns.stream().filter(c -> c.name().equalsIgnoreCase(columnName)).findFirst();
  }

  /** A column of a lake table and its DuckDB type name ({@code VARCHAR}, {@code BIGINT}, {@code DOUBLE}...). */
  public record Column(String name, String type) {
    public Column {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
    }
  }
}
