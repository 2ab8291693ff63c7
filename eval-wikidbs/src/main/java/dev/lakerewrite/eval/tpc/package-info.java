/**
 * TPC-H and TPC-DS for tests and benchmarks: {@link dev.lakerewrite.eval.tpc.TpcBenchmark} generates the data in
 * Java at any scale factor ({@code io.trino.tpch}, {@code io.trino.tpcds}), loads it into a DuckDB or PostgreSQL
 * connection with the primary keys declared (DuckDB's appender, PostgreSQL's COPY), caches scale-factor files on
 * disk, and gives the standard queries with their parameters substituted in either engine's dialect
 * ({@link dev.lakerewrite.eval.tpc.TpcQuery}).
 */
package dev.lakerewrite.eval.tpc;
