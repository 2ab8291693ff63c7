package dev.lakerewrite.noiseudf;

import java.util.List;
import java.util.Objects;

/**
 * BUILD_CTE(base_table, columns, goal) as the self-checker issues it (thesis §3.3, §4.1).
 *
 * @param baseTable the table to clean
 * @param columns the columns to clean (empty: every text column)
 * @param goal the self-checker's short description of the noise ("dates in several formats")
 */
public record CteRequest(String baseTable, List<String> columns, String goal) {

  public CteRequest {
    Objects.requireNonNull(baseTable, "baseTable");
    if (baseTable.isBlank()) {
      throw new IllegalArgumentException("baseTable must not be blank");
    }
    columns = columns == null ? List.of() : List.copyOf(columns);
    goal = goal == null ? "" : goal;
  }

  /** A request for all text columns. */
  public static CteRequest of(String baseTable) {
    return new CteRequest(baseTable, List.of(), "");
  }
}
