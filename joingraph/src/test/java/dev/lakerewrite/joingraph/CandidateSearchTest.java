package dev.lakerewrite.joingraph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The three candidate searches on synthetic lakes with planted joins: 100 tables × 20 columns, and 40 × 16 for the
 * quadratic all-pairs loop.
 */
class CandidateSearchTest {
  private static final SyntheticLake LAKE = new SyntheticLake(100, 20, 42);
  private static final SyntheticLake SMALL = new SyntheticLake(40, 16, 7);
  private static JoinGraph exact;

  private static JoinGraph build(SyntheticLake lake, JoinGraphConfig.CandidateSearch search,
      JoinGraphConfig base) {
    return JoinGraph.builder().columnSource(lake).embedder(TestEmbedders.miniLm())
        .config(base.toBuilder().candidateSearch(search).build()).build();
  }

  private static JoinGraph build(JoinGraphConfig.CandidateSearch search, JoinGraphConfig base) {
    return build(LAKE, search, base);
  }

  private static synchronized JoinGraph exact() {
    if (exact == null) {
      exact = build(JoinGraphConfig.CandidateSearch.INVERTED_INDEX, JoinGraphConfig.defaults());
    }
    return exact;
  }

  @Test
  void invertedIndexFindsExactlyTheEdgesOfTheAllPairsLoopWithFarFewerScoredPairs() {
    JoinGraph all = build(SMALL, JoinGraphConfig.CandidateSearch.ALL_PAIRS, JoinGraphConfig.defaults());
    JoinGraph index = build(SMALL, JoinGraphConfig.CandidateSearch.INVERTED_INDEX, JoinGraphConfig.defaults());
    assertThat(index.edges()).isNotEmpty().isEqualTo(all.edges());
    assertThat(index.buildStats().pairsScored()).isLessThan(all.buildStats().pairsScored() / 100);
  }

  @Test
  void sameForTheThesisScoringWhichIndexesEveryColumnAndConnectsNearlyEverything() {
    JoinGraph all = build(SMALL, JoinGraphConfig.CandidateSearch.ALL_PAIRS, JoinGraphConfig.thesis());
    JoinGraph index = build(SMALL, JoinGraphConfig.CandidateSearch.INVERTED_INDEX, JoinGraphConfig.thesis());
    assertThat(index.edges()).isEqualTo(all.edges());
    int pairs = 40 * 39 / 2;
    assertThat(index.edges().size()).as("the literal thesis joins tables sharing a year or a country")
        .isGreaterThan(pairs / 2);
  }

  @Test
  void sketchPruningKeepsTheExactEdgesAndNeverInventsOne() {
    JoinGraph exact = exact();
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
    JoinGraph graph = exact();
    Set<String> edges = JoinGraphScaleBenchmark.edgeSet(graph);
    assertThat(edges).containsAll(LAKE.truth());
    // Measured 130 edges for 101 planted joins; the rest share code prefixes or common names.
    assertThat((double) LAKE.truth().size() / edges.size()).isGreaterThanOrEqualTo(0.7);
    assertThat(graph.edges()).noneSatisfy(e -> assertThat(e.pairs().get(0).columnA())
        .isIn("year", "count", "country", "status", "flag", "description"));
  }

  private static double recall(JoinGraph candidate, JoinGraph reference) {
    Set<String> kept = new HashSet<>(JoinGraphScaleBenchmark.edgeSet(candidate));
    Set<String> all = JoinGraphScaleBenchmark.edgeSet(reference);
    kept.retainAll(all);
    return (double) kept.size() / all.size();
  }
}
