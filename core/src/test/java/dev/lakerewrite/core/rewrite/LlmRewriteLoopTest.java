package dev.lakerewrite.core.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.TestLakes;
import dev.lakerewrite.core.llm.LlmBudget;
import dev.lakerewrite.core.llm.RetryPolicy;
import dev.lakerewrite.core.llm.Role;
import dev.lakerewrite.testing.ScriptedChatModel;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The loop with LLM agents, proved with scripted models that replay conversations: what the loop executes, what
 * reaches the prompts, what it does with garbage, timeouts, evicted tables and hostile SQL, and its budgets.
 */
class LlmRewriteLoopTest {
  static final String USER = "SELECT name, population FROM nz_regions WHERE capital = 'Whangarei'";

  private static Rewriter.Builder rewriter(ScriptedChatModel rewriterModel, ScriptedChatModel checkerModel) {
    return Rewriter.builder()
        .chatModel(Role.REWRITER, rewriterModel, "gpt-5-mini")
        .chatModel(Role.CHECKER, checkerModel, "gpt-5-mini")
        .retry(new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(5)))
        .maxIterations(4);
  }

  private static List<String> actions(RewriteResult r) {
    return r.trace().events("action").stream().map(e -> String.valueOf(e.data().get("action"))).toList();
  }

  @Test
  void aMultiIterationConversationGathersEvidenceAndOutputsTheCandidateTheCheckerChooses() {
    ScriptedChatModel rw = ScriptedChatModel.create()
        .answer("{\"sql\": \"SELECT label AS name, population FROM region_of_new_zealand WHERE capital = 'Whangarei'\","
            + " \"reason\": \"label holds the names\", \"used_tables\": [{\"table_name\": \"region_of_new_zealand\"}]}", 900, 60)
        .then(req -> {
          // The second prompt must carry the value search's evidence.
          assertThat(req.messages().get(1).toString()).contains("Whangārei");
          return "```json\n{\"sql\": \"SELECT label AS name, population FROM region_of_new_zealand "
              + "WHERE capital = 'Whangārei'\", \"reason\": \"the lake spells it with a macron\"}\n```";
        });
    ScriptedChatModel ck = ScriptedChatModel.create()
        .answer("{\"actions\": [{\"type\": \"SEARCH_VALUE\", \"search_table\": \"region_of_new_zealand\", "
            + "\"search_value\": \"Whangarei\"}], \"best_candidate\": 0, \"reasoning\": {\"intent_coverage\": \"ok\", "
            + "\"output_quality\": \"empty result\", \"missing_information\": \"the capital's spelling\", "
            + "\"suggested_improvement\": \"search the value\"}}", 1200, 80)
        .answer("{\"actions\": [{\"type\": \"OUTPUT_QUERY\", \"candidate\": 1}], \"best_candidate\": 1, "
            + "\"reasoning\": {\"output_quality\": \"one row, as expected\"}}");
    RewriteResult r = rewriter(rw, ck).build().rewrite(USER, TestLakes.sample());

    assertThat(r.stopReason()).isEqualTo(StopReason.OUTPUT_QUERY);
    assertThat(r.chosen()).isEqualTo(1);
    assertThat(r.result().orElseThrow().rows()).containsExactly(List.of("Northland Region", "+179100"));
    assertThat(actions(r)).containsExactly("SEARCH_VALUE(region_of_new_zealand, 'Whangarei')");
    assertThat(r.candidates().get(0).result().orElseThrow().rowCount()).isZero();
    assertThat(r.usage().calls()).isEqualTo(4);
    assertThat(r.usage().byRole()).containsKeys(Role.REWRITER, Role.CHECKER);
    assertThat(r.usage().inputTokens()).isGreaterThanOrEqualTo(2100);
    assertThat(r.usage().costUsd()).isPositive();
    assertThat(r.llmCalls()).hasSize(4);
    // Prompts follow thesis 4.1: history with the error-free empty result, the scratchpad, retrieved tables.
    assertThat(rw.prompt(0)).contains("## User query").contains("## Rewrite history").contains("## Scratchpad")
        .contains("## Retrieved tables").contains("<lake-data>");
    assertThat(ck.prompt(1)).contains("[1] (iteration 2)").contains("Value search for 'Whangarei'");
  }

  @Test
  void garbageGetsOneRepairRoundThenCountsAsAFailedStepAndTheLoopCarriesOn() {
    ScriptedChatModel rw = ScriptedChatModel.create()
        .answer("I would rather not answer in JSON.").answer("Still prose, sorry.")
        .answer("{\"sql\": \"SELECT label AS name, population FROM region_of_new_zealand WHERE capital = 'Whangārei'\"}");
    ScriptedChatModel ck = ScriptedChatModel.create()
        .answer("{\"actions\": [], \"best_candidate\": null, \"reasoning\": {}}")
        .answer("{\"actions\": [{\"type\": \"OUTPUT_QUERY\", \"candidate\": 0}], \"best_candidate\": 0}");
    RewriteResult r = rewriter(rw, ck).build().rewrite(USER, TestLakes.sample());
    assertThat(r.trace().events("agent_failure")).singleElement()
        .satisfies(e -> assertThat(e.data().get("kind")).isEqualTo("MALFORMED_ANSWER"));
    assertThat(r.stopReason()).isEqualTo(StopReason.OUTPUT_QUERY);
    assertThat(r.result().orElseThrow().rowCount()).isEqualTo(1);
    assertThat(rw.prompt(1)).contains("Your answer could not be used");
  }

  @Test
  void aProposalTheBinderRejectsForItsTypesIsRepairedAndRunsInsteadOfFailing() {
    // The lake keeps populations as text ('+179100'): sum() has no overload for it.
    ScriptedChatModel rw = ScriptedChatModel.create().otherwise(
        "{\"sql\": \"SELECT sum(population) AS people FROM region_of_new_zealand\", \"reason\": \"all regions\"}");
    ScriptedChatModel ck = ScriptedChatModel.create()
        .otherwise("{\"actions\": [{\"type\": \"OUTPUT_QUERY\", \"candidate\": 0}], \"best_candidate\": 0}");
    RewriteResult r = rewriter(rw, ck).build().rewrite("SELECT sum(population) AS people FROM nz_regions",
        TestLakes.sample());
    assertThat(r.succeeded()).isTrue();
    assertThat(r.sql()).contains("sum(clean_number(population))");
    assertThat(((Number) r.result().orElseThrow().get(0, 0)).doubleValue()).isGreaterThan(4_000_000);
    // The rejected proposal stays in the history; its repair is the candidate returned.
    assertThat(r.candidates().get(0).error().orElseThrow().kind()).isEqualTo(ErrorKind.BINDER);
    assertThat(r.chosen()).isEqualTo(1);
    assertThat(r.candidates().get(1).reason()).startsWith("all regions").contains("Repaired: the binder found no sum")
        .contains("population (text) as a number");
    assertThat(r.stopDetail()).contains("candidate 0 repaired for its types as candidate 1");
    assertThat(r.trace().events("type_repair")).singleElement()
        .satisfies(e -> assertThat(e.data().get("ok")).isEqualTo(true));
  }

  @Test
  void aModelThatTimesOutEndsWithAResultAndAReason() {
    ScriptedChatModel slow = ScriptedChatModel.create().slow(Duration.ofSeconds(3), "{}").slow(Duration.ofSeconds(3), "{}")
        .otherwise("{\"sql\": \"SELECT 1\"}");
    RewriteResult r = Rewriter.builder().chatModel(slow, "gpt-5-mini").llmCallTimeout(Duration.ofMillis(150))
        .retry(RetryPolicy.NONE).maxIterations(1).build().rewrite(USER, TestLakes.sample());
    assertThat(r.trace().events("agent_failure")).isNotEmpty()
        .allSatisfy(e -> assertThat(e.data().get("kind")).isEqualTo("TIMEOUT"));
    assertThat(r.succeeded()).isFalse();
    assertThat(r.error().orElseThrow().message()).contains("no rewritten query was produced");
    assertThat(r.stopReason()).isIn(StopReason.MAX_ITERATIONS, StopReason.NO_PROGRESS);
  }

  @Test
  void anEvictedTableNeverReturnsThroughBasicRetrievalButStaysReachableByActions() {
    ScriptedChatModel rw = ScriptedChatModel.create().otherwise(
        "{\"sql\": \"SELECT label AS name, population FROM region_of_new_zealand WHERE capital = 'Whangārei'\"}");
    ScriptedChatModel ck = ScriptedChatModel.create()
        .answer("{\"actions\": [{\"type\": \"EVICT_TABLE\", \"table\": \"capital_of\"}], \"best_candidate\": 0}")
        .answer("{\"actions\": [{\"type\": \"SEARCH_VALUE\", \"search_table\": \"capital_of\", "
            + "\"search_value\": \"Whangarei\"}], \"best_candidate\": 0}")
        .otherwise("{\"actions\": [{\"type\": \"OUTPUT_QUERY\", \"candidate\": 0}], \"best_candidate\": 0}");
    RewriteResult r = rewriter(rw, ck).build().rewrite(USER, TestLakes.sample());
    List<List<String>> retrieved = r.trace().events("retrieved").stream()
        .map(e -> ((List<?>) e.data().get("tables")).stream()
            .map(t -> String.valueOf(((java.util.Map<?, ?>) t).get("table"))).toList())
        .toList();
    assertThat(retrieved.get(0)).contains("capital_of");
    assertThat(retrieved.subList(1, retrieved.size())).allSatisfy(t -> assertThat(t).doesNotContain("capital_of"));
    assertThat(actions(r)).containsExactly("EVICT_TABLE(capital_of)", "SEARCH_VALUE(capital_of, 'Whangarei')");
    assertThat(r.trace().events("action").get(1).data().get("ok")).isEqualTo(true);
  }

  @Test
  void aProposedDropTableIsRefusedAndTheLakeIsUntouched() throws Exception {
    String before = sha256(TestLakes.sample().databaseFile());
    ScriptedChatModel rw = ScriptedChatModel.create()
        .answer("{\"sql\": \"DROP TABLE region_of_new_zealand\"}")
        .answer("{\"sql\": \"SELECT 1; DELETE FROM capital\"}")
        .otherwise("{\"sql\": \"SELECT label AS name, population FROM region_of_new_zealand WHERE capital = 'Whangārei'\"}");
    ScriptedChatModel ck = ScriptedChatModel.create()
        .answer("{\"actions\": [{\"type\": \"DROP_TABLE\", \"table\": \"capital\"}]}")
        .answer("{\"actions\": [{\"type\": \"EVICT_TABLE\", \"table\": \"capitals_of_the_world\"}]}")
        .otherwise("{\"actions\": [{\"type\": \"OUTPUT_QUERY\", \"candidate\": 2}], \"best_candidate\": 2}");
    RewriteResult r = rewriter(rw, ck).maxIterations(3).build().rewrite(USER, TestLakes.sample());
    assertThat(r.candidates().get(0).error().orElseThrow().kind()).isEqualTo(ErrorKind.REJECTED);
    assertThat(r.candidates().get(1).error().orElseThrow().kind()).isEqualTo(ErrorKind.REJECTED);
    assertThat(ck.prompt(1)).contains("unknown action type 'DROP_TABLE'");
    assertThat(sha256(TestLakes.sample().databaseFile())).isEqualTo(before);
    assertThat(r.result().orElseThrow().rowCount()).isEqualTo(1);
  }

  @Test
  void budgetsStopTheLoopWithTheBestCandidateSoFar() {
    ScriptedChatModel rw = ScriptedChatModel.create().otherwise(
        "{\"sql\": \"SELECT label AS name, population FROM region_of_new_zealand WHERE capital = 'Whangārei'\"}");
    ScriptedChatModel ck = ScriptedChatModel.create().otherwise(
        "{\"actions\": [{\"type\": \"SEARCH_VALUE\", \"search_table\": \"capital\", \"search_value\": \"x\"}], \"best_candidate\": 0}");
    RewriteResult r = rewriter(rw, ck).budget(LlmBudget.UNLIMITED.withMaxTokens(4_000)).maxIterations(10).build()
        .rewrite(USER, TestLakes.sample());
    assertThat(r.stopReason()).isEqualTo(StopReason.BUDGET_EXHAUSTED);
    assertThat(r.usage().totalTokens()).isLessThanOrEqualTo(4_000 + 200);
    assertThat(r.result().orElseThrow().rowCount()).isEqualTo(1);
  }

  @Test
  void whenEveryCandidateFailsTheOneThatBindsOnTheLakeIsReturnedNotALaterOneTheBinderRejected() {
    ScriptedChatModel rw = ScriptedChatModel.create()
        .answer("{\"sql\": \"SELECT label AS name, CAST(label AS INTEGER) AS population FROM region_of_new_zealand\"}")
        .answer("{\"sql\": \"SELECT label AS name, inhabitants AS population FROM region_of_new_zealand\"}");
    ScriptedChatModel ck = ScriptedChatModel.create().otherwise("{\"actions\": [], \"best_candidate\": null}");
    RewriteResult r = rewriter(rw, ck).maxIterations(2).build().rewrite(USER, TestLakes.sample());

    assertThat(r.candidates()).hasSize(2);
    assertThat(r.candidates().get(0).error().orElseThrow().kind()).isEqualTo(ErrorKind.RUNTIME);
    assertThat(r.candidates().get(1).error().orElseThrow().kind()).isEqualTo(ErrorKind.BINDER);
    assertThat(r.succeeded()).isFalse();
    assertThat(r.chosen()).isZero();
    assertThat(r.sql()).contains("CAST(label AS INTEGER)");
  }

  private static String sha256(java.nio.file.Path f) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    try (InputStream in = new DigestInputStream(Files.newInputStream(f), md)) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
