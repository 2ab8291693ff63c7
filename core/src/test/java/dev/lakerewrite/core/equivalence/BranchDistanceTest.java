package dev.lakerewrite.core.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import org.junit.jupiter.api.Test;

/**
 * Comparisons put exactly on their boundary by the engine's own measure of them where they are evaluated ({@link
 * BranchDistance}): a CASE over a scalar subquery's average, and a coefficient of variation of one month that only
 * a group of four rows puts on a decimal bound ({@link ThresholdSearch#fourPerGroup}), reached only when another month
 * passes the same bound, and telling the queries apart only when it does. Each mutant is rejected with a
 * counterexample that really separates the queries, and is missed without the search.
 */
class BranchDistanceTest {
  static final String SCHEMA = """
      CREATE TABLE item (i_sk INTEGER PRIMARY KEY, i_brand VARCHAR NOT NULL, i_category VARCHAR NOT NULL,
        i_price DECIMAL(7,2) NOT NULL);
      CREATE TABLE sale (sa_ticket INTEGER NOT NULL, sa_item INTEGER NOT NULL REFERENCES item (i_sk),
        sa_month INTEGER NOT NULL, sa_qty INTEGER NOT NULL, sa_paid DECIMAL(7,2) NOT NULL,
        PRIMARY KEY (sa_ticket, sa_item));
      CREATE TABLE ret (r_ticket INTEGER NOT NULL, r_item INTEGER NOT NULL, r_amt DECIMAL(7,2) NOT NULL,
        PRIMARY KEY (r_ticket, r_item));
      """;

  /** A bucket chosen by a scalar subquery's average: no instance's answer depends on it until one sits on 5. */
  static final String BUCKET = "SELECT CASE WHEN (SELECT avg(sa_qty) FROM sale) > 5 THEN 'many' ELSE 'few' END AS b";

  /**
   * TPC-DS q39's shape: items whose stock varies more than its mean in two consecutive months, joined; the first
   * month's bound made inclusive differs only where its coefficient of variation is exactly 1 and the second's above.
   */
  static final String VARIATION = "WITH v AS (SELECT sa_item, sa_month, stddev_samp(sa_qty) AS sd, avg(sa_qty) AS mean "
      + "FROM sale GROUP BY sa_item, sa_month) SELECT a.sa_item, a.mean, b.mean FROM v a, v b WHERE a.sa_item = "
      + "b.sa_item AND a.sa_month = 1 AND b.sa_month = 2 AND a.sd / a.mean > 1 AND b.sd / b.mean > 1";

  /**
   * The same bound inside the CTE, as q39a has it: a month on the bound enters the CTE, but the answer shows it only
   * when the other month's coefficient of variation is moved above the bound too (the boundary kept).
   */
  static final String VARIATION_IN_CTE = "WITH v AS (SELECT sa_item, sa_month, avg(sa_qty) AS mean FROM sale GROUP BY "
      + "sa_item, sa_month HAVING stddev_samp(sa_qty) / avg(sa_qty) > 1) SELECT a.sa_item, a.mean, b.mean FROM v a, v "
      + "b WHERE a.sa_item = b.sa_item AND a.sa_month = 1 AND b.sa_month = 2";

  @Test
  void aComparisonIsPutOnItsBoundaryWhereverItIsEvaluated() throws Exception {
    String[][] pairs = {
      {BUCKET, BUCKET.replace("> 5", ">= 5")},
      // The first month's group reached by moving the second month's above the bound.
      {VARIATION, VARIATION.replace("a.sd / a.mean > 1", "a.sd / a.mean >= 1")},
      // The other month's group moved above the bound once the first sits on it.
      {VARIATION_IN_CTE, VARIATION_IN_CTE.replace("> 1)", ">= 1)")},
    };
    assertOnlyTheSearchRejects(pairs);
  }

  /** Items one sale in four of which is returned: a ratio of counts that only copies of a sale move. */
  static final String RETURN_RATE = "SELECT sa_item, count(r_ticket) * 1.0 / count(*) AS rate FROM sale LEFT JOIN ret "
      + "ON sa_ticket = r_ticket AND sa_item = r_item GROUP BY sa_item HAVING count(r_ticket) * 1.0 / count(*) > 0.25";

  /**
   * A brand's share of its category: 1 wherever a category holds one brand, so only a second brand in it (an item
   * copied with its sales, another brand) moves it, and 0.3 of two sums of cents needs a grid 60 times finer.
   */
  static final String SHARE = "SELECT * FROM (SELECT i_category, i_brand, sum(sa_paid) / sum(sum(sa_paid)) OVER "
      + "(PARTITION BY i_category) AS share FROM sale JOIN item ON sa_item = i_sk WHERE sa_qty > 0 GROUP BY i_category, "
      + "i_brand) t WHERE share >= 0.3";

  /** December's share of an item's sales: a group of December and other months' sales, on a finer grid. */
  static final String DECEMBER = "SELECT sa_item FROM sale GROUP BY sa_item HAVING sum(sa_paid) > 0 AND "
      + "sum(CASE WHEN sa_month = 12 THEN sa_paid ELSE 0 END) > 0.4 * sum(sa_paid)";

  /**
   * Sales kept unless half their price came back: the comparison sits in a correlated NOT EXISTS (probed with the
   * outer block joined to it) over returns no witness holds (a return joined to the sale added first).
   */
  static final String KEPT = "SELECT sa_ticket, sa_item FROM sale WHERE sa_paid > 5 AND NOT EXISTS (SELECT 1 FROM ret "
      + "WHERE r_ticket = sa_ticket AND r_item = sa_item AND r_amt >= 0.5 * sa_paid)";

  /**
   * Items sold over more than a month: a date against a date plus an interval (a timestamp), measured in days between
   * their epochs, between a CTE's smallest and largest date.
   */
  static final String SPAN = "WITH span AS (SELECT sa_item, min(sa_date) AS first_day, max(sa_date) AS last_day FROM "
      + "sale GROUP BY sa_item) SELECT sa_item FROM span WHERE last_day > first_day + INTERVAL 30 DAY";

  /**
   * {@link #SCHEMA} with a sale's date: a schema of its own, as a column more changes the instances generated at random
   * for the other pairs (one of which then finds {@link #RETURN_RATE}'s mutant without the search).
   */
  static final String DATED_SCHEMA = SCHEMA.replace("sa_paid DECIMAL(7,2) NOT NULL,",
      "sa_paid DECIMAL(7,2) NOT NULL, sa_date DATE NOT NULL,");

  @Test
  void datesPlusAnIntervalAreMeasuredInDays() throws Exception {
    String right = SPAN.replace("last_day > first_day", "last_day >= first_day");
    EquivalenceResult r = EquivalenceCheckerTest.assertRejected(DATED_SCHEMA, SPAN, right);
    assertThat(r.counterexample().orElseThrow().instance()).as(r.summary()).contains("on the boundary of");
    try (EquivalenceChecker without = EquivalenceChecker.builder().schema(DATED_SCHEMA).branchDistanceTrials(0)
        .build()) {
      EquivalenceResult missed = without.check(SPAN, right);
      assertThat(missed.verdict()).as("without the search: %s", missed.summary()).isEqualTo(Verdict.EQUIVALENT);
    }
  }

  @Test
  void wholeRowsAreMovedWhereNoCellMovesTheComparison() throws Exception {
    String[][] pairs = {
      // How many copies a sale has is the variable: one return among four sales.
      {RETURN_RATE, RETURN_RATE.replace("> 0.25", ">= 0.25")},
      // A copy of the item under another brand, then its sale's price moved on a finer grid.
      {SHARE, SHARE.replace(">= 0.3", "> 0.3")},
      // A copy of the sale in another month, then the December sale's price moved on a finer grid.
      {DECEMBER, DECEMBER.replace("> 0.4 *", ">= 0.4 *")},
      // A return added beside the sale, then its amount moved.
      {KEPT, KEPT.replace("r_amt >= 0.5", "r_amt > 0.5")},
    };
    assertOnlyTheSearchRejects(pairs);
  }

  @Test
  void theSameBoundaryWrittenAnotherWayStaysEquivalent() throws Exception {
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult r = checker.check(BUCKET, BUCKET.replace("(SELECT avg(sa_qty) FROM sale) > 5",
          "(SELECT avg(sa_qty) FROM sale) - 5 > 0"));
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(r.evidence().checks()).as(r.summary()).anyMatch(c -> c.instance().contains("on the boundary of"));
    }
  }

  /** Each pair is rejected on a boundary the branch distance found, and accepted with the search turned off. */
  private static void assertOnlyTheSearchRejects(String[][] pairs) throws Exception {
    try (EquivalenceChecker without = EquivalenceChecker.builder().schema(SCHEMA).branchDistanceTrials(0).build()) {
      for (String[] p : pairs) {
        EquivalenceResult r = EquivalenceCheckerTest.assertRejected(SCHEMA, p[0], p[1]);
        assertThat(r.counterexample().orElseThrow().instance()).as(r.summary()).contains("on the boundary of");
        EquivalenceResult missed = without.check(p[0], p[1]);
        assertThat(missed.verdict()).as("without the search: %s", missed.summary()).isEqualTo(Verdict.EQUIVALENT);
      }
    }
  }
}
