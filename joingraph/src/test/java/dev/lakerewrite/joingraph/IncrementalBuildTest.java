package dev.lakerewrite.joingraph;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, incremental refresh: with table fingerprints, a rebuild reads only the tables whose fingerprint changed
 * (the others' sketches are kept beside the graph), and the graph equals a full build of the changed lake.
 */
class IncrementalBuildTest {

  /** Customers, orders referencing them, products; {@code ordersOf} picks the customer ids orders use. */
  private static Map<String, Map<String, List<String>>> lake(int customers, int ordersOf) {
    Map<String, Map<String, List<String>>> tables = new LinkedHashMap<>();
    List<String> ids = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < customers; i++) {
      ids.add("C" + (1000 + i));
      names.add("customer " + i);
    }
    tables.put("customers", Map.of("customer_id", ids, "name", names));
    List<String> orderIds = new ArrayList<>();
    List<String> buyers = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      orderIds.add("O" + i);
      buyers.add("C" + (ordersOf + i % 20));
    }
    Map<String, List<String>> orders = new LinkedHashMap<>();
    orders.put("order_id", orderIds);
    orders.put("customer_id", buyers);
    tables.put("orders", orders);
    List<String> skus = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      skus.add("SKU-" + i);
    }
    tables.put("products", Map.of("sku", skus));
    return tables;
  }

  private static JoinGraph build(Path cache, ColumnSource source, Map<String, String> fingerprints) {
    return JoinGraph.builder().columnSource(source).embedder(TestEmbedders.miniLm()).cacheDirectory(cache)
        .lakeFingerprint("lake-" + fingerprints.hashCode()).tableFingerprints(fingerprints).build();
  }

  @Test
  void aChangedTableIsReadAgainAndTheGraphEqualsAFullBuild(@TempDir Path dir) throws Exception {
    Map<String, String> v1 = new HashMap<>(Map.of("customers", "c1", "orders", "o1", "products", "p1"));
    CountingSource first = new CountingSource(ColumnSource.inMemory(lake(40, 1000)));
    JoinGraph before = build(dir.resolve("cache"), first, v1);
    assertThat(first.tablesRead.get()).isEqualTo(3);
    assertThat(before.readTables()).containsExactly("customers", "orders", "products");
    assertThat(before.joinability("customers", "orders")).isPositive();
    try (Stream<Path> sketches = Files.list(dir.resolve("cache").resolve(JoinGraph.SKETCHES_DIRECTORY))) {
      assertThat(sketches.filter(p -> p.toString().endsWith(".sketch")).count()).isEqualTo(3);
    }

    // Orders now reference customers the lake does not have: the edge must go, and only orders is read.
    Map<String, String> v2 = new HashMap<>(v1);
    v2.put("orders", "o2");
    CountingSource second = new CountingSource(ColumnSource.inMemory(lake(40, 5000)));
    JoinGraph after = build(dir.resolve("cache"), second, v2);
    assertThat(second.tablesRead.get()).as("only the changed table is read").isEqualTo(1);
    assertThat(after.readTables()).containsExactly("orders");
    assertThat(after.joinability("customers", "orders")).isZero();

    JoinGraph full = build(dir.resolve("fresh"), ColumnSource.inMemory(lake(40, 5000)), v2);
    assertThat(after.tables()).isEqualTo(full.tables());
    assertThat(after.edges()).isEqualTo(full.edges());

    // A product table gains SKUs orders reference: only pairs with a column of products are searched; the edge
    // between customers and orders (both unchanged) is kept, and the result still equals a full build.
    Map<String, Map<String, List<String>>> v3lake = lake(40, 1000);
    v3lake.put("products", Map.of("sku", java.util.stream.IntStream.range(0, 60).mapToObj(i -> "O" + i).toList()));
    Map<String, String> v3 = new HashMap<>(Map.of("customers", "c1", "orders", "o1", "products", "p3"));
    JoinGraph base = build(dir.resolve("third"), ColumnSource.inMemory(lake(40, 1000)), v1);
    JoinGraph refreshed = build(dir.resolve("third"), ColumnSource.inMemory(v3lake), v3);
    JoinGraph fresh = build(dir.resolve("fourth"), ColumnSource.inMemory(v3lake), v3);
    assertThat(refreshed.readTables()).containsExactly("products");
    assertThat(refreshed.edges()).isEqualTo(fresh.edges());
    assertThat(refreshed.joinability("orders", "products")).isPositive();
    assertThat(refreshed.joinability("customers", "orders")).isEqualTo(base.joinability("customers", "orders"));
    assertThat(refreshed.buildStats().pairsScored()).as("only pairs with a products column are scored")
        .isLessThan(fresh.buildStats().pairsScored());
    try (Stream<Path> sketches = Files.list(dir.resolve("cache").resolve(JoinGraph.SKETCHES_DIRECTORY))) {
      assertThat(sketches.filter(p -> p.toString().endsWith(".sketch")).count())
          .as("the old orders sketch is removed").isEqualTo(3);
    }

    // Unchanged fingerprints: the graph file is current and nothing is read.
    CountingSource third = new CountingSource(ColumnSource.inMemory(lake(40, 5000)));
    JoinGraph loaded = build(dir.resolve("cache"), third, v2);
    assertThat(third.tablesRead.get()).isZero();
    assertThat(loaded.readTables()).isEmpty();
    assertThat(loaded.edges()).isEqualTo(after.edges());
  }

  /**
   * On a lake of many tables, a refresh where a few tables changed probes only their key-like columns from the
   * unchanged ones (walking the small index instead of every value); its edges equal a full build's, in both
   * index searches.
   */
  @Test
  void aRefreshOfAFewTablesOfALargeLakeEqualsAFullBuild(@TempDir Path dir) {
    refreshEqualsFullBuild(JoinGraphConfig.CandidateSearch.INVERTED_INDEX, dir.resolve("index"));
    refreshEqualsFullBuild(JoinGraphConfig.CandidateSearch.SKETCH, dir.resolve("sketch"));
  }

  private static void refreshEqualsFullBuild(JoinGraphConfig.CandidateSearch search, Path dir) {
    SyntheticLake lake = new SyntheticLake(60, 12, 11);
    JoinGraphConfig config = JoinGraphConfig.defaults().toBuilder().candidateSearch(search).build();
    Map<String, String> before = new LinkedHashMap<>();
    lake.tables().forEach(t -> before.put(t.name(), "v1"));
    JoinGraph.builder().columnSource(lake).embedder(TestEmbedders.miniLm()).config(config)
        .cacheDirectory(dir.resolve("cache")).lakeFingerprint("v1").tableFingerprints(before).build();
    Map<String, String> after = new LinkedHashMap<>(before);
    // The two smallest tables change: their key-like columns hold fewer values than many columns that probe them.
    List<String> changed = lake.plans().stream().sorted(java.util.Comparator.comparingInt(SyntheticLake.TablePlan::rows))
        .limit(2).map(SyntheticLake.TablePlan::name).toList();
    changed.forEach(t -> after.put(t, "v2"));
    JoinGraph refreshed = JoinGraph.builder().columnSource(lake).embedder(TestEmbedders.miniLm()).config(config)
        .cacheDirectory(dir.resolve("cache")).lakeFingerprint("v2").tableFingerprints(after).build();
    JoinGraph full = JoinGraph.builder().columnSource(lake).embedder(TestEmbedders.miniLm()).config(config)
        .cacheDirectory(dir.resolve("full")).lakeFingerprint("v2").tableFingerprints(after).build();
    assertThat(refreshed.readTables()).containsExactlyInAnyOrderElementsOf(changed);
    assertThat(full.edges()).isNotEmpty();
    assertThat(refreshed.edges()).isEqualTo(full.edges());
    assertThat(refreshed.buildStats().pairsScored()).isLessThan(full.buildStats().pairsScored());
  }

  /**
   * Values that more key-like columns hold than {@code maxPostings} are stop values, skipped by a full build. A
   * refresh probes a smaller index (the changed tables' key columns only), where such a value looks rare: it must
   * still be skipped, or the refresh finds edges a full build does not (the 2,000-table benchmark lake refreshed to
   * 2,114 edges where full builds found 1,924).
   */
  @Test
  void aRefreshSkipsTheStopValuesAFullBuildSkips(@TempDir Path dir) {
    Map<String, Map<String, List<String>>> tables = new LinkedHashMap<>();
    for (int t = 0; t < 5; t++) {
      List<String> ids = new ArrayList<>();
      List<String> labels = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        ids.add("K" + i);
        labels.add("table " + t + " row " + i);
      }
      tables.put("t" + t, Map.of("id", ids, "label", labels));
    }
    JoinGraphConfig config = JoinGraphConfig.defaults().toBuilder()
        .candidateSearch(JoinGraphConfig.CandidateSearch.SKETCH).maxPostings(3).build();
    Map<String, String> before = new LinkedHashMap<>();
    tables.keySet().forEach(t -> before.put(t, "v1"));
    JoinGraph.builder().columnSource(ColumnSource.inMemory(tables)).embedder(TestEmbedders.miniLm()).config(config)
        .cacheDirectory(dir.resolve("cache")).lakeFingerprint("v1").tableFingerprints(before).build();
    Map<String, String> after = new LinkedHashMap<>(before);
    after.put("t4", "v2");
    JoinGraph refreshed = JoinGraph.builder().columnSource(ColumnSource.inMemory(tables))
        .embedder(TestEmbedders.miniLm()).config(config).cacheDirectory(dir.resolve("cache")).lakeFingerprint("v2")
        .tableFingerprints(after).build();
    JoinGraph full = JoinGraph.builder().columnSource(ColumnSource.inMemory(tables)).embedder(TestEmbedders.miniLm())
        .config(config).cacheDirectory(dir.resolve("full")).lakeFingerprint("v2").tableFingerprints(after).build();
    assertThat(refreshed.readTables()).containsExactly("t4");
    assertThat(refreshed.edges()).isEqualTo(full.edges());
  }

  @Test
  void aDamagedSketchFileOnlyCostsReadingItsTableAgain(@TempDir Path dir) throws Exception {
    Map<String, String> v1 = Map.of("customers", "c1", "orders", "o1", "products", "p1");
    JoinGraph built = build(dir, ColumnSource.inMemory(lake(40, 1000)), v1);
    try (Stream<Path> sketches = Files.list(dir.resolve(JoinGraph.SKETCHES_DIRECTORY))) {
      for (Path p : sketches.toList()) {
        Files.write(p, new byte[] {1, 2, 3});
      }
    }
    Files.delete(dir.resolve(JoinGraph.FILE_NAME));
    CountingSource again = new CountingSource(ColumnSource.inMemory(lake(40, 1000)));
    JoinGraph rebuilt = build(dir, again, v1);
    assertThat(again.tablesRead.get()).isEqualTo(3);
    assertThat(rebuilt.edges()).isEqualTo(built.edges());
  }
}
