package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceEvidence;
import dev.lakerewrite.core.equivalence.InstanceCheck;
import dev.lakerewrite.core.equivalence.ResultComparison;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The equivalence checker catches the classic wrong rewrites and accepts true ones. */
class EquivalenceTest {
  static Harness h;

  @BeforeAll
  static void setUp() throws SQLException {
    h = Harness.of(
        "CREATE TABLE customers (c_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, region VARCHAR)",
        "CREATE TABLE orders (o_id INTEGER PRIMARY KEY, cust_id INTEGER, amount DECIMAL(10,2) NOT NULL,"
            + " status VARCHAR, weight DOUBLE)",
        "INSERT INTO customers SELECT i, 'c' || i, CASE WHEN i % 3 = 0 THEN 'north' ELSE 'south' END"
            + " FROM range(1, 51) t(i)",
        // Order 7 has no customer (NULL key); every other key has a partner; statuses are never NULL here.
        "INSERT INTO orders SELECT i, CASE WHEN i = 7 THEN NULL ELSE 1 + i % 50 END, (i * 3 % 97)::DECIMAL(10,2),"
            + " CASE WHEN i % 4 = 0 THEN 'open' ELSE 'done' END, i * 0.1 FROM range(1, 301) t(i)",
        "CREATE TABLE a (x INTEGER NOT NULL)",
        "CREATE TABLE b (y INTEGER)",
        "INSERT INTO a VALUES (1), (2), (3)",
        "INSERT INTO b VALUES (1), (NULL)",
        "CREATE TABLE b2 (y INTEGER)",
        "INSERT INTO b2 VALUES (1), (5)");
  }

  @AfterAll
  static void tearDown() throws SQLException {
    h.close();
  }

  @Test
  void droppedJoinWithoutIsNotNullIsCaughtOnTheTarget() throws SQLException {
    EquivalenceEvidence e = h.check("SELECT o.o_id FROM orders o JOIN customers c ON o.cust_id = c.c_id",
        "SELECT o_id FROM orders");
    assertThat(e.equivalent()).isFalse();
    InstanceCheck d = e.firstDifference().orElseThrow();
    assertThat(d.instance()).isEqualTo("target");
    assertThat(d.detail()).contains("different row counts: 299 vs 300");
    assertThat(d.onlyInCandidate()).containsExactly(java.util.List.of(7));
  }

  @Test
  void joinEliminationWithoutAForeignKeyIsCaughtOnTheGeneratedInstance() throws SQLException {
    // On the target every non-NULL cust_id has a customer, so dropping the join with IS NOT NULL agrees there;
    // the schema declares no foreign key, and the generated instance has dangling keys.
    EquivalenceEvidence e = h.check("SELECT o.o_id FROM orders o JOIN customers c ON o.cust_id = c.c_id",
        "SELECT o_id FROM orders WHERE cust_id IS NOT NULL");
    assertThat(e.equivalent()).isFalse();
    assertThat(e.checks().get(0).instance()).isEqualTo("target");
    assertThat(e.checks().get(0).equivalent()).isTrue();
    assertThat(e.firstDifference().orElseThrow().instance()).isIn("sample", "generated");
  }

  @Test
  void addedFilterIsCaught() throws SQLException {
    EquivalenceEvidence e = h.check("SELECT o_id, amount FROM orders WHERE amount > 10",
        "SELECT o_id, amount FROM orders WHERE amount > 10 AND status = 'open'");
    assertThat(e.equivalent()).isFalse();
    assertThat(e.firstDifference().orElseThrow().onlyInOriginal()).isNotEmpty();
  }

  @Test
  void addedFilterThatHoldsOnTheTargetIsCaughtOnAFurtherInstance() throws SQLException {
    // No status is NULL on the target, but the column allows NULLs: the generated instance has some.
    EquivalenceEvidence e = h.check("SELECT o_id FROM orders WHERE amount > 10",
        "SELECT o_id FROM orders WHERE amount > 10 AND status IS NOT NULL");
    assertThat(e.checks().get(0).equivalent()).isTrue();
    assertThat(e.equivalent()).isFalse();
    assertThat(e.firstDifference().orElseThrow().instance()).isEqualTo("generated");
  }

  @Test
  void changedGroupByIsCaught() throws SQLException {
    EquivalenceEvidence e = h.check("SELECT status, sum(amount) FROM orders GROUP BY status",
        "SELECT status, sum(amount) FROM orders GROUP BY status, cust_id % 2");
    assertThat(e.equivalent()).isFalse();
    assertThat(e.firstDifference().orElseThrow().detail()).contains("different row counts");
  }

  @Test
  void notInVersusNotExistsWithNullsIsCaught() throws SQLException {
    EquivalenceEvidence e = h.check("SELECT x FROM a WHERE x NOT IN (SELECT y FROM b)",
        "SELECT x FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.y = a.x)");
    assertThat(e.equivalent()).isFalse();
    assertThat(e.firstDifference().orElseThrow().instance()).isEqualTo("target");
    assertThat(e.firstDifference().orElseThrow().onlyInCandidate()).containsExactlyInAnyOrder(
        java.util.List.of(2), java.util.List.of(3));
  }

  @Test
  void notInVersusNotExistsIsCaughtEvenWhenTheTargetHasNoNulls() throws SQLException {
    EquivalenceEvidence e = h.check("SELECT x FROM a WHERE x NOT IN (SELECT y FROM b2)",
        "SELECT x FROM a WHERE NOT EXISTS (SELECT 1 FROM b2 WHERE b2.y = a.x)");
    assertThat(e.checks().get(0).equivalent()).isTrue();
    assertThat(e.equivalent()).isFalse();
    assertThat(e.firstDifference().orElseThrow().instance()).isEqualTo("generated");
  }

  @Test
  void aLimitCannotHideADifference() throws SQLException {
    EquivalenceEvidence e = h.check("SELECT o_id FROM orders ORDER BY o_id LIMIT 3",
        "SELECT o_id FROM orders WHERE o_id < 100 ORDER BY o_id LIMIT 3");
    assertThat(e.limitRemoved()).isTrue();
    assertThat(e.equivalent()).isFalse();
    assertThat(e.firstDifference().orElseThrow().detail()).contains("300 vs 99");

    EquivalenceEvidence changedLimit = h.check("SELECT o_id FROM orders ORDER BY o_id LIMIT 3",
        "SELECT o_id FROM orders ORDER BY o_id LIMIT 2");
    assertThat(changedLimit.equivalent()).isFalse();
    assertThat(changedLimit.firstDifference().orElseThrow().detail()).contains("LIMIT differs");
  }

  @Test
  void orderByChangeIsCaughtButTiesMayComeInAnyOrder() throws SQLException {
    EquivalenceEvidence reversed = h.check("SELECT o_id, amount FROM orders ORDER BY amount DESC",
        "SELECT o_id, amount FROM orders ORDER BY amount ASC");
    assertThat(reversed.ordered()).isTrue();
    assertThat(reversed.equivalent()).isFalse();
    assertThat(reversed.firstDifference().orElseThrow().detail()).contains("different order");

    EquivalenceEvidence ties = h.check("SELECT status, o_id FROM orders ORDER BY status",
        "SELECT status, o_id FROM orders ORDER BY status, o_id DESC");
    assertThat(ties.equivalent()).as(ties.summary()).isTrue();
  }

  @Test
  void acceptsTrueRewritesWithFloatNoiseRenamedColumnsAndTypeChanges() throws SQLException {
    EquivalenceEvidence e = h.check(
        "SELECT c.region, sum(o.weight) AS w, count(*) AS n FROM orders o JOIN customers c ON o.cust_id = c.c_id"
            + " GROUP BY c.region",
        "SELECT region AS r, sum(w) AS total, CAST(sum(n) AS BIGINT) FROM (SELECT c.region, c.c_id, sum(o.weight) AS w,"
            + " count(*) AS n FROM customers c JOIN orders o ON o.cust_id = c.c_id GROUP BY c.region, c.c_id) GROUP BY region");
    assertThat(e.equivalent()).as(e.summary()).isTrue();
    assertThat(e.checks()).extracting(InstanceCheck::instance).containsExactly("target", "sample", "generated");

    EquivalenceEvidence exists = h.check("SELECT x FROM a WHERE x IN (SELECT y FROM b)",
        "SELECT DISTINCT a.x FROM a JOIN b ON a.x = b.y");
    assertThat(exists.equivalent()).isFalse(); // a.x is not unique in general: duplicates on generated rows
    EquivalenceEvidence semi = h.check("SELECT x FROM a WHERE x IN (SELECT y FROM b)",
        "SELECT x FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.y = a.x)");
    assertThat(semi.equivalent()).as(semi.summary()).isTrue();
  }

  @Test
  void comparisonIsByPositionWithNullsEqualAndFloatTolerance() {
    dev.lakerewrite.core.ResultTable x = dev.lakerewrite.core.ResultTable.of(
        java.util.List.of(new dev.lakerewrite.core.ResultTable.Column("a", "DOUBLE"),
            new dev.lakerewrite.core.ResultTable.Column("b", "VARCHAR")),
        java.util.List.of(java.util.Arrays.asList(0.1 + 0.2, null), java.util.Arrays.asList(1.0, "z")), false);
    dev.lakerewrite.core.ResultTable y = dev.lakerewrite.core.ResultTable.of(
        java.util.List.of(new dev.lakerewrite.core.ResultTable.Column("p", "DECIMAL(10,1)"),
            new dev.lakerewrite.core.ResultTable.Column("q", "VARCHAR")),
        java.util.List.of(java.util.Arrays.asList(new java.math.BigDecimal("1.0"), "z"),
            java.util.Arrays.asList(new java.math.BigDecimal("0.3"), null)), false);
    assertThat(ResultComparison.compare(x, y, ResultComparison.Order.NONE, 5).equal()).isTrue();
    assertThat(ResultComparison.compare(x, y, ResultComparison.Order.strict(), 5).equal()).isFalse();
    dev.lakerewrite.core.ResultTable z = dev.lakerewrite.core.ResultTable.of(y.columns(),
        java.util.List.of(java.util.Arrays.asList(new java.math.BigDecimal("1.0001"), "z"),
            java.util.Arrays.asList(new java.math.BigDecimal("0.3"), null)), false);
    assertThat(ResultComparison.compare(x, z, ResultComparison.Order.NONE, 5).equal()).isFalse();
  }
}
