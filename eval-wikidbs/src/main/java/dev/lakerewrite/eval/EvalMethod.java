package dev.lakerewrite.eval;

import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.sql.DidYouMean;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The methods an evaluation compares (thesis §7.2): the iterative rewriter, its one-step cut, and the two baselines. */
public enum EvalMethod {
  /** The iterative rewriter (offline agents, or LLM agents with a model). */
  ITERATIVE("iterative", "Iterative Rewriter", Rewriter.Method.ITERATIVE, false),
  /** The loop cut to one iteration: one proposal from basic retrieval, no actions. */
  ONE_STEP("one-step", "One-step Rewriter", Rewriter.Method.ONE_STEP, false),
  /** Baseline: top-k tables with 10-row previews, one LLM rewrite, executed. Needs a model. */
  RETRIEVER_REWRITER("retriever-rewriter", "Retriever-Rewriter", Rewriter.Method.RETRIEVER_REWRITER, true),
  /** Baseline: top-k tables with 20-row previews, the LLM writes the result table. Needs a model. */
  RETRIEVER_READER("retriever-reader", "Retriever-Reader", Rewriter.Method.RETRIEVER_READER, true);

  private final String label;
  private final String title;
  private final Rewriter.Method coreMethod;
  private final boolean needsModel;

  EvalMethod(String label, String title, Rewriter.Method coreMethod, boolean needsModel) {
    this.label = label;
    this.title = title;
    this.coreMethod = coreMethod;
    this.needsModel = needsModel;
  }

  /** The command-line and file spelling, e.g. {@code one-step}. */
  public String label() {
    return label;
  }

  /** The name in reports, e.g. {@code Retriever-Rewriter}. */
  public String title() {
    return title;
  }

  /** The core method that runs it. */
  public Rewriter.Method coreMethod() {
    return coreMethod;
  }

  /** Whether it only runs with a chat model (the LLM baselines). */
  public boolean needsModel() {
    return needsModel;
  }

  /** All labels, in declaration order. */
  public static List<String> labels() {
    return Arrays.stream(values()).map(EvalMethod::label).toList();
  }

  /** The method with this label; case, spaces, underscores and hyphens are ignored. */
  public static Optional<EvalMethod> fromLabel(String label) {
    if (label == null) {
      return Optional.empty();
    }
    String key = LabelKeys.key(label);
    return Arrays.stream(values()).filter(m -> LabelKeys.key(m.label).equals(key) || LabelKeys.key(m.name()).equals(key))
        .findFirst();
  }

  /**
   * The method with this label.
   *
   * @throws IllegalArgumentException naming the known labels (and the closest one) when there is none
   */
  public static EvalMethod parse(String label) {
    return fromLabel(label).orElseThrow(() -> new IllegalArgumentException("unknown method '" + label + "'"
        + DidYouMean.hint(String.valueOf(label), labels(), 1) + " (known: " + String.join(", ", labels()) + ")"));
  }

}
