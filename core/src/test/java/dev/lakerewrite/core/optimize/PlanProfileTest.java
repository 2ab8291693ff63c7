package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which recipes a plan calls for: a measured plan narrows them to its dominant symptoms; estimates rule none out. */
class PlanProfileTest {
  /** A CTE scanned beside an aggregate over five million rows: by estimated rows the CTE scan is a tiny share. */
  private static String plan(boolean measured) {
    String cte = measured ? "\"Actual Rows\": 10, \"Actual Loops\": 1, \"Actual Total Time\": 0.01, " : "";
    String scan = measured ? "\"Actual Rows\": 5000000, \"Actual Loops\": 1, \"Actual Total Time\": 900.0, " : "";
    String agg = measured ? "\"Actual Rows\": 1000000, \"Actual Loops\": 1, \"Actual Total Time\": 990.0, " : "";
    String join = measured ? "\"Actual Rows\": 10, \"Actual Loops\": 1, \"Actual Total Time\": 1000.0, " : "";
    return "[{\"Plan\": {\"Node Type\": \"Hash Join\", " + join + "\"Plan Rows\": 10, \"Plans\": ["
        + "{\"Node Type\": \"CTE Scan\", \"CTE Name\": \"t\", " + cte + "\"Plan Rows\": 10},"
        + "{\"Node Type\": \"Aggregate\", " + agg + "\"Plan Rows\": 1000000, \"Plans\": ["
        + "{\"Node Type\": \"Seq Scan\", \"Relation Name\": \"big\", " + scan + "\"Plan Rows\": 5000000}]}]}}]";
  }

  @Test
  void aMeasuredPlanProposesOnlyWhatTargetsItsDominantSymptoms() {
    PlanProfile measured = PlanProfile.of(ExecutionPlan.parse(plan(true), true));
    assertThat(measured.dominantAny(Set.of(PlanSymptom.CTE_SCAN))).isFalse();
    assertThat(measured.dominantAny(Set.of(PlanSymptom.AGGREGATE_OVER_JOIN, PlanSymptom.CTE_SCAN))).isFalse();
    assertThat(measured.describe()).startsWith("measured plan:").doesNotContain("every recipe");
  }

  @Test
  void anEstimatedPlanRulesNoRecipeOutButStillRanksThem() {
    // The original ran past its limit (TPC-DS q11 on PostgreSQL): the estimates said "no dominant symptom" and
    // no recipe was tried at all, although pushing filters into the CTE was the rewrite it needed.
    PlanProfile estimated = PlanProfile.of(ExecutionPlan.parse(plan(false), false));
    assertThat(estimated.dominantAny(Set.of(PlanSymptom.CTE_SCAN))).isTrue();
    assertThat(estimated.describe()).startsWith("estimated plan:").contains("every recipe is tried");
    assertThat(estimated.weight(Set.of(PlanSymptom.CTE_SCAN))).isLessThan(PlanProfile.DOMINANT);
  }

  @Test
  void anAggregateReadingAJoinThroughSortsAndProjectionsIsAnAggregateOverAJoin() {
    // PostgreSQL sorts the join's rows for a ROLLUP (DuckDB projects them): the aggregate still reads the join.
    String plan = "[{\"Plan\": {\"Node Type\": \"Aggregate\", \"Actual Rows\": 9000, \"Actual Loops\": 1,"
        + " \"Actual Total Time\": 900.0, \"Plan Rows\": 9000, \"Plans\": [{\"Node Type\": \"Sort\","
        + " \"Actual Rows\": 2000000, \"Actual Loops\": 1, \"Actual Total Time\": 500.0, \"Plan Rows\": 2000000,"
        + " \"Plans\": [{\"Node Type\": \"Hash Join\", \"Actual Rows\": 2000000, \"Actual Loops\": 1,"
        + " \"Actual Total Time\": 300.0, \"Plan Rows\": 2000000, \"Plans\": ["
        + "{\"Node Type\": \"Seq Scan\", \"Relation Name\": \"inventory\", \"Actual Rows\": 2000000,"
        + " \"Actual Loops\": 1, \"Actual Total Time\": 200.0, \"Plan Rows\": 2000000},"
        + "{\"Node Type\": \"Seq Scan\", \"Relation Name\": \"item\", \"Actual Rows\": 18000,"
        + " \"Actual Loops\": 1, \"Actual Total Time\": 5.0, \"Plan Rows\": 18000}]}]}]}}]";
    PlanProfile profile = PlanProfile.of(ExecutionPlan.parse(plan, true));
    assertThat(profile.dominantAny(Set.of(PlanSymptom.AGGREGATE_OVER_JOIN))).isTrue();
  }
}
