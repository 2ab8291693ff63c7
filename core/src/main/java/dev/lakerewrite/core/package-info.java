/**
 * The library's public API and composition root: {@link Rewriter} (the data-lake pipeline), {@link DataLake} (loading,
 * catalog, profiles, indexes), {@link LakeSession} and the {@link SafeExecutor} (every untrusted statement), results and
 * the exception family ({@link LakeRewriteException}).
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link AdmittedQuery}: A query that passed the check of one executor.
 *   <li>{@link ArrowExport}: Runs an untrusted query through the admission check and streams its result as Arrow ...
 *   <li>{@link CatalogTable}: A lake table: its SQL name, its columns with DuckDB types.
 *   <li>{@link ColumnProfile}: Statistics of one lake column, computed once per lake and cached on disk.
 *   <li>{@link DataLake}: A data lake held in DuckDB (Parquet/CSV/JSON in place or copied, WikiDBs, a DuckDB file).
 *   <li>{@link Engine}: The SQL engines lakerewrite targets: embedded DuckDB and PostgreSQL.
 *   <li>{@link ErrorKind}: What kind of failure a query met; the rewriting loop reacts differently to each.
 *   <li>{@link Execution}: The outcome of one statement through the safe executor: a ResultTable or a QueryError.
 *   <li>{@link IndexProgress}: Told how far DataLake.index(IndexProgress) has come, per stage.
 *   <li>{@link IndexStage}: The stages of index, in the order they run.
 *   <li>{@link IndexStatus}: What index found, built and reused: the lake's size, the tables whose files were added.
 *   <li>{@link LakeCatalog}: The lake's tables, columns, types and row counts (read once when the lake opens).
 *   <li>{@link LakeIndexException}: The lake's indexes could not be built or loaded.
 *   <li>{@link LakeLoadException}: A lake could not be opened or loaded: a missing or empty folder.
 *   <li>{@link LakeRewriteException}: The root of lakerewrite's unchecked exceptions.
 *   <li>{@link LakeRewriter}: A configured, immutable rewriter built by Rewriter.builder(): rewrite(sql, lake).
 *   <li>{@link LakeSession}: One thread's handle on a DataLake: its own sandboxed DuckDB connection.
 *   <li>{@link MatchLakes}: A lake as the schema matcher reads it, outside a rewrite.
 *   <li>{@link QueryError}: A failed query, as data: the loop hands it to its agents, the harness records it.
 *   <li>{@link QueryFailedException}: Thrown by the few APIs that cannot return a QueryError as data; carries it.
 *   <li>{@link QueryLimits}: Per-query limits of the safe executor: wall-time limit.
 *   <li>{@link ResultTable}: An immutable, typed query result: columns with their DuckDB types, rows of Java values.
 *   <li>{@link RewriteResult}: What a rewrite returns: the chosen SQL and its result (or error).
 *   <li>{@link Rewriter}: The entry point: rewrite(sql, lake) (offline default) and builder() for a LakeRewriter.
 *   <li>{@link SafeExecutor}: Runs untrusted SQL on one connection: admission check, time limit, row cap.
 *   <li>{@link TableProfile}: Per-column statistics of one lake table (see ColumnProfile).
 *   <li>{@link UnknownTableException}: A table name the lake does not have.
 * </ul>
 */
@NullMarked
package dev.lakerewrite.core;

import org.jspecify.annotations.NullMarked;
