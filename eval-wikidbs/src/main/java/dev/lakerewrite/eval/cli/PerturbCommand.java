package dev.lakerewrite.eval.cli;

import dev.lakerewrite.eval.DifficultyTag;
import dev.lakerewrite.eval.QueryResultPair;
import dev.lakerewrite.eval.perturb.LakePerturber;
import dev.lakerewrite.eval.perturb.PerturbedCorpus;
import dev.lakerewrite.eval.perturb.PerturbedLake;
import dev.lakerewrite.eval.perturb.QueryGenerator;
import dev.lakerewrite.eval.perturb.SourceQuery;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakerewrite perturb}: disorganizes a clean DuckDB database into a lake and verified query–result pairs
 * ({@link LakePerturber}).
 */
@Command(name = "perturb", sortOptions = false,
    description = {"Turns a clean DuckDB database and queries over it into a disorganized lake (CSV files: renamed "
        + "tables and columns, tables split by columns and by rows, re-encoded values, a noisy copy) and "
        + "query/result pairs whose golden queries undo the disorder exactly (each verified; the rest are dropped "
        + "with the reason). Everything is drawn from --seed. Writes lake/, noisy-lake/, pairs.json and "
        + "manifest.json; evaluate with 'lakerewrite eval --lake OUT/lake --pairs OUT/pairs.json'.",
        "Exit code 0 when the lake was written, 2 for bad input, 1 for internal failures."})
final class PerturbCommand implements Callable<Integer> {

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--db", paramLabel = "FILE", description = "The clean DuckDB database (read only).")
  @Nullable Path db;

  @Option(names = "--corpus", paramLabel = "NAME",
      description = "Instead of --db: build (or find up to date) a whole corpus with its fit / held-out split: "
          + "wikidbs-perturbed, tpch, tpcds (scale factor 0.01), or all. Written under --corpora.")
  @Nullable String corpus;

  @Option(names = "--corpora", paramLabel = "DIR",
      description = "Where corpora are built. Default: target/corpora in the repository.")
  Path corpora;

  @Option(names = "--lake", paramLabel = "PATH",
      description = "The WikiDBs folder the wikidbs-perturbed corpus is made from. Default: ../shared/data/wikidbs-sample.")
  Path sample;

  @Option(names = "--queries", paramLabel = "PATH",
      description = "Queries over the database: a .sql file of ';'-separated queries, or a folder of .sql files.")
  @Nullable Path queries;

  @Option(names = "--generate", paramLabel = "N", defaultValue = "0",
      description = "Also generate N queries of every SQL shape over the database (default ${DEFAULT-VALUE}).")
  int generate;

  @Option(names = "--out", paramLabel = "DIR", description = "Output folder (must not exist or be empty).")
  @Nullable Path out;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of every draw (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--tables", paramLabel = "LIST", split = ",", description = "Only these tables (default all).")
  List<String> tables = new ArrayList<>();

  @Option(names = "--vertical-split-rate", paramLabel = "R", defaultValue = "0.3",
      description = "Probability that a table is split by columns (default ${DEFAULT-VALUE}).")
  double verticalSplitRate;

  @Option(names = "--horizontal-split-rate", paramLabel = "R", defaultValue = "0.25",
      description = "Probability that a table is split by rows (default ${DEFAULT-VALUE}).")
  double horizontalSplitRate;

  @Option(names = "--encoding-rate", paramLabel = "R", defaultValue = "0.35",
      description = "Base probability that a column is re-encoded (default ${DEFAULT-VALUE}).")
  double encodingRate;

  @Option(names = "--noise-table-rate", paramLabel = "R", defaultValue = "0.25",
      description = "Probability that a lake table gets cell noise in the noisy copy (default ${DEFAULT-VALUE}).")
  double noiseTableRate;

  @Option(names = "--noise-rate", paramLabel = "R", defaultValue = "0.05",
      description = "Noise injector rate per noise kind in a noisy table (default ${DEFAULT-VALUE}).")
  double noiseRate;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "csv",
      description = "Table files: csv (default), parquet (exact types) or mixed (drawn per table).")
  String format;

  @Option(names = "--max-rows", paramLabel = "N", defaultValue = "2000",
      description = "Drop queries whose result has more rows (default ${DEFAULT-VALUE}).")
  int maxRows;

  @Option(names = "--cache", paramLabel = "DIR",
      description = "Where the verification loads keep derived data. Default: $LAKEREWRITE_CACHE or ~/.cache/lakerewrite.")
  @Nullable Path cache;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() throws IOException {
    if (corpus != null) {
      if (db != null || queries != null || out != null) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--corpus builds a whole corpus: give no --db, "
            + "--queries or --out with it");
      }
      PrintWriter w = spec.commandLine().getOut();
      for (PerturbedCorpus.Index index : Suites.buildCorpora(corpus, corporaRoot(corpora), sample, cache,
          message -> {
            w.println(message);
            w.flush();
          })) {
        Suites.printCorpus(w, index);
      }
      return LakeRewriteCli.OK;
    }
    if (db == null || out == null) {
      throw new CommandLine.ParameterException(spec.commandLine(), "give --db FILE and --out DIR (or --corpus NAME)");
    }
    if (queries == null && generate == 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "give --queries PATH, --generate N, or both");
    }
    if (generate < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--generate must be at least 0, was " + generate);
    }
    if (!Files.isRegularFile(db)) {
      throw new BadInputException("no DuckDB database at " + db.toAbsolutePath().normalize());
    }
    LakePerturber perturber;
    try {
      LakePerturber.Builder b = LakePerturber.builder().seed(seed).tables(tables)
          .verticalSplitRate(verticalSplitRate).horizontalSplitRate(horizontalSplitRate).encodingRate(encodingRate)
          .noiseTableRate(noiseTableRate).noiseCellRate(noiseRate).maxResultRows(maxRows).format(format());
      if (cache != null) {
        b.cacheDirectory(cache);
      }
      perturber = b.build();
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    List<SourceQuery> all = new ArrayList<>();
    try {
      if (queries != null) {
        all.addAll(SourceQuery.readAll(queries));
      }
      if (generate > 0) {
        all.addAll(QueryGenerator.builder().seed(seed).count(generate).maxRows(Math.min(maxRows, 500)).tables(tables)
            .build().generate(db, "gen"));
      }
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    } catch (SQLException e) {
      throw new BadInputException("cannot read the database " + db + ": " + e.getMessage(), e);
    }
    PerturbedLake lake;
    try {
      lake = perturber.perturb(db, all, out);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    print(spec.commandLine().getOut(), lake, all.size());
    return LakeRewriteCli.OK;
  }

  private LakePerturber.Format format() {
    for (LakePerturber.Format f : LakePerturber.Format.values()) {
      if (f.name().equalsIgnoreCase(format.strip())) {
        return f;
      }
    }
    throw new CommandLine.ParameterException(spec.commandLine(), "--format must be csv, parquet or mixed, was '"
        + format + "'");
  }

  /** The corpora root: the option, or target/corpora in the repository. */
  static Path corporaRoot(Path option) {
    return option != null ? option : LakeRewriteCli.home().resolve("target").resolve("corpora");
  }

  static void print(PrintWriter out, PerturbedLake lake, int queries) {
    out.printf(Locale.ROOT, "lake %s: %d tables (%s)%n", lake.lake(), lake.plan().lakeTables().size(),
        lake.plan().style());
    lake.noisyLake().ifPresent(n -> out.println("noisy copy: " + n + " (noise in " + lake.plan().noiseTables() + ")"));
    out.printf(Locale.ROOT, "pairs: %d of %d queries -> %s%n", lake.pairs().size(), queries, lake.pairFile());
    Map<String, Integer> tags = new TreeMap<>();
    Map<String, Integer> kinds = new TreeMap<>();
    for (QueryResultPair p : lake.pairs()) {
      p.difficultyTags().stream().map(DifficultyTag::label).forEach(t -> tags.merge(t, 1, Integer::sum));
      p.perturbations().forEach(k -> kinds.merge(k, 1, Integer::sum));
    }
    out.println("  by error type:   " + tags);
    out.println("  by perturbation: " + kinds);
    if (!lake.dropped().isEmpty()) {
      out.println("dropped: " + lake.dropped().size() + " " + lake.droppedByReason() + " (reasons per query in "
          + lake.manifest() + ")");
    }
    out.flush();
  }
}
