package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RelevanceTest {
  static LakeIndex index;

  @BeforeAll
  static void index() throws Exception {
    index = SampleIndex.index();
  }

  @ParameterizedTest
  @EnumSource(TableScoring.class)
  void nzRegionsRanksTheRegionTableOrItsTwinFirst(TableScoring scoring) {
    QueryRelevance r = index.queryRelevance(List.of(QueryTable.of("nz_regions", "name", "population", "capital")),
        scoring);
    assertThat(r.ranking()).hasSize(index.tables().size());
    assertThat(r.ranking().get(0).table()).isIn("region_of_new_zealand", "capital_of", "shares_border_with");
    assertThat(r.top(3, List.of())).extracting(TableMatch::table).contains("region_of_new_zealand");
    // Tables of other domains are far behind.
    assertThat(r.score("region_of_new_zealand")).isGreaterThan(r.score("xml_editor") + 0.2);
    assertThat(r.score("region_of_new_zealand")).isGreaterThan(r.score("encoded_by") + 0.2);
  }

  @Test
  void everyNaturalQueryFindsATableThatAnswersItInTheTopThree() {
    for (LabelledQueries.Labelled l : LabelledQueries.ALL) {
      List<TableMatch> top = index.queryRelevance(l.query()).top(3, List.of());
      assertThat(top).as("%s", l.query()).extracting(TableMatch::table).containsAnyElementsOf(l.relevant());
    }
  }

  @Test
  void hybridScoringBeatsThePureEmbeddingOnIdentifierQueriesAndLosesNothingElsewhere() {
    LabelledQueries.Quality embedding = LabelledQueries.measure(index, TableScoring.EMBEDDING,
        LabelledQueries.IDENTIFIERS);
    LabelledQueries.Quality hybrid = LabelledQueries.measure(index, TableScoring.HYBRID, LabelledQueries.IDENTIFIERS);
    assertThat(hybrid.mrr()).isGreaterThan(embedding.mrr() + 0.1);
    assertThat(hybrid.hitAt1()).isGreaterThanOrEqualTo(0.85);
    LabelledQueries.Quality embeddingNatural = LabelledQueries.measure(index, TableScoring.EMBEDDING,
        LabelledQueries.ALL);
    LabelledQueries.Quality hybridNatural = LabelledQueries.measure(index, TableScoring.HYBRID, LabelledQueries.ALL);
    assertThat(hybridNatural.mrr()).isGreaterThanOrEqualTo(embeddingNatural.mrr());
    assertThat(hybridNatural.hitAt1()).isGreaterThanOrEqualTo(0.9);
  }

  @Test
  void thesisScoringIsThePlainCosineOfTheSnippets() {
    QueryTable q = QueryTable.of("nz_regions", "name", "population", "capital");
    QueryRelevance r = index.queryRelevance(List.of(q), TableScoring.EMBEDDING);
    LakeTable t = index.table("capital");
    double expected = Embedder.cosine(index.embedder().embed(t.snippet()), index.embedder().embed(q.snippet()));
    assertThat(r.score("capital")).isCloseTo(expected, within(1e-6));
    assertThat(r.match("capital").lexical()).isZero();
    assertThat(r.match("capital").matchedSnippet()).isEqualTo("nz regions name population capital name population capital");
  }

  @Test
  void relevanceIsTheMaximumOverTheQuerysTables() {
    QueryTable regions = QueryTable.of("nz_regions", "name", "population");
    QueryTable genes = QueryTable.of("genes", "locus_tag", "genomic_start");
    QueryRelevance both = index.queryRelevance(List.of(regions, genes));
    QueryRelevance onlyRegions = index.queryRelevance(List.of(regions));
    QueryRelevance onlyGenes = index.queryRelevance(List.of(genes));
    for (LakeTable t : index.tables()) {
      assertThat(both.score(t.name())).isCloseTo(
          Math.max(onlyRegions.score(t.name()), onlyGenes.score(t.name())), within(1e-9));
    }
    assertThat(both.top(2, List.of())).extracting(TableMatch::table).contains("encoded_by");
  }

  @Test
  void rerankingAddsTheBestJoinabilityWithTheContextAndSkipsContextAndEvictedTables() {
    QueryRelevance r = index.queryRelevance(List.of(QueryTable.of("nz_regions", "name", "population", "capital")));
    Map<Set<String>, Double> omega = Map.of(
        Set.of("authority", "region_of_new_zealand"), 0.9,
        Set.of("authority", "capital"), 0.3,
        Set.of("capital", "region_of_new_zealand"), 0.2);
    Joinability joinability = (a, b) -> omega.getOrDefault(Set.of(a, b), 0.0);
    List<RerankedTable> reranked = r.rerank(List.of("region_of_new_zealand", "capital"), List.of("capital_of"),
        joinability, 5);
    assertThat(reranked).extracting(RerankedTable::table)
        .doesNotContain("region_of_new_zealand", "capital", "capital_of");
    RerankedTable authority = reranked.stream().filter(t -> t.table().equals("authority")).findFirst().orElseThrow();
    assertThat(authority.joinability()).isEqualTo(0.9);
    assertThat(authority.joinsWith()).isEqualTo("region_of_new_zealand");
    assertThat(authority.score()).isCloseTo(r.score("authority") + 0.9, within(1e-12));
    assertThat(authority.why()).contains("Ω=0.900 with region_of_new_zealand");
    // Authority joins the context so well that it overtakes every table the query alone prefers.
    assertThat(reranked.get(0).table()).isEqualTo("authority");
    assertThat(r.top(3, List.of("region_of_new_zealand", "capital", "capital_of")))
        .extracting(TableMatch::table).doesNotContain("authority");
  }

  @Test
  void withoutContextRerankingIsTheQueryRanking() {
    QueryRelevance r = index.queryRelevance(List.of(QueryTable.of("films", "title", "duration")));
    List<RerankedTable> reranked = r.rerank(List.of(), List.of(), (a, b) -> 1.0, 5);
    assertThat(reranked).extracting(RerankedTable::table)
        .containsExactlyElementsOf(r.top(5, List.of()).stream().map(TableMatch::table).toList());
    assertThat(reranked).allSatisfy(t -> assertThat(t.joinsWith()).isNull());
  }

  @Test
  void rerankingRejectsBadJoinabilityAndUnknownContext() {
    QueryRelevance r = index.queryRelevance(List.of(QueryTable.of("films", "title")));
    assertThatThrownBy(() -> r.rerank(List.of("computer_animated_film"), List.of(), (a, b) -> -1, 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-negative");
    assertThatThrownBy(() -> r.rerank(List.of("computer_animated_films"), List.of(), (a, b) -> 0, 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("did you mean 'computer_animated_film'");
  }

  @Test
  void searchTableFindsTheTableHoldingAMissingColumn() {
    // The thesis' example: gini_index is missing; the countries table calls it "Gini coefficient".
    List<TableMatch> gini = index.searchTable("countries", List.of("gini_index"), 3);
    assertThat(gini.get(0).table()).isEqualTo("country_of_origin");
    assertThat(gini.get(0).matchedSnippet()).isEqualTo("gini index gini index countries");
    assertThat(index.searchTable("software", List.of("programmed in"), 3).get(0).table()).isEqualTo("xml_editor");
    assertThat(index.searchTable(null, List.of("taxon name", "parent taxon"), 1).get(0).table())
        .isEqualTo("found_in_taxon");
    assertThat(index.searchTable("software", List.of("programmed in"), 3, List.of("xml_editor")))
        .extracting(TableMatch::table).doesNotContain("xml_editor").hasSize(3);
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> index.queryRelevance(List.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one");
    assertThatThrownBy(() -> index.searchTable("x", List.of(), 3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> index.searchTable("x", List.of("a"), 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("k must be at least 1");
    assertThatThrownBy(() -> QueryTable.of(null)).isInstanceOf(IllegalArgumentException.class);
  }
}
