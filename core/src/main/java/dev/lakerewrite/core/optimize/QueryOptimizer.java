package dev.lakerewrite.core.optimize;

import dev.lakerewrite.core.llm.LlmGateway;
import dev.lakerewrite.retrieval.Embedder;
import dev.langchain4j.model.chat.ChatModel;
import java.sql.Connection;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * A configured optimizer, built by {@link Optimizer#builder()}: rewrites working queries into equivalent, faster
 * ones on a DuckDB or PostgreSQL connection (see {@link Optimizer} for how). Immutable and thread-safe; each
 * {@link #optimize} call uses its connection from the calling thread only (one connection per thread, as DuckDB's
 * JDBC driver requires). The connection's settings are the caller's; every untrusted query (the input and each
 * candidate) still passes the safe executor's admission check. Verified rewrites at least
 * {@link Optimizer.Builder#demonstrationSpeedup demonstrationSpeedup} faster join its {@link #demonstrations()
 * pool}, which later calls replay and show the language model.
 *
 * <pre>{@code
 * QueryOptimizer optimizer = Optimizer.builder().queryTimeout(Duration.ofMinutes(5)).build();
 * OptimizeResult r = optimizer.optimize(sql, connection);   // r.sql(), r.speedup(), r.verdict(), r.trace()
 * }</pre>
 */
public final class QueryOptimizer {
  private final LlmGateway gateway;
  private final ChatModel chatModel;
  final Optimizer.Mode mode;
  final int maxIterations;
  final double targetSpeedup;
  final double minSpeedup;
  final double margin;
  final int warmups;
  final int timedRuns;
  final Duration queryTimeout;
  final boolean rules;
  final Set<String> recipes;
  final int maxRuleCandidates;
  final boolean furtherInstances;
  final int sampleRows;
  final int generatedRows;
  final long seed;
  final int maxComparedRows;
  final DemonstrationPool demonstrations;
  final double demonstrationSpeedup;
  final boolean knowledgeBase;
  final Embedder embedder;
  final boolean confirmWinner;
  final Duration budget;

  QueryOptimizer(Optimizer.Builder b) {
    this.gateway = b.gateway;
    this.chatModel = b.chatModel;
    this.mode = b.mode;
    this.maxIterations = b.maxIterations;
    this.targetSpeedup = b.targetSpeedup;
    this.minSpeedup = b.minSpeedup;
    this.margin = b.margin;
    this.warmups = b.warmups;
    this.timedRuns = b.timedRuns;
    this.queryTimeout = b.queryTimeout;
    this.rules = b.rules;
    this.recipes = Set.copyOf(b.recipes);
    this.maxRuleCandidates = b.maxRuleCandidates;
    this.furtherInstances = b.furtherInstances;
    this.sampleRows = b.sampleRows;
    this.generatedRows = b.generatedRows;
    this.seed = b.seed;
    this.maxComparedRows = b.maxComparedRows;
    this.demonstrations = b.demonstrations != null ? b.demonstrations : DemonstrationPool.inMemory();
    this.demonstrationSpeedup = b.demonstrationSpeedup;
    this.knowledgeBase = b.knowledgeBase;
    this.embedder = b.embedder;
    this.confirmWinner = b.confirmWinner;
    this.budget = b.budget;
  }

  /**
   * Optimises one query on a DuckDB or PostgreSQL connection.
   *
   * @param sql one SELECT/WITH query
   * @param connection the database the query runs on (used from the calling thread only)
   * @return the result; bad SQL or a failing original give {@link OptimizeVerdict#ORIGINAL_FAILED}, never an
   *     exception
   */
  public OptimizeResult optimize(String sql, Connection connection) {
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(connection, "connection");
    return new OptimizationSession(this, sql, connection).run();
  }

  /**
   * Optimises a script statement by statement: each statement (split at the semicolons that end statements, not
   * those inside literals or comments) is optimised on its own, as {@link #optimize} does.
   *
   * @return one result per statement, in order (empty for a script without statements)
   */
  public java.util.List<OptimizeResult> optimizeScript(String script, Connection connection) {
    Objects.requireNonNull(script, "script");
    Objects.requireNonNull(connection, "connection");
    java.util.List<OptimizeResult> out = new java.util.ArrayList<>();
    for (String statement : dev.lakerewrite.core.sql.StatementSplitter.statements(script)) {
      out.add(optimize(statement, connection));
    }
    return out;
  }

  /** The demonstration pool this optimizer reads and adds verified rewrites to. */
  public DemonstrationPool demonstrations() {
    return demonstrations;
  }

  /** Whether a language model is configured. */
  public boolean usesLlm() {
    return gateway != null || chatModel != null;
  }

  /**
   * The gateway for one optimisation: the configured one (usage accumulates there), or a fresh one around the
   * configured model, so that each result reports its own usage. Null offline.
   */
  LlmGateway gatewayForCall() {
    if (gateway != null) {
      return gateway;
    }
    return chatModel == null ? null
        : LlmGateway.builder().model(dev.lakerewrite.core.llm.Role.OPTIMIZER, chatModel, "unknown").build();
  }

}
