package dev.lakerewrite.core;

import dev.lakerewrite.joingraph.JoinGraph;
import dev.lakerewrite.noiseudf.CleaningFunctions;
import dev.lakerewrite.retrieval.LakeIndex;
import dev.lakerewrite.retrieval.MiniLmEmbedder;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A lake's derived, query-independent machinery, built (or loaded from the cache directory) once and shared by
 * every rewrite: the retrieval index (embeddings, Lucene), the join graph, and the vetted cleaning functions
 * registered on the lake's DuckDB instance. Built incrementally: tables whose files did not change since the last
 * build are taken from the cache, the others read again, several at a time. Thread-safe; built on first use or by
 * {@link DataLake#index()}.
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
    int tables = lake.catalog().tables().size();
    List<LakeSession> readers = new ArrayList<>();
    try (LakeSession s = lake.openSession()) {
      Connection c = s.connection();
      try {
        CleaningFunctions.register(c);
      } catch (SQLException e) {
        throw new LakeRewriteException("cannot register the cleaning functions on the lake " + lake.source() + ": "
            + e.getMessage(), e);
      }
      // One more connection per DuckDB thread: small tables are read side by side.
      List<Connection> more = new ArrayList<>();
      for (int i = 1; i < lake.threads(); i++) {
        LakeSession r = lake.openSession();
        readers.add(r);
        more.add(r.connection());
      }
      long t0 = System.nanoTime();
      LakeIndex index = LakeIndex.builder()
          .connection(c)
          .moreConnections(more)
          .cacheDirectory(lake.cacheDirectory().resolve("retrieval"))
          .embedder(MiniLmEmbedder.shared())
          .fingerprint(lake.fingerprint())
          .tableFingerprints(lake.catalog().tableFingerprints())
          .progress(p -> progress.update(IndexStage.RETRIEVAL, p.done(), p.total()))
          .build();
      long t1 = System.nanoTime();
      JoinGraph graph = JoinGraph.builder()
          .connection(c)
          .moreConnections(more)
          .embedder(index.embedder())
          .cacheDirectory(lake.cacheDirectory().resolve("joingraph"))
          .lakeFingerprint(lake.fingerprint())
          .tableFingerprints(lake.catalog().tableFingerprints())
          .progress(p -> progress.update(IndexStage.JOIN_GRAPH, p.tablesRead(), p.tablesToRead()))
          .build();
      long t2 = System.nanoTime();
      int indexed = index.rebuiltTables().size();
      int sketched = graph.readTables().size();
      List<IndexStatus.Stage> stages = List.of(
          new IndexStatus.Stage(IndexStage.RETRIEVAL, indexed, tables - indexed, Duration.ofNanos(t1 - t0),
              index.wasBuilt() ? (indexed == tables ? "built" : "refreshed") : "loaded"),
          new IndexStatus.Stage(IndexStage.JOIN_GRAPH, sketched, tables - sketched, Duration.ofNanos(t2 - t1),
              graph.edges().size() + " edges" + (graph.buildStats().totalMillis() > 0 && sketched > 0
                  ? ", " + graph.buildStats().candidateSearch().name().toLowerCase(java.util.Locale.ROOT)
                      .replace('_', ' ') + " search" : "")));
      return new LakeServices(index, graph, stages);
    } finally {
      readers.forEach(LakeSession::close);
    }
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
