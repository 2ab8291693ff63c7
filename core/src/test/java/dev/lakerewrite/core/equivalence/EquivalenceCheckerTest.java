package dev.lakerewrite.core.equivalence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The public checker on a small shop schema: proofs, counterexamples that really differ, constraints, input. */
class EquivalenceCheckerTest {
  static final String SHOP = """
      CREATE TABLE customers (c_id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, region VARCHAR);
      CREATE TABLE orders (o_id INTEGER PRIMARY KEY, cust_id INTEGER REFERENCES customers (c_id),
        amount DECIMAL(10,2) NOT NULL, status VARCHAR, placed DATE);
      CREATE TABLE loose_orders (o_id INTEGER, cust_id INTEGER, amount DECIMAL(10,2), status VARCHAR);
      """;

  static EquivalenceChecker checker;

  @BeforeAll
  static void setUp() {
    checker = EquivalenceChecker.builder().schema(SHOP).build();
  }

  @AfterAll
  static void tearDown() {
    checker.close();
  }

  @Test
  void renamedAliasesReorderedPredicatesAndCommutedJoinsAreProved() {
    EquivalenceResult r = checker.check(
        "SELECT c.name, o.amount FROM customers c JOIN orders o ON o.cust_id = c.c_id "
            + "WHERE o.amount > 10 AND c.region = 'north'",
        "SELECT x.name, y.amount FROM orders AS y, customers AS x "
            + "WHERE x.region = 'north' AND x.c_id = y.cust_id AND 10 < y.amount");
    assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.EQUIVALENT);
    assertThat(r.proved()).isTrue();
    assertThat(r.counterexample()).isEmpty();
  }

  /**
   * The instance count bounds a check, not time: with the default budget (a safety net) an equivalent pair runs
   * every instance its count allows and says nothing about time; a budget that runs out is noted, as the one case
   * in which the verdict depends on the machine's load.
   */
  /**
   * A right query that fails on data the left one answers cannot replace it: wherever a month has one week the
   * two agree, but with two rows for December the right query's scalar subquery fails. The counterexample says
   * how the right one fails, and re-run it does fail there. The other way round the right query is defined on more
   * databases and may replace the left one: a failing left query is no difference.
   */
  @Test
  void aRightQueryThatFailsWhereTheLeftOneAnswersIsNotEquivalent() throws SQLException {
    String schema = """
        CREATE TABLE dates (d_key INTEGER PRIMARY KEY, d_year INTEGER NOT NULL, d_moy INTEGER NOT NULL,
          d_week INTEGER NOT NULL);
        """;
    String max = "SELECT (SELECT max(d_week) FROM dates WHERE d_moy = 12) AS w";
    String single = "SELECT (SELECT d_week FROM dates WHERE d_moy = 12) AS w";
    try (EquivalenceChecker c = EquivalenceChecker.builder().schema(schema).build()) {
      EquivalenceResult r = c.check(max, single);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      Counterexample ce = r.counterexample().orElseThrow();
      assertThat(ce.rightFailure()).as(ce.toString()).hasValueSatisfying(m -> assertThat(m).contains("More than one row"));
      assertThat(ce.toString()).contains("-- right fails: ");
      try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement st = db.createStatement()) {
        for (String sql : ce.createStatements()) {
          st.execute(sql);
        }
        for (String sql : ce.insertStatements()) {
          st.execute(sql);
        }
        try (ResultSet rs = st.executeQuery(max)) {
          assertThat(rs.next()).isTrue();
        }
        assertThatThrownBy(() -> st.executeQuery(single).close()).hasMessageContaining("More than one row");
      }
      EquivalenceResult defined = c.check(single, max);
      assertThat(defined.verdict()).as(defined.summary()).isEqualTo(Verdict.EQUIVALENT);
    }
  }

  /**
   * An instance on which a query fails (here the scalar subquery returns two rows: two dates of one year) is
   * skipped, and the instances after it still run: the driver had closed the prepared query on the first failure,
   * so every later instance failed too and a strict boundary moved by one survived on the few instances before.
   */
  @Test
  void instancesAfterOneOnWhichAQueryFailsStillRun() {
    String schema = """
        CREATE TABLE dates (d_key INTEGER PRIMARY KEY, d_year INTEGER NOT NULL, d_week INTEGER NOT NULL);
        CREATE TABLE sales (s_id INTEGER PRIMARY KEY, s_week INTEGER NOT NULL, amount INTEGER NOT NULL);
        """;
    String left = "SELECT count(*) FROM sales WHERE s_week = (SELECT d_week FROM dates WHERE d_year = 2000) "
        + "AND amount > 5";
    String right = "SELECT count(*) FROM sales WHERE s_week = (SELECT d_week FROM dates WHERE d_year = 2000) "
        + "AND amount >= 5";
    try (EquivalenceChecker c = EquivalenceChecker.builder().schema(schema).build()) {
      EquivalenceResult r = c.check(left, right);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      long skipped = r.evidence().checks().stream().filter(i -> i.detail().startsWith("skipped")).count();
      long ran = r.evidence().checks().size() - skipped;
      assertThat(ran).as(r.summary()).isGreaterThan(skipped);
      assertThat(r.evidence().checks()).noneMatch(i -> i.detail().contains("Statement was closed"));
    }
  }

  @Test
  void theInstanceCountBoundsACheckAndARunOutTimeBudgetIsNoted() {
    String left = "SELECT c.name, o.amount FROM customers c JOIN orders o ON o.cust_id = c.c_id WHERE o.amount > 10";
    String right = "SELECT c.name, o.amount FROM orders o JOIN customers c ON c.c_id = o.cust_id WHERE 10 < o.amount "
        + "AND o.amount > 9";
    EquivalenceResult counted = checker.check(left, right);
    assertThat(counted.verdict()).as(counted.summary()).isEqualTo(Verdict.EQUIVALENT);
    assertThat(counted.notes()).noneMatch(n -> n.startsWith(EquivalenceChecker.TIME_BUDGET_NOTE));
    EquivalenceResult again = checker.check(left, right);
    assertThat(again.evidence().instancesTried()).isEqualTo(counted.evidence().instancesTried());
    try (EquivalenceChecker hurried = EquivalenceChecker.builder().schema(SHOP)
        .timeBudget(java.time.Duration.ofNanos(1)).build()) {
      EquivalenceResult r = hurried.check(left, right);
      assertThat(r.notes()).as(r.summary()).anyMatch(n -> n.startsWith(EquivalenceChecker.TIME_BUDGET_NOTE));
      assertThat(r.evidence().instancesTried()).isLessThan(counted.evidence().instancesTried());
    }
  }

  /**
   * A comparison that another WHERE conjunct implies (the same column against the same constant) is TRUE on every
   * row the WHERE keeps (TPC-DS q11's {@code CASE WHEN year_total > 0 THEN ...} beside the conjunct {@code
   * year_total > 0}): loosening it to {@code >= 0} is proved equivalent; without the conjunct it is not.
   */
  @Test
  void aComparisonImpliedByAnotherConjunctIsProvedAndOnlyThere() throws SQLException {
    String left = "SELECT o_id FROM orders WHERE amount > 0 AND CASE WHEN amount > 0 THEN 100 / amount ELSE 0 END > 2";
    String right = "SELECT o_id FROM orders WHERE CASE WHEN amount >= 0 THEN 100 / amount ELSE 0 END > 2 "
        + "AND 0 < amount";
    EquivalenceResult r = checker.check(left, right);
    assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.EQUIVALENT);
    assertThat(r.proved()).as(r.summary()).isTrue();
    EquivalenceResult stronger = checker.check("SELECT o_id FROM orders WHERE amount >= 0 AND amount > 0",
        "SELECT o_id FROM orders WHERE amount > 0");
    assertThat(stronger.proved()).as(stronger.summary()).isTrue();
    // A CASE without ELSE compared with something holds only where its condition does: the conjunct amount >= 0
    // beside it says nothing more, as amount > 0 does not (TPC-DS q11's first-year totals).
    EquivalenceResult guarded = checker.check(
        "SELECT o_id FROM orders WHERE amount > 0 AND CASE WHEN amount > 0 THEN 100 / amount END > 2",
        "SELECT o_id FROM orders WHERE amount >= 0 AND CASE WHEN amount > 0 THEN 100 / amount ELSE NULL END > 2");
    assertThat(guarded.proved()).as(guarded.summary()).isTrue();
    // Without the implying conjunct the CASE decides at amount = 0 (0 > 2 fails, 100 / 0 does not).
    String unguarded = "SELECT o_id FROM orders WHERE CASE WHEN amount > 0 THEN 100 / amount ELSE 0 END > 2";
    String loosened = "SELECT o_id FROM orders WHERE CASE WHEN amount >= 0 THEN 100 / amount ELSE 0 END > 2";
    EquivalenceResult differs = checker.check(unguarded, loosened);
    assertThat(differs.proved()).isFalse();
    // A weaker conjunct implies nothing: amount >= 0 leaves amount > 0 to decide.
    EquivalenceResult weaker = checker.check(
        "SELECT o_id FROM orders WHERE amount >= 0 AND CASE WHEN amount > 0 THEN 1 ELSE 0 END = 1",
        "SELECT o_id FROM orders WHERE amount >= 0 AND CASE WHEN amount >= 0 THEN 1 ELSE 0 END = 1");
    assertThat(weaker.verdict()).as(weaker.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    assertDiffers(weaker.counterexample().orElseThrow(), "SELECT o_id FROM orders WHERE amount >= 0 AND CASE WHEN "
        + "amount > 0 THEN 1 ELSE 0 END = 1", "SELECT o_id FROM orders WHERE amount >= 0 AND CASE WHEN amount >= 0 "
        + "THEN 1 ELSE 0 END = 1");
  }

  @Test
  void aBoundaryMovedByOneIsCaughtWithAOneRowCounterexample() throws SQLException {
    String left = "SELECT o_id FROM orders WHERE amount > 10";
    String right = "SELECT o_id FROM orders WHERE amount >= 10";
    EquivalenceResult r = checker.check(left, right);
    assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    Counterexample ce = r.counterexample().orElseThrow();
    assertThat(ce.rows().get("orders")).hasSize(1);
    assertThat(ce.rows().get("orders").get(0).get(2)).isEqualTo("10.00");
    assertDiffers(ce, left, right);
  }

  @Test
  void notInAgainstNotExistsOverANullableColumnIsCaught() throws SQLException {
    String left = "SELECT c_id FROM customers WHERE c_id NOT IN (SELECT cust_id FROM orders)";
    String right = "SELECT c_id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.cust_id = c.c_id)";
    EquivalenceResult r = checker.check(left, right);
    assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    assertDiffers(r.counterexample().orElseThrow(), left, right);
  }

  @Test
  void inSubqueryOnAKeyEqualsTheJoinButNotOnANonKey() throws SQLException {
    EquivalenceResult keyed = checker.check(
        "SELECT o_id, amount FROM orders WHERE cust_id IN (SELECT c_id FROM customers WHERE region = 'north')",
        "SELECT o.o_id, o.amount FROM orders o JOIN customers c ON o.cust_id = c.c_id WHERE c.region = 'north'");
    assertThat(keyed.verdict()).as(keyed.summary()).isEqualTo(Verdict.EQUIVALENT);
    assertThat(keyed.proved()).isFalse();
    assertThat(keyed.evidence().instancesTried()).isGreaterThan(10);

    String left = "SELECT o_id FROM orders WHERE cust_id IN (SELECT cust_id FROM loose_orders)";
    String right = "SELECT o.o_id FROM orders o JOIN loose_orders l ON o.cust_id = l.cust_id";
    EquivalenceResult loose = checker.check(left, right);
    assertThat(loose.verdict()).as(loose.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    assertDiffers(loose.counterexample().orElseThrow(), left, right);
  }

  @Test
  void aForeignKeyMakesTheJoinRemovable() {
    EquivalenceResult r = checker.check(
        "SELECT o.o_id FROM orders o JOIN customers c ON o.cust_id = c.c_id",
        "SELECT o_id FROM orders WHERE cust_id IS NOT NULL");
    assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.EQUIVALENT);
  }

  @Test
  void countOfAColumnAgainstCountStarAndDistinct() throws SQLException {
    String left = "SELECT status, count(status) FROM orders GROUP BY status";
    String right = "SELECT status, count(*) FROM orders GROUP BY status";
    EquivalenceResult r = checker.check(left, right);
    assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    assertDiffers(r.counterexample().orElseThrow(), left, right);

    String l2 = "SELECT cust_id FROM loose_orders UNION SELECT cust_id FROM orders";
    String r2 = "SELECT cust_id FROM loose_orders UNION ALL SELECT cust_id FROM orders";
    EquivalenceResult u = checker.check(l2, r2);
    assertThat(u.verdict()).as(u.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    assertDiffers(u.counterexample().orElseThrow(), l2, r2);
  }

  @Test
  void orderMattersOnlyOnTheLeftQueryKeys() {
    EquivalenceResult ties = checker.check("SELECT status, o_id FROM orders ORDER BY status",
        "SELECT status, o_id FROM orders ORDER BY status, o_id DESC");
    assertThat(ties.verdict()).as(ties.summary()).isEqualTo(Verdict.EQUIVALENT);
    EquivalenceResult reversed = checker.check("SELECT o_id, amount FROM orders ORDER BY amount DESC",
        "SELECT o_id, amount FROM orders ORDER BY amount");
    assertThat(reversed.verdict()).as(reversed.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    EquivalenceResult hidden = checker.check("SELECT o_id FROM orders ORDER BY amount, o_id",
        "SELECT o_id FROM orders ORDER BY amount DESC, o_id");
    assertThat(hidden.verdict()).as(hidden.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
  }

  @Test
  void limitWithoutATotalOrderIsNondeterministicNotADifference() {
    EquivalenceResult r = checker.check("SELECT status FROM orders ORDER BY amount LIMIT 2",
        "SELECT status FROM orders WHERE amount IS NOT NULL ORDER BY amount LIMIT 2");
    assertThat(r.verdict()).as(r.summary()).isNotEqualTo(Verdict.NOT_EQUIVALENT);
    assertThat(r.nondeterministic()).isTrue();
    EquivalenceResult changed = checker.check("SELECT o_id FROM orders ORDER BY o_id LIMIT 3",
        "SELECT o_id FROM orders ORDER BY o_id LIMIT 2");
    assertThat(changed.verdict()).as(changed.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
  }

  /**
   * A window whose order can tie makes a difference UNKNOWN, unless the counterexample holds at most one row per
   * table: then nothing ties, and {@code rn = 1} against {@code rn <> 1} is a difference, not a tie-break. A pair
   * that can differ only through ties stays short of NOT_EQUIVALENT.
   */
  @Test
  void aWindowDifferenceOnOneRowPerTableIsNotATieBreak() throws Exception {
    String first = "SELECT region, c_id FROM (SELECT region, c_id, row_number() OVER (PARTITION BY region ORDER BY "
        + "name) AS rn FROM customers) AS t WHERE rn = 1";
    EquivalenceResult flipped = checker.check(first, first.replace("rn = 1", "rn <> 1"));
    assertThat(flipped.verdict()).as(flipped.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    assertThat(flipped.summary()).contains("every table holds at most one row");
    assertDiffers(flipped.counterexample().orElseThrow(), first, first.replace("rn = 1", "rn <> 1"));
    EquivalenceResult tieBreak = checker.check(first, first.replace("ORDER BY name)", "ORDER BY name, c_id)"));
    assertThat(tieBreak.verdict()).as(tieBreak.summary()).isNotEqualTo(Verdict.NOT_EQUIVALENT);
  }

  @Test
  void tiesOnlySaysWhenALimitsTieBreakingIsTheOnlyDoubt() {
    // The right query keeps its LIMIT inside: whole results differ, the windows can always agree.
    EquivalenceResult inner = checker.check("SELECT o_id FROM orders ORDER BY amount LIMIT 2",
        "SELECT o_id FROM (SELECT o_id, amount FROM orders ORDER BY amount LIMIT 2) s ORDER BY amount LIMIT 2");
    assertThat(inner.verdict()).as(inner.summary()).isNotEqualTo(Verdict.NOT_EQUIVALENT);
    assertThat(inner.verdict() == Verdict.EQUIVALENT || inner.tiesOnly()).as(inner.summary()).isTrue();
    EquivalenceResult unordered = checker.check("SELECT o_id FROM orders ORDER BY o_id",
        "SELECT o_id FROM orders");
    assertThat(unordered.verdict()).as(unordered.summary()).isNotEqualTo(Verdict.EQUIVALENT);
    assertThat(unordered.tiesOnly()).as("a lost ORDER BY is not a matter of ties").isFalse();
  }

  @Test
  void badInputSaysWhichQueryAndWhat() {
    assertThatThrownBy(() -> checker.check("SELECT nme FROM customers", "SELECT name FROM customers"))
        .isInstanceOf(EquivalenceInputException.class)
        .hasMessageContaining("the left query")
        .hasMessageContaining("nme")
        .extracting(e -> ((EquivalenceInputException) e).part()).isEqualTo(EquivalenceInputException.Part.LEFT);
    assertThatThrownBy(() -> checker.check("SELECT 1", "DROP TABLE orders"))
        .isInstanceOf(EquivalenceInputException.class).hasMessageContaining("the right query");
    assertThatThrownBy(() -> checker.check("SELECT * FROM custmers", "SELECT 1"))
        .isInstanceOf(EquivalenceInputException.class).hasMessageContaining("customers");
    assertThatThrownBy(() -> EquivalenceChecker.builder().schema("CREATE TABLE (oops").build())
        .isInstanceOf(EquivalenceInputException.class).hasMessageContaining("statement 1 of the schema");
  }

  /** Runs the counterexample script in a fresh DuckDB and both queries on it: their rows must differ. */
  /**
   * Checks the pair on a checker of {@code schema}: NOT_EQUIVALENT, with a counterexample on which the two queries,
   * re-run in a fresh DuckDB, differ. Returns the result for further assertions.
   */
  static EquivalenceResult assertRejected(String schema, String left, String right) throws SQLException {
    try (EquivalenceChecker c = EquivalenceChecker.builder().schema(schema).build()) {
      EquivalenceResult r = c.check(left, right);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      assertDiffers(r.counterexample().orElseThrow(), left, right);
      return r;
    }
  }

  static void assertDiffers(Counterexample ce, String left, String right) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      for (String s : ce.createStatements()) {
        st.execute(s);
      }
      for (String s : ce.insertStatements()) {
        st.execute(s);
      }
      assertThat(sortedRows(st, left)).as(ce.toString()).isNotEqualTo(sortedRows(st, right));
    }
  }

  static List<String> sortedRows(Statement st, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          sb.append(rs.getString(i)).append('|');
        }
        rows.add(sb.toString());
      }
    }
    if (!sql.toUpperCase(java.util.Locale.ROOT).contains("ORDER BY")) {
      rows.sort(null);
    }
    return rows;
  }
}
