package dev.lakerewrite.core;

import java.util.Locale;

/** The stages of {@link DataLake#index()}, in the order they run. */
public enum IndexStage {
  /** Reading the folder and writing the lake file (views or copies): done when the lake opens. */
  LOAD,
  /** Column profiles: counts, distinct values, null fractions, frequent values, type families. */
  PROFILES,
  /** The retrieval index: tables and their distinct values in Lucene, names embedded. */
  RETRIEVAL,
  /** The join graph: column sketches and joinable column pairs. */
  JOIN_GRAPH,
  /** Embedding the string values that SEARCH_VALUE ranks (else embedded at each table's first search). */
  VALUES;

  /** The stage in words, e.g. {@code join graph}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }
}
