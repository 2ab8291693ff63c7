package dev.lakerewrite.retrieval;

/** How tables are scored against a query snippet (query–table relevance and SEARCH_TABLE). */
public enum TableScoring {
  /** Thesis §5.1.1 and §5.3: cosine of the snippet embeddings, nothing else. */
  EMBEDDING,
  /**
   * The cosine plus {@link LakeIndex#LEXICAL_WEIGHT} times the table's BM25 score (Lucene, over its normalised name
   * and column names) divided by the best BM25 score of any table for that snippet. Exact column words the
   * embedding blurs (codes, ids, rare terms) lift the tables that really hold them.
   */
  HYBRID
}
