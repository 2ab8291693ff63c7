package dev.lakerewrite.retrieval;

/**
 * One aligned column pair of UNION_SEARCH (thesis §5.3).
 *
 * @param baseColumn the column of the base table
 * @param candidateColumn the column of the candidate table aligned to it
 * @param similarity cosine of the normalised column-name embeddings
 * @param baseFamily the inferred type family of the base column
 * @param candidateFamily the inferred type family of the candidate column
 */
public record UnionColumnPair(String baseColumn, String candidateColumn, double similarity, TypeFamily baseFamily,
    TypeFamily candidateFamily) {
  /** Whether both columns belong to the same type family. */
  public boolean typeConsistent() {
    return baseFamily == candidateFamily;
  }
}
