package dev.lakerewrite.core.llm;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The one way lakerewrite talks to LLMs, per rewrite (or optimisation): models per {@link Role}, a per-call
 * timeout, retries with backoff for retryable failures, token/cost/time budgets checked before every call,
 * usage and a call log for the trace, and JSON answers parsed against a {@link JsonContract} with one repair
 * round. Every failure surfaces as an {@link LlmFailure} with a kind; nothing else escapes. Thread-safe.
 */
public final class LlmGateway {
  private final Map<Role, GatewayChatModel> models;
  private final UsageMeter meter;
  private final int maxAnswerChars;

  private LlmGateway(Builder b) {
    this.meter = new UsageMeter(b.prices);
    long deadline = System.nanoTime() + b.budget.maxWallTime().toNanos();
    if (deadline < System.nanoTime()) {
      deadline = Long.MAX_VALUE; // "unlimited" overflowed
    }
    Map<Role, GatewayChatModel> m = new EnumMap<>(Role.class);
    for (Role r : Role.values()) {
      ChatModel delegate = b.perRole.getOrDefault(r, b.defaultModel);
      if (delegate != null) {
        String name = b.modelNames.getOrDefault(r, b.defaultModelName);
        m.put(r, new GatewayChatModel(delegate, r, name, meter, b.budget, deadline, b.retry, b.callTimeout));
      }
    }
    this.models = m;
    this.maxAnswerChars = b.maxAnswerChars;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Whether a model is configured for this role. */
  public boolean hasModel(Role role) {
    return models.containsKey(role);
  }

  /**
   * The metered model of a role, to hand to a capability module (e.g. the cleaning module's BUILD_CTE): its
   * calls obey this gateway's timeout, retries and budgets and count in its usage.
   */
  public Optional<ChatModel> model(Role role) {
    return Optional.ofNullable(models.get(role));
  }

  /**
   * Sends messages and returns the answer text.
   *
   * @throws LlmFailure on timeout, exhausted budget, provider errors after retries, or an empty answer
   */
  public String ask(Role role, List<ChatMessage> messages) {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(messages, "messages");
    GatewayChatModel model = models.get(role);
    if (model == null) {
      throw new LlmFailure(LlmFailure.Kind.REJECTED_BY_PROVIDER, role, "no model is configured for " + role, null);
    }
    ChatResponse response;
    try {
      response = model.chat(ChatRequest.builder().messages(messages).build());
    } catch (LlmFailure f) {
      throw f;
    } catch (RuntimeException e) {
      throw new LlmFailure(GatewayChatModel.classify(e), role, e.getClass().getSimpleName() + ": " + e.getMessage(),
          e);
    }
    String text = UsageMeter.answerText(response);
    if (text.isBlank()) {
      throw new LlmFailure(LlmFailure.Kind.MALFORMED_ANSWER, role, "the model answered with no text", null);
    }
    return text;
  }

  /**
   * Asks for a JSON object following {@code contract}. A malformed or contract-violating answer gets one repair
   * round (the problems are sent back with the request to answer again); a second bad answer is a
   * {@link LlmFailure.Kind#MALFORMED_ANSWER} failure. Answers longer than the gateway's limit count as malformed.
   */
  public <T> T askJson(Role role, List<ChatMessage> messages, JsonContract<T> contract) {
    String answer = ask(role, messages);
    JsonContract.Parsed<T> parsed = parseCapped(answer, contract);
    if (parsed.ok()) {
      return parsed.value();
    }
    List<ChatMessage> repair = new ArrayList<>(messages);
    repair.add(AiMessage.from(answer.length() > 4_000 ? answer.substring(0, 4_000) + " …" : answer));
    repair.add(UserMessage.from("Your answer could not be used:\n- " + String.join("\n- ", parsed.problems())
        + "\nAnswer again with exactly one JSON object that follows the " + contract.name()
        + " format described above, and nothing else."));
    String second = ask(role, repair);
    JsonContract.Parsed<T> again = parseCapped(second, contract);
    if (again.ok()) {
      return again.value();
    }
    throw new LlmFailure(LlmFailure.Kind.MALFORMED_ANSWER, role,
        "no usable " + contract.name() + " after one repair round: " + String.join("; ", again.problems()), null);
  }

  private <T> JsonContract.Parsed<T> parseCapped(String answer, JsonContract<T> contract) {
    if (answer.length() > maxAnswerChars) {
      return new JsonContract.Parsed<>(null, List.of("the answer is too long (" + answer.length()
          + " characters; at most " + maxAnswerChars + ")"));
    }
    return contract.parse(answer);
  }

  /** Usage so far. */
  public LlmUsage usage() {
    return meter.snapshot();
  }

  /** Every call so far, in order, for the trace. */
  public List<LlmCall> calls() {
    return meter.calls();
  }

  /**
   * Gateway settings. Defaults: no model (offline), {@link PriceTable#DEFAULT}, {@link RetryPolicy#DEFAULT},
   * 120 s per call, unlimited budget, answers up to 100,000 characters.
   */
  public static final class Builder {
    private ChatModel defaultModel;
    private String defaultModelName = "unknown";
    private final Map<Role, ChatModel> perRole = new EnumMap<>(Role.class);
    private final Map<Role, String> modelNames = new EnumMap<>(Role.class);
    private PriceTable prices = PriceTable.DEFAULT;
    private RetryPolicy retry = RetryPolicy.DEFAULT;
    private Duration callTimeout = Duration.ofSeconds(120);
    private LlmBudget budget = LlmBudget.UNLIMITED;
    private int maxAnswerChars = 100_000;

    private Builder() {}

    /**
     * The model for every role without its own, and its name for pricing (used when the provider's response
     * does not name the model).
     */
    public Builder model(ChatModel model, String modelName) {
      this.defaultModel = Objects.requireNonNull(model, "model");
      this.defaultModelName = Objects.requireNonNull(modelName, "modelName");
      return this;
    }

    /** A model for one role. */
    public Builder model(Role role, ChatModel model, String modelName) {
      Objects.requireNonNull(role, "role");
      perRole.put(role, Objects.requireNonNull(model, "model"));
      modelNames.put(role, Objects.requireNonNull(modelName, "modelName"));
      return this;
    }

    public Builder prices(PriceTable prices) {
      this.prices = Objects.requireNonNull(prices, "prices");
      return this;
    }

    public Builder retry(RetryPolicy retry) {
      this.retry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    public Builder callTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("callTimeout must be positive, was " + timeout);
      }
      this.callTimeout = timeout;
      return this;
    }

    public Builder budget(LlmBudget budget) {
      this.budget = Objects.requireNonNull(budget, "budget");
      return this;
    }

    public Builder maxAnswerChars(int chars) {
      if (chars < 1) {
        throw new IllegalArgumentException("maxAnswerChars must be at least 1, was " + chars);
      }
      this.maxAnswerChars = chars;
      return this;
    }

    public LlmGateway build() {
      return new LlmGateway(this);
    }
  }
}
