package dev.lakerewrite.core;

import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One read of a table that feeds everything indexing needs from its rows: every column's distinct values (as text)
 * with how many rows hold each, most frequent first (ties by value). Profiles take their counts and frequent values
 * from it, the retrieval index its most frequent values, the join graph its value sketches, so a table is read
 * once, not once per consumer.
 *
 * <p>Memory stays bounded: columns are read in groups of at most {@link #ONE_SCAN_CELLS} cells, one query per
 * group (all its columns unpivoted and grouped; a small table in one query, a file stored as text parsed once per
 * group rather than once per column); a table of more than {@code maxRows} rows from a Bernoulli sample of about that
 * many rows (each row kept with probability {@code maxRows / rows}, with a fixed seed: the same rows at every read),
 * drawn once for up to {@link #SAMPLED_CELLS} cells (not once per column: a sample costs a pass over the whole table),
 * each column grouped on its own; and each column keeps at most {@code maxValues} values. Not DuckDB's reservoir
 * sample (exactly {@code maxRows} rows): it keeps its rows in a priority queue, and that queue's upkeep made drawing a
 * million rows from a table of two million 60 times slower than the Bernoulli sample ({@code
 * BlockingSample::PopFromWeightQueue}, the largest cost of indexing a lake of tall tables).
 */
final class TableScan {
  /** Tables of at most this many cells are read in one query. */
  static final long ONE_SCAN_CELLS = 1_000_000;

  /** A sampled table's columns share one sample of at most this many cells (16 columns of a million rows). */
  static final long SAMPLED_CELLS = 16_000_000;

  /**
   * One column's values.
   *
   * @param name the column
   * @param type its SQL type
   * @param values distinct non-null values as text, most frequent first, ties by value
   * @param counts rows holding each value
   * @param complete whether these are all of the column's values (false: sampled rows, or cut off at the cap)
   */
  record Column(String name, String type, List<String> values, long[] counts, boolean complete) {
    long nonNull() {
      long n = 0;
      for (long c : counts) {
        n += c;
      }
      return n;
    }
  }

  /**
   * A table's scan.
   *
   * @param table the table
   * @param sampled whether the values come from a sample of its rows
   * @param columns its columns, in table order
   */
  record Result(CatalogTable table, boolean sampled, List<Column> columns) {}

  private TableScan() {}

  static Result scan(Connection c, CatalogTable table, long maxRows, int maxValues) throws SQLException {
    boolean sampled = table.rowCount() > maxRows;
    List<CatalogTable.Column> cols = table.columns();
    List<Column> out = new ArrayList<>(cols.size());
    if (cols.isEmpty()) {
      return new Result(table, sampled, out);
    }
    Accumulator[] acc = new Accumulator[cols.size()];
    for (int i = 0; i < acc.length; i++) {
      acc[i] = new Accumulator(maxValues);
    }
    if (sampled) {
      int perSample = (int) Math.max(1, Math.min(cols.size(), SAMPLED_CELLS / Math.max(1, maxRows)));
      for (int from = 0; from < cols.size(); from += perSample) {
        readSampled(c, table, from, Math.min(cols.size(), from + perSample), maxRows, maxValues, acc);
      }
    } else {
      readWhole(c, table, maxValues, acc);
    }
    for (int i = 0; i < cols.size(); i++) {
      out.add(acc[i].column(cols.get(i), !sampled));
    }
    return new Result(table, sampled, out);
  }

  /**
   * Columns {@code from} (inclusive) to {@code to} of a table above {@code maxRows} rows, from one Bernoulli sample
   * of about that many rows (materialised once; each column grouped on its own, its most frequent values first).
   */
  private static void readSampled(Connection c, CatalogTable table, int from, int to, long maxRows, int maxValues,
      Accumulator[] acc) throws SQLException {
    List<CatalogTable.Column> cols = table.columns();
    // The sample keeps the columns' own types (a number takes 8 bytes, its text more); each is cast when grouped.
    StringBuilder sql = new StringBuilder("WITH s AS MATERIALIZED (SELECT ");
    for (int i = from; i < to; i++) {
      sql.append(i == from ? "" : ", ").append(Sql.quoted(cols.get(i).name())).append(" AS ").append(key(i));
    }
    sql.append(" FROM ").append(Sql.quoted(table.name())).append(" USING SAMPLE bernoulli(")
        .append(samplePercent(maxRows, table.rowCount())).append(" PERCENT) REPEATABLE (7)) SELECT k, v, n FROM (");
    for (int i = from; i < to; i++) {
      sql.append(i == from ? "" : " UNION ALL ").append("(SELECT '").append(key(i)).append("' AS k, CAST(")
          .append(key(i)).append(" AS VARCHAR) AS v, count(*) AS n FROM s WHERE ").append(key(i))
          .append(" IS NOT NULL GROUP BY v ORDER BY n DESC, v LIMIT ").append(maxValues + 1L).append(')');
    }
    sql.append(") ORDER BY k, n DESC, v");
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql.toString())) {
      while (rs.next()) {
        acc[Integer.parseInt(rs.getString(1).substring(1))].add(rs.getString(2), rs.getLong(3));
      }
    }
  }

  /** Every row of a table of at most {@code maxRows} rows, columns in groups of at most ONE_SCAN_CELLS cells. */
  private static void readWhole(Connection c, CatalogTable table, int maxValues, Accumulator[] acc)
      throws SQLException {
    List<CatalogTable.Column> cols = table.columns();
    String source = Sql.quoted(table.name());
    // Columns are read in groups of at most ONE_SCAN_CELLS cells, each group in one query: a table stored as text
    // (CSV, JSON, read in place) is parsed once per query, not once per column.
    long scannedRows = Math.max(1, table.rowCount());
    int perQuery = (int) Math.max(1, Math.min(cols.size(), ONE_SCAN_CELLS / scannedRows));
    for (int from = 0; from < cols.size(); from += perQuery) {
      int to = Math.min(cols.size(), from + perQuery);
      if (to - from == 1) {
        String sql = "SELECT v, count(*) AS n FROM (SELECT CAST(" + Sql.quoted(cols.get(from).name())
            + " AS VARCHAR) AS v FROM " + source + ") WHERE v IS NOT NULL GROUP BY v ORDER BY n DESC, v LIMIT "
            + (maxValues + 1L);
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
          while (rs.next()) {
            acc[from].add(rs.getString(1), rs.getLong(2));
          }
        }
        continue;
      }
      StringBuilder select = new StringBuilder("SELECT ");
      for (int i = from; i < to; i++) {
        select.append(i == from ? "" : ", ").append("CAST(").append(Sql.quoted(cols.get(i).name()))
            .append(" AS VARCHAR) AS ").append(key(i));
      }
      select.append(" FROM ").append(source);
      String sql = "SELECT k, v, count(*) AS n FROM (UNPIVOT (" + select + ") ON COLUMNS(*) INTO NAME k VALUE v)"
          + " GROUP BY k, v ORDER BY k, n DESC, v";
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        while (rs.next()) {
          acc[Integer.parseInt(rs.getString(1).substring(1))].add(rs.getString(2), rs.getLong(3));
        }
      }
    }
  }

  /** The percentage of {@code rows} rows that keeps about {@code maxRows} of them, as an SQL literal. */
  static String samplePercent(long maxRows, long rows) {
    return java.math.BigDecimal.valueOf(100.0 * maxRows / Math.max(1, rows))
        .round(new java.math.MathContext(9)).min(java.math.BigDecimal.valueOf(100)).toPlainString();
  }

  /** {@code c000012}: sorts like the column order. */
  private static String key(int column) {
    return String.format(Locale.ROOT, "c%06d", column);
  }

  /** Collects a column's values up to the cap, remembering whether it cut any off. */
  private static final class Accumulator {
    private final int cap;
    private final List<String> values = new ArrayList<>();
    private long[] counts = new long[16];
    private boolean cut;

    Accumulator(int cap) {
      this.cap = cap;
    }

    void add(String value, long count) {
      if (values.size() == cap) {
        cut = true;
        return;
      }
      if (values.size() == counts.length) {
        counts = Arrays.copyOf(counts, counts.length * 2);
      }
      counts[values.size()] = count;
      values.add(value);
    }

    Column column(CatalogTable.Column c, boolean allRows) {
      return new Column(c.name(), c.type(), values, Arrays.copyOf(counts, values.size()), allRows && !cut);
    }
  }
}
