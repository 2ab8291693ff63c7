package dev.lakerewrite.retrieval;

import dev.lakerewrite.sql.Sql;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The trusted SQL this module runs on a (sandboxed, read-only) DuckDB lake: the catalog from
 * {@code duckdb_tables()}, {@code duckdb_views()} and {@code duckdb_columns()}, row counts, distinct values and
 * example rows. Every identifier is quoted; every statement is closed after use, also after an error.
 */
final class LakeReader {
  /** Types whose text form is not worth indexing as values. */
  private static final List<String> SKIPPED_TYPE_PREFIXES = List.of("BLOB", "BYTEA", "BIT", "GEOMETRY");
  /** Longer values are not indexed: they are documents, not filter values. */
  static final int MAX_VALUE_LENGTH = 1_000;

  private LakeReader() {}

  record CatalogColumn(String name, String type) {}

  record CatalogTable(String schema, String table, boolean view, long estimatedRows, String viewSql,
      List<CatalogColumn> columns) {
    String id() {
      return schema.equals("main") ? table : schema + "." + table;
    }

    String sqlName() {
      return Sql.quoted(schema, table);
    }
  }

  /** A distinct value and how many rows hold it. */
  record ValueCount(String value, long count) {}

  /** The distinct values of a column, most frequent first, and whether more exist. */
  record DistinctValues(List<ValueCount> values, boolean capped) {}

  /** Tables and views of the current database, persistent ones only, in schema and name order. */
  static List<CatalogTable> catalog(Connection connection) throws SQLException {
    Map<String, CatalogTable> tables = new LinkedHashMap<>();
    Map<String, List<CatalogColumn>> columns = new LinkedHashMap<>();
    String sql = "SELECT schema_name, table_name, false AS is_view, estimated_size, NULL AS sql "
        + "FROM duckdb_tables() WHERE database_name = current_database() AND NOT internal AND NOT temporary "
        + "UNION ALL SELECT schema_name, view_name, true, NULL, sql "
        + "FROM duckdb_views() WHERE database_name = current_database() AND NOT internal AND NOT temporary "
        + "ORDER BY 1, 2";
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        String schema = rs.getString(1);
        String table = rs.getString(2);
        List<CatalogColumn> cols = new ArrayList<>();
        long estimated = rs.getLong(4);
        CatalogTable t = new CatalogTable(schema, table, rs.getBoolean(3), rs.wasNull() ? -1 : estimated,
            rs.getString(5), cols);
        tables.put(key(schema, table), t);
        columns.put(key(schema, table), cols);
      }
    }
    String colSql = "SELECT schema_name, table_name, column_name, data_type FROM duckdb_columns() "
        + "WHERE database_name = current_database() AND NOT internal ORDER BY schema_name, table_name, column_index";
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(colSql)) {
      while (rs.next()) {
        List<CatalogColumn> cols = columns.get(key(rs.getString(1), rs.getString(2)));
        if (cols != null) {
          cols.add(new CatalogColumn(rs.getString(3), rs.getString(4)));
        }
      }
    }
    return new ArrayList<>(tables.values());
  }

  private static String key(String schema, String table) {
    return schema + '\u0000' + table;
  }

  /** A digest of names, types, sizes and view definitions: changes when the lake's shape changes. */
  static String fingerprint(List<CatalogTable> catalog) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (CatalogTable t : catalog) {
        update(sha, t.schema(), t.table(), Boolean.toString(t.view()), Long.toString(t.estimatedRows()),
            t.viewSql() == null ? "" : t.viewSql());
        for (CatalogColumn c : t.columns()) {
          update(sha, c.name(), c.type());
        }
      }
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  private static void update(MessageDigest sha, String... parts) {
    for (String p : parts) {
      sha.update(p.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
    }
    sha.update((byte) '\n');
  }

  static long rowCount(Connection connection, CatalogTable table) throws SQLException {
    try (Statement st = connection.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table.sqlName())) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * Whether a value is worth indexing, as the distinct-values query decides it: not blank (spaces trimmed) and at
   * most {@link #MAX_VALUE_LENGTH} characters.
   */
  static boolean indexable(String value) {
    int n = value.codePointCount(0, value.length());
    return n <= MAX_VALUE_LENGTH && !value.replace(" ", "").isEmpty();
  }

  static boolean indexesValues(String sqlType) {
    String t = sqlType.toUpperCase(Locale.ROOT);
    for (String p : SKIPPED_TYPE_PREFIXES) {
      if (t.startsWith(p)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Up to {@code cap} distinct non-null, non-blank values of each of {@code columns} of {@code table}, most
   * frequent first (ties by value), in one UNPIVOT query per table; read from a reservoir sample of
   * {@code maxRows} rows when the table is larger. Returns one entry per column, in order.
   */
  static List<DistinctValues> distinctValues(Connection connection, CatalogTable table, List<String> columns,
      long rowCount, int cap, long maxRows) throws SQLException {
    List<List<ValueCount>> values = new ArrayList<>();
    boolean[] capped = new boolean[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      values.add(new ArrayList<>());
    }
    if (columns.isEmpty()) {
      return List.of();
    }
    StringBuilder select = new StringBuilder("SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      select.append(i == 0 ? "" : ", ").append("CAST(").append(Sql.quoted(columns.get(i)))
          .append(" AS VARCHAR) AS c").append(i);
    }
    select.append(" FROM ").append(table.sqlName());
    if (rowCount > maxRows) {
      select.append(" USING SAMPLE reservoir(").append(maxRows).append(" ROWS) REPEATABLE (7)");
    }
    String sql = "SELECT k, v, n FROM (SELECT k, v, count(*) AS n FROM (UNPIVOT (" + select
        + ") ON COLUMNS(*) INTO NAME k VALUE v) WHERE length(trim(v)) > 0 AND length(v) <= " + MAX_VALUE_LENGTH
        + " GROUP BY k, v) QUALIFY row_number() OVER (PARTITION BY k ORDER BY n DESC, v) <= " + (cap + 1)
        + " ORDER BY k, n DESC, v";
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        int column = Integer.parseInt(rs.getString(1).substring(1));
        List<ValueCount> list = values.get(column);
        if (list.size() == cap) {
          capped[column] = true;
        } else {
          list.add(new ValueCount(rs.getString(2), rs.getLong(3)));
        }
      }
    }
    List<DistinctValues> out = new ArrayList<>(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      out.add(new DistinctValues(values.get(i), capped[i] || rowCount > maxRows));
    }
    return out;
  }

  /** Up to {@code limit} rows of {@code table} whose {@code column}, as text, equals {@code value}. */
  static List<Map<String, String>> exampleRows(Connection connection, LakeTable table, String column, String value,
      int limit, int maxColumns) throws SQLException {
    List<String> shown = new ArrayList<>();
    shown.add(column);
    for (String c : table.columnNames()) {
      if (shown.size() >= maxColumns) {
        break;
      }
      if (!c.equals(column)) {
        shown.add(c);
      }
    }
    StringBuilder select = new StringBuilder("SELECT ");
    for (int i = 0; i < shown.size(); i++) {
      select.append(i == 0 ? "" : ", ").append("CAST(").append(Sql.quoted(shown.get(i)))
          .append(" AS VARCHAR)");
    }
    select.append(" FROM ").append(table.sqlName()).append(" WHERE CAST(").append(Sql.quoted(column))
        .append(" AS VARCHAR) = ? LIMIT ").append(limit);
    List<Map<String, String>> rows = new ArrayList<>();
    try (PreparedStatement ps = connection.prepareStatement(select.toString())) {
      ps.setString(1, value);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Map<String, String> row = new LinkedHashMap<>();
          for (int i = 0; i < shown.size(); i++) {
            row.put(shown.get(i), rs.getString(i + 1));
          }
          rows.add(row);
        }
      }
    }
    return rows;
  }
}
