package dev.lakerewrite.core.equivalence;

import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.ResultTable;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * Where instances are loaded and the two queries run: the engine seam of the checker. A DuckDB workspace is a
 * private in-memory database; a PostgreSQL workspace is a set of temporary tables that shadow the real ones in
 * one transaction that is rolled back. Used by one thread at a time.
 */
interface Workspace extends AutoCloseable {
  /** The engine's name, for messages: {@code DuckDB}, {@code PostgreSQL}. */
  String engine();

  /**
   * Replaces the contents of the workspace's tables with this instance and returns the instance as loaded (rows
   * the engine refused, e.g. by a CHECK constraint, are left out).
   */
  Database load(Database instance) throws SQLException;

  /** Runs one untrusted query under the limits (admission checked); failures come back as data. */
  Result run(String sql, QueryLimits limits);

  /** What a query returned on the loaded instance, or why it failed. */
  record Result(@Nullable ResultTable table, @Nullable QueryError failure) {
    static Result of(Execution e) {
      return e.isSuccess() ? new Result(e.table(), null) : new Result(null, e.error().orElseThrow());
    }

    boolean isSuccess() {
      return table != null;
    }

    java.util.Optional<QueryError> error() {
      return java.util.Optional.ofNullable(failure);
    }
  }

  /** Admits and prepares an untrusted query once, to run it on instance after instance. */
  Query prepare(String sql, int maxRows);

  /** A prepared query of a workspace. */
  interface Query extends AutoCloseable {
    /** Why it cannot run at all (refused, does not bind), if so. */
    java.util.Optional<dev.lakerewrite.core.QueryError> error();

    /** Runs it on the instance loaded now. */
    Result run(java.time.Duration timeout);

    @Override
    void close();
  }

  @Override
  void close();
}
