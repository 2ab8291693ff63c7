package dev.lakerewrite.eval.tpc;

import java.util.Map;
import java.util.TreeMap;

/** Counts of the corpus's pairs (no checks): per benchmark, part and expectation. Development aid. */
final class CorpusStats {
  private CorpusStats() {}

  public static void main(String[] args) throws Exception {
    Map<String, Integer> counts = new TreeMap<>();
    for (var list : java.util.List.of(EquivalenceCorpus.tpch(), EquivalenceCorpus.tpcds())) {
      for (EquivalenceCorpus.Pair p : list) {
        counts.merge(p.query().split("/")[0] + " " + (p.heldOut() ? "held-out" : "fit") + " " + p.expected(), 1,
            Integer::sum);
      }
    }
    counts.forEach((k, v) -> System.out.println(k + ": " + v));
    System.out.println(EquivalenceCorpus.tpchSchema(false).lines().findFirst().orElse(""));
    System.out.println(EquivalenceCorpus.tpchSchema(true).lines().findFirst().orElse(""));
  }
}
