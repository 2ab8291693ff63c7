package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NameSignalsTest {

  @Test
  void aTableNameWhoseWordsDoNotLineUpIsNoAbbreviationOfTheAssumedOne() {
    // One word of the assumed name: another entity.
    assertThat(NameSignals.tableNameAbbreviation("store_sales", "store")).isZero();
    assertThat(NameSignals.tableNameAbbreviation("store_returns", "strs")).isZero();
    assertThat(NameSignals.tableNameAbbreviation("customer_address", "customer")).isZero();
    // A longer lake name in more words has a word for each assumed one, or it is no abbreviation.
    assertThat(NameSignals.wholeAbbreviation("offices", "office_held_by_head_of_state")).isEqualTo(1.0);
    assertThat(NameSignals.tableNameAbbreviation("offices", "office_held_by_head_of_state"))
        .isEqualTo(NameSignals.ABBREVIATED_TABLE);
    assertThat(NameSignals.wholeAbbreviation("order", "other_rider_data")).isEqualTo(1.0);
    assertThat(NameSignals.tableNameAbbreviation("order", "other_rider_data")).isZero();
    // Word for word, or a shorter lake name in more words.
    assertThat(NameSignals.tableNameAbbreviation("store_returns", "stor_rtrn")).isEqualTo(NameSignals.ABBREVIATED_TABLE);
    assertThat(NameSignals.tableNameAbbreviation("lineitem", "ln_itm")).isEqualTo(NameSignals.ABBREVIATED_TABLE);
    assertThat(NameSignals.tableNameAbbreviation("supplier", "splrs")).isEqualTo(NameSignals.ABBREVIATED_TABLE);
  }

  @Test
  void aTableNamedExactlyReadsBetterThanOneWhoseNameOnlyAbbreviatesTheAssumedOne() {
    // "parts" spells the first letters of "partsupp"; "partsupps" is its name, in the plural.
    assertThat(NameSignals.tableNameAbbreviation("partsupp", "partsupps")).isEqualTo(1.0);
    assertThat(NameSignals.tableNameAbbreviation("partsupp", "parts")).isEqualTo(NameSignals.ABBREVIATED_TABLE);
    assertThat(NameSignals.tableNameAbbreviation("line_item", "lineitem")).isEqualTo(1.0);
    assertThat(NameSignals.ABBREVIATED_TABLE).isLessThan(1.0);
  }

  @Test
  void aNameSpelledWordForWordNeedsAWordForEveryWordBothWays() {
    assertThat(NameSignals.spellsWordForWord("list_price", "LISTING_PRC")).isTrue();
    assertThat(NameSignals.spellsWordForWord("ticket_number", "TCKT_NMBR")).isTrue();
    // "sales" stands for no word of list price; "short" for no word of given name.
    assertThat(NameSignals.spellsWordForWord("list_price", "SALES_PRICE")).isFalse();
    assertThat(NameSignals.spellsWordForWord("given_name", "short_name")).isFalse();
    // A code beside the country: the lake's extra word answers nothing.
    assertThat(NameSignals.spellsWordForWord("country_name", "country_name_code")).isFalse();
    // One word is the whole-name abbreviation's case, not this one.
    assertThat(NameSignals.spellsWordForWord("population", "pop")).isFalse();
  }

  @Test
  void aWholeNameAbbreviatedLetterByLetterReadsAsTheName() {
    assertThat(NameSignals.wholeAbbreviation("supplier", "splrs")).isEqualTo(1.0);
    assertThat(NameSignals.wholeAbbreviation("country", "cntr")).isEqualTo(1.0);
    assertThat(NameSignals.wholeAbbreviation("supplier", "clnts")).isZero();
  }
}
