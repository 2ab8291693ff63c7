/**
 * SQL analysis on DuckDB's own parser: what a query assumes ({@link QueryAnalysis}), statements, syntax trees.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link ColumnPrefixes}: Places unqualified columns by their tables' prefix convention (l_orderkey in lineitem).
 *   <li>{@link ParsedSql}: SQL text and DuckDB's syntax trees for its statements.
 *   <li>{@link QueryAnalysis}: What a query says about the schema its author assumes: the tables it names.
 *   <li>{@link SqlAnalyzer}: Analyses one query through DuckDB's own syntax tree (see SqlParser).
 *   <li>{@link SqlParser}: DuckDB's parser for callers that accept exactly one query.
 *   <li>{@link SqlSyntaxException}: SQL text that DuckDB's parser rejects, or a statement that is not a query.
 *   <li>{@link StatementSplitter}: Finds the statements of a SQL text.
 *   <li>{@link Trees}: The one set of helpers for reading and editing DuckDB's JSON syntax trees (SqlParser).
 * </ul>
 */
@NullMarked
package dev.lakerewrite.core.sql;

import org.jspecify.annotations.NullMarked;
