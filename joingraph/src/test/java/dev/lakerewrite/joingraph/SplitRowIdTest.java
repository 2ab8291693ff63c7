package dev.lakerewrite.joingraph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.testing.Sandbox;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table split by columns keeps one row id under two names that embeddings do not relate ({@code RecId} /
 * {@code RecordRef}): the two unique columns holding the same values join the parts, while numbers that merely
 * fall in a key's range (a code column, a smaller table's key) still need similar names.
 */
class SplitRowIdTest {

  private static void lake(Path file) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
      // The row id in the first part is text with one noisy cell, as in a lake read from CSV.
      st.execute("CREATE TABLE raw_lntm AS SELECT CASE WHEN i = 83 THEN ' ' || i ELSE CAST(i AS VARCHAR) END "
          + "AS \"RecId\", i * 7 % 1000 AS \"Ext\", DATE '1995-01-01' + CAST(i % 300 AS INTEGER) AS \"Shpd\" "
          + "FROM range(1, 2001) t(i)");
      st.execute("CREATE TABLE raw_lntm_attributes AS SELECT i AS \"RecordRef\", (i % 2) + 1 AS \"Lnsts\", "
          + "(i % 11) / 100.0 AS \"Discount\" FROM range(1, 2001) t(i)");
      // Another entity whose key 1..150 lies inside the row ids' range: a coincidence, not a join.
      st.execute("CREATE TABLE raw_suppliers AS SELECT i AS \"Sk\", 'Supplier ' || i AS \"Nm\" "
          + "FROM range(1, 151) t(i)");
    }
  }

  @Test
  void uniqueColumnsWithTheSameValuesJoinTheParts(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("lake.duckdb");
    lake(file);
    try (Connection lake = Sandbox.open(file, file.resolveSibling("tmp"))) {
      JoinGraph graph = JoinGraph.builder().connection(lake).embedder(TestEmbedders.miniLm()).build();
      ColumnPair best = graph.edge("raw_lntm", "raw_lntm_attributes").orElseThrow().pairsFrom("raw_lntm").get(0);
      assertThat(best.columnA()).isEqualTo("RecId");
      assertThat(best.columnB()).isEqualTo("RecordRef");
      JoinPath path = graph.findJoinPaths("raw_lntm", "raw_lntm_attributes", 1).get(0);
      assertThat(path.hops().get(0).bestKey().rightColumn()).isEqualTo("RecordRef");
      assertThat(path.rowCount()).isEqualTo(2000);
      assertThat(graph.edge("raw_lntm", "raw_suppliers")).as("1..150 inside 1..2000 is no join").isEmpty();
    }
  }

  @Test
  void invisibleCharactersAndMarkupInTheRowIdsDoNotHideTheSameKeySet(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("lake.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
      // A tenth of each part's row ids carry noise a reader never sees: a soft hyphen, a zero-width space, a tag.
      st.execute("CREATE TABLE raw_lntm AS SELECT CASE WHEN i % 20 = 0 THEN i || chr(173) WHEN i % 20 = 10 THEN "
          + "substr(CAST(i AS VARCHAR), 1, 1) || chr(8203) || substr(CAST(i AS VARCHAR), 2) ELSE CAST(i AS VARCHAR) END AS \"RecId\", "
          + "i * 7 % 1000 AS \"Ext\" FROM range(1, 2001) t(i)");
      st.execute("CREATE TABLE raw_lntm_attributes AS SELECT CASE WHEN i % 10 = 5 THEN '<b>' || i || '</b>' "
          + "ELSE CAST(i AS VARCHAR) END AS \"RecordRef\", (i % 11) / 100.0 AS \"Discount\" FROM range(1, 2001) t(i)");
    }
    try (Connection lake = Sandbox.open(file, file.resolveSibling("tmp"))) {
      JoinGraph graph = JoinGraph.builder().connection(lake).embedder(TestEmbedders.miniLm()).build();
      ColumnPair best = graph.edge("raw_lntm", "raw_lntm_attributes").orElseThrow().pairsFrom("raw_lntm").get(0);
      assertThat(best.columnA()).isEqualTo("RecId");
      assertThat(best.columnB()).isEqualTo("RecordRef");
      assertThat(best.jaccard()).isEqualTo(1.0);
    }
  }

  @Test
  void withoutTheSameKeySetRuleNumericKeysNeedSimilarNames(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("lake.duckdb");
    lake(file);
    try (Connection lake = Sandbox.open(file, file.resolveSibling("tmp"))) {
      // Read lexically, RecId and RecordRef share "rec": embeddings alone do not relate them.
      JoinGraph graph = JoinGraph.builder().connection(lake).embedder(TestEmbedders.miniLm())
          .config(JoinGraphConfig.builder().minSameKeySetValues(0).lexicalNames(false).build()).build();
      assertThat(graph.edge("raw_lntm", "raw_lntm_attributes").map(e -> e.pairsFrom("raw_lntm").stream()
          .anyMatch(p -> p.columnB().equals("RecordRef")))).isNotEqualTo(java.util.Optional.of(true));
    }
  }

  @Test
  void anAbbreviatedKeyJoinsTheColumnsThatReferenceItWhileACoincidentalRangeStillDoesNot(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("lake.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
      // Orders keyed by ORDR (every fourth number, as TPC-H's order keys), line items referencing them by
      // orderkey and their supplier by suppkey (SK, its abbreviation), and a quantity whose 1..150 is also a region
      // table's key range.
      st.execute("CREATE TABLE t_ord AS SELECT 4 * i + 1 AS \"ordr\", 'c' || i AS \"comment\" FROM range(0, 1500) t(i)");
      st.execute("CREATE TABLE t_lntm AS SELECT i AS \"recId\", 4 * (i % 1500) + 1 AS \"orderkey\", "
          + "i % 150 + 1 AS \"suppkey\", (7 * i) % 150 + 1 AS \"qty\" FROM range(0, 6000) t(i)");
      st.execute("CREATE TABLE t_supp AS SELECT i AS \"sk\", 'Supplier ' || i AS \"nm\" FROM range(1, 151) t(i)");
      st.execute("CREATE TABLE t_rgn AS SELECT i AS \"regi\", 'Region ' || i AS \"label\" FROM range(1, 151) t(i)");
    }
    try (Connection lake = Sandbox.open(file, file.resolveSibling("tmp"))) {
      JoinGraph lexical = JoinGraph.builder().connection(lake).embedder(TestEmbedders.miniLm()).build();
      assertThat(lexical.edge("t_lntm", "t_ord").orElseThrow().pairsFrom("t_lntm").get(0).columnA())
          .isEqualTo("orderkey");
      assertThat(lexical.edge("t_ord", "t_lntm").orElseThrow().pairsFrom("t_lntm").stream()
          .noneMatch(p -> p.columnA().equals("recId"))).as("row ids 0..5999 hold the order keys by chance").isTrue();
      assertThat(lexical.edge("t_lntm", "t_supp").orElseThrow().pairsFrom("t_lntm").get(0).columnA())
          .isEqualTo("suppkey");
      assertThat(lexical.edge("t_lntm", "t_rgn")).as("a quantity in a key's range is no join").isEmpty();
      JoinGraph embeddingsOnly = JoinGraph.builder().connection(lake).embedder(TestEmbedders.miniLm())
          .config(JoinGraphConfig.builder().lexicalNames(false).build()).build();
      assertThat(embeddingsOnly.edge("t_lntm", "t_ord")).isEmpty();
    }
  }

  @Test
  void aWordEveryColumnOfBothPartsStartsWithDoesNotPairTheRowIdWithAnotherKeyOfTheSameRange(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("lake.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
      // Both parts name their columns lnt...: read with it, lntRecId and lntPrtky (part keys 1..200, inside the
      // row ids' range) look alike.
      st.execute("CREATE TABLE t_lineitems AS SELECT i AS \"lntRecId\", i % 50 AS \"lntQuantity\", "
          + "'x' || i AS \"lntComment\" FROM range(1, 3001) t(i)");
      st.execute("CREATE TABLE t_lineitems_info AS SELECT i AS \"liRecordRef\", i % 200 + 1 AS \"lntPrtky\", "
          + "(i % 9) / 100.0 AS \"lntTax\", 'y' || i AS \"lntShipinstruct\" FROM range(1, 3001) t(i)");
    }
    try (Connection lake = Sandbox.open(file, file.resolveSibling("tmp"))) {
      JoinGraph graph = JoinGraph.builder().connection(lake).embedder(TestEmbedders.miniLm()).build();
      ColumnPair best = graph.edge("t_lineitems", "t_lineitems_info").orElseThrow().pairsFrom("t_lineitems").get(0);
      assertThat(best.columnA()).isEqualTo("lntRecId");
      assertThat(best.columnB()).isEqualTo("liRecordRef");
    }
  }
}
