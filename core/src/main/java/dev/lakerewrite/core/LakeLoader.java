package dev.lakerewrite.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.lakerewrite.sql.Sql;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds a lake's files, names its tables and materialises them into a DuckDB file in the lake's cache
 * directory, once: a manifest records the source fingerprint (paths, sizes, modification times), and a later
 * load with the same fingerprint reopens the file without reading a CSV. Loading is serialised per cache
 * directory across threads and processes.
 */
final class LakeLoader {
  /** Bump when naming or loading changes, so old cached lake files are rebuilt. */
  static final int FORMAT_VERSION = 2;
  static final String LAKE_FILE = "lake.duckdb";
  static final String MANIFEST_FILE = "manifest.json";

  private static final Pattern NOT_NAME = Pattern.compile("[^a-z0-9]+");
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Map<Path, Object> JVM_LOCKS = new ConcurrentHashMap<>();

  enum Layout { WIKIDBS, CSV_FOLDER }

  /** One table to load: its lake name, its file, and the database folder it came from (WikiDBs). */
  record SourceFile(String table, Path file, String database) {}

  /** The manifest written beside the materialised lake. */
  record Manifest(int formatVersion, String fingerprint, String layout, String source, List<ManifestTable> tables) {}

  record ManifestTable(String name, String file, String database) {}

  private LakeLoader() {}

  /** WikiDBs naming: lower case, every run of characters outside {@code [a-z0-9]} replaced by {@code _}. */
  static String tableName(String stem) {
    return NOT_NAME.matcher(stem.toLowerCase(Locale.ROOT)).replaceAll("_");
  }

  static String stem(Path file) {
    String name = file.getFileName().toString();
    for (String ext : List.of(".csv.gz", ".tsv.gz", ".csv", ".tsv")) {
      if (name.toLowerCase(Locale.ROOT).endsWith(ext)) {
        return name.substring(0, name.length() - ext.length());
      }
    }
    return name;
  }

  /**
   * Scans a WikiDBs folder: {@code databases/<db>/tables/<table>.csv}. All databases form one flat lake; when
   * two databases hold the same file stem, both tables get their database folder's name as a prefix.
   */
  static List<SourceFile> scanWikiDbs(Path root) {
    requireFolder(root, "DataLake.fromWikiDbs");
    Path databases = root.resolve("databases");
    if (!Files.isDirectory(databases)) {
      if (hasTablesFolders(root)) {
        databases = root;
      } else {
        throw new LakeLoadException(root, "not a WikiDBs folder: expected databases/<db>/tables/<table>.csv"
            + " inside it; for a plain folder of CSV files use DataLake.fromCsvFolder");
      }
    }
    List<Path> dbs = list(databases).stream().filter(Files::isDirectory).sorted().toList();
    List<Path[]> found = new ArrayList<>();
    for (Path db : dbs) {
      Path tables = db.resolve("tables");
      if (!Files.isDirectory(tables)) {
        continue;
      }
      for (Path f : list(tables)) {
        if (Files.isRegularFile(f) && isTableFile(f)) {
          found.add(new Path[] {db, f});
        }
      }
    }
    if (found.isEmpty()) {
      throw new LakeLoadException(root, "empty lake: no CSV files under databases/*/tables/");
    }
    Map<String, Integer> stemCounts = new HashMap<>();
    for (Path[] p : found) {
      stemCounts.merge(tableName(stem(p[1])), 1, Integer::sum);
    }
    List<SourceFile> out = new ArrayList<>();
    for (Path[] p : found) {
      String base = tableName(stem(p[1]));
      String dbName = p[0].getFileName().toString();
      String name = stemCounts.get(base) > 1 ? tableName(dbName) + "_" + base : base;
      out.add(new SourceFile(name, p[1], dbName));
    }
    return deduplicate(out);
  }

  /** Scans a folder (recursively) for CSV/TSV files, optionally gzipped; hidden folders are skipped. */
  static List<SourceFile> scanCsvFolder(Path root) {
    requireFolder(root, "DataLake.fromCsvFolder");
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(Files::isRegularFile)
          .filter(LakeLoader::isTableFile)
          .filter(p -> root.relativize(p).toString().chars().noneMatch(c -> c == 0))
          .filter(p -> !isHidden(root.relativize(p)))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new LakeLoadException(root, "cannot list the folder: " + e.getMessage(), e);
    }
    if (files.isEmpty()) {
      throw new LakeLoadException(root, "empty lake: no .csv or .tsv files in this folder or below it");
    }
    Map<String, Integer> stemCounts = new HashMap<>();
    for (Path f : files) {
      stemCounts.merge(tableName(stem(f)), 1, Integer::sum);
    }
    List<SourceFile> out = new ArrayList<>();
    for (Path f : files) {
      String base = tableName(stem(f));
      Path parent = root.relativize(f).getParent();
      String name = stemCounts.get(base) > 1 && parent != null
          ? tableName(parent.toString()) + "_" + base : base;
      out.add(new SourceFile(name, f, parent == null ? "" : parent.toString()));
    }
    return deduplicate(out);
  }

  private static boolean isHidden(Path relative) {
    for (Path part : relative) {
      if (part.toString().startsWith(".")) {
        return true;
      }
    }
    return false;
  }

  /** Makes names unique in the rare case prefixing was not enough: {@code x}, {@code x_2}, {@code x_3}. */
  private static List<SourceFile> deduplicate(List<SourceFile> files) {
    Map<String, Integer> seen = new HashMap<>();
    List<SourceFile> out = new ArrayList<>();
    for (SourceFile f : files) {
      int n = seen.merge(f.table(), 1, Integer::sum);
      out.add(n == 1 ? f : new SourceFile(f.table() + "_" + n, f.file(), f.database()));
    }
    return out;
  }

  private static boolean hasTablesFolders(Path root) {
    return list(root).stream().anyMatch(p -> Files.isDirectory(p.resolve("tables")));
  }

  private static boolean isTableFile(Path p) {
    String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
    return n.endsWith(".csv") || n.endsWith(".tsv") || n.endsWith(".csv.gz") || n.endsWith(".tsv.gz");
  }

  private static void requireFolder(Path root, String method) {
    if (!Files.exists(root)) {
      throw new LakeLoadException(root, "no such folder (" + method + " needs an existing lake folder)");
    }
    if (!Files.isDirectory(root)) {
      throw new LakeLoadException(root, "not a folder" + (root.toString().endsWith(".duckdb")
          ? "; to open a DuckDB database file use DataLake.open" : ""));
    }
    if (!Files.isReadable(root)) {
      throw new LakeLoadException(root, "folder is not readable");
    }
  }

  private static List<Path> list(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    } catch (IOException e) {
      throw new LakeLoadException(dir, "cannot list the folder: " + e.getMessage(), e);
    }
  }

  /** SHA-256 over the format version, layout and every file's relative path, size and modification time. */
  static String fingerprint(Path root, Layout layout, List<SourceFile> files) {
    StringBuilder sb = new StringBuilder("lakerewrite-lake v" + FORMAT_VERSION + "\n" + layout + "\n");
    for (SourceFile f : files.stream().sorted(Comparator.comparing(SourceFile::file)).toList()) {
      try {
        sb.append(f.table()).append('\t').append(root.relativize(f.file())).append('\t')
            .append(Files.size(f.file())).append('\t')
            .append(Files.getLastModifiedTime(f.file()).toMillis()).append('\n');
      } catch (IOException e) {
        throw new LakeLoadException(f.file(), "cannot read file attributes: " + e.getMessage(), e);
      }
    }
    return sha256(sb.toString());
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
    Path real;
    try {
      real = source.toRealPath();
    } catch (IOException e) {
      real = source.toAbsolutePath().normalize();
    }
    String slug = tableName(String.valueOf(real.getFileName()));
    if (slug.length() > 40) {
      slug = slug.substring(0, 40);
    }
    return cacheRoot.resolve(slug + "-" + sha256(real.toString()).substring(0, 12));
  }

  /**
   * Returns the materialised lake file for these sources, building it if the cache holds none for this
   * fingerprint.
   *
   * @throws LakeLoadException listing every unreadable file, unless {@code skipUnreadable}
   */
  static Path materialize(Path root, Layout layout, List<SourceFile> files, String fingerprint, Path cacheDir,
      boolean skipUnreadable, List<String> warnings) {
    Path lakeFile = cacheDir.resolve(LAKE_FILE);
    Path manifestFile = cacheDir.resolve(MANIFEST_FILE);
    try {
      Files.createDirectories(cacheDir);
    } catch (IOException e) {
      throw new LakeLoadException(cacheDir, "cannot create the lake's cache directory: " + e.getMessage(), e);
    }
    Object jvmLock = JVM_LOCKS.computeIfAbsent(cacheDir.toAbsolutePath().normalize(), k -> new Object());
    synchronized (jvmLock) {
      try (FileChannel ch = FileChannel.open(cacheDir.resolve(".lock"),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock ignored = ch.lock()) {
        Manifest existing = readManifest(manifestFile);
        if (existing != null && existing.fingerprint().equals(fingerprint) && Files.isRegularFile(lakeFile)) {
          return lakeFile;
        }
        build(root, layout, files, fingerprint, lakeFile, manifestFile, skipUnreadable, warnings);
        return lakeFile;
      } catch (IOException e) {
        throw new LakeLoadException(cacheDir, "cannot lock the lake's cache directory: " + e.getMessage(), e);
      }
    }
  }

  static Manifest readManifest(Path manifestFile) {
    if (!Files.isRegularFile(manifestFile)) {
      return null;
    }
    try {
      Manifest m = JSON.readValue(manifestFile.toFile(), Manifest.class);
      return m.formatVersion() == FORMAT_VERSION ? m : null;
    } catch (IOException e) {
      return null; // A damaged manifest only costs a rebuild.
    }
  }

  private static void build(Path root, Layout layout, List<SourceFile> files, String fingerprint, Path lakeFile,
      Path manifestFile, boolean skipUnreadable, List<String> warnings) throws IOException {
    Path tmp = lakeFile.resolveSibling(LAKE_FILE + ".building");
    Files.deleteIfExists(tmp);
    Files.deleteIfExists(tmp.resolveSibling(tmp.getFileName() + ".wal"));
    Map<SourceFile, String> failures = new LinkedHashMap<>();
    List<ManifestTable> loaded = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + tmp);
        Statement st = c.createStatement()) {
      st.execute("SET autoinstall_known_extensions = false");
      st.execute("SET autoload_known_extensions = false");
      for (SourceFile f : files) {
        try (Statement one = c.createStatement()) {
          one.execute("CREATE TABLE " + Sql.quoted(f.table()) + " AS SELECT * FROM "
              + readCsv(f.file(), layout == Layout.WIKIDBS));
          loaded.add(new ManifestTable(f.table(), root.relativize(f.file()).toString(), f.database()));
        } catch (SQLException e) {
          failures.put(f, e.getMessage().lines().findFirst().orElse(e.getMessage()));
        }
      }
      st.execute("CHECKPOINT");
    } catch (SQLException e) {
      throw new LakeLoadException(lakeFile, "cannot write the materialised lake: " + e.getMessage(), e);
    }
    if (!failures.isEmpty()) {
      StringBuilder msg = new StringBuilder(failures.size() + " of " + files.size() + " files could not be read:");
      failures.forEach((f, m) -> msg.append("\n  ").append(f.file()).append(": ").append(m));
      if (!skipUnreadable || loaded.isEmpty()) {
        Files.deleteIfExists(tmp);
        throw new LakeLoadException(root, msg + (loaded.isEmpty() ? "" :
            "\n(use DataLake.builder().skipUnreadableFiles(true) to load the others)"));
      }
      warnings.add(msg.toString());
    }
    moveAtomically(tmp, lakeFile);
    Manifest manifest = new Manifest(FORMAT_VERSION, fingerprint, layout.name(), root.toString(), loaded);
    Path manifestTmp = manifestFile.resolveSibling(MANIFEST_FILE + ".tmp");
    JSON.writeValue(manifestTmp.toFile(), manifest);
    moveAtomically(manifestTmp, manifestFile);
  }

  /**
   * The {@code read_csv(...)} call for one file: header row, DuckDB's type detection over the whole file. WikiDBs
   * files are always comma-separated with double quotes, so their dialect is fixed (the sniffer can misjudge a
   * noisy copy); other CSV files keep DuckDB's dialect detection.
   */
  static String readCsv(Path file, boolean fixedDialect) {
    String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
    boolean tsv = n.endsWith(".tsv") || n.endsWith(".tsv.gz");
    long size;
    try {
      size = Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // Sniffing the whole file avoids a type guessed from the first rows failing on a later one; beyond 64 MB
    // DuckDB's default sample is the better trade.
    String sample = size < 64L * 1024 * 1024 ? ", sample_size = -1" : "";
    String dialect = tsv ? ", delim = '\\t'" : fixedDialect ? ", delim = ',', quote = '\"', escape = '\"'" : "";
    return "read_csv(" + Sql.literal(file.toAbsolutePath().toString()) + ", header = true" + dialect + sample + ")";
  }

  private static void moveAtomically(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
