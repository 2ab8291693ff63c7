package dev.lakerewrite.joingraph;

import java.util.Objects;

/**
 * A scored column pair of an edge, oriented like the edge ({@code columnA} belongs to the edge's
 * {@code tableA}). Thesis §5.2.1: {@code score} = (schemaSimilarity + instanceSimilarity) · uniqueness.
 *
 * @param columnA column of the edge's first table
 * @param columnB column of the edge's second table
 * @param score S(c_a, c_b), in [0, 2]
 * @param schemaSimilarity S_schema, cosine of the normalised name embeddings, negative counted as 0
 * @param instanceSimilarity S_inst under the configured measure (Jaccard or containment)
 * @param jaccard |A ∩ B| / |A ∪ B| of the normalised value sets
 * @param containment |A ∩ B| / |R|, the share of the referencing (less unique) column's values found in the other
 * @param uniqueness K, the larger uniqueness of the two columns
 * @param sharedValues shared distinct normalised values (estimated above the value cap)
 */
public record ColumnPair(String columnA, String columnB, double score, double schemaSimilarity,
    double instanceSimilarity, double jaccard, double containment, double uniqueness, long sharedValues) {
  public ColumnPair {
    Objects.requireNonNull(columnA, "columnA");
    Objects.requireNonNull(columnB, "columnB");
  }

  /** The same pair seen from the other table. */
  public ColumnPair swapped() {
    return new ColumnPair(columnB, columnA, score, schemaSimilarity, instanceSimilarity, jaccard, containment,
        uniqueness, sharedValues);
  }
}
