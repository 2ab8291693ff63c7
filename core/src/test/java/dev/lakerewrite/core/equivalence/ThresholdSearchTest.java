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
}
