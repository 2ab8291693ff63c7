package dev.lakerewrite.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The shared fixture reproduces the lake core hands over: core's names, read-only, sandboxed, temp objects allowed. */
class SampleLakeTest {

  @Test
  void lakeIsReadOnlyWithoutExternalAccessButAllowsTemporaryTables() throws SQLException {
    try (Connection c = SampleLake.open()) {
      try (Statement st = c.createStatement()) {
        assertThatThrownBy(() -> st.execute("CREATE TABLE main.x AS SELECT 1 AS a"))
            .isInstanceOf(SQLException.class).hasMessageContaining("read-only");
      }
      try (Statement st = c.createStatement()) {
        assertThatThrownBy(() -> st.execute("SELECT * FROM read_csv('/etc/hostname')"))
            .isInstanceOf(SQLException.class);
      }
      try (Statement st = c.createStatement()) {
        assertThatThrownBy(() -> st.execute("SET enable_external_access = true"))
            .isInstanceOf(SQLException.class);
      }
      try (Statement st = c.createStatement()) {
        st.execute("CREATE TEMP TABLE scratch AS SELECT 1 AS a");
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM duckdb_tables() WHERE NOT temporary")) {
          rs.next();
          assertThat(rs.getInt(1)).isEqualTo(29);
        }
        try (ResultSet rs = st.executeQuery("SELECT current_setting('threads'), current_setting('memory_limit')")) {
          rs.next();
          assertThat(rs.getInt(1)).isEqualTo(Sandbox.THREADS);
          assertThat(rs.getString(2)).isNotBlank();
        }
      }
    }
  }

  @Test
  void lakeNamesFollowCoresRule() {
    var tables = SampleLake.tables(SampleLake.folder());
    assertThat(tables).hasSize(29).containsKeys(
        "region_of_new_zealand_category_of_associated_people",
        "computer_animated_film_category_of_associated_people",
        "1992_winter_olympics", "capital");
    assertThat(tables.get("region_of_new_zealand_category_of_associated_people").toString())
        .contains("region-of-new-zealand").endsWith("category-of-associated-people.csv");
    assertThat(SampleLake.tableNames()).containsExactlyElementsOf(tables.keySet());
  }
}
