package dev.lakerewrite.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * An immutable, typed query result: columns with their DuckDB types, rows of Java values (nulls allowed), and
 * whether the row cap cut it short. Values are plain Java objects: {@code String}, {@code Long}, {@code Integer},
 * {@code Double}, {@code BigDecimal}, {@code BigInteger}, {@code Boolean}, {@code LocalDate},
 * {@code LocalDateTime}, {@code OffsetDateTime}, {@code UUID}, {@code byte[]}, {@code List} and {@code Map} for
 * nested types.
 */
public final class ResultTable {

  /** A result column: its name as the query produced it and its DuckDB type name. */
  public record Column(String name, String type) {
    public Column {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
    }
  }

  private static final int PREVIEW_CELL_WIDTH = 48;

  private final List<Column> columns;
  private final List<List<Object>> rows;
  private final boolean truncated;

  private ResultTable(List<Column> columns, List<List<Object>> rows, boolean truncated) {
    this.columns = columns;
    this.rows = rows;
    this.truncated = truncated;
  }

  /**
   * Creates a table, copying its arguments.
   *
   * @throws IllegalArgumentException if a row's width differs from the number of columns
   */
  public static ResultTable of(List<Column> columns, List<? extends List<?>> rows, boolean truncated) {
    List<Column> cols = List.copyOf(columns);
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      List<?> row = rows.get(i);
      if (row.size() != cols.size()) {
        throw new IllegalArgumentException(
            "row " + i + " has " + row.size() + " values but the table has " + cols.size() + " columns");
      }
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    return new ResultTable(cols, Collections.unmodifiableList(copy), truncated);
  }

  /** The empty table with no columns. */
  public static ResultTable empty() {
    return new ResultTable(List.of(), List.of(), false);
  }

  public List<Column> columns() {
    return columns;
  }

  public List<String> columnNames() {
    return columns.stream().map(Column::name).toList();
  }

  /** Rows in result order; each row is unmodifiable and may contain nulls. */
  public List<List<@Nullable Object>> rows() {
    return rows;
  }

  public int rowCount() {
    return rows.size();
  }

  public int columnCount() {
    return columns.size();
  }

  /** True when the query returned more rows than the cap and only the first ones are here. */
  public boolean truncated() {
    return truncated;
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The value at a row and column (zero-based); null for SQL NULL. */
  public @Nullable Object get(int row, int column) {
    return rows.get(row).get(column);
  }

  /** The index of the first column with this name, compared case-insensitively, if any. */
  public Optional<Integer> columnIndex(String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equalsIgnoreCase(name)) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  /** The values of one column, in row order. */
  public List<@Nullable Object> columnValues(int column) {
    Objects.checkIndex(column, columns.size());
    List<Object> out = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      out.add(row.get(column));
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * A compact text rendering for prompts and logs: a header line of column names, then up to {@code maxRows}
   * rows, cells separated by {@code " | "}. Cells are cut to 48 characters, and line breaks and control
   * characters in cells are escaped, so a cell can never break the layout of the prompt it is shown in.
   */
  public String preview(int maxRows) {
    if (maxRows < 0) {
      throw new IllegalArgumentException("maxRows must be >= 0, was " + maxRows);
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.join(" | ", columnNames().stream().map(ResultTable::cell).toList()));
    int shown = Math.min(maxRows, rows.size());
    for (int r = 0; r < shown; r++) {
      sb.append('\n');
      List<Object> row = rows.get(r);
      for (int c = 0; c < row.size(); c++) {
        if (c > 0) {
          sb.append(" | ");
        }
        sb.append(cell(row.get(c)));
      }
    }
    int hidden = rows.size() - shown;
    if (hidden > 0 || truncated) {
      sb.append("\n(").append(hidden).append(truncated ? "+" : "").append(" more rows)");
    }
    return sb.toString();
  }

  static String cell(Object value) {
    if (value == null) {
      return "NULL";
    }
    String s = value instanceof byte[] bytes ? "<" + bytes.length + " bytes>" : String.valueOf(value);
    StringBuilder out = new StringBuilder(Math.min(s.length(), PREVIEW_CELL_WIDTH + 8));
    for (int i = 0; i < s.length() && out.length() < PREVIEW_CELL_WIDTH; i++) {
      char ch = s.charAt(i);
      if (ch == '\n') {
        out.append("\\n");
      } else if (ch == '\r') {
        out.append("\\r");
      } else if (ch == '\t') {
        out.append("\\t");
      } else if (ch == '|') {
        out.append("\\|");
      } else if (Character.isISOControl(ch) || Character.getType(ch) == Character.FORMAT) {
        out.append(String.format("\\u%04x", (int) ch));
      } else {
        out.append(ch);
      }
    }
    if (out.length() >= PREVIEW_CELL_WIDTH && s.length() > PREVIEW_CELL_WIDTH) {
      out.append('…');
    }
    return out.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResultTable t
        && truncated == t.truncated && columns.equals(t.columns) && deepRowsEqual(rows, t.rows);
  }

  private static boolean deepRowsEqual(List<List<Object>> a, List<List<Object>> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!java.util.Arrays.deepEquals(a.get(i).toArray(), b.get(i).toArray())) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = Objects.hash(columns, truncated);
    for (List<Object> row : rows) {
      h = 31 * h + java.util.Arrays.deepHashCode(row.toArray());
    }
    return h;
  }

  @Override
  public String toString() {
    return "ResultTable[" + columns.size() + " columns, " + rows.size() + " rows"
        + (truncated ? ", truncated" : "") + "]\n" + preview(10);
  }
}
