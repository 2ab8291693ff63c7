/**
 * Whether one SQL query can replace another ({@link EquivalenceChecker}): on the target database and on generated
 * instances of its schema, with a minimal counterexample when they differ.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link Counterexample}: A database on which two queries return different results.
 *   <li>{@link EquivalenceChecker}: Decides whether one SQL query can replace another: whether.
 *   <li>{@link EquivalenceEvidence}: What an equivalence verdict rests on.
 *   <li>{@link EquivalenceInputException}: Input an equivalence check cannot start from, and the user can fix.
 *   <li>{@link EquivalenceResult}: The answer to "can the right query replace the left one?": a Verdict.
 *   <li>{@link InstanceCheck}: The candidate's result compared with the original's on one database instance.
 *   <li>{@link ResultComparison}: Compares two query results the way equivalence is defined for rewrites.
 * </ul>
 */
@NullMarked
package dev.lakerewrite.core.equivalence;

import org.jspecify.annotations.NullMarked;
