package dev.lakerewrite.testing;

import dev.lakerewrite.sql.Sql;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.duckdb.DuckDBConnection;

/**
 * The WikiDBs sample (or any folder of CSV files) as a DuckDB lake file, its tables named as core names them:
 * the CSV file's stem lower-cased, every run of {@code [^a-z0-9]} replaced by {@code _}, prefixed by the
 * database folder's name (same rule) when two databases hold the same stem. Columns keep their header verbatim;
 * types are DuckDB's CSV detection.
 */
public final class SampleLake {
  private static Path sampleFile;
  private static List<String> sampleTables;

  private SampleLake() {}

  /**
   * The sample folder: the {@code lakerewrite.sample} system property (surefire sets it), else
   * {@code ../shared/data/wikidbs-sample} beside the checkout (for a benchmark run by hand).
   */
  public static Path folder() {
    String p = System.getProperty("lakerewrite.sample");
    if (p != null) {
      Path path = Path.of(p);
      if (!Files.isDirectory(path)) {
        throw new IllegalStateException("the WikiDBs sample is not at " + path + " (system property lakerewrite.sample)");
      }
      return path;
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolveSibling("shared").resolve("data").resolve("wikidbs-sample");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "system property lakerewrite.sample is not set and no ../shared/data/wikidbs-sample was found");
  }

  /** Core's name for a file stem or a database folder: lower case, runs of {@code [^a-z0-9]} become {@code _}. */
  public static String tableName(String stem) {
    return stem.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
  }

  /**
   * The CSV files of a lake folder by table name, sorted by path: {@code databases/<db>/tables/*.csv} in the
   * WikiDBs layout, else every CSV below the folder.
   */
  public static Map<String, Path> tables(Path folder) {
    Path databases = folder.resolve("databases");
    boolean wikiDbs = Files.isDirectory(databases);
    List<Path> files;
    try (Stream<Path> s = Files.walk(wikiDbs ? databases : folder)) {
      files = s.filter(p -> p.toString().endsWith(".csv"))
          .filter(p -> !wikiDbs || p.getParent().getFileName().toString().equals("tables"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the CSV files of " + folder, e);
    }
    Map<String, Integer> stems = new HashMap<>();
    for (Path f : files) {
      stems.merge(tableName(stem(f)), 1, Integer::sum);
    }
    Map<String, Path> out = new LinkedHashMap<>();
    for (Path f : files) {
      String name = tableName(stem(f));
      if (wikiDbs && stems.get(name) > 1) {
        name = tableName(f.getParent().getParent().getFileName().toString()) + "_" + name;
      }
      out.put(name, f);
    }
    return out;
  }

  /** Builds {@code target}, a DuckDB file with one table per CSV file of {@code folder}; returns the table names. */
  public static List<String> build(Path folder, Path target) {
    Map<String, Path> tables = tables(folder);
    try {
      Files.deleteIfExists(target);
      Files.createDirectories(target.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot make room for " + target, e);
    }
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + target.toAbsolutePath());
        Statement st = c.createStatement()) {
      for (Map.Entry<String, Path> e : tables.entrySet()) {
        st.execute("CREATE TABLE " + Sql.quoted(e.getKey()) + " AS SELECT * FROM read_csv("
            + Sql.literal(e.getValue().toAbsolutePath().toString())
            + ", header = true, delim = ',', quote = '\"', escape = '\"', normalize_names = false)");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot build a lake from " + folder + ": " + e.getMessage(), e);
    }
    return new ArrayList<>(tables.keySet());
  }

  /**
   * The sample's lake file, built on first use under the module's {@code target/test-lakes} (one per test JVM,
   * removed when it ends). Open it with {@link #open()}.
   */
  public static synchronized Path file() {
    if (sampleFile == null) {
      Path file = lakesDirectory().resolve("wikidbs-sample-" + ProcessHandle.current().pid() + ".duckdb");
      sampleTables = List.copyOf(build(folder(), file));
      file.toFile().deleteOnExit();
      sampleFile = file;
    }
    return sampleFile;
  }

  /** The sample's table names, in the order of their files' paths. */
  public static synchronized List<String> tableNames() {
    file();
    return sampleTables;
  }

  /** A new sandboxed connection to the sample's lake file ({@link Sandbox#open}); the caller closes it. */
  public static DuckDBConnection open() throws SQLException {
    return Sandbox.open(file(), lakesDirectory().resolve("tmp-" + ProcessHandle.current().pid()));
  }

  private static Path lakesDirectory() {
    return Path.of("target", "test-lakes").toAbsolutePath();
  }

  private static String stem(Path csv) {
    String name = csv.getFileName().toString();
    return name.substring(0, name.length() - ".csv".length());
  }
}
