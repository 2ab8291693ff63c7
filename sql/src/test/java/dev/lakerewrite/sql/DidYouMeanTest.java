package dev.lakerewrite.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DidYouMeanTest {

  @Test
  void onePicksTheClosestName() {
    assertThat(DidYouMean.hint("capitl", List.of("capital", "capital_of", "authority"), 1))
        .isEqualTo("; did you mean 'capital'?");
    assertThat(DidYouMean.hintOrKnown("capitl", List.of("capital", "capital_of", "authority")))
        .isEqualTo("; did you mean 'capital'?");
    assertThat(DidYouMean.hintOrKnown("zzzzzzzzzz", List.of("capital"))).doesNotContain("did you mean")
        .isEqualTo("; known: capital");
    assertThat(DidYouMean.hintOrKnown("zzzzzzzzzz", List.of())).isEmpty();
  }

  @Test
  void severalReadAsAList() {
    List<String> known = List.of("region_of_new_zealand", "region_of_new_zealand_category_of_associated_people",
        "capital", "regions");
    assertThat(DidYouMean.suggest("region_of_new_zeeland", known, 3)).first().isEqualTo("region_of_new_zealand");
    assertThat(DidYouMean.hint("region", known))
        .isEqualTo("; did you mean 'regions', 'region_of_new_zealand' or "
            + "'region_of_new_zealand_category_of_associated_people'?");
    assertThat(DidYouMean.format(List.of())).isEmpty();
  }

  @Test
  void caseAccentsAndSeparatorsDoNotCount() {
    assertThat(DidYouMean.distance("Whangārei", "whangarei")).isZero();
    assertThat(DidYouMean.distance("region-of-new-zealand", "region_of_new_zealand")).isZero();
    assertThat(DidYouMean.hint("Filter Missmatch", List.of("Filter Mismatch", "Noise"), 1))
        .isEqualTo("; did you mean 'Filter Mismatch'?");
  }

  @Test
  void aSharedFirstWordHelpsWhenNothingIsNearButOnlyIfItIsUnique() {
    assertThat(DidYouMean.suggest("golden_sql", List.of("golden_query", "question", "tables"), 1))
        .containsExactly("golden_query");
    assertThat(DidYouMean.suggest("golden_sql", List.of("golden_query", "golden_result"), 1)).isEmpty();
    assertThat(DidYouMean.suggest("ab_sql", List.of("ab_query"), 1)).isEmpty();
  }

  @Test
  void argumentsAreChecked() {
    assertThatThrownBy(() -> DidYouMean.suggest("x", List.of("y"), 0)).hasMessageContaining("max must be at least 1");
  }
}
