package dev.lakerewrite.core.equivalence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import org.junit.jupiter.api.Test;

/**
 * Differences the syntactic pass proves irrelevant before any instance runs (the verdict is EQUIVALENT and proved),
 * and their look-alikes it must not: a conjunct {@code c IS NOT NULL} on a NOT NULL column of an inner-joined table
 * is TRUE on every row (TPC-DS q51's {@code ss_item_sk IS NOT NULL}), unlike one on a nullable column or on the NULL
 * side of an outer join; DISTINCT on an aggregate without GROUP BY (one row, TPC-DS q97) or over groups whose keys are
 * all output changes nothing, unlike DISTINCT on a window over every row or over groups with a key left out.
 */
class NormalFormProofsTest {
  static final String SCHEMA = """
      CREATE TABLE item (i_sk INTEGER PRIMARY KEY, i_name VARCHAR NOT NULL, i_color VARCHAR);
      CREATE TABLE sale (s_item INTEGER NOT NULL, s_ticket INTEGER NOT NULL, s_paid INTEGER NOT NULL,
        PRIMARY KEY (s_item, s_ticket));
      """;

  @Test
  void aConjunctTheSchemaMakesTrueIsProvedRedundant() {
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult keyColumn = checker.check(
          "SELECT s_item, sum(s_paid) FROM sale, item WHERE s_item = i_sk AND s_item IS NOT NULL GROUP BY s_item",
          "SELECT s_item, sum(s_paid) FROM sale, item WHERE s_item = i_sk GROUP BY s_item");
      assertThat(keyColumn.verdict()).as(keyColumn.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(keyColumn.proved()).as(keyColumn.summary()).isTrue();

      EquivalenceResult qualified = checker.check(
          "SELECT i.i_name FROM item AS i WHERE i.i_name IS NOT NULL AND i.i_sk > 3",
          "SELECT i.i_name FROM item AS i WHERE i.i_sk > 3");
      assertThat(qualified.proved()).as(qualified.summary()).isTrue();

      EquivalenceResult nullable = checker.check("SELECT i_name FROM item WHERE i_color IS NOT NULL AND i_sk > 3",
          "SELECT i_name FROM item WHERE i_sk > 3");
      assertThat(nullable.verdict()).as(nullable.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);

      EquivalenceResult outer = checker.check(
          "SELECT i_name, s_ticket FROM item LEFT JOIN sale ON s_item = i_sk WHERE s_ticket IS NOT NULL",
          "SELECT i_name, s_ticket FROM item LEFT JOIN sale ON s_item = i_sk");
      assertThat(outer.verdict()).as(outer.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    }
  }

  @Test
  void distinctOnOneAggregatedRowIsProvedRedundant() {
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      EquivalenceResult oneRow = checker.check(
          "SELECT DISTINCT sum(s_paid) AS paid, count(*) AS n FROM sale FULL JOIN item ON s_item = i_sk",
          "SELECT sum(s_paid) AS paid, count(*) AS n FROM sale FULL JOIN item ON s_item = i_sk");
      assertThat(oneRow.verdict()).as(oneRow.summary()).isEqualTo(Verdict.EQUIVALENT);
      assertThat(oneRow.proved()).as(oneRow.summary()).isTrue();

      EquivalenceResult window = checker.check("SELECT DISTINCT sum(s_paid) OVER () AS paid FROM sale",
          "SELECT sum(s_paid) OVER () AS paid FROM sale");
      assertThat(window.verdict()).as(window.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    }
  }

  @Test
  void distinctOverGroupsWhoseKeysAreAllOutputIsProvedRedundant() {
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      for (String grouped : new String[] {
          "SELECT s_paid % 10 AS bucket, count(*) FROM sale GROUP BY 1",
          "SELECT s_paid % 10 AS bucket, count(*) FROM sale GROUP BY s_paid % 10",
          "SELECT i_color, s_ticket, sum(s_paid) FROM sale, item WHERE s_item = i_sk GROUP BY s_ticket, i_color"}) {
        EquivalenceResult r = checker.check(grouped, grouped.replace("SELECT ", "SELECT DISTINCT "));
        assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.EQUIVALENT);
        assertThat(r.proved()).as("%s: %s", grouped, r.summary()).isTrue();
      }
      // A key the output does not hold: two tickets of one colour give two equal rows, which DISTINCT merges.
      String partial = "SELECT i_color, sum(s_paid) FROM sale, item WHERE s_item = i_sk GROUP BY s_ticket, i_color";
      EquivalenceResult r = checker.check(partial, partial.replace("SELECT ", "SELECT DISTINCT "));
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
      // A select alias named like a column is not the column: GROUP BY binds s_paid to the column.
      String shadow = "SELECT s_paid % 10 AS s_paid, count(*) FROM sale GROUP BY s_paid";
      EquivalenceResult s2 = checker.check(shadow, shadow.replace("SELECT ", "SELECT DISTINCT "));
      assertThat(s2.proved()).as(s2.summary()).isFalse();
    }
  }

  /**
   * A conjunct comparing {@code CASE WHEN p THEN ... ELSE NULL END} with something holds only where {@code p} does:
   * a conjunct {@code p} beside it, or a weaker one, is redundant, also when the CASE conjunct is the only one left
   * and when both sides of the comparison are such CASEs (TPC-DS q74's ratios of two channels' totals). With another
   * ELSE the CASE holds without {@code p}, and dropping {@code p} changes the result.
   */
  @Test
  void aConjunctThatACaseWithoutElseRequiresIsProvedRedundant() {
    String ratio = "SELECT s_item, s_ticket FROM sale WHERE s_paid > 0 AND CASE WHEN s_paid > 0 THEN s_ticket / s_paid "
        + "ELSE NULL END > 0.1";
    String twoSides = "SELECT s_item FROM sale WHERE s_paid > 0 AND s_ticket > 0 AND CASE WHEN s_paid > 0 THEN s_item "
        + "/ s_paid ELSE NULL END > CASE WHEN s_ticket > 0 THEN s_item / s_ticket ELSE NULL END";
    try (EquivalenceChecker checker = EquivalenceChecker.builder().schema(SCHEMA).build()) {
      for (String[] pair : new String[][] {
          {ratio, ratio.replace("s_paid > 0 AND ", "")},
          {twoSides, twoSides.replace("s_ticket > 0 AND", "s_ticket >= 0 AND")},
          {twoSides, twoSides.replace("AND s_ticket > 0 AND", "AND")}}) {
        EquivalenceResult r = checker.check(pair[0], pair[1]);
        assertThat(r.proved()).as("%s: %s", pair[1], r.summary()).isTrue();
        assertThat(r.verdict()).isEqualTo(Verdict.EQUIVALENT);
      }
      String otherwise = ratio.replace("ELSE NULL", "ELSE 1");
      EquivalenceResult r = checker.check(otherwise, otherwise.replace("s_paid > 0 AND ", ""));
      assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    }
  }
}
