/**
 * TPC-H and TPC-DS for tests and benchmarks: {@link dev.lakerewrite.eval.tpc.TpcBenchmark} generates the data in
 * Java at any scale factor ({@code io.trino.tpch}, {@code io.trino.tpcds}), loads it into a DuckDB or PostgreSQL
 * connection with the primary keys declared (DuckDB's appender, PostgreSQL's COPY), caches scale-factor files on
 * disk, and gives the standard queries with their parameters substituted in either engine's dialect
 * ({@link dev.lakerewrite.eval.tpc.TpcQuery}).
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link TpcBenchmark}: TPC-H and TPC-DS data generated in Java at any scale factor.
 *   <li>{@link TpcQuery}: One standard query of a TPC benchmark, with its parameters substituted.
 * </ul>
 */
@NullMarked
package dev.lakerewrite.eval.tpc;

import org.jspecify.annotations.NullMarked;
