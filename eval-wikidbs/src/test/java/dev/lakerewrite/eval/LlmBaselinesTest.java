package dev.lakerewrite.eval;

import dev.lakerewrite.core.TestLakes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.LakeSession;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The LLM baselines and two models side by side, with scripted chat models (no endpoint): each model's calls,
 * tokens and cost are counted per pair, and an answer is scored like any other prediction.
 */
class LlmBaselinesTest {

  private static List<QueryResultPair> pairs;
  private static EvaluationResult result;
  private static final AtomicInteger CALLS = new AtomicInteger();

  @BeforeAll
  static void run() throws IOException, InterruptedException {
    try (LakeSession session = TestLakes.sample().openSession()) {
      pairs = PairLoader.builder().goldRunner(LakeQueryRunner.on(session)).build()
          .loadResource(PairLoader.WIKIDBS_SAMPLE_DEV_SET).pairs().subList(0, 2);
    }
    Map<String, QueryResultPair> byQuery = pairs.stream()
        .collect(Collectors.toMap(p -> p.userQuery().strip(), Function.identity()));
    // "gpt-5-mini" knows the answers and is priced; "tiny" answers nonsense and has no price.
    EvalModel good = EvalModel.of("gpt-5-mini", new Scripted(byQuery, true));
    EvalModel bad = EvalModel.of("tiny", new Scripted(byQuery, false));
    Evaluation.Builder b = Evaluation.builder().lake(TestLakes.sample()).pairs(pairs).warmUp(false);
    for (EvalModel m : List.of(good, bad)) {
      b.variant(Variant.of(EvalMethod.RETRIEVER_REWRITER, m)).variant(Variant.of(EvalMethod.RETRIEVER_READER, m));
    }
    result = b.build().run();
  }

  @Test
  void everyModelRunsBothBaselines() {
    assertThat(result.skipped()).isEmpty();
    assertThat(result.runs()).extracting(r -> r.variant().name()).containsExactly(
        "retriever-rewriter@gpt-5-mini", "retriever-reader@gpt-5-mini", "retriever-rewriter@tiny",
        "retriever-reader@tiny");
    assertThat(CALLS.get()).isEqualTo(8);
  }

  @Test
  void aRightAnswerScoresOneAndAWrongOneZero() {
    assertThat(result.run("retriever-rewriter@gpt-5-mini").orElseThrow().summary().f1()).isEqualTo(1.0);
    assertThat(result.run("retriever-reader@gpt-5-mini").orElseThrow().summary().f1()).isEqualTo(1.0);
    assertThat(result.run("retriever-reader@gpt-5-mini").orElseThrow().summary().executionAccuracy()).isEqualTo(1.0);
    EvaluationResult.VariantRun wrong = result.run("retriever-rewriter@tiny").orElseThrow();
    assertThat(wrong.summary().f1()).isZero();
    assertThat(wrong.outcomes()).allSatisfy(o -> {
      assertThat(o.status()).isEqualTo(PairStatus.NO_RESULT);
      assertThat(o.reason()).contains("no_such_table");
    });
  }

  @Test
  void callsTokensAndCostAreCountedPerPair() {
    for (EvaluationResult.VariantRun r : result.runs()) {
      assertThat(r.outcomes()).allSatisfy(o -> {
        assertThat(o.llmCalls()).isEqualTo(1);
        assertThat(o.tokens()).isEqualTo(1500);
      });
    }
    VariantSummary priced = result.run("retriever-rewriter@gpt-5-mini").orElseThrow().summary();
    // gpt-5-mini: $0.25 per million input tokens, $2.00 per million output tokens.
    assertThat(priced.usage().meanCostUsd()).isCloseTo((1000 * 0.25 + 500 * 2.00) / 1e6, org.assertj.core.api.Assertions.within(1e-12));
    assertThat(priced.usage().calls()).isEqualTo(2);
    assertThat(result.run("retriever-rewriter@tiny").orElseThrow().summary().usage().costUsd()).isZero();
  }

  /** Answers the baselines' prompts: the golden query or the gold table when it knows them, nonsense otherwise. */
  private static final class Scripted implements ChatModel {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, QueryResultPair> byQuery;
    private final boolean knows;

    Scripted(Map<String, QueryResultPair> byQuery, boolean knows) {
      this.byQuery = byQuery;
      this.knows = knows;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
      CALLS.incrementAndGet();
      String system = "";
      String user = "";
      for (ChatMessage m : request.messages()) {
        if (m instanceof SystemMessage s) {
          system = s.text();
        } else if (m instanceof UserMessage u) {
          user = u.singleText();
        }
      }
      int start = user.indexOf("```sql\n") + 7;
      String query = user.substring(start, user.indexOf("\n```", start)).strip();
      QueryResultPair pair = byQuery.get(query);
      ObjectNode answer = JSON.createObjectNode();
      if (system.contains("write the table")) {
        PlainTable gold = pair.expectedResult();
        ArrayNode columns = answer.putArray("columns");
        gold.columns().forEach(columns::add);
        ArrayNode rows = answer.putArray("rows");
        for (List<Object> row : gold.rows()) {
          ArrayNode r = rows.addArray();
          row.forEach(v -> r.add(knows ? SummaryJson.cell(v) : JSON.getNodeFactory().textNode("?")));
        }
      } else {
        answer.put("sql", knows ? pair.goldenQuery() : "SELECT * FROM no_such_table").put("reason", "scripted");
      }
      return ChatResponse.builder().aiMessage(AiMessage.from(answer.toString())).tokenUsage(new TokenUsage(1000, 500))
          .modelName(knows ? "gpt-5-mini" : "tiny").build();
    }
  }
}
