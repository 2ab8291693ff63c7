package dev.lakerewrite.core;

import dev.lakerewrite.core.sql.SqlParser;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Runs untrusted SQL on one connection: admission check ({@link StatementGuard}), time limit (a
 * scheduled {@link Statement#cancel()}, millisecond precision), row cap (DuckDB stops at the cap), typed
 * result, errors as data. One instance per connection, used by one thread at a time.
 */
public final class SafeExecutor {
  private static final ScheduledExecutorService CANCELLER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "lakerewrite-query-canceller");
    t.setDaemon(true);
    return t;
  });

  private final Connection connection;
  private final Engine engine;
  private final SqlParser parser;

  private SafeExecutor(Connection connection, Engine engine) {
    this.connection = connection;
    this.engine = engine;
    // PostgreSQL SQL is checked with DuckDB's parser on a private in-memory connection: what it cannot read as
    // exactly one query is refused, whatever PostgreSQL would make of it.
    this.parser = engine == Engine.DUCKDB ? SqlParser.on(connection) : SqlParser.standalone();
  }

  /**
   * An executor on a DuckDB or PostgreSQL connection (the engine is detected), e.g. a user's database for the
   * optimizer. The admission check applies as on a lake. On DuckDB the connection's own settings (read-only or
   * not, external access) are the caller's: sandbox it as {@link DataLake} does when its SQL comes from untrusted
   * sources. On PostgreSQL every query runs in a read-only transaction that is rolled back, with
   * {@code statement_timeout} set to its time limit, and server-side functions that read files, sleep, signal
   * backends, change settings or run SQL text are refused.
   *
   * @throws IllegalArgumentException for a connection to another database product
   */
  public static SafeExecutor on(Connection connection) {
    java.util.Objects.requireNonNull(connection, "connection");
    Engine engine;
    try {
      engine = Engine.of(connection);
    } catch (SQLException e) {
      throw new IllegalArgumentException("cannot tell which database the connection is to: " + e.getMessage(), e);
    }
    return new SafeExecutor(connection, engine);
  }

  /** The engine behind this executor's connection. */
  public Engine engine() {
    return engine;
  }

  /** The parser on this executor's connection. */
  public SqlParser parser() {
    return parser;
  }

  /**
   * Runs untrusted SQL: admitted only if it is exactly one SELECT/WITH query without forbidden functions, then
   * executed under {@code limits}. Never throws for bad SQL: failures come back as {@link QueryError}s.
   */
  public Execution execute(String sql, QueryLimits limits) {
    java.util.Objects.requireNonNull(sql, "sql");
    java.util.Objects.requireNonNull(limits, "limits");
    long start = System.nanoTime();
    Optional<QueryError> refusal = StatementGuard.check(parser, sql, engine);
    if (refusal.isPresent()) {
      return Execution.failure(refusal.get(), since(start));
    }
    return run(sql, limits, start);
  }

  /**
   * The admission check alone, without running anything: the refusal {@link #execute} would return for
   * {@code sql}, or empty when it would run it. Entry points that analyse a query before running it (the
   * optimizer) call this first, so that hostile or oversized text is refused before any work is spent on it.
   */
  public Optional<QueryError> admission(String sql) {
    java.util.Objects.requireNonNull(sql, "sql");
    return StatementGuard.check(parser, sql, engine);
  }

  /**
   * Admits and prepares an untrusted query once (parsed, bound and planned once), to run it many times while the
   * data under it changes, e.g. on generated database instances. A query that is refused or does not bind gives
   * a {@link Prepared} whose every run returns that error.
   *
   * @param maxRows the row cap of every run (rows beyond it are not fetched; the result is marked truncated)
   */
  public Prepared prepare(String sql, int maxRows) {
    java.util.Objects.requireNonNull(sql, "sql");
    if (maxRows < 1) {
      throw new IllegalArgumentException("maxRows must be at least 1, was " + maxRows);
    }
    Optional<QueryError> refusal = StatementGuard.check(parser, sql);
    if (refusal.isPresent()) {
      return new Prepared(sql, null, sql, null, List.of(), maxRows, refusal.get());
    }
    List<ResultTable.Column> columns;
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      columns = columns(ps.getMetaData());
    } catch (SQLException e) {
      return new Prepared(sql, null, sql, null, List.of(), maxRows, EngineErrors.classify(e, sql));
    }
    String capped = capped(sql, maxRows + 1L);
    try {
      return new Prepared(sql, connection, capped, connection.prepareStatement(capped), columns, maxRows, null);
    } catch (SQLException e) {
      try {
        // The text could not be wrapped (e.g. it ends in a comment): prepare it as written.
        return new Prepared(sql, connection, sql, connection.prepareStatement(sql), columns, maxRows, null);
      } catch (SQLException again) {
        return new Prepared(sql, null, sql, null, List.of(), maxRows, EngineErrors.classify(again, sql));
      }
    }
  }

  /** An admitted, prepared query ({@link #prepare}); used by one thread at a time, closed when done. */
  public static final class Prepared implements AutoCloseable {
    private final String sql;
    private final @Nullable Connection connection;
    private final String preparedText;
    private @Nullable PreparedStatement statement;
    private final List<ResultTable.Column> columns;
    private final int maxRows;
    private final @Nullable QueryError error;

    private Prepared(String sql, @Nullable Connection connection, String preparedText,
        @Nullable PreparedStatement statement, List<ResultTable.Column> columns, int maxRows,
        @Nullable QueryError error) {
      this.sql = sql;
      this.connection = connection;
      this.preparedText = preparedText;
      this.statement = statement;
      this.columns = columns;
      this.maxRows = maxRows;
      this.error = error;
    }

    /** Why the query cannot run at all (refused, or does not bind), if so. */
    public Optional<QueryError> error() {
      return Optional.ofNullable(error);
    }

    /** Runs the query on the data as it is now, cancelled past {@code timeout}. */
    public Execution execute(Duration timeout) {
      long start = System.nanoTime();
      if (error != null) {
        return Execution.failure(error, since(start));
      }
      PreparedStatement ps;
      try {
        // DuckDB's driver closes a prepared statement whose execution failed (a scalar subquery returning two
        // rows on one instance): it is prepared again, else every later run would fail with "Statement was
        // closed" although the data under it changed.
        if (statement.isClosed()) {
          statement = connection.prepareStatement(preparedText);
        }
        ps = statement;
      } catch (SQLException e) {
        return Execution.failure(EngineErrors.classify(e, sql), since(start));
      }
      ScheduledFuture<?> cancel = CANCELLER.schedule(() -> cancelQuietly(ps), timeout.toMillis(),
          TimeUnit.MILLISECONDS);
      try (ResultSet rs = ps.executeQuery()) {
        return Execution.success(sql, read(rs, columns, maxRows), since(start));
      } catch (SQLException e) {
        return Execution.failure(EngineErrors.classify(e, sql), since(start));
      } catch (RuntimeException e) {
        return Execution.failure(new QueryError(ErrorKind.RUNTIME,
            e.getClass().getSimpleName() + ": " + e.getMessage(), -1, sql), since(start));
      } finally {
        cancel.cancel(false);
      }
    }

    @Override
    public void close() {
      if (statement != null) {
        try {
          statement.close();
        } catch (SQLException ignored) {
          // Closing a prepared statement of an open connection does not fail in ways that matter.
        }
      }
    }
  }

  /**
   * Admits {@code sql} once, for running it many times without checking it again (timing a query, for
   * instance): the admission check's cost stays out of every {@link AdmittedQuery#execute} and its timing.
   *
   * @throws QueryFailedException carrying the refusal {@link #execute} would return
   */
  public AdmittedQuery admit(String sql) {
    java.util.Objects.requireNonNull(sql, "sql");
    Optional<QueryError> refusal = StatementGuard.check(parser, sql, engine);
    if (refusal.isPresent()) {
      throw new QueryFailedException(refusal.get());
    }
    return new AdmittedQuery(this, sql);
  }

  /**
   * DuckDB's plan of an admitted query as JSON ({@code EXPLAIN (FORMAT JSON)}, or with {@code analyze}
   * {@code EXPLAIN (ANALYZE, FORMAT JSON)}, which runs the query once): the query is admitted first, as by
   * {@link #execute}, and a refusal comes back as the failed execution.
   */
  public Execution explain(String sql, boolean analyze, QueryLimits limits) {
    java.util.Objects.requireNonNull(sql, "sql");
    java.util.Objects.requireNonNull(limits, "limits");
    long start = System.nanoTime();
    Optional<QueryError> refusal = StatementGuard.check(parser, sql, engine);
    if (refusal.isPresent()) {
      return Execution.failure(refusal.get(), since(start));
    }
    String body = sql.strip();
    while (body.endsWith(";")) {
      body = body.substring(0, body.length() - 1).strip();
    }
    return run((analyze ? "EXPLAIN (ANALYZE, FORMAT JSON) " : "EXPLAIN (FORMAT JSON) ") + body, limits, start);
  }

  /**
   * Runs a statement lakerewrite itself wrote and vouches for (no admission check; limits still apply). Not
   * for SQL from users or models, and therefore not reachable from outside this package.
   */
  Execution executeTrusted(String sql, QueryLimits limits) {
    return run(sql, limits, System.nanoTime());
  }

  /** Runs a query that passed {@link #admit} on this executor. */
  Execution executeAdmitted(String sql, QueryLimits limits) {
    return run(sql, limits, System.nanoTime());
  }

  private Execution run(String sql, QueryLimits limits, long start) {
    List<ResultTable.Column> columns;
    // Preparing binds the query without running it: binder errors surface here with DuckDB's full message,
    // and the result's true column names are known before the capped form renames duplicates.
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      columns = columns(ps.getMetaData());
    } catch (SQLException e) {
      return Execution.failure(EngineErrors.classify(e, sql), since(start));
    }
    String capped = capped(sql, limits.maxRows() + 1L);
    Execution first = runStatement(capped, sql, columns, limits, start);
    if (!first.isSuccess() && first.error().orElseThrow().kind() == ErrorKind.PARSE) {
      // The text could not be wrapped (e.g. it ends in a comment after ';'): run it as written.
      return runStatement(sql, sql, columns, limits, start);
    }
    return first;
  }

  /**
   * The query wrapped so that DuckDB stops producing rows past the cap. Non-streaming results are
   * materialised inside DuckDB, so without the wrapper {@code SELECT * FROM huge} would build all of it just
   * for a preview. DuckDB keeps the inner ORDER BY through the wrapper.
   */
  static String capped(String sql, long rows) {
    String body = sql.strip();
    while (body.endsWith(";")) {
      body = body.substring(0, body.length() - 1).strip();
    }
    return "SELECT * FROM (\n" + body + "\n) AS lakerewrite_capped LIMIT " + rows;
  }

  private Execution runStatement(String toRun, String sql, List<ResultTable.Column> columns, QueryLimits limits,
      long start) {
    if (engine == Engine.POSTGRESQL) {
      return inReadOnlyTransaction(() -> runStatementOnce(toRun, sql, columns, limits, start), sql, limits, start);
    }
    return runStatementOnce(toRun, sql, columns, limits, start);
  }

  /**
   * PostgreSQL: the query runs in a transaction of its own that is read-only (the server refuses any write, even
   * from a function) and always rolled back, with {@code statement_timeout} as a second guard beside the cancel.
   * The connection's auto-commit mode is restored afterwards.
   */
  private Execution inReadOnlyTransaction(java.util.function.Supplier<Execution> body, String sql,
      QueryLimits limits, long start) {
    boolean autoCommit;
    try {
      autoCommit = connection.getAutoCommit();
      if (!autoCommit) {
        connection.rollback();
      }
      connection.setAutoCommit(false);
      try (Statement st = connection.createStatement()) {
        st.execute("SET TRANSACTION READ ONLY");
        st.execute("SET LOCAL statement_timeout = " + Math.max(1, limits.timeout().toMillis() + 1000));
      }
    } catch (SQLException e) {
      return Execution.failure(EngineErrors.classify(e, sql), since(start));
    }
    try {
      return body.get();
    } finally {
      try {
        connection.rollback();
        connection.setAutoCommit(autoCommit);
      } catch (SQLException ignored) {
        // A broken connection: the next call reports it.
      }
    }
  }

  private Execution runStatementOnce(String toRun, String sql, List<ResultTable.Column> columns,
      QueryLimits limits, long start) {
    try (Statement st = connection.createStatement()) {
      ScheduledFuture<?> cancel = CANCELLER.schedule(() -> cancelQuietly(st),
          limits.timeout().toMillis(), TimeUnit.MILLISECONDS);
      try (ResultSet rs = st.executeQuery(toRun)) {
        ResultTable table = read(rs, columns, limits.maxRows());
        return Execution.success(sql, table, since(start));
      } finally {
        cancel.cancel(false);
      }
    } catch (SQLException e) {
      return Execution.failure(EngineErrors.classify(e, sql), since(start));
    } catch (RuntimeException e) {
      // The driver reports some failures (e.g. unsupported result types) as unchecked exceptions.
      return Execution.failure(new QueryError(ErrorKind.RUNTIME,
          e.getClass().getSimpleName() + ": " + e.getMessage(), -1, sql), since(start));
    }
  }

  private static void cancelQuietly(Statement st) {
    try {
      st.cancel();
    } catch (SQLException | RuntimeException ignored) {
      // The statement finished or closed in the meantime: nothing to cancel.
    }
  }

  static List<ResultTable.Column> columns(ResultSetMetaData md) throws SQLException {
    int n = md.getColumnCount();
    List<ResultTable.Column> columns = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
      columns.add(new ResultTable.Column(md.getColumnLabel(i), md.getColumnTypeName(i)));
    }
    return columns;
  }

  static ResultTable read(ResultSet rs, List<ResultTable.Column> columns, int maxRows) throws SQLException {
    int n = rs.getMetaData().getColumnCount();
    if (n != columns.size()) {
      throw new SQLException("the capped query returned " + n + " columns, the query itself " + columns.size());
    }
    List<List<Object>> rows = new ArrayList<>();
    boolean truncated = false;
    while (rs.next()) {
      if (rows.size() == maxRows) {
        truncated = true;
        break;
      }
      List<Object> row = new ArrayList<>(n);
      for (int i = 1; i <= n; i++) {
        row.add(toJava(rs.getObject(i)));
      }
      rows.add(row);
    }
    return ResultTable.of(columns, rows, truncated);
  }

  /** Converts driver objects into plain, immutable-friendly Java values. */
  static @Nullable Object toJava(Object v) throws SQLException {
    if (v == null) {
      return null;
    }
    if (v instanceof Timestamp ts) {
      return ts.toLocalDateTime();
    }
    if (v instanceof Array arr) {
      Object[] items = (Object[]) arr.getArray();
      List<Object> out = new ArrayList<>(items.length);
      for (Object item : items) {
        out.add(toJava(item));
      }
      return java.util.Collections.unmodifiableList(out);
    }
    if (v instanceof Struct struct) {
      Map<String, Object> out = new LinkedHashMap<>();
      Object[] attrs = struct.getAttributes();
      String type = struct.getSQLTypeName();
      if (v instanceof org.duckdb.DuckDBStruct ds) {
        for (Map.Entry<String, Object> e : ds.getMap().entrySet()) {
          out.put(e.getKey(), toJava(e.getValue()));
        }
        return java.util.Collections.unmodifiableMap(out);
      }
      return type + Arrays.toString(attrs);
    }
    if (v instanceof Blob blob) {
      return blob.getBytes(1, (int) Math.min(Integer.MAX_VALUE, blob.length()));
    }
    if (v instanceof ByteBuffer buf) {
      byte[] bytes = new byte[buf.remaining()];
      buf.duplicate().get(bytes);
      return bytes;
    }
    if (v instanceof Map<?, ?> map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.put(toJava(e.getKey()), toJava(e.getValue()));
      }
      return java.util.Collections.unmodifiableMap(out);
    }
    if (v instanceof String || v instanceof Number || v instanceof Boolean || v instanceof BigDecimal
        || v instanceof java.time.temporal.Temporal || v instanceof java.util.UUID) {
      return v;
    }
    return v.toString();
  }

  private static Duration since(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }
}
