package dev.lakerewrite.core.optimize;

/**
 * What makes a measured plan slow, as recipes target it: read from the operators that take the time (or, for a
 * plan with estimates only, the rows), the same way on DuckDB and PostgreSQL plans.
 */
enum PlanSymptom {
  /** A subquery evaluated per outer row: PostgreSQL's SubPlan run in loops, DuckDB's delim join. */
  CORRELATED_SUBQUERY,
  /** A nested-loop (or cross, blockwise, piecewise) join over large inputs. */
  NESTED_LOOP_JOIN,
  /** The same table scanned several times, or the same join computed in several subqueries. */
  REPEATED_SCAN,
  /** An aggregate over a join that multiplied its input (aggregation could happen before the join). */
  AGGREGATE_OVER_JOIN,
  /** A filter applied late: most rows of a scan, CTE or join are discarded only after they were produced. */
  LATE_FILTER,
  /** A disjunction in a join or filter condition. */
  OR_CONDITION,
  /** An INTERSECT / EXCEPT (or a hashed set operation). */
  SET_OPERATION,
  /** A CTE scanned (materialised) in the plan. */
  CTE_SCAN,
  /** An outer join. */
  OUTER_JOIN,
  /** A window operator: every partition sorted (DuckDB's WINDOW, PostgreSQL's WindowAgg). */
  WINDOW,
  /**
   * A join on two or more equalities that keeps few of a large input's rows: each of them is probed, and no filter
   * on one column reaches that input's scan (DuckDB pushes a join's keys into the probe side's scan for a join on
   * one column only).
   */
  SELECTIVE_MULTI_KEY_JOIN
}
