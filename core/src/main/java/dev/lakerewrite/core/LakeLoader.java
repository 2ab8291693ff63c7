package dev.lakerewrite.core;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.lakerewrite.core.IndexStatus.TableChange;
import dev.lakerewrite.core.LakeFiles.SourceTable;
import dev.lakerewrite.sql.Sql;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.duckdb.DuckDBConnection;
import org.jspecify.annotations.Nullable;

/**
 * Loads a lake folder into the DuckDB file in its cache directory: one view per table over its files (queried in
 * place) or, with {@link DataLake.Storage#COPY}, one table copied from them. A manifest beside it records each
 * table's files (path, size, modification time), reader and row count, and the table's fingerprint; a later load
 * compares the folder with it and touches only the tables whose files were added, changed or removed, reusing the
 * rest (no file of an unchanged table is opened). Loading is serialised per cache directory across threads and
 * processes; the file is replaced atomically, so lakes already open keep reading the version they opened.
 */
final class LakeLoader {
  /** Bump when naming, reading or the manifest change, so old cached lakes are rebuilt. */
  static final int FORMAT_VERSION = 4;
  static final String LAKE_FILE = "lake.duckdb";
  static final String MANIFEST_FILE = "manifest.json";

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
  private static final Map<Path, Object> JVM_LOCKS = new ConcurrentHashMap<>();

  /** How the folder is laid out (which scan and which CSV dialect). */
  enum Layout { WIKIDBS, CSV_FOLDER, FOLDER }

  /** A file of a table as it was when the table was loaded. */
  record ManifestFile(String path, long size, long modified) {}

  /**
   * A loaded table.
   *
   * @param name its name in SQL
   * @param format PARQUET, CSV or JSON
   * @param location the file or partitioned folder, relative to the lake folder
   * @param database the folder (WikiDBs: database) it came from
   * @param partitioned whether it is a Hive-partitioned folder
   * @param files its files
   * @param reader the reader call its view selects from, file paths relative to the lake folder
   *     ({@link TableReaders#resolve})
   * @param rows its row count
   * @param fingerprint identifies its content: layout, name, format and every file's path, size and time
   */
  record ManifestTable(String name, String format, String location, String database, boolean partitioned,
      List<ManifestFile> files, String reader, long rows, String fingerprint) {}

  /** The manifest written beside the lake file. */
  record Manifest(int formatVersion, String fingerprint, String layout, String storage, String source,
      List<ManifestTable> tables) {
    Manifest {
      tables = List.copyOf(tables);
    }
  }


  /**
   * A loaded lake.
   *
   * @param lakeFile the DuckDB file
   * @param manifest its manifest
   * @param changes tables added, changed and removed by this load (empty when the lake file was reused as is)
   * @param rebuiltFile whether the lake file was written by this load
   * @param warnings files left out and why
   */
  record Loaded(Path lakeFile, Manifest manifest, List<TableChange> changes, boolean rebuiltFile,
      List<String> warnings) {}

  private LakeLoader() {}

  /** WikiDBs naming: lower case, every run of characters outside {@code [a-z0-9]} replaced by {@code _}. */
  static String tableName(String stem) {
    return LakeFiles.tableName(stem);
  }

  static String sha256(String s) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  /** The per-lake cache directory: a readable slug of the source name and a hash of its real path. */
  static Path cacheDirectoryFor(Path cacheRoot, Path source) {
    Path real = LakeFiles.realPath(source);
    String slug = tableName(String.valueOf(real.getFileName()));
    if (slug.length() > 40) {
      slug = slug.substring(0, 40);
    }
    return cacheRoot.resolve(slug + "-" + sha256(real.toString()).substring(0, 12));
  }

  /** The files of each table with their current size and time, relative to the lake folder. */
  private static List<ManifestFile> stat(Path realRoot, SourceTable t) {
    List<ManifestFile> out = new ArrayList<>(t.files().size());
    for (Path f : t.files()) {
      try {
        out.add(new ManifestFile(realRoot.relativize(f).toString(), Files.size(f),
            Files.getLastModifiedTime(f).toMillis()));
      } catch (IOException e) {
        throw new LakeLoadException(f, "cannot read file attributes: " + e.getMessage(), e);
      }
    }
    return out;
  }

  /** A table's fingerprint: what it is read as and every file's path, size and modification time. */
  static String tableFingerprint(Layout layout, SourceTable t, List<ManifestFile> files) {
    StringBuilder sb = new StringBuilder("lakerewrite-table v" + FORMAT_VERSION + "\n" + layout + "\n" + t.table()
        + "\n" + t.format() + "\n" + t.partitioned() + "\n");
    for (ManifestFile f : files) {
      sb.append(f.path()).append('\t').append(f.size()).append('\t').append(f.modified()).append('\n');
    }
    return sha256(sb.toString());
  }

  /** The lake's fingerprint: its layout and its tables' fingerprints. */
  static String lakeFingerprint(Layout layout, List<ManifestTable> tables) {
    StringBuilder sb = new StringBuilder("lakerewrite-lake v" + FORMAT_VERSION + "\n" + layout + "\n");
    tables.stream().sorted(Comparator.comparing(ManifestTable::name))
        .forEach(t -> sb.append(t.name()).append('\t').append(t.fingerprint()).append('\n'));
    return sha256(sb.toString());
  }

  /**
   * Returns the lake file for these tables, building what changed since the last load (everything the first time).
   *
   * @param threads how many tables to detect and count at once
   * @throws LakeLoadException listing every unreadable file, unless {@code skipUnreadable}
   */
  static Loaded load(Path root, Layout layout, LakeFiles.Scan scan, DataLake.Storage storage, Path cacheDir,
      boolean skipUnreadable, int threads, String memoryLimit) {
    Path lakeFile = cacheDir.resolve(LAKE_FILE);
    Path manifestFile = cacheDir.resolve(MANIFEST_FILE);
    try {
      Files.createDirectories(cacheDir);
    } catch (IOException e) {
      throw new LakeLoadException(cacheDir, "cannot create the lake's cache directory: " + e.getMessage(), e);
    }
    Path realRoot = LakeFiles.realPath(root);
    Object jvmLock = JVM_LOCKS.computeIfAbsent(cacheDir.toAbsolutePath().normalize(), k -> new Object());
    synchronized (jvmLock) {
      try (FileChannel ch = FileChannel.open(cacheDir.resolve(".lock"),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock ignored = ch.lock()) {
        Manifest old = readManifest(manifestFile);
        Map<String, ManifestTable> previous = new LinkedHashMap<>();
        if (old != null && old.layout().equals(layout.name())) {
          old.tables().forEach(t -> previous.put(t.name(), t));
        }
        List<Planned> plan = new ArrayList<>();
        for (SourceTable t : scan.tables()) {
          List<ManifestFile> files = stat(realRoot, t);
          String fingerprint = tableFingerprint(layout, t, files);
          ManifestTable before = previous.get(t.table());
          plan.add(new Planned(t, files, fingerprint, before != null && before.fingerprint().equals(fingerprint)
              ? before : null, before));
        }
        List<TableChange> changes = changes(plan, previous, realRoot);
        boolean sameStorage = old != null && storage.name().equals(old.storage());
        // Views name their files: a lake folder moved (or copied with its cache) needs them written again.
        boolean sameFolder = old != null && realRoot.toString().equals(old.source());
        if (changes.isEmpty() && sameStorage && (sameFolder || storage == DataLake.Storage.COPY)
            && Files.isRegularFile(lakeFile) && old.tables().size() == plan.size()) {
          return new Loaded(lakeFile, old, List.of(), false, scan.warnings());
        }
        return build(realRoot, layout, plan, changes, storage, old, lakeFile, manifestFile, skipUnreadable, threads,
            memoryLimit, scan.warnings());
      } catch (IOException e) {
        throw new LakeLoadException(cacheDir, "cannot lock the lake's cache directory: " + e.getMessage(), e);
      }
    }
  }

  /** A scanned table, its current files and fingerprint, and its manifest entry if that is still current. */
  private record Planned(SourceTable table, List<ManifestFile> files, String fingerprint, ManifestTable current,
      ManifestTable previous) {}

  private static List<TableChange> changes(List<Planned> plan, Map<String, ManifestTable> previous,
      Path realRoot) {
    List<TableChange> out = new ArrayList<>();
    Set<String> present = new LinkedHashSet<>();
    for (Planned p : plan) {
      present.add(p.table().table());
      if (p.current() != null) {
        continue;
      }
      if (p.previous() == null) {
        out.add(new TableChange(p.table().table(), TableChange.Kind.ADDED,
            "new " + describe(realRoot, p.table())));
      } else {
        out.add(new TableChange(p.table().table(), TableChange.Kind.CHANGED, difference(p.previous(), p)));
      }
    }
    for (ManifestTable t : previous.values()) {
      if (!present.contains(t.name())) {
        out.add(new TableChange(t.name(), TableChange.Kind.REMOVED, t.location() + " is gone"));
      }
    }
    return out;
  }

  private static String describe(Path realRoot, SourceTable t) {
    String where = realRoot.relativize(LakeFiles.realPath(t.location())).toString();
    return t.partitioned() ? "partitioned folder " + where + " (" + t.files().size() + " files)" : "file " + where;
  }

  /** Why a table's fingerprint changed, in words: which files appeared, disappeared or changed. */
  private static String difference(ManifestTable before, Planned now) {
    Map<String, ManifestFile> old = new LinkedHashMap<>();
    before.files().forEach(f -> old.put(f.path(), f));
    List<String> parts = new ArrayList<>();
    for (ManifestFile f : now.files()) {
      ManifestFile o = old.remove(f.path());
      if (o == null) {
        parts.add(f.path() + " added");
      } else if (o.size() != f.size()) {
        parts.add(f.path() + " changed (size " + o.size() + " → " + f.size() + " bytes)");
      } else if (o.modified() != f.modified()) {
        parts.add(f.path() + " changed (modified " + java.time.Instant.ofEpochMilli(f.modified()) + ")");
      }
    }
    old.keySet().forEach(p -> parts.add(p + " removed"));
    if (!before.format().equals(now.table().format().name())) {
      parts.add("now read as " + now.table().format() + " (was " + before.format() + ")");
    }
    if (parts.isEmpty()) {
      parts.add("reading settings changed");
    }
    return parts.size() <= 3 ? String.join(", ", parts)
        : String.join(", ", parts.subList(0, 3)) + " and " + (parts.size() - 3) + " more";
  }

  static @Nullable Manifest readManifest(Path manifestFile) {
    if (!Files.isRegularFile(manifestFile)) {
      return null;
    }
    try {
      Manifest m = JSON.readValue(manifestFile.toFile(), Manifest.class);
      return m.formatVersion() == FORMAT_VERSION && m.tables() != null ? m : null;
    } catch (IOException | RuntimeException e) {
      return null; // A damaged manifest only costs a rebuild.
    }
  }

  private static Loaded build(Path realRoot, Layout layout, List<Planned> plan, List<TableChange> changes,
      DataLake.Storage storage, Manifest old, Path lakeFile, Path manifestFile, boolean skipUnreadable, int threads,
      String memoryLimit, List<String> scanWarnings) throws IOException {
    Path tmp = lakeFile.resolveSibling(LAKE_FILE + ".building");
    Files.deleteIfExists(tmp);
    Files.deleteIfExists(tmp.resolveSibling(tmp.getFileName() + ".wal"));
    boolean incrementalCopy = storage == DataLake.Storage.COPY && old != null
        && DataLake.Storage.COPY.name().equals(old.storage()) && old.layout().equals(layout.name())
        && Files.isRegularFile(lakeFile);
    if (incrementalCopy) {
      Files.copy(lakeFile, tmp, StandardCopyOption.REPLACE_EXISTING);
    }
    Map<Planned, String> failures = Collections.synchronizedMap(new LinkedHashMap<>());
    List<ManifestTable> loaded;
    List<Path> allowed = new ArrayList<>();
    for (Planned p : plan) {
      allowed.addAll(p.table().files());
    }
    Path temp = Sandbox.createTempDirectory();
    try (DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + tmp)) {
      // The build reads only the lake's files: the same sandbox as queries, but writable (it writes the lake file).
      Sandbox.apply(c, temp, memoryLimit, threads, allowed);
      if (storage == DataLake.Storage.COPY) {
        loaded = copy(c, realRoot, layout, plan, old, incrementalCopy, failures);
      } else {
        loaded = views(c, realRoot, layout, plan, threads, failures);
      }
      execute(c, "CHECKPOINT");
    } catch (SQLException e) {
      throw new LakeLoadException(lakeFile, "cannot write the lake file: " + e.getMessage(), e);
    } finally {
      Sandbox.deleteRecursively(temp);
    }
    List<String> warnings = new ArrayList<>(scanWarnings);
    if (!failures.isEmpty()) {
      StringBuilder msg = new StringBuilder(failures.size() + " of " + plan.size() + " files could not be read:");
      failures.forEach((p, m) -> msg.append("\n  ").append(p.table().location()).append(": ").append(m));
      if (!skipUnreadable || loaded.isEmpty()) {
        Files.deleteIfExists(tmp);
        throw new LakeLoadException(realRoot, msg + (loaded.isEmpty() ? "" :
            "\n(use DataLake.builder().skipUnreadableFiles(true) to load the others)"));
      }
      warnings.add(msg.toString());
    }
    moveAtomically(tmp, lakeFile);
    Manifest manifest = new Manifest(FORMAT_VERSION, lakeFingerprint(layout, loaded), layout.name(), storage.name(),
        realRoot.toString(), loaded);
    Path manifestTmp = manifestFile.resolveSibling(MANIFEST_FILE + ".tmp");
    JSON.writeValue(manifestTmp.toFile(), manifest);
    moveAtomically(manifestTmp, manifestFile);
    Set<String> failed = new LinkedHashSet<>();
    failures.keySet().forEach(p -> failed.add(p.table().table()));
    List<TableChange> done = changes.stream().filter(ch -> !failed.contains(ch.table())).toList();
    return new Loaded(lakeFile, manifest, done, true, warnings);
  }

  /**
   * In place: detects the reader of every new or changed table (in parallel) and writes one view per table; the
   * views file is small and rewritten whole.
   */
  private static List<ManifestTable> views(DuckDBConnection c, Path realRoot, Layout layout, List<Planned> plan,
      int threads, Map<Planned, String> failures) throws SQLException {
    Map<Planned, ManifestTable> entries = new ConcurrentHashMap<>();
    List<Planned> todo = new ArrayList<>();
    for (Planned p : plan) {
      if (p.current() != null) {
        entries.put(p, p.current());
      } else {
        todo.add(p);
      }
    }
    Parallel.forEach(todo, threads, "lakerewrite-load", p -> {
      try (Connection d = duplicate(c)) {
        TableReaders.Reader r = TableReaders.detect(d, p.table(), realRoot, layout == Layout.WIKIDBS);
        entries.put(p, entry(realRoot, p, r.template(), r.rows()));
      } catch (SQLException e) {
        failures.put(p, firstLine(e));
      }
    });
    // One transaction: a commit per view would write (and sync) the lake file's log thousands of times. Should a
    // view fail, the transaction is rolled back and the views are created one by one, so that only it is left out.
    List<ManifestTable> ordered = new ArrayList<>();
    for (Planned p : plan) {
      if (entries.containsKey(p)) {
        ordered.add(entries.get(p));
      }
    }
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      for (ManifestTable t : ordered) {
        createView(c, t, realRoot);
      }
      c.commit();
      return ordered;
    } catch (SQLException e) {
      c.rollback();
    } finally {
      c.setAutoCommit(autoCommit);
    }
    List<ManifestTable> out = new ArrayList<>();
    for (Planned p : plan) {
      ManifestTable t = entries.get(p);
      if (t == null) {
        continue;
      }
      try {
        createView(c, t, realRoot);
        out.add(t);
      } catch (SQLException e) {
        failures.put(p, firstLine(e));
      }
    }
    return out;
  }

  private static void createView(Connection c, ManifestTable t, Path realRoot) throws SQLException {
    execute(c, "CREATE VIEW " + Sql.quoted(t.name()) + " AS SELECT * FROM "
        + TableReaders.resolve(t.reader(), realRoot));
  }

  /**
   * Copied: starting from the previous lake file when there is one, drops the tables that changed or went and copies
   * the new and changed ones.
   */
  private static List<ManifestTable> copy(DuckDBConnection c, Path realRoot, Layout layout, List<Planned> plan,
      Manifest old, boolean incremental, Map<Planned, String> failures) throws SQLException {
    Set<String> keep = new LinkedHashSet<>();
    for (Planned p : plan) {
      if (p.current() != null && incremental) {
        keep.add(p.table().table());
      }
    }
    if (incremental) {
      for (ManifestTable t : old.tables()) {
        if (!keep.contains(t.name())) {
          execute(c, "DROP TABLE IF EXISTS " + Sql.quoted(t.name()));
        }
      }
    }
    List<ManifestTable> out = new ArrayList<>();
    for (Planned p : plan) {
      if (keep.contains(p.table().table())) {
        out.add(p.current());
        continue;
      }
      try {
        boolean wiki = layout == Layout.WIKIDBS;
        boolean whole = TableReaders.sniffWhole(p.table());
        String reader = TableReaders.expression(c, p.table(), realRoot, wiki, whole);
        String create = "CREATE TABLE " + Sql.quoted(p.table().table()) + " AS SELECT * FROM ";
        try {
          execute(c, create + TableReaders.resolve(reader, realRoot));
        } catch (SQLException e) {
          if (whole) {
            throw e;
          }
          // A value beyond the sniffed sample: detect again over every row.
          reader = TableReaders.expression(c, p.table(), realRoot, wiki, true);
          execute(c, create + TableReaders.resolve(reader, realRoot));
        }
        long rows;
        try (Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT count(*) FROM " + Sql.quoted(p.table().table()))) {
          rs.next();
          rows = rs.getLong(1);
        }
        out.add(entry(realRoot, p, reader, rows));
      } catch (SQLException e) {
        failures.put(p, firstLine(e));
      }
    }
    return out;
  }

  private static ManifestTable entry(Path realRoot, Planned p, String reader, long rows) {
    SourceTable t = p.table();
    return new ManifestTable(t.table(), t.format().name(),
        realRoot.relativize(LakeFiles.realPath(t.location())).toString(), t.database(), t.partitioned(), p.files(),
        reader, rows, p.fingerprint());
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static Connection duplicate(DuckDBConnection c) throws SQLException {
    synchronized (c) {
      return c.duplicate();
    }
  }

  private static String firstLine(SQLException e) {
    String m = Objects.requireNonNullElse(e.getMessage(), e.toString());
    return m.lines().findFirst().orElse(m);
  }

  private static void moveAtomically(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
