package dev.lakerewrite.eval;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The WikiDBs sample loaded as ONE lake into an in-memory DuckDB, with the naming core implements: table = CSV
 * stem lower-cased with every run of [^a-z0-9] replaced by '_'; when two databases hold the same stem, each gets
 * its database folder's stem (normalised the same way) as a prefix; columns = header verbatim; types = DuckDB's
 * CSV detection. Test code only: the harness runs golden queries through core's safe executor.
 */
final class SampleLake implements AutoCloseable {

  private static SampleLake shared;

  final Connection connection;
  final List<String> tables;

  private SampleLake(Connection connection, List<String> tables) {
    this.connection = connection;
    this.tables = List.copyOf(tables);
  }

  /** The sample folder, from the system property surefire sets. */
  static Path sampleDir() {
    String dir = System.getProperty("lakerewrite.sample");
    if (dir == null) {
      throw new IllegalStateException("system property lakerewrite.sample is not set (surefire sets it)");
    }
    return Path.of(dir);
  }

  /** One lake for the whole test run (loading takes about a second). */
  static synchronized SampleLake shared() {
    if (shared == null) {
      try {
        shared = load(sampleDir());
      } catch (IOException | SQLException e) {
        throw new IllegalStateException("cannot load the WikiDBs sample from " + sampleDir(), e);
      }
    }
    return shared;
  }

  static String normalise(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
  }

  static SampleLake load(Path sample) throws IOException, SQLException {
    Map<String, List<Path>> byStem = new TreeMap<>();
    try (Stream<Path> dbs = Files.list(sample.resolve("databases"))) {
      for (Path db : dbs.sorted().toList()) {
        Path tablesDir = db.resolve("tables");
        if (!Files.isDirectory(tablesDir)) {
          continue;
        }
        try (Stream<Path> csvs = Files.list(tablesDir)) {
          for (Path csv : csvs.filter(p -> p.toString().endsWith(".csv")).sorted().toList()) {
            String stem = csv.getFileName().toString().replaceAll("\\.csv$", "");
            byStem.computeIfAbsent(normalise(stem), k -> new ArrayList<>()).add(csv);
          }
        }
      }
    }
    Connection c = DriverManager.getConnection("jdbc:duckdb:");
    List<String> names = new ArrayList<>();
    try (Statement st = c.createStatement()) {
      for (Map.Entry<String, List<Path>> e : byStem.entrySet()) {
        for (Path csv : e.getValue()) {
          String name = e.getValue().size() > 1
              ? normalise(csv.getParent().getParent().getFileName().toString()) + "_" + e.getKey()
              : e.getKey();
          st.execute("CREATE TABLE \"" + name + "\" AS SELECT * FROM read_csv('"
              + csv.toAbsolutePath().toString().replace("'", "''") + "')");
          names.add(name);
        }
      }
    }
    return new SampleLake(c, names);
  }

  /** Runs SQL on the lake (trusted test SQL only). */
  QueryRunner runner() {
    return sql -> {
      try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        return read(rs);
      } catch (SQLException e) {
        throw new QueryFailedException(e.getMessage(), e);
      }
    };
  }

  static PlainTable read(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    List<String> columns = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
      columns.add(md.getColumnLabel(i));
    }
    List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      List<Object> row = new ArrayList<>(n);
      for (int i = 1; i <= n; i++) {
        row.add(rs.getObject(i));
      }
      rows.add(row);
    }
    return new PlainTable(columns, rows);
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
