package dev.lakerewrite.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import dev.lakerewrite.retrieval.LakeIndex;
import org.duckdb.DuckDBConnection;
import org.jspecify.annotations.Nullable;

/**
 * A data lake held in DuckDB: a folder of Parquet, CSV and JSON files queried in place (or copied into a DuckDB
 * file), a folder of CSV files, a WikiDBs folder, or an existing DuckDB database file, opened read-only and
 * sandboxed. Thread-safe: each thread {@linkplain #openSession()
 * opens a session} with its own connection; one lake serves any number of concurrent rewrites.
 *
 * <pre>{@code
 * try (DataLake lake = DataLake.fromWikiDbs(Path.of("wikidbs-sample"));
 *      LakeSession session = lake.openSession()) {
 *   Execution e = session.execute("SELECT label, population FROM region_of_new_zealand");
 * }
 * }</pre>
 *
 * <p>Loading is persistent: the first load writes a DuckDB file in the lake's cache directory
 * ({@code ~/.cache/lakerewrite/<lake>-<hash>/} by default; {@code LAKEREWRITE_CACHE} or the builder change it)
 * holding one view per table over its files ({@link Storage#IN_PLACE}) or a copy of every table
 * ({@link Storage#COPY}); later loads compare the folder with the manifest beside that file and redo only the
 * tables whose files were added, changed or removed ({@link #changes()}). The source files are never modified,
 * and neither is the lake file once built: every connection is read-only.
 */
public final class DataLake implements AutoCloseable {
  private static final Pattern MEMORY = Pattern.compile("\\d+(\\.\\d+)?\\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)",
      Pattern.CASE_INSENSITIVE);

  private final Path source;
  private final Path databaseFile;
  private final Path cacheDirectory;
  private final String fingerprint;
  private final DuckDBConnection root;
  private final Path tempDirectory;
  private final QueryLimits queryLimits;
  private final LakeCatalog catalog;
  private final List<String> warnings;
  private final List<IndexStatus.TableChange> changes;
  private final Storage storage;
  private final int threads;
  private final long valueEmbeddingBudget;
  private final IndexStatus.Stage loadStage;
  private final Object indexLock = new Object();
  private final Set<LakeSession> sessions = ConcurrentHashMap.newKeySet();
  private volatile @Nullable LakeServices services;
  private volatile boolean closed;

  private DataLake(Path source, Path databaseFile, Path cacheDirectory, String fingerprint, DuckDBConnection root,
      Path tempDirectory, QueryLimits queryLimits, LakeLoader.@Nullable Manifest manifest, List<String> warnings,
      List<IndexStatus.TableChange> changes, Storage storage, int threads, long valueEmbeddingBudget,
      Duration loadTime, boolean rebuiltFile) {
    this.source = source;
    this.databaseFile = databaseFile;
    this.cacheDirectory = cacheDirectory;
    this.fingerprint = fingerprint;
    this.root = root;
    this.tempDirectory = tempDirectory;
    this.queryLimits = queryLimits;
    this.warnings = List.copyOf(warnings);
    this.changes = List.copyOf(changes);
    this.storage = storage;
    this.threads = threads;
    this.valueEmbeddingBudget = valueEmbeddingBudget;
    this.catalog = new LakeCatalog(this, manifest);
    long added = changes.stream().filter(c -> c.kind() != IndexStatus.TableChange.Kind.REMOVED).count();
    int tables = manifest == null ? 0 : manifest.tables().size();
    this.loadStage = new IndexStatus.Stage(IndexStage.LOAD, added, Math.max(0, tables - added), loadTime,
        manifest == null ? "DuckDB file opened read-only"
            : (storage == Storage.IN_PLACE ? "views over the files" : "tables copied into the lake file") + ", "
                + (rebuiltFile ? "lake file written" : "lake file reused"));
  }

  /**
   * Opens a folder of Parquet, CSV/TSV and JSON/NDJSON files (CSV and JSON optionally {@code .gz} or {@code .zst}),
   * recursively: one table per file, one per Hive-partitioned folder ({@code sales/year=2024/...} is table
   * {@code sales}). The files are queried in place through views, with default settings; see
   * {@link Builder#storage} to copy them instead.
   */
  public static DataLake fromFolder(Path folder) {
    return builder().fromFolder(folder);
  }

  /** Loads every CSV/TSV file under {@code folder} (recursively) as one table each, with default settings. */
  public static DataLake fromCsvFolder(Path folder) {
    return builder().fromCsvFolder(folder);
  }

  /** Loads a WikiDBs folder ({@code databases/<db>/tables/<table>.csv}) as one flat lake, default settings. */
  public static DataLake fromWikiDbs(Path folder) {
    return builder().fromWikiDbs(folder);
  }

  /** Opens an existing DuckDB database file read-only, with default settings. */
  public static DataLake open(Path duckdbFile) {
    return builder().open(duckdbFile);
  }

  /** A builder for lakes with non-default cache location, resource limits or query limits. */
  public static Builder builder() {
    return new Builder();
  }

  /** The folder or file the lake was loaded from. */
  public Path source() {
    return source;
  }

  /**
   * The DuckDB file holding the lake's tables, or its views over the files when they are queried in place (in the
   * cache directory unless opened with {@link #open}).
   */
  public Path databaseFile() {
    return databaseFile;
  }

  /** Where this lake's derived data lives (materialised tables, profiles, indexes, the join graph). */
  public Path cacheDirectory() {
    return cacheDirectory;
  }

  /** Identifies the lake's content: changes whenever a source file changes. Derived caches are keyed by it. */
  public String fingerprint() {
    return fingerprint;
  }

  /** Tables, columns, types, row counts and column profiles. */
  public LakeCatalog catalog() {
    ensureOpen();
    return catalog;
  }

  /**
   * Problems met while loading that did not stop it: files skipped with {@code skipUnreadableFiles}, links to files
   * outside the lake folder, stray files in partitioned folders.
   */
  public List<String> warnings() {
    return warnings;
  }

  /** Whether the tables are views over the lake's files or copies in the lake file. */
  public Storage storage() {
    return storage;
  }

  /**
   * Tables this load added, changed or removed since the lake was last loaded from the same cache directory, with
   * the reason (every table is added the first time; nothing when the folder is unchanged).
   */
  List<IndexStatus.TableChange> changes() {
    return changes;
  }

  /** The limits sessions apply to queries by default. */
  public QueryLimits queryLimits() {
    return queryLimits;
  }

  /**
   * Builds everything rewrites need, or loads it from the lake's cache directory, so that no rewrite pays for it:
   * column profiles, the retrieval index (Lucene over schemas and values, names embedded), the join graph (column
   * sketches and joinable pairs), the embeddings of the values SEARCH_VALUE ranks (up to the builder's
   * {@linkplain Builder#valueEmbeddingBudget budget}) and the cleaning functions on the lake's DuckDB instance. After
   * files were added, changed or removed, only their tables are built again; the rest is reused. Rewrites do the
   * parts they need on first use; call this to pay the cost up front (the CLI's {@code index} command does).
   * Thread-safe; a second call finds everything in memory.
   *
   * @return the lake's size, the tables that changed since the last load (and why), and per stage what was built
   *     and what reused
   * @throws LakeIndexException if a component (the retrieval index, the join graph, the cleaning functions) failed
   *     to build or load; the message names the lake and the step, the cause is the component's exception
   * @throws IllegalStateException if the lake is closed
   */
  public IndexStatus index() {
    return index(IndexProgress.NONE);
  }

  /** {@link #index()}, telling {@code progress} how far each stage has come. */
  public IndexStatus index(IndexProgress progress) {
    Objects.requireNonNull(progress, "progress");
    ensureOpen();
    synchronized (indexLock) {
      long t0 = System.nanoTime();
      List<IndexStatus.Stage> stages = new ArrayList<>();
      stages.add(loadStage);
      int tables = catalog.tables().size();
      progress.update(IndexStage.LOAD, tables, tables);

      LakeServices s = services(progress);
      List<IndexStatus.Stage> built = new ArrayList<>(s.stages());
      // Services built by an earlier rewrite computed every profile then; a damaged profile cache is mended here.
      long p0 = System.nanoTime();
      List<String> profiled = catalog.computeMissingProfiles(threads,
          (done, total) -> progress.update(IndexStage.READ, done, total));
      if (!profiled.isEmpty()) {
        IndexStatus.Stage read = built.get(0);
        built.set(0, new IndexStatus.Stage(IndexStage.READ, read.built() + profiled.size(),
            Math.max(0, read.reused() - profiled.size()), read.time().plusNanos(System.nanoTime() - p0),
            read.detail()));
      }
      stages.addAll(built);

      long v0 = System.nanoTime();
      // The names rewrites compare assumed names with: column names are embedded with the index, table names here.
      s.index().embedder().embedAll(catalog.tableNames().stream().map(dev.lakerewrite.retrieval.Names::normalize)
          .filter(n -> !n.isEmpty()).distinct().toList());
      LakeIndex.ValueEmbedding values;
      try {
        values = s.index().embedValues(valueEmbeddingBudget,
            p -> progress.update(IndexStage.VALUES, p.done(), p.total()));
      } catch (RuntimeException e) {
        throw indexFailed("embedding the lake's values", e);
      }
      stages.add(new IndexStatus.Stage(IndexStage.VALUES, values.embedded(), values.cached(),
          Duration.ofNanos(System.nanoTime() - v0), values.deferred() == 0 ? "all string values"
              : values.deferred() + " values beyond the budget of " + valueEmbeddingBudget
                  + " left for their table's first search"));

      int columns = catalog.tables().stream().mapToInt(t -> t.columns().size()).sum();
      return new IndexStatus(tables, columns, s.joinGraph().edges().size(), changes, stages,
          Duration.ofNanos(System.nanoTime() - t0));
    }
  }

  /**
   * The lake's indexes, built on first use.
   *
   * @throws LakeIndexException if a component failed to build or load them
   * @throws IllegalStateException if the lake is closed
   */
  LakeServices services() {
    return services(IndexProgress.NONE);
  }

  /** A component's failure while indexing, in the library's exception family, saying which lake and which step. */
  private LakeIndexException indexFailed(String step, RuntimeException e) {
    if (e instanceof LakeIndexException already) {
      return already;
    }
    if (e instanceof IllegalStateException && closed) {
      throw e;
    }
    String component = e.getClass().getSimpleName();
    return new LakeIndexException("cannot index the lake " + source + " (cache " + cacheDirectory + "): " + step
        + " failed with " + component + ": " + e.getMessage(), e);
  }

  private LakeServices services(IndexProgress progress) {
    ensureOpen();
    LakeServices s = services;
    if (s == null) {
      synchronized (this) {
        s = services;
        if (s == null) {
          try {
            s = LakeServices.build(this, progress);
          } catch (RuntimeException e) {
            throw indexFailed("building the retrieval index and the join graph", e);
          }
          services = s;
        }
      }
    }
    return s;
  }

  /** DuckDB worker threads of this lake (also how many tables indexing reads at once). */
  int threads() {
    return threads;
  }

  /** Opens a session: a private sandboxed connection for one thread. Close it when done. */
  public LakeSession openSession() {
    ensureOpen();
    Connection duplicate;
    try {
      synchronized (root) {
        duplicate = root.duplicate();
      }
    } catch (SQLException e) {
      throw new LakeRewriteException("cannot open a session on the lake " + source + ": " + e.getMessage(), e);
    }
    LakeSession s = new LakeSession(this, duplicate, queryLimits);
    sessions.add(s);
    return s;
  }

  /** Number of sessions opened and not yet closed (a leak shows up here). */
  public int openSessionCount() {
    return sessions.size();
  }

  void sessionClosed(LakeSession s) {
    sessions.remove(s);
  }

  public boolean isClosed() {
    return closed;
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the lake " + source + " is closed");
    }
  }

  /** Closes every open session and the lake's connection, and removes its temp directory. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (LakeSession s : List.copyOf(sessions)) {
      s.close();
    }
    if (services != null) {
      services.close();
    }
    try {
      root.close();
    } catch (SQLException ignored) {
      // Read-only: nothing to flush.
    }
    Sandbox.deleteRecursively(tempDirectory);
  }

  @Override
  public String toString() {
    return "DataLake[" + source + ", " + (closed ? "closed" : catalog.tables().size() + " tables") + "]";
  }

  /** Where a lake's tables live. */
  public enum Storage {
    /**
     * Views over the files, read where they are at every query: no copy, nothing to load but each file's
     * schema. The sandbox lets DuckDB read exactly the lake's table files.
     */
    IN_PLACE,
    /**
     * A copy of every table in the lake's DuckDB file: twice the disk and a full read at the first load, but
     * DuckDB's own columnar storage afterwards (faster for CSV and JSON queried often). The sandbox reads no file.
     */
    COPY
  }

  /**
   * Settings for opening a lake; immutable once a lake is built from it. Terminal methods load the lake.
   * Defaults: cache under {@code $LAKEREWRITE_CACHE} or {@code ~/.cache/lakerewrite}; DuckDB memory limit 2 GB;
   * threads = available processors; queries limited to 30 s and 10,000 rows; storage {@link Storage#IN_PLACE} for
   * {@link #fromFolder} and {@link Storage#COPY} for {@link #fromCsvFolder} and {@link #fromWikiDbs}.
   */
  public static final class Builder {
    /** Values {@link DataLake#index()} embeds ahead by default: about a minute on two quiet cores. */
    public static final long DEFAULT_VALUE_EMBEDDING_BUDGET = 20_000;
    private @Nullable Path cacheRoot;
    private @Nullable Storage storage;
    private String memoryLimit = "2GB";
    private int threads = Runtime.getRuntime().availableProcessors();
    private QueryLimits queryLimits = QueryLimits.DEFAULT;
    private boolean skipUnreadableFiles;
    private long valueEmbeddingBudget = DEFAULT_VALUE_EMBEDDING_BUDGET;

    private Builder() {}

    /**
     * How many distinct string values {@link DataLake#index()} embeds at most (columns with the fewest values
     * first); values beyond it are embedded at their table's first SEARCH_VALUE. Default {@value
     * #DEFAULT_VALUE_EMBEDDING_BUDGET}; 0 embeds none ahead.
     */
    public Builder valueEmbeddingBudget(long values) {
      if (values < 0) {
        throw new IllegalArgumentException("valueEmbeddingBudget must be at least 0, was " + values);
      }
      this.valueEmbeddingBudget = values;
      return this;
    }

    /** The root under which each lake gets its own cache directory. */
    public Builder cacheDirectory(Path cacheRoot) {
      this.cacheRoot = Objects.requireNonNull(cacheRoot, "cacheRoot");
      return this;
    }

    /** DuckDB's memory limit for the lake, e.g. {@code "2GB"} or {@code "512MB"}. */
    public Builder memoryLimit(String limit) {
      Objects.requireNonNull(limit, "limit");
      if (!MEMORY.matcher(limit.strip()).matches()) {
        throw new IllegalArgumentException(
            "memoryLimit must be a number and a unit such as 512MB or 2GB, was '" + limit + "'");
      }
      this.memoryLimit = limit.strip();
      return this;
    }

    /** DuckDB worker threads for the lake (at least 1). */
    public Builder threads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be at least 1, was " + threads);
      }
      this.threads = threads;
      return this;
    }

    /** Default per-query limits of sessions. */
    public Builder queryLimits(QueryLimits limits) {
      this.queryLimits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** Shorthand for a default query time limit. */
    public Builder queryTimeout(Duration timeout) {
      this.queryLimits = queryLimits.withTimeout(timeout);
      return this;
    }

    /**
     * When true, files DuckDB cannot read are left out (and listed in {@link DataLake#warnings()}) instead of
     * failing the load. Default false: a lake silently missing tables is worse than an error.
     */
    public Builder skipUnreadableFiles(boolean skip) {
      this.skipUnreadableFiles = skip;
      return this;
    }

    /**
     * Where tables live: {@link Storage#IN_PLACE} (views over the files) or {@link Storage#COPY} (copied into the
     * lake's DuckDB file). Unset, {@link #fromFolder} queries in place and the CSV and WikiDBs loaders copy.
     */
    public Builder storage(Storage storage) {
      this.storage = Objects.requireNonNull(storage, "storage");
      return this;
    }

    /**
     * The folder this builder's lake of {@code lakeFolder} (or DuckDB file) keeps its derived data in: a readable
     * slug of its name and a hash of its real path under the cache root. Derived data is keyed by file content
     * (relative path, size, modification time), so a copy of a lake folder whose cache is copied here as well
     * reuses everything its unchanged files allow.
     */
    public Path cacheDirectoryFor(Path lakeFolder) {
      Objects.requireNonNull(lakeFolder, "lakeFolder");
      return LakeLoader.cacheDirectoryFor(cacheRoot(), lakeFolder);
    }

    /** See {@link DataLake#fromFolder(Path)}. */
    public DataLake fromFolder(Path folder) {
      Objects.requireNonNull(folder, "folder");
      return load(folder, LakeLoader.Layout.FOLDER, LakeFiles.folder(folder), Storage.IN_PLACE);
    }

    public DataLake fromCsvFolder(Path folder) {
      Objects.requireNonNull(folder, "folder");
      return load(folder, LakeLoader.Layout.CSV_FOLDER, LakeFiles.csvFolder(folder), Storage.COPY);
    }

    public DataLake fromWikiDbs(Path folder) {
      Objects.requireNonNull(folder, "folder");
      return load(folder, LakeLoader.Layout.WIKIDBS, LakeFiles.wikiDbs(folder), Storage.COPY);
    }

    /** Opens an existing DuckDB database file read-only; every table and view of it is a lake table. */
    public DataLake open(Path duckdbFile) {
      Objects.requireNonNull(duckdbFile, "duckdbFile");
      if (!Files.exists(duckdbFile)) {
        throw new LakeLoadException(duckdbFile, "no such DuckDB database file");
      }
      if (Files.isDirectory(duckdbFile)) {
        throw new LakeLoadException(duckdbFile,
            "is a folder; DataLake.open needs a DuckDB file (use fromFolder, fromCsvFolder or fromWikiDbs for"
                + " folders)");
      }
      String fingerprint;
      try {
        fingerprint = LakeLoader.sha256("duckdb\n" + duckdbFile.toRealPath() + "\n" + Files.size(duckdbFile)
            + "\n" + Files.getLastModifiedTime(duckdbFile).toMillis());
      } catch (IOException e) {
        throw new LakeLoadException(duckdbFile, "cannot read the file: " + e.getMessage(), e);
      }
      Path cacheDir = LakeLoader.cacheDirectoryFor(cacheRoot(), duckdbFile);
      return openSandboxed(duckdbFile, duckdbFile, cacheDir, fingerprint, null, List.of(), List.of(), Storage.COPY,
          Duration.ZERO, false);
    }

    private DataLake load(Path folder, LakeLoader.Layout layout, LakeFiles.Scan scan, Storage defaultStorage) {
      long t0 = System.nanoTime();
      Storage chosen = storage != null ? storage : defaultStorage;
      Path cacheDir = LakeLoader.cacheDirectoryFor(cacheRoot(), folder);
      LakeLoader.Loaded loaded = LakeLoader.load(folder, layout, scan, chosen, cacheDir, skipUnreadableFiles,
          threads, memoryLimit);
      List<String> warnings = new ArrayList<>(loaded.warnings());
      int missing = scan.tables().size() - loaded.manifest().tables().size();
      if (!loaded.rebuiltFile() && missing > 0) {
        warnings.add(missing + " of " + scan.tables().size()
            + " tables were skipped as unreadable when this lake was loaded");
      }
      return openSandboxed(folder, loaded.lakeFile(), cacheDir, loaded.manifest().fingerprint(), loaded.manifest(),
          warnings, loaded.changes(), chosen, Duration.ofNanos(System.nanoTime() - t0), loaded.rebuiltFile());
    }

    private DataLake openSandboxed(Path source, Path lakeFile, Path cacheDir, String fingerprint,
        LakeLoader.@Nullable Manifest manifest, List<String> warnings, List<IndexStatus.TableChange> changes,
        Storage storage, Duration loadTime, boolean rebuiltFile) {
      try {
        Files.createDirectories(cacheDir);
      } catch (IOException e) {
        throw new LakeLoadException(cacheDir, "cannot create the lake's cache directory: " + e.getMessage(), e);
      }
      Properties props = new Properties();
      props.setProperty("duckdb.read_only", "true");
      // Streaming results would lose DuckDB's error messages ("Invalid result set"); the executor caps rows
      // in SQL instead.
      // An isolated instance per lake: the process-wide cache would hand a second lake on the same file the first
      // one's (already locked) instance, settings and temp directory.
      props.setProperty("jdbc_instance_cache", "false");
      DuckDBConnection conn;
      try {
        conn = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + lakeFile.toAbsolutePath(), props);
      } catch (SQLException e) {
        throw new LakeLoadException(lakeFile, "cannot open as a DuckDB database: " + e.getMessage(), e);
      }
      Path temp = Sandbox.createTempDirectory();
      try {
        Sandbox.apply(conn, temp, memoryLimit, threads, readableFiles(manifest, storage));
        DataLake lake = new DataLake(source, lakeFile, cacheDir, fingerprint, conn, temp, queryLimits, manifest,
            warnings, changes, storage, threads, valueEmbeddingBudget, loadTime, rebuiltFile);
        lake.catalog.tables(); // read the catalog now, so a broken file fails here and not mid-rewrite
        return lake;
      } catch (RuntimeException e) {
        try {
          conn.close();
        } catch (SQLException ignored) {
          // Already failing; the original error matters.
        }
        Sandbox.deleteRecursively(temp);
        throw e;
      }
    }

    /** In place, the lake's table files (real paths) are all DuckDB may read; copied, nothing. */
    private static List<Path> readableFiles(LakeLoader.@Nullable Manifest manifest, Storage storage) {
      if (manifest == null || storage != Storage.IN_PLACE) {
        return List.of();
      }
      Path root = Path.of(manifest.source());
      List<Path> files = new ArrayList<>();
      for (LakeLoader.ManifestTable t : manifest.tables()) {
        for (LakeLoader.ManifestFile f : t.files()) {
          files.add(root.resolve(f.path()));
        }
      }
      return files;
    }

    private Path cacheRoot() {
      return cacheRoot != null ? cacheRoot : defaultCacheDirectory();
    }
  }

  /**
   * Where lakerewrite caches derived data by default: {@code -Dlakerewrite.cache}, else {@code $LAKEREWRITE_CACHE},
   * else {@code ~/.cache/lakerewrite}.
   */
  public static Path defaultCacheDirectory() {
    String prop = System.getProperty("lakerewrite.cache");
    if (prop != null && !prop.isBlank()) {
      return Path.of(prop);
    }
    String env = System.getenv("LAKEREWRITE_CACHE");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    return Path.of(System.getProperty("user.home"), ".cache", "lakerewrite");
  }

  /** The lake's root connection, for the catalog's own trusted reads. */
  Connection rootConnection() {
    return root;
  }
}
