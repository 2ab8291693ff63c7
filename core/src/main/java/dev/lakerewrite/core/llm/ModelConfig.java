package dev.lakerewrite.core.llm;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An OpenAI-compatible endpoint configured without code, from environment variables. Works for OpenAI, Ollama
 * ({@code http://localhost:11434/v1}), vLLM, LM Studio and other servers that speak the OpenAI chat API.
 *
 * <ul>
 *   <li>{@code LAKEREWRITE_LLM_MODEL} — the model name; unset means offline (no model)</li>
 *   <li>{@code LAKEREWRITE_LLM_BASE_URL} — default {@code https://api.openai.com/v1}</li>
 *   <li>{@code LAKEREWRITE_LLM_API_KEY} — default {@code OPENAI_API_KEY}, else {@code none} (local servers)</li>
 *   <li>{@code LAKEREWRITE_LLM_TIMEOUT_SECONDS} — per-call timeout, default 120</li>
 *   <li>{@code LAKEREWRITE_LLM_TEMPERATURE} — optional sampling temperature</li>
 * </ul>
 *
 * @param modelName the model name
 * @param baseUrl the endpoint's base URL
 * @param apiKey the key sent as a bearer token
 * @param timeout per-call timeout
 * @param temperature sampling temperature, if set
 */
public record ModelConfig(String modelName, String baseUrl, String apiKey, Duration timeout,
    Optional<Double> temperature) {

  public ModelConfig {
    Objects.requireNonNull(modelName, "modelName");
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(apiKey, "apiKey");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(temperature, "temperature");
  }

  /** Reads the process environment; empty when no model is configured. */
  public static Optional<ModelConfig> fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /**
   * Reads the given variables; empty when {@code LAKEREWRITE_LLM_MODEL} is unset or blank.
   *
   * @throws IllegalArgumentException naming the variable when a value is malformed
   */
  public static Optional<ModelConfig> fromEnvironment(Map<String, String> env) {
    String model = trimmed(env.get("LAKEREWRITE_LLM_MODEL"));
    if (model == null) {
      return Optional.empty();
    }
    String baseUrl = Optional.ofNullable(trimmed(env.get("LAKEREWRITE_LLM_BASE_URL")))
        .orElse("https://api.openai.com/v1");
    if (!baseUrl.startsWith("http://") && !baseUrl.startsWith("https://")) {
      throw new IllegalArgumentException("LAKEREWRITE_LLM_BASE_URL must be an http(s) URL, was '" + baseUrl + "'");
    }
    String key = Optional.ofNullable(trimmed(env.get("LAKEREWRITE_LLM_API_KEY")))
        .or(() -> Optional.ofNullable(trimmed(env.get("OPENAI_API_KEY")))).orElse("none");
    Duration timeout = Duration.ofSeconds(120);
    String t = trimmed(env.get("LAKEREWRITE_LLM_TIMEOUT_SECONDS"));
    if (t != null) {
      try {
        timeout = Duration.ofSeconds(Long.parseLong(t));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("LAKEREWRITE_LLM_TIMEOUT_SECONDS must be a whole number, was '" + t + "'");
      }
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("LAKEREWRITE_LLM_TIMEOUT_SECONDS must be positive, was " + t);
      }
    }
    Optional<Double> temperature = Optional.empty();
    String temp = trimmed(env.get("LAKEREWRITE_LLM_TEMPERATURE"));
    if (temp != null) {
      try {
        temperature = Optional.of(Double.parseDouble(temp));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("LAKEREWRITE_LLM_TEMPERATURE must be a number, was '" + temp + "'");
      }
    }
    return Optional.of(new ModelConfig(model, baseUrl, key, timeout, temperature));
  }

  /**
   * Builds the LangChain4j client. The client's own retries are off: the gateway retries, with its budgets.
   */
  public ChatModel chatModel() {
    OpenAiChatModel.OpenAiChatModelBuilder b = OpenAiChatModel.builder()
        .baseUrl(baseUrl)
        .apiKey(apiKey)
        .modelName(modelName)
        .timeout(timeout)
        .maxRetries(0);
    temperature.ifPresent(b::temperature);
    return b.build();
  }

  private static String trimmed(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }

  @Override
  public String toString() {
    return "ModelConfig[" + modelName + " at " + baseUrl + ", key " + (apiKey.equals("none") ? "none" : "****")
        + ", timeout " + timeout + temperature.map(t -> ", temperature " + t).orElse("") + "]";
  }
}
