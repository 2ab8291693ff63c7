package dev.lakerewrite.core.rewrite;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.llm.JsonContract;
import dev.lakerewrite.core.llm.LlmFailure;
import dev.lakerewrite.core.llm.LlmGateway;
import dev.lakerewrite.core.llm.Role;
import dev.lakerewrite.core.sql.QueryAnalysis;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The baselines of thesis §7.2, one LLM call each over the top-k tables by query–table relevance: the
 * Retriever–Rewriter (10-row previews, one rewrite, executed) and the Retriever–Reader (20-row previews, the model
 * writes the result table itself, nothing is executed). Same result type and trace as the loop.
 */
final class Baselines {
  static final int REWRITER_PREVIEW_ROWS = 10;
  static final int READER_PREVIEW_ROWS = 20;

  static final String REWRITER_PROMPT = """
      You rewrite SQL for a data lake held in DuckDB. The user's query assumes a schema the lake does not have. \
      Using only the tables below, rewrite it so that it runs on the lake and answers the user's intent; name \
      the output columns as the user did. Quote identifiers that are not plain lower-case words.
      """ + Prompts.DATA_NOTICE + """

      Answer with exactly one JSON object: {"sql": "<rewritten query>", "reason": "<1-2 sentences>"}""";

  static final String READER_PROMPT = """
      You answer SQL queries over a data lake by reading tables. The user's query assumes a schema the lake does \
      not have. Using only the table previews below, write the table the query would return; name the columns \
      as the user did.
      """ + Prompts.DATA_NOTICE + """

      Answer with exactly one JSON object: {"columns": ["<name>", ...], "rows": [[<value>, ...], ...]}""";

  record ReaderAnswer(List<String> columns, List<List<Object>> rows) {}

  record RewriteAnswer(String sql, String reason, @JsonProperty("used_tables") JsonNode usedTables) {}

  private final RewriterConfig config;
  private final LlmGateway gateway;
  private final LakeTools tools;
  private final LakeSession session;

  public Baselines(RewriterConfig config, LlmGateway gateway, LakeTools tools, LakeSession session) {
    this.config = config;
    this.gateway = gateway;
    this.tools = tools;
    this.session = session;
  }

  /** Runs the Retriever–Reader ({@code reader}) or the Retriever–Rewriter. */
  public RewriteResult run(boolean reader, String userQuery, Duration indexing) {
    RewriteTrace.Recorder trace = new RewriteTrace.Recorder();
    trace.add(0, "input", "query", Map.of("sql", userQuery, "method", reader ? "retriever-reader" : "retriever-rewriter"));
    long t0 = System.nanoTime();
    Map<String, List<String>> assumed = new LinkedHashMap<>();
    try {
      QueryAnalysis a = session.analyze(userQuery);
      a.columnsByTable().forEach((t, c) -> assumed.put(t, c));
    } catch (RuntimeException e) {
      assumed.put(userQuery, List.of());
    }
    Map<String, Double> relevance = tools.queryRelevance(assumed);
    List<String> top = relevance.keySet().stream().limit(config.topK()).toList();
    int rows = reader ? READER_PREVIEW_ROWS : REWRITER_PREVIEW_ROWS;
    StringBuilder tables = new StringBuilder();
    for (String t : top) {
      tables.append(tools.tablePreview(t, rows, relevance.get(t), "retrieval").render(rows)).append("\n\n");
    }
    trace.add(1, "retrieval", "retrieved", Map.of("tables", top));
    long retrieval = System.nanoTime() - t0;
    String user = "## User query\n```sql\n" + userQuery.strip() + "\n```\n\n## Tables\n"
        + Prompts.fenced(tables.toString().strip());
    long t1 = System.nanoTime();
    List<RewriteCandidate> history = new ArrayList<>();
    Optional<ResultTable> result = Optional.empty();
    Optional<QueryError> error = Optional.empty();
    String sql = "";
    long execution = 0;
    try {
      if (reader) {
        ReaderAnswer ans = gateway.askJson(Role.READER, List.of(SystemMessage.from(READER_PROMPT),
            UserMessage.from(user)), new JsonContract<>("result table", ReaderAnswer.class, Baselines::checkTable));
        List<ResultTable.Column> cols = ans.columns().stream().map(c -> new ResultTable.Column(c, "VARCHAR")).toList();
        result = Optional.of(ResultTable.of(cols, ans.rows(), false));
        trace.add(1, "proposal", "table", Map.of("columns", ans.columns(), "rows", ans.rows().size()));
      } else {
        RewriteAnswer ans = gateway.askJson(Role.REWRITER, List.of(SystemMessage.from(REWRITER_PROMPT),
            UserMessage.from(user)), new JsonContract<>("rewrite", RewriteAnswer.class,
                r -> r.sql() == null || r.sql().isBlank() ? List.of("\"sql\" is missing") : List.of()));
        sql = LlmRewriterAgent.stripFences(ans.sql());
        long t2 = System.nanoTime();
        Execution e = session.execute(sql, config.queryLimits());
        execution = System.nanoTime() - t2;
        result = e.isSuccess() ? Optional.of(e.table()) : Optional.empty();
        error = e.error();
        history.add(new RewriteCandidate(0, 1, sql, ans.reason() == null ? "" : ans.reason(), top, result, error,
            e.elapsed(), e.isSuccess() ? 1 : 0, List.of()));
        trace.add(1, "execution", "candidate", Map.of("index", 0, "sql", sql, "ok", e.isSuccess()));
      }
    } catch (LlmFailure f) {
      error = Optional.of(new QueryError(ErrorKind.RUNTIME, f.getMessage(), -1, userQuery));
      trace.add(1, "proposal", "agent_failure", Map.of("kind", f.kind().name(), "message", f.getMessage()));
    }
    long proposal = System.nanoTime() - t1 - execution;
    StopReason stop = error.isPresent() && history.isEmpty() && !reader ? StopReason.NO_PROGRESS : StopReason.MAX_ITERATIONS;
    trace.add(1, "selection", "result", Map.of("stop", stop.name()));
    RewriteResult.Timings timings = new RewriteResult.Timings(Duration.ofMillis(trace.elapsedMillis()), indexing,
        Duration.ofNanos(retrieval), Duration.ofNanos(proposal), Duration.ofNanos(execution), Duration.ZERO,
        Duration.ZERO);
    return new RewriteResult(userQuery, sql, result, error, history.isEmpty() ? -1 : 0, history, stop,
        reader ? "the reader wrote the result table" : "one rewrite, executed", 1, gateway.usage(), gateway.calls(),
        timings, trace.build());
  }

  private static List<String> checkTable(ReaderAnswer a) {
    List<String> problems = new ArrayList<>();
    if (a.columns() == null || a.columns().isEmpty()) {
      problems.add("\"columns\" must list the column names");
      return problems;
    }
    if (a.rows() == null) {
      problems.add("\"rows\" must be a list of rows");
      return problems;
    }
    for (int i = 0; i < a.rows().size(); i++) {
      if (a.rows().get(i) == null || a.rows().get(i).size() != a.columns().size()) {
        problems.add("row " + i + " must have " + a.columns().size() + " values");
        break;
      }
    }
    return problems;
  }
}
