package dev.lakerewrite.core.llm;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.listener.ChatModelRequestContext;
import dev.langchain4j.model.chat.listener.ChatModelResponseContext;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Accumulates usage and the call log of one gateway; thread-safe. Successful calls are recorded by a
 * LangChain4j {@link ChatModelListener} attached to the metered model, so calls made by capability modules with
 * the model the gateway hands them count too.
 */
final class UsageMeter {
  static final int CAP = 20_000;

  private final PriceTable prices;
  private final Map<Role, long[]> counts = new EnumMap<>(Role.class); // calls, failed, retries, in, out, unpriced, est
  private final Map<Role, Double> costs = new EnumMap<>(Role.class);
  private final List<LlmCall> calls = new ArrayList<>();

  UsageMeter(PriceTable prices) {
    this.prices = prices;
  }

  synchronized long tokensUsed() {
    long t = 0;
    for (long[] c : counts.values()) {
      t += c[3] + c[4];
    }
    return t;
  }

  synchronized double costUsed() {
    return costs.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  synchronized void retried(Role role) {
    row(role)[2]++;
  }

  synchronized void failed(Role role, String model, int attempts, Duration latency, String prompt,
      LlmFailure.Kind kind) {
    row(role)[1]++;
    calls.add(new LlmCall(role, model, attempts, latency, 0, 0, 0, cap(prompt), "", Optional.of(kind)));
  }

  synchronized void succeeded(Role role, String configuredModel, int attempts, Duration latency,
      List<ChatMessage> messages, ChatResponse response) {
    String model = response.modelName() != null ? response.modelName() : configuredModel;
    String prompt = render(messages);
    String answer = answerText(response);
    TokenUsage tu = response.tokenUsage();
    boolean estimated = tu == null || tu.inputTokenCount() == null || tu.outputTokenCount() == null;
    long in = estimated ? estimateTokens(prompt) : tu.inputTokenCount();
    long out = estimated ? estimateTokens(answer) : tu.outputTokenCount();
    Optional<Price> price = prices.price(model);
    double cost = price.orElse(Price.FREE).cost(in, out);
    long[] r = row(role);
    r[0]++;
    r[3] += in;
    r[4] += out;
    if (price.isEmpty()) {
      r[5]++;
    }
    if (estimated) {
      r[6]++;
    }
    costs.merge(role, cost, Double::sum);
    calls.add(new LlmCall(role, model, attempts, latency, in, out, cost, cap(prompt), cap(answer), Optional.empty()));
  }

  synchronized LlmUsage snapshot() {
    Map<Role, LlmUsage> byRole = new EnumMap<>(Role.class);
    long[] total = new long[7];
    double totalCost = 0;
    for (Map.Entry<Role, long[]> e : counts.entrySet()) {
      long[] c = e.getValue();
      double cost = costs.getOrDefault(e.getKey(), 0.0);
      byRole.put(e.getKey(), new LlmUsage(c[0], c[1], c[2], c[3], c[4], cost, c[5], c[6], Map.of()));
      for (int i = 0; i < 7; i++) {
        total[i] += c[i];
      }
      totalCost += cost;
    }
    return new LlmUsage(total[0], total[1], total[2], total[3], total[4], totalCost, total[5], total[6], byRole);
  }

  synchronized List<LlmCall> calls() {
    return List.copyOf(calls);
  }

  private long[] row(Role role) {
    return counts.computeIfAbsent(role, k -> new long[7]);
  }

  /** Four characters a token: the usual rule of thumb for English text and SQL. */
  static long estimateTokens(String text) {
    return text == null ? 0 : (text.length() + 3) / 4;
  }

  static String answerText(ChatResponse response) {
    AiMessage ai = response == null ? null : response.aiMessage();
    return ai == null || ai.text() == null ? "" : ai.text();
  }

  static String render(List<ChatMessage> messages) {
    StringBuilder sb = new StringBuilder();
    for (ChatMessage m : messages) {
      if (sb.length() > 0) {
        sb.append("\n\n");
      }
      if (m instanceof SystemMessage s) {
        sb.append("[system]\n").append(s.text());
      } else if (m instanceof UserMessage u) {
        sb.append("[user]\n").append(u.hasSingleText() ? u.singleText() : u.contents().toString());
      } else if (m instanceof AiMessage a) {
        sb.append("[assistant]\n").append(a.text());
      } else if (m instanceof ToolExecutionResultMessage t) {
        sb.append("[tool]\n").append(t.text());
      } else {
        sb.append('[').append(m.type()).append("]\n").append(m);
      }
    }
    return sb.toString();
  }

  private static String cap(String s) {
    return s.length() <= CAP ? s : s.substring(0, CAP) + "… (" + (s.length() - CAP) + " more characters)";
  }

  /** Records successful calls of one role's metered model. */
  static final class Listener implements ChatModelListener {
    private final UsageMeter meter;
    private final Role role;
    private final String configuredModel;

    Listener(UsageMeter meter, Role role, String configuredModel) {
      this.meter = meter;
      this.role = role;
      this.configuredModel = configuredModel;
    }

    @Override
    public void onRequest(ChatModelRequestContext ctx) {
      ctx.attributes().put(GatewayChatModel.STARTED, System.nanoTime());
    }

    @Override
    public void onResponse(ChatModelResponseContext ctx) {
      Object started = ctx.attributes().get(GatewayChatModel.STARTED);
      Duration latency = started instanceof Long s ? Duration.ofNanos(System.nanoTime() - s) : Duration.ZERO;
      meter.succeeded(role, configuredModel, GatewayChatModel.takeAttempts(), latency,
          ctx.chatRequest().messages(), ctx.chatResponse());
    }
  }
}
