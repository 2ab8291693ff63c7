package dev.lakerewrite.core.equivalence;

import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.sql.StatementSplitter;
import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A workspace on the caller's PostgreSQL connection: in one transaction, a temporary table for each of the
 * schema's tables ({@code CREATE TEMP TABLE t (LIKE schema.t INCLUDING ...)}: NOT NULL, keys and CHECKs; the
 * temporary schema comes first in PostgreSQL's search path, so the queries' unqualified names read it) and a
 * temporary view for each view; instances are loaded there and both queries run there, each in a savepoint, with
 * a statement timeout. {@link #close} rolls the transaction back: nothing the check did stays in the database,
 * and the real tables are never read or written. Queries that name a table with its schema would read the real
 * table: the checker refuses them on PostgreSQL.
 */
final class PostgresWorkspace implements Workspace {
  private final Connection connection;
  private final boolean autoCommit;
  private final Set<String> filled = new HashSet<>();
  private final Map<String, PreparedStatement> inserts = new LinkedHashMap<>();

  private PostgresWorkspace(Connection connection, boolean autoCommit) {
    this.connection = connection;
    this.autoCommit = autoCommit;
  }

  static PostgresWorkspace create(Connection c, Schema schema) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    PostgresWorkspace ws = new PostgresWorkspace(c, autoCommit);
    try (Statement st = c.createStatement()) {
      String namespace;
      try (ResultSet rs = st.executeQuery("SELECT current_schema()")) {
        rs.next();
        namespace = rs.getString(1);
      }
      for (Schema.Table t : schema.tables()) {
        st.execute("CREATE TEMP TABLE " + Sql.quoted(t.name()) + " (LIKE " + Sql.quoted(namespace) + "."
            + Sql.quoted(t.name()) + " INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES)");
      }
      List<Schema.View> pending = new ArrayList<>(schema.views());
      boolean progress = true;
      while (!pending.isEmpty() && progress) {
        progress = false;
        for (var it = pending.iterator(); it.hasNext(); ) {
          Schema.View v = it.next();
          Savepoint sp = c.setSavepoint();
          try {
            st.execute(v.createStatement());
            c.releaseSavepoint(sp);
            it.remove();
            progress = true;
          } catch (SQLException e) {
            c.rollback(sp);
          }
        }
      }
    } catch (SQLException | RuntimeException e) {
      ws.close();
      throw e;
    }
    return ws;
  }

  /**
   * A workspace over the connection's own tables (no temporary tables): for running both queries on the database
   * itself, in a transaction that {@link #close} rolls back.
   */
  static PostgresWorkspace plain(Connection c) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    return new PostgresWorkspace(c, autoCommit);
  }

  @Override
  public String engine() {
    return "PostgreSQL";
  }

  @Override
  public Database load(Database instance) throws SQLException {
    try (Statement st = connection.createStatement()) {
      for (String t : filled) {
        st.execute("TRUNCATE pg_temp." + Sql.quoted(t));
      }
    }
    filled.clear();
    Map<String, List<List<String>>> loaded = new LinkedHashMap<>();
    boolean refused = false;
    for (Schema.Table t : instance.tables()) {
      List<List<String>> rows = instance.rows(t);
      List<List<String>> kept = new ArrayList<>();
      if (!rows.isEmpty()) {
        filled.add(t.name());
        PreparedStatement ps = insertFor(t);
        Savepoint all = connection.setSavepoint();
        try {
          for (List<String> row : rows) {
            bind(ps, row);
            ps.addBatch();
          }
          ps.executeBatch();
          connection.releaseSavepoint(all);
          kept.addAll(rows);
        } catch (SQLException e) {
          // A row PostgreSQL refuses (a CHECK, a value out of range): row by row, leaving such rows out.
          connection.rollback(all);
          ps.clearBatch();
          refused = true;
          for (List<String> row : rows) {
            Savepoint one = connection.setSavepoint();
            try {
              bind(ps, row);
              ps.execute();
              connection.releaseSavepoint(one);
              kept.add(row);
            } catch (SQLException rowRefused) {
              connection.rollback(one);
            }
          }
        }
      }
      loaded.put(t.name().toLowerCase(Locale.ROOT), kept);
    }
    return refused ? new Database(instance.name(), instance.tables(), loaded) : instance;
  }

  private PreparedStatement insertFor(Schema.Table t) throws SQLException {
    PreparedStatement ps = inserts.get(t.name());
    if (ps == null) {
      StringBuilder sql = new StringBuilder("INSERT INTO pg_temp.").append(Sql.quoted(t.name())).append(" VALUES (");
      for (int c = 0; c < t.columns().size(); c++) {
        sql.append(c == 0 ? "" : ", ").append("CAST(CAST(? AS text) AS ").append(t.columns().get(c).type())
            .append(')');
      }
      ps = connection.prepareStatement(sql.append(')').toString());
      inserts.put(t.name(), ps);
    }
    return ps;
  }

  private static void bind(PreparedStatement ps, List<String> row) throws SQLException {
    for (int c = 0; c < row.size(); c++) {
      ps.setString(c + 1, row.get(c));
    }
  }

  @Override
  public Result run(String sql, QueryLimits limits) {
    Query q = prepare(sql, limits.maxRows());
    try {
      return q.run(limits.timeout());
    } finally {
      q.close();
    }
  }

  /** Only single SELECT / WITH statements; they run in a savepoint of the transaction that is rolled back. */
  static Optional<QueryError> admission(String sql) {
    List<String> statements = StatementSplitter.statements(sql);
    if (statements.size() != 1) {
      return Optional.of(new QueryError(ErrorKind.REJECTED, "expected one query, found " + statements.size()
          + " statements", 0, sql));
    }
    String first = statements.get(0).stripLeading().toUpperCase(Locale.ROOT);
    if (!(first.startsWith("SELECT") || first.startsWith("WITH") || first.startsWith("(")
        || first.startsWith("VALUES"))) {
      return Optional.of(new QueryError(ErrorKind.REJECTED, "not a query: only SELECT and WITH statements are "
          + "allowed", 0, sql));
    }
    return Optional.empty();
  }

  @Override
  public Query prepare(String sql, int maxRows) {
    Optional<QueryError> refused = admission(sql);
    PreparedStatement ps = null;
    QueryError error = refused.orElse(null);
    if (error == null) {
      Savepoint sp = null;
      try {
        sp = connection.setSavepoint();
        ps = connection.prepareStatement(sql);
        ps.getMetaData(); // binds it
        connection.releaseSavepoint(sp);
      } catch (SQLException e) {
        rollbackQuietly(sp);
        error = classify(e, sql);
        ps = null;
      }
    }
    PreparedStatement statement = ps;
    QueryError failure = error;
    return new Query() {
      @Override
      public Optional<QueryError> error() {
        return Optional.ofNullable(failure);
      }

      @Override
      public Result run(Duration timeout) {
        if (failure != null) {
          return new Result(null, failure);
        }
        Savepoint sp = null;
        try {
          sp = connection.setSavepoint();
          statement.setQueryTimeout((int) Math.max(1, (timeout.toMillis() + 999) / 1000));
          statement.setMaxRows(maxRows + 1);
          ResultTable table;
          try (ResultSet rs = statement.executeQuery()) {
            table = read(rs, maxRows);
          }
          connection.releaseSavepoint(sp);
          return new Result(table, null);
        } catch (SQLException e) {
          rollbackQuietly(sp);
          return new Result(null, classify(e, sql));
        }
      }

      @Override
      public void close() {
        if (statement != null) {
          try {
            statement.close();
          } catch (SQLException ignored) {
            // The transaction is rolled back anyway.
          }
        }
      }
    };
  }

  private void rollbackQuietly(Savepoint sp) {
    if (sp == null) {
      return;
    }
    try {
      connection.rollback(sp);
    } catch (SQLException ignored) {
      // Nothing more to undo.
    }
  }

  private static QueryError classify(SQLException e, String sql) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().strip();
    ErrorKind kind = state.startsWith("42") ? (state.equals("42601") ? ErrorKind.PARSE : ErrorKind.BINDER)
        : state.equals("57014") ? ErrorKind.TIMEOUT : ErrorKind.RUNTIME;
    return new QueryError(kind, message, -1, sql);
  }

  /** A JDBC result as a {@link ResultTable} (dates and timestamps as java.time values). */
  static ResultTable read(ResultSet rs, int maxRows) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    List<ResultTable.Column> columns = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
      columns.add(new ResultTable.Column(md.getColumnLabel(i), md.getColumnTypeName(i)));
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
        Object v = rs.getObject(i);
        if (v instanceof java.sql.Date d) {
          v = d.toLocalDate();
        } else if (v instanceof java.sql.Timestamp ts) {
          v = ts.toLocalDateTime();
        } else if (v instanceof java.sql.Time t) {
          v = t.toLocalTime();
        } else if (v != null && !(v instanceof Number || v instanceof String || v instanceof Boolean
            || v instanceof java.util.UUID)) {
          v = v.toString();
        }
        row.add(v);
      }
      rows.add(row);
    }
    return ResultTable.of(columns, rows, truncated);
  }

  @Override
  public void close() {
    try {
      for (PreparedStatement ps : inserts.values()) {
        ps.close();
      }
      connection.rollback();
      connection.setAutoCommit(autoCommit);
    } catch (SQLException ignored) {
      // The connection is the caller's: the rollback either happened or the connection is gone.
    }
  }
}
