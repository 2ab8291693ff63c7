package dev.lakerewrite.noiseudf;

import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The distinct non-null values of one column with their counts (most frequent first), as a profile or a
 * sample gives them. Detection works on these, so core can pass its own profiles.
 *
 * @param table table name
 * @param column column name (verbatim)
 * @param type DuckDB type name ("VARCHAR", "BIGINT", ...)
 * @param rows rows in the table (or in the sample the counts come from)
 * @param values distinct non-null values and counts
 */
public record ColumnSample(String table, String column, String type, long rows, List<ValueCount> values) {

  public ColumnSample {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(type, "type");
    values = List.copyOf(values);
    if (rows < 0) {
      throw new IllegalArgumentException("rows must be >= 0, got " + rows);
    }
  }

  /** Rows with a non-null value. */
  public long nonNullRows() {
    return values.stream().mapToLong(ValueCount::count).sum();
  }

  /** True for text columns (the only ones that can hold formatting noise). */
  public boolean isText() {
    return type.equalsIgnoreCase("VARCHAR") || type.toUpperCase(java.util.Locale.ROOT).startsWith("VARCHAR");
  }

  /** Reads a column's distinct values (up to {@code maxDistinct}, most frequent first) with trusted SQL. */
  public static ColumnSample read(Connection connection, String table, String column, int maxDistinct)
      throws SQLException {
    Objects.requireNonNull(connection, "connection");
    String type = null;
    for (String[] c : Jdbc.describeTable(connection, table)) {
      if (c[0].equals(column)) {
        type = c[1];
      }
    }
    if (type == null) {
      throw new IllegalArgumentException("no column " + column + " in table " + table);
    }
    long rows = Long.parseLong(Jdbc.query(connection, "SELECT count(*) FROM " + Sql.quoted(table)).get(0).get(0));
    return read(connection, table, column, type, rows, maxDistinct);
  }

  static ColumnSample read(Connection connection, String table, String column, String type, long rows, int maxDistinct)
      throws SQLException {
    String t = Sql.quoted(table);
    String c = Sql.quoted(column);
    List<ValueCount> values = new ArrayList<>();
    for (List<@Nullable String> row :
        Jdbc.query(connection,
            "SELECT CAST(" + c + " AS VARCHAR) AS v, count(*) AS n FROM " + t + " WHERE " + c
                + " IS NOT NULL GROUP BY 1 ORDER BY n DESC, v LIMIT " + maxDistinct)) {
      values.add(new ValueCount(row.get(0), Long.parseLong(row.get(1))));
    }
    return new ColumnSample(table, column, type, rows, values);
  }
}
