package dev.lakerewrite.eval;

import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.ResultTable;
import java.util.Objects;

/**
 * Runs queries through {@code core}'s safe executor on a lake session: the way the harness runs golden queries
 * (pair files are untrusted input) and reads predictions.
 *
 * <p>A session is not thread-safe, and neither is a runner on it: use one per thread.
 */
public final class LakeQueryRunner implements QueryRunner {
  private final LakeSession session;
  private final QueryLimits limits;

  private LakeQueryRunner(LakeSession session, QueryLimits limits) {
    this.session = session;
    this.limits = limits;
  }

  /** A runner with the session's default limits. */
  public static LakeQueryRunner on(LakeSession session) {
    Objects.requireNonNull(session, "session");
    return new LakeQueryRunner(session, session.defaultLimits());
  }

  /** A runner with explicit limits (a golden query whose result passes the row cap fails rather than be cut). */
  public static LakeQueryRunner on(LakeSession session, QueryLimits limits) {
    return new LakeQueryRunner(Objects.requireNonNull(session, "session"), Objects.requireNonNull(limits, "limits"));
  }

  /**
   * Runs the query. A failure reports the executor's one-line summary (kind, position, DuckDB's message with its
   * "did you mean"); a result cut at the row cap is a failure too, since a partial table is not a result to
   * score or to score against.
   */
  @Override
  public PlainTable run(String sql) throws QueryRunException {
    Execution execution = session.execute(sql, limits);
    if (!execution.isSuccess()) {
      QueryError error = execution.error().orElseThrow();
      throw new QueryRunException(error.summary());
    }
    ResultTable table = execution.table();
    if (table.truncated()) {
      throw new QueryRunException("the result has more than " + limits.maxRows()
          + " rows (the row cap) and was cut; raise QueryLimits.maxRows to score it");
    }
    return toPlainTable(table);
  }

  /** Core's result as a plain table (same column names, same rows and values). */
  public static PlainTable toPlainTable(ResultTable table) {
    Objects.requireNonNull(table, "table");
    return PlainTable.of(table.columnNames(), table.rows());
  }
}
