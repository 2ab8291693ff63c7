package dev.lakerewrite.joingraph;

import java.util.Objects;

/**
 * The raw values of one column as the profiler consumes them: the output of the value-reading stage and the input
 * of the value/sketch stage, so that a lake can be profiled from SQL or from values held in memory.
 *
 * @param column the column name, verbatim
 * @param sqlType the declared SQL type as the source reports it (e.g. {@code VARCHAR}, {@code BIGINT}), may be null
 * @param nonNullCount non-null cells of the column (the denominator of its uniqueness)
 * @param values the values; duplicates and nulls allowed (nulls and blanks are skipped), distinct values suffice
 */
public record ColumnValues(String column, String sqlType, long nonNullCount, Iterable<String> values) {
  public ColumnValues {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(values, "values");
    if (nonNullCount < 0) {
      throw new IllegalArgumentException("nonNullCount must be ≥ 0, was " + nonNullCount + " (column " + column + ")");
    }
  }

  /** The values of every cell of a column, nulls included; the non-null count is taken from them. */
  public static ColumnValues ofCells(String column, String sqlType, java.util.List<String> cells) {
    long nonNull = cells.stream().filter(Objects::nonNull).count();
    return new ColumnValues(column, sqlType, nonNull, cells);
  }
}
