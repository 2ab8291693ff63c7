package dev.lakerewrite.core.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which of the scratchpad's join paths between two lake tables the planner takes ({@link PlanningContext#joinPath}). */
class JoinPathPreferenceTest {

  /**
   * Orders split by columns: the customer's key lives in the part. The surrogate keys 1..n of orders and customers
   * also join directly, by coincidence.
   */
  private final FakeLakeTools lake = new FakeLakeTools()
      .table("orders", "okey INTEGER, total DOUBLE", "1|10.0", "2|20.0", "3|30.0")
      .table("orders_part", "okey INTEGER, custkey INTEGER", "1|2", "2|2", "3|1")
      .table("customer", "custkey INTEGER, name VARCHAR", "1|Ann", "2|Bob", "3|Cy")
      .edge("orders", "okey", "orders_part", "okey")
      .edge("orders_part", "custkey", "customer", "custkey")
      .edge("orders", "okey", "customer", "custkey")
      .keyOverlap("orders", "okey", "orders_part", "okey", 1.0)
      .keyOverlap("orders", "okey", "customer", "custkey", 1.0);

  private static Evidence.JoinStep step(String a, String x, String b, String y) {
    return new Evidence.JoinStep(a, x, b, y, 0.9, 1);
  }

  @Test
  void aReferenceThroughTheTablesOwnPartWinsOverADirectJoinOfSurrogateKeys() {
    Scratchpad pad = lake.padWith("orders", "orders_part", "customer");
    Evidence.JoinPath direct = new Evidence.JoinPath("orders", "customer",
        List.of(step("orders", "okey", "customer", "custkey")), 0.9, 1, null);
    Evidence.JoinPath throughPart = new Evidence.JoinPath("orders", "customer", List.of(
        step("orders", "okey", "orders_part", "okey"), step("orders_part", "custkey", "customer", "custkey")),
        0.8, 2, null);
    pad.add(Scratchpad.Section.JOINS, "orders|customer|1", 1, direct.sqlJoin(), direct);
    pad.add(Scratchpad.Section.JOINS, "orders|customer|2", 1, throughPart.sqlJoin(), throughPart);
    PlanningContext context = new PlanningContext(lake.state("SELECT 1", pad));

    // The part only puts the order's row back together; its custkey, named as the customer's unique key and
    // repeated across orders, is a foreign key. okey = custkey is two unique counters that happen to overlap.
    assertThat(context.joinPath("orders", "customer")).hasValue(throughPart);
    assertThat(context.joinPath("customer", "orders").orElseThrow().steps()).hasSize(2);
  }

  @Test
  void aNumericKeyNamedAsTheUniqueKeyItRepeatsIsPreferredToAnotherNumericJoinRankedHigher() {
    Scratchpad pad = lake.padWith("orders_part", "customer");
    Evidence.JoinPath byCounter = new Evidence.JoinPath("orders_part", "customer",
        List.of(step("orders_part", "okey", "customer", "custkey")), 0.9, 1, null);
    Evidence.JoinPath byReference = new Evidence.JoinPath("orders_part", "customer",
        List.of(step("orders_part", "custkey", "customer", "custkey")), 0.8, 2, null);
    pad.add(Scratchpad.Section.JOINS, "orders_part|customer|1", 1, byCounter.sqlJoin(), byCounter);
    pad.add(Scratchpad.Section.JOINS, "orders_part|customer|2", 1, byReference.sqlJoin(), byReference);
    PlanningContext context = new PlanningContext(lake.state("SELECT 1", pad));

    assertThat(context.joinPath("orders_part", "customer")).hasValue(byReference);
  }
}
