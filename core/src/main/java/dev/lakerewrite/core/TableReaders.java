package dev.lakerewrite.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakerewrite.core.LakeFiles.Format;
import dev.lakerewrite.core.LakeFiles.SourceTable;
import dev.lakerewrite.sql.Sql;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reader of a table's files: the {@code read_parquet}, {@code read_csv} or {@code read_json} call a view (or
 * the copy) selects from. CSV dialect and column types and JSON column types are detected once, when the table is
 * loaded, and written into the call ({@code auto_detect = false} with explicit {@code columns}), so a query binds
 * without sniffing and every query sees the same types. Detection reads the whole file below 64 MB and DuckDB's
 * sample above; then one scan converts every column, so a value the sample did not foresee fails the load (which
 * then detects again over the whole file) instead of a later query.
 */
final class TableReaders {
  /** Files up to this size are sniffed completely; larger ones from DuckDB's sample. */
  static final long FULL_SNIFF_BYTES = 64L * 1024 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Stands for the lake folder (and a separator) in a reader template; NUL never occurs in SQL text. */
  private static final String ROOT = "\u0000lake\u0000";

  /**
   * A table's reader and what one scan through it counted.
   *
   * @param template the table expression ({@code read_csv(...)}) with file paths relative to the lake folder
   * @param rows rows of the table
   */
  record Reader(String template, long rows) {}

  /** The reader SQL of a template for the lake folder {@code root} (a real path). */
  static String resolve(String template, Path root) {
    return template.replace(ROOT, root.toString().replace("'", "''") + root.getFileSystem().getSeparator());
  }

  private TableReaders() {}

  /**
   * Detects the table's reader and checks it with one scan that converts every column.
   *
   * @param wikiDbsDialect read CSV with WikiDBs' fixed dialect (comma, double quotes) instead of detecting it
   * @throws SQLException when the files cannot be read as that format
   */
  static Reader detect(Connection c, SourceTable t, Path root, boolean wikiDbsDialect) throws SQLException {
    boolean small = sniffWhole(t);
    String template = expression(c, t, root, wikiDbsDialect, small);
    if (t.format() == Format.PARQUET) {
      return new Reader(template, count(c, resolve(template, root), false));
    }
    try {
      return new Reader(template, count(c, resolve(template, root), true));
    } catch (SQLException e) {
      if (small) {
        throw e;
      }
      // A value beyond the sample: detect again over every row.
      String full = expression(c, t, root, wikiDbsDialect, true);
      return new Reader(full, count(c, resolve(full, root), true));
    }
  }

  /** Whether the table's files are small enough to detect types over every row. */
  static boolean sniffWhole(SourceTable t) {
    return totalSize(t) < FULL_SNIFF_BYTES;
  }

  /** The reader template without checking it (the copy checks it by copying). */
  static String expression(Connection c, SourceTable t, Path root, boolean wikiDbsDialect, boolean fullSniff)
      throws SQLException {
    String files = files(t.files(), t.partitioned(), root);
    String realFiles = resolve(files, root);
    String hive = ", hive_partitioning = " + t.partitioned();
    switch (t.format()) {
      case PARQUET:
        return "read_parquet(" + files + hive + (t.files().size() > 1 ? ", union_by_name = true" : "") + ")";
      case JSON:
        return "read_json(" + files + ", columns = " + columns(describe(c, "read_json(" + realFiles
            + (fullSniff ? ", sample_size = -1" : "") + hive + ", hive_types_autocast = false)", t)) + hive + ")";
      case CSV:
        return csv(c, t, files, wikiDbsDialect, fullSniff);
      default:
        throw new IllegalStateException("unknown format " + t.format());
    }
  }

  /**
   * {@code read_csv} with the dialect and types {@code sniff_csv} detects on the first file (header row assumed;
   * tab-separated files keep a tab delimiter; WikiDBs files are comma-separated with double quotes).
   */
  private static String csv(Connection c, SourceTable t, String files, boolean wikiDbsDialect, boolean fullSniff)
      throws SQLException {
    String fixed = t.tabSeparated() ? ", delim = '\\t'"
        : wikiDbsDialect ? ", delim = ',', quote = '\"', escape = '\"'" : "";
    String sniff = "SELECT Delimiter, Quote, Escape, NewLineDelimiter, Comment, SkipRows, DateFormat, TimestampFormat,"
        + " to_json(Columns)::VARCHAR FROM sniff_csv(" + Sql.literal(t.files().get(0).toString()) + ", header = true"
        + fixed + (fullSniff ? ", sample_size = -1" : "") + ")";
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sniff)) {
      if (!rs.next()) {
        throw new SQLException("sniff_csv returned nothing");
      }
      Map<String, String> columns = new LinkedHashMap<>();
      try {
        for (JsonNode col : JSON.readTree(rs.getString(9))) {
          columns.put(col.path("name").asText(), col.path("type").asText());
        }
      } catch (IOException e) {
        throw new SQLException("cannot read sniff_csv's columns: " + e.getMessage(), e);
      }
      String dialect = ", auto_detect = false, header = true"
          + ", delim = " + Sql.literal(sniffed(rs.getString(1)))
          + ", quote = " + Sql.literal(sniffed(rs.getString(2)))
          + ", escape = " + Sql.literal(sniffed(rs.getString(3)))
          + ", new_line = " + Sql.literal(sniffed(rs.getString(4)))
          + ", comment = " + Sql.literal(sniffed(rs.getString(5)))
          + ", skip = " + rs.getLong(6);
      keepLettersAsText(c, Sql.literal(t.files().get(0).toString()) + dialect, columns);
      StringBuilder sb = new StringBuilder("read_csv(").append(files).append(dialect)
          .append(", columns = ").append(columns(columns));
      String date = sniffed(rs.getString(7));
      if (!date.isEmpty()) {
        sb.append(", dateformat = ").append(Sql.literal(date));
      }
      String timestamp = sniffed(rs.getString(8));
      if (!timestamp.isEmpty()) {
        sb.append(", timestampformat = ").append(Sql.literal(timestamp));
      }
      return sb.append(", hive_partitioning = ").append(t.partitioned()).append(')').toString();
    }
  }

  /**
   * Makes text again the columns the sniffer typed BOOLEAN whose values are not spelled {@code true} and
   * {@code false}: DuckDB reads a column of 'F' (an order status, a gender in a file of women) or 'Y'/'N' as
   * booleans, and the values a query returns would be {@code false} where the file says 'F'.
   *
   * @param firstFile the first file and the sniffed dialect, as {@code read_csv} arguments
   */
  private static void keepLettersAsText(Connection c, String firstFile, Map<String, String> columns)
      throws SQLException {
    List<String> booleans = columns.entrySet().stream().filter(e -> e.getValue().equals("BOOLEAN"))
        .map(Map.Entry::getKey).toList();
    if (booleans.isEmpty()) {
      return;
    }
    Map<String, String> text = new LinkedHashMap<>();
    columns.keySet().forEach(k -> text.put(k, "VARCHAR"));
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < booleans.size(); i++) {
      String col = Sql.quoted(booleans.get(i));
      sql.append(i > 0 ? ", " : "").append("count(*) FILTER (WHERE lower(trim(").append(col)
          .append(")) NOT IN ('true', 'false'))");
    }
    sql.append(" FROM read_csv(").append(firstFile).append(", columns = ").append(columns(text)).append(')');
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
      rs.next();
      for (int i = 0; i < booleans.size(); i++) {
        if (rs.getLong(i + 1) > 0) {
          columns.put(booleans.get(i), "VARCHAR");
        }
      }
    }
  }

  /** sniff_csv reports an absent character as {@code (empty)} (a quote, escape or comment is one character). */
  private static String sniffed(String value) {
    return value == null || value.equals("(empty)") ? "" : value;
  }

  /** Column name → type of a reader call, partition columns left out (the reader adds them itself). */
  private static Map<String, String> describe(Connection c, String reader, SourceTable t) throws SQLException {
    Map<String, String> columns = new LinkedHashMap<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + reader)) {
      while (rs.next()) {
        columns.put(rs.getString(1), rs.getString(2));
      }
    }
    if (t.partitioned()) {
      for (String key : partitionKeys(t)) {
        columns.remove(key);
      }
    }
    return columns;
  }

  /** The partition keys of a partitioned table, from its first file's path. */
  private static List<String> partitionKeys(SourceTable t) {
    List<String> keys = new ArrayList<>();
    Path rel = LakeFiles.realPath(t.location()).relativize(t.files().get(0));
    for (int i = 0; i < rel.getNameCount() - 1; i++) {
      String part = rel.getName(i).toString();
      int eq = part.indexOf('=');
      if (eq > 0) {
        keys.add(part.substring(0, eq));
      }
    }
    return keys;
  }

  private static String columns(Map<String, String> columns) {
    StringBuilder sb = new StringBuilder("{");
    columns.forEach((name, type) -> sb.append(sb.length() > 1 ? ", " : "").append(Sql.literal(name)).append(": ")
        .append(Sql.literal(type)));
    return sb.append('}').toString();
  }

  /** One file as a string literal; several (or a partitioned table) as a list; paths relative to {@code root}. */
  private static String files(List<Path> files, boolean asList, Path root) {
    if (files.size() == 1 && !asList) {
      return relative(files.get(0), root);
    }
    StringBuilder sb = new StringBuilder("[");
    for (Path f : files) {
      sb.append(sb.length() > 1 ? ", " : "").append(relative(f, root));
    }
    return sb.append(']').toString();
  }

  private static String relative(Path file, Path root) {
    return "'" + ROOT + root.relativize(file).toString().replace("'", "''") + "'";
  }

  /**
   * Rows through the reader; with {@code everyColumn}, also non-null counts of every column, which makes the scan
   * convert every value (a plain {@code count(*)} may skip parsing).
   */
  private static long count(Connection c, String reader, boolean everyColumn) throws SQLException {
    String select = everyColumn ? "SELECT count(*), count(COLUMNS(*)) FROM " + reader
        : "SELECT count(*) FROM " + reader;
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(select)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long totalSize(SourceTable t) {
    long total = 0;
    for (Path f : t.files()) {
      try {
        total += Files.size(f);
      } catch (IOException e) {
        return Long.MAX_VALUE;
      }
    }
    return total;
  }
}
