package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceEvidence;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The rule-based proposer produces the expected rewrite on small examples, and the rewrites are equivalent. */
class RuleProposerTest {
  static Harness h;

  @BeforeAll
  static void setUp() throws SQLException {
    h = Harness.of(
        "CREATE TABLE part (p_id INTEGER PRIMARY KEY, brand VARCHAR NOT NULL, size INTEGER NOT NULL)",
        "CREATE TABLE item (i_id INTEGER PRIMARY KEY, p_id INTEGER NOT NULL, qty INTEGER NOT NULL,"
            + " price DECIMAL(10,2) NOT NULL, mode VARCHAR)",
        "CREATE TABLE supplier (s_id INTEGER PRIMARY KEY, note VARCHAR NOT NULL)",
        "CREATE TABLE nullable_supplier (s_id INTEGER, note VARCHAR)",
        "INSERT INTO part SELECT i, 'B' || (i % 5), i % 20 FROM range(1, 201) t(i)",
        "INSERT INTO item SELECT i, 1 + i % 200, 1 + i % 50, (i % 1000) / 10.0, CASE WHEN i % 3 = 0 THEN 'AIR' ELSE"
            + " 'SHIP' END FROM range(1, 5001) t(i)",
        "INSERT INTO supplier SELECT i, CASE WHEN i % 7 = 0 THEN 'complaints' ELSE 'fine' END FROM range(1, 51) t(i)",
        "INSERT INTO nullable_supplier SELECT * FROM supplier");
  }

  @AfterAll
  static void tearDown() throws SQLException {
    h.close();
  }

  private static String flat(String sql) {
    return sql.replaceAll("\\s+", " ");
  }

  /** The recipe's one proposal for the query, checked equivalent to it; its SQL on one line. */
  private String onlyProposal(String q, String recipe) throws SQLException {
    List<RuleProposer.Proposal> ps = h.propose(q, recipe);
    assertThat(ps).hasSize(1);
    assertEquivalent(q, ps.get(0));
    return flat(ps.get(0).sql());
  }

  private void assertEquivalent(String original, RuleProposer.Proposal p) throws SQLException {
    EquivalenceEvidence e = h.check(original, p.sql());
    assertThat(e.equivalent()).as(p.label() + "\n" + p.sql() + "\n" + e.summary()).isTrue();
  }

  @Test
  void rankingWindowsFilteredToTheirFirstRowsRankOnlyTheRowsThatCanReachThem() throws SQLException {
    // TPC-DS q67's shape: a rank per partition over a ROLLUP (NULL partitions included), the first K kept.
    String q = "SELECT * FROM (SELECT brand, mode, q, rank() OVER (PARTITION BY brand ORDER BY q DESC) AS rk"
        + " FROM (SELECT p.brand, i.mode, sum(i.qty) AS q FROM item i, part p WHERE i.p_id = p.p_id"
        + " GROUP BY ROLLUP (p.brand, i.mode)) AS g) AS r WHERE rk <= 2 ORDER BY brand, rk, mode";
    assertThat(onlyProposal(q, "prefilter-top-k-window")).contains("AS MATERIALIZED").contains("list_min(max(lr_in1.q, 2))")
        .contains("IS NOT DISTINCT FROM");
    // NULLs sort last: needed where fewer than K values are not NULL (mode is NULL for a third of the items),
    // dropped where enough are; ascending order, no partition, row_number, K from rn < K + 1.
    for (String k : List.of("4000", "10")) {
      String nulls = "SELECT i_id, mode FROM (SELECT i_id, mode, row_number() OVER (ORDER BY mode, i_id) AS rn"
          + " FROM item) AS r WHERE rn < " + k + " + 0 ORDER BY i_id";
      assertThat(h.propose(nulls, "prefilter-top-k-window")).isEmpty(); // K is not a literal
      String literal = nulls.replace(" + 0", "");
      assertThat(onlyProposal(literal, "prefilter-top-k-window")).contains("list_max(min(lr_in1.\"mode\", " + (Integer.parseInt(k) - 1)
          + "))");
    }
    // dense_rank counts distinct values, and a filter keeping the later rows leaves nothing to prefilter.
    assertThat(h.propose(q.replace("rank()", "dense_rank()"), "prefilter-top-k-window")).isEmpty();
    assertThat(h.propose(q.replace("rk <= 2", "rk > 2"), "prefilter-top-k-window")).isEmpty();
  }

  @Test
  void decorrelatesAScalarAggregateSubqueryButNeverACount() throws SQLException {
    String q = "SELECT sum(i.price) FROM item i, part p WHERE p.p_id = i.p_id AND p.brand = 'B3'"
        + " AND i.qty < (SELECT 0.5 * avg(i2.qty) FROM item i2 WHERE i2.p_id = p.p_id)";
    List<RuleProposer.Proposal> ps = h.propose(q, "decorrelate-scalar-aggregate");
    assertThat(ps).hasSize(1);
    String sql = flat(ps.get(0).sql());
    assertThat(sql).contains("GROUP BY i2.p_id").contains("lr_sq1.lr_k1 = p.p_id").contains("i.qty < lr_sq1.lr_value")
        .doesNotContain("WHERE (i2.p_id = p.p_id)");
    assertEquivalent(q, ps.get(0));

    String counting = "SELECT p.p_id FROM part p WHERE p.size > (SELECT count(*) FROM item i WHERE i.p_id = p.p_id)";
    assertThat(h.propose(counting, "decorrelate-scalar-aggregate")).isEmpty();
  }

  @Test
  void aSubqueryInsideArithmeticIsDecorrelatedButNotInsideCoalesce() throws SQLException {
    // TPC-DS q6's shape: the subquery is scaled outside it. Several item rows share p_id and mode is NULL for a
    // third of them, so a wrong rewrite shows on the generated instances.
    String q = "SELECT i.i_id FROM item i WHERE i.price > 1.2 * (SELECT avg(i2.price) FROM item i2"
        + " WHERE i2.mode = i.mode)";
    assertThat(onlyProposal(q, "decorrelate-scalar-aggregate")).contains("(i.price > (1.2 * lr_sq1.lr_value))");
    assertThat(onlyProposal(q, "correlated-aggregate-to-window")).contains("(1.2 * i.lr_w1)");
    // The subquery on the left, under a cast.
    String left = "SELECT i.i_id FROM item i WHERE CAST((SELECT max(i2.qty) FROM item i2 WHERE i2.p_id = i.p_id)"
        + " AS DOUBLE) / 2 <= i.qty";
    List<RuleProposer.Proposal> fromLeft = h.propose(left, "decorrelate-scalar-aggregate");
    assertThat(fromLeft).hasSize(1);
    assertEquivalent(left, fromLeft.get(0));
    // coalesce turns the NULL of an empty group into a value a missing join partner cannot give: left alone.
    assertThat(h.propose("SELECT i.i_id FROM item i WHERE i.price > coalesce((SELECT avg(i2.price) FROM item i2"
        + " WHERE i2.mode = i.mode), 0)", "decorrelate-scalar-aggregate")).isEmpty();
  }

  @Test
  void decorrelationCanBeRestrictedToTheKeysTheOuterFiltersKeep() throws SQLException {
    String q = "SELECT sum(i.price) FROM item i, part p WHERE p.p_id = i.p_id AND p.brand = 'B3' AND p.size < 10"
        + " AND i.qty < (SELECT 0.5 * avg(i2.qty) FROM item i2 WHERE i2.p_id = p.p_id)";
    assertThat(onlyProposal(q, "decorrelate-with-key-filter")).contains("(i2.p_id = ANY(SELECT p.p_id FROM part AS p WHERE ((p.brand = 'B3')"
        + " AND (p.size < 10)))");
    // No outer filter of its own: nothing to restrict to.
    assertThat(h.propose("SELECT sum(i.price) FROM item i, part p WHERE p.p_id = i.p_id"
        + " AND i.qty < (SELECT 0.5 * avg(i2.qty) FROM item i2 WHERE i2.p_id = p.p_id)", "decorrelate-with-key-filter"))
        .isEmpty();
  }

  @Test
  void aCorrelatedAggregateOverTheSameRelationBecomesAWindowAggregate() throws SQLException {
    String q = "SELECT i.i_id FROM item i, part p WHERE i.p_id = p.p_id AND p.brand = 'B1'"
        + " AND i.qty > (SELECT avg(i2.qty) * 1.2 FROM item i2 WHERE i2.p_id = i.p_id)";
    assertThat(onlyProposal(q, "correlated-aggregate-to-window")).contains("(avg(i2.qty) OVER (PARTITION BY i2.p_id) * 1.2) AS lr_w1 FROM item AS i2)"
        + " AS i").contains("(i.qty > i.lr_w1)").contains("(i.p_id IS NOT NULL)").doesNotContain("WHERE (i2.p_id = i.p_id)");

    // Over a CTE, keyed by a column that may be NULL (the generated instance has NULL modes), counting included.
    String cte = "WITH t AS (SELECT mode, p_id, sum(qty) AS q FROM item GROUP BY mode, p_id)"
        + " SELECT t1.p_id, t1.mode FROM t t1 WHERE t1.q > (SELECT sum(q) / count(*) FROM t t2 WHERE t2.mode = t1.mode)";
    List<RuleProposer.Proposal> overCte = h.propose(cte, "correlated-aggregate-to-window");
    assertThat(overCte).hasSize(1);
    assertEquivalent(cte, overCte.get(0));

    // A filter of its own, another relation, or another column than the outer one's: not the same rows.
    assertThat(h.propose("SELECT i.i_id FROM item i WHERE i.qty > (SELECT avg(i2.qty) FROM item i2"
        + " WHERE i2.p_id = i.p_id AND i2.mode = 'AIR')", "correlated-aggregate-to-window")).isEmpty();
    assertThat(h.propose("SELECT p.p_id FROM part p WHERE p.size > (SELECT avg(i.qty) FROM item i"
        + " WHERE i.p_id = p.p_id)", "correlated-aggregate-to-window")).isEmpty();
    assertThat(h.propose("SELECT i.i_id FROM item i WHERE i.qty > (SELECT avg(i2.qty) FROM item i2"
        + " WHERE i2.qty = i.p_id)", "correlated-aggregate-to-window")).isEmpty();
  }

  @Test
  void aSelfJoinOnSameKeyDifferentValueReadAsKeysBecomesAGrouping() throws SQLException {
    String multi = "WITH multi AS (SELECT a.p_id, a.mode AS m1, b.mode AS m2 FROM item a, item b"
        + " WHERE a.p_id = b.p_id AND a.mode <> b.mode) ";
    String q = multi + "SELECT count(*), sum(size) FROM part WHERE p_id IN (SELECT p_id FROM multi)"
        + " AND p_id IN (SELECT s.s_id FROM supplier s, multi WHERE s.s_id = multi.p_id)";
    assertThat(onlyProposal(q, "self-join-to-grouping")).contains("SELECT p_id AS p_id FROM item WHERE (p_id IS NOT NULL) GROUP BY p_id"
        + " HAVING (min(\"mode\") < max(\"mode\"))");

    // Read as rows (counted), or a non-key column read: the pairs matter, not only the keys.
    assertThat(h.propose(multi + "SELECT count(*) FROM multi", "self-join-to-grouping")).isEmpty();
    assertThat(h.propose(multi + "SELECT count(*) FROM part WHERE p_id IN (SELECT p_id FROM multi WHERE m1 = 'AIR')",
        "self-join-to-grouping")).isEmpty();
    assertThat(h.propose("WITH multi AS (SELECT a.p_id FROM item a, item b WHERE a.p_id = b.p_id AND a.qty < b.qty)"
        + " SELECT count(*) FROM part WHERE p_id IN (SELECT p_id FROM multi)", "self-join-to-grouping")).isEmpty();
  }

  @Test
  void theFiltersOfEveryReadOfASharedCteArePushedIntoItsBranchesAsOneDisjunction() throws SQLException {
    String totals = "WITH t AS (SELECT i.p_id AS pid, p.size AS sz, sum(i.qty) AS total, 'i' AS kind FROM item i, part p"
        + " WHERE i.p_id = p.p_id GROUP BY i.p_id, p.size UNION ALL SELECT p_id, size, count(*), 'p' FROM part"
        + " GROUP BY p_id, size) ";
    String q = totals + "SELECT a.pid, a.total, b.total FROM t a, t b WHERE a.pid = b.pid AND a.kind = 'i' AND a.sz = 3"
        + " AND b.kind = 'p' AND b.sz < 5 AND a.total > 10";
    List<RuleProposer.Proposal> ps = h.propose(q, "push-filters-into-shared-cte");
    assertThat(ps).hasSize(1);
    String sql = flat(ps.get(0).sql());
    // Each branch gets the disjunction in its own expressions, the reads of the other branch's constant dropped;
    // the aggregate's filter (total > 10) stays outside.
    assertThat(sql).contains("WHERE ((i.p_id = p.p_id) AND (p.size = 3)) GROUP BY i.p_id, p.size")
        .contains("FROM part WHERE (size < 5) GROUP BY p_id, size").contains("(a.total > 10)")
        .doesNotContain("'i' = 'p'");
    assertEquivalent(q, ps.get(0));

    // A read without a filter of its own needs every row; a filter on an aggregate cannot move below it.
    assertThat(h.propose(totals + "SELECT a.pid FROM t a, t b WHERE a.pid = b.pid AND a.sz = 3",
        "push-filters-into-shared-cte")).isEmpty();
    assertThat(h.propose(totals + "SELECT a.pid FROM t a, t b WHERE a.pid = b.pid AND a.total > 3 AND b.total < 9",
        "push-filters-into-shared-cte")).isEmpty();
  }

  @Test
  void subqueriesWithTheSameFromAndWhereShareOneScanPerFilter() throws SQLException {
    // TPC-DS q9's shape: per bucket a count decides between two averages, all three over the same rows.
    String bucket = "CASE WHEN (SELECT count(*) FROM item WHERE qty BETWEEN %1$s) > %2$s THEN (SELECT avg(price) FROM"
        + " item WHERE qty BETWEEN %1$s) ELSE (SELECT max(price) FROM item WHERE qty BETWEEN %1$s) END AS b%3$s";
    String q = "SELECT " + String.format(bucket, "1 AND 20", "100", "1") + ", " + String.format(bucket, "21 AND 50",
        "100000", "2") + " FROM supplier WHERE s_id = 1";
    List<RuleProposer.Proposal> ps = h.propose(q, "share-identical-aggregate-subqueries");
    assertThat(ps).isNotEmpty();
    RuleProposer.Proposal all = ps.get(ps.size() - 1);
    String sql = flat(all.sql());
    assertThat(sql).contains("lr_agg1 AS (SELECT").contains("lr_agg2 AS (SELECT").doesNotContain("FILTER")
        .doesNotContain("FROM item WHERE (qty BETWEEN 1 AND 20)) >");
    assertThat(sql.split("FROM item", -1)).hasSize(3); // two scans left of six
    for (RuleProposer.Proposal p : ps) {
      assertEquivalent(q, p);
    }
    // Subqueries that differ in WHERE are merge-repeated-aggregate-subqueries' (with FILTER), not this recipe's.
    assertThat(h.propose("SELECT (SELECT count(*) FROM item WHERE qty < 5) AS a, (SELECT count(*) FROM item"
        + " WHERE qty > 5) AS b", "share-identical-aggregate-subqueries")).isEmpty();
  }

  @Test
  void aCteEveryReadOfWhichJoinsAFilteredTableKeepsOnlyTheKeysThoseTablesHave() throws SQLException {
    // TPC-DS q59's shape: per-key totals read twice, each read joined on its key to a differently filtered table.
    String totals = "WITH w AS (SELECT i.p_id AS pid, sum(i.qty) AS total, count(*) AS n FROM item i GROUP BY i.p_id) ";
    String q = totals + "SELECT x.pid, x.total, y.total FROM w x, part p, w y, part r WHERE x.pid = p.p_id"
        + " AND p.brand = 'B1' AND y.pid = r.p_id AND r.size < 3 AND x.pid = y.pid + 1 AND x.n > 1 ORDER BY 1";
    List<RuleProposer.Proposal> ps = h.propose(q, "push-semi-joins-into-cte");
    assertThat(ps).hasSize(1);
    String sql = flat(ps.get(0).sql());
    assertThat(sql).contains("FROM item AS i WHERE ((i.p_id = ANY(SELECT p.p_id FROM part AS p WHERE (p.brand = 'B1'))) OR"
        + " (i.p_id = ANY(SELECT r.p_id FROM part AS r WHERE (r.size < 3)))) GROUP BY i.p_id")
        .contains("(x.n > 1)");
    assertEquivalent(q, ps.get(0));
    // (IN is printed as = ANY.) A read's own filter on a grouping column is ANDed with its join's keys; an
    // unaliased table keeps its name.
    String mixed = totals + "SELECT x.pid, part.brand FROM w x, part WHERE x.pid = part.p_id AND part.size = 4"
        + " AND x.pid < 150";
    List<RuleProposer.Proposal> one = h.propose(mixed, "push-semi-joins-into-cte");
    assertThat(one).hasSize(1);
    assertThat(flat(one.get(0).sql())).contains("WHERE ((i.p_id = ANY(SELECT part.p_id FROM part WHERE (part.size = 4)))"
        + " AND (i.p_id < 150)) GROUP BY");
    assertEquivalent(mixed, one.get(0));
    // Reads in separate blocks joined to the same table under the same name: one IN, their filters ORed.
    String same = totals + "SELECT a.pid, b.total FROM (SELECT x.pid, x.total FROM w x, part p WHERE x.pid = p.p_id"
        + " AND p.size = 1) AS a, (SELECT x.pid, x.total FROM w x, part p WHERE x.pid = p.p_id AND p.size = 2) AS b"
        + " WHERE a.pid = b.pid - 1";
    assertThat(onlyProposal(same, "push-semi-joins-into-cte")).contains("WHERE (i.p_id = ANY(SELECT p.p_id FROM part AS p WHERE ((p.size = 1)"
        + " OR (p.size = 2)))) GROUP BY");

    // Not when a read needs every row (no filtered partner), a read is outer-joined, the key is an aggregate, or
    // the partner is unfiltered; the first two say why.
    RuleProposer rules = new RuleProposer(h.trees, h.catalog, java.util.Set.of("push-semi-joins-into-cte"));
    assertThat(rules.propose(totals + "SELECT x.pid, y.total FROM w x, part p, w y WHERE x.pid = p.p_id"
        + " AND p.brand = 'B1' AND x.pid = y.pid", 10)).isEmpty();
    assertThat(rules.takeRefusals()).singleElement().asString().contains("the reads of w are left as they are")
        .contains("(y) is neither filtered nor joined to a filtered table");
    assertThat(rules.propose(totals + "SELECT p.p_id, x.total FROM part p LEFT JOIN w x ON x.pid = p.p_id"
        + " WHERE p.brand = 'B1'", 10)).isEmpty();
    assertThat(rules.takeRefusals()).singleElement().asString().contains("(x) sits in an outer join");
    assertThat(h.propose(totals + "SELECT x.pid FROM w x, part p WHERE x.total = p.p_id AND p.brand = 'B1'",
        "push-semi-joins-into-cte")).isEmpty();
    assertThat(h.propose(totals + "SELECT x.pid FROM w x, part p WHERE x.pid = p.p_id",
        "push-semi-joins-into-cte")).isEmpty();
  }

  @Test
  void selfJoinsOnTheNextAndPreviousNumberBecomeLagAndLead() throws SQLException {
    // TPC-DS q47's shape: the CTE is read only by its self-join, so it computes lag and lead over its numbering's
    // own window (one sort for rn and the neighbours).
    String numbered = "WITH v AS (SELECT p_id, qty, sum(price) AS total, avg(sum(price)) OVER (PARTITION BY p_id)"
        + " AS mean, rank() OVER (PARTITION BY p_id ORDER BY qty) AS rn FROM item GROUP BY p_id, qty) ";
    String q = numbered + "SELECT v.p_id, v.qty, v.total, vp.total AS prev, vn.total AS next, vn.p_id AS np"
        + " FROM v, v vp, v vn WHERE v.p_id = vp.p_id AND v.p_id = vn.p_id AND v.rn = vp.rn + 1"
        + " AND vn.rn - 1 = v.rn AND v.total > vp.total";
    assertThat(onlyProposal(q, "self-join-to-lag-lead")).contains("lag(sum(price)) OVER (PARTITION BY p_id ORDER BY qty")
        .contains("lead(sum(price)) OVER (PARTITION BY p_id ORDER BY qty")
        .contains("lead(1) OVER (PARTITION BY p_id ORDER BY qty").contains("(v.rn > 1)").contains("IS NOT NULL)")
        .contains("(v.p_id IS NOT NULL)").contains("v.p_id AS np").doesNotContain("vp.").doesNotContain("vn.")
        .doesNotContain("count_star()");

    // A neighbour's windowed column, or a CTE another block reads too: lag and lead over the CTE's rows by rn.
    String windowed = numbered + "SELECT v.p_id, v.qty, v.total, vp.mean AS prev FROM v, v vp"
        + " WHERE v.p_id = vp.p_id AND v.rn = vp.rn + 1";
    String readTwice = numbered + "SELECT v.p_id, v.qty, v.total, vn.total AS next FROM v, v vn"
        + " WHERE v.p_id = vn.p_id AND v.rn = vn.rn - 1 AND v.total > (SELECT avg(total) FROM v)";
    for (String other : List.of(windowed, readTwice)) {
      assertThat(onlyProposal(other, "self-join-to-lag-lead")).containsPattern("(lag\\(mean\\)|lead\\(total\\)) OVER \\(PARTITION BY"
          + " p_id ORDER BY rn\\)").doesNotContain("vp.").doesNotContain("vn.");
    }

    // Refused with the reason: ties in the numbering (grouped by more than its partition and order, or not
    // grouped), a join that does not equate the whole partition, a block that reads *.
    RuleProposer rules = new RuleProposer(h.trees, h.catalog, java.util.Set.of("self-join-to-lag-lead"));
    String ties = "WITH v AS (SELECT p_id, qty, mode, sum(price) AS total, rank() OVER (PARTITION BY p_id"
        + " ORDER BY qty) AS rn FROM item GROUP BY p_id, qty, mode) SELECT v.total, vp.total FROM v, v vp"
        + " WHERE v.p_id = vp.p_id AND v.rn = vp.rn + 1";
    assertThat(rules.propose(ties, 10)).isEmpty();
    assertThat(rules.takeRefusals()).singleElement().asString().contains("not by exactly the numbering's partition");
    assertThat(rules.propose("WITH v AS (SELECT p_id, qty, price, row_number() OVER (PARTITION BY p_id ORDER BY qty)"
        + " AS rn FROM item) SELECT v.price, vp.price FROM v, v vp WHERE v.p_id = vp.p_id AND v.rn = vp.rn + 1",
        10)).isEmpty();
    assertThat(rules.takeRefusals()).singleElement().asString().contains("the CTE is not grouped");
    assertThat(rules.propose(numbered + "SELECT v.total, vp.total FROM v, v vp WHERE v.qty = vp.qty"
        + " AND v.rn = vp.rn + 1", 10)).isEmpty();
    assertThat(rules.takeRefusals()).singleElement().asString().contains("vp is joined on no partition column");
    String twoColumns = "WITH v AS (SELECT p_id, mode, qty, sum(price) AS total, rank() OVER (PARTITION BY p_id, mode"
        + " ORDER BY qty) AS rn FROM item GROUP BY p_id, mode, qty) ";
    assertThat(rules.propose(twoColumns + "SELECT v.total, vp.total FROM v, v vp WHERE v.p_id = vp.p_id"
        + " AND v.rn = vp.rn + 1", 10)).isEmpty();
    assertThat(rules.takeRefusals()).singleElement().asString()
        .contains("vp is joined on p_id, not on the whole partition (p_id, mode)");
    assertThat(rules.propose(numbered + "SELECT * FROM v, v vp WHERE v.p_id = vp.p_id AND v.rn = vp.rn + 1", 10))
        .isEmpty();
    assertThat(rules.takeRefusals()).singleElement().asString().contains("the block reads *");
    // The whole partition on two columns, NULL modes included: exact.
    String both = twoColumns + "SELECT v.p_id, v.mode, v.qty, v.total - vp.total AS growth FROM v, v vp"
        + " WHERE v.p_id = vp.p_id AND vp.mode = v.mode AND v.rn = vp.rn + 1";
    assertThat(onlyProposal(both, "self-join-to-lag-lead")).contains("(v.\"mode\" IS NOT NULL)");
  }

  @Test
  void mergesSubqueriesThatRepeatOneJoinWithDifferentFiltersIntoOnePass() throws SQLException {
    // Scalar subqueries (TPC-DS q9's buckets), including a CASE around them and an empty bucket.
    String scalars = "SELECT CASE WHEN (SELECT count(*) FROM item WHERE qty BETWEEN 1 AND 10) > 100"
        + " THEN (SELECT avg(price) FROM item WHERE qty BETWEEN 1 AND 10)"
        + " ELSE (SELECT avg(qty) FROM item WHERE qty BETWEEN 1 AND 10) END AS b1,"
        + " (SELECT count(*) FROM item WHERE qty BETWEEN 900 AND 999) AS empty_count,"
        + " (SELECT max(price) FROM item WHERE qty BETWEEN 900 AND 999) AS empty_max FROM part WHERE p_id = 1";
    List<RuleProposer.Proposal> ps = h.propose(scalars, "merge-repeated-aggregate-subqueries");
    assertThat(ps).hasSize(1);
    assertThat(flat(ps.get(0).sql())).contains("FILTER (WHERE (qty BETWEEN 900 AND 999))")
        .containsOnlyOnce("FROM item").contains("WHERE (qty BETWEEN 1 AND 999)").doesNotContain(" OR ");
    assertEquivalent(scalars, ps.get(0));
    // Derived tables of a FROM list over the same join (TPC-DS q88), with shared and own conjuncts.
    String derived = "SELECT * FROM (SELECT count(*) AS air FROM item, part WHERE item.p_id = part.p_id"
        + " AND brand = 'B1' AND mode = 'AIR') AS a, (SELECT count(*) AS ship, sum(price) AS value FROM item, part"
        + " WHERE item.p_id = part.p_id AND brand = 'B1' AND mode = 'SHIP') AS s";
    ps = h.propose(derived, "merge-repeated-aggregate-subqueries");
    assertThat(ps).hasSize(1);
    assertThat(flat(ps.get(0).sql())).contains("FILTER (WHERE (\"mode\" = 'AIR'))").contains("AS ship")
        .contains("(brand = 'B1')").contains("((\"mode\" = 'AIR') OR (\"mode\" = 'SHIP'))");
    assertEquivalent(derived, ps.get(0));
    // Correlated or grouped subqueries, and different FROMs, are left alone.
    assertThat(h.propose("SELECT (SELECT count(*) FROM item WHERE item.p_id = part.p_id),"
        + " (SELECT sum(qty) FROM item WHERE item.p_id = part.p_id) FROM part", "merge-repeated-aggregate-subqueries"))
        .isEmpty();
    assertThat(h.propose("SELECT (SELECT count(*) FROM item), (SELECT count(*) FROM part)",
        "merge-repeated-aggregate-subqueries")).isEmpty();
    // DISTINCT aggregates (TPC-DS q28's count(DISTINCT ss_list_price)) run far slower under FILTER on DuckDB.
    assertThat(h.propose("SELECT (SELECT count(DISTINCT price) FROM item WHERE qty BETWEEN 1 AND 10) AS a,"
        + " (SELECT count(DISTINCT price) FROM item WHERE qty BETWEEN 11 AND 20) AS b",
        "merge-repeated-aggregate-subqueries")).isEmpty();
  }

  @Test
  void everyRecipeIsInTheRegistryOnceAndTheKnowledgeBaseIsGeneratedFromIt() {
    List<String> ids = RecipeRegistry.ALL.stream().map(Recipe::id).toList();
    assertThat(ids).doesNotHaveDuplicates().containsAll(RuleProposer.RECIPES)
        .contains("merge-repeated-aggregate-subqueries", "decorrelate-scalar-aggregate", "join-elimination");
    assertThat(KnowledgeBase.shared().recipes()).extracting(KnowledgeBase.Recipe::id).containsExactlyElementsOf(ids);
    assertThat(RecipeRegistry.ALL).filteredOn(r -> !r.adviceOnly()).allSatisfy(r ->
        assertThat(r.targets()).as(r.id()).isNotEmpty());
  }

  @Test
  void aRuleThatThrowsFailsItsRecipeInsteadOfBeingSwallowed() {
    Recipe broken = RuleRecipe.node((rules, node, ctx) -> {
      throw new IllegalStateException("boom");
    }, java.util.EnumSet.of(PlanSymptom.REPEATED_SCAN), RecipeRegistry.ALL.get(0).knowledge());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> broken.candidates("SELECT p_id FROM part", h.rules()))
        .hasMessage("boom");
  }

  @Test
  void turnsAGroupedInSubqueryIntoAJoin() throws SQLException {
    String q = "SELECT p.p_id, p.brand FROM part p WHERE p.p_id IN (SELECT p_id FROM item GROUP BY p_id"
        + " HAVING sum(qty) > 700) ORDER BY p.p_id";
    List<RuleProposer.Proposal> ps = h.propose(q, "in-subquery-to-join");
    assertThat(ps).hasSize(1);
    assertThat(flat(ps.get(0).sql())).contains("AS lr_in1(lr_v)").contains("p.p_id = lr_in1.lr_v");
    assertEquivalent(q, ps.get(0));
  }

  @Test
  void notInBecomesNotExistsOnlyWhenBothSidesAreNotNull() throws SQLException {
    String q = "SELECT count(*) FROM item WHERE i_id NOT IN (SELECT s_id FROM supplier WHERE note = 'complaints')";
    assertThat(onlyProposal(q, "not-in-to-not-exists")).contains("NOT EXISTS").contains("lr_ni1.lr_v = i_id");
    assertThat(h.propose("SELECT count(*) FROM item WHERE i_id NOT IN (SELECT s_id FROM nullable_supplier)",
        "not-in-to-not-exists")).isEmpty();
  }

  @Test
  void preAggregatesTheManySideOfAFanOutJoin() throws SQLException {
    String q = "SELECT p.p_id, count(i.i_id) AS n, sum(i.qty) AS q, max(i.price) AS m FROM part p"
        + " LEFT JOIN item i ON p.p_id = i.p_id AND i.mode = 'AIR' GROUP BY p.p_id";
    assertThat(onlyProposal(q, "eager-aggregation")).contains("GROUP BY i.p_id").contains("COALESCE(sum(lr_ea1.lr_a1), 0)")
        .contains("(i.\"mode\" = 'AIR')");
    // avg is not decomposable: no proposal.
    assertThat(h.propose("SELECT p.p_id, avg(i.qty) FROM part p JOIN item i ON p.p_id = i.p_id GROUP BY p.p_id",
        "eager-aggregation")).isEmpty();
  }

  @Test
  void aggregatesTheFactTableByItsJoinKeyBeforeTheStarJoin() throws SQLException {
    // TPC-DS q59 / q43 shapes: sums of CASE over a dimension column, a filtered dimension, fact-only filters,
    // count(*), avg, min and a count of a nullable column (mode is NULL for a third of the generated items).
    String q = "SELECT p.brand, count(*) AS n, sum(CASE WHEN p.size < 3 THEN i.price END) AS small,"
        + " sum(CASE WHEN p.size >= 3 THEN i.qty ELSE 0 END) AS big, avg(i.qty) AS a, min(i.price) AS lo,"
        + " count(CASE WHEN p.size = 3 THEN i.mode END) AS m FROM item i, part p"
        + " WHERE i.p_id = p.p_id AND i.qty > 5 AND p.size < 5 AND p.brand <> 'B4' GROUP BY p.brand ORDER BY p.brand";
    List<RuleProposer.Proposal> ps = h.propose(q, "pre-aggregate-fact-table");
    assertThat(ps).hasSize(1);
    assertThat(flat(ps.get(0).sql())).contains("GROUP BY i.p_id) AS i").contains("(i.qty > 5)")
        .contains("(i.p_id = ANY(SELECT p.p_id FROM part AS p WHERE ((p.size < 5) AND (p.brand != 'B4'))))")
        .contains("sum(CASE WHEN ((p.size < 3)) THEN (i.lr_pa");
    assertEquivalent(q, ps.get(0));
    // A filter keeping most parts (4 brands of 5) is not repeated inside: a probe per item row for little.
    String weak = "SELECT p.brand, sum(i.price) AS s FROM item i, part p WHERE i.p_id = p.p_id AND p.brand <> 'B4'"
        + " GROUP BY p.brand";
    ps = h.propose(weak, "pre-aggregate-fact-table");
    assertThat(ps).hasSize(1);
    assertThat(flat(ps.get(0).sql())).doesNotContain("ANY(");
    assertEquivalent(weak, ps.get(0));
    // The same with explicit inner joins: their ON conditions are conditions like the WHERE clause's.
    String joined = "SELECT p.brand, sum(i.qty) AS q, max(i.price) AS hi FROM item i JOIN part p ON i.p_id = p.p_id"
        + " AND p.size < 5 WHERE i.mode = 'AIR' GROUP BY p.brand";
    ps = h.propose(joined, "pre-aggregate-fact-table");
    assertThat(ps).hasSize(1);
    assertThat(flat(ps.get(0).sql())).contains("GROUP BY i.p_id) AS i").contains("(i.\"mode\" = 'AIR')")
        .contains("= ANY(SELECT p.p_id FROM part AS p WHERE (p.size < 5))");
    assertEquivalent(joined, ps.get(0));
    // A fact column with many values among the keys (qty: 50 values x 200 parts for 5,000 rows): no fewer rows.
    assertThat(h.propose("SELECT p.brand, i.qty, sum(i.price) FROM item i, part p WHERE i.p_id = p.p_id"
        + " GROUP BY p.brand, i.qty", "pre-aggregate-fact-table")).isEmpty();
    // An argument mixing both tables outside a CASE, and a DISTINCT count, do not combine from partials.
    assertThat(h.propose("SELECT p.brand, sum(i.price * p.size) FROM item i, part p WHERE i.p_id = p.p_id"
        + " GROUP BY p.brand", "pre-aggregate-fact-table")).isEmpty();
    assertThat(h.propose("SELECT p.brand, count(DISTINCT i.qty) FROM item i, part p WHERE i.p_id = p.p_id"
        + " GROUP BY p.brand", "pre-aggregate-fact-table")).isEmpty();
  }

  /** A candidate timed against an original of 100 ms per run: one candidate run per pair, in milliseconds. */
  private static OptimizationCandidate measured(int id, RuleProposer.Proposal p, CandidateVerdict verdict,
      double... candidateMillis) {
    List<java.time.Duration> original = java.util.Arrays.stream(candidateMillis)
        .mapToObj(ms -> java.time.Duration.ofMillis(100)).toList();
    List<java.time.Duration> candidate = java.util.Arrays.stream(candidateMillis)
        .mapToObj(ms -> java.time.Duration.ofNanos((long) (ms * 1e6))).toList();
    Verifier.TimedPair t = new Verifier.TimedPair(Timing.of(original, false), Timing.of(candidate, false));
    return new OptimizationCandidate(id, p.source(), p.label(), p.explanation(), p.sql(), verdict, "timed",
        java.util.Optional.empty(), java.util.Optional.of(t.original()), java.util.Optional.of(t.candidate()),
        t.speedup());
  }

  @Test
  void composesTheRecipesOfCandidatesThatEachMeasuredFaster() throws SQLException {
    String q = "WITH t AS (SELECT p.brand, sum(i.qty) AS q FROM item i, part p WHERE i.p_id = p.p_id"
        + " GROUP BY p.brand) SELECT a.brand, a.q FROM t a, t b WHERE a.brand = b.brand AND a.q >= b.q";
    RuleProposer.Proposal pre = h.propose(q, "pre-aggregate-fact-table").get(0);
    RuleProposer.Proposal hint = h.propose(q, "cte-materialized").get(0);
    RuleProposer.Proposal inline = h.propose(q, "cte-not-materialized").get(0);
    // The hint: a small gain shown by consistent pairs (1.06x, below a minimum speedup of 1.1 it is NEGLIGIBLE);
    // the pre-aggregation 1.4x; the inlined CTE slower.
    OptimizationCandidate small = measured(1, hint, CandidateVerdict.NEGLIGIBLE, 94.0, 94.5, 93.8, 94.2, 94.4);
    OptimizationCandidate large = measured(2, pre, CandidateVerdict.FASTER, 71.0, 72.0, 70.5, 71.5, 71.2);
    OptimizationCandidate slower = measured(3, inline, CandidateVerdict.SLOWER, 125.0, 124.0, 126.0, 125.5, 124.5);
    assertThat(OptimizationSession.shownFaster(small)).isTrue();
    List<RuleProposer.Proposal> composites = OptimizationSession.compositions(List.of(small, large, slower),
        h.rules(), failure -> { });
    // The fastest is rewritten by the other gain's recipe; the slower one's recipe is not tried again.
    assertThat(composites).isNotEmpty().allSatisfy(c -> assertThat(c.label())
        .isEqualTo("pre-aggregate-fact-table+cte-materialized"));
    assertThat(flat(composites.get(0).sql())).contains("AS MATERIALIZED").contains("lr_pa1");
    assertEquivalent(q, composites.get(0));
    // One gain alone, or gains of one recipe only, compose nothing.
    assertThat(OptimizationSession.compositions(List.of(large, measured(2, inline, CandidateVerdict.NEGLIGIBLE,
        101.0, 99.0, 100.5, 99.5, 100.0)), h.rules(), failure -> { })).isEmpty();
    // A point estimate above 1 from scattered pairs (median ratio 1.18x) is not shown faster: it takes no part,
    // however large, where a fixed minimum of 1.03x had let it in.
    OptimizationCandidate noisy = measured(1, hint, CandidateVerdict.NEGLIGIBLE, 60.0, 140.0, 70.0, 130.0, 85.0);
    assertThat(noisy.speedup()).isGreaterThan(1.03);
    assertThat(OptimizationSession.shownFaster(noisy)).isFalse();
    assertThat(OptimizationSession.compositions(List.of(noisy, large), h.rules(), failure -> { })).isEmpty();
  }

  @Test
  void computesGroupingSetsFromTheFinestGroupsAggregatedOnce() throws SQLException {
    // TPC-DS q22 / q36 shapes: ROLLUP over a join, avg and count among the aggregates, grouping() and a window
    // ranking by an aggregate, ORDER BY an output alias. mode is NULL for a third of the items.
    String q = "SELECT p.brand, p.size, count(*) AS n, count(i.mode) AS m, sum(i.qty) AS q, avg(i.price) AS a,"
        + " min(i.qty) AS lo, grouping(p.brand) + grouping(p.size) AS lvl,"
        + " rank() OVER (PARTITION BY grouping(p.brand) + grouping(p.size) ORDER BY sum(i.qty) DESC) AS r"
        + " FROM item i, part p WHERE i.p_id = p.p_id AND i.qty > 10 GROUP BY ROLLUP (p.brand, p.size)"
        + " ORDER BY lvl, p.brand, p.size";
    assertThat(onlyProposal(q, "pre-aggregate-grouping-sets")).contains("GROUP BY p.brand, p.size) AS lr_gs1")
        .contains("GROUP BY GROUPING SETS ((),(brand),(brand, size))").contains("COALESCE(sum(lr_p1), 0)")
        .contains("(sum(lr_p4) / sum(lr_p5)) AS a").contains("ORDER BY sum(lr_p3) DESC");
    // An empty input still gives ROLLUP's grand total row, with count 0.
    String empty = "SELECT p.brand, count(*) AS n, sum(i.qty) AS s FROM item i, part p WHERE i.p_id = p.p_id"
        + " AND i.qty > 1000 GROUP BY CUBE (p.brand)";
    List<RuleProposer.Proposal> cube = h.propose(empty, "pre-aggregate-grouping-sets");
    assertThat(cube).hasSize(1);
    assertEquivalent(empty, cube.get(0));
    // DISTINCT aggregates and grouping expressions that are not columns do not combine: left alone.
    assertThat(h.propose("SELECT p.brand, count(DISTINCT i.qty) FROM item i, part p WHERE i.p_id = p.p_id"
        + " GROUP BY ROLLUP (p.brand)", "pre-aggregate-grouping-sets")).isEmpty();
    assertThat(h.propose("SELECT p.size % 2, sum(i.qty) FROM item i, part p WHERE i.p_id = p.p_id"
        + " GROUP BY ROLLUP (p.size % 2)", "pre-aggregate-grouping-sets")).isEmpty();
    // A plain GROUP BY has one grouping set: nothing to share.
    assertThat(h.propose("SELECT p.brand, sum(i.qty) FROM item i, part p WHERE i.p_id = p.p_id GROUP BY p.brand",
        "pre-aggregate-grouping-sets")).isEmpty();
  }

  @Test
  void aCteDoesNotComputeColumnsNobodyReads() throws SQLException {
    // TPC-DS q23's frequent_ss_items shape. The brand prefix is determined by part's key p_id, which is grouped:
    // it leaves GROUP BY too. i.qty is not determined by a grouped key (item's key i_id is not grouped): it stays
    // grouped, only no longer selected. n is not read either.
    String q = "WITH f AS (SELECT substr(p.brand, 1, 2) AS b, p.p_id AS pid, i.qty AS q, count(*) AS n"
        + " FROM item i, part p WHERE i.p_id = p.p_id GROUP BY substr(p.brand, 1, 2), p.p_id, i.qty"
        + " HAVING count(*) > 2) SELECT count(*), sum(price) FROM item WHERE p_id IN (SELECT pid FROM f)";
    List<RuleProposer.Proposal> ps = h.propose(q, "prune-unused-cte-columns");
    assertThat(ps).hasSize(1);
    assertThat(flat(ps.get(0).sql())).contains("WITH f AS (SELECT p.p_id AS pid FROM")
        .contains("GROUP BY p.p_id, i.qty HAVING");
    assertThat(ps.get(0).explanation()).contains("b, q, n never read").contains("substr(p.brand, 1, 2) left GROUP BY");
    assertEquivalent(q, ps.get(0));
    // Under DISTINCT a column fewer merges rows; read with *, every column counts: left alone.
    assertThat(h.propose("WITH f AS (SELECT DISTINCT p_id AS pid, qty AS q FROM item) SELECT count(*) FROM item"
        + " WHERE p_id IN (SELECT pid FROM f)", "prune-unused-cte-columns")).isEmpty();
    assertThat(h.propose("WITH f AS (SELECT p_id AS pid, qty AS q FROM item WHERE qty > 3) SELECT * FROM f",
        "prune-unused-cte-columns")).isEmpty();
  }

  @Test
  void consolidatesAHavingSubqueryOverTheSameScanIntoAWindowAggregate() throws SQLException {
    String q = "SELECT i.p_id, sum(i.price * i.qty) AS value FROM item i, part p WHERE i.p_id = p.p_id"
        + " AND p.brand = 'B1' GROUP BY i.p_id HAVING sum(i.price * i.qty) > (SELECT sum(i.price * i.qty) * 0.02"
        + " FROM item i, part p WHERE i.p_id = p.p_id AND p.brand = 'B1') ORDER BY value DESC";
    List<RuleProposer.Proposal> ps = h.propose(q, "consolidate-repeated-scan");
    assertThat(ps).hasSize(1);
    assertThat(flat(ps.get(0).sql())).contains("OVER ()").contains("lr_having_value > lr_cs1.lr_total")
        .contains("ORDER BY \"value\" DESC");
    assertEquivalent(q, ps.get(0));
  }

  @Test
  void derivesPerTableFiltersFromAnOrAcrossTables() throws SQLException {
    String q = "SELECT sum(i.price) FROM item i, part p WHERE p.p_id = i.p_id AND ((p.brand = 'B1' AND i.qty < 5)"
        + " OR (p.brand = 'B2' AND i.qty > 45 AND i.mode = 'AIR'))";
    List<RuleProposer.Proposal> ps = h.propose(q, "implied-or-filters");
    assertThat(ps).hasSize(1);
    assertThat(flat(ps.get(0).sql())).contains("((p.brand = 'B1') OR (p.brand = 'B2'))")
        .contains("((i.qty < 5) OR ((i.qty > 45) AND (i.\"mode\" = 'AIR')))");
    assertEquivalent(q, ps.get(0));
  }

  @Test
  void splitsAnOrAcrossColumnsIntoDisjointUnionAllBranches() throws SQLException {
    String q = "SELECT i_id, qty FROM item WHERE qty = 7 OR mode = 'AIR'";
    List<RuleProposer.Proposal> ps = h.propose(q, "or-to-union-all");
    assertThat(ps).hasSize(1);
    assertThat(flat(ps.get(0).sql())).contains("UNION ALL").contains("IS DISTINCT FROM true");
    assertEquivalent(q, ps.get(0));
  }

  @Test
  void makesALeftJoinInnerWhenWhereRejectsItsNulls() throws SQLException {
    String q = "SELECT p.p_id, i.qty FROM part p LEFT JOIN item i ON p.p_id = i.p_id WHERE i.mode = 'AIR'";
    assertThat(onlyProposal(q, "left-join-to-inner")).contains("INNER JOIN").doesNotContain("LEFT");
    assertThat(h.propose("SELECT p.p_id FROM part p LEFT JOIN item i ON p.p_id = i.p_id WHERE i.mode IS NULL",
        "left-join-to-inner")).isEmpty();
  }

  @Test
  void turnsIntersectAndExceptIntoSemiAndAntiJoins() throws SQLException {
    String q = "SELECT p_id FROM part WHERE size < 5 INTERSECT SELECT p_id FROM item WHERE qty > 40";
    assertThat(onlyProposal(q, "set-operation-to-semi-join")).contains("WHERE EXISTS").contains("IS NOT DISTINCT FROM");
    String e = "SELECT mode FROM item EXCEPT SELECT note FROM supplier ORDER BY mode";
    List<RuleProposer.Proposal> pe = h.propose(e, "set-operation-to-semi-join");
    assertThat(flat(pe.get(0).sql())).contains("NOT EXISTS").contains("ORDER BY \"mode\"");
    assertEquivalent(e, pe.get(0));
  }

  @Test
  void pushesALiteralFilterIntoACteAndOffersMaterialisationHints() throws SQLException {
    String q = "WITH t AS (SELECT p_id, sum(qty) AS total FROM item GROUP BY p_id)"
        + " SELECT p.brand, t.total FROM t JOIN part p ON p.p_id = t.p_id WHERE t.p_id = 17";
    assertThat(onlyProposal(q, "push-filter-into-cte")).contains("FROM item WHERE (p_id = 17) GROUP BY p_id");

    String shared = "WITH t AS (SELECT p_id, sum(qty) AS total FROM item GROUP BY p_id)"
        + " SELECT * FROM t WHERE total = (SELECT max(total) FROM t)";
    List<RuleProposer.Proposal> hints = h.rules().propose(shared, 100);
    assertThat(hints).extracting(RuleProposer.Proposal::label).contains("cte-materialized", "cte-not-materialized");
    assertThat(hints).filteredOn(p -> p.label().equals("cte-materialized")).singleElement()
        .satisfies(p -> assertThat(p.sql()).contains("t AS MATERIALIZED"));
    // A filter on a CTE used twice is not pushed into it.
    assertThat(h.propose(shared.replace("WHERE total", "WHERE p_id = 3 AND total"), "push-filter-into-cte")).isEmpty();
  }

  @Test
  void proposesNothingForAPlainQueryAndRespectsTheCap() {
    assertThat(h.rules().propose("SELECT brand, count(*) FROM part GROUP BY brand", 100)).isEmpty();
    String many = "SELECT sum(i.price) FROM item i, part p WHERE p.p_id = i.p_id AND ((p.brand = 'B1' AND i.qty < 5)"
        + " OR (p.brand = 'B2' AND i.qty > 45)) AND i.qty < (SELECT avg(qty) FROM item i2 WHERE i2.p_id = p.p_id)";
    assertThat(h.rules().propose(many, 100)).hasSizeGreaterThanOrEqualTo(2);
    assertThat(h.rules().propose(many, 1)).hasSize(1);
  }
}
