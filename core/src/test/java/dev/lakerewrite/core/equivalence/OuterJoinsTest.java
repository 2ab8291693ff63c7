package dev.lakerewrite.core.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import org.junit.jupiter.api.Test;

/**
 * An outer join whose padded rows a filter above rejects is an inner join ({@link OuterJoins}): the checker proves
 * such pairs equivalent from their normal forms, and leaves alone every join whose padded rows can reach the
 * result — those pairs it tells apart with a counterexample.
 */
class OuterJoinsTest {
  static final String SCHEMA = """
      CREATE TABLE sale (s_id INTEGER PRIMARY KEY, s_item INTEGER NOT NULL, s_qty INTEGER NOT NULL);
      CREATE TABLE ret (r_sale INTEGER PRIMARY KEY, r_qty INTEGER, r_reason VARCHAR);
      CREATE TABLE item (i_id INTEGER PRIMARY KEY, i_category VARCHAR NOT NULL);
      """;

  @Test
  void anOuterJoinWhosePaddedRowsAFilterRejectsIsProvedInner() {
    String[][] pairs = {
      // A comparison with a constant in the WHERE.
      {"SELECT s_id FROM sale LEFT JOIN ret ON r_sale = s_id WHERE r_reason = 'damaged'",
       "SELECT s_id FROM sale JOIN ret ON r_sale = s_id WHERE r_reason = 'damaged'"},
      // TPC-DS q78: COALESCE(x, 0) > 0 is FALSE when x is NULL; the padded side is a derived table.
      {"SELECT s_id, q FROM sale LEFT JOIN (SELECT r_sale, sum(r_qty) AS q FROM ret GROUP BY r_sale) AS r "
           + "ON r.r_sale = s_id WHERE COALESCE(q, 0) > 0",
       "SELECT s_id, q FROM sale JOIN (SELECT r_sale, sum(r_qty) AS q FROM ret GROUP BY r_sale) AS r "
           + "ON r.r_sale = s_id WHERE COALESCE(q, 0) > 0"},
      // TPC-DS q72: the ON of an inner join above compares the padded side's column with another table's.
      {"SELECT s_id FROM (sale LEFT JOIN ret ON r_sale = s_id) JOIN item ON i_id = r_qty",
       "SELECT s_id FROM (sale JOIN ret ON r_sale = s_id) JOIN item ON i_id = r_qty"},
      // A RIGHT join, and a conjunct that reads the other side too.
      {"SELECT s_id FROM ret RIGHT JOIN sale ON r_sale = s_id WHERE r_qty < s_qty",
       "SELECT s_id FROM ret JOIN sale ON r_sale = s_id WHERE r_qty < s_qty"},
    };
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      for (String[] p : pairs) {
        EquivalenceResult r = checker.check(p[0], p[1]);
        assertThat(r.verdict()).as(p[0] + ": " + r.summary()).isEqualTo(Verdict.EQUIVALENT);
        assertThat(r.proved()).as(p[0] + ": " + r.summary()).isTrue();
      }
    }
  }

  @Test
  void anOuterJoinWhosePaddedRowsCanReachTheResultIsLeftAlone() throws Exception {
    String inner = "SELECT s_id FROM sale JOIN ret ON r_sale = s_id";
    String[] lefts = {
      // IS NULL keeps exactly the padded rows.
      "SELECT s_id FROM sale LEFT JOIN ret ON r_sale = s_id WHERE r_reason IS NULL OR r_qty > 0",
      // COALESCE(x, 1) > 0 is TRUE on a padded row.
      "SELECT s_id FROM sale LEFT JOIN ret ON r_sale = s_id WHERE COALESCE(r_qty, 1) > 0",
      // An OR whose other disjunct reads the preserved side.
      "SELECT s_id FROM sale LEFT JOIN ret ON r_sale = s_id WHERE r_qty > 0 OR s_qty > 0",
      // The ON of an outer join above, on its preserved side: a row it rejects comes back padded.
      "SELECT s_id FROM (sale LEFT JOIN ret ON r_sale = s_id) LEFT JOIN item ON i_id = r_qty",
    };
    String[] inners = {
      inner + " WHERE r_reason IS NULL OR r_qty > 0",
      inner + " WHERE COALESCE(r_qty, 1) > 0",
      inner + " WHERE r_qty > 0 OR s_qty > 0",
      "SELECT s_id FROM (sale JOIN ret ON r_sale = s_id) LEFT JOIN item ON i_id = r_qty",
    };
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      for (int i = 0; i < lefts.length; i++) {
        EquivalenceResult r = checker.check(lefts[i], inners[i]);
        assertThat(r.verdict()).as(lefts[i] + ": " + r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), lefts[i], inners[i]);
      }
    }
  }
}
