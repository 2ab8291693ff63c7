package dev.lakerewrite.eval.perturb;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.Engine;
import dev.lakerewrite.eval.tpc.TpcBenchmark;
import dev.lakerewrite.eval.tpc.TpcQuery;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The perturbed corpora the harness's suites run ({@code bin/lakerewrite eval --suite ...}), each a
 * {@link PerturbedCorpus.Spec} over data made here from Maven artifacts or the WikiDBs sample, at small scale so the
 * suites stay fast. Regenerate any of them with {@code bin/lakerewrite perturb --corpus NAME}.
 */
public final class Corpora {

  /** Lake seeds of the fit part of every corpus. */
  public static final List<Long> FIT_SEEDS = List.of(1L, 2L, 3L);
  /** Lake seeds of the held-out part of every corpus. */
  public static final List<Long> HELD_OUT_SEEDS = List.of(101L, 102L, 103L);
  /** Lake seeds of the validation part of every corpus. */
  public static final List<Long> VALIDATION_SEEDS = List.of(201L, 202L, 203L);

  /** The scale factor of the TPC corpora: large enough for selective filters, small enough for CSV lakes. */
  public static final double TPC_SCALE = 0.01;

  private Corpora() {}

  /**
   * The six databases of the WikiDBs sample, each its own schema, 40 generated queries each (WikiDBs has no
   * standard queries), two fit and two held-out lakes per database; one validation lake per database with 20 queries
   * of its own.
   *
   * @param sample the WikiDBs folder
   * @param cacheDirectory where the sample's DuckDB file is built, or null for core's default
   */
  public static PerturbedCorpus.Spec wikidbs(Path sample, Path cacheDirectory) {
    Objects.requireNonNull(sample, "sample");
    DataLake.Builder b = DataLake.builder();
    if (cacheDirectory != null) {
      b.cacheDirectory(cacheDirectory);
    }
    Path database;
    Map<String, Set<String>> byDatabase = new TreeMap<>();
    try (DataLake lake = b.fromWikiDbs(sample)) {
      database = lake.databaseFile();
      for (CatalogTable t : lake.catalog().tables()) {
        // databases/<db>/tables/<table>.csv
        Path source = t.source().orElseThrow(() -> new IllegalStateException("table " + t.name() + " has no file"));
        String db = source.getParent().getParent().getFileName().toString();
        byDatabase.computeIfAbsent(db, k -> new TreeSet<>()).add(t.name());
      }
    }
    List<PerturbedCorpus.Schema> schemas = new ArrayList<>();
    byDatabase.forEach((db, tables) -> schemas.add(new PerturbedCorpus.Schema(db, database, tables, List.of(), 40)));
    return new PerturbedCorpus.Spec("wikidbs-perturbed", "the WikiDBs sample's databases, disorganized", schemas,
        FIT_SEEDS.subList(0, 2), HELD_OUT_SEEDS.subList(0, 2), VALIDATION_SEEDS.subList(0, 1), 20, 500);
  }

  /**
   * TPC-H at scale factor {@value #TPC_SCALE}: its 22 standard queries (those the disorganizer can verify a golden
   * query for) plus 60 generated ones, two fit and two held-out lakes; two validation lakes with 30 queries of their
   * own.
   *
   * @param cacheDirectory where the clean database is generated, or null for core's default
   */
  public static PerturbedCorpus.Spec tpch(Path cacheDirectory) throws IOException, SQLException {
    return tpc(TpcBenchmark.TPCH, "tpch", 60, 30, cacheDirectory);
  }

  /**
   * TPC-DS at scale factor {@value #TPC_SCALE}: its single-statement standard queries (those the disorganizer can
   * verify a golden query for) plus 80 generated ones over its 24 tables, two fit and two held-out lakes; two
   * validation lakes with 40 queries of their own.
   *
   * @param cacheDirectory where the clean database is generated, or null for core's default
   */
  public static PerturbedCorpus.Spec tpcds(Path cacheDirectory) throws IOException, SQLException {
    return tpc(TpcBenchmark.TPCDS, "tpcds", 80, 40, cacheDirectory);
  }

  private static PerturbedCorpus.Spec tpc(TpcBenchmark benchmark, String name, int generated, int validation,
      Path cacheDirectory) throws IOException, SQLException {
    Path database = cacheDirectory == null ? benchmark.cachedDuckDb(TPC_SCALE)
        : benchmark.cachedDuckDb(TPC_SCALE, cacheDirectory);
    List<SourceQuery> standard = new ArrayList<>();
    for (TpcQuery q : benchmark.queries(Engine.DUCKDB)) {
      standard.add(SourceQuery.of(q.name(), q.sql()));
    }
    PerturbedCorpus.Schema schema = new PerturbedCorpus.Schema(name, database, Set.copyOf(benchmark.tables()),
        standard, generated);
    return new PerturbedCorpus.Spec(name, benchmark.displayName() + " at scale factor " + TPC_SCALE
        + ", disorganized", List.of(schema), FIT_SEEDS.subList(0, 2), HELD_OUT_SEEDS.subList(0, 2),
        VALIDATION_SEEDS.subList(0, 2), validation, 500);
  }
}
