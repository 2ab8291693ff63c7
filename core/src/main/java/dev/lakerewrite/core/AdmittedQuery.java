package dev.lakerewrite.core;

import java.util.Objects;

/**
 * A query that passed the {@linkplain SafeExecutor#admit admission check} of one executor: it runs any number of
 * times without being checked again (its text cannot change), under the limits of each call. Only
 * {@link SafeExecutor#admit} makes one, so holding one proves the check was passed.
 */
public final class AdmittedQuery {
  private final SafeExecutor executor;
  private final String sql;

  AdmittedQuery(SafeExecutor executor, String sql) {
    this.executor = executor;
    this.sql = sql;
  }

  /** The admitted query text. */
  public String sql() {
    return sql;
  }

  /** Runs the query under {@code limits}; failures come back as data, as from {@link SafeExecutor#execute}. */
  public Execution execute(QueryLimits limits) {
    return executor.executeAdmitted(sql, Objects.requireNonNull(limits, "limits"));
  }

  @Override
  public String toString() {
    return "AdmittedQuery[" + sql + "]";
  }
}
