package dev.lakerewrite.eval;

import dev.lakerewrite.core.TestLakes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner on a handful of development pairs on the WikiDBs sample with the offline rewriter: the iterative and
 * one-step methods, a Noise pair on the seeded noisy lake, and an LLM baseline that is skipped offline.
 */
class EvaluationSampleTest {

  private static final List<String> IDS = List.of("wdbs-001", "wdbs-002", "wdbs-004", "wdbs-007", "wdbs-108");

  @TempDir
  static Path out;
  private static DataLake noisyLake;
  private static List<QueryResultPair> pairs;
  private static EvaluationResult result;
  private static ReportWriter.Written written;

  @BeforeAll
  static void run() throws IOException, InterruptedException {
    DataLake lake = TestLakes.sample();
    LoadedPairs loaded;
    try (LakeSession session = lake.openSession()) {
      loaded = PairLoader.builder().goldRunner(LakeQueryRunner.on(session)).lakeTables(lake.catalog().tableNames())
          .build().loadResource(PairLoader.WIKIDBS_SAMPLE_DEV_SET);
    }
    pairs = new PairFilter(Set.copyOf(IDS), Set.of(), java.util.OptionalInt.empty()).apply(loaded.pairs());
    Set<String> noiseTables = new TreeSet<>();
    pairs.stream().filter(QueryResultPair::noisy).forEach(p -> noiseTables.addAll(p.requiredTables()));
    NoisyLakes.Prepared noisy = NoisyLakes.prepare(TestLakes.sampleFolder(), lake.fingerprint(),
        new NoisyLakes.Spec(42, 0.05, noiseTables), TestLakes.cacheRoot().resolve("noisy-lakes"));
    noisyLake = Lakes.open(noisy.folder(), Lakes.Layout.WIKIDBS, TestLakes.cacheRoot());
    result = Evaluation.builder().lake(lake).noisyLake(noisyLake).pairs(pairs)
        .variant(Variant.of(EvalMethod.ITERATIVE, EvalModel.OFFLINE))
        .variant(Variant.of(EvalMethod.ONE_STEP, EvalModel.OFFLINE))
        .variant(Variant.of(EvalMethod.RETRIEVER_REWRITER, EvalModel.OFFLINE))
        .outputDirectory(out).build().run();
    written = ReportWriter.write(result, RunInfo.empty(), out);
  }

  @AfterAll
  static void close() {
    if (noisyLake != null) {
      noisyLake.close();
    }
  }

  @Test
  void everyPairRanWithEveryOfflineMethodAndTheBaselineWasSkippedWithItsReason() {
    assertThat(result.runs()).extracting(r -> r.variant().name()).containsExactly("iterative", "one-step");
    assertThat(result.skipped()).singleElement().satisfies(s -> {
      assertThat(s.variant().method()).isEqualTo(EvalMethod.RETRIEVER_REWRITER);
      assertThat(s.reason()).contains("needs a chat model");
    });
    for (EvaluationResult.VariantRun run : result.runs()) {
      assertThat(run.outcomes()).extracting(o -> o.pair().id()).containsExactlyElementsOf(IDS);
      assertThat(run.outcomes()).allSatisfy(o -> assertThat(o.status().returned()).as(o.pair().id() + " "
          + o.reason()).isTrue());
    }
  }

  @Test
  void predictionsAreScoredAsResultMetricsScoresThemAgainstTheCleanGold() {
    for (EvaluationResult.VariantRun run : result.runs()) {
      for (PairOutcome o : run.outcomes()) {
        ResultScore expected = ResultMetrics.score(o.prediction().orElse(null), o.pair().expectedResult(),
            o.pair().ordered());
        assertThat(o.score()).as(o.variant() + " " + o.pair().id()).isEqualTo(expected);
      }
      VariantSummary s = run.summary();
      assertThat(s.pairs()).isEqualTo(IDS.size());
      assertThat(s.f1()).isCloseTo(run.outcomes().stream().mapToDouble(PairOutcome::f1).average().orElseThrow(),
          within(1e-12));
      assertThat(s.executionAccuracy()).isCloseTo(run.outcomes().stream()
          .mapToDouble(o -> o.executionMatch() ? 1 : 0).average().orElseThrow(), within(1e-12));
      assertThat(s.byTag().get(DifficultyTag.NOISE).pairs()).isEqualTo(1);
    }
    // The iterative rewriter answers the easy pairs exactly (a regression here is a rewriter regression).
    PairOutcome first = outcome("iterative", "wdbs-001");
    assertThat(first.f1()).isEqualTo(1.0);
    assertThat(first.executionMatch()).isTrue();
  }

  @Test
  void theNoisePairRunsOnTheNoisyLakeAndTheOthersOnTheCleanOne() {
    for (EvaluationResult.VariantRun run : result.runs()) {
      for (PairOutcome o : run.outcomes()) {
        assertThat(o.noisyLake()).as(o.pair().id()).isEqualTo(o.pair().id().equals("wdbs-108"));
      }
    }
  }

  @Test
  void actionsIterationsAndLatencyComeFromTheRewrite() {
    PairOutcome o = outcome("iterative", "wdbs-002");
    assertThat(o.iterations()).isGreaterThanOrEqualTo(1);
    assertThat(o.stopReason()).isNotEmpty();
    assertThat(o.latencyMillis()).isPositive();
    assertThat(o.requestedActions()).containsKey("OUTPUT_QUERY");
    assertThat(result.run("one-step").orElseThrow().outcomes())
        .allSatisfy(x -> assertThat(x.iterations()).as("one step").isEqualTo(1));
    assertThat(o.llmCalls()).isZero();
    assertThat(o.costUsd()).isZero();
  }

  @Test
  void requiredTableDiscoveryAndCheckerSelectionAreMeasured() {
    for (EvaluationResult.VariantRun run : result.runs()) {
      for (PairOutcome o : run.outcomes()) {
        TableDiscovery d = o.discovery().orElseThrow();
        assertThat(o.pair().requiredTables()).containsAll(d.found());
        assertThat(d.coverage()).isBetween(0.0, 1.0);
        assertThat(d.terminationIteration()).isEqualTo(o.iterations());
        CandidateSelection s = o.selection().orElseThrow();
        assertThat(s.chosenF1()).isEqualTo(o.f1());
        assertThat(s.bestF1()).isGreaterThanOrEqualTo(o.f1());
      }
    }
    // The single table of wdbs-001 is the top of basic retrieval in the first iteration.
    TableDiscovery d = outcome("iterative", "wdbs-001").discovery().orElseThrow();
    assertThat(d.complete()).isTrue();
    assertThat(d.fullCoverageIteration()).hasValue(1);
    assertThat(d.chosenUses()).containsExactly("region_of_new_zealand");
  }

  @Test
  void everyRewriteLeavesItsTraceAsJsonLines() throws IOException {
    for (EvaluationResult.VariantRun run : result.runs()) {
      for (PairOutcome o : run.outcomes()) {
        Path trace = out.resolve(o.traceFile().orElseThrow());
        assertThat(trace).exists();
        List<String> lines = Files.readAllLines(trace);
        assertThat(lines).isNotEmpty();
        JsonNode firstEvent = new ObjectMapper().readTree(lines.get(0));
        assertThat(firstEvent.get("type").asText()).isEqualTo("query");
        assertThat(firstEvent.get("sql").asText()).isEqualTo(o.pair().userQuery());
      }
    }
  }

  @Test
  void theReportsAreWritten() throws IOException {
    JsonNode json = new ObjectMapper().readTree(written.summary().toFile());
    VariantSummary it = result.runs().get(0).summary();
    assertThat(json.get("pairs").asInt()).isEqualTo(IDS.size());
    assertThat(json.get("f1").asDouble()).isCloseTo(it.f1(), within(1e-6));
    assertThat(json.get("execution_accuracy").asDouble()).isCloseTo(it.executionAccuracy(), within(1e-6));
    assertThat(json.get("median_latency_ms").asDouble()).isPositive();
    assertThat(json.get("by_tag").get("Noise")).isNotNull();
    assertThat(json.get("methods").get("one-step").get("pairs").asInt()).isEqualTo(IDS.size());
    assertThat(Files.readAllLines(written.pairs())).hasSize(2 * IDS.size());
    assertThat(written.charts()).hasSize(2).allSatisfy(c -> assertThat(Files.size(c)).isPositive());
    assertThat(Files.readString(written.report())).contains("wdbs-108");
  }

  private static PairOutcome outcome(String variant, String id) {
    return result.run(variant).orElseThrow().outcomes().stream().filter(o -> o.pair().id().equals(id)).findFirst()
        .orElseThrow();
  }
}
