package dev.lakerewrite.retrieval;

import dev.lakerewrite.testing.SampleLake;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LakeIndexTest {
  /** One embedding cache for all indexes built here, so each build only pays for SQL and Lucene. */
  static CachingEmbedder embedder;

  @BeforeAll
  static void embedder() throws Exception {
    embedder = CachingEmbedder.open(MiniLmEmbedder.shared(), SampleIndex.cacheDirectory().resolve("embeddings"));
  }

  @AfterAll
  static void close() {
    embedder.close();
  }

  static Path freshDirectory() throws Exception {
    return Files.createTempDirectory(SampleIndex.tmp(), "index-test");
  }

  @Test
  void readsTheCatalogAsCoreNamesTheTables() throws Exception {
    LakeIndex index = SampleIndex.index();
    assertThat(index.tables()).hasSize(29);
    assertThat(index.tables()).extracting(LakeTable::name)
        .containsAll(SampleLake.tableNames())
        .contains("region_of_new_zealand_category_of_associated_people",
            "computer_animated_film_category_of_associated_people", "1992_winter_olympics");
    LakeTable region = index.table("region_of_new_zealand");
    assertThat(region.schema()).isEqualTo("main");
    assertThat(region.rowCount()).isEqualTo(16);
    assertThat(region.columns()).hasSize(30);
    assertThat(region.columnNames()).startsWith("label", "description").contains("topic's main category",
        "FIPS 10-4 (countries and regions)");
    assertThat(region.column("label").orElseThrow().family()).isEqualTo(TypeFamily.STRING);
    assertThat(region.column("population").orElseThrow().family()).isEqualTo(TypeFamily.NUMERIC);
    assertThat(region.column("label").orElseThrow().distinctValues()).isEqualTo(16);
    assertThat(region.sqlName()).isEqualTo("\"main\".\"region_of_new_zealand\"");
    assertThat(region.snippet()).startsWith("region of new zealand label description locator map image");
    assertThat(index.hasTable("regions")).isFalse();
    assertThatThrownBy(() -> index.table("region_of_newzealand"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("did you mean 'region_of_new_zealand'");
  }

  @Test
  void loadsTheStoredIndexAndRebuildsWhenTheLakeChanges() throws Exception {
    Path dir = freshDirectory();
    List<TableMatch> first;
    Path firstDirectory;
    try (Connection c = SampleIndex.duplicate()) {
      try (LakeIndex built = LakeIndex.builder().connection(c).cacheDirectory(dir).embedder(embedder).build()) {
        assertThat(built.wasBuilt()).isTrue();
        first = built.searchTable("countries", List.of("gini"), 3);
        firstDirectory = built.directory();
      }
      try (LakeIndex loaded = LakeIndex.builder().connection(c).cacheDirectory(dir).embedder(embedder).build()) {
        assertThat(loaded.wasBuilt()).isFalse();
        assertThat(loaded.directory()).isEqualTo(firstDirectory);
        assertThat(loaded.searchTable("countries", List.of("gini"), 3)).isEqualTo(first);
        assertThat(loaded.searchValue("capital", "Whangarei", 1).get(0).value()).isEqualTo("Whangarei");
      }
      try (LakeIndex changed = LakeIndex.builder().connection(c).cacheDirectory(dir).embedder(embedder)
          .fingerprint("lake files changed at 12:00").build()) {
        assertThat(changed.wasBuilt()).isTrue();
        assertThat(changed.fingerprint()).isEqualTo("lake files changed at 12:00");
        assertThat(changed.directory()).isNotEqualTo(firstDirectory);
      }
    }
    assertThat(firstDirectory).doesNotExist();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("lake-index-"))).hasSize(1);
    }
  }

  @Test
  void concurrentBuildersOfOneDirectoryBuildOnce() throws Exception {
    Path dir = freshDirectory();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<Boolean>> futures = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        Callable<Boolean> build = () -> {
          try (Connection c = SampleIndex.duplicate();
              LakeIndex index = LakeIndex.builder().connection(c).cacheDirectory(dir).embedder(embedder).build()) {
            assertThat(index.tables()).hasSize(29);
            return index.wasBuilt();
          }
        };
        futures.add(pool.submit(build));
      }
      int built = 0;
      for (Future<Boolean> f : futures) {
        built += f.get() ? 1 : 0;
      }
      assertThat(built).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void capsTheDistinctValuesPerColumn() throws Exception {
    try (Connection c = SampleIndex.duplicate();
        LakeIndex capped = LakeIndex.builder().connection(c).cacheDirectory(freshDirectory()).embedder(embedder)
            .maxDistinctValuesPerColumn(3).maxRowsScannedPerTable(10).tableScoring(TableScoring.EMBEDDING)
            .build()) {
      LakeColumn label = capped.table("computer_animated_film").column("label").orElseThrow();
      assertThat(label.distinctValues()).isEqualTo(3);
      assertThat(label.distinctCapped()).isTrue();
      assertThat(capped.searchValue("computer_animated_film", "anything", 50))
          .hasSizeLessThanOrEqualTo(3 * capped.table("computer_animated_film").columns().size());
      assertThat(capped.scoring()).isEqualTo(TableScoring.EMBEDDING);
    }
  }

  /**
   * Issue 15: a numeric column with more distinct values than the cap (identifiers, amounts) indexes only its
   * repeated values; a string column keeps the cap's worth, and a small numeric column all of its values.
   */
  @Test
  void aLargeNumericColumnIndexesOnlyItsRepeatedValues() throws Exception {
    try (Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
        java.sql.Statement st = c.createStatement()) {
      st.execute("CREATE TABLE orders AS SELECT range AS order_id, range % 40 + (CASE WHEN range < 20 THEN 0.5"
          + " ELSE 0 END) AS amount, 'customer ' || range AS buyer, range % 7 AS weekday FROM range(500)");
      try (LakeIndex index = LakeIndex.builder().connection(c).cacheDirectory(freshDirectory()).embedder(embedder)
          .maxDistinctValuesPerColumn(50).build()) {
        LakeTable orders = index.table("orders");
        assertThat(orders.column("order_id").orElseThrow().distinctValues()).isZero();
        assertThat(orders.column("order_id").orElseThrow().distinctCapped()).isTrue();
        LakeColumn amount = orders.column("amount").orElseThrow();
        assertThat(amount.distinctValues()).as("the 40 repeated amounts, not the 20 single ones").isEqualTo(40);
        assertThat(orders.column("buyer").orElseThrow().distinctValues()).isEqualTo(50);
        assertThat(orders.column("weekday").orElseThrow().distinctValues()).isEqualTo(7);
      }
    }
  }

  @Test
  void builderChecksItsArguments() {
    assertThatThrownBy(() -> LakeIndex.builder().cacheDirectory(Path.of("x")).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("connection");
    assertThatThrownBy(() -> LakeIndex.builder().maxDistinctValuesPerColumn(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxDistinctValuesPerColumn");
    assertThatThrownBy(() -> LakeIndex.builder().fingerprint(" ")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aClosedConnectionIsAClearError() throws Exception {
    Connection c = SampleIndex.duplicate();
    c.close();
    assertThatThrownBy(() -> LakeIndex.builder().connection(c).cacheDirectory(freshDirectory()).embedder(embedder)
        .build()).isInstanceOf(RetrievalException.class).hasMessageContaining("catalog");
  }
}
