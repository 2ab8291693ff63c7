package dev.lakerewrite.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link DataLake#fromFolder}: formats, partitioned folders, naming, in place versus copied, refresh on change. */
class FolderLakeTest {

  /** A lake of every supported format: Parquet, CSV (semicolons, gzip), TSV, JSON array, NDJSON, a Hive table. */
  static Path mixedLake(Path dir) throws IOException, SQLException {
    Path lake = Files.createDirectories(dir.resolve("lake"));
    Files.createDirectories(lake.resolve("shop/sales/year=2023"));
    Files.createDirectories(lake.resolve("shop/sales/year=2024"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      st.execute("COPY (SELECT range AS customer_id, 'Customer ' || range AS name, range * 1.5 AS balance "
          + "FROM range(100)) TO '" + lake.resolve("Customers.parquet") + "' (FORMAT parquet)");
      st.execute("COPY (SELECT range AS sale_id, range % 100 AS customer_id, 10.0 + range AS amount FROM range(30)) "
          + "TO '" + lake.resolve("shop/sales/year=2023/part-0.parquet") + "' (FORMAT parquet)");
      st.execute("COPY (SELECT range + 30 AS sale_id, range % 7 AS customer_id, 20.0 + range AS amount "
          + "FROM range(12)) TO '" + lake.resolve("shop/sales/year=2024/part-0.parquet") + "' (FORMAT parquet)");
    }
    Files.writeString(lake.resolve("shop/_SUCCESS"), "");
    Files.writeString(lake.resolve("Country Profiles.csv"),
        "country;capital;founded\nEcuador;Quito;1830-05-13\n\"Côte d'Ivoire\";Yamoussoukro;1960-08-07\n");
    Files.writeString(lake.resolve("towns.tsv"), "town\tpopulation\nWhangārei\t52900\nNapier\t66300\n");
    Files.writeString(lake.resolve("orders.json"),
        "[{\"order_id\": 1, \"customer_id\": 3, \"items\": [\"pen\", \"ink\"]},"
            + " {\"order_id\": 2, \"customer_id\": 5, \"items\": []}]");
    Files.writeString(lake.resolve("events.ndjson"),
        "{\"event\": \"login\", \"user\": {\"id\": 1}}\n{\"event\": \"logout\", \"user\": {\"id\": 1}}\n"
            + "{\"event\": \"login\", \"user\": {\"id\": 2}}\n");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(lake.resolve("rates.csv.gz")))) {
      out.write("currency,rate\nEUR,1.08\nNZD,0.61\nCHF,1.12\n".getBytes(StandardCharsets.UTF_8));
    }
    Files.writeString(lake.resolve(".hidden.csv"), "x\n1\n");
    Files.writeString(lake.resolve("notes.txt"), "not a table");
    return lake;
  }

  private static Map<String, Long> rowCounts(DataLake lake) {
    Map<String, Long> out = new TreeMap<>();
    lake.catalog().tables().forEach(t -> out.put(t.name(), t.rowCount()));
    return out;
  }

  private static Object single(DataLake lake, String sql) {
    try (LakeSession s = lake.openSession()) {
      Execution e = s.execute(sql);
      assertThat(e.isSuccess()).as(sql + " → " + e).isTrue();
      return e.table().get(0, 0);
    }
  }

  @Test
  void readsEveryFormatInPlaceWithOneTablePerFileAndPerPartitionedFolder(@TempDir Path tmp) throws Exception {
    Path folder = mixedLake(tmp);
    try (DataLake lake = DataLake.builder().cacheDirectory(tmp.resolve("cache")).fromFolder(folder)) {
      assertThat(lake.storage()).isEqualTo(DataLake.Storage.IN_PLACE);
      assertThat(rowCounts(lake)).containsExactlyEntriesOf(new TreeMap<>(Map.of(
          "country_profiles", 2L, "customers", 100L, "events", 3L, "orders", 2L, "rates", 3L, "sales", 42L,
          "towns", 2L)));
      CatalogTable sales = lake.catalog().requireTable("sales");
      assertThat(sales.columnNames()).containsExactly("sale_id", "customer_id", "amount", "year");
      assertThat(sales.source()).hasValue(folder.resolve("shop/sales"));
      CatalogTable countries = lake.catalog().requireTable("country_profiles");
      assertThat(countries.column("founded").orElseThrow().type()).isEqualTo("DATE");
      assertThat(lake.catalog().requireTable("towns").column("population").orElseThrow().type()).isEqualTo("BIGINT");
      assertThat(lake.catalog().requireTable("orders").column("items").orElseThrow().type()).isEqualTo("VARCHAR[]");

      assertThat(single(lake, "SELECT capital FROM country_profiles WHERE country = 'Côte d''Ivoire'"))
          .isEqualTo("Yamoussoukro");
      assertThat(single(lake, "SELECT sum(amount)::DOUBLE FROM sales WHERE year = 2024")).isEqualTo(306.0);
      assertThat(single(lake, "SELECT count(*) FROM sales s JOIN customers c USING (customer_id)")).isEqualTo(42L);
      assertThat(single(lake, "SELECT rate FROM rates WHERE currency = 'NZD'")).isEqualTo(0.61);
      assertThat(single(lake, "SELECT count(*) FROM events WHERE \"user\".id = 1")).isEqualTo(2L);

      // Views over the files: the lake file holds no data, and nothing was copied beside it.
      assertThat(Files.size(lake.databaseFile())).isLessThan(2L << 20);
      assertThat(lake.changes()).hasSize(7).allMatch(c -> c.kind() == IndexStatus.TableChange.Kind.ADDED);
      assertThat(lake.warnings()).isEmpty();
    }
  }

  @Test
  void aCopiedLakeAnswersLikeTheLakeQueriedInPlace(@TempDir Path tmp) throws Exception {
    Path folder = mixedLake(tmp);
    String[] queries = {
        "SELECT year, count(*), sum(amount) FROM sales GROUP BY year ORDER BY year",
        "SELECT * FROM country_profiles ORDER BY country",
        "SELECT order_id, len(items) FROM orders ORDER BY order_id",
        "SELECT name, balance FROM customers WHERE customer_id IN (3, 97) ORDER BY 1"};
    try (DataLake inPlace = DataLake.builder().cacheDirectory(tmp.resolve("a")).fromFolder(folder);
        DataLake copied = DataLake.builder().cacheDirectory(tmp.resolve("b")).storage(DataLake.Storage.COPY)
            .fromFolder(folder);
        LakeSession s1 = inPlace.openSession();
        LakeSession s2 = copied.openSession()) {
      assertThat(copied.storage()).isEqualTo(DataLake.Storage.COPY);
      assertThat(copied.catalog().tables()).isEqualTo(inPlace.catalog().tables());
      for (String q : queries) {
        assertThat(s2.execute(q).table().rows()).as(q).isEqualTo(s1.execute(q).table().rows());
      }
      assertThat(Files.size(copied.databaseFile())).isGreaterThan(Files.size(inPlace.databaseFile()));
    }
  }

  @Test
  void aChangedFileReloadsOnlyItsTableAndSaysWhy(@TempDir Path tmp) throws Exception {
    Path folder = mixedLake(tmp);
    Path cache = tmp.resolve("cache");
    for (DataLake.Storage storage : DataLake.Storage.values()) {
      Path c = cache.resolve(storage.name());
      try (DataLake first = DataLake.builder().cacheDirectory(c).storage(storage).fromFolder(folder)) {
        assertThat(first.changes()).hasSize(7);
      }
      try (DataLake again = DataLake.builder().cacheDirectory(c).storage(storage).fromFolder(folder)) {
        assertThat(again.changes()).as("unchanged folder").isEmpty();
      }
    }
    Path towns = folder.resolve("towns.tsv");
    Files.writeString(towns, "town\tpopulation\nWhangārei\t52900\nNapier\t66300\nNelson\t55000\n");
    Files.setLastModifiedTime(towns, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
    Files.delete(folder.resolve("orders.json"));
    try (OutputStream out = Files.newOutputStream(folder.resolve("shop/sales/year=2024/part-1.csv"))) {
      out.write("sale_id,customer_id,amount\n99,1,5.0\n".getBytes(StandardCharsets.UTF_8));
    }
    for (DataLake.Storage storage : DataLake.Storage.values()) {
      try (DataLake changed = DataLake.builder().cacheDirectory(cache.resolve(storage.name())).storage(storage)
          .fromFolder(folder)) {
        Map<String, String> why = new TreeMap<>();
        changed.changes().forEach(ch -> why.put(ch.table(), ch.kind() + ": " + ch.reason()));
        assertThat(why).containsOnlyKeys("towns", "orders");
        assertThat(why.get("towns")).startsWith("CHANGED: towns.tsv changed (size");
        assertThat(why.get("orders")).isEqualTo("REMOVED: orders.json is gone");
        // The partitioned table reads one format: the stray CSV file is left out and said so.
        assertThat(changed.warnings()).anySatisfy(w -> assertThat(w).contains("part-1.csv").contains("left out"));
        assertThat(changed.catalog().requireTable("towns").rowCount()).isEqualTo(3);
        assertThat(changed.catalog().table("orders")).isEmpty();
        assertThat(single(changed, "SELECT max(population) FROM towns")).isEqualTo(66300L);
      }
    }
  }

  @Test
  void lettersTheSnifferTakesForBooleansStayTheLettersTheFileHolds(@TempDir Path tmp) throws Exception {
    Path lake = Files.createDirectories(tmp.resolve("lake"));
    // Orders of one status only: DuckDB's sniffer reads a column of 'F' as BOOLEAN, and would answer false.
    Files.writeString(lake.resolve("orders_1994.csv"), "orderkey,status,paid\n1,F,true\n2,F,false\n3,F,TRUE\n");
    for (DataLake.Storage storage : DataLake.Storage.values()) {
      try (DataLake l = DataLake.builder().cacheDirectory(tmp.resolve(storage.name())).storage(storage)
          .fromFolder(lake); LakeSession s = l.openSession()) {
        ResultTable t = s.execute("SELECT status, paid FROM orders_1994 ORDER BY orderkey").table();
        assertThat(t.columnValues(0)).as(storage.name()).containsExactly("F", "F", "F");
        assertThat(l.catalog().table("orders_1994").orElseThrow().column("paid").orElseThrow().type())
            .as("a column spelled true and false is still a boolean").isEqualTo("BOOLEAN");
      }
    }
  }

  @Test
  void clashingNamesGetTheFolderAsPrefixThenANumber(@TempDir Path tmp) throws Exception {
    Path lake = Files.createDirectories(tmp.resolve("lake"));
    Files.createDirectories(lake.resolve("north"));
    Files.createDirectories(lake.resolve("south"));
    Files.writeString(lake.resolve("north/people.csv"), "name\nAroha\n");
    Files.writeString(lake.resolve("south/people.json"), "[{\"name\": \"Tane\"}]");
    Files.writeString(lake.resolve("south/Sales-2024.csv"), "a\n1\n");
    Files.writeString(lake.resolve("south/sales_2024.ndjson"), "{\"a\": 2}\n");
    try (DataLake l = DataLake.builder().cacheDirectory(tmp.resolve("cache")).fromFolder(lake)) {
      assertThat(l.catalog().tableNames())
          .containsExactlyInAnyOrder("north_people", "south_people", "south_sales_2024", "south_sales_2024_2");
    }
  }

  @Test
  void linksOutOfTheLakeAreLeftOutWithAWarning(@TempDir Path tmp) throws Exception {
    Path lake = Files.createDirectories(tmp.resolve("lake"));
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(outside.resolve("secret.csv"), "password\nhunter2\n");
    Files.writeString(lake.resolve("open.csv"), "a\n1\n");
    Files.createSymbolicLink(lake.resolve("secret.csv"), outside.resolve("secret.csv"));
    Files.createSymbolicLink(lake.resolve("elsewhere"), outside);
    Files.createSymbolicLink(lake.resolve("alias.csv"), lake.resolve("open.csv"));
    try (DataLake l = DataLake.builder().cacheDirectory(tmp.resolve("cache")).fromFolder(lake)) {
      assertThat(l.catalog().tableNames()).containsExactlyInAnyOrder("open", "alias");
      assertThat(l.warnings()).singleElement().asString().contains("secret.csv").contains("outside the lake folder");
    }
  }

  @Test
  void unreadableFilesAreNamedAndSkippedOnlyWhenAsked(@TempDir Path tmp) throws Exception {
    Path lake = Files.createDirectories(tmp.resolve("lake"));
    Files.writeString(lake.resolve("good.ndjson"), "{\"a\": 1}\n");
    Files.writeString(lake.resolve("broken.json"), "{\"a\": 1, \"b\": [1, 2");
    Files.write(lake.resolve("broken.parquet"), "PAR1 but not really".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> DataLake.builder().cacheDirectory(tmp.resolve("c1")).fromFolder(lake))
        .isInstanceOf(LakeLoadException.class)
        .hasMessageContaining("2 of 3 files could not be read")
        .hasMessageContaining("broken.json").hasMessageContaining("broken.parquet")
        .hasMessageContaining("skipUnreadableFiles(true)");
    try (DataLake l = DataLake.builder().cacheDirectory(tmp.resolve("c2")).skipUnreadableFiles(true)
        .fromFolder(lake)) {
      assertThat(l.catalog().tableNames()).containsExactly("good");
      assertThat(l.warnings()).singleElement().asString().contains("broken.json").contains("broken.parquet");
    }
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    Files.writeString(empty.resolve("readme.md"), "# nothing here");
    assertThatThrownBy(() -> DataLake.builder().cacheDirectory(tmp.resolve("c3")).fromFolder(empty))
        .isInstanceOf(LakeLoadException.class).hasMessageContaining("empty lake").hasMessageContaining(".parquet");
  }

  @Test
  void theSampleQueriedInPlaceHasTheNamesAndRowsOfTheCopiedSample() {
    List<CatalogTable> inPlace = TestLakes.sampleInPlace().catalog().tables();
    List<CatalogTable> copied = TestLakes.sample().catalog().tables();
    assertThat(inPlace).hasSize(29);
    for (int i = 0; i < inPlace.size(); i++) {
      CatalogTable a = inPlace.get(i);
      CatalogTable b = copied.get(i);
      assertThat(a.name()).isEqualTo(b.name());
      assertThat(a.columns()).as(a.name()).isEqualTo(b.columns());
      assertThat(a.rowCount()).as(a.name()).isEqualTo(b.rowCount());
    }
  }
}
