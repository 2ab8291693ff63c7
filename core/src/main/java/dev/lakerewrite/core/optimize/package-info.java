/**
 * The performance pipeline ({@link Optimizer}): rewrites a working query into an equivalent, faster one on DuckDB or
 * PostgreSQL, every candidate verified for equivalence and timed; never returns anything slower or different.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link CandidateSource}: Where a candidate rewrite came from.
 *   <li>{@link CandidateVerdict}: What verification and timing concluded about one candidate rewrite.
 *   <li>{@link DemonstrationPool}: E3-Rewrite's demonstration pool: verified rewrites with a significant speedup.
 *   <li>{@link OptimizationCandidate}: One candidate rewrite and what verification and timing found out about it.
 *   <li>{@link OptimizationEvent}: One step of an optimisation, for the trace.
 *   <li>{@link OptimizeResult}: The outcome of optimize: the SQL to run.
 *   <li>{@link OptimizeVerdict}: The outcome of one optimisation.
 *   <li>{@link Optimizer}: The performance pipeline's entry point.
 *   <li>{@link QueryOptimizer}: A configured, immutable optimizer built by Optimizer.builder().
 *   <li>{@link Timing}: Measured run times of one query: the timed runs after the warm-up, and their trimmed mean.
 * </ul>
 */
@NullMarked
package dev.lakerewrite.core.optimize;

import org.jspecify.annotations.NullMarked;
