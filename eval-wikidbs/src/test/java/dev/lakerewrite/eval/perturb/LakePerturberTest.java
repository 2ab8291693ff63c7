package dev.lakerewrite.eval.perturb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.eval.DifficultyTag;
import dev.lakerewrite.eval.LakeQueryRunner;
import dev.lakerewrite.eval.Lakes;
import dev.lakerewrite.eval.LoadedPairs;
import dev.lakerewrite.eval.PairLoader;
import dev.lakerewrite.eval.PlainTable;
import dev.lakerewrite.eval.QueryResultPair;
import dev.lakerewrite.eval.ResultMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LakePerturberTest {

  @TempDir
  static Path dir;
  static Path source;
  static PerturbedLake[] lakes = new PerturbedLake[4];

  @BeforeAll
  static void perturbFourSeeds() throws Exception {
    source = ShopDatabase.create(dir.resolve("shop.duckdb"));
    for (int seed = 1; seed <= 4; seed++) {
      lakes[seed - 1] = LakePerturber.builder().seed(seed).cacheDirectory(dir.resolve("cache"))
          .format(seed <= 2 ? LakePerturber.Format.MIXED : LakePerturber.Format.CSV).build()
          .perturb(source, ShopDatabase.queries(), dir.resolve("lake-" + seed));
    }
  }

  @Test
  void everyQueryBecomesAVerifiedPair() {
    for (PerturbedLake lake : lakes) {
      assertThat(lake.dropped()).as("dropped in %s", lake.folder()).isEmpty();
      assertThat(lake.pairs()).hasSize(ShopDatabase.queries().size());
    }
  }

  @Test
  void goldenQueriesReproduceTheSourceResultsOnTheLakeAsLoaded() throws IOException {
    PerturbedLake lake = lakes[1];
    try (DataLake clean = DataLake.builder().cacheDirectory(dir.resolve("cache2")).open(source);
        DataLake loaded = Lakes.open(lake.lake(), dir.resolve("cache2"));
        LakeSession cs = clean.openSession(); LakeSession ls = loaded.openSession()) {
      LoadedPairs pairs = PairLoader.builder().goldRunner(LakeQueryRunner.on(ls))
          .lakeTables(loaded.catalog().tableNames()).build().load(lake.pairFile());
      assertThat(pairs.errors()).isEmpty();
      assertThat(pairs.pairs()).hasSize(lake.pairs().size());
      for (QueryResultPair p : pairs.pairs()) {
        PlainTable original = LakeQueryRunner.toPlainTable(cs.execute(p.userQuery()).table());
        assertThat(ResultMetrics.exactMatch(p.expectedResult(), original, p.ordered())).as(p.id()).isTrue();
        Execution user = ls.execute(p.userQuery());
        assertThat(user.isSuccess()).as("the user query %s should not run on the disorganized lake", p.id()).isFalse();
      }
    }
  }

  @Test
  void theSameSeedGivesTheSameFilesAndAnotherSeedOtherNames() throws IOException {
    PerturbedLake again = LakePerturber.builder().seed(3).cacheDirectory(dir.resolve("cache"))
        .format(LakePerturber.Format.CSV).build()
        .perturb(source, ShopDatabase.queries(), dir.resolve("again-3"));
    assertThat(contents(again.lake())).isEqualTo(contents(lakes[2].lake()));
    assertThat(Files.readString(again.pairFile()).replace("again-3", "lake-3"))
        .isEqualTo(Files.readString(lakes[2].pairFile()));
    Set<Set<String>> tableSets = new HashSet<>();
    for (PerturbedLake l : lakes) {
      tableSets.add(new HashSet<>(l.plan().lakeTables()));
    }
    assertThat(tableSets).hasSize(4);
  }

  @Test
  void theLakesCoverEveryKindOfDisorderAndEveryErrorType() {
    Set<Perturbation> kinds = EnumSet.noneOf(Perturbation.class);
    Set<DifficultyTag> tags = EnumSet.noneOf(DifficultyTag.class);
    for (PerturbedLake l : lakes) {
      for (QueryResultPair p : l.pairs()) {
        p.perturbations().forEach(k -> kinds.add(Perturbation.fromLabel(k).orElseThrow()));
        tags.addAll(p.difficultyTags());
      }
    }
    assertThat(kinds).containsAll(EnumSet.of(Perturbation.RENAME_TABLE, Perturbation.RENAME_COLUMN,
        Perturbation.VERTICAL_SPLIT, Perturbation.HORIZONTAL_SPLIT, Perturbation.CODE_LOOKUP,
        Perturbation.CELL_NOISE));
    assertThat(tags).contains(DifficultyTag.NAME_MISMATCH, DifficultyTag.MISSING_TABLE, DifficultyTag.UNION,
        DifficultyTag.KEY_MISMATCH, DifficultyTag.FILTER_MISMATCH, DifficultyTag.NOISE);
  }

  @Test
  void goldMappingsNameWhereEveryReferencedColumnLives() {
    for (PerturbedLake l : lakes) {
      Set<String> lakeTables = new HashSet<>(l.plan().lakeTables());
      QueryResultPair q01 = l.pairs().get(0);
      assertThat(q01.goldMapping().columns()).containsKeys("customer.customer_name", "customer.account_balance",
          "customer.segment");
      q01.goldMapping().columns().values().forEach(c -> c.lake().forEach(lc ->
          assertThat(lakeTables).contains(lc.substring(0, lc.indexOf('.')))));
      assertThat(q01.goldMapping().tables().get("customer")).isNotEmpty().allMatch(lakeTables::contains);
      assertThat(q01.requiredTables()).containsExactlyInAnyOrderElementsOf(q01.goldMapping().tables().get("customer"));
      String segment = l.plan().table("customer").orElseThrow().encoding("segment").kind();
      assertThat(q01.goldMapping().columns().get("customer.segment").encoding()).isIn(segment, "none");
    }
  }

  @Test
  void badInputIsRefusedWithTheReason() throws Exception {
    LakePerturber p = LakePerturber.builder().build();
    assertThatThrownBy(() -> p.perturb(dir.resolve("missing.duckdb"), List.of(), dir.resolve("x")))
        .hasMessageContaining("no DuckDB database");
    assertThatThrownBy(() -> p.perturb(source, List.of(), lakes[0].folder()))
        .hasMessageContaining("not empty");
    assertThatThrownBy(() -> p.perturb(source, List.of(SourceQuery.of("a", "SELECT 1"), SourceQuery.of("a",
        "SELECT 2")), dir.resolve("y"))).hasMessageContaining("duplicate query id 'a'");
    assertThatThrownBy(() -> LakePerturber.builder().verticalSplitRate(0.7).horizontalSplitRate(0.5).build())
        .hasMessageContaining("at most 1");
    PerturbedLake few = LakePerturber.builder().seed(9).cacheDirectory(dir.resolve("cache")).build().perturb(source,
        List.of(SourceQuery.of("broken", "SELECT nope FROM customer"), SourceQuery.of("none", "SELECT 42 AS x"),
            SourceQuery.of("empty", "SELECT * FROM customer WHERE customer_id < 0")), dir.resolve("few"));
    assertThat(few.pairs()).isEmpty();
    assertThat(few.dropped()).extracting(PerturbedLake.Dropped::reason).satisfiesExactly(
        r -> assertThat(r).startsWith("the query fails on the source"),
        r -> assertThat(r).startsWith("reads no table"),
        r -> assertThat(r).startsWith("empty result"));
  }

  @Test
  void aSplitTablesSecondKeyNeverTakesTheNameOfAColumnBesideIt() throws Exception {
    // TPC-H's habit: every column starts with the table's initial and shares a stem, so a key and a date in the
    // split-off part may both be abbreviated to the same word (o_orderkey and o_orderdate both became "ord").
    Path db = dir.resolve("stems.duckdb");
    try (var c = java.sql.DriverManager.getConnection("jdbc:duckdb:" + db); var st = c.createStatement()) {
      st.execute("CREATE TABLE orders AS SELECT i AS o_orderkey, DATE '2020-01-01' + CAST(i AS INTEGER) AS "
          + "o_orderdate, 'P' || (i % 5) AS o_orderpriority, i * 1.5 AS o_ordertotal, 'S' || (i % 3) AS "
          + "o_orderstatus, 'clerk ' || (i % 7) AS o_orderclerk FROM range(1, 41) t(i)");
    }
    List<SourceQuery> query = List.of(SourceQuery.of("all", "SELECT * FROM orders WHERE o_orderkey < 30"));
    int split = 0;
    for (int seed = 1; seed <= 20; seed++) {
      PerturbedLake lake = LakePerturber.builder().seed(seed).verticalSplitRate(1.0).horizontalSplitRate(0)
          .encodingRate(0).noiseTableRate(0).cacheDirectory(dir.resolve("cache")).build()
          .perturb(db, query, dir.resolve("stems-" + seed));
      for (LakePlan.TablePlan t : lake.plan().tables()) {
        split += t.parts().size() > 1 ? 1 : 0;
        for (LakePlan.Part part : t.parts()) {
          assertThat(new HashSet<>(part.columns().values().stream().map(n -> n.toLowerCase(java.util.Locale.ROOT))
              .toList())).as("seed %d, %s: %s", seed, part.table(), part.columns()).hasSize(part.columns().size());
        }
      }
      assertThat(lake.dropped()).as("seed %d", seed).isEmpty();
    }
    assertThat(split).isEqualTo(20);
  }

  private static Map<String, String> contents(Path folder) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path f : files.toList()) {
        out.put(f.getFileName().toString(), java.util.HexFormat.of().formatHex(Files.readAllBytes(f)));
      }
    }
    return out;
  }

  @Test
  void mixedLakesHoldCsvAndParquetAndNoisyTablesAreCsv() throws IOException {
    Set<String> extensions = new HashSet<>();
    for (PerturbedLake l : List.of(lakes[0], lakes[1])) {
      l.plan().tables().forEach(t -> t.parts().forEach(p -> {
        extensions.add(p.file().substring(p.file().lastIndexOf('.')));
        if (l.plan().noiseTables().contains(p.table())) {
          assertThat(p.file()).endsWith(".csv");
        }
      }));
    }
    assertThat(extensions).containsExactlyInAnyOrder(".csv", ".parquet");
  }
}
