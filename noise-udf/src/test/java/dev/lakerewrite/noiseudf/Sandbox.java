package dev.lakerewrite.noiseudf;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.duckdb.DuckDBConnection;

/**
 * Test fixture reproducing the connection core hands this module: a lake file built from CSVs, opened
 * read-only, then the sandbox settings, then locked. Table name = CSV stem lower-cased with runs of
 * {@code [^a-z0-9]} replaced by '_', prefixed by the database folder stem when two databases share a stem;
 * columns = header verbatim (types auto-detected, as a loader would).
 */
final class Sandbox {

  private Sandbox() {}

  /** The WikiDBs sample: {@code -Dlakerewrite.sample}, else {@code ../shared/data/wikidbs-sample} beside the checkout. */
  static Path sample() {
    String p = System.getProperty("lakerewrite.sample");
    if (p != null) {
      return Path.of(p);
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolveSibling("shared").resolve("data").resolve("wikidbs-sample");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("system property lakerewrite.sample is not set and ../shared/data/wikidbs-sample was not found");
  }

  /** This module's target folder, whether run by surefire (cwd = module) or exec:java (cwd = checkout). */
  static Path moduleTarget() {
    Path module = Files.isRegularFile(Path.of("noise-udf", "pom.xml")) ? Path.of("noise-udf") : Path.of("");
    return module.resolve("target");
  }

  static String tableName(String stem) {
    return stem.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
  }

  /** CSV files of a lake folder (WikiDBs layout or flat), keyed by table name. */
  static Map<String, Path> csvTables(Path folder) throws IOException {
    List<Path> files = new ArrayList<>();
    Path databases = folder.resolve("databases");
    try (Stream<Path> s = Files.walk(Files.isDirectory(databases) ? databases : folder)) {
      s.filter(p -> p.toString().endsWith(".csv"))
          .filter(p -> !Files.isDirectory(databases) || p.getParent().getFileName().toString().equals("tables"))
          .sorted()
          .forEach(files::add);
    }
    Map<String, Integer> stems = new HashMap<>();
    for (Path f : files) {
      stems.merge(tableName(stem(f)), 1, Integer::sum);
    }
    Map<String, Path> out = new LinkedHashMap<>();
    for (Path f : files) {
      String name = tableName(stem(f));
      if (stems.get(name) > 1 && Files.isDirectory(databases)) {
        name = tableName(f.getParent().getParent().getFileName().toString()) + "_" + name;
      }
      out.put(name, f);
    }
    return out;
  }

  private static String stem(Path f) {
    String n = f.getFileName().toString();
    return n.substring(0, n.length() - 4);
  }

  /** Builds {@code target} (a DuckDB file) from the CSV lake in {@code folder}; returns the table names. */
  static List<String> buildLake(Path folder, Path target) throws Exception {
    Files.deleteIfExists(target);
    Map<String, Path> tables = csvTables(folder);
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + target); Statement s = c.createStatement()) {
      for (Map.Entry<String, Path> e : tables.entrySet()) {
        s.execute("CREATE TABLE " + Sql.quoted(e.getKey()) + " AS SELECT * FROM read_csv("
            + Sql.literal(e.getValue().toString()) + ", header=true, delim=',', quote='\"', escape='\"', normalize_names=false)");
      }
    }
    return new ArrayList<>(tables.keySet());
  }

  /** All rows of a CSV (header first), read with Jackson CSV. */
  static List<String[]> readCsv(Path file) throws IOException {
    com.fasterxml.jackson.dataformat.csv.CsvMapper mapper = new com.fasterxml.jackson.dataformat.csv.CsvMapper();
    mapper.enable(com.fasterxml.jackson.dataformat.csv.CsvParser.Feature.WRAP_AS_ARRAY);
    List<String[]> rows = new ArrayList<>();
    try (com.fasterxml.jackson.databind.MappingIterator<String[]> it = mapper.readerFor(String[].class).readValues(file.toFile())) {
      it.forEachRemaining(rows::add);
    }
    return rows;
  }

  /** Opens the lake file like core: read-only, sandboxed, configuration locked. */
  static DuckDBConnection open(Path lakeFile, Path tempDir) throws SQLException, IOException {
    Files.createDirectories(tempDir);
    java.util.Properties p = new java.util.Properties();
    p.setProperty("duckdb.read_only", "true");
    DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + lakeFile, p);
    try (Statement s = c.createStatement()) {
      s.execute("SET autoinstall_known_extensions=false");
      s.execute("SET autoload_known_extensions=false");
      s.execute("SET temp_directory=" + Sql.literal(tempDir.toString()));
      s.execute("SET memory_limit='1GB'");
      s.execute("SET threads=2");
      s.execute("SET enable_external_access=false");
      s.execute("SET lock_configuration=true");
    }
    return c;
  }
}
