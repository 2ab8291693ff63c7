package dev.lakerewrite.core;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Per-column statistics of one lake table (see {@link ColumnProfile}). */
public record TableProfile(String table, long rowCount, List<ColumnProfile> columns) {

  public TableProfile {
    Objects.requireNonNull(table, "table");
    columns = List.copyOf(columns);
  }

  /** The profile of one column, by exact name. */
  public Optional<ColumnProfile> column(String name) {
    return columns.stream().filter(c -> c.column().equals(name)).findFirst();
  }
}
