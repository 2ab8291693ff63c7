package dev.lakerewrite.noiseudf;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Trusted SQL plumbing. Every call opens its own statement: after an SQL error DuckDB's JDBC statement is
 * closed, so statements are never reused.
 */
final class Jdbc {

  private Jdbc() {}

  /** Runs a query and returns every row as strings (NULL as null). */
  static List<List<@Nullable String>> query(Connection connection, String sql, Object... parameters) throws SQLException {
    return query(connection, sql, Integer.MAX_VALUE, parameters);
  }

  /** Runs a query and returns up to {@code maxRows} rows as strings (NULL as null). */
  static List<List<@Nullable String>> query(Connection connection, String sql, int maxRows, Object... parameters)
      throws SQLException {
    List<List<@Nullable String>> rows = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      try (ResultSet rs = statement.executeQuery()) {
        int columns = rs.getMetaData().getColumnCount();
        while (rows.size() < maxRows && rs.next()) {
          List<@Nullable String> row = new ArrayList<>(columns);
          for (int c = 1; c <= columns; c++) {
            row.add(rs.getString(c));
          }
          rows.add(row);
        }
      }
    }
    return rows;
  }

  /** Column names of a query's result. */
  static List<String> columnNames(Connection connection, String sql) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      ResultSetMetaData md = statement.getMetaData();
      List<String> names = new ArrayList<>();
      for (int c = 1; c <= md.getColumnCount(); c++) {
        names.add(md.getColumnLabel(c));
      }
      return names;
    }
  }

  /** A query's result with its header. */
  record Table(List<String> columns, List<String> types, List<List<@Nullable String>> rows) {}

  static Table table(Connection connection, String sql, int maxRows) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      List<String> columns = new ArrayList<>();
      List<String> types = new ArrayList<>();
      for (int c = 1; c <= md.getColumnCount(); c++) {
        columns.add(md.getColumnLabel(c));
        types.add(md.getColumnTypeName(c));
      }
      List<List<@Nullable String>> rows = new ArrayList<>();
      while (rows.size() < maxRows && rs.next()) {
        List<@Nullable String> row = new ArrayList<>(columns.size());
        for (int c = 1; c <= columns.size(); c++) {
          row.add(rs.getString(c));
        }
        rows.add(row);
      }
      return new Table(columns, types, rows);
    }
  }

  /** Executes one trusted statement. */
  static void execute(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** Columns of a table or view as (name, type), in order; empty if there is no such table. */
  static List<String[]> describeTable(Connection connection, String table) throws SQLException {
    List<String[]> out = new ArrayList<>();
    for (List<@Nullable String> row :
        query(connection,
            "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index",
            table)) {
      out.add(new String[] {row.get(0), row.get(1)});
    }
    return out;
  }

  /** Names of all base tables and views visible on the connection. */
  static List<String> tableNames(Connection connection) throws SQLException {
    List<String> out = new ArrayList<>();
    for (List<@Nullable String> row :
        query(connection,
            "SELECT DISTINCT table_name FROM duckdb_tables() WHERE NOT internal "
                + "UNION SELECT DISTINCT view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1")) {
      out.add(row.get(0));
    }
    return out;
  }
}
