package dev.lakerewrite.core.optimize;

import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.SafeExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The optimizer on TPC-H (offline: rules, hints, demonstrations). Per query: the original's time, the best
 * rewrite's time, the speedup, the candidates and their verdicts; overall: the geometric-mean speedup of what is
 * returned, queries improved at least 1.10x, returned rewrites that turn out slower when timed again independently
 * (goal 0), and equivalence failures caught.
 *
 * <p>Run: {@code mvn -B -q -pl core test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.lakerewrite.core.optimize.TpchOptimizerBenchmark -Dtpch.sf=1}. Properties: {@code tpch.sf}
 * (default 1; below 0.1 in memory, else a database file under {@code target/tpch/} generated once),
 * {@code tpch.queries} (e.g. {@code 2,17,20}), {@code tpch.report} (a file for the detailed report).
 */
public final class TpchOptimizerBenchmark {
  private TpchOptimizerBenchmark() {}

  public static void main(String[] args) throws Exception {
    double sf = Double.parseDouble(System.getProperty("tpch.sf", "1"));
    List<Integer> queries = new ArrayList<>();
    String only = System.getProperty("tpch.queries", "");
    if (only.isBlank()) {
      for (int i = 1; i <= 22; i++) {
        queries.add(i);
      }
    } else {
      for (String s : only.split(",")) {
        queries.add(Integer.parseInt(s.strip()));
      }
    }
    // exec:java runs in the directory Maven was started from: write under core/target either way.
    Path target = Files.isDirectory(Path.of("core", "target")) ? Path.of("core", "target") : Path.of("target");
    Path report = Path.of(System.getProperty("tpch.report",
        target.resolve("tpch-optimizer-sf" + fmt(sf) + ".txt").toString()));
    long t0 = System.nanoTime();
    Connection c = sf < 0.1 ? Tpch.inMemory(sf)
        : Tpch.file(target.resolve("tpch").resolve("sf" + fmt(sf) + ".duckdb"), sf);
    System.out.printf(Locale.ROOT, "TPC-H SF %s ready in %.1f s%n", fmt(sf), (System.nanoTime() - t0) / 1e9);
    Optimizer optimizer = Optimizer.builder().queryTimeout(Duration.ofSeconds(120)).build();
    StringBuilder details = new StringBuilder();
    List<String> rows = new ArrayList<>();
    double logSum = 0;
    int improved = 0;
    int regressions = 0;
    int caught = 0;
    int totalCandidates = 0;
    for (int q : queries) {
      String sql = Tpch.query(q);
      long start = System.nanoTime();
      OptimizeResult r = optimizer.optimize(sql, c);
      double seconds = (System.nanoTime() - start) / 1e9;
      Map<CandidateVerdict, Long> counts = r.verdictCounts();
      caught += counts.getOrDefault(CandidateVerdict.NOT_EQUIVALENT, 0L);
      totalCandidates += r.candidates().size();
      double originalMs = r.originalTime().map(Timing::millis).orElse(Double.NaN);
      double bestMs = Double.NaN;
      double speedup = 1.0;
      String recheck = "";
      if (r.improved()) {
        improved += r.speedup() >= 1.10 ? 1 : 0;
        speedup = r.speedup();
        bestMs = r.chosen().orElseThrow().timing().map(Timing::millis).orElse(Double.NaN);
        double independent = independentSpeedup(c, sql, r.sql());
        recheck = String.format(Locale.ROOT, " recheck %.2fx", independent);
        if (independent < 1.0) {
          regressions++;
        }
      } else if (Double.isNaN(originalMs)) {
        originalMs = timeTrimmed(c, sql);
      }
      logSum += Math.log(speedup);
      String best = r.candidates().stream().filter(x -> x.speedup() > 0)
          .max(java.util.Comparator.comparingDouble(OptimizationCandidate::speedup))
          .map(x -> String.format(Locale.ROOT, "%s %.2fx", x.label(), x.speedup())).orElse("-");
      String row = String.format(Locale.ROOT, "%s | %9.1f | %9s | %6.2fx | %-8s | %2d | %s | best tried: %s%s | %.0f s",
          Tpch.label(q), originalMs, Double.isNaN(bestMs) ? "-" : String.format(Locale.ROOT, "%.1f", bestMs), speedup,
          r.improved() ? "rewrite" : "original", r.candidates().size(), verdicts(counts), best, recheck, seconds);
      rows.add(row);
      System.out.println(row);
      details.append("==== ").append(Tpch.label(q)).append(": ").append(r.summary()).append('\n');
      if (r.improved()) {
        details.append("returned:\n").append(r.sql()).append('\n');
      }
    }
    double geomean = Math.exp(logSum / queries.size());
    StringBuilder table = new StringBuilder();
    table.append(String.format(Locale.ROOT, "%nTPC-H SF %s, DuckDB, offline optimizer (rules + hints)%n", fmt(sf)));
    table.append("query | orig ms   | best ms   | speedup | returned | #c | verdicts (NX/NE/SL/NG/FA) | best candidate | time\n");
    rows.forEach(r -> table.append(r).append('\n'));
    table.append(String.format(Locale.ROOT, "geometric-mean speedup of returned queries: %.3fx%n", geomean));
    table.append(String.format(Locale.ROOT, "queries improved >= 1.10x: %d of %d%n", improved, queries.size()));
    table.append(String.format(Locale.ROOT, "returned rewrites slower on an independent re-timing: %d%n", regressions));
    table.append(String.format(Locale.ROOT, "candidates: %d; equivalence failures caught: %d%n", totalCandidates, caught));
    System.out.print(table);
    Files.createDirectories(report.toAbsolutePath().getParent());
    Files.writeString(report, table + "\n" + details);
    System.out.println("details: " + report.toAbsolutePath());
    c.close();
  }

  private static String verdicts(Map<CandidateVerdict, Long> counts) {
    return String.format(Locale.ROOT, "%d/%d/%d/%d/%d", counts.getOrDefault(CandidateVerdict.NOT_EXECUTABLE, 0L),
        counts.getOrDefault(CandidateVerdict.NOT_EQUIVALENT, 0L), counts.getOrDefault(CandidateVerdict.SLOWER, 0L),
        counts.getOrDefault(CandidateVerdict.NEGLIGIBLE, 0L), counts.getOrDefault(CandidateVerdict.FASTER, 0L));
  }

  /** Original vs rewrite, 7 alternating runs each after a warm-up: an independent check, timed afresh. */
  static double independentSpeedup(Connection c, String original, String rewrite) {
    SafeExecutor ex = SafeExecutor.on(c);
    QueryLimits limits = new QueryLimits(Duration.ofSeconds(300), 2_000_000);
    ex.execute(original, limits);
    ex.execute(rewrite, limits);
    List<Duration> o = new ArrayList<>();
    List<Duration> r = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      if (i % 2 == 0) {
        o.add(ex.execute(original, limits).elapsed());
        r.add(ex.execute(rewrite, limits).elapsed());
      } else {
        r.add(ex.execute(rewrite, limits).elapsed());
        o.add(ex.execute(original, limits).elapsed());
      }
    }
    // The same conservative estimate the optimizer uses, on fresh runs.
    return new Verifier.TimedPair(Timing.of(o, false), Timing.of(r, false)).speedup();
  }

  /** One warm-up, five runs, trimmed mean: how the optimizer times, for queries no candidate was timed against. */
  private static double timeTrimmed(Connection c, String sql) {
    SafeExecutor ex = SafeExecutor.on(c);
    QueryLimits limits = new QueryLimits(Duration.ofSeconds(300), 2_000_000);
    ex.execute(sql, limits);
    List<Duration> runs = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      runs.add(ex.execute(sql, limits).elapsed());
    }
    return Timing.of(runs, false).millis();
  }

  private static String fmt(double sf) {
    return sf == Math.rint(sf) ? String.valueOf((long) sf) : String.valueOf(sf);
  }
}
