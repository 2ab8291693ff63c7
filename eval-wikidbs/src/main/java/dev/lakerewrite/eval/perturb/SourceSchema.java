package dev.lakerewrite.eval.perturb;

import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The clean schema the disorganizer starts from: tables with their columns and DuckDB types, one unique key per
 * table where the data has one, and the foreign keys between tables (declared, or found in the data).
 *
 * @param tables the tables, in name order
 * @param foreignKeys single-column foreign keys
 */
public record SourceSchema(List<SourceTable> tables, List<ForeignKey> foreignKeys) {

  public SourceSchema {
    tables = List.copyOf(tables);
    foreignKeys = List.copyOf(foreignKeys);
  }

  /** One column as DuckDB types it ({@code DECIMAL(15,2)}, {@code DATE}, {@code VARCHAR}, ...). */
  public record SourceColumn(String name, String type) {
    public SourceColumn {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
    }

    /** Integer or decimal (not floating point: its text form does not always read back exactly). */
    public boolean exactNumber() {
      String t = type.toUpperCase(Locale.ROOT);
      return t.startsWith("DECIMAL") || t.equals("INTEGER") || t.equals("BIGINT") || t.equals("SMALLINT")
          || t.equals("TINYINT") || t.equals("HUGEINT") || t.startsWith("NUMERIC") || t.equals("UBIGINT")
          || t.equals("UINTEGER") || t.equals("USMALLINT") || t.equals("UTINYINT");
    }

    /** Any number type. */
    public boolean numeric() {
      String t = type.toUpperCase(Locale.ROOT);
      return exactNumber() || t.equals("DOUBLE") || t.equals("FLOAT") || t.equals("REAL");
    }

    public boolean text() {
      return type.equalsIgnoreCase("VARCHAR");
    }

    public boolean date() {
      return type.equalsIgnoreCase("DATE");
    }

    public boolean bool() {
      return type.equalsIgnoreCase("BOOLEAN");
    }
  }

  /**
   * One table.
   *
   * @param name as the database names it
   * @param columns in table order
   * @param key a column that is unique and never NULL, when the data has one
   * @param rows row count
   */
  public record SourceTable(String name, List<SourceColumn> columns, Optional<String> key, long rows) {
    public SourceTable {
      Objects.requireNonNull(name, "name");
      columns = List.copyOf(columns);
      Objects.requireNonNull(key, "key");
    }

    /** The column with this name (case-insensitive). */
    public Optional<SourceColumn> column(String column) {
      return columns.stream().filter(c -> c.name().equalsIgnoreCase(column)).findFirst();
    }

    public List<String> columnNames() {
      return columns.stream().map(SourceColumn::name).toList();
    }
  }

  /** {@code table.column} references {@code refTable.refColumn} (a unique column). */
  public record ForeignKey(String table, String column, String refTable, String refColumn) {}

  /** The table with this name (case-insensitive). */
  public Optional<SourceTable> table(String name) {
    return tables.stream().filter(t -> t.name().equalsIgnoreCase(name)).findFirst();
  }

  /** The foreign keys from or to {@code table}. */
  public List<ForeignKey> foreignKeysOf(String table) {
    return foreignKeys.stream().filter(f -> f.table().equalsIgnoreCase(table) || f.refTable().equalsIgnoreCase(table))
        .toList();
  }

  /** This schema restricted to some tables (foreign keys between them kept). */
  public SourceSchema restrictedTo(Collection<String> names) {
    Set<String> keep = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    keep.addAll(names);
    return new SourceSchema(tables.stream().filter(t -> keep.contains(t.name())).toList(),
        foreignKeys.stream().filter(f -> keep.contains(f.table()) && keep.contains(f.refTable())).toList());
  }

  /**
   * Reads the schema of the {@code main} schema of a DuckDB catalog: columns and types, a unique non-NULL key per
   * table (preferring names with {@code key}, {@code id} or {@code sk}, then the first such column), and foreign
   * keys: declared ones, plus those the data shows — a column whose non-NULL values all occur in another table's
   * key and whose name, without its table's column prefix, ends with the key's (as {@code o_custkey} →
   * {@code c_custkey}) or names the referenced table (as WikiDBs' {@code capital} → table {@code capital}).
   *
   * @param catalog the DuckDB catalog (database) name, e.g. the alias of an attached file
   * @param only tables to read; empty for all
   */
  public static SourceSchema read(Connection connection, String catalog, Collection<String> only) throws SQLException {
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(catalog, "catalog");
    Set<String> wanted = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    wanted.addAll(only);
    Map<String, List<SourceColumn>> columns = new LinkedHashMap<>();
    try (PreparedStatement ps = connection.prepareStatement("SELECT table_name, column_name, data_type "
        + "FROM information_schema.columns WHERE table_catalog = ? AND table_schema = 'main' "
        + "ORDER BY table_name, ordinal_position")) {
      ps.setString(1, catalog);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String table = rs.getString(1);
          if (wanted.isEmpty() || wanted.contains(table)) {
            columns.computeIfAbsent(table, t -> new ArrayList<>()).add(new SourceColumn(rs.getString(2), rs.getString(3)));
          }
        }
      }
    }
    if (!wanted.isEmpty()) {
      Set<String> missing = new TreeSet<>(wanted);
      columns.keySet().forEach(missing::remove);
      if (!missing.isEmpty()) {
        throw new IllegalArgumentException("no table " + missing + " in the source database (it has "
            + tableNames(connection, catalog) + ")");
      }
    }
    List<SourceTable> tables = new ArrayList<>();
    for (Map.Entry<String, List<SourceColumn>> e : columns.entrySet()) {
      tables.add(readTable(connection, catalog, e.getKey(), e.getValue()));
    }
    List<ForeignKey> fks = new ArrayList<>(declaredForeignKeys(connection, catalog, columns.keySet()));
    for (SourceTable from : tables) {
      for (SourceColumn c : from.columns()) {
        if (from.key().map(k -> k.equals(c.name())).orElse(false)
            || fks.stream().anyMatch(f -> f.table().equals(from.name()) && f.column().equals(c.name()))) {
          continue;
        }
        for (SourceTable to : tables) {
          if (to == from || to.key().isEmpty()) {
            continue;
          }
          SourceColumn key = to.column(to.key().get()).orElseThrow();
          if (namesRelate(from, c, to, key) && sameFamily(c, key) && contained(connection, catalog, from, c, to, key)) {
            fks.add(new ForeignKey(from.name(), c.name(), to.name(), key.name()));
            break;
          }
        }
      }
    }
    return new SourceSchema(tables, fks);
  }

  private static List<String> tableNames(Connection c, String catalog) throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT table_name FROM information_schema.columns "
        + "WHERE table_catalog = ? AND table_schema = 'main' ORDER BY 1")) {
      ps.setString(1, catalog);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  private static SourceTable readTable(Connection c, String catalog, String table, List<SourceColumn> columns)
      throws SQLException {
    String from = qualified(catalog, table);
    long rows;
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + from)) {
      rs.next();
      rows = rs.getLong(1);
    }
    List<SourceColumn> candidates = columns.stream()
        .filter(col -> col.exactNumber() || col.text() || col.date()).toList();
    List<String> unique = new ArrayList<>();
    if (rows > 0 && !candidates.isEmpty()) {
      StringBuilder q = new StringBuilder("SELECT ");
      for (int i = 0; i < candidates.size(); i++) {
        String col = Sql.quoted(candidates.get(i).name());
        q.append(i == 0 ? "" : ", ").append("count(DISTINCT ").append(col).append(") = count(*) AND count(")
            .append(col).append(") = count(*)");
      }
      q.append(" FROM ").append(from);
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(q.toString())) {
        rs.next();
        for (int i = 0; i < candidates.size(); i++) {
          if (rs.getBoolean(i + 1)) {
            unique.add(candidates.get(i).name());
          }
        }
      }
    }
    Optional<String> key = unique.stream().filter(SourceSchema::keyLike).findFirst()
        .or(() -> unique.stream().findFirst());
    return new SourceTable(table, columns, key, rows);
  }

  private static boolean keyLike(String column) {
    List<String> tokens = Words.tokens(column);
    String last = tokens.isEmpty() ? "" : tokens.get(tokens.size() - 1);
    return last.endsWith("key") || last.equals("id") || last.equals("sk") || last.equals("label");
  }

  private static List<ForeignKey> declaredForeignKeys(Connection c, String catalog, Collection<String> tables)
      throws SQLException {
    List<ForeignKey> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT table_name, constraint_column_names, "
        + "referenced_table, referenced_column_names FROM duckdb_constraints() "
        + "WHERE database_name = ? AND constraint_type = 'FOREIGN KEY'")) {
      ps.setString(1, catalog);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Object[] from = (Object[]) rs.getArray(2).getArray();
          Object[] to = (Object[]) rs.getArray(4).getArray();
          if (from.length == 1 && to.length == 1 && tables.contains(rs.getString(1))
              && tables.contains(rs.getString(3))) {
            out.add(new ForeignKey(rs.getString(1), from[0].toString(), rs.getString(3), to[0].toString()));
          }
        }
      }
    }
    return out;
  }

  /** {@code o_custkey} ~ {@code c_custkey}; {@code capital} ~ table {@code capital}. */
  private static boolean namesRelate(SourceTable from, SourceColumn column, SourceTable to, SourceColumn key) {
    String c = String.join("_", Words.tokens(Words.withoutPrefix(column.name(), Words.columnPrefix(from.columnNames()))));
    String k = String.join("_", Words.tokens(Words.withoutPrefix(key.name(), Words.columnPrefix(to.columnNames()))));
    String t = String.join("_", Words.tokens(to.name()));
    if (c.isEmpty()) {
      return false;
    }
    boolean keyName = !k.isEmpty() && !Set.of("id", "key", "sk", "label", "name").contains(k)
        && (c.equals(k) || c.endsWith("_" + k));
    return keyName || c.equals(t) || c.equals(t + "_id") || c.equals(t + "_key");
  }

  private static boolean sameFamily(SourceColumn a, SourceColumn b) {
    return (a.exactNumber() && b.exactNumber()) || (a.text() && b.text()) || (a.date() && b.date());
  }

  private static boolean contained(Connection c, String catalog, SourceTable from, SourceColumn column,
      SourceTable to, SourceColumn key) throws SQLException {
    String col = Sql.quoted(column.name());
    String q = "SELECT count(*) AS n, count(*) FILTER (WHERE k IS NULL) AS missing FROM (SELECT DISTINCT " + col
        + " AS v FROM " + qualified(catalog, from.name()) + " WHERE " + col + " IS NOT NULL) f LEFT JOIN (SELECT "
        + Sql.quoted(key.name()) + " AS k FROM " + qualified(catalog, to.name()) + ") t ON f.v = t.k";
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(q)) {
      rs.next();
      return rs.getLong(1) > 0 && rs.getLong(2) == 0;
    }
  }

  static String qualified(String catalog, String table) {
    return Sql.quoted(catalog) + ".main." + Sql.quoted(table);
  }
}
