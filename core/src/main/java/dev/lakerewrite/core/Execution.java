package dev.lakerewrite.core;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of running one statement through the safe executor: either a {@link ResultTable} or a
 * {@link QueryError}, never an exception, because the rewriting loop feeds failures to its agents.
 */
public final class Execution {
  private final String sql;
  private final @Nullable ResultTable table;
  private final @Nullable QueryError error;
  private final Duration elapsed;

  private Execution(String sql, @Nullable ResultTable table, @Nullable QueryError error, Duration elapsed) {
    this.sql = sql;
    this.table = table;
    this.error = error;
    this.elapsed = elapsed;
  }

  static Execution success(String sql, ResultTable table, Duration elapsed) {
    return new Execution(sql, Objects.requireNonNull(table, "table"), null, elapsed);
  }

  static Execution failure(QueryError error, Duration elapsed) {
    return new Execution(error.sql(), null, Objects.requireNonNull(error, "error"), elapsed);
  }

  public boolean isSuccess() {
    return table != null;
  }

  /** The statement that ran (or was refused). */
  public String sql() {
    return sql;
  }

  /** The result; throws if the query failed. */
  public ResultTable table() {
    if (table == null) {
      throw new IllegalStateException("the query failed, there is no table: " + error.summary());
    }
    return table;
  }

  /** The error, if the query failed. */
  public Optional<QueryError> error() {
    return Optional.ofNullable(error);
  }

  /** Wall time from submission to the last row fetched (or to the failure). */
  public Duration elapsed() {
    return elapsed;
  }

  @Override
  public String toString() {
    return isSuccess()
        ? "Execution[ok, " + table.rowCount() + " rows, " + elapsed.toMillis() + " ms]"
        : "Execution[" + error.summary() + "]";
  }
}
