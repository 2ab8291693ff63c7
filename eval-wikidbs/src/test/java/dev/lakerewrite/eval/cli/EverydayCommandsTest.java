package dev.lakerewrite.eval.cli;

import static dev.lakerewrite.eval.cli.CliTest.cache;
import static dev.lakerewrite.eval.cli.CliTest.cli;
import static dev.lakerewrite.eval.cli.CliTest.sample;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code index}, {@code rewrite} and {@code optimize}: output, {@code --json}, exit codes and bad input. */
class EverydayCommandsTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  @Test
  void indexReportsTheLakeAndItsIndexes() throws Exception {
    CliTest.Run r = cli("index", "--lake", sample(), "--cache", cache(), "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = JSON.readTree(r.out());
    assertThat(j.path("tables").asInt()).isEqualTo(29);
    assertThat(j.path("summary").asText()).contains("29 tables").contains("join edges");
    CliTest.Run text = cli("index", "--lake", sample(), "--cache", cache());
    assertThat(text.code()).isZero();
    assertThat(text.out()).contains("29 tables", "cache: ");
    CliTest.Run missing = cli("index", "--lake", dir.resolve("nowhere").toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("lakerewrite index: no lake at");
  }

  @Test
  void indexOfAFolderLakeSaysWhatItRebuiltAndWhy() throws Exception {
    Path lake = Files.createDirectories(dir.resolve("lake"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      st.execute("COPY (SELECT range AS id, 'item ' || range AS label FROM range(20)) TO '"
          + lake.resolve("items.parquet") + "' (FORMAT parquet)");
    }
    Files.writeString(lake.resolve("orders.json"), "[{\"order\": 1, \"id\": 3}, {\"order\": 2, \"id\": 7}]");
    String cacheDir = dir.resolve("cache").toString();
    CliTest.Run first = cli("index", "--lake", lake.toString(), "--cache", cacheDir);
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.out()).contains("(folder, in place)", "2 tables added, 0 changed, 0 removed",
        "added items: new file items.parquet", "join graph  built 2, reused 0");
    assertThat(first.err()).contains("]  join graph  2/2 tables");

    Files.writeString(lake.resolve("orders.json"), "[{\"order\": 1, \"id\": 3}]");
    Files.setLastModifiedTime(lake.resolve("orders.json"),
        java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5_000));
    CliTest.Run again = cli("index", "--lake", lake.toString(), "--cache", cacheDir, "--json");
    assertThat(again.code()).as(again.err()).isZero();
    JsonNode j = JSON.readTree(again.out());
    assertThat(j.path("storage").asText()).isEqualTo("in-place");
    assertThat(j.path("changes")).hasSize(1);
    assertThat(j.path("changes").get(0).path("table").asText()).isEqualTo("orders");
    assertThat(j.path("changes").get(0).path("reason").asText()).startsWith("orders.json changed");
    for (JsonNode stage : j.path("stages")) {
      if (!stage.path("stage").asText().equals("values")) {
        assertThat(stage.path("built").asInt()).as(stage.toString()).isEqualTo(1);
        assertThat(stage.path("reused").asInt()).as(stage.toString()).isEqualTo(1);
      }
    }
    CliTest.Run copied = cli("index", "--lake", lake.toString(), "--cache", cacheDir, "--storage", "copy",
        "--quiet");
    assertThat(copied.code()).as(copied.err()).isZero();
    assertThat(copied.out()).contains("(folder, copy)");
    assertThat(copied.err()).doesNotContain("tables  0m");
    assertThat(cli("index", "--lake", lake.toString(), "--storage", "elsewhere").code()).isEqualTo(2);
  }

  @Test
  void rewritePrintsTheSqlTheResultAndTheSteps() throws Exception {
    String sql = "SELECT name, population FROM nz_regions WHERE name = 'Northland'";
    CliTest.Run text = cli("rewrite", "--lake", sample(), "--cache", cache(), "--offline", "--sql", sql);
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).contains("-- stop: OUTPUT_QUERY", "region_of_new_zealand", "-- result: 1 rows",
        "Northland Region", "-- steps", "iteration 1: candidate 0");

    CliTest.Run json = cli("rewrite", "--lake", sample(), "--cache", cache(), "--offline", "--json", "--sql", sql);
    assertThat(json.code()).isZero();
    JsonNode j = JSON.readTree(json.out());
    assertThat(j.path("succeeded").asBoolean()).isTrue();
    assertThat(j.path("stop_reason").asText()).isEqualTo("OUTPUT_QUERY");
    assertThat(j.path("sql").asText()).contains("region_of_new_zealand");
    assertThat(j.path("result").path("columns").get(0).asText()).isEqualTo("name");
    assertThat(j.path("result").path("rows").get(0).get(0).asText()).isEqualTo("Northland Region");
    assertThat(j.path("candidates")).isNotEmpty();
    assertThat(j.path("trace")).isNotEmpty();
    assertThat(j.has("usage") && j.has("timings_ms")).isTrue();

    Path file = Files.writeString(dir.resolve("q.sql"), sql);
    assertThat(cli("rewrite", "--lake", sample(), "--cache", cache(), "--offline", "--sql-file", file.toString())
        .code()).isZero();
  }

  @Test
  void rewriteOfSomethingThatIsNotAQueryIsBadInput() {
    CliTest.Run prose = cli("rewrite", "--lake", sample(), "--cache", cache(), "--offline", "--sql",
        "please list the regions");
    assertThat(prose.code()).isEqualTo(2);
    assertThat(prose.err()).contains("lakerewrite rewrite: PARSE at 0", "syntax error at or near \"please\"");
    CliTest.Run drop = cli("rewrite", "--lake", sample(), "--cache", cache(), "--offline", "--sql", "DROP TABLE capital");
    assertThat(drop.code()).isEqualTo(2);
    assertThat(drop.err()).contains("REJECTED", "only SELECT and WITH");
    CliTest.Run none = cli("rewrite", "--lake", sample());
    assertThat(none.code()).isEqualTo(2);
    assertThat(none.err()).contains("--sql");
    CliTest.Run both = cli("rewrite", "--lake", sample(), "--sql", "SELECT 1", "--sql-file", "x.sql");
    assertThat(both.code()).isEqualTo(2);
    CliTest.Run noFile = cli("rewrite", "--lake", sample(), "--sql-file", dir.resolve("missing.sql").toString());
    assertThat(noFile.code()).isEqualTo(2);
    assertThat(noFile.err()).contains("cannot read --sql-file");
  }

  @Test
  void optimizeVerifiesAndTimesOnADuckDbFile() throws Exception {
    Path db = dir.resolve("shop.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE orders AS SELECT range AS id, range % 100 AS customer, (range % 7) * 1.5 AS amount "
          + "FROM range(20000)");
      s.execute("CREATE TABLE customers AS SELECT range AS id, 'c' || range AS name FROM range(100)");
    }
    String sql = "SELECT c.name, sum(o.amount) AS total FROM orders o JOIN customers c ON c.id = o.customer "
        + "GROUP BY c.name ORDER BY c.name";
    CliTest.Run json = cli("optimize", "--db", db.toString(), "--cache", dir.resolve("cache").toString(), "--runs",
        "3", "--json", "--sql", sql);
    assertThat(json.code()).as(json.err()).isZero();
    JsonNode j = JSON.readTree(json.out());
    assertThat(j.path("verdict").asText()).isIn("IMPROVED", "NO_FASTER_CANDIDATE", "NO_EQUIVALENT_CANDIDATE",
        "NO_CANDIDATE");
    assertThat(j.path("original_sql").asText()).contains("GROUP BY");
    assertThat(j.has("candidates") && j.has("speedup") && j.has("elapsed_ms")).isTrue();

    CliTest.Run text = cli("optimize", "--db", db.toString(), "--cache", dir.resolve("cache").toString(), "--runs",
        "3", "--sql", sql);
    assertThat(text.code()).isZero();
    assertThat(text.out()).startsWith("-- verdict: ");

    CliTest.Run failing = cli("optimize", "--db", db.toString(), "--cache", dir.resolve("cache").toString(), "--sql",
        "SELECT nme FROM customers");
    assertThat(failing.code()).isEqualTo(2);
    assertThat(failing.err()).contains("the query itself fails", "nme");
    CliTest.Run hostile = cli("optimize", "--db", db.toString(), "--cache", dir.resolve("cache").toString(), "--sql",
        "DROP TABLE orders");
    assertThat(hostile.code()).isEqualTo(2);
    CliTest.Run missing = cli("optimize", "--db", dir.resolve("none.duckdb").toString(), "--sql", "SELECT 1");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("no such DuckDB database file");
  }

  @Test
  void optimizeRunsAScriptStatementByStatementAgainstARunningPostgres() throws Exception {
    dev.lakerewrite.core.testing.PostgresServer pg = dev.lakerewrite.core.testing.PostgresServer.shared();
    String url;
    try (Connection c = pg.freshDatabase("cli"); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL)");
      s.execute("INSERT INTO customers SELECT g, 'c' || g FROM generate_series(1, 200) g");
      s.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER NOT NULL, amount NUMERIC(10,2))");
      s.execute("INSERT INTO orders SELECT g, g % 200 + 1, (g % 7) * 1.5 FROM generate_series(1, 20000) g");
      s.execute("ANALYZE");
      url = c.getMetaData().getURL();
    }
    Path script = dir.resolve("two.sql");
    java.nio.file.Files.writeString(script, "-- the customers' totals\n"
        + "SELECT c.name, sum(o.amount) AS total FROM orders o JOIN customers c ON c.id = o.customer GROUP BY c.name;\n"
        + "SELECT count(*) FROM orders WHERE customer < 10 AND amount > (SELECT avg(amount) FROM orders o2"
        + " WHERE o2.customer = orders.customer);");
    CliTest.Run run = cli("optimize", "--jdbc", url, "--runs", "2", "--timeout", "30", "--sql-file", script.toString());
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("-- statement 1 of 2", "-- statement 2 of 2", "-- verdict: ");
    CliTest.Run json = cli("optimize", "--jdbc", url, "--runs", "2", "--json", "--sql", "SELECT count(*) FROM orders");
    assertThat(JSON.readTree(json.out()).path("verdict").asText()).isIn("NO_CANDIDATE", "NO_FASTER_CANDIDATE");
    CliTest.Run both = cli("optimize", "--jdbc", url, "--db", "x.duckdb", "--sql", "SELECT 1");
    assertThat(both.code()).isEqualTo(2);
    assertThat(both.err()).contains("exactly one of --db FILE (DuckDB) and --jdbc URL");
    CliTest.Run unreachable = cli("optimize", "--jdbc", "jdbc:postgresql://127.0.0.1:1/none", "--sql", "SELECT 1");
    assertThat(unreachable.code()).isEqualTo(2);
    assertThat(unreachable.err()).contains("cannot connect");
    CliTest.Run writes = cli("optimize", "--jdbc", url, "--sql", "DELETE FROM orders");
    assertThat(writes.code()).isEqualTo(2);
  }

  @Test
  void helpListsTheEverydayCommands() {
    CliTest.Run r = cli("--help");
    assertThat(r.out()).contains("index", "rewrite", "optimize", "eval");
    assertThat(cli("rewrite", "--help").out()).contains("--sql", "--json", "Exit code");
  }
}
