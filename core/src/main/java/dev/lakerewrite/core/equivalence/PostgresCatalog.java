package dev.lakerewrite.core.equivalence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a {@link Schema} from PostgreSQL's catalog ({@code pg_catalog}: trusted SQL the library writes, the schema
 * name passed as a parameter): the tables and views of the connection's current schema with column types
 * ({@code format_type}), NOT NULL, primary keys, UNIQUE sets, foreign keys, CHECK expressions and view queries.
 * Each column also gets the DuckDB type its values are generated in ({@code numeric(15,2)} as
 * {@code DECIMAL(15,2)}, {@code character varying(25)} as {@code VARCHAR}, ...).
 */
final class PostgresCatalog {
  private PostgresCatalog() {}

  static Schema read(Connection c) throws SQLException {
    String namespace;
    try (PreparedStatement ps = c.prepareStatement("SELECT current_schema()"); ResultSet rs = ps.executeQuery()) {
      rs.next();
      namespace = rs.getString(1);
    }
    Map<String, List<Schema.Column>> columns = new LinkedHashMap<>();
    Map<String, List<String>> primaryKeys = new LinkedHashMap<>();
    Map<String, List<List<String>>> uniques = new LinkedHashMap<>();
    Map<String, List<Schema.ForeignKey>> foreignKeys = new LinkedHashMap<>();
    Map<String, List<String>> checks = new LinkedHashMap<>();
    List<Schema.View> views = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), "
        + "a.attnotnull FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON "
        + "a.attrelid = c.oid WHERE n.nspname = ? AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT "
        + "a.attisdropped ORDER BY c.relname, a.attnum")) {
      ps.setString(1, namespace);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          columns.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(new Schema.Column(rs.getString(2),
              rs.getString(3), !rs.getBoolean(4), duckType(rs.getString(3))));
        }
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT cl.relname, co.contype, ARRAY(SELECT a.attname FROM "
        + "unnest(co.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum "
        + "= k.n ORDER BY k.i), rc.relname, ARRAY(SELECT a.attname FROM unnest(co.confkey) WITH ORDINALITY k(n, i) "
        + "JOIN pg_attribute a ON a.attrelid = co.confrelid AND a.attnum = k.n ORDER BY k.i), "
        + "pg_get_expr(co.conbin, co.conrelid) FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid "
        + "JOIN pg_namespace n ON n.oid = cl.relnamespace LEFT JOIN pg_class rc ON rc.oid = co.confrelid "
        + "WHERE n.nspname = ? AND co.contype IN ('p', 'u', 'f', 'c') ORDER BY cl.relname, co.conname")) {
      ps.setString(1, namespace);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String table = rs.getString(1);
          List<String> cols = strings(rs.getArray(3));
          switch (rs.getString(2)) {
            case "p" -> primaryKeys.put(table, cols);
            case "u" -> uniques.computeIfAbsent(table, k -> new ArrayList<>()).add(cols);
            case "f" -> foreignKeys.computeIfAbsent(table, k -> new ArrayList<>())
                .add(new Schema.ForeignKey(cols, rs.getString(4), strings(rs.getArray(5))));
            case "c" -> {
              String expression = rs.getString(6);
              if (expression != null) {
                checks.computeIfAbsent(table, k -> new ArrayList<>()).add(expression);
              }
            }
            default -> {
              // Other constraint kinds do not shape instances.
            }
          }
        }
      }
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT c.relname, pg_get_viewdef(c.oid, true) FROM pg_class c "
        + "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind = 'v' ORDER BY 1")) {
      ps.setString(1, namespace);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String query = rs.getString(2).strip().replaceAll(";\\s*$", "");
          views.add(new Schema.View(rs.getString(1), "CREATE TEMP VIEW " + dev.lakerewrite.sql.Sql.quoted(
              rs.getString(1)) + " AS " + query, query));
        }
      }
    }
    List<Schema.Table> tables = new ArrayList<>();
    columns.forEach((name, cols) -> tables.add(new Schema.Table(name, cols,
        primaryKeys.getOrDefault(name, List.of()), uniques.getOrDefault(name, List.of()),
        foreignKeys.getOrDefault(name, List.of()), checks.getOrDefault(name, List.of()))));
    return new Schema(tables, views);
  }

  /** The DuckDB type values of a PostgreSQL type are generated and normalised in. */
  static String duckType(String pgType) {
    String t = pgType.toLowerCase(Locale.ROOT).strip();
    if (t.startsWith("numeric(") || t.startsWith("decimal(")) {
      return "DECIMAL" + t.substring(t.indexOf('('));
    }
    if (t.startsWith("character varying") || t.startsWith("character(") || t.equals("character") || t.equals("text")
        || t.startsWith("varchar") || t.equals("name") || t.startsWith("bpchar") || t.equals("citext")) {
      return "VARCHAR";
    }
    if (t.startsWith("timestamp") && t.contains("with time zone")) {
      return "TIMESTAMPTZ";
    }
    if (t.startsWith("timestamp")) {
      return "TIMESTAMP";
    }
    if (t.startsWith("time")) {
      return "TIME";
    }
    return switch (t) {
      case "integer", "int", "int4", "serial" -> "INTEGER";
      case "bigint", "int8", "bigserial" -> "BIGINT";
      case "smallint", "int2", "smallserial" -> "SMALLINT";
      case "double precision", "float8" -> "DOUBLE";
      case "real", "float4" -> "FLOAT";
      case "numeric", "decimal" -> "DECIMAL(38,6)";
      case "boolean", "bool" -> "BOOLEAN";
      case "date" -> "DATE";
      case "uuid" -> "UUID";
      case "bytea" -> "BLOB";
      case "interval" -> "INTERVAL";
      default -> pgType;
    };
  }

  private static List<String> strings(java.sql.Array a) throws SQLException {
    List<String> out = new ArrayList<>();
    if (a != null) {
      for (Object o : (Object[]) a.getArray()) {
        out.add(String.valueOf(o));
      }
    }
    return out;
  }
}
