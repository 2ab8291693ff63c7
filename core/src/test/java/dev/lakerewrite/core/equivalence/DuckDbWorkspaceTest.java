package dev.lakerewrite.core.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.QueryLimits;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Instances replace each other's rows: whatever was loaded before, a query sees exactly the instance's rows. */
class DuckDbWorkspaceTest {
  @Test
  void eachLoadLeavesExactlyTheInstancesRowsEvenAfterTheEngineRefusedARow() throws SQLException {
    Schema schema;
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (x INTEGER CHECK (x < 10))");
      st.execute("CREATE TABLE u (y INTEGER CHECK (y < 100))");
      schema = DuckDbCatalog.read(c);
    }
    Schema.Table t = schema.table("t").orElseThrow();
    Schema.Table u = schema.table("u").orElseThrow();
    try (DuckDbWorkspace ws = DuckDbWorkspace.create(schema)) {
      // 20 breaks the CHECK: the workspace loads row by row and leaves it out.
      Database refused = ws.load(instance("refused", t, u, List.of(List.of("1"), List.of("20")),
          List.of(List.of("5"))));
      assertThat(refused.rows(t)).containsExactly(List.of("1"));
      assertThat(count(ws, "t")).isEqualTo(1);

      ws.load(instance("empty t", t, u, List.of(), List.of(List.of("5"))));
      assertThat(count(ws, "t")).isZero();
      assertThat(count(ws, "u")).isEqualTo(1);

      ws.load(instance("same u, two t", t, u, List.of(List.of("2"), List.of("3")), List.of(List.of("5"))));
      assertThat(count(ws, "t")).isEqualTo(2);
      ws.load(instance("no u", t, u, List.of(List.of("2"), List.of("3")), List.of()));
      assertThat(count(ws, "t")).isEqualTo(2);
      assertThat(count(ws, "u")).isZero();

      // An instance is loaded in one transaction: a row refused in the second table, after the first table's
      // rows were already replaced, rolls both back and the instance is loaded row by row, leaving out that row.
      Database late = ws.load(instance("refused in u", t, u, List.of(List.of("7")),
          List.of(List.of("200"), List.of("8"))));
      assertThat(late.rows(u)).containsExactly(List.of("8"));
      assertThat(count(ws, "t")).isEqualTo(1);
      assertThat(count(ws, "u")).isEqualTo(1);
      assertThat(sum(ws, "t", "x")).isEqualTo(7);
      // Later instances still see exactly their rows (the refused copy statement was prepared again).
      ws.load(instance("after", t, u, List.of(List.of("7")), List.of(List.of("9"), List.of("10"))));
      assertThat(count(ws, "t")).isEqualTo(1);
      assertThat(sum(ws, "u", "y")).isEqualTo(19);
      ws.load(instance("t again", t, u, List.of(List.of("1"), List.of("2")), List.of(List.of("9"), List.of("10"))));
      assertThat(sum(ws, "t", "x")).isEqualTo(3);
      assertThat(sum(ws, "u", "y")).isEqualTo(19);
    }
  }

  private static long sum(DuckDbWorkspace ws, String table, String column) {
    Workspace.Result r = ws.run("SELECT sum(" + column + ") FROM " + table, new QueryLimits(Duration.ofSeconds(10),
        10));
    assertThat(r.failure()).isNull();
    return ((Number) r.table().rows().get(0).get(0)).longValue();
  }

  private static Database instance(String name, Schema.Table t, Schema.Table u, List<List<String>> tRows,
      List<List<String>> uRows) {
    return new Database(name, List.of(t, u), Map.of("t", tRows, "u", uRows));
  }

  private static long count(DuckDbWorkspace ws, String table) {
    Workspace.Result r = ws.run("SELECT count(*) FROM " + table, new QueryLimits(Duration.ofSeconds(10), 10));
    assertThat(r.failure()).isNull();
    return ((Number) r.table().rows().get(0).get(0)).longValue();
  }
}
