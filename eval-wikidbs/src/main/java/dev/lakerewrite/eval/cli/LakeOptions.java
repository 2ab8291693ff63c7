package dev.lakerewrite.eval.cli;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeRewriteException;
import dev.lakerewrite.eval.Lakes;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The lake options every subcommand shares: where the lake is and where its derived data is cached. */
final class LakeOptions {

  @Option(names = "--lake", paramLabel = "PATH",
      description = "The lake: a WikiDBs folder (databases/<db>/tables/<table>.csv), a folder of Parquet, CSV and "
          + "JSON files (Hive-partitioned folders are one table), a folder of CSV files, or a DuckDB file. Default: "
          + "../shared/data/wikidbs-sample beside the repository.")
  @Nullable Path lake;

  @Option(names = "--storage", paramLabel = "in-place|copy",
      description = "Where tables live: in-place (views over the files) or copy (copied into the lake's DuckDB "
          + "file). Default: in-place for folders with Parquet or JSON files, copy for CSV and WikiDBs folders.")
  @Nullable String storage;

  @Option(names = "--cache", paramLabel = "DIR",
      description = "Where lakes keep their derived data (DuckDB file, indexes, join graph, noisy copies). "
          + "Default: $LAKEREWRITE_CACHE or ~/.cache/lakerewrite.")
  Path cache;

  /** The lake path, or the sample beside the repository. */
  Path lakePath() {
    return lake != null ? lake : LakeRewriteCli.home().resolve("../shared/data/wikidbs-sample").normalize();
  }

  /** The lake's layout; a missing lake is bad input. */
  Lakes.Layout layout() {
    try {
      return Lakes.detect(lakePath());
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage()
          + (lake == null ? " (the default; give --lake PATH for another lake)" : ""), e);
    }
  }

  /** The storage asked for, or null for the layout's default. */
  DataLake.@Nullable Storage storage() {
    if (storage == null) {
      return null;
    }
    return switch (storage.toLowerCase(java.util.Locale.ROOT).replace('_', '-')) {
      case "in-place", "inplace" -> DataLake.Storage.IN_PLACE;
      case "copy", "copied" -> DataLake.Storage.COPY;
      default -> throw new BadInputException("--storage must be in-place or copy, was '" + storage + "'");
    };
  }

  /** Opens the lake; a lake core cannot load is bad input. */
  DataLake open(Lakes.Layout layout) {
    try {
      return Lakes.open(lakePath(), layout, cache, storage());
    } catch (LakeRewriteException e) {
      throw new BadInputException("cannot load the lake: " + e.getMessage(), e);
    }
  }
}
