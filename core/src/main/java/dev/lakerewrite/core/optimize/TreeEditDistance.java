package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Tree edit distance (Zhang &amp; Shasha 1989, unit costs for insert, delete and relabel) over operator-level
 * syntax trees built from DuckDB's parse trees, and E3-Rewrite's structural similarity
 * {@code 1 - TED / max(|T1|, |T2|)} (eq. 6). O(n1 n2 min(d1, l1) min(d2, l2)) time for trees of n nodes, depth d
 * and l leaves; O(n1 n2) memory. E3 uses APTED, which computes the same distance faster on degenerate shapes.
 */
final class TreeEditDistance {
  /** A labelled ordered tree. */
  record Node(String label, List<Node> children) {
    int size() {
      int n = 1;
      for (Node c : children) {
        n += c.size();
      }
      return n;
    }
  }

  private static final Set<String> IGNORED = Set.of("query_location", "query_location_length", "alias",
      "qualified_name", "catalog", "schema", "catalog_name", "schema_name", "export_state", "is_operator",
      "named_param_map", "column_name_alias", "literal", "value", "column_names", "table_name", "function_name");

  private TreeEditDistance() {}

  /**
   * The operator-level tree of a DuckDB syntax tree: one node per query node, table reference and expression,
   * labelled by its kind (and, for functions, comparisons and tables, what it is); names of columns and constants
   * are left out so that structurally alike queries match.
   */
  static Node of(JsonNode tree) {
    List<Node> nodes = new ArrayList<>();
    build(tree, nodes);
    return nodes.size() == 1 ? nodes.get(0) : new Node("ROOT", nodes);
  }

  private static void build(JsonNode n, List<Node> out) {
    if (n == null) {
      return;
    }
    if (n.isArray()) {
      for (JsonNode c : n) {
        build(c, out);
      }
      return;
    }
    if (!n.isObject()) {
      return;
    }
    String label = label(n);
    List<Node> children = new ArrayList<>();
    n.fields().forEachRemaining(f -> {
      if (!IGNORED.contains(f.getKey()) && f.getValue().isContainerNode()) {
        build(f.getValue(), children);
      }
    });
    if (label == null) {
      out.addAll(children);
    } else {
      out.add(new Node(label, children));
    }
  }

  private static @Nullable String label(JsonNode n) {
    String cls = n.path("class").asText("");
    String type = n.path("type").asText("");
    if (!cls.isEmpty()) {
      if (cls.equals("FUNCTION") || cls.equals("WINDOW") || cls.equals("AGGREGATE")) {
        return cls + ":" + n.path("function_name").asText("");
      }
      return type.isEmpty() || type.equals(cls) ? cls : cls + ":" + type;
    }
    if (!type.isEmpty() && (type.endsWith("_NODE") || type.equals("BASE_TABLE") || type.equals("JOIN")
        || type.equals("SUBQUERY") || type.equals("TABLE_FUNCTION") || type.endsWith("_MODIFIER"))) {
      return type.equals("JOIN") ? "JOIN:" + n.path("join_type").asText("") : type;
    }
    return null;
  }

  /** E3-Rewrite's structural similarity in [0, 1]. */
  static double similarity(Node a, Node b) {
    int max = Math.max(a.size(), b.size());
    return max == 0 ? 1.0 : 1.0 - (double) distance(a, b) / max;
  }

  /** The Zhang-Shasha tree edit distance with unit costs. */
  static int distance(Node a, Node b) {
    Postorder pa = new Postorder(a);
    Postorder pb = new Postorder(b);
    int[][] td = new int[pa.size][pb.size];
    for (int i : pa.keyRoots()) {
      for (int j : pb.keyRoots()) {
        forestDistance(pa, pb, i, j, td);
      }
    }
    return td[pa.size - 1][pb.size - 1];
  }

  private static void forestDistance(Postorder a, Postorder b, int i, int j, int[][] td) {
    int li = a.leftmost[i];
    int lj = b.leftmost[j];
    int rows = i - li + 2;
    int cols = j - lj + 2;
    int[][] fd = new int[rows][cols];
    for (int x = 1; x < rows; x++) {
      fd[x][0] = fd[x - 1][0] + 1;
    }
    for (int y = 1; y < cols; y++) {
      fd[0][y] = fd[0][y - 1] + 1;
    }
    for (int x = 1; x < rows; x++) {
      for (int y = 1; y < cols; y++) {
        int ai = li + x - 1;
        int bj = lj + y - 1;
        if (a.leftmost[ai] == li && b.leftmost[bj] == lj) {
          int relabel = a.labels.get(ai).equals(b.labels.get(bj)) ? 0 : 1;
          fd[x][y] = Math.min(Math.min(fd[x - 1][y] + 1, fd[x][y - 1] + 1), fd[x - 1][y - 1] + relabel);
          td[ai][bj] = fd[x][y];
        } else {
          int px = a.leftmost[ai] - li;
          int py = b.leftmost[bj] - lj;
          fd[x][y] = Math.min(Math.min(fd[x - 1][y] + 1, fd[x][y - 1] + 1), fd[px][py] + td[ai][bj]);
        }
      }
    }
  }

  /** Postorder numbering with leftmost-leaf descendants. */
  private static final class Postorder {
    final List<String> labels = new ArrayList<>();
    final int[] leftmost;
    final int size;

    Postorder(Node root) {
      List<Integer> lm = new ArrayList<>();
      walk(root, lm);
      size = labels.size();
      leftmost = lm.stream().mapToInt(Integer::intValue).toArray();
    }

    private int walk(Node n, List<Integer> lm) {
      int first = -1;
      for (Node c : n.children()) {
        int l = walk(c, lm);
        if (first < 0) {
          first = l;
        }
      }
      labels.add(n.label());
      int index = labels.size() - 1;
      lm.add(first < 0 ? index : first);
      return lm.get(index);
    }

    List<Integer> keyRoots() {
      List<Integer> roots = new ArrayList<>();
      java.util.Set<Integer> seen = new java.util.HashSet<>();
      for (int i = size - 1; i >= 0; i--) {
        if (seen.add(leftmost[i])) {
          roots.add(i);
        }
      }
      roots.sort(null);
      return roots;
    }
  }
}
