/**
 * The lake disorganizer: clean databases and their queries become disorganized lakes with verified query–result
 * pairs and gold mappings, in corpora with a fit and a held-out part.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link Corpora}: The perturbed corpora the harness's suites run (bin/lakerewrite eval --suite ...).
 *   <li>{@link Encoding}: How the lake stores a column's values, and the two SQL expressions that go there and back.
 *   <li>{@link LakePerturber}: The lake disorganizer: clean database and queries to a disorganized lake and ...
 *   <li>{@link LakePlan}: What the disorganizer did to one schema: for every source table.
 *   <li>{@link NamingStyle}: The naming habits of one disorganized lake, drawn from its seed: the letter case.
 *   <li>{@link Perturbation}: The kinds of disorder the disorganizer puts into a lake.
 *   <li>{@link PerturbedCorpus}: A corpus of disorganized lakes with a fit / held-out split: several schemas.
 *   <li>{@link PerturbedLake}: What LakePerturber.perturb wrote: the lake, its plan and its pairs.
 *   <li>{@link QueryGenerator}: Generates queries of every SqlShape over a clean DuckDB database.
 *   <li>{@link SourceQuery}: A query over the clean source database: it becomes the user query of a pair.
 *   <li>{@link SourceSchema}: The clean schema the disorganizer starts from.
 *   <li>{@link SqlShape}: The SQL shapes a query has (issue 12: the rewriter must keep every one of them binding).
 * </ul>
 */
@NullMarked
package dev.lakerewrite.eval.perturb;

import org.jspecify.annotations.NullMarked;
