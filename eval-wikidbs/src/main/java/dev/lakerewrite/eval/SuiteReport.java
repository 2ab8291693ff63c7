package dev.lakerewrite.eval;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The per-lake report of the harness's suites ({@code bin/lakerewrite eval --suite ...}): for every lake, per
 * variant, F1, execution accuracy, median latency, the share of outputs DuckDB's binder rejected, and the column
 * mapping figures ({@link MappingAccuracy}); per suite and variant, the same figures by SQL shape and by
 * perturbation kind. Written as {@code suites.md} and {@code suites.json}.
 */
public final class SuiteReport {

  private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private final List<LakeRun> lakes = new ArrayList<>();

  /**
   * One lake's run.
   *
   * @param suite the suite ({@code dev}, {@code tpch}, ...)
   * @param lake the lake's name
   * @param split {@code held-out}, {@code fit} or {@code -} for the dev set
   * @param result the evaluation
   * @param report the lake's own report folder
   */
  public record LakeRun(String suite, String lake, String split, EvaluationResult result, Path report) {
    public LakeRun {
      Objects.requireNonNull(suite, "suite");
      Objects.requireNonNull(lake, "lake");
      Objects.requireNonNull(result, "result");
    }
  }

  /**
   * The figures of a group of outcomes (scored ones only).
   *
   * @param pairs scored pairs
   * @param f1 mean F1
   * @param executionAccuracy share with an execution match
   * @param medianLatencyMillis median rewrite latency
   * @param binderRejected share whose chosen query DuckDB's binder rejected
   * @param mappingAccuracy mean column-mapping accuracy over the pairs with a score (empty when the rewriter
   *     reports no mapping)
   * @param goldColumnsRead mean share of gold lake columns the output SQL mentions (empty without gold mappings)
   */
  public record Figures(int pairs, double f1, double executionAccuracy, double medianLatencyMillis,
      double binderRejected, OptionalDouble mappingAccuracy, OptionalDouble goldColumnsRead) {

    /** The figures of some outcomes. */
    public static Figures of(List<PairOutcome> outcomes) {
      List<PairOutcome> scored = outcomes.stream().filter(o -> o.status().scored()).toList();
      int n = scored.size();
      double f1 = scored.stream().mapToDouble(PairOutcome::f1).average().orElse(Double.NaN);
      double ex = scored.stream().mapToDouble(o -> o.executionMatch() ? 1 : 0).average().orElse(Double.NaN);
      double binder = scored.stream().mapToDouble(o -> o.binderRejected() ? 1 : 0).average().orElse(Double.NaN);
      long[] lat = scored.stream().mapToLong(PairOutcome::latencyMillis).sorted().toArray();
      double median = lat.length == 0 ? Double.NaN
          : lat.length % 2 == 1 ? lat[lat.length / 2] : (lat[lat.length / 2 - 1] + lat[lat.length / 2]) / 2.0;
      OptionalDouble mapping = scored.stream().filter(o -> o.mapping().isPresent())
          .mapToDouble(o -> o.mapping().get().accuracy()).average();
      OptionalDouble read = scored.stream()
          .map(o -> MappingAccuracy.goldColumnsRead(o.pair().goldMapping(), o.sql()).orElse(
              o.pair().goldMapping().isEmpty() ? Double.NaN : 0.0))
          .filter(d -> !d.isNaN()).mapToDouble(Double::doubleValue).average();
      return new Figures(n, f1, ex, median, binder, mapping, read);
    }
  }

  public void add(LakeRun run) {
    lakes.add(Objects.requireNonNull(run, "run"));
  }

  public List<LakeRun> lakes() {
    return List.copyOf(lakes);
  }

  /** Variant name → outcomes over every lake of a suite. */
  public Map<String, List<PairOutcome>> outcomes(String suite) {
    Map<String, List<PairOutcome>> out = new LinkedHashMap<>();
    for (LakeRun l : lakes) {
      if (l.suite().equals(suite)) {
        for (EvaluationResult.VariantRun r : l.result().runs()) {
          out.computeIfAbsent(r.variant().name(), k -> new ArrayList<>()).addAll(r.outcomes());
        }
      }
    }
    return out;
  }

  /** Figures per group key (a pair counts under each of its keys). */
  public static Map<String, Figures> by(List<PairOutcome> outcomes, Function<QueryResultPair, List<String>> keys) {
    Map<String, List<PairOutcome>> groups = new TreeMap<>();
    for (PairOutcome o : outcomes) {
      List<String> k = keys.apply(o.pair());
      for (String key : k.isEmpty() ? List.of("(none)") : k) {
        groups.computeIfAbsent(key, x -> new ArrayList<>()).add(o);
      }
    }
    Map<String, Figures> out = new LinkedHashMap<>();
    groups.forEach((k, v) -> out.put(k, Figures.of(v)));
    return out;
  }

  private List<String> suites() {
    return lakes.stream().map(LakeRun::suite).distinct().toList();
  }

  /** The Markdown report. */
  public String markdown() {
    StringBuilder b = new StringBuilder("# Suites\n\n");
    b.append("Per lake and variant: pairs, F1, execution accuracy (EX), median latency, share of outputs DuckDB's "
        + "binder rejected, column-mapping accuracy (n/a: the rewriter reports no mapping yet) and the share of gold "
        + "lake columns the output SQL mentions.\n\n");
    b.append("| suite | lake | split | variant | pairs | F1 | EX | median ms | binder-rejected | mapping acc. | gold cols read |\n");
    b.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (LakeRun l : lakes) {
      for (EvaluationResult.VariantRun r : l.result().runs()) {
        Figures f = Figures.of(r.outcomes());
        b.append("| ").append(l.suite()).append(" | ").append(l.lake()).append(" | ").append(l.split()).append(" | ")
            .append(r.variant().name()).append(" | ").append(row(f)).append(" |\n");
      }
    }
    for (String suite : suites()) {
      Map<String, List<PairOutcome>> all = outcomes(suite);
      b.append("\n## ").append(suite).append(": all lakes\n\n");
      b.append("| variant | pairs | F1 | EX | median ms | binder-rejected | mapping acc. | gold cols read |\n");
      b.append("|---|---|---|---|---|---|---|---|\n");
      all.forEach((v, o) -> b.append("| ").append(v).append(" | ").append(row(Figures.of(o))).append(" |\n"));
      for (Map.Entry<String, List<PairOutcome>> e : all.entrySet()) {
        b.append("\n### ").append(suite).append(", ").append(e.getKey()).append(": by SQL shape\n\n");
        table(b, "shape", by(e.getValue(), QueryResultPair::sqlShapes));
        b.append("\n### ").append(suite).append(", ").append(e.getKey()).append(": by perturbation kind\n\n");
        table(b, "perturbation", by(e.getValue(), QueryResultPair::perturbations));
        b.append("\n### ").append(suite).append(", ").append(e.getKey()).append(": by error type\n\n");
        table(b, "error type", by(e.getValue(), p -> p.difficultyTags().stream().map(DifficultyTag::label).toList()));
      }
    }
    return b.toString();
  }

  private static void table(StringBuilder b, String key, Map<String, Figures> groups) {
    b.append("| ").append(key).append(" | pairs | F1 | EX | median ms | binder-rejected | mapping acc. | gold cols read |\n");
    b.append("|---|---|---|---|---|---|---|---|\n");
    groups.forEach((k, f) -> b.append("| ").append(k).append(" | ").append(row(f)).append(" |\n"));
  }

  private static String row(Figures f) {
    return String.format(Locale.ROOT, "%d | %.3f | %.3f | %.0f | %.1f %% | %s | %s", f.pairs(), f.f1(),
        f.executionAccuracy(), f.medianLatencyMillis(), 100 * f.binderRejected(),
        f.mappingAccuracy().isPresent() ? String.format(Locale.ROOT, "%.3f", f.mappingAccuracy().getAsDouble()) : "n/a",
        f.goldColumnsRead().isPresent() ? String.format(Locale.ROOT, "%.3f", f.goldColumnsRead().getAsDouble()) : "n/a");
  }

  /** The JSON report. */
  public ObjectNode json() {
    ObjectNode j = JSON.createObjectNode();
    ArrayNode lakeNodes = j.putArray("lakes");
    for (LakeRun l : lakes) {
      ObjectNode o = lakeNodes.addObject().put("suite", l.suite()).put("lake", l.lake()).put("split", l.split());
      if (l.report() != null) {
        o.put("report", l.report().toString());
      }
      ObjectNode vs = o.putObject("variants");
      l.result().runs().forEach(r -> figures(vs.putObject(r.variant().name()), Figures.of(r.outcomes())));
    }
    ObjectNode suites = j.putObject("suites");
    for (String suite : suites()) {
      ObjectNode s = suites.putObject(suite);
      outcomes(suite).forEach((v, o) -> {
        ObjectNode vn = s.putObject(v);
        figures(vn.putObject("all"), Figures.of(o));
        ObjectNode shapes = vn.putObject("by_sql_shape");
        by(o, QueryResultPair::sqlShapes).forEach((k, f) -> figures(shapes.putObject(k), f));
        ObjectNode kinds = vn.putObject("by_perturbation");
        by(o, QueryResultPair::perturbations).forEach((k, f) -> figures(kinds.putObject(k), f));
      });
    }
    return j;
  }

  private static void figures(ObjectNode o, Figures f) {
    o.put("pairs", f.pairs());
    number(o, "f1", f.f1());
    number(o, "execution_accuracy", f.executionAccuracy());
    number(o, "median_latency_ms", f.medianLatencyMillis());
    number(o, "binder_rejected", f.binderRejected());
    if (f.mappingAccuracy().isPresent()) {
      o.put("mapping_accuracy", f.mappingAccuracy().getAsDouble());
    } else {
      o.putNull("mapping_accuracy");
    }
    if (f.goldColumnsRead().isPresent()) {
      o.put("gold_columns_read", f.goldColumnsRead().getAsDouble());
    } else {
      o.putNull("gold_columns_read");
    }
  }

  private static void number(ObjectNode o, String field, double v) {
    if (Double.isNaN(v)) {
      o.putNull(field);
    } else {
      o.put(field, v);
    }
  }

  /** Writes {@code suites.md} and {@code suites.json} into {@code dir}. */
  public void write(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("suites.md"), markdown(), StandardCharsets.UTF_8);
    JSON.writeValue(dir.resolve("suites.json").toFile(), json());
  }

  /** One line per lake and variant, for the terminal. */
  public String table() {
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-18s %-34s %-9s %-12s %5s %6s %6s %8s %7s %7s%n",
        "suite", "lake", "split", "variant", "pairs", "F1", "EX", "med ms", "binder", "map"));
    for (LakeRun l : lakes) {
      for (EvaluationResult.VariantRun r : l.result().runs()) {
        Figures f = Figures.of(r.outcomes());
        b.append(String.format(Locale.ROOT, "%-18s %-34s %-9s %-12s %5d %6.3f %6.3f %8.0f %6.1f%% %7s%n", l.suite(),
            l.lake(), l.split(), r.variant().name(), f.pairs(), f.f1(), f.executionAccuracy(),
            f.medianLatencyMillis(), 100 * f.binderRejected(), f.mappingAccuracy().isPresent()
                ? String.format(Locale.ROOT, "%.3f", f.mappingAccuracy().getAsDouble()) : "n/a"));
      }
    }
    return b.toString();
  }
}
