package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.llm.LlmBudget;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Settings of the rewriting loop; immutable, built by {@link dev.lakerewrite.core.Rewriter.Builder} and read from
 * {@link dev.lakerewrite.core.LakeRewriter#config()}.
 *
 * @param maxIterations iterations before the loop stops and returns the best candidate (thesis: 5)
 * @param topK tables basic retrieval hands the rewriter per iteration
 * @param previewRows rows per table preview in the scratchpad (thesis: 1–3)
 * @param historyPreviewRows result rows shown per candidate in the history
 * @param sectionLimits maximum entries per scratchpad section before time-based eviction
 * @param enabledActions actions the checker may use (ablations remove some)
 * @param joinGraph whether table–table relevance and FIND_JOIN_PATH are on (the "no JOIN_GRAPH" ablation)
 * @param budget LLM token/cost/wall-time budget per rewrite; the wall time also bounds the whole loop
 * @param queryLimits limits for every candidate's execution
 * @param llmCallTimeout per-call LLM timeout
 * @param minConfidence the mapping confidence below which the rewriter refuses instead of answering (0: never)
 */
public record RewriterConfig(int maxIterations, int topK, int previewRows, int historyPreviewRows,
    Map<Scratchpad.Section, Integer> sectionLimits, Set<ActionType> enabledActions, boolean joinGraph,
    LlmBudget budget, QueryLimits queryLimits, Duration llmCallTimeout, double minConfidence) {

  /** Settings with no minimum confidence. */
  public RewriterConfig(int maxIterations, int topK, int previewRows, int historyPreviewRows,
      Map<Scratchpad.Section, Integer> sectionLimits, Set<ActionType> enabledActions, boolean joinGraph,
      LlmBudget budget, QueryLimits queryLimits, Duration llmCallTimeout) {
    this(maxIterations, topK, previewRows, historyPreviewRows, sectionLimits, enabledActions, joinGraph, budget,
        queryLimits, llmCallTimeout, 0);
  }

  public RewriterConfig {
    if (maxIterations < 1) {
      throw new IllegalArgumentException("maxIterations must be at least 1, was " + maxIterations);
    }
    if (topK < 1) {
      throw new IllegalArgumentException("topK must be at least 1, was " + topK);
    }
    if (previewRows < 0 || historyPreviewRows < 0) {
      throw new IllegalArgumentException("preview rows must be >= 0");
    }
    sectionLimits = Map.copyOf(sectionLimits);
    enabledActions = enabledActions.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(enabledActions));
    if (!enabledActions.contains(ActionType.OUTPUT_QUERY)) {
      throw new IllegalArgumentException("OUTPUT_QUERY cannot be disabled: it is how the loop ends");
    }
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(queryLimits, "queryLimits");
    Objects.requireNonNull(llmCallTimeout, "llmCallTimeout");
    if (!(minConfidence >= 0 && minConfidence <= 1)) {
      throw new IllegalArgumentException("minConfidence must be in [0, 1], was " + minConfidence);
    }
  }

  /** The defaults: 5 iterations, top-5 tables, 3 preview rows, every action, no budget, 10 s per query. */
  /** These settings with another iteration limit (the one-step method runs one). */
  RewriterConfig withMaxIterations(int n) {
    return new RewriterConfig(n, topK, previewRows, historyPreviewRows, sectionLimits, enabledActions, joinGraph,
        budget, queryLimits, llmCallTimeout, minConfidence);
  }

  public static RewriterConfig defaults() {
    Map<Scratchpad.Section, Integer> limits = new EnumMap<>(Scratchpad.Section.class);
    limits.put(Scratchpad.Section.TABLES, 8);
    limits.put(Scratchpad.Section.JOINS, 6);
    limits.put(Scratchpad.Section.VALUES, 8);
    limits.put(Scratchpad.Section.UNIONS, 6);
    limits.put(Scratchpad.Section.UDFS, 12);
    limits.put(Scratchpad.Section.CTES, 4);
    limits.put(Scratchpad.Section.NOTES, 3);
    return new RewriterConfig(5, 5, 3, 5, limits, EnumSet.allOf(ActionType.class), true, LlmBudget.UNLIMITED,
        new QueryLimits(Duration.ofSeconds(10), 10_000), Duration.ofSeconds(120));
  }

  public boolean enabled(ActionType action) {
    return enabledActions.contains(action);
  }
}
