package dev.lakerewrite.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Summaries, summary.json, report.md and the PNG charts, on hand-made outcomes. */
class ReportTest {

  private static final Variant ITERATIVE = Variant.of(EvalMethod.ITERATIVE, EvalModel.OFFLINE);
  private static final Variant ONE_STEP = Variant.of(EvalMethod.ONE_STEP, EvalModel.OFFLINE);
  private static final Variant NO_CTE = Variant.ablated(Ablation.NO_BUILD_CTE, EvalModel.OFFLINE);
  private static final Variant NO_VALUE = Variant.ablated(Ablation.NO_SEARCH_VALUE, EvalModel.OFFLINE);
  private static final Variant READER = Variant.of(EvalMethod.RETRIEVER_READER, EvalModel.OFFLINE);

  private static final QueryResultPair EASY = Outcomes.pair("p1", Difficulty.EASY);
  private static final QueryResultPair MEDIUM = Outcomes.pair("p2", Difficulty.MEDIUM, DifficultyTag.FILTER_MISMATCH);
  private static final QueryResultPair HARD = Outcomes.pair("p3", Difficulty.HARD, DifficultyTag.NOISE);
  private static final QueryResultPair HARD2 = Outcomes.pair("p4", Difficulty.HARD, DifficultyTag.FILTER_MISMATCH);

  @TempDir
  static Path dir;
  private static EvaluationResult result;
  private static ReportWriter.Written written;

  @BeforeAll
  static void writeReports() throws IOException {
    List<EvaluationResult.VariantRun> runs = List.of(
        Outcomes.run(ITERATIVE, List.of(Outcomes.completed(ITERATIVE, EASY, 2, 100),
            Outcomes.completed(ITERATIVE, MEDIUM, 1, 300), Outcomes.failed(ITERATIVE, HARD, 50),
            Outcomes.completed(ITERATIVE, HARD2, 2, 900))),
        Outcomes.run(ONE_STEP, List.of(Outcomes.completed(ONE_STEP, EASY, 1, 10),
            Outcomes.completed(ONE_STEP, MEDIUM, 1, 20), Outcomes.completed(ONE_STEP, HARD, 2, 30),
            PairOutcome.without(ONE_STEP, HARD2, PairStatus.SKIPPED, "no noisy lake", false, 0))),
        Outcomes.run(NO_CTE, List.of(Outcomes.completed(NO_CTE, EASY, 2, 100),
            Outcomes.completed(NO_CTE, MEDIUM, 1, 100), Outcomes.failed(NO_CTE, HARD, 100),
            Outcomes.failed(NO_CTE, HARD2, 100))),
        Outcomes.run(NO_VALUE, List.of(Outcomes.completed(NO_VALUE, EASY, 2, 100),
            Outcomes.failed(NO_VALUE, MEDIUM, 100), Outcomes.completed(NO_VALUE, HARD, 2, 100),
            Outcomes.completed(NO_VALUE, HARD2, 1, 100))));
    result = new EvaluationResult(runs, List.of(new EvaluationResult.SkippedVariant(READER, "needs a chat model")),
        Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:01:00Z"), Duration.ofSeconds(3));
    RunInfo info = new RunInfo(Map.of("lake", "sample lake", "noise seed", "42"),
        List.of("pairs.json:3:5: error UNKNOWN_TAG: pair #2 'x': unknown tag"), List.of("a note"));
    written = ReportWriter.write(result, info, dir);
  }

  @Test
  void theSummaryAveragesScoredPairsAndLeavesSkippedOnesOut() {
    VariantSummary it = result.runs().get(0).summary();
    double half = Outcomes.pair("x", Difficulty.EASY).score(new PlainTable(Outcomes.GOLD.columns(),
        Outcomes.GOLD.rows().subList(0, 1))).f1();
    assertThat(half).isStrictlyBetween(0.0, 1.0);
    assertThat(it.pairs()).isEqualTo(4);
    assertThat(it.f1()).isCloseTo((1 + half + 0 + 1) / 4, within(1e-12));
    assertThat(it.executionAccuracy()).isCloseTo(0.5, within(1e-12));
    assertThat(it.count(PairStatus.FAILED)).isEqualTo(1);
    assertThat(it.latency().medianMillis()).isEqualTo(200.0); // 50, 100, 300, 900
    assertThat(it.latency().p90Millis()).isEqualTo(900.0);
    assertThat(it.byDifficulty().get(Difficulty.HARD).f1()).isCloseTo(0.5, within(1e-12));
    assertThat(it.byTag().get(DifficultyTag.FILTER_MISMATCH).f1()).isCloseTo((half + 1) / 2, within(1e-12));
    assertThat(it.byTag().get(DifficultyTag.NAME_MISMATCH).pairs()).isEqualTo(4);
    assertThat(it.actions().get("SEARCH_VALUE").executed()).isEqualTo(6);
    assertThat(it.actions().get("SEARCH_VALUE").perRun()).isCloseTo(2.0, within(1e-12));
    assertThat(it.actions().get("OUTPUT_QUERY").requested()).isEqualTo(3);
    assertThat(it.discovery().runs()).isEqualTo(3);
    assertThat(it.discovery().meanCoverage()).isCloseTo(0.5, within(1e-12));
    assertThat(it.discovery().successFraction()).isZero();
    assertThat(it.selection().eligible()).isEqualTo(3);
    assertThat(it.selection().correct()).isEqualTo(3);

    VariantSummary oneStep = result.runs().get(1).summary();
    assertThat(oneStep.pairs()).as("the skipped pair is not scored").isEqualTo(3);
    assertThat(oneStep.count(PairStatus.SKIPPED)).isEqualTo(1);
    assertThat(oneStep.f1()).isCloseTo((half + half + 1) / 3, within(1e-12));
  }

  @Test
  void summaryJsonHasTheHeadlineFieldsAndEveryVariant() throws IOException {
    JsonNode json = new ObjectMapper().readTree(written.summary().toFile());
    VariantSummary it = result.runs().get(0).summary();
    assertThat(json.get("variant").asText()).isEqualTo("iterative");
    assertThat(json.get("pairs").asInt()).isEqualTo(4);
    assertThat(json.get("f1").asDouble()).isCloseTo(it.f1(), within(1e-6));
    assertThat(json.get("execution_accuracy").asDouble()).isEqualTo(0.5);
    assertThat(json.get("median_latency_ms").asDouble()).isEqualTo(200.0);
    assertThat(json.get("by_tag").get("Filter Mismatch").asDouble())
        .isCloseTo(it.byTag().get(DifficultyTag.FILTER_MISMATCH).f1(), within(1e-6));
    assertThat(json.get("methods").has("iterative")).isTrue();
    assertThat(json.get("methods").has("one-step")).isTrue();
    assertThat(json.get("methods").get("one-step").get("statuses").get("skipped").asInt()).isEqualTo(1);
    assertThat(json.get("ablations").has("iterative-no-build-cte")).isTrue();
    assertThat(json.get("ablations").get("iterative-no-search-value").get("ablation").asText())
        .isEqualTo("no-search-value");
    assertThat(json.get("skipped").get(0).get("variant").asText()).isEqualTo("retriever-reader");
    assertThat(json.get("run").get("noise_seed").asText()).isEqualTo("42");
    assertThat(json.get("run").get("warm_up_ms").asLong()).isEqualTo(3000);
    assertThat(json.get("problems")).hasSize(1);
    assertThat(json.get("methods").get("iterative").get("table_discovery").get("mean_full_coverage_iteration")
        .isNull()).as("a mean over no complete run is null, not NaN").isTrue();
  }

  @Test
  void pairsJsonlHasOneLinePerPairAndVariant() throws IOException {
    List<String> lines = Files.readAllLines(written.pairs());
    assertThat(lines).hasSize(16);
    JsonNode first = new ObjectMapper().readTree(lines.get(0));
    assertThat(first.get("id").asText()).isEqualTo("p1");
    assertThat(first.get("variant").asText()).isEqualTo("iterative");
    assertThat(first.get("prediction").get("rows")).hasSize(2);
    assertThat(first.get("checker_selection").get("candidate_f1")).hasSize(2);
  }

  @Test
  void theMarkdownReportHasTheThesisTables() throws IOException {
    String md = Files.readString(written.report());
    assertThat(md).contains("**Iterative Rewriter**: F1 **", "## F1 by difficulty (thesis table 7.1)",
        "## F1 by error type (thesis table 7.3)", "## Latency and cost per query (thesis table 7.2)",
        "## Action usage (thesis table 7.6)", "## Required-table discovery and coverage (thesis table 7.4)",
        "## Checker selection accuracy", "## Ablations", "Iterative Rewriter (no BUILD_CTE)", "ΔF1",
        "](charts/ablation-heatmap.png)", "](charts/f1-by-method.png)", "Retriever-Reader: needs a chat model",
        "IllegalStateException: boom", "UNKNOWN_TAG", "a note", "| Noise | 1 |");
    // The ablation table: the full rewriter first, then each ablation with its difference.
    assertThat(md.indexOf("| Iterative Rewriter | ", md.indexOf("## Ablations")))
        .isLessThan(md.indexOf("| Iterative Rewriter (no BUILD_CTE) |", md.indexOf("## Ablations")));
  }

  @Test
  void theChartsArePngFiles() throws IOException {
    assertThat(written.chartFailures()).isEmpty();
    assertThat(written.charts()).extracting(p -> dir.relativize(p).toString().replace('\\', '/'))
        .containsExactly(ReportCharts.F1_BY_METHOD, ReportCharts.F1_BY_ERROR_TYPE, ReportCharts.ABLATION_HEATMAP);
    for (Path chart : written.charts()) {
      byte[] bytes = Files.readAllBytes(chart);
      assertThat(bytes.length).as(chart.toString()).isGreaterThan(5_000);
      assertThat(Arrays.copyOf(bytes, 4)).as("PNG signature of " + chart)
          .containsExactly((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    }
  }

  @Test
  void withoutAblationsThereIsNoHeatmap() throws IOException {
    EvaluationResult methodsOnly = new EvaluationResult(result.methodRuns(), List.of(), result.started(),
        result.finished(), Duration.ZERO);
    Path other = dir.resolve("methods-only");
    ReportWriter.Written w = ReportWriter.write(methodsOnly, RunInfo.empty(), other);
    assertThat(w.charts()).hasSize(2);
    assertThat(other.resolve(ReportCharts.ABLATION_HEATMAP)).doesNotExist();
    assertThat(Files.readString(w.report())).doesNotContain("## Ablations");
  }
}
