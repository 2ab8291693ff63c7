package dev.lakerewrite.core.equivalence;

import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.SafeExecutor;
import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A private in-memory DuckDB holding the schema's tables (with NOT NULL, keys and CHECKs; foreign keys are kept
 * by the generator instead, so that instances can be swapped freely) and its views, sandboxed like a lake: no
 * extensions, no file or network access, configuration locked, one thread. Instances replace each other's rows.
 */
final class DuckDbWorkspace implements Workspace {
  private final Connection connection;
  private final SafeExecutor executor;
  /**
   * The rows each table holds now, for the tables that hold any: a table whose rows do not change from one
   * instance to the next is not reloaded, and a table not listed here is empty.
   */
  private final Map<String, List<List<String>>> current = new java.util.HashMap<>();
  /**
   * The tables (lower-case names) whose rows are loaded, null for all: a table no query of the check reads is left
   * empty, as nothing it holds can change a result (foreign keys are the generator's, not the engine's).
   */
  private java.util.@org.jspecify.annotations.Nullable Set<String> onlyTables;

  private DuckDbWorkspace(Connection connection) {
    this.connection = connection;
    this.executor = SafeExecutor.on(connection);
  }

  /** A workspace with every table and view of the schema. */
  static DuckDbWorkspace create(Schema schema) throws SQLException {
    Connection c = scratch();
    try (Statement st = c.createStatement()) {
      for (Schema.Table t : schema.tables()) {
        st.execute(t.createStatement(false));
      }
      List<Schema.View> pending = new ArrayList<>(schema.views());
      // Views may use each other: create them in rounds until no more succeed.
      boolean progress = true;
      while (!pending.isEmpty() && progress) {
        progress = false;
        for (var it = pending.iterator(); it.hasNext(); ) {
          Schema.View v = it.next();
          try {
            st.execute(v.createStatement());
            it.remove();
            progress = true;
          } catch (SQLException e) {
            // Retried in the next round (it may depend on a view not created yet).
          }
        }
      }
      st.execute("SET enable_external_access=false");
      st.execute("SET lock_configuration=true");
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
    return new DuckDbWorkspace(c);
  }

  /** A fresh in-memory DuckDB without extensions, on one thread (configuration still open). */
  static Connection scratch() throws SQLException {
    Connection c = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement st = c.createStatement()) {
      st.execute("SET autoinstall_known_extensions=false");
      st.execute("SET autoload_known_extensions=false");
      st.execute("SET threads=1");
      st.execute("SET preserve_insertion_order=true");
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  Connection connection() {
    return connection;
  }

  /**
   * Loads only these tables' rows (lower-case names) from now on, null for every table's: the instances of a
   * check name every table their rows need (foreign keys), the queries read fewer of them.
   */
  void loadOnly(@org.jspecify.annotations.Nullable Set<String> tables) {
    this.onlyTables = tables;
  }

  private List<List<String>> wanted(Database instance, Schema.Table t) {
    return onlyTables == null || onlyTables.contains(t.name().toLowerCase(Locale.ROOT)) ? instance.rows(t)
        : List.of();
  }

  @Override
  public String engine() {
    return "DuckDB";
  }

  @Override
  public Database load(Database instance) throws SQLException {
    // Consecutive instances often share most tables' rows (targeted instances change one or two tables of the
    // same base rows): only tables whose rows differ are emptied and refilled.
    // One transaction per instance (not one per statement): the deletes, appends and copies of every changed
    // table commit once. A row the engine refuses aborts the transaction; it is rolled back (the tables hold the
    // previous instance again) and the instance is loaded row by row below, outside a transaction.
    for (Schema.Table t : instance.tables()) {
      // Staging tables and statements are made outside the transaction (a rollback would drop a table made in it).
      byName.putIfAbsent(t.name(), t);
      statementsFor(t.name());
    }
    Map<String, List<List<String>>> before = new java.util.HashMap<>(current);
    Set<String> wanted = new HashSet<>();
    boolean refused = false;
    connection.setAutoCommit(false);
    try {
      for (Schema.Table t : instance.tables()) {
        List<List<String>> rows = wanted(instance, t);
        wanted.add(t.name());
        if (rows.equals(current.getOrDefault(t.name(), List.of()))) {
          continue;
        }
        if (current.remove(t.name()) != null) {
          statementsFor(t.name()).delete().execute();
        }
        if (rows.isEmpty()) {
          continue;
        }
        current.put(t.name(), rows);
        if (!bulkInsert(t, rows)) {
          refused = true;
          break;
        }
      }
      if (!refused) {
        for (var it = current.keySet().iterator(); it.hasNext(); ) {
          String t = it.next();
          if (!wanted.contains(t)) {
            statementsFor(t).delete().execute();
            it.remove();
          }
        }
        connection.commit();
        return instance;
      }
      connection.rollback();
      current.clear();
      current.putAll(before);
      connection.setAutoCommit(true);
      for (TableStatements ts : statements.values()) {
        ts.clearStaging().execute();
      }
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      current.clear();
      current.putAll(before);
      throw e;
    } finally {
      connection.setAutoCommit(true);
    }
    // The engine refused a row (a CHECK, a value out of range): load row by row and leave such rows out.
    for (String t : current.keySet()) {
      statementsFor(t).delete().execute();
    }
    current.clear();
    Map<String, List<List<String>>> loaded = new LinkedHashMap<>();
    for (Schema.Table t : instance.tables()) {
      if (onlyTables != null && !onlyTables.contains(t.name().toLowerCase(Locale.ROOT))) {
        loaded.put(t.name().toLowerCase(Locale.ROOT), instance.rows(t)); // not read: kept as given, not loaded
        continue;
      }
      List<List<String>> kept = new ArrayList<>();
      for (List<String> row : instance.rows(t)) {
        if (bulkInsert(t, List.of(row))) {
          kept.add(row);
        }
      }
      if (!kept.isEmpty()) {
        current.put(t.name(), kept);
      }
      loaded.put(t.name().toLowerCase(Locale.ROOT), kept);
    }
    return new Database(instance.name(), instance.tables(), loaded);
  }

  /** The prepared statements of one table: copy from its staging table, empty both. */
  private record TableStatements(String staging, String copySql, java.sql.PreparedStatement copy,
      java.sql.PreparedStatement delete, java.sql.PreparedStatement clearStaging) {}

  private final Map<String, TableStatements> statements = new java.util.HashMap<>();
  private final Map<String, Schema.Table> byName = new java.util.HashMap<>();

  private TableStatements statementsFor(String table) throws SQLException {
    TableStatements ts = statements.get(table);
    if (ts != null && stale.remove(table)) {
      ts = new TableStatements(ts.staging(), ts.copySql(), connection.prepareStatement(ts.copySql()), ts.delete(),
          ts.clearStaging());
      statements.put(table, ts);
    }
    if (ts == null) {
      Schema.Table t = byName.get(table);
      String staging = "lakerewrite_staging_" + statements.size();
      try (Statement st = connection.createStatement()) {
        StringBuilder cols = new StringBuilder();
        for (int c = 0; c < t.columns().size(); c++) {
          cols.append(c == 0 ? "" : ", ").append('c').append(c).append(" VARCHAR");
        }
        st.execute("CREATE TEMP TABLE " + staging + " (" + cols + ")");
      }
      StringBuilder select = new StringBuilder();
      for (int c = 0; c < t.columns().size(); c++) {
        select.append(c == 0 ? "" : ", ").append("CAST(c").append(c).append(" AS ").append(t.columns().get(c).type())
            .append(')');
      }
      String copySql = "INSERT INTO " + Sql.identifier(t.name()) + " SELECT " + select + " FROM " + staging;
      ts = new TableStatements(staging, copySql, connection.prepareStatement(copySql),
          connection.prepareStatement("DELETE FROM " + Sql.identifier(t.name())),
          connection.prepareStatement("DELETE FROM " + staging));
      statements.put(table, ts);
    }
    return ts;
  }

  /**
   * Appends the rows (as text) to the table's staging table and copies them over with one cast per column;
   * false (and nothing inserted) when the engine refuses one.
   */
  private boolean bulkInsert(Schema.Table t, List<List<String>> rows) throws SQLException {
    byName.putIfAbsent(t.name(), t);
    TableStatements ts = statementsFor(t.name());
    try (org.duckdb.DuckDBAppender app = connection.unwrap(org.duckdb.DuckDBConnection.class)
        .createAppender("temp", "main", ts.staging())) {
      for (List<String> row : rows) {
        app.beginRow();
        for (String v : row) {
          if (v == null) {
            app.appendNull();
          } else {
            app.append(v);
          }
        }
        app.endRow();
      }
    }
    try {
      ts.copy().execute();
    } catch (SQLException e) {
      // DuckDB's driver closes a prepared statement whose execution failed: it is prepared again before its next
      // use, or every later insert into this table (the row-by-row fallback included) would fail with "Statement
      // was closed". Inside a transaction the failure aborted it, and the rollback empties the staging table.
      ts.copy().close();
      stale.add(t.name());
      if (connection.getAutoCommit()) {
        ts.clearStaging().execute();
      }
      return false;
    }
    ts.clearStaging().execute();
    return true;
  }

  /** Tables whose copy statement failed and was closed by the driver: prepared again before the next use. */
  private final Set<String> stale = new HashSet<>();

  @Override
  public Result run(String sql, QueryLimits limits) {
    return Result.of(executor.execute(sql, limits));
  }

  @Override
  public Query prepare(String sql, int maxRows) {
    SafeExecutor.Prepared p = executor.prepare(sql, maxRows);
    return new Query() {
      @Override
      public java.util.Optional<dev.lakerewrite.core.QueryError> error() {
        return p.error();
      }

      @Override
      public Result run(java.time.Duration timeout) {
        return Result.of(p.execute(timeout));
      }

      @Override
      public void close() {
        p.close();
      }
    };
  }

  /** Rows of a query the library wrote, as text. */
  List<List<String>> strings(String sql) throws SQLException {
    return EngineAnswers.fetch(connection, sql);
  }

  @Override
  public void close() {
    try {
      for (TableStatements ts : statements.values()) {
        ts.copy().close();
        ts.delete().close();
        ts.clearStaging().close();
      }
      connection.close();
    } catch (SQLException ignored) {
      // In-memory: nothing to lose.
    }
  }
}
