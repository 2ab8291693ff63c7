package dev.lakerewrite.joingraph;

import dev.lakerewrite.testing.SampleLake;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** FIND_JOIN_PATH on the sandboxed sample lake (thesis §5.2.2). */
class FindJoinPathTest {

  @Test
  void pathThroughAnIntermediateTableIsAmongTheTopThree() {
    JoinGraph graph = SampleGraphs.defaults();
    assertThat(graph.edge("fictional_creature", "genre")).isEmpty();
    List<JoinPath> paths = graph.findJoinPaths("fictional_creature", "genre", 3);
    assertThat(paths).isNotEmpty().hasSizeLessThanOrEqualTo(3);
    JoinPath path = paths.stream()
        .filter(p -> p.tables().equals(List.of("fictional_creature", "present_in_work", "genre")))
        .findFirst().orElseThrow(() -> new AssertionError("no creature → work → genre path in " + paths));
    assertThat(path.error()).isNull();
    assertThat(path.rowCount()).isPositive();
    JoinKey first = path.hops().get(0).bestKey();
    assertThat(first.leftColumn()).isEqualTo("present in work");
    assertThat(first.rightColumn()).isEqualTo("label");
    assertThat(first.fanOut()).isEqualTo(1.0);
    assertThat(first.joinScore()).isEqualTo(first.similarity() / 2);
    JoinKey second = path.hops().get(1).bestKey();
    assertThat(second.leftColumn()).isEqualTo("genre");
    assertThat(second.rightColumn()).isEqualTo("label");
    assertThat(path.preview().columns()).contains("fictional_creature.present in work", "present_in_work.label",
        "present_in_work.genre", "genre.label");
    assertThat(path.preview().rows()).isNotEmpty().allSatisfy(row ->
        assertThat(row.get(path.preview().columns().indexOf("fictional_creature.present in work")))
            .isEqualTo(row.get(path.preview().columns().indexOf("present_in_work.label"))));
  }

  @Test
  void twoHopForeignKeyChainsOfTheOtherDatabasesAreFoundToo() {
    JoinGraph graph = SampleGraphs.defaults();
    assertThat(graph.findJoinPaths("1992_winter_olympics", "practiced_by", 3))
        .extracting(JoinPath::tables)
        .contains(List.of("1992_winter_olympics", "sport", "practiced_by"));
    assertThat(graph.findJoinPaths("region_of_new_zealand", "capital_of", 3))
        .extracting(JoinPath::tables)
        .contains(List.of("region_of_new_zealand", "capital", "capital_of"));
  }

  @Test
  void thePathSqlRunsAndCountsWhatTheResultSays() throws SQLException {
    JoinGraph graph = SampleGraphs.defaults();
    JoinPath path = graph.findJoinPaths("region_of_new_zealand", "capital", 1).get(0);
    assertThat(path.tables()).containsExactly("region_of_new_zealand", "capital");
    assertThat(path.sql()).startsWith("SELECT * FROM \"region_of_new_zealand\" JOIN \"capital\" ON ");
    try (Statement st = SampleGraphs.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM (" + path.sql() + ")")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(path.rowCount()).isEqualTo(16);
    }
  }

  @Test
  void keysAreRerankedByExecutedFanOut() {
    JoinGraph graph = SampleGraphs.defaults();
    for (JoinPath path : graph.findJoinPaths("capital", "region_of_new_zealand", 3)) {
      for (JoinHop hop : path.hops()) {
        assertThat(hop.keys()).isSortedAccordingTo((x, y) -> Double.compare(y.joinScore(), x.joinScore()));
        for (JoinKey key : hop.keys()) {
          if (key.matches()) {
            assertThat(key.fanOut()).isEqualTo((double) key.rightRows() / key.matchedLeftKeys());
            assertThat(key.joinScore()).isCloseTo(key.similarity() / (1 + key.fanOut()), within());
          } else {
            assertThat(key.joinScore()).isZero();
          }
        }
      }
    }
  }

  @Test
  void pathsAreOrderedByCostWithNonNegativeEdgeWeights() {
    JoinGraph graph = SampleGraphs.defaults();
    List<PathCandidate> candidates = graph.candidatePaths("fictional_creature", "genre", 5);
    assertThat(candidates).extracting(PathCandidate::cost).isSorted();
    JoinPathFinder finder = new JoinPathFinder(graph, graph.config(), new java.util.HashMap<>());
    for (JoinEdge e : graph.edges()) {
      assertThat(finder.weight(e)).isGreaterThanOrEqualTo(graph.config().hopPenalty());
    }
    JoinEdge strongest = new JoinEdge("a", "b", 2.0, List.of());
    assertThat(finder.weight(strongest)).isEqualTo(graph.config().hopPenalty());
    JoinEdge none = new JoinEdge("a", "b", 0.0, List.of());
    assertThat(finder.weight(none)).isCloseTo(-Math.log(graph.config().epsilon()) + graph.config().hopPenalty(),
        within());
  }

  @Test
  void hopPenaltyPrefersShortPaths() {
    JoinGraph heavy = SampleGraphs.defaults().withConfig(JoinGraphConfig.builder().hopPenalty(50).build());
    List<PathCandidate> paths = heavy.candidatePaths("capital", "region_of_new_zealand", 3);
    assertThat(paths.get(0).length()).isEqualTo(1);
    assertThat(paths).extracting(PathCandidate::length).isSorted();
  }

  @Test
  void badArgumentsAreExplained() {
    JoinGraph graph = SampleGraphs.defaults();
    assertThatThrownBy(() -> graph.findJoinPaths("fictional_creatures", "genre", 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown table 'fictional_creatures'")
        .hasMessageContaining("did you mean 'fictional_creature'");
    assertThatThrownBy(() -> graph.findJoinPaths("genre", "genre", 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two different tables");
    assertThatThrownBy(() -> graph.findJoinPaths("genre", "capital", 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k must be at least 1");
    assertThat(graph.findJoinPaths("genre", "xml_editor", 3)).isEmpty();
  }

  @Test
  void failedStatementsAreReportedNotThrown() throws SQLException {
    JoinGraph graph = freshGraph();
    Connection closed = SampleLake.open();
    closed.close();
    List<JoinPath> paths = graph.findJoinPaths("region_of_new_zealand", "capital", 1, closed);
    assertThat(paths).hasSize(1);
    assertThat(paths.get(0).error()).contains("counting the joined path failed");
    assertThat(paths.get(0).hops().get(0).keys()).allSatisfy(k -> {
      assertThat(k.error()).contains("failed");
      assertThat(k.joinScore()).isZero();
    });
  }

  @Test
  void answersAreKeptForTheGraphsLifeButFailedOnesAreAskedAgain() throws SQLException {
    JoinGraph graph = freshGraph();
    Connection closed = SampleLake.open();
    closed.close();
    assertThat(graph.findJoinPaths("capital", "region_of_new_zealand", 2, closed).get(0).error()).isNotNull();
    List<JoinPath> first = graph.findJoinPaths("capital", "region_of_new_zealand", 2, SampleGraphs.connection());
    assertThat(first).isNotEmpty().allSatisfy(p -> assertThat(p.error()).isNull());
    // The lake is not asked again: a closed connection gets the same answer.
    assertThat(graph.findJoinPaths("capital", "region_of_new_zealand", 2, closed)).isEqualTo(first);
    // Another k is another question (on a closed connection its paths cannot be counted), but the keys measured
    // for the first one come back as measured, not as failures.
    List<JoinPath> three = graph.findJoinPaths("capital", "region_of_new_zealand", 3, closed);
    JoinPath again = three.stream().filter(p -> p.tables().equals(first.get(0).tables())).findFirst().orElseThrow();
    assertThat(again.error()).contains("counting the joined path failed");
    assertThat(again.hops()).isEqualTo(first.get(0).hops());
  }

  /** The sample graph with answers of its own: other tests' calls must not have answered for it. */
  private static JoinGraph freshGraph() {
    return SampleGraphs.defaults().withConfig(SampleGraphs.defaults().config());
  }

  @Test
  void graphWithoutConnectionAsksForOne() {
    JoinGraph graph = SampleGraphs.defaults();
    JoinGraph detached = new JoinGraph(graph.fingerprint(), graph.buildKey(), graph.tables(), graph.edges(),
        graph.buildStats(), graph.config(), null);
    assertThatThrownBy(() -> detached.findJoinPaths("capital", "region_of_new_zealand", 1))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("findJoinPaths(a, b, k, connection)");
    assertThat(detached.findJoinPaths("capital", "region_of_new_zealand", 1, SampleGraphs.connection()))
        .hasSize(1);
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-12);
  }
}
