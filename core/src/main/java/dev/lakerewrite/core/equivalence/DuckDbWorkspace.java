package dev.lakerewrite.core.equivalence;

import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.SafeExecutor;
import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
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
  private final Set<String> filled = new HashSet<>();
  private final Map<String, java.sql.PreparedStatement> inserts = new java.util.HashMap<>();
  private final Map<String, java.sql.PreparedStatement> deletes = new java.util.HashMap<>();

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

  @Override
  public String engine() {
    return "DuckDB";
  }

  @Override
  public Database load(Database instance) throws SQLException {
    for (String t : filled) {
      deletes.get(t).execute();
    }
    filled.clear();
    boolean any = false;
    for (Schema.Table t : instance.tables()) {
      any |= !instance.rows(t).isEmpty();
    }
    if (!any) {
      return instance;
    }
    // All rows in one transaction; if the engine refuses one (a CHECK, a value out of range), row by row.
    connection.setAutoCommit(false);
    boolean refused = false;
    try {
      for (Schema.Table t : instance.tables()) {
        List<List<String>> rows = instance.rows(t);
        if (!rows.isEmpty()) {
          filled.add(t.name());
          java.sql.PreparedStatement ps = insertFor(t);
          for (List<String> row : rows) {
            bind(ps, row);
            ps.execute();
          }
        }
      }
      connection.commit();
    } catch (SQLException e) {
      connection.rollback();
      refused = true;
    } finally {
      connection.setAutoCommit(true);
    }
    if (!refused) {
      return instance;
    }
    Map<String, List<List<String>>> loaded = new LinkedHashMap<>();
    for (Schema.Table t : instance.tables()) {
      List<List<String>> kept = new ArrayList<>();
      List<List<String>> rows = instance.rows(t);
      if (!rows.isEmpty()) {
        filled.add(t.name());
        java.sql.PreparedStatement ps = insertFor(t);
        for (List<String> row : rows) {
          try {
            bind(ps, row);
            ps.execute();
            kept.add(row);
          } catch (SQLException rowRefused) {
            // Left out of the instance.
          }
        }
      }
      loaded.put(t.name().toLowerCase(Locale.ROOT), kept);
    }
    return new Database(instance.name(), instance.tables(), loaded);
  }

  private static void bind(java.sql.PreparedStatement ps, List<String> row) throws SQLException {
    for (int c = 0; c < row.size(); c++) {
      ps.setObject(c + 1, row.get(c));
    }
  }

  private java.sql.PreparedStatement insertFor(Schema.Table t) throws SQLException {
    java.sql.PreparedStatement ps = inserts.get(t.name());
    if (ps == null) {
      StringBuilder sql = new StringBuilder("INSERT INTO ").append(Sql.identifier(t.name())).append(" VALUES (");
      for (int c = 0; c < t.columns().size(); c++) {
        sql.append(c == 0 ? "" : ", ").append("CAST(CAST(? AS VARCHAR) AS ").append(t.columns().get(c).type())
            .append(')');
      }
      ps = connection.prepareStatement(sql.append(')').toString());
      inserts.put(t.name(), ps);
      deletes.put(t.name(), connection.prepareStatement("DELETE FROM " + Sql.identifier(t.name())));
    }
    return ps;
  }

  @Override
  public Execution run(String sql, QueryLimits limits) {
    return executor.execute(sql, limits);
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
      public Execution run(java.time.Duration timeout) {
        return p.execute(timeout);
      }

      @Override
      public void close() {
        p.close();
      }
    };
  }

  /** Rows of a query the library wrote, as text. */
  List<List<String>> strings(String sql) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      int width = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>(width);
        for (int i = 1; i <= width; i++) {
          row.add(rs.getString(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  @Override
  public void close() {
    try {
      for (java.sql.PreparedStatement ps : inserts.values()) {
        ps.close();
      }
      for (java.sql.PreparedStatement ps : deletes.values()) {
        ps.close();
      }
      connection.close();
    } catch (SQLException ignored) {
      // In-memory: nothing to lose.
    }
  }
}
