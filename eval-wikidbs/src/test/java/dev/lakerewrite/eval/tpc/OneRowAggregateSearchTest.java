package dev.lakerewrite.eval.tpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.Engine;
import dev.lakerewrite.core.equivalence.Counterexample;
import dev.lakerewrite.core.equivalence.EquivalenceChecker;
import dev.lakerewrite.core.equivalence.EquivalenceResult;
import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import org.junit.jupiter.api.Test;

/**
 * TPC-DS q88 (eight counts of one four-table join, one per half hour, cross-joined) answers one row on every
 * instance, the empty one included. A boundary made strict in one block ({@code t_minute >= 30} to {@code > 30})
 * changes the count only where that block's rows meet every other filter of the block and the minute is exactly
 * 30: the generic instances' one row per table meets one block's filters at most, and every instance answers one
 * row, so "returned rows" says nothing. The mutation search starts from an instance whose answers differ from the
 * empty database's and from the first such witness (a row per table occurrence), whose block rows it edits one by
 * one. On the schema with every column NOT NULL; the DDL alone, no data.
 */
class OneRowAggregateSearchTest {

  @Test
  void aBoundaryMadeStrictInOneOfEightCountBlocksIsFound() throws Exception {
    String left = TpcQueries.tpcds("q88", Engine.DUCKDB);
    String right = left.replaceFirst("time_dim\\.t_minute >= 30", "time_dim.t_minute > 30");
    assertThat(right).isNotEqualTo(left);
    assertToldApart(left, right);
  }

  /**
   * {@code hd_dep_count = 0} dropped from the third disjunct of the eighth block only: a household with another
   * dependant count and few vehicles now counts there. The other constants on the column (2 and 4) satisfy a
   * sibling disjunct in both queries; the search edits the column to the dropped constant's neighbours, starting
   * from a witness of the eighth block's third disjunct, which only the left query has.
   */
  @Test
  void aConjunctDroppedFromOneDisjunctOfTheEighthBlockIsFound() throws Exception {
    String left = TpcQueries.tpcds("q88", Engine.DUCKDB);
    int last = left.lastIndexOf("household_demographics.hd_dep_count = 0 AND");
    assertThat(last).isPositive();
    String right = left.substring(0, last) + left.substring(last + "household_demographics.hd_dep_count = 0 AND"
        .length());
    assertToldApart(left, right);
  }

  /**
   * TPC-DS q73 with DISTINCT added: its groups are (ticket, customer) and its output the customer's names, the
   * ticket and the count, so two customers of one name on one ticket give a duplicate row. The search copies a
   * customer under a fresh key with its sales, each sale once and under a new item rather than a new ticket (the
   * queries read the ticket, not the item), so the copy joins the same ticket.
   */
  @Test
  void distinctAddedOverGroupsWhoseKeyIsNotAllOutputIsFound() throws Exception {
    String left = TpcQueries.tpcds("q73", Engine.DUCKDB);
    String right = left.replaceFirst("(?i)^\\s*SELECT", "SELECT DISTINCT");
    assertThat(right).isNotEqualTo(left);
    assertToldApart(left, right);
  }

  /** On the strict TPC-DS schema (DDL alone): NOT_EQUIVALENT, with a counterexample that re-runs as a difference. */
  private static void assertToldApart(String left, String right) throws Exception {
    String schema = EquivalenceCorpus.tpcdsSchema(false);
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(schema).build()) {
      EquivalenceResult r = checker.check(left, right);
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      Counterexample ce = r.counterexample().orElseThrow();
      assertThat(CorpusRun.differs(ce, left, right)).as(ce.toString()).isTrue();
    }
  }
}
