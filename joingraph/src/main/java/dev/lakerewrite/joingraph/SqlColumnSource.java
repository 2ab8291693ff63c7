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
 * Reads a DuckDB lake through (sandboxed, possibly read-only) connections with trusted SQL: catalog from
 * {@code duckdb_columns()} (tables and views); values and non-null counts of a small table in one scan (all
 * columns unpivoted and grouped), of a large one column by column (so memory holds one column's values), and of a
 * table above {@code maxScannedValues} rows from a reservoir sample of that many rows (its counts then describe
 * the sample), with at most {@code maxScannedValues} distinct values per column. With several connections, as
 * many tables are read at once, each on its own connection. Every identifier is quoted; every statement is fresh,
 * because a DuckDB statement is closed after an error.
 */
final class SqlColumnSource implements ColumnSource {
  /** Tables of at most this many cells are read in one scan; larger ones column by column. */
  static final long WHOLE_TABLE_CELLS = 2_000_000;
  private final Connection connection;
  private final int parallelism;
  private final java.util.concurrent.BlockingQueue<Connection> free;
  private final int maxScannedValues;

  SqlColumnSource(List<Connection> connections, int maxScannedValues) {
    if (connections.isEmpty()) {
      throw new IllegalArgumentException("at least one connection is needed");
    }
    connections.forEach(c -> Objects.requireNonNull(c, "connection"));
    this.connection = connections.get(0);
    this.parallelism = connections.size();
    this.free = new java.util.concurrent.LinkedBlockingQueue<>(connections);
    if (maxScannedValues < 1) {
      throw new IllegalArgumentException("maxScannedValues must be at least 1, was " + maxScannedValues);
    }
    this.maxScannedValues = maxScannedValues;
  }

  @Override
  public int parallelism() {
    return parallelism;
  }

  @Override
  public List<Table> tables() {
    String sql = "SELECT c.schema_name, c.table_name, c.column_name, c.data_type"
        + " FROM duckdb_columns() c"
        + " WHERE c.database_name = current_database() AND NOT c.internal"
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
    Connection connection;
    try {
      connection = free.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new JoinGraphException(JoinGraphException.Reason.READ_LAKE, "interrupted while reading " + table.name(),
          e);
    }
    try {
      readColumns(connection, table, sink);
    } finally {
      free.add(connection);
    }
  }

  private void readColumns(Connection connection, Table table, Consumer<ColumnValues> sink) {
    String from = Sql.quoted(table.schema(), table.relation());
    List<Column> columns = table.columns();
    if (columns.isEmpty()) {
      return;
    }
    long rows = query(connection, table, "SELECT count(*) FROM " + from, rs -> {
      rs.next();
      return rs.getLong(1);
    });
    if (rows <= maxScannedValues && rows * columns.size() <= WHOLE_TABLE_CELLS) {
      readWholeTable(connection, table, from, sink);
      return;
    }
    // Large tables column by column (a columnar file reads only that column), above the cap from a row sample.
    String sample = rows > maxScannedValues
        ? " USING SAMPLE reservoir(" + maxScannedValues + " ROWS) REPEATABLE (7)" : "";
    for (Column column : columns) {
      String sql = "SELECT v, count(*) FROM (SELECT CAST(" + Sql.quoted(column.name()) + " AS VARCHAR) AS v FROM "
          + from + sample + ") WHERE v IS NOT NULL GROUP BY v ORDER BY v LIMIT " + maxScannedValues;
      long[] nonNull = {0};
      List<String> values = query(connection, table, sql, rs -> {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
          out.add(rs.getString(1));
          nonNull[0] += rs.getLong(2);
        }
        return out;
      });
      sink.accept(new ColumnValues(column.name(), column.sqlType(), nonNull[0], values));
    }
  }

  /**
   * Small tables in one scan: every column cast to text and unpivoted (which drops NULLs), grouped per column and
   * value; non-null counts are the sums of the groups.
   */
  private void readWholeTable(Connection connection, Table table, String from, Consumer<ColumnValues> sink) {
    List<Column> columns = table.columns();
    StringBuilder select = new StringBuilder("SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      select.append(i == 0 ? "" : ", ").append("CAST(").append(Sql.quoted(columns.get(i).name()))
          .append(" AS VARCHAR) AS ").append(key(i));
    }
    select.append(" FROM ").append(from);
    String sql = "WITH g AS (SELECT k, v, count(*) AS n FROM (UNPIVOT (" + select + ") ON COLUMNS(*) INTO NAME k"
        + " VALUE v) GROUP BY k, v) SELECT k, v, sum(n) OVER (PARTITION BY k) FROM g"
        + " QUALIFY row_number() OVER (PARTITION BY k ORDER BY v) <= " + maxScannedValues + " ORDER BY k, v";
    List<List<String>> values = new ArrayList<>();
    long[] nonNull = new long[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      values.add(new ArrayList<>());
    }
    query(connection, table, sql, rs -> {
      while (rs.next()) {
        int i = Integer.parseInt(rs.getString(1).substring(1));
        values.get(i).add(rs.getString(2));
        nonNull[i] = rs.getLong(3);
      }
      return null;
    });
    for (int i = 0; i < columns.size(); i++) {
      Column c = columns.get(i);
      sink.accept(new ColumnValues(c.name(), c.sqlType(), nonNull[i], values.get(i)));
    }
  }

  /** {@code c000012}: sorts like the column order. */
  private static String key(int column) {
    return String.format(java.util.Locale.ROOT, "c%06d", column);
  }

  private interface Rows<T> {
    T read(ResultSet rs) throws SQLException;
  }

  private static <T> T query(Connection connection, Table table, String sql, Rows<T> rows) {
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      return rows.read(rs);
    } catch (SQLException e) {
      throw new JoinGraphException(JoinGraphException.Reason.READ_LAKE,
          "cannot read the values of table " + table.name() + ": " + e.getMessage(), e);
    }
  }
}
