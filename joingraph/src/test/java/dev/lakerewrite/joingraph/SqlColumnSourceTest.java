package dev.lakerewrite.joingraph;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: the SQL column source reads a small table in one scan, a large one column by column, and a table above
 * the value cap from a row sample, with the same values and counts where both apply; views are tables too.
 */
class SqlColumnSourceTest {

  private static Map<String, ColumnValues> read(ColumnSource source, String table) {
    Map<String, ColumnValues> out = new LinkedHashMap<>();
    ColumnSource.Table t = source.tables().stream().filter(x -> x.name().equals(table)).findFirst().orElseThrow();
    source.readColumns(t, v -> out.put(v.column(), v));
    return out;
  }

  private static List<String> values(ColumnValues v) {
    List<String> out = new java.util.ArrayList<>();
    v.values().forEach(out::add);
    return out;
  }

  @Test
  void smallLargeAndSampledTablesGiveTheirDistinctValuesAndCounts() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE small AS SELECT range AS id, CASE WHEN range % 4 = 0 THEN NULL ELSE 'k' || (range % 5)"
          + " END AS kind, 'x' AS \"odd name\" FROM range(200)");
      st.execute("CREATE VIEW small_view AS SELECT * FROM small");
      // 700,000 rows of 3 columns is above the one-scan limit of 2,000,000 cells: read column by column.
      st.execute("CREATE TABLE large AS SELECT range AS id, range % 1000 AS bucket, NULL::VARCHAR AS empty "
          + "FROM range(700000)");
      ColumnSource source = ColumnSource.fromConnection(c, 1_000_000);
      assertThat(source.tables()).extracting(ColumnSource.Table::name).contains("small", "small_view", "large");

      Map<String, ColumnValues> small = read(source, "small");
      assertThat(small.get("id").nonNullCount()).isEqualTo(200);
      assertThat(new HashSet<>(values(small.get("id")))).hasSize(200);
      assertThat(small.get("kind").nonNullCount()).isEqualTo(150);
      assertThat(new HashSet<>(values(small.get("kind")))).containsExactlyInAnyOrder("k0", "k1", "k2", "k3", "k4");
      assertThat(values(small.get("odd name"))).containsExactly("x");
      assertThat(read(source, "small_view").keySet()).containsExactly("id", "kind", "odd name");

      Map<String, ColumnValues> large = read(source, "large");
      assertThat(large.get("id").nonNullCount()).isEqualTo(700_000);
      assertThat(values(large.get("id"))).hasSize(700_000);
      assertThat(values(large.get("bucket"))).hasSize(1000);
      assertThat(large.get("empty").nonNullCount()).isZero();
      assertThat(values(large.get("empty"))).isEmpty();

      // Above the cap of 500 rows: a sample of 500 rows, its counts describing the sample.
      Map<String, ColumnValues> sampled = read(ColumnSource.fromConnection(c, 500), "small");
      assertThat(sampled.get("id").nonNullCount()).isEqualTo(200);
      Map<String, ColumnValues> capped = read(ColumnSource.fromConnection(c, 150), "small");
      assertThat(capped.get("id").nonNullCount()).isEqualTo(150);
      assertThat(new HashSet<>(values(capped.get("id")))).hasSize(150);
      assertThat(values(capped.get("kind"))).hasSizeLessThanOrEqualTo(5);
    }
  }
}
