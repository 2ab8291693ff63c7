package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NameSignalsTest {

  @Test
  void aNameThatStandsForOnlySomeOfTheAssumedWordsNamesAnotherEntity() {
    assertThat(NameSignals.namesFewerWords("store_sales", "store")).isTrue();
    assertThat(NameSignals.namesFewerWords("store_returns", "strs")).isTrue();
    assertThat(NameSignals.namesFewerWords("customer_address", "customer")).isTrue();
    // Every word stood for, abbreviated or not.
    assertThat(NameSignals.namesFewerWords("store_returns", "stor_rtrn")).isFalse();
    assertThat(NameSignals.namesFewerWords("supplier", "splrs")).isFalse();
    // More lake words than assumed ones, or a lake word that stands for none of them: no such claim.
    assertThat(NameSignals.namesFewerWords("lineitem", "ln_itm")).isFalse();
    assertThat(NameSignals.namesFewerWords("store_sales", "client")).isFalse();
  }

  @Test
  void aWholeNameAbbreviatedLetterByLetterReadsAsTheName() {
    assertThat(NameSignals.wholeAbbreviation("supplier", "splrs")).isEqualTo(1.0);
    assertThat(NameSignals.wholeAbbreviation("country", "cntr")).isEqualTo(1.0);
    assertThat(NameSignals.wholeAbbreviation("supplier", "clnts")).isZero();
  }
}
