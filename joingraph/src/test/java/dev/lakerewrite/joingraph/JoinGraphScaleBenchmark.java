package dev.lakerewrite.joingraph;

import dev.lakerewrite.testing.SampleLake;
import dev.lakerewrite.retrieval.CachingEmbedder;
import dev.lakerewrite.retrieval.Embedder;
import dev.lakerewrite.retrieval.MiniLmEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Build time of the join graph for the sample lake and synthetic lakes of 100, 1,000 and 5,000 tables × 20 columns,
 * with the exact inverted-index search, with sketch pruning, and (up to {@code allPairsUpTo} tables) the thesis'
 * all-pairs loop; the share of the exact build's edges that pruning keeps; and both builds against the planted
 * joins. Names are embedded with the real all-MiniLM-L6-v2 through a cache that starts empty for each lake, so the
 * first build of a lake pays the embedding ("cold") and the others read the cache.
 *
 * <p>Arguments: table counts (default {@code 100 1000 5000}); {@code -Dbench.allPairsUpTo=N} (default 1000).
 */
public final class JoinGraphScaleBenchmark {
  private JoinGraphScaleBenchmark() {}

  public static void main(String[] args) throws Exception {
    int[] sizes = args.length == 0 ? new int[] {100, 1000, 5000}
        : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
    int allPairsUpTo = Integer.getInteger("bench.allPairsUpTo", 1000);
    System.out.printf("machine: %d cores, max heap %d MB%n", Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20);
    Path work = Files.createDirectories(Path.of("target", "bench"));

    sampleLake(work);
    for (int n : sizes) {
      SyntheticLake lake = new SyntheticLake(n, 20, 42);
      long cells = lake.plans().stream().mapToLong(p -> (long) p.rows() * p.columns().size()).sum();
      System.out.printf("%n== synthetic lake: %d tables, %d columns, %,d cells, %d planted joins ==%n", n,
          lake.plans().stream().mapToInt(p -> p.columns().size()).sum(), cells, lake.truth().size());
      Path cache = Files.createTempDirectory(work, "embeddings-" + n + "-");
      try (CachingEmbedder embedder = CachingEmbedder.open(MiniLmEmbedder.shared(), cache)) {
        JoinGraph exact = build(lake, embedder, JoinGraphConfig.CandidateSearch.INVERTED_INDEX, "exact (index)");
        JoinGraph sketch = build(lake, embedder, JoinGraphConfig.CandidateSearch.SKETCH, "sketch-pruned");
        if (n <= allPairsUpTo) {
          JoinGraph all = build(lake, embedder, JoinGraphConfig.CandidateSearch.ALL_PAIRS, "all pairs (thesis)");
          System.out.printf("  all-pairs edges equal to exact index edges: %b%n",
              edgeSet(all).equals(edgeSet(exact)));
        } else {
          System.out.printf("  all pairs (thesis loop): skipped above %d tables (quadratic)%n", allPairsUpTo);
        }
        Set<String> exactEdges = edgeSet(exact);
        Set<String> kept = new HashSet<>(edgeSet(sketch));
        kept.retainAll(exactEdges);
        System.out.printf(Locale.ROOT, "  pruning keeps %d of %d exact edges: recall %.4f (and adds %d)%n",
            kept.size(), exactEdges.size(), exactEdges.isEmpty() ? 1.0 : (double) kept.size() / exactEdges.size(),
            edgeSet(sketch).size() - kept.size());
        planted("exact", exact, lake);
        planted("sketch", sketch, lake);
      }
    }
    embeddingThroughput();
  }

  private static void sampleLake(Path work) throws Exception {
    System.out.println("== WikiDBs sample lake (29 tables, read through the sandboxed DuckDB connection) ==");
    Path cache = Files.createTempDirectory(work, "embeddings-sample-");
    try (Connection connection = SampleLake.open();
        CachingEmbedder embedder = CachingEmbedder.open(MiniLmEmbedder.shared(), cache)) {
      for (JoinGraphConfig.CandidateSearch search : JoinGraphConfig.CandidateSearch.values()) {
        if (search == JoinGraphConfig.CandidateSearch.AUTO) {
          continue;
        }
        long t0 = System.nanoTime();
        JoinGraph g = JoinGraph.builder().connection(connection).embedder(embedder)
            .config(JoinGraphConfig.defaults().toBuilder().candidateSearch(search).build()).build();
        report(search + (search == JoinGraphConfig.CandidateSearch.values()[0] ? " (cold embeddings)" : ""),
            g, (System.nanoTime() - t0) / 1_000_000);
      }
    }
  }

  private static JoinGraph build(SyntheticLake lake, Embedder embedder, JoinGraphConfig.CandidateSearch search,
      String label) {
    System.gc();
    long t0 = System.nanoTime();
    JoinGraph g = JoinGraph.builder().columnSource(lake).embedder(embedder)
        .config(JoinGraphConfig.defaults().toBuilder().candidateSearch(search).build()).build();
    report(label, g, (System.nanoTime() - t0) / 1_000_000);
    return g;
  }

  private static void report(String label, JoinGraph g, long wallMillis) {
    BuildStats s = g.buildStats();
    System.out.printf(Locale.ROOT,
        "  %-34s %8.1f s  (read+sketch %.1f s, embed %.1f s [%d names], search %.1f s, assemble %.1f s) "
            + "pairs scored %,d, evidence %,d, edges %,d, stop-value hits %,d [load %.1f]%n",
        label, wallMillis / 1000.0, s.readMillis() / 1000.0, s.embedMillis() / 1000.0, s.distinctNames(),
        s.searchMillis() / 1000.0, s.assembleMillis() / 1000.0, s.pairsScored(), s.evidencePairs(), s.edges(),
        s.stopValuesSkipped(),
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  private static void planted(String label, JoinGraph g, SyntheticLake lake) {
    Set<String> edges = edgeSet(g);
    long found = lake.truth().stream().filter(edges::contains).count();
    System.out.printf(Locale.ROOT, "  %s vs planted joins: recall %.3f, precision %.3f%n", label,
        (double) found / lake.truth().size(), edges.isEmpty() ? 0 : (double) found / edges.size());
  }

  static Set<String> edgeSet(JoinGraph g) {
    Set<String> out = new HashSet<>();
    for (JoinEdge e : g.edges()) {
      out.add(GroundTruth.pairKey(e.tableA(), e.tableB()));
    }
    return out;
  }

  /** Cold MiniLM throughput on distinct column-name-like texts, extrapolated to 100k names. */
  private static void embeddingThroughput() {
    List<String> names = new ArrayList<>();
    SyntheticLake lake = new SyntheticLake(5000, 20, 43);
    Set<String> seen = new HashSet<>();
    lake.plans().forEach(p -> {
      seen.add(p.name().replace('_', ' '));
      p.columns().forEach(c -> seen.add(c.name()));
    });
    names.addAll(seen);
    for (int i = 0; names.size() < 10_000; i++) {
      names.add("attribute " + i + " of " + names.get(i % seen.size()));
    }
    MiniLmEmbedder model = MiniLmEmbedder.shared();
    long t0 = System.nanoTime();
    model.embedAll(names);
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.printf(Locale.ROOT, "%n== MiniLM cold throughput: %,d distinct names in %.1f s = %.0f names/s; "
        + "100k distinct names ≈ %.0f s ==%n", names.size(), seconds, names.size() / seconds,
        100_000 / (names.size() / seconds));
  }
}
