package dev.lakerewrite.core;

import dev.lakerewrite.joingraph.BuildStats;
import dev.lakerewrite.joingraph.JoinGraph;
import dev.lakerewrite.joingraph.JoinGraphConfig;
import dev.lakerewrite.noiseudf.CleaningFunctions;
import dev.lakerewrite.retrieval.LakeIndex;
import dev.lakerewrite.retrieval.MiniLmEmbedder;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A lake's derived, query-independent machinery, built (or loaded from the cache directory) once and shared by
 * every rewrite: the retrieval index (embeddings, Lucene), the join graph, and the vetted cleaning functions
 * registered on the lake's DuckDB instance; column profiles are computed on the way. Built incrementally: tables
 * whose files did not change since the last build are taken from the cache; the others are read again, several at
 * a time, each with one scan that feeds its profile, its retrieval entry and its sketches. Thread-safe; built on
 * first use or by {@link DataLake#index()}.
 */
final class LakeServices {
  private final LakeIndex index;
  private final JoinGraph joinGraph;
  private final List<IndexStatus.Stage> stages;
  private boolean reported;

  private LakeServices(LakeIndex index, JoinGraph joinGraph, List<IndexStatus.Stage> stages) {
    this.index = index;
    this.joinGraph = joinGraph;
    this.stages = List.copyOf(stages);
  }

  static LakeServices build(DataLake lake, IndexProgress progress) {
    LakeCatalog catalog = lake.catalog();
    List<CatalogTable> tables = catalog.tables();
    Map<String, String> fingerprints = catalog.tableFingerprints();
    List<LakeSession> sessions = new ArrayList<>();
    try {
      LakeSession main = lake.openSession();
      sessions.add(main);
      Connection c = main.connection();
      try {
        CleaningFunctions.register(c);
      } catch (SQLException e) {
        throw new LakeRewriteException("cannot register the cleaning functions on the lake " + lake.source() + ": "
            + e.getMessage(), e);
      }
      // One connection per DuckDB thread: small tables are read side by side.
      List<Connection> readers = new ArrayList<>();
      readers.add(c);
      for (int i = 1; i < lake.threads(); i++) {
        LakeSession r = lake.openSession();
        sessions.add(r);
        readers.add(r.connection());
      }
      long t0 = System.nanoTime();
      try (LakeIndex.Build retrieval = LakeIndex.builder()
          .connection(c)
          .moreConnections(readers.subList(1, readers.size()))
          .cacheDirectory(lake.cacheDirectory().resolve("retrieval"))
          .embedder(MiniLmEmbedder.shared())
          .fingerprint(lake.fingerprint())
          .tableFingerprints(fingerprints)
          .start()) {
        // One scan per new or changed table feeds its profile, its retrieval entry and its sketches.
        Set<String> needProfile = java.util.concurrent.ConcurrentHashMap.newKeySet();
        needProfile.addAll(catalog.tablesWithoutProfile());
        Set<String> needRetrieval = java.util.concurrent.ConcurrentHashMap.newKeySet();
        needRetrieval.addAll(retrieval.tablesToRead());
        Set<String> scanned = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.function.Consumer<TableScan.Result> feed = scan -> {
          String name = scan.table().name();
          scanned.add(name);
          if (needProfile.remove(name)) {
            catalog.putProfile(catalog.profileOf(scan));
          }
          if (needRetrieval.remove(name)) {
            retrieval.add(name, scan.table().rowCount(), valueCounts(scan));
          }
          progress.update(IndexStage.READ, scanned.size(), Math.max(scanned.size(), toRead(needProfile,
              needRetrieval, scanned)));
        };
        ScanColumnSource source = new ScanColumnSource(tables, readers, JoinGraphConfig.defaults().maxScannedValues(),
            JoinGraphConfig.defaults().maxScannedValues(), feed);
        progress.update(IndexStage.READ, 0, Math.max(needProfile.size(), needRetrieval.size()));
        JoinGraph graph = JoinGraph.builder()
            .connection(c)
            .columnSource(source)
            .embedder(retrieval.embedder())
            .cacheDirectory(lake.cacheDirectory().resolve("joingraph"))
            .lakeFingerprint(lake.fingerprint())
            .tableFingerprints(fingerprints)
            .build();
        long t1 = System.nanoTime();
        // Tables the graph did not need to read (its sketches were kept) but the profiles or the index do.
        Set<String> rest = new java.util.TreeSet<>(needProfile);
        rest.addAll(needRetrieval);
        Parallel.forEach(List.copyOf(rest), readers.size(), "lakerewrite-scan", source::scan);
        catalog.saveComputedProfiles();
        long t2 = System.nanoTime();
        LakeIndex index = retrieval.finish();
        long t3 = System.nanoTime();
        int n = tables.size();
        int indexed = index.rebuiltTables().size();
        int sketched = graph.readTables().size();
        progress.update(IndexStage.RETRIEVAL, indexed, indexed);
        progress.update(IndexStage.JOIN_GRAPH, sketched, sketched);
        BuildStats gs = graph.buildStats();
        long graphMillis = sketched == 0 ? 0 : gs.embedMillis() + gs.searchMillis() + gs.assembleMillis();
        long readNanos = Math.max(0, t2 - t0 - graphMillis * 1_000_000);
        List<IndexStatus.Stage> stages = List.of(
            new IndexStatus.Stage(IndexStage.READ, scanned.size(), n - scanned.size(), Duration.ofNanos(readNanos),
                "one scan per table for its profile, retrieval entry and sketches"),
            new IndexStatus.Stage(IndexStage.RETRIEVAL, indexed, n - indexed, Duration.ofNanos(t3 - t2),
                index.wasBuilt() ? (indexed == n ? "built" : "refreshed") : "loaded"),
            new IndexStatus.Stage(IndexStage.JOIN_GRAPH, sketched, n - sketched, Duration.ofMillis(graphMillis),
                graph.edges().size() + " edges" + (sketched > 0 ? String.format(java.util.Locale.ROOT,
                    ", %s search: names %.1f s, pairs %.1f s, edges %.1f s", gs.candidateSearch().name()
                        .toLowerCase(java.util.Locale.ROOT).replace('_', ' '), gs.embedMillis() / 1000.0,
                    gs.searchMillis() / 1000.0, gs.assembleMillis() / 1000.0) : "")));
        return new LakeServices(index, graph, stages);
      }
    } finally {
      sessions.forEach(LakeSession::close);
    }
  }

  private static int toRead(Set<String> profiles, Set<String> retrieval, Set<String> scanned) {
    Set<String> all = new java.util.HashSet<>(profiles);
    all.addAll(retrieval);
    all.removeAll(scanned);
    return scanned.size() + all.size();
  }

  /** The scan's values as the retrieval index takes them. */
  private static List<LakeIndex.ValueCounts> valueCounts(TableScan.Result scan) {
    List<LakeIndex.ValueCounts> out = new ArrayList<>();
    for (TableScan.Column c : scan.columns()) {
      out.add(new LakeIndex.ValueCounts(c.name(), c.values(), c.counts(), c.complete()));
    }
    return out;
  }

  LakeIndex index() {
    return index;
  }

  JoinGraph joinGraph() {
    return joinGraph;
  }

  /**
   * The stages this build ran, the first time they are asked for; afterwards the same stages with nothing built
   * (a second {@link DataLake#index()} finds everything in memory).
   */
  synchronized List<IndexStatus.Stage> stages() {
    if (!reported) {
      reported = true;
      return stages;
    }
    List<IndexStatus.Stage> again = new ArrayList<>();
    for (IndexStatus.Stage s : stages) {
      again.add(new IndexStatus.Stage(s.stage(), 0, s.built() + s.reused(), Duration.ZERO, "already open"));
    }
    return again;
  }

  void close() {
    index.close();
  }
}
