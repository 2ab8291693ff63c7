package dev.lakerewrite.joingraph;

import dev.lakerewrite.retrieval.TypeFamily;
import java.util.Objects;

/**
 * A column as the join graph measured it.
 *
 * @param name the column name, verbatim
 * @param sqlType the declared SQL type (null when the source does not declare one)
 * @param family the inferred type family
 * @param nonNull non-null cells
 * @param distinct distinct values in comparison form ({@code Values.normalize}); estimated above the value cap
 * @param uniqueness distinct / non-null in [0, 1], the K of the thesis
 */
public record GraphColumn(String name, String sqlType, TypeFamily family, long nonNull, long distinct,
    double uniqueness) {
  public GraphColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(family, "family");
  }
}
