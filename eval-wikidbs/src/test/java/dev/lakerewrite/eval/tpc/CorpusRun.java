package dev.lakerewrite.eval.tpc;

import dev.lakerewrite.core.equivalence.Counterexample;
import dev.lakerewrite.core.equivalence.EquivalenceChecker;
import dev.lakerewrite.core.equivalence.EquivalenceInputException;
import dev.lakerewrite.core.equivalence.EquivalenceResult;
import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the equivalence checker over pairs of the {@link EquivalenceCorpus} (one checker per schema, built from its
 * DDL alone: no data) and re-runs every counterexample: both queries on the counterexample's database, in a fresh
 * DuckDB, must return different multisets of rows.
 */
final class CorpusRun implements AutoCloseable {
  /** What happened to one pair. */
  record Outcome(EquivalenceCorpus.Pair pair, Verdict verdict, boolean proved, boolean confirmed, long nanos,
      int counterexampleRows, String summary, int instances, int nonEmpty, boolean outOfTime, long cpuNanos) {}

  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  private final Map<String, EquivalenceChecker> checkers = new HashMap<>();

  Outcome check(EquivalenceCorpus.Pair p) {
    EquivalenceChecker checker = checkers.computeIfAbsent(p.schemaName(),
        k -> EquivalenceChecker.builder().schema(p.schema()).build());
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

  /** Whether the two queries return different multisets of rows on the counterexample's database. */
  static boolean differs(Counterexample ce, String left, String right) {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      for (String s : ce.createStatements()) {
        st.execute(s);
      }
      for (String s : ce.insertStatements()) {
        st.execute(s);
      }
      return !multiset(st, left).equals(multiset(st, right));
    } catch (SQLException e) {
      return false;
    }
  }

  private static Map<String, Integer> multiset(Statement st, String sql) throws SQLException {
    Map<String, Integer> rows = new LinkedHashMap<>();
    try (ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          sb.append(rs.getString(i)).append('|');
        }
        rows.merge(sb.toString(), 1, Integer::sum);
      }
    }
    return new HashMap<>(rows);
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
  }
}
