package dev.lakerewrite.core;

import dev.lakerewrite.core.sql.QueryAnalysis;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.SqlParser;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;

/**
 * One thread's handle on a {@link DataLake}: its own sandboxed DuckDB connection (a duplicate of the lake's),
 * the safe executor on it, and the SQL parser. Temporary macros registered during a session (cleaning UDFs)
 * are visible only to it. Not thread-safe: open one session per thread; sessions are cheap.
 */
public final class LakeSession implements AutoCloseable {
  private final DataLake lake;
  private final Connection connection;
  private final SafeExecutor executor;
  private final QueryLimits defaultLimits;
  private volatile boolean closed;

  LakeSession(DataLake lake, Connection connection, QueryLimits defaultLimits) {
    this.lake = lake;
    this.connection = connection;
    this.executor = SafeExecutor.on(connection);
    this.defaultLimits = defaultLimits;
  }

  /** The lake this session reads. */
  public DataLake lake() {
    return lake;
  }

  /**
   * Runs untrusted SQL (from a user or an LLM) under the lake's default limits. Only a single SELECT/WITH query
   * is admitted; anything else comes back as a {@link ErrorKind#REJECTED} error. Never throws for bad SQL.
   */
  public Execution execute(String sql) {
    return execute(sql, defaultLimits);
  }

  /** Like {@link #execute(String)} with explicit limits. */
  public Execution execute(String sql, QueryLimits limits) {
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(limits, "limits");
    ensureOpen();
    return executor.execute(sql, limits);
  }

  /** Analyses a query with this session's parser (see {@link SqlAnalyzer}). */
  public QueryAnalysis analyze(String sql) {
    ensureOpen();
    return new SqlAnalyzer(executor.parser()).analyze(sql);
  }

  /** DuckDB's parser on this session's connection, for reading and editing syntax trees. */
  public SqlParser parser() {
    ensureOpen();
    return executor.parser();
  }

  /**
   * The session's sandboxed JDBC connection, for lakerewrite's capability modules, which run their own
   * trusted SQL on it (retrieval, join graph, cleaning). It is still read-only, without external access and
   * with locked configuration; untrusted SQL must go through {@link #execute} instead. Do not close it: close
   * the session.
   */
  public Connection connection() {
    ensureOpen();
    return connection;
  }

  /** The limits {@link #execute(String)} applies. */
  public QueryLimits defaultLimits() {
    return defaultLimits;
  }

  /** Runs SQL the library itself generated (no admission check, limits still apply). */
  Execution executeTrusted(String sql, QueryLimits limits) {
    ensureOpen();
    return executor.executeTrusted(sql, limits);
  }

  public boolean isClosed() {
    return closed;
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("this session is closed; open a new one with DataLake.openSession()");
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      connection.close();
    } catch (SQLException ignored) {
      // Closing a duplicate cannot lose data: the lake is read-only.
    } finally {
      lake.sessionClosed(this);
    }
  }
}
