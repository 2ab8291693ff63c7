package dev.lakerewrite.core.reliability;

import static dev.lakerewrite.core.reliability.ProgrammableModel.Reply;
import static dev.lakerewrite.core.reliability.ProgrammableModel.decide;
import static dev.lakerewrite.core.reliability.ProgrammableModel.output;
import static dev.lakerewrite.core.reliability.ProgrammableModel.rewrite;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.TestLakes;
import dev.lakerewrite.core.llm.LlmBudget;
import dev.lakerewrite.core.llm.LlmCall;
import dev.lakerewrite.core.llm.LlmFailure;
import dev.lakerewrite.core.llm.RetryPolicy;
import dev.lakerewrite.core.llm.Role;
import dev.lakerewrite.core.rewrite.StopReason;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.output.TokenUsage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 9, LLM faults: models that time out, are rate limited, fail on the server, answer empty, truncated,
 * non-JSON, off-contract or enormous text, or never stop asking for the same thing. The loop retries what is
 * retryable with backoff, keeps every budget (iterations, tokens, cost, wall time) to within one call's answer,
 * and always returns a {@link RewriteResult} with a stop reason.
 */
class LlmFaultsTest {
  static final String QUERY = "SELECT name, population FROM nz_regions WHERE capital = 'Whangarei'";
  static final String GOOD_SQL = "SELECT label AS name, population FROM region_of_new_zealand";
  static final RetryPolicy FAST_RETRY = new RetryPolicy(2, Duration.ofMillis(50), Duration.ofMillis(400));
  /** Faults injected, by kind, for the report. */
  static final Map<String, Integer> INJECTED = new ConcurrentHashMap<>();

  private static DataLake lake;

  @BeforeAll
  static void warmUp() {
    lake = TestLakes.sample();
    lake.index();
  }

  @AfterAll
  static void report() {
    System.out.println("[reliability] LLM faults injected and survived: " + new TreeMap<>(INJECTED));
  }

  static Rewriter.Builder rewriter(ProgrammableModel rewriterModel, ProgrammableModel checkerModel) {
    return Rewriter.builder().chatModel(Role.REWRITER, rewriterModel, "gpt-5-mini")
        .chatModel(Role.CHECKER, checkerModel, "gpt-5-mini").retry(FAST_RETRY).llmCallTimeout(Duration.ofSeconds(5));
  }

  /** Whatever happened, the result explains itself. */
  static RewriteResult checked(RewriteResult r, String fault) {
    INJECTED.merge(fault, 1, Integer::sum);
    assertThat(r.stopReason()).isNotNull();
    assertThat(r.stopDetail()).isNotBlank();
    assertThat(r.iterations()).isBetween(1, 50);
    if (!r.succeeded()) {
      assertThat(r.error()).as("a failed rewrite says why").isPresent();
    }
    return r;
  }

  static List<LlmCall> calls(RewriteResult r, Role role) {
    return r.llmCalls().stream().filter(c -> c.role() == role).toList();
  }

  @Test
  void rateLimitsAreRetriedWithBackoffAndTheRewriteSucceeds() {
    ProgrammableModel rw = ProgrammableModel.of((n, req) -> {
      if (n <= 2) {
        throw new RateLimitException("429 Too Many Requests");
      }
      return Reply.of(rewrite(GOOD_SQL));
    });
    ProgrammableModel ck = ProgrammableModel.always(output(0));
    RewriteResult r = checked(rewriter(rw, ck).build().rewrite(QUERY, lake), "rate limit (then recovers)");
    assertThat(r.stopReason()).isEqualTo(StopReason.OUTPUT_QUERY);
    assertThat(r.succeeded()).isTrue();
    LlmCall call = calls(r, Role.REWRITER).get(0);
    assertThat(call.attempts()).isEqualTo(3);
    assertThat(call.failure()).isEmpty();
    assertThat(r.usage().retries()).isEqualTo(2);
    // Backoff: 50 ms, then 100 ms before the third attempt.
    assertThat(call.latency()).isGreaterThanOrEqualTo(Duration.ofMillis(150));
  }

  @Test
  void serverErrorsExhaustTheirRetriesAndTheLoopStillReturns() {
    ProgrammableModel rw = ProgrammableModel.of((n, req) -> {
      throw new InternalServerException("503 Service Unavailable");
    });
    ProgrammableModel ck = ProgrammableModel.always(decide());
    RewriteResult r = checked(rewriter(rw, ck).maxIterations(2).build().rewrite(QUERY, lake), "server error");
    assertThat(r.stopReason()).isEqualTo(StopReason.MAX_ITERATIONS);
    assertThat(r.succeeded()).isFalse();
    assertThat(r.error().orElseThrow().message()).contains("no rewritten query was produced");
    assertThat(rw.calls()).isEqualTo(2 * (1 + FAST_RETRY.maxRetries()));
    assertThat(calls(r, Role.REWRITER)).hasSize(2).allSatisfy(c -> {
      assertThat(c.failure()).contains(LlmFailure.Kind.SERVER_ERROR);
      assertThat(c.attempts()).isEqualTo(3);
    });
    assertThat(r.trace().events("agent_failure")).hasSize(2);
  }

  @Test
  void authenticationFailuresAreNotRetried() {
    ProgrammableModel rw = ProgrammableModel.of((n, req) -> {
      throw new AuthenticationException("401 invalid api key");
    });
    ProgrammableModel ck = ProgrammableModel.of((n, req) -> {
      throw new AuthenticationException("401 invalid api key");
    });
    RewriteResult r = checked(rewriter(rw, ck).maxIterations(2).build().rewrite(QUERY, lake), "authentication");
    assertThat(rw.calls()).isEqualTo(2);
    assertThat(r.usage().retries()).isZero();
    assertThat(r.llmCalls()).allSatisfy(c -> assertThat(c.failure()).contains(LlmFailure.Kind.REJECTED_BY_PROVIDER));
  }

  @Test
  void slowModelsTimeOutPerCallAndAreRetried() {
    ProgrammableModel rw = ProgrammableModel.of((n, req) -> {
      ProgrammableModel.sleep(60_000);
      return Reply.of(rewrite(GOOD_SQL));
    });
    ProgrammableModel ck = ProgrammableModel.always(decide());
    long t0 = System.nanoTime();
    RewriteResult r = checked(rewriter(rw, ck).llmCallTimeout(Duration.ofMillis(200))
        .retry(new RetryPolicy(1, Duration.ofMillis(20), Duration.ofMillis(20))).maxIterations(2).build()
        .rewrite(QUERY, lake), "timeout");
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(calls(r, Role.REWRITER)).hasSize(2).allSatisfy(c -> {
      assertThat(c.failure()).contains(LlmFailure.Kind.TIMEOUT);
      assertThat(c.attempts()).isEqualTo(2);
    });
    assertThat(rw.calls()).isEqualTo(4);
    assertThat(ms).as("four 200 ms attempts, not four 60 s answers").isLessThan(60_000);
    assertThat(r.stopReason()).isEqualTo(StopReason.MAX_ITERATIONS);
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("empty", ""),
        Arguments.of("whitespace", "   \n  "),
        Arguments.of("truncated JSON", "{\"sql\": \"SELECT label FROM region_of_new_z"),
        Arguments.of("not JSON", "I'm sorry, but I can't help with rewriting this query."),
        Arguments.of("JSON array", "[\"SELECT 1\"]"),
        Arguments.of("wrong field", "{\"query\": \"SELECT 1\"}"),
        Arguments.of("wrong type", "{\"sql\": {\"select\": [\"label\"]}}"),
        Arguments.of("null sql", "{\"sql\": null, \"reason\": \"none\"}"),
        Arguments.of("enormous", "{\"sql\": \"SELECT '" + "x".repeat(3_000_000) + "'\"}"),
        Arguments.of("enormous prose", "lorem ipsum ".repeat(500_000)),
        Arguments.of("deeply nested JSON", "[".repeat(5_000) + "]".repeat(5_000)),
        Arguments.of("control characters", "{\"sql\": \"SELECT \u0000\u0007\u001b[2J label\"}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void malformedAnswersGetOneRepairRoundThenCountAsFailedSteps(String kind, String answer) {
    ProgrammableModel rw = ProgrammableModel.always(answer);
    ProgrammableModel ck = ProgrammableModel.always(answer);
    RewriteResult r = checked(rewriter(rw, ck).maxIterations(2).build().rewrite(QUERY, lake), "malformed: " + kind);
    assertThat(r.stopReason()).isIn(StopReason.MAX_ITERATIONS, StopReason.NO_PROGRESS);
    // One ask plus one repair per agent and iteration (an answer with no text at all gets no repair round).
    assertThat(rw.calls()).isBetween(2, 4);
    assertThat(r.llmCalls()).allSatisfy(c -> assertThat(c.answer().length()).isLessThanOrEqualTo(20_100));
    assertThat(r.trace().events("agent_failure")).isNotEmpty();
    // Repair prompts quote at most 4,000 characters of a bad answer.
    rw.prompts().forEach(p -> assertThat(p.length()).isLessThan(60_000));
  }

  @Test
  void modelsThatThrowAnythingOrAnswerNothingAreFailedSteps() {
    ProgrammableModel rw = ProgrammableModel.of((n, req) -> switch (n % 4) {
      case 1 -> throw new NullPointerException("provider bug");
      case 2 -> throw new StackOverflowError("provider recursion");
      case 3 -> null;
      default -> throw new IllegalStateException("unexpected");
    });
    ProgrammableModel ck = ProgrammableModel.always(decide());
    RewriteResult r = checked(rewriter(rw, ck).maxIterations(4).build().rewrite(QUERY, lake), "exceptions and null");
    assertThat(r.stopReason()).isEqualTo(StopReason.MAX_ITERATIONS);
    assertThat(calls(r, Role.REWRITER)).hasSize(4).allSatisfy(c -> assertThat(c.failure()).isPresent());
    assertThat(r.usage().failedCalls()).isGreaterThanOrEqualTo(4);
  }

  @Test
  void aModelRepeatingItselfEndsTheLoopWithoutProgress() {
    ProgrammableModel rw = ProgrammableModel.always(rewrite(GOOD_SQL));
    ProgrammableModel ck = ProgrammableModel.always(decide("{\"type\": \"EVICT_TABLE\", \"table\": \"capital\"}",
        "{\"type\": \"SEARCH_VALUE\", \"search_table\": \"region_of_new_zealand\", \"search_value\": \"Whangarei\"}"));
    RewriteResult r = checked(rewriter(rw, ck).maxIterations(10).build().rewrite(QUERY, lake), "same action forever");
    assertThat(r.stopReason()).isEqualTo(StopReason.NO_PROGRESS);
    assertThat(r.iterations()).isEqualTo(2);
    assertThat(r.succeeded()).as("the candidate that ran is returned").isTrue();
  }

  @Test
  void aModelSearchingForeverStopsAtTheIterationLimit() {
    // Each SEARCH_TABLE brings tables not yet in the scratchpad, and time-based eviction makes room for more:
    // new evidence every time, so only the iteration limit ends it.
    ProgrammableModel rw = ProgrammableModel.always(rewrite(GOOD_SQL));
    ProgrammableModel ck = ProgrammableModel.always(
        decide("{\"type\": \"SEARCH_TABLE\", \"domain\": \"regions\", \"columns\": [\"name\"]}"));
    RewriteResult r = checked(rewriter(rw, ck).maxIterations(6).build().rewrite(QUERY, lake), "same search forever");
    assertThat(r.stopReason()).isIn(StopReason.MAX_ITERATIONS, StopReason.NO_PROGRESS);
    assertThat(r.iterations()).isLessThanOrEqualTo(6);
    assertThat(rw.calls()).isLessThanOrEqualTo(6);
    assertThat(r.succeeded()).isTrue();
  }

  @Test
  void theIterationLimitIsExact() {
    ProgrammableModel rw = ProgrammableModel.of((n, req) -> Reply.of(rewrite(GOOD_SQL + " LIMIT " + n)));
    ProgrammableModel ck = ProgrammableModel.always(decide());
    RewriteResult r = checked(rewriter(rw, ck).maxIterations(3).build().rewrite(QUERY, lake), "never outputs");
    assertThat(r.stopReason()).isEqualTo(StopReason.MAX_ITERATIONS);
    assertThat(r.iterations()).isEqualTo(3);
    assertThat(rw.calls()).isEqualTo(3);
    assertThat(ck.calls()).isEqualTo(3);
    assertThat(r.candidates()).hasSize(3);
    assertThat(r.succeeded()).isTrue();
  }

  @Test
  void anInterruptedThreadStopsTheLoopWithTheBestCandidateAndKeepsItsFlag() {
    // While the checker's model answers, the rewriting thread is interrupted, as cancelling its future would.
    Thread caller = Thread.currentThread();
    ProgrammableModel rw = ProgrammableModel.of((n, req) -> Reply.of(rewrite(GOOD_SQL + " LIMIT " + n)));
    ProgrammableModel ck = ProgrammableModel.of((n, req) -> {
      caller.interrupt();
      return Reply.of(decide());
    });
    RewriteResult r;
    boolean flagAfter;
    try {
      r = checked(rewriter(rw, ck).maxIterations(10).build().rewrite(QUERY, lake), "interrupted thread");
    } finally {
      flagAfter = Thread.interrupted(); // clears it, so the flag does not leak into the next test
    }
    assertThat(r.stopReason()).isEqualTo(StopReason.INTERRUPTED);
    assertThat(flagAfter).as("the caller still sees the interrupt").isTrue();
    assertThat(r.iterations()).isEqualTo(1);
    assertThat(rw.calls()).isEqualTo(1);
    assertThat(r.succeeded()).as("the candidate that ran is returned").isTrue();
  }

  @Test
  void theTokenBudgetIsKeptToWithinOneAnswer() {
    ProgrammableModel rw = ProgrammableModel.of((n, req) -> Reply.of(rewrite(GOOD_SQL + " LIMIT " + n)));
    ProgrammableModel ck = ProgrammableModel.always(decide());
    long budget = 12_000;
    RewriteResult r = checked(rewriter(rw, ck).maxIterations(50).budget(LlmBudget.UNLIMITED.withMaxTokens(budget))
        .build().rewrite(QUERY, lake), "token budget");
    assertThat(r.stopReason()).isEqualTo(StopReason.BUDGET_EXHAUSTED);
    long largestAnswer = r.llmCalls().stream().mapToLong(LlmCall::outputTokens).max().orElse(0);
    assertThat(r.usage().totalTokens()).isLessThanOrEqualTo(budget + largestAnswer);
    assertThat(r.usage().totalTokens()).as("the budget was used, not abandoned early")
        .isGreaterThan(budget / 2);
    assertThat(r.succeeded()).as("the best candidate so far is returned").isTrue();
  }

  @Test
  void theCostBudgetIsKeptToWithinOneCall() {
    // gpt-5-mini: $0.25 per million input tokens, $2 per million output tokens; each call reports 20k in, 2k out.
    ProgrammableModel rw = ProgrammableModel.of((n, req) -> new Reply(rewrite(GOOD_SQL + " LIMIT " + n),
        new TokenUsage(20_000, 2_000)));
    ProgrammableModel ck = ProgrammableModel.of((n, req) -> new Reply(decide(), new TokenUsage(20_000, 2_000)));
    double budget = 0.05;
    RewriteResult r = checked(rewriter(rw, ck).maxIterations(50).budget(LlmBudget.UNLIMITED.withMaxCostUsd(budget))
        .build().rewrite(QUERY, lake), "cost budget");
    assertThat(r.stopReason()).isEqualTo(StopReason.BUDGET_EXHAUSTED);
    double largestCall = r.llmCalls().stream().mapToDouble(LlmCall::costUsd).max().orElse(0);
    assertThat(largestCall).isCloseTo(0.009, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(r.usage().costUsd()).isLessThanOrEqualTo(budget + largestCall);
    assertThat(r.usage().costUsd()).isGreaterThanOrEqualTo(budget);
  }

  @Test
  void theWallTimeBudgetStopsSlowModelsOnTime() {
    ProgrammableModel rw = ProgrammableModel.of((n, req) -> {
      ProgrammableModel.sleep(300);
      return Reply.of(rewrite(GOOD_SQL + " LIMIT " + n));
    });
    ProgrammableModel ck = ProgrammableModel.of((n, req) -> {
      ProgrammableModel.sleep(300);
      return Reply.of(decide());
    });
    Duration wall = Duration.ofMillis(1_500);
    long t0 = System.nanoTime();
    RewriteResult r = checked(rewriter(rw, ck).maxIterations(50).budget(LlmBudget.UNLIMITED.withMaxWallTime(wall))
        .build().rewrite(QUERY, lake), "wall-time budget (slow model)");
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(r.stopReason()).isEqualTo(StopReason.BUDGET_EXHAUSTED);
    assertThat(ms).isBetween(wall.toMillis() - 100, wall.toMillis() + WALL_TOLERANCE_MS);
  }

  @Test
  void theWallTimeBudgetAlsoBoundsSlowCandidates() {
    // The model proposes a query that runs until its time limit (10 s); the rewrite's wall time is 1.5 s.
    ProgrammableModel rw = ProgrammableModel.always(rewrite(
        "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r"));
    ProgrammableModel ck = ProgrammableModel.always(decide());
    Duration wall = Duration.ofMillis(1_500);
    long t0 = System.nanoTime();
    RewriteResult r = checked(rewriter(rw, ck).maxIterations(5).queryLimits(new QueryLimits(Duration.ofSeconds(10),
        100)).budget(LlmBudget.UNLIMITED.withMaxWallTime(wall)).build().rewrite(QUERY, lake),
        "wall-time budget (slow candidate)");
    long ms = (System.nanoTime() - t0) / 1_000_000;
    assertThat(r.stopReason()).isEqualTo(StopReason.BUDGET_EXHAUSTED);
    assertThat(ms).isLessThan(wall.toMillis() + WALL_TOLERANCE_MS);
  }

  /** Work between budget checks that is not interruptible (a retrieval step, a preview) fits in this. */
  /**
   * Slack over a wall-time budget: the failure these tests catch is a budget ignored (tens of seconds of model
   * calls or a 10 s query per iteration), so the slack is wide enough for a loaded CI machine.
   */
  static final long WALL_TOLERANCE_MS = 10_000;
}
