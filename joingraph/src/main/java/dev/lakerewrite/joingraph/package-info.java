/**
 * Joinability without foreign keys (thesis §5.2): the join graph of a data lake and FIND_JOIN_PATH.
 *
 * <p>Entry point: {@link dev.lakerewrite.joingraph.JoinGraph#builder()}. A build reads every column of the lake
 * through a {@link dev.lakerewrite.joingraph.ColumnSource} (the sandboxed DuckDB connection by default), keeps
 * each column's normalised value set as a theta sketch, embeds column and table names, finds the column pairs
 * that share values through an inverted index of key-like columns (optionally pruned by sketch samples and stop
 * values), scores them with S = (S_schema + S_inst) · K and keeps, per table pair with join evidence, an edge
 * with Ω = max S and its best column pairs. The graph is cached as compact JSON beside the lake.
 *
 * <p>Queries: {@link dev.lakerewrite.joingraph.JoinGraph#joinability Ω(a, b)} for table–table relevance (§5.1.2),
 * and {@link dev.lakerewrite.joingraph.JoinGraph#findJoinPaths(String, String, int, java.sql.Connection)
 * findJoinPaths}: Yen's k shortest paths on −log Ω + λ, join keys re-ranked by executed fan-out, previews.
 * Settings and their measured defaults: {@link dev.lakerewrite.joingraph.JoinGraphConfig}.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link BuildStats}: How a graph was built: sizes, the candidate search used, and where the time went.
 *   <li>{@link ColumnPair}: A scored column pair of an edge, oriented like the edge.
 *   <li>{@link ColumnSource}: Where the join graph reads a lake's tables and column values from.
 *   <li>{@link ColumnValues}: The raw values of one column as the profiler consumes them.
 *   <li>{@link GraphColumn}: A column as the join graph measured it.
 *   <li>{@link GraphTable}: A node of the join graph: a lake table and what the build measured about its columns.
 *   <li>{@link JoinEdge}: An undirected edge of the join graph (thesis §5.2.1): two tables with join evidence.
 *   <li>{@link JoinGraph}: The join graph of a data lake (thesis §5.2): one node per table.
 *   <li>{@link JoinGraphConfig}: Immutable settings of the join graph (thesis §5.2).
 *   <li>{@link JoinGraphException}: A join graph could not be built, read, written or executed against the lake.
 *   <li>{@link JoinHop}: One hop of a join path, from leftTable to rightTable.
 *   <li>{@link JoinKey}: A join-key candidate of one hop, re-ranked by executing the join (thesis §5.2.2).
 *   <li>{@link JoinPath}: A join path returned by FIND_JOIN_PATH (thesis §5.2.2): the tables.
 *   <li>{@link JoinPreview}: The first rows of an executed join path; columns are named table.column.
 *   <li>{@link PathCandidate}: A path of the join graph before execution, as Yen's algorithm ranks it.
 * </ul>
 */
@NullMarked
package dev.lakerewrite.joingraph;

import org.jspecify.annotations.NullMarked;
