package dev.lakerewrite.joingraph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The join graph of the WikiDBs sample against the foreign keys of its {@code info_full.json} files, which the
 * graph never sees. Floors are the figures measured with the real all-MiniLM-L6-v2 (recall 25/25, precision
 * 25/56, true key pair first for 22 of 25 keys), rounded down a little.
 */
class SampleGroundTruthTest {
  private static final List<GroundTruth.ForeignKey> KEYS = GroundTruth.foreignKeys();

  @Test
  void groundTruthHasTheSampleForeignKeys() {
    assertThat(KEYS).hasSize(26);
    assertThat(KEYS).contains(
        new GroundTruth.ForeignKey("region-of-new-zealand", "region_of_new_zealand", "capital", "capital", "label"),
        new GroundTruth.ForeignKey("region-of-new-zealand", "region_of_new_zealand", "category of associated people",
            "region_of_new_zealand_category_of_associated_people", "label"),
        new GroundTruth.ForeignKey("fictional-creature", "fictional_creature", "present in work", "present_in_work",
            "label"));
  }

  @Test
  void defaultGraphFindsEveryForeignKeyAndRanksTheTrueKeyPairFirst() {
    GroundTruth.Report report = GroundTruth.evaluate(SampleGraphs.defaults(), KEYS);
    System.out.println("sample, defaults: " + report.summary());
    assertThat(report.recall()).isGreaterThanOrEqualTo(0.96);
    assertThat(report.precision()).isGreaterThanOrEqualTo(0.40);
    assertThat(report.pairRank1()).isGreaterThanOrEqualTo(20);
    assertThat(report.pairFound()).isEqualTo(report.keysWithEdge());
    assertThat(report.hitsAt3()).isGreaterThanOrEqualTo(0.72);
  }

  @Test
  void namedForeignKeysAreEdgesWithTheTrueKeyPairOnTop() {
    JoinGraph graph = SampleGraphs.defaults();
    ColumnPair capital = graph.edge("region_of_new_zealand", "capital").orElseThrow()
        .pairsFrom("region_of_new_zealand").get(0);
    assertThat(capital.columnA()).isEqualTo("capital");
    assertThat(capital.columnB()).isEqualTo("label");
    assertThat(capital.containment()).isEqualTo(1.0);
    assertThat(capital.sharedValues()).isEqualTo(16);

    ColumnPair work = graph.edge("present_in_work", "fictional_creature").orElseThrow()
        .pairsFrom("fictional_creature").get(0);
    assertThat(work.columnA()).isEqualTo("present in work");
    assertThat(work.columnB()).isEqualTo("label");
    assertThat(graph.joinability("fictional_creature", "present_in_work"))
        .isEqualTo(graph.joinability("present_in_work", "fictional_creature"))
        .isGreaterThan(1.5);
  }

  @Test
  void tablesOfDifferentDatabasesWithoutSharedValuesAreNotJoinable() {
    JoinGraph graph = SampleGraphs.defaults();
    assertThat(graph.joinability("xml_editor", "fictional_creature")).isZero();
    assertThat(graph.edge("genre", "capital")).isEmpty();
  }

  @Test
  void thesisVariantStaysSelectableAndConnectsMore() {
    JoinGraph thesis = JoinGraph.builder().connection(SampleGraphs.connection()).embedder(TestEmbedders.miniLm())
        .config(JoinGraphConfig.thesis()).build();
    GroundTruth.Report report = GroundTruth.evaluate(thesis, KEYS);
    System.out.println("sample, thesis: " + report.summary());
    assertThat(report.recall()).isEqualTo(1.0);
    assertThat(thesis.edges().size()).isGreaterThan(SampleGraphs.defaults().edges().size());
    // The thesis' Ω maximises over all column pairs: two same-named columns without a shared value still count.
    assertThat(thesis.edges()).anySatisfy(e -> assertThat(e.pairs()).anySatisfy(p -> {
      assertThat(p.sharedValues()).isZero();
      assertThat(p.score()).isPositive();
    }));
  }

  @Test
  void theGraphOfTheSampleHasEveryTableWithItsHeadersVerbatim() {
    assertThat(SampleGraphs.defaults().tables()).hasSize(29);
    assertThat(SampleGraphs.defaults().table("capital").orElseThrow().column("Who's on First ID")).isPresent();
  }
}
