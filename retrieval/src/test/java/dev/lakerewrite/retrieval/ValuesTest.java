package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ValuesTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "+13789|13789",
      "13789|13789",
      "13789.0|13789",
      "2854.320|2854.32",
      "-35.719|-35.719",
      "+0|0",
      "Whangārei|whangarei",
      "  Wellington   Region |wellington region",
      "+1995-11-22T00:00:00Z|1995-11-22",
      "ÉTATS-UNIS|etats-unis",
      "1e99999|1e99999",
      "1135\u00AD|1135",
      "11\u200B35|1135",
      "\uFEFF9|9",
      "<b>13789</b>|13789",
      "<i>Whangārei</i>|whangarei",
      "Tom &amp; Jerry|tom & jerry",
      "caf&#233;|cafe",
      "a<b|a<b",
      "AT&T|at&t",
      "&bogus;|&bogus;",
  })
  void normalizesForComparison(String value, String expected) {
    assertThat(Values.normalize(value)).isEqualTo(expected);
  }

  /** The shortcut for plain ASCII values gives what the full normalisation gives. */
  @net.jqwik.api.Property(tries = 3000)
  void theAsciiShortcutAgreesWithTheFullNormalisation(
      @net.jqwik.api.ForAll("asciiValues") String value) {
    String shortcut = Values.plainAscii(value);
    if (shortcut != null) {
      assertThat(shortcut).isEqualTo(Values.normalizeFully(value));
    }
    assertThat(Values.normalize(value)).isEqualTo(Values.normalizeFully(value));
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<String> asciiValues() {
    return net.jqwik.api.Arbitraries.oneOf(
        net.jqwik.api.Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(70),
        net.jqwik.api.Arbitraries.strings().withChars("0123456789 +-.eEaZ").ofMaxLength(20),
        net.jqwik.api.Arbitraries.longs().map(String::valueOf),
        net.jqwik.api.Arbitraries.strings().withChars("0123456789-.").ofMaxLength(12),
        net.jqwik.api.Arbitraries.bigDecimals().ofScale(3).map(java.math.BigDecimal::toPlainString),
        net.jqwik.api.Arbitraries.doubles().map(String::valueOf),
        net.jqwik.api.Arbitraries.integers().between(0, 40000).map(d -> java.time.LocalDate.ofEpochDay(d).toString()),
        net.jqwik.api.Arbitraries.strings().withChars("abcXYZ \t\u00e9").ofMaxLength(12));
  }

  @Test
  void keepsNullAndDoesNotTreatGroupedNumbersAsPlainOnes() {
    assertThat(Values.normalize(null)).isNull();
    assertThat(Values.canonicalNumber("1,234")).isNull();
    assertThat(Values.canonicalNumber("12a")).isNull();
  }
}
