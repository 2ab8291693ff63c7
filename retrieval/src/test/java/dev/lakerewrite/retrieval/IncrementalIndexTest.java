package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, incremental refresh: with table fingerprints, a rebuild reads only the tables whose fingerprint changed
 * and links the Lucene documents of the others; every search answers as it does on a full build of the new lake.
 */
class IncrementalIndexTest {
  private static final Embedder EMBEDDER = CachingEmbedder.open(MiniLmEmbedder.shared(),
      Path.of("target", "embedding-cache"));

  private static void lake(Connection c, String towns) throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE OR REPLACE TABLE towns AS SELECT * FROM (VALUES " + towns + ") t(town, region, population)");
      st.execute("CREATE OR REPLACE TABLE regions AS SELECT * FROM (VALUES ('Northland', 'Whangārei'),"
          + " ('Hawke''s Bay', 'Napier'), ('Nelson', 'Nelson')) t(region, seat)");
      st.execute("CREATE OR REPLACE TABLE rivers AS SELECT * FROM (VALUES ('Waikato', 425), ('Clutha', 338),"
          + " ('Whanganui', 290)) t(river, length_km)");
    }
  }

  private static LakeIndex build(Connection c, Path cache, Map<String, String> fingerprints) {
    return LakeIndex.builder().connection(c).cacheDirectory(cache).embedder(EMBEDDER)
        .fingerprint("lake " + new java.util.TreeMap<>(fingerprints)).tableFingerprints(fingerprints).build();
  }

  private static List<Object> answers(LakeIndex index) {
    List<Object> out = new ArrayList<>();
    out.add(index.tables());
    out.add(index.searchTable("places", List.of("town", "population"), 3));
    out.add(index.searchValue("towns", "Whangarei", 3));
    out.add(index.searchValue("towns", "Gisborne", 3));
    out.add(index.searchValueInLake("Napier", 5));
    out.add(index.searchValueInLake("Tairāwhiti", 5));
    out.add(index.unionSearch("towns", 2));
    out.add(index.queryRelevance(List.of(new QueryTable("cities", List.of("name", "inhabitants")))).ranking());
    return out;
  }

  @Test
  void aChangedTableIsReadAgainAndSearchesAnswerAsOnAFullBuild(@TempDir Path dir) throws Exception {
    String before = "('Whangārei', 'Northland', 52900), ('Napier', 'Hawke''s Bay', 66300)";
    String after = before + ", ('Gisborne', 'Tairāwhiti', 37700)";
    Map<String, String> v1 = new HashMap<>(Map.of("towns", "t1", "regions", "r1", "rivers", "v1"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("lake.duckdb"))) {
      lake(c, before);
      try (LakeIndex first = build(c, dir.resolve("cache"), v1)) {
        assertThat(first.rebuiltTables()).containsExactlyInAnyOrder("towns", "regions", "rivers");
        assertThat(first.searchValueInLake("Tairāwhiti", 5)).isEmpty();
      }
      lake(c, after);
      Map<String, String> v2 = new HashMap<>(v1);
      v2.put("towns", "t2");
      try (LakeIndex refreshed = build(c, dir.resolve("cache"), v2);
          LakeIndex full = build(c, dir.resolve("fresh"), v2)) {
        assertThat(refreshed.wasBuilt()).isTrue();
        assertThat(refreshed.rebuiltTables()).containsExactly("towns");
        assertThat(full.rebuiltTables()).hasSize(3);
        assertThat(refreshed.searchValueInLake("Tairāwhiti", 5)).extracting(ValueMatch::table).contains("towns");
        assertThat(answers(refreshed)).isEqualTo(answers(full));
      }
      try (LakeIndex loaded = build(c, dir.resolve("cache"), v2)) {
        assertThat(loaded.wasBuilt()).isFalse();
        assertThat(loaded.rebuiltTables()).isEmpty();
      }
    }
    try (var indexes = Files.list(dir.resolve("cache"))) {
      assertThat(indexes.filter(p -> p.getFileName().toString().startsWith("lake-index-")).count())
          .as("the previous index is removed").isEqualTo(1);
    }
  }

  @Test
  void tablesSuppliedByTheCallerIndexLikeTablesTheIndexReads(@TempDir Path dir) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("lake.duckdb"))) {
      lake(c, "('Whangārei', 'Northland', 52900), ('Napier', 'Hawke''s Bay', 66300), ('Napier', '  ', NULL)");
      Map<String, String> fps = Map.of("towns", "t", "regions", "r", "rivers", "v");
      LakeIndex supplied;
      try (LakeIndex.Build build = LakeIndex.builder().connection(c).cacheDirectory(dir.resolve("a"))
          .embedder(EMBEDDER).fingerprint("lake").tableFingerprints(fps).start()) {
        assertThat(build.tablesToRead()).containsExactlyInAnyOrder("towns", "regions", "rivers");
        // The caller's scan of towns: every column's values, most frequent first; blanks are the index's to drop.
        build.add("towns", 3, List.of(
            new LakeIndex.ValueCounts("town", List.of("Napier", "Whangārei"), new long[] {2, 1}, true),
            new LakeIndex.ValueCounts("region", List.of("  ", "Hawke's Bay", "Northland"), new long[] {1, 1, 1}, true),
            new LakeIndex.ValueCounts("population", List.of("52900", "66300"), new long[] {1, 1}, true)));
        build.add("not a table", 1, List.of());
        supplied = build.finish();
      }
      try (LakeIndex read = LakeIndex.builder().connection(c).cacheDirectory(dir.resolve("b")).embedder(EMBEDDER)
          .fingerprint("lake").tableFingerprints(fps).build()) {
        assertThat(supplied.rebuiltTables()).containsExactlyInAnyOrder("towns", "regions", "rivers");
        assertThat(answers(supplied)).isEqualTo(answers(read));
      } finally {
        supplied.close();
      }
    }
  }

  @Test
  void valuesAreEmbeddedAheadSmallestColumnsFirstWithinTheBudget(@TempDir Path dir) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + dir.resolve("lake.duckdb"))) {
      lake(c, "('Whangārei', 'Northland', 52900), ('Napier', 'Hawke''s Bay', 66300)");
      CachingEmbedder fresh = CachingEmbedder.open(new CountingEmbedder(EMBEDDER), dir.resolve("vectors"));
      try (LakeIndex index = LakeIndex.builder().connection(c).cacheDirectory(dir.resolve("cache")).embedder(fresh)
          .build()) {
        List<LakeIndex.Progress> seen = new ArrayList<>();
        LakeIndex.ValueEmbedding some = index.embedValues(5, seen::add);
        // The two columns of two values fit a budget of five; the three columns of three wait for a first search.
        assertThat(some.embedded() + some.cached()).isEqualTo(4);
        assertThat(some.deferred()).isEqualTo(9);
        assertThat(seen).isNotEmpty().last().satisfies(p -> assertThat(p.done()).isEqualTo(p.total()));
        LakeIndex.ValueEmbedding all = index.embedValues(Long.MAX_VALUE, p -> {});
        assertThat(all.deferred()).isZero();
        // Eight distinct values in 13 cells of five columns: the four embedded before come from the cache, and a
        // value in two columns (Nelson, Whangārei, Napier) counts once.
        assertThat(all.cached()).isEqualTo(4);
        assertThat(all.embedded()).isEqualTo(4);
        assertThat(fresh.contains("Hawke's Bay")).isTrue();
        assertThat(fresh.contains("Whanganui")).isTrue();
      } finally {
        fresh.close();
      }
    }
  }

  /** Passes through; exists so the cache under test starts empty but the model is shared. */
  private record CountingEmbedder(Embedder delegate) implements Embedder {
    @Override
    public String modelId() {
      return delegate.modelId();
    }

    @Override
    public int dimension() {
      return delegate.dimension();
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      return delegate.embedAll(texts);
    }
  }
}
