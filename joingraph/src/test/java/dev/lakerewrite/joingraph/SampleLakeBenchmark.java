package dev.lakerewrite.joingraph;

import dev.lakerewrite.testing.SampleLake;
import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the WikiDBs sample's join graph under several scoring variants and prints, for each, build time and
 * the measures against the sample's foreign keys (never given to the graph).
 */
public final class SampleLakeBenchmark {
  private SampleLakeBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, JoinGraphConfig> variants = new LinkedHashMap<>();
    JoinGraphConfig d = JoinGraphConfig.defaults();
    JoinGraphConfig t = JoinGraphConfig.thesis();
    variants.put("thesis", t);
    variants.put("thesis + table-aware names", t.toBuilder().tableAwareNames(true).build());
    variants.put("thesis + containment(c=0)", t.toBuilder()
        .instanceMeasure(JoinGraphConfig.InstanceMeasure.CONTAINMENT).build());
    variants.put("thesis + Ω evidence", t.toBuilder().omegaScope(JoinGraphConfig.OmegaScope.EVIDENCE_PAIRS).build());
    variants.put("defaults", d);
    variants.put("defaults, no table-aware names", d.toBuilder().tableAwareNames(false).build());
    variants.put("defaults, pseudo 0", d.toBuilder().containmentPseudoCount(0).build());
    variants.put("defaults, pseudo 5", d.toBuilder().containmentPseudoCount(5).build());
    variants.put("defaults, Jaccard, minInst 0.2", d.toBuilder()
        .instanceMeasure(JoinGraphConfig.InstanceMeasure.JACCARD).minInstanceSimilarity(0.2).build());
    variants.put("defaults, Jaccard, minInst 0", d.toBuilder()
        .instanceMeasure(JoinGraphConfig.InstanceMeasure.JACCARD).minInstanceSimilarity(0).build());
    variants.put("defaults, Ω all pairs", d.toBuilder().omegaScope(JoinGraphConfig.OmegaScope.ALL_COLUMN_PAIRS).build());
    variants.put("defaults, minInstance 0", d.toBuilder().minInstanceSimilarity(0).build());
    variants.put("defaults, minInstance 0.8", d.toBuilder().minInstanceSimilarity(0.8).build());
    variants.put("defaults, minKey 0", d.toBuilder().minKeyUniqueness(0).build());
    variants.put("defaults, minKey 0.5", d.toBuilder().minKeyUniqueness(0.5).build());
    variants.put("defaults, minShared 1, minDistinct 1", d.toBuilder().minSharedValues(1).minDistinctValues(1).build());
    variants.put("defaults, minShared 3", d.toBuilder().minSharedValues(3).build());
    List<GroundTruth.ForeignKey> keys = GroundTruth.foreignKeys();
    System.out.println("foreign keys: " + keys.size() + " (" + keys.stream()
        .filter(k -> k.table().equals(k.referencedTable())).count() + " self-references, not edges)");
    SyntheticLake synthetic = new SyntheticLake(Integer.getInteger("bench.syntheticTables", 300), 20, 42);
    List<GroundTruth.ForeignKey> planted = synthetic.foreignKeys();
    try (Connection lake = SampleLake.open()) {
      for (Map.Entry<String, JoinGraphConfig> v : variants.entrySet()) {
        long t0 = System.nanoTime();
        JoinGraph graph = JoinGraph.builder().connection(lake).embedder(TestEmbedders.miniLm())
            .config(v.getValue()).build();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        GroundTruth.Report r = GroundTruth.evaluate(graph, keys);
        System.out.printf("%-40s %5d ms  %s%n", v.getKey(), ms, r.summary());
        if (!Boolean.getBoolean("bench.sampleOnly")) {
          JoinGraph s = JoinGraph.builder().columnSource(synthetic).embedder(TestEmbedders.miniLm())
              .config(v.getValue()).build();
          System.out.printf("%-40s %5s     synthetic %s%n", "", "", GroundTruth.evaluate(s, planted).summary());
          if (Boolean.getBoolean("bench.diagnose")) {
            java.util.Map<String, Integer> junk = new java.util.TreeMap<>();
            for (JoinEdge e : s.edges()) {
              if (!synthetic.truth().contains(GroundTruth.pairKey(e.tableA(), e.tableB()))) {
                ColumnPair p = e.pairs().get(0);
                String k = p.columnA().compareTo(p.columnB()) < 0 ? p.columnA() + " ~ " + p.columnB()
                    : p.columnB() + " ~ " + p.columnA();
                junk.merge(k.replaceAll("[0-9]+", "#"), 1, Integer::sum);
              }
            }
            junk.entrySet().stream().sorted((x, y) -> y.getValue() - x.getValue()).limit(15)
                .forEach(x -> System.out.println("      junk best pair " + x.getKey() + " × " + x.getValue()));
            s.edges().stream().filter(e -> !synthetic.truth().contains(GroundTruth.pairKey(e.tableA(), e.tableB())))
                .limit(8).forEach(e -> System.out.println("      e.g. " + e.tableA() + " — " + e.tableB() + " "
                    + e.pairs().get(0) + " u=" + s.table(e.tableA()).get().column(e.pairs().get(0).columnA()).get()
                    + " / " + s.table(e.tableB()).get().column(e.pairs().get(0).columnB()).get()));
          }
        }
        if (args.length > 0 && v.getKey().equals(args[0])) {
          for (GroundTruth.KeyResult k : r.keys()) {
            System.out.printf("    %s.%s -> %s : edge=%b neighbourRank=%d pairRank=%d%n", k.key().table(),
                k.key().column(), k.key().referencedTable(), k.edge(), k.neighbourRank(), k.pairRank());
          }
          graph.edges().stream().sorted((x, y) -> Double.compare(y.joinability(), x.joinability()))
              .forEach(e -> System.out.printf("    Ω=%.3f %s — %s %s%n", e.joinability(), e.tableA(), e.tableB(),
                  e.pairs().get(0)));
        }
      }
    }
  }
}
