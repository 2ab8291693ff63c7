package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.equivalence.InstanceCheck;
import dev.lakerewrite.testing.ScriptedChatModel;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the optimizer spends its own time on: candidates the engine plans like the original (or like an earlier
 * candidate) are not run, the further instances are built only for a candidate that gets as far as the
 * equivalence check, timing stops once its outcome is decided, and a budget bounds the candidates tried.
 */
class OptimizerCostTest {
  /** A CTE used twice: DuckDB materialises it by itself, so the explicit hint changes nothing. */
  static final String TWICE = "WITH s AS (SELECT g, sum(v) AS total FROM t GROUP BY g)"
      + " SELECT a.g, a.total FROM s a, s b WHERE a.g = b.g + 1 ORDER BY a.g";
  static final String TWICE_MATERIALIZED = TWICE.replace("WITH s AS (", "WITH s AS MATERIALIZED (");
  static final String SLOW = LlmOptimizerTest.SLOW;
  static final String FAST = LlmOptimizerTest.FAST;
  static Connection c;

  @BeforeAll
  static void setUp() throws SQLException {
    c = LlmOptimizerTest.fiveThousandRows();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    c.close();
  }

  private static String answer(String sql) {
    return "{\"sql\": \"" + sql.replace("\\", "\\\\").replace("\"", "\\\"") + "\", \"explanation\": \"x\"}";
  }

  private static Optimizer.Builder llmOnly(ScriptedChatModel model) {
    return Optimizer.builder().rules(false).timedRuns(3).queryTimeout(Duration.ofSeconds(20)).chatModel(model);
  }

  @Test
  void aCandidateTheEnginePlansLikeTheOriginalIsNeitherCheckedNorTimed() {
    ScriptedChatModel model = ScriptedChatModel.create().answer(answer(TWICE_MATERIALIZED));
    OptimizeResult r = llmOnly(model).mode(Optimizer.Mode.ONE_SHOT).build().optimize(TWICE, c);

    OptimizationCandidate only = r.candidates().get(0);
    assertThat(r.candidates()).hasSize(1);
    assertThat(only.verdict()).isEqualTo(CandidateVerdict.NEGLIGIBLE);
    assertThat(only.reason()).startsWith("same plan as the original");
    assertThat(only.equivalence()).isEmpty();
    assertThat(only.timing()).isEmpty();
    assertThat(r.sql()).isEqualTo(TWICE);
    // Nothing was compared, so no sample or generated instance was built: the target is the only instance.
    assertThat(r.instances()).singleElement().asString().startsWith("target");
  }

  @Test
  void aCandidatePlannedLikeAnEarlierOneGetsItsVerdictWithoutRunning() {
    // The same rewrite twice, the second time with a redundant derived table the engine flattens away.
    String again = FAST.replace("FROM t a JOIN t b ON a.id = b.id)", "FROM (SELECT * FROM t) a JOIN t b ON a.id = b.id)");
    ScriptedChatModel model = ScriptedChatModel.create().answer(answer(FAST)).answer(answer(again))
        .otherwise(answer(SLOW));
    OptimizeResult r = llmOnly(model).mode(Optimizer.Mode.AGENTIC).maxIterations(2).targetSpeedup(1000)
        .build().optimize(SLOW, c);

    assertThat(r.candidates()).hasSize(2);
    OptimizationCandidate first = r.candidates().get(0);
    OptimizationCandidate second = r.candidates().get(1);
    assertThat(second.reason()).as(r.summary()).startsWith("same plan as candidate #1");
    assertThat(second.verdict()).isEqualTo(first.verdict());
    assertThat(second.timing()).isEqualTo(first.timing());
    // Only the first can be returned: the second was never measured itself.
    r.chosen().ifPresent(chosen -> assertThat(chosen.id()).isEqualTo(1));
  }

  @Test
  void furtherInstancesAreBuiltOnlyWhenACandidateIsCompared() {
    OptimizeResult none = Optimizer.builder().rules(false).build().optimize(SLOW, c);
    assertThat(none.verdict()).isEqualTo(OptimizeVerdict.NO_CANDIDATE);
    assertThat(none.instances()).singleElement().asString().startsWith("target");

    ScriptedChatModel model = ScriptedChatModel.create().answer(answer(FAST));
    OptimizeResult compared = llmOnly(model).mode(Optimizer.Mode.ONE_SHOT).build().optimize(SLOW, c);
    assertThat(compared.instances()).hasSize(3);
    assertThat(compared.candidates().get(0).equivalence().orElseThrow().checks())
        .extracting(InstanceCheck::instance).containsExactly("target", "sample", "generated");
  }

  private static Verifier.TimedPair pairs(long[] originalMs, long[] candidateMs) {
    return new Verifier.TimedPair(Timing.of(java.util.Arrays.stream(originalMs).mapToObj(Duration::ofMillis).toList(),
        false), Timing.of(java.util.Arrays.stream(candidateMs).mapToObj(Duration::ofMillis).toList(), false));
  }

  @Test
  void aConsistentSmallGainIsShownFasterAndAScatteredLargeOneIsNot() {
    // Every pair about 6 % faster (load drifts, the back-to-back ratio does not): faster with 95 % confidence,
    // though far below a fixed 1.10x minimum.
    Verifier.TimedPair consistent = pairs(new long[] {212, 180, 250, 198, 230, 205, 240, 190, 221, 260},
        new long[] {200, 170, 236, 186, 217, 194, 226, 180, 208, 245});
    assertThat(consistent.speedup()).isBetween(1.04, 1.08);
    assertThat(consistent.lowerBound()).isGreaterThan(1.0).isLessThan(consistent.speedup());
    // Twice as fast on the median pair, but one pair the other way round and the rest scattered: not shown faster.
    Verifier.TimedPair scattered = pairs(new long[] {200, 210, 100, 400, 190},
        new long[] {100, 90, 180, 150, 150});
    assertThat(scattered.pairedSpeedup()).isGreaterThan(1.2);
    assertThat(scattered.lowerBound()).isLessThan(1.0);
    // One pair has no spread to estimate: its ratio; a candidate that timed out: 0.
    assertThat(pairs(new long[] {300}, new long[] {100}).lowerBound()).isEqualTo(3.0);
    assertThat(new Verifier.TimedPair(Timing.of(List.of(Duration.ofMillis(5)), false),
        Timing.of(List.of(Duration.ofMillis(9)), true)).lowerBound()).isZero();
    assertThat(Verifier.studentT(9, 0.95)).isEqualTo(1.833);
    assertThat(Verifier.studentT(60, 0.95)).isCloseTo(1.671, org.assertj.core.data.Offset.offset(0.001));
    assertThatThrownBy(() -> Verifier.studentT(0, 0.95)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("degrees of freedom must be at least 1, was 0");
  }

  @Test
  void aSpentBudgetTriesNoFurtherCandidate() {
    ScriptedChatModel model = ScriptedChatModel.create().otherwise(answer(FAST));
    OptimizeResult r = llmOnly(model).budget(Duration.ofNanos(1)).build().optimize(SLOW, c);
    assertThat(r.candidates()).isEmpty();
    assertThat(model.requests()).isEmpty();
    assertThat(r.sql()).isEqualTo(SLOW);
    assertThat(r.trace()).anySatisfy(e -> assertThat(e.event()).isEqualTo("budget-spent"));
    assertThatThrownBy(() -> Optimizer.builder().budget(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("budget must be positive, was PT0S");
  }
}
