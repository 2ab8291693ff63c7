package dev.lakerewrite.core.match;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EntityNamesTest {

  @Test
  void anAssumedColumnNamesTheRowsWhenItIsANameOrTheTablesNoun() {
    assertThat(EntityNames.isNameLike("name", "presidents")).isTrue();
    assertThat(EntityNames.isNameLike("city", "cities")).isTrue();
    assertThat(EntityNames.isNameLike("film_name", "films")).isTrue();
    assertThat(EntityNames.isNameLike("region_title", "nz_regions")).isTrue();
    assertThat(EntityNames.isNameLike("given_name", "presidents")).isFalse();
    assertThat(EntityNames.isNameLike("birth_year", "presidents")).isFalse();
  }

  @Test
  void singularsByCommonSuffixes() {
    assertThat(EntityNames.singular("cities")).isEqualTo("city");
    assertThat(EntityNames.singular("boxes")).isEqualTo("box");
    assertThat(EntityNames.singular("regions")).isEqualTo("region");
    assertThat(EntityNames.singular("class")).isEqualTo("class");
  }
}
