package dev.lakerewrite.core;

import dev.lakerewrite.core.llm.LlmBudget;
import dev.lakerewrite.core.llm.ModelConfig;
import dev.lakerewrite.core.llm.PriceTable;
import dev.lakerewrite.core.llm.RetryPolicy;
import dev.lakerewrite.core.llm.Role;
import dev.lakerewrite.core.rewrite.ActionType;
import dev.lakerewrite.core.rewrite.RewriterConfig;
import dev.lakerewrite.core.rewrite.Scratchpad;
import dev.langchain4j.model.chat.ChatModel;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Rewrites SQL written against an assumed schema until it runs correctly on a data lake (thesis chapters 3–6):
 * an iterative loop of a rewriter and a self-checker over data-lake actions (SEARCH_TABLE, SEARCH_VALUE,
 * FIND_JOIN_PATH, UNION_SEARCH, BUILD_CTE, EVICT_TABLE, OUTPUT_QUERY).
 *
 * <pre>{@code
 * RewriteResult r = Rewriter.rewrite("SELECT name, population FROM nz_regions WHERE capital = 'Whangarei'", lake);
 * LakeRewriter rw = Rewriter.builder().chatModel(model, "gpt-5-mini").maxIterations(5).build();
 * RewriteResult r2 = rw.rewrite(sql, lake);   // r2.sql(), r2.result(), r2.trace(), r2.usage()
 * }</pre>
 *
 * <p>As Caffeine's {@code Caffeine} class, this is the entry point only: {@link #rewrite(String, DataLake)} is the
 * default (offline agents, default settings) and {@link #builder()} is the one builder, which builds a configured,
 * immutable {@link LakeRewriter}. The performance pipeline has the same shape ({@code Optimizer.optimize},
 * {@code Optimizer.builder()} → {@code QueryOptimizer}).
 *
 * <p>Without a model the agents are deterministic and offline; with a LangChain4j {@link ChatModel} (per role if
 * wanted) they are LLM agents with the same scratchpad, history, actions and trace.
 */
public final class Rewriter {

  /** What runs: the iterative loop, or one of the baselines of thesis §7.2. */
  public enum Method {
    /** The iterative rewriter (offline agents without a model, LLM agents with one). */
    ITERATIVE,
    /** The loop cut to one iteration: one proposal from basic retrieval, no actions. */
    ONE_STEP,
    /** Baseline: top-k tables with 10-row previews, one LLM rewrite, execute. Needs a model. */
    RETRIEVER_REWRITER,
    /** Baseline: top-k tables with 20-row previews, the LLM writes the result table itself. Needs a model. */
    RETRIEVER_READER
  }

  private static final LakeRewriter DEFAULT = new Builder().build();

  private Rewriter() {}

  /**
   * Rewrites one query on a lake with offline agents and default settings. Never throws for a bad query, a failing
   * action or a failing index build: the result says what happened ({@link RewriteResult#stopReason()},
   * {@link RewriteResult#error()}, the trace).
   *
   * @param sql the query as the user wrote it, against the schema they assume
   * @param lake an open lake; its indexes are built on the first rewrite (or ahead of time with
   *     {@link DataLake#index()})
   * @throws NullPointerException if an argument is null
   * @throws IllegalStateException if the lake is closed
   * @see LakeRewriter#rewrite(String, DataLake)
   */
  public static RewriteResult rewrite(String sql, DataLake lake) {
    return DEFAULT.rewrite(sql, lake);
  }

  /** A builder for a configured {@link LakeRewriter}; every setting has a default. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Rewriter settings. Defaults: offline agents, the iterative method, 5 iterations, top-5 tables, 3 preview
   * rows, all actions, the join graph on, no LLM budget, 10 s and 10,000 rows per query, 120 s per LLM call.
   */
  public static final class Builder {
    Method method = Method.ITERATIVE;
    int maxIterations = 5;
    int topK = 5;
    int previewRows = 3;
    int historyPreviewRows = 5;
    final Map<Scratchpad.Section, Integer> sectionLimits =
        new EnumMap<>(RewriterConfig.defaults().sectionLimits());
    final Set<ActionType> enabled = EnumSet.allOf(ActionType.class);
    boolean joinGraph = true;
    LlmBudget budget = LlmBudget.UNLIMITED;
    QueryLimits queryLimits = RewriterConfig.defaults().queryLimits();
    Duration llmCallTimeout = Duration.ofSeconds(120);
    final Map<Role, ChatModel> models = new EnumMap<>(Role.class);
    final Map<Role, String> modelNames = new EnumMap<>(Role.class);
    PriceTable prices = PriceTable.DEFAULT;
    RetryPolicy retry = RetryPolicy.DEFAULT;
    double minConfidence;

    private Builder() {}

    /**
     * Opt-in refusal: when the confidence of the chosen column mapping is below {@code confidence}, the rewrite
     * returns no result and says why ({@code StopReason.LOW_CONFIDENCE}) instead of answering on a guess. 0 (the
     * default) never refuses.
     */
    public Builder minConfidence(double confidence) {
      if (!(confidence >= 0 && confidence <= 1)) {
        throw new IllegalArgumentException("minConfidence must be in [0, 1], was " + confidence);
      }
      this.minConfidence = confidence;
      return this;
    }

    /** One model for every role (rewriter, checker, cleaner, reader); {@code name} prices its calls. */
    public Builder chatModel(ChatModel model, String name) {
      Objects.requireNonNull(model, "model");
      Objects.requireNonNull(name, "name");
      for (Role r : Role.values()) {
        models.put(r, model);
        modelNames.put(r, name);
      }
      return this;
    }

    /** A model for one role (e.g. a cheaper checker). */
    public Builder chatModel(Role role, ChatModel model, String name) {
      models.put(Objects.requireNonNull(role, "role"), Objects.requireNonNull(model, "model"));
      modelNames.put(role, Objects.requireNonNull(name, "name"));
      return this;
    }

    /**
     * The OpenAI-compatible endpoint of the environment ({@code LAKEREWRITE_LLM_MODEL},
     * {@code LAKEREWRITE_LLM_BASE_URL}, {@code LAKEREWRITE_LLM_API_KEY}; see {@link ModelConfig}), when one is
     * configured; otherwise the rewriter stays offline.
     */
    public Builder chatModelFromEnvironment() {
      ModelConfig.fromEnvironment().ifPresent(c -> chatModel(c.chatModel(), c.modelName()));
      return this;
    }

    public Builder method(Method method) {
      this.method = Objects.requireNonNull(method, "method");
      return this;
    }

    public Builder maxIterations(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("maxIterations must be at least 1, was " + n);
      }
      this.maxIterations = n;
      return this;
    }

    /** Tables basic retrieval hands the rewriter per iteration. */
    public Builder topK(int k) {
      if (k < 1) {
        throw new IllegalArgumentException("topK must be at least 1, was " + k);
      }
      this.topK = k;
      return this;
    }

    /** Rows per table preview (thesis: 1–3). */
    public Builder previewRows(int rows) {
      if (rows < 0 || rows > 100) {
        throw new IllegalArgumentException("previewRows must be between 0 and 100, was " + rows);
      }
      this.previewRows = rows;
      return this;
    }

    /** Maximum entries of a scratchpad section before time-based eviction. */
    public Builder sectionLimit(Scratchpad.Section section, int limit) {
      Objects.requireNonNull(section, "section");
      if (limit < 1) {
        throw new IllegalArgumentException("the limit of " + section + " must be at least 1, was " + limit);
      }
      sectionLimits.put(section, limit);
      return this;
    }

    /** Switches actions off (ablations). OUTPUT_QUERY cannot be switched off. */
    public Builder disable(ActionType... actions) {
      for (ActionType a : actions) {
        if (a == ActionType.OUTPUT_QUERY) {
          throw new IllegalArgumentException("OUTPUT_QUERY cannot be disabled: it is how the loop ends");
        }
        enabled.remove(a);
      }
      return this;
    }

    /**
     * The join graph: table–table relevance in basic retrieval and the FIND_JOIN_PATH action. Off is the thesis's
     * "no JOIN_GRAPH" ablation.
     */
    public Builder joinGraph(boolean on) {
      this.joinGraph = on;
      if (!on) {
        enabled.remove(ActionType.FIND_JOIN_PATH);
      } else {
        enabled.add(ActionType.FIND_JOIN_PATH);
      }
      return this;
    }

    /** Token, cost and wall-time budget per rewrite (the wall time bounds the whole loop, offline too). */
    public Builder budget(LlmBudget budget) {
      this.budget = Objects.requireNonNull(budget, "budget");
      return this;
    }

    /** Limits for every candidate's execution. */
    public Builder queryLimits(QueryLimits limits) {
      this.queryLimits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    public Builder llmCallTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("llmCallTimeout must be positive, was " + timeout);
      }
      this.llmCallTimeout = timeout;
      return this;
    }

    /** Prices for estimated cost. */
    public Builder prices(PriceTable prices) {
      this.prices = Objects.requireNonNull(prices, "prices");
      return this;
    }

    /** Retries of retryable LLM failures. */
    public Builder retry(RetryPolicy retry) {
      this.retry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    /** A configured, immutable, thread-safe rewriter with these settings. */
    public LakeRewriter build() {
      return new LakeRewriter(this);
    }
  }
}
