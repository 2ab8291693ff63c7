package dev.lakerewrite.retrieval;

import dev.lakerewrite.testing.SampleLake;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Prints index build and load times and search latencies on the sample lake, and the quality of both table
 * scorings on the labelled queries.
 *
 * <p>Run: {@code mvn -B -q -pl retrieval test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.lakerewrite.retrieval.RetrievalBenchmark}
 */
public final class RetrievalBenchmark {
  private RetrievalBenchmark() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("lakerewrite.sample", System.getProperty("lakerewrite.sample",
        Path.of("..", "shared", "data", "wikidbs-sample").toAbsolutePath().normalize().toString()));
    if (!Files.isDirectory(SampleLake.folder())) {
      System.setProperty("lakerewrite.sample",
          Path.of("..", "..", "shared", "data", "wikidbs-sample").toAbsolutePath().normalize().toString());
    }
    System.setProperty("java.io.tmpdir", Path.of("target", "tmp").toAbsolutePath().toString());
    MiniLmEmbedder.shared();
    Path cache = Files.createTempDirectory(SampleIndex.tmp(), "benchmark");
    try (Connection c = SampleIndex.duplicate()) {
      long t0 = System.nanoTime();
      LakeIndex cold = LakeIndex.builder().connection(c).cacheDirectory(cache).build();
      double coldMs = (System.nanoTime() - t0) / 1e6;
      System.out.printf(Locale.ROOT, "build, cold embedding cache: %.0f ms (SQL + Lucene %d ms), %d tables%n",
          coldMs, cold.buildMillis(), cold.tables().size());
      cold.close();
      Files.walk(cache).filter(p -> p.getFileName().toString().startsWith("lake-index-")).findFirst()
          .ifPresent(RetrievalBenchmark::delete);
      t0 = System.nanoTime();
      LakeIndex warm = LakeIndex.builder().connection(c).cacheDirectory(cache).build();
      System.out.printf(Locale.ROOT, "build, warm embedding cache: %.0f ms%n", (System.nanoTime() - t0) / 1e6);
      warm.close();
      t0 = System.nanoTime();
      LakeIndex index = LakeIndex.builder().connection(c).cacheDirectory(cache).build();
      System.out.printf(Locale.ROOT, "load stored index: %.0f ms%n", (System.nanoTime() - t0) / 1e6);

      List<QueryTable> q = List.of(QueryTable.of("nz_regions", "name", "population", "capital"));
      time("R_Q (hybrid), 29 tables", 50, () -> index.queryRelevance(q));
      time("R_Q (thesis embedding)", 50, () -> index.queryRelevance(q, TableScoring.EMBEDDING));
      QueryRelevance r = index.queryRelevance(q);
      time("rerank S_k, 2 context tables", 200,
          () -> r.rerank(List.of("region_of_new_zealand", "capital"), List.of(), (a, b) -> 0.5, 10));
      time("SEARCH_TABLE", 50, () -> index.searchTable("countries", List.of("gini index"), 5));
      t0 = System.nanoTime();
      index.searchValue("country_of_origin", "France", 5);
      System.out.printf(Locale.ROOT, "SEARCH_VALUE first on country_of_origin (embeds %d values): %.0f ms%n",
          index.table("country_of_origin").columns().stream().mapToInt(LakeColumn::distinctValues).sum(),
          (System.nanoTime() - t0) / 1e6);
      time("SEARCH_VALUE warm, country_of_origin", 50, () -> index.searchValue("country_of_origin", "Frnace", 5));
      index.searchValue("region_of_new_zealand", "Wellington", 5);
      time("SEARCH_VALUE warm + example rows", 50,
          () -> index.searchValue(c, "region_of_new_zealand", "Wellington", 5));
      time("SEARCH_VALUE lake-wide", 50, () -> index.searchValueInLake("Welington", 5));
      time("UNION_SEARCH", 50, () -> index.unionSearch("region_of_new_zealand", 5));
      for (TableScoring s : TableScoring.values()) {
        System.out.printf(Locale.ROOT, "%-9s natural queries %s%n          identifier queries %s%n", s,
            LabelledQueries.measure(index, s, LabelledQueries.ALL),
            LabelledQueries.measure(index, s, LabelledQueries.IDENTIFIERS));
      }
      index.close();
    }
  }

  private static void time(String what, int runs, Supplier<?> task) {
    task.get();
    long t0 = System.nanoTime();
    for (int i = 0; i < runs; i++) {
      task.get();
    }
    System.out.printf(Locale.ROOT, "%-40s %8.2f ms%n", what, (System.nanoTime() - t0) / 1e6 / runs);
  }

  private static void delete(Path dir) {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
