package dev.lakerewrite.noiseudf;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** A ChatModel that replays canned answers and records the requests it saw. */
final class ScriptedChatModel implements ChatModel {

  private final Deque<Object> answers = new ArrayDeque<>();
  final List<ChatRequest> requests = new ArrayList<>();

  /** Each answer is a String (the model's text) or a RuntimeException (thrown). */
  ScriptedChatModel(Object... answers) {
    for (Object a : answers) {
      this.answers.add(a);
    }
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    requests.add(request);
    if (answers.isEmpty()) {
      throw new IllegalStateException("the script has no more answers");
    }
    Object next = answers.poll();
    if (next instanceof RuntimeException e) {
      throw e;
    }
    return ChatResponse.builder().aiMessage(AiMessage.from((String) next)).build();
  }

  /** Text of the last message of request {@code i}. */
  String lastUserText(int i) {
    List<dev.langchain4j.data.message.ChatMessage> messages = requests.get(i).messages();
    return ((dev.langchain4j.data.message.UserMessage) messages.get(messages.size() - 1)).singleText();
  }
}
