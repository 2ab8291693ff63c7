package dev.lakerewrite.core.optimize;

import dev.lakerewrite.core.sql.QueryAnalysis;
import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Builds the further database instances a candidate must also agree on (one instance can hide a difference,
 * QUITE §5.2 and the issue): an in-memory DuckDB with the schema of the query's tables (types, NOT NULL, primary
 * keys), filled either with a <em>join-preserving sample</em> of the target (the largest table sampled, the others
 * semi-joined to it along the query's join conditions, small tables copied whole) or with <em>generated</em> rows
 * whose values come from small per-column pools: the query's own literals (LIKE patterns turned into matching
 * strings), a few real values, and NULL where the schema allows it, with join-connected columns sharing one pool
 * so that joins and filters select rows. Runs trusted SQL the library writes; values travel as text and are cast
 * back to the column types.
 */
final class InstanceBuilder {
  private static final int POOL_REAL_VALUES = 4;
  private static final int POOL_CAP = 8;
  private static final int IN_LIST_CAP = 2_000;

  private final Connection target;
  private final Catalog catalog;
  private final QueryAnalysis analysis;
  private final List<Catalog.Table> tables;

  InstanceBuilder(Connection target, Catalog catalog, QueryAnalysis analysis) {
    this.target = target;
    this.catalog = catalog;
    this.analysis = analysis;
    List<Catalog.Table> t = new ArrayList<>();
    for (String name : analysis.tableNames()) {
      catalog.table(name).filter(x -> !t.contains(x)).ifPresent(t::add);
    }
    this.tables = t;
  }

  /** The base tables the instances hold: those of the query that exist in the target's catalog. */
  List<Catalog.Table> tables() {
    return tables;
  }

  /** A join-preserving sample of at most about {@code rowsPerTable} rows per table. */
  Instance sample(int rowsPerTable, long seed) throws SQLException {
    Connection c = open();
    try {
      createTables(c);
      Map<String, List<List<String>>> sampled = new HashMap<>();
      List<Catalog.Table> bySize = new ArrayList<>(tables);
      bySize.sort((x, y) -> Long.compare(y.estimatedRows(), x.estimatedRows()));
      long total = 0;
      for (Catalog.Table t : bySize) {
        String filter = null;
        if (t.estimatedRows() > rowsPerTable) {
          filter = semiJoinFilter(t, sampled);
        }
        String select = "SELECT " + t.columns().stream().map(col -> "CAST(" + Sql.identifier(col.name())
            + " AS VARCHAR)").collect(Collectors.joining(", ")) + " FROM " + Sql.identifier(t.name());
        if (t.estimatedRows() > rowsPerTable) {
          select = filter != null
              ? select + " WHERE " + filter + " LIMIT " + (2L * rowsPerTable)
              : select + " USING SAMPLE reservoir(" + rowsPerTable + " ROWS) REPEATABLE (" + Math.floorMod(seed, 1_000_000)
                  + ")";
        }
        List<List<String>> rows = readStrings(target, select, t.columns().size());
        sampled.put(t.name().toLowerCase(Locale.ROOT), rows);
        insert(c, t, rows);
        total += rows.size();
      }
      lock(c);
      return new Instance("sample", "join-preserving sample of the target, " + total + " rows in "
          + tables.size() + " tables", c, true);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** Rows of {@code t} whose join column matches a value of an already sampled table, as a WHERE condition. */
  private @Nullable String semiJoinFilter(Catalog.Table t, Map<String, List<List<String>>> sampled) {
    for (QueryAnalysis.JoinCondition j : analysis.joins()) {
      for (int side = 0; side < 2; side++) {
        QueryAnalysis.ColumnReference mine = side == 0 ? j.left() : j.right();
        QueryAnalysis.ColumnReference other = side == 0 ? j.right() : j.left();
        Optional<Catalog.Table> mineTable = resolveTable(mine);
        Optional<Catalog.Table> otherTable = resolveTable(other);
        if (mineTable.isEmpty() || otherTable.isEmpty() || !mineTable.get().equals(t)
            || !sampled.containsKey(otherTable.get().name().toLowerCase(Locale.ROOT))) {
          continue;
        }
        Catalog.Table o = otherTable.get();
        int idx = columnIndex(o, other.column());
        Optional<Catalog.Column> col = t.column(mine.column());
        if (idx < 0 || col.isEmpty()) {
          continue;
        }
        Set<String> values = new LinkedHashSet<>();
        for (List<String> row : sampled.get(o.name().toLowerCase(Locale.ROOT))) {
          if (row.get(idx) != null && values.size() < IN_LIST_CAP) {
            values.add(row.get(idx));
          }
        }
        if (values.isEmpty()) {
          continue;
        }
        String type = col.get().type();
        return Sql.identifier(col.get().name()) + " IN (" + values.stream()
            .map(v -> "TRY_CAST(" + Sql.literal(v) + " AS " + type + ")").collect(Collectors.joining(", ")) + ")";
      }
    }
    return null;
  }

  /** A small instance whose rows are drawn from per-column value pools (see the class comment). */
  Instance generated(int rowsPerTable, long seed) throws SQLException {
    Connection c = open();
    try {
      createTables(c);
      Map<String, List<String>> pools = pools(c, seed);
      Random random = new Random(seed);
      long total = 0;
      for (Catalog.Table t : tables) {
        String keyColumn = t.primaryKey().size() == 1 ? t.primaryKey().get(0) : null;
        List<List<String>> rows = new ArrayList<>();
        for (int r = 0; r < rowsPerTable; r++) {
          List<String> row = new ArrayList<>();
          for (Catalog.Column col : t.columns()) {
            List<String> pool = pools.get(key(t, col.name()));
            if (col.name().equalsIgnoreCase(keyColumn)) {
              // A single-column key takes its values in turn, so that rows do not collide on it.
              row.add(pool.isEmpty() ? null : pool.get(r % pool.size()));
            } else {
              row.add(pool.isEmpty() ? null : pool.get(random.nextInt(pool.size())));
            }
          }
          rows.add(row);
        }
        total += insert(c, t, rows);
      }
      lock(c);
      return new Instance("generated", "generated instance, " + total + " rows in " + tables.size()
          + " tables, values from the query's literals, real samples and NULLs", c, true);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  private Map<String, List<String>> pools(Connection instance, long seed) throws SQLException {
    Map<String, LinkedHashSet<String>> raw = new LinkedHashMap<>();
    Map<String, LinkedHashSet<String>> literals = new HashMap<>();
    Map<String, LinkedHashSet<String>> moreReal = new HashMap<>();
    for (Catalog.Table t : tables) {
      for (Catalog.Column col : t.columns()) {
        raw.put(key(t, col.name()), new LinkedHashSet<>());
      }
    }
    // The query's literals first: they are what its filters select on.
    for (QueryAnalysis.Predicate p : analysis.predicates()) {
      for (Catalog.Table t : tablesOf(p.column())) {
        LinkedHashSet<String> pool = raw.get(key(t, p.column().column()));
        if (pool == null) {
          continue;
        }
        for (String lit : p.literals()) {
          if (lit == null) {
            continue;
          }
          String v = p.operator().contains("LIKE") ? likeExample(lit) : lit;
          pool.add(v);
          literals.computeIfAbsent(key(t, p.column().column()), k -> new LinkedHashSet<>()).add(v);
        }
      }
    }
    // Real values, a few per column.
    for (Catalog.Table t : tables) {
      String select = "SELECT " + t.columns().stream().map(col -> "CAST(" + Sql.identifier(col.name())
          + " AS VARCHAR)").collect(Collectors.joining(", ")) + " FROM " + Sql.identifier(t.name())
          + " USING SAMPLE reservoir(200 ROWS) REPEATABLE (" + Math.floorMod(seed, 1_000_000) + ")";
      List<List<String>> rows = readStrings(target, select, t.columns().size());
      for (int i = 0; i < t.columns().size(); i++) {
        LinkedHashSet<String> pool = raw.get(key(t, t.columns().get(i).name()));
        LinkedHashSet<String> more = moreReal.computeIfAbsent(key(t, t.columns().get(i).name()),
            k -> new LinkedHashSet<>());
        int added = 0;
        for (List<String> row : rows) {
          if (row.get(i) == null) {
            continue;
          }
          if (added < POOL_REAL_VALUES && !pool.contains(row.get(i))) {
            pool.add(row.get(i));
            added++;
          } else {
            more.add(row.get(i));
          }
        }
      }
    }
    // Join-connected columns share one pool, so that joins find partners.
    Map<String, String> parent = new HashMap<>();
    for (QueryAnalysis.JoinCondition j : analysis.joins()) {
      for (Catalog.Table lt : tablesOf(j.left())) {
        for (Catalog.Table rt : tablesOf(j.right())) {
          String a = key(lt, j.left().column());
          String b = key(rt, j.right().column());
          if (raw.containsKey(a) && raw.containsKey(b)) {
            parent.put(find(parent, a), find(parent, b));
          }
        }
      }
    }
    Map<String, LinkedHashSet<String>> merged = new HashMap<>();
    for (String k : raw.keySet()) {
      merged.computeIfAbsent(find(parent, k), x -> new LinkedHashSet<>()).addAll(raw.get(k));
    }
    Map<String, List<String>> pools = new HashMap<>();
    for (Catalog.Table t : tables) {
      boolean singleKey = t.primaryKey().size() == 1;
      for (Catalog.Column col : t.columns()) {
        String k = key(t, col.name());
        List<String> values = new ArrayList<>(merged.get(find(parent, k)));
        values = castable(instance, values, col.type());
        if (values.size() > POOL_CAP) {
          values = new ArrayList<>(values.subList(0, POOL_CAP));
        }
        if (singleKey && t.primaryKey().get(0).equalsIgnoreCase(col.name())) {
          // A key column: drop one shared non-literal value (so that some referencing rows have no partner,
          // as without a declared foreign key they may), then add more real values for distinct rows.
          Set<String> lits = literals.getOrDefault(k, new LinkedHashSet<>());
          String dropped = null;
          for (int i = values.size() - 1; i >= 0; i--) {
            if (!lits.contains(values.get(i)) && values.size() > 1) {
              dropped = values.remove(i);
              break;
            }
          }
          for (String v : castable(instance, new ArrayList<>(moreReal.getOrDefault(k, new LinkedHashSet<>())),
              col.type())) {
            if (!values.contains(v) && !v.equals(dropped)) {
              values.add(v);
            }
          }
        } else if (col.nullable()) {
          values.add(null);
        }
        pools.put(k, values);
      }
    }
    return pools;
  }

  private static String find(Map<String, String> parent, String k) {
    String p = parent.getOrDefault(k, k);
    if (p.equals(k)) {
      return k;
    }
    String root = find(parent, p);
    parent.put(k, root);
    return root;
  }

  /** The pool values that cast to the column type (a literal compared with another type may not). */
  private static List<String> castable(Connection c, List<String> values, String type) throws SQLException {
    if (values.isEmpty()) {
      return values;
    }
    String list = values.stream().map(v -> "(" + Sql.literal(v) + ")").collect(Collectors.joining(", "));
    List<List<String>> ok = readStrings(c, "SELECT v FROM (VALUES " + list + ") AS x(v) WHERE TRY_CAST(v AS "
        + type + ") IS NOT NULL", 1);
    Set<String> good = ok.stream().map(r -> r.get(0)).collect(Collectors.toSet());
    return values.stream().filter(good::contains).collect(Collectors.toCollection(ArrayList::new));
  }

  /** A string that matches a LIKE pattern: wildcards replaced by nothing and by one letter. */
  static String likeExample(String pattern) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      char ch = pattern.charAt(i);
      if (ch == '%') {
        continue;
      }
      sb.append(ch == '_' ? 'x' : ch);
    }
    return sb.toString();
  }

  private List<Catalog.Table> tablesOf(QueryAnalysis.ColumnReference ref) {
    Optional<Catalog.Table> direct = resolveTable(ref);
    if (direct.isPresent()) {
      return List.of(direct.get());
    }
    return tables.stream().filter(t -> t.column(ref.column()).isPresent()).toList();
  }

  private Optional<Catalog.Table> resolveTable(QueryAnalysis.ColumnReference ref) {
    if (ref.table().isPresent()) {
      Optional<Catalog.Table> t = catalog.table(ref.table().get());
      if (t.isPresent() && tables.contains(t.get()) && t.get().column(ref.column()).isPresent()) {
        return t;
      }
      return Optional.empty();
    }
    List<Catalog.Table> with = tables.stream().filter(t -> t.column(ref.column()).isPresent()).toList();
    return with.size() == 1 ? Optional.of(with.get(0)) : Optional.empty();
  }

  private static int columnIndex(Catalog.Table t, String column) {
    for (int i = 0; i < t.columns().size(); i++) {
      if (t.columns().get(i).name().equalsIgnoreCase(column)) {
        return i;
      }
    }
    return -1;
  }

  private static String key(Catalog.Table t, String column) {
    return t.name().toLowerCase(Locale.ROOT) + "." + column.toLowerCase(Locale.ROOT);
  }

  private static Connection open() throws SQLException {
    Connection c = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement st = c.createStatement()) {
      st.execute("SET autoinstall_known_extensions=false");
      st.execute("SET autoload_known_extensions=false");
    }
    return c;
  }

  private static void lock(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("SET enable_external_access=false");
      st.execute("SET lock_configuration=true");
    }
  }

  private void createTables(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (Catalog.Table t : tables) {
        StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(Sql.identifier(t.name())).append(" (");
        for (int i = 0; i < t.columns().size(); i++) {
          Catalog.Column col = t.columns().get(i);
          ddl.append(i == 0 ? "" : ", ").append(Sql.identifier(col.name())).append(' ').append(col.type());
          if (!col.nullable()) {
            ddl.append(" NOT NULL");
          }
        }
        if (!t.primaryKey().isEmpty()) {
          ddl.append(", PRIMARY KEY (").append(t.primaryKey().stream().map(Sql::identifier)
              .collect(Collectors.joining(", "))).append(')');
        }
        st.execute(ddl.append(')').toString());
      }
    }
  }

  /** Loads text rows into a table (cast to the column types); duplicate keys and impossible rows are skipped. */
  private static long insert(Connection c, Catalog.Table t, List<List<String>> rows) throws SQLException {
    if (rows.isEmpty()) {
      return 0;
    }
    String staging = "lakerewrite_staging";
    try (Statement st = c.createStatement()) {
      st.execute("CREATE OR REPLACE TEMP TABLE " + staging + " (" + java.util.stream.IntStream
          .range(0, t.columns().size()).mapToObj(i -> "c" + i + " VARCHAR").collect(Collectors.joining(", ")) + ")");
      try (org.duckdb.DuckDBAppender app = c.unwrap(org.duckdb.DuckDBConnection.class)
          .createAppender("temp", "main", staging)) {
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
      StringBuilder select = new StringBuilder("SELECT ");
      StringBuilder valid = new StringBuilder();
      for (int i = 0; i < t.columns().size(); i++) {
        Catalog.Column col = t.columns().get(i);
        select.append(i == 0 ? "" : ", ").append("TRY_CAST(c").append(i).append(" AS ").append(col.type()).append(')');
        if (!col.nullable()) {
          valid.append(valid.length() == 0 ? " WHERE " : " AND ").append("TRY_CAST(c").append(i).append(" AS ")
              .append(col.type()).append(") IS NOT NULL");
        }
      }
      String insert = (t.primaryKey().isEmpty() ? "INSERT INTO " : "INSERT OR IGNORE INTO ")
          + Sql.identifier(t.name()) + " " + select + " FROM " + staging + valid;
      long n = st.executeUpdate(insert);
      st.execute("DROP TABLE " + staging);
      return n;
    }
  }

  private static List<List<String>> readStrings(Connection c, String sql, int width) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
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
}
