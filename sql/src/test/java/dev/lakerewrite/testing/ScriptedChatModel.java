package dev.lakerewrite.testing;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * A test model that replays a script: canned answers, thrown exceptions, slow answers, or answers computed from
 * the request. Records every request it receives. When the script runs out it answers with the fallback (or
 * fails the test loudly if there is none).
 */
public final class ScriptedChatModel implements ChatModel {
  private final Deque<Function<ChatRequest, ChatResponse>> script = new ArrayDeque<>();
  private final List<ChatRequest> requests = new ArrayList<>();
  private Function<ChatRequest, ChatResponse> fallback;
  private String modelName = "gpt-5-mini";

  public static ScriptedChatModel create() {
    return new ScriptedChatModel();
  }

  /** Reported model name (for pricing); null makes responses carry no model name. */
  public ScriptedChatModel named(String name) {
    this.modelName = name;
    return this;
  }

  /** Answers with this text, reporting token usage. */
  public ScriptedChatModel answer(String text, int inputTokens, int outputTokens) {
    script.add(r -> response(text, new TokenUsage(inputTokens, outputTokens)));
    return this;
  }

  /** Answers with this text, reporting no token usage (the gateway estimates). */
  public ScriptedChatModel answer(String text) {
    script.add(r -> response(text, null));
    return this;
  }

  /** Throws this exception. */
  public ScriptedChatModel fail(RuntimeException e) {
    script.add(r -> {
      throw e;
    });
    return this;
  }

  /** Answers after a delay (to provoke timeouts). */
  public ScriptedChatModel slow(Duration delay, String text) {
    script.add(r -> {
      try {
        Thread.sleep(delay.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RuntimeException("interrupted", e);
      }
      return response(text, null);
    });
    return this;
  }

  /** Answers with whatever the function computes from the request. */
  public ScriptedChatModel then(Function<ChatRequest, String> answer) {
    script.add(r -> response(answer.apply(r), null));
    return this;
  }

  /** What to answer once the script is exhausted. */
  public ScriptedChatModel otherwise(String text) {
    this.fallback = r -> response(text, null);
    return this;
  }

  public synchronized List<ChatRequest> requests() {
    return List.copyOf(requests);
  }

  /** Every message of the i-th request, in order, each headed by its role ({@code [system]}, {@code [user]}...). */
  public synchronized String prompt(int i) {
    StringBuilder sb = new StringBuilder();
    for (ChatMessage m : requests.get(i).messages()) {
      sb.append(sb.length() == 0 ? "" : "\n\n").append('[').append(m.type().name().toLowerCase(java.util.Locale.ROOT))
          .append("]\n").append(text(m));
    }
    return sb.toString();
  }

  /** The text of the last user message of the i-th request. */
  public synchronized String lastUserText(int i) {
    List<ChatMessage> messages = requests.get(i).messages();
    for (int m = messages.size() - 1; m >= 0; m--) {
      if (messages.get(m) instanceof UserMessage u) {
        return text(u);
      }
    }
    throw new AssertionError("request " + i + " has no user message");
  }

  public synchronized int remaining() {
    return script.size();
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    Function<ChatRequest, ChatResponse> next;
    synchronized (this) {
      requests.add(request);
      next = script.isEmpty() ? fallback : script.poll();
    }
    if (next == null) {
      throw new AssertionError("the scripted model ran out of answers at request " + requests.size());
    }
    return next.apply(request);
  }

  private static String text(ChatMessage m) {
    if (m instanceof SystemMessage s) {
      return s.text();
    }
    if (m instanceof UserMessage u) {
      return u.hasSingleText() ? u.singleText() : u.contents().toString();
    }
    if (m instanceof AiMessage a) {
      return String.valueOf(a.text());
    }
    return m.toString();
  }

  private ChatResponse response(String text, TokenUsage usage) {
    ChatResponse.Builder b = ChatResponse.builder().aiMessage(text == null ? AiMessage.from("") : AiMessage.from(text));
    if (usage != null) {
      b.tokenUsage(usage);
    }
    if (modelName != null) {
      b.modelName(modelName);
    }
    return b.build();
  }
}
