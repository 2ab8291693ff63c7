package dev.lakerewrite.core;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds a lake's table files and names its tables: one table per file, and one per Hive-partitioned folder
 * ({@code sales/year=2024/month=1/part-0.parquet} is table {@code sales}). Names follow the WikiDBs rule (the file
 * stem lower-cased, every run of characters outside {@code [a-z0-9]} replaced by {@code _}); when two files share a
 * name, each gets its folder's name as a prefix, and a clash that remains gets {@code _2}, {@code _3}.
 *
 * <p>Only files inside the lake folder are tables: a symbolic link whose target lies outside it is left out (with a
 * warning), so the sandbox never has to grant access outside the lake. Hidden files and folders ({@code .x}) and
 * Spark/Hive markers ({@code _SUCCESS}, {@code _committed}) are ignored. Scanning is cheap: names and file
 * attributes only, no file is opened.
 */
final class LakeFiles {
  private static final Pattern NOT_NAME = Pattern.compile("[^a-z0-9]+");
  private static final Pattern PARTITION = Pattern.compile("[^=/\\\\]+=[^/\\\\]*");
  private static final List<String> COMPRESSIONS = List.of(".gz", ".zst");

  /** The file formats a lake folder may hold. */
  enum Format {
    CSV(".csv", ".tsv"),
    JSON(".json", ".jsonl", ".ndjson"),
    PARQUET(".parquet", ".parq", ".pq");

    private final List<String> extensions;

    Format(String... extensions) {
      this.extensions = List.of(extensions);
    }

    /** Whether the format's readers decompress {@code .gz}/{@code .zst} themselves (Parquet compresses inside). */
    boolean compressible() {
      return this != PARQUET;
    }
  }

  /**
   * One table to load.
   *
   * @param table its name in SQL
   * @param format how its files are read
   * @param files its files, real paths, sorted (one, or several for a partitioned folder)
   * @param location the file, or the partitioned folder, as found under the lake root
   * @param database the folder it came from, relative to the lake root ({@code ""} at the root; the WikiDBs
   *     database name for WikiDBs lakes)
   * @param partitioned whether the table is a Hive-partitioned folder (partition keys become columns)
   */
  record SourceTable(String table, Format format, List<Path> files, Path location, String database,
      boolean partitioned) {
    SourceTable {
      files = List.copyOf(files);
    }

    SourceTable named(String name) {
      return new SourceTable(name, format, files, location, database, partitioned);
    }

    /** Whether this is a tab-separated file, read with a fixed tab delimiter. */
    boolean tabSeparated() {
      String n = location.getFileName().toString().toLowerCase(Locale.ROOT);
      return format == Format.CSV && (n.endsWith(".tsv") || n.endsWith(".tsv.gz") || n.endsWith(".tsv.zst"));
    }
  }

  /** What a scan found: the tables and the files it left out, with the reason. */
  record Scan(List<SourceTable> tables, List<String> warnings) {
    Scan {
      tables = List.copyOf(tables);
      warnings = List.copyOf(warnings);
    }
  }

  private LakeFiles() {}

  /** The WikiDBs rule: lower case, every run of characters outside {@code [a-z0-9]} replaced by {@code _}. */
  static String tableName(String stem) {
    return NOT_NAME.matcher(stem.toLowerCase(Locale.ROOT)).replaceAll("_");
  }

  /** The file's format by its extension (compressed CSV and JSON included), if it is a table file. */
  static Optional<Format> format(Path file) {
    String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
    for (Format f : Format.values()) {
      for (String ext : f.extensions) {
        if (n.endsWith(ext)) {
          return Optional.of(f);
        }
        if (f.compressible()) {
          for (String z : COMPRESSIONS) {
            if (n.endsWith(ext + z)) {
              return Optional.of(f);
            }
          }
        }
      }
    }
    return Optional.empty();
  }

  /** The file name without table extension and compression: {@code Sales 2024.csv.gz} → {@code Sales 2024}. */
  static String stem(Path file) {
    String name = file.getFileName().toString();
    String lower = name.toLowerCase(Locale.ROOT);
    for (String z : COMPRESSIONS) {
      if (lower.endsWith(z) && format(file).map(Format::compressible).orElse(false)) {
        name = name.substring(0, name.length() - z.length());
        lower = lower.substring(0, lower.length() - z.length());
        break;
      }
    }
    for (Format f : Format.values()) {
      for (String ext : f.extensions) {
        if (lower.endsWith(ext)) {
          return name.substring(0, name.length() - ext.length());
        }
      }
    }
    return name;
  }

  /**
   * Scans a WikiDBs folder: {@code databases/<db>/tables/<table>.csv}. All databases form one flat lake; when two
   * databases hold the same file stem, both tables get their database folder's name as a prefix.
   */
  static Scan wikiDbs(Path root) {
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
    Path realRoot = realPath(root);
    List<String> warnings = new ArrayList<>();
    List<Found> found = new ArrayList<>();
    for (Path db : list(databases).stream().filter(Files::isDirectory).sorted().toList()) {
      Path tables = db.resolve("tables");
      if (!Files.isDirectory(tables)) {
        continue;
      }
      for (Path f : list(tables)) {
        if (Files.isRegularFile(f) && format(f).orElse(null) == Format.CSV) {
          insideLake(f, realRoot, warnings).ifPresent(real -> found.add(new Found(f, tableName(stem(f)),
              db.getFileName().toString(), tableName(db.getFileName().toString()), Format.CSV, List.of(real), false)));
        }
      }
    }
    if (found.isEmpty()) {
      throw new LakeLoadException(root, "empty lake: no CSV files under databases/*/tables/");
    }
    return new Scan(name(found), warnings);
  }

  /** Scans a folder (recursively) for CSV/TSV files, optionally compressed; each file is a table. */
  static Scan csvFolder(Path root) {
    requireFolder(root, "DataLake.fromCsvFolder");
    Scan all = walk(root, false);
    List<SourceTable> csv = all.tables().stream().filter(t -> t.format() == Format.CSV).toList();
    if (csv.isEmpty()) {
      throw new LakeLoadException(root, "empty lake: no .csv or .tsv files in this folder or below it");
    }
    return new Scan(csv, all.warnings());
  }

  /**
   * Scans a folder (recursively) for Parquet, CSV/TSV and JSON/NDJSON files (CSV and JSON optionally compressed);
   * each file is a table, each Hive-partitioned folder one table.
   */
  static Scan folder(Path root) {
    requireFolder(root, "DataLake.fromFolder");
    Scan scan = walk(root, true);
    if (scan.tables().isEmpty()) {
      throw new LakeLoadException(root, "empty lake: no .parquet, .csv, .tsv, .json, .jsonl or .ndjson files in"
          + " this folder or below it" + (scan.warnings().isEmpty() ? "" : " (" + String.join("; ", scan.warnings())
          + ")"));
    }
    return scan;
  }

  /** A table found before naming: where it is and the name its stem (or folder) gives it. */
  private record Found(Path location, String base, String database, String prefix, Format format, List<Path> files,
      boolean partitioned) {}

  private static Scan walk(Path root, boolean partitions) {
    Path realRoot = realPath(root);
    List<String> warnings = new ArrayList<>();
    List<Found> found = new ArrayList<>();
    try {
      Files.walkFileTree(root, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
          if (!dir.equals(root) && ignored(dir, partitions)) {
            return FileVisitResult.SKIP_SUBTREE;
          }
          if (partitions && isPartitioned(dir)) {
            partitionedTable(root, dir, realRoot, warnings).ifPresent(found::add);
            return FileVisitResult.SKIP_SUBTREE;
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
          Optional<Format> f = format(file);
          if (f.isEmpty() || ignored(file, partitions)) {
            return FileVisitResult.CONTINUE;
          }
          if (!Files.isRegularFile(file)) {
            return FileVisitResult.CONTINUE;
          }
          insideLake(file, realRoot, warnings).ifPresent(real -> {
            Path parent = root.relativize(file).getParent();
            String folder = parent == null ? "" : parent.toString();
            found.add(new Found(file, tableName(stem(file)), folder, tableName(folder), f.get(), List.of(real),
                false));
          });
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path file, IOException e) {
          warnings.add(file + ": cannot be read (" + e.getMessage() + "); left out");
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new LakeLoadException(root, "cannot list the folder: " + e.getMessage(), e);
    }
    found.sort(Comparator.comparing(Found::location));
    return new Scan(name(found), warnings);
  }

  /**
   * Hidden files and folders; in mixed-format folders also Spark/Hive work folders and markers such as
   * {@code _temporary} and {@code _SUCCESS}.
   */
  private static boolean ignored(Path p, boolean underscore) {
    String n = p.getFileName().toString();
    return n.startsWith(".") || underscore && n.startsWith("_");
  }

  /** A folder is a partitioned table when some sub-folder is named {@code key=value}. */
  private static boolean isPartitioned(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(p -> Files.isDirectory(p) && PARTITION.matcher(p.getFileName().toString()).matches());
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The table of a partitioned folder: its files under {@code key=value} folders, of its most common format; files
   * of other formats or outside partition folders are left out with a warning.
   */
  private static Optional<Found> partitionedTable(Path root, Path dir, Path realRoot, List<String> warnings) {
    Map<Format, List<Path>> byFormat = new LinkedHashMap<>();
    List<Path> stray = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path f : walk.sorted().toList()) {
        if (Files.isDirectory(f) || format(f).isEmpty() || hiddenBelow(dir, f)) {
          continue;
        }
        Path rel = dir.relativize(f);
        boolean inPartitions = rel.getNameCount() > 1;
        for (int i = 0; i < rel.getNameCount() - 1; i++) {
          inPartitions &= PARTITION.matcher(rel.getName(i).toString()).matches();
        }
        if (!inPartitions) {
          stray.add(f);
          continue;
        }
        insideLake(f, realRoot, warnings).ifPresent(real ->
            byFormat.computeIfAbsent(format(f).orElseThrow(), k -> new ArrayList<>()).add(real));
      }
    } catch (IOException e) {
      warnings.add(dir + ": cannot list the partitioned folder (" + e.getMessage() + "); left out");
      return Optional.empty();
    }
    stray.forEach(f -> warnings.add(f + ": a file beside the partition folders of " + dir
        + " (not under key=value folders); left out"));
    if (byFormat.isEmpty()) {
      return Optional.empty();
    }
    Format main = byFormat.entrySet().stream().max(Comparator.comparingInt(e -> e.getValue().size()))
        .orElseThrow().getKey();
    byFormat.forEach((f, files) -> {
      if (f != main) {
        List<String> names = files.stream().limit(3).map(p -> p.getFileName().toString()).toList();
        warnings.add(files.size() + " " + f + " file(s) in the partitioned folder " + dir + " (" + String.join(", ",
            names) + (files.size() > 3 ? ", ..." : "") + ") whose other files are " + main
            + "; left out (one table reads one format)");
      }
    });
    Path parent = root.relativize(dir).getParent();
    String folder = parent == null ? "" : parent.toString();
    String base = tableName(dir.equals(root) ? String.valueOf(realRoot.getFileName()) : dir.getFileName().toString());
    return Optional.of(new Found(dir, base, folder, tableName(folder), main, byFormat.get(main), true));
  }

  private static boolean hiddenBelow(Path dir, Path f) {
    for (Path part : dir.relativize(f)) {
      if (ignored(part, true)) {
        return true;
      }
    }
    return false;
  }

  /** The file's real path when it lies inside the lake; otherwise empty, with a warning (a link out of the lake). */
  private static Optional<Path> insideLake(Path file, Path realRoot, List<String> warnings) {
    Path real;
    try {
      real = file.toRealPath();
    } catch (IOException e) {
      warnings.add(file + ": cannot be resolved (" + e.getMessage() + "); left out");
      return Optional.empty();
    }
    if (!real.startsWith(realRoot)) {
      warnings.add(file + ": a link to " + real + ", outside the lake folder; left out (the sandbox reads only"
          + " files inside the lake)");
      return Optional.empty();
    }
    return Optional.of(real);
  }

  /**
   * Names tables: the base name, or, when several tables share it, the folder's name as a prefix; any clash left
   * (same stem in one folder, say {@code a.csv} and {@code a.parquet}) gets {@code _2}, {@code _3}.
   */
  private static List<SourceTable> name(List<Found> found) {
    Map<String, Integer> baseCounts = new HashMap<>();
    for (Found f : found) {
      baseCounts.merge(f.base(), 1, Integer::sum);
    }
    Map<String, Integer> seen = new HashMap<>();
    List<SourceTable> out = new ArrayList<>();
    for (Found f : found) {
      String name = baseCounts.get(f.base()) > 1 && !f.prefix().isEmpty() ? f.prefix() + "_" + f.base() : f.base();
      int n = seen.merge(name, 1, Integer::sum);
      if (n > 1) {
        name = name + "_" + n;
      }
      out.add(new SourceTable(name, f.format(), f.files(), f.location(), f.database(), f.partitioned()));
    }
    return out;
  }

  private static boolean hasTablesFolders(Path root) {
    return list(root).stream().anyMatch(p -> Files.isDirectory(p.resolve("tables")));
  }

  static void requireFolder(Path root, String method) {
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

  static Path realPath(Path p) {
    try {
      return p.toRealPath();
    } catch (IOException e) {
      return p.toAbsolutePath().normalize();
    }
  }

  private static List<Path> list(Path dir) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    } catch (IOException e) {
      throw new LakeLoadException(dir, "cannot list the folder: " + e.getMessage(), e);
    }
  }
}
