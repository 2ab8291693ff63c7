package dev.lakerewrite.noiseudf;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.List;
import java.util.stream.Stream;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MacroValidatorTest {

  private final MacroValidator validator = MacroValidator.create();
  private DuckDBConnection session;

  @BeforeEach
  void openSession() throws Exception {
    session = SharedLake.connection().duplicate();
  }

  @AfterEach
  void closeSession() throws Exception {
    session.close();
  }

  private static GeneratedUdf udf(String name, String body, String... appliesTo) {
    return new GeneratedUdf(name, List.of("v"), body, "test", List.of(appliesTo));
  }

  static Stream<Arguments> hostile() {
    return Stream.of(
        Arguments.of(udf("steal_file", "read_text('/etc/passwd')"), Rejection.Stage.AST, "reads files"),
        Arguments.of(udf("steal_csv", "(SELECT count(*) FROM read_csv('/etc/passwd'))"), Rejection.Stage.AST, "subqueries"),
        Arguments.of(udf("peek_table", "v || (SELECT max(label) FROM capital)"), Rejection.Stage.AST, "subqueries"),
        Arguments.of(udf("peek_in", "v IN (SELECT label FROM capital)"), Rejection.Stage.AST, "subqueries"),
        Arguments.of(udf("env_leak", "v || getenv('HOME')"), Rejection.Stage.AST, "reads the environment"),
        Arguments.of(udf("dice", "v || random()"), Rejection.Stage.AST, "non-deterministic"),
        Arguments.of(udf("stamp", "v || now()"), Rejection.Stage.AST, "non-deterministic (time)"),
        Arguments.of(udf("var_leak", "v || getvariable('secret')"), Rejection.Stage.AST, "session variables"),
        Arguments.of(udf("run_sql", "query('SELECT 1')"), Rejection.Stage.AST, "runs SQL"),
        Arguments.of(udf("boom", "error('boom')"), Rejection.Stage.AST, "raises errors"),
        Arguments.of(udf("windowed", "sum(length(v)) OVER ()"), Rejection.Stage.AST, "window functions"),
        Arguments.of(udf("count_them", "count(v)"), Rejection.Stage.AST, "not on the allow-list"),
        Arguments.of(udf("qualified", "system.main.upper(v)"), Rejection.Stage.AST, "qualified function names"),
        Arguments.of(udf("wrong_col", "upper(label)"), Rejection.Stage.AST, "unknown name label"),
        Arguments.of(udf("self_loop", "self_loop(v)"), Rejection.Stage.RECURSION, "calls itself"),
        Arguments.of(udf("long_body", "v" + " || 'x'".repeat(400)), Rejection.Stage.TEXT, "too long"),
        Arguments.of(udf("deep_body", "lower(".repeat(60) + "v" + ")".repeat(60)), Rejection.Stage.AST, "nested too deeply"),
        Arguments.of(udf("table_macro", "TABLE SELECT 1"), Rejection.Stage.PARSE, "syntax error"),
        Arguments.of(udf("two_statements", "upper(v); DROP MACRO clean_text"), Rejection.Stage.TEXT, "';'"),
        Arguments.of(udf("smuggle", "upper(v)); SELECT read_text('/etc/passwd'"), Rejection.Stage.TEXT, "';'"),
        Arguments.of(udf("comment_trick", "upper(v) -- ) FROM capital"), Rejection.Stage.TEXT, "comments"),
        Arguments.of(udf("block_comment", "upper(/* */ v)"), Rejection.Stage.TEXT, "comments"),
        Arguments.of(udf("dollar", "upper($$x$$)"), Rejection.Stage.TEXT, "dollar"),
        Arguments.of(udf("with_from", "v FROM capital"), Rejection.Stage.PARSE, "FROM"),
        Arguments.of(udf("aliased", "upper(v) AS x"), Rejection.Stage.PARSE, "alias"),
        Arguments.of(udf("upper", "lower(v)"), Rejection.Stage.NAME, "shadows an existing scalar function"),
        Arguments.of(udf("clean_text", "lower(v)"), Rejection.Stage.NAME, "reserved"),
        Arguments.of(udf("select", "lower(v)"), Rejection.Stage.NAME, "keyword"),
        Arguments.of(new GeneratedUdf("no_params", List.of(), "1", "", List.of()), Rejection.Stage.NAME, "1 to 4 parameters"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostile")
  void rejectsHostileOrImpureMacrosAndRegistersNothing(GeneratedUdf udf, Rejection.Stage stage, String reason) throws Exception {
    MacroValidator.MacroVerdict verdict = validator.validateAndRegister(session, "capital", udf);
    assertThat(verdict.accepted()).isFalse();
    assertThat(verdict.rejections()).anySatisfy(r -> {
      assertThat(r.stage()).isEqualTo(stage);
      assertThat(r.reason()).contains(reason);
    });
    assertThat(MacroValidator.sessionMacros(session)).doesNotContainKey(udf.name());
    assertThat(MacroValidator.sessionMacros(session).keySet()).noneMatch(n -> n.startsWith("lr_probe_"));
  }

  @Test
  void rejectsMutualRecursionThroughAcceptedMacros() throws Exception {
    assertThat(validator.validateAndRegister(session, "capital", udf("ping", "upper(v)", "label")).accepted()).isTrue();
    assertThat(validator.validateAndRegister(session, "capital", udf("pong", "ping(v)", "label")).accepted()).isTrue();
    MacroValidator.MacroVerdict loop = validator.validateAndRegister(session, "capital", udf("ping", "pong(v)", "label"));
    assertThat(loop.accepted()).isFalse();
    assertThat(loop.rejections()).singleElement().satisfies(r -> {
      assertThat(r.stage()).isEqualTo(Rejection.Stage.RECURSION);
      assertThat(r.reason()).contains("ping -> pong -> ping");
    });
    // the earlier, good ping is still there and still works
    assertThat(Jdbc.query(session, "SELECT pong('a')").get(0).get(0)).isEqualTo("A");
  }

  @Test
  void rejectsCleanersThatNullOrMergeValuesOnThePreview() throws Exception {
    MacroValidator.MacroVerdict nulling = validator.validateAndRegister(session, "capital",
        udf("nuller", "CASE WHEN v LIKE 'H%' THEN v ELSE NULL END", "label"));
    assertThat(nulling.accepted()).isFalse();
    assertThat(nulling.rejections()).anySatisfy(r -> assertThat(r.reason()).contains("into NULL"));

    MacroValidator.MacroVerdict merging = validator.validateAndRegister(session, "capital",
        udf("first_letter", "left(v, 1)", "label"));
    assertThat(merging.accepted()).isFalse();
    assertThat(merging.rejections()).anySatisfy(r -> assertThat(r.reason()).contains("not spellings of"));

    MacroValidator.MacroVerdict failing = validator.validateAndRegister(session, "capital",
        udf("casts_badly", "CAST(v AS INTEGER)", "label"));
    assertThat(failing.accepted()).isFalse();
    assertThat(failing.rejections()).anySatisfy(r -> {
      assertThat(r.stage()).isEqualTo(Rejection.Stage.PREVIEW);
      assertThat(r.reason()).contains("fails on capital.label");
    });

    MacroValidator.MacroVerdict unknownColumn = validator.validateAndRegister(session, "capital",
        udf("trimmed", "trim(v)", "lable"));
    assertThat(unknownColumn.rejections()).anySatisfy(r -> assertThat(r.reason()).contains("did you mean 'label'"));
  }

  @Test
  void acceptsPureCleanersAndRegistersThemOnTheSessionOnly() throws Exception {
    MacroValidator.MacroVerdict area = validator.validateAndRegister(session, "region_of_new_zealand",
        udf("area_km2", "clean_number(v)", "area"));
    assertThat(area.rejections()).isEmpty();
    assertThat(area.accepted()).isTrue();
    assertThat(area.returnType()).isEqualTo("DOUBLE");
    assertThat(area.createStatement()).isEqualTo("CREATE OR REPLACE TEMP MACRO area_km2(v) AS clean_number(v)");
    assertThat(Jdbc.query(session, "SELECT area_km2('+13789')").get(0).get(0)).isEqualTo("13789.0");

    MacroValidator.MacroVerdict words = validator.validateAndRegister(session, "capital",
        udf("title_words", "array_to_string(list_transform(string_split(regexp_replace(trim(v), '\\s+', ' ', 'g'), ' '), "
            + "lambda w: upper(w[1]) || lower(w[2:])), ' ')", "label", "description"));
    assertThat(words.rejections()).isEmpty();
    MacroValidator.MacroVerdict composed = validator.validateAndRegister(session, "capital",
        udf("label_key", "clean_key(title_words(v))", "label"));
    assertThat(composed.accepted()).isTrue();
    assertThat(composed.calls()).contains("clean_key", "title_words");

    try (Connection other = SharedLake.connection().duplicate()) {
      assertThat(MacroValidator.sessionMacros(other)).doesNotContainKey("area_km2");
    }
  }

  @Test
  void validatesCtesAsProjectionsOverTheBaseTableOnly() throws Exception {
    MacroValidator.CteVerdict good = validator.validateCte(session, "region_of_new_zealand",
        "SELECT * REPLACE (clean_number(area) AS area, clean_number(population) AS population) FROM region_of_new_zealand", 5);
    assertThat(good.rejections()).isEmpty();
    assertThat(good.accepted()).isTrue();
    assertThat(good.preview().rows()).hasSize(5);
    assertThat(good.preview().types().get(good.preview().columns().indexOf("area"))).isEqualTo("DOUBLE");
    assertThat(good.changedCells()).containsKeys("area", "population");
    assertThat(good.cteSql()).contains("REPLACE").contains("clean_number(area)");

    List<String> hostile = List.of(
        "SELECT * FROM capital",
        "SELECT * FROM region_of_new_zealand JOIN capital ON true",
        "SELECT * FROM region_of_new_zealand WHERE area IS NOT NULL",
        "SELECT * FROM region_of_new_zealand LIMIT 3",
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM (SELECT * FROM region_of_new_zealand)",
        "SELECT label FROM region_of_new_zealand UNION ALL SELECT label FROM capital",
        "WITH x AS (SELECT 1) SELECT * FROM region_of_new_zealand",
        "SELECT label, count(*) FROM region_of_new_zealand GROUP BY label",
        "SELECT label FROM region_of_new_zealand; SELECT 1",
        "SELECT getenv('HOME') AS h, label FROM region_of_new_zealand",
        "SELECT (SELECT max(label) FROM capital) AS m FROM region_of_new_zealand",
        "SELECT NULL AS label FROM region_of_new_zealand");
    for (String cte : hostile) {
      MacroValidator.CteVerdict verdict = validator.validateCte(session, "region_of_new_zealand", cte, 5);
      assertThat(verdict.accepted()).as(cte).isFalse();
      assertThat(verdict.rejections()).as(cte).isNotEmpty();
    }
  }
}
