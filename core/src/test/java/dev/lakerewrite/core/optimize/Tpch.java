package dev.lakerewrite.core.optimize;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * TPC-H for the optimizer's tests and benchmark: data generated in Java with {@code io.trino.tpch} (DuckDB's tpch
 * extension is not bundled) and loaded with DuckDB's appender, prices as DECIMAL(15,2) as in dbgen, every column
 * NOT NULL and the spec's primary keys declared; and the 22 queries from the same library (Q15's view becomes a
 * CTE, the only change).
 */
final class Tpch {
  private static final Map<String, List<String>> PRIMARY_KEYS = Map.of(
      "region", List.of("r_regionkey"), "nation", List.of("n_nationkey"), "part", List.of("p_partkey"),
      "supplier", List.of("s_suppkey"), "partsupp", List.of("ps_partkey", "ps_suppkey"),
      "customer", List.of("c_custkey"), "orders", List.of("o_orderkey"),
      "lineitem", List.of("l_orderkey", "l_linenumber"));

  private Tpch() {}

  /** An in-memory database with TPC-H at this scale factor. */
  static Connection inMemory(double scaleFactor) throws SQLException {
    Connection c = DriverManager.getConnection("jdbc:duckdb:");
    load(c, scaleFactor);
    return c;
  }

  /**
   * A database file with TPC-H at this scale factor, generated once and reused (the file is complete only when
   * its marker table exists).
   */
  static Connection file(Path file, double scaleFactor) throws SQLException, IOException {
    Files.createDirectories(file.getParent());
    Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath());
    boolean complete;
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'lakerewrite_tpch_complete'")) {
      rs.next();
      complete = rs.getLong(1) > 0;
    }
    if (!complete) {
      try (Statement st = c.createStatement()) {
        for (TpchTable<?> t : TpchTable.getTables()) {
          st.execute("DROP TABLE IF EXISTS " + t.getTableName());
        }
      }
      load(c, scaleFactor);
      try (Statement st = c.createStatement()) {
        st.execute("CREATE TABLE lakerewrite_tpch_complete AS SELECT " + scaleFactor + " AS scale_factor");
        st.execute("CHECKPOINT");
      }
    }
    return c;
  }

  static void load(Connection c, double scaleFactor) throws SQLException {
    for (TpchTable<?> t : TpchTable.getTables()) {
      load(c, t, scaleFactor);
    }
  }

  private static <E extends TpchEntity> void load(Connection c, TpchTable<E> table, double sf) throws SQLException {
    StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(table.getTableName()).append(" (");
    List<TpchColumn<E>> columns = table.getColumns();
    for (int i = 0; i < columns.size(); i++) {
      TpchColumn<E> col = columns.get(i);
      ddl.append(i == 0 ? "" : ", ").append(col.getColumnName()).append(' ').append(type(col)).append(" NOT NULL");
    }
    ddl.append(", PRIMARY KEY (").append(String.join(", ", PRIMARY_KEYS.get(table.getTableName()))).append("))");
    try (Statement st = c.createStatement()) {
      st.execute(ddl.toString());
    }
    try (DuckDBAppender app = c.unwrap(DuckDBConnection.class).createAppender("main", table.getTableName())) {
      for (E row : table.createGenerator(sf, 1, 1)) {
        app.beginRow();
        for (TpchColumn<E> col : columns) {
          switch (col.getType().getBase()) {
            case IDENTIFIER -> app.append(col.getIdentifier(row));
            case INTEGER -> app.append(col.getInteger(row));
            case DATE -> app.appendEpochDays(col.getDate(row));
            case DOUBLE -> app.append(BigDecimal.valueOf(col.getDouble(row)).setScale(2, RoundingMode.HALF_UP));
            case VARCHAR -> app.append(col.getString(row));
            default -> throw new IllegalStateException("unknown TPC-H type " + col.getType());
          }
        }
        app.endRow();
      }
    }
  }

  private static String type(TpchColumn<?> col) {
    return switch (col.getType().getBase()) {
      case IDENTIFIER -> "BIGINT";
      case INTEGER -> "INTEGER";
      case DATE -> "DATE";
      case DOUBLE -> "DECIMAL(15,2)";
      case VARCHAR -> "VARCHAR";
    };
  }

  /** Query {@code n} (1 to 22) as DuckDB runs it. */
  static String query(int n) {
    if (n < 1 || n > 22) {
      throw new IllegalArgumentException("TPC-H has queries 1 to 22, not " + n);
    }
    String text;
    try (InputStream in = TpchTable.class.getResourceAsStream("queries/q" + n + ".sql")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read TPC-H query " + n, e);
    }
    text = text.replaceAll("(?m)^--.*$", "").strip();
    if (n == 15) {
      Matcher m = Pattern.compile("(?is)CREATE\\s+OR\\s+REPLACE\\s+VIEW\\s+(\\w+)\\s+AS\\s+(.*?);\\s*(SELECT.*)")
          .matcher(text);
      if (!m.matches()) {
        throw new IllegalStateException("unexpected shape of TPC-H Q15");
      }
      text = "WITH " + m.group(1) + " AS (\n" + m.group(2).strip() + "\n)\n" + m.group(3).strip();
    }
    while (text.endsWith(";")) {
      text = text.substring(0, text.length() - 1).strip();
    }
    return text;
  }

  /** All 22 queries. */
  static List<String> queries() {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= 22; i++) {
      out.add(query(i));
    }
    return out;
  }

  static String label(int n) {
    return String.format(Locale.ROOT, "Q%02d", n);
  }
}
