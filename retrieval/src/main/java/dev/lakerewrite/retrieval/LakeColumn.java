package dev.lakerewrite.retrieval;

import java.util.Objects;

/**
 * A column of a lake table as the index saw it.
 *
 * @param name the column name verbatim (as SQL must quote it)
 * @param sqlType the type DuckDB reports ({@code VARCHAR}, {@code BIGINT}, ...)
 * @param family the type family inferred from the declared type and sampled values (thesis §5.3)
 * @param distinctValues distinct non-null values indexed (at most the index's per-column cap)
 * @param distinctCapped whether the column has more distinct values than were indexed
 */
public record LakeColumn(String name, String sqlType, TypeFamily family, int distinctValues, boolean distinctCapped) {
  public LakeColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(sqlType, "sqlType");
    Objects.requireNonNull(family, "family");
  }

  /** The name in normalised natural-language form (thesis §5.1.1). */
  public String normalizedName() {
    return Names.normalize(name);
  }
}
