package dev.lakerewrite.eval.cli;

import dev.lakerewrite.core.equivalence.Counterexample;
import dev.lakerewrite.core.equivalence.EquivalenceChecker;
import dev.lakerewrite.core.equivalence.EquivalenceEvidence;
import dev.lakerewrite.core.equivalence.EquivalenceInputException;
import dev.lakerewrite.core.equivalence.EquivalenceResult;
import dev.lakerewrite.core.equivalence.InstanceCheck;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lakerewrite verify}: whether one query can replace another on a schema (a DDL file, or the schema and
 * data of a DuckDB file): EQUIVALENT (proved, or on every instance tried), NOT_EQUIVALENT with a small database
 * on which they differ, or UNKNOWN with the reason.
 */
@Command(name = "verify", sortOptions = false,
    description = {"Checks whether the right query returns what the left query returns on every database of the "
        + "schema (honouring its keys, foreign keys, NOT NULL and CHECK constraints): a syntactic proof first, then "
        + "instances generated from the queries' predicates and the constraints (NULLs, duplicates, empty tables, "
        + "values at every boundary); a difference comes with a minimised counterexample database.",
        "Exit code 0 when equivalent, 3 when not equivalent, 4 when unknown, 2 for bad input (no such file, a "
            + "query that does not parse or bind), 1 for internal failures."})
final class VerifyCommand implements Callable<Integer> {
  /** Not equivalent: a counterexample was found. */
  static final int NOT_EQUIVALENT = 3;
  /** Neither could be established. */
  static final int UNKNOWN = 4;

  @Spec
  CommandLine.Model.CommandSpec spec;

  /** Where the schema comes from. */
  static final class Source {
    @Option(names = "--schema", paramLabel = "FILE", required = true,
        description = "A DDL file: CREATE TABLE (with keys, foreign keys, NOT NULL, CHECK), CREATE VIEW; INSERTs "
            + "add one more instance.")
    @Nullable Path schema;

    @Option(names = "--db", paramLabel = "FILE", required = true,
        description = "A DuckDB file (opened read-only): its tables' schema, and its data as one more instance.")
    Path db;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  /** The left query, inline or from a file. */
  static final class Left {
    @Option(names = "--left", paramLabel = "SQL", required = true, description = "The query to replace.")
    String sql;

    @Option(names = "--left-file", paramLabel = "FILE", required = true, description = "Read the left query from "
        + "a file.")
    @Nullable Path file;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Left left;

  /** The right query, inline or from a file. */
  static final class Right {
    @Option(names = "--right", paramLabel = "SQL", required = true, description = "The query to replace it with.")
    String sql;

    @Option(names = "--right-file", paramLabel = "FILE", required = true, description = "Read the right query "
        + "from a file.")
    @Nullable Path file;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Right right;

  @Option(names = "--instances", paramLabel = "N", defaultValue = "64",
      description = "Generated instances to try at most (default ${DEFAULT-VALUE}).")
  int instances;

  @Option(names = "--budget", paramLabel = "SECONDS", defaultValue = "60",
      description = "Time for generated instances at most (default ${DEFAULT-VALUE}): a safety net; --instances "
          + "bounds the effort, so the verdict does not depend on the machine's load unless this runs out (the "
          + "result then says so).")
  double budgetSeconds;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "Seed of instance generation "
      + "(default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--json", description = "Print the result as JSON (verdict, proved, counterexample, reason, "
      + "evidence).")
  boolean json;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() {
    if (instances < 1 || instances > 10_000) {
      throw new BadInputException("--instances must be between 1 and 10,000, was " + instances);
    }
    if (!(budgetSeconds > 0) || budgetSeconds > 3600) {
      throw new BadInputException("--budget must be between 0 and 3600 seconds, was " + budgetSeconds);
    }
    String leftSql = read(left.sql, left.file, "--left");
    String rightSql = read(right.sql, right.file, "--right");
    EquivalenceChecker.Builder b = EquivalenceChecker.builder().maxInstances(instances).seed(seed)
        .timeBudget(Duration.ofMillis((long) (budgetSeconds * 1000)));
    Connection connection = null;
    try {
      if (source.schema != null) {
        b.schema(read(null, source.schema, "--schema"));
      } else {
        connection = open(source.db);
        b.connection(connection);
      }
      EquivalenceResult r;
      try (EquivalenceChecker checker = b.build()) {
        r = checker.check(leftSql, rightSql);
      } catch (EquivalenceInputException e) {
        throw new BadInputException(e.getMessage(), e);
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(json ? CliJson.write(toJson(r)) : text(r));
      out.flush();
      return switch (r.verdict()) {
        case EQUIVALENT -> LakeRewriteCli.OK;
        case NOT_EQUIVALENT -> NOT_EQUIVALENT;
        case UNKNOWN -> UNKNOWN;
      };
    } finally {
      if (connection != null) {
        try {
          connection.close();
        } catch (SQLException ignored) {
          // Read-only: nothing to lose.
        }
      }
    }
  }

  private static String read(@Nullable String inline, @Nullable Path file, String option) {
    if (file == null) {
      if (inline.isBlank()) {
        throw new BadInputException(option + " is empty");
      }
      return inline;
    }
    if (!Files.isRegularFile(file)) {
      throw new BadInputException(option + (option.equals("--schema") ? " " : "-file ") + file + ": no such file");
    }
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new BadInputException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** The DuckDB file, read-only, without file or network access from SQL. */
  private static Connection open(Path db) {
    if (!Files.isRegularFile(db)) {
      throw new BadInputException("--db " + db + ": no such DuckDB database file");
    }
    Properties p = new Properties();
    p.setProperty("duckdb.read_only", "true");
    try {
      Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath(), p);
      try (Statement st = c.createStatement()) {
        st.execute("SET autoinstall_known_extensions=false");
        st.execute("SET autoload_known_extensions=false");
        st.execute("SET enable_external_access=false");
        st.execute("SET lock_configuration=true");
      }
      return c;
    } catch (SQLException e) {
      throw new BadInputException("--db " + db + ": cannot open it as a DuckDB database: "
          + e.getMessage().lines().findFirst().orElse("?"), e);
    }
  }

  static String text(EquivalenceResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append("-- verdict: ").append(r.verdict());
    if (r.verdict() == EquivalenceResult.Verdict.EQUIVALENT) {
      sb.append(r.proved() ? " (proved)" : " (on every instance tried)");
    }
    sb.append('\n').append("-- ").append(r.explanation()).append('\n');
    r.reason().ifPresent(reason -> sb.append("-- reason: ").append(reason).append('\n'));
    for (String note : r.notes()) {
      sb.append("-- note: ").append(note).append('\n');
    }
    EquivalenceEvidence e = r.evidence();
    sb.append(String.format(Locale.ROOT, "-- %d instance(s), %d rows compared, %d ms on %s%n", e.instancesTried(),
        e.rowsCompared(), e.elapsed().toMillis(), r.engine()));
    r.counterexample().ifPresent(c -> {
      sb.append("\n-- counterexample (").append(c.difference()).append("), ").append(c.rowCount())
          .append(" row(s)");
      if (c.rowsBeforeMinimising() >= 0) {
        sb.append(", shrunk from ").append(c.rowsBeforeMinimising());
      }
      sb.append(":\n").append(c.script());
      sb.append("\n-- left returns ").append(c.leftResult().rowCount()).append(" row(s):\n")
          .append(c.leftResult().preview(20)).append('\n');
      if (c.rightFailure().isPresent()) {
        sb.append("\n-- right fails: ").append(c.rightFailure().get()).append('\n');
      } else {
        sb.append("\n-- right returns ").append(c.rightResult().rowCount()).append(" row(s):\n")
            .append(c.rightResult().preview(20)).append('\n');
      }
    });
    return sb.toString().strip();
  }

  static Map<String, Object> toJson(EquivalenceResult r) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("verdict", r.verdict().name());
    o.put("proved", r.proved());
    o.put("explanation", r.explanation());
    o.put("reason", r.reason().orElse(null));
    o.put("nondeterministic", r.nondeterministic());
    o.put("notes", r.notes());
    o.put("counterexample", r.counterexample().map(VerifyCommand::counterexample).orElse(null));
    EquivalenceEvidence e = r.evidence();
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("instances", e.instancesTried());
    evidence.put("rows_compared", e.rowsCompared());
    evidence.put("elapsed_ms", e.elapsed().toMillis());
    evidence.put("ordered", e.ordered());
    evidence.put("limit_removed", e.limitRemoved());
    List<Map<String, Object>> checks = new ArrayList<>();
    for (InstanceCheck c : e.checks()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("instance", c.instance());
      m.put("equal", c.equivalent());
      m.put("detail", c.detail());
      m.put("left_rows", c.originalRows());
      m.put("right_rows", c.candidateRows());
      checks.add(m);
    }
    evidence.put("checks", checks);
    o.put("evidence", evidence);
    o.put("engine", r.engine());
    return o;
  }

  private static Map<String, Object> counterexample(Counterexample c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("instance", c.instance());
    m.put("difference", c.difference());
    m.put("script", c.script());
    m.put("create_statements", c.createStatements());
    m.put("insert_statements", c.insertStatements());
    m.put("rows", c.rows());
    m.put("row_count", c.rowCount());
    m.put("rows_before_minimising", c.rowsBeforeMinimising());
    m.put("left_result", CliJson.table(c.leftResult(), 100));
    m.put("right_result", c.rightFailure().isPresent() ? null : CliJson.table(c.rightResult(), 100));
    m.put("right_failure", c.rightFailure().orElse(null));
    return m;
  }
}
