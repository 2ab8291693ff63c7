package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NamesTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "Gini_Index|gini index",
      "giniIndex|gini index",
      "Gini Index|gini index",
      "GiniIndex|gini index",
      "  gini__index  |gini index",
      "countries.csv|countries",
      "country_profiles.PARQUET|country profiles",
      "HTMLParser|html parser",
      "topic's main category|topics main category",
      "FIPS 10-4 (countries and regions)|fips 10 4 countries and regions",
      "Encyclopædia Britannica Online ID|encyclopaedia britannica online id",
      "Whangārei|whangarei",
      "region-of-new-zealand|region of new zealand",
      "iso3|iso3",
      "ISO 3166-1 alpha-2 code|iso 3166 1 alpha 2 code",
  })
  void normalizesNamesAsTheThesisDescribes(String name, String expected) {
    assertThat(Names.normalize(name)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"Gini_Index", "XMLEditor.csv", "Bibliothèque nationale de France ID", "a--b__C"})
  void isIdempotent(String name) {
    String once = Names.normalize(name);
    assertThat(Names.normalize(once)).isEqualTo(once);
  }
}
