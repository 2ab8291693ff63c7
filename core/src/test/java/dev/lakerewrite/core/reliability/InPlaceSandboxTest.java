package dev.lakerewrite.core.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.LakeLoadException;
import dev.lakerewrite.core.LakeSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 15: a lake queried in place lets DuckDB read its own table files and nothing else. The attacks here skip
 * the executor's admission check and run on the session's sandboxed connection itself, so they test the engine's
 * sandbox ({@code allowed_paths} with {@code enable_external_access = false}, configuration locked): every reader
 * (read_csv, read_text, read_blob, read_json, read_parquet, sniff_csv, glob, replacement scans, ATTACH) on files
 * outside the lake, reached directly, through {@code ..}, through links inside the lake, through globs and
 * through {@code file://}, and on files inside the lake folder that are not tables, fails; no statement creates a
 * file anywhere; a view cannot be redefined; a DuckDB file whose views read outside files does not open. Through
 * the executor, reading or writing files by path is refused outright. Afterwards the lake folder, the folder
 * beside it and the cache hash the same as before.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InPlaceSandboxTest {
  private static final String SECRET = "hunter2-not-for-the-lake";

  @TempDir
  static Path tmp;
  private Path lakeFolder;
  private Path outside;
  private DataLake lake;
  private LakeSession session;
  private Map<String, String> before;

  @BeforeAll
  void buildLake() throws Exception {
    lakeFolder = Files.createDirectories(tmp.resolve("lake"));
    outside = Files.createDirectories(tmp.resolve("outside"));
    Files.createDirectories(lakeFolder.resolve("sub"));
    Files.writeString(lakeFolder.resolve("towns.csv"), "town,population\nNapier,66300\nNelson,55000\n");
    Files.writeString(lakeFolder.resolve("notes.txt"), "not a table: " + SECRET);
    Files.writeString(outside.resolve("secret.csv"), "password\n" + SECRET + "\n");
    Files.writeString(outside.resolve("secret.json"), "[{\"password\": \"" + SECRET + "\"}]");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      st.execute("COPY (SELECT 1 AS id, 'x' AS v) TO '" + lakeFolder.resolve("sub/items.parquet") + "' (FORMAT parquet)");
      st.execute("COPY (SELECT '" + SECRET + "' AS password) TO '" + outside.resolve("secret.parquet")
          + "' (FORMAT parquet)");
    }
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + outside.resolve("secret.duckdb"));
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE vault AS SELECT '" + SECRET + "' AS password");
    }
    Files.createSymbolicLink(lakeFolder.resolve("escape"), outside);
    Files.createSymbolicLink(lakeFolder.resolve("sub/leak.csv"), outside.resolve("secret.csv"));
    lake = DataLake.builder().cacheDirectory(tmp.resolve("cache")).fromFolder(lakeFolder);
    assertThat(lake.catalog().tableNames()).containsExactlyInAnyOrder("towns", "items");
    session = lake.openSession();
    before = hashes();
  }

  @AfterAll
  void nothingChanged() {
    session.close();
    assertThat(hashes()).as("lake folder, outside folder and cache").isEqualTo(before);
    lake.close();
  }

  private Map<String, String> hashes() {
    Map<String, String> out = new TreeMap<>();
    out.put("lake", Fingerprints.sha256Tree(lakeFolder));
    out.put("outside", Fingerprints.sha256Tree(outside));
    out.put("cache listing", Fingerprints.listing(tmp.resolve("cache")).keySet().toString());
    out.put("lake file", Fingerprints.sha256(lake.databaseFile()));
    out.put("tmp listing", listing(tmp).toString());
    return out;
  }

  private static List<String> listing(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.map(p -> dir.relativize(p).toString()).filter(p -> !p.startsWith("cache")).sorted().toList();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Paths that name files outside the lake, or inside it but not table files, in every spelling. */
  List<String> forbiddenPaths() {
    String l = lakeFolder.toString();
    String o = outside.toString();
    return List.of(
        o + "/secret.csv",
        l + "/../outside/secret.csv",
        l + "/sub/../../outside/secret.csv",
        l + "/escape/secret.csv",
        l + "/sub/leak.csv",
        "file://" + o + "/secret.csv",
        l + "/notes.txt",
        l + "/*.txt",
        l + "/**/*.csv",
        l + "/escape/*",
        tmp + "/*/secret.*",
        "/etc/passwd",
        o + "/secret.parquet",
        l + "/escape/secret.parquet",
        o + "/secret.json",
        l + "/escape/secret.json");
  }

  /** Every reader on every forbidden path, run on the sandboxed connection itself. */
  List<String> rawReads() {
    List<String> out = new ArrayList<>();
    for (String p : forbiddenPaths()) {
      String q = "'" + p.replace("'", "''") + "'";
      for (String reader : List.of("read_csv", "read_csv_auto", "read_text", "read_blob", "read_json",
          "read_json_auto", "read_ndjson", "read_parquet", "parquet_metadata", "parquet_schema", "sniff_csv", "glob")) {
        out.add("SELECT * FROM " + reader + "(" + q + ")");
      }
      out.add("SELECT * FROM " + q);
      out.add("SELECT * FROM read_csv([" + q + ", '" + lakeFolder.resolve("towns.csv") + "'])");
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rawReads")
  void theEngineReadsNothingButTheLakesTableFiles(String sql) {
    List<String> seen = new ArrayList<>();
    assertThatThrownBy(() -> {
      try (Statement st = session.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
        while (rs.next()) {
          seen.add(rs.getString(1));
        }
      }
    }).as(sql + " returned " + seen).isInstanceOf(SQLException.class)
        .satisfies(e -> assertThat(e.getMessage()).containsAnyOf("Permission Error", "disabled by configuration",
            "No files found", "IO Error", "Catalog Error: Table with name"));
    assertThat(String.join(" ", seen)).doesNotContain(SECRET);
  }

  List<String> rawStatements() {
    String l = lakeFolder.toString();
    String o = outside.toString();
    return List.of(
        "ATTACH '" + o + "/secret.duckdb' AS vault (READ_ONLY)",
        "ATTACH '" + l + "/escape/secret.duckdb' AS vault",
        "ATTACH '" + lake.databaseFile() + "' AS again (READ_WRITE)",
        "ATTACH '" + l + "/new.duckdb' AS fresh",
        "COPY (SELECT 1 AS x) TO '" + l + "/new.csv'",
        "COPY (SELECT 1 AS x) TO '" + l + "/sub/new.parquet' (FORMAT parquet)",
        "COPY (SELECT 1 AS x) TO '" + l + "/escape/new.csv'",
        "COPY (SELECT 1 AS x) TO '" + o + "/new.csv' (USE_TMP_FILE false)",
        "COPY towns TO '" + tmp + "/stolen.csv'",
        "COPY towns FROM '" + o + "/secret.csv'",
        "EXPORT DATABASE '" + tmp + "/dump'",
        "CREATE TABLE stolen AS SELECT 1",
        "CREATE OR REPLACE VIEW towns AS SELECT * FROM read_text('/etc/passwd')",
        "DROP VIEW towns",
        "INSTALL httpfs",
        "SET allowed_paths = ['/etc/passwd']",
        "SET allowed_directories = ['/']",
        "SET enable_external_access = true",
        "SET lock_configuration = false",
        "RESET allowed_paths");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rawStatements")
  void theEngineWritesNothingAttachesNothingAndKeepsItsSettings(String sql) {
    assertThatThrownBy(() -> {
      try (Statement st = session.connection().createStatement()) {
        st.execute(sql);
      }
    }).as(sql).isInstanceOf(SQLException.class);
  }

  @Test
  void aTemporaryViewCannotReachOutEither() throws SQLException {
    try (LakeSession s = lake.openSession(); Statement st = s.connection().createStatement()) {
      assertThatThrownBy(() -> st.execute("CREATE TEMP VIEW towns AS SELECT * FROM read_csv('"
          + outside.resolve("secret.csv") + "')")).hasMessageContaining("Permission Error");
    }
  }

  @Test
  void theLakesOwnTableFilesAreReadable() throws SQLException {
    try (Statement st = session.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM read_csv('" + lakeFolder.resolve("towns.csv") + "')")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(2);
    }
    assertThat(session.execute("SELECT max(population) FROM towns").table().get(0, 0)).isEqualTo(66300L);
  }

  @Test
  void throughTheExecutorNoFileIsReadOrWrittenByPath() {
    List<String> attacks = new ArrayList<>();
    for (String p : List.of(lakeFolder.resolve("towns.csv").toString(), outside.resolve("secret.csv").toString(),
        lakeFolder + "/escape/secret.csv")) {
      attacks.add("SELECT * FROM read_csv('" + p + "')");
      attacks.add("SELECT * FROM '" + p + "'");
      attacks.add("WITH t AS (SELECT * FROM read_text('" + p + "')) SELECT * FROM t");
      attacks.add("COPY (SELECT 7 AS town) TO '" + p + "' (USE_TMP_FILE false)");
    }
    for (String sql : attacks) {
      Execution e = session.execute(sql);
      assertThat(e.isSuccess()).as(sql).isFalse();
      assertThat(e.error().orElseThrow().kind()).as(sql).isEqualTo(ErrorKind.REJECTED);
    }
  }

  @Test
  void aDuckDbLakeWhoseViewsReadOutsideFilesDoesNotOpen(@TempDir Path elsewhere) throws SQLException {
    Path hostile = elsewhere.resolve("hostile.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + hostile); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE towns AS SELECT 'Napier' AS town");
      st.execute("CREATE VIEW leak AS SELECT * FROM read_csv('" + outside.resolve("secret.csv") + "')");
    }
    assertThatThrownBy(() -> DataLake.builder().cacheDirectory(elsewhere.resolve("cache")).open(hostile).close())
        .isInstanceOf(LakeLoadException.class).hasMessageContaining("Permission Error")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
  }
}
