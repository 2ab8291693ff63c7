package dev.lakerewrite.noiseudf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class CleanersTest {

  @Test
  void unaccentStripsDiacriticsAndStrokeLettersButKeepsLigatures() {
    assertThat(Cleaners.unaccent("Whangārei")).isEqualTo("Whangarei");
    assertThat(Cleaners.unaccent("Ōpōtiki District")).isEqualTo("Opotiki District");
    assertThat(Cleaners.unaccent("Łódź, Søren, Đorđe")).isEqualTo("Lodz, Soren, Dorde");
    assertThat(Cleaners.unaccent("Encyclopædia Straße")).isEqualTo("Encyclopædia Straße");
    // decomposed input (a + combining macron) behaves like the precomposed one
    assertThat(Cleaners.unaccent("Whanga\u0304rei")).isEqualTo("Whangarei");
    assertThat(Cleaners.unaccent(null)).isNull();
    assertThat(Cleaners.hasDiacritics("Whangārei")).isTrue();
    assertThat(Cleaners.hasDiacritics("Whangarei")).isFalse();
    assertThat(Cleaners.hasDiacritics("Encyclopædia")).isFalse();
  }

  @Test
  void whitespaceCollapsesEveryKindOfSpace() {
    assertThat(Cleaners.collapseWhitespace("  Hamilton\u00A0 \t City\n")).isEqualTo("Hamilton City");
    assertThat(Cleaners.collapseWhitespace("\u202F\u2007x")).isEqualTo("x");
    assertThat(Cleaners.collapseWhitespace("a\u00A0b")).isEqualTo("a b");
    assertThat(Cleaners.collapseWhitespace("   ")).isEmpty();
    assertThat(Cleaners.collapseWhitespace("clean")).isSameAs("clean");
    assertThat(Cleaners.collapseWhitespace(null)).isNull();
  }

  @Test
  void punctuationSpacingLeavesNumbersAndUrlsAlone() {
    assertThat(Cleaners.punctuationSpacing("Hamilton ,New Zealand")).isEqualTo("Hamilton, New Zealand");
    assertThat(Cleaners.punctuationSpacing("( Kirby ) !")).isEqualTo("(Kirby)!");
    assertThat(Cleaners.punctuationSpacing("It ends here .")).isEqualTo("It ends here.");
    assertThat(Cleaners.punctuationSpacing("1,5 and 3.14")).isEqualTo("1,5 and 3.14");
    assertThat(Cleaners.punctuationSpacing("http://www.wdc.govt.nz")).isEqualTo("http://www.wdc.govt.nz");
    assertThat(Cleaners.punctuationSpacing("Category:People")).isEqualTo("Category:People");
    assertThat(Cleaners.punctuationSpacing(null)).isNull();
  }

  @Test
  void markupRemovalDecodesEntitiesAndDropsInvisibleCharacters() {
    assertThat(Cleaners.stripMarkup("<b>Toy&amp;Story</b>")).isEqualTo("Toy&Story");
    assertThat(Cleaners.stripMarkup("caf&#233; &#x41;")).isEqualTo("café A");
    assertThat(Cleaners.stripMarkup("Zero\u200Bwidth\uFEFF soft\u00ADhyphen\u0007")).isEqualTo("Zerowidth softhyphen");
    assertThat(Cleaners.stripMarkup("a\tb\nc")).isEqualTo("a b c");
    assertThat(Cleaners.stripMarkup("x < y and y > z")).isEqualTo("x < y and y > z");
    assertThat(Cleaners.stripMarkup("AT&T &unknown;")).isEqualTo("AT&T &unknown;");
    assertThat(Cleaners.stripMarkup(null)).isNull();
  }

  @Test
  void mojibakeRepairInvertsUtf8ReadAsWindows1252AndLeavesRealTextAlone() {
    for (String original : List.of("Whangārei", "São Paulo", "Manawatū-Whanganui", "Ærø – “quoted”", "Gran Enciclopèdia Catalana", "Москва", "東京")) {
      String broken = Cleaners.toMojibake(original);
      assertThat(broken).isNotEqualTo(original);
      assertThat(Cleaners.fixMojibake(broken)).as(broken).isEqualTo(original);
      assertThat(Cleaners.fixMojibake(original)).isEqualTo(original);
      // double mojibake is repaired too
      assertThat(Cleaners.fixMojibake(Cleaners.toMojibake(broken))).isEqualTo(original);
    }
    assertThat(Cleaners.fixMojibake("SÃ£o Paulo")).isEqualTo("São Paulo");
    // a character outside Windows-1252 does not block the repair of the rest
    assertThat(Cleaners.fixMojibake(Cleaners.toMojibake("Whangārei") + "\u200B → " + Cleaners.toMojibake("Ōpōtiki")))
        .isEqualTo("Whangārei\u200B → Ōpōtiki");
    assertThat(Cleaners.fixMojibake("plain ascii")).isEqualTo("plain ascii");
    assertThat(Cleaners.fixMojibake("Ã")).isEqualTo("Ã");
    assertThat(Cleaners.fixMojibake(null)).isNull();
  }

  @Test
  void casefoldAndKeysUnifySpellingVariants() {
    assertThat(Cleaners.casefold("STRAßE")).isEqualTo("strasse");
    assertThat(Cleaners.casefold("ＴＯＹ")).isEqualTo("toy");
    assertThat(Cleaners.textKey("Whangārei")).isEqualTo("whangarei");
    assertThat(Cleaners.textKey("  WHANGAREI ")).isEqualTo("whangarei");
    assertThat(Cleaners.textKey(Cleaners.toMojibake("Whangārei"))).isEqualTo("whangarei");
    assertThat(Cleaners.textKey("Manawatū\u2013Whanganui")).isEqualTo("manawatu-whanganui");
    assertThat(Cleaners.cleanText("  Whang" + "\u0101" + "rei&nbsp;")).isEqualTo("Whangārei");
    assertThat(Cleaners.cleanText("Toy Story")).isSameAs("Toy Story");
  }

  @Test
  void booleansAreStrict() {
    for (String t : List.of("t", "TRUE", " yes ", "Y", "1", "on", "trüe", "Ja", "✓", "True.")) {
      assertThat(Cleaners.parseBoolean(t)).as(t).isTrue();
    }
    for (String f : List.of("f", "False", "NO", "n", "0", "off", "nein", "✗")) {
      assertThat(Cleaners.parseBoolean(f)).as(f).isFalse();
    }
    for (String g : List.of("maybe", "2", "", "yes please", "10", "truth")) {
      assertThat(Cleaners.parseBoolean(g)).as(g).isNull();
    }
    assertThat(Cleaners.parseBoolean(null)).isNull();
  }

  @Test
  void datesNormaliseToIsoFromCommonFormats() {
    assertThat(Cleaners.isoDate("+1995-11-22T00:00:00Z")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("+1992-00-00T00:00:00Z")).isEqualTo("1992");
    assertThat(Cleaners.isoDate("+1787-04-00T00:00:00Z")).isEqualTo("1787-04");
    assertThat(Cleaners.isoDate("-0044-03-15T00:00:00Z")).isEqualTo("-0044-03-15");
    assertThat(Cleaners.isoDate("1995-11-22")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("1995-11-22 13:45:00")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("1995/11/22")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("22.11.1995")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("22/11/1995")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("11/22/1995")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("03/04/2020")).isEqualTo("2020-04-03");
    assertThat(Cleaners.isoDate("03/04/2020", Cleaners.DateOrder.MDY)).isEqualTo("2020-03-04");
    assertThat(Cleaners.isoDate("03.04.2020", Cleaners.DateOrder.MDY)).isEqualTo("2020-04-03");
    assertThat(Cleaners.isoDate("22 November 1995")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("Nov 22, 1995")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("November 22nd 1995")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("22-Nov-1995")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("November 1995")).isEqualTo("1995-11");
    assertThat(Cleaners.isoDate("1995")).isEqualTo("1995");
    assertThat(Cleaners.isoDate("19951122")).isEqualTo("1995-11-22");
    assertThat(Cleaners.isoDate("19951122.0")).isEqualTo("1995-11-22"); // a compact date some step typed as a double
    assertThat(Cleaners.isoDate(" +1995-11-22t00:00:00z ")).isEqualTo("1995-11-22");
    for (String bad : List.of("31.02.2020", "2020-13-01", "Toy Story", "13789", "19951322", "19950230", "39951122", "1/2/3", "", "Smarch 3, 2001")) {
      assertThat(Cleaners.isoDate(bad)).as(bad).isNull();
    }
    assertThat(Cleaners.isoDate(null)).isNull();
    assertThat(Cleaners.parseDate("22.11.1995", Cleaners.DateOrder.DMY)).isEqualTo(LocalDate.of(1995, 11, 22));
    assertThat(Cleaners.parseDate("1992", Cleaners.DateOrder.DMY)).isNull();
    assertThatThrownBy(() -> Cleaners.DateOrder.parse("YMD")).hasMessageContaining("'DMY' or 'MDY'");
  }

  @Test
  void numbersParseSignsGroupsAndDecimalCommas() {
    assertThat(Cleaners.parseNumber("+13789")).isEqualTo(13789.0);
    assertThat(Cleaners.parseNumber("1.234,5")).isEqualTo(1234.5);
    assertThat(Cleaners.parseNumber("12 484,59")).isEqualTo(12484.59);
    assertThat(Cleaners.parseNumber("12\u00A0484,59")).isEqualTo(12484.59);
    assertThat(Cleaners.parseNumber("1,234,567.89")).isEqualTo(1234567.89);
    assertThat(Cleaners.parseNumber("1.234.567")).isEqualTo(1234567.0);
    assertThat(Cleaners.parseNumber("13,789")).isEqualTo(13789.0);
    assertThat(Cleaners.parseNumber("13,789", ',')).isEqualTo(13.789);
    assertThat(Cleaners.parseNumber("13.789", ',')).isEqualTo(13789.0);
    assertThat(Cleaners.parseNumber("2854,325")).isEqualTo(2854.325);
    assertThat(Cleaners.parseNumber("0,5")).isEqualTo(0.5);
    assertThat(Cleaners.parseNumber("-35.719")).isEqualTo(-35.719);
    assertThat(Cleaners.parseNumber("\u22123")).isEqualTo(-3.0);
    assertThat(Cleaners.parseNumber("1'000'000")).isEqualTo(1_000_000.0);
    assertThat(Cleaners.parseNumber("2.5e3")).isEqualTo(2500.0);
    assertThat(Cleaners.parseNumber(" +81 ")).isEqualTo(81.0);
    assertThat(Cleaners.parseNumber(".5")).isEqualTo(0.5);
    // Numbers a lake wrote with a unit or a currency.
    assertThat(Cleaners.parseNumber("214,092 units")).isEqualTo(214092.0);
    assertThat(Cleaners.parseNumber("1,308,733 EUR")).isEqualTo(1308733.0);
    assertThat(Cleaners.parseNumber("28.0 kg")).isEqualTo(28.0);
    assertThat(Cleaners.parseNumber("$12.50")).isEqualTo(12.5);
    assertThat(Cleaners.parseNumber("-$3")).isEqualTo(-3.0);
    assertThat(Cleaners.parseNumber("USD 1,234.50")).isEqualTo(1234.5);
    assertThat(Cleaners.parseNumber("usd 998.83")).isEqualTo(998.83);
    assertThat(Cleaners.parseNumber("Rs. 120")).isEqualTo(120.0);
    assertThat(Cleaners.parseNumber("EUR -12,5")).isEqualTo(-12.5);
    for (String bad : List.of("1,2,3", "12a", "abc", "", "+", "1.234,567.8", "12 34", "1..2", "/m/01z7k4", "NZ-NTL",
        "12 34 kg", "Brand#12", "units", "1992 Winter Olympics", "USD 12 kg", "USD", "Route 66A", "Q 4")) {
      assertThat(Cleaners.parseNumber(bad)).as(bad).isNull();
    }
    assertThat(Cleaners.parseNumber(null)).isNull();
    assertThat(Cleaners.parseDecimal("1.234,5", null, 2)).isEqualByComparingTo("1234.50");
    assertThatThrownBy(() -> Cleaners.parseNumber("1", ';')).hasMessageContaining("'.' or ','");
  }

  @Test
  void categoriesCanonicaliseToTheVocabularyOrStayUnchanged() {
    List<String> vocabulary = List.of("Whangārei", "Auckland", "New Zealand");
    assertThat(Cleaners.canonicalize("whangarei ", vocabulary)).isEqualTo("Whangārei");
    assertThat(Cleaners.canonicalize("NEW  ZEALAND", vocabulary)).isEqualTo("New Zealand");
    assertThat(Cleaners.canonicalize("Hamilton", vocabulary)).isEqualTo("Hamilton");
    assertThat(Cleaners.canonicalize(null, vocabulary)).isNull();
  }
}
