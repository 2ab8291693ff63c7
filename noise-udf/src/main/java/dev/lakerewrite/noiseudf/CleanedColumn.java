package dev.lakerewrite.noiseudf;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How the CTE cleans one column.
 *
 * @param column column name (the CTE keeps it)
 * @param expression the SQL expression the CTE computes for it, over the base column
 * @param resultType DuckDB type of the cleaned column
 * @param kinds the noise kinds it addresses
 * @param matchKey how to compare values of this column robustly, with {@code %s} for the value: apply it to
 *     both sides of an equality (e.g. {@code clean_key(%s)}); null for typed columns
 */
public record CleanedColumn(
    String column, String expression, String resultType, List<NoiseKind> kinds, @Nullable String matchKey) {

  public CleanedColumn {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(expression, "expression");
    resultType = resultType == null ? "unknown" : resultType;
    kinds = List.copyOf(kinds);
  }
}
