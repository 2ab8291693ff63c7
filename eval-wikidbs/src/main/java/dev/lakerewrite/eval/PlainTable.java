package dev.lakerewrite.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * A query result as plain data: column names in result order and rows of Java values (cells may be null).
 *
 * <p>This is what the metrics (thesis §7.3) and the pair files work on, so the harness does not depend on how an
 * engine or {@code core} represents results; an adapter turns core's {@code ResultTable} into one of these
 * ({@code PlainTable.of(table.columnNames(), table.rows())}). Column names may repeat (a query may select two
 * columns called {@code label}); the metrics match repeated names occurrence by occurrence.
 *
 * @param columns column names, in result order
 * @param rows rows in result order, each exactly as wide as {@code columns}; unmodifiable, cells may be null
 */
public record PlainTable(List<String> columns, List<List<@Nullable Object>> rows) {

  public PlainTable {
    Objects.requireNonNull(columns, "columns");
    Objects.requireNonNull(rows, "rows");
    List<String> cols = new ArrayList<>(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      String name = columns.get(i);
      if (name == null) {
        throw new IllegalArgumentException("column " + i + " has no name (null)");
      }
      cols.add(name);
    }
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (int r = 0; r < rows.size(); r++) {
      List<Object> row = rows.get(r);
      if (row == null) {
        throw new IllegalArgumentException("row " + r + " is null");
      }
      if (row.size() != cols.size()) {
        throw new IllegalArgumentException(
            "row " + r + " has " + row.size() + " values but the table has " + cols.size() + " columns "
                + cols);
      }
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    columns = Collections.unmodifiableList(cols);
    rows = Collections.unmodifiableList(copy);
  }

  /** A table from column names and rows (copied; rows may hold nulls, unlike {@code List.of}). */
  public static PlainTable of(List<String> columns, List<? extends List<?>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (List<?> row : rows) {
      copy.add(row == null ? null : new ArrayList<>(row));
    }
    return new PlainTable(columns, copy);
  }

  /** A table with these columns and no rows. */
  public static PlainTable empty(List<String> columns) {
    return new PlainTable(columns, List.of());
  }

  /** One row for varargs-style construction in code and tests: {@code PlainTable.row("a", null, 3)}. */
  public static List<@Nullable Object> row(@Nullable Object... values) {
    List<Object> row = new ArrayList<>(values.length);
    Collections.addAll(row, values);
    return row;
  }

  public int columnCount() {
    return columns.size();
  }

  public int rowCount() {
    return rows.size();
  }

  /** True when the table has no rows (it may still have columns). */
  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** True when every cell is null (also for a table without rows or columns). */
  public boolean allNull() {
    for (List<Object> row : rows) {
      for (Object cell : row) {
        if (cell != null) {
          return false;
        }
      }
    }
    return true;
  }

  /** The index of the first column with exactly this name, else the first equal ignoring case. */
  public OptionalInt columnIndex(String name) {
    Objects.requireNonNull(name, "name");
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).equals(name)) {
        return OptionalInt.of(i);
      }
    }
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).equalsIgnoreCase(name)) {
        return OptionalInt.of(i);
      }
    }
    return OptionalInt.empty();
  }

  /** The values of one column in row order (nulls kept). */
  public List<@Nullable Object> columnValues(int column) {
    Objects.checkIndex(column, columns.size());
    List<Object> out = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      out.add(row.get(column));
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("PlainTable[").append(columns.size()).append(" columns, ")
        .append(rows.size()).append(" rows]\n").append(String.join(" | ", columns));
    int shown = Math.min(rows.size(), 10);
    for (int r = 0; r < shown; r++) {
      sb.append('\n');
      List<Object> row = rows.get(r);
      for (int c = 0; c < row.size(); c++) {
        sb.append(c == 0 ? "" : " | ").append(row.get(c) == null ? "NULL" : CellValues.canonical(row.get(c)));
      }
    }
    if (rows.size() > shown) {
      sb.append("\n(").append(rows.size() - shown).append(" more rows)");
    }
    return sb.toString();
  }
}
