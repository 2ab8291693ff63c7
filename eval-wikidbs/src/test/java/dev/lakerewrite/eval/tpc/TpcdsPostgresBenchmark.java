package dev.lakerewrite.eval.tpc;

import dev.lakerewrite.core.Engine;

/**
 * The optimizer on TPC-DS at scale factor 1 on PostgreSQL: one row per query (original ms, returned ms, speedup, verdict,
 * winning recipe), the returned query checked independently of the optimizer, and the summary line. Run:
 * {@code bin/bench eval-wikidbs TpcdsPostgresBenchmark}; options {@code -Dsf=0.1}, {@code -Dqueries=q2,q17},
 * {@code -Dlimit=SECONDS} (per run, default 300, as E3-Rewrite and QUITE), {@code -Druns=N} (timed pairs re-timing a returned query, default 3),
 * {@code -Dbudget=SECONDS} (the optimizer's time per query for trying candidates, default 300), given through
 * {@code BENCH_JAVA_OPTS}. All 103 queries with {@code -Dlimit=20 -Druns=2} take about two hours on a busy 2-core
 * machine; {@code -Dbudget=60} bounds the candidates' share, and {@code -Dqueries=} runs a part.
 */
public final class TpcdsPostgresBenchmark {
  private TpcdsPostgresBenchmark() {}

  public static void main(String[] args) throws Exception {
    BenchmarkRun.main(TpcBenchmark.TPCDS, Engine.POSTGRESQL, 300);
  }
}
