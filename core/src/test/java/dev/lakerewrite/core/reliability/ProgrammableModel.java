package dev.lakerewrite.core.reliability;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted model for fault injection: what it does on its n-th call (1-based) is a function of n and the
 * request — answer, answer late, throw, return null. Records every request. Thread-safe.
 */
final class ProgrammableModel implements ChatModel {
  /** What the model does on one call; may sleep or throw. Null means "return no response at all". */
  interface Behaviour {
    Reply on(int call, ChatRequest request) throws Exception;
  }

  /** One reply: text, and the token usage to report (null: none, so the gateway estimates). */
  record Reply(String text, TokenUsage usage) {
    static Reply of(String text) {
      return new Reply(text, null);
    }
  }

  private final Behaviour behaviour;
  private final AtomicInteger calls = new AtomicInteger();
  private final List<ChatRequest> requests = new ArrayList<>();

  private ProgrammableModel(Behaviour behaviour) {
    this.behaviour = behaviour;
  }

  static ProgrammableModel of(Behaviour behaviour) {
    return new ProgrammableModel(behaviour);
  }

  /** Always the same text. */
  static ProgrammableModel always(String text) {
    return of((n, r) -> Reply.of(text));
  }

  int calls() {
    return calls.get();
  }

  synchronized List<ChatRequest> requests() {
    return List.copyOf(requests);
  }

  /** The text of every message of every request, in order (what reached the model). */
  synchronized List<String> prompts() {
    List<String> out = new ArrayList<>();
    for (ChatRequest r : requests) {
      StringBuilder sb = new StringBuilder();
      for (ChatMessage m : r.messages()) {
        if (m instanceof SystemMessage s) {
          sb.append(s.text());
        } else if (m instanceof UserMessage u) {
          sb.append(u.singleText());
        } else if (m instanceof AiMessage a) {
          sb.append(a.text());
        }
        sb.append("\n\n");
      }
      out.add(sb.toString());
    }
    return out;
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    int n = calls.incrementAndGet();
    synchronized (this) {
      requests.add(request);
    }
    Reply reply;
    try {
      reply = behaviour.on(n, request);
    } catch (RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    if (reply == null) {
      return null;
    }
    ChatResponse.Builder b = ChatResponse.builder().aiMessage(AiMessage.from(reply.text())).modelName("gpt-5-mini");
    if (reply.usage() != null) {
      b.tokenUsage(reply.usage());
    }
    return b.build();
  }

  /** Sleeps, giving up quietly when the gateway cancels the call. */
  static void sleep(long millis) throws InterruptedException {
    Thread.sleep(millis);
  }

  /** A rewriter answer. */
  static String rewrite(String sql) {
    return "{\"sql\": " + json(sql) + ", \"reason\": \"scripted\", \"used_tables\": []}";
  }

  /** A checker answer with these action objects (JSON text) and no best candidate. */
  static String decide(String... actions) {
    return "{\"actions\": [" + String.join(", ", actions) + "], \"best_candidate\": null, \"reasoning\": "
        + "{\"intent_coverage\": \"\", \"output_quality\": \"\", \"missing_information\": \"\", "
        + "\"suggested_improvement\": \"\"}}";
  }

  static String output(int candidate) {
    return decide("{\"type\": \"OUTPUT_QUERY\", \"candidate\": " + candidate + "}");
  }

  static String json(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        default -> sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
