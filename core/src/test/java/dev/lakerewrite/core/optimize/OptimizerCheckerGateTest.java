package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.testing.ScriptedChatModel;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Every candidate goes through the public EquivalenceChecker: one that agrees with the original on the database
 * at hand (g is 0..9 in every row) but not on every database of the schema is never returned.
 */
class OptimizerCheckerGateTest {
  /** FAST with a filter the data happens to satisfy everywhere: g < 10 (g is NOT NULL, any integer). */
  static final String FAST_BUT_WRONG = "SELECT (SELECT count(*) FROM t a JOIN t b ON a.id = b.id WHERE a.g < 10)"
      + " + (SELECT count(*) FROM t a JOIN t b ON a.id = b.id + 1) AS n";

  @Test
  void aCandidateTheCheckerRejectsIsNeverReturnedEvenWhenTheDataAgrees() throws SQLException {
    try (Connection c = LlmOptimizerTest.fiveThousandRows()) {
      ScriptedChatModel model = ScriptedChatModel.create()
          .answer("```json\n{\"sql\": \"" + FAST_BUT_WRONG + "\", \"explanation\": \"split the OR join\", "
              + "\"semantic_warnings\": []}\n```", 1000, 50)
          .answer("```json\n{\"sql\": \"" + LlmOptimizerTest.FAST + "\", \"explanation\": \"split the OR join\", "
              + "\"semantic_warnings\": []}\n```", 1000, 50);
      QueryOptimizer optimizer = Optimizer.builder().rules(false).timedRuns(3).queryTimeout(Duration.ofSeconds(20))
          .chatModel(model).mode(Optimizer.Mode.ONE_SHOT).build();
      OptimizeResult r = optimizer.optimize(LlmOptimizerTest.SLOW, c);

      assertThat(r.sql()).as(r.summary()).isNotEqualTo(FAST_BUT_WRONG);
      assertThat(r.candidates()).filteredOn(x -> x.sql().equals(FAST_BUT_WRONG)).singleElement()
          .satisfies(x -> {
            assertThat(x.verdict()).isEqualTo(CandidateVerdict.NOT_EQUIVALENT);
            assertThat(x.reason()).startsWith("the equivalence checker found a counterexample");
          });
    }
  }

  @Test
  void aCandidateTheCheckerAcceptsIsStillReturned() throws SQLException {
    try (Connection c = LlmOptimizerTest.fiveThousandRows()) {
      ScriptedChatModel model = ScriptedChatModel.create()
          .answer("```json\n{\"sql\": \"" + LlmOptimizerTest.FAST + "\", \"explanation\": \"split the OR join\", "
              + "\"semantic_warnings\": []}\n```", 1000, 50);
      QueryOptimizer optimizer = Optimizer.builder().rules(false).timedRuns(3).queryTimeout(Duration.ofSeconds(20))
          .chatModel(model).mode(Optimizer.Mode.ONE_SHOT).build();
      OptimizeResult r = optimizer.optimize(LlmOptimizerTest.SLOW, c);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(OptimizeVerdict.IMPROVED);
      assertThat(r.sql()).isEqualTo(LlmOptimizerTest.FAST);
    }
  }
}
