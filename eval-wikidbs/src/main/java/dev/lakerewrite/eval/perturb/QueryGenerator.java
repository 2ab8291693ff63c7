package dev.lakerewrite.eval.perturb;

import dev.lakerewrite.sql.Sql;
import dev.lakerewrite.eval.perturb.SourceSchema.ForeignKey;
import dev.lakerewrite.eval.perturb.SourceSchema.SourceColumn;
import dev.lakerewrite.eval.perturb.SourceSchema.SourceTable;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * Generates queries of every {@link SqlShape} over a clean DuckDB database, for the disorganizer's pairs: selections
 * and projections, joins along foreign keys, aggregates with GROUP BY/HAVING, ORDER BY/LIMIT, scalar, IN, EXISTS
 * and correlated subqueries, derived tables, CTEs, set operations and self-joins with repeated aliases. Literals are
 * values drawn from the data, so filters select rows. Every query is run before it is kept: it must return between
 * one and {@code maxRows} rows, not all NULL, and a LIMIT always follows an ORDER BY that orders whole rows, so the
 * result is deterministic.
 *
 * <p>Shapes are drawn round-robin (each query records the shapes it has); the same seed and database give the same
 * queries. Immutable and thread-safe.
 */
public final class QueryGenerator {

  private final long seed;
  private final int count;
  private final int maxRows;
  private final Set<String> tables;

  private QueryGenerator(Builder b) {
    this.seed = b.seed;
    this.count = b.count;
    this.maxRows = b.maxRows;
    this.tables = Set.copyOf(b.tables);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Configures a {@link QueryGenerator}. */
  public static final class Builder {
    private long seed = 1;
    private int count = 60;
    private int maxRows = 500;
    private Set<String> tables = Set.of();

    private Builder() {}

    /** Seed of every draw (default 1). */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** How many queries to generate (default 60; fewer when the schema cannot give that many distinct ones). */
    public Builder count(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("count must be at least 1, was " + count);
      }
      this.count = count;
      return this;
    }

    /** The largest result a kept query may return (default 500). */
    public Builder maxRows(int rows) {
      if (rows < 1) {
        throw new IllegalArgumentException("maxRows must be at least 1, was " + rows);
      }
      this.maxRows = rows;
      return this;
    }

    /** Only these tables (default all). */
    public Builder tables(Collection<String> names) {
      this.tables = Set.copyOf(Objects.requireNonNull(names, "names"));
      return this;
    }

    public QueryGenerator build() {
      return new QueryGenerator(this);
    }
  }

  /**
   * Generates queries over the DuckDB database file {@code source} (opened read-only), with ids
   * {@code <idPrefix>NNN}.
   */
  public List<SourceQuery> generate(Path source, String idPrefix) throws SQLException {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(idPrefix, "idPrefix");
    if (!Files.isRegularFile(source)) {
      throw new IllegalArgumentException("no DuckDB database at " + source.toAbsolutePath().normalize());
    }
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      st.execute("ATTACH " + Sql.literal(source.toAbsolutePath().toString()) + " AS src (READ_ONLY)");
      st.execute("USE src");
      SourceSchema schema = SourceSchema.read(c, "src", tables);
      return new Run(c, schema, idPrefix).generate();
    }
  }

  /** The roles a table's columns can play in generated queries. */
  private record Roles(SourceTable table, List<SourceColumn> measures, List<SourceColumn> categories,
      List<SourceColumn> labels, List<SourceColumn> dates, SourceColumn key) {}

  /** One generation run. */
  private final class Run {
    private final Connection c;
    private final SourceSchema schema;
    private final String idPrefix;
    private final SplittableRandom random = new SplittableRandom(LakePlanner.mix(seed, "queries"));
    private final Map<String, Roles> roles = new HashMap<>();
    private final Map<String, List<Object>> values = new HashMap<>();

    Run(Connection c, SourceSchema schema, String idPrefix) {
      this.c = c;
      this.schema = schema;
      this.idPrefix = idPrefix;
    }

    List<SourceQuery> generate() throws SQLException {
      for (SourceTable t : schema.tables()) {
        roles.put(t.name(), roles(t));
      }
      List<Template> templates = List.of(this::select, this::join, this::aggregate, this::joinAggregate,
          this::orderLimit, this::scalarSubquery, this::inSubquery, this::exists, this::correlated,
          this::derivedTable, this::cte, this::setOperation, this::selfJoin);
      List<SourceQuery> out = new ArrayList<>();
      Set<String> seen = new LinkedHashSet<>();
      int failuresInARow = 0;
      for (int i = 0; out.size() < count && failuresInARow < templates.size() * 30; i++) {
        Template template = templates.get(i % templates.size());
        Generated g = template.draw();
        if (g == null || !seen.add(g.sql()) || !valid(g.sql())) {
          failuresInARow++;
          continue;
        }
        failuresInARow = 0;
        out.add(new SourceQuery(String.format(Locale.ROOT, "%s%03d", idPrefix, out.size() + 1), g.sql(), g.shapes()));
      }
      return out;
    }

    private Roles roles(SourceTable t) throws SQLException {
      Set<String> fkColumns = new LinkedHashSet<>();
      for (ForeignKey f : schema.foreignKeys()) {
        if (f.table().equals(t.name())) {
          fkColumns.add(f.column());
        }
      }
      List<SourceColumn> measures = new ArrayList<>();
      List<SourceColumn> categories = new ArrayList<>();
      List<SourceColumn> labels = new ArrayList<>();
      List<SourceColumn> dates = new ArrayList<>();
      SourceColumn key = t.key().flatMap(t::column).orElse(null);
      for (SourceColumn col : t.columns()) {
        if (key != null && col.name().equals(key.name()) || fkColumns.contains(col.name())) {
          continue;
        }
        long distinct = scalarLong("SELECT count(DISTINCT " + id(col.name()) + ") FROM " + id(t.name()));
        long nonNull = scalarLong("SELECT count(" + id(col.name()) + ") FROM " + id(t.name()));
        if (nonNull == 0) {
          continue;
        }
        if (col.numeric() && distinct > 3) {
          measures.add(col);
        } else if (col.date()) {
          dates.add(col);
        } else if ((col.text() || col.bool() || col.exactNumber()) && distinct >= 2 && distinct <= 60
            && distinct * 2 <= t.rows()) {
          categories.add(col);
        } else if (col.text() && distinct * 10 >= nonNull * 7) {
          labels.add(col);
        }
      }
      return new Roles(t, measures, categories, labels, dates, key);
    }

    // ---------------------------------------------------------------------------------------------- templates

    private @Nullable Generated select() throws SQLException {
      Roles r = anyTable(x -> !x.labels().isEmpty() || x.key() != null);
      if (r == null) {
        return null;
      }
      List<String> cols = projection(r, "", 2);
      String where = predicate(r, "");
      if (where == null) {
        return null;
      }
      return new Generated("SELECT " + String.join(", ", cols) + " FROM " + id(r.table().name()) + " WHERE " + where,
          EnumSet.of(SqlShape.SELECT));
    }

    private @Nullable Generated join() throws SQLException {
      ForeignKey f = anyForeignKey();
      if (f == null) {
        return null;
      }
      Roles child = roles.get(f.table());
      Roles parent = roles.get(f.refTable());
      List<String> cols = new ArrayList<>(projection(parent, "p.", 1));
      cols.addAll(projection(child, "c.", 1));
      String where = random.nextBoolean() ? predicate(parent, "p.") : predicate(child, "c.");
      if (where == null) {
        return null;
      }
      return new Generated("SELECT " + String.join(", ", distinctItems(cols)) + " FROM " + id(f.table()) + " c JOIN "
          + id(f.refTable()) + " p ON c." + id(f.column()) + " = p." + id(f.refColumn()) + " WHERE " + where,
          EnumSet.of(SqlShape.JOIN));
    }

    private @Nullable Generated aggregate() {
      Roles r = anyTable(x -> !x.categories().isEmpty());
      if (r == null) {
        return null;
      }
      String g = id(pick(r.categories()).name());
      StringBuilder items = new StringBuilder(g + ", COUNT(*) AS row_count");
      if (!r.measures().isEmpty()) {
        SourceColumn m = pick(r.measures());
        String fn = pick(List.of("SUM", "AVG", "MIN", "MAX"));
        items.append(", ").append(fn).append("(").append(id(m.name())).append(") AS ")
            .append(alias(fn.toLowerCase(Locale.ROOT) + "_" + m.name()));
      }
      String having = random.nextBoolean() ? " HAVING COUNT(*) > " + (1 + random.nextInt(3)) : "";
      return new Generated("SELECT " + items + " FROM " + id(r.table().name()) + " GROUP BY " + g + having,
          EnumSet.of(SqlShape.AGGREGATE));
    }

    private @Nullable Generated joinAggregate() {
      ForeignKey f = anyForeignKey();
      if (f == null) {
        return null;
      }
      Roles child = roles.get(f.table());
      Roles parent = roles.get(f.refTable());
      List<SourceColumn> groups = new ArrayList<>(parent.categories());
      groups.addAll(parent.labels());
      if (groups.isEmpty()) {
        return null;
      }
      String g = "p." + id(pick(groups).name());
      String agg = child.measures().isEmpty() ? "COUNT(*) AS row_count"
          : "COUNT(*) AS row_count, SUM(c." + id(pick(child.measures()).name()) + ") AS total";
      return new Generated("SELECT " + g + ", " + agg + " FROM " + id(f.table()) + " c JOIN " + id(f.refTable())
          + " p ON c." + id(f.column()) + " = p." + id(f.refColumn()) + " GROUP BY " + g
          + " ORDER BY row_count DESC, " + g + " LIMIT " + (5 + random.nextInt(10)),
          EnumSet.of(SqlShape.JOIN, SqlShape.AGGREGATE, SqlShape.ORDER_LIMIT));
    }

    private @Nullable Generated orderLimit() {
      Roles r = anyTable(x -> !x.measures().isEmpty() || !x.dates().isEmpty());
      if (r == null) {
        return null;
      }
      List<SourceColumn> sortable = new ArrayList<>(r.measures());
      sortable.addAll(r.dates());
      SourceColumn s = pick(sortable);
      List<String> cols = new ArrayList<>(projection(r, "", 1));
      cols.add(id(s.name()));
      cols = distinctItems(cols);
      String dir = random.nextBoolean() ? " DESC" : "";
      StringBuilder order = new StringBuilder(id(s.name()) + dir);
      for (String col : cols) {
        if (!col.equals(id(s.name()))) {
          order.append(", ").append(col);
        }
      }
      return new Generated("SELECT " + String.join(", ", cols) + " FROM " + id(r.table().name()) + " WHERE "
          + id(s.name()) + " IS NOT NULL ORDER BY " + order + " LIMIT " + (3 + random.nextInt(10)),
          EnumSet.of(SqlShape.SELECT, SqlShape.ORDER_LIMIT));
    }

    private @Nullable Generated scalarSubquery() {
      Roles r = anyTable(x -> !x.measures().isEmpty());
      if (r == null) {
        return null;
      }
      SourceColumn m = pick(r.measures());
      String op = random.nextBoolean() ? ">" : "<";
      String fn = op.equals(">") ? pick(List.of("AVG", "MAX")) : pick(List.of("AVG", "MIN"));
      String bound = fn.equals("AVG") ? "(SELECT AVG(" + id(m.name()) + ") FROM " + id(r.table().name()) + ")"
          : "(SELECT " + fn + "(" + id(m.name()) + ") * " + (fn.equals("MAX") ? "0.9" : "1.1") + " FROM "
              + id(r.table().name()) + ")";
      List<String> cols = distinctItems(concat(projection(r, "", 1), id(m.name())));
      return new Generated("SELECT " + String.join(", ", cols) + " FROM " + id(r.table().name()) + " WHERE "
          + id(m.name()) + " " + op + " " + bound, EnumSet.of(SqlShape.SCALAR_SUBQUERY, SqlShape.AGGREGATE));
    }

    private @Nullable Generated inSubquery() throws SQLException {
      ForeignKey f = anyForeignKey();
      if (f == null) {
        return null;
      }
      Roles child = roles.get(f.table());
      Roles parent = roles.get(f.refTable());
      String where = predicate(child, "");
      if (where == null) {
        return null;
      }
      String not = random.nextDouble() < 0.25 ? "NOT " : "";
      return new Generated("SELECT " + String.join(", ", projection(parent, "", 2)) + " FROM " + id(f.refTable())
          + " WHERE " + id(f.refColumn()) + " " + not + "IN (SELECT " + id(f.column()) + " FROM " + id(f.table())
          + " WHERE " + where + (not.isEmpty() ? "" : " AND " + id(f.column()) + " IS NOT NULL") + ")",
          EnumSet.of(SqlShape.IN_SUBQUERY));
    }

    private @Nullable Generated exists() throws SQLException {
      ForeignKey f = anyForeignKey();
      if (f == null) {
        return null;
      }
      Roles child = roles.get(f.table());
      Roles parent = roles.get(f.refTable());
      String where = predicate(child, "c.");
      if (where == null) {
        return null;
      }
      String not = random.nextDouble() < 0.25 ? "NOT " : "";
      return new Generated("SELECT " + String.join(", ", projection(parent, "p.", 2)) + " FROM " + id(f.refTable())
          + " p WHERE " + not + "EXISTS (SELECT 1 FROM " + id(f.table()) + " c WHERE c." + id(f.column()) + " = p."
          + id(f.refColumn()) + " AND " + where + ")",
          EnumSet.of(SqlShape.EXISTS_SUBQUERY, SqlShape.CORRELATED_SUBQUERY));
    }

    private @Nullable Generated correlated() {
      Roles r = anyTable(x -> !x.measures().isEmpty() && !x.categories().isEmpty());
      if (r == null) {
        return null;
      }
      SourceColumn m = pick(r.measures());
      SourceColumn g = pick(r.categories());
      String t = id(r.table().name());
      List<String> cols = distinctItems(concat(projection(r, "t1.", 1), "t1." + id(m.name())));
      return new Generated("SELECT " + String.join(", ", cols) + " FROM " + t + " t1 WHERE t1." + id(m.name())
          + " > (SELECT AVG(t2." + id(m.name()) + ") * 1.2 FROM " + t + " t2 WHERE t2." + id(g.name()) + " = t1."
          + id(g.name()) + ")", EnumSet.of(SqlShape.CORRELATED_SUBQUERY, SqlShape.SCALAR_SUBQUERY,
          SqlShape.AGGREGATE));
    }

    private @Nullable Generated derivedTable() {
      Roles r = anyTable(x -> !x.categories().isEmpty());
      if (r == null) {
        return null;
      }
      String g = id(pick(r.categories()).name());
      String extra = r.measures().isEmpty() ? "" : ", MAX(" + id(pick(r.measures()).name()) + ") AS top_value";
      return new Generated("SELECT d." + g + ", d.row_count" + (extra.isEmpty() ? "" : ", d.top_value") + " FROM "
          + "(SELECT " + g + ", COUNT(*) AS row_count" + extra + " FROM " + id(r.table().name()) + " GROUP BY " + g
          + ") d WHERE d.row_count >= " + (1 + random.nextInt(3)),
          EnumSet.of(SqlShape.DERIVED_TABLE, SqlShape.AGGREGATE));
    }

    private @Nullable Generated cte() {
      ForeignKey f = anyForeignKey();
      if (f == null) {
        return null;
      }
      Roles child = roles.get(f.table());
      Roles parent = roles.get(f.refTable());
      String agg = child.measures().isEmpty() ? "COUNT(*)" : "SUM(" + id(pick(child.measures()).name()) + ")";
      String shown = String.join(", ", projection(parent, "p.", 1));
      return new Generated("WITH per_parent AS (SELECT " + id(f.column()) + " AS parent_key, " + agg + " AS total "
          + "FROM " + id(f.table()) + " GROUP BY " + id(f.column()) + ") SELECT " + shown + ", s.total FROM "
          + id(f.refTable()) + " p JOIN per_parent s ON s.parent_key = p." + id(f.refColumn())
          + " ORDER BY s.total DESC, " + shown + " LIMIT " + (5 + random.nextInt(10)),
          EnumSet.of(SqlShape.CTE, SqlShape.JOIN, SqlShape.AGGREGATE, SqlShape.ORDER_LIMIT));
    }

    private @Nullable Generated setOperation() throws SQLException {
      Roles r = anyTable(x -> !x.labels().isEmpty() || x.key() != null);
      if (r == null) {
        return null;
      }
      List<String> cols = projection(r, "", 1);
      String a = predicate(r, "");
      String b = predicate(r, "");
      if (a == null || b == null || a.equals(b)) {
        return null;
      }
      String op = pick(List.of("UNION", "UNION", "INTERSECT", "EXCEPT"));
      String from = " FROM " + id(r.table().name()) + " WHERE ";
      return new Generated("SELECT " + String.join(", ", cols) + from + a + " " + op + " SELECT "
          + String.join(", ", cols) + from + b, EnumSet.of(SqlShape.SET_OPERATION));
    }

    private @Nullable Generated selfJoin() throws SQLException {
      Roles r = anyTable(x -> x.key() != null && !x.categories().isEmpty());
      if (r == null) {
        return null;
      }
      SourceColumn g = pick(r.categories());
      List<Object> keys = values(r.table().name(), r.key().name());
      if (keys.isEmpty()) {
        return null;
      }
      String k = id(r.key().name());
      String label = r.labels().isEmpty() ? k : id(pick(r.labels()).name());
      return new Generated("SELECT a." + label + ", b." + label + " AS other_" + Words.tokens(label).get(0)
          + " FROM " + id(r.table().name()) + " a JOIN " + id(r.table().name()) + " b ON a." + id(g.name()) + " = b."
          + id(g.name()) + " AND a." + k + " <> b." + k + " WHERE a." + k + " = " + literal(pick(keys))
          + " ORDER BY 1, 2 LIMIT 20", EnumSet.of(SqlShape.SELF_JOIN, SqlShape.JOIN, SqlShape.ORDER_LIMIT));
    }

    // ---------------------------------------------------------------------------------------------- helpers

    private List<String> projection(Roles r, String qualifier, int n) {
      List<SourceColumn> pool = new ArrayList<>(r.labels());
      if (pool.isEmpty() && r.key() != null) {
        pool.add(r.key());
      }
      if (pool.isEmpty()) {
        pool.addAll(r.categories());
      }
      List<SourceColumn> extra = new ArrayList<>(r.measures());
      extra.addAll(r.dates());
      extra.addAll(r.categories());
      if (pool.isEmpty()) {
        pool.addAll(extra); // a table of measures and dates only (TPC-DS's inventory): project what it has
      }
      if (pool.isEmpty()) {
        pool.addAll(r.table().columns());
      }
      List<String> out = new ArrayList<>();
      out.add(qualifier + id(pick(pool).name()));
      for (int i = 1; i < n && !extra.isEmpty(); i++) {
        out.add(qualifier + id(pick(extra).name()));
      }
      return distinctItems(out);
    }

    /** A filter on one column with a literal from the data; null when the table has nothing to filter on. */
    private @Nullable String predicate(Roles r, String qualifier) throws SQLException {
      List<SourceColumn> pool = new ArrayList<>(r.categories());
      pool.addAll(r.measures());
      pool.addAll(r.dates());
      if (pool.isEmpty()) {
        pool.addAll(r.labels());
      }
      if (pool.isEmpty()) {
        return null;
      }
      SourceColumn col = pick(pool);
      List<Object> vals = values(r.table().name(), col.name());
      if (vals.isEmpty()) {
        return null;
      }
      String ref = qualifier + id(col.name());
      Object v = pick(vals);
      if (r.categories().contains(col) || r.labels().contains(col)) {
        if (vals.size() > 2 && random.nextDouble() < 0.3) {
          Object w = pick(vals);
          return w.equals(v) ? ref + " = " + literal(v) : ref + " IN (" + literal(v) + ", " + literal(w) + ")";
        }
        return ref + " = " + literal(v);
      }
      String op = pick(List.of(">", ">=", "<", "<="));
      if (random.nextDouble() < 0.25) {
        Object w = pick(vals);
        Object lo = compare(v, w) <= 0 ? v : w;
        Object hi = compare(v, w) <= 0 ? w : v;
        return ref + " BETWEEN " + literal(lo) + " AND " + literal(hi);
      }
      return ref + " " + op + " " + literal(v);
    }

    /** Up to 40 distinct non-NULL values of a column, in a stable order. */
    private List<Object> values(String table, String column) throws SQLException {
      String key = table + "." + column;
      List<Object> cached = values.get(key);
      if (cached != null) {
        return cached;
      }
      List<Object> out = new ArrayList<>();
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT DISTINCT " + id(column)
          + " AS v FROM " + id(table) + " WHERE " + id(column) + " IS NOT NULL ORDER BY hash(v), v LIMIT 40")) {
        while (rs.next()) {
          Object v = rs.getObject(1);
          if (v instanceof java.sql.Date d) {
            v = d.toLocalDate();
          }
          if (v instanceof String s && (s.length() > 60 || s.isBlank())) {
            continue;
          }
          out.add(v);
        }
      }
      values.put(key, out);
      return out;
    }

    private boolean valid(String sql) {
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        int n = rs.getMetaData().getColumnCount();
        int rows = 0;
        boolean someValue = false;
        while (rs.next()) {
          if (++rows > maxRows) {
            return false;
          }
          for (int i = 1; i <= n && !someValue; i++) {
            someValue = rs.getObject(i) != null;
          }
        }
        return rows > 0 && someValue;
      } catch (SQLException e) {
        return false;
      }
    }

    private long scalarLong(String sql) throws SQLException {
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        rs.next();
        return rs.getLong(1);
      }
    }

    private Roles anyTable(java.util.function.Predicate<Roles> fits) {
      List<Roles> ok = schema.tables().stream().map(t -> roles.get(t.name())).filter(fits).toList();
      return ok.isEmpty() ? null : pick(ok);
    }

    private ForeignKey anyForeignKey() {
      return schema.foreignKeys().isEmpty() ? null : pick(schema.foreignKeys());
    }

    private <T> T pick(List<T> list) {
      return list.get(random.nextInt(list.size()));
    }
  }

  /** A drawn query with its shapes. */
  private record Generated(String sql, Set<SqlShape> shapes) {}

  @FunctionalInterface
  private interface Template {
    Generated draw() throws SQLException;
  }

  private static String id(String name) {
    return Sql.identifier(name);
  }

  private static String alias(String name) {
    return String.join("_", Words.tokens(name));
  }

  private static List<String> concat(List<String> a, String b) {
    List<String> out = new ArrayList<>(a);
    out.add(b);
    return out;
  }

  private static List<String> distinctItems(List<String> items) {
    return List.copyOf(new LinkedHashSet<>(items));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString()));
    }
    return ((Comparable) a).compareTo(b);
  }

  private static String literal(Object v) {
    if (v instanceof Number n) {
      return new BigDecimal(n.toString()).toPlainString();
    }
    if (v instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    }
    if (v instanceof LocalDate d) {
      return "DATE '" + d + "'";
    }
    return Sql.literal(v.toString());
  }
}
