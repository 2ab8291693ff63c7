package dev.lakerewrite.eval.perturb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryGeneratorTest {

  @TempDir
  static Path dir;
  static Path source;
  static List<SourceQuery> queries;

  @BeforeAll
  static void generate() throws Exception {
    source = ShopDatabase.create(dir.resolve("shop.duckdb"));
    queries = QueryGenerator.builder().seed(5).count(52).build().generate(source, "g");
  }

  @Test
  void everyShapeIsGeneratedAndEveryQueryRunsWithRows() throws Exception {
    assertThat(queries).hasSize(52);
    Set<SqlShape> shapes = EnumSet.noneOf(SqlShape.class);
    queries.forEach(q -> shapes.addAll(q.shapes()));
    assertThat(shapes).containsExactlyInAnyOrder(SqlShape.values());
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + source);
        Statement st = c.createStatement()) {
      for (SourceQuery q : queries) {
        try (ResultSet rs = st.executeQuery(q.sql())) {
          assertThat(rs.next()).as(q.sql()).isTrue();
        }
      }
    }
    assertThat(queries.stream().map(SourceQuery::sql).distinct()).hasSize(queries.size());
  }

  @Test
  void theSameSeedGivesTheSameQueries() throws Exception {
    assertThat(QueryGenerator.builder().seed(5).count(52).build().generate(source, "g")).isEqualTo(queries);
    assertThat(QueryGenerator.builder().seed(6).count(52).build().generate(source, "g")).isNotEqualTo(queries);
  }

  @Test
  void detectedShapesAgreeWithTheGeneratorsOwn() {
    Set<String> tables = Set.of("customer", "orders", "product");
    for (SourceQuery q : queries) {
      Set<SqlShape> detected = SqlShape.detect(q.sql(), tables);
      Set<SqlShape> structural = EnumSet.copyOf(q.shapes());
      structural.retainAll(EnumSet.of(SqlShape.EXISTS_SUBQUERY, SqlShape.IN_SUBQUERY, SqlShape.DERIVED_TABLE,
          SqlShape.CTE, SqlShape.SET_OPERATION, SqlShape.SELF_JOIN, SqlShape.CORRELATED_SUBQUERY));
      assertThat(detected).as(q.sql()).containsAll(structural);
    }
  }

  @Test
  void generatedQueriesBecomeVerifiedPairsOnDisorganizedLakes() throws Exception {
    PerturbedLake lake = LakePerturber.builder().seed(11).cacheDirectory(dir.resolve("cache")).build()
        .perturb(source, queries, dir.resolve("lake"));
    assertThat(lake.dropped()).isEmpty();
    assertThat(lake.pairs()).hasSize(queries.size());
  }

  @Test
  void aTableOfMeasuresOnlyIsStillProjected() throws Exception {
    // As TPC-DS's inventory: keys into other tables and a quantity, nothing to label a row with.
    Path db = dir.resolve("stock.duckdb");
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE item (i_item_sk INTEGER PRIMARY KEY, i_brand VARCHAR)");
      st.execute("INSERT INTO item SELECT g, 'brand ' || (g % 7) FROM range(1, 60) t(g)");
      st.execute("CREATE TABLE stock (s_item_sk INTEGER REFERENCES item (i_item_sk), s_quantity INTEGER)");
      st.execute("INSERT INTO stock SELECT g % 59 + 1, g % 13 FROM range(0, 300) t(g)");
    }
    List<SourceQuery> generated = QueryGenerator.builder().seed(3).count(30).build().generate(db, "s");
    assertThat(generated).isNotEmpty();
    assertThat(generated).anySatisfy(q -> assertThat(q.sql()).contains("stock"));
  }
}
