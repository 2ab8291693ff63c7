package dev.lakerewrite.joingraph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The fixture reproduces the connection core hands over: read-only, no external access, temp objects allowed. */
class SandboxFixtureTest {

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
      }
    }
  }

  @Test
  void lakeNamesFollowCoresRule() {
    var names = SampleLake.tableNames();
    assertThat(names.get("region-of-new-zealand").get("category-of-associated-people"))
        .isEqualTo("region_of_new_zealand_category_of_associated_people");
    assertThat(names.get("computer-animated-film").get("category-of-associated-people"))
        .isEqualTo("computer_animated_film_category_of_associated_people");
    assertThat(names.get("1992-winter-olympics").get("1992-winter-olympics")).isEqualTo("1992_winter_olympics");
    assertThat(SampleGraphs.defaults().tables()).hasSize(29);
    assertThat(SampleGraphs.defaults().table("capital").orElseThrow().column("Who's on First ID")).isPresent();
  }
}
