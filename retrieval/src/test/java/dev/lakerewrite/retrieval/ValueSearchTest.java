package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ValueSearchTest {
  static LakeIndex index;

  @BeforeAll
  static void index() throws Exception {
    index = SampleIndex.index();
  }

  @Test
  void findsTheDiacriticSpellingOfAPlainValue() {
    List<ValueMatch> found = index.searchValue("capital", "Whangarei", 5);
    assertThat(found.subList(0, 3)).anySatisfy(m -> {
      assertThat(m.value()).isEqualTo("Whangārei");
      assertThat(m.column()).isEqualTo("label");
      assertThat(m.literal()).isEqualTo(LiteralMatch.NORMALIZED);
      assertThat(m.table()).isEqualTo("capital");
    });
    assertThat(found).isSortedAccordingTo((a, b) -> Double.compare(b.score(), a.score()));
  }

  @Test
  void findsTheLongerNameThatContainsTheValue() {
    List<ValueMatch> found = index.searchValue("region_of_new_zealand", "Wellington", 5);
    assertThat(found.subList(0, 3)).anySatisfy(m -> {
      assertThat(m.value()).isEqualTo("Wellington Region");
      assertThat(m.literal()).isEqualTo(LiteralMatch.SUBSTRING);
      assertThat(m.score()).isEqualTo(m.similarity() + m.literalBonus());
    });
  }

  @Test
  void findsValuesByMeaningAndSpellingVariants() {
    assertThat(index.searchValue("region_of_new_zealand", "Manawatu Wanganui", 3))
        .extracting(ValueMatch::value).contains("Manawatū-Whanganui Region");
    assertThat(index.searchValue("authority", "Greater Wellington", 3).get(0).value())
        .isEqualTo("Greater Wellington Regional Council");
  }

  @Test
  void numbersMatchInTheirCanonicalForm() {
    // The lake keeps Wikidata's '+13789' as text; a query writes 13789.
    ValueMatch area = index.searchValue("region_of_new_zealand", "13789", 3).get(0);
    assertThat(area.column()).isEqualTo("area");
    assertThat(area.value()).isEqualTo("+13789");
    assertThat(area.literal()).isEqualTo(LiteralMatch.NORMALIZED);
    assertThat(index.table("region_of_new_zealand").column("area").orElseThrow().family())
        .isEqualTo(TypeFamily.NUMERIC);
  }

  @Test
  void searchesTheWholeLakeWhenTheTableIsUnknown() {
    List<ValueMatch> typo = index.searchValueInLake("Welington", 10);
    assertThat(typo).isNotEmpty().allSatisfy(m -> assertThat(m.value()).containsIgnoringCase("wel"));
    assertThat(typo).extracting(ValueMatch::value).contains("Wellington");
    List<ValueMatch> whangarei = index.searchValueInLake("Whangarei", 10);
    assertThat(whangarei).anySatisfy(m -> {
      assertThat(m.table()).isEqualTo("capital");
      assertThat(m.value()).isEqualTo("Whangārei");
    });
    assertThat(index.searchValueInLake("zzqxv", 5)).isEmpty();
  }

  @Test
  void exampleRowsShowTheMatchedColumnFirstAndQuoteAwkwardNames() throws Exception {
    try (Connection c = SampleIndex.duplicate()) {
      List<ValueMatch> found = index.searchValue(c, "region_of_new_zealand", "Category:Waikato", 3);
      ValueMatch top = found.get(0);
      assertThat(top.column()).isEqualTo("topic's main category");
      assertThat(top.literal()).isEqualTo(LiteralMatch.EXACT);
      assertThat(top.exampleRows()).hasSize(1);
      assertThat(top.exampleRows().get(0)).containsEntry("topic's main category", "Category:Waikato")
          .containsEntry("label", "Waikato Region");
      assertThat(top.exampleRows().get(0).keySet().iterator().next()).isEqualTo("topic's main category");
      assertThat(top.exampleRows().get(0)).hasSizeLessThanOrEqualTo(LakeIndex.EXAMPLE_COLUMNS);
      ValueMatch fips = index.searchValue(c, "region_of_new_zealand", "NZG2", 1).get(0);
      assertThat(fips.column()).isEqualTo("FIPS 10-4 (countries and regions)");
      assertThat(fips.exampleRows()).extracting(r -> r.get("label")).containsExactly("Wellington Region");
    }
  }

  @Test
  void concurrentSearchesEachOnItsOwnConnectionAgreeWithSequentialOnes() throws Exception {
    List<String[]> probes = List.of(new String[] {"capital", "Whangarei"},
        new String[] {"region_of_new_zealand", "Wellington"}, new String[] {"authority", "Hamilton"},
        new String[] {"computer_animated_film", "Toy Story"}, new String[] {"found_in_taxon", "Escherichia coli"},
        new String[] {"head_of_state", "Joe Biden"});
    List<List<ValueMatch>> expected = new ArrayList<>();
    try (Connection c = SampleIndex.duplicate()) {
      for (String[] p : probes) {
        expected.add(index.searchValue(c, p[0], p[1], 5));
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<List<ValueMatch>>>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        futures.add(pool.submit(() -> {
          List<List<ValueMatch>> got = new ArrayList<>();
          try (Connection c = SampleIndex.duplicate()) {
            for (String[] p : probes) {
              got.add(index.searchValue(c, p[0], p[1], 5));
            }
          }
          return got;
        }));
      }
      for (Future<List<List<ValueMatch>>> f : futures) {
        List<List<ValueMatch>> got = f.get();
        for (int i = 0; i < probes.size(); i++) {
          assertThat(got.get(i)).extracting(ValueMatch::table, ValueMatch::column, ValueMatch::value)
              .containsExactlyElementsOf(expected.get(i).stream()
                  .map(m -> org.assertj.core.groups.Tuple.tuple(m.table(), m.column(), m.value())).toList());
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void rejectsUnknownTablesWithASuggestion() {
    assertThatThrownBy(() -> index.searchValue("capitals", "Whangarei", 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("did you mean 'capital'");
    assertThatThrownBy(() -> index.searchValue("capital", "x", 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
