package dev.lakerewrite.eval;

import dev.lakerewrite.core.TestLakes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeSession;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A rewrite that throws or hangs is recorded with its reason, and the run goes on. */
class EvaluationFailureTest {

  private static List<QueryResultPair> pairs;

  @BeforeAll
  static void load() throws IOException {
    DataLake lake = TestLakes.sample();
    try (LakeSession session = lake.openSession()) {
      pairs = PairLoader.builder().goldRunner(LakeQueryRunner.on(session)).build()
          .loadResource(PairLoader.WIKIDBS_SAMPLE_DEV_SET).pairs().subList(0, 4);
    }
  }

  @Test
  void aThrowingOrHangingRewriteIsRecordedAndTheRunGoesOn() throws InterruptedException {
    Variant oneStep = Variant.of(EvalMethod.ONE_STEP, EvalModel.OFFLINE);
    long t0 = System.nanoTime();
    EvaluationResult r = Evaluation.builder().lake(TestLakes.sample()).pairs(pairs).variant(oneStep)
        // 8 s: enough for the two real one-step rewrites on a loaded machine (at 1 s their queries hit the
        // loop's budget there and timed out); the hanging rewrite is still abandoned at the hard limit, 10 s.
        .pairTimeout(Duration.ofSeconds(8)).warmUp(false).jobs(2)
        .rewriteCall((rewriter, sql, lake) -> {
          if (sql.equals(pairs.get(0).userQuery())) {
            throw new IllegalStateException("the rewriter broke on purpose");
          }
          if (sql.equals(pairs.get(1).userQuery())) {
            try {
              Thread.sleep(60_000);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("should have been abandoned");
          }
          return rewriter.rewrite(sql, lake);
        })
        .build().run();
    long seconds = Duration.ofNanos(System.nanoTime() - t0).toSeconds();

    List<PairOutcome> outcomes = r.runs().get(0).outcomes();
    assertThat(outcomes).extracting(PairOutcome::pair).containsExactlyElementsOf(pairs);
    assertThat(outcomes.get(0).status()).isEqualTo(PairStatus.FAILED);
    assertThat(outcomes.get(0).reason()).contains("IllegalStateException", "the rewriter broke on purpose");
    assertThat(outcomes.get(1).status()).isEqualTo(PairStatus.TIMED_OUT);
    assertThat(outcomes.get(1).reason()).contains("no answer within 10 s");
    assertThat(outcomes.subList(2, 4)).allSatisfy(o -> assertThat(o.status()).isEqualTo(PairStatus.COMPLETED));
    assertThat(outcomes.subList(0, 2)).allSatisfy(o -> {
      assertThat(o.f1()).isZero();
      assertThat(o.prediction()).isEmpty();
    });
    VariantSummary s = r.runs().get(0).summary();
    assertThat(s.pairs()).as("failures count as zero, not as absent").isEqualTo(4);
    assertThat(s.count(PairStatus.FAILED)).isEqualTo(1);
    assertThat(s.count(PairStatus.TIMED_OUT)).isEqualTo(1);
    assertThat(seconds).as("the hanging rewrite was abandoned at its hard limit").isLessThan(40);
  }

  @Test
  void anEvaluationNeedsGoldResultsALakeAndAVariant() {
    QueryResultPair withoutGold = pairs.get(0).withResultTable(null);
    assertThatThrownBy(() -> Evaluation.builder().pairs(List.of(withoutGold)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no result table");
    assertThatThrownBy(() -> Evaluation.builder().pairs(pairs).variant(Variant.of(EvalMethod.ITERATIVE,
        EvalModel.OFFLINE)).build()).isInstanceOf(IllegalStateException.class).hasMessageContaining("lake(");
    assertThatThrownBy(() -> Evaluation.builder().lake(TestLakes.sample()).pairs(pairs).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("variant");
    assertThatThrownBy(() -> Evaluation.builder().variant(Variant.of(EvalMethod.ONE_STEP, EvalModel.OFFLINE))
        .variant(Variant.of(EvalMethod.ONE_STEP, EvalModel.OFFLINE)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("given twice");
  }

  @Test
  void noisePairsWithoutANoisyLakeAreSkippedNotScored() throws IOException, InterruptedException {
    QueryResultPair noise;
    try (LakeSession session = TestLakes.sample().openSession()) {
      noise = PairLoader.builder().goldRunner(LakeQueryRunner.on(session)).build()
          .loadResource(PairLoader.WIKIDBS_SAMPLE_DEV_SET).pairs().stream().filter(QueryResultPair::noisy)
          .findFirst().orElseThrow();
    }
    EvaluationResult r = Evaluation.builder().lake(TestLakes.sample()).pairs(List.of(noise, pairs.get(2)))
        .variant(Variant.of(EvalMethod.ONE_STEP, EvalModel.OFFLINE)).noNoisyLake("no noisy lake in this test")
        .warmUp(false).build().run();
    PairOutcome skipped = r.runs().get(0).outcomes().get(0);
    assertThat(skipped.status()).isEqualTo(PairStatus.SKIPPED);
    assertThat(skipped.reason()).isEqualTo("no noisy lake in this test");
    assertThat(r.runs().get(0).summary().pairs()).isEqualTo(1);
  }
}
