package dev.lakerewrite.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakerewrite.retrieval.TypeFamily;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataLakeTest {

  @Test
  void loadsTheWikiDbsSampleAsOneFlatLakeWithTheDocumentedNames() {
    LakeCatalog catalog = TestLakes.sample().catalog();
    assertThat(catalog.tables()).hasSize(29);
    assertThat(catalog.tableNames()).contains(
        "capital", "region_of_new_zealand", "capital_of", "shares_border_with", "1992_winter_olympics",
        "acetyltransferase_ypea", "xml_editor", "original_language_of_film_or_tv_show",
        "computer_animated_film_category_of_associated_people",
        "region_of_new_zealand_category_of_associated_people");
    assertThat(catalog.tableNames()).doesNotContain("category_of_associated_people");
  }

  @Test
  void rowCountsAndColumnsMatchTheCsvFiles() throws IOException {
    ObjectMapper json = new ObjectMapper();
    Map<String, Integer> expectedRows = new HashMap<>();
    Map<String, List<String>> expectedColumns = new HashMap<>();
    try (Stream<Path> infos = Files.list(TestLakes.sampleFolder().resolve("databases"))) {
      for (Path db : infos.toList()) {
        JsonNode tables = json.readTree(db.resolve("info_full.json").toFile()).path("TABLES");
        String dbName = LakeLoader.tableName(db.getFileName().toString());
        tables.forEach(t -> {
          String stem = LakeLoader.tableName(t.path("FILEPATH").asText().replace(".csv", ""));
          String name = stem.equals("category_of_associated_people") ? dbName + "_" + stem : stem;
          expectedRows.put(name, t.path("NUM_ROWS").asInt());
          expectedColumns.put(name, json.convertValue(t.path("COLUMNS"), List.class));
        });
      }
    }
    assertThat(expectedRows).hasSize(29);
    for (CatalogTable t : TestLakes.sample().catalog().tables()) {
      assertThat(t.rowCount()).as("rows of %s", t.name()).isEqualTo((long) expectedRows.get(t.name()));
      assertThat(t.columnNames()).as("columns of %s", t.name()).isEqualTo(expectedColumns.get(t.name()));
      assertThat(t.source()).isPresent();
    }
  }

  @Test
  void keepsHeaderTextVerbatimAsColumnNames() {
    CatalogTable region = TestLakes.sample().catalog().requireTable("region_of_new_zealand");
    assertThat(region.columnNames()).contains("topic's main category", "FIPS 10-4 (countries and regions)",
        "Who's on First ID", "ISO 3166-2 code");
  }

  @Test
  void profilesMakeSense() {
    TableProfile region = TestLakes.sample().catalog().profile("region_of_new_zealand");
    assertThat(region.rowCount()).isEqualTo(16);
    ColumnProfile label = region.column("label").orElseThrow();
    assertThat(label.isUnique()).isTrue();
    assertThat(label.uniqueness()).isEqualTo(1.0);
    assertThat(label.nullFraction()).isZero();
    assertThat(label.typeFamily()).isEqualTo(TypeFamily.STRING);
    assertThat(label.sampleValues()).hasSize(5).allMatch(v -> v.endsWith("Region") || v.contains("Chatham")
        || !v.isBlank());

    ColumnProfile country = region.column("country").orElseThrow();
    assertThat(country.distinctCount()).isEqualTo(1);
    assertThat(country.uniqueness()).isLessThan(0.1);
    assertThat(country.sampleValues()).containsExactly("New Zealand");

    assertThat(region.column("population").orElseThrow().typeFamily()).isEqualTo(TypeFamily.NUMERIC);
    assertThat(region.column("VIAF ID").orElseThrow().nullFraction()).isEqualTo(4 / 16.0);
    ColumnProfile description = region.column("description").orElseThrow();
    assertThat(description.distinctCount()).isEqualTo(12);
    assertThat(description.uniqueness()).isEqualTo(12 / 16.0);
  }

  @Test
  void profilesAreCachedOnDisk() throws IOException {
    DataLake lake = TestLakes.sample();
    lake.catalog().profile("capital");
    Path file = lake.cacheDirectory().resolve(LakeCatalog.PROFILES_FILE);
    assertThat(file).isRegularFile();
    FileTime written = Files.getLastModifiedTime(file);
    try (DataLake again = DataLake.builder().cacheDirectory(TestLakes.cacheRoot()).fromWikiDbs(TestLakes.sampleFolder())) {
      assertThat(again.catalog().profile("capital")).isEqualTo(lake.catalog().profile("capital"));
    }
    // Read from the file, not recomputed (a recomputation rewrites it).
    assertThat(Files.getLastModifiedTime(file)).isEqualTo(written);
  }

  @Test
  void reopensAMaterialisedLakeWithoutReloadingAndRebuildsWhenAFileChanges(@TempDir Path tmp) throws IOException {
    Path folder = tmp.resolve("lake");
    Files.createDirectories(folder.resolve("sub"));
    Files.writeString(folder.resolve("Country Profiles.csv"), "country_name,iso3,currency\nEcuador,ECU,US Dollar\n");
    Files.writeString(folder.resolve("sub").resolve("inequality-stats.csv"), "iso3,gini_coef\nECU,0.456\n");
    Path cache = tmp.resolve("cache");

    Path lakeFile;
    FileTime built;
    try (DataLake lake = DataLake.builder().cacheDirectory(cache).fromCsvFolder(folder)) {
      assertThat(lake.catalog().tableNames()).containsExactly("country_profiles", "inequality_stats");
      lakeFile = lake.databaseFile();
      built = Files.getLastModifiedTime(lakeFile);
      try (LakeSession s = lake.openSession()) {
        assertThat(s.execute("SELECT gini_coef FROM inequality_stats").table().get(0, 0))
            .isEqualTo(0.456);
      }
    }
    try (DataLake again = DataLake.builder().cacheDirectory(cache).fromCsvFolder(folder)) {
      assertThat(again.databaseFile()).isEqualTo(lakeFile);
      assertThat(Files.getLastModifiedTime(lakeFile)).isEqualTo(built);
    }
    // Reopening the materialised file directly needs no CSV at all.
    try (DataLake direct = DataLake.builder().cacheDirectory(cache).open(lakeFile)) {
      assertThat(direct.catalog().tableNames()).containsExactly("country_profiles", "inequality_stats");
    }

    Files.writeString(folder.resolve("sub").resolve("inequality-stats.csv"),
        "iso3,gini_coef\nECU,0.456\nUSA,0.414\n");
    Files.setLastModifiedTime(folder.resolve("sub").resolve("inequality-stats.csv"),
        FileTime.fromMillis(built.toMillis() + 5_000));
    try (DataLake changed = DataLake.builder().cacheDirectory(cache).fromCsvFolder(folder)) {
      assertThat(changed.catalog().requireTable("inequality_stats").rowCount()).isEqualTo(2);
    }
  }

  @Test
  void prefixesTablesWhoseFileNamesCollideInACsvFolder(@TempDir Path tmp) throws IOException {
    Files.createDirectories(tmp.resolve("a"));
    Files.createDirectories(tmp.resolve("b"));
    Files.writeString(tmp.resolve("a/people.csv"), "name\nx\n");
    Files.writeString(tmp.resolve("b/people.csv"), "name\ny\n");
    try (DataLake lake = DataLake.builder().cacheDirectory(tmp.resolve(".cache")).fromCsvFolder(tmp)) {
      assertThat(lake.catalog().tableNames()).containsExactly("a_people", "b_people");
    }
  }

  @Test
  void badLakeFoldersGiveErrorsThatSayWhatAndWhere(@TempDir Path tmp) throws IOException {
    Path cache = tmp.resolve("cache");
    DataLake.Builder b = DataLake.builder().cacheDirectory(cache);
    assertThatThrownBy(() -> b.fromWikiDbs(tmp.resolve("missing")))
        .isInstanceOf(LakeLoadException.class).hasMessageContaining("missing").hasMessageContaining("no such folder");
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    assertThatThrownBy(() -> b.fromCsvFolder(empty))
        .isInstanceOf(LakeLoadException.class).hasMessageContaining("empty lake");
    assertThatThrownBy(() -> b.fromWikiDbs(empty))
        .isInstanceOf(LakeLoadException.class).hasMessageContaining("not a WikiDBs folder");
    Path file = Files.writeString(tmp.resolve("x.csv"), "a\n1\n");
    assertThatThrownBy(() -> b.fromCsvFolder(file))
        .isInstanceOf(LakeLoadException.class).hasMessageContaining("not a folder");
    Path notDuckDb = Files.writeString(tmp.resolve("notes.duckdb"), "hello, I am not a database");
    assertThatThrownBy(() -> b.open(notDuckDb))
        .isInstanceOf(LakeLoadException.class).hasMessageContaining("notes.duckdb");
    assertThatThrownBy(() -> b.open(tmp.resolve("nope.duckdb")))
        .isInstanceOf(LakeLoadException.class).hasMessageContaining("no such DuckDB database file");
  }

  @Test
  void unreadableCsvFailsTheLoadNamingTheFileUnlessSkippingIsAsked(@TempDir Path tmp) throws IOException {
    Path folder = Files.createDirectories(tmp.resolve("lake"));
    Files.writeString(folder.resolve("good.csv"), "a,b\n1,2\n");
    Files.write(folder.resolve("broken.csv"), new byte[] {'a', ',', 'b', '\n', '"', 'x', ',', (byte) 0xff, (byte) 0xfe, '\n'});
    Path cache = tmp.resolve("cache");
    assertThatThrownBy(() -> DataLake.builder().cacheDirectory(cache).fromCsvFolder(folder))
        .isInstanceOf(LakeLoadException.class)
        .hasMessageContaining("broken.csv")
        .hasMessageContaining("skipUnreadableFiles");
    try (DataLake lake = DataLake.builder().cacheDirectory(cache).skipUnreadableFiles(true).fromCsvFolder(folder)) {
      assertThat(lake.catalog().tableNames()).containsExactly("good");
      assertThat(lake.warnings()).singleElement().asString().contains("broken.csv");
    }
  }

  @Test
  void unknownTableErrorsSuggestTheNearestNames() {
    assertThatThrownBy(() -> TestLakes.sample().catalog().requireTable("regions_of_new_zealand"))
        .isInstanceOf(UnknownTableException.class)
        .hasMessageContaining("did you mean 'region_of_new_zealand'");
  }

  @Test
  void builderChecksItsArguments() {
    assertThatThrownBy(() -> DataLake.builder().threads(0)).hasMessageContaining("threads must be at least 1, was 0");
    assertThatThrownBy(() -> DataLake.builder().memoryLimit("lots"))
        .hasMessageContaining("memoryLimit must be a number and a unit");
  }

  @Test
  void closingTheLakeClosesItsSessions() {
    try (DataLake lake = DataLake.builder().cacheDirectory(TestLakes.cacheRoot()).fromWikiDbs(TestLakes.sampleFolder())) {
      LakeSession s = lake.openSession();
      assertThat(lake.openSessionCount()).isEqualTo(1);
      lake.close();
      assertThat(s.isClosed()).isTrue();
      assertThatThrownBy(() -> s.execute("SELECT 1")).hasMessageContaining("session is closed");
    }
  }
}
