package dev.lakerewrite.eval;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The human-readable report of a run ({@code report.md}), with the thesis's tables (§7.4): overall F1 and
 * execution accuracy, F1 by difficulty (7.1), latency and cost (7.2), F1 by error type (7.3), required-table
 * discovery (7.4), action usage (7.6), checker selection accuracy, and the ablations (figures 7.7, 7.8) when they
 * ran; then the headline variant's pairs one by one, every failure with its reason, and the pair-file problems.
 */
public final class MarkdownReport {

  private MarkdownReport() {}

  /**
   * The report text.
   *
   * @param charts chart files written, relative to the report's folder (only these are linked)
   */
  public static String render(EvaluationResult result, RunInfo info, List<String> charts) {
    StringBuilder md = new StringBuilder();
    md.append("# lakerewrite evaluation\n\n");
    Optional<EvaluationResult.VariantRun> headline = result.headline();
    if (headline.isPresent()) {
      VariantSummary s = headline.get().summary();
      md.append("**").append(s.title()).append("**: F1 **").append(f3(s.f1())).append("**, execution accuracy **")
          .append(f3(s.executionAccuracy())).append("**, median latency **").append(ms(s.latency().medianMillis()))
          .append("** over ").append(s.pairs()).append(" pairs (").append(statusLine(s)).append(").\n\n");
    } else {
      md.append("No variant ran.\n\n");
    }
    md.append("Started ").append(result.started()).append(", took ").append(duration(result.duration().toMillis()))
        .append(result.warmUp().isZero() ? "; no warm-up: latencies include what the lake caches on first use"
            : " (of which " + duration(result.warmUp().toMillis()) + " untimed warm-up: one offline one-step "
                + "rewrite per pair, so what the lake caches on first use is not timed)")
        .append(".\n\n");

    if (!info.notes().isEmpty()) {
      info.notes().forEach(n -> md.append("- ").append(n).append('\n'));
      md.append('\n');
    }
    if (!result.skipped().isEmpty()) {
      md.append("Skipped variants:\n\n");
      result.skipped().forEach(s -> md.append("- ").append(s.variant().title()).append(": ").append(s.reason())
          .append('\n'));
      md.append('\n');
    }

    if (!info.settings().isEmpty()) {
      md.append("## Settings\n\n| setting | value |\n|---|---|\n");
      info.settings().forEach((k, v) -> md.append("| ").append(cell(k)).append(" | ").append(cell(v)).append(" |\n"));
      md.append('\n');
    }

    List<EvaluationResult.VariantRun> runs = result.runs();
    if (!runs.isEmpty()) {
      overall(md, runs, charts);
      byDifficulty(md, runs);
      byTag(md, result.methodRuns().isEmpty() ? runs : result.methodRuns(), charts);
      latency(md, runs);
      actions(md, runs);
      discovery(md, runs);
      selection(md, runs);
      ablations(md, result, charts);
      stops(md, runs);
      pairs(md, headline.get());
      failures(md, runs);
    }
    if (!info.problems().isEmpty()) {
      md.append("## Pair-file problems\n\n```\n");
      info.problems().forEach(p -> md.append(p).append('\n'));
      md.append("```\n\n");
    }
    md.append("## Files\n\n- `summary.json`: these figures, machine-readable\n")
        .append("- `pairs.jsonl`: one line per pair and variant (prediction, metrics, actions, discovery, selection)\n")
        .append("- `traces/<variant>/<pair>.jsonl`: every step of each rewrite\n");
    charts.forEach(c -> md.append("- `").append(c).append("`\n"));
    return md.toString();
  }

  private static void overall(StringBuilder md, List<EvaluationResult.VariantRun> runs, List<String> charts) {
    md.append("## Overall F1 and execution accuracy (thesis figures 7.4, 7.5)\n\n")
        .append("| variant | pairs | F1 | EX | column F1 | row F1 | completed | no result | failed | timed out | skipped |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (EvaluationResult.VariantRun r : runs) {
      VariantSummary s = r.summary();
      md.append("| ").append(s.title()).append(" | ").append(s.pairs()).append(" | ").append(f3(s.f1()))
          .append(" | ").append(f3(s.executionAccuracy())).append(" | ").append(f3(s.columnF1())).append(" | ")
          .append(f3(s.rowF1()));
      for (PairStatus st : PairStatus.values()) {
        md.append(" | ").append(s.count(st));
      }
      md.append(" |\n");
    }
    md.append('\n');
    image(md, charts, ReportCharts.F1_BY_METHOD, "F1 and execution accuracy by method");
  }

  private static void byDifficulty(StringBuilder md, List<EvaluationResult.VariantRun> runs) {
    md.append("## F1 by difficulty (thesis table 7.1)\n\nF1, with execution accuracy in parentheses.\n\n")
        .append("| variant");
    VariantSummary first = runs.get(0).summary();
    for (Difficulty d : Difficulty.values()) {
      VariantSummary.Group g = first.byDifficulty().get(d);
      md.append(" | ").append(d.label()).append(" (").append(g == null ? 0 : g.pairs()).append(")");
    }
    md.append(" |\n|---|---|---|---|\n");
    for (EvaluationResult.VariantRun r : runs) {
      md.append("| ").append(r.summary().title());
      for (Difficulty d : Difficulty.values()) {
        VariantSummary.Group g = r.summary().byDifficulty().get(d);
        md.append(" | ").append(g == null ? "–" : f3(g.f1()) + " (" + f2(g.executionAccuracy()) + ")");
      }
      md.append(" |\n");
    }
    md.append('\n');
  }

  private static void byTag(StringBuilder md, List<EvaluationResult.VariantRun> runs, List<String> charts) {
    md.append("## F1 by error type (thesis table 7.3)\n\nA pair counts under each of its tags. F1, with execution "
        + "accuracy in parentheses.\n\n| error type | pairs");
    runs.forEach(r -> md.append(" | ").append(r.summary().title()));
    md.append(" |\n|---|---").append("|---".repeat(runs.size())).append("|\n");
    for (DifficultyTag t : tags(runs)) {
      VariantSummary.Group first = runs.get(0).summary().byTag().get(t);
      md.append("| ").append(t.label()).append(" | ").append(first == null ? 0 : first.pairs());
      for (EvaluationResult.VariantRun r : runs) {
        VariantSummary.Group g = r.summary().byTag().get(t);
        md.append(" | ").append(g == null ? "–" : f3(g.f1()) + " (" + f2(g.executionAccuracy()) + ")");
      }
      md.append(" |\n");
    }
    md.append('\n');
    image(md, charts, ReportCharts.F1_BY_ERROR_TYPE, "F1 by error type");
  }

  private static void latency(StringBuilder md, List<EvaluationResult.VariantRun> runs) {
    md.append("## Latency and cost per query (thesis table 7.2)\n\n")
        .append("| variant | mean latency (s) | median (ms) | p90 (ms) | max (ms) | mean iterations | LLM calls/query "
            + "| tokens/query | cost (USD/query) | cost (USD, total) |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (EvaluationResult.VariantRun r : runs) {
      VariantSummary s = r.summary();
      md.append("| ").append(s.title()).append(" | ").append(f2(s.latency().meanMillis() / 1000)).append(" | ")
          .append(f0(s.latency().medianMillis())).append(" | ").append(f0(s.latency().p90Millis())).append(" | ")
          .append(s.latency().maxMillis()).append(" | ").append(f2(s.meanIterations())).append(" | ")
          .append(f2(s.usage().meanCalls())).append(" | ").append(f0(s.usage().meanTokens())).append(" | ")
          .append(f4(s.usage().meanCostUsd())).append(" | ").append(f4(s.usage().costUsd())).append(" |\n");
    }
    md.append('\n');
  }

  private static void actions(StringBuilder md, List<EvaluationResult.VariantRun> runs) {
    List<EvaluationResult.VariantRun> loops = runs.stream()
        .filter(r -> r.variant().method() == EvalMethod.ITERATIVE).toList();
    if (loops.isEmpty()) {
      return;
    }
    md.append("## Action usage (thesis table 7.6)\n\nActions the loop ran: total, per run in parentheses, and the "
        + "runs that used it; `requested` counts what the checker asked for (ablated actions are asked for but "
        + "not run).\n\n| action");
    loops.forEach(r -> md.append(" | ").append(r.summary().title()));
    md.append(" |\n|---").append("|---".repeat(loops.size())).append("|\n");
    Set<String> names = new java.util.LinkedHashSet<>();
    loops.forEach(r -> names.addAll(r.summary().actions().keySet()));
    for (String a : names) {
      md.append("| `").append(a).append('`');
      for (EvaluationResult.VariantRun r : loops) {
        VariantSummary.ActionStats st = r.summary().actions().get(a);
        md.append(" | ").append(st == null ? "–" : st.executed() + " (" + f3(st.perRun()) + "), " + st.pairsUsing()
            + " runs, requested " + st.requested());
      }
      md.append(" |\n");
    }
    md.append('\n');
  }

  private static void discovery(StringBuilder md, List<EvaluationResult.VariantRun> runs) {
    md.append("## Required-table discovery and coverage (thesis table 7.4)\n\nA required table is discovered when it "
        + "enters the rewriter's view: basic retrieval, a proposal using it, or a SEARCH_TABLE, UNION_SEARCH or "
        + "FIND_JOIN_PATH result.\n\n| metric");
    runs.forEach(r -> md.append(" | ").append(r.summary().title()));
    md.append(" |\n|---").append("|---".repeat(runs.size())).append("|\n");
    row(md, "Success fraction (all required tables found)", runs, s -> f3(s.discovery().successFraction()));
    row(md, "Average termination iteration", runs, s -> f3(s.discovery().meanTerminationIteration()));
    row(md, "Average iteration to first full coverage (completed cases only)", runs,
        s -> f3(s.discovery().meanFullCoverageIteration()));
    row(md, "Average final coverage of required tables", runs, s -> f3(s.discovery().meanCoverage()));
    row(md, "Average coverage of required tables by the chosen query", runs,
        s -> f3(s.discovery().meanChosenCoverage()));
    row(md, "Runs", runs, s -> String.valueOf(s.discovery().runs()));
    md.append('\n');
  }

  private static void selection(StringBuilder md, List<EvaluationResult.VariantRun> runs) {
    md.append("## Checker selection accuracy (thesis §7.4.3)\n\nThe chosen candidate is right when no candidate of "
        + "the run scores a higher F1. Contested runs had at least two candidates with different F1.\n\n")
        .append("| variant | runs with a choice | chosen is best | accuracy | contested | contested accuracy |\n")
        .append("|---|---|---|---|---|---|\n");
    for (EvaluationResult.VariantRun r : runs) {
      VariantSummary.SelectionStats s = r.summary().selection();
      md.append("| ").append(r.summary().title()).append(" | ").append(s.eligible()).append(" | ").append(s.correct())
          .append(" | ").append(f3(s.accuracy())).append(" | ").append(s.contested()).append(" | ")
          .append(f3(s.contestedAccuracy())).append(" |\n");
    }
    md.append('\n');
  }

  private static void ablations(StringBuilder md, EvaluationResult result, List<String> charts) {
    List<EvaluationResult.VariantRun> ablations = result.ablationRuns();
    if (ablations.isEmpty()) {
      return;
    }
    List<EvaluationResult.VariantRun> rows = ReportCharts.ablationRows(result);
    md.append("## Ablations (thesis figures 7.7, 7.8)\n\nEach variant switches one capability off; ΔF1 is against the "
        + "full iterative rewriter with the same model.\n\n| variant | F1 | ΔF1 | EX");
    List<DifficultyTag> tags = tags(rows);
    tags.forEach(t -> md.append(" | ").append(t.label()));
    md.append(" |\n|---|---|---|---").append("|---".repeat(tags.size())).append("|\n");
    for (EvaluationResult.VariantRun r : rows) {
      VariantSummary s = r.summary();
      Optional<EvaluationResult.VariantRun> full = r.variant().ablation().isEmpty() ? Optional.empty()
          : result.run(Variant.of(EvalMethod.ITERATIVE, r.variant().model()).name());
      md.append("| ").append(s.title()).append(" | ").append(f3(s.f1())).append(" | ")
          .append(full.map(f -> signed(s.f1() - f.summary().f1())).orElse("–")).append(" | ")
          .append(f3(s.executionAccuracy()));
      for (DifficultyTag t : tags) {
        VariantSummary.Group g = s.byTag().get(t);
        md.append(" | ").append(g == null ? "–" : f3(g.f1()));
      }
      md.append(" |\n");
    }
    md.append('\n');
    image(md, charts, ReportCharts.ABLATION_HEATMAP, "F1 by error type per ablation");
  }

  private static void stops(StringBuilder md, List<EvaluationResult.VariantRun> runs) {
    Set<String> reasons = new java.util.LinkedHashSet<>();
    runs.forEach(r -> reasons.addAll(r.summary().stopReasons().keySet()));
    if (reasons.isEmpty()) {
      return;
    }
    md.append("## Why the loop stopped\n\n| variant");
    reasons.forEach(s -> md.append(" | `").append(s).append('`'));
    md.append(" |\n|---").append("|---".repeat(reasons.size())).append("|\n");
    for (EvaluationResult.VariantRun r : runs) {
      md.append("| ").append(r.summary().title());
      reasons.forEach(s -> md.append(" | ").append(r.summary().stopReasons().getOrDefault(s, 0)));
      md.append(" |\n");
    }
    md.append('\n');
  }

  private static void pairs(StringBuilder md, EvaluationResult.VariantRun run) {
    md.append("## Pairs: ").append(run.summary().title()).append("\n\n<details><summary>")
        .append(run.outcomes().size()).append(" pairs</summary>\n\n")
        .append("| id | difficulty | tags | status | F1 | EX | iterations | latency (ms) | actions | tables found "
            + "| note |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (PairOutcome o : run.outcomes()) {
      md.append("| ").append(cell(o.pair().id())).append(" | ").append(o.pair().difficulty().label()).append(" | ")
          .append(o.pair().difficultyTags().stream().map(DifficultyTag::label).collect(Collectors.joining(", ")))
          .append(" | ").append(o.status().label()).append(" | ").append(f3(o.f1())).append(" | ")
          .append(o.executionMatch() ? "✓" : "✗").append(" | ").append(o.iterations()).append(" | ")
          .append(o.latencyMillis()).append(" | ").append(actionList(o.executedActions())).append(" | ")
          .append(o.discovery().map(d -> d.found().size() + "/" + d.required().size()).orElse("–")).append(" | ")
          .append(cell(abbreviate(o.reason(), 160))).append(" |\n");
    }
    md.append("\n</details>\n\n");
  }

  private static void failures(StringBuilder md, List<EvaluationResult.VariantRun> runs) {
    Set<PairStatus> bad = EnumSet.of(PairStatus.FAILED, PairStatus.TIMED_OUT, PairStatus.SKIPPED);
    List<PairOutcome> failed = new ArrayList<>();
    runs.forEach(r -> r.outcomes().stream().filter(o -> bad.contains(o.status())).forEach(failed::add));
    if (failed.isEmpty()) {
      return;
    }
    md.append("## Failed, timed-out and skipped pairs\n\n| variant | id | status | reason |\n|---|---|---|---|\n");
    for (PairOutcome o : failed) {
      md.append("| ").append(o.variant().title()).append(" | ").append(cell(o.pair().id())).append(" | ")
          .append(o.status().label()).append(" | ").append(cell(abbreviate(o.reason(), 400))).append(" |\n");
    }
    md.append('\n');
  }

  private static void row(StringBuilder md, String label, List<EvaluationResult.VariantRun> runs,
      java.util.function.Function<VariantSummary, String> value) {
    md.append("| ").append(label);
    runs.forEach(r -> md.append(" | ").append(value.apply(r.summary())));
    md.append(" |\n");
  }

  private static void image(StringBuilder md, List<String> charts, String chart, String alt) {
    if (charts.contains(chart)) {
      md.append("![").append(alt).append("](").append(chart).append(")\n\n");
    }
  }

  /** The tags any of the runs has pairs for, in tag order. */
  static List<DifficultyTag> tags(List<EvaluationResult.VariantRun> runs) {
    Set<DifficultyTag> present = EnumSet.noneOf(DifficultyTag.class);
    runs.forEach(r -> present.addAll(r.summary().byTag().keySet()));
    return List.copyOf(present);
  }

  private static String statusLine(VariantSummary s) {
    List<String> parts = new ArrayList<>();
    for (PairStatus st : PairStatus.values()) {
      if (s.count(st) > 0) {
        parts.add(s.count(st) + " " + st.label().replace('_', ' '));
      }
    }
    return String.join(", ", parts);
  }

  private static String actionList(Map<String, Integer> actions) {
    if (actions.isEmpty()) {
      return "–";
    }
    return actions.entrySet().stream().map(e -> e.getKey() + (e.getValue() > 1 ? "×" + e.getValue() : ""))
        .collect(Collectors.joining(", "));
  }

  /** Escapes a table cell: pipes, line breaks. */
  static String cell(String s) {
    return s == null ? "" : s.replace("\\", "\\\\").replace("|", "\\|").replaceAll("\\s*\\R\\s*", " ");
  }

  private static String abbreviate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }

  static String f3(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3f", v) : "–";
  }

  static String f2(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.2f", v) : "–";
  }

  static String f4(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.4f", v) : "–";
  }

  static String f0(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.0f", v) : "–";
  }

  private static String signed(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%+.3f", v) : "–";
  }

  private static String ms(double millis) {
    if (!Double.isFinite(millis)) {
      return "–";
    }
    return millis < 1000 ? String.format(Locale.ROOT, "%.0f ms", millis)
        : String.format(Locale.ROOT, "%.2f s", millis / 1000);
  }

  static String duration(long millis) {
    long s = millis / 1000;
    if (s < 60) {
      return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
    return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm%02ds", s / 3600, s % 3600 / 60, s % 60)
        : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
  }
}
