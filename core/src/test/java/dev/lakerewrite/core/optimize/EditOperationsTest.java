package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.optimize.EditOperations.Operation;
import dev.lakerewrite.core.optimize.EditOperations.Patch;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EditOperationsTest {
  static Harness h;
  static EditOperations ops;
  static final String QUERY = "WITH recent AS (SELECT o_id, cust_id, amount FROM orders WHERE amount > 10),"
      + " totals AS (SELECT cust_id, sum(amount) AS total FROM recent GROUP BY cust_id)"
      + " SELECT c.name, t.total FROM customers c JOIN totals t ON c.c_id = t.cust_id WHERE t.total > 100"
      + " ORDER BY t.total DESC";

  @BeforeAll
  static void setUp() throws SQLException {
    h = Harness.of("CREATE TABLE customers (c_id INTEGER PRIMARY KEY, name VARCHAR)",
        "CREATE TABLE orders (o_id INTEGER PRIMARY KEY, cust_id INTEGER, amount DECIMAL(10,2))",
        "INSERT INTO customers SELECT i, 'c' || i FROM range(1, 11) t(i)",
        "INSERT INTO orders SELECT i, 1 + i % 10, i FROM range(1, 101) t(i)");
    ops = new EditOperations(h.trees, h.catalog::hasTable);
  }

  @AfterAll
  static void tearDown() throws SQLException {
    h.close();
  }

  private static String run(String sql) {
    return sql.replaceAll("\\s+", " ");
  }

  @Test
  void addReplaceAndDeleteCtesApplyAndTheResultRuns() throws SQLException {
    String out = ops.apply(QUERY, List.of(
        Operation.addCte("big", "recent", "SELECT o_id FROM recent WHERE amount > 50"),
        Operation.replaceCte("totals", "SELECT cust_id, sum(amount) AS total FROM recent WHERE amount > 20 GROUP BY cust_id"),
        Operation.deleteCte("big")));
    assertThat(run(out)).contains("amount > 20").doesNotContain("big AS");
    assertThat(h.verifier(out, false).executable(out).ok()).isTrue();

    String withHint = ops.apply(QUERY, List.of(new Operation("add_cte", "hot", null,
        "SELECT cust_id FROM totals WHERE total > 500", null, null, "MATERIALIZED")));
    assertThat(run(withHint)).contains("hot AS MATERIALIZED");
    // Without "after", the new CTE goes after the last CTE it uses (totals), so that it can see it.
    assertThat(withHint.indexOf("hot AS")).isGreaterThan(withHint.indexOf("totals AS"));
  }

  @Test
  void replaceClauseAndPatchEditOneClauseOfOneBlock() {
    String out = ops.apply(QUERY, List.of(
        Operation.replaceClause("main_query.where", "t.total > 200"),
        Operation.patch("recent.where", new Patch("amount > 10", "amount > 15")),
        Operation.replaceClause("main_query.order_by", "t.total ASC")));
    assertThat(run(out)).contains("t.total > 200").contains("amount > 15").contains("ORDER BY t.total ASC")
        .doesNotContain("amount > 10)");
    // Patches match whatever the whitespace and case of the search text.
    String patched = ops.apply(QUERY, List.of(Operation.patch("totals.group_by", new Patch("CUST_ID", "cust_id"))));
    assertThat(patched).contains("GROUP BY cust_id");
    String removed = ops.apply(QUERY, List.of(Operation.replaceClause("main_query.where", "")));
    assertThat(run(removed)).doesNotContain("t.total > 100");
  }

  @Test
  void operationsThatCannotApplySayWhy() {
    assertThatThrownBy(() -> ops.apply(QUERY, List.of(Operation.deleteCte("recent"))))
        .isInstanceOf(EditOperations.EditException.class)
        .hasMessageContaining("operation 1 (delete_cte)").hasMessageContaining("still referenced in totals");
    assertThatThrownBy(() -> ops.apply(QUERY, List.of(Operation.replaceClause("totalz.where", "true"))))
        .hasMessageContaining("no block 'totalz'").hasMessageContaining("recent, totals, main_query");
    assertThatThrownBy(() -> ops.apply(QUERY, List.of(Operation.replaceClause("totals.wher", "true"))))
        .hasMessageContaining("unknown clause 'wher'");
    assertThatThrownBy(() -> ops.apply(QUERY, List.of(Operation.patch("recent.where", new Patch("price", "x")))))
        .hasMessageContaining("search text not found in recent.where").hasMessageContaining("amount > 10");
    assertThatThrownBy(() -> ops.apply(QUERY, List.of(Operation.addCte("recent", null, "SELECT 1"))))
        .hasMessageContaining("already exists");
    assertThatThrownBy(() -> ops.apply(QUERY, List.of(new Operation("drop_table", "orders", null, null, null, null,
        null)))).hasMessageContaining("unknown op 'drop_table'");
    assertThatThrownBy(() -> ops.apply(QUERY, List.of(Operation.replaceClause("main_query.where", "t.total >"))))
        .hasMessageContaining("does not parse");
  }

  @Test
  void validationRejectsDanglingReferencesWithAHint() {
    assertThatThrownBy(() -> ops.apply(QUERY, List.of(Operation.replaceClause("main_query.from",
        "customers c JOIN total t ON c.c_id = t.cust_id"))))
        .hasMessageContaining("unresolved reference in main_query: total").hasMessageContaining("did you mean 'totals'?");
    assertThatThrownBy(() -> ops.validate("SELECT * FROM customer")).hasMessageContaining("customer is neither");
    assertThat(ops.validate("SELECT * FROM customers")).isEqualTo("SELECT * FROM customers");
  }

  @Test
  void hostileTextCannotSmuggleASecondStatement() {
    assertThatThrownBy(() -> ops.apply(QUERY, List.of(Operation.replaceClause("main_query.where",
        "true; DROP TABLE orders")))).isInstanceOf(EditOperations.EditException.class);
    assertThatThrownBy(() -> ops.validate("SELECT 1; DROP TABLE orders"))
        .isInstanceOf(EditOperations.EditException.class);
  }

  @Test
  void blockMapShowsClausesRefsRepeatedScansAndFilterGaps() {
    String sql = "WITH period AS (SELECT cust_id, sum(amount) AS s FROM orders WHERE amount > 10 GROUP BY cust_id),"
        + " alltime AS (SELECT cust_id, max(amount) AS m FROM orders GROUP BY cust_id)"
        + " SELECT * FROM period p JOIN alltime a ON p.cust_id = a.cust_id WHERE p.s > (SELECT avg(s) FROM period)"
        + " UNION ALL SELECT 1, 2, 3, 4";
    BlockMap map = BlockMap.of(h.trees, sql);
    String text = map.format();
    assertThat(text).contains("period").contains(".group_by").contains("main_query.union[1]")
        .contains("main_query.union[0].from -> period, alltime")
        .contains("main_query.union[0].where -> period")
        .contains("orders: 2x (period.from, alltime.from)")
        .contains("alltime.from scans orders WITHOUT literal filters, but period filters it on (amount > 10)");
    assertThat(map.cteReferenceCounts()).containsEntry("period", 2).containsEntry("alltime", 1);
  }
}
