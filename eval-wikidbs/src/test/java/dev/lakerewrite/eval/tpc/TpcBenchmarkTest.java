package dev.lakerewrite.eval.tpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.Engine;
import dev.lakerewrite.core.testing.PostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TPC-H and TPC-DS at a tiny scale factor on DuckDB and on a real PostgreSQL: loads, keys, every query runs. */
class TpcBenchmarkTest {
  static Connection duckTpch;
  static Connection pgTpch;

  @BeforeAll
  static void load() throws SQLException {
    duckTpch = DriverManager.getConnection("jdbc:duckdb:");
    TpcBenchmark.TPCH.load(duckTpch, 0.01);
    pgTpch = PostgresServer.shared().freshDatabase("tpch");
    TpcBenchmark.TPCH.load(pgTpch, 0.01);
  }

  @AfterAll
  static void close() throws SQLException {
    duckTpch.close();
    pgTpch.close();
  }

  @Test
  void tpchLoadsTheSameRowsWithPrimaryKeysOnBothEngines() throws SQLException {
    assertThat(TpcBenchmark.TPCH.tables()).containsExactlyInAnyOrder("part", "supplier", "partsupp", "customer",
        "orders", "lineitem", "nation", "region");
    for (String t : TpcBenchmark.TPCH.tables()) {
      assertThat(count(pgTpch, "SELECT count(*) FROM " + t)).as(t).isEqualTo(count(duckTpch, "SELECT count(*) FROM " + t))
          .isPositive();
    }
    assertThat(count(duckTpch, "SELECT count(*) FROM lineitem")).isBetween(55_000L, 65_000L);
    String pk = "SELECT count(*) FROM information_schema.table_constraints WHERE constraint_type = 'PRIMARY KEY'"
        + " AND table_schema = current_schema()";
    assertThat(count(duckTpch, pk)).isEqualTo(8);
    assertThat(count(pgTpch, pk)).isEqualTo(8);
    assertThat(TpcBenchmark.TPCH.primaryKey("lineitem")).containsExactly("l_orderkey", "l_linenumber");
    assertThat(TpcBenchmark.TPCH.loadedScale(pgTpch)).isEqualTo(0.01);
    assertThat(TpcBenchmark.TPCDS.loadedScale(pgTpch)).isEqualTo(-1);
  }

  @Test
  void everyTpchQueryReturnsTheSameRowCountOnDuckDbAndPostgres() throws SQLException {
    List<String> differ = new ArrayList<>();
    for (String name : TpcBenchmark.TPCH.queryNames()) {
      long duck = rows(duckTpch, TpcBenchmark.TPCH.query(name, Engine.DUCKDB).sql());
      long pg = rows(pgTpch, TpcBenchmark.TPCH.query(name, Engine.POSTGRESQL).sql());
      if (duck != pg) {
        differ.add(name + ": " + duck + " vs " + pg);
      }
    }
    assertThat(differ).isEmpty();
  }

  @Test
  void tpcdsLoadsAndEveryQueryRunsOnBothEngines() throws SQLException {
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
         Connection pg = PostgresServer.shared().freshDatabase("tpcds")) {
      TpcBenchmark.TPCDS.load(duck, 0.01);
      TpcBenchmark.TPCDS.load(pg, 0.01);
      assertThat(TpcBenchmark.TPCDS.tables()).hasSize(24).contains("store_sales", "store_returns", "date_dim");
      for (String t : List.of("store_sales", "store_returns", "catalog_returns", "web_returns", "inventory")) {
        assertThat(count(pg, "SELECT count(*) FROM " + t)).as(t).isEqualTo(count(duck, "SELECT count(*) FROM " + t))
            .isPositive();
      }
      assertThat(count(duck, "SELECT count(*) FROM store_sales WHERE ss_customer_sk IS NULL")).isPositive();
      Map<String, String> failures = new LinkedHashMap<>();
      int nonEmpty = 0;
      assertThat(TpcBenchmark.TPCDS.queryNames()).hasSize(103);
      for (String name : TpcBenchmark.TPCDS.queryNames()) {
        for (Engine e : Engine.values()) {
          try {
            long n = rows(e == Engine.DUCKDB ? duck : pg, TpcBenchmark.TPCDS.query(name, e).sql());
            nonEmpty += n > 0 && e == Engine.DUCKDB ? 1 : 0;
          } catch (SQLException ex) {
            if (e == Engine.POSTGRESQL && ex.getMessage().contains("division by zero")) {
              continue; // q12, q90: at this tiny scale a group is empty; PostgreSQL raises where DuckDB gives NULL
            }
            failures.put(name + " on " + e, ex.getMessage());
          }
        }
      }
      assertThat(failures).isEmpty();
      assertThat(nonEmpty).isGreaterThan(50);
    }
  }

  @Test
  void queriesAreFoundByNameWithAHintForTypos() {
    assertThat(TpcBenchmark.TPCH.query("Q17", Engine.DUCKDB).name()).isEqualTo("q17");
    assertThat(TpcBenchmark.TPCH.query("05", Engine.DUCKDB).name()).isEqualTo("q5");
    assertThat(TpcBenchmark.TPCH.query("q15", Engine.POSTGRESQL).sql()).startsWith("WITH revenue AS").doesNotContain("VIEW");
    assertThat(TpcBenchmark.TPCDS.query("q72", Engine.POSTGRESQL).sql()).contains("INTERVAL '5 days'")
        .doesNotContain("`");
    assertThatThrownBy(() -> TpcBenchmark.TPCDS.query("q14", Engine.DUCKDB))
        .hasMessageContaining("TPC-DS has no query 'q14'").hasMessageContaining("q14a");
    assertThatThrownBy(() -> TpcBenchmark.TPCH.load(duckTpch, 0)).hasMessageContaining("scaleFactor must be");
  }

  @Test
  void theCachedDuckDbFileIsGeneratedOnceAndReused(@TempDir Path cache) throws Exception {
    Path file = TpcBenchmark.TPCH.cachedDuckDb(0.001, cache);
    long modified = file.toFile().lastModified();
    assertThat(TpcBenchmark.TPCH.cachedDuckDb(0.001, cache)).isEqualTo(file);
    assertThat(file.toFile().lastModified()).isEqualTo(modified);
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file)) {
      assertThat(TpcBenchmark.TPCH.loadedScale(c)).isEqualTo(0.001);
      assertThat(TpcBenchmark.TPCH.loadIfMissing(c, 0.002)).isTrue();
      assertThat(TpcBenchmark.TPCH.loadedScale(c)).isEqualTo(0.002);
    }
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long rows(Connection c, String sql) throws SQLException {
    long n = 0;
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        n++;
      }
    }
    return n;
  }
}
