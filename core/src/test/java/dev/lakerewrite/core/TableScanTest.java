package dev.lakerewrite.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: a table too large for one query is read in groups of columns (each group one query), and every column's
 * values and counts are those of a plain {@code GROUP BY}; above {@code maxRows} rows the values come from a sample
 * of about that many rows, one for all the columns, the same at every read.
 */
class TableScanTest {

  @Test
  void groupsOfColumnsGiveEachColumnsValuesAndCounts() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      // 300,000 rows x 7 columns: 2.1 million cells, three groups of at most a million cells.
      st.execute("CREATE TABLE t AS SELECT range AS id, range % 13 AS small, 'v' || (range % 1000) AS text,"
          + " CASE WHEN range % 5 = 0 THEN NULL ELSE range % 77 END AS sparse, range % 2 = 0 AS flag,"
          + " DATE '2024-01-01' + (range % 31)::INTEGER AS day, range * 0.5 AS half FROM range(300000)");
      List<CatalogTable.Column> columns = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("DESCRIBE t")) {
        while (rs.next()) {
          columns.add(new CatalogTable.Column(rs.getString(1), rs.getString(2)));
        }
      }
      CatalogTable table = new CatalogTable("t", columns, 300_000, Optional.empty());
      TableScan.Result scan = TableScan.scan(c, table, 1_000_000, 500);
      assertThat(scan.sampled()).isFalse();
      assertThat(scan.columns()).extracting(TableScan.Column::name)
          .containsExactly("id", "small", "text", "sparse", "flag", "day", "half");
      for (TableScan.Column col : scan.columns()) {
        List<String> values = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("SELECT CAST(\"" + col.name() + "\" AS VARCHAR) AS v, count(*) AS n"
            + " FROM t WHERE v IS NOT NULL GROUP BY v ORDER BY n DESC, v LIMIT 500")) {
          while (rs.next()) {
            values.add(rs.getString(1));
            counts.add(rs.getLong(2));
          }
        }
        assertThat(col.values()).as(col.name()).isEqualTo(values);
        assertThat(col.counts()).as(col.name()).containsExactly(counts.stream().mapToLong(Long::longValue).toArray());
      }
      assertThat(scan.columns().get(1).complete()).as("13 values, all read").isTrue();
      assertThat(scan.columns().get(0).complete()).as("cut at 500 values").isFalse();
      assertThat(scan.columns().get(3).nonNull()).isEqualTo(240_000);

      TableScan.Result sampled = TableScan.scan(c, table, 50_000, 500);
      assertThat(sampled.sampled()).isTrue();
      // A Bernoulli sample of about 50,000 rows (one in six), the same rows at every read.
      assertThat(sampled.columns().get(1).nonNull()).isCloseTo(50_000L, withPercentage(3));
      assertThat(sampled.columns().get(1).complete()).isFalse();
      TableScan.Result again = TableScan.scan(c, table, 50_000, 500);
      for (int i = 0; i < sampled.columns().size(); i++) {
        assertThat(again.columns().get(i).values()).isEqualTo(sampled.columns().get(i).values());
        assertThat(again.columns().get(i).counts()).isEqualTo(sampled.columns().get(i).counts());
      }
    }
  }

  @Test
  void aSampledTablesColumnsDescribeTheSameRows() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      // b and c are functions of a: read from one sample, each value of a has the count of its images in b and c.
      st.execute("CREATE TABLE t AS SELECT range % 997 AS a, 'x' || (range % 997) AS b, (range % 997) * 2 AS c,"
          + " CASE WHEN range % 3 = 0 THEN NULL ELSE range % 997 END AS d FROM range(200000)");
      List<CatalogTable.Column> columns = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("DESCRIBE t")) {
        while (rs.next()) {
          columns.add(new CatalogTable.Column(rs.getString(1), rs.getString(2)));
        }
      }
      TableScan.Result scan = TableScan.scan(c, new CatalogTable("t", columns, 200_000, Optional.empty()), 20_000,
          5_000);
      assertThat(scan.sampled()).isTrue();
      java.util.Map<String, Long> a = counts(scan.columns().get(0));
      java.util.Map<String, Long> b = counts(scan.columns().get(1));
      java.util.Map<String, Long> cc = counts(scan.columns().get(2));
      assertThat(a.values().stream().mapToLong(Long::longValue).sum()).isCloseTo(20_000L,
          withPercentage(3));
      assertThat(a).hasSize(b.size()).hasSize(cc.size());
      a.forEach((value, n) -> {
        assertThat(b.get("x" + value)).as("b for a = %s", value).isEqualTo(n);
        assertThat(cc.get(String.valueOf(Long.parseLong(value) * 2))).as("c for a = %s", value).isEqualTo(n);
      });
      assertThat(scan.columns().get(3).nonNull()).as("nulls are not counted").isLessThan(20_000);
      assertThat(scan.columns()).allSatisfy(col -> assertThat(col.complete()).isFalse());
    }
  }

  @Test
  void aSampledTableIsReadOnTheLakesSandboxedConnection(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
      throws Exception {
    java.nio.file.Path folder = java.nio.file.Files.createDirectories(tmp.resolve("lake"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      st.execute("COPY (SELECT range AS id, 'k' || (range % 50) AS kind FROM range(30000)) TO '"
          + folder.resolve("events.parquet") + "' (FORMAT parquet)");
    }
    try (DataLake lake = DataLake.builder().cacheDirectory(tmp.resolve("cache")).fromFolder(folder);
        LakeSession session = lake.openSession()) {
      TableScan.Result scan = TableScan.scan(session.connection(), lake.catalog().requireTable("events"), 10_000,
          100);
      assertThat(scan.sampled()).isTrue();
      assertThat(scan.columns().get(0).values()).hasSize(100);
      assertThat(scan.columns().get(1).values()).hasSize(50);
      assertThat(scan.columns().get(1).nonNull()).isCloseTo(10_000L, withPercentage(5));
    }
  }

  private static java.util.Map<String, Long> counts(TableScan.Column column) {
    java.util.Map<String, Long> out = new java.util.HashMap<>();
    for (int i = 0; i < column.values().size(); i++) {
      out.put(column.values().get(i), column.counts()[i]);
    }
    return out;
  }
}
