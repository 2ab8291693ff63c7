package dev.lakerewrite.core.optimize;

import dev.lakerewrite.core.Engine;
import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The base tables of the target database as the optimizer needs them: columns with types and nullability,
 * primary keys, estimated sizes and (DuckDB) approximate distinct counts. Read once per optimisation from DuckDB's catalog functions (trusted SQL the
 * library writes itself; nothing from the query is interpolated).
 */
final class Catalog {
  record Column(String name, String type, boolean nullable) {}

  record Table(String name, List<Column> columns, List<String> primaryKey, long estimatedRows) {
    Optional<Column> column(String name) {
      for (Column c : columns) {
        if (c.name().equalsIgnoreCase(name)) {
          return Optional.of(c);
        }
      }
      return Optional.empty();
    }

    boolean isUnique(List<String> cols) {
      return !primaryKey.isEmpty() && cols.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList()
          .containsAll(primaryKey.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList());
    }
  }

  private final Map<String, Table> tables;
  private final Engine engine;
  /** DuckDB only: where column statistics are read from (null: distinct counts are unknown). */
  private final @Nullable Connection statistics;
  private final Map<String, String> stats = new HashMap<>();

  private Catalog(Map<String, Table> tables, Engine engine, @Nullable Connection statistics) {
    this.tables = tables;
    this.engine = engine;
    this.statistics = statistics;
  }

  /** A DuckDB catalog of these tables, without statistics. */
  static Catalog of(Map<String, Table> tables) {
    return of(tables, Engine.DUCKDB, null);
  }

  private static Catalog of(Map<String, Table> tables, Engine engine, @Nullable Connection statistics) {
    Map<String, Table> byLower = new LinkedHashMap<>();
    tables.forEach((k, v) -> byLower.put(k.toLowerCase(Locale.ROOT), v));
    return new Catalog(byLower, engine, statistics);
  }

  /** The same tables, as the given engine's (what a recipe writes for that engine, in tests). */
  Catalog as(Engine other) {
    return new Catalog(tables, other, statistics);
  }

  /** The engine the tables live in (recipes whose rewrite one engine runs slowly ask). */
  Engine engine() {
    return engine;
  }

  /**
   * The approximate number of distinct values of a base table's column, from the statistics DuckDB keeps with
   * the table (its HyperLogLog estimate, read with {@code stats(column)} without scanning the table); empty when
   * unknown (PostgreSQL, a table or column this catalog does not have, no statistics). Read once per column.
   */
  OptionalLong distinctValues(String table, String column) {
    Matcher m = APPROX_UNIQUE.matcher(statistics(table, column));
    return m.find() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
  }

  /**
   * The smallest and largest value of a numeric column from the same statistics ({min, max}); empty when
   * unknown or not numeric.
   */
  Optional<double[]> numericRange(String table, String column) {
    String stats = statistics(table, column);
    Matcher lo = MIN.matcher(stats);
    Matcher hi = MAX.matcher(stats);
    if (!lo.find() || !hi.find()) {
      return Optional.empty();
    }
    return Optional.of(new double[] {Double.parseDouble(lo.group(1)), Double.parseDouble(hi.group(1))});
  }

  /** The statistics text of a column ({@code {approx_unique=.., max=.., min=..}}), empty when unknown. */
  private String statistics(String table, String column) {
    if (statistics == null) {
      return "";
    }
    Optional<Table> t = table(table);
    Optional<Column> c = t.flatMap(x -> x.column(column));
    if (c.isEmpty()) {
      return "";
    }
    String key = t.get().name().toLowerCase(Locale.ROOT) + "." + c.get().name().toLowerCase(Locale.ROOT);
    return stats.computeIfAbsent(key, k -> {
      try (Statement st = statistics.createStatement();
           ResultSet rs = st.executeQuery("SELECT stats(" + Sql.identifier(c.get().name()) + ") FROM "
               + Sql.identifier(t.get().name()) + " LIMIT 1")) {
        return rs.next() ? String.valueOf(rs.getString(1)) : "";
      } catch (SQLException | RuntimeException e) {
        return ""; // no statistics: unknown
      }
    });
  }

  private static final Pattern MIN = Pattern.compile("[{ ,]min=(-?[0-9]+(?:\\.[0-9]+)?)[,}]");
  private static final Pattern MAX = Pattern.compile("[{ ,]max=(-?[0-9]+(?:\\.[0-9]+)?)[,}]");
  private static final Pattern APPROX_UNIQUE = Pattern.compile("approx_unique=(\\d+)");

  /** Reads the current schema's base tables on either engine (views are left out: instances are built from tables). */
  static Catalog read(Connection connection, Engine engine) throws SQLException {
    return engine == Engine.POSTGRESQL ? readPostgres(connection) : read(connection);
  }

  /**
   * PostgreSQL: columns and nullability from information_schema, primary keys from pg_index, sizes from the
   * planner's statistics ({@code reltuples}, -1 before the first ANALYZE is read as unknown).
   */
  private static Catalog readPostgres(Connection connection) throws SQLException {
    Map<String, List<Column>> columns = new LinkedHashMap<>();
    Map<String, Long> sizes = new LinkedHashMap<>();
    Map<String, List<String>> keys = new LinkedHashMap<>();
    try (Statement st = connection.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT c.relname, greatest(c.reltuples, 0)::bigint FROM pg_class c "
          + "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p') "
          + "AND n.nspname = current_schema() ORDER BY c.relname")) {
        while (rs.next()) {
          sizes.put(rs.getString(1), rs.getLong(2));
          columns.put(rs.getString(1), new ArrayList<>());
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT table_name, column_name, upper(data_type), is_nullable = 'YES' "
          + "FROM information_schema.columns WHERE table_schema = current_schema() "
          + "ORDER BY table_name, ordinal_position")) {
        while (rs.next()) {
          List<Column> list = columns.get(rs.getString(1));
          if (list != null) {
            list.add(new Column(rs.getString(2), rs.getString(3), rs.getBoolean(4)));
          }
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT c.relname, a.attname FROM pg_index i "
          + "JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
          + "JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (i.indkey) "
          + "WHERE i.indisprimary AND n.nspname = current_schema() ORDER BY c.relname, a.attnum")) {
        while (rs.next()) {
          keys.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
        }
      }
    }
    Map<String, Table> tables = new LinkedHashMap<>();
    columns.forEach((name, cols) -> tables.put(name,
        new Table(name, List.copyOf(cols), List.copyOf(keys.getOrDefault(name, List.of())), sizes.get(name))));
    return of(tables, Engine.POSTGRESQL, null);
  }

  /** Reads the main schema's base tables of a DuckDB database. */
  static Catalog read(Connection connection) throws SQLException {
    Map<String, List<Column>> columns = new LinkedHashMap<>();
    Map<String, Long> sizes = new LinkedHashMap<>();
    Map<String, List<String>> keys = new LinkedHashMap<>();
    try (Statement st = connection.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT table_name, estimated_size FROM duckdb_tables() "
          + "WHERE NOT temporary AND schema_name = current_schema() AND database_name = current_database() "
          + "ORDER BY table_name")) {
        while (rs.next()) {
          sizes.put(rs.getString(1), rs.getLong(2));
          columns.put(rs.getString(1), new ArrayList<>());
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT table_name, column_name, data_type, is_nullable "
          + "FROM duckdb_columns() WHERE NOT internal AND schema_name = current_schema() "
          + "AND database_name = current_database() ORDER BY table_name, column_index")) {
        while (rs.next()) {
          List<Column> list = columns.get(rs.getString(1));
          if (list != null) {
            list.add(new Column(rs.getString(2), rs.getString(3), rs.getBoolean(4)));
          }
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT table_name, constraint_column_names FROM duckdb_constraints() "
          + "WHERE constraint_type = 'PRIMARY KEY' AND schema_name = current_schema() "
          + "AND database_name = current_database()")) {
        while (rs.next()) {
          Object arr = rs.getObject(2);
          List<String> cols = new ArrayList<>();
          if (arr instanceof java.sql.Array a) {
            for (Object o : (Object[]) a.getArray()) {
              cols.add(String.valueOf(o));
            }
          }
          keys.put(rs.getString(1), cols);
        }
      }
    }
    Map<String, Table> tables = new LinkedHashMap<>();
    columns.forEach((name, cols) -> tables.put(name,
        new Table(name, List.copyOf(cols), List.copyOf(keys.getOrDefault(name, List.of())), sizes.get(name))));
    return of(tables, Engine.DUCKDB, connection);
  }

  Optional<Table> table(String name) {
    return Optional.ofNullable(tables.get(name.toLowerCase(Locale.ROOT)));
  }

  boolean hasTable(String name) {
    return tables.containsKey(name.toLowerCase(Locale.ROOT));
  }

  List<Table> tables() {
    return List.copyOf(tables.values());
  }

  /** The tables (of this catalog) that have a column with this name. */
  List<Table> tablesWithColumn(String column) {
    List<Table> out = new ArrayList<>();
    for (Table t : tables.values()) {
      if (t.column(column).isPresent()) {
        out.add(t);
      }
    }
    return out;
  }
}
