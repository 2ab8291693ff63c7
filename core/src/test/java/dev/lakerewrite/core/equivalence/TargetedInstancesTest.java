package dev.lakerewrite.core.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Instances built from the queries' predicates (boundaries, NULLs, one disjunct of an OR, join keys without and
 * with two partners) kill mutants that as many random instances miss, with counterexamples that really differ.
 */
class TargetedInstancesTest {
  static final String SCHEMA = """
      CREATE TABLE part (p_partkey INTEGER PRIMARY KEY, p_brand VARCHAR NOT NULL, p_type VARCHAR NOT NULL,
        p_size INTEGER NOT NULL, p_container VARCHAR);
      CREATE TABLE supplier (s_suppkey INTEGER PRIMARY KEY, s_name VARCHAR NOT NULL, s_nationkey INTEGER,
        s_comment VARCHAR);
      CREATE TABLE lineitem (l_orderkey INTEGER NOT NULL, l_linenumber INTEGER NOT NULL,
        l_partkey INTEGER REFERENCES part (p_partkey), l_suppkey INTEGER, l_quantity DECIMAL(15,2) NOT NULL,
        l_extendedprice DECIMAL(15,2) NOT NULL, l_discount DECIMAL(15,2) NOT NULL, l_shipdate DATE NOT NULL,
        l_shipmode VARCHAR, PRIMARY KEY (l_orderkey, l_linenumber));
      """;
  static final String[][] PAIRS = {
    {"SELECT sum(l_extendedprice * l_discount) FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24",
     "SELECT sum(l_extendedprice * l_discount) FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity <= 24"},
    {"SELECT sum(l_extendedprice * l_discount) FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24",
     "SELECT sum(l_extendedprice * l_discount) FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount > 0.05 AND l_discount <= 0.07 AND l_quantity < 24"},
    {"SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND l_quantity >= 1 AND l_quantity <= 11 AND p_size BETWEEN 1 AND 5) OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND l_quantity >= 10 AND l_quantity <= 20 AND p_size BETWEEN 1 AND 10) OR (p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX') AND l_quantity >= 20 AND l_quantity <= 30 AND p_size BETWEEN 1 AND 15)) AND l_shipmode IN ('AIR', 'AIR REG')",
     "SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND l_quantity >= 1 AND l_quantity <= 11 AND p_size BETWEEN 1 AND 5) OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND l_quantity >= 10 AND p_size BETWEEN 1 AND 10) OR (p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX') AND l_quantity >= 20 AND l_quantity <= 30 AND p_size BETWEEN 1 AND 15)) AND l_shipmode IN ('AIR', 'AIR REG')"},
    {"SELECT p_brand, count(l_suppkey) FROM part JOIN lineitem ON l_partkey = p_partkey WHERE p_size > 10 AND p_type LIKE '%BRASS' AND l_shipdate >= DATE '1995-03-01' GROUP BY p_brand",
     "SELECT p_brand, count(*) FROM part JOIN lineitem ON l_partkey = p_partkey WHERE p_size > 10 AND p_type LIKE '%BRASS' AND l_shipdate >= DATE '1995-03-01' GROUP BY p_brand"},
    {"SELECT p_brand, count(*) FROM part JOIN lineitem ON l_partkey = p_partkey WHERE p_size > 10 AND p_type LIKE '%BRASS' AND l_shipdate >= DATE '1995-03-01' GROUP BY p_brand",
     "SELECT p_brand, count(*) FROM part JOIN lineitem ON l_partkey = p_partkey WHERE p_size > 10 AND p_type LIKE '%BRASS%' AND l_shipdate >= DATE '1995-03-01' GROUP BY p_brand"},
    {"SELECT p_partkey FROM part WHERE p_size = 15 AND p_type LIKE '%BRASS' AND p_partkey NOT IN (SELECT l_partkey FROM lineitem WHERE l_shipmode = 'MAIL' AND l_quantity > 30)",
     "SELECT p_partkey FROM part WHERE p_size = 15 AND p_type LIKE '%BRASS' AND NOT EXISTS (SELECT * FROM lineitem WHERE l_partkey = p_partkey AND l_shipmode = 'MAIL' AND l_quantity > 30)"},
    {"SELECT p_partkey, l_quantity FROM part LEFT JOIN lineitem ON l_partkey = p_partkey AND l_shipmode = 'MAIL' WHERE p_size = 15 AND p_brand = 'Brand#45' AND p_type LIKE 'MEDIUM%'",
     "SELECT p_partkey, l_quantity FROM part JOIN lineitem ON l_partkey = p_partkey AND l_shipmode = 'MAIL' WHERE p_size = 15 AND p_brand = 'Brand#45' AND p_type LIKE 'MEDIUM%'"},
    {"SELECT s_name, count(*) FROM supplier, lineitem WHERE s_suppkey = l_suppkey AND l_shipdate > DATE '1996-01-01' AND l_discount >= 0.04 AND s_comment LIKE '%Customer%Complaints%' GROUP BY s_name",
     "SELECT s_name, count(*) FROM supplier, lineitem WHERE s_suppkey = l_suppkey AND l_shipdate >= DATE '1996-01-01' AND l_discount >= 0.04 AND s_comment LIKE '%Customer%Complaints%' GROUP BY s_name"},
    {"SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND l_quantity >= 1 AND l_quantity <= 11 AND p_size BETWEEN 1 AND 5) OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND l_quantity >= 10 AND l_quantity <= 20 AND p_size BETWEEN 1 AND 10) OR (p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX') AND l_quantity >= 20 AND l_quantity <= 30 AND p_size BETWEEN 1 AND 15)) AND l_shipmode IN ('AIR', 'AIR REG')",
     "SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND l_quantity >= 1 AND l_quantity <= 11 AND p_size BETWEEN 1 AND 5) OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND l_quantity >= 10 AND l_quantity <= 20 AND p_size BETWEEN 1 AND 11) OR (p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX') AND l_quantity >= 20 AND l_quantity <= 30 AND p_size BETWEEN 1 AND 15)) AND l_shipmode IN ('AIR', 'AIR REG')"},
    {"SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND l_quantity >= 1 AND l_quantity <= 11 AND p_size BETWEEN 1 AND 5) OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND l_quantity >= 10 AND l_quantity <= 20 AND p_size BETWEEN 1 AND 10) OR (p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX') AND l_quantity >= 20 AND l_quantity <= 30 AND p_size BETWEEN 1 AND 15)) AND l_shipmode IN ('AIR', 'AIR REG')",
     "SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND l_quantity >= 1 AND l_quantity <= 11 AND p_size BETWEEN 1 AND 5) OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG') AND l_quantity >= 10 AND l_quantity <= 20 AND p_size BETWEEN 1 AND 10) OR (p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX') AND l_quantity >= 20 AND l_quantity <= 30 AND p_size BETWEEN 1 AND 15)) AND l_shipmode IN ('AIR', 'AIR REG')"},
    {"SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND l_quantity >= 1 AND l_quantity <= 11 AND p_size BETWEEN 1 AND 5) OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND l_quantity >= 10 AND l_quantity <= 20 AND p_size BETWEEN 1 AND 10) OR (p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX') AND l_quantity >= 20 AND l_quantity <= 30 AND p_size BETWEEN 1 AND 15)) AND l_shipmode IN ('AIR', 'AIR REG')",
     "SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND l_quantity >= 1 AND l_quantity <= 11 AND p_size BETWEEN 1 AND 5) OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND l_quantity >= 10 AND l_quantity <= 20 AND p_size BETWEEN 1 AND 10) OR (p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX') AND l_quantity > 20 AND l_quantity <= 30 AND p_size BETWEEN 1 AND 15)) AND l_shipmode IN ('AIR', 'AIR REG')"},
    {"SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND l_quantity >= 1 AND l_quantity <= 11 AND p_size BETWEEN 1 AND 5) OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND l_quantity >= 10 AND l_quantity <= 20 AND p_size BETWEEN 1 AND 10) OR (p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX') AND l_quantity >= 20 AND l_quantity <= 30 AND p_size BETWEEN 1 AND 15)) AND l_shipmode IN ('AIR', 'AIR REG')",
     "SELECT sum(l_extendedprice) FROM lineitem, part WHERE p_partkey = l_partkey AND ((p_brand = 'Brand#12' AND p_container IN ('SM CASE', 'SM BOX') AND l_quantity >= 1 AND l_quantity <= 11 AND p_size BETWEEN 1 AND 5) OR (p_brand = 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX') AND l_quantity >= 10 AND l_quantity <= 20 AND p_size BETWEEN 1 AND 10) OR (p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX') AND l_quantity >= 20 AND l_quantity <= 30 AND p_size BETWEEN 1 AND 15)) AND l_shipmode IN ('AIR')"},
  };

  /** The same instance budget both ways: fixed profiles, then targeted instances or random ones. */
  private static final int BUDGET = 24;

  /**
   * The kinds of targeted instances against random ones, with the same budget of 24. Witnesses ({@link
   * WitnessesTest}) come on top of that budget: before they did, they took the slots of the instance that kills
   * the dropped conjunct in Q19's second disjunct, and that mutant survived a budget of 24.
   */
  @Test
  void mutantsThatRandomInstancesMissAreKilledByTargetedOnes() throws Exception {
    try (EquivalenceChecker byDefault = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      for (int i = 0; i < PAIRS.length; i++) {
        EquivalenceResult t = byDefault.check(PAIRS[i][0], PAIRS[i][1]);
        assertThat(t.verdict()).as("mutant #%d by default: %s", i, t.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(t.counterexample().orElseThrow(), PAIRS[i][0], PAIRS[i][1]);
      }
    }
    List<Integer> missedByRandom = new ArrayList<>();
    try (EquivalenceChecker targeted = EquivalenceChecker.builder().schema(SCHEMA).maxInstances(BUDGET).build();
         EquivalenceChecker random = EquivalenceChecker.builder().schema(SCHEMA).maxInstances(BUDGET)
             .targetedInstances(false).build()) {
      for (int i = 0; i < PAIRS.length; i++) {
        String left = PAIRS[i][0];
        String right = PAIRS[i][1];
        EquivalenceResult t = targeted.check(left, right);
        assertThat(t.verdict()).as("mutant #%d: %s", i, t.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        Counterexample ce = t.counterexample().orElseThrow();
        EquivalenceCheckerTest.assertDiffers(ce, left, right);
        assertThat(ce.rowCount()).as("mutant #%d shrunk", i).isLessThanOrEqualTo(4);
        if (random.check(left, right).verdict() != Verdict.NOT_EQUIVALENT) {
          missedByRandom.add(i);
        }
      }
    }
    // With the same budget, random instances miss COUNT(col) against COUNT(*) behind a join and filters, a
    // conjunct dropped or a boundary moved inside one disjunct of TPC-H Q19's OR, and an IN list shortened.
    assertThat(missedByRandom).contains(2, 3, 8, 9);
  }

  /**
   * A new kind of instance never takes another kind's place: every instance built without witnesses is among those
   * built with them, in the same order, and the witnesses are counted apart (the checker grants them instances on
   * top of its budget). The query has more targeted instances than the cap, so before witnesses were counted apart
   * they pushed the last instances of the other kinds out.
   */
  @Test
  void witnessesComeOnTopOfTheOtherKindsInstances() throws Exception {
    Schema schema = DuckDbCatalog.load(SCHEMA).schema();
    String query = PAIRS[2][0];
    try (java.sql.Connection scratch = DuckDbWorkspace.scratch()) {
      Setup setup = Setup.of(schema, scratch, query, PAIRS[2][1]);
      QueryFacts facts = setup.facts();
      List<Schema.Table> tables = setup.tables();
      Domains domains = setup.domains();
      List<Database> without = TargetedInstances.plan(tables, domains, facts, scratch, false).instances();
      TargetedInstances.Plan with = TargetedInstances.plan(tables, domains, facts, scratch, true);
      assertThat(without).hasSize(TargetedInstances.CAP);
      assertThat(with.onTop()).isPositive();
      List<List<List<List<String>>>> others = new ArrayList<>();
      for (Database d : with.instances()) {
        List<List<List<String>>> content = content(tables, d);
        if (without.stream().anyMatch(w -> content(tables, w).equals(content))) {
          others.add(content);
        }
      }
      assertThat(others).containsExactlyElementsOf(without.stream().map(d -> content(tables, d)).toList());
      assertThat(with.instances()).hasSize(without.size() + with.onTop());
    }
  }

  private static List<List<List<String>>> content(List<Schema.Table> tables, Database d) {
    List<List<List<String>>> out = new ArrayList<>();
    for (Schema.Table t : tables) {
      out.add(d.rows(t));
    }
    return out;
  }

  static final String NATIONS = """
      CREATE TABLE nation (n_nationkey INTEGER PRIMARY KEY, n_name VARCHAR NOT NULL);
      CREATE TABLE supplier (s_suppkey INTEGER PRIMARY KEY, s_nationkey INTEGER NOT NULL);
      CREATE TABLE customer (c_custkey INTEGER PRIMARY KEY, c_nationkey INTEGER NOT NULL);
      CREATE TABLE orders (o_orderkey INTEGER PRIMARY KEY, o_custkey INTEGER NOT NULL, o_suppkey INTEGER NOT NULL,
        o_total DECIMAL(12,2) NOT NULL);
      CREATE TABLE offers (f_item INTEGER NOT NULL, f_suppkey INTEGER NOT NULL, f_price DECIMAL(12,2) NOT NULL,
        PRIMARY KEY (f_item, f_suppkey));
      """;
  static final String Q7_LIKE = "SELECT n1.n_name AS supp_nation, n2.n_name AS cust_nation, sum(o_total) "
      + "FROM orders, supplier, customer, nation n1, nation n2 WHERE o_suppkey = s_suppkey AND o_custkey = c_custkey "
      + "AND s_nationkey = n1.n_nationkey AND c_nationkey = n2.n_nationkey AND ((n1.n_name = 'FRANCE' AND "
      + "n2.n_name = 'GERMANY') OR (n1.n_name = 'GERMANY' AND n2.n_name = 'FRANCE')) GROUP BY 1, 2";
  static final String Q2_LIKE = "SELECT f_item, f_suppkey FROM offers, supplier, nation WHERE f_suppkey = s_suppkey "
      + "AND s_nationkey = n_nationkey AND n_name = 'FRANCE' AND f_price = (SELECT min(o2.f_price) FROM offers o2, "
      + "supplier s2, nation n2 WHERE o2.f_item = offers.f_item AND o2.f_suppkey = s2.s_suppkey AND "
      + "s2.s_nationkey = n2.n_nationkey AND n2.n_name = 'FRANCE')";
  static final String Q17_LIKE = "SELECT sum(l_extendedprice) / 7.0 FROM lineitem, part WHERE p_partkey = l_partkey "
      + "AND p_brand = 'Brand#23' AND l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE "
      + "l_partkey = p_partkey)";

  /**
   * A self-join needs two different rows of one table joined along two paths (Q7: the supplier's nation and the
   * customer's); a comparison with a multiple of a correlated average needs a group whose rows are in the
   * proportion that puts one of them at the threshold (Q17: 0.2 and 1.8 average 1.0, and 0.2 is not below
   * 0.2 * 1.0); a filter dropped from a correlated minimum two joins away needs a cheaper row of the same group
   * whose supplier's nation fails it (Q2). One row per table, or random rows from small pools, rarely give these.
   */
  @Test
  void selfJoinsAndCorrelatedAggregateThresholdsGetTheirOwnInstances() throws Exception {
    String[][] pairs = {
      {NATIONS, Q7_LIKE, Q7_LIKE.replace("(n1.n_name = 'GERMANY' AND n2.n_name = 'FRANCE')", "(n1.n_name = 'GERMANY')")},
      {NATIONS, Q7_LIKE, Q7_LIKE.replace("n1.n_name = 'FRANCE' AND", "n1.n_name <> 'FRANCE' AND")},
      {SCHEMA, Q17_LIKE, Q17_LIKE.replace("l_quantity < (", "l_quantity <= (")},
      {SCHEMA, Q17_LIKE, Q17_LIKE.replace("0.2 * avg", "0.3 * avg")},
      {NATIONS, Q2_LIKE, Q2_LIKE.replace(" AND n2.n_name = 'FRANCE')", ")")},
    };
    List<Integer> missedByRandom = new ArrayList<>();
    for (int i = 0; i < pairs.length; i++) {
      // The Q2-like pair's instance comes late among the targeted ones: the checker's default budget.
      int budget = i == 4 ? 64 : BUDGET;
      try (EquivalenceChecker targeted = EquivalenceChecker.builder().schema(pairs[i][0]).maxInstances(budget)
               .build();
           EquivalenceChecker random = EquivalenceChecker.builder().schema(pairs[i][0]).maxInstances(budget)
               .targetedInstances(false).build()) {
        EquivalenceResult t = targeted.check(pairs[i][1], pairs[i][2]);
        assertThat(t.verdict()).as("mutant #%d: %s", i, t.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(t.counterexample().orElseThrow(), pairs[i][1], pairs[i][2]);
        if (random.check(pairs[i][1], pairs[i][2]).verdict() != Verdict.NOT_EQUIVALENT) {
          missedByRandom.add(i);
        }
      }
    }
    // With the same budget, random instances miss the self-join's flipped comparison and both Q17 mutants.
    assertThat(missedByRandom).contains(1, 2, 3);
  }

  @Test
  void equivalentRewritesStayEquivalentWithTargetedInstances() {
    String q19 = PAIRS[2][0];
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult r = checker.check(q19, q19.replace("l_quantity >= 10 AND l_quantity <= 20",
          "l_quantity BETWEEN 10 AND 20").replace("p_partkey = l_partkey", "l_partkey = p_partkey + 0"));
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(r.proved()).isFalse();
      assertThat(r.evidence().checks()).anySatisfy(c -> assertThat(c.instance()).contains("targeted:"));
    }
  }

  static final String HOUSEHOLDS = """
      CREATE TABLE household (hd_id INTEGER PRIMARY KEY, hd_dep_count INTEGER NOT NULL,
        hd_vehicle_count INTEGER NOT NULL);
      CREATE TABLE purchase (p_id INTEGER PRIMARY KEY, p_household INTEGER NOT NULL, p_amount DECIMAL(7,2) NOT NULL);
      """;
  /** TPC-DS q34's and q73's household filter: more dependants than 1.2 per vehicle. */
  static final String CROWDED = "SELECT p_household, count(*) AS purchases FROM purchase, household WHERE "
      + "p_household = hd_id AND hd_vehicle_count > 0 AND CASE WHEN hd_vehicle_count > 0 THEN hd_dep_count / "
      + "hd_vehicle_count ELSE NULL END > 1.2 GROUP BY p_household";

  /**
   * A condition on one table's row that is not a column against a constant (a ratio of two columns, inside a
   * CASE) is passed by the base rows: the engine picks, among the pools of the columns it reads, the values that
   * pass the most such conditions (here 2 dependants for 1 vehicle; choosing each column alone gives 1 and 1,
   * a ratio of 1, so every targeted instance returned nothing and told no mutant apart). A mutant that negates
   * the vehicle condition is told apart by the base instance itself, and the checker finds it NOT_EQUIVALENT with
   * a counterexample that re-runs; the same ratio written as a product is not told apart.
   */
  @Test
  void baseRowsPassConditionsOnTheirOwnColumnsThatTheEngineEvaluates() throws Exception {
    String mutant = CROWDED.replace("hd_vehicle_count > 0 AND CASE", "hd_vehicle_count <= 0 AND CASE");
    String rewrite = CROWDED.replace("CASE WHEN hd_vehicle_count > 0 THEN hd_dep_count / hd_vehicle_count ELSE "
        + "NULL END > 1.2", "hd_dep_count > 1.2 * hd_vehicle_count");
    String base = "one row per table passing the filters";
    assertThat(separating(HOUSEHOLDS, CROWDED, mutant, base, false)).as("base rows chosen column by column")
        .isFalse();
    assertThat(separating(HOUSEHOLDS, CROWDED, mutant, base, true)).as("base rows the engine chose").isTrue();
    assertThat(separating(HOUSEHOLDS, CROWDED, rewrite, base, true)).isFalse();
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(HOUSEHOLDS).build()) {
      EquivalenceResult r = checker.check(CROWDED, mutant);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), CROWDED, mutant);
      EquivalenceResult e = checker.check(CROWDED, rewrite);
      assertThat(e.verdict()).as(e.summary()).isEqualTo(Verdict.EQUIVALENT);
    }
  }

  static final String RETURNS = """
      CREATE TABLE sales (s_item INTEGER NOT NULL, s_ticket INTEGER NOT NULL, s_store INTEGER NOT NULL,
        s_amount DECIMAL(7,2) NOT NULL, s_sold INTEGER NOT NULL, s_shipped INTEGER NOT NULL,
        PRIMARY KEY (s_item, s_ticket));
      CREATE TABLE returns (r_item INTEGER NOT NULL, r_ticket INTEGER NOT NULL, r_reason VARCHAR NOT NULL,
        r_amount DECIMAL(7,2) NOT NULL, PRIMARY KEY (r_item, r_ticket));
      CREATE TABLE store (st_id INTEGER PRIMARY KEY, st_state VARCHAR NOT NULL);
      """;
  static final String RETURNED = "SELECT st_state, sum(r_amount) FROM sales, returns, store WHERE s_item = r_item "
      + "AND s_ticket = r_ticket AND s_store = st_id AND r_reason = 'damaged' AND st_state = 'TN' AND s_amount > 100 "
      + "GROUP BY st_state";
  static final String SHIPPING = "SELECT st_state, sum(CASE WHEN s_shipped - s_sold <= 30 THEN 1 ELSE 0 END) AS "
      + "within_30, sum(CASE WHEN s_shipped - s_sold > 30 THEN 1 ELSE 0 END) AS later FROM sales, store WHERE "
      + "s_store = st_id AND st_state = 'TN' GROUP BY st_state";

  static final String TICKETS = "SELECT st_state, count(*) AS tickets FROM (SELECT s_ticket, s_store, count(*) AS cnt "
      + "FROM sales, store WHERE s_store = st_id AND st_state = 'TN' GROUP BY s_ticket, s_store) AS t, store "
      + "WHERE t.s_store = st_id AND cnt BETWEEN 5 AND 8 GROUP BY st_state";

  /**
   * Three kinds of targeted instance, each shown on a mutant it tells apart and an equivalent rewrite it does not:
   * a join on two columns (a return's item and ticket) needs a row that matches its partner in one column and
   * not in the other, its other partners kept (the row without a partner in {@code r_ticket} keeps its item); a
   * difference of two columns compared with a constant inside a CASE needs rows where the difference is just
   * below, at and just above it; a count compared with a constant in a grouped subquery needs groups of that
   * size and one more and one fewer. The checker finds each mutant NOT_EQUIVALENT with a counterexample that
   * re-runs.
   */
  @Test
  void oneJoinColumnWithoutPartnerDifferenceBoundariesAndGroupSizesKillTheirMutants() throws Exception {
    String[][] cases = {
      // kind of instance, left, mutant, equivalent rewrite
      {"returns.r_ticket without a partner", RETURNED, RETURNED.replace("AND s_ticket = r_ticket ", ""),
          "SELECT st_state, sum(r_amount) FROM sales JOIN returns ON r_ticket = s_ticket AND r_item = s_item "
          + "JOIN store ON st_id = s_store WHERE st_state = 'TN' AND r_reason = 'damaged' AND s_amount > 100 "
          + "GROUP BY st_state"},
      {"sales.s_shipped - sales.s_sold just below, at and just above 30", SHIPPING,
          SHIPPING.replace("s_shipped - s_sold <= 30", "s_shipped - s_sold < 30"),
          SHIPPING.replace("s_shipped - s_sold <= 30", "s_shipped <= s_sold + 30")},
      {"sales.s_shipped - sales.s_sold just below, at and just above 30", SHIPPING,
          SHIPPING.replace("s_shipped - s_sold > 30", "s_shipped - s_sold > 31"),
          SHIPPING.replace("s_shipped - s_sold > 30", "NOT (s_shipped - s_sold <= 30)")},
      {"a group of 9 rows of sales", TICKETS, TICKETS.replace("BETWEEN 5 AND 8", "BETWEEN 5 AND 9"),
          TICKETS.replace("cnt BETWEEN 5 AND 8", "cnt >= 5 AND cnt < 9")},
    };
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(RETURNS).build()) {
      for (String[] c : cases) {
        assertThat(separating(RETURNS, c[1], c[2], c[0])).as("%s separates the mutant %s", c[0], c[2]).isTrue();
        assertThat(separating(RETURNS, c[1], c[3], c[0])).as("%s agrees on %s", c[0], c[3]).isFalse();
        EquivalenceResult r = checker.check(c[1], c[2]);
        assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), c[1], c[2]);
        EquivalenceResult e = checker.check(c[1], c[3]);
        assertThat(e.verdict()).as(e.summary()).isEqualTo(Verdict.EQUIVALENT);
      }
    }
  }

  static final String MONTHLY = """
      CREATE TABLE sales (s_item INTEGER NOT NULL, s_date INTEGER NOT NULL, s_ticket INTEGER NOT NULL,
        s_price DECIMAL(7,2) NOT NULL, PRIMARY KEY (s_item, s_ticket));
      CREATE TABLE item (i_id INTEGER PRIMARY KEY, i_brand VARCHAR NOT NULL, i_category VARCHAR NOT NULL);
      CREATE TABLE dates (d_id INTEGER PRIMARY KEY, d_year INTEGER NOT NULL, d_moy INTEGER NOT NULL);
      """;
  /** Months whose sales deviate from the brand's monthly average by more than 10 % (TPC-DS q53/q89's shape). */
  static final String DEVIATING = "SELECT * FROM (SELECT i_brand, d_moy, sum(s_price) AS sum_sales, "
      + "avg(sum(s_price)) OVER (PARTITION BY i_brand) AS avg_sales FROM sales, item, dates WHERE s_item = i_id "
      + "AND s_date = d_id AND d_year = 1999 AND i_category = 'Books' GROUP BY i_brand, d_moy) AS t WHERE CASE WHEN "
      + "avg_sales <> 0 THEN abs(sum_sales - avg_sales) / avg_sales ELSE NULL END > 0.1";

  /**
   * A condition on how far a group's sum lies from the average over its partition needs two groups in one
   * partition (two months of a brand) whose sums stand in the proportion the condition's fraction names: every
   * other targeted instance has one group per partition, which never deviates from its own average, so the
   * condition filtered every row out and no mutant of it was told apart (TPC-DS q53, q89). Sums of 90 and 110
   * deviate by exactly 0.1 and tell {@code >} from {@code >=}; 0.89 and 1.11 deviate by 0.11 around an average of
   * exactly 1 and tell 0.1 from 0.2 and {@code <> 0} from {@code <> 1}. An equivalent rewrite is not told apart,
   * and the checker rejects each mutant with a counterexample that re-runs.
   */
  @Test
  void twoGroupsOfOnePartitionInTheProportionOfTheConditionsFractionKillItsMutants() throws Exception {
    String[][] cases = {
      {"measures 90 : 110", DEVIATING.replace("> 0.1", ">= 0.1")},
      {"measures 0.89 : 1.11", DEVIATING.replace("> 0.1", "> 0.2")},
      {"measures 0.89 : 1.11", DEVIATING.replace("avg_sales <> 0", "avg_sales <> 1")},
    };
    String rewrite = DEVIATING.replace("> 0.1", "").replace("WHERE CASE", "WHERE NOT (CASE") + " <= 0.1)";
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(MONTHLY).build()) {
      for (String[] c : cases) {
        assertThat(separating(MONTHLY, DEVIATING, c[1], c[0])).as("%s separates %s", c[0], c[1]).isTrue();
        assertThat(separating(MONTHLY, DEVIATING, rewrite, c[0])).as("%s agrees on %s", c[0], rewrite).isFalse();
        EquivalenceResult r = checker.check(DEVIATING, c[1]);
        assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), DEVIATING, c[1]);
      }
      EquivalenceResult e = checker.check(DEVIATING, rewrite);
      assertThat(e.verdict()).as(e.summary()).isEqualTo(Verdict.EQUIVALENT);
    }
  }

  static final String DATED = """
      CREATE TABLE dates (d_id INTEGER PRIMARY KEY, d_week INTEGER NOT NULL, d_year INTEGER NOT NULL,
        d_moy INTEGER NOT NULL);
      CREATE TABLE sales (s_item INTEGER NOT NULL, s_ticket INTEGER NOT NULL,
        s_sold INTEGER NOT NULL REFERENCES dates (d_id), s_price DECIMAL(7,2) NOT NULL,
        PRIMARY KEY (s_item, s_ticket));
      CREATE TABLE returns (r_item INTEGER NOT NULL, r_ticket INTEGER NOT NULL,
        r_date INTEGER NOT NULL REFERENCES dates (d_id), PRIMARY KEY (r_item, r_ticket));
      """;
  /** Each week's sales against the same week a year later (TPC-DS q2 and q59's shape). */
  static final String WEEKLY = "WITH wk AS (SELECT d_week, sum(s_price) AS total FROM sales, dates WHERE s_sold = "
      + "d_id GROUP BY d_week) SELECT w1, t1 / t2 FROM (SELECT wk.d_week AS w1, total AS t1 FROM wk, dates WHERE "
      + "dates.d_week = wk.d_week AND d_year = 2001) AS y, (SELECT wk.d_week AS w2, total AS t2 FROM wk, dates "
      + "WHERE dates.d_week = wk.d_week AND d_year = 2002) AS z WHERE w1 = w2 - 53";
  /** Returns counted by how long after the sale they came, the return's month fixed (TPC-DS q50's shape). */
  static final String LATE = "SELECT sum(CASE WHEN r_date - s_sold <= 30 THEN 1 ELSE 0 END) AS within_30, "
      + "sum(CASE WHEN r_date - s_sold > 120 THEN 1 ELSE 0 END) AS later FROM sales, returns, dates AS d1, "
      + "dates AS d2 WHERE s_item = r_item AND s_ticket = r_ticket AND s_sold = d1.d_id AND r_date = d2.d_id "
      + "AND d2.d_year = 2001 AND d2.d_moy = 8";

  /**
   * A self-join on a column shifted by a constant (a week and the same week a year later, {@code w1 = w2 - 53})
   * needs a second row of the table read twice whose column is the base row's plus or minus that constant, and
   * whose other columns take the other occurrence's values ({@code d_year = 2002} where the base row has 2001):
   * every other instance has no pair of weeks 53 apart, so the join is empty and no mutant of the year filters
   * or of the offset is told apart (TPC-DS q2, q59). A difference of two columns of two joined tables ({@code
   * r_date - s_sold > 120}, a return's date and its sale's) needs sales just below, at and just above the
   * constant from their return, each keeping its return and pointing at an existing date (TPC-DS q50). Each
   * instance kind separates its mutants and not the equivalent rewrite, and the checker rejects the mutants with
   * counterexamples that re-run.
   */
  @Test
  void shiftedSelfJoinsAndDifferencesAcrossTablesKillTheirMutants() throws Exception {
    String[][] cases = {
      // kind of instance, left, mutant, equivalent rewrite
      {"the second's d_week ", WEEKLY, WEEKLY.replace("w2 - 53", "w2 - 52"),
          WEEKLY.replace("w1 = w2 - 53", "w1 + 53 = w2")},
      {"the second's d_week ", WEEKLY, WEEKLY.replace("d_year = 2002", "d_year = 2003"),
          WEEKLY.replace("d_year = 2002", "d_year = 2001 + 1")},
      {"returns.r_date - sales.s_sold just below, at and just above 120", LATE,
          LATE.replace("r_date - s_sold > 120", "r_date - s_sold >= 120"),
          LATE.replace("r_date - s_sold > 120", "NOT (r_date - s_sold <= 120)")},
    };
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(DATED).build()) {
      for (String[] c : cases) {
        assertThat(separating(DATED, c[1], c[2], c[0])).as("%s separates the mutant %s", c[0], c[2]).isTrue();
        assertThat(separating(DATED, c[1], c[3], c[0])).as("%s agrees on %s", c[0], c[3]).isFalse();
        EquivalenceResult r = checker.check(c[1], c[2]);
        assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), c[1], c[2]);
        EquivalenceResult e = checker.check(c[1], c[3]);
        assertThat(e.verdict()).as(e.summary()).isNotEqualTo(Verdict.NOT_EQUIVALENT);
      }
    }
  }

  /**
   * Whether, among the targeted instances of the two queries whose description contains {@code kind} (at least
   * one must), one makes them return different multisets of rows.
   */
  private static boolean separating(String ddl, String left, String right, String kind) throws Exception {
    return separating(ddl, left, right, kind, true);
  }

  /** Two queries' facts on a schema, the tables they read (with those their foreign keys reach) and the pools. */
  record Setup(QueryFacts facts, List<Schema.Table> tables, Domains domains) {
    static Setup of(Schema schema, java.sql.Connection scratch, String left, String right) throws Exception {
      dev.lakerewrite.core.sql.SqlParser parser = dev.lakerewrite.core.sql.SqlParser.on(scratch);
      QueryFacts facts = new QueryFacts(schema, parser);
      facts.add(parser.parse(left).statement(0));
      facts.add(parser.parse(right).statement(0));
      List<Schema.Table> tables = schema.closure(facts.tables());
      return new Setup(facts, tables, Domains.build(facts, tables, scratch, java.util.Map.of()));
    }
  }

  /** As above; {@code engine}: whether base rows are searched by the engine for rows passing the row filters. */
  private static boolean separating(String ddl, String left, String right, String kind, boolean engine)
      throws Exception {
    Schema schema = DuckDbCatalog.load(ddl).schema();
    try (DuckDbWorkspace ws = DuckDbWorkspace.create(schema);
         java.sql.Connection scratch = DuckDbWorkspace.scratch()) {
      Setup setup = Setup.of(schema, scratch, left, right);
      QueryFacts facts = setup.facts();
      List<Schema.Table> tables = setup.tables();
      Domains domains = setup.domains();
      int ofKind = 0;
      boolean differs = false;
      List<String> names = new ArrayList<>();
      for (Database d : TargetedInstances.build(tables, domains, facts, engine ? scratch : null)) {
        names.add(d.name());
        if (!d.name().contains(kind)) {
          continue;
        }
        ofKind++;
        ws.load(d);
        differs |= !rows(ws, left).equals(rows(ws, right));
      }
      assertThat(ofKind).as("targeted instances of the kind '%s' among %s", kind, names).isPositive();
      return differs;
    }
  }

  private static java.util.Map<List<Object>, Integer> rows(DuckDbWorkspace ws, String sql) {
    Workspace.Result r = ws.run(sql, dev.lakerewrite.core.QueryLimits.DEFAULT);
    assertThat(r.isSuccess()).as("%s runs", sql).isTrue();
    java.util.Map<List<Object>, Integer> out = new java.util.HashMap<>();
    for (List<Object> row : r.table().rows()) {
      out.merge(new ArrayList<>(row), 1, Integer::sum);
    }
    return out;
  }

  /**
   * A count compared with 2 inside a CTE that the outer query reads through {@code IN}, beside a second CTE that
   * sums the same rows: only the witness (whose rows meet both CTEs and the outer joins) grown to exactly two rows
   * per counted row separates {@code count(*) > 2} from {@code >= 2}; the first instances' groups of two are the
   * base rows', which the outer query's other conditions reject.
   */
  @Test
  void aWitnessGrownToTheCountsOwnConstantSeparatesABoundaryMadeLoose() throws Exception {
    String left = "WITH busy AS (SELECT sa_item AS item FROM sale GROUP BY sa_item HAVING count(*) > 2), big AS "
        + "(SELECT sa_cust AS cust FROM sale GROUP BY sa_cust HAVING sum(sa_qty * sa_paid) > 100) SELECT sum(s_year) "
        + "FROM store WHERE s_sk IN (SELECT item FROM busy) AND s_sk IN (SELECT cust FROM big)";
    String right = left.replace("count(*) > 2", "count(*) >= 2");
    EquivalenceResult r = EquivalenceCheckerTest.assertRejected(ThresholdSearchTest.QUANTITIES, left, right);
    assertThat(r.summary()).as(r.summary()).contains("each sale row 2 times (a count compared with 2)")
        .doesNotContain("of a comparison over aggregates");
  }

  /**
   * DISTINCT added over a running total: two rows equal but for their keys give running sums {@code x} and {@code
   * 2x}, distinct unless {@code x} is 0; the groups of two with the numbers no condition reads at 0 give two equal
   * rows, which DISTINCT merges.
   */
  @Test
  void groupsOfTwoWithUnreadNumbersAtZeroSeparateDistinctOverARunningTotal() throws Exception {
    String left = "SELECT sa_store, sum(sa_paid) OVER (PARTITION BY sa_store ORDER BY sa_ticket, sa_item ROWS BETWEEN "
        + "UNBOUNDED PRECEDING AND CURRENT ROW) AS running FROM sale";
    String right = left.replace("SELECT ", "SELECT DISTINCT ");
    EquivalenceResult r = EquivalenceCheckerTest.assertRejected(ThresholdSearchTest.QUANTITIES, left, right);
    assertThat(r.summary()).contains("the numbers no condition reads at 0");
  }
}
