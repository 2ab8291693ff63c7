package dev.lakerewrite.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The evaluation metrics of thesis §7.3, on plain tables.
 *
 * <p><b>Columns are matched by name.</b> A gold column is found in the prediction under the same name, exactly
 * first, then ignoring case (SQL identifiers are case-insensitive in DuckDB). A name that occurs several times is
 * matched occurrence by occurrence (the second gold {@code label} with the second predicted {@code label}).
 * Position never counts: a rewrite must return the columns the user asked for, under the user's names. Predicted
 * columns that match no gold column are ignored by every metric, as in the thesis (the gold columns define
 * what is scored).
 *
 * <p><b>Column level.</b> For each gold column c, V_p(c) and V_g(c) are the lists of its cells read as
 * {@link CellValues#canonical canonical strings}. P_c = |{v ∈ V_p(c) : v ∈ V_g(c)}| / |V_p(c)| and
 * R_c = |{v ∈ V_g(c) : v ∈ V_p(c)}| / |V_g(c)|, counting list entries (a predicted value repeated three times
 * that occurs in the gold column counts three times for precision) and testing membership; a gold column missing
 * from the prediction has P_c = R_c = 0. P_col and R_col are the means over gold columns and
 * F1_col = 2·P_col·R_col / (P_col + R_col) (the harmonic mean of the means, as written in the thesis).
 *
 * <p><b>Row level.</b> Rows are compared on the overlapping (matched) columns only. R_p and R_g are the
 * <em>sets</em> of rows projected on those columns; match(r, R) is the largest fraction of overlapping columns on
 * which r equals some row of R. P_row is the mean of match(r, R_g) over R_p, R_row the mean of match(r, R_p)
 * over R_g, and F1_row their harmonic mean. Without any overlapping column both are 0.
 *
 * <p><b>Final score</b> F1 = (F1_col + F1_row) / 2, independent of row order.
 *
 * <p><b>Empty tables.</b> A ratio 0/0 is 1 when both sides are empty (an empty prediction of an empty gold is
 * perfect) and 0 otherwise; F1 is 0 when precision and recall are both 0.
 *
 * <p><b>Execution accuracy</b> is strict: every gold column must be present, and the prediction projected on the
 * gold columns (in gold column order) must equal the gold table as a multiset of rows, or as a sequence when the
 * user query orders its result. It implies F1 = 1. Extra predicted columns are tolerated (F1 ignores them too);
 * duplicated or missing rows are not. Gold queries with ORDER BY should order totally (ties make the expected
 * order ambiguous).
 *
 * <p>Cost: column level O(cells); row level uses per-column value postings, O(m·n·k) in the worst case (one value
 * shared by every row) for m predicted and n gold rows over k columns, O((m + n)·k) when rows match exactly.
 */
public final class ResultMetrics {

  private ResultMetrics() {}

  /**
   * Scores a prediction against the gold table.
   *
   * @param predicted the rewritten query's result, or {@code null} when there is none (the score is
   *     {@link ResultScore#FAILED})
   * @param gold the expected result
   * @param ordered whether row order matters for execution accuracy (the user query has a top-level ORDER BY,
   *     see {@link SqlText#hasTopLevelOrderBy})
   */
  public static ResultScore score(PlainTable predicted, PlainTable gold, boolean ordered) {
    Objects.requireNonNull(gold, "gold");
    if (predicted == null) {
      return ResultScore.FAILED;
    }
    int[] matched = matchColumns(predicted.columns(), gold.columns());
    double[] column = columnLevel(predicted, gold, matched);
    double[] row = rowLevel(predicted, gold, matched);
    double columnF1 = ResultScore.harmonic(column[0], column[1]);
    double rowF1 = ResultScore.harmonic(row[0], row[1]);
    return new ResultScore(column[0], column[1], columnF1, row[0], row[1], rowF1, clamp((columnF1 + rowF1) / 2),
        exactMatch(predicted, gold, matched, ordered));
  }

  /** Whether the prediction is an exact match of the gold table (see the class comment). */
  public static boolean exactMatch(PlainTable predicted, PlainTable gold, boolean ordered) {
    Objects.requireNonNull(predicted, "predicted");
    Objects.requireNonNull(gold, "gold");
    return exactMatch(predicted, gold, matchColumns(predicted.columns(), gold.columns()), ordered);
  }

  /**
   * For each gold column, the index of the predicted column it is matched with, or -1.
   * Exact names first, then case-insensitive; each predicted column is used at most once.
   */
  static int[] matchColumns(List<String> predicted, List<String> gold) {
    int[] match = new int[gold.size()];
    Arrays.fill(match, -1);
    boolean[] used = new boolean[predicted.size()];
    for (int pass = 0; pass < 2; pass++) {
      for (int g = 0; g < gold.size(); g++) {
        if (match[g] >= 0) {
          continue;
        }
        for (int p = 0; p < predicted.size(); p++) {
          boolean same = pass == 0
              ? predicted.get(p).equals(gold.get(g))
              : predicted.get(p).equalsIgnoreCase(gold.get(g));
          if (!used[p] && same) {
            match[g] = p;
            used[p] = true;
            break;
          }
        }
      }
    }
    return match;
  }

  /** {P_col, R_col}. */
  private static double[] columnLevel(PlainTable predicted, PlainTable gold, int[] matched) {
    if (gold.columnCount() == 0) {
      boolean same = predicted.columnCount() == 0;
      return new double[] {same ? 1 : 0, same ? 1 : 0};
    }
    double precisionSum = 0;
    double recallSum = 0;
    for (int g = 0; g < matched.length; g++) {
      if (matched[g] < 0) {
        continue; // P_c = R_c = 0
      }
      List<String> vp = canonicalColumn(predicted, matched[g]);
      List<String> vg = canonicalColumn(gold, g);
      Set<String> gSet = new HashSet<>(vg);
      Set<String> pSet = new HashSet<>(vp);
      precisionSum += ratio(countIn(vp, gSet), vp.size(), vg.isEmpty());
      recallSum += ratio(countIn(vg, pSet), vg.size(), vp.isEmpty());
    }
    return new double[] {clamp(precisionSum / matched.length), clamp(recallSum / matched.length)};
  }

  /** {P_row, R_row}. */
  private static double[] rowLevel(PlainTable predicted, PlainTable gold, int[] matched) {
    List<Integer> goldCols = new ArrayList<>();
    List<Integer> predCols = new ArrayList<>();
    for (int g = 0; g < matched.length; g++) {
      if (matched[g] >= 0) {
        goldCols.add(g);
        predCols.add(matched[g]);
      }
    }
    if (goldCols.isEmpty()) {
      return new double[] {0, 0};
    }
    List<List<String>> rp = List.copyOf(distinctProjection(predicted, predCols));
    List<List<String>> rg = List.copyOf(distinctProjection(gold, goldCols));
    double precision = rp.isEmpty() ? (rg.isEmpty() ? 1 : 0) : clamp(sumOfBestMatches(rp, rg) / rp.size());
    double recall = rg.isEmpty() ? (rp.isEmpty() ? 1 : 0) : clamp(sumOfBestMatches(rg, rp) / rg.size());
    return new double[] {precision, recall};
  }

  /** Σ_{a ∈ from} match(a, to), where match is the best fraction of equal positions with any row of {@code to}. */
  private static double sumOfBestMatches(List<List<String>> from, List<List<String>> to) {
    if (to.isEmpty()) {
      return 0;
    }
    int k = from.get(0).size();
    Set<List<String>> exact = new HashSet<>(to);
    List<Map<String, int[]>> postings = postings(to, k);
    int[] counts = new int[to.size()];
    int[] touched = new int[to.size()];
    double sum = 0;
    for (List<String> row : from) {
      if (exact.contains(row)) {
        sum += 1;
        continue;
      }
      int touchedCount = 0;
      int best = 0;
      for (int c = 0; c < k; c++) {
        int[] ids = postings.get(c).get(row.get(c));
        if (ids == null) {
          continue;
        }
        for (int id : ids) {
          if (counts[id] == 0) {
            touched[touchedCount++] = id;
          }
          best = Math.max(best, ++counts[id]);
        }
      }
      for (int i = 0; i < touchedCount; i++) {
        counts[touched[i]] = 0;
      }
      sum += (double) best / k;
    }
    return sum;
  }

  /** Per column: canonical value → ids of the rows holding it (null values included, NULL equals NULL). */
  private static List<Map<String, int[]>> postings(List<List<String>> rows, int k) {
    List<Map<String, List<Integer>>> building = new ArrayList<>(k);
    for (int c = 0; c < k; c++) {
      building.add(new HashMap<>());
    }
    for (int r = 0; r < rows.size(); r++) {
      List<String> row = rows.get(r);
      for (int c = 0; c < k; c++) {
        building.get(c).computeIfAbsent(row.get(c), v -> new ArrayList<>()).add(r);
      }
    }
    List<Map<String, int[]>> out = new ArrayList<>(k);
    for (Map<String, List<Integer>> column : building) {
      Map<String, int[]> frozen = new HashMap<>(column.size() * 2);
      column.forEach((v, ids) -> frozen.put(v, ids.stream().mapToInt(Integer::intValue).toArray()));
      out.add(frozen);
    }
    return out;
  }

  private static boolean exactMatch(PlainTable predicted, PlainTable gold, int[] matched, boolean ordered) {
    List<Integer> predCols = new ArrayList<>(matched.length);
    for (int p : matched) {
      if (p < 0) {
        return false;
      }
      predCols.add(p);
    }
    if (predicted.rowCount() != gold.rowCount()) {
      return false;
    }
    List<Integer> goldCols = new ArrayList<>(matched.length);
    for (int g = 0; g < matched.length; g++) {
      goldCols.add(g);
    }
    List<List<String>> p = projection(predicted, predCols);
    List<List<String>> g = projection(gold, goldCols);
    if (ordered) {
      return p.equals(g);
    }
    Map<List<String>, Integer> bag = new HashMap<>();
    for (List<String> row : g) {
      bag.merge(row, 1, Integer::sum);
    }
    for (List<String> row : p) {
      Integer left = bag.get(row);
      if (left == null) {
        return false;
      }
      if (left == 1) {
        bag.remove(row);
      } else {
        bag.put(row, left - 1);
      }
    }
    return bag.isEmpty();
  }

  private static List<String> canonicalColumn(PlainTable table, int column) {
    List<String> out = new ArrayList<>(table.rowCount());
    for (List<Object> row : table.rows()) {
      out.add(CellValues.canonical(row.get(column)));
    }
    return out;
  }

  private static List<List<String>> projection(PlainTable table, List<Integer> columns) {
    List<List<String>> out = new ArrayList<>(table.rowCount());
    for (List<Object> row : table.rows()) {
      List<String> projected = new ArrayList<>(columns.size());
      for (int c : columns) {
        projected.add(CellValues.canonical(row.get(c)));
      }
      out.add(projected);
    }
    return out;
  }

  private static Set<List<String>> distinctProjection(PlainTable table, List<Integer> columns) {
    return new LinkedHashSet<>(projection(table, columns));
  }

  private static int countIn(List<String> values, Set<String> in) {
    int n = 0;
    for (String v : values) {
      if (in.contains(v)) {
        n++;
      }
    }
    return n;
  }

  /** hits / total, with 0/0 = 1 when the other side is empty too, else 0. */
  private static double ratio(int hits, int total, boolean otherSideEmpty) {
    if (total == 0) {
      return otherSideEmpty ? 1 : 0;
    }
    return (double) hits / total;
  }

  private static double clamp(double v) {
    return Math.max(0.0, Math.min(1.0, v));
  }
}
