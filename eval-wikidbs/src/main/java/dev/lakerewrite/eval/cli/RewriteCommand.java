package dev.lakerewrite.eval.cli;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.LakeRewriter;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.llm.LlmBudget;
import dev.lakerewrite.core.llm.ModelConfig;
import dev.lakerewrite.core.rewrite.RewriteCandidate;
import dev.lakerewrite.core.rewrite.StopReason;
import dev.lakerewrite.core.rewrite.RewriteEvent;
import dev.lakerewrite.eval.Lakes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakerewrite rewrite}: rewrites one query on a lake and prints the rewritten SQL, a preview of its result
 * and each step of the loop (candidates, their outcomes, the checker's actions).
 */
@Command(name = "rewrite", sortOptions = false,
    description = {"Rewrites SQL written against the schema you assume until it runs on the lake, and explains the "
        + "steps: the rewritten SQL, a preview of its result, and per iteration the candidates with their outcome "
        + "and the actions taken. Offline agents unless a model is configured (LAKEREWRITE_LLM_MODEL, _BASE_URL, "
        + "_API_KEY).",
        "Exit code 0 when a rewritten query ran, 2 for bad input (no such lake, SQL that is not a query) or when "
            + "no rewrite ran, 1 for internal failures."})
final class RewriteCommand implements Callable<Integer> {

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Mixin
  LakeOptions lakeOptions;

  /** The query, inline or from a file. */
  static final class Query {
    @Option(names = "--sql", paramLabel = "SQL", required = true, description = "The query to rewrite.")
    String sql;

    @Option(names = "--sql-file", paramLabel = "FILE", required = true, description = "Read the query from a file.")
    @Nullable Path file;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Query query;

  @Option(names = "--max-iterations", paramLabel = "N", defaultValue = "5",
      description = "Iterations of the loop (default ${DEFAULT-VALUE}).")
  int maxIterations;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "300",
      description = "Wall-time budget of the rewrite (default ${DEFAULT-VALUE}); the best candidate so far is "
          + "returned then.")
  long timeoutSeconds;

  @Option(names = "--rows", paramLabel = "N", defaultValue = "10",
      description = "Result rows to show (default ${DEFAULT-VALUE}).")
  int rows;

  @Option(names = "--offline", description = "Use the offline agents even when a model is configured.")
  boolean offline;

  @Option(names = "--json", description = "Print the result as JSON (the fields of the library's RewriteResult).")
  boolean json;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() {
    if (maxIterations < 1) {
      throw new BadInputException("--max-iterations must be at least 1, was " + maxIterations);
    }
    if (timeoutSeconds < 1) {
      throw new BadInputException("--timeout must be at least 1 second, was " + timeoutSeconds);
    }
    if (rows < 0) {
      throw new BadInputException("--rows must not be negative, was " + rows);
    }
    String sql = sql();
    Rewriter.Builder b = Rewriter.builder().maxIterations(maxIterations)
        .budget(LlmBudget.UNLIMITED.withMaxWallTime(Duration.ofSeconds(timeoutSeconds)));
    if (!offline) {
      ModelConfig.fromEnvironment().ifPresent(c -> b.chatModel(c.chatModel(), c.modelName()));
    }
    LakeRewriter rewriter = b.build();
    Lakes.Layout layout = lakeOptions.layout();
    try (DataLake lake = lakeOptions.open(layout)) {
      RewriteResult r = rewriter.rewrite(sql, lake);
      PrintWriter out = spec.commandLine().getOut();
      out.println(json ? CliJson.write(toJson(r)) : text(r));
      out.flush();
      if (r.stopReason() == StopReason.INVALID_QUERY) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": " + r.error().map(e -> e.summary()).orElse(r.stopDetail()));
        err.flush();
        return LakeRewriteCli.BAD_INPUT;
      }
      return r.succeeded() ? LakeRewriteCli.OK : LakeRewriteCli.BAD_INPUT;
    }
  }

  private String sql() {
    if (query.file == null) {
      if (query.sql.isBlank()) {
        throw new BadInputException("--sql is empty");
      }
      return query.sql;
    }
    try {
      return Files.readString(query.file);
    } catch (IOException e) {
      throw new BadInputException("cannot read --sql-file " + query.file + ": " + e.getMessage(), e);
    }
  }

  String text(RewriteResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append("-- stop: ").append(r.stopReason()).append(": ").append(r.stopDetail()).append('\n');
    if (r.sql().isEmpty()) {
      sb.append("-- no rewritten query").append(r.error().map(e -> ": " + e.summary()).orElse("")).append('\n');
    } else {
      sb.append(r.sql().strip()).append(";\n");
    }
    r.result().ifPresent(t -> sb.append("\n-- result: ").append(t.rowCount()).append(t.truncated() ? "+" : "")
        .append(" rows\n").append(t.preview(rows)).append('\n'));
    sb.append("\n-- steps\n");
    for (String step : steps(r)) {
      sb.append(step).append('\n');
    }
    sb.append(String.format("-- %d iteration(s), %d candidate(s), %d ms; LLM: %d call(s), %d tokens, $%.4f",
        r.iterations(), r.candidates().size(), r.timings().total().toMillis(), r.usage().calls(),
        r.usage().totalTokens(), r.usage().costUsd()));
    return sb.toString();
  }

  /** One line per candidate and per action, in order. */
  static List<String> steps(RewriteResult r) {
    List<String> out = new ArrayList<>();
    for (RewriteEvent e : r.trace().events()) {
      Map<String, Object> d = e.data();
      switch (e.type()) {
        case "candidate" -> out.add("iteration " + e.iteration() + ": candidate " + d.get("index") + " "
            + (Boolean.TRUE.equals(d.get("ok")) ? "ran, " + d.get("rows") + " rows"
                : "failed (" + d.get("error_kind") + "): " + firstLine(String.valueOf(d.get("error"))))
            + "\n    " + oneLine(String.valueOf(d.get("sql"))));
        case "duplicate" -> out.add("iteration " + e.iteration() + ": the rewriter repeated an earlier candidate");
        case "agent_failure" -> out.add("iteration " + e.iteration() + ": " + e.phase() + " failed ("
            + d.get("kind") + "): " + firstLine(String.valueOf(d.get("message"))));
        case "action" -> out.add("iteration " + e.iteration() + ": " + d.get("action")
            + (Boolean.TRUE.equals(d.get("ok")) ? "" : " failed: " + firstLine(String.valueOf(d.get("error")))));
        default -> {
          // retrieval, decisions and the rest are in the JSON trace
        }
      }
    }
    return out;
  }

  static Map<String, Object> toJson(RewriteResult r) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("user_query", r.userQuery());
    o.put("sql", r.sql());
    o.put("succeeded", r.succeeded());
    o.put("stop_reason", r.stopReason().name());
    o.put("stop_detail", r.stopDetail());
    o.put("iterations", r.iterations());
    o.put("chosen", r.chosen());
    o.put("result", r.result().map(t -> CliJson.table(t, 100)).orElse(null));
    o.put("error", r.error().map(CliJson::error).orElse(null));
    List<Map<String, Object>> candidates = new ArrayList<>();
    for (RewriteCandidate c : r.candidates()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("index", c.index());
      m.put("iteration", c.iteration());
      m.put("sql", c.sql());
      m.put("reason", c.reason());
      m.put("used_tables", c.usedTables());
      m.put("rows", c.result().map(t -> t.rowCount()).orElse(null));
      m.put("error", c.error().map(CliJson::error).orElse(null));
      m.put("score", c.score());
      candidates.add(m);
    }
    o.put("candidates", candidates);
    o.put("steps", steps(r));
    o.put("usage", CliJson.usage(r.usage()));
    Map<String, Object> timings = new LinkedHashMap<>();
    timings.put("total", r.timings().total().toMillis());
    timings.put("indexing", r.timings().indexing().toMillis());
    timings.put("retrieval", r.timings().retrieval().toMillis());
    timings.put("proposal", r.timings().proposal().toMillis());
    timings.put("execution", r.timings().execution().toMillis());
    timings.put("evaluation", r.timings().evaluation().toMillis());
    timings.put("actions", r.timings().actions().toMillis());
    o.put("timings_ms", timings);
    o.put("trace", r.trace().events().stream().map(e -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("iteration", e.iteration());
      m.put("phase", e.phase());
      m.put("type", e.type());
      m.put("data", e.data());
      return m;
    }).toList());
    return o;
  }

  static String firstLine(String s) {
    return s.lines().findFirst().orElse("");
  }

  static String oneLine(String s) {
    return s.strip().replaceAll("\\s+", " ");
  }
}
