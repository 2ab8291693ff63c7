package dev.lakerewrite.joingraph;

import java.util.List;
import java.util.Objects;

/**
 * An undirected edge of the join graph (thesis §5.2.1): two tables with join evidence, their joinability
 * Ω(t_a, t_b) and their best column pairs (best first). {@code tableA} sorts before {@code tableB}.
 *
 * @param tableA the first table (in name order)
 * @param tableB the second table
 * @param joinability Ω, the largest column-pair score, in [0, 2]
 * @param pairs the top column pairs, best score first, oriented A → B
 */
public record JoinEdge(String tableA, String tableB, double joinability, List<ColumnPair> pairs) {
  public JoinEdge {
    Objects.requireNonNull(tableA, "tableA");
    Objects.requireNonNull(tableB, "tableB");
    if (tableA.compareTo(tableB) >= 0) {
      throw new IllegalArgumentException("an edge's tables must be distinct and in name order: " + tableA + ", "
          + tableB);
    }
    pairs = List.copyOf(pairs);
  }

  /** Whether {@code table} is one of the two ends. */
  public boolean touches(String table) {
    return tableA.equals(table) || tableB.equals(table);
  }

  /** The other end of the edge seen from {@code table}. */
  public String other(String table) {
    if (tableA.equals(table)) {
      return tableB;
    }
    if (tableB.equals(table)) {
      return tableA;
    }
    throw new IllegalArgumentException(table + " is not an end of the edge " + tableA + " — " + tableB);
  }

  /** The column pairs oriented from {@code table} (first column in {@code table}), best first. */
  public List<ColumnPair> pairsFrom(String table) {
    if (tableA.equals(table)) {
      return pairs;
    }
    if (tableB.equals(table)) {
      return pairs.stream().map(ColumnPair::swapped).toList();
    }
    throw new IllegalArgumentException(table + " is not an end of the edge " + tableA + " — " + tableB);
  }
}
