package dev.lakerewrite.retrieval;

/**
 * Joinability Ω(t_i, t_j) of two lake tables (thesis §5.2.1), supplied by the join graph. Implementations are
 * symmetric, thread-safe and return 0 for tables with no join evidence.
 */
@FunctionalInterface
public interface Joinability {
  /** Ω of the two tables, by table id ({@link LakeTable#name()}). */
  double omega(String table, String otherTable);
}
