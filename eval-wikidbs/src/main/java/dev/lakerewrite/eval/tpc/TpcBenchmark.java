package dev.lakerewrite.eval.tpc;

import dev.lakerewrite.core.Engine;
import dev.lakerewrite.sql.DidYouMean;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * TPC-H and TPC-DS: data generated in Java at any scale factor and loaded into a DuckDB or a PostgreSQL connection
 * with the primary keys declared, and the standard queries in either engine's dialect.
 *
 * <pre>{@code
 * try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
 *   TpcBenchmark.TPCH.load(c, 0.01);                       // tests: tiny scale factors load in a second
 *   for (TpcQuery q : TpcBenchmark.TPCH.queries(Engine.DUCKDB)) { ... q.sql() ... }
 * }
 * Path sf1 = TpcBenchmark.TPCDS.cachedDuckDb(1);            // benchmarks: generated once, reused
 * TpcBenchmark.TPCH.loadIfMissing(postgresConnection, 1);    // a server database, loaded once
 * }</pre>
 *
 * <p>Loading is linear in the rows generated: DuckDB through its appender, PostgreSQL through {@code COPY FROM STDIN}
 * (the JDBC driver's CopyManager), primary keys added after the copy and statistics gathered with {@code ANALYZE}.
 * Scale factor 1 is about 8.7 million rows for TPC-H and 19 million for TPC-DS (a few minutes each). A loaded
 * database holds a marker table, {@value #MARKER}, with the benchmark and scale factor, so a half-loaded one is
 * recognised and reloaded.
 */
public enum TpcBenchmark {
  TPCH("TPC-H"),
  TPCDS("TPC-DS");

  /** The table marking a completely loaded database: one row (benchmark, scale_factor) per benchmark loaded. */
  public static final String MARKER = "lakerewrite_tpc_loaded";

  private final String displayName;

  TpcBenchmark(String displayName) {
    this.displayName = displayName;
  }

  /** {@code TPC-H} or {@code TPC-DS}. */
  public String displayName() {
    return displayName;
  }

  List<TableSpec> tableSpecs() {
    return this == TPCH ? TpchData.tables() : TpcdsData.tables();
  }

  /** The benchmark's table names, in loading order. */
  public List<String> tables() {
    return tableSpecs().stream().map(TableSpec::name).toList();
  }

  /** The primary key columns of one of {@link #tables()}. */
  public List<String> primaryKey(String table) {
    return tableSpecs().stream().filter(t -> t.name().equals(table)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(displayName + " has no table '" + table + "'"
            + DidYouMean.hintOrKnown(table, tables())))
        .primaryKey();
  }

  /**
   * Creates the benchmark's tables in the connection's current schema and fills them with the data of this scale
   * factor. The tables must not exist yet; the connection is left in auto-commit mode.
   *
   * @param scaleFactor positive; 1 is the benchmark's reference size, 0.01 loads in about a second
   * @throws SQLException when a table exists already or the engine refuses the data
   */
  public void load(Connection connection, double scaleFactor) throws SQLException {
    Objects.requireNonNull(connection, "connection");
    checkScale(scaleFactor);
    Engine engine = Engine.of(connection);
    boolean autoCommit = connection.getAutoCommit();
    connection.setAutoCommit(true);
    try {
      List<TableSpec> specs = tableSpecs();
      try (Statement st = connection.createStatement()) {
        for (TableSpec t : specs) {
          // DuckDB checks keys while appending; PostgreSQL builds them faster after the copy.
          st.execute(t.createTable(engine, engine == Engine.DUCKDB));
        }
      }
      if (this == TPCH) {
        TpchData.generate(connection, engine, scaleFactor);
      } else {
        TpcdsData.generate(connection, engine, scaleFactor);
      }
      try (Statement st = connection.createStatement()) {
        if (engine == Engine.POSTGRESQL) {
          for (TableSpec t : specs) {
            st.execute(t.addPrimaryKey());
          }
          st.execute("ANALYZE");
        }
        st.execute("CREATE TABLE IF NOT EXISTS " + MARKER + " (benchmark VARCHAR, scale_factor DOUBLE PRECISION)");
      }
      try (PreparedStatement ps = connection.prepareStatement("INSERT INTO " + MARKER + " VALUES (?, ?)")) {
        ps.setString(1, name());
        ps.setDouble(2, scaleFactor);
        ps.executeUpdate();
      }
      if (engine == Engine.DUCKDB) {
        try (Statement st = connection.createStatement()) {
          st.execute("CHECKPOINT");
        }
      }
    } finally {
      connection.setAutoCommit(autoCommit);
    }
  }

  /**
   * {@link #load} unless the connection's database already holds this benchmark at this scale factor; a partial or
   * different load (other scale factor, interrupted) is dropped first.
   *
   * @return whether data was loaded now
   */
  public boolean loadIfMissing(Connection connection, double scaleFactor) throws SQLException {
    Objects.requireNonNull(connection, "connection");
    checkScale(scaleFactor);
    if (loadedScale(connection) == scaleFactor) {
      return false;
    }
    drop(connection);
    load(connection, scaleFactor);
    return true;
  }

  /** The scale factor this benchmark is completely loaded at in the connection's database, or -1. */
  public double loadedScale(Connection connection) throws SQLException {
    if (!tableExists(connection, MARKER)) {
      return -1;
    }
    try (PreparedStatement ps = connection.prepareStatement(
        "SELECT scale_factor FROM " + MARKER + " WHERE benchmark = ?")) {
      ps.setString(1, name());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getDouble(1) : -1;
      }
    }
  }

  /** Drops this benchmark's tables and marker row, where present. */
  public void drop(Connection connection) throws SQLException {
    try (Statement st = connection.createStatement()) {
      for (TableSpec t : tableSpecs()) {
        st.execute("DROP TABLE IF EXISTS " + t.name());
      }
      if (tableExists(connection, MARKER)) {
        st.execute("DELETE FROM " + MARKER + " WHERE benchmark = '" + name() + "'");
      }
    }
  }

  private static boolean tableExists(Connection c, String table) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ?")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() && rs.getLong(1) > 0;
      }
    }
  }

  /**
   * A DuckDB database file with this benchmark at this scale factor, generated on first use under the lakerewrite
   * cache directory ({@code $LAKEREWRITE_CACHE}, {@code -Dlakerewrite.cache} or {@code ~/.cache/lakerewrite}) in
   * {@code tpc/}, and reused afterwards. Open it read-only to share it between processes.
   */
  public Path cachedDuckDb(double scaleFactor) throws SQLException, IOException {
    return cachedDuckDb(scaleFactor, dev.lakerewrite.core.DataLake.defaultCacheDirectory());
  }

  /** {@link #cachedDuckDb(double)} under this cache directory. */
  public Path cachedDuckDb(double scaleFactor, Path cacheDirectory) throws SQLException, IOException {
    checkScale(scaleFactor);
    Path file = cacheDirectory.resolve("tpc").resolve(name().toLowerCase(Locale.ROOT) + "-sf" + format(scaleFactor)
        + ".duckdb");
    Files.createDirectories(file.getParent());
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath())) {
      loadIfMissing(c, scaleFactor);
    }
    return file;
  }

  /** Every query name, in the benchmark's order ({@code q1}...; TPC-DS has {@code q14a}, {@code q14b}, ...). */
  public List<String> queryNames() {
    return this == TPCH ? TpcQueries.tpchNames() : TpcQueries.tpcdsNames();
  }

  /** Every standard query in this engine's dialect. */
  public List<TpcQuery> queries(Engine engine) {
    List<TpcQuery> out = new ArrayList<>();
    for (String n : queryNames()) {
      out.add(query(n, engine));
    }
    return out;
  }

  /**
   * One standard query by name ({@code q17}; also {@code 17} or {@code Q17}).
   *
   * @throws IllegalArgumentException for a name the benchmark does not have (with the closest one)
   */
  public TpcQuery query(String name, Engine engine) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(engine, "engine");
    String n = name.strip().toLowerCase(Locale.ROOT);
    if (!n.startsWith("q")) {
      n = "q" + n;
    }
    n = n.replaceFirst("^q0+(?=\\d)", "q");
    if (!queryNames().contains(n)) {
      throw new IllegalArgumentException(displayName + " has no query '" + name + "'"
          + DidYouMean.hint(n, queryNames()));
    }
    String sql = this == TPCH ? TpcQueries.tpch(n, engine) : TpcQueries.tpcds(n, engine);
    return new TpcQuery(this, n, engine, sql);
  }

  private static void checkScale(double scaleFactor) {
    if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
      throw new IllegalArgumentException("scaleFactor must be a positive number, was " + scaleFactor);
    }
  }

  static String format(double sf) {
    return sf == Math.rint(sf) ? String.valueOf((long) sf) : String.valueOf(sf);
  }
}
