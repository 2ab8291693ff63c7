package dev.lakerewrite.joingraph;

import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Reads a DuckDB lake through a (sandboxed, possibly read-only) connection with trusted SQL: catalog from
 * {@code duckdb_tables()}/{@code duckdb_columns()}, non-null counts with one aggregate per table, values with one
 * {@code SELECT DISTINCT} per column. Every identifier is quoted; every statement is fresh, because a DuckDB
 * statement is closed after an error.
 */
final class SqlColumnSource implements ColumnSource {
  private final Connection connection;
  private final int maxScannedValues;

  SqlColumnSource(Connection connection, int maxScannedValues) {
    this.connection = Objects.requireNonNull(connection, "connection");
    if (maxScannedValues < 1) {
      throw new IllegalArgumentException("maxScannedValues must be at least 1, was " + maxScannedValues);
    }
    this.maxScannedValues = maxScannedValues;
  }

  @Override
  public List<Table> tables() {
    String sql = "SELECT c.schema_name, c.table_name, c.column_name, c.data_type"
        + " FROM duckdb_columns() c JOIN duckdb_tables() t"
        + " ON t.database_name = c.database_name AND t.schema_name = c.schema_name AND t.table_name = c.table_name"
        + " WHERE t.database_name = current_database() AND NOT t.temporary AND NOT t.internal"
        + " ORDER BY c.schema_name, c.table_name, c.column_index";
    Map<List<String>, List<Column>> columns = new LinkedHashMap<>();
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        columns.computeIfAbsent(List.of(rs.getString(1), rs.getString(2)), k -> new ArrayList<>())
            .add(new Column(rs.getString(3), rs.getString(4)));
      }
    } catch (SQLException e) {
      throw new JoinGraphException(JoinGraphException.Reason.READ_LAKE,
          "cannot list the lake's tables from duckdb_tables()/duckdb_columns(): " + e.getMessage(), e);
    }
    List<Table> tables = new ArrayList<>();
    columns.forEach((key, cols) -> {
      String schema = key.get(0);
      String relation = key.get(1);
      String name = schema.equals("main") ? relation : schema + "." + relation;
      tables.add(new Table(name, schema, relation, cols));
    });
    return List.copyOf(tables);
  }

  @Override
  public void readColumns(Table table, Consumer<ColumnValues> sink) {
    String from = Sql.quoted(table.schema(), table.relation());
    long[] nonNull = nonNullCounts(table, from);
    for (int i = 0; i < table.columns().size(); i++) {
      Column column = table.columns().get(i);
      String col = Sql.quoted(column.name());
      String sql = "SELECT DISTINCT CAST(" + col + " AS VARCHAR) FROM " + from + " WHERE " + col
          + " IS NOT NULL LIMIT " + maxScannedValues;
      List<String> values = new ArrayList<>();
      try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        while (rs.next()) {
          values.add(rs.getString(1));
        }
      } catch (SQLException e) {
        throw new JoinGraphException(JoinGraphException.Reason.READ_LAKE,
            "cannot read the values of column " + column.name() + " of table " + table.name() + ": "
                + e.getMessage(), e);
      }
      sink.accept(new ColumnValues(column.name(), column.sqlType(), nonNull[i], values));
    }
  }

  private long[] nonNullCounts(Table table, String from) {
    long[] counts = new long[table.columns().size()];
    if (counts.length == 0) {
      return counts;
    }
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < counts.length; i++) {
      sql.append(i == 0 ? "" : ", ").append("count(").append(Sql.quoted(table.columns().get(i).name())).append(')');
    }
    sql.append(" FROM ").append(from);
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
      rs.next();
      for (int i = 0; i < counts.length; i++) {
        counts[i] = rs.getLong(i + 1);
      }
      return counts;
    } catch (SQLException e) {
      throw new JoinGraphException(JoinGraphException.Reason.READ_LAKE,
          "cannot count the values of table " + table.name() + ": " + e.getMessage(), e);
    }
  }
}
