package dev.lakerewrite.core;

import dev.lakerewrite.joingraph.JoinGraph;
import dev.lakerewrite.noiseudf.CleaningFunctions;
import dev.lakerewrite.retrieval.LakeIndex;
import dev.lakerewrite.retrieval.MiniLmEmbedder;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * A lake's derived, query-independent machinery, built (or loaded from the cache directory) once and shared by
 * every rewrite: the retrieval index (embeddings, Lucene), the join graph, and the vetted cleaning functions
 * registered on the lake's DuckDB instance. Thread-safe; built on first use.
 */
final class LakeServices {
  private final LakeIndex index;
  private final JoinGraph joinGraph;
  private final Duration indexTime;
  private final Duration joinGraphTime;
  private final boolean rebuilt;

  private LakeServices(LakeIndex index, JoinGraph joinGraph, Duration indexTime, Duration joinGraphTime,
      boolean rebuilt) {
    this.index = index;
    this.joinGraph = joinGraph;
    this.indexTime = indexTime;
    this.joinGraphTime = joinGraphTime;
    this.rebuilt = rebuilt;
  }

  static LakeServices build(DataLake lake) {
    try (LakeSession s = lake.openSession()) {
      Connection c = s.connection();
      try {
        CleaningFunctions.register(c);
      } catch (SQLException e) {
        throw new LakeRewriteException("cannot register the cleaning functions on the lake " + lake.source() + ": "
            + e.getMessage(), e);
      }
      long t0 = System.nanoTime();
      LakeIndex index = LakeIndex.builder()
          .connection(c)
          .cacheDirectory(lake.cacheDirectory().resolve("retrieval"))
          .embedder(MiniLmEmbedder.shared())
          .fingerprint(lake.fingerprint())
          .build();
      long t1 = System.nanoTime();
      JoinGraph graph = JoinGraph.builder()
          .connection(c)
          .embedder(index.embedder())
          .cacheDirectory(lake.cacheDirectory().resolve("joingraph"))
          .lakeFingerprint(lake.fingerprint())
          .build();
      long t2 = System.nanoTime();
      return new LakeServices(index, graph, Duration.ofNanos(t1 - t0), Duration.ofNanos(t2 - t1), index.wasBuilt());
    }
  }

  LakeIndex index() {
    return index;
  }

  JoinGraph joinGraph() {
    return joinGraph;
  }

  IndexStatus status() {
    return new IndexStatus(index.tables().size(), joinGraph.edges().size(), rebuilt, indexTime, joinGraphTime);
  }

  void close() {
    index.close();
  }

  /**
   * What {@link DataLake#index()} found or built.
   *
   * @param tables tables in the retrieval index
   * @param joinEdges edges of the join graph
   * @param rebuilt whether the retrieval index was built now (false: loaded from the cache directory)
   * @param indexTime time to build or load the retrieval index
   * @param joinGraphTime time to build or load the join graph
   */
  record IndexStatus(int tables, int joinEdges, boolean rebuilt, Duration indexTime, Duration joinGraphTime) {}
}
