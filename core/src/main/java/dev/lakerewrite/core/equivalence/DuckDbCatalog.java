package dev.lakerewrite.core.equivalence;

import dev.lakerewrite.core.sql.StatementSplitter;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a {@link Schema} from DuckDB's catalog functions ({@code duckdb_columns()}, {@code duckdb_constraints()},
 * {@code duckdb_views()}: trusted SQL the library writes, nothing interpolated), and loads a DDL script into a
 * sandboxed scratch DuckDB to read it the same way.
 */
final class DuckDbCatalog {
  private static final Pattern VIEW_QUERY = Pattern.compile(
      "(?is)^\\s*CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:TEMP(?:ORARY)?\\s+)?VIEW\\s+(?:\"(?:[^\"]|\"\")*\"|[^\\s(]+)"
          + "(?:\\s*\\([^)]*\\))?\\s+AS\\s+(.*?);?\\s*$");

  private DuckDbCatalog() {}

  /** A schema script loaded into a scratch database: the schema, and the rows its INSERTs added (if any). */
  record Loaded(Schema schema, Optional<Database> rows) {}

  /**
   * Runs a DDL script (statement by statement, so that an error names its statement) in a private in-memory
   * DuckDB without file or network access, and reads the schema it created.
   *
   * @throws EquivalenceInputException if a statement fails or the script creates no table
   */
  static Loaded load(String ddl) {
    List<String> statements = StatementSplitter.statements(ddl);
    if (statements.isEmpty()) {
      throw new EquivalenceInputException(EquivalenceInputException.Part.SCHEMA, "the schema is empty: "
          + "give CREATE TABLE statements", -1);
    }
    try (Connection c = DuckDbWorkspace.scratch()) {
      try (Statement st = c.createStatement()) {
        st.execute("SET enable_external_access=false");
        st.execute("SET lock_configuration=true");
        for (int i = 0; i < statements.size(); i++) {
          try {
            st.execute(statements.get(i));
          } catch (SQLException e) {
            throw new EquivalenceInputException(EquivalenceInputException.Part.SCHEMA, "statement " + (i + 1)
                + " of the schema fails (" + firstLine(statements.get(i)) + "): "
                + e.getMessage().lines().findFirst().orElse("?"), -1);
          }
        }
      }
      Schema schema = read(c);
      if (schema.tables().isEmpty()) {
        throw new EquivalenceInputException(EquivalenceInputException.Part.SCHEMA,
            "the schema creates no table (" + statements.size() + " statement(s))", -1);
      }
      Database rows = rows(c, schema, Integer.MAX_VALUE);
      return new Loaded(schema, rows.rowCount() > 0 ? Optional.of(rows) : Optional.empty());
    } catch (SQLException e) {
      throw new EquivalenceInputException(EquivalenceInputException.Part.SCHEMA,
          "cannot read the schema: " + e.getMessage(), -1);
    }
  }

  private static String firstLine(String statement) {
    String line = statement.strip().lines().findFirst().orElse("");
    return line.length() > 60 ? line.substring(0, 57) + "..." : line;
  }

  /** The base tables and views of the connection's current schema. */
  static Schema read(Connection c) throws SQLException {
    Map<String, List<Schema.Column>> columns = new LinkedHashMap<>();
    Map<String, List<String>> primaryKeys = new LinkedHashMap<>();
    Map<String, List<List<String>>> uniques = new LinkedHashMap<>();
    Map<String, List<Schema.ForeignKey>> foreignKeys = new LinkedHashMap<>();
    Map<String, List<String>> checks = new LinkedHashMap<>();
    List<Schema.View> views = new ArrayList<>();
    String here = "schema_name = current_schema() AND database_name = current_database()";
    try (Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT table_name FROM duckdb_tables() WHERE NOT temporary AND " + here
          + " ORDER BY table_name")) {
        while (rs.next()) {
          columns.put(rs.getString(1), new ArrayList<>());
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT table_name, column_name, data_type, is_nullable "
          + "FROM duckdb_columns() WHERE NOT internal AND " + here + " ORDER BY table_name, column_index")) {
        while (rs.next()) {
          List<Schema.Column> list = columns.get(rs.getString(1));
          if (list != null) {
            list.add(new Schema.Column(rs.getString(2), rs.getString(3), rs.getBoolean(4)));
          }
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT table_name, constraint_type, constraint_column_names, expression, "
          + "referenced_table, referenced_column_names FROM duckdb_constraints() WHERE " + here
          + " ORDER BY table_name, constraint_index")) {
        while (rs.next()) {
          String table = rs.getString(1);
          List<String> cols = strings(rs.getObject(3));
          switch (rs.getString(2)) {
            case "PRIMARY KEY" -> primaryKeys.put(table, cols);
            case "UNIQUE" -> uniques.computeIfAbsent(table, k -> new ArrayList<>()).add(cols);
            case "FOREIGN KEY" -> foreignKeys.computeIfAbsent(table, k -> new ArrayList<>())
                .add(new Schema.ForeignKey(cols, rs.getString(5), strings(rs.getObject(6))));
            case "CHECK" -> {
              String expression = rs.getString(4);
              if (expression != null && !expression.isBlank()) {
                checks.computeIfAbsent(table, k -> new ArrayList<>()).add(expression);
              }
            }
            default -> {
              // NOT NULL is read from the columns.
            }
          }
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT view_name, sql FROM duckdb_views() WHERE NOT internal AND NOT "
          + "temporary AND " + here + " ORDER BY view_name")) {
        while (rs.next()) {
          String sql = rs.getString(2);
          Matcher m = VIEW_QUERY.matcher(sql == null ? "" : sql);
          if (m.matches()) {
            views.add(new Schema.View(rs.getString(1), sql, m.group(1)));
          }
        }
      }
    }
    List<Schema.Table> tables = new ArrayList<>();
    columns.forEach((name, cols) -> tables.add(new Schema.Table(name, cols,
        primaryKeys.getOrDefault(name, List.of()), uniques.getOrDefault(name, List.of()),
        foreignKeys.getOrDefault(name, List.of()), checks.getOrDefault(name, List.of()))));
    return new Schema(tables, views);
  }

  /** The rows of the schema's tables (at most {@code maxRowsPerTable} each), as text. */
  static Database rows(Connection c, Schema schema, int maxRowsPerTable) throws SQLException {
    Map<String, List<List<String>>> rows = new LinkedHashMap<>();
    List<Schema.Table> tables = new ArrayList<>(schema.tables());
    try (Statement st = c.createStatement()) {
      for (Schema.Table t : tables) {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < t.columns().size(); i++) {
          sql.append(i == 0 ? "" : ", ").append("CAST(").append(dev.lakerewrite.sql.Sql.identifier(
              t.columns().get(i).name())).append(" AS VARCHAR)");
        }
        sql.append(" FROM ").append(dev.lakerewrite.sql.Sql.identifier(t.name()));
        if (maxRowsPerTable < Integer.MAX_VALUE) {
          sql.append(" LIMIT ").append(maxRowsPerTable);
        }
        List<List<String>> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql.toString())) {
          while (rs.next()) {
            List<String> row = new ArrayList<>();
            for (int i = 1; i <= t.columns().size(); i++) {
              row.add(rs.getString(i));
            }
            out.add(row);
          }
        }
        rows.put(t.name().toLowerCase(Locale.ROOT), out);
      }
    }
    return new Database("the rows of the schema script", tables, rows);
  }

  private static List<String> strings(Object array) throws SQLException {
    List<String> out = new ArrayList<>();
    if (array instanceof Array a) {
      for (Object o : (Object[]) a.getArray()) {
        out.add(String.valueOf(o));
      }
    } else if (array instanceof Object[] objects) {
      for (Object o : objects) {
        out.add(String.valueOf(o));
      }
    } else if (array instanceof List<?> list) {
      list.forEach(o -> out.add(String.valueOf(o)));
    }
    return out;
  }
}
