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
 */
package dev.lakerewrite.joingraph;
