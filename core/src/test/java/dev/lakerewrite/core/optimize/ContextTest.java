package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.LakeRewriteException;
import dev.lakerewrite.retrieval.Embedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The proposer's context: execution hints, recipe retrieval, tree edit distance and the demonstration pool. */
class ContextTest {
  static Harness h;

  @BeforeAll
  static void setUp() throws SQLException {
    h = Harness.of("CREATE TABLE f (id INTEGER, k INTEGER, v DOUBLE)",
        "INSERT INTO f SELECT i, i % 100, i * 0.5 FROM range(200000) t(i)",
        "CREATE TABLE d (k INTEGER, name VARCHAR)",
        "INSERT INTO d SELECT i, 'n' || i FROM range(100) t(i)");
  }

  @AfterAll
  static void tearDown() throws SQLException {
    h.close();
  }

  @Test
  void executionHintIsAnIndentedOperatorTreeWithCardinalitiesTimingsAndBottlenecks() throws SQLException {
    String q = "SELECT d.name, sum(f.v) FROM f JOIN d ON f.k = d.k WHERE f.id % 1000 = 3 GROUP BY d.name";
    ExecutionPlan analyzed = h.verifier(q, false).analyzedPlan(q).orElseThrow();
    String hint = analyzed.linearize();
    assertThat(hint).startsWith("(EXPLAIN ANALYZE").contains("HASH_GROUP_BY").contains("HASH_JOIN")
        .contains("TABLE_SCAN [table=memory.main.f").contains("rows=").contains("est=").contains("time=")
        .contains("BOTTLENECK").contains("filter keeps");
    // Children are indented below their parents.
    List<String> lines = hint.lines().toList();
    int join = indexOfContaining(lines, "HASH_JOIN");
    int scan = indexOfContaining(lines, "TABLE_SCAN");
    assertThat(indent(lines.get(scan))).isGreaterThan(indent(lines.get(join)));
    assertThat(analyzed.scansPerTable()).containsEntry("f", 1).containsEntry("d", 1);
    assertThat(analyzed.bottlenecks()).isNotEmpty();

    ExecutionPlan estimated = h.verifier(q, false).executable(q).plan().orElseThrow();
    assertThat(estimated.analyzed()).isFalse();
    assertThat(estimated.linearize()).startsWith("(EXPLAIN;").contains("HASH_JOIN").doesNotContain("time=");
  }

  private static int indexOfContaining(List<String> lines, String s) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(s)) {
        return i;
      }
    }
    throw new AssertionError(s + " not in " + lines);
  }

  private static int indent(String line) {
    return line.length() - line.stripLeading().length();
  }

  @Test
  void knowledgeBaseRetrievesRecipesWithBm25() {
    KnowledgeBase kb = KnowledgeBase.shared();
    assertThat(kb.recipes()).extracting(KnowledgeBase.Recipe::id).containsAll(RuleProposer.RECIPES)
        .contains("join-elimination", "leave-alone-duckdb-strengths");
    assertThat(kb.search("correlated subquery with avg compared per outer row, delim_join in the plan", 3).get(0)
        .recipe().id()).isEqualTo("decorrelate-scalar-aggregate");
    assertThat(kb.search("intersect of two selects", 1).get(0).recipe().id()).isEqualTo("set-operation-to-semi-join");
    assertThat(kb.search("left outer join where the right side column equals a constant", 1).get(0).recipe().id())
        .isEqualTo("left-join-to-inner");
    assertThat(kb.search("cte referenced twice materialized", 2)).extracting(x -> x.recipe().id())
        .contains("cte-materialized");
    assertThat(kb.search("", 3)).isEmpty();
    KnowledgeBase.Hit hit = kb.search("group by after a one-to-many join count", 1).get(0);
    assertThat(hit.recipe().id()).isEqualTo("eager-aggregation");
    assertThat(hit.recipe().format()).contains("Problem:").contains("Strategy:").contains("=>");
  }

  @Test
  void treeEditDistanceIsZeroForTheSameStructureAndGrowsWithDifferences() {
    TreeEditDistance.Node a = TreeEditDistance.of(h.trees.statement("SELECT x FROM t WHERE y = 1"));
    TreeEditDistance.Node sameShape = TreeEditDistance.of(h.trees.statement("SELECT z FROM u WHERE w = 7"));
    TreeEditDistance.Node more = TreeEditDistance.of(h.trees.statement(
        "SELECT x, count(*) FROM t JOIN u ON t.a = u.a WHERE y = 1 GROUP BY x"));
    assertThat(TreeEditDistance.distance(a, sameShape)).isZero();
    assertThat(TreeEditDistance.similarity(a, sameShape)).isEqualTo(1.0);
    assertThat(TreeEditDistance.distance(a, more)).isPositive();
    assertThat(TreeEditDistance.distance(a, more)).isEqualTo(TreeEditDistance.distance(more, a));
    // Known distances on small labelled trees.
    TreeEditDistance.Node f = node("f", node("d", node("a"), node("c", node("b"))), node("e"));
    TreeEditDistance.Node g = node("f", node("c", node("d", node("a"), node("b"))), node("e"));
    assertThat(TreeEditDistance.distance(f, g)).isEqualTo(2);
    assertThat(TreeEditDistance.distance(node("a"), node("b", node("a")))).isEqualTo(1);
  }

  private static TreeEditDistance.Node node(String label, TreeEditDistance.Node... children) {
    return new TreeEditDistance.Node(label, List.of(children));
  }

  /** A deterministic embedder: counts of a few words (enough to test the hybrid score). */
  static final class WordEmbedder implements Embedder {
    static final String[] WORDS = {"revenue", "customer", "orders", "lineitem", "avg", "sum"};
    final List<String> seen = new ArrayList<>();

    @Override
    public String modelId() {
      return "words";
    }

    @Override
    public int dimension() {
      return WORDS.length;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      List<float[]> out = new ArrayList<>();
      for (String t : texts) {
        seen.add(t);
        float[] v = new float[WORDS.length];
        for (int i = 0; i < WORDS.length; i++) {
          v[i] = t.toLowerCase().split(WORDS[i], -1).length - 1;
        }
        v[0] += 0.01f;
        out.add(v);
      }
      return out;
    }
  }

  @Test
  void demonstrationPoolRanksByHybridSimilarityAndPersists(@TempDir Path dir) {
    Path file = dir.resolve("pool.json");
    DemonstrationPool pool = DemonstrationPool.open(file);
    pool.add(new DemonstrationPool.Demonstration("SELECT k, sum(v) FROM f GROUP BY k", "SELECT 1", 2.0, "a", "x"));
    pool.add(new DemonstrationPool.Demonstration(
        "SELECT d.name FROM f JOIN d ON f.k = d.k WHERE f.v > (SELECT avg(v) FROM f f2 WHERE f2.k = f.k)",
        "SELECT 2", 3.0, "b", "y"));
    assertThat(Files.exists(file)).isTrue();

    String query = "SELECT d.name FROM f JOIN d ON f.k = d.k WHERE f.id > (SELECT avg(id) FROM f f3 WHERE f3.k = d.k)";
    List<DemonstrationPool.Scored> structural = pool.retrieve(query, h.trees, null, 2, 0.5);
    assertThat(structural.get(0).demonstration().label()).isEqualTo("b");
    assertThat(structural.get(0).structural()).isGreaterThan(structural.get(1).structural());
    assertThat(structural.get(0).similarity()).isEqualTo(structural.get(0).structural());

    WordEmbedder embedder = new WordEmbedder();
    List<DemonstrationPool.Scored> hybrid = pool.retrieve("SELECT k, sum(v) FROM f GROUP BY k", h.trees, embedder, 1,
        0.5);
    assertThat(hybrid).singleElement().satisfies(s -> {
      assertThat(s.demonstration().label()).isEqualTo("a");
      assertThat(s.semantic()).isGreaterThan(0.99);
      assertThat(s.similarity()).isEqualTo(0.5 * s.structural() + 0.5 * s.semantic(),
          org.assertj.core.data.Offset.offset(1e-9));
    });

    DemonstrationPool reopened = DemonstrationPool.open(file);
    assertThat(reopened.all()).isEqualTo(pool.all());
    assertThat(reopened.file()).contains(file);
  }

  @Test
  void aCorruptPoolFileIsReportedWithItsPath(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("broken.json");
    Files.writeString(file, "{not a pool");
    assertThatThrownBy(() -> DemonstrationPool.open(file)).isInstanceOf(LakeRewriteException.class)
        .hasMessageContaining("broken.json");
  }
}
