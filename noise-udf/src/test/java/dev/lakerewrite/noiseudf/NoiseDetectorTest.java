package dev.lakerewrite.noiseudf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NoiseDetectorTest {

  private final NoiseDetector detector = NoiseDetector.create();

  private static ColumnSample sample(String column, String... values) {
    java.util.Map<String, Long> counts = new java.util.LinkedHashMap<>();
    for (String v : values) {
      counts.merge(v, 1L, Long::sum);
    }
    List<ValueCount> vc = counts.entrySet().stream().map(e -> new ValueCount(e.getKey(), e.getValue())).toList();
    return new ColumnSample("t", column, "VARCHAR", values.length, vc);
  }

  private static List<NoiseKind> kinds(List<NoiseFinding> findings) {
    return findings.stream().map(NoiseFinding::kind).toList();
  }

  @Test
  void findsPlusSignedNumbersStoredAsTextInTheSample() throws Exception {
    Connection c = SharedLake.connection();
    List<NoiseFinding> findings = detector.detect(c, "region_of_new_zealand");
    NoiseFinding area = findings.stream()
        .filter(f -> f.column().equals("area") && f.kind() == NoiseKind.NUMBER_FORMAT).findFirst().orElseThrow();
    assertThat(area.examples()).anyMatch(e -> e.equals("'+13789' → 13789"));
    assertThat(area.affectedRows()).isEqualTo(area.sampledRows());
    assertThat(area.evidence()).contains("explicit '+' sign");
    assertThat(area.parameters()).containsEntry("decimal_separator", ".");
    // ID-like columns (leading zeros, e.g. postal codes) are not numbers
    List<NoiseFinding> capital = detector.detect(c, "capital");
    assertThat(capital).noneMatch(f -> f.kind() == NoiseKind.NUMBER_FORMAT
        && (f.column().equals("postal code") || f.column().equals("local dialing code")));
    assertThat(capital).anyMatch(f -> f.kind() == NoiseKind.NUMBER_FORMAT && f.column().equals("elevation above sea level"));
  }

  @Test
  void findsWhangareiDiacriticVariantsAcrossColumnsAndTables() throws Exception {
    Connection c = SharedLake.connection();
    List<NoiseFinding> withinCapital = detector.detectVariants(NoiseDetector.samples(c, "capital", List.of(), 1000));
    assertThat(withinCapital)
        .filteredOn(f -> f.kind() == NoiseKind.DIACRITICS)
        .anySatisfy(f -> {
          assertThat(f.column()).isEqualTo("Quora topic ID");
          assertThat(f.examples()).anyMatch(e -> e.contains("'Whangarei' here ~ 'Whangārei' in capital."));
        });
    List<ColumnSample> samples = new ArrayList<>();
    samples.addAll(NoiseDetector.samples(c, "capital", List.of("label"), 1000));
    samples.addAll(NoiseDetector.samples(c, "applies_to_jurisdiction", List.of("label", "authority"), 1000));
    List<NoiseFinding> across = detector.detectVariants(samples);
    assertThat(across)
        .anySatisfy(f -> {
          assertThat(f.kind()).isEqualTo(NoiseKind.DIACRITICS);
          assertThat(f.table()).isEqualTo("applies_to_jurisdiction");
          assertThat(f.examples()).anyMatch(e -> e.contains("'Whangarei District'") && e.contains("'Whangārei' in capital.label"));
        });
  }

  @Test
  void isConservativeOnTheCleanSample() throws Exception {
    Connection c = SharedLake.connection();
    List<NoiseFinding> all = new ArrayList<>();
    for (String table : SharedLake.tables()) {
      all.addAll(detector.detect(c, table));
    }
    assertThat(all).isNotEmpty();
    assertThat(kinds(all)).doesNotContain(NoiseKind.ENCODING, NoiseKind.BOOLEAN, NoiseKind.DATE_FORMAT, NoiseKind.DIACRITICS);
    // real invisible junk in the sample: two values end in a left-to-right mark (U+200E)
    assertThat(all).filteredOn(f -> f.kind() == NoiseKind.MARKUP)
        .allSatisfy(f -> assertThat(f.examples().get(0)).contains("\\u200E"))
        .hasSize(2);
    // the one real whitespace oddity of the sample (runs of spaces in gene names) is reported with counts
    assertThat(all).filteredOn(f -> f.kind() == NoiseKind.WHITESPACE)
        .allSatisfy(f -> assertThat(f.examples().get(0)).startsWith("'acetyltransferase"));
  }

  @Test
  void cutOffFreeTextKeepsItsSpacesButTabsAndDoubledSpacesAreNoise() {
    // Comments cut at a fixed width begin or end with one space; that is their value, not noise.
    String[] comments = {" carefully final deposits", "ironic requests ", "slyly even packages", " blithely bold ",
        "furiously express accounts"};
    assertThat(kinds(detector.detect(sample("comment", comments)))).doesNotContain(NoiseKind.WHITESPACE);
    String[] tabbed = comments.clone();
    tabbed[2] = "slyly even packages\t";
    assertThat(kinds(detector.detect(sample("comment", tabbed)))).contains(NoiseKind.WHITESPACE);
    String[] doubled = comments.clone();
    doubled[4] = "furiously  express accounts";
    assertThat(kinds(detector.detect(sample("comment", doubled)))).contains(NoiseKind.WHITESPACE);
    assertThat(kinds(detector.detect(sample("city", " Hamilton", "Hamilton", "Tauranga"))))
        .as("a value that is another once trimmed").contains(NoiseKind.WHITESPACE);
  }

  @Test
  void aFewCutOffFragmentsThatMeetAnotherOnceTrimmedAreNoNoise() {
    // Many short fragments of free text: one in four begins with a space, and one of those happens to equal another.
    List<String> fragments = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      fragments.add((i % 4 == 0 ? " " : "") + "slyly even packages " + i);
    }
    fragments.add("deposits");
    fragments.add(" deposits");
    assertThat(kinds(detector.detect(sample("comment", fragments.toArray(String[]::new)))))
        .doesNotContain(NoiseKind.WHITESPACE);
  }

  @Test
  void reportsBooleanZooDatesMojibakeWhitespaceAndCaseWithinAColumn() {
    List<NoiseFinding> bools = detector.detect(sample("flag", "true", "false", "yes", "T", "0", "no", "TRUE", "true"));
    assertThat(kinds(bools)).contains(NoiseKind.BOOLEAN);
    assertThat(detector.detect(sample("flag", "true", "false", "true"))).isEmpty();
    assertThat(detector.detect(sample("n", "0", "1", "1", "0"))).isEmpty();
    // One digit with markup and whitespace noise is no boolean zoo.
    assertThat(kinds(detector.detect(sample("priority", "0", "0", "0", " 0", "<b>0</b>", "0\u00AD"))))
        .doesNotContain(NoiseKind.BOOLEAN);

    List<NoiseFinding> dates = detector.detect(sample("d", "+1995-11-22T00:00:00Z", "24.11.1999", "Nov 3, 2001", "+2001-03-04T00:00:00Z", "25/12/2010"));
    NoiseFinding date = dates.stream().filter(f -> f.kind() == NoiseKind.DATE_FORMAT).findFirst().orElseThrow();
    assertThat(date.evidence()).contains("4 date formats");
    assertThat(date.parameters()).containsEntry("date_order", "DMY");
    assertThat(detector.detect(sample("d", "+1995-11-22T00:00:00Z", "+1999-11-24T00:00:00Z"))).isEmpty();

    List<NoiseFinding> text = detector.detect(sample("name", Cleaners.toMojibake("Whangārei"), " Hamilton", "Hamilton", "HAMILTON", "Ōpōtiki", "Opotiki"));
    assertThat(kinds(text)).contains(NoiseKind.ENCODING, NoiseKind.WHITESPACE, NoiseKind.CASING, NoiseKind.DIACRITICS);
    NoiseFinding enc = text.stream().filter(f -> f.kind() == NoiseKind.ENCODING).findFirst().orElseThrow();
    assertThat(enc.examples().get(0)).endsWith("→ 'Whangārei'");

    List<NoiseFinding> numbers = detector.detect(sample("x", "12 484,59", "1.234,5", "17", "3,25"));
    NoiseFinding num = numbers.stream().filter(f -> f.kind() == NoiseKind.NUMBER_FORMAT).findFirst().orElseThrow();
    assertThat(num.parameters()).containsEntry("decimal_separator", ",");
    assertThat(detector.detect(new ColumnSample("t", "n", "BIGINT", 3, List.of(new ValueCount("1", 3))))).isEmpty();
  }

  @Test
  void oneLetterCodesInAnotherCaseAreCaseVariantsOnlyWhereTheColumnWritesThemInOneCase() {
    List<String> status = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      status.add("O");
      status.add("F");
    }
    status.add("P");
    status.addAll(List.of("o", "o", "f"));
    NoiseFinding casing = detector.detect(sample("orderstatus", status.toArray(String[]::new))).stream()
        .filter(f -> f.kind() == NoiseKind.CASING).findFirst().orElseThrow();
    assertThat(casing.affectedRows()).isEqualTo(3);
    // Grades written both ways as often: two codes, not one in two spellings.
    assertThat(kinds(detector.detect(sample("grade", "A", "a", "B", "b", "A", "a", "b", "B"))))
        .doesNotContain(NoiseKind.CASING);
    // An upper-case majority for one letter and a lower-case one for another: no convention to restore.
    assertThat(kinds(detector.detect(sample("flag", "A", "A", "a", "b", "b", "B"))))
        .doesNotContain(NoiseKind.CASING);
  }

  @Test
  void badNamesGetDidYouMean() throws Exception {
    Connection c = SharedLake.connection();
    assertThatThrownBy(() -> detector.detect(c, "capitol")).hasMessageContaining("no table 'capitol'").hasMessageContaining("capital");
    assertThatThrownBy(() -> detector.detect(c, "capital", List.of("lable")))
        .hasMessageContaining("no column 'lable' in table 'capital'").hasMessageContaining("label");
  }
}
