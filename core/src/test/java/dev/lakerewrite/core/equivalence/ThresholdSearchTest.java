package dev.lakerewrite.core.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The threshold search ({@link ThresholdSearch}) moves a cell of an aggregated column until a group crosses a
 * comparison whose two sides are aggregates of the same rows (TPC-DS q24's {@code HAVING sum(netpaid) > (SELECT 0.05
 * * avg(netpaid) FROM ssales)}, q11's ratios of a CTE's copies), and bisects to the threshold: mutants that drop
 * such a comparison or make it strict or loose are separated with counterexamples that really differ.
 */
class ThresholdSearchTest {
  static final String SCHEMA = """
      CREATE TABLE cust (c_sk INTEGER PRIMARY KEY, c_name VARCHAR NOT NULL);
      CREATE TABLE store (s_sk INTEGER PRIMARY KEY, s_name VARCHAR NOT NULL, s_market INTEGER NOT NULL);
      CREATE TABLE sale (sa_ticket INTEGER NOT NULL, sa_item INTEGER NOT NULL,
        sa_cust INTEGER NOT NULL REFERENCES cust (c_sk), sa_store INTEGER NOT NULL REFERENCES store (s_sk),
        sa_color VARCHAR NOT NULL, sa_paid DECIMAL(7,2) NOT NULL, PRIMARY KEY (sa_ticket, sa_item));
      """;

  /** q24's shape: a CTE's totals per group, the groups of one colour above a fraction of the average total. */
  static final String ABOVE_SHARE = "WITH paid AS (SELECT c_name, s_name, sa_color, sum(sa_paid) AS netpaid FROM "
      + "sale, cust, store WHERE sa_cust = c_sk AND sa_store = s_sk AND s_market = 8 GROUP BY c_name, s_name, "
      + "sa_color) SELECT c_name, s_name, sum(netpaid) AS total FROM paid WHERE sa_color = 'pale' GROUP BY c_name, "
      + "s_name HAVING sum(netpaid) > (SELECT 0.05 * avg(netpaid) FROM paid)";

  @Test
  void aComparisonOfAggregatesOfTheSameRowsIsCrossedByMovingOneCell() throws Exception {
    String[] mutants = {
      ABOVE_SHARE.replace(" HAVING sum(netpaid) > (SELECT 0.05 * avg(netpaid) FROM paid)", ""),
      ABOVE_SHARE.replace("sum(netpaid) > (", "sum(netpaid) >= ("),
      ABOVE_SHARE.replace("sum(netpaid) > (", "sum(netpaid) < ("),
    };
    List<String> missedWithout = new ArrayList<>();
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build();
         EquivalenceChecker without = EquivalenceChecker.builder().schema(SCHEMA).thresholdTrials(0).build()) {
      EquivalenceResult same = checker.check(ABOVE_SHARE, "SELECT * FROM (" + ABOVE_SHARE + ") AS same");
      assertThat(same.verdict()).as(same.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(same.evidence().checks()).as(same.summary())
          .anyMatch(c -> c.instance().contains("a threshold of a comparison over aggregates"));
      for (String right : mutants) {
        EquivalenceResult r = checker.check(ABOVE_SHARE, right);
        assertThat(r.verdict()).as("%s: %s", right, r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), ABOVE_SHARE, right);
        if (without.check(ABOVE_SHARE, right).verdict() == Verdict.EQUIVALENT) {
          missedWithout.add(right);
        }
      }
    }
    assertThat(missedWithout).as("mutants only the threshold search separates").isNotEmpty();
  }
  static final String INVENTORY = """
      CREATE TABLE item (i_sk INTEGER PRIMARY KEY, i_name VARCHAR NOT NULL);
      CREATE TABLE day (d_sk INTEGER PRIMARY KEY, d_year INTEGER NOT NULL, d_moy INTEGER NOT NULL);
      CREATE TABLE inv (inv_day INTEGER NOT NULL, inv_item INTEGER NOT NULL, inv_qty INTEGER NOT NULL,
        PRIMARY KEY (inv_day, inv_item));
      """;

  /**
   * q39's shape: the coefficient of variation of an item's stock per month, above 1 in two consecutive months.
   * {@code stddev_samp} is NULL over one row, so no group of one passes; the search's groups of two (each
   * inventory row with a sibling on another day of the same month, at ten times its quantity) make rows.
   */
  static final String VARIATION = "WITH inv_m AS (SELECT i_sk, d_moy, stdev, mean FROM (SELECT i_sk, d_moy, "
      + "stddev_samp(inv_qty) AS stdev, avg(inv_qty) AS mean FROM inv, item, day WHERE inv_item = i_sk AND inv_day "
      + "= d_sk AND d_year = 2001 GROUP BY i_sk, d_moy) foo WHERE CASE mean WHEN 0 THEN 0 ELSE stdev / mean END > 1) "
      + "SELECT a.i_sk, a.mean, b.mean FROM inv_m a, inv_m b WHERE a.i_sk = b.i_sk AND a.d_moy = 1 AND b.d_moy = 2";

  @Test
  void aSampleDeviationGetsGroupsOfTwoAndRatiosKeptGetWholeColumnsScaled() throws Exception {
    String looser = VARIATION.replace("stdev / mean END > 1)", "stdev / mean END > 1.1)");
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(INVENTORY).build()) {
      EquivalenceResult same = checker.check(VARIATION, "SELECT * FROM (" + VARIATION + ") AS same");
      assertThat(same.verdict()).as(same.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(same.evidence().checks()).as(same.summary())
          .anyMatch(c -> c.instance().contains("with a sibling in its group") && c.originalRows() > 0);
      EquivalenceResult r = checker.check(VARIATION, looser);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), VARIATION, looser);
    }
    // q11's shape: two channels' year-over-year ratios compared, each first-year total above 0. Moving one cell
    // of a first-year total into (0, 1] raises its ratio past the other channel's first; scaling every store
    // sale keeps the ratios and moves the totals: "> 1" for "> 0" is told apart.
    String ratios = "WITH t AS (SELECT sa_cust AS cust, s_market AS yr, sum(sa_paid) AS total, 's' AS kind FROM sale, "
        + "store WHERE sa_store = s_sk GROUP BY sa_cust, s_market UNION ALL SELECT sa_cust, s_market, sum(sa_paid) "
        + "* 1, 'w' FROM sale, store WHERE sa_store = s_sk AND sa_color = 'web' GROUP BY sa_cust, s_market) "
        + "SELECT s1.cust FROM t s1, t s2, t w1, t w2 WHERE s1.cust = s2.cust AND s1.cust = w1.cust AND s1.cust = "
        + "w2.cust AND s1.kind = 's' AND s2.kind = 's' AND w1.kind = 'w' AND w2.kind = 'w' AND s1.yr = 1 AND s2.yr "
        + "= 2 AND w1.yr = 1 AND w2.yr = 2 AND s1.total > 0 AND w1.total > 0 AND CASE WHEN w1.total > 0 THEN "
        + "w2.total / w1.total END > CASE WHEN s1.total > 0 THEN s2.total / s1.total END";
    String moved = ratios.replace("AND s1.total > 0 AND", "AND s1.total > 1 AND");
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult r = checker.check(ratios, moved);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), ratios, moved);
    }
  }

  static final String QUANTITIES = """
      CREATE TABLE store (s_sk INTEGER PRIMARY KEY, s_name VARCHAR NOT NULL, s_year INTEGER NOT NULL);
      CREATE TABLE cust (c_sk INTEGER PRIMARY KEY, c_name VARCHAR NOT NULL);
      CREATE TABLE sale (sa_ticket INTEGER NOT NULL, sa_item INTEGER NOT NULL,
        sa_cust INTEGER NOT NULL REFERENCES cust (c_sk), sa_store INTEGER NOT NULL REFERENCES store (s_sk),
        sa_qty INTEGER NOT NULL, sa_returned INTEGER, sa_paid DECIMAL(7,2) NOT NULL,
        PRIMARY KEY (sa_ticket, sa_item));
      """;

  /**
   * q75's shape: an item's quantity this year against last year's, below 90 %, through a derived table's output
   * that the CTE sums. On totals of a few units no quantity puts the ratio at exactly 0.9; ten times every quantity
   * (the ratios kept) and the moved cell bisected again does.
   */
  static final String DECLINE = "WITH yearly AS (SELECT yr, item, sum(cnt) AS sales_cnt FROM (SELECT s_year AS yr, "
      + "sa_item AS item, sa_qty AS cnt FROM sale, store WHERE sa_store = s_sk) AS "
      + "lines GROUP BY yr, item) SELECT curr.item, curr.sales_cnt, prev.sales_cnt FROM yearly AS curr, yearly AS "
      + "prev WHERE curr.item = prev.item AND curr.yr = 2002 AND prev.yr = 2001 AND CAST(curr.sales_cnt AS "
      + "DECIMAL(17,2)) / CAST(prev.sales_cnt AS DECIMAL(17,2)) < 0.9";

  @Test
  void aRatioBoundaryBetweenTwoNeighbouringValuesIsMetOnATenTimesFinerGrid() throws Exception {
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(QUANTITIES).build()) {
      for (String right : List.of(DECLINE.replace("< 0.9", "<= 0.9"), DECLINE.replace("< 0.9", "< 1.0"))) {
        EquivalenceResult r = checker.check(DECLINE, right);
        assertThat(r.verdict()).as("%s: %s", right, r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), DECLINE, right);
      }
    }
  }

  /**
   * q67's shape: groups ranked within a partition, the first forty kept. A boundary moved by one differs
   * only where a partition holds more than forty ranked groups: the instance with rows copied 41 times under
   * shifted keys, each copy its own group (a customer's name numbered per copy) with its own total.
   */
  static final String TOP_CUSTOMERS = "SELECT * FROM (SELECT s_name, c_name, total, rank() OVER (PARTITION BY s_name "
      + "ORDER BY total DESC) AS rk FROM (SELECT s_name, c_name, sum(sa_paid) AS total FROM sale, cust, store WHERE "
      + "sa_cust = c_sk AND sa_store = s_sk GROUP BY s_name, c_name) AS totals) AS ranked WHERE rk <= 40";

  @Test
  void aRankThresholdIsCrossedByCopiesOfTheRowsUnderShiftedKeys() throws Exception {
    List<String[]> pairs = List.of(
        new String[] {TOP_CUSTOMERS, TOP_CUSTOMERS.replace("rk <= 40", "rk <= 41")},
        new String[] {TOP_CUSTOMERS, TOP_CUSTOMERS.replace("rk <= 40", "rk < 40")});
    List<String> missedWithout = new ArrayList<>();
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(QUANTITIES).build();
         EquivalenceChecker without = EquivalenceChecker.builder().schema(QUANTITIES).thresholdTrials(0).build()) {
      for (String[] pair : pairs) {
        EquivalenceResult r = checker.check(pair[0], pair[1]);
        assertThat(r.verdict()).as("%s: %s", pair[1], r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), pair[0], pair[1]);
        assertThat(r.summary()).contains("copies under shifted keys");
        if (without.check(pair[0], pair[1]).verdict() == Verdict.EQUIVALENT) {
          missedWithout.add(pair[1]);
        }
      }
    }
    assertThat(missedWithout).as("mutants only copies past the threshold separate").hasSize(pairs.size());
  }

  /**
   * A comparison inside a CTE that the outer query reads only through {@code IN}, under an aggregate without GROUP
   * BY: the outer result is one row on every instance, so the results' row counts never tell the search that a
   * customer crossed the CTE's threshold; the CTE's own row count does ({@code EquivalenceChecker}'s signature).
   */
  static final String BIG_SPENDERS = "WITH busy AS (SELECT sa_item AS item FROM sale GROUP BY sa_item HAVING "
      + "count(*) > 2), big AS (SELECT sa_cust AS cust FROM sale GROUP BY sa_cust HAVING sum(sa_qty * sa_paid) > 100) "
      + "SELECT sum(o.sa_qty) FROM sale o, store WHERE o.sa_store = s_sk AND s_year = 2000 AND o.sa_cust IN (SELECT "
      + "cust FROM big) AND o.sa_item IN (SELECT item FROM busy)";

  @Test
  void aThresholdInsideACteReadThroughInIsFoundByTheCtesRowCount() throws Exception {
    String right = BIG_SPENDERS.replace("> 100)", ">= 100)");
    EquivalenceResult r = EquivalenceCheckerTest.assertRejected(QUANTITIES, BIG_SPENDERS, right);
    assertThat(r.summary()).contains("a threshold of a comparison over aggregates");
  }

  /**
   * TPC-DS q47/q57/q89's shape: a group's relative deviation from its partition's average. With two groups in a
   * partition the boundary {@code abs(s - a) / a = 0.1} puts {@code s} at 11/9 or 9/11 of the other group's total,
   * which neither the seed's grid nor one ten times finer meets; the grids nine and eleven times finer do (tried
   * after every cell was moved).
   */
  @Test
  void aRelativeDeviationFromAPartitionsAverageIsMetOnAGridNineOrElevenTimesFiner() throws Exception {
    String left = "SELECT * FROM (SELECT sa_item, sa_store, sum(sa_paid) AS s, avg(sum(sa_paid)) OVER (PARTITION BY "
        + "sa_store) AS a FROM sale GROUP BY sa_item, sa_store) AS t WHERE CASE WHEN a > 0 THEN abs(s - a) / a ELSE "
        + "NULL END > 0.1";
    String right = left.replace("> 0.1", ">= 0.1");
    EquivalenceResult r = EquivalenceCheckerTest.assertRejected(QUANTITIES, left, right);
    assertThat(r.summary()).as(r.summary()).containsPattern("every measure times (9|11) \\(a finer grid\\)");
  }
}
