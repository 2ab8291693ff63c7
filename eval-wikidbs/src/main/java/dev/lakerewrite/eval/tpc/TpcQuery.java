package dev.lakerewrite.eval.tpc;

import dev.lakerewrite.core.Engine;
import java.util.Objects;

/**
 * One standard query of a TPC benchmark, with its parameters substituted, in one engine's dialect.
 *
 * @param benchmark the benchmark it belongs to
 * @param name its name as the benchmark numbers it: {@code q1} to {@code q22} for TPC-H; {@code q1} to {@code q99}
 *     for TPC-DS, where the four two-statement queries are {@code q14a}/{@code q14b}, {@code q23a}/{@code q23b},
 *     {@code q24a}/{@code q24b} and {@code q39a}/{@code q39b}
 * @param engine the dialect the text is written in
 * @param sql one SELECT/WITH statement, no trailing semicolon
 */
public record TpcQuery(TpcBenchmark benchmark, String name, Engine engine, String sql) {
  public TpcQuery {
    Objects.requireNonNull(benchmark, "benchmark");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(sql, "sql");
  }

  /** {@code TPC-H q17}, for reports. */
  public String label() {
    return benchmark.displayName() + " " + name;
  }
}
