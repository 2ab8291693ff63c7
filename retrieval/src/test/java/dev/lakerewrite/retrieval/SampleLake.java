package dev.lakerewrite.retrieval;

import dev.lakerewrite.sql.Sql;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.duckdb.DuckDBConnection;

/**
 * The WikiDBs sample as a DuckDB lake, built once per test JVM the way {@code core} loads it: table name = CSV file
 * stem lower-cased with every run of {@code [^a-z0-9]} replaced by {@code _}, prefixed by the database folder's
 * stem when two databases share a stem; column names = CSV header verbatim; types by DuckDB's CSV detection. Then
 * reopened read-only and sandboxed, as {@code core} hands it to capability modules.
 */
final class SampleLake {
  private static Path lakeFile;
  private static Connection sandboxed;
  private static LakeIndex index;
  private static Path cacheDirectory;

  private SampleLake() {}

  static Path sampleRoot() {
    String root = System.getProperty("lakerewrite.sample");
    if (root == null) {
      throw new IllegalStateException("system property lakerewrite.sample is not set (surefire sets it)");
    }
    return Path.of(root);
  }

  /** The sandboxed connection of this JVM's sample lake; duplicate it per thread. */
  static synchronized DuckDBConnection connection() throws Exception {
    if (sandboxed == null) {
      lakeFile = build();
      sandboxed = openSandboxed(lakeFile);
    }
    return (DuckDBConnection) sandboxed;
  }

  /**
   * The index of the sample lake shared by this JVM's search tests (built on first use in a fresh cache directory
   * under target/, with the shared embedder; never closed).
   */
  static synchronized LakeIndex index() throws Exception {
    if (index == null) {
      cacheDirectory = Files.createTempDirectory(tmp(), "sample-index");
      try (Connection c = duplicate()) {
        index = LakeIndex.builder().connection(c).cacheDirectory(cacheDirectory).build();
      }
    }
    return index;
  }

  /** The shared index's cache directory. */
  static synchronized Path cacheDirectory() throws Exception {
    index();
    return cacheDirectory;
  }

  static Path tmp() throws IOException {
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(dir);
    return dir;
  }

  /** A fresh connection duplicate for one thread (and one test). */
  static Connection duplicate() throws Exception {
    return connection().duplicate();
  }

  static Path lakeFile() throws Exception {
    connection();
    return lakeFile;
  }

  static String tableName(String stem) {
    return stem.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
  }

  /** CSV file → table name, as core names them. */
  static Map<Path, String> tables() throws IOException {
    List<Path> csvs = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(sampleRoot().resolve("databases"))) {
      walk.filter(p -> p.getParent().getFileName().toString().equals("tables") && p.toString().endsWith(".csv"))
          .sorted().forEach(csvs::add);
    }
    Map<String, Integer> stems = new HashMap<>();
    for (Path p : csvs) {
      stems.merge(tableName(stem(p)), 1, Integer::sum);
    }
    Map<Path, String> out = new java.util.LinkedHashMap<>();
    for (Path p : csvs) {
      String name = tableName(stem(p));
      if (stems.get(name) > 1) {
        name = tableName(p.getParent().getParent().getFileName().toString()) + "_" + name;
      }
      out.put(p, name);
    }
    return out;
  }

  private static String stem(Path p) {
    String f = p.getFileName().toString();
    return f.substring(0, f.lastIndexOf('.'));
  }

  private static Path build() throws Exception {
    Path file = Files.createTempDirectory(tmp(), "sample-lake").resolve("lake.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
      for (Map.Entry<Path, String> e : tables().entrySet()) {
        st.execute("CREATE TABLE " + Sql.quoted(e.getValue()) + " AS SELECT * FROM read_csv("
            + Sql.literal(e.getKey().toString()) + ", header = true)");
      }
    }
    return file;
  }

  static Connection openSandboxed(Path file) throws SQLException {
    Properties p = new Properties();
    p.setProperty("duckdb.read_only", "true");
    p.setProperty("enable_external_access", "false");
    Connection c = DriverManager.getConnection("jdbc:duckdb:" + file, p);
    try (Statement st = c.createStatement()) {
      st.execute("SET lock_configuration = true");
    }
    return c;
  }
}
