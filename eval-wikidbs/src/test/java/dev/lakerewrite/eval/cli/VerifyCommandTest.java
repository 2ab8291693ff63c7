package dev.lakerewrite.eval.cli;

import static dev.lakerewrite.eval.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code verify}: verdicts and exit codes 0/3/4/2, {@code --json}, a counterexample that really tells apart. */
class VerifyCommandTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String SCHEMA = """
      CREATE TABLE customers (c_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, region VARCHAR);
      CREATE TABLE orders (o_id INTEGER PRIMARY KEY, cust_id INTEGER REFERENCES customers (c_id),
        amount DECIMAL(10,2) NOT NULL, status VARCHAR);
      """;

  @TempDir
  Path dir;

  @Test
  void equivalentQueriesExitZeroAndSayHow() throws Exception {
    Path schema = Files.writeString(dir.resolve("shop.sql"), SCHEMA);
    CliTest.Run r = cli("verify", "--schema", schema.toString(),
        "--left", "SELECT c.name FROM customers c JOIN orders o ON o.cust_id = c.c_id WHERE o.amount > 5",
        "--right", "SELECT x.name FROM orders y, customers x WHERE 5 < y.amount AND y.cust_id = x.c_id");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("-- verdict: EQUIVALENT (proved)");

    CliTest.Run tested = cli("verify", "--schema", schema.toString(), "--json",
        "--left", "SELECT o_id FROM orders WHERE cust_id IN (SELECT c_id FROM customers)",
        "--right", "SELECT o.o_id FROM orders o JOIN customers c ON o.cust_id = c.c_id");
    assertThat(tested.code()).as(tested.err()).isZero();
    JsonNode j = JSON.readTree(tested.out());
    assertThat(j.path("verdict").asText()).isEqualTo("EQUIVALENT");
    assertThat(j.path("proved").asBoolean()).isFalse();
    assertThat(j.path("counterexample").isNull()).isTrue();
    assertThat(j.path("evidence").path("instances").asInt()).isGreaterThan(10);
  }

  @Test
  void aDifferenceExitsThreeWithACounterexampleThatTellsTheQueriesApart() throws Exception {
    Path schema = Files.writeString(dir.resolve("shop.sql"), SCHEMA);
    String left = "SELECT status, count(*) FROM orders GROUP BY status";
    Path rightFile = Files.writeString(dir.resolve("right.sql"), "SELECT status, count(status) FROM orders\n"
        + "GROUP BY status;\n");
    CliTest.Run r = cli("verify", "--schema", schema.toString(), "--json", "--left", left, "--right-file",
        rightFile.toString());
    assertThat(r.code()).as(r.err()).isEqualTo(3);
    JsonNode j = JSON.readTree(r.out());
    assertThat(j.path("verdict").asText()).isEqualTo("NOT_EQUIVALENT");
    JsonNode ce = j.path("counterexample");
    assertThat(ce.path("script").asText()).contains("CREATE TABLE orders", "INSERT INTO orders");
    assertThat(ce.path("row_count").asInt()).isBetween(1, 3);
    // Run the counterexample: the two queries must return different rows on it.
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      for (JsonNode s : ce.path("create_statements")) {
        st.execute(s.asText());
      }
      for (JsonNode s : ce.path("insert_statements")) {
        st.execute(s.asText());
      }
      assertThat(rows(st, left)).isNotEqualTo(rows(st, Files.readString(rightFile).replace(";", "")));
    }

    CliTest.Run text = cli("verify", "--schema", schema.toString(), "--left", left, "--right-file",
        rightFile.toString());
    assertThat(text.code()).isEqualTo(3);
    assertThat(text.out()).startsWith("-- verdict: NOT_EQUIVALENT").contains("-- counterexample", "INSERT INTO",
        "-- left returns", "-- right returns");
  }

  /** A right query that fails where the left one answers: exit 3, and the error in the text and the JSON. */
  @Test
  void aRightQueryThatFailsOnDataTheLeftOneAnswersExitsThreeWithTheError() throws Exception {
    Path schema = Files.writeString(dir.resolve("shop.sql"), SCHEMA);
    String left = "SELECT (SELECT max(amount) FROM orders WHERE status = 'open') AS a";
    String right = "SELECT (SELECT amount FROM orders WHERE status = 'open') AS a";
    CliTest.Run text = cli("verify", "--schema", schema.toString(), "--left", left, "--right", right);
    assertThat(text.code()).as(text.err()).isEqualTo(3);
    assertThat(text.out()).contains("-- right fails: ").contains("More than one row");
    CliTest.Run json = cli("verify", "--schema", schema.toString(), "--json", "--left", left, "--right", right);
    assertThat(json.code()).as(json.err()).isEqualTo(3);
    JsonNode ce = JSON.readTree(json.out()).path("counterexample");
    assertThat(ce.path("right_failure").asText()).contains("More than one row");
    assertThat(ce.path("right_result").isNull()).isTrue();
  }

  @Test
  void aLimitWithoutATotalOrderIsUnknownNotADifference() throws Exception {
    Path schema = Files.writeString(dir.resolve("shop.sql"), SCHEMA);
    CliTest.Run r = cli("verify", "--schema", schema.toString(), "--json",
        "--left", "SELECT name FROM customers LIMIT 1",
        "--right", "SELECT name FROM customers ORDER BY name DESC LIMIT 1");
    assertThat(r.code()).as(r.out()).isIn(0, 4);
    JsonNode j = JSON.readTree(r.out());
    assertThat(j.path("nondeterministic").asBoolean()).isTrue();
    assertThat(j.path("verdict").asText()).isNotEqualTo("NOT_EQUIVALENT");
  }

  @Test
  void aDatabaseFileGivesSchemaAndData() throws Exception {
    Path db = dir.resolve("shop.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR)");
      st.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, NULL)");
    }
    CliTest.Run same = cli("verify", "--db", db.toString(), "--left", "SELECT v FROM t WHERE id > 1",
        "--right", "SELECT v FROM t WHERE id >= 2");
    assertThat(same.code()).as(same.out() + same.err()).isZero();
    assertThat(same.out()).contains("including the database itself");
    CliTest.Run different = cli("verify", "--db", db.toString(), "--left", "SELECT v FROM t WHERE v <> 'a'",
        "--right", "SELECT v FROM t WHERE NOT v = 'a' OR v IS NULL");
    assertThat(different.code()).isEqualTo(3);
  }

  @Test
  void badInputExitsTwoAndSaysWhat() throws Exception {
    Path schema = Files.writeString(dir.resolve("shop.sql"), SCHEMA);
    CliTest.Run unknown = cli("verify", "--schema", schema.toString(), "--left", "SELECT nme FROM customers",
        "--right", "SELECT name FROM customers");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).contains("lakerewrite verify: the left query", "nme");
    CliTest.Run notQuery = cli("verify", "--schema", schema.toString(), "--left", "SELECT 1", "--right",
        "DELETE FROM orders");
    assertThat(notQuery.code()).isEqualTo(2);
    assertThat(notQuery.err()).contains("the right query");
    CliTest.Run missing = cli("verify", "--schema", dir.resolve("none.sql").toString(), "--left", "SELECT 1",
        "--right", "SELECT 1");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("no such file");
    Path broken = Files.writeString(dir.resolve("broken.sql"), "CREATE TABLE t (a INTEGER);\nCREATE TABEL u (b INT);");
    CliTest.Run badSchema = cli("verify", "--schema", broken.toString(), "--left", "SELECT 1", "--right", "SELECT 1");
    assertThat(badSchema.code()).isEqualTo(2);
    assertThat(badSchema.err()).contains("statement 2 of the schema");
    CliTest.Run both = cli("verify", "--schema", schema.toString(), "--db", "x.duckdb", "--left", "SELECT 1",
        "--right", "SELECT 1");
    assertThat(both.code()).isEqualTo(2);
    CliTest.Run noRight = cli("verify", "--schema", schema.toString(), "--left", "SELECT 1");
    assertThat(noRight.code()).isEqualTo(2);
    assertThat(noRight.err()).contains("--right");
  }

  static List<String> rows(Statement st, String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          sb.append(rs.getString(i)).append('|');
        }
        out.add(sb.toString());
      }
    }
    out.sort(null);
    return out;
  }
}
