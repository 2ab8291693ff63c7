package dev.lakerewrite.core.match;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableFeaturesTest {

  @Test
  void identifiersThatAllStartWithOneWordNameTheirEntitysKind() {
    assertThat(TableFeatures.identifierPrefix(List.of("Supplier#000000001", "Supplier#000000002",
        "Supplier#000000003"))).contains("Supplier");
    assertThat(TableFeatures.identifierPrefix(List.of("CUST-0042", "cust-0043", "CUST 7"))).contains("CUST");
    assertThat(TableFeatures.identifierPrefix(Arrays.asList("Clerk#000000951", null, "Clerk#000000880",
        "Clerk#000000955"))).contains("Clerk");
  }

  @Test
  void valuesOfOtherFormsOrMixedWordsOrTooFewNameNoKind() {
    // Two kinds of identifier in one column, names, codes without a word, and two values are no evidence.
    assertThat(TableFeatures.identifierPrefix(List.of("Supplier#1", "Customer#2", "Supplier#3"))).isEmpty();
    assertThat(TableFeatures.identifierPrefix(List.of("Ann Smith", "Bob Jones", "Cid Moe"))).isEmpty();
    assertThat(TableFeatures.identifierPrefix(List.of("AB-1", "AB-2", "AB-3"))).isEmpty();
    assertThat(TableFeatures.identifierPrefix(List.of("Part#1", "Part#2"))).isEmpty();
    assertThat(TableFeatures.identifierPrefix(List.of("Room 12 west", "Room 13", "Room 14"))).isEmpty();
  }
}
