package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class UnionSearchTest {
  static LakeIndex index;

  @BeforeAll
  static void index() throws Exception {
    index = SampleIndex.index();
  }

  @Test
  void findsTheTablesWithTheSameSchemaAndMapsTheirColumns() {
    List<UnionCandidate> found = index.unionSearch("region_of_new_zealand", 10);
    assertThat(found.subList(0, 2)).extracting(UnionCandidate::table)
        .containsExactlyInAnyOrder("capital_of", "shares_border_with");
    assertThat(found).extracting(UnionCandidate::table).doesNotContain("xml_editor", "region_of_new_zealand");
    UnionCandidate border = found.stream().filter(c -> c.table().equals("shares_border_with")).findFirst()
        .orElseThrow();
    Map<String, String> mapping = border.mapping().stream()
        .collect(Collectors.toMap(UnionColumnPair::baseColumn, UnionColumnPair::candidateColumn));
    // shares_border_with has the region columns in another order, plus two more.
    assertThat(mapping).containsEntry("label", "label").containsEntry("population", "population")
        .containsEntry("capital", "capital").containsEntry("FIPS 10-4 (countries and regions)",
            "FIPS 10-4 (countries and regions)");
    assertThat(border.coverage()).isEqualTo(1.0);
    assertThat(border.mapping()).allSatisfy(m -> assertThat(m.typeConsistent()).isTrue());
  }

  @Test
  void scoreIsTheThesisFormula() {
    for (UnionCandidate c : index.unionSearch("capital", 5)) {
      double consistent = c.mapping().stream().filter(UnionColumnPair::typeConsistent).count();
      double mean = c.mapping().stream().mapToDouble(UnionColumnPair::similarity).average().orElseThrow();
      assertThat(c.meanSimilarity()).isCloseTo(mean, within(1e-9));
      assertThat(c.coverage()).isCloseTo((double) c.mapping().size() / index.table("capital").columns().size(),
          within(1e-9));
      assertThat(c.typeBonus()).isCloseTo(LakeIndex.UNION_TYPE_BONUS * consistent / c.mapping().size(),
          within(1e-9));
      assertThat(c.score()).isCloseTo(0.6 * c.meanSimilarity() + 0.4 * c.coverage() + c.typeBonus(), within(1e-9));
      assertThat(c.coverage()).isGreaterThanOrEqualTo(LakeIndex.UNION_MIN_COVERAGE);
      assertThat(c.why()).contains(c.mapping().size() + " of ");
    }
  }

  @Test
  void eachColumnIsAlignedAtMostOnceAndOnlyAboveTheThreshold() {
    for (UnionCandidate c : index.unionSearch("located_in_the_administrative_territorial_entity", 5)) {
      assertThat(c.mapping()).extracting(UnionColumnPair::candidateColumn).doesNotHaveDuplicates();
      assertThat(c.mapping()).extracting(UnionColumnPair::baseColumn).doesNotHaveDuplicates();
      assertThat(c.mapping()).allSatisfy(m -> assertThat(
          m.similarity() - (m.typeConsistent() ? 0 : LakeIndex.UNION_TYPE_MISMATCH_PENALTY))
          .isGreaterThanOrEqualTo(LakeIndex.UNION_MIN_COLUMN_SIMILARITY));
    }
    // Its twin holds the same districts with the numbers written as text ('+2854.32'): still one type family.
    UnionCandidate twin = index.unionSearch("located_in_the_administrative_territorial_entity", 1).get(0);
    assertThat(twin.table()).isEqualTo("applies_to_jurisdiction");
    assertThat(twin.coverage()).isEqualTo(1.0);
    assertThat(twin.mapping()).filteredOn(m -> m.baseColumn().equals("population"))
        .singleElement().satisfies(m -> {
          assertThat(m.baseFamily()).isEqualTo(TypeFamily.NUMERIC);
          assertThat(m.candidateFamily()).isEqualTo(TypeFamily.NUMERIC);
        });
  }

  @Test
  void aTableWithNoPartnerGetsNone() {
    assertThat(index.unionSearch("uses", 5)).allSatisfy(c -> assertThat(c.coverage()).isGreaterThanOrEqualTo(0.5));
    assertThat(index.unionSearch("encoded_by", 5)).extracting(UnionCandidate::table)
        .doesNotContain("region_of_new_zealand", "capital");
  }
}
