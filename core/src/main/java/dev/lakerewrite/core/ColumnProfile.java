package dev.lakerewrite.core;

import dev.lakerewrite.retrieval.TypeFamily;
import java.util.List;
import java.util.Objects;

/**
 * Statistics of one lake column, computed once per lake and cached on disk.
 *
 * @param column the column name
 * @param type the DuckDB type
 * @param nonNullCount number of non-null values
 * @param distinctCount number of distinct non-null values
 * @param nullFraction nulls / rows (0 for an empty table)
 * @param uniqueness distinct / non-null values (0 when all values are null): 1 for a key column
 * @param sampleValues up to five of the most frequent values, as text, most frequent first
 * @param typeFamily numeric, boolean, datetime or string, inferred from the type and up to 200 distinct values
 */
public record ColumnProfile(String column, String type, long nonNullCount, long distinctCount, double nullFraction,
    double uniqueness, List<String> sampleValues, TypeFamily typeFamily) {

  public ColumnProfile {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(type, "type");
    sampleValues = List.copyOf(sampleValues);
    Objects.requireNonNull(typeFamily, "typeFamily");
  }

  /** Whether every non-null value is distinct and there is at least one. */
  public boolean isUnique() {
    return nonNullCount > 0 && distinctCount == nonNullCount;
  }
}
