package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.llm.LlmGateway;
import dev.lakerewrite.core.llm.LlmUsage;
import dev.lakerewrite.core.llm.Role;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The wiring of one rewrite, next to what it wires: picks the agents (LLM or offline) and runs the loop or a
 * baseline. Called by {@link dev.lakerewrite.core.LakeRewriter}, which lives in {@code dev.lakerewrite.core} beside
 * the lake (it needs the lake's indexes and trusted tools, which stay package-private there). Not an API for users:
 * public only because Java has no friend packages; everything it wires is package-private.
 */
public final class RewriteRun {
  private RewriteRun() {}

  /**
   * Runs {@code method} for one query.
   *
   * @param tools the lake's actions on {@code session}
   * @param indexing the time the lake's indexes took before this call (zero when they were ready)
   */
  public static RewriteResult run(Rewriter.Method method, RewriterConfig config, LlmGateway gateway, LakeTools tools,
      LakeSession session, String sql, Duration indexing) {
    if (method == Rewriter.Method.RETRIEVER_REWRITER || method == Rewriter.Method.RETRIEVER_READER) {
      return new Baselines(config, gateway, tools, session)
          .run(method == Rewriter.Method.RETRIEVER_READER, sql, indexing);
    }
    RewriterAgent rewriter = gateway.hasModel(Role.REWRITER) ? new LlmRewriterAgent(gateway)
        : new OfflineRewriterAgent(session.parser());
    CheckerAgent checker = gateway.hasModel(Role.CHECKER) ? new LlmCheckerAgent(gateway) : new OfflineCheckerAgent();
    RewriterConfig effective = method == Rewriter.Method.ONE_STEP ? config.withMaxIterations(1) : config;
    return new RewriteLoop(effective, rewriter, checker, tools, session, gateway).run(sql, indexing);
  }

  /**
   * The result of a rewrite whose lake could not be indexed: no candidate, {@link StopReason#INDEX_FAILED}, the
   * error (kind {@link ErrorKind#RUNTIME}) and the trace saying why.
   *
   * @param why the failure in words (the {@code LakeIndexException}'s message: lake, step, component)
   * @param indexing the time spent before the failure
   */
  public static RewriteResult indexFailed(String sql, String why, Duration indexing) {
    RewriteTrace.Recorder trace = new RewriteTrace.Recorder();
    trace.add(0, "input", "query", Map.of("sql", sql));
    String detail = "the lake's indexes could not be built, so nothing was rewritten: " + why;
    trace.add(0, "selection", "result", Map.of("stop", StopReason.INDEX_FAILED.name(), "detail", detail,
        "chosen", -1, "sql", ""));
    QueryError error = new QueryError(ErrorKind.RUNTIME, detail, -1, sql);
    Duration zero = Duration.ZERO;
    RewriteResult.Timings timings = new RewriteResult.Timings(indexing.plusMillis(trace.elapsedMillis()), indexing,
        zero, zero, zero, zero, zero);
    return new RewriteResult(sql, "", Optional.empty(), Optional.of(error), -1, List.of(), StopReason.INDEX_FAILED,
        detail, 0, LlmUsage.NONE, List.of(), timings, trace.build());
  }
}
