package dev.lakerewrite.joingraph;

import dev.lakerewrite.retrieval.CachingEmbedder;
import dev.lakerewrite.retrieval.Embedder;
import dev.lakerewrite.sql.DidYouMean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jgrapht.Graph;
import org.jgrapht.graph.AsUnmodifiableGraph;
import org.jgrapht.graph.SimpleGraph;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The join graph of a data lake (thesis §5.2): one node per table, an undirected edge between two tables whose
 * columns show join evidence, weighted by the joinability Ω(t_i, t_j) = max S(c_a, c_b) with
 * S = (S_schema + S_inst) · K. It answers the two questions of the rewriting loop: how joinable two tables are
 * ({@link #joinability}, the Table–Table Relevance of §5.1.2) and how to join two tables that may need
 * intermediate tables ({@link #findJoinPaths}, FIND_JOIN_PATH of §5.2.2).
 *
 * <pre>{@code
 * JoinGraph graph = JoinGraph.builder()
 *     .connection(lakeConnection)          // sandboxed, read-only is fine
 *     .embedder(miniLm)
 *     .cacheDirectory(lakeCacheDir)         // reuse join-graph.json while the fingerprint matches
 *     .lakeFingerprint(fingerprint)
 *     .build();
 * double omega = graph.joinability("capital", "region_of_new_zealand");
 * List<JoinPath> paths = graph.findJoinPaths("fictional_creature", "genre", 3);
 * }</pre>
 *
 * <p>A graph is immutable and thread-safe. {@link #findJoinPaths(String, String, int)} runs its statements on the
 * connection the graph was built with, one call at a time; threads that each hold their own connection (DuckDB:
 * {@code duplicate()}) call {@link #findJoinPaths(String, String, int, Connection)} concurrently.
 *
 * <p>Building costs O(V) to read and sketch V values, O(N · d) to embed N distinct column names, and for the
 * candidate search O(V · p + P) with average posting length p and P scored pairs ({@link
 * JoinGraphConfig.CandidateSearch}); the thesis build is O(C²) in the number of columns C. Queries: joinability
 * is O(1); Yen's algorithm is O(k · n · (m + n log n)) for k paths on n tables and m edges, plus the executed
 * joins.
 */
public final class JoinGraph {
  private static final Logger LOG = LoggerFactory.getLogger(JoinGraph.class);
  /** File name of the persisted graph inside the cache directory. */
  public static final String FILE_NAME = "join-graph.json";
  /** Directory inside the cache directory where column-name vectors are cached (unless the embedder caches). */
  public static final String EMBEDDINGS_DIRECTORY = "embeddings";
  /** Directory inside the cache directory where each table's column sketches are kept between builds. */
  public static final String SKETCHES_DIRECTORY = "sketches";
  static final int FORMAT_VERSION = 2; // 2: values compared without invisible characters and markup (Values.normalize)

  private final String fingerprint;
  private final String buildKey;
  private final List<GraphTable> tables;
  private final List<JoinEdge> edges;
  private final BuildStats stats;

  private final JoinGraphConfig config;
  private final @Nullable Connection connection;
  private final Map<String, GraphTable> byName;
  private final Graph<String, JoinEdge> graph;
  private List<String> readTables = List.of();
  private final Map<String, String> tableFingerprints;
  private final String searchSettings;
  /**
   * FIND_JOIN_PATH answers and measured join keys, kept for the graph's life: the graph's tables do not change
   * under it (a changed table makes a new graph), and on a large lake one answer costs tens of seconds. Answers
   * in which a statement failed (a timeout, say) are not kept, so a later call tries again.
   */
  private final Map<String, List<JoinPath>> pathMemo = new ConcurrentHashMap<>();
  private final Map<String, JoinKey> keyMemo = new ConcurrentHashMap<>();

  /**
   * How far a build has come: tables read and sketched of those to read (tables whose sketches are kept are not
   * read).
   */
  public record Progress(int tablesRead, int tablesToRead) {}

  JoinGraph(String fingerprint, String buildKey, List<GraphTable> tables, List<JoinEdge> edges, BuildStats stats,
      JoinGraphConfig config, @Nullable Connection connection) {
    this(fingerprint, buildKey, tables, edges, stats, config, connection, Map.of(), "");
  }

  /**
   * @param tableFingerprints the content fingerprint each table had when the graph was built (a refresh keeps the
   *     edges between tables whose fingerprint is unchanged)
   * @param searchSettings the build settings and the candidate search the edges were found with
   */
  JoinGraph(String fingerprint, String buildKey, List<GraphTable> tables, List<JoinEdge> edges, BuildStats stats,
      JoinGraphConfig config, @Nullable Connection connection, Map<String, String> tableFingerprints, String searchSettings) {
    this.tableFingerprints = Map.copyOf(tableFingerprints);
    this.searchSettings = Objects.requireNonNull(searchSettings, "searchSettings");
    this.fingerprint = Objects.requireNonNull(fingerprint, "fingerprint");
    this.buildKey = Objects.requireNonNull(buildKey, "buildKey");
    this.tables = List.copyOf(tables);
    this.edges = List.copyOf(edges);
    this.stats = Objects.requireNonNull(stats, "stats");
    this.config = Objects.requireNonNull(config, "config");
    this.connection = connection;
    Map<String, GraphTable> names = new LinkedHashMap<>();
    SimpleGraph<String, JoinEdge> g = new SimpleGraph<>(null, null, false);
    for (GraphTable t : this.tables) {
      if (names.put(t.name(), t) != null) {
        throw new IllegalArgumentException("table " + t.name() + " appears twice");
      }
      g.addVertex(t.name());
    }
    for (JoinEdge e : this.edges) {
      if (!names.containsKey(e.tableA()) || !names.containsKey(e.tableB())) {
        throw new IllegalArgumentException("edge " + e.tableA() + " — " + e.tableB() + " names an unknown table");
      }
      if (!g.addEdge(e.tableA(), e.tableB(), e)) {
        throw new IllegalArgumentException("edge " + e.tableA() + " — " + e.tableB() + " appears twice");
      }
    }
    this.byName = names;
    this.graph = new AsUnmodifiableGraph<>(g);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The lake fingerprint the graph was built for. */
  public String fingerprint() {
    return fingerprint;
  }

  /**
   * The key the graph is cached under: a digest of the format version, the lake fingerprint, the embedding model
   * and the build settings ({@link JoinGraphConfig#buildSignature()}).
   */
  public String buildKey() {
    return buildKey;
  }

  /** The tables, in the order the lake lists them. */
  public List<GraphTable> tables() {
    return tables;
  }

  /** The table called {@code name}. */
  public Optional<GraphTable> table(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** Every edge, ordered by table names. */
  public List<JoinEdge> edges() {
    return edges;
  }

  /** The edge between two tables, if any. */
  public Optional<JoinEdge> edge(String a, String b) {
    require(a);
    require(b);
    return Optional.ofNullable(graph.getEdge(a, b));
  }

  /**
   * Ω(a, b), the joinability of two tables (thesis §5.2.1), in [0, 2]; 0 when they share no edge (and for
   * {@code a} equal to {@code b}: self-joins are not edges). O(1).
   *
   * @throws IllegalArgumentException for a table the graph does not know, with the closest names
   */
  public double joinability(String a, String b) {
    return edge(a, b).map(JoinEdge::joinability).orElse(0.0);
  }

  /** The edges at {@code table}, strongest Ω first. */
  public List<JoinEdge> neighbours(String table) {
    require(table);
    List<JoinEdge> out = new ArrayList<>(graph.edgesOf(table));
    out.sort(Comparator.comparingDouble(JoinEdge::joinability).reversed()
        .thenComparing(e -> e.other(table)));
    return out;
  }

  /** A read-only JGraphT view (vertices are table names) for callers who want other graph algorithms. */
  public Graph<String, JoinEdge> graph() {
    return graph;
  }

  /**
   * The tables this instance read from the lake to build the graph: all for a first build, the new and changed
   * ones (by {@link Builder#tableFingerprints}) when the sketches of the others were kept, none when the graph was
   * loaded from its file. Not part of the graph's value ({@link #equals}).
   */
  public List<String> readTables() {
    return readTables;
  }

  /** How the graph was built (a loaded graph reports the build that wrote the file). */
  public BuildStats buildStats() {
    return stats;
  }

  /** The settings used for queries (and, if this graph was built here, for the build). */
  public JoinGraphConfig config() {
    return config;
  }

  /** This graph with other query settings ({@code λ, ε, α, k}, preview, caps); the edges stay as built. */
  public JoinGraph withConfig(JoinGraphConfig newConfig) {
    return new JoinGraph(fingerprint, buildKey, tables, edges, stats, newConfig, connection, tableFingerprints,
        searchSettings);
  }

  /** The content fingerprint of each table when the graph was built (empty when the builder had none). */
  Map<String, String> tableFingerprints() {
    return tableFingerprints;
  }

  /** The settings the edges were found with: build signature and candidate search (see {@link #searchSettings}). */
  String searchSettings() {
    return searchSettings;
  }

  /** What decides which edges a build finds: the model, the build signature and the search's own settings. */
  static String searchSettings(String modelId, JoinGraphConfig config, JoinGraphConfig.CandidateSearch resolved) {
    return "model=" + modelId + ";" + config.buildSignature() + ";search=" + resolved + ";sketch="
        + config.sketchSize() + ";postings=" + config.maxPostings();
  }

  /**
   * The k cheapest simple paths from {@code a} to {@code b} under C(P) (Yen's algorithm, JGraphT
   * {@code YenKShortestPath}), without touching the lake.
   */
  public List<PathCandidate> candidatePaths(String a, String b, int k) {
    checkEnds(a, b, k);
    return new JoinPathFinder(this, config, new ConcurrentHashMap<>()).candidates(a, b, k);
  }

  /** FIND_JOIN_PATH with k = {@link JoinGraphConfig#paths()} on the graph's own connection. */
  public List<JoinPath> findJoinPaths(String a, String b) {
    return findJoinPaths(a, b, config.paths());
  }

  /**
   * FIND_JOIN_PATH (thesis §5.2.2) on the connection the graph was built with; calls are serialised on it.
   *
   * @throws IllegalStateException when the graph was built or loaded without a connection
   */
  public List<JoinPath> findJoinPaths(String a, String b, int k) {
    if (connection == null) {
      throw new IllegalStateException("this join graph has no connection to execute joins on (it was built from "
          + "a ColumnSource or read from a file without one): call findJoinPaths(a, b, k, connection)");
    }
    synchronized (connection) {
      return findJoinPaths(a, b, k, connection);
    }
  }

  /**
   * FIND_JOIN_PATH (thesis §5.2.2): the k cheapest paths by Yen's algorithm on C(P); for each hop, the edge's
   * best {@code keysPerHop} column pairs are joined on {@code connection} and re-ranked by S_join; the path is then
   * joined on the best keys, counted (up to the row cap) and previewed. Paths whose join returns rows come first,
   * in cost order, then the others. Every statement has the configured time limit; a failed statement is recorded
   * in the result, not thrown.
   *
   * @param connection an open connection to the lake (the caller's; it is not closed)
   * @throws IllegalArgumentException for unknown tables (with the closest names), equal ends or k &lt; 1
   */
  public List<JoinPath> findJoinPaths(String a, String b, int k, Connection connection) {
    Objects.requireNonNull(connection, "connection");
    checkEnds(a, b, k);
    String memoKey = a + '\u0000' + b + '\u0000' + k;
    List<JoinPath> known = pathMemo.get(memoKey);
    if (known != null) {
      return known;
    }
    JoinPathFinder finder = new JoinPathFinder(this, config, keyMemo);
    List<JoinPath> paths = List.copyOf(finder.execute(finder.candidates(a, b, k), connection));
    if (paths.stream().allMatch(JoinGraph::ranCleanly)) {
      pathMemo.put(memoKey, paths);
    }
    return paths;
  }

  private static boolean ranCleanly(JoinPath path) {
    return path.error() == null && path.hops().stream().allMatch(h -> h.keys().stream().allMatch(k -> k.error() == null));
  }

  /** Writes the graph as compact JSON to {@code file} (atomically: a temporary file, then a move). */
  public void write(Path file) {
    JoinGraphFile.write(this, file);
  }

  /** Reads a graph written by {@link #write}; it gets the default query settings and no connection. */
  public static JoinGraph read(Path file) {
    return read(file, JoinGraphConfig.defaults(), null);
  }

  /** Reads a graph written by {@link #write}, with query settings and a connection to execute joins on. */
  public static JoinGraph read(Path file, JoinGraphConfig config, @Nullable Connection connection) {
    return JoinGraphFile.read(file, config, connection);
  }

  Graph<String, JoinEdge> jgraph() {
    return graph;
  }

  private void checkEnds(String a, String b, int k) {
    require(a);
    require(b);
    if (a.equals(b)) {
      throw new IllegalArgumentException("a join path needs two different tables, got " + a + " twice");
    }
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, was " + k);
    }
  }

  GraphTable require(String table) {
    Objects.requireNonNull(table, "table");
    GraphTable info = byName.get(table);
    if (info == null) {
      throw new IllegalArgumentException("unknown table '" + table + "'"
          + DidYouMean.hint(table, byName.keySet()));
    }
    return info;
  }

  /** Equal when built for the same lake and settings and holding the same tables, edges and build record. */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof JoinGraph)) {
      return false;
    }
    JoinGraph g = (JoinGraph) o;
    return fingerprint.equals(g.fingerprint) && buildKey.equals(g.buildKey) && tables.equals(g.tables)
        && edges.equals(g.edges) && stats.equals(g.stats);
  }

  @Override
  public int hashCode() {
    return Objects.hash(fingerprint, buildKey, tables, edges);
  }

  @Override
  public String toString() {
    return "JoinGraph{" + tables.size() + " tables, " + edges.size() + " edges, fingerprint=" + fingerprint + "}";
  }

  static String buildKey(String fingerprint, String modelId, JoinGraphConfig config) {
    String text = "format=" + FORMAT_VERSION + "\nfingerprint=" + fingerprint + "\nmodel=" + modelId + "\n"
        + config.buildSignature();
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * Builds a join graph, or loads it from the cache directory when the file there was built for the same lake
   * fingerprint, embedding model and build settings (and rebuilds and rewrites it otherwise).
   */
  public static final class Builder {
    private @Nullable Connection connection;
    private @Nullable ColumnSource source;
    private @Nullable Embedder embedder;
    private @Nullable Path cacheDirectory;
    private @Nullable String fingerprint;
    private JoinGraphConfig config = JoinGraphConfig.defaults();
    private Map<String, String> tableFingerprints = Map.of();
    private List<Connection> moreConnections = List.of();
    private java.util.function.Consumer<Progress> progress = p -> {};

    private Builder() {}

    /**
     * Identifies each table's content (table name → fingerprint). With a cache directory, every table's column
     * sketches are kept there under its fingerprint, and a rebuild after a change reads only the tables whose
     * fingerprint changed (or that are new); edges are then found again from all sketches, so the graph equals a
     * full rebuild. Tables without an entry are keyed by the lake fingerprint.
     */
    public Builder tableFingerprints(Map<String, String> fingerprints) {
      this.tableFingerprints = Map.copyOf(Objects.requireNonNull(fingerprints, "fingerprints"));
      return this;
    }

    /**
     * Further connections to the same lake: with them, tables are read in parallel, one table per connection at a
     * time (up to {@link JoinGraphConfig#parallelism()}). They are not closed.
     */
    public Builder moreConnections(List<Connection> connections) {
      this.moreConnections = List.copyOf(Objects.requireNonNull(connections, "connections"));
      return this;
    }

    /** Told how far a build has come. Default: nothing. */
    public Builder progress(java.util.function.Consumer<Progress> listener) {
      this.progress = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * The lake: tables and values are read from it (unless {@link #columnSource} is given) and FIND_JOIN_PATH
     * executes joins on it. Not closed by the graph.
     */
    public Builder connection(Connection connection) {
      this.connection = Objects.requireNonNull(connection, "connection");
      return this;
    }

    /** Reads tables and values from {@code source} instead of the connection (tests, benchmarks, other lakes). */
    public Builder columnSource(ColumnSource source) {
      this.source = Objects.requireNonNull(source, "source");
      return this;
    }

    /** Embeds column names for S_schema (all-MiniLM-L6-v2 in production). Required. */
    public Builder embedder(Embedder embedder) {
      this.embedder = Objects.requireNonNull(embedder, "embedder");
      return this;
    }

    /**
     * Where {@value JoinGraph#FILE_NAME} is kept; needs {@link #lakeFingerprint}. Optional. Unless the embedder is
     * a {@link CachingEmbedder} already, column-name vectors are cached in its {@value JoinGraph#EMBEDDINGS_DIRECTORY}
     * subdirectory too.
     */
    public Builder cacheDirectory(Path directory) {
      this.cacheDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    /** Identifies the lake's content; a different fingerprint makes the cached graph stale. */
    public Builder lakeFingerprint(String fingerprint) {
      Objects.requireNonNull(fingerprint, "fingerprint");
      if (fingerprint.isBlank()) {
        throw new IllegalArgumentException("lakeFingerprint must not be blank");
      }
      this.fingerprint = fingerprint;
      return this;
    }

    public Builder config(JoinGraphConfig config) {
      this.config = Objects.requireNonNull(config, "config");
      return this;
    }

    /**
     * Loads the cached graph if it is current, else builds (and caches) a new one.
     *
     * @throws IllegalStateException when neither a connection nor a column source, or no embedder, was given, or
     *     a cache directory without a fingerprint
     * @throws JoinGraphException when the lake cannot be read, the embedder fails or the file cannot be written
     */
    public JoinGraph build() {
      if (connection == null && source == null) {
        throw new IllegalStateException("JoinGraph.builder() needs connection(...) or columnSource(...)");
      }
      if (embedder == null) {
        throw new IllegalStateException("JoinGraph.builder() needs embedder(...) to compare column names");
      }
      if (cacheDirectory != null && fingerprint == null) {
        throw new IllegalStateException("cacheDirectory(...) needs lakeFingerprint(...): without it a cached graph "
            + "could outlive a change of the lake");
      }
      String print = fingerprint == null ? "unfingerprinted" : fingerprint;
      String key = buildKey(print, embedder.modelId(), config);
      Path file = cacheDirectory == null ? null : cacheDirectory.resolve(FILE_NAME);
      JoinGraph previous = null;
      if (file != null && Files.isRegularFile(file)) {
        try {
          JoinGraph cached = JoinGraphFile.read(file, config, connection);
          if (cached.buildKey().equals(key)) {
            LOG.info("join graph loaded from {}", file);
            return cached;
          }
          LOG.info("join graph in {} is stale (lake, model or settings changed): rebuilding", file);
          previous = cached;
        } catch (JoinGraphException e) {
          LOG.warn("join graph in {} is unreadable ({}): rebuilding", file, e.getMessage());
        }
      }
      List<Connection> connections = new ArrayList<>();
      if (connection != null) {
        connections.add(connection);
        connections.addAll(moreConnections);
      }
      ColumnSource reader = source != null ? source
          : ColumnSource.fromConnections(connections, config.maxScannedValues());
      SketchStore store = null;
      Map<String, String> fingerprints = Map.of();
      if (cacheDirectory != null) {
        store = new SketchStore(cacheDirectory.resolve(SKETCHES_DIRECTORY), "valueCap=" + config.valueCap()
            + ";maxScannedValues=" + config.maxScannedValues() + ";format=" + FORMAT_VERSION);
        Map<String, String> fps = new java.util.HashMap<>();
        for (ColumnSource.Table t : reader.tables()) {
          fps.put(t.name(), tableFingerprints.getOrDefault(t.name(), print));
        }
        fingerprints = fps;
      }
      GraphBuild.Result built;
      if (file != null && !(embedder instanceof CachingEmbedder)) {
        // Rebuilds after a lake change meet mostly the same column names: keep their vectors beside the graph.
        try (CachingEmbedder cached = CachingEmbedder.open(embedder, cacheDirectory.resolve(EMBEDDINGS_DIRECTORY))) {
          built = new GraphBuild(reader, cached, config, store, fingerprints, progress, previous).run();
        }
      } else {
        built = new GraphBuild(reader, embedder, config, store, fingerprints, progress, previous).run();
      }
      JoinGraph graph = new JoinGraph(print, key, built.tables(), built.edges(), built.stats(), config, connection,
          fingerprints, searchSettings(embedder.modelId(), config, built.stats().candidateSearch()));
      graph.readTables = built.readTables();
      if (file != null) {
        graph.write(file);
      }
      return graph;
    }
  }
}
