package dev.lakerewrite.core;

import dev.lakerewrite.core.llm.LlmGateway;
import dev.lakerewrite.core.llm.PriceTable;
import dev.lakerewrite.core.llm.RetryPolicy;
import dev.lakerewrite.core.llm.Role;
import dev.lakerewrite.core.rewrite.RewriteRun;
import dev.lakerewrite.core.rewrite.RewriterConfig;
import dev.langchain4j.model.chat.ChatModel;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * A configured rewriter, built by {@link Rewriter#builder()}: rewrites SQL written against an assumed schema until
 * it runs correctly on a data lake, with the builder's settings (method, agents and their models, iterations,
 * actions, limits, budget, minimum confidence).
 *
 * <pre>{@code
 * LakeRewriter rw = Rewriter.builder().chatModelFromEnvironment().maxIterations(5).minConfidence(0.5).build();
 * RewriteResult r = rw.rewrite(sql, lake);   // r.sql(), r.result(), r.stopReason(), r.trace(), r.usage()
 * }</pre>
 *
 * <p>Immutable and thread-safe: one rewriter and one indexed lake serve concurrent rewrites (each opens its own
 * session on the lake).
 */
public final class LakeRewriter {

  private final RewriterConfig config;
  private final Rewriter.Method method;
  private final Map<Role, ChatModel> models;
  private final Map<Role, String> modelNames;
  private final PriceTable prices;
  private final RetryPolicy retry;

  LakeRewriter(Rewriter.Builder b) {
    this.config = new RewriterConfig(b.maxIterations, b.topK, b.previewRows, b.historyPreviewRows, b.sectionLimits,
        b.enabled, b.joinGraph, b.budget, b.queryLimits, b.llmCallTimeout, b.minConfidence);
    this.method = b.method;
    this.models = Map.copyOf(b.models);
    this.modelNames = Map.copyOf(b.modelNames);
    this.prices = b.prices;
    this.retry = b.retry;
    if ((method == Rewriter.Method.RETRIEVER_REWRITER || method == Rewriter.Method.RETRIEVER_READER)
        && !models.containsKey(Role.REWRITER) && !models.containsKey(Role.READER)) {
      throw new IllegalStateException("the " + method + " baseline needs a chat model; configure one with chatModel(...)");
    }
  }

  /** The settings of the loop (iterations, actions, limits, budget, minimum confidence). */
  public RewriterConfig config() {
    return config;
  }

  /** What runs: the iterative loop or a baseline. */
  public Rewriter.Method method() {
    return method;
  }

  /** Whether an LLM drives the agents (else they are offline). */
  public boolean usesModel() {
    return models.containsKey(Role.REWRITER);
  }

  /**
   * Rewrites one query on a lake. Never throws for a bad query, a failing model, a failing action or a failing
   * index build: the result says what happened ({@link RewriteResult#stopReason()}, {@link RewriteResult#error()},
   * the trace); when the lake's indexes cannot be built the stop reason is {@code INDEX_FAILED} and the error
   * names the lake, the step and the component.
   *
   * @param sql the query as the user wrote it, against the schema they assume
   * @param lake an open lake; its indexes are built on the first rewrite (or ahead of time with
   *     {@link DataLake#index()})
   * @throws NullPointerException if an argument is null
   * @throws IllegalStateException if the lake is closed
   */
  public RewriteResult rewrite(String sql, DataLake lake) {
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(lake, "lake");
    long t0 = System.nanoTime();
    try {
      lake.services();
    } catch (LakeIndexException e) {
      return RewriteRun.indexFailed(sql, e.getMessage(), Duration.ofNanos(System.nanoTime() - t0));
    }
    Duration indexing = Duration.ofNanos(System.nanoTime() - t0);
    LlmGateway gateway = gateway();
    try (LakeSession session = lake.openSession()) {
      DefaultLakeTools tools = new DefaultLakeTools(lake, session, gateway.model(Role.CLEANER), config.joinGraph());
      return RewriteRun.run(method, config, gateway, tools, session, sql, indexing);
    }
  }

  private LlmGateway gateway() {
    LlmGateway.Builder g = LlmGateway.builder().prices(prices).retry(retry).callTimeout(config.llmCallTimeout())
        .budget(config.budget());
    models.forEach((role, model) -> g.model(role, model, modelNames.get(role)));
    return g.build();
  }

  @Override
  public String toString() {
    return "LakeRewriter[" + method + (usesModel() ? ", model " + modelNames.get(Role.REWRITER) : ", offline")
        + ", maxIterations " + config.maxIterations() + (config.minConfidence() > 0 ? ", minConfidence "
        + config.minConfidence() : "") + "]";
  }
}
