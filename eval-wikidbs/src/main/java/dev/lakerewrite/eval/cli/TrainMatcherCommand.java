package dev.lakerewrite.eval.cli;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.MatchLakes;
import dev.lakerewrite.core.match.ColumnFeatures.Signal;
import dev.lakerewrite.core.match.ColumnModel;
import dev.lakerewrite.core.match.MappingConfidence;
import dev.lakerewrite.core.match.MatcherTraining;
import dev.lakerewrite.core.match.TableModel;
import dev.lakerewrite.eval.GoldMapping;
import dev.lakerewrite.eval.Lakes;
import dev.lakerewrite.eval.LoadedPairs;
import dev.lakerewrite.eval.PairLoader;
import dev.lakerewrite.eval.QueryResultPair;
import dev.lakerewrite.eval.perturb.PerturbedCorpus;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakerewrite train-matcher}: fits the schema matcher's learned combiner on the fit part of the perturbed
 * corpora and writes it (and one model per ablated signal) as the resources core ships; reports accuracy and
 * calibration by cross-validation over the fit part's source databases. The held-out part is never read: it is
 * for {@code eval --split held-out} alone.
 */
@Command(name = "train-matcher", sortOptions = false,
    description = {"Fits the schema matcher's models (logistic regressions: columns over name, type, instance and "
        + "structure signals; tables over name or row kind, retrieval and column evidence) on the fit part of the "
        + "perturbed corpora and writes core's model resources (the full column model, one per ablated signal, the "
        + "table model). Prints their accuracy (and the columns' calibration), cross-validated over the fit part's "
        + "source databases (the held-out part is never read).",
        "Exit code 0 when written, 2 for bad input, 1 for internal failures."})
final class TrainMatcherCommand implements Callable<Integer> {

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--suite", paramLabel = "LIST", split = ",", defaultValue = "wikidbs-perturbed",
      description = "Perturbed suites (or corpus folders) whose fit part trains the model. Default: ${DEFAULT-VALUE}.")
  List<String> suites;

  @Option(names = "--corpora", paramLabel = "DIR",
      description = "Where corpora are built. Default: target/corpora in the repository.")
  Path corpora;

  @Option(names = "--lake", paramLabel = "PATH",
      description = "The WikiDBs folder the wikidbs-perturbed corpus is made from. Default: ../shared/data/wikidbs-sample.")
  Path sample;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Where the models go. Default: core's resources (core/src/main/resources/dev/lakerewrite/core/match).")
  @Nullable Path out;

  @Option(names = "--cache", paramLabel = "DIR",
      description = "Where lakes keep derived data. Default: $LAKEREWRITE_CACHE or ~/.cache/lakerewrite.")
  Path cache;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() throws IOException {
    PrintWriter w = spec.commandLine().getOut();
    Path target = out != null ? out
        : LakeRewriteCli.home().resolve("core/src/main/resources/dev/lakerewrite/core/match");
    List<MatcherTraining.Example> fit = new ArrayList<>();
    List<MatcherTraining.TableExample> tableFit = new ArrayList<>();
    for (Suites.Ref ref : Suites.refs(suites)) {
      if (!ref.perturbed()) {
        throw new BadInputException("suite " + ref.label() + " has no gold mappings to train on");
      }
      PerturbedCorpus.Index index = Suites.corpus(ref, PerturbCommand.corporaRoot(corpora),
          Suites.sampleOrDefault(sample), cache, m -> {
            w.println(m);
            w.flush();
          });
      for (PerturbedCorpus.Lake lake : index.lakes()) {
        if (lake.split() != PerturbedCorpus.Split.FIT) {
          continue;
        }
        w.printf(Locale.ROOT, "%s %s (%s)%n", ref.label(), lake.name(), lake.split().label());
        w.flush();
        LoadedPairs loaded = PairLoader.parseOnly().load(lake.pairFile());
        List<MatcherTraining.GoldPair> pairs = new ArrayList<>();
        for (QueryResultPair p : loaded.pairs()) {
          Map<String, List<String>> cols = new LinkedHashMap<>();
          for (Map.Entry<String, GoldMapping.ColumnGold> e : p.goldMapping().columns().entrySet()) {
            cols.put(e.getKey(), e.getValue().lake());
          }
          if (!cols.isEmpty()) {
            pairs.add(new MatcherTraining.GoldPair(p.id(), p.userQuery(), cols, p.goldMapping().tables()));
          }
        }
        try (DataLake dl = Lakes.open(lake.lakeFolder(), cache); MatchLakes ml = MatchLakes.open(dl)) {
          fit.addAll(MatcherTraining.examples(lake.name(), ml.lake(), pairs));
          tableFit.addAll(MatcherTraining.tableExamples(lake.name(), ml.lake(), pairs));
        }
      }
    }
    if (fit.isEmpty()) {
      throw new BadInputException("the fit part of " + suites + " has no pairs with gold mappings");
    }
    Files.createDirectories(target);
    List<Set<Signal>> variants = new ArrayList<>();
    variants.add(Set.of());
    for (Signal s : Signal.values()) {
      variants.add(EnumSet.of(s));
    }
    w.printf(Locale.ROOT, "%nfit part: %d candidate pairs; cross-validated by source database%n", fit.size());
    MappingConfidence calibration = MatcherTraining.fitConfidence(fit);
    try (Writer out = Files.newBufferedWriter(target.resolve("confidence-model.txt"), StandardCharsets.UTF_8)) {
      calibration.save(out);
    }
    w.println("model                       columns  top-1 accuracy  ECE");
    for (Set<Signal> disabled : variants) {
      ColumnModel m = MatcherTraining.fit(fit, disabled);
      try (Writer out = Files.newBufferedWriter(target.resolve(ColumnModel.resourceName(disabled)),
          StandardCharsets.UTF_8)) {
        m.save(out);
      }
      MatcherTraining.Evaluation e = MatcherTraining.crossValidate(fit, disabled, calibration);
      w.printf(Locale.ROOT, "%-26s %8d  %14.3f  %.3f%n", disabled.isEmpty() ? "all signals"
          : "without " + disabled.iterator().next().name().toLowerCase(Locale.ROOT), e.columns(), e.accuracy(),
          e.expectedCalibrationError());
      if (disabled.isEmpty()) {
        w.println("  calibration (cross-validated): confidence bin, columns, mean confidence, accuracy");
        for (int i = 0; i < e.bins().size(); i++) {
          double[] b = e.bins().get(i);
          if (b[0] > 0) {
            w.printf(Locale.ROOT, "    [%.1f, %.1f)  %5.0f  %.3f  %.3f%n", i / 10.0, (i + 1) / 10.0, b[0], b[1], b[2]);
          }
        }
        w.println("  weights:");
        m.weights().forEach((k, v) -> w.printf(Locale.ROOT, "    %-28s %+.3f%n", k, v));
      }
    }
    // The table model reads the column model's probabilities: the shipped column model, fitted on the same fit part.
    TableModel tables = MatcherTraining.fitTables(tableFit);
    try (Writer out = Files.newBufferedWriter(target.resolve(TableModel.RESOURCE), StandardCharsets.UTF_8)) {
      tables.save(out);
    }
    double[] tableCv = MatcherTraining.crossValidateTables(tableFit);
    w.printf(Locale.ROOT, "%ntable model: %d candidate pairs; %d assumed tables; top-1 accuracy %.3f "
        + "(ranking by column evidence alone: %.3f), cross-validated by source database%n", tableFit.size(),
        (int) tableCv[0], tableCv[1], tableCv[2]);
    w.println("  weights:");
    tables.weights().forEach((k, v) -> w.printf(Locale.ROOT, "    %-28s %+.3f%n", k, v));
    w.println("models written to " + target);
    w.flush();
    return LakeRewriteCli.OK;
  }
}
