package dev.lakerewrite.core.match;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.TableProfile;

/**
 * What the schema matcher reads of a lake: the catalog, column profiles, name similarity of embeddings, and value
 * membership. The rewriting loop's {@code LakeTools} is one; tests use fakes.
 */
public interface MatchLake {

  /** All table names. */
  java.util.List<String> tableNames();

  CatalogTable table(String name);

  TableProfile profile(String name);

  /** Similarity in [0, 1] of two names (normalised, embedded). */
  double nameSimilarity(String a, String b);

  /**
   * A lake column's name without the word every column of its table starts with ({@code actb} for {@code cstActb}
   * among {@code cstName}, {@code cstPhone}, ...; see {@code NameSignals.sharedLeadingWord}): what the column
   * holds, for comparing names. The name itself when the table's columns share no leading word.
   */
  default String bareColumnName(String table, String column) {
    return LakeColumnPrefixes.bare(table(table), column);
  }

  /** Whether some row of {@code table} has exactly {@code value} in {@code column} (compared as text). */
  boolean valueExists(String table, String column, String value);

  /**
   * The smallest and largest number a column holds ({@code [min, max]}), numbers written as text with units or
   * separators read as the rewrite's {@code clean_number} reads them; empty when it holds none or is no number.
   */
  default java.util.Optional<double[]> numericRange(String table, String column) {
    return java.util.Optional.empty();
  }

  /**
   * Schema retrieval's relevance of every lake table to one assumed table and its columns (thesis §5.1.1), best
   * first; empty when the lake has no retrieval index.
   */
  default java.util.Map<String, Double> relevanceTo(String assumedTable, java.util.List<String> assumedColumns) {
    return java.util.Map.of();
  }
}
