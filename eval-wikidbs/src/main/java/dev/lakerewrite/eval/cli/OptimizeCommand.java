package dev.lakerewrite.eval.cli;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeRewriteException;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.optimize.OptimizationCandidate;
import dev.lakerewrite.core.optimize.OptimizeResult;
import dev.lakerewrite.core.optimize.OptimizeVerdict;
import dev.lakerewrite.core.optimize.Optimizer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakerewrite optimize}: the performance pipeline on a DuckDB file (opened read-only and sandboxed): a
 * verified, equivalent and faster query, or the original with the reason none was found.
 */
@Command(name = "optimize", sortOptions = false,
    description = {"Rewrites a query that runs on a DuckDB database into an equivalent, faster one: candidates from "
        + "rules, recipes and (when configured) a model, each verified on the database and on generated instances "
        + "and timed against the original; the original is kept unless a candidate is faster by the minimum "
        + "speed-up.",
        "Exit code 0 when the optimisation completed (improved or not), 2 for bad input (no such file, a query "
            + "that fails or is not a query), 1 for internal failures."})
final class OptimizeCommand implements Callable<Integer> {

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--db", paramLabel = "FILE", required = true, description = "The DuckDB database file.")
  Path db;

  @Option(names = "--sql", paramLabel = "SQL", required = true, description = "The query to make faster.")
  String sql;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "Time limit per query execution (default ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "5",
      description = "Timed runs per query (default ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--cache", paramLabel = "DIR",
      description = "Where the database's derived data is cached. Default: $LAKEREWRITE_CACHE or ~/.cache/lakerewrite.")
  Path cache;

  @Option(names = "--json", description = "Print the result as JSON (the fields of the library's OptimizeResult).")
  boolean json;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() {
    if (!Files.isRegularFile(db)) {
      throw new BadInputException("--db " + db + ": no such DuckDB database file");
    }
    if (timeoutSeconds < 1) {
      throw new BadInputException("--timeout must be at least 1 second, was " + timeoutSeconds);
    }
    if (runs < 1 || runs > 50) {
      throw new BadInputException("--runs must be between 1 and 50, was " + runs);
    }
    Optimizer optimizer = Optimizer.builder().queryTimeout(Duration.ofSeconds(timeoutSeconds)).timedRuns(runs).build();
    DataLake.Builder b = DataLake.builder();
    if (cache != null) {
      b.cacheDirectory(cache);
    }
    DataLake database;
    try {
      database = b.open(db);
    } catch (LakeRewriteException e) {
      throw new BadInputException("cannot open the database: " + e.getMessage(), e);
    }
    try (database; LakeSession session = database.openSession()) {
      OptimizeResult r = optimizer.optimize(sql, session.connection());
      PrintWriter out = spec.commandLine().getOut();
      out.println(json ? CliJson.write(toJson(r)) : text(r));
      out.flush();
      if (r.verdict() == OptimizeVerdict.ORIGINAL_FAILED) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": the query itself fails: " + r.failure().orElse("?"));
        err.flush();
        return LakeRewriteCli.BAD_INPUT;
      }
      return LakeRewriteCli.OK;
    }
  }

  static String text(OptimizeResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "-- verdict: %s, speed-up %.2fx, %d candidate(s), %d ms%n", r.verdict(),
        r.speedup(), r.candidates().size(), r.elapsed().toMillis()));
    r.failure().ifPresent(f -> sb.append("-- ").append(f).append('\n'));
    sb.append(r.sql().strip()).append(";\n");
    for (OptimizationCandidate c : r.candidates()) {
      sb.append(String.format(Locale.ROOT, "-- candidate %d (%s): %s, %.2fx%s%n", c.id(), c.label(), c.verdict(),
          c.speedup(), c.reason() == null || c.reason().isBlank() ? "" : ": " + c.reason()));
    }
    return sb.toString().strip();
  }

  static Map<String, Object> toJson(OptimizeResult r) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("original_sql", r.originalSql());
    o.put("sql", r.sql());
    o.put("verdict", r.verdict().name());
    o.put("speedup", r.speedup());
    o.put("failure", r.failure().orElse(null));
    o.put("original_ms", r.originalTime().map(t -> t.trimmedMean().toNanos() / 1e6).orElse(null));
    List<Map<String, Object>> candidates = new ArrayList<>();
    for (OptimizationCandidate c : r.candidates()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", c.id());
      m.put("source", c.source().name());
      m.put("label", c.label());
      m.put("explanation", c.explanation());
      m.put("sql", c.sql());
      m.put("verdict", c.verdict().name());
      m.put("reason", c.reason());
      m.put("speedup", c.speedup());
      candidates.add(m);
    }
    o.put("candidates", candidates);
    o.put("instances", r.instances());
    o.put("usage", CliJson.usage(r.usage()));
    o.put("elapsed_ms", r.elapsed().toMillis());
    o.put("trace", r.trace().stream().map(Object::toString).toList());
    return o;
  }
}
