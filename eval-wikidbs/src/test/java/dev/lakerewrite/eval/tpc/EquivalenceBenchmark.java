package dev.lakerewrite.eval.tpc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The equivalence checker over the {@link EquivalenceCorpus} (TPC-H and TPC-DS, strict and nullable schemas, fit
 * and held-out parts): per kind of change, how many pairs and how they were judged; the survivors of the fit part
 * (mutants called equivalent) by id — a held-out part's survivors are only counted, so that it stays unlooked-at
 * (set {@code SHOW_HELD_OUT_SURVIVORS} to list them too); any equivalent pair called NOT_EQUIVALENT, by id; then
 * check times. Run with {@code bin/bench eval-wikidbs EquivalenceBenchmark [all|fit|held-out]
 * [tpch|tpcds|both|gen-tpch|gen-tpcds|battery|battery-tpch|battery-tpcds|shapes]} (defaults: all, both; a comma list
 * runs several). {@code battery} is the {@linkplain EquivalenceCorpus#battery development battery}; {@code battery-tpch} and
 * {@code battery-tpcds} are {@linkplain EquivalenceCorpus#batteryMutants mutants of its left queries}, split into fit
 * and held-out parts like the standard queries ({@code TPCDS_PAIRS} per query and schema, 6 unless set); {@code shapes}
 * are {@linkplain EquivalenceCorpus#shapes mutants of own reporting queries} (development data). {@code gen-tpch} and {@code gen-tpcds} are
 * {@link EquivalenceCorpus#generated generated queries} over the benchmark's tables ({@code GEN_SEED}, default 1;
 * {@code GEN_COUNT} queries, default 60). One {@code summary:} line per benchmark, then the last line, over everything run:
 * {@code summary: pairs=N rewrites=R proved=P mutants=M rejected=K rejected_rate=X false_not_equivalent=F
 * median_ms=Y p90_ms=Z max_ms=W out_of_time=T median_cpu_ms=C mutants_proved_equivalent=E} (rejected counts only
 * counterexamples that re-run; mutants_proved_equivalent counts pairs made as mutants that the checker proved
 * equivalent by equal normal forms, which are not counted as mutants;
 * proved counts EQUIVALENT verdicts, syntactic proofs or every instance agreeing; out_of_time counts checks the
 * checker's time budget, a safety net, stopped before their instance count: the counts depend on the machine's
 * load only through those; median_cpu_ms is the median of the checking thread's CPU time per check, which DuckDB's
 * queries, run on that thread, are part of: what a check costs, much less sensitive to the load than its wall
 * time). {@code ONLY_QUERY=tpcds/q7,tpcds/q9} runs those queries' pairs, {@code ONLY_KIND=DISTINCT added,predicate
 * dropped} the pairs of those kinds, {@code ONLY_PAIRS=<id>,<id>} the pairs of those ids (a part's survivors again); {@code TPCDS_PAIRS=all} (or a number) keeps that many TPC-DS pairs per query
 * and schema instead of the corpus's sample (the fit queries' other pairs are further development data); {@code EVERY_NTH_PAIR=10} every tenth pair of the
 * part (a quick sample for profiling, not for the figures); {@code PAIR_SLICE=1/2} the pairs whose index in their
 * benchmark's part is 1 modulo 2 (two processes run the two halves side by side); {@code CHECK_TIMES=1} prints each
 * check's wall and CPU milliseconds ({@code check <benchmark> <id> <ms> <cpu ms>}), so that the halves' medians
 * can be taken together; {@code LIST_PAIRS=1} prints the selected pairs' two queries and checks none; {@code
 * MUTANT_SITES=middle} makes the mutants at the sites between each operator's first and last instead of those two
 * (development data on the fit queries, see {@link EquivalenceCorpus}). {@code DATA_SCALE=0.01} builds each checker on a database of the pair's schema holding the
 * benchmark's rows at that scale factor ({@link CorpusRun#CorpusRun(double)}): the checker then also compares the
 * two queries on that data, as {@code verify --db} and the optimizer do; without it, the checkers see the DDL alone.
 */
public final class EquivalenceBenchmark {
  private EquivalenceBenchmark() {}

  public static void main(String[] args) throws Exception {
    String part = args.length > 0 ? args[0] : "all";
    String which = args.length > 1 ? args[1] : "both";
    List<String> sources = List.of(which.equals("both") ? new String[] {"tpch", "tpcds"} : which.split(","));
    if (!List.of("all", "fit", "held-out").contains(part)
        || !List.of("tpch", "tpcds", "gen-tpch", "gen-tpcds", "battery", "battery-tpch", "battery-tpcds", "shapes")
            .containsAll(sources)) {
      throw new IllegalArgumentException("usage: EquivalenceBenchmark [all|fit|held-out] "
          + "[tpch|tpcds|both|gen-tpch|gen-tpcds|battery|battery-tpch|battery-tpcds|shapes, or a comma list], was "
          + String.join(" ", args));
    }
    long seed = Long.parseLong(System.getenv().getOrDefault("GEN_SEED", "1"));
    int count = Integer.parseInt(System.getenv().getOrDefault("GEN_COUNT", "60"));
    String tpcdsPairs = System.getenv().getOrDefault("TPCDS_PAIRS", String.valueOf(EquivalenceCorpus.TPCDS_PAIRS));
    Map<String, List<EquivalenceCorpus.Pair>> byBenchmark = new LinkedHashMap<>();
    for (String source : sources) {
      List<EquivalenceCorpus.Pair> corpus = switch (source) {
        case "tpch" -> EquivalenceCorpus.tpch();
        case "tpcds" -> EquivalenceCorpus.tpcds(tpcdsPairs.equals("all") ? Integer.MAX_VALUE
            : Integer.parseInt(tpcdsPairs));
        case "gen-tpch" -> EquivalenceCorpus.generated(TpcBenchmark.TPCH, seed, count);
        case "battery" -> EquivalenceCorpus.battery();
        case "battery-tpch", "battery-tpcds" -> EquivalenceCorpus.batteryMutants(source.equals("battery-tpch"),
            tpcdsPairs.equals("all") ? Integer.MAX_VALUE : Integer.parseInt(tpcdsPairs));
        case "shapes" -> EquivalenceCorpus.shapes(tpcdsPairs.equals("all") ? Integer.MAX_VALUE
            : Integer.parseInt(tpcdsPairs));
        default -> EquivalenceCorpus.generated(TpcBenchmark.TPCDS, seed, count);
      };
      byBenchmark.put(source.startsWith("gen-") ? source + "-s" + seed : source, select(corpus, part));
    }
    List<EquivalenceCorpus.Pair> pairs = new ArrayList<>();
    byBenchmark.values().forEach(pairs::addAll);
    System.out.printf(Locale.ROOT, "corpus: %d pairs (%s part): %s%n", pairs.size(), part,
        byBenchmark.entrySet().stream().map(e -> e.getKey() + " " + e.getValue().size()).toList());
    boolean showHeldOut = System.getenv("SHOW_HELD_OUT_SURVIVORS") != null;
    if (System.getenv("LIST_PAIRS") != null) { // the pairs' texts, without checking them (held-out ones withheld)
      for (EquivalenceCorpus.Pair p : pairs) {
        if (!p.heldOut() || showHeldOut) {
          System.out.println("pair " + p.id() + "\n  left: " + p.left().replaceAll("\\s+", " ")
              + "\n  right: " + p.right().replaceAll("\\s+", " "));
        }
      }
      return;
    }
    Map<String, CorpusRun.Tally> byKind = new TreeMap<>();
    Map<String, CorpusRun.Tally> tallies = new LinkedHashMap<>();
    Map<String, List<Long>> times = new LinkedHashMap<>();
    Map<String, List<Long>> cpuTimes = new LinkedHashMap<>();
    List<Long> allCpu = new ArrayList<>();
    CorpusRun.Tally total = new CorpusRun.Tally();
    Map<EquivalenceCorpus.Pair, CorpusRun.Outcome> outcomes = new java.util.HashMap<>();
    List<Long> allTimes = new ArrayList<>();
    var threads = java.lang.management.ManagementFactory.getThreadMXBean();
    long cpuStart;
    long wallStart;
    double dataScale = Double.parseDouble(System.getenv().getOrDefault("DATA_SCALE", "0"));
    System.out.println(dataScale == 0 ? "checkers: the schemas' DDL alone, no data"
        : "checkers: databases of the schemas holding the benchmark's rows at scale factor " + dataScale);
    try (CorpusRun run = new CorpusRun(dataScale)) {
      // Warm-up: the first checks pay for class loading and DuckDB's start.
      run.check(pairs.get(0));
      run.check(pairs.get(pairs.size() - 1));
      cpuStart = threads.getCurrentThreadCpuTime();
      wallStart = System.nanoTime();
      for (Map.Entry<String, List<EquivalenceCorpus.Pair>> e : byBenchmark.entrySet()) {
        CorpusRun.Tally tally = tallies.computeIfAbsent(e.getKey(), k -> new CorpusRun.Tally());
        List<Long> mine = times.computeIfAbsent(e.getKey(), k -> new ArrayList<>());
        List<Long> mineCpu = cpuTimes.computeIfAbsent(e.getKey(), k -> new ArrayList<>());
        for (EquivalenceCorpus.Pair p : e.getValue()) {
          CorpusRun.Outcome o = run.check(p);
          outcomes.put(p, o);
          if (System.getenv("CHECK_TIMES") != null) {
            System.out.printf(Locale.ROOT, "check %s %s %.1f %.1f%n", e.getKey(), p.id(), o.nanos() / 1e6,
                o.cpuNanos() / 1e6);
          }
          mine.add(o.nanos());
          allTimes.add(o.nanos());
          mineCpu.add(o.cpuNanos());
          allCpu.add(o.cpuNanos());
          total.add(o);
          tally.add(o);
          byKind.computeIfAbsent(p.kind().replaceAll("^optimizer recipe .*", "optimizer recipe"),
              k -> new CorpusRun.Tally()).add(o);
          if (allTimes.size() % 50 == 0) {
            System.err.printf(Locale.ROOT, "%d of %d pairs checked (%.0f s)%n", allTimes.size(), pairs.size(),
                (System.nanoTime() - wallStart) / 1e9);
          }
        }
      }
    }
    long cpu = threads.getCurrentThreadCpuTime() - cpuStart;
    long wall = System.nanoTime() - wallStart;
    System.out.println("kind                                        pairs  equivalent-verdicts  rejected(confirmed)");
    byKind.forEach((k, t) -> System.out.printf(Locale.ROOT, "%-42s %6d  %19s  %s%n", k, t.rewrites + t.mutants,
        t.rewrites > 0 ? t.proved + "/" + t.rewrites : "-",
        t.mutants > 0 ? t.rejectedConfirmed + "/" + t.mutants : "-"));
    for (CorpusRun.Outcome o : total.falseNotEquivalent) {
      System.out.println("FALSE NOT_EQUIVALENT " + o.pair().id() + ": " + o.summary());
    }
    int hidden = 0;
    for (CorpusRun.Outcome o : total.survivors) {
      if (o.pair().heldOut() && !showHeldOut) {
        hidden++;
        continue;
      }
      System.out.println("survivor " + o.pair().id() + ": " + o.verdict() + " (non-empty on " + o.nonEmpty() + " of "
          + o.instances() + " instances) — " + o.summary().lines().findFirst().orElse(""));
      if (System.getenv("SHOW_SURVIVORS") != null) {
        System.out.println("  right: " + o.pair().right().replaceAll("\\s+", " "));
      }
    }
    if (!total.survivors.isEmpty()) {
      long blind = total.survivors.stream().filter(o -> o.nonEmpty() == 0).count();
      long few = total.survivors.stream().filter(o -> o.nonEmpty() > 0 && o.nonEmpty() <= 2).count();
      System.out.printf(Locale.ROOT, "survivors: %d, of which %d saw no row on either side on any instance, %d a row "
          + "on 1-2 instances%n", total.survivors.size(), blind, few);
    }
    if (hidden > 0) {
      System.out.println(hidden + " held-out survivor(s), not listed (the held-out part stays unlooked-at)");
    }
    for (CorpusRun.Outcome o : total.provedEquivalent) {
      System.out.println("mutant proved equivalent (equal normal forms), not counted as a mutant: "
          + (o.pair().heldOut() && !showHeldOut ? "(held out)" : o.pair().id()));
    }
    for (CorpusRun.Outcome o : total.unconfirmed) {
      System.out.println("unconfirmed counterexample " + o.pair().id());
      if (System.getenv("SHOW_SURVIVORS") != null && (!o.pair().heldOut() || showHeldOut)) {
        System.out.println("  " + o.summary().replace("\n", "\n  "));
        System.out.println("  right: " + o.pair().right().replaceAll("\\s+", " "));
      }
    }
    System.out.printf(Locale.ROOT, "time: %d checks, wall %.1f s, CPU %.1f s (this thread), mean %.0f ms%n",
        allTimes.size(), wall / 1e9, cpu / 1e9,
        allTimes.stream().mapToLong(Long::longValue).average().orElse(0) / 1e6);
    for (Map.Entry<String, CorpusRun.Tally> e : tallies.entrySet()) {
      summary(e.getKey() + " ", byBenchmark.get(e.getKey()).size(), e.getValue(), times.get(e.getKey()),
          cpuTimes.get(e.getKey()));
    }
    summary("", pairs.size(), total, allTimes, allCpu);
    if (byBenchmark.containsKey("tpcds") && !part.equals("fit")) {
      // The sample EquivalenceCorpusTest checks, as counts only.
      CorpusRun.Tally sample = new CorpusRun.Tally();
      List<Long> sampleTimes = new ArrayList<>();
      List<Long> sampleCpu = new ArrayList<>();
      for (EquivalenceCorpus.Pair p : EquivalenceCorpusTest.heldOut(byBenchmark.get("tpcds"),
          EquivalenceCorpusTest.TPCDS_SAMPLE)) {
        sample.add(outcomes.get(p));
        sampleTimes.add(outcomes.get(p).nanos());
        sampleCpu.add(outcomes.get(p).cpuNanos());
      }
      summary("tpcds test-sample ", sampleTimes.size(), sample, sampleTimes, sampleCpu);
    }
  }

  private static List<EquivalenceCorpus.Pair> select(List<EquivalenceCorpus.Pair> corpus, String part) {
    String only = System.getenv("ONLY_QUERY");
    String kinds = System.getenv("ONLY_KIND");
    String ids = System.getenv("ONLY_PAIRS");
    int every = Integer.parseInt(System.getenv().getOrDefault("EVERY_NTH_PAIR", "1"));
    List<EquivalenceCorpus.Pair> out = new ArrayList<>();
    for (EquivalenceCorpus.Pair p : corpus) {
      if ((part.equals("all") || part.equals("held-out") == p.heldOut()) && (only == null
          || List.of(only.split(",")).contains(p.query())) && (kinds == null
          || List.of(kinds.split(",")).contains(p.kind())) && (ids == null
          || List.of(ids.split(",")).contains(p.id()))) {
        out.add(p);
      }
    }
    String slice = System.getenv().getOrDefault("PAIR_SLICE", "0/1");
    int k = Integer.parseInt(slice.substring(0, slice.indexOf('/')));
    int n = Integer.parseInt(slice.substring(slice.indexOf('/') + 1));
    if (every > 1 || n > 1) {
      List<EquivalenceCorpus.Pair> sampled = new ArrayList<>();
      for (int i = 0; i < out.size(); i += every) {
        if (i % n == k) {
          sampled.add(out.get(i));
        }
      }
      return sampled;
    }
    return out;
  }

  private static void summary(String label, int pairs, CorpusRun.Tally t, List<Long> times, List<Long> cpu) {
    if (times.isEmpty()) {
      System.out.println(label + "summary: pairs=0");
      return;
    }
    List<Long> sorted = new ArrayList<>(times);
    sorted.sort(null);
    double median = sorted.get(sorted.size() / 2) / 1e6;
    List<Long> sortedCpu = new ArrayList<>(cpu);
    sortedCpu.sort(null);
    double medianCpu = sortedCpu.get(sortedCpu.size() / 2) / 1e6;
    double p90 = sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.9) - 1)) / 1e6;
    System.out.printf(Locale.ROOT, "%ssummary: pairs=%d rewrites=%d proved=%d mutants=%d rejected=%d "
        + "rejected_rate=%.3f false_not_equivalent=%d median_ms=%.0f p90_ms=%.0f max_ms=%.0f out_of_time=%d "
        + "median_cpu_ms=%.0f mutants_proved_equivalent=%d%n",
        label, pairs, t.rewrites, t.proved, t.mutants, t.rejectedConfirmed, t.rejectedRate(), t.equivalentCalledNot,
        median, p90, sorted.get(sorted.size() - 1) / 1e6, t.outOfTime, medianCpu, t.provedEquivalent.size());
  }
}
