package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceChecker;
import dev.lakerewrite.core.equivalence.EquivalenceResult;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code self-join-to-filter-aggregates} merges the self-joined copies of a grouped CTE into one grouped scan with
 * FILTER aggregates where each copy provably keeps one row per key, refuses where it does not, and the equivalence
 * checker calls every candidate it produces EQUIVALENT.
 */
class SelfJoinToFilterAggregatesTest {
  static Harness h;
  static EquivalenceChecker checker;

  static final String YEARLY = "WITH t AS (SELECT s.c_id, d.yr, sum(s.amt) AS total, count(*) AS n"
      + " FROM sale s, day d WHERE s.d_id = d.d_id GROUP BY s.c_id, d.yr) ";

  @BeforeAll
  static void setUp() throws SQLException {
    h = Harness.of(
        "CREATE TABLE cust (c_id INTEGER PRIMARY KEY, code VARCHAR, name VARCHAR)",
        "CREATE TABLE day (d_id INTEGER PRIMARY KEY, yr INTEGER, moy INTEGER)",
        "CREATE TABLE sale (s_id INTEGER PRIMARY KEY, c_id INTEGER, d_id INTEGER, amt DECIMAL(10,2))",
        "CREATE TABLE web (w_id INTEGER PRIMARY KEY, c_id INTEGER, d_id INTEGER, amt DECIMAL(10,2))",
        "INSERT INTO cust SELECT i, 'C' || (i % 40), 'name' || (i % 7) FROM range(1, 61) t(i)",
        "INSERT INTO day SELECT i, 2000 + i % 3, 1 + i % 4 FROM range(1, 37) t(i)",
        "INSERT INTO sale SELECT i, CASE WHEN i % 17 = 0 THEN NULL ELSE 1 + i % 60 END, 1 + i % 36,"
            + " (i % 23) - 3 FROM range(1, 3001) t(i)",
        "INSERT INTO web SELECT i, 1 + i % 50, 1 + (i * 7) % 36, (i % 19) - 2 FROM range(1, 2001) t(i)");
    checker = EquivalenceChecker.builder().connection(h.connection).useData(false).build();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    checker.close();
    h.close();
  }

  private static String flat(String sql) {
    return sql.replaceAll("\\s+", " ");
  }

  private static RuleProposer.Proposal only(String q) {
    List<RuleProposer.Proposal> ps = h.propose(q, SelfJoinToFilterAggregates.ID);
    assertThat(ps).as(q).hasSize(1);
    return ps.get(0);
  }

  private static int rows(String q) throws SQLException {
    try (java.sql.Statement st = h.connection.createStatement(); java.sql.ResultSet rs = st.executeQuery(q)) {
      int n = 0;
      while (rs.next()) {
        n++;
      }
      return n;
    }
  }

  /** The checker and the optimizer's own verifier (the database, a sample, a generated instance) both agree. */
  private static void assertEquivalent(String original, RuleProposer.Proposal p) throws SQLException {
    EquivalenceResult r = checker.check(original, p.sql());
    assertThat(r.verdict()).as(p.sql() + "\n" + r.summary()).isEqualTo(EquivalenceResult.Verdict.EQUIVALENT);
    assertThat(h.check(original, p.sql()).equivalent()).as(p.sql()).isTrue();
  }

  @Test
  void copiesOfAGroupedCteFilteredToTwoYearsBecomeOneScanWithFilterAggregates() throws SQLException {
    String q = YEARLY + "SELECT a.c_id, a.total, b.total / a.total AS growth, b.n FROM t a, t b"
        + " WHERE a.c_id = b.c_id AND a.yr = 2001 AND b.yr = 2001 + 1 AND a.total > 0 ORDER BY a.c_id";
    RuleProposer.Proposal p = only(q);
    String sql = flat(p.sql());
    assertThat(sql).doesNotContain("WITH t AS").doesNotContain(" t a").doesNotContain(" t b")
        .contains("sum(CASE WHEN ((d.yr = 2001)) THEN (s.amt) ELSE NULL END)")
        .contains("count(CASE WHEN ((d.yr = (2001 + 1))) THEN (1) ELSE NULL END)")
        .contains("GROUP BY s.c_id").doesNotContain("GROUP BY s.c_id, d.yr").contains("IS NOT NULL")
        .contains("> 0");
    assertThat(sql).containsOnlyOnce("FROM sale AS s , \"day\" AS d");
    assertEquivalent(q, p);

    // On PostgreSQL the same rewrite restricts the aggregates with FILTER (DuckDB runs the CASE form faster).
    List<RuleProposer.Proposal> pg = new RuleProposer(h.trees, h.catalog.as(dev.lakerewrite.core.Engine.POSTGRESQL),
        java.util.Set.of(SelfJoinToFilterAggregates.ID)).propose(q, 10);
    assertThat(pg).hasSize(1);
    assertThat(flat(pg.get(0).sql())).contains("sum(s.amt) FILTER (WHERE (d.yr = 2001))")
        .contains("count_star() FILTER (WHERE (d.yr = (2001 + 1)))").doesNotContain("CASE");
    assertEquivalent(q, pg.get(0));
  }

  @Test
  void aProjectionOverAGroupedDerivedTableAndAColumnAPrimaryKeyDeterminesAreMerged() throws SQLException {
    // TPC-DS q39's shape: the CTE filters a grouped derived table; name is determined by the grouped cust.c_id.
    String q = "WITH inv AS (SELECT c_id, name, moy, mean, CASE WHEN mean = 0 THEN NULL ELSE sd / mean END AS cov"
        + " FROM (SELECT c.c_id, c.name, d.moy, avg(s.amt) AS mean, stddev_samp(s.amt) AS sd FROM sale s, cust c,"
        + " day d WHERE s.c_id = c.c_id AND s.d_id = d.d_id AND d.yr = 2001 GROUP BY c.c_id, c.name, d.moy) AS foo"
        + " WHERE mean > 1) SELECT i1.c_id, i1.name, i1.moy, i1.mean, i1.cov, i2.moy, i2.mean, i2.cov"
        + " FROM inv i1, inv i2 WHERE i1.c_id = i2.c_id AND i1.moy = 1 AND i2.moy = 1 + 1 ORDER BY 1, 4";
    RuleProposer.Proposal p = only(q);
    assertThat(flat(p.sql())).contains("GROUP BY c.c_id, c.\"name\"").contains("min(CASE WHEN ((d.moy = 1)) THEN (d.moy) ELSE NULL END)")
        .contains("avg(CASE WHEN ((d.moy = 1)) THEN (s.amt) ELSE NULL END)").doesNotContain("inv i2");
    assertEquivalent(q, p);
  }

  @Test
  void aUnionOfStoreAndWebPartsWithASaleTypeIsGroupedPerBranchAndJoinedOnTheKey() throws SQLException {
    // TPC-DS q11's shape, grouped by a primary key (so each copy has one row per customer).
    String q = "WITH yt AS (SELECT c.c_id, c.name, d.yr, sum(s.amt) AS total, 's' AS kind FROM cust c, sale s, day d"
        + " WHERE c.c_id = s.c_id AND s.d_id = d.d_id GROUP BY c.c_id, c.name, d.yr UNION ALL SELECT c.c_id, c.name,"
        + " d.yr, sum(w.amt) AS total, 'w' AS kind FROM cust c, web w, day d WHERE c.c_id = w.c_id AND w.d_id = d.d_id"
        + " GROUP BY c.c_id, c.name, d.yr) SELECT s2.c_id, s2.name FROM yt s1, yt s2, yt w1, yt w2"
        + " WHERE s1.c_id = s2.c_id AND s1.c_id = w1.c_id AND s1.c_id = w2.c_id AND s1.kind = 's' AND s2.kind = 's'"
        + " AND w1.kind = 'w' AND w2.kind = 'w' AND s1.yr = 2001 AND s2.yr = 2002 AND w1.yr = 2001 AND w2.yr = 2002"
        + " AND s1.total > 0 AND w1.total > 0"
        + " AND CASE WHEN w1.total > 0 THEN w2.total / w1.total END > CASE WHEN s1.total > 0 THEN s2.total / s1.total"
        + " END ORDER BY 1";
    RuleProposer.Proposal p = only(q);
    String sql = flat(p.sql());
    assertThat(sql).containsOnlyOnce("FROM cust AS c , sale AS s ,").containsOnlyOnce("web AS w")
        .contains("lr_m1.lr_k0 = lr_m2.lr_k0").doesNotContain("'s'").doesNotContain("yt s1");
    assertEquivalent(q, p);
  }

  @Test
  void aJoinKeyThatIsNotUniqueInTheGroupsIsMergedIntoOneScanEachCopyReadsSeparately() throws SQLException {
    // TPC-DS q4/q11/q74's shape: the copies join on a customer code that no constraint makes unique (two customers
    // share each code under different names), so a copy may keep two rows per code and the original pairs them
    // crosswise. The scan groups by code and name (the year dropped: every copy fixes it), and each copy reads it.
    String q = "WITH yt AS (SELECT c.code, c.name, d.yr, sum(s.amt) AS total, 's' AS kind FROM cust c, sale s, day d"
        + " WHERE c.c_id = s.c_id AND s.d_id = d.d_id GROUP BY c.code, c.name, d.yr UNION ALL SELECT c.code, c.name,"
        + " d.yr, sum(w.amt) AS total, 'w' AS kind FROM cust c, web w, day d WHERE c.c_id = w.c_id AND w.d_id = d.d_id"
        + " GROUP BY c.code, c.name, d.yr) SELECT s2.code, s2.name, s1.name AS first_name FROM yt s1, yt s2, yt w1,"
        + " yt w2 WHERE s1.code = s2.code AND s1.code = w1.code AND s1.code = w2.code AND s1.kind = 's'"
        + " AND s2.kind = 's' AND w1.kind = 'w' AND w2.kind = 'w' AND s1.yr = 2001 AND s2.yr = 2002 AND w1.yr = 2001"
        + " AND w2.yr = 2002 AND s1.total > 0 AND w1.total > 0"
        + " AND CASE WHEN w1.total > 0 THEN w2.total / w1.total END > CASE WHEN s1.total > 0 THEN s2.total / s1.total"
        + " END ORDER BY 1, 2, 3";
    RuleProposer.Proposal p = onlyOnPostgres(q);
    String sql = flat(p.sql());
    assertThat(sql).doesNotContain("yt s1").doesNotContain("'s'").contains("GROUP BY c.code, c.\"name\"")
        .doesNotContain("GROUP BY c.code, c.\"name\", d.yr").containsOnlyOnce("FROM cust AS c , sale AS s ,")
        .containsOnlyOnce("FROM cust AS c , web AS w ,").contains("lr_in_s1").contains("lr_in_w2");
    assertThat(p.explanation()).contains("c.\"name\" can take several values per key");
    assertEquivalent(q, p);
    // The data has such codes, and the rewrite returns the same rows (checked on the database above): not vacuous.
    assertThat(rows(q)).isPositive();

    // One copy per branch needs no CTE (and is proposed on DuckDB too): each branch's scan keeps a row per code and
    // name, and the join on the code pairs them as the original did.
    String one = q.substring(0, q.indexOf(" SELECT s2.code")) + " SELECT s.code, s.name, w.name, w.total FROM yt s,"
        + " yt w WHERE s.code = w.code AND s.kind = 's' AND w.kind = 'w' AND s.yr = 2001 AND w.yr = 2001"
        + " ORDER BY 1, 2, 3, 4";
    RuleProposer.Proposal p1 = only(one);
    assertThat(flat(p1.sql())).doesNotContain("lr_in_").contains("GROUP BY c.code, c.\"name\"");
    assertEquivalent(one, p1);

    // A grouping column no copy fixes (the month): each copy keeps a row per month.
    String months = "WITH t AS (SELECT s.c_id, d.yr, d.moy, sum(s.amt) AS total FROM sale s, day d"
        + " WHERE s.d_id = d.d_id GROUP BY s.c_id, d.yr, d.moy) SELECT a.c_id, a.moy, b.moy, b.total FROM t a, t b"
        + " WHERE a.c_id = b.c_id AND a.yr = 2001 AND b.yr = 2002 ORDER BY 1, 2, 3, 4";
    RuleProposer.Proposal pm = onlyOnPostgres(months);
    assertThat(flat(pm.sql())).contains("GROUP BY s.c_id, d.moy");
    assertEquivalent(months, pm);

    // DuckDB ran the CTE read by each copy slower than the original (TPC-DS q4, q11, q64, q74): not proposed there,
    // and the reason is given.
    RuleProposer duck = new RuleProposer(h.trees, h.catalog, java.util.Set.of(SelfJoinToFilterAggregates.ID));
    assertThat(duck.propose(q, 10)).isEmpty();
    assertThat(duck.takeRefusals()).singleElement().asString().contains("left as they are on DuckDB")
        .contains("c.\"name\" can take several values per key");
    assertThat(h.propose(months, SelfJoinToFilterAggregates.ID)).isEmpty();
  }

  private static RuleProposer.Proposal onlyOnPostgres(String q) {
    List<RuleProposer.Proposal> ps = new RuleProposer(h.trees, h.catalog.as(dev.lakerewrite.core.Engine.POSTGRESQL),
        java.util.Set.of(SelfJoinToFilterAggregates.ID)).propose(q, 10);
    assertThat(ps).as(q).hasSize(1);
    return ps.get(0);
  }

  @Test
  void aPrimaryKeyThatDeterminesTheOtherGroupingColumnsIsNamedInTheNote() {
    RuleProposer.Proposal p = only("WITH t AS (SELECT c.c_id, c.name, d.yr, sum(s.amt) AS total FROM cust c,"
        + " sale s, day d WHERE c.c_id = s.c_id AND s.d_id = d.d_id GROUP BY c.c_id, c.name, d.yr) SELECT a.name,"
        + " b.total FROM t a, t b WHERE a.c_id = b.c_id AND a.yr = 2001 AND b.yr = 2002");
    assertThat(p.explanation()).contains("determined by the primary key cust(c_id)")
        .doesNotContain("several values per key");
  }

  @Test
  void refusesWhereACopyCouldKeepTwoRowsForOneKey() {
    // A copy's filter that is not a constant: the year of one copy relative to the other's.
    assertThat(h.propose(YEARLY + "SELECT a.c_id, b.total FROM t a, t b WHERE a.c_id = b.c_id AND b.yr = a.yr + 1",
        SelfJoinToFilterAggregates.ID)).isEmpty();
    // A copy LEFT-joined: a key the other copy lacks keeps its row.
    assertThat(h.propose(YEARLY + "SELECT a.c_id, b.total FROM t a LEFT JOIN t b ON a.c_id = b.c_id AND b.yr = 2002"
        + " WHERE a.yr = 2001", SelfJoinToFilterAggregates.ID)).isEmpty();
    // A copy whose sale type two branches share: a key could have a row from each (the reason is given).
    RuleProposer rules = new RuleProposer(h.trees, h.catalog, java.util.Set.of(SelfJoinToFilterAggregates.ID));
    assertThat(rules.propose("WITH yt AS (SELECT s.c_id, d.yr, sum(s.amt) AS total, 's' AS kind FROM sale s, day d"
        + " WHERE s.d_id = d.d_id GROUP BY s.c_id, d.yr UNION ALL SELECT w.c_id, d.yr, sum(w.amt), 's' FROM web w,"
        + " day d WHERE w.d_id = d.d_id GROUP BY w.c_id, d.yr) SELECT a.c_id, b.total FROM yt a, yt b"
        + " WHERE a.c_id = b.c_id AND a.kind = 's' AND b.kind = 's' AND a.yr = 2001 AND b.yr = 2002", 10)).isEmpty();
    assertThat(rules.takeRefusals()).singleElement().asString()
        .contains("the filters of a do not select one UNION ALL branch by a constant");
    assertThat(h.propose("WITH yt AS (SELECT s.c_id, d.yr, sum(s.amt) AS total, 's' AS kind FROM sale s, day d"
        + " WHERE s.d_id = d.d_id GROUP BY s.c_id, d.yr UNION ALL SELECT w.c_id, d.yr, sum(w.amt), 's' FROM web w,"
        + " day d WHERE w.d_id = d.d_id GROUP BY w.c_id, d.yr) SELECT a.c_id, b.total FROM yt a, yt b"
        + " WHERE a.c_id = b.c_id AND a.kind = 's' AND b.kind = 's' AND a.yr = 2001 AND b.yr = 2002",
        SelfJoinToFilterAggregates.ID)).isEmpty();
  }
}
