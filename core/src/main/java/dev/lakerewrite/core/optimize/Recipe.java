package dev.lakerewrite.core.optimize;

import java.util.List;
import java.util.Set;

/**
 * One rewrite the optimizer knows: when it applies (the plan symptoms it targets, then the query's structure),
 * the candidates it produces, and the knowledge-base entry the language-model proposers read. Instances live in
 * {@link RecipeRegistry}, the only place recipe ids are written. A recipe that throws is recorded in the trace.
 */
interface Recipe {
  /** The id, e.g. {@code decorrelate-scalar-aggregate} (a candidate's label). */
  String id();

  /** The knowledge-base entry: problem, strategy, engine notes, an example before and after. */
  KnowledgeBase.Recipe knowledge();

  /**
   * The plan symptoms this recipe can relieve; it is proposed only when one of them dominates a measured plan (an
   * estimated plan rules nothing out, see {@link PlanProfile}).
   */
  Set<PlanSymptom> targets();

  /** Whether the plan gives this recipe something to do. */
  default boolean appliesTo(PlanProfile plan) {
    return plan.dominantAny(targets());
  }

  /** Whether the recipe only informs the language model (it has no rule of its own). */
  default boolean adviceOnly() {
    return false;
  }

  /**
   * The candidates for one query, each with a note saying what was done where; empty when its structure does
   * not fit. May throw: the caller records the failure.
   */
  List<RuleProposer.Proposal> candidates(String sql, RuleProposer rules);

  /**
   * The candidates for one query given its measured plan (for recipes whose rewrite depends on where the plan
   * does something, not only on whether: {@link PlanProfile#lateFilters()}); by default as without the plan.
   */
  default List<RuleProposer.Proposal> candidates(String sql, RuleProposer rules, PlanProfile plan) {
    return candidates(sql, rules);
  }
}
