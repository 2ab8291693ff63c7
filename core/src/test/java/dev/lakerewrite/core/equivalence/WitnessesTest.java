package dev.lakerewrite.core.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Witnesses make a query with many joins and constant filters return rows — a table read twice with two different
 * filters, a CTE read twice with a constant per UNION branch — so that its mutants can be told from it; the
 * instances the checker had before (one row per table, its boundaries, random rows) leave such queries empty.
 */
class WitnessesTest {
  static final String SCHEMA = """
      CREATE TABLE dates (d_sk INTEGER PRIMARY KEY, d_year INTEGER NOT NULL, d_moy INTEGER NOT NULL);
      CREATE TABLE item (i_sk INTEGER PRIMARY KEY, i_category VARCHAR NOT NULL, i_brand VARCHAR NOT NULL);
      CREATE TABLE store (s_sk INTEGER PRIMARY KEY, s_state VARCHAR NOT NULL);
      CREATE TABLE sales (sa_item INTEGER NOT NULL REFERENCES item (i_sk), sa_ticket INTEGER NOT NULL,
        sa_sold INTEGER NOT NULL, sa_shipped INTEGER NOT NULL, sa_store INTEGER NOT NULL, sa_qty INTEGER NOT NULL,
        PRIMARY KEY (sa_item, sa_ticket));
      CREATE TABLE web (w_item INTEGER NOT NULL, w_order INTEGER NOT NULL, w_sold INTEGER NOT NULL,
        w_qty INTEGER NOT NULL, PRIMARY KEY (w_item, w_order));
      CREATE TABLE ret (r_item INTEGER NOT NULL, r_ticket INTEGER NOT NULL, r_qty INTEGER NOT NULL,
        PRIMARY KEY (r_item, r_ticket));
      """;

  /** Five table occurrences, four tables: sales, the sale's date and ship date, its item and store. */
  static final String SHIPPED = "SELECT i_brand, s_state, sum(sa_qty) AS qty FROM sales, dates d1, dates d2, item, "
      + "store WHERE sa_sold = d1.d_sk AND sa_shipped = d2.d_sk AND d1.d_year = 2001 AND d2.d_year = 2002 AND "
      + "d1.d_moy BETWEEN 4 AND 6 AND sa_item = i_sk AND i_category IN ('Books', 'Music') AND sa_store = s_sk AND "
      + "s_state LIKE 'T%' GROUP BY i_brand, s_state";

  /** A CTE read twice, each time keeping one UNION branch (by its constant) and one year. */
  static final String CHANNELS = "WITH totals AS (SELECT sa_item AS item, d_year AS yr, sum(sa_qty) AS total, "
      + "'s' AS channel FROM sales, dates WHERE sa_sold = d_sk GROUP BY sa_item, d_year UNION ALL SELECT w_item, "
      + "d_year, sum(w_qty), 'w' FROM web, dates WHERE w_sold = d_sk GROUP BY w_item, d_year) "
      + "SELECT a.item, a.total, b.total FROM totals a, totals b WHERE a.item = b.item AND a.channel = 's' AND "
      + "b.channel = 'w' AND a.yr = 2001 AND b.yr = 2002";

  @Test
  void aWitnessMakesAFourTableJoinWithConstantFiltersReturnRows() {
    for (String query : new String[] {SHIPPED, CHANNELS, NEIGHBOURS}) {
      try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
        EquivalenceResult r = checker.check(query, "SELECT * FROM (" + query + ") AS same");
        // The witness itself for the joins; for the neighbouring ranks, the witness whose three occurrences of
        // each table differ (three months, one partition).
        assertThat(r.evidence().checks()).as(r.summary())
            .anyMatch(c -> c.instance().contains("a witness of query 1") && c.originalRows() > 0);
      }
    }
  }

  /**
   * A scalar subquery that filters a table by constants ({@code d_year = (SELECT d_year FROM dates WHERE d_moy =
   * 12)}, as TPC-DS q14b's {@code d_week_seq = (SELECT d_week_seq FROM date_dim WHERE d_year = 2000 AND d_moy =
   * 12 AND d_dom = 11)}) must keep returning one row on the witnesses: the other occurrences of the table and the
   * copies of the witness used to meet its constants too (the base row's values), and the query failed on every
   * witness ("More than one row returned by a subquery").
   */
  @Test
  void witnessesKeepAScalarSubqueryOnTheirTableToOneRow() {
    String query = "SELECT i_brand, sum(sa_qty) AS qty FROM sales, dates, item WHERE sa_sold = d_sk AND sa_item = i_sk "
        + "AND d_year = (SELECT d_year FROM dates WHERE d_moy = 12) AND i_category = 'Books' GROUP BY i_brand";
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult r = checker.check(query, "SELECT * FROM (" + query + ") AS same");
      // The witnesses themselves, not the mutation search's edits of them nor two of them side by side (which may
      // well give d_moy = 12 twice).
      List<InstanceCheck> witnesses = r.evidence().checks().stream()
          .filter(c -> c.instance().contains("witness") && !c.instance().contains(" set to ")
              && !c.instance().contains(" copied") && !c.instance().contains(" beside ")).toList();
      assertThat(witnesses).as(r.summary()).hasSizeGreaterThan(5);
      assertThat(witnesses).as(() -> witnesses.stream().filter(c -> c.detail().contains("More than one row"))
          .map(InstanceCheck::instance).toList().toString()).noneMatch(c -> c.detail().contains("More than one row"));
      assertThat(witnesses).anyMatch(c -> c.instance().contains("a witness of query 1") && c.originalRows() > 0);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.EQUIVALENT);
    }
  }

  /**
   * Three consecutive groups of one partition, read as a CTE three times and matched on their rank ({@code rn =
   * rn ± 1} over a window, as TPC-DS q47/q57 compare a month with the months before and after it).
   */
  static final String NEIGHBOURS = "WITH v1 AS (SELECT i_category, i_brand, d_year, d_moy, sum(sa_qty) AS total, "
      + "rank() OVER (PARTITION BY i_category, i_brand ORDER BY d_year, d_moy) AS rn FROM item, sales, dates "
      + "WHERE sa_item = i_sk AND sa_sold = d_sk AND d_year = 2001 GROUP BY i_category, i_brand, d_year, d_moy) "
      + "SELECT v1.i_category, v1.i_brand, v1.d_moy, v1.total, lag.total AS psum, lead.total AS nsum FROM v1, "
      + "v1 lag, v1 lead WHERE v1.i_category = lag.i_category AND v1.i_category = lead.i_category AND "
      + "v1.i_brand = lag.i_brand AND v1.i_brand = lead.i_brand AND v1.rn = lag.rn + 1 AND v1.rn = lead.rn - 1";

  static final String[][] MUTANTS = {
    {SHIPPED, SHIPPED.replace("d1.d_moy BETWEEN 4 AND 6", "d1.d_moy BETWEEN 5 AND 6")},
    {SHIPPED, SHIPPED.replace("d1.d_moy BETWEEN 4 AND 6", "d1.d_moy BETWEEN 4 AND 7")},
    {SHIPPED, SHIPPED.replace("d2.d_year = 2002", "d2.d_year = 2003")},
    {SHIPPED, SHIPPED.replace(" AND s_state LIKE 'T%'", "")},
    {CHANNELS, CHANNELS.replace("b.yr = 2002", "b.yr = 2003")},
    {CHANNELS, CHANNELS.replace("b.yr = 2002", "b.yr >= 2002")},
    {NEIGHBOURS, NEIGHBOURS.replace("v1.rn = lead.rn - 1", "v1.rn = lead.rn + 1")},
    {NEIGHBOURS, NEIGHBOURS.replace("v1.rn = lag.rn + 1", "v1.rn = lag.rn + 2")},
  };

  /**
   * With witnesses every mutant is rejected, by a counterexample on which the two queries really differ; without
   * them (the same budget of instances), the rank matched two apart survives: one group per partition has no
   * neighbours. (The boundary moved inside the sale date's month range survived without them too until random
   * instances were drawn by their ordinal: one of the new draws passes both date filters.)
   */
  @Test
  void witnessesSeparateMutantsTheOtherInstancesMiss() throws Exception {
    java.util.List<Integer> missedWithout = new java.util.ArrayList<>();
    // The mutation search (which also starts from witnesses) is off in both: what is measured is the witnesses.
    try (EquivalenceChecker with = EquivalenceChecker.builder().schema(SCHEMA).mutationTrials(0).build();
         EquivalenceChecker without = EquivalenceChecker.builder().schema(SCHEMA).witnesses(false).mutationTrials(0)
             .build()) {
      for (int i = 0; i < MUTANTS.length; i++) {
        String left = MUTANTS[i][0];
        String right = MUTANTS[i][1];
        EquivalenceResult r = with.check(left, right);
        assertThat(r.verdict()).as("mutant #%d: %s", i, r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), left, right);
        if (without.check(left, right).verdict() != Verdict.NOT_EQUIVALENT) {
          missedWithout.add(i);
        }
      }
    }
    assertThat(missedWithout).contains(7);
  }

  /**
   * TPC-DS q85's shape: an OR of disjuncts that each compare the same columns, one conjunct dropped from the last
   * disjunct. The left query's witnesses all meet the dropped conjunct, and so do the right query's where the
   * column it no longer reads keeps the base row's value; the right query's witness of that disjunct with its free
   * columns outside every constant compared with them is its own (no witness of the left query has its rows), comes
   * first among its variants, and the left query returns nothing on it. (On a query this small a boundary of the
   * left query's witness tells the two apart as well; TPC-DS q85's three ORs push those past the cap.)
   */
  @Test
  void theOtherQuerysWitnessWithItsFreeColumnsOutsideTheConstantsFindsADroppedConjunct() throws Exception {
    String left = "SELECT s_state, count(*) AS n FROM sales, item, store WHERE sa_item = i_sk AND sa_store = s_sk "
        + "AND ((i_category = 'Books' AND s_state = 'TX' AND sa_qty BETWEEN 100 AND 200) OR (i_category = 'Music' "
        + "AND s_state = 'OH' AND sa_qty BETWEEN 150 AND 300) OR (i_category = 'Music' AND s_state = 'LA' "
        + "AND sa_qty BETWEEN 50 AND 250)) GROUP BY s_state";
    String right = left.replace("s_state = 'LA' AND sa_qty BETWEEN 50 AND 250", "s_state = 'LA'");
    Schema schema = DuckDbCatalog.load(SCHEMA).schema();
    try (java.sql.Connection scratch = DuckDbWorkspace.scratch()) {
      TargetedInstancesTest.Setup setup = TargetedInstancesTest.Setup.of(schema, scratch, left, right);
      List<Schema.Table> tables = setup.tables();
      List<Database> instances = TargetedInstances.plan(tables, setup.domains(), setup.facts(), scratch, true)
          .instances();
      Database own = instances.stream().filter(d -> d.name().contains("a witness of query 2 where disjunct 3 of OR "
          + "#1 holds whose free columns miss every constant") && d.name().contains(Witnesses.OWN)).findFirst()
          .orElseThrow(() -> new AssertionError(instances.stream().map(Database::name).toList()));
      // Among the right query's variants it comes with its own ones, before every other witness of query 2 but its
      // leading witness (its disjunct's boundary copies, whose free numbers are scaled apart, are its own too).
      List<String> rightsVariants = instances.stream().map(Database::name)
          .filter(n -> n.contains("query 2") && !n.startsWith("a witness of query 2 (")).toList();
      assertThat(rightsVariants.subList(0, rightsVariants.indexOf(own.name()) + 1))
          .as(String.join("\n", rightsVariants)).allMatch(n -> n.contains(Witnesses.OWN));
      try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:duckdb:");
           java.sql.Statement st = db.createStatement()) {
        st.execute(SCHEMA);
        for (Schema.Table t : tables) {
          if (!own.rows(t).isEmpty()) {
            st.execute(Counterexample.insert(t, own.rows(t)));
          }
        }
        assertThat(count(st, right)).as(own.name()).isPositive();
        assertThat(count(st, left)).as(own.name()).isZero();
      }
    }
  }

  private static long count(java.sql.Statement st, String query) throws java.sql.SQLException {
    try (java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FROM (" + query + ") AS q")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The joins of {@link #SHIPPED}, its groups kept only when their sum passes a threshold. */
  static final String THRESHOLD = SHIPPED + " HAVING sum(sa_qty) > 40";

  /**
   * An aggregate compared with a constant ({@code HAVING sum(sa_qty) > 40}) constrains the aggregated column: the
   * witness (one row per group, whose sum is its value) passes the threshold, and its boundary variants put the
   * group's sum at, just below and just above it; the threshold moved by one, made inclusive or flipped is
   * rejected. (On this small schema the instances before this rule reject these three as well — the witness's
   * copy with doubled numbers crosses the threshold — so this test guards the rule rather than shows its gain.)
   */
  @Test
  void aWitnessGroupCrossesTheThresholdItsAggregateIsComparedWith() throws Exception {
    String[] mutants = {THRESHOLD.replace("> 40", "> 41"), THRESHOLD.replace("> 40", ">= 40"),
        THRESHOLD.replace("> 40", "< 40")};
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult same = checker.check(THRESHOLD, "SELECT * FROM (" + THRESHOLD + ") AS same");
      assertThat(same.verdict()).as(same.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(same.evidence().checks()).as(same.summary())
          .anyMatch(c -> c.instance().contains("a witness of query 1") && c.originalRows() > 0);
      for (String right : mutants) {
        EquivalenceResult r = checker.check(THRESHOLD, right);
        assertThat(r.verdict()).as("%s: %s", right, r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), THRESHOLD, right);
      }
    }
  }

  /**
   * Two columns compared with each other ({@code d2.d_moy < d1.d_moy}, the ship month before the sale month, as
   * TPC-DS q72 compares a quantity on hand with a quantity sold): the witness's month of shipping moves just below
   * the month of sale, so the query returns rows (before, no witness did: both months took the base row's), and a
   * variant puts it just below, at and just above; a comparison made inclusive or flipped is rejected.
   */
  @Test
  void columnsComparedWithEachOtherGetValuesOnBothSidesAndEqual() throws Exception {
    String ordered = SHIPPED.replace(" GROUP BY", " AND d2.d_moy < d1.d_moy GROUP BY");
    String[] mutants = {ordered.replace("d2.d_moy < d1.d_moy", "d2.d_moy <= d1.d_moy"),
        ordered.replace("d2.d_moy < d1.d_moy", "d2.d_moy > d1.d_moy")};
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult same = checker.check(ordered, "SELECT * FROM (" + ordered + ") AS same");
      assertThat(same.verdict()).as(same.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(same.evidence().checks()).as(same.summary())
          .anyMatch(c -> c.instance().contains("a witness of query 1") && c.originalRows() > 0);
      for (String right : mutants) {
        EquivalenceResult r = checker.check(ordered, right);
        assertThat(r.verdict()).as("%s: %s", right, r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), ordered, right);
      }
    }
  }

  /** Sales never returned (an anti-join: the LEFT join's NULL side must be NULL), under two date filters. */
  static final String UNRETURNED = "SELECT i_brand, sum(sa_qty) AS qty FROM sales LEFT JOIN ret ON r_item = sa_item "
      + "AND r_ticket = sa_ticket JOIN dates d1 ON sa_sold = d1.d_sk JOIN dates d2 ON sa_shipped = d2.d_sk JOIN item "
      + "ON sa_item = i_sk WHERE r_ticket IS NULL AND d1.d_year = 2001 AND d2.d_year = 2002 GROUP BY i_brand";

  /**
   * A column of an outer join's NULL side that must be NULL leaves that occurrence without a row in the witness,
   * so the anti-join returns the sale; the witness used to give it a matching return, and no witness returned a
   * row (the LEFT join made INNER was rejected on another instance). The same query written with NOT EXISTS stays
   * equivalent.
   */
  @Test
  void anAntiJoinsWitnessHasNoRowOnItsNullSide() throws Exception {
    String inner = UNRETURNED.replace("LEFT JOIN ret", "JOIN ret");
    String notExists = "SELECT i_brand, sum(sa_qty) AS qty FROM sales JOIN dates d1 ON sa_sold = d1.d_sk JOIN dates "
        + "d2 ON sa_shipped = d2.d_sk JOIN item ON sa_item = i_sk WHERE NOT EXISTS (SELECT 1 FROM ret WHERE r_item = "
        + "sa_item AND r_ticket = sa_ticket) AND d1.d_year = 2001 AND d2.d_year = 2002 GROUP BY i_brand";
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult r = checker.check(UNRETURNED, inner);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), UNRETURNED, inner);
      EquivalenceResult same = checker.check(UNRETURNED, notExists);
      assertThat(same.verdict()).as(same.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(same.evidence().checks()).as(same.summary())
          .anyMatch(c -> c.instance().contains("a witness of query 1") && c.originalRows() > 0);
    }
  }

  /** Groups kept when one aggregate exceeds a multiple of another (returns against sales of one item, one year). */
  static final String RATIO = "SELECT sa_item, sum(sa_qty) AS sold, sum(r_qty) AS returned FROM sales JOIN ret ON "
      + "r_item = sa_item AND r_ticket = sa_ticket JOIN dates ON sa_sold = d_sk WHERE d_year = 2001 GROUP BY "
      + "sa_item HAVING sum(r_qty) > 2 * sum(sa_qty)";

  /**
   * An aggregate compared with a multiple of another ({@code HAVING sum(r_qty) > 2 * sum(sa_qty)}): over the one
   * row a witness puts in a group each sum is its column's value, so the engine evaluates the comparison for
   * values of a class nothing else constrains; the witness moves it until the comparison holds (before, both took
   * the base row's value and the group never passed), and a variant puts copies at the two values on each side
   * of where it flips (found by stepping out and bisecting), with a copy alone at the values that just meet and
   * just miss it. The factor moved by one, the comparison made inclusive or flipped are rejected, by witnesses
   * alone too (each query's witness meets its own comparison at its first step past the flip: {@code >= 2 *} at
   * the equality, which {@code > 2 *} misses).
   */
  @Test
  void aggregatesComparedWithEachOtherGetGroupsOnBothSidesOfTheComparison() throws Exception {
    String[] mutants = {RATIO.replace("> 2 *", "> 3 *"), RATIO.replace("> 2 *", ">= 2 *"),
        RATIO.replace("> 2 *", "< 2 *")};
    assertSeparatedAtTheFlip(SCHEMA, RATIO, mutants, 1);
  }

  /**
   * A CTE of yearly totals per channel read four times, and the growth of one channel compared with the other's
   * (TPC-DS q11/q74: {@code CASE WHEN w1.total > 0 THEN w2.total / w1.total END > CASE WHEN s1.total > 0 THEN
   * s2.total / s1.total END}).
   */
  static final String GROWTH = "WITH yt AS (SELECT sa_item AS item, d_year AS yr, sum(sa_qty) AS total, 's' AS "
      + "channel FROM sales, dates WHERE sa_sold = d_sk GROUP BY sa_item, d_year UNION ALL SELECT w_item, d_year, "
      + "sum(w_qty), 'w' FROM web, dates WHERE w_sold = d_sk GROUP BY w_item, d_year) SELECT s1.item, s2.total "
      + "FROM yt s1, yt s2, yt w1, yt w2 WHERE s2.item = s1.item AND w1.item = s1.item AND w2.item = s1.item AND "
      + "s1.channel = 's' AND s2.channel = 's' AND w1.channel = 'w' AND w2.channel = 'w' AND s1.yr = 2001 AND "
      + "s2.yr = 2002 AND w1.yr = 2001 AND w2.yr = 2002 AND s1.total > 0 AND w1.total > 0 AND CASE WHEN w1.total "
      + "> 0 THEN w2.total / w1.total ELSE NULL END > CASE WHEN s1.total > 0 THEN s2.total / s1.total ELSE NULL END";

  /**
   * Ratios of sums of four copies of a CTE compared in the outer WHERE: the sums are read through the CTE's
   * outputs (the live UNION branch of each copy) and the comparison is evaluated over them; the witness returns a
   * row and the variants at its flip reject the comparison made inclusive, flipped, and a year moved.
   */
  @Test
  void ratiosOfTwoCteCopiesSumsComparedOutsideGetGroupsOnBothSides() throws Exception {
    String[] mutants = {GROWTH.replace("ELSE NULL END > CASE", "ELSE NULL END >= CASE"),
        GROWTH.replace("ELSE NULL END > CASE", "ELSE NULL END < CASE")};
    assertSeparatedAtTheFlip(SCHEMA, GROWTH, mutants, 1);
  }

  static final String CALENDAR = """
      CREATE TABLE cal (c_sk INTEGER PRIMARY KEY, c_date DATE NOT NULL, c_year INTEGER NOT NULL);
      CREATE TABLE orders (o_id INTEGER PRIMARY KEY, o_sold INTEGER NOT NULL REFERENCES cal (c_sk),
        o_ship INTEGER NOT NULL REFERENCES cal (c_sk), o_qty INTEGER NOT NULL);
      """;

  /** Orders shipped more than five days after their sale (TPC-DS q72's {@code d3.d_date > d1.d_date + 5}). */
  static final String LATE = "SELECT d1.c_year, count(*) AS late FROM orders, cal d1, cal d2 WHERE o_sold = d1.c_sk "
      + "AND o_ship = d2.c_sk AND d1.c_year = 2001 AND d2.c_date > d1.c_date + 5 GROUP BY d1.c_year";

  /**
   * A date compared with another date plus a number of days (or an interval): the ship date moves past the sale
   * date plus five days, and the variant's copies sit at five and six days (and one either side); the days moved
   * by one, the comparison made inclusive and the interval form with its days moved are rejected.
   */
  @Test
  void aDateComparedWithAnotherPlusDaysGetsDatesOnBothSides() throws Exception {
    String interval = LATE.replace("d1.c_date + 5", "d1.c_date + INTERVAL 5 DAY");
    assertSeparatedAtTheFlip(CALENDAR, LATE, new String[] {LATE.replace("+ 5", "+ 6"),
        LATE.replace("d2.c_date > d1", "d2.c_date >= d1")}, 1);
    assertSeparatedAtTheFlip(CALENDAR, interval, new String[] {interval.replace("5 DAY", "4 DAY")}, 1);
  }

  /**
   * Every mutant rejected with a counterexample on which the queries really differ, also with one generated
   * instance and the witnesses on top (at least {@code atWitness} of them first told apart on a witness); the
   * query against itself in another form is EQUIVALENT, and its witness and an instance at the comparison's flip
   * return rows.
   */
  private static void assertSeparatedAtTheFlip(String schema, String query, String[] mutants, int atWitness)
      throws Exception {
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(schema).build()) {
      EquivalenceResult same = checker.check(query, "SELECT * FROM (" + query + ") AS same");
      assertThat(same.verdict()).as(same.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(same.evidence().checks()).as(same.summary())
          .anyMatch(c -> c.instance().contains("a witness of query 1") && c.originalRows() > 0)
          .anyMatch(c -> c.instance().contains("flips") && c.originalRows() > 0);
      for (String right : mutants) {
        EquivalenceResult r = checker.check(query, right);
        assertThat(r.verdict()).as("%s: %s", right, r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), query, right);
      }
    }
    // Witnesses alone (one generated instance before them) tell the mutants apart.
    try (EquivalenceChecker witnesses = EquivalenceChecker.builder().schema(schema).maxInstances(1).build()) {
      int flips = 0;
      for (String right : mutants) {
        EquivalenceResult r = witnesses.check(query, right);
        assertThat(r.verdict()).as("witnesses alone, %s: %s", right, r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), query, right);
        flips += r.evidence().firstDifference().orElseThrow().instance().contains("witness") ? 1 : 0;
      }
      assertThat(flips).as("mutants first told apart on a witness").isGreaterThanOrEqualTo(atWitness);
    }
  }

  static final String PHONES = """
      CREATE TABLE cust (c_id INTEGER PRIMARY KEY, c_phone VARCHAR NOT NULL, c_bal DECIMAL(12, 2) NOT NULL);
      CREATE TABLE ord (o_id INTEGER PRIMARY KEY, o_cust INTEGER NOT NULL REFERENCES cust (c_id));
      """;

  /**
   * TPC-H Q22's shape: customers of some country codes (a function of the phone number compared with a list)
   * whose balance is above the average of those codes' positive balances, without orders.
   */
  static final String ABOVE_AVERAGE = "SELECT substr(c_phone, 1, 2) AS code, count(*) AS n, sum(c_bal) AS total "
      + "FROM cust WHERE substr(c_phone, 1, 2) IN ('13', '31', '23') AND c_bal > (SELECT avg(c_bal) FROM cust "
      + "WHERE c_bal > 0.00 AND substr(c_phone, 1, 2) IN ('13', '31', '23')) AND NOT EXISTS (SELECT * FROM ord "
      + "WHERE o_cust = c_id) GROUP BY code";

  /**
   * A function of one column compared with constants ({@code substr(c_phone, 1, 2) IN ('13', '31', '23')})
   * constrains the column's class: the engine tells which of the column's values meet it, the witness takes one,
   * and its boundary variants take values that miss it. The average's filter dropped is then rejected first on
   * such a variant (a customer of another code averaged in), the filter negated as well. Before, the witness read
   * no such constraint and had no row that misses it (TPC-H Q22's dropped filter survived every instance; on this
   * small schema random instances find it later).
   */
  @Test
  void aFunctionOfAColumnComparedWithConstantsGetsValuesThatMeetAndMissIt() throws Exception {
    String[] mutants = {
      ABOVE_AVERAGE.replace("WHERE c_bal > 0.00 AND substr(c_phone, 1, 2) IN ('13', '31', '23')",
          "WHERE c_bal > 0.00"),
      ABOVE_AVERAGE.replace("0.00 AND substr(c_phone, 1, 2) IN ('13', '31', '23')",
          "0.00 AND substr(c_phone, 1, 2) NOT IN ('13', '31', '23')"),
    };
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(PHONES).build()) {
      EquivalenceResult same = checker.check(ABOVE_AVERAGE, "SELECT * FROM (" + ABOVE_AVERAGE + ") AS same");
      assertThat(same.verdict()).as(same.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(same.evidence().checks()).as(same.summary())
          .anyMatch(c -> c.instance().contains("a witness of query 1") && c.originalRows() > 0);
    }
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(PHONES).build()) {
      for (String right : mutants) {
        EquivalenceResult r = checker.check(ABOVE_AVERAGE, right);
        assertThat(r.verdict()).as("%s: %s", right, r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), ABOVE_AVERAGE, right);
        if (right.equals(mutants[0])) {
          assertThat(r.evidence().firstDifference().orElseThrow().instance()).as(r.summary())
              .contains("witness with cust.c_phone at");
        }
      }
    }
  }

  @Test
  void equivalentRewritesStayEquivalent() {
    String[][] rewrites = {
      {SHIPPED, "SELECT i_brand, s_state, sum(sa_qty) AS qty FROM store JOIN sales ON sa_store = s_sk JOIN item ON "
          + "i_sk = sa_item JOIN dates d2 ON d2.d_sk = sa_shipped JOIN dates d1 ON d1.d_sk = sa_sold WHERE "
          + "s_state LIKE 'T%' AND (i_category = 'Music' OR i_category = 'Books') AND d1.d_moy >= 4 AND "
          + "d1.d_moy <= 6 AND d2.d_year = 2002 AND d1.d_year = 2001 GROUP BY s_state, i_brand"},
      {CHANNELS, CHANNELS.replace(" AND a.yr = 2001", "").replace("WHERE a.item = b.item",
          "WHERE a.yr = 2001 AND b.item = a.item")},
      {NEIGHBOURS, NEIGHBOURS.replace("v1.rn = lag.rn + 1 AND v1.rn = lead.rn - 1",
          "lag.rn = v1.rn - 1 AND lead.rn - 1 = v1.rn")},
    };
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      for (String[] p : rewrites) {
        EquivalenceResult r = checker.check(p[0], p[1]);
        assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.EQUIVALENT);
      }
    }
  }

  /**
   * TPC-DS q91's shape with DISTINCT added: losses per call center and customer demographics, for married customers
   * of one education or widowed ones of another. Two output rows alike but for the demographics need a customer of
   * each disjunct at the same call center with the same loss: the witness of the first disjunct beside the witness
   * of the second, under shifted keys.
   */
  @Test
  void twoWitnessesOfTwoDisjunctsSideBySideMakeGroupsThatDistinctMerges() throws Exception {
    String schema = """
        CREATE TABLE center (cc_sk INTEGER PRIMARY KEY, cc_name VARCHAR NOT NULL);
        CREATE TABLE demo (cd_sk INTEGER PRIMARY KEY, cd_marital VARCHAR NOT NULL, cd_education VARCHAR NOT NULL);
        CREATE TABLE customer (c_sk INTEGER PRIMARY KEY, c_demo INTEGER NOT NULL REFERENCES demo (cd_sk));
        CREATE TABLE ret (cr_order INTEGER PRIMARY KEY, cr_center INTEGER NOT NULL REFERENCES center (cc_sk),
          cr_customer INTEGER NOT NULL REFERENCES customer (c_sk), cr_loss DECIMAL(7,2) NOT NULL);
        """;
    String left = "SELECT cc_name, sum(cr_loss) AS loss FROM center, ret, customer, demo WHERE cr_center = cc_sk AND "
        + "cr_customer = c_sk AND c_demo = cd_sk AND ((cd_marital = 'M' AND cd_education = 'Unknown') OR (cd_marital "
        + "= 'W' AND cd_education = 'Advanced Degree')) GROUP BY cc_name, cd_marital, cd_education";
    String right = left.replace("SELECT cc_name", "SELECT DISTINCT cc_name");
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(schema).build();
         EquivalenceChecker without = EquivalenceChecker.builder().schema(schema).mutationTrials(0).build()) {
      EquivalenceResult r = checker.check(left, right);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      assertThat(r.summary()).contains(" beside ");
      EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), left, right);
      assertThat(without.check(left, right).verdict()).isEqualTo(Verdict.EQUIVALENT);
    }
  }

  static final String PRICED = """
      CREATE TABLE dates (d_sk INTEGER PRIMARY KEY, d_year INTEGER NOT NULL);
      CREATE TABLE demo (cd_sk INTEGER PRIMARY KEY, cd_marital VARCHAR NOT NULL, cd_education VARCHAR NOT NULL);
      CREATE TABLE addr (ca_sk INTEGER PRIMARY KEY, ca_country VARCHAR NOT NULL, ca_state VARCHAR NOT NULL);
      CREATE TABLE reason (r_sk INTEGER PRIMARY KEY, r_desc VARCHAR NOT NULL);
      CREATE TABLE sales (sa_order INTEGER PRIMARY KEY, sa_sold INTEGER NOT NULL REFERENCES dates (d_sk),
        sa_demo INTEGER NOT NULL REFERENCES demo (cd_sk), sa_addr INTEGER NOT NULL REFERENCES addr (ca_sk),
        sa_reason INTEGER NOT NULL REFERENCES reason (r_sk), sa_price DECIMAL(7,2) NOT NULL,
        sa_profit DECIMAL(7,2) NOT NULL, sa_qty INTEGER NOT NULL, sa_fee DECIMAL(7,2) NOT NULL);
      """;

  /**
   * TPC-DS q85's shape: averages only, per reason, under an OR whose disjuncts each hold three constants, and one
   * disjunct's upper price bound moved by a cent. Only a sale priced at the new bound, in that disjunct, tells the
   * two apart, and an average does not see a copy of the witness that differs from it in the price alone: the
   * copies at a class's boundaries have their free numbers scaled apart, and the price's class (read by the
   * expression the queries differ in) is among the few boundaries a disjunct's witness keeps.
   */
  @Test
  void aBoundMovedInsideOneDisjunctIsFoundUnderAveragesOnly() throws Exception {
    String left = "SELECT r_desc, avg(sa_qty), avg(sa_fee) FROM sales, dates, demo, addr, reason WHERE sa_sold = "
        + "d_sk AND sa_demo = cd_sk AND sa_addr = ca_sk AND sa_reason = r_sk AND d_year = 2000 AND ca_country = "
        + "'United States' AND ((cd_marital = 'M' AND cd_education = 'Advanced Degree' AND sa_price BETWEEN 100.00 "
        + "AND 150.00) OR (cd_marital = 'S' AND cd_education = 'College' AND sa_price BETWEEN 50.00 AND 100.00) OR "
        + "(cd_marital = 'W' AND cd_education = '2 yr Degree' AND sa_price BETWEEN 150.00 AND 200.00)) GROUP BY r_desc";
    String right = left.replace("BETWEEN 50.00 AND 100.00", "BETWEEN 50.00 AND 100.01");
    assertRejectedByWitnesses(PRICED, left, right);
  }

  /**
   * TPC-DS q13's shape: two disjuncts whose state lists share 'TX', whose profit ranges overlap, the first's upper
   * bound moved. On a sale in Texas the second disjunct holds on both sides of the bound; only a state of the first
   * list alone ('OH') tells the queries apart, so a disjunct's witness takes, among the values meeting its own
   * constants, one that misses the other disjuncts' constants.
   */
  @Test
  void aDisjunctsWitnessAvoidsValuesThatMakeASiblingDisjunctHold() throws Exception {
    String left = "SELECT avg(sa_qty), sum(sa_fee) FROM sales, addr WHERE sa_addr = ca_sk AND ca_country = "
        + "'United States' AND ((ca_state IN ('TX', 'OH') AND sa_profit BETWEEN 100 AND 200) OR (ca_state IN ('VA', "
        + "'TX', 'MS') AND sa_profit BETWEEN 50 AND 250))";
    String right = left.replace("BETWEEN 100 AND 200", "BETWEEN 100 AND 201");
    assertRejectedByWitnesses(PRICED, left, right);
  }

  /**
   * TPC-DS q72's shape: a sale, its stock on a later date of the same week and its promotion by a LEFT JOIN, under
   * filters that only a witness meets (two dates of one table compared with each other, stock below the quantity
   * sold). The LEFT JOIN made inner differs only on a sale without a promotion: the witness without the row its
   * outer join pads.
   */
  @Test
  void aWitnessWithoutItsOuterJoinsPaddedRowFindsALeftJoinMadeInner() throws Exception {
    String schema = """
        CREATE TABLE dates (d_sk INTEGER PRIMARY KEY, d_date DATE NOT NULL, d_week INTEGER NOT NULL,
          d_year INTEGER NOT NULL);
        CREATE TABLE promo (p_sk INTEGER PRIMARY KEY, p_name VARCHAR NOT NULL);
        CREATE TABLE stock (st_date INTEGER NOT NULL, st_item INTEGER NOT NULL, st_on_hand INTEGER NOT NULL,
          PRIMARY KEY (st_date, st_item));
        CREATE TABLE sales (sa_order INTEGER PRIMARY KEY, sa_item INTEGER NOT NULL, sa_sold INTEGER NOT NULL,
          sa_promo INTEGER NOT NULL, sa_qty INTEGER NOT NULL);
        """;
    String left = "SELECT d1.d_week, count(CASE WHEN p_sk IS NULL THEN 1 END) AS no_promo, count(*) AS total FROM "
        + "sales JOIN stock ON sa_item = st_item JOIN dates d1 ON sa_sold = d1.d_sk JOIN dates d2 ON st_date = "
        + "d2.d_sk LEFT JOIN promo ON sa_promo = p_sk WHERE d1.d_week = d2.d_week AND st_on_hand < sa_qty AND "
        + "d2.d_date > d1.d_date + 2 AND d1.d_year = 2001 GROUP BY d1.d_week";
    String right = left.replace("LEFT JOIN promo", "JOIN promo");
    assertRejectedByWitnesses(schema, left, right);
  }

  /** The checker without its mutation and threshold searches (the witnesses and the rest) rejects the pair. */
  private static void assertRejectedByWitnesses(String schema, String left, String right) throws Exception {
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(schema).mutationTrials(0)
        .thresholdTrials(0).build()) {
      EquivalenceResult r = checker.check(left, right);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), left, right);
    }
  }
}
