package dev.lakerewrite.core.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import dev.lakerewrite.core.sql.SqlParser;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The mutation search ({@link MutationSearch}) edits one cell of an instance on which the queries return rows, or
 * copies a row with one cell changed: a join condition left out of a LEFT JOIN's {@code ON} (TPC-DS q72's
 * returns matched by order number alone) needs a second return of the same order for another item, which no
 * generated instance holds, and a dropped filter on a dimension needs a row that passes every other filter.
 */
class MutationSearchTest {
  static final String SCHEMA = """
      CREATE TABLE household (hd_sk INTEGER PRIMARY KEY, hd_potential VARCHAR NOT NULL,
        hd_vehicles INTEGER NOT NULL);
      CREATE TABLE store (s_sk INTEGER PRIMARY KEY, s_county VARCHAR NOT NULL);
      CREATE TABLE sale (ss_ticket INTEGER NOT NULL, ss_item INTEGER NOT NULL, ss_store INTEGER NOT NULL,
        ss_hd INTEGER NOT NULL, PRIMARY KEY (ss_ticket, ss_item));
      """;

  /** One ticket of three sales that reaches the output: the instance the search starts from. */
  static final String ROWS = """
      INSERT INTO household VALUES (1, '>10000', 2);
      INSERT INTO store VALUES (1, 'Williamson County');
      INSERT INTO sale VALUES (7, 1, 1, 1), (7, 2, 1, 1), (7, 3, 1, 1);
      """;

  /** TPC-DS q34's shape: tickets of 3 or 4 sales in stores of two counties, for one kind of household. */
  static final String TICKETS = "SELECT ss_ticket, cnt FROM (SELECT ss_ticket, count(*) AS cnt FROM sale, store, "
      + "household WHERE ss_store = s_sk AND ss_hd = hd_sk AND s_county IN ('Williamson County', 'Ziebach County') "
      + "AND hd_potential = '>10000' AND hd_vehicles > 0 GROUP BY ss_ticket) AS dn WHERE cnt BETWEEN 3 AND 4";

  @Test
  void aDroppedConditionIsFoundByEditingOneCellOfRowsThatReachTheOutput() throws Exception {
    String[] mutants = {
      TICKETS.replace("s_county IN ('Williamson County', 'Ziebach County') AND ", ""),
      TICKETS.replace("AND hd_vehicles > 0 ", ""),
    };
    // Only the given rows and the first generated instance (every table empty), no witnesses: the rows that reach
    // the output are the given ones, and what separates the mutants is the search from them.
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA + ROWS).maxInstances(1)
             .witnesses(false).build();
         EquivalenceChecker without = EquivalenceChecker.builder().schema(SCHEMA + ROWS).maxInstances(1)
             .witnesses(false).mutationTrials(0).branchDistanceTrials(0).build()) {
      EquivalenceResult same = checker.check(TICKETS, "SELECT * FROM (" + TICKETS + ") AS same");
      assertThat(same.verdict()).as(same.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(same.evidence().checks()).as(same.summary()).anyMatch(c -> c.instance().contains(" set to "));
      for (String right : mutants) {
        EquivalenceResult r = checker.check(TICKETS, right);
        assertThat(r.verdict()).as("%s: %s", right, r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), TICKETS, right);
        EquivalenceResult missed = without.check(TICKETS, right);
        assertThat(missed.verdict()).as("%s without the search: %s", right, missed.summary())
            .isEqualTo(Verdict.EQUIVALENT);
      }
    }
  }

  /**
   * TPC-DS q73's shape with DISTINCT added: groups of (ticket, customer), output the customer's name, the ticket
   * and the count. A duplicate output row needs a second customer of the same name on the same ticket with as many
   * sales: the customer copied under a fresh key, and its one sale copied once to it, under another item (the key
   * column no query reads), not another ticket.
   */
  @Test
  void aCopiedEntityTakesEachOfItsFactsOnceAndKeepsWhatTheQueriesRead() throws Exception {
    String schema = """
        CREATE TABLE customer (c_sk INTEGER PRIMARY KEY, c_name VARCHAR NOT NULL);
        CREATE TABLE sale (ss_item INTEGER NOT NULL, ss_ticket INTEGER NOT NULL, ss_customer INTEGER NOT NULL,
          PRIMARY KEY (ss_item, ss_ticket));
        INSERT INTO customer VALUES (1, 'a');
        INSERT INTO sale VALUES (1, 7, 1);
        """;
    String left = "SELECT c_name, ss_ticket, cnt FROM (SELECT ss_ticket, ss_customer, count(*) AS cnt FROM sale "
        + "GROUP BY ss_ticket, ss_customer) AS dj, customer WHERE ss_customer = c_sk";
    String right = left.replace("SELECT c_name", "SELECT DISTINCT c_name");
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(schema).maxInstances(1)
             .witnesses(false).build();
         EquivalenceChecker without = EquivalenceChecker.builder().schema(schema).maxInstances(1)
             .witnesses(false).mutationTrials(0).branchDistanceTrials(0).build()) {
      EquivalenceResult r = checker.check(left, right);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), left, right);
      assertThat(without.check(left, right).verdict()).isEqualTo(Verdict.EQUIVALENT);
    }
  }

  /**
   * TPC-DS q78's shape: sales without a return (an anti-join on order and item). The rows given hold a sale and no
   * return; a mutant that drops or negates one condition of the join differs on a return that matches the sale in
   * all columns or in all but one — a row added to the empty table, joined to the sale.
   */
  @Test
  void anEmptyAntiJoinSideGetsARowJoinedToTheRowsPresent() throws Exception {
    String schema = """
        CREATE TABLE sale (ws_item INTEGER NOT NULL, ws_order INTEGER NOT NULL, ws_qty INTEGER NOT NULL,
          PRIMARY KEY (ws_item, ws_order));
        CREATE TABLE ret (wr_item INTEGER NOT NULL, wr_order INTEGER NOT NULL, wr_reason VARCHAR,
          PRIMARY KEY (wr_item, wr_order));
        INSERT INTO sale VALUES (3, 7, 10);
        """;
    String left = "SELECT ws_item, sum(ws_qty) AS qty FROM sale LEFT JOIN ret ON wr_order = ws_order AND ws_item = "
        + "wr_item WHERE wr_order IS NULL GROUP BY ws_item";
    String[] mutants = {
      left.replace("wr_order = ws_order AND ", ""),
      left.replace(" AND ws_item = wr_item", ""),
      left.replace("AND ws_item = wr_item", "AND NOT (ws_item = wr_item)"),
    };
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(schema).maxInstances(1)
             .witnesses(false).build();
         EquivalenceChecker without = EquivalenceChecker.builder().schema(schema).maxInstances(1)
             .witnesses(false).mutationTrials(0).branchDistanceTrials(0).build()) {
      for (String right : mutants) {
        EquivalenceResult r = checker.check(left, right);
        assertThat(r.verdict()).as("%s: %s", right, r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        assertThat(r.summary()).contains("a row of ret joined to the rows present");
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), left, right);
        assertThat(without.check(left, right).verdict()).as(right).isEqualTo(Verdict.EQUIVALENT);
      }
    }
  }

  @Test
  void theColumnsOfExpressionsOnlyOneQueryHasAreEditedFirst() throws Exception {
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
      SqlParser parser = SqlParser.on(duck);
      var left = parser.parse("SELECT a.x FROM t AS a JOIN u ON a.k = u.k WHERE a.y > 3 AND u.z = 'q'")
          .statement(0);
      var renamed = parser.parse("SELECT b.x FROM t AS b JOIN u ON u.k = b.k WHERE b.y > 3 AND u.z = 'q'")
          .statement(0);
      var dropped = parser.parse("SELECT a.x FROM t AS a JOIN u ON a.k = u.k WHERE a.y > 3").statement(0);
      var loosened = parser.parse("SELECT a.x FROM t AS a JOIN u ON a.k = u.k WHERE a.y >= 3 AND u.z = 'q'")
          .statement(0);
      assertThat(MutationSearch.differingColumns(left, dropped)).containsExactly("z");
      assertThat(MutationSearch.differingColumns(left, loosened)).containsExactly("y");
      var respelled = parser.parse("select longer_alias.x from t as longer_alias join u "
          + "on longer_alias.k=u.k where longer_alias.y>3 and u.z='q'").statement(0);
      // Aliases, table qualifiers and spelling (spaces, case, the lengths the parser records) are no difference.
      assertThat(MutationSearch.differingColumns(left, renamed)).isEmpty();
      assertThat(MutationSearch.differingColumns(left, respelled)).isEmpty();
    }
  }

  static final String DEMOGRAPHICS = """
      CREATE TABLE demo (cd_sk INTEGER PRIMARY KEY, cd_marital VARCHAR NOT NULL, cd_education VARCHAR NOT NULL);
      CREATE TABLE addr (ca_sk INTEGER PRIMARY KEY, ca_state VARCHAR NOT NULL);
      CREATE TABLE sold (ss_ticket INTEGER NOT NULL, ss_item INTEGER NOT NULL, ss_cd INTEGER NOT NULL,
        ss_addr INTEGER NOT NULL, ss_qty INTEGER NOT NULL, ss_price DECIMAL(7,2) NOT NULL,
        ss_profit DECIMAL(7,2) NOT NULL, PRIMARY KEY (ss_ticket, ss_item));
      """;

  /**
   * TPC-DS q13/q48's shape: two ORs of three-way conditions under one average. A bound moved in the second disjunct
   * of the second OR tells the queries apart only on a row that meets that disjunct and sits at the bound the two
   * queries do not share: the search also starts from the witness of that disjunct, and tries the constant only one
   * query writes (300, not the 150 both write) first.
   */
  static final String TWO_ORS = "SELECT avg(ss_qty) FROM sold, demo, addr WHERE ss_cd = cd_sk AND ss_addr = ca_sk "
      + "AND ((cd_marital = 'M' AND cd_education = 'College' AND ss_price BETWEEN 100.00 AND 150.00) OR (cd_marital = "
      + "'S' AND cd_education = 'Primary' AND ss_price BETWEEN 50.00 AND 100.00)) AND ((ca_state IN ('TX', 'OH') AND "
      + "ss_profit BETWEEN 100 AND 200) OR (ca_state IN ('OR', 'NM') AND ss_profit BETWEEN 150 AND 300))";

  @Test
  void aBoundMovedInTheSecondDisjunctOfTheSecondOrIsFoundFromItsWitness() throws Exception {
    String right = TWO_ORS.replace("BETWEEN 150 AND 300", "BETWEEN 150 AND 299");
    // Also where every column but the keys may be NULL: a NULL is the first edit of such a column.
    for (String schema : List.of(DEMOGRAPHICS, DEMOGRAPHICS.replace(" NOT NULL", ""))) {
      try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(schema).build()) {
        EquivalenceResult r = checker.check(TWO_ORS, right);
        assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
        EquivalenceCheckerTest.assertDiffers(r.counterexample().orElseThrow(), TWO_ORS, right);
      }
    }
  }
}
