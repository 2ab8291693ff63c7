package dev.lakerewrite.joingraph;

import java.util.List;

/**
 * A path of the join graph before execution, as Yen's algorithm ranks it.
 *
 * @param tables the tables from source to target
 * @param edges the edges between consecutive tables
 * @param cost C(P) = Σ (−ln(max(Ω / 2, ε)) + λ) over the edges
 */
public record PathCandidate(List<String> tables, List<JoinEdge> edges, double cost) {
  public PathCandidate {
    tables = List.copyOf(tables);
    edges = List.copyOf(edges);
  }

  /** Number of joins (edges) on the path. */
  public int length() {
    return edges.size();
  }
}
