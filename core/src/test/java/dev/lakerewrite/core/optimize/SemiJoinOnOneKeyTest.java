package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceEvidence;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code semi-join-on-one-key}: a join on several keys that the measured plan shows keeping few rows of a large
 * table gets a redundant semi-join on one key column of that table; the plan decides where, the block whether.
 */
class SemiJoinOnOneKeyTest {
  static Harness h;

  @BeforeAll
  static void setUp() throws SQLException {
    h = Harness.of(
        "CREATE TABLE reason (r_reason_sk INTEGER PRIMARY KEY, r_reason_desc VARCHAR)",
        "CREATE TABLE store_sales (ss_item_sk INTEGER, ss_ticket_number INTEGER, ss_customer_sk INTEGER,"
            + " ss_quantity INTEGER, ss_sales_price DECIMAL(7,2))",
        "CREATE TABLE store_returns (sr_item_sk INTEGER, sr_ticket_number INTEGER, sr_reason_sk INTEGER,"
            + " sr_return_quantity INTEGER)",
        "INSERT INTO reason SELECT i, 'reason ' || i FROM range(1, 36) t(i)",
        "INSERT INTO store_sales SELECT i % 30 + 1, i / 3, i % 11, i % 9, (i % 50) * 1.5 FROM range(1, 3001) t(i)",
        "INSERT INTO store_returns SELECT i % 30 + 1, i / 3, i % 35 + 1, i % 5 FROM range(1, 3001, 7) t(i)",
        // A return whose ticket matches sales of other items only, and one with no reason.
        "INSERT INTO store_returns VALUES (29, 5, 28, 1), (3, 9, NULL, 2)");
  }

  @AfterAll
  static void tearDown() throws Exception {
    h.close();
  }

  /** TPC-DS q93's shape: sales left-joined to returns on item and ticket, the returns' reason filtered in WHERE. */
  static final String Q93 = "SELECT ss_customer_sk, sum(act_sales) AS sumsales FROM (SELECT ss_item_sk,"
      + " ss_ticket_number, ss_customer_sk, CASE WHEN sr_return_quantity IS NOT NULL THEN (ss_quantity -"
      + " sr_return_quantity) * ss_sales_price ELSE ss_quantity * ss_sales_price END AS act_sales FROM store_sales"
      + " LEFT OUTER JOIN store_returns ON (sr_item_sk = ss_item_sk AND sr_ticket_number = ss_ticket_number),"
      + " reason WHERE sr_reason_sk = r_reason_sk AND r_reason_desc = 'reason 28') t GROUP BY ss_customer_sk"
      + " ORDER BY sumsales, ss_customer_sk";

  /** The plan's selective join: DuckDB's condition text. */
  static final List<List<List<String>>> JOIN = List.of(PlanProfile.equalities(
      "ss_item_sk = sr_item_sk, ss_ticket_number = sr_ticket_number"));

  private static List<RuleProposer.Proposal> propose(String q, List<List<List<String>>> joins) {
    return new SemiJoinOnOneKey().candidates(q, h.rules(), joins);
  }

  private static void assertEquivalent(String original, RuleProposer.Proposal p) throws SQLException {
    EquivalenceEvidence e = h.check(original, p.sql());
    assertThat(e.equivalent()).as(p.label() + "\n" + p.sql() + "\n" + e.summary()).isTrue();
  }

  @Test
  void theLargeTableIsReducedBySemiJoinOnOneKeyOfTheFilteredSide() throws SQLException {
    List<RuleProposer.Proposal> ps = propose(Q93, JOIN);
    assertThat(ps).hasSize(1);
    String sql = ps.get(0).sql().replaceAll("\\s+", " ");
    // The returns and the reason they are joined to (not through the sales), with their conditions; the join stays.
    // DuckDB prints IN (SELECT ..) as = ANY(SELECT ..), which PostgreSQL reads too.
    assertThat(sql).contains("store_sales.ss_ticket_number = ANY(SELECT store_returns.sr_ticket_number")
        .contains("FROM store_returns , reason WHERE").contains("r_reason_desc = 'reason 28'")
        .contains("LEFT JOIN store_returns");
    assertThat(ps.get(0).explanation()).contains("store_sales joins store_returns on 2 columns");
    assertEquivalent(Q93, ps.get(0));
  }

  @Test
  void onlyWhereThePlanShowsTheJoinAndTheBlockKeepsOnlyMatchedRows() {
    assertThat(propose(Q93, List.of())).isEmpty();
    assertThat(propose(Q93, List.of(PlanProfile.equalities("ss_item_sk = sr_item_sk")))).isEmpty();
    // Without the WHERE condition on the returns the left join keeps sales without a return: no semi-join.
    String outer = "SELECT count(*) AS n, sum(sr_return_quantity) AS q FROM store_sales LEFT JOIN store_returns"
        + " ON sr_item_sk = ss_item_sk AND sr_ticket_number = ss_ticket_number";
    assertThat(propose(outer, JOIN)).isEmpty();
    // A condition IS NULL does not reject the left join's NULL rows either.
    assertThat(propose(outer + " WHERE sr_reason_sk IS NULL", JOIN)).isEmpty();
  }

  @Test
  void anInnerJoinAnywhereInTheStatementWithTheSmallSidesOwnFilterOnly() throws SQLException {
    String q = "WITH r AS (SELECT ss_customer_sk, count(*) AS n FROM store_sales JOIN store_returns"
        + " ON sr_item_sk = ss_item_sk AND sr_ticket_number = ss_ticket_number WHERE ss_quantity > 2"
        + " AND sr_return_quantity < 2 GROUP BY ss_customer_sk) SELECT * FROM r ORDER BY ss_customer_sk";
    List<RuleProposer.Proposal> ps = propose(q, JOIN);
    assertThat(ps).hasSize(1);
    assertThat(ps.get(0).sql().replaceAll("\\s+", " ")).contains("= ANY(SELECT store_returns.sr_")
        .contains("FROM store_returns WHERE (sr_return_quantity < 2))").doesNotContain("ss_quantity > 2)))");
    assertEquivalent(q, ps.get(0));
  }

  @Test
  void thePlansConditionsAreReadOnBothEngines() {
    assertThat(PlanProfile.equalities("((ss.ss_item_sk = sr.sr_item_sk) AND (ss.\"Ticket\" = sr.sr_ticket_number))"))
        .containsExactly(List.of("ss_item_sk", "sr_item_sk"), List.of("ticket", "sr_ticket_number"));
    assertThat(PlanProfile.equalities("a >= b, c <= d, e IS NOT DISTINCT FROM f")).isEmpty();
    String plan = "[{\"Plan\": {\"Node Type\": \"Hash Join\", \"Hash Cond\": \"((ss.ss_item_sk = sr.sr_item_sk) AND"
        + " (ss.ss_ticket_number = sr.sr_ticket_number))\", \"Actual Rows\": 8000, \"Actual Loops\": 1,"
        + " \"Actual Total Time\": 900.0, \"Plan Rows\": 160000, \"Plans\": ["
        + "{\"Node Type\": \"Seq Scan\", \"Relation Name\": \"store_sales\", \"Actual Rows\": 2880000,"
        + " \"Actual Loops\": 1, \"Actual Total Time\": 300.0, \"Plan Rows\": 2880000},"
        + "{\"Node Type\": \"Hash\", \"Actual Rows\": 8000, \"Actual Loops\": 1, \"Actual Total Time\": 10.0,"
        + " \"Plan Rows\": 16000, \"Plans\": [{\"Node Type\": \"Seq Scan\", \"Relation Name\": \"store_returns\","
        + " \"Actual Rows\": 8000, \"Actual Loops\": 1, \"Actual Total Time\": 5.0, \"Plan Rows\": 16000}]}]}}]";
    PlanProfile p = PlanProfile.of(ExecutionPlan.parse(plan, true));
    assertThat(p.multiKeyJoins()).hasSize(1);
    assertThat(new SemiJoinOnOneKey().appliesTo(p)).isTrue();
    assertThat(p.describe()).contains("SELECTIVE_MULTI_KEY_JOIN");
  }
}
