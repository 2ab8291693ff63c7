package dev.lakerewrite.core;

import java.util.Locale;

/** The stages of {@link DataLake#index()}, in the order they run. */
public enum IndexStage {
  /** Reading the folder and writing the lake file (views or copies): done when the lake opens. */
  LOAD,
  /**
   * Reading the new and changed tables, one scan each, for their column profiles (counts, distinct values, null
   * fractions, frequent values, type families), their retrieval entries and their join-graph sketches.
   */
  READ,
  /** Writing the retrieval index: tables and their distinct values in Lucene, names embedded. */
  RETRIEVAL,
  /** Finding the join graph's edges from every table's sketches. */
  JOIN_GRAPH,
  /** Embedding the string values that SEARCH_VALUE ranks (else embedded at each table's first search). */
  VALUES;

  /** The stage in words, e.g. {@code join graph}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }
}
