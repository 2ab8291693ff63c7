package dev.lakerewrite.eval.bench;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.IndexStage;
import dev.lakerewrite.core.IndexStatus;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.eval.EvalMethod;
import dev.lakerewrite.eval.EvalModel;
import dev.lakerewrite.eval.Evaluation;
import dev.lakerewrite.eval.EvaluationResult;
import dev.lakerewrite.eval.LakeQueryRunner;
import dev.lakerewrite.eval.LoadedPairs;
import dev.lakerewrite.eval.NoisyLakes;
import dev.lakerewrite.eval.PairLoader;
import dev.lakerewrite.eval.QueryResultPair;
import dev.lakerewrite.eval.Variant;
import dev.lakerewrite.eval.VariantSummary;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Issue 15: a lake of thousands of tables in mixed formats ({@link BigLake}: TPC-DS at several scale factors split,
 * renamed and exported as Parquet, CSV and JSON; narrow, wide and tall tables; a Hive-partitioned click stream larger
 * than the heap; the WikiDBs sample's 29 tables among them), queried in place. Prints the full index time (load
 * included), the memory peak (JVM heap, sampled, and the process's resident peak, DuckDB included), the disk used
 * beside the lake, the time to refresh after changing 1 % of the files (and whether its join graph is the one a full
 * build of the changed lake gives), and F1, execution accuracy and latency of
 * the development pairs run inside the big lake (the sample's tables as needles in a haystack; Noise pairs on a copy
 * whose sample tables are noisy), next to the same pairs on the sample alone. The last line is
 * {@code summary: tables=N index_s=X refresh_s=Y peak_mb=Z dev_f1=F}.
 *
 * <p>Run: {@code BENCH_JAVA_OPTS=-Xmx2g bin/bench eval-wikidbs BigLakeBenchmark [options]} with options
 * {@code --tables N} (default 2000), {@code --sf 0.01,0.1,1} (TPC-DS scale factors), {@code --click-rows N}
 * (default 60,000,000: about 2.5 GB of Parquet), {@code --tall-rows N} (default 2,000,000), {@code --work DIR}
 * (default {@code target/bench/big-lake}; the lake, its cache and the TPC-DS files go there), {@code --skip-eval},
 * {@code --no-sample-baseline}, {@code --generate-only} (write the lake and stop), {@code --keep-cache} (index from the
 * previous run's cache, not an empty one: the index figures are then a refresh's, for re-running the pairs),
 * {@code --no-refresh-check} (skip indexing the refreshed lake again from an empty cache to compare its join graph
 * with the refresh's). Develop with something like {@code --tables 150 --sf 0.01 --click-rows 2000000}.
 * Generation is done once per specification and reused; every run indexes from an empty cache unless told to keep it.
 */
public final class BigLakeBenchmark {
  private BigLakeBenchmark() {}

  public static void main(String[] args) throws Exception {
    int tables = 2000;
    List<Double> sfs = List.of(0.01, 0.1, 1.0);
    long clickRows = 60_000_000;
    long tallRows = 2_000_000;
    Path work = Path.of("target", "bench", "big-lake").toAbsolutePath();
    boolean eval = true;
    boolean baseline = true;
    boolean generateOnly = false;
    boolean keepCache = false;
    boolean refreshCheck = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--tables" -> tables = Integer.parseInt(args[++i]);
        case "--sf" -> sfs = Arrays.stream(args[++i].split(",")).map(Double::parseDouble).toList();
        case "--click-rows" -> clickRows = Long.parseLong(args[++i]);
        case "--tall-rows" -> tallRows = Long.parseLong(args[++i]);
        case "--work" -> work = Path.of(args[++i]).toAbsolutePath();
        case "--skip-eval" -> eval = false;
        case "--no-sample-baseline" -> baseline = false;
        case "--generate-only" -> generateOnly = true;
        case "--keep-cache" -> keepCache = true;
        case "--no-refresh-check" -> refreshCheck = false;
        default -> throw new IllegalArgumentException("unknown option " + args[i] + "; see the class javadoc");
      }
    }
    Path sample = Path.of(System.getProperty("lakerewrite.sample", "../shared/data/wikidbs-sample"));
    Runtime rt = Runtime.getRuntime();
    System.out.printf(Locale.ROOT, "machine: %d cores, JVM heap max %d MB, load average %.1f%n",
        rt.availableProcessors(), rt.maxMemory() >> 20, ManagementFactory.getOperatingSystemMXBean()
            .getSystemLoadAverage());

    // --- the lake
    long g0 = System.nanoTime();
    BigLake.Spec spec = new BigLake.Spec(tables, sfs, clickRows, tallRows, 15);
    Path folder = work.resolve("lake");
    BigLake.Generated lake = BigLake.generate(folder, spec, sample, work.resolve("tpc-cache"));
    long clickBytes = BigLake.size(folder.resolve("clickstream"));
    System.out.printf(Locale.ROOT, "lake: %s, %d tables, %.2f GB on disk (%s in %.0f s)%n", folder, lake.tables(),
        lake.bytes() / 1e9, lake.reused() ? "generated by an earlier run" : "generated",
        (System.nanoTime() - g0) / 1e9);
    lake.byGroup().forEach((group, n) -> System.out.printf(Locale.ROOT, "  %-44s %5d%n", group, n));
    System.out.printf(Locale.ROOT, "  largest table: clickstream (Hive-partitioned Parquet), %.2f GB; JVM heap %.2f GB%n",
        clickBytes / 1e9, rt.maxMemory() / 1e9);

    if (generateOnly) {
      return;
    }

    // --- full index from an empty cache
    Path cacheRoot = work.resolve("cache");
    if (!keepCache) {
      BigLake.deleteRecursively(cacheRoot);
    }
    MemoryWatch memory = new MemoryWatch();
    long t0 = System.nanoTime();
    IndexStatus full;
    Path lakeCache;
    try (DataLake big = DataLake.builder().cacheDirectory(cacheRoot).fromFolder(folder)) {
      full = big.index(progress("full index"));
      lakeCache = big.cacheDirectory();
    }
    double indexSeconds = (System.nanoTime() - t0) / 1e9;
    MemoryWatch.Peak indexPeak = memory.stop();
    System.out.printf(Locale.ROOT, "%nfull index (load included): %.1f s; %s%n", indexSeconds, full.summary());
    full.stages().forEach(s -> System.out.printf(Locale.ROOT, "  %-11s built %d, reused %d in %.1f s%n",
        s.stage().label(), s.built(), s.reused(), s.time().toMillis() / 1000.0));
    System.out.printf(Locale.ROOT, "memory peak during the full index: heap in use %d MB (sampled, garbage included),"
        + " live after collections %d MB, resident %d MB (DuckDB and ONNX Runtime included)%n", indexPeak.heapMb(),
        indexPeak.liveHeapMb(), indexPeak.residentMb());
    System.out.printf(Locale.ROOT, "disk used beside the lake: %.1f MB (%s)%n", BigLake.size(lakeCache) / 1e6,
        breakdown(lakeCache));

    // --- refresh after changing 1 % of the files
    List<Path> changed = BigLake.changeFiles(folder, (int) Math.max(1, Math.round(full.tables() * 0.01)), 7);
    long r0 = System.nanoTime();
    IndexStatus refresh;
    try (DataLake big = DataLake.builder().cacheDirectory(cacheRoot).fromFolder(folder)) {
      refresh = big.index(progress("refresh"));
    }
    double refreshSeconds = (System.nanoTime() - r0) / 1e9;
    System.out.printf(Locale.ROOT, "%nrefresh after changing %d files (1 %%): %.1f s; %s%n", changed.size(),
        refreshSeconds, refresh.summary());
    refresh.stages().forEach(s -> System.out.printf(Locale.ROOT, "  %-11s built %d, reused %d in %.1f s%n",
        s.stage().label(), s.built(), s.reused(), s.time().toMillis() / 1000.0));

    double devF1 = Double.NaN;
    if (eval) {
      devF1 = devPairs(folder, sample, cacheRoot, work, baseline);
    }
    // Last, as its time is no figure of the issue's: the refreshed lake indexed again from an empty cache.
    if (refreshCheck) {
      compareWithFullBuild(folder, lakeCache, work.resolve("cache-full-build"), refresh);
    }
    System.out.printf(Locale.ROOT, "%nsummary: tables=%d index_s=%.1f refresh_s=%.1f peak_mb=%d dev_f1=%.3f%n",
        full.tables(), indexSeconds, refreshSeconds, indexPeak.residentMb(), devF1);
  }

  /**
   * The development pairs with the offline iterative rewriter inside the big lake (Noise pairs on a copy whose
   * sample tables are the seeded noisy ones: the other files are linked, and the clean lake's cache is copied so
   * only the noisy tables are indexed), and, with {@code baseline}, on the sample alone.
   *
   * @return F1 inside the big lake
   */
  private static double devPairs(Path folder, Path sample, Path cacheRoot, Path work, boolean baseline)
      throws Exception {
    long seed = 42;
    double rate = 0.05;
    DataLake.Builder builder = DataLake.builder().cacheDirectory(cacheRoot);
    try (DataLake sampleLake = DataLake.builder().cacheDirectory(cacheRoot).fromWikiDbs(sample);
        DataLake big = builder.fromFolder(folder)) {
      LoadedPairs pairs;
      try (LakeSession s = big.openSession()) {
        pairs = PairLoader.builder().goldRunner(LakeQueryRunner.on(s)).lakeTables(big.catalog().tableNames())
            .build().loadResource(PairLoader.WIKIDBS_SAMPLE_DEV_SET);
      }
      System.out.printf(Locale.ROOT, "%ndevelopment pairs: %d loaded (%d problems) with gold results from the big lake%n",
          pairs.pairs().size(), pairs.problems().size());
      Set<String> noiseTables = new TreeSet<>();
      pairs.pairs().stream().filter(QueryResultPair::noisy).forEach(p -> noiseTables.addAll(p.requiredTables()));
      NoisyLakes.Prepared noisySample = NoisyLakes.prepare(sample, sampleLake.fingerprint(),
          new NoisyLakes.Spec(seed, rate, noiseTables), cacheRoot.resolve("noisy-lakes"));

      Path noisyFolder = work.resolve("lake-noisy");
      long n0 = System.nanoTime();
      linkWithNoisySample(folder, noisyFolder, noisySample.folder());
      Path noisyCache = builder.cacheDirectoryFor(noisyFolder);
      BigLake.deleteRecursively(noisyCache);
      copyTree(big.cacheDirectory(), noisyCache);
      try (DataLake noisyBig = builder.fromFolder(noisyFolder)) {
        IndexStatus st = noisyBig.index();
        System.out.printf(Locale.ROOT, "noisy copy of the big lake (%d noisy sample tables): indexed in %.1f s from a"
            + " copy of the clean cache; %s%n", noiseTables.size(), (System.nanoTime() - n0) / 1e9, st.summary());
        VariantSummary inBig = run(big, noisyBig, pairs.pairs(), "inside the big lake");
        if (baseline) {
          try (DataLake noisySampleLake = DataLake.builder().cacheDirectory(cacheRoot)
              .fromWikiDbs(noisySample.folder())) {
            sampleLake.index();
            noisySampleLake.index();
            LoadedPairs samplePairs;
            try (LakeSession s = sampleLake.openSession()) {
              samplePairs = PairLoader.builder().goldRunner(LakeQueryRunner.on(s))
                  .lakeTables(sampleLake.catalog().tableNames()).build()
                  .loadResource(PairLoader.WIKIDBS_SAMPLE_DEV_SET);
            }
            VariantSummary alone = run(sampleLake, noisySampleLake, samplePairs.pairs(), "on the sample alone");
            System.out.printf(Locale.ROOT, "F1 inside the big lake minus F1 on the sample alone: %+.3f%n",
                inBig.f1() - alone.f1());
          }
        }
        return inBig.f1();
      }
    }
  }

  private static VariantSummary run(DataLake lake, DataLake noisy, List<QueryResultPair> pairs, String where)
      throws InterruptedException {
    EvaluationResult r = Evaluation.builder().lake(lake).noisyLake(noisy).pairs(pairs)
        .variant(Variant.of(EvalMethod.ITERATIVE, EvalModel.OFFLINE)).build().run();
    VariantSummary s = r.runs().get(0).summary();
    System.out.printf(Locale.ROOT, "dev pairs %s (%d tables): F1 %.3f, EX %.3f, latency median %.0f ms, p90 %.0f ms,"
        + " mean %.0f ms over %d pairs (%s)%n", where, lake.catalog().tables().size(), s.f1(), s.executionAccuracy(),
        s.latency().medianMillis(), s.latency().p90Millis(), s.latency().meanMillis(), s.pairs(), s.statuses());
    s.byTag().forEach((tag, g) -> System.out.printf(Locale.ROOT, "  %-16s F1 %.3f  EX %.3f  (%d pairs)%n", tag,
        g.f1(), g.executionAccuracy(), g.pairs()));
    return s;
  }

  /**
   * Indexes the refreshed lake again from an empty cache ({@code checkRoot}, deleted afterwards) and compares its
   * join graph with the refresh's, edge by edge (tables and column pairs): a refresh must end where a full build
   * of the same files ends.
   */
  private static void compareWithFullBuild(Path folder, Path refreshedCache, Path checkRoot, IndexStatus refresh)
      throws IOException {
    BigLake.deleteRecursively(checkRoot);
    long f0 = System.nanoTime();
    IndexStatus full;
    Path fullCache;
    try (DataLake again = DataLake.builder().cacheDirectory(checkRoot).fromFolder(folder)) {
      full = again.index();
      fullCache = again.cacheDirectory();
    }
    Set<String> refreshed = edges(refreshedCache);
    Set<String> rebuilt = edges(fullCache);
    Set<String> onlyRefresh = new TreeSet<>(refreshed);
    onlyRefresh.removeAll(rebuilt);
    Set<String> onlyFull = new TreeSet<>(rebuilt);
    onlyFull.removeAll(refreshed);
    System.out.printf(Locale.ROOT, "%nfull build of the refreshed lake (empty cache): %.1f s, %d join edges; the"
        + " refresh's graph: %d join edges; %s%n", (System.nanoTime() - f0) / 1e9, full.joinEdges(),
        refresh.joinEdges(), onlyRefresh.isEmpty() && onlyFull.isEmpty()
            ? "the same edges (tables and column pairs)"
            : "DIFFERENT: " + onlyRefresh.size() + " edges only in the refresh " + first(onlyRefresh) + ", "
                + onlyFull.size() + " only in the full build " + first(onlyFull));
    BigLake.deleteRecursively(checkRoot);
  }

  /** A cached join graph's edges, each as its two tables and its column pairs (sorted), from its JSON file. */
  private static Set<String> edges(Path lakeCache) throws IOException {
    com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(lakeCache.resolve("joingraph").resolve("join-graph.json").toFile());
    List<com.fasterxml.jackson.databind.JsonNode> tables = new ArrayList<>();
    root.get("tables").forEach(tables::add);
    Set<String> out = new TreeSet<>();
    for (com.fasterxml.jackson.databind.JsonNode e : root.get("edges")) {
      com.fasterxml.jackson.databind.JsonNode a = tables.get(e.get(0).asInt());
      com.fasterxml.jackson.databind.JsonNode b = tables.get(e.get(1).asInt());
      Set<String> pairs = new TreeSet<>();
      for (com.fasterxml.jackson.databind.JsonNode p : e.get(3)) {
        pairs.add(a.get("columns").get(p.get(0).asInt()).get(0).asText() + "="
            + b.get("columns").get(p.get(1).asInt()).get(0).asText());
      }
      String left = a.get("name").asText();
      String right = b.get("name").asText();
      out.add(left.compareTo(right) <= 0 ? left + "~" + right + " " + pairs : right + "~" + left + " " + pairs);
    }
    return out;
  }

  private static String first(Set<String> edges) {
    return edges.isEmpty() ? "" : "(e.g. " + String.join("; ", edges.stream().limit(3).toList()) + ")";
  }

  /** {@code target}: hard links to every file of {@code lake}, but the sample's tables from the noisy copy. */
  private static void linkWithNoisySample(Path lake, Path target, Path noisyWikiDbs) throws IOException {
    BigLake.deleteRecursively(target);
    Set<String> sampleDbs = new TreeSet<>();
    try (Stream<Path> dbs = Files.list(noisyWikiDbs.resolve("databases"))) {
      dbs.forEach(db -> sampleDbs.add(db.getFileName().toString()));
    }
    try (Stream<Path> files = Files.walk(lake)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Path rel = lake.relativize(f);
        if (rel.getNameCount() == 2 && sampleDbs.contains(rel.getName(0).toString())) {
          continue;
        }
        Path out = target.resolve(rel.toString());
        Files.createDirectories(out.getParent());
        Files.createLink(out, f);
      }
    }
    BigLake.copySample(noisyWikiDbs, target);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path out = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(out);
        } else if (!f.getFileName().toString().endsWith(".lock")) {
          Files.copy(f, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  /** MB per top-level entry of the lake's cache directory. */
  private static String breakdown(Path cache) throws IOException {
    List<String> parts = new ArrayList<>();
    try (Stream<Path> entries = Files.list(cache)) {
      for (Path p : entries.sorted().toList()) {
        long bytes = Files.isDirectory(p) ? BigLake.size(p) : Files.size(p);
        if (bytes > 100_000) {
          parts.add(String.format(Locale.ROOT, "%s %.1f MB", p.getFileName(), bytes / 1e6));
        }
      }
    }
    return String.join(", ", parts);
  }

  /** Prints a line when a stage starts and ends, and every 10 % of it. */
  private static dev.lakerewrite.core.IndexProgress progress(String what) {
    long start = System.nanoTime();
    long[] last = {-1};
    IndexStage[] stage = {null};
    return (s, done, total) -> {
      synchronized (last) {
        long step = Math.max(1, total / 10);
        if (s != stage[0] || done >= total || done / step != last[0] / step) {
          if (s != stage[0] || done != last[0]) {
            System.out.printf(Locale.ROOT, "  [%s %5.0f s] %-10s %d/%d%n", what, (System.nanoTime() - start) / 1e9,
                s.label(), done, total);
          }
          stage[0] = s;
          last[0] = done;
        }
      }
    };
  }

  /**
   * The JVM heap in use, sampled every 100 ms, and the process's peak resident memory from the kernel ({@code VmHWM},
   * reset when the watch starts where the kernel allows it): DuckDB's and ONNX Runtime's native memory included.
   */
  static final class MemoryWatch {
    /**
     * @param heapMb heap in use, sampled (garbage included: the collector lets it grow towards the maximum)
     * @param liveHeapMb the most heap still in use after a collection: what the work really held
     * @param residentMb the process's resident peak
     */
    record Peak(long heapMb, long liveHeapMb, long residentMb) {}

    private final AtomicLong heapPeak = new AtomicLong();
    private final AtomicLong liveAfterGc = new AtomicLong();
    private final Thread sampler;
    private volatile boolean running = true;

    MemoryWatch() {
      try {
        Files.writeString(Path.of("/proc/self/clear_refs"), "5");
      } catch (IOException | RuntimeException e) {
        // Not resettable here: VmHWM then covers the process's whole life, an upper bound.
      }
      sampler = new Thread(() -> {
        while (running) {
          long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
          heapPeak.accumulateAndGet(used, Math::max);
          long live = 0;
          for (java.lang.management.MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == java.lang.management.MemoryType.HEAP && pool.getCollectionUsage() != null) {
              live += pool.getCollectionUsage().getUsed();
            }
          }
          liveAfterGc.accumulateAndGet(live, Math::max);
          try {
            Thread.sleep(100);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "memory-watch");
      sampler.setDaemon(true);
      sampler.start();
    }

    Peak stop() throws InterruptedException {
      running = false;
      sampler.join();
      long live = 0;
      for (java.lang.management.MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == java.lang.management.MemoryType.HEAP && pool.getCollectionUsage() != null) {
          live += pool.getCollectionUsage().getUsed();
        }
      }
      return new Peak(heapPeak.get() >> 20, Math.max(live, liveAfterGc.get()) >> 20, residentPeakKb() >> 10);
    }

    private static long residentPeakKb() {
      try {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
          if (line.startsWith("VmHWM:")) {
            return Long.parseLong(line.replaceAll("[^0-9]", ""));
          }
        }
      } catch (IOException | RuntimeException e) {
        // Not Linux: no resident figure.
      }
      return -1;
    }
  }
}
