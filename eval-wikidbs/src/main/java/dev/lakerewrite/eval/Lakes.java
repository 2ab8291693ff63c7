package dev.lakerewrite.eval;

import dev.lakerewrite.core.DataLake;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Opens a lake from a path whatever its layout: a WikiDBs folder, a folder of Parquet/CSV/JSON files, a folder of
 * CSV files only, or a DuckDB file.
 */
public final class Lakes {

  private Lakes() {}

  /** The layouts core loads. */
  public enum Layout {
    /** {@code databases/<db>/tables/<table>.csv} (or {@code <db>/tables/<table>.csv}): {@code DataLake.fromWikiDbs}. */
    WIKIDBS,
    /** A folder of CSV/TSV files only: {@code DataLake.fromCsvFolder} (copied into DuckDB by default). */
    CSV_FOLDER,
    /**
     * A folder holding Parquet or JSON files, or Hive-partitioned folders ({@code key=value}): {@code
     * DataLake.fromFolder} (queried in place by default).
     */
    FOLDER,
    /** An existing DuckDB database file: {@code DataLake.open}. */
    DUCKDB_FILE;

    public String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * The layout of the lake at {@code path}: a file is a DuckDB database; a folder with {@code databases/} (or with
   * sub-folders holding {@code tables/}) is WikiDBs; a folder with Parquet or JSON files or {@code key=value}
   * folders anywhere below it is a mixed folder (a noisy copy's {@value NoisyLakes#RECORD_FILE} aside); any other
   * folder is a CSV folder.
   *
   * @throws IllegalArgumentException when nothing is at {@code path}
   */
  public static Layout detect(Path path) {
    Objects.requireNonNull(path, "path");
    if (!Files.exists(path)) {
      throw new IllegalArgumentException("no lake at " + path.toAbsolutePath().normalize()
          + ": expected a WikiDBs folder, a folder of CSV files or a DuckDB file");
    }
    if (Files.isRegularFile(path)) {
      return Layout.DUCKDB_FILE;
    }
    if (Files.isDirectory(path.resolve("databases"))) {
      return Layout.WIKIDBS;
    }
    try (Stream<Path> children = Files.list(path)) {
      if (children.anyMatch(c -> Files.isDirectory(c.resolve("tables")))) {
        return Layout.WIKIDBS;
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot list the lake folder " + path + ": " + e.getMessage(), e);
    }
    try (Stream<Path> all = Files.walk(path)) {
      return all.anyMatch(Lakes::mixedFolderMark) ? Layout.FOLDER : Layout.CSV_FOLDER;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot list the lake folder " + path + ": " + e.getMessage(), e);
    }
  }

  private static boolean mixedFolderMark(Path p) {
    String n = p.getFileName() == null ? "" : p.getFileName().toString().toLowerCase(Locale.ROOT);
    if (Files.isDirectory(p)) {
      return n.indexOf('=') > 0;
    }
    if (n.equals(NoisyLakes.RECORD_FILE)) {
      // A noisy copy's record of the cells it changed is the harness's, not a table: the copy is a CSV folder like
      // the lake it copies (loaded, typed and indexed the same way), without a noise_record table.
      return false;
    }
    return n.matches(".*\\.(parquet|parq|pq|json|jsonl|ndjson)(\\.gz|\\.zst)?");
  }

  /**
   * Opens the lake with its detected layout.
   *
   * @param cacheRoot where lakes keep their derived data; {@code null} for core's default
   */
  public static DataLake open(Path path, Path cacheRoot) {
    return open(path, detect(path), cacheRoot);
  }

  /** Opens the lake with the given layout. */
  public static DataLake open(Path path, Layout layout, Path cacheRoot) {
    return open(path, layout, cacheRoot, null);
  }

  /**
   * Opens the lake with the given layout and storage.
   *
   * @param storage in place or copied; {@code null} for the layout's default (mixed folders in place, the others
   *     copied)
   */
  public static DataLake open(Path path, Layout layout, Path cacheRoot, DataLake.@Nullable Storage storage) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(layout, "layout");
    DataLake.Builder b = DataLake.builder();
    if (cacheRoot != null) {
      b.cacheDirectory(cacheRoot);
    }
    if (storage != null) {
      b.storage(storage);
    }
    return switch (layout) {
      case WIKIDBS -> b.fromWikiDbs(path);
      case CSV_FOLDER -> b.fromCsvFolder(path);
      case FOLDER -> b.fromFolder(path);
      case DUCKDB_FILE -> b.open(path);
    };
  }
}
