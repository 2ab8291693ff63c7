package dev.lakerewrite.core.equivalence;

import dev.lakerewrite.core.ResultTable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Compares two query results the way equivalence is defined for rewrites: columns by position (names ignored),
 * rows as a multiset, and additionally in order when the query orders its output; NULLs equal each other;
 * floating-point values equal within a relative tolerance, exact numbers (integers, decimals) equal by value
 * whatever their Java type. Sorting makes it O(n log n) in the number of rows.
 */
public final class ResultComparison {
  /** Relative tolerance for floating-point values (aggregation order changes the last bits). */
  static final double RELATIVE_TOLERANCE = 1e-8;
  static final double ABSOLUTE_TOLERANCE = 1e-9;
  private static final MathContext COARSE = new MathContext(7);

  /** How the rows must be ordered: not at all, by some key columns, or entirely as returned. */
  public record Order(boolean ordered, List<Integer> keyColumns) {
    public static final Order NONE = new Order(false, List.of());

    public Order {
      keyColumns = List.copyOf(keyColumns);
    }

    /** Ordered, comparing only these output columns' sequence (ties may come in any order). */
    public static Order byKeys(List<Integer> keys) {
      return new Order(true, keys);
    }

    /** Ordered, but the sort keys are not output columns: rows must come in the same sequence. */
    public static Order strict() {
      return new Order(true, List.of());
    }
  }

  /** The outcome: equal or not, why, and the differing rows (up to a limit per side). */
  public record Outcome(boolean equal, String detail, List<List<Object>> onlyInFirst,
      List<List<Object>> onlyInSecond) {}

  private ResultComparison() {}

  /** Compares two results: same number of columns, same rows as multisets, and in order where asked. */
  public static Outcome compare(ResultTable first, ResultTable second, Order order, int maxDiffRows) {
    if (first.columnCount() != second.columnCount()) {
      return new Outcome(false, "different number of columns: " + first.columnCount() + " vs "
          + second.columnCount(), sample(first.rows(), maxDiffRows), sample(second.rows(), maxDiffRows));
    }
    return compareRows(first.rows(), second.rows(), order, maxDiffRows);
  }

  /** {@link #compare} on bare rows of equal width. */
  static Outcome compareRows(List<List<Object>> firstRows, List<List<Object>> secondRows, Order order,
      int maxDiffRows) {
    List<List<Object>> a = new ArrayList<>(firstRows);
    List<List<Object>> b = new ArrayList<>(secondRows);
    Comparator<List<Object>> cmp = ResultComparison::compareRows;
    a.sort(cmp);
    b.sort(cmp);
    List<List<Object>> onlyA = new ArrayList<>();
    List<List<Object>> onlyB = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < a.size() || j < b.size()) {
      if (i == a.size()) {
        onlyB.add(b.get(j++));
      } else if (j == b.size()) {
        onlyA.add(a.get(i++));
      } else if (rowsEqual(a.get(i), b.get(j))) {
        i++;
        j++;
      } else if (cmp.compare(a.get(i), b.get(j)) <= 0) {
        onlyA.add(a.get(i++));
      } else {
        onlyB.add(b.get(j++));
      }
    }
    if (!onlyA.isEmpty() || !onlyB.isEmpty()) {
      String detail = firstRows.size() != secondRows.size()
          ? "different row counts: " + firstRows.size() + " vs " + secondRows.size()
          : "same row count (" + firstRows.size() + ") but different rows";
      return new Outcome(false, detail + " (" + onlyA.size() + " rows only in the first, " + onlyB.size()
          + " only in the second)", sample(onlyA, maxDiffRows), sample(onlyB, maxDiffRows));
    }
    if (order.ordered()) {
      for (int r = 0; r < firstRows.size(); r++) {
        List<Object> x = firstRows.get(r);
        List<Object> y = secondRows.get(r);
        boolean same = order.keyColumns().isEmpty() ? rowsEqual(x, y) : keysEqual(x, y, order.keyColumns());
        if (!same) {
          return new Outcome(false, "same rows in a different order: row " + (r + 1) + " differs"
              + (order.keyColumns().isEmpty() ? "" : " in its ORDER BY columns " + oneBased(order.keyColumns())),
              List.of(x), List.of(y));
        }
      }
    }
    return new Outcome(true, "equal: " + firstRows.size() + " rows" + (order.ordered() ? ", same order" : ""),
        List.of(), List.of());
  }

  private static List<Integer> oneBased(List<Integer> cols) {
    return cols.stream().map(c -> c + 1).toList();
  }

  private static List<List<Object>> sample(List<List<Object>> rows, int max) {
    return List.copyOf(rows.subList(0, Math.min(max, rows.size())));
  }

  private static boolean keysEqual(List<Object> x, List<Object> y, List<Integer> keys) {
    for (int k : keys) {
      if (!valuesEqual(x.get(k), y.get(k))) {
        return false;
      }
    }
    return true;
  }

  static boolean rowsEqual(List<Object> x, List<Object> y) {
    if (x.size() != y.size()) {
      return false;
    }
    for (int c = 0; c < x.size(); c++) {
      if (!valuesEqual(x.get(c), y.get(c))) {
        return false;
      }
    }
    return true;
  }

  static boolean valuesEqual(Object x, Object y) {
    if (x == null || y == null) {
      return x == y;
    }
    if (x instanceof Number nx && y instanceof Number ny) {
      if (isFloating(nx) || isFloating(ny)) {
        double dx = nx.doubleValue();
        double dy = ny.doubleValue();
        if (Double.isNaN(dx) || Double.isNaN(dy) || Double.isInfinite(dx) || Double.isInfinite(dy)) {
          return Double.compare(dx, dy) == 0;
        }
        return Math.abs(dx - dy) <= ABSOLUTE_TOLERANCE + RELATIVE_TOLERANCE * Math.max(Math.abs(dx), Math.abs(dy));
      }
      return exact(nx).compareTo(exact(ny)) == 0;
    }
    if (x instanceof byte[] bx && y instanceof byte[] by) {
      return Arrays.equals(bx, by);
    }
    if (x instanceof List<?> lx && y instanceof List<?> ly) {
      if (lx.size() != ly.size()) {
        return false;
      }
      for (int i = 0; i < lx.size(); i++) {
        if (!valuesEqual(lx.get(i), ly.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (x instanceof Map<?, ?> mx && y instanceof Map<?, ?> my) {
      if (!mx.keySet().equals(my.keySet())) {
        return false;
      }
      for (Map.Entry<?, ?> e : mx.entrySet()) {
        if (!valuesEqual(e.getValue(), my.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return x.equals(y) || (x.getClass() != y.getClass() && x.toString().equals(y.toString()));
  }

  private static boolean isFloating(Number n) {
    return n instanceof Double || n instanceof Float;
  }

  private static BigDecimal exact(Number n) {
    if (n instanceof BigDecimal bd) {
      return bd;
    }
    if (n instanceof BigInteger bi) {
      return new BigDecimal(bi);
    }
    if (isFloating(n)) {
      return BigDecimal.valueOf(n.doubleValue());
    }
    return BigDecimal.valueOf(n.longValue());
  }

  /** Orders rows by coarse values first (so near-equal floats sort together), then exactly. */
  static int compareRows(List<Object> x, List<Object> y) {
    int n = Math.min(x.size(), y.size());
    for (int c = 0; c < n; c++) {
      int r = compareCoarse(x.get(c), y.get(c));
      if (r != 0) {
        return r;
      }
    }
    for (int c = 0; c < n; c++) {
      int r = compareExact(x.get(c), y.get(c));
      if (r != 0) {
        return r;
      }
    }
    return Integer.compare(x.size(), y.size());
  }

  private static int compareCoarse(Object x, Object y) {
    if (x == null || y == null) {
      return x == null ? (y == null ? 0 : -1) : 1;
    }
    if (x instanceof Number nx && y instanceof Number ny) {
      if (isFloating(nx) || isFloating(ny)) {
        return coarse(nx).compareTo(coarse(ny));
      }
      return exact(nx).compareTo(exact(ny));
    }
    return compareExact(x, y);
  }

  private static BigDecimal coarse(Number n) {
    double d = n.doubleValue();
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return BigDecimal.valueOf(d > 0 ? Double.MAX_VALUE : -Double.MAX_VALUE);
    }
    return exact(n).round(COARSE);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareExact(Object x, Object y) {
    if (x == null || y == null) {
      return x == null ? (y == null ? 0 : -1) : 1;
    }
    if (x instanceof Number nx && y instanceof Number ny) {
      if (isFloating(nx) && isFloating(ny)) {
        return Double.compare(nx.doubleValue(), ny.doubleValue());
      }
      return exact(nx).compareTo(exact(ny));
    }
    if (x.getClass() == y.getClass() && x instanceof Comparable cx) {
      return cx.compareTo(y);
    }
    if (x instanceof byte[] bx && y instanceof byte[] by) {
      return Arrays.compare(bx, by);
    }
    int byClass = x.getClass().getName().compareTo(y.getClass().getName());
    return byClass != 0 ? byClass : Objects.toString(x).compareTo(Objects.toString(y));
  }
}
