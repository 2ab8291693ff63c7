package dev.lakerewrite.eval;

import dev.lakerewrite.core.llm.ModelConfig;
import dev.langchain4j.model.chat.ChatModel;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Who drives the agents of a run: the deterministic offline agents, or a chat model under a name (the name also
 * prices its calls and labels it in reports, so several models can run side by side).
 *
 * @param name {@value #OFFLINE_NAME} or the model's name
 * @param chatModel the model, empty for the offline agents
 */
public record EvalModel(String name, Optional<ChatModel> chatModel) {

  /** The name of the offline agents on the command line and in reports. */
  public static final String OFFLINE_NAME = "offline";

  /** The offline agents. */
  public static final EvalModel OFFLINE = new EvalModel(OFFLINE_NAME, Optional.empty());

  public EvalModel {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(chatModel, "chatModel");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a model needs a non-blank name");
    }
    if (chatModel.isEmpty() != name.equals(OFFLINE_NAME)) {
      throw new IllegalArgumentException(chatModel.isEmpty()
          ? "model '" + name + "' has no chat model; only '" + OFFLINE_NAME + "' runs without one"
          : "'" + OFFLINE_NAME + "' is the name of the offline agents; give the chat model another name");
    }
  }

  /** A chat model under a name. */
  public static EvalModel of(String name, ChatModel model) {
    return new EvalModel(name, Optional.of(Objects.requireNonNull(model, "model")));
  }

  /**
   * The named model on the OpenAI-compatible endpoint the environment configures ({@code LAKEREWRITE_LLM_BASE_URL},
   * {@code LAKEREWRITE_LLM_API_KEY}, ...; see core's {@link ModelConfig}), or the offline agents for
   * {@value #OFFLINE_NAME}. The name replaces {@code LAKEREWRITE_LLM_MODEL}, so several models share one endpoint.
   *
   * @throws IllegalArgumentException when a variable is malformed
   */
  public static EvalModel fromEnvironment(String name, Map<String, String> env) {
    Objects.requireNonNull(name, "name");
    if (name.strip().equals(OFFLINE_NAME)) {
      return OFFLINE;
    }
    Map<String, String> withModel = new java.util.HashMap<>(env);
    withModel.put("LAKEREWRITE_LLM_MODEL", name.strip());
    ModelConfig config = ModelConfig.fromEnvironment(withModel).orElseThrow(); // the model is set: never empty
    return of(config.modelName(), config.chatModel());
  }

  /** The model {@code LAKEREWRITE_LLM_MODEL} names, if any. */
  public static Optional<String> environmentModelName(Map<String, String> env) {
    String m = env.get("LAKEREWRITE_LLM_MODEL");
    return m == null || m.isBlank() ? Optional.empty() : Optional.of(m.strip());
  }

  public boolean isOffline() {
    return chatModel.isEmpty();
  }

  @Override
  public String toString() {
    return name;
  }
}
