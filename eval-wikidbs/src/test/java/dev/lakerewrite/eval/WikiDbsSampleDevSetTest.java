package dev.lakerewrite.eval;

import dev.lakerewrite.core.TestLakes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeSession;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The development set over the WikiDBs sample: every golden query runs on the lake (loaded by core's
 * {@code DataLake.fromWikiDbs}, run through core's safe executor) and returns something a rewrite can be judged by, every tag and difficulty is covered, and no
 * user query already answers its own question.
 */
class WikiDbsSampleDevSetTest {

  private static LakeSession session;
  private static List<String> tables;
  private static LoadedPairs loaded;

  @BeforeAll
  static void load() throws IOException {
    DataLake lake = TestLakes.sample();
    session = lake.openSession();
    tables = lake.catalog().tableNames();
    loaded = PairLoader.builder().goldRunner(LakeQueryRunner.on(session)).lakeTables(tables).build()
        .loadResource(PairLoader.WIKIDBS_SAMPLE_DEV_SET);
  }

  @AfterAll
  static void closeSession() {
    session.close();
  }

  @Test
  void theLakeHasTheTwentyNineTablesCoreWillName() {
    assertThat(tables).hasSize(29).contains("1992_winter_olympics",
        "computer_animated_film_category_of_associated_people", "region_of_new_zealand_category_of_associated_people",
        "located_in_the_administrative_territorial_entity", "original_language_of_film_or_tv_show");
  }

  @Test
  void everyPairLoadsWithoutAnyProblem() {
    assertThat(loaded.problemReport()).isEmpty();
    assertThat(loaded.lake()).isEqualTo("wikidbs-sample");
    assertThat(loaded.pairs()).hasSizeGreaterThanOrEqualTo(80);
  }

  @Test
  void theFileHoldsPairsOnlyNeverCopiesOfTheData() throws IOException {
    LoadedPairs parsed = PairLoader.parseOnly().loadResource(PairLoader.WIKIDBS_SAMPLE_DEV_SET);
    assertThat(parsed.problems()).isEmpty();
    assertThat(parsed.pairs()).noneMatch(QueryResultPair::hasResultTable);
  }

  @Test
  void everyTagAppearsAtLeastTenTimesAndEveryDifficultyIsUsed() {
    Map<DifficultyTag, Integer> tags = new EnumMap<>(DifficultyTag.class);
    Map<Difficulty, Integer> difficulties = new EnumMap<>(Difficulty.class);
    for (QueryResultPair p : loaded.pairs()) {
      p.difficultyTags().forEach(t -> tags.merge(t, 1, Integer::sum));
      difficulties.merge(p.difficulty(), 1, Integer::sum);
    }
    for (DifficultyTag t : DifficultyTag.values()) {
      assertThat(tags.getOrDefault(t, 0)).as("pairs tagged %s", t).isGreaterThanOrEqualTo(10);
    }
    for (Difficulty d : Difficulty.values()) {
      assertThat(difficulties.getOrDefault(d, 0)).as("%s pairs", d).isGreaterThanOrEqualTo(10);
    }
    assertThat(loaded.pairs().stream().filter(QueryResultPair::noisy).count())
        .isEqualTo((long) tags.get(DifficultyTag.NOISE));
  }

  @Test
  void everyGoldResultIsNonTrivialInEveryColumn() {
    for (QueryResultPair p : loaded.pairs()) {
      PlainTable t = p.expectedResult();
      assertThat(t.rowCount()).as("%s rows", p.id()).isPositive();
      for (int c = 0; c < t.columnCount(); c++) {
        assertThat(t.columnValues(c)).as("%s column %s", p.id(), t.columns().get(c)).anyMatch(v -> v != null);
      }
      assertThat(p.score(t).executionMatch()).as("%s against itself", p.id()).isTrue();
    }
  }

  private static final Pattern FROM_OR_JOIN =
      Pattern.compile("(?i)\\b(?:FROM|JOIN)\\s+\"?([A-Za-z0-9_]+)\"?");

  @Test
  void requiredTablesAreExactlyTheTablesTheGoldenQueryReads() {
    Set<String> lakeTables = new HashSet<>(tables);
    for (QueryResultPair p : loaded.pairs()) {
      Set<String> read = new HashSet<>();
      Matcher m = FROM_OR_JOIN.matcher(p.goldenQuery());
      while (m.find()) {
        String name = m.group(1).toLowerCase(Locale.ROOT);
        if (lakeTables.contains(name)) {
          read.add(name);
        }
      }
      assertThat(read).as("%s reads", p.id()).containsExactlyInAnyOrderElementsOf(p.requiredTables());
    }
  }

  @Test
  void noUserQueryAlreadyAnswersItsQuestionOnTheCleanLake() {
    QueryRunner runner = LakeQueryRunner.on(session);
    List<String> alreadyRight = new ArrayList<>();
    int failing = 0;
    for (QueryResultPair p : loaded.pairs()) {
      try {
        PlainTable asWritten = runner.run(p.userQuery());
        if (p.score(asWritten).executionMatch()) {
          alreadyRight.add(p.id());
        }
      } catch (QueryRunException e) {
        failing++;
      }
    }
    assertThat(alreadyRight).isEmpty();
    // Users name tables the lake does not have: almost every user query fails as written.
    assertThat(failing).isGreaterThanOrEqualTo(loaded.pairs().size() * 9 / 10);
  }

  @Test
  void noisePairsAreMarkedAndSayWhichColumnsTheNoiseMustHit() {
    List<QueryResultPair> noisy = loaded.pairs().stream().filter(QueryResultPair::noisy).toList();
    assertThat(noisy).hasSizeGreaterThanOrEqualTo(10);
    assertThat(noisy).allSatisfy(p -> {
      assertThat(p.hasTag(DifficultyTag.NOISE)).isTrue();
      assertThat(p.notes()).contains("noisy lake", "Noise must hit");
    });
    assertThat(loaded.pairs()).filteredOn(p -> !p.noisy()).noneMatch(p -> p.hasTag(DifficultyTag.NOISE));
  }
}
