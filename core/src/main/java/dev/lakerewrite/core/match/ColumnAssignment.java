package dev.lakerewrite.core.match;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import org.jgrapht.alg.matching.MaximumWeightBipartiteMatching;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleWeightedGraph;

/**
 * One-to-one assignments of assumed columns to lake columns: the maximum-weight bipartite matching (JGraphT's
 * {@link MaximumWeightBipartiteMatching}, a primal-dual algorithm in O(V·(E + V log V))), and the k best
 * assignments by Murty's partitioning (K. G. Murty, "An algorithm for ranking all the assignments in order of
 * increasing cost", Operations Research 16(3), 1968): each next-best assignment is the best of a subproblem that
 * forces a prefix of a previous solution's pairs and forbids the next one, so k assignments cost O(k·n) matchings.
 * Two assumed columns never read one lake column; a column whose every pair weighs nothing stays unassigned.
 *
 * <p>The offline planner assigns each assumed table's columns to its lake table's columns with {@link #best}.
 */
public final class ColumnAssignment {

  private ColumnAssignment() {}

  /**
   * One assignment: assumed column → lake column, and its total weight.
   *
   * @param pairs assumed column → lake column
   * @param weight the sum of the pairs' weights
   */
  public record Assignment(Map<String, String> pairs, double weight) {
    public Assignment {
      pairs = Map.copyOf(pairs);
    }
  }

  /** The best assignment of the weights (assumed column → lake column → weight; only positive weights count). */
  public static Assignment best(Map<String, Map<String, Double>> weights) {
    return solve(weights, Map.of(), Set.of());
  }

  /**
   * An assignment that keeps an order of preference where it can: in the map's order, each assumed column takes its
   * highest-weighted lake column among those that still let as many assumed columns as possible be assigned (the
   * maximum cardinality of the positive-weight pairs). So a column never takes the only lake column a later one
   * could read, and otherwise takes its own best, whatever the sum: for weak guesses (name similarities near 0.2) an
   * earlier column's best is likelier right than the largest total. Costs O(n·m) maximum matchings for n assumed and
   * m lake columns.
   */
  public static Assignment ordered(Map<String, Map<String, Double>> weights) {
    Objects.requireNonNull(weights, "weights");
    Map<String, Map<String, Double>> unit = new LinkedHashMap<>();
    weights.forEach((a, lakes) -> {
      Map<String, Double> ones = new LinkedHashMap<>();
      lakes.forEach((l, w) -> {
        if (w > 0) {
          ones.put(l, 1.0);
        }
      });
      unit.put(a, ones);
    });
    int most = solve(unit, Map.of(), Set.of()).pairs().size();
    Map<String, String> forced = new LinkedHashMap<>();
    double total = 0;
    for (Map.Entry<String, Map<String, Double>> a : weights.entrySet()) {
      List<Map.Entry<String, Double>> options = a.getValue().entrySet().stream().filter(e -> e.getValue() > 0)
          .filter(e -> !forced.containsValue(e.getKey()))
          .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).toList();
      for (Map.Entry<String, Double> option : options) {
        Map<String, String> tried = new LinkedHashMap<>(forced);
        tried.put(a.getKey(), option.getKey());
        if (solve(unit, tried, Set.of()).pairs().size() == most) {
          forced.put(a.getKey(), option.getKey());
          total += option.getValue();
          break;
        }
      }
    }
    return new Assignment(forced, total);
  }

  /** The k best assignments, best first (fewer when there are fewer distinct ones). */
  public static List<Assignment> kBest(Map<String, Map<String, Double>> weights, int k) {
    Objects.requireNonNull(weights, "weights");
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, was " + k);
    }
    record Node(Assignment solution, Map<String, String> forced, Set<String> excluded) {}
    PriorityQueue<Node> queue = new PriorityQueue<>(Comparator.comparingDouble((Node n) -> -n.solution().weight()));
    queue.add(new Node(solve(weights, Map.of(), Set.of()), Map.of(), Set.of()));
    List<Assignment> out = new ArrayList<>();
    Set<Map<String, String>> seen = new HashSet<>();
    while (!queue.isEmpty() && out.size() < k) {
      Node n = queue.poll();
      if (!seen.add(n.solution().pairs())) {
        continue;
      }
      out.add(n.solution());
      Map<String, String> forced = new LinkedHashMap<>(n.forced());
      Set<String> excluded = new HashSet<>(n.excluded());
      for (Map.Entry<String, String> pair : n.solution().pairs().entrySet()) {
        if (n.forced().containsKey(pair.getKey())) {
          continue;
        }
        Set<String> without = new HashSet<>(excluded);
        without.add(pair.getKey() + "\u0000" + pair.getValue());
        Assignment next = solve(weights, forced, without);
        if (!next.pairs().isEmpty() || !n.solution().pairs().isEmpty()) {
          queue.add(new Node(next, Map.copyOf(forced), Set.copyOf(without)));
        }
        forced.put(pair.getKey(), pair.getValue());
      }
    }
    return out;
  }

  private static Assignment solve(Map<String, Map<String, Double>> weights, Map<String, String> forced,
      Set<String> excluded) {
    SimpleWeightedGraph<String, DefaultWeightedEdge> g = new SimpleWeightedGraph<>(DefaultWeightedEdge.class);
    Set<String> left = new HashSet<>();
    Set<String> right = new HashSet<>();
    Map<String, String> pairs = new LinkedHashMap<>();
    double total = 0;
    Set<String> takenLake = new HashSet<>(forced.values());
    for (Map.Entry<String, String> f : forced.entrySet()) {
      pairs.put(f.getKey(), f.getValue());
      total += weights.getOrDefault(f.getKey(), Map.of()).getOrDefault(f.getValue(), 0.0);
    }
    for (Map.Entry<String, Map<String, Double>> a : weights.entrySet()) {
      if (forced.containsKey(a.getKey())) {
        continue;
      }
      for (Map.Entry<String, Double> l : a.getValue().entrySet()) {
        if (l.getValue() <= 0 || takenLake.contains(l.getKey())
            || excluded.contains(a.getKey() + "\u0000" + l.getKey())) {
          continue;
        }
        String av = "a\u0000" + a.getKey();
        String lv = "l\u0000" + l.getKey();
        g.addVertex(av);
        g.addVertex(lv);
        left.add(av);
        right.add(lv);
        g.setEdgeWeight(g.addEdge(av, lv), l.getValue());
      }
    }
    if (!left.isEmpty()) {
      for (DefaultWeightedEdge e : new MaximumWeightBipartiteMatching<>(g, left, right).getMatching().getEdges()) {
        String s = g.getEdgeSource(e);
        String t = g.getEdgeTarget(e);
        String a = left.contains(s) ? s : t;
        String l = a.equals(s) ? t : s;
        pairs.put(a.substring(2), l.substring(2));
        total += g.getEdgeWeight(e);
      }
    }
    return new Assignment(pairs, total);
  }
}
