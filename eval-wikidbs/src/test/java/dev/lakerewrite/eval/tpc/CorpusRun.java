package dev.lakerewrite.eval.tpc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.equivalence.Counterexample;
import dev.lakerewrite.core.equivalence.EquivalenceChecker;
import dev.lakerewrite.core.equivalence.EquivalenceInputException;
import dev.lakerewrite.core.equivalence.EquivalenceResult;
import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the equivalence checker over pairs of the {@link EquivalenceCorpus} (one checker per schema, built from its
 * DDL alone: no data; or, with a data scale, on a database of that schema holding the benchmark's generated rows at
 * that scale factor, as a user checking against their own database does) and re-runs every counterexample: both
 * queries on the counterexample's database, in a fresh DuckDB, must return different multisets of rows, or the same rows
 * in orders that differ on the left query's ORDER BY keys.
 */
final class CorpusRun implements AutoCloseable {
  /** What happened to one pair. */
  record Outcome(EquivalenceCorpus.Pair pair, Verdict verdict, boolean proved, boolean confirmed, long nanos,
      int counterexampleRows, String summary, int instances, int nonEmpty, boolean outOfTime, long cpuNanos) {}

  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  private final Map<String, EquivalenceChecker> checkers = new HashMap<>();
  private final List<Connection> databases = new ArrayList<>();
  private final double dataScale;

  /** Checkers built from the schemas' DDL alone. */
  CorpusRun() {
    this(0);
  }

  /**
   * Checkers built on a database of each schema holding the benchmark's rows at this scale factor (0: the DDL
   * alone, no data). A schema that declares every column NOT NULL gets only the generated rows without NULLs.
   */
  CorpusRun(double dataScale) {
    if (dataScale < 0) {
      throw new IllegalArgumentException("dataScale must be 0 (no data) or positive, was " + dataScale);
    }
    this.dataScale = dataScale;
  }

  Outcome check(EquivalenceCorpus.Pair p) {
    EquivalenceChecker checker = checkers.computeIfAbsent(p.schemaName(), k -> checker(p));
    long start = System.nanoTime();
    long cpuStart = THREADS.getCurrentThreadCpuTime();
    EquivalenceResult r;
    try {
      r = checker.check(p.left(), p.right());
    } catch (EquivalenceInputException e) {
      return new Outcome(p, Verdict.UNKNOWN, false, false, System.nanoTime() - start, 0,
          "bad input: " + e.getMessage(), 0, 0, false, THREADS.getCurrentThreadCpuTime() - cpuStart);
    }
    long nanos = System.nanoTime() - start;
    // CPU time of this thread (DuckDB runs each query on the calling thread: threads=1): what the check costs,
    // whatever other processes take of the machine.
    long cpuNanos = THREADS.getCurrentThreadCpuTime() - cpuStart;
    boolean confirmed = false;
    int rows = 0;
    if (r.counterexample().isPresent()) {
      Counterexample ce = r.counterexample().get();
      rows = ce.rowCount();
      confirmed = differs(ce, p.left(), p.right());
    }
    // Instances compared, and those where either query returned a row (an instance where both return nothing
    // cannot tell a filter's mutant from the original).
    var checks = r.evidence().checks();
    int nonEmpty = (int) checks.stream().filter(c -> c.originalRows() > 0 || c.candidateRows() > 0).count();
    // Whether the time budget (a safety net) stopped the instances before their count: then the verdict
    // depends on the machine's load.
    boolean outOfTime = r.notes().stream().anyMatch(n -> n.startsWith(EquivalenceChecker.TIME_BUDGET_NOTE));
    return new Outcome(p, r.verdict(), r.proved(), confirmed, nanos, rows, r.summary(), checks.size(), nonEmpty,
        outOfTime, cpuNanos);
  }

  private EquivalenceChecker checker(EquivalenceCorpus.Pair p) {
    if (dataScale == 0) {
      return EquivalenceChecker.builder().schema(p.schema()).build();
    }
    TpcBenchmark benchmark = p.schemaName().contains("tpcds") ? TpcBenchmark.TPCDS : TpcBenchmark.TPCH;
    try {
      String file = benchmark.cachedDuckDb(dataScale).toAbsolutePath().toString();
      Connection c = DriverManager.getConnection("jdbc:duckdb:");
      databases.add(c);
      try (Statement st = c.createStatement()) {
        for (String ddl : p.schema().split(";\\s*\\n")) {
          if (!ddl.isBlank()) {
            st.execute(ddl);
          }
        }
        st.execute("ATTACH '" + file.replace("'", "''") + "' AS generated (READ_ONLY)");
        boolean strict = !p.schemaName().endsWith("-nullable");
        for (String table : benchmark.tables()) {
          // Rows with a NULL cannot go into a table whose columns are all NOT NULL: those are left out.
          st.execute("INSERT INTO main." + table + " SELECT * FROM generated.main." + table
              + (strict ? " WHERE COLUMNS(*) IS NOT NULL" : ""));
        }
        st.execute("DETACH generated");
      }
      return EquivalenceChecker.builder().connection(c).build();
    } catch (SQLException | java.io.IOException e) {
      throw new IllegalStateException("cannot build the " + p.schemaName() + " database at scale factor "
          + dataScale + ": " + e.getMessage(), e);
    }
  }

  /**
   * Whether the two queries return different multisets of rows on the counterexample's database, or the right one
   * fails there where the left one answers.
   */
  static boolean differs(Counterexample ce, String left, String right) {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      for (String s : ce.createStatements()) {
        st.execute(s);
      }
      for (String s : ce.insertStatements()) {
        st.execute(s);
      }
      Map<String, Integer> leftRows = multiset(st, left);
      try {
        return !leftRows.equals(multiset(st, right)) || orderDiffers(c, st, left, right);
      } catch (SQLException e) {
        // The right query fails where the left one answers (the checker's counterexample says with what).
        return ce.rightFailure().isPresent();
      }
    } catch (SQLException e) {
      return false;
    }
  }

  /**
   * Whether the two answers, the same rows, come in orders that differ on the left query's ORDER BY keys (ties may
   * come in any order): the keys, when they name output columns, are read from each answer in its order (DuckDB
   * keeps a subquery's order through a projection).
   */
  private static boolean orderDiffers(Connection c, Statement st, String left, String right) {
    try {
      Trees trees = new Trees(SqlParser.on(c));
      JsonNode order = Trees.orderModifier(trees.statement(left).path("node"));
      if (order == null) {
        return false;
      }
      List<String> keys = new ArrayList<>();
      order.path("orders").forEach(o -> keys.add(trees.expression(o.path("expression"))));
      String select = "SELECT " + String.join(", ", keys) + " FROM (%s) AS answer";
      return !sequence(st, select.formatted(left)).equals(sequence(st, select.formatted(right)));
    } catch (SQLException | RuntimeException e) {
      return false; // keys that are not output columns (or a position): not confirmed
    }
  }

  private static List<String> sequence(Statement st, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          sb.append(rs.getString(i)).append('|');
        }
        rows.add(sb.toString());
      }
    }
    return rows;
  }

  private static Map<String, Integer> multiset(Statement st, String sql) throws SQLException {
    Map<String, Integer> rows = new HashMap<>();
    sequence(st, sql).forEach(row -> rows.merge(row, 1, Integer::sum));
    return rows;
  }

  /** Figures over outcomes: per kind and in total. */
  static final class Tally {
    int rewrites;
    int proved;
    int equivalentCalledNot;
    int mutants;
    int rejected;
    int rejectedConfirmed;
    final List<Outcome> survivors = new ArrayList<>();
    final List<Outcome> falseNotEquivalent = new ArrayList<>();
    final List<Outcome> unconfirmed = new ArrayList<>();
    /** Pairs made as mutants that the checker proved equivalent (equal normal forms): not counted as mutants. */
    final List<Outcome> provedEquivalent = new ArrayList<>();
    /** Checks the time budget stopped before their instance count (their verdict depends on the load). */
    int outOfTime;

    void add(Outcome o) {
      if (o.outOfTime()) {
        outOfTime++;
      }
      if (o.pair().expected() == EquivalenceCorpus.Expected.EQUIVALENT) {
        rewrites++;
        if (o.verdict() == Verdict.EQUIVALENT) {
          proved++;
        } else if (o.verdict() == Verdict.NOT_EQUIVALENT) {
          equivalentCalledNot++;
          falseNotEquivalent.add(o);
        }
      } else if (o.verdict() == Verdict.EQUIVALENT && o.proved()) {
        // Equivalent after all, by a proof (equal normal forms: every step of the normal form preserves meaning),
        // not by instances: no mutant, so no miss (TPC-DS q11's CASE WHEN year_total >= 0 beside the conjunct
        // year_total > 0). Listed by the benchmark, so that the proofs can be read.
        provedEquivalent.add(o);
      } else {
        mutants++;
        if (o.verdict() == Verdict.NOT_EQUIVALENT) {
          rejected++;
          if (o.confirmed()) {
            rejectedConfirmed++;
          } else {
            unconfirmed.add(o);
          }
        } else {
          survivors.add(o);
        }
      }
    }

    /** Mutants rejected with a counterexample that re-runs, over all mutants. */
    double rejectedRate() {
      return mutants == 0 ? 1.0 : (double) rejectedConfirmed / mutants;
    }
  }

  @Override
  public void close() {
    checkers.values().forEach(EquivalenceChecker::close);
    for (Connection c : databases) {
      try {
        c.close();
      } catch (SQLException e) {
        // nothing left to lose: the run is over
      }
    }
  }
}
