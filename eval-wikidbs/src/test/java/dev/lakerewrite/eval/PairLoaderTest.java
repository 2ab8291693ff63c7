package dev.lakerewrite.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.QueryLimits;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PairLoaderTest {

  private static DataLake lake;
  private static LakeSession session;

  @BeforeAll
  static void lake(@TempDir Path dir) throws IOException {
    Path csv = dir.resolve("csv");
    Files.createDirectories(csv);
    Files.writeString(csv.resolve("region_of_new_zealand.csv"),
        "label,population\nNorthland Region,+179100\nOtago Region,+229200\nNelson Region,\n");
    lake = DataLake.builder().cacheDirectory(dir.resolve("cache")).fromCsvFolder(csv);
    session = lake.openSession();
  }

  @AfterAll
  static void close() {
    session.close();
    lake.close();
  }

  /** Golden queries run through core's safe executor, as in the harness. */
  private static QueryRunner runner() {
    return LakeQueryRunner.on(session);
  }

  private static PairLoader withLake() {
    return PairLoader.builder().goldRunner(runner()).lakeTables(List.of("region_of_new_zealand")).build();
  }

  private static final String GOOD = """
      {
        "id": "p1",
        "user_query": ["SELECT name, population", "FROM nz_regions", "ORDER BY name"],
        "golden_query": "SELECT label AS name, population FROM region_of_new_zealand WHERE population IS NOT NULL ORDER BY label",
        "difficulty": "easy",
        "difficulty_tags": ["Name Mismatch"],
        "required_tables": ["region_of_new_zealand"]
      }""";

  private static String file(String... pairs) {
    return "{\"lake\": \"test\", \"description\": \"unit test\", \"pairs\": [\n" + String.join(",\n", pairs) + "\n]}";
  }

  @Test
  void readsAGoodPairAndComputesItsResultFromTheGoldenQuery() {
    LoadedPairs loaded = withLake().load(file(GOOD), "t.json");
    assertThat(loaded.problems()).isEmpty();
    assertThat(loaded.lake()).isEqualTo("test");
    assertThat(loaded.description()).isEqualTo("unit test");
    QueryResultPair p = loaded.pairs().get(0);
    assertThat(p.userQuery()).isEqualTo("SELECT name, population\nFROM nz_regions\nORDER BY name");
    assertThat(p.difficulty()).isEqualTo(Difficulty.EASY);
    assertThat(p.difficultyTags()).containsExactly(DifficultyTag.NAME_MISMATCH);
    assertThat(p.noisy()).isFalse();
    assertThat(p.ordered()).isTrue();
    assertThat(p.notes()).isEmpty();
    assertThat(p.expectedResult().columns()).containsExactly("name", "population");
    assertThat(p.expectedResult().rows()).containsExactly(
        List.of("Northland Region", "+179100"), List.of("Otago Region", "+229200"));
    assertThat(p.score(p.expectedResult()).executionMatch()).isTrue();
  }

  @Test
  void aBareArrayIsAPairFileToo() {
    LoadedPairs loaded = PairLoader.parseOnly().load("[" + GOOD + "]", "bare.json");
    assertThat(loaded.problems()).isEmpty();
    assertThat(loaded.pairs()).hasSize(1);
    assertThat(loaded.pairs().get(0).hasResultTable()).isFalse();
    assertThatThrownBy(() -> loaded.pairs().get(0).expectedResult())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("'p1' has no result table");
  }

  @Test
  void storedResultTablesAreReadInBothShapes() {
    String rowsShape = GOOD.replace("\"difficulty\": \"easy\",", "\"difficulty\": \"easy\", \"result_table\": "
        + "{\"columns\": [\"name\", \"population\"], \"rows\": [[\"Northland Region\", 179100], "
        + "[\"Otago Region\", 229200.0]]},");
    String recordsShape = GOOD.replace("\"p1\"", "\"p2\"").replace("\"difficulty\": \"easy\",",
        "\"difficulty\": \"easy\", \"result_table\": [{\"name\": \"Northland Region\", \"population\": \"+179100\"},"
            + " {\"population\": \"+229200\", \"name\": \"Otago Region\"}],");
    LoadedPairs loaded = withLake().load(file(rowsShape, recordsShape), "shapes.json");
    assertThat(loaded.problems()).isEmpty(); // numbers and numeric strings agree with the lake's "+179100"
    assertThat(loaded.pairs().get(0).expectedResult().rows().get(1)).containsExactly("Otago Region",
        new BigDecimal("229200.0"));
    assertThat(loaded.pairs().get(1).expectedResult().columns()).containsExactly("name", "population");
    assertThat(loaded.pairs().get(1).expectedResult().rows().get(1)).containsExactly("Otago Region", "+229200");
  }

  @Test
  void aStoredResultThatDisagreesWithTheLakeIsAWarningAndIsKept() {
    String stale = GOOD.replace("\"difficulty\": \"easy\",", "\"difficulty\": \"easy\", \"result_table\": "
        + "{\"columns\": [\"name\", \"population\"], \"rows\": [[\"Northland Region\", 1]]},");
    LoadedPairs loaded = withLake().load(file(stale), "stale.json");
    assertThat(loaded.pairs()).hasSize(1);
    assertThat(loaded.pairs().get(0).expectedResult().rowCount()).isEqualTo(1);
    assertThat(loaded.errors()).isEmpty();
    assertThat(loaded.warnings()).singleElement().satisfies(w -> {
      assertThat(w.kind()).isEqualTo(PairProblem.Kind.RESULT_MISMATCH);
      assertThat(w.message()).contains("1 rows", "2 rows");
    });
  }

  @Test
  void everyProblemOfABadPairIsReportedAndTheGoodPairsSurvive() {
    String bad = """
        {
          "id": "p2",
          "user_query": "SELECT 1",
          "difficulty": "impossible",
          "difficulty_tags": ["Name Mismatch", "Filter Missmatch", "Joins"],
          "required_tables": ["region_of_new_zeeland"],
          "golden_sql": "x"
        }""";
    LoadedPairs loaded = withLake().load(file(GOOD, bad), "bad.json");
    assertThat(loaded.pairs()).extracting(QueryResultPair::id).containsExactly("p1");
    assertThat(loaded.problems()).allSatisfy(p -> {
      assertThat(p.pairId()).isEqualTo("p2");
      assertThat(p.index()).isEqualTo(1);
      assertThat(p.line()).isEqualTo(10);
    });
    assertThat(loaded.problems()).extracting(PairProblem::kind).containsExactlyInAnyOrder(
        PairProblem.Kind.UNKNOWN_FIELD, PairProblem.Kind.MISSING_FIELD, PairProblem.Kind.INVALID_FIELD,
        PairProblem.Kind.UNKNOWN_TAG, PairProblem.Kind.UNKNOWN_TAG, PairProblem.Kind.UNKNOWN_TABLE);
    String report = loaded.problemReport();
    assertThat(report).contains("bad.json:10: error MISSING_FIELD: pair #1 'p2': missing field 'golden_query'");
    assertThat(report).contains("unknown difficulty tag 'Filter Missmatch'; did you mean 'Filter Mismatch'?");
    assertThat(report).contains("unknown difficulty tag 'Joins' (the tags are [Name Mismatch, Missing Table,");
    assertThat(report).contains("unknown field 'golden_sql' ignored; did you mean 'golden_query'?");
    assertThat(report).contains("required table 'region_of_new_zeeland' is not in the lake; did you mean "
        + "'region_of_new_zealand'?");
    assertThat(report).contains("'difficulty' must be easy, medium or hard, was \"impossible\"");
  }

  @Test
  void tagsAreReadLeniently() {
    String p = GOOD.replace("[\"Name Mismatch\"]", "[\"name_mismatch\", \"MISSING-TABLE\", \"key mismatch\"]");
    QueryResultPair pair = PairLoader.parseOnly().load(file(p), "t").pairs().get(0);
    assertThat(pair.difficultyTags()).containsExactly(DifficultyTag.NAME_MISMATCH, DifficultyTag.MISSING_TABLE,
        DifficultyTag.KEY_MISMATCH);
  }

  @Test
  void aDuplicateIdDropsTheLaterPair() {
    LoadedPairs loaded = PairLoader.parseOnly().load(file(GOOD, GOOD), "dup.json");
    assertThat(loaded.pairs()).hasSize(1);
    assertThat(loaded.errors()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo(PairProblem.Kind.DUPLICATE_ID);
      assertThat(e.index()).isEqualTo(1);
      assertThat(e.message()).contains("pair #0 (line 2) already uses 'p1'");
    });
  }

  @Test
  void brokenJsonIsReportedWithLineAndColumnAndEarlierPairsAreKept() {
    String broken = file(GOOD, GOOD.replace("\"p1\"", "\"p2\"").replace("\"easy\",", "\"easy\"  \"x\": 1,"));
    LoadedPairs loaded = PairLoader.parseOnly().load(broken, "broken.json");
    assertThat(loaded.pairs()).extracting(QueryResultPair::id).containsExactly("p1");
    assertThat(loaded.errors()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo(PairProblem.Kind.SYNTAX);
      assertThat(e.line()).isEqualTo(14);
      assertThat(e.column()).isGreaterThan(1);
      assertThat(e.message()).contains("broken JSON", "the 1 pairs before it were read");
    });
    assertThat(loaded.problemReport()).startsWith("broken.json:14:");
  }

  @Test
  void aDuplicatedKeyInsideAPairIsBrokenJson() {
    String twice = GOOD.replace("\"difficulty\": \"easy\",", "\"difficulty\": \"easy\", \"difficulty\": \"hard\",");
    LoadedPairs loaded = PairLoader.parseOnly().load(file(twice), "twice.json");
    assertThat(loaded.pairs()).isEmpty();
    assertThat(loaded.errors()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo(PairProblem.Kind.SYNTAX);
      assertThat(e.message()).contains("difficulty");
    });
  }

  @Test
  void aGoldenQueryThatDoesNotRunIsReportedWithTheDatabaseError() {
    String failing = GOOD.replace("\"p1\"", "\"p9\"").replace("FROM region_of_new_zealand", "FROM nz_regions");
    LoadedPairs loaded = withLake().load(file(GOOD, failing), "fail.json");
    assertThat(loaded.pairs()).extracting(QueryResultPair::id).containsExactly("p1");
    assertThat(loaded.errors()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo(PairProblem.Kind.GOLDEN_QUERY_FAILED);
      assertThat(e.pairId()).isEqualTo("p9");
      assertThat(e.message()).contains("golden query failed on the lake", "nz_regions", "does not exist");
    });
  }

  @Test
  void aGoldenQueryThatIsNotAReadOnlyQueryIsRefusedByTheExecutor() {
    String hostile = GOOD.replace("\"p1\"", "\"evil\"").replace(
        "SELECT label AS name, population FROM region_of_new_zealand WHERE population IS NOT NULL ORDER BY label",
        "COPY region_of_new_zealand TO 'stolen.csv'");
    LoadedPairs loaded = withLake().load(file(hostile), "hostile.json");
    assertThat(loaded.pairs()).isEmpty();
    assertThat(loaded.errors()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo(PairProblem.Kind.GOLDEN_QUERY_FAILED);
      assertThat(e.message()).contains("REJECTED");
    });
  }

  @Test
  void aResultCutAtTheRowCapIsAFailureNotAResult() throws QueryRunException {
    QueryRunner capped = LakeQueryRunner.on(session, new QueryLimits(Duration.ofSeconds(10), 2));
    assertThatThrownBy(() -> capped.run("SELECT * FROM region_of_new_zealand"))
        .isInstanceOf(QueryRunException.class).hasMessageContaining("more than 2 rows");
    assertThat(capped.run("SELECT label FROM region_of_new_zealand WHERE population IS NULL").rows())
        .containsExactly(List.of("Nelson Region"));
  }

  @Test
  void anEmptyOrAllNullGoldResultIsAWarning() {
    String empty = GOOD.replace("\"p1\"", "\"e\"").replace("IS NOT NULL", "= 'nowhere'");
    String allNull = GOOD.replace("\"p1\"", "\"n\"")
        .replace("SELECT label AS name, population FROM region_of_new_zealand WHERE population IS NOT NULL",
            "SELECT population AS name, population FROM region_of_new_zealand WHERE population IS NULL");
    LoadedPairs loaded = withLake().load(file(empty, allNull), "trivial.json");
    assertThat(loaded.pairs()).hasSize(2);
    assertThat(loaded.warnings()).extracting(PairProblem::kind)
        .containsExactly(PairProblem.Kind.TRIVIAL_RESULT, PairProblem.Kind.TRIVIAL_RESULT);
    assertThat(loaded.warnings().get(0).message()).contains("no rows");
    assertThat(loaded.warnings().get(1).message()).contains("NULL");
  }

  @Test
  void noisyMustAgreeWithTheNoiseTag() {
    String noisyWithoutTag = GOOD.replace("\"easy\",", "\"easy\", \"noisy\": true,");
    String tagWithoutNoisy = GOOD.replace("\"p1\"", "\"p2\"").replace("[\"Name Mismatch\"]", "[\"Noise\"]")
        .replace("\"easy\",", "\"easy\", \"noisy\": false,");
    String tagDefaultsNoisy = GOOD.replace("\"p1\"", "\"p3\"").replace("[\"Name Mismatch\"]", "[\"Noise\"]");
    LoadedPairs loaded = PairLoader.parseOnly().load(file(noisyWithoutTag, tagWithoutNoisy, tagDefaultsNoisy), "n");
    assertThat(loaded.pairs()).extracting(QueryResultPair::id).containsExactly("p3");
    assertThat(loaded.pairs().get(0).noisy()).isTrue();
    assertThat(loaded.errors()).extracting(PairProblem::kind)
        .containsExactly(PairProblem.Kind.INCONSISTENT, PairProblem.Kind.INCONSISTENT);
  }

  @Test
  void aFileThatIsNotAPairFileSaysSo() {
    assertThat(PairLoader.parseOnly().load("\"hello\"", "s").errors()).singleElement()
        .satisfies(e -> assertThat(e.message()).contains("not a string"));
    assertThat(PairLoader.parseOnly().load("{\"pair\": []}", "o").problems()).extracting(PairProblem::kind)
        .containsExactly(PairProblem.Kind.UNKNOWN_FIELD, PairProblem.Kind.FILE_STRUCTURE);
    assertThat(PairLoader.parseOnly().load("", "empty").errors()).singleElement()
        .satisfies(e -> assertThat(e.message()).contains("an empty file"));
    assertThat(PairLoader.parseOnly().load("[1, " + GOOD + "]", "mixed").pairs()).hasSize(1);
  }

  @Test
  void malformedResultTablesAreReported() {
    String ragged = GOOD.replace("\"easy\",", "\"easy\", \"result_table\": {\"columns\": [\"a\", \"b\"], "
        + "\"rows\": [[1, 2], [3]]},");
    String nested = GOOD.replace("\"p1\"", "\"p2\"").replace("\"easy\",", "\"easy\", \"result_table\": "
        + "{\"columns\": [\"a\"], \"rows\": [[{\"x\": 1}]]},");
    String unevenRecords = GOOD.replace("\"p1\"", "\"p3\"").replace("\"easy\",", "\"easy\", \"result_table\": "
        + "[{\"a\": 1}, {\"b\": 2}],");
    LoadedPairs loaded = PairLoader.parseOnly().load(file(ragged, nested, unevenRecords), "rt");
    assertThat(loaded.pairs()).isEmpty();
    assertThat(loaded.errors()).extracting(PairProblem::message).satisfiesExactly(
        m -> assertThat(m).contains("row 1 must be an array of 2 values"),
        m -> assertThat(m).contains("cells must be strings, numbers, booleans or null"),
        m -> assertThat(m).contains("record 1 has fields [b] but record 0 has [a]"));
  }

  @Test
  void writtenPairsReadBackTheSame(@TempDir Path dir) throws Exception {
    LoadedPairs loaded = withLake().load(file(GOOD), "t.json");
    QueryResultPair withNotes = new QueryResultPair("p2", "SELECT x\nFROM y", "SELECT 1 AS x", PlainTable.of(
        List.of("x", "d", "b", "n"), List.of(PlainTable.row(1L, java.time.LocalDate.of(2020, 1, 31), true, null))),
        Difficulty.HARD, java.util.EnumSet.of(DifficultyTag.NOISE, DifficultyTag.UNION), true,
        List.of("region_of_new_zealand"), "a note");
    List<QueryResultPair> pairs = List.of(loaded.pairs().get(0), withNotes);
    Path out = dir.resolve("pairs.json");
    PairWriter.write(out, "test", "round trip", pairs);
    LoadedPairs back = PairLoader.parseOnly().load(out);
    assertThat(back.problems()).isEmpty();
    assertThat(back.lake()).isEqualTo("test");
    assertThat(back.pairs()).hasSize(2);
    for (int i = 0; i < 2; i++) {
      QueryResultPair a = pairs.get(i);
      QueryResultPair b = back.pairs().get(i);
      assertThat(b.withResultTable(null)).isEqualTo(a.withResultTable(null));
      assertThat(ResultMetrics.exactMatch(b.expectedResult(), a.expectedResult(), true)).isTrue();
    }
    assertThat(Files.readString(out)).contains("[1,\"2020-01-31\",true,null]", "[\"Otago Region\",\"+229200\"]",
        "\"user_query\" : [\n        \"SELECT x\",\n        \"FROM y\"\n      ]");
  }

  @Test
  void thePairRecordRefusesInconsistentData() {
    assertThatThrownBy(() -> new QueryResultPair("x", "SELECT 1", "SELECT 1", null, Difficulty.EASY,
        java.util.EnumSet.of(DifficultyTag.NOISE), false, List.of("t"), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("noisy is false");
    assertThatThrownBy(() -> new QueryResultPair("x", " ", "SELECT 1", null, Difficulty.EASY,
        java.util.EnumSet.of(DifficultyTag.UNION), false, List.of("t"), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("userQuery");
    assertThatThrownBy(() -> new QueryResultPair("x", "SELECT 1", "SELECT 1", null, Difficulty.EASY,
        java.util.EnumSet.noneOf(DifficultyTag.class), false, List.of("t"), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one difficulty tag");
  }
}
