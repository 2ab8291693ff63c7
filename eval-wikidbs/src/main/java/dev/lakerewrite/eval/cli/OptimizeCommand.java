package dev.lakerewrite.eval.cli;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeRewriteException;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.optimize.OptimizationCandidate;
import dev.lakerewrite.core.optimize.OptimizeResult;
import dev.lakerewrite.core.optimize.OptimizeVerdict;
import dev.lakerewrite.core.optimize.Optimizer;
import dev.lakerewrite.core.optimize.QueryOptimizer;
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
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakerewrite optimize}: the performance pipeline on a DuckDB file (opened read-only and sandboxed) or a
 * running PostgreSQL server ({@code --jdbc}): for each statement, a verified, equivalent and faster query, or the
 * original with the reason none was found.
 */
@Command(name = "optimize", sortOptions = false,
    description = {"Rewrites queries that run on a DuckDB database or a PostgreSQL server into equivalent, faster "
        + "ones: candidates from the recipes the query's measured plan calls for and (when configured) a model, "
        + "each verified on the database and on smaller instances and timed against the original; the original is "
        + "kept unless a candidate is faster by the minimum speed-up. A script is optimised statement by "
        + "statement.",
        "Exit code 0 when the optimisation completed (improved or not), 2 for bad input (no such file, a query "
            + "that fails or is not a query), 1 for internal failures."})
final class OptimizeCommand implements Callable<Integer> {

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--db", paramLabel = "FILE", description = "The DuckDB database file.")
  @Nullable Path db;

  @Option(names = "--jdbc", paramLabel = "URL", description = "A PostgreSQL JDBC URL instead of --db, e.g. "
      + "jdbc:postgresql://localhost:5432/shop?user=me (password from PGPASSWORD when not in the URL). Every "
      + "query runs in a read-only transaction that is rolled back.")
  @Nullable String jdbc;

  @Option(names = "--sql", paramLabel = "SQL", description = "The query (or a script of queries separated by ;) to "
      + "make faster.")
  @Nullable String sql;

  @Option(names = "--sql-file", paramLabel = "FILE", description = "Read the query or script from this file.")
  @Nullable Path sqlFile;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "Time limit per query execution (default ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "5",
      description = "Timed runs per query (default ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--cache", paramLabel = "DIR",
      description = "Where the database's derived data is cached. Default: $LAKEREWRITE_CACHE or ~/.cache/lakerewrite.")
  @Nullable Path cache;

  @Option(names = "--json", description = "Print the result as JSON (the fields of the library's OptimizeResult).")
  boolean json;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() {
    if ((db == null) == (jdbc == null)) {
      throw new BadInputException("give exactly one of --db FILE (DuckDB) and --jdbc URL (PostgreSQL)");
    }
    if ((sql == null) == (sqlFile == null)) {
      throw new BadInputException("give exactly one of --sql and --sql-file");
    }
    String text = sql;
    if (sqlFile != null) {
      try {
        text = Files.readString(sqlFile);
      } catch (java.io.IOException e) {
        throw new BadInputException("--sql-file " + sqlFile + ": cannot read it (" + e.getMessage() + ")", e);
      }
    }
    if (db != null && !Files.isRegularFile(db)) {
      throw new BadInputException("--db " + db + ": no such DuckDB database file");
    }
    if (timeoutSeconds < 1) {
      throw new BadInputException("--timeout must be at least 1 second, was " + timeoutSeconds);
    }
    if (runs < 1 || runs > 50) {
      throw new BadInputException("--runs must be between 1 and 50, was " + runs);
    }
    QueryOptimizer optimizer = Optimizer.builder().queryTimeout(Duration.ofSeconds(timeoutSeconds)).timedRuns(runs).build();
    if (jdbc != null) {
      java.util.Properties props = new java.util.Properties();
      String password = System.getenv("PGPASSWORD");
      if (password != null && !jdbc.contains("password=")) {
        props.setProperty("password", password);
      }
      java.sql.Connection c;
      try {
        c = java.sql.DriverManager.getConnection(jdbc, props);
      } catch (java.sql.SQLException e) {
        throw new BadInputException("--jdbc " + jdbc + ": cannot connect (" + e.getMessage() + ")", e);
      }
      try (c) {
        return report(optimizer.optimizeScript(text, c));
      } catch (java.sql.SQLException e) {
        throw new BadInputException("--jdbc " + jdbc + ": " + e.getMessage(), e);
      }
    }
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
      return report(optimizer.optimizeScript(text, session.connection()));
    }
  }

  /** Prints each statement's result (a JSON array for several with --json); bad input when one fails itself. */
  private int report(List<OptimizeResult> results) {
    if (results.isEmpty()) {
      throw new BadInputException("no statement to optimise");
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(CliJson.write(results.size() == 1 ? toJson(results.get(0))
          : results.stream().map(OptimizeCommand::toJson).toList()));
    } else {
      for (int i = 0; i < results.size(); i++) {
        if (results.size() > 1) {
          out.println("-- statement " + (i + 1) + " of " + results.size());
        }
        out.println(text(results.get(i)));
      }
    }
    out.flush();
    int code = LakeRewriteCli.OK;
    for (int i = 0; i < results.size(); i++) {
      OptimizeResult r = results.get(i);
      if (r.verdict() == OptimizeVerdict.ORIGINAL_FAILED) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": " + (results.size() > 1 ? "statement " + (i + 1) + " itself fails: "
            : "the query itself fails: ") + r.failure().orElse("?"));
        err.flush();
        code = LakeRewriteCli.BAD_INPUT;
      }
    }
    return code;
  }

  static String text(OptimizeResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "-- verdict: %s, speed-up %s%.2fx, %d candidate(s), %d ms%n", r.verdict(),
        r.speedupIsLowerBound() ? ">=" : "", r.speedup(), r.candidates().size(), r.elapsed().toMillis()));
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
    o.put("speedup_is_lower_bound", r.speedupIsLowerBound());
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
