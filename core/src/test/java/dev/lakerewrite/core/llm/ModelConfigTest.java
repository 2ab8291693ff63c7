package dev.lakerewrite.core.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.langchain4j.model.chat.ChatModel;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ModelConfigTest {

  @Test
  void unsetMeansOffline() {
    assertThat(ModelConfig.fromEnvironment(Map.of())).isEmpty();
    assertThat(ModelConfig.fromEnvironment(Map.of("LAKEREWRITE_LLM_MODEL", "  "))).isEmpty();
  }

  @Test
  void readsAndChecksTheVariables() {
    ModelConfig c = ModelConfig.fromEnvironment(Map.of("LAKEREWRITE_LLM_MODEL", "llama3.1",
        "LAKEREWRITE_LLM_BASE_URL", "http://localhost:11434/v1", "LAKEREWRITE_LLM_TIMEOUT_SECONDS", "30")).orElseThrow();
    assertThat(c.apiKey()).isEqualTo("none");
    assertThat(c.timeout().getSeconds()).isEqualTo(30);
    assertThat(c.toString()).doesNotContain("sk-");
    assertThat(ModelConfig.fromEnvironment(Map.of("LAKEREWRITE_LLM_MODEL", "m", "OPENAI_API_KEY", "sk-secret"))
        .orElseThrow().toString()).doesNotContain("sk-secret").contains("****");
    assertThatThrownBy(() -> ModelConfig.fromEnvironment(Map.of("LAKEREWRITE_LLM_MODEL", "m",
        "LAKEREWRITE_LLM_BASE_URL", "localhost:11434"))).hasMessageContaining("LAKEREWRITE_LLM_BASE_URL");
    assertThatThrownBy(() -> ModelConfig.fromEnvironment(Map.of("LAKEREWRITE_LLM_MODEL", "m",
        "LAKEREWRITE_LLM_TIMEOUT_SECONDS", "soon"))).hasMessageContaining("LAKEREWRITE_LLM_TIMEOUT_SECONDS");
  }

  /** The OpenAI client (langchain4j-open-ai 1.19) against a local OpenAI-compatible server, through the gateway. */
  @Test
  void talksToAnOpenAiCompatibleEndpoint() throws Exception {
    List<String> bodies = new CopyOnWriteArrayList<>();
    List<String> auth = new CopyOnWriteArrayList<>();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/v1/chat/completions", ex -> {
      bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      auth.add(ex.getRequestHeaders().getFirst("Authorization"));
      byte[] out = ("{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-5-mini\","
          + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":"
          + "\"{\\\"sql\\\": \\\"SELECT 1\\\"}\"},\"finish_reason\":\"stop\"}],"
          + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":7,\"total_tokens\":19}}")
          .getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(200, out.length);
      try (OutputStream os = ex.getResponseBody()) {
        os.write(out);
      }
    });
    server.start();
    try {
      ModelConfig config = ModelConfig.fromEnvironment(Map.of("LAKEREWRITE_LLM_MODEL", "gpt-5-mini",
          "LAKEREWRITE_LLM_BASE_URL", "http://127.0.0.1:" + server.getAddress().getPort() + "/v1",
          "LAKEREWRITE_LLM_API_KEY", "sk-test")).orElseThrow();
      ChatModel model = config.chatModel();
      LlmGateway g = LlmGateway.builder().model(model, config.modelName()).build();
      assertThat(g.askJson(Role.REWRITER, LlmGatewayTest.PROMPT, LlmGatewayTest.REWRITE).sql()).isEqualTo("SELECT 1");
      assertThat(bodies).singleElement().asString().containsPattern("\"model\"\\s*:\\s*\"gpt-5-mini\"")
          .contains("countries");
      assertThat(auth).containsExactly("Bearer sk-test");
      assertThat(g.usage().inputTokens()).isEqualTo(12);
      assertThat(g.usage().outputTokens()).isEqualTo(7);
      assertThat(g.usage().estimatedTokenCalls()).isZero();
    } finally {
      server.stop(0);
    }
  }
}
