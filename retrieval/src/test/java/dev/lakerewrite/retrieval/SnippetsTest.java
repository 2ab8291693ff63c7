package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnippetsTest {

  @Test
  void tableSnippetsAreNormalisedNamesInOrder() {
    assertThat(Snippets.table("country_profiles.csv", List.of("Gini_Index", "giniIndex", "topic's main category")))
        .isEqualTo("country profiles gini index gini index topics main category");
  }

  @Test
  void querySnippetsRepeatTheReferencedColumns() {
    assertThat(Snippets.query("nz_regions", List.of("name", "population")))
        .isEqualTo("nz regions name population name population");
    assertThat(Snippets.query(null, List.of("capitalCity"))).isEqualTo("capital city capital city");
    assertThat(QueryTable.of("NZRegions", "Population").snippet()).isEqualTo("nz regions population population");
  }

  @Test
  void searchTableSnippetsDoubleEachColumnThenNameTheDomain() {
    assertThat(Snippets.searchTable("countries", List.of("gini_index", "HDI")))
        .isEqualTo("gini index gini index hdi hdi countries");
    assertThat(Snippets.searchTable(null, List.of("x"))).isEqualTo("x x");
  }

  @Test
  void nullColumnsAreRejectedWithTheirPosition() {
    assertThatThrownBy(() -> Snippets.table("t", Arrays.asList("a", null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("position 1");
  }

  @Test
  void trigramJaccardSeesTypos() {
    double typo = Trigrams.jaccard(Trigrams.of("welington"), Trigrams.of("wellington"));
    double other = Trigrams.jaccard(Trigrams.of("welington"), Trigrams.of("hamilton"));
    assertThat(typo).isGreaterThan(0.5);
    assertThat(other).isLessThan(0.2);
    assertThat(Trigrams.jaccard(Trigrams.of("abc"), Trigrams.of("abc"))).isEqualTo(1.0);
    assertThat(Trigrams.of("")).isEmpty();
  }
}
