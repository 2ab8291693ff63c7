package dev.lakerewrite.joingraph;

import dev.lakerewrite.testing.Sandbox;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Identifiers with spaces, apostrophes, quotes and parentheses survive reading, scoring and executed joins on a
 * sandboxed lake; temporary tables on the connection are not part of the lake.
 */
class OddIdentifiersTest {

  @Test
  void quotedEverywhere(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("odd.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE \"people's (main) list\" AS SELECT 'P' || i AS \"person \"\"id\"\"\", "
          + "'name ' || i AS \"full name\", 'C' || (i % 7) AS \"city (code)\" FROM range(60) t(i)");
      st.execute("CREATE TABLE \"city's table\" AS SELECT 'C' || i AS \"code\", 'City ' || i AS \"city's name\" "
          + "FROM range(7) t(i)");
      st.execute("CREATE TABLE \"visits (2024)\" AS SELECT 'P' || (i % 60) AS \"visitor\", i AS \"n\" "
          + "FROM range(300) t(i)");
    }
    try (Connection lake = Sandbox.open(file, file.resolveSibling("tmp")); Statement st = lake.createStatement()) {
      st.execute("CREATE TEMP TABLE \"scratch\" AS SELECT 'P1' AS \"person \"\"id\"\"\"");
      JoinGraph graph = JoinGraph.builder().connection(lake).embedder(TestEmbedders.miniLm()).build();
      assertThat(graph.tables()).extracting(GraphTable::name)
          .containsExactly("city's table", "people's (main) list", "visits (2024)");
      assertThat(graph.edge("people's (main) list", "city's table").orElseThrow().pairsFrom("city's table").get(0))
          .satisfies(p -> {
            assertThat(p.columnA()).isEqualTo("code");
            assertThat(p.columnB()).isEqualTo("city (code)");
          });
      List<JoinPath> paths = graph.findJoinPaths("visits (2024)", "city's table", 3);
      JoinPath viaPeople = paths.stream().filter(p -> p.length() == 2).findFirst().orElseThrow();
      assertThat(viaPeople.tables()).containsExactly("visits (2024)", "people's (main) list", "city's table");
      assertThat(viaPeople.error()).isNull();
      assertThat(viaPeople.rowCount()).isEqualTo(300);
      JoinKey visitor = viaPeople.hops().get(0).bestKey();
      assertThat(visitor.leftColumn()).isEqualTo("visitor");
      assertThat(visitor.rightColumn()).isEqualTo("person \"id\"");
      assertThat(visitor.fanOut()).as("many visits to one person: each distinct visitor finds one person")
          .isEqualTo(1.0);
      assertThat(viaPeople.preview().rows()).hasSize(5);
      JoinKey reverse = graph.findJoinPaths("people's (main) list", "visits (2024)", 1).get(0).hops().get(0)
          .bestKey();
      assertThat(reverse.fanOut()).as("each person finds five visits").isEqualTo(5.0);
      assertThat(reverse.joinScore()).isEqualTo(reverse.similarity() / 6);
    }
  }
}
