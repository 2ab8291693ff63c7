package dev.lakerewrite.noiseudf;

import dev.lakerewrite.testing.ScriptedChatModel;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What BUILD_CTE does with valid, malformed and hostile answers from a scripted model. */
class LlmCteBuilderTest {

  private static final CteRequest AREA = new CteRequest("region_of_new_zealand", List.of("area", "population"),
      "numbers are stored as text with a plus sign");

  private static final String VALID = """
      {"udfs": [{"name": "fix_quantity", "params": ["v"], "body": "clean_number(v)",
                 "description": "numbers with sign or grouping to DOUBLE", "applies_to": ["area", "population"]}],
       "cte_name": "region_of_new_zealand_clean",
       "cte": "SELECT * REPLACE (fix_quantity(\\"area\\") AS \\"area\\", fix_quantity(\\"population\\") AS \\"population\\") FROM region_of_new_zealand",
       "notes": "area and population parsed as numbers"}
      """;

  private DuckDBConnection session;

  @BeforeEach
  void open() throws Exception {
    session = SharedLake.connection().duplicate();
  }

  @AfterEach
  void close() throws Exception {
    session.close();
  }

  @Test
  void validAnswerRegistersTheMacroOnTheSessionAndReturnsTheCte() throws Exception {
    ScriptedChatModel model = ScriptedChatModel.create().answer("Here you go:\n```json\n" + VALID + "\n```");
    CteBuildResult r = LlmCteBuilder.builder(model).build().build(session, AREA);
    assertThat(r.failure()).isEmpty();
    assertThat(r.modelCalls()).isEqualTo(1);
    assertThat(r.cteName()).isEqualTo("region_of_new_zealand_clean");
    assertThat(r.cteSql()).contains("fix_quantity(area)");
    assertThat(r.udfs()).extracting(UdfInfo::name).containsExactly("fix_quantity", "clean_number");
    UdfInfo generated = r.udfs().get(0);
    assertThat(generated.origin()).isEqualTo(UdfInfo.Origin.GENERATED);
    assertThat(generated.returnType()).isEqualTo("DOUBLE");
    assertThat(generated.definition()).isEqualTo("CREATE OR REPLACE TEMP MACRO fix_quantity(v) AS clean_number(v)");
    assertThat(r.cleanedColumns()).extracting(CleanedColumn::column).containsExactlyInAnyOrder("area", "population");
    assertThat(r.cleanedColumns()).allSatisfy(x -> assertThat(x.kinds()).containsExactly(NoiseKind.NUMBER_FORMAT));
    assertThat(r.preview().types().get(r.preview().columns().indexOf("area"))).isEqualTo("DOUBLE");
    assertThat(r.rejections()).isEmpty();
    // the rewriter can use it on this session, and the lake is unchanged
    String sql = "WITH " + r.withClause().orElseThrow() + " SELECT label FROM region_of_new_zealand_clean WHERE area > 13000 ORDER BY 1";
    assertThat(Jdbc.query(session, sql)).extracting(row -> row.get(0)).contains("Northland Region");
    assertThat(Jdbc.query(session, "SELECT typeof(area) FROM region_of_new_zealand LIMIT 1").get(0).get(0)).isEqualTo("VARCHAR");
    try (var other = SharedLake.connection().duplicate()) {
      assertThat(MacroValidator.sessionMacros(other)).doesNotContainKey("fix_quantity");
      // another connection can have them, validated again there
      List<MacroValidator.MacroVerdict> again = MacroValidator.create().registerOn(other, r);
      assertThat(again).singleElement().satisfies(v -> assertThat(v.accepted()).isTrue());
      assertThat(Jdbc.query(other, sql)).extracting(row -> row.get(0)).contains("Northland Region");
    }
    // the prompt had the preview, the evidence, the catalogue and the contract
    String prompt = model.lastUserText(0);
    assertThat(prompt).contains("Preview (16 rows").contains("+13789").contains("explicit '+' sign")
        .contains("clean_number(value VARCHAR) -> DOUBLE").contains("Name the CTE: region_of_new_zealand_clean");
    assertThat(r.toScratchpad(3)).contains("WITH \"region_of_new_zealand_clean\" AS (").contains("fix_quantity(v) -> DOUBLE");
    assertThat(r.toJson().path("udfs").size()).isEqualTo(2);
  }

  @Test
  void malformedAnswerGetsOneRepairRound() throws Exception {
    ScriptedChatModel model = ScriptedChatModel.create().answer("Sure! I would clean area with clean_number.").answer(VALID);
    CteBuildResult r = LlmCteBuilder.builder(model).build().build(session, AREA);
    assertThat(r.succeeded()).isTrue();
    assertThat(r.modelCalls()).isEqualTo(2);
    assertThat(r.rejections()).singleElement().satisfies(x -> assertThat(x.stage()).isEqualTo(Rejection.Stage.ANSWER));
    assertThat(model.lastUserText(1)).contains("the answer contains no JSON object").contains("Sure! I would clean");
  }

  @Test
  void malformedTwiceIsATypedFailure() {
    ScriptedChatModel model = ScriptedChatModel.create().answer("{\"udfs\": [").answer("still not json }");
    CteBuildResult r = LlmCteBuilder.builder(model).build().build(session, AREA);
    assertThat(r.succeeded()).isFalse();
    assertThat(r.failure().orElseThrow().kind()).isEqualTo(CteBuildFailure.Kind.MALFORMED_ANSWER);
    assertThat(r.modelCalls()).isEqualTo(2);
    assertThat(r.cteSql()).isNull();
    assertThat(r.withClause()).isEmpty();
  }

  @Test
  void schemaViolationsAreReportedWithJsonPaths() {
    String bad = "{\"udfs\": [{\"name\": \"f\", \"params\": \"v\"}], \"cte_name\": 7}";
    ScriptedChatModel model = ScriptedChatModel.create().answer(bad).answer(bad);
    CteBuildResult r = LlmCteBuilder.builder(model).build().build(session, AREA);
    assertThat(r.failure().orElseThrow().kind()).isEqualTo(CteBuildFailure.Kind.SCHEMA_VIOLATION);
    assertThat(r.failure().orElseThrow().message())
        .contains("udfs[0].params: must be an array of strings").contains("udfs[0].body: missing")
        .contains("cte: missing").contains("cte_name: must be a string");
    assertThat(model.lastUserText(1)).contains("udfs[0].body: missing");
  }

  @Test
  void hostileAnswersAreRejectedAndNothingIsRegistered() throws Exception {
    String hostile = """
        {"udfs": [{"name": "steal", "params": ["v"], "body": "read_text('/etc/passwd')", "applies_to": ["area"]},
                  {"name": "leak", "params": ["v"], "body": "v || getenv('HOME')", "applies_to": ["area"]}],
         "cte": "SELECT r.*, c.label AS capital_label FROM region_of_new_zealand r JOIN capital c ON true"}
        """;
    String stillHostile = """
        {"udfs": [], "cte": "SELECT * FROM region_of_new_zealand; DROP MACRO clean_text"}
        """;
    ScriptedChatModel model = ScriptedChatModel.create().answer(hostile).answer(stillHostile);
    CteBuildResult r = LlmCteBuilder.builder(model).build().build(session, AREA);
    assertThat(r.failure().orElseThrow().kind()).isEqualTo(CteBuildFailure.Kind.REJECTED);
    assertThat(r.rejections()).extracting(Rejection::subject).contains("steal", "leak", "cte");
    assertThat(r.rejections()).anySatisfy(x -> assertThat(x.reason()).contains("reads files"));
    assertThat(r.rejections()).anySatisfy(x -> assertThat(x.reason()).contains("JOIN"));
    assertThat(MacroValidator.sessionMacros(session)).doesNotContainKeys("steal", "leak");
    assertThat(model.lastUserText(1)).contains("steal [AST]: function read_text is not allowed");
    assertThat(CleaningFunctions.isRegistered(session)).isTrue();
  }

  @Test
  void aRejectedMacroDoesNotSinkAGoodCte() {
    String mixed = """
        {"udfs": [{"name": "dice", "params": ["v"], "body": "v || random()", "applies_to": ["area"]}],
         "cte": "SELECT * REPLACE (clean_number(area) AS area) FROM region_of_new_zealand"}
        """;
    CteBuildResult r = LlmCteBuilder.builder(ScriptedChatModel.create().answer(mixed)).build().build(session,
        new CteRequest("region_of_new_zealand", List.of("area"), ""));
    assertThat(r.succeeded()).isTrue();
    assertThat(r.rejections()).singleElement().satisfies(x -> assertThat(x.reason()).contains("non-deterministic"));
    assertThat(r.udfs()).extracting(UdfInfo::name).containsExactly("clean_number");
  }

  @Test
  void modelErrorsAndBadNamesAreTypedFailures() {
    CteBuildResult down = LlmCteBuilder.builder(ScriptedChatModel.create().fail(new IllegalStateException("rate limited"))).build()
        .build(session, AREA);
    assertThat(down.failure().orElseThrow().kind()).isEqualTo(CteBuildFailure.Kind.MODEL_ERROR);
    assertThat(down.failure().orElseThrow().message()).contains("rate limited");

    ScriptedChatModel unused = ScriptedChatModel.create();
    CteBuildResult table = LlmCteBuilder.builder(unused).build().build(session, CteRequest.of("region_of_new_zeland"));
    assertThat(table.failure().orElseThrow().kind()).isEqualTo(CteBuildFailure.Kind.UNKNOWN_TABLE);
    assertThat(table.failure().orElseThrow().message()).contains("did you mean 'region_of_new_zealand'");
    CteBuildResult column = LlmCteBuilder.builder(unused).build().build(session,
        new CteRequest("region_of_new_zealand", List.of("aera"), ""));
    assertThat(column.failure().orElseThrow().message()).contains("no column 'aera'").contains("area");
    assertThat(unused.requests()).isEmpty();
  }
}
