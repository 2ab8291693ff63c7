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
  void quotesIdentifiersAndLiterals() {
    assertThat(Sql.quoteIdentifier("topic's \"main\" category")).isEqualTo("\"topic's \"\"main\"\" category\"");
    assertThat(Sql.quoteLiteral("Hawke's Bay")).isEqualTo("'Hawke''s Bay'");
    assertThatThrownBy(() -> Sql.quoteIdentifier("a\0b")).isInstanceOf(IllegalArgumentException.class);
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

  @Test
  void didYouMeanPicksTheClosestName() {
    assertThat(DidYouMean.suffix("capitl", List.of("capital", "capital_of", "authority")))
        .isEqualTo("; did you mean 'capital'?");
    assertThat(DidYouMean.suffix("zzzzzzzzzz", List.of("capital"))).doesNotContain("did you mean");
  }
}
