package dev.lakerewrite.core.equivalence;

import dev.lakerewrite.core.ResultTable;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares what two queries return on one instance when the right one is to replace the left one: the same rows
 * (multisets, {@link ResultComparison}'s value equality); where the left orders, the same sequence of its tie
 * groups (rows equal on the ORDER BY keys may come in any order); and, with LIMIT/OFFSET, the same window. When
 * the window cuts through a tie group whose rows differ, the query's answer depends on how the engine breaks
 * ties: such an instance is <em>nondeterministic</em> and only a difference no tie-break could explain counts.
 * O(n log n) in the rows.
 */
final class OutputComparison {
  enum Kind {
    /** The same answer (or, for nondeterministic windows, the same possible answers). */
    EQUAL,
    /** Different answers whatever ties are broken. */
    DIFFERENT,
    /** The answers differ only where ties at a LIMIT boundary are broken. */
    NONDETERMINISTIC,
    /** The same rows here, but the right query does not guarantee the left's order. */
    ORDER_NOT_GUARANTEED
  }

  record Outcome(Kind kind, String detail, List<List<Object>> onlyLeft, List<List<Object>> onlyRight,
      boolean windowNondeterministic) {}

  /** One query's rows on one instance, split into what it shows and its ORDER BY keys. */
  static final class Run {
    final List<List<Object>> rows;
    final List<List<Object>> keys;
    final OutputShape shape;
    final int width;

    Run(ResultTable table, OutputShape shape) {
      this.shape = shape;
      this.width = table.columnCount() - shape.hidden();
      List<Integer> keyColumns = shape.keyColumns(table.columnCount());
      this.rows = new ArrayList<>(table.rowCount());
      this.keys = new ArrayList<>(table.rowCount());
      for (List<Object> row : table.rows()) {
        rows.add(shape.hidden() == 0 ? row : row.subList(0, width));
        if (shape.ordered() && !shape.strict()) {
          List<Object> k = new ArrayList<>(keyColumns.size());
          for (int c : keyColumns) {
            k.add(row.get(c));
          }
          keys.add(k);
        }
      }
    }

    private Run(Run other, OutputShape shape) {
      this.rows = other.rows;
      this.keys = other.keys;
      this.shape = shape;
      this.width = other.width;
    }

    /** Consecutive tie groups as [start, end) pairs: one group when unordered, one per row when strict. */
    List<int[]> groups() {
      List<int[]> out = new ArrayList<>();
      int n = rows.size();
      if (n == 0) {
        return out;
      }
      if (!shape.ordered()) {
        out.add(new int[] {0, n});
        return out;
      }
      if (shape.strict()) {
        for (int i = 0; i < n; i++) {
          out.add(new int[] {i, i + 1});
        }
        return out;
      }
      int start = 0;
      for (int i = 1; i <= n; i++) {
        if (i == n || !ResultComparison.rowsEqual(keys.get(i), keys.get(start))) {
          out.add(new int[] {start, i});
          start = i;
        }
      }
      return out;
    }

    int windowStart() {
      return (int) Math.min(rows.size(), shape.offset());
    }

    int windowEnd() {
      return shape.limit() < 0 ? rows.size() : (int) Math.min(rows.size(), shape.offset() + shape.limit());
    }

    List<List<Object>> window() {
      return rows.subList(windowStart(), windowEnd());
    }

    /** Whether the window cuts a tie group whose rows are not all the same (then ties decide the answer). */
    boolean nondeterministic() {
      for (int[] g : groups()) {
        boolean cut = (g[0] < windowStart() && g[1] > windowStart()) || (g[0] < windowEnd() && g[1] > windowEnd());
        if (cut && !allSame(rows.subList(g[0], g[1]))) {
          return true;
        }
      }
      return false;
    }

    /** Rows surely in the answer (in groups the window covers whole, or cut groups of identical rows). */
    Map<Object, Integer> certain() {
      Map<Object, Integer> out = new HashMap<>();
      for (int[] g : groups()) {
        int from = Math.max(g[0], windowStart());
        int to = Math.min(g[1], windowEnd());
        if (from >= to) {
          continue;
        }
        boolean whole = from == g[0] && to == g[1];
        if (whole || allSame(rows.subList(g[0], g[1]))) {
          for (int i = from; i < to; i++) {
            out.merge(canonical(rows.get(i)), 1, Integer::sum);
          }
        }
      }
      return out;
    }

    /** An upper bound of how often each row can be in the answer, however ties are broken. */
    Map<Object, Integer> possible() {
      Map<Object, Integer> out = new HashMap<>();
      for (int[] g : groups()) {
        int from = Math.max(g[0], windowStart());
        int to = Math.min(g[1], windowEnd());
        if (from >= to) {
          continue;
        }
        boolean whole = from == g[0] && to == g[1];
        int lo = whole || allSame(rows.subList(g[0], g[1])) ? from : g[0];
        int hi = whole || allSame(rows.subList(g[0], g[1])) ? to : g[1];
        for (int i = lo; i < hi; i++) {
          out.merge(canonical(rows.get(i)), 1, Integer::sum);
        }
      }
      return out;
    }
  }

  private OutputComparison() {}

  static Outcome compare(Run left, Run right, int maxDiffRows) {
    if (left.width != right.width) {
      return new Outcome(Kind.DIFFERENT, "different number of columns: " + left.width + " vs " + right.width,
          sample(left.window(), maxDiffRows), sample(right.window(), maxDiffRows), false);
    }
    boolean leftNondeterministic = left.nondeterministic();
    boolean rightNondeterministic = right.nondeterministic();
    if (!leftNondeterministic && !rightNondeterministic) {
      return determined(left, right, maxDiffRows);
    }
    int leftSize = left.windowEnd() - left.windowStart();
    int rightSize = right.windowEnd() - right.windowStart();
    if (leftSize != rightSize) {
      return new Outcome(Kind.DIFFERENT, "different row counts: " + leftSize + " vs " + rightSize,
          List.of(), List.of(), true);
    }
    Map<Object, Integer> leftCertain = left.certain();
    Map<Object, Integer> rightCertain = right.certain();
    Map<Object, Integer> leftPossible = left.possible();
    Map<Object, Integer> rightPossible = right.possible();
    List<List<Object>> onlyLeft = exceeding(left, leftCertain, rightPossible, maxDiffRows);
    List<List<Object>> onlyRight = exceeding(right, rightCertain, leftPossible, maxDiffRows);
    if (!onlyLeft.isEmpty() || !onlyRight.isEmpty()) {
      return new Outcome(Kind.DIFFERENT, "rows that one query returns however ties are broken cannot come from the"
          + " other (" + onlyLeft.size() + " only in the left, " + onlyRight.size() + " only in the right)",
          onlyLeft, onlyRight, true);
    }
    // Same possible answers when the whole ordered results agree and the windows are the same.
    boolean sameWindow = left.shape.offset() == right.shape.offset() && left.shape.limit() == right.shape.limit();
    if (sameWindow) {
      Outcome whole = determined(unwindowed(left), unwindowed(right), maxDiffRows);
      if (whole.kind() == Kind.EQUAL) {
        return new Outcome(Kind.EQUAL, "equal up to ties at the LIMIT boundary: " + leftSize + " rows", List.of(),
            List.of(), true);
      }
    }
    return new Outcome(Kind.NONDETERMINISTIC, "LIMIT without a total order: which rows come back depends on how "
        + "ties are broken (" + (leftNondeterministic ? "left" : "right") + " query)", List.of(), List.of(), true);
  }

  private static Run unwindowed(Run run) {
    return new Run(run, OutputShape.unwindowed(run.shape));
  }

  private static Outcome determined(Run left, Run right, int maxDiffRows) {
    List<List<Object>> l = left.window();
    List<List<Object>> r = right.window();
    ResultComparison.Outcome multiset = ResultComparison.compareRows(l, r, ResultComparison.Order.NONE, maxDiffRows);
    if (!multiset.equal()) {
      return new Outcome(Kind.DIFFERENT, multiset.detail(), multiset.onlyInFirst(), multiset.onlyInSecond(), false);
    }
    if (!left.shape.ordered()) {
      return new Outcome(Kind.EQUAL, "equal: " + l.size() + " rows", List.of(), List.of(), false);
    }
    // Split the right's sequence along the left's tie groups (inside the window) and compare group by group.
    List<int[]> groups = clip(left.groups(), left.windowStart(), left.windowEnd());
    int base = left.windowStart();
    for (int[] g : groups) {
      List<List<Object>> mine = l.subList(g[0] - base, g[1] - base);
      List<List<Object>> theirs = r.subList(g[0] - base, g[1] - base);
      ResultComparison.Outcome o = ResultComparison.compareRows(mine, theirs, ResultComparison.Order.NONE, 1);
      if (!o.equal()) {
        String where = "rows " + (g[0] - base + 1) + "-" + (g[1] - base);
        if (left.shape.strict()) {
          return new Outcome(Kind.ORDER_NOT_GUARANTEED, "same rows, another sequence at " + where
              + " (the left query's ORDER BY keys could not be compared, so ties are not known)", List.of(),
              List.of(), false);
        }
        return new Outcome(Kind.DIFFERENT, "same rows in a different order: " + where
            + " differ in the left query's ORDER BY keys", mine.subList(0, 1), theirs.subList(0, 1), false);
      }
    }
    if (groups.size() > 1) {
      if (!right.shape.ordered()) {
        return new Outcome(Kind.ORDER_NOT_GUARANTEED, "same rows in the same order here, but the right query has no"
            + " ORDER BY and the left one orders its rows", List.of(), List.of(), false);
      }
      if (!right.shape.strict()) {
        int rightBase = right.windowStart();
        for (int[] rg : clip(right.groups(), right.windowStart(), right.windowEnd())) {
          int from = rg[0] - rightBase + base;
          int to = rg[1] - rightBase + base;
          for (int[] g : groups) {
            if (from < g[1] && to > g[1]) {
              return new Outcome(Kind.ORDER_NOT_GUARANTEED, "same rows in the same order here, but ties of the "
                  + "right query's ORDER BY span rows the left query orders", List.of(), List.of(), false);
            }
          }
        }
      }
    }
    return new Outcome(Kind.EQUAL, "equal: " + l.size() + " rows, same order", List.of(), List.of(), false);
  }

  private static List<int[]> clip(List<int[]> groups, int from, int to) {
    List<int[]> out = new ArrayList<>();
    for (int[] g : groups) {
      int a = Math.max(g[0], from);
      int b = Math.min(g[1], to);
      if (a < b) {
        out.add(new int[] {a, b});
      }
    }
    return out;
  }

  private static List<List<Object>> exceeding(Run run, Map<Object, Integer> certain, Map<Object, Integer> possible,
      int max) {
    List<List<Object>> out = new ArrayList<>();
    Map<Object, Integer> seen = new HashMap<>();
    for (List<Object> row : run.window()) {
      Object key = canonical(row);
      int c = certain.getOrDefault(key, 0);
      if (c > possible.getOrDefault(key, 0) && seen.merge(key, 1, Integer::sum) == 1 && out.size() < max) {
        out.add(row);
      }
    }
    return out;
  }

  private static boolean allSame(List<List<Object>> rows) {
    for (int i = 1; i < rows.size(); i++) {
      if (!ResultComparison.rowsEqual(rows.get(0), rows.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static final MathContext SIGNIFICANT = new MathContext(10);

  /** A hashable form of a row: exact numbers by value, floating-point numbers to 10 significant digits. */
  static Object canonical(List<Object> row) {
    List<Object> out = new ArrayList<>(row.size());
    for (Object v : row) {
      if (v instanceof Double || v instanceof Float) {
        double d = ((Number) v).doubleValue();
        out.add(Double.isFinite(d) ? new BigDecimal(d).round(SIGNIFICANT).stripTrailingZeros() : d);
      } else if (v instanceof Number n) {
        out.add(new BigDecimal(n.toString()).stripTrailingZeros());
      } else if (v instanceof byte[] b) {
        out.add(java.util.HexFormat.of().formatHex(b));
      } else {
        out.add(v == null ? null : v instanceof List || v instanceof Map ? v.toString() : v);
      }
    }
    return out;
  }

  private static List<List<Object>> sample(List<List<Object>> rows, int max) {
    return List.copyOf(rows.subList(0, Math.min(max, rows.size())));
  }
}
