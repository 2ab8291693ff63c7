package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.InstanceCheck;
import dev.lakerewrite.core.llm.LlmGateway;
import dev.lakerewrite.core.llm.RetryPolicy;
import dev.lakerewrite.core.llm.Role;
import dev.lakerewrite.testing.ScriptedChatModel;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The LLM modes with scripted models: valid, non-equivalent, garbage, hostile and slow answers. */
class LlmOptimizerTest {
  /** An OR in a join condition: DuckDB falls back to a nested-loop join over 5,000 x 5,000 rows. */
  static final String SLOW = "SELECT count(*) AS n FROM t a, t b WHERE a.id = b.id OR a.id = b.id + 1";
  /** The same count from two hash joins (ids are unique, so the two conditions never hold together). */
  static final String FAST = "SELECT (SELECT count(*) FROM t a JOIN t b ON a.id = b.id)"
      + " + (SELECT count(*) FROM t a JOIN t b ON a.id = b.id + 1) AS n";
  static Connection c;

  @BeforeAll
  static void setUp() throws SQLException {
    c = fiveThousandRows();
  }

  /** An in-memory database with one table t of 5,000 rows (id unique, g in 0..9), where SLOW is slow. */
  static Connection fiveThousandRows() throws SQLException {
    Connection db = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement st = db.createStatement()) {
      st.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, g INTEGER NOT NULL, v DOUBLE)");
      st.execute("INSERT INTO t SELECT i, i % 10, i * 0.5 FROM range(1, 5001) r(i)");
    }
    return db;
  }

  @AfterAll
  static void tearDown() throws SQLException {
    c.close();
  }

  private static Optimizer.Builder offlineRulesOff() {
    return Optimizer.builder().rules(false).timedRuns(3).queryTimeout(Duration.ofSeconds(20));
  }

  private static String json(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  @Test
  void oneShotValidRewriteIsVerifiedTimedReturnedAndRemembered() {
    ScriptedChatModel model = ScriptedChatModel.create()
        .answer("```json\n{\"sql\": \"" + json(FAST) + "\", \"explanation\": \"split the OR join into two hash"
            + " joins\", \"semantic_warnings\": []}\n```", 1200, 80);
    QueryOptimizer optimizer = offlineRulesOff().chatModel(model).mode(Optimizer.Mode.ONE_SHOT).build();
    OptimizeResult r = optimizer.optimize(SLOW, c);

    assertThat(r.verdict()).as(r.summary()).isEqualTo(OptimizeVerdict.IMPROVED);
    assertThat(r.sql()).isEqualTo(FAST);
    assertThat(r.speedup()).isGreaterThan(1.5);
    OptimizationCandidate chosen = r.chosen().orElseThrow();
    assertThat(chosen.source()).isEqualTo(CandidateSource.LLM);
    assertThat(chosen.label()).isEqualTo("llm-one-shot");
    assertThat(r.equivalence().orElseThrow().checks()).extracting(InstanceCheck::instance)
        .containsExactly("target", "sample", "generated");
    assertThat(r.usage().calls()).isEqualTo(1);
    assertThat(r.usage().inputTokens()).isEqualTo(1200);
    assertThat(model.requests()).hasSize(1);
    String prompt = model.prompt(0);
    assertThat(prompt).contains("## Execution hint").contains("BLOCKWISE_NL_JOIN").contains("BOTTLENECK").contains("## Block Map")
        .contains("## Relevant rewrite recipes").contains("t(id INTEGER NOT NULL").contains("\"operations\"");
    assertThat(optimizer.demonstrations().all()).singleElement()
        .satisfies(d -> assertThat(d.rewrittenSql()).isEqualTo(FAST));
    assertThat(r.trace()).extracting(OptimizationEvent::state).contains("CONTEXT", "REASONING", "VERIFICATION",
        "DECISION", "TERMINATION");
    assertThat(r.traceJsonLines()).contains("\"event\":\"llm-call\"").contains("\"verdict\":\"FASTER\"");

    // The next optimisation of the same query replays the demonstration without asking the model.
    ScriptedChatModel silent = ScriptedChatModel.create().otherwise("{\"sql\": \"" + json(SLOW) + "\"}");
    OptimizeResult again = Optimizer.builder().rules(false).timedRuns(3).demonstrations(optimizer.demonstrations())
        .build().optimize(SLOW, c);
    assertThat(again.candidates()).extracting(OptimizationCandidate::source).containsExactly(CandidateSource.DEMONSTRATION);
    assertThat(again.improved()).isTrue();
    assertThat(silent.requests()).isEmpty();
  }

  @Test
  void agenticLoopFeedsBackDifferingRowsAndStopsAtTheTarget() {
    ScriptedChatModel model = ScriptedChatModel.create()
        .answer("{\"operations\": [{\"op\": \"replace_clause\", \"target\": \"main_query.where\","
            + " \"sql\": \"a.id = b.id\"}], \"explanation\": \"the second condition looks redundant\"}")
        .answer("{\"sql\": \"" + json(FAST) + "\", \"explanation\": \"two hash joins\"}")
        .otherwise("{\"sql\": \"" + json(SLOW) + "\"}");
    OptimizeResult r = offlineRulesOff().chatModel(model).mode(Optimizer.Mode.AGENTIC).maxIterations(5)
        .targetSpeedup(1.5).build().optimize(SLOW, c);

    assertThat(r.candidates()).extracting(OptimizationCandidate::verdict)
        .containsExactly(CandidateVerdict.NOT_EQUIVALENT, CandidateVerdict.FASTER);
    assertThat(model.requests()).hasSize(2);
    String second = model.prompt(1);
    assertThat(second).contains("Semantics: INCORRECT").contains("on the target instance")
        .contains("Original:  (9999)").contains("Optimized: (5000)")
        .contains("Removed a join without adding IS NOT NULL")
        .contains("## Your earlier attempts").contains("NOT_EQUIVALENT");
    // QUITE: recipes join the prompt only after the first round.
    assertThat(model.prompt(0)).doesNotContain("## Relevant rewrite recipes");
    assertThat(second).contains("## Relevant rewrite recipes");
    assertThat(r.improved()).isTrue();
    assertThat(r.trace()).anySatisfy(e -> assertThat(e.event()).isEqualTo("target-reached"));
  }

  @Test
  void garbageAnswersGetARepairRoundThenTheLoopGivesUpAndTheOriginalIsReturned() {
    ScriptedChatModel model = ScriptedChatModel.create().otherwise("I would add an index on t.id.");
    OptimizeResult r = offlineRulesOff().chatModel(model).maxIterations(5).build().optimize(SLOW, c);
    assertThat(r.verdict()).isEqualTo(OptimizeVerdict.NO_CANDIDATE);
    assertThat(r.sql()).isEqualTo(SLOW);
    assertThat(r.speedup()).isEqualTo(1.0);
    // Two failed rounds (each an answer plus a repair) and the loop stops.
    assertThat(model.requests()).hasSize(4);
    assertThat(model.prompt(1)).contains("Your answer could not be used").contains("no JSON object");
    assertThat(r.trace()).filteredOn(e -> e.event().equals("llm-failed")).hasSize(2);
    assertThat(r.trace()).anySatisfy(e -> assertThat(e.message()).contains("MALFORMED_ANSWER"));
  }

  @Test
  void hostileAnswersAreRejectedAndTheDatabaseIsUntouched() throws SQLException {
    ScriptedChatModel model = ScriptedChatModel.create()
        .answer("{\"sql\": \"DROP TABLE t\"}")
        .answer("{\"operations\": [{\"op\": \"replace_clause\", \"target\": \"main_query.where\","
            + " \"sql\": \"true; DROP TABLE t\"}]}")
        .answer("{\"sql\": \"SELECT count(*) FROM read_csv('/etc/passwd')\"}")
        .answer("{\"sql\": \"SELECT count(*) AS n FROM t a, t b WHERE a.id = b.id; DELETE FROM t\"}");
    OptimizeResult r = offlineRulesOff().chatModel(model).maxIterations(4).build().optimize(SLOW, c);
    assertThat(r.candidates()).hasSize(4).allSatisfy(x ->
        assertThat(x.verdict()).isEqualTo(CandidateVerdict.NOT_EXECUTABLE));
    assertThat(r.candidates().get(0).reason()).containsAnyOf("not a query", "REJECTED", "does not parse");
    assertThat(r.candidates().get(2).reason()).contains("read_csv");
    assertThat(r.verdict()).isEqualTo(OptimizeVerdict.NO_EQUIVALENT_CANDIDATE);
    assertThat(r.sql()).isEqualTo(SLOW);
    assertThat(model.prompt(1)).contains("could not be applied or validated").contains("not a query");
    assertThat(model.prompt(3)).contains("Your rewrite does not run").contains("read_csv");
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(5000);
    }
  }

  @Test
  void aModelThatTimesOutLeavesTheOriginal() {
    ScriptedChatModel model = ScriptedChatModel.create().slow(Duration.ofSeconds(3), "{\"sql\": \"SELECT 1\"}")
        .slow(Duration.ofSeconds(3), "{\"sql\": \"SELECT 1\"}");
    LlmGateway gateway = LlmGateway.builder().model(Role.OPTIMIZER, model, "gpt-5-mini")
        .callTimeout(Duration.ofMillis(200)).retry(RetryPolicy.NONE).build();
    long start = System.nanoTime();
    OptimizeResult r = offlineRulesOff().gateway(gateway).maxIterations(3).build().optimize(SLOW, c);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    assertThat(r.verdict()).isEqualTo(OptimizeVerdict.NO_CANDIDATE);
    assertThat(r.sql()).isEqualTo(SLOW);
    assertThat(r.trace()).anySatisfy(e -> assertThat(e.message()).contains("TIMEOUT"));
    assertThat(r.usage().failedCalls()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void feedbackFollowsThePromptDesign() {
    QueryOptimizer config = Optimizer.builder().build();
    OptimizationCandidate slower = new OptimizationCandidate(1, CandidateSource.LLM, "x", "", "SELECT 1", CandidateVerdict.SLOWER, "0.87x",
        java.util.Optional.empty(), java.util.Optional.empty(), java.util.Optional.empty(), 0.87);
    assertThat(LlmProposer.feedback(slower, config)).contains("Speedup: 0.87x").contains("SLOWER")
        .contains("Scan consolidation");
    OptimizationCandidate negligible = new OptimizationCandidate(2, CandidateSource.LLM, "x", "", "SELECT 1", CandidateVerdict.NEGLIGIBLE,
        "1.05x", java.util.Optional.empty(), java.util.Optional.empty(), java.util.Optional.empty(), 1.05);
    assertThat(LlmProposer.feedback(negligible, config)).contains("Speedup: 1.05x").contains("Negligible speedup (not shown faster")
        .contains("IS NOT NULL");
  }
}
