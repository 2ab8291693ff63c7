package dev.lakerewrite.eval;

import dev.lakerewrite.core.LakeRewriter;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.llm.LlmBudget;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One configuration an evaluation runs every pair with: a method, optionally an ablation (iterative method only),
 * and the model driving the agents.
 *
 * @param method what runs
 * @param ablation the capability switched off, if any
 * @param model offline agents or a chat model
 */
public record Variant(EvalMethod method, Optional<Ablation> ablation, EvalModel model) {

  public Variant {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(ablation, "ablation");
    Objects.requireNonNull(model, "model");
    if (ablation.isPresent() && method != EvalMethod.ITERATIVE) {
      throw new IllegalArgumentException("ablations apply to the iterative method only, not to " + method.label());
    }
  }

  /** A method without ablation. */
  public static Variant of(EvalMethod method, EvalModel model) {
    return new Variant(method, Optional.empty(), model);
  }

  /** The iterative method with one capability off. */
  public static Variant ablated(Ablation ablation, EvalModel model) {
    return new Variant(EvalMethod.ITERATIVE, Optional.of(ablation), model);
  }

  /**
   * A unique, file-name-safe key: the method label, the ablation label, and {@code @model} for chat models
   * ({@code iterative}, {@code iterative-no-build-cte}, {@code one-step@gpt-5-mini}).
   */
  public String name() {
    return method.label() + ablation.map(a -> "-" + a.label()).orElse("")
        + (model.isOffline() ? "" : "@" + model.name());
  }

  /** The name in reports: {@code Iterative Rewriter (no BUILD_CTE) [gpt-5-mini]}. */
  public String title() {
    return method.title() + ablation.map(a -> " (" + a.title() + ")").orElse("")
        + (model.isOffline() ? "" : " [" + model.name() + "]");
  }

  /** Whether it needs a chat model that it does not have (an LLM baseline with the offline agents). */
  public Optional<String> unavailableReason() {
    if (method.needsModel() && model.isOffline()) {
      return Optional.of("the " + method.title() + " baseline needs a chat model; configure an OpenAI-compatible "
          + "endpoint (LAKEREWRITE_LLM_BASE_URL, LAKEREWRITE_LLM_API_KEY) and name models with --model");
    }
    return Optional.empty();
  }

  /**
   * The rewriter for this variant. The wall-time budget bounds each rewrite's loop (it then returns its best
   * candidate so far, as the thesis's runs do at their limit).
   */
  public LakeRewriter rewriter(int maxIterations, Duration wallTime) {
    Rewriter.Builder b = Rewriter.builder().method(method.coreMethod()).maxIterations(maxIterations)
        .budget(LlmBudget.UNLIMITED.withMaxWallTime(wallTime));
    model.chatModel().ifPresent(m -> b.chatModel(m, model.name()));
    ablation.ifPresent(a -> a.apply(b));
    return b.build();
  }

  @Override
  public String toString() {
    return name();
  }
}
