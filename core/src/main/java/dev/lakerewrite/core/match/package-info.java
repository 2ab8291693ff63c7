/**
 * The schema matcher: which lake columns an assumed column is, from name, type, instance and structure evidence
 * combined by a fitted logistic regression ({@link ColumnModel}) with a calibrated confidence; and which lake table
 * holds an assumed table, from name, row-kind, retrieval and column evidence combined the same way
 * ({@link TableModel}).
 *
 * <p>{@link ColumnMapping} is what users see (in {@code RewriteResult.mapping()}); the other public types are public
 * because the offline planner ({@code core.rewrite}) or the evaluation harness ({@code lakerewrite-eval-wikidbs}, {@code bin/lakerewrite train-matcher}) fits and
 * judges the matcher with them.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link AssumedSchema}: The schema a query assumes, read from DuckDB's syntax tree with SQL's scoping rules.
 *   <li>{@link ColumnAssignment}: One-to-one assignments of assumed to lake columns: the best and the k best.
 *   <li>{@link ColumnFeatures}: The evidence that an assumed column is a given lake column.
 *   <li>{@link ColumnMapping}: The mapping a rewrite chose from the schema the user assumes to the lake.
 *   <li>{@link ColumnModel}: The learned combiner of the matcher's signals: an L2-regularised logistic regression.
 *   <li>{@link EntityNames}: Which column names a table's rows, and which assumed columns ask for it.
 *   <li>{@link MappingConfidence}: The calibrated confidence that a column's chosen lake column is right.
 *   <li>{@link MatchLake}: What the schema matcher reads of a lake: the catalog, column profiles.
 *   <li>{@link MatcherTraining}: Fits and judges the matcher's ColumnModel on pairs with gold column mappings.
 *   <li>{@link TableFeatures}: The evidence that an assumed table is a given lake table.
 *   <li>{@link TableModel}: The learned combiner of the table evidence: an L2-regularised logistic regression.
 * </ul>
 */
@NullMarked
package dev.lakerewrite.core.match;

import org.jspecify.annotations.NullMarked;
