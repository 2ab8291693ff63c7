package dev.lakerewrite.eval.tpc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The equivalence checker over the whole {@link EquivalenceCorpus} (TPC-H, both schemas, fit and held-out parts):
 * per kind of change, how many pairs and how they were judged; the survivors (mutants called equivalent) and any
 * equivalent pair called NOT_EQUIVALENT, by id; then check times. Run with {@code bin/bench eval-wikidbs
 * EquivalenceBenchmark [held-out|fit|all]}. The last line:
 * {@code summary: pairs=N rewrites=R proved=P mutants=M rejected=K rejected_rate=X false_not_equivalent=F
 * median_ms=Y p90_ms=Z} (rejected counts only counterexamples that re-run; proved counts EQUIVALENT verdicts,
 * syntactic proofs or every instance agreeing).
 */
public final class EquivalenceBenchmark {
  private EquivalenceBenchmark() {}

  public static void main(String[] args) throws Exception {
    String part = args.length > 0 ? args[0] : "all";
    List<EquivalenceCorpus.Pair> pairs = new ArrayList<>();
    for (EquivalenceCorpus.Pair p : EquivalenceCorpus.tpch()) {
      String only = System.getenv("ONLY_QUERY");
      if ((part.equals("all") || part.equals("held-out") == p.heldOut())
          && (only == null || p.query().equals(only))) {
        pairs.add(p);
      }
    }
    System.out.printf(Locale.ROOT, "corpus: %d pairs (%s part), TPC-H 22 queries, schemas tpch and tpch-nullable%n",
        pairs.size(), part);
    Map<String, CorpusRun.Tally> byKind = new TreeMap<>();
    CorpusRun.Tally total = new CorpusRun.Tally();
    List<Long> times = new ArrayList<>();
    long cpuStart = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    try (CorpusRun run = new CorpusRun()) {
      // Warm-up: the first checks pay for class loading and DuckDB's start.
      run.check(pairs.get(0));
      run.check(pairs.get(pairs.size() - 1));
      cpuStart = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
      for (EquivalenceCorpus.Pair p : pairs) {
        CorpusRun.Outcome o = run.check(p);
        times.add(o.nanos());
        total.add(o);
        byKind.computeIfAbsent(p.kind().replaceAll("^optimizer recipe .*", "optimizer recipe"),
            k -> new CorpusRun.Tally()).add(o);
      }
    }
    long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart;
    System.out.println("kind                                        pairs  equivalent-verdicts  rejected(confirmed)");
    byKind.forEach((k, t) -> System.out.printf(Locale.ROOT, "%-42s %6d  %19s  %s%n", k, t.rewrites + t.mutants,
        t.rewrites > 0 ? t.proved + "/" + t.rewrites : "-",
        t.mutants > 0 ? t.rejectedConfirmed + "/" + t.mutants : "-"));
    for (CorpusRun.Outcome o : total.falseNotEquivalent) {
      System.out.println("FALSE NOT_EQUIVALENT " + o.pair().id() + ": " + o.summary());
    }
    for (CorpusRun.Outcome o : total.survivors) {
      System.out.println("survivor " + o.pair().id() + ": " + o.verdict() + " — " + o.summary().lines().findFirst()
          .orElse(""));
      if (System.getenv("SHOW_SURVIVORS") != null) {
        System.out.println("  right: " + o.pair().right().replaceAll("\\s+", " "));
      }
    }
    for (CorpusRun.Outcome o : total.unconfirmed) {
      System.out.println("unconfirmed counterexample " + o.pair().id());
    }
    List<Long> sorted = new ArrayList<>(times);
    sorted.sort(null);
    double median = sorted.get(sorted.size() / 2) / 1e6;
    double p90 = sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.9) - 1)) / 1e6;
    System.out.printf(Locale.ROOT, "time: %d checks, wall %.1f s, CPU %.1f s (this thread), mean %.0f ms%n",
        times.size(), times.stream().mapToLong(Long::longValue).sum() / 1e9, cpu / 1e9,
        times.stream().mapToLong(Long::longValue).average().orElse(0) / 1e6);
    System.out.printf(Locale.ROOT, "summary: pairs=%d rewrites=%d proved=%d mutants=%d rejected=%d rejected_rate=%.3f "
        + "false_not_equivalent=%d median_ms=%.0f p90_ms=%.0f%n", pairs.size(), total.rewrites, total.proved,
        total.mutants, total.rejectedConfirmed, total.rejectedRate(), total.equivalentCalledNot, median, p90);
  }
}
