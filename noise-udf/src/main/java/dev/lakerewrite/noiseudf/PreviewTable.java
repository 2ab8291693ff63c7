package dev.lakerewrite.noiseudf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A few rows of a result, as strings (NULL as {@code null}), for the scratchpad.
 *
 * @param columns column names
 * @param types DuckDB type names
 * @param rows rows, each as long as {@code columns}
 */
public record PreviewTable(List<String> columns, List<String> types, List<List<@Nullable String>> rows) {

  public PreviewTable {
    columns = List.copyOf(columns);
    types = List.copyOf(types);
    List<List<@Nullable String>> copy = new ArrayList<>(rows.size());
    for (List<@Nullable String> row : rows) {
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException("row has " + row.size() + " cells, expected " + columns.size());
      }
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
  }

  /** A compact pipe-separated rendering (cells cut at {@code maxCell} characters). */
  public String toText(int maxRows, int maxCell) {
    StringBuilder sb = new StringBuilder(String.join(" | ", columns)).append('\n');
    for (int r = 0; r < Math.min(maxRows, rows.size()); r++) {
      List<@Nullable String> row = rows.get(r);
      for (int c = 0; c < row.size(); c++) {
        if (c > 0) {
          sb.append(" | ");
        }
        String v = row.get(c);
        sb.append(v == null ? "NULL" : v.length() > maxCell ? v.substring(0, maxCell) + "…" : v);
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
