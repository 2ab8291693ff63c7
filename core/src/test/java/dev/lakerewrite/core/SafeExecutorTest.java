package dev.lakerewrite.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SafeExecutorTest {
  private static DataLake lake;
  private static LakeSession session;
  private static String checksumBefore;

  @BeforeAll
  static void open() throws Exception {
    lake = TestLakes.sample();
    session = lake.openSession();
    checksumBefore = sha256(lake.databaseFile());
  }

  @AfterAll
  static void lakeFileIsByteForByteUnchanged() throws Exception {
    session.close();
    assertThat(sha256(lake.databaseFile())).isEqualTo(checksumBefore);
  }

  @Test
  void runsAQueryAndReturnsATypedTable() {
    Execution e = session.execute(
        "SELECT label, population FROM region_of_new_zealand WHERE capital = 'Whangārei'");
    assertThat(e.isSuccess()).isTrue();
    ResultTable t = e.table();
    assertThat(t.columnNames()).containsExactly("label", "population");
    // '+179100' in the CSV: DuckDB's detection keeps the column as text.
    assertThat(t.columns().get(1).type()).isEqualTo("VARCHAR");
    assertThat(t.rows()).containsExactly(java.util.List.of("Northland Region", "+179100"));
    assertThat(t.truncated()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "COPY region_of_new_zealand TO '/tmp/stolen.csv'",
      "ATTACH '/tmp/other.duckdb' AS other",
      "INSTALL httpfs",
      "LOAD httpfs",
      "SELECT * FROM read_csv('/etc/passwd')",
      "SELECT * FROM read_text('/etc/passwd')",
      "SELECT * FROM 'https://example.com/data.csv'",
      "SELECT * FROM '/etc/passwd'",
      "CREATE TABLE stolen AS SELECT * FROM capital",
      "CREATE TEMP TABLE t AS SELECT 1",
      "DELETE FROM capital",
      "UPDATE capital SET population = 0",
      "INSERT INTO capital (label) VALUES ('x')",
      "DROP TABLE capital",
      "ALTER TABLE capital RENAME TO c2",
      "PRAGMA enable_profiling",
      "SET enable_external_access = true",
      "RESET lock_configuration",
      "CREATE MACRO leak(p) AS TABLE SELECT * FROM read_text(p)",
      "CREATE TEMP MACRO f(x) AS x + 1",
      "SELECT 1; DROP TABLE capital",
      "SELECT 1; SELECT 2",
      "EXPORT DATABASE '/tmp/dump'",
      "CHECKPOINT",
      "VACUUM",
      "CALL pragma_version()",
      "SELECT * FROM query('SELECT * FROM capital')",
      "SELECT * FROM glob('/etc/*')",
      "SELECT setseed(0.5)",
      "DETACH lake",
      "USE memory",
      "BEGIN TRANSACTION",
      "SELECT * FROM sniff_csv('/etc/passwd')",
  })
  void rejectsEverythingButAReadOnlyQuery(String sql) {
    Execution e = session.execute(sql);
    assertThat(e.isSuccess()).as(sql).isFalse();
    QueryError err = e.error().orElseThrow();
    assertThat(err.kind()).as(err.message()).isIn(ErrorKind.REJECTED);
    assertThat(err.message()).isNotBlank();
    // The other public ways to run SQL admit the same way: admit() refuses, explain() returns the refusal.
    SafeExecutor executor = SafeExecutor.on(session.connection());
    assertThatThrownBy(() -> executor.admit(sql)).as(sql).isInstanceOf(QueryFailedException.class)
        .satisfies(x -> assertThat(((QueryFailedException) x).error().kind()).isEqualTo(ErrorKind.REJECTED));
    assertThat(executor.explain(sql, true, QueryLimits.DEFAULT).error().orElseThrow().kind()).as(sql)
        .isEqualTo(ErrorKind.REJECTED);
    // The session keeps working after a refusal.
    assertThat(session.execute("SELECT count(*) FROM capital").table().get(0, 0)).isEqualTo(16L);
  }

  @Test
  void nothingPublicRunsSqlWithoutTheAdmissionCheck() {
    for (Class<?> type : new Class<?>[] {SafeExecutor.class, LakeSession.class, DataLake.class}) {
      assertThat(java.util.Arrays.stream(type.getMethods()).map(java.lang.reflect.Method::getName))
          .as(type.getSimpleName()).doesNotContain("executeTrusted", "executeAdmitted", "run");
    }
    assertThat(AdmittedQuery.class.getConstructors()).as("only SafeExecutor.admit makes one").isEmpty();
  }

  @Test
  void anAdmittedQueryRunsAgainAndExplainShowsThePlan() {
    SafeExecutor executor = SafeExecutor.on(session.connection());
    AdmittedQuery q = executor.admit("SELECT count(*) FROM capital;");
    assertThat(q.execute(QueryLimits.DEFAULT).table().get(0, 0)).isEqualTo(16L);
    assertThat(q.execute(QueryLimits.DEFAULT).table().get(0, 0)).isEqualTo(16L);
    Execution plan = executor.explain("SELECT label FROM capital WHERE label LIKE 'W%';", false, QueryLimits.DEFAULT);
    assertThat(plan.isSuccess()).as(plan.toString()).isTrue();
    assertThat(plan.table().get(0, 0)).isEqualTo("physical_plan");
    assertThat(String.valueOf(plan.table().get(0, 1))).contains("SCAN").contains("capital");
  }

  @Test
  void refusalsSayWhy() {
    assertThat(session.execute("DROP TABLE capital").error().orElseThrow().message())
        .contains("only SELECT and WITH statements are allowed, got DROP");
    QueryError multi = session.execute("SELECT 1; DROP TABLE capital").error().orElseThrow();
    assertThat(multi.message()).contains("multiple statements: found 2");
    assertThat(session.execute("SELECT * FROM read_csv('/etc/passwd')").error().orElseThrow().message())
        .contains("table function read_csv() is not allowed");
    assertThat(session.execute("   ").error().orElseThrow().message()).contains("empty SQL");
  }

  @Test
  void commentTricksDoNotSmuggleStatements() {
    for (String sql : new String[] {
        "SELECT 1 /* ; */ ; DELETE FROM capital",
        "-- harmless\nDROP TABLE capital",
        "/* SELECT */ DROP TABLE capital",
        "SELECT 1 -- ; DROP TABLE capital\n; DROP TABLE capital"}) {
      assertThat(session.execute(sql).error().orElseThrow().kind()).as(sql).isEqualTo(ErrorKind.REJECTED);
    }
    assertThat(session.execute("SELECT 1 -- ; DROP TABLE capital").isSuccess()).isTrue();
  }

  @Test
  void errorsComeBackAsDataWithKindAndPosition() {
    QueryError parse = session.execute("SELEC label FROM capital").error().orElseThrow();
    assertThat(parse.kind()).isEqualTo(ErrorKind.PARSE);
    assertThat(parse.position()).isZero();

    String sql = "SELECT label, populaton FROM capital";
    QueryError binder = session.execute(sql).error().orElseThrow();
    assertThat(binder.kind()).isEqualTo(ErrorKind.BINDER);
    assertThat(binder.message()).contains("populaton").contains("population");
    assertThat(binder.position()).isEqualTo(sql.indexOf("populaton"));

    QueryError table = session.execute("SELECT * FROM nz_regions").error().orElseThrow();
    assertThat(table.kind()).isEqualTo(ErrorKind.BINDER);
    assertThat(table.position()).isEqualTo("SELECT * FROM ".length());

    QueryError runtime = session.execute("SELECT CAST(label AS INTEGER) FROM capital").error().orElseThrow();
    assertThat(runtime.kind()).isEqualTo(ErrorKind.RUNTIME);
    assertThat(runtime.message()).contains("Conversion Error");
  }

  @Test
  void positionsSurviveLongLinesThatDuckDbElides() {
    String sql = "SELECT label, description, country, \"instance of\", \"Commons category\", population, area, "
        + "capital, \"GeoNames ID\", \"VIAF ID\", \"Freebase ID\", nonexistent_column FROM region_of_new_zealand";
    QueryError e = session.execute(sql).error().orElseThrow();
    assertThat(e.position()).isEqualTo(sql.indexOf("nonexistent_column"));
  }

  @Test
  void queriesPastTheirTimeLimitAreCancelled() {
    long start = System.nanoTime();
    Execution e = session.execute(
        "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r",
        new QueryLimits(Duration.ofMillis(300), 10));
    long ms = (System.nanoTime() - start) / 1_000_000;
    assertThat(e.error().orElseThrow().kind()).isEqualTo(ErrorKind.TIMEOUT);
    assertThat(ms).as("cancelled promptly").isLessThan(60_000); // uncancelled, it runs forever
    Execution cross = session.execute("SELECT count(*) FROM range(100000000) a, range(100000000) b",
        new QueryLimits(Duration.ofMillis(300), 10));
    assertThat(cross.error().orElseThrow().kind()).isEqualTo(ErrorKind.TIMEOUT);
    assertThat(session.execute("SELECT 42").table().get(0, 0)).isEqualTo(42);
  }

  @Test
  void rowCapTruncatesWithoutFetchingEverything() {
    Execution e = session.execute("SELECT * FROM range(100000000)", new QueryLimits(Duration.ofSeconds(10), 5));
    assertThat(e.table().rowCount()).isEqualTo(5);
    assertThat(e.table().truncated()).isTrue();
    assertThat(e.table().preview(3)).endsWith("(2+ more rows)");
  }

  @Test
  void duckDbSpecificSyntaxRuns() {
    Execution e = session.execute("SELECT * EXCLUDE (description) FROM capital "
        + "QUALIFY row_number() OVER (ORDER BY population::BIGINT DESC) = 1");
    assertThat(e.isSuccess()).as(e.toString()).isTrue();
    assertThat(e.table().columnNames()).doesNotContain("description").contains("label");
    assertThat(e.table().rowCount()).isEqualTo(1);
  }

  @Test
  void readsStillWorkUnderTheSandboxIncludingTemporaryMacrosOfTheCleaningModule() throws Exception {
    try (var st = session.connection().createStatement()) {
      st.execute("CREATE OR REPLACE TEMP MACRO strip_sign(x) AS ltrim(x::VARCHAR, '+')");
    }
    assertThat(session.execute("SELECT strip_sign('+13789')").table().get(0, 0)).isEqualTo("13789");
    try (LakeSession other = lake.openSession()) {
      assertThat(other.execute("SELECT strip_sign('+1')").error().orElseThrow().kind()).isEqualTo(ErrorKind.BINDER);
    }
  }

  /**
   * A prepared query runs on data after data (the equivalence checker's instances): a run that fails on one
   * instance (a scalar subquery returning two rows) must not fail every later run. DuckDB's driver closes the
   * statement on such a failure; it was then "Statement was closed" for good.
   */
  @Test
  void aPreparedQueryRunsAgainAfterARunThatFailed() throws Exception {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
        var st = c.createStatement()) {
      st.execute("CREATE TABLE t (a INTEGER, b INTEGER)");
      SafeExecutor executor = SafeExecutor.on(c);
      try (SafeExecutor.Prepared q = executor.prepare("SELECT a FROM t WHERE b = (SELECT b FROM t WHERE a = 1)", 10)) {
        st.execute("INSERT INTO t VALUES (1, 5), (1, 6)");
        Execution twoRows = q.execute(Duration.ofSeconds(10));
        assertThat(twoRows.isSuccess()).isFalse();
        assertThat(twoRows.error().orElseThrow().message()).contains("More than one row");
        st.execute("DELETE FROM t WHERE b = 6");
        st.execute("INSERT INTO t VALUES (2, 5)");
        Execution after = q.execute(Duration.ofSeconds(10));
        assertThat(after.isSuccess()).as(after.toString()).isTrue();
        assertThat(after.table().rows()).containsExactlyInAnyOrder(java.util.List.of(1), java.util.List.of(2));
      }
    }
  }

  static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
