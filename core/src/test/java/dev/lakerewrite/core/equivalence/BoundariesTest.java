package dev.lakerewrite.core.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Comparisons no value chosen column by column sits on: a value computed from a row's cells against a bound
 * ({@link Boundaries}), a scalar subquery's count against a constant, a window's tie-free order over grouped rows, and
 * a function of a column equal to the same function of another. Every mutant is separated by a counterexample that
 * really differs, and the first two need the mechanism under test (missed without it).
 */
class BoundariesTest {
  static final String SCHEMA = """
      CREATE TABLE household (hd_sk INTEGER PRIMARY KEY, hd_dep INTEGER NOT NULL, hd_vehicle INTEGER NOT NULL);
      CREATE TABLE clock (t_sk INTEGER PRIMARY KEY, t_hour INTEGER NOT NULL, t_minute INTEGER NOT NULL);
      CREATE TABLE sale (sa_ticket INTEGER NOT NULL, sa_item INTEGER NOT NULL, sa_hd INTEGER NOT NULL,
        sa_brand VARCHAR NOT NULL, sa_month INTEGER NOT NULL, sa_qty INTEGER NOT NULL, sa_paid DECIMAL(7,2) NOT NULL,
        PRIMARY KEY (sa_ticket, sa_item));
      CREATE TABLE shop (s_sk INTEGER PRIMARY KEY, s_name VARCHAR NOT NULL, s_zip VARCHAR NOT NULL);
      CREATE TABLE address (a_sk INTEGER PRIMARY KEY, a_zip VARCHAR NOT NULL);
      CREATE TABLE cust (c_sk INTEGER PRIMARY KEY, c_addr INTEGER NOT NULL, c_pref VARCHAR NOT NULL);
      """;

  /** TPC-DS q34/q73's shape: dependants per vehicle above a ratio, and minutes past midnight from a clock. */
  static final String RATIO = "SELECT count(*) FROM sale, household WHERE sa_hd = hd_sk AND hd_vehicle > 0 "
      + "AND hd_dep / hd_vehicle > 1.2";
  static final String MINUTES = "SELECT count(*) FROM clock WHERE t_hour * 60 + t_minute >= 600";

  @Test
  void aValueComputedFromARowsCellsIsPutExactlyOnItsBound() throws Exception {
    String[][] pairs = {
      {RATIO, RATIO.replace("> 1.2", ">= 1.2")},
      {RATIO, RATIO.replace("> 1.2", "> 1.25")},
      {MINUTES, MINUTES.replace(">= 600", "> 600")},
      {MINUTES, MINUTES.replace(">= 600", ">= 601")},
      {"SELECT count(*) FROM sale WHERE round(sa_paid * 10) = 55",
       "SELECT count(*) FROM sale WHERE round(sa_paid * 10) = 56"},
    };
    List<String> missedWithout = new ArrayList<>();
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build();
         EquivalenceChecker without = EquivalenceChecker.builder().schema(SCHEMA).thresholdTrials(0).build()) {
      for (String[] p : pairs) {
        assertSeparated(checker, p[0], p[1]);
        if (without.check(p[0], p[1]).verdict() == Verdict.EQUIVALENT) {
          missedWithout.add(p[1]);
        }
      }
      EquivalenceResult same = checker.check(RATIO, RATIO.replace("hd_dep / hd_vehicle > 1.2",
          "hd_dep > 1.2 * hd_vehicle"));
      assertThat(same.verdict()).as(same.summary()).isEqualTo(Verdict.EQUIVALENT);
    }
    assertThat(missedWithout).as("mutants only a row on the bound separates")
        .contains(RATIO.replace("> 1.2", ">= 1.2"), MINUTES.replace(">= 600", "> 600"));
  }

  @Test
  void aScalarSubquerysCountGetsAGroupOfItsThresholdsSize() throws Exception {
    String left = "SELECT CASE WHEN (SELECT count(*) FROM sale WHERE sa_qty BETWEEN 1 AND 20) > 300 THEN 'many' "
        + "ELSE 'few' END AS bucket";
    String right = left.replace("> 300", ">= 300");
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult r = assertSeparated(checker, left, right);
      assertThat(r.counterexample().orElseThrow().rowCount()).isGreaterThanOrEqualTo(300);
    }
  }

  @Test
  void aWindowOrderedOverEveryGroupedColumnHasNoTies() throws Exception {
    String left = "SELECT * FROM (SELECT sa_brand, sa_month, sum(sa_paid) AS s, lag(sum(sa_paid)) OVER (PARTITION BY "
        + "sa_brand ORDER BY sa_month) AS prev FROM sale GROUP BY sa_brand, sa_month) t WHERE s > prev";
    String right = left.replace("s > prev", "s >= prev");
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult r = assertSeparated(checker, left, right);
      assertThat(r.nondeterministic()).as(r.summary()).isFalse();
      // Ordered by the month alone over rows not grouped by it, ties remain: not a difference.
      EquivalenceResult ties = checker.check("SELECT sa_brand, lag(sa_paid) OVER (PARTITION BY sa_brand ORDER BY "
          + "sa_month) AS prev FROM sale", "SELECT sa_brand, lag(sa_paid) OVER (PARTITION BY sa_brand ORDER BY "
          + "sa_month DESC) AS prev FROM sale");
      assertThat(ties.nondeterministic()).as(ties.summary()).isTrue();
      // Ordered by a price and then the table's primary key: no ties either.
      String quartiles = "SELECT sa_ticket, ntile(4) OVER (ORDER BY sa_paid, sa_ticket, sa_item) AS q FROM sale";
      EquivalenceResult keyed = checker.check(quartiles, quartiles.replace("ntile(4)", "ntile(3)"));
      assertThat(keyed.nondeterministic()).as(keyed.summary()).isFalse();
      assertThat(keyed.verdict()).as(keyed.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    }
  }

  @Test
  void nullifsConstantIsAValueInstancesTake() throws Exception {
    String left = "SELECT sa_brand, sum(sa_paid) / nullif(sum(sa_qty), 0) AS price FROM sale GROUP BY sa_brand";
    String right = "SELECT sa_brand, sum(sa_paid) / sum(sa_qty) AS price FROM sale GROUP BY sa_brand";
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      assertSeparated(checker, left, right);
    }
  }

  @Test
  void theSameFunctionOfTwoColumnsJoinsThem() throws Exception {
    String left = "SELECT s_name FROM shop, address WHERE substr(s_zip, 1, 2) = substr(a_zip, 1, 2) "
        + "AND substr(a_zip, 1, 5) IN ('24128', '76232')";
    String right = left.replace("'76232'", "'76233'");
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      assertSeparated(checker, left, right);
      EquivalenceResult same = checker.check(left, "SELECT * FROM (" + left + ") AS same");
      assertThat(same.evidence().checks()).as(same.summary()).anyMatch(c -> c.originalRows() > 0);
    }
  }

  /**
   * TPC-DS q8's shape: zip codes of a list that more than three preferred customers live at (a prefix of the zip as
   * a derived table's output, intersected), joined to shops by the zips' first two characters. Only a witness whose
   * customers are copied to the count's size returns a row.
   */
  static final String ZIPS = "SELECT s_name FROM shop, (SELECT zip FROM (SELECT substr(a_zip, 1, 5) AS zip "
      + "FROM address WHERE substr(a_zip, 1, 5) IN ('24128', '76232') INTERSECT SELECT zip FROM (SELECT "
      + "substr(a_zip, 1, 5) AS zip, count(*) AS cnt FROM address, cust WHERE a_sk = c_addr AND c_pref = 'Y' GROUP BY "
      + "zip HAVING count(*) > 3) a1) a2) v1 WHERE substr(s_zip, 1, 2) = substr(v1.zip, 1, 2)";

  @Test
  void aWitnessGrownToACountsThresholdReachesAPrefixJoin() throws Exception {
    String[] mutants = {ZIPS.replace(" AND c_pref = 'Y'", ""), ZIPS.replace("count(*) > 3", "count(*) >= 3")};
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult same = checker.check(ZIPS, "SELECT * FROM (" + ZIPS + ") AS same");
      assertThat(same.evidence().checks()).as(same.summary())
          .anyMatch(c -> c.instance().contains("(a count compared with 3)") && c.originalRows() > 0);
      for (String right : mutants) {
        assertSeparated(checker, ZIPS, right);
      }
    }
  }

  /** Checks the pair, asserts NOT_EQUIVALENT and that the counterexample really separates the two queries. */
  static EquivalenceResult assertSeparated(EquivalenceChecker checker, String left, String right) throws Exception {
    EquivalenceResult r = checker.check(left, right);
    assertThat(r.verdict()).as("%s: %s", right, r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), left, right);
    return r;
  }
}
