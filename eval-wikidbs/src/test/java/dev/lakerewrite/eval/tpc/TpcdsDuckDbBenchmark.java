package dev.lakerewrite.eval.tpc;

import dev.lakerewrite.core.Engine;

/**
 * The optimizer on TPC-DS at scale factor 1 on DuckDB: one row per query (original ms, returned ms, speedup, verdict,
 * winning recipe), the returned query checked independently of the optimizer, and the summary line. Run:
 * {@code bin/bench eval-wikidbs TpcdsDuckDbBenchmark}; options {@code -Dsf=0.1}, {@code -Dqueries=q2,q17},
 * {@code -Dlimit=SECONDS} (per run, default 300), {@code -Druns=N} (timed pairs re-timing a returned query, default 10), given through
 * {@code BENCH_JAVA_OPTS}.
 */
public final class TpcdsDuckDbBenchmark {
  private TpcdsDuckDbBenchmark() {}

  public static void main(String[] args) throws Exception {
    BenchmarkRun.main(TpcBenchmark.TPCDS, Engine.DUCKDB, 300);
  }
}
