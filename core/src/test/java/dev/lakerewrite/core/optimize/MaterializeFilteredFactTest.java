package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceEvidence;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code materialize-filtered-fact}: a dimension filter the measured plan applies above a misestimated join moves
 * into a MATERIALIZED CTE of the fact rows it keeps; the plan decides where, the query's structure whether.
 */
class MaterializeFilteredFactTest {
  static Harness h;

  @BeforeAll
  static void setUp() throws SQLException {
    h = Harness.of(
        "CREATE TABLE date_dim (d_date_sk INTEGER, d_quarter_name VARCHAR)",
        "CREATE TABLE item (i_item_sk INTEGER PRIMARY KEY, i_item_id VARCHAR)",
        "CREATE TABLE store_sales (ss_item_sk INTEGER, ss_ticket_number INTEGER, ss_customer_sk INTEGER,"
            + " ss_sold_date_sk INTEGER, ss_quantity INTEGER)",
        "CREATE TABLE store_returns (sr_item_sk INTEGER, sr_ticket_number INTEGER, sr_customer_sk INTEGER,"
            + " sr_returned_date_sk INTEGER, sr_return_quantity INTEGER)",
        "INSERT INTO date_dim SELECT i, CASE WHEN i % 4 = 0 THEN '2001Q1' ELSE '2001Q2' END FROM range(1, 41) t(i)",
        "INSERT INTO item SELECT i, 'I' || (i % 7) FROM range(1, 31) t(i)",
        "INSERT INTO store_sales SELECT i % 30 + 1, i, i % 11, i % 40 + 1, i % 9 FROM range(1, 2001) t(i)",
        "INSERT INTO store_returns SELECT i % 30 + 1, i, i % 11, (i * 7) % 40 + 1, i % 5 FROM range(1, 2001, 3) t(i)",
        // A date key twice in the dimension: the rewrite keeps every match, as often as the join does.
        "INSERT INTO date_dim VALUES (8, '2001Q1')");
  }

  @AfterAll
  static void tearDown() throws Exception {
    h.close();
  }

  /** TPC-DS q17's shape: sales joined to returns on a composite key, d1 filtered to one quarter. */
  static final String Q17 = "SELECT i_item_id, count(ss_quantity) AS n, avg(sr_return_quantity) AS r"
      + " FROM store_sales, store_returns, date_dim d1, date_dim d2, item"
      + " WHERE d1.d_quarter_name = '2001Q1' AND d1.d_date_sk = ss_sold_date_sk AND i_item_sk = ss_item_sk"
      + " AND ss_customer_sk = sr_customer_sk AND ss_item_sk = sr_item_sk AND ss_ticket_number = sr_ticket_number"
      + " AND sr_returned_date_sk = d2.d_date_sk AND d2.d_quarter_name IN ('2001Q1', '2001Q2') AND ss_quantity > 2"
      + " GROUP BY i_item_id ORDER BY i_item_id";

  private static List<RuleProposer.Proposal> propose(String q, String... late) {
    return new MaterializeFilteredFact().candidates(q, h.rules(), Set.of(late));
  }

  private static void assertEquivalent(String original, RuleProposer.Proposal p) throws SQLException {
    EquivalenceEvidence e = h.check(original, p.sql());
    assertThat(e.equivalent()).as(p.label() + "\n" + p.sql() + "\n" + e.summary()).isTrue();
  }

  @Test
  void theLateDimensionAndItsJoinMoveIntoAMaterializedCteOfTheFactRows() throws SQLException {
    List<RuleProposer.Proposal> ps = propose(Q17, "d1");
    assertThat(ps).hasSize(1);
    String sql = ps.get(0).sql().replaceAll("\\s+", " ").replace(" ,", ",");
    assertThat(sql).contains("lr_fact1 AS MATERIALIZED (SELECT store_sales.ss_item_sk, store_sales.ss_ticket_number,")
        .contains("store_sales.ss_quantity FROM store_sales, date_dim AS d1 WHERE")
        .contains("lr_fact1 AS store_sales").contains("(ss_quantity > 2)");
    assertThat(sql.substring(sql.indexOf(") SELECT"))).doesNotContain("d1").contains("d2");
    assertThat(ps.get(0).explanation()).contains("d1's filters").contains("moved into the MATERIALIZED CTE lr_fact1");
    assertEquivalent(Q17, ps.get(0));
  }

  @Test
  void eachLateAliasAloneThenAllTogether() throws SQLException {
    List<RuleProposer.Proposal> ps = propose(Q17, "d1", "d2");
    assertThat(ps).extracting(RuleProposer.Proposal::label).containsExactly("materialize-filtered-fact",
        "materialize-filtered-fact", "materialize-filtered-fact-all");
    assertThat(ps.get(2).sql()).contains("lr_fact1").contains("lr_fact2").contains("AS store_returns");
    for (RuleProposer.Proposal p : ps) {
      assertEquivalent(Q17, p);
    }
  }

  @Test
  void aDimensionReadElsewhereJoinedTwiceOrOuterJoinedIsLeftAlone() {
    // Its column in the select list, in a second join, an outer join; an alias the query does not have.
    assertThat(propose(Q17.replace("SELECT i_item_id,", "SELECT i_item_id, max(d1.d_quarter_name) AS q,"), "d1"))
        .isEmpty();
    assertThat(propose(Q17.replace("AND i_item_sk = ss_item_sk", "AND i_item_sk = ss_item_sk"
        + " AND d1.d_date_sk = sr_returned_date_sk"), "d1")).isEmpty();
    assertThat(propose("SELECT count(*) FROM store_sales LEFT JOIN date_dim d1 ON d1.d_date_sk = ss_sold_date_sk"
        + " WHERE d1.d_quarter_name = '2001Q1'", "d1")).isEmpty();
    assertThat(propose(Q17, "d9")).isEmpty();
    // Without the plan (a composite's second recipe) there is nothing to go by.
    assertThat(new MaterializeFilteredFact().candidates(Q17, h.rules())).isEmpty();
  }

  /** q17's plan on PostgreSQL, cut down: d1's index probe sits above joins estimated at one row. */
  private static String plan(long misestimatedRows) {
    return "[{\"Plan\": {\"Node Type\": \"Nested Loop\", \"Plan Rows\": 1, \"Actual Rows\": 5, \"Actual Loops\": 1,"
        + " \"Actual Total Time\": 10039.0, \"Plans\": ["
        + "{\"Node Type\": \"Nested Loop\", \"Plan Rows\": 1, \"Actual Rows\": " + misestimatedRows + ","
        + " \"Actual Loops\": 1, \"Actual Total Time\": 10038.0, \"Plans\": ["
        + "{\"Node Type\": \"Seq Scan\", \"Relation Name\": \"store_returns\", \"Alias\": \"store_returns\","
        + " \"Plan Rows\": 1000, \"Actual Rows\": 40686, \"Actual Loops\": 1, \"Actual Total Time\": 30.0},"
        + "{\"Node Type\": \"Index Scan\", \"Relation Name\": \"store_sales\", \"Alias\": \"store_sales\","
        + " \"Plan Rows\": 1, \"Actual Rows\": 1, \"Actual Loops\": 40686, \"Actual Total Time\": 0.18}]},"
        + "{\"Node Type\": \"Index Scan\", \"Relation Name\": \"date_dim\", \"Alias\": \"d1\", \"Plan Rows\": 1,"
        + " \"Filter\": \"((d_quarter_name)::text = '2001Q1'::text)\", \"Rows Removed by Filter\": 1,"
        + " \"Actual Rows\": 0, \"Actual Loops\": 33, \"Actual Total Time\": 0.017}]}}]";
  }

  @Test
  void thePlanNamesFiltersAppliedAboveAMisestimatedJoin() {
    PlanProfile late = PlanProfile.of(ExecutionPlan.parse(plan(30_000), true));
    assertThat(late.lateFilters()).containsExactly("d1");
    assertThat(late.describe()).contains("filters applied above a misestimated join: d1");
    assertThat(new MaterializeFilteredFact().appliesTo(late)).isTrue();
    // Estimated about right: the planner chose the order knowingly; nothing to do. Nor on an estimated plan.
    PlanProfile right = PlanProfile.of(ExecutionPlan.parse(plan(3), true));
    assertThat(right.lateFilters()).isEmpty();
    assertThat(new MaterializeFilteredFact().appliesTo(right)).isFalse();
    assertThat(PlanProfile.of(ExecutionPlan.parse(plan(30_000), false)).lateFilters()).isEmpty();
  }
}
