package dev.lakerewrite.joingraph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The WikiDBs sample as core loads it: one DuckDB table per CSV file ({@code CREATE TABLE AS SELECT * FROM
 * read_csv}), named like core names it, in a DuckDB file that is then reopened the way core hands a lake to a
 * capability module: read-only, no external access, configuration locked.
 *
 * <p>Naming: table = CSV file stem lower-cased, every run of {@code [^a-z0-9]} replaced by {@code _}; when two
 * databases hold the same stem, each gets its database folder's name (same rule) as a prefix. Columns keep their
 * header verbatim; types are DuckDB's CSV detection.
 */
final class SampleLake {
  /** One foreign key of an {@code info_full.json}: the ground truth, never given to the graph. */
  record ForeignKey(String database, String table, String column, String referencedTable, String referencedColumn) {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static Path lakeFile;

  private SampleLake() {}

  static Path sampleDirectory() {
    String dir = System.getProperty("lakerewrite.sample");
    if (dir == null) {
      throw new IllegalStateException("system property lakerewrite.sample is not set (surefire sets it)");
    }
    return Path.of(dir);
  }

  /** The lake file, built once per JVM under target/. */
  static synchronized Path lakeFile() {
    if (lakeFile == null) {
      try {
        Path dir = Path.of("target", "test-lakes");
        Files.createDirectories(dir);
        Path file = dir.resolve("wikidbs-sample-" + ProcessHandle.current().pid() + ".duckdb");
        Files.deleteIfExists(file);
        build(file);
        file.toFile().deleteOnExit();
        lakeFile = file;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return lakeFile;
  }

  /** A new sandboxed connection to the sample lake (the caller closes it). */
  static Connection open() {
    return openSandboxed(lakeFile());
  }

  /** Opens a lake file the way core does: read-only, no external access, configuration locked. */
  static Connection openSandboxed(Path file) {
    Properties props = new Properties();
    props.setProperty("duckdb.read_only", "true");
    props.setProperty("enable_external_access", "false");
    props.setProperty("lock_configuration", "true");
    try {
      return DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath(), props);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open " + file + " read-only: " + e.getMessage(), e);
    }
  }

  /** Lake name of every CSV: database folder → file stem → table name. */
  static Map<String, Map<String, String>> tableNames() {
    Map<String, List<String[]>> byStem = new TreeMap<>();
    for (Path db : databases()) {
      for (Path csv : csvFiles(db)) {
        String stem = stem(csv);
        byStem.computeIfAbsent(stem, s -> new ArrayList<>()).add(new String[] {db.getFileName().toString(), stem});
      }
    }
    Map<String, Map<String, String>> names = new TreeMap<>();
    byStem.forEach((stem, owners) -> {
      for (String[] owner : owners) {
        String name = owners.size() == 1 ? lakeName(stem) : lakeName(owner[0]) + "_" + lakeName(stem);
        names.computeIfAbsent(owner[0], d -> new TreeMap<>()).put(stem, name);
      }
    });
    return names;
  }

  static String lakeName(String stem) {
    return stem.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
  }

  /** The foreign keys of every database, tables given by lake name; self-references included. */
  static List<ForeignKey> foreignKeys() {
    Map<String, Map<String, String>> names = tableNames();
    List<ForeignKey> keys = new ArrayList<>();
    for (Path db : databases()) {
      String database = db.getFileName().toString();
      JsonNode info;
      try {
        info = JSON.readTree(db.resolve("info_full.json").toFile());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Map<String, String> labelToStem = new HashMap<>();
      info.get("TABLES").fields().forEachRemaining(t ->
          labelToStem.put(t.getKey(), stem(Path.of(t.getValue().get("FILEPATH").asText()))));
      info.get("TABLES").fields().forEachRemaining(t -> {
        String table = names.get(database).get(labelToStem.get(t.getKey()));
        for (JsonNode fk : t.getValue().get("FOREIGN_KEYS")) {
          String referenced = names.get(database).get(labelToStem.get(fk.get("REFERENCE_TABLE").asText()));
          keys.add(new ForeignKey(database, table, fk.get("FOREIGN_KEY").get(1).asText(), referenced, "label"));
        }
      });
    }
    return keys;
  }

  private static void build(Path file) {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file.toAbsolutePath());
        Statement st = c.createStatement()) {
      Map<String, Map<String, String>> names = tableNames();
      for (Path db : databases()) {
        for (Path csv : csvFiles(db)) {
          String table = names.get(db.getFileName().toString()).get(stem(csv));
          st.execute("CREATE TABLE " + Sql.quoted(table) + " AS SELECT * FROM read_csv("
              + Sql.literal(csv.toAbsolutePath().toString()) + ", header = true)");
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot build the sample lake: " + e.getMessage(), e);
    }
  }

  private static List<Path> databases() {
    try (Stream<Path> dbs = Files.list(sampleDirectory().resolve("databases"))) {
      return dbs.filter(Files::isDirectory).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> csvFiles(Path db) {
    try (Stream<Path> files = Files.list(db.resolve("tables"))) {
      return files.filter(p -> p.toString().endsWith(".csv")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String stem(Path csv) {
    String name = csv.getFileName().toString();
    return name.endsWith(".csv") ? name.substring(0, name.length() - 4) : name;
  }
}
