package dev.lakerewrite.joingraph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The three candidate searches on a synthetic lake of 100 tables × 20 columns with planted joins. */
class CandidateSearchTest {
  private static final SyntheticLake LAKE = new SyntheticLake(100, 20, 42);

  private static JoinGraph build(JoinGraphConfig.CandidateSearch search, JoinGraphConfig base) {
    return JoinGraph.builder().columnSource(LAKE).embedder(TestEmbedders.miniLm())
        .config(base.toBuilder().candidateSearch(search).build()).build();
  }

  @Test
  void invertedIndexFindsExactlyTheEdgesOfTheAllPairsLoopWithFarFewerScoredPairs() {
    JoinGraph all = build(JoinGraphConfig.CandidateSearch.ALL_PAIRS, JoinGraphConfig.defaults());
    JoinGraph index = build(JoinGraphConfig.CandidateSearch.INVERTED_INDEX, JoinGraphConfig.defaults());
    assertThat(index.edges()).isEqualTo(all.edges());
    assertThat(index.buildStats().pairsScored()).isLessThan(all.buildStats().pairsScored() / 100);
  }

  @Test
  void sameForTheThesisScoringWhichIndexesEveryColumn() {
    JoinGraphConfig thesis = JoinGraphConfig.thesis();
    SyntheticLake small = new SyntheticLake(30, 14, 7);
    JoinGraph all = JoinGraph.builder().columnSource(small).embedder(TestEmbedders.miniLm())
        .config(thesis.toBuilder().candidateSearch(JoinGraphConfig.CandidateSearch.ALL_PAIRS).build()).build();
    JoinGraph index = JoinGraph.builder().columnSource(small).embedder(TestEmbedders.miniLm())
        .config(thesis.toBuilder().candidateSearch(JoinGraphConfig.CandidateSearch.INVERTED_INDEX).build()).build();
    assertThat(index.edges()).isEqualTo(all.edges());
  }

  @Test
  void sketchPruningKeepsTheExactEdgesAndNeverInventsOne() {
    JoinGraph exact = build(JoinGraphConfig.CandidateSearch.INVERTED_INDEX, JoinGraphConfig.defaults());
    JoinGraph sketch = build(JoinGraphConfig.CandidateSearch.SKETCH, JoinGraphConfig.defaults());
    assertThat(recall(sketch, exact)).isGreaterThanOrEqualTo(0.95);
    // Aggressive pruning loses edges, but whatever it keeps is an exact edge: candidates are scored exactly.
    JoinGraph tiny = build(JoinGraphConfig.CandidateSearch.SKETCH,
        JoinGraphConfig.builder().sketchSize(16).maxPostings(2).build());
    assertThat(tiny.buildStats().stopValuesSkipped()).isPositive();
    assertThat(JoinGraphScaleBenchmark.edgeSet(exact)).containsAll(JoinGraphScaleBenchmark.edgeSet(tiny));
    assertThat(recall(tiny, exact)).isLessThan(1.0);
  }

  @Test
  void plantedJoinsAreFoundAndJunkIsKeptOut() {
    JoinGraph graph = build(JoinGraphConfig.CandidateSearch.INVERTED_INDEX, JoinGraphConfig.defaults());
    Set<String> edges = JoinGraphScaleBenchmark.edgeSet(graph);
    assertThat(edges).containsAll(LAKE.truth());
    // Measured 130 edges for 101 planted joins; the rest share code prefixes or common names.
    assertThat((double) LAKE.truth().size() / edges.size()).isGreaterThanOrEqualTo(0.7);
    assertThat(graph.edges()).noneSatisfy(e -> assertThat(e.pairs().get(0).columnA())
        .isIn("year", "count", "country", "status", "flag", "description"));
    JoinGraph thesis = JoinGraph.builder().columnSource(LAKE).embedder(TestEmbedders.miniLm())
        .config(JoinGraphConfig.thesis()).build();
    assertThat(thesis.edges().size()).as("the literal thesis connects nearly every pair").isGreaterThan(3000);
  }

  private static double recall(JoinGraph candidate, JoinGraph reference) {
    Set<String> kept = new HashSet<>(JoinGraphScaleBenchmark.edgeSet(candidate));
    Set<String> all = JoinGraphScaleBenchmark.edgeSet(reference);
    kept.retainAll(all);
    return (double) kept.size() / all.size();
  }
}
