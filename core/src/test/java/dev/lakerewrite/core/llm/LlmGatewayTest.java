package dev.lakerewrite.core.llm;

import dev.lakerewrite.testing.ScriptedChatModel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.chat.ChatModel;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LlmGatewayTest {
  record Rewrite(String sql, String reason) {}

  static final JsonContract<Rewrite> REWRITE = new JsonContract<>("rewrite", Rewrite.class,
      r -> r.sql() == null || r.sql().isBlank() ? List.of("\"sql\" is missing or empty") : List.of());
  static final List<ChatMessage> PROMPT = List.of(SystemMessage.from("You rewrite SQL."),
      UserMessage.from("Rewrite: SELECT name FROM countries"));

  private static LlmGateway.Builder gateway(ChatModel model) {
    return LlmGateway.builder().model(model, "gpt-5-mini")
        .retry(new RetryPolicy(2, Duration.ofMillis(5), Duration.ofMillis(20)))
        .callTimeout(Duration.ofSeconds(5));
  }

  @Test
  void parsesJsonWrappedInProseAndFencesAndAccountsTokensAndCost() {
    ScriptedChatModel model = ScriptedChatModel.create()
        .answer("Sure! Here it is:\n```json\n{\"sql\": \"SELECT label FROM region_of_new_zealand\", "
            + "\"reason\": \"the lake calls it label\",}\n```", 1_000_000, 100_000);
    LlmGateway g = gateway(model).build();
    Rewrite r = g.askJson(Role.REWRITER, PROMPT, REWRITE);
    assertThat(r.sql()).isEqualTo("SELECT label FROM region_of_new_zealand");
    LlmUsage u = g.usage();
    assertThat(u.calls()).isEqualTo(1);
    assertThat(u.inputTokens()).isEqualTo(1_000_000);
    assertThat(u.outputTokens()).isEqualTo(100_000);
    assertThat(u.costUsd()).isEqualTo(0.25 + 0.2, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(u.byRole()).containsOnlyKeys(Role.REWRITER);
    assertThat(g.calls()).singleElement().satisfies(c -> {
      assertThat(c.prompt()).contains("[system]\nYou rewrite SQL.").contains("countries");
      assertThat(c.answer()).contains("region_of_new_zealand");
      assertThat(c.failure()).isEmpty();
    });
  }

  @Test
  void malformedAnswersGetOneRepairRoundThenFail() {
    ScriptedChatModel model = ScriptedChatModel.create()
        .answer("I think you should use label.")
        .answer("{\"sql\": \"SELECT label FROM capital\", \"reason\": \"fixed\"}");
    LlmGateway g = gateway(model).build();
    assertThat(g.askJson(Role.REWRITER, PROMPT, REWRITE).sql()).isEqualTo("SELECT label FROM capital");
    assertThat(model.prompt(1)).contains("Your answer could not be used").contains("no JSON object");

    ScriptedChatModel twiceBad = ScriptedChatModel.create().answer("{\"reason\": \"no sql\"}").answer("{\"sql\": \"\"}");
    LlmGateway g2 = gateway(twiceBad).build();
    assertThatThrownBy(() -> g2.askJson(Role.REWRITER, PROMPT, REWRITE))
        .isInstanceOfSatisfying(LlmFailure.class, f -> assertThat(f.kind()).isEqualTo(LlmFailure.Kind.MALFORMED_ANSWER))
        .hasMessageContaining("\"sql\" is missing or empty");
    assertThat(twiceBad.requests()).hasSize(2);
  }

  @Test
  void schemaViolationsAndHugeAnswersAreMalformed() {
    ScriptedChatModel model = ScriptedChatModel.create()
        .answer("{\"sql\": {\"nested\": true}}")
        .answer("{\"sql\": \"" + "x".repeat(500) + "\"}");
    LlmGateway g = gateway(model).maxAnswerChars(200).build();
    assertThatThrownBy(() -> g.askJson(Role.REWRITER, PROMPT, REWRITE))
        .isInstanceOf(LlmFailure.class).hasMessageContaining("too long");
    assertThat(model.prompt(1)).contains("does not fit the rewrite contract");
  }

  @Test
  void emptyAnswersFail() {
    LlmGateway g = gateway(ScriptedChatModel.create().answer("   ")).build();
    assertThatThrownBy(() -> g.ask(Role.CHECKER, PROMPT))
        .isInstanceOfSatisfying(LlmFailure.class, f -> assertThat(f.kind()).isEqualTo(LlmFailure.Kind.MALFORMED_ANSWER));
  }

  @Test
  void retriesRateLimitsAndServerErrorsWithBackoff() {
    ScriptedChatModel model = ScriptedChatModel.create()
        .fail(new RateLimitException("429 slow down"))
        .fail(new InternalServerException("502 bad gateway"))
        .answer("{\"sql\": \"SELECT 1\"}");
    LlmGateway g = gateway(model).build();
    assertThat(g.askJson(Role.REWRITER, PROMPT, REWRITE).sql()).isEqualTo("SELECT 1");
    assertThat(g.usage().retries()).isEqualTo(2);
    assertThat(g.calls()).singleElement().satisfies(c -> assertThat(c.attempts()).isEqualTo(3));
  }

  @Test
  void givesUpAfterTheRetriesWithTheRightKind() {
    ScriptedChatModel model = ScriptedChatModel.create()
        .fail(new HttpException(503, "unavailable")).fail(new HttpException(503, "unavailable"))
        .fail(new HttpException(503, "unavailable")).answer("{\"sql\": \"never reached\"}");
    LlmGateway g = gateway(model).build();
    assertThatThrownBy(() -> g.ask(Role.REWRITER, PROMPT))
        .isInstanceOfSatisfying(LlmFailure.class, f -> assertThat(f.kind()).isEqualTo(LlmFailure.Kind.SERVER_ERROR))
        .hasMessageContaining("after 3 attempts");
    assertThat(model.remaining()).isEqualTo(1);
    assertThat(g.usage().failedCalls()).isEqualTo(1);
  }

  @Test
  void neverRetriesWhatRetryingCannotFix() {
    ScriptedChatModel model = ScriptedChatModel.create().fail(new AuthenticationException("bad key")).answer("{}");
    LlmGateway g = gateway(model).build();
    assertThatThrownBy(() -> g.ask(Role.REWRITER, PROMPT))
        .isInstanceOfSatisfying(LlmFailure.class,
            f -> assertThat(f.kind()).isEqualTo(LlmFailure.Kind.REJECTED_BY_PROVIDER));
    assertThat(model.requests()).hasSize(1);
  }

  @Test
  void slowAnswersTimeOut() {
    ScriptedChatModel model = ScriptedChatModel.create()
        .slow(Duration.ofSeconds(120), "{}").slow(Duration.ofSeconds(120), "{}");
    LlmGateway g = LlmGateway.builder().model(model, "m").retry(new RetryPolicy(1, Duration.ZERO, Duration.ZERO))
        .callTimeout(Duration.ofMillis(150)).build();
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> g.ask(Role.REWRITER, PROMPT))
        .isInstanceOfSatisfying(LlmFailure.class, f -> assertThat(f.kind()).isEqualTo(LlmFailure.Kind.TIMEOUT));
    // Two 120 s answers would take four minutes; the bound is far from both that and a loaded machine's 150 ms.
    assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(60_000);
  }

  @Test
  void budgetsStopCallsBeforeTheyStart() {
    ScriptedChatModel model = ScriptedChatModel.create().otherwise("{\"sql\": \"SELECT 1\"}");
    LlmGateway tokens = gateway(model).budget(LlmBudget.UNLIMITED.withMaxTokens(60)).build();
    tokens.ask(Role.REWRITER, PROMPT); // ~16 prompt + ~5 answer tokens, estimated
    tokens.ask(Role.REWRITER, PROMPT);
    assertThatThrownBy(() -> tokens.ask(Role.REWRITER, PROMPT))
        .isInstanceOfSatisfying(LlmFailure.class, f -> assertThat(f.kind()).isEqualTo(LlmFailure.Kind.BUDGET_EXHAUSTED))
        .hasMessageContaining("token budget of 60");
    assertThat(tokens.usage().totalTokens()).isLessThanOrEqualTo(60);
    assertThat(tokens.usage().estimatedTokenCalls()).isEqualTo(2);

    ScriptedChatModel paid = ScriptedChatModel.create().answer("{\"sql\": \"x\"}", 4_000_000, 0).otherwise("{}");
    LlmGateway cost = gateway(paid).budget(LlmBudget.UNLIMITED.withMaxCostUsd(1.0)).build();
    cost.ask(Role.REWRITER, PROMPT);
    assertThatThrownBy(() -> cost.ask(Role.REWRITER, PROMPT)).hasMessageContaining("cost budget");
    assertThat(paid.requests()).hasSize(1);

    LlmGateway time = gateway(model).budget(LlmBudget.UNLIMITED.withMaxWallTime(Duration.ofMillis(1))).build();
    sleep(5);
    assertThatThrownBy(() -> time.ask(Role.REWRITER, PROMPT)).hasMessageContaining("wall-time budget");
  }

  @Test
  void theMeteredModelHandedToCapabilityModulesCountsTooAndObeysTheBudget() {
    ScriptedChatModel model = ScriptedChatModel.create().answer("hello", 10, 5).otherwise("again");
    LlmGateway g = gateway(model).budget(LlmBudget.UNLIMITED.withMaxTokens(20)).build();
    ChatModel metered = g.model(Role.CLEANER).orElseThrow();
    assertThat(metered.chat("clean this")).isEqualTo("hello");
    assertThat(g.usage().byRole().get(Role.CLEANER).totalTokens()).isEqualTo(15);
    assertThatThrownBy(() -> metered.chat("a prompt long enough to pass the budget of twenty tokens easily, surely"))
        .isInstanceOf(LlmFailure.class);
  }

  @Test
  void unknownModelsAreReportedAsUnpriced() {
    LlmGateway g = LlmGateway.builder().model(ScriptedChatModel.create().named("my-local-llama").answer("ok", 10, 10),
        "my-local-llama").build();
    g.ask(Role.CHECKER, PROMPT);
    assertThat(g.usage().unpricedCalls()).isEqualTo(1);
    assertThat(g.usage().costUsd()).isZero();
    assertThat(PriceTable.DEFAULT.price("gpt-5-mini-2025-08-07")).contains(new Price(0.25, 2.00));
  }

  @Test
  void noModelForARoleIsAClearFailure() {
    LlmGateway g = LlmGateway.builder().build();
    assertThat(g.hasModel(Role.REWRITER)).isFalse();
    assertThatThrownBy(() -> g.ask(Role.REWRITER, PROMPT)).hasMessageContaining("no model is configured for REWRITER");
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
