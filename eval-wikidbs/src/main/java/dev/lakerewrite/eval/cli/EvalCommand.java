package dev.lakerewrite.eval.cli;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeRewriteException;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.eval.Ablation;
import dev.lakerewrite.eval.DifficultyTag;
import dev.lakerewrite.eval.EvalMethod;
import dev.lakerewrite.eval.EvalModel;
import dev.lakerewrite.eval.Evaluation;
import dev.lakerewrite.eval.EvaluationResult;
import dev.lakerewrite.eval.LakeQueryRunner;
import dev.lakerewrite.eval.Lakes;
import dev.lakerewrite.eval.LoadedPairs;
import dev.lakerewrite.eval.NoisyLakes;
import dev.lakerewrite.eval.PairFilter;
import dev.lakerewrite.eval.PairLoader;
import dev.lakerewrite.eval.PairProblem;
import dev.lakerewrite.eval.ProgressBar;
import dev.lakerewrite.eval.ProgressListener;
import dev.lakerewrite.eval.QueryResultPair;
import dev.lakerewrite.eval.ReportWriter;
import dev.lakerewrite.eval.RunInfo;
import dev.lakerewrite.eval.Variant;
import dev.lakerewrite.eval.SuiteReport;
import dev.lakerewrite.eval.VariantSummary;
import dev.lakerewrite.eval.perturb.PerturbedCorpus;
import dev.lakerewrite.sql.DidYouMean;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakerewrite eval}: runs the methods (and ablations, and models) over a pair file on a lake and writes the
 * report (thesis chapter 7).
 */
@Command(name = "eval", sortOptions = false,
    description = {
        "Evaluates the rewriter on query/result pairs (thesis chapter 7): every method, ablation and model over "
            + "every pair, scored against the gold results of the clean lake; Noise pairs run on a seeded noisy "
            + "copy of the lake. Writes summary.json, report.md, pairs.jsonl, PNG charts and one trace per pair.",
        "Exit code 0 when the run completed (whatever the scores), 2 for bad input, 1 for internal failures."})
final class EvalCommand implements Callable<Integer> {
  /** The key of {@link #idsByLake} under which the ids of development-set pairs (no lake in them) are. */
  private static final String DEV_SET_IDS = "";

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Mixin
  LakeOptions lakeOptions;

  @Option(names = "--suite", paramLabel = "LIST", split = ",",
      description = "Suites instead of one pair file: dev (the 118 development pairs), wikidbs-perturbed, tpch, "
          + "tpcds (TPC-H / TPC-DS at scale factor 0.01, disorganized), all, or "
          + "the folder of any corpus built with PerturbedCorpus (it has a corpus.json). "
          + "Perturbed suites run every lake of --split (corpora are built on first use, under --corpora) and "
          + "report per lake; suites.md / suites.json sum them up by SQL shape and perturbation kind.")
  List<String> suites = new ArrayList<>();

  @Option(names = "--split", paramLabel = "PART", defaultValue = "held-out",
      description = "Part of the perturbed corpora to run: held-out (default), fit, validation, or all.")
  String split;

  @Option(names = "--corpora", paramLabel = "DIR",
      description = "Where the perturbed corpora are (built on first use). Default: target/corpora in the repository.")
  Path corpora;

  @Option(names = "--pairs", paramLabel = "FILE",
      description = "Pair file (JSON). Default: the built-in development set for the WikiDBs sample.")
  @Nullable Path pairs;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Output folder. Default: target/eval/<timestamp> in the repository.")
  @Nullable Path out;

  @Option(names = "--method", paramLabel = "LIST", split = ",", defaultValue = "all",
      description = "Methods: iterative, one-step, retriever-rewriter, retriever-reader, or all (default). The LLM "
          + "baselines need a model and are skipped offline.")
  List<String> methods;

  @Option(names = "--ablation", paramLabel = "LIST", split = ",",
      description = "Ablations of the iterative method: no-build-cte, no-search-table, no-union-search, "
          + "no-search-value, no-join-graph, or all. Default: none.")
  List<String> ablations = new ArrayList<>();

  @Option(names = "--model", paramLabel = "LIST", split = ",",
      description = "Models side by side on the OpenAI-compatible endpoint of LAKEREWRITE_LLM_BASE_URL / "
          + "LAKEREWRITE_LLM_API_KEY; 'offline' for the offline agents. Default: $LAKEREWRITE_LLM_MODEL, else "
          + "offline.")
  List<String> models = new ArrayList<>();

  @Option(names = "--limit", paramLabel = "N", description = "Run only the first N pairs (after --id and --tag).")
  @Nullable Integer limit;

  @Option(names = "--id", paramLabel = "LIST", split = ",", description = "Run only these pair ids (in a "
      + "perturbed suite an id names its lake, tpch-s2/std-q12: lakes without a named pair are skipped).")
  List<String> ids = new ArrayList<>();

  @Option(names = "--tag", paramLabel = "LIST", split = ",",
      description = "Run only pairs with one of these difficulty tags (e.g. 'Noise', 'key-mismatch').")
  List<String> tags = new ArrayList<>();

  @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
      description = "Seed of the noise injector for the Noise pairs' lake (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--noise-rate", paramLabel = "R", defaultValue = "0.05",
      description = "Probability per applicable noise kind that a cell of a Noise pair's table gets it "
          + "(default ${DEFAULT-VALUE}).")
  double noiseRate;

  @Option(names = "--max-iterations", paramLabel = "N", defaultValue = "5",
      description = "Iterations of the iterative rewriter (default ${DEFAULT-VALUE}, as in the thesis).")
  int maxIterations;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "600",
      description = "Wall time per pair (default ${DEFAULT-VALUE}); the loop returns its best candidate then, and "
          + "a rewrite still running a little later is recorded as timed out.")
  long timeoutSeconds;

  @Option(names = "--jobs", paramLabel = "N", defaultValue = "1",
      description = "Pairs run at once (default ${DEFAULT-VALUE}; more helps LLM runs, skews offline latencies).")
  int jobs;

  @Option(names = "--no-warm-up",
      description = "Time cold runs: skip the untimed offline one-step pass over the pairs that fills the lake's "
          + "first-use caches before anything is timed.")
  boolean noWarmUp;

  @Option(names = "--no-progress", description = "No progress bar on stderr.")
  boolean noProgress;

  @Option(names = {"-v", "--verbose"}, description = "Log what the library does (info level) on stderr.")
  boolean verbose;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (verbose) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "info");
    }
    checkOptions();
    List<EvalMethod> methodList = parseAll(methods, EvalMethod::parse, List.of(EvalMethod.values()), "--method");
    List<Ablation> ablationList = parseAll(ablations, Ablation::parse, List.of(Ablation.values()), "--ablation");
    List<String> modelNames = modelNames();
    Set<DifficultyTag> tagFilter = parseTags();
    if (!suites.isEmpty()) {
      return runSuites(Suites.refs(suites), methodList, ablationList, modelNames, tagFilter);
    }
    // The pair file is read before the lake is opened, so a broken file fails in a second, not after loading.
    checkPairFile(pairs, PairLoader.parseOnly());
    List<Variant> variants = variants(methodList, ablationList, modelNames);
    Path outDir = outputDirectory();
    Evaluated e = evaluate(lakeOptions.lakePath(), lakeOptions.layout(), pairs, perturbedNoisyCopy(),
        variants, methodList, ablationList, modelNames, wantedIds(), tagFilter, outDir);
    printSummary(spec.commandLine().getOut(), e.result(), e.written());
    return LakeRewriteCli.OK;
  }

  /**
   * The noisy copy {@code perturb} wrote beside the lake ({@code OUT/noisy-lake} beside {@code OUT/lake}, with the
   * manifest), which its Noise pairs were made for: a perturbed lake evaluated on its own runs them there, as the
   * suites do, instead of on a copy noised anew over every table the pairs read.
   */
  private Optional<Path> perturbedNoisyCopy() {
    Path lake = lakeOptions.lakePath().toAbsolutePath().normalize();
    Path parent = lake.getParent();
    if (parent == null || !lake.getFileName().toString().equals("lake")
        || !Files.isRegularFile(parent.resolve("manifest.json"))) {
      return Optional.empty();
    }
    Path noisy = parent.resolve("noisy-lake");
    return Files.isDirectory(noisy) ? Optional.of(noisy) : Optional.empty();
  }

  private List<Variant> variants(List<EvalMethod> methodList, List<Ablation> ablationList, List<String> modelNames) {
    List<EvalModel> modelList = buildModels(modelNames);
    List<Variant> variants = new ArrayList<>();
    for (EvalModel m : modelList) {
      methodList.forEach(meth -> variants.add(Variant.of(meth, m)));
    }
    for (EvalModel m : modelList) {
      ablationList.forEach(a -> variants.add(Variant.ablated(a, m)));
    }
    if (variants.stream().allMatch(v -> v.unavailableReason().isPresent())) {
      throw new BadInputException("nothing can run: " + variants.get(0).unavailableReason().orElseThrow());
    }
    return variants;
  }

  /**
   * The suites: the dev set as usual, and for each perturbed suite every lake of the chosen split, each with its
   * own report under {@code <out>/<suite>/<lake>/}; then {@code suites.md} and {@code suites.json} in {@code <out>}.
   */
  private int runSuites(List<Suites.Ref> suiteList, List<EvalMethod> methodList, List<Ablation> ablationList,
      List<String> modelNames, Set<DifficultyTag> tagFilter) throws IOException, InterruptedException {
    if (pairs != null) {
      throw new BadInputException("--pairs and --suite exclude each other: a suite brings its own pairs");
    }
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    List<Variant> variants = variants(methodList, ablationList, modelNames);
    Path outDir = outputDirectory();
    SuiteReport report = new SuiteReport();
    // Every perturbed suite's lakes first (corpora are built on first use), so that --id is checked before a run.
    Map<Suites.Ref, List<PerturbedCorpus.Lake>> lakesOf = new LinkedHashMap<>();
    for (Suites.Ref suite : suiteList) {
      if (suite.perturbed()) {
        PerturbedCorpus.Index index = Suites.corpus(suite, PerturbCommand.corporaRoot(corpora),
            lakeOptions.lakePath(), lakeOptions.cache, message -> {
              err.println(message);
              err.flush();
            });
        List<PerturbedCorpus.Lake> lakes = new ArrayList<>();
        for (PerturbedCorpus.Split s : splits()) {
          lakes.addAll(index.lakes(s));
        }
        lakesOf.put(suite, lakes);
      }
    }
    Set<String> wanted = wantedIds();
    Map<String, Set<String>> idsByLake = idsByLake(wanted, lakesOf.values().stream().flatMap(List::stream).toList(),
        suiteList.stream().anyMatch(r -> !r.perturbed()));
    for (Suites.Ref suite : suiteList) {
      if (!suite.perturbed()) {
        if (!wanted.isEmpty() && !idsByLake.containsKey(DEV_SET_IDS)) {
          continue;
        }
        Path dir = outDir.resolve(suite.label());
        EvaluationResult r = evaluate(lakeOptions.lakePath(), lakeOptions.layout(), null, Optional.empty(), variants,
            methodList, ablationList, modelNames, idsByLake.getOrDefault(DEV_SET_IDS, Set.of()), tagFilter, dir)
            .result();
        report.add(new SuiteReport.LakeRun(suite.label(), "wikidbs-sample", "-", r, dir));
        continue;
      }
      for (PerturbedCorpus.Lake lake : lakesOf.get(suite)) {
        if (lake.pairs() == 0 || !wanted.isEmpty() && !idsByLake.containsKey(lake.name())) {
          continue;
        }
        err.println(suite.label() + ": lake " + lake.name() + " (" + lake.split().label() + ", " + lake.pairs()
            + " pairs)");
        err.flush();
        Path dir = outDir.resolve(suite.label()).resolve(lake.name());
        EvaluationResult r = evaluate(lake.lakeFolder(), Lakes.detect(lake.lakeFolder()), lake.pairFile(),
            lake.noisyLakeFolder(), variants, methodList, ablationList, modelNames,
            idsByLake.getOrDefault(lake.name(), Set.of()), tagFilter, dir).result();
        report.add(new SuiteReport.LakeRun(suite.label(), lake.name(), lake.split().label(), r, dir));
      }
    }
    report.write(outDir);
    stdout.print(report.table());
    stdout.println();
    stdout.println("suites:  " + outDir.resolve("suites.md"));
    stdout.println("         " + outDir.resolve("suites.json"));
    stdout.flush();
    return LakeRewriteCli.OK;
  }

  private List<PerturbedCorpus.Split> splits() {
    String s = split.strip().toLowerCase(Locale.ROOT);
    if (s.equals("all")) {
      return List.of(PerturbedCorpus.Split.values());
    }
    return List.of(PerturbedCorpus.Split.fromLabel(s).orElseThrow(() -> new CommandLine.ParameterException(
        spec.commandLine(), "--split must be held-out, fit, validation or all, was '" + split + "'")));
  }

  /**
   * Runs the variants over one lake and writes its report into {@code outDir}.
   *
   * @param pairFile the pair file, or null for the built-in development set
   * @param presetNoisy the lake's noisy copy when it comes with one (a perturbed lake); else the Noise pairs' copy
   *     is made by the seeded injector
   */
  /** One lake's evaluation and its written report. */
  private record Evaluated(EvaluationResult result, ReportWriter.Written written) {}

  private Evaluated evaluate(Path lakePath, Lakes.Layout layout, @Nullable Path pairFile, Optional<Path> presetNoisy,
      List<Variant> variants, List<EvalMethod> methodList, List<Ablation> ablationList, List<String> modelNames,
      Set<String> idFilter, Set<DifficultyTag> tagFilter, Path outDir) throws IOException, InterruptedException {
    PrintWriter err = spec.commandLine().getErr();
    String pairSource = pairFile == null ? "built-in development set (" + PairLoader.WIKIDBS_SAMPLE_DEV_SET + ")"
        : pairFile.toString();
    if (Files.exists(outDir) && !Files.isDirectory(outDir)) {
      throw new BadInputException("--out " + outDir + " is a file, not a folder");
    }
    err.println("loading the lake " + lakePath + " (" + layout.label() + ")");
    err.flush();
    try (DataLake lake = open(lakePath, layout)) {
      LoadedPairs loaded;
      try (LakeSession session = lake.openSession()) {
        PairLoader loader = PairLoader.builder().goldRunner(LakeQueryRunner.on(session))
            .lakeTables(lake.catalog().tableNames()).build();
        loaded = checkPairFile(pairFile, loader);
      }
      List<String> problems = loaded.problems().stream().map(PairProblem::toString).toList();
      if (!problems.isEmpty()) {
        err.println(problems.size() + " problem(s) in the pair file (" + loaded.errors().size()
            + " dropped a pair):");
        problems.forEach(p -> err.println("  " + p));
      }
      List<QueryResultPair> selected = select(loaded.pairs(), idFilter, tagFilter);

      Path cacheRoot = lakeOptions.cache != null ? lakeOptions.cache : lake.cacheDirectory().getParent();
      Map<String, String> settings = new LinkedHashMap<>();
      settings.put("lake", lakePath + " (" + layout.label() + ", " + lake.catalog().tableNames().size() + " tables)");
      settings.put("pair file", pairSource);
      settings.put("pairs", selected.size() + " run, " + loaded.pairs().size() + " loaded, "
          + loaded.errors().size() + " dropped by validation");
      settings.put("methods", join(methodList.stream().map(EvalMethod::label).toList()));
      settings.put("ablations", ablationList.isEmpty() ? "none" : join(ablationList.stream().map(Ablation::label).toList()));
      settings.put("models", join(modelNames));
      settings.put("max iterations", String.valueOf(maxIterations));
      settings.put("pair timeout", timeoutSeconds + " s");
      settings.put("jobs", String.valueOf(jobs));
      settings.put("warm-up", noWarmUp ? "off (cold latencies)" : "one untimed offline one-step rewrite per pair");
      List<String> notes = new ArrayList<>();

      err.println("indexing the lake (built once, then loaded from " + cacheRoot + ")");
      err.flush();
      settings.put("lake index", lake.index().summary());

      List<QueryResultPair> noisyPairs = selected.stream().filter(QueryResultPair::noisy).toList();
      DataLake noisyLake = null;
      String noNoisyLake = null;
      if (!noisyPairs.isEmpty() && presetNoisy.isPresent()) {
        settings.put("noisy lake", presetNoisy.get() + " (the lake's own noisy copy)");
        noisyLake = open(presetNoisy.get(), Lakes.detect(presetNoisy.get()));
        settings.put("noisy lake index", noisyLake.index().summary());
      } else if (!noisyPairs.isEmpty()) {
        if (layout == Lakes.Layout.DUCKDB_FILE) {
          noNoisyLake = "the noise injector copies CSV files; a DuckDB-file lake has none, so Noise pairs are skipped";
          notes.add(noisyPairs.size() + " Noise pair(s) skipped: " + noNoisyLake);
        } else {
          Set<String> noiseTables = new TreeSet<>();
          noisyPairs.forEach(p -> noiseTables.addAll(p.requiredTables()));
          NoisyLakes.Spec noiseSpec = new NoisyLakes.Spec(seed, noiseRate, noiseTables);
          err.println("preparing the noisy lake (seed " + seed + ", rate " + noiseRate + ", " + noiseTables.size()
              + " tables)");
          err.flush();
          NoisyLakes.Prepared prepared =
              NoisyLakes.prepare(lakePath, lake.fingerprint(), noiseSpec, cacheRoot.resolve("noisy-lakes"));
          settings.put("noisy lake", prepared.folder() + " (seed " + seed + ", rate " + noiseRate + ", "
              + prepared.totalChangedCells() + " cells changed in " + noiseTables.size() + " tables, "
              + (prepared.reused() ? "reused" : "built") + ")");
          noiseCoverage(noisyPairs, prepared, notes);
          noisyLake = open(prepared.folder(), layout);
          settings.put("noisy lake index", noisyLake.index().summary());
        }
      }
      settings.put("noise seed", String.valueOf(seed));
      settings.put("output", outDir.toString());
      settings.put("java", System.getProperty("java.version"));

      try (DataLake noisy = noisyLake) {
        Evaluation.Builder b = Evaluation.builder().lake(lake).pairs(selected).maxIterations(maxIterations)
            .pairTimeout(Duration.ofSeconds(timeoutSeconds)).jobs(jobs).outputDirectory(outDir).warmUp(!noWarmUp);
        if (noisy != null) {
          b.noisyLake(noisy);
        } else if (noNoisyLake != null) {
          b.noNoisyLake(noNoisyLake);
        }
        b.variants(variants);
        try {
          Files.createDirectories(outDir);
        } catch (IOException e) {
          throw new BadInputException("cannot create the output folder " + outDir + ": " + e.getMessage(), e);
        }
        List<ProgressListener> listeners = new ArrayList<>();
        listeners.add(ReportWriter.pairLog(outDir));
        listeners.add(noProgress ? quietProgress(err) : ProgressBar.onStderr());
        b.listener(ProgressListener.all(listeners));
        EvaluationResult result = b.build().run();
        ReportWriter.Written written = ReportWriter.write(result, new RunInfo(settings, problems, notes), outDir);
        return new Evaluated(result, written);
      }
    }
  }

  /** Opens a lake; one core cannot load is bad input. */
  private DataLake open(Path path, Lakes.Layout layout) {
    try {
      return Lakes.open(path, layout, lakeOptions.cache);
    } catch (LakeRewriteException e) {
      throw new BadInputException("cannot load the lake " + path + ": " + e.getMessage(), e);
    }
  }

  private void checkOptions() {
    CommandLine cl = spec.commandLine();
    if (limit != null && limit < 1) {
      throw new CommandLine.ParameterException(cl, "--limit must be at least 1, was " + limit);
    }
    if (!(noiseRate >= 0 && noiseRate <= 1)) {
      throw new CommandLine.ParameterException(cl, "--noise-rate must be between 0 and 1, was " + noiseRate);
    }
    if (maxIterations < 1) {
      throw new CommandLine.ParameterException(cl, "--max-iterations must be at least 1, was " + maxIterations);
    }
    if (timeoutSeconds < 1) {
      throw new CommandLine.ParameterException(cl, "--timeout must be at least 1 second, was " + timeoutSeconds);
    }
    if (jobs < 1) {
      throw new CommandLine.ParameterException(cl, "--jobs must be at least 1, was " + jobs);
    }
  }

  /** Parses a comma list where {@code all} means every value; duplicates are dropped. */
  private <T> List<T> parseAll(List<String> labels, Function<String, T> parse, List<T> all, String option) {
    Set<T> out = new LinkedHashSet<>();
    for (String label : labels) {
      String l = label.strip();
      if (l.isEmpty()) {
        continue;
      }
      if (l.equalsIgnoreCase("all")) {
        out.addAll(all);
        continue;
      }
      try {
        out.add(parse.apply(l));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), option + ": " + e.getMessage());
      }
    }
    if (out.isEmpty() && option.equals("--method")) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--method needs at least one method");
    }
    return List.copyOf(out);
  }

  private List<String> modelNames() {
    Set<String> names = new LinkedHashSet<>();
    models.stream().map(String::strip).filter(s -> !s.isEmpty()).forEach(names::add);
    if (names.isEmpty()) {
      names.add(EvalModel.environmentModelName(System.getenv()).orElse(EvalModel.OFFLINE_NAME));
    }
    return List.copyOf(names);
  }

  private List<EvalModel> buildModels(List<String> names) {
    List<EvalModel> out = new ArrayList<>();
    for (String n : names) {
      try {
        out.add(EvalModel.fromEnvironment(n, System.getenv()));
      } catch (IllegalArgumentException e) {
        throw new BadInputException("--model " + n + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  private Set<DifficultyTag> parseTags() {
    Set<DifficultyTag> out = EnumSet.noneOf(DifficultyTag.class);
    for (String t : tags) {
      if (t.isBlank()) {
        continue;
      }
      out.add(DifficultyTag.fromLabel(t.strip()).orElseThrow(() -> new CommandLine.ParameterException(
          spec.commandLine(), "--tag: unknown difficulty tag '" + t.strip() + "' (known: "
              + String.join(", ", DifficultyTag.labels()) + ")")));
    }
    return out;
  }

  /**
   * Loads the pair file; a missing or unreadable file, broken JSON, a wrong top level or no valid pair at all is
   * bad input (with every problem listed).
   */
  private LoadedPairs checkPairFile(Path pairs, PairLoader loader) {
    LoadedPairs loaded;
    try {
      if (pairs == null) {
        loaded = loader.loadResource(PairLoader.WIKIDBS_SAMPLE_DEV_SET);
      } else {
        if (!Files.isRegularFile(pairs)) {
          throw new BadInputException("no pair file at " + pairs.toAbsolutePath().normalize());
        }
        loaded = loader.load(pairs);
      }
    } catch (IOException e) {
      throw new BadInputException("cannot read the pair file " + pairs + ": " + e.getMessage(), e);
    }
    boolean broken = loaded.errors().stream().anyMatch(p -> p.kind() == PairProblem.Kind.SYNTAX
        || p.kind() == PairProblem.Kind.FILE_STRUCTURE);
    if (broken || loaded.pairs().isEmpty()) {
      throw new BadInputException((broken ? "the pair file is broken" : "the pair file has no valid pair")
          + (loaded.problems().isEmpty() ? "" : ":\n" + loaded.problemReport().stripTrailing()));
    }
    return loaded;
  }

  /** The pair ids of --id, stripped, in order. */
  private Set<String> wantedIds() {
    Set<String> wanted = new LinkedHashSet<>();
    ids.stream().map(String::strip).filter(s -> !s.isEmpty()).forEach(wanted::add);
    return wanted;
  }

  /**
   * The ids of --id by the perturbed suite's lake they name ({@code <lake>/<query>}); the rest, under
   * {@link #DEV_SET_IDS}, name pairs of the development set.
   *
   * @throws BadInputException when an id names a lake the run does not have (with the closest lake)
   */
  private static Map<String, Set<String>> idsByLake(Set<String> wanted, List<PerturbedCorpus.Lake> lakes,
      boolean devSuite) {
    Map<String, Set<String>> out = new LinkedHashMap<>();
    List<String> names = lakes.stream().map(PerturbedCorpus.Lake::name).toList();
    for (String id : wanted) {
      int slash = id.indexOf('/');
      String lake = slash < 0 ? DEV_SET_IDS : id.substring(0, slash);
      if (slash < 0 ? !devSuite : !names.contains(lake)) {
        throw new BadInputException("--id: no lake of this run has pair '" + id + "'" + (slash < 0
            ? " (pairs of a perturbed suite are named <lake>/<query>, e.g. " + (names.isEmpty() ? "tpch-s1/std-q1"
                : names.get(0) + "/std-q1") + ")"
            : DidYouMean.hint(lake, names, 1)));
      }
      out.computeIfAbsent(lake, k -> new LinkedHashSet<>()).add(id);
    }
    return out;
  }

  private List<QueryResultPair> select(List<QueryResultPair> all, Set<String> wanted, Set<DifficultyTag> tagFilter) {
    try {
      return new PairFilter(wanted, tagFilter, limit == null ? OptionalInt.empty() : OptionalInt.of(limit))
          .apply(all);
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--id/--tag: " + e.getMessage(), e);
    }
  }

  /** Notes Noise pairs whose tables got no noise at this seed and rate (they would test nothing). */
  private static void noiseCoverage(List<QueryResultPair> noisyPairs, NoisyLakes.Prepared prepared,
      List<String> notes) {
    for (QueryResultPair p : noisyPairs) {
      long cells = p.requiredTables().stream().mapToLong(t -> prepared.changedCells().getOrDefault(t, 0L)).sum();
      if (cells == 0) {
        notes.add("Noise pair " + p.id() + ": no cell of its tables " + p.requiredTables() + " was changed at this "
            + "seed and rate; it runs on clean data");
      }
    }
  }

  private Path outputDirectory() {
    if (out != null) {
      return out.toAbsolutePath().normalize();
    }
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT));
    return LakeRewriteCli.home().resolve("target").resolve("eval").resolve(stamp);
  }

  /** Without the bar: only variant starts, skips and results. */
  private static ProgressListener quietProgress(PrintWriter err) {
    return new ProgressListener() {
      @Override
      public synchronized void variantSkipped(Variant variant, String reason) {
        err.println("skipping " + variant.title() + ": " + reason);
        err.flush();
      }

      @Override
      public synchronized void variantFinished(Variant variant, VariantSummary s) {
        err.printf(Locale.ROOT, "%s: F1 %.3f, EX %.3f over %d pairs%n", variant.title(), s.f1(),
            s.executionAccuracy(), s.pairs());
        err.flush();
      }
    };
  }

  private static void printSummary(PrintWriter out, EvaluationResult result, ReportWriter.Written written) {
    for (EvaluationResult.VariantRun r : result.runs()) {
      VariantSummary s = r.summary();
      out.printf(Locale.ROOT, "%-44s F1 %.3f  EX %.3f  median latency %.0f ms  (%d pairs)%n", s.title(), s.f1(),
          s.executionAccuracy(), s.latency().medianMillis(), s.pairs());
    }
    result.headline().ifPresent(h -> {
      out.println();
      out.printf(Locale.ROOT, "%-18s %6s %7s %7s%n", "tag (" + h.variant().name() + ")", "pairs", "F1", "EX");
      h.summary().byTag().forEach((t, g) -> out.printf(Locale.ROOT, "%-18s %6d %7.3f %7.3f%n", t.label(), g.pairs(),
          g.f1(), g.executionAccuracy()));
    });
    out.println();
    out.println("report:  " + written.report());
    out.println("summary: " + written.summary());
    written.chartFailures().forEach(f -> out.println("chart not drawn: " + f));
    out.flush();
  }


  private static String join(List<String> values) {
    return String.join(", ", values);
  }
}
