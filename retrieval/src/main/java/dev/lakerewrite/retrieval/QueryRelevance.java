package dev.lakerewrite.retrieval;

import dev.lakerewrite.sql.DidYouMean;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Query–table relevance R_Q(t) of every lake table for one query (thesis §5.1.1), computed once per query by
 * {@link LakeIndex#queryRelevance}, and the table–table reranking S_k(t) built on it in later iterations
 * (§5.1.2). Immutable and thread-safe.
 */
public final class QueryRelevance {
  private final List<QueryTable> queryTables;
  private final TableScoring scoring;
  /** All lake tables, best first. */
  private final List<TableMatch> ranking;
  private final Map<String, TableMatch> byTable;

  QueryRelevance(List<QueryTable> queryTables, TableScoring scoring, List<TableMatch> ranking) {
    this.queryTables = List.copyOf(queryTables);
    this.scoring = scoring;
    List<TableMatch> sorted = new ArrayList<>(ranking);
    sorted.sort(Comparator.comparingDouble(TableMatch::score).reversed().thenComparing(TableMatch::table));
    this.ranking = List.copyOf(sorted);
    Map<String, TableMatch> map = new LinkedHashMap<>();
    for (TableMatch m : this.ranking) {
      map.put(m.table(), m);
    }
    this.byTable = map;
  }

  public List<QueryTable> queryTables() {
    return queryTables;
  }

  public TableScoring scoring() {
    return scoring;
  }

  /** Every lake table with its R_Q, best first (ties by name). */
  public List<TableMatch> ranking() {
    return ranking;
  }

  /** R_Q of {@code table}. */
  public double score(String table) {
    return match(table).score();
  }

  /** The ranking entry of {@code table}. */
  public TableMatch match(String table) {
    TableMatch m = byTable.get(Objects.requireNonNull(table, "table"));
    if (m == null) {
      throw new IllegalArgumentException("unknown table '" + table + "'" + DidYouMean.hintOrKnown(table, byTable.keySet()));
    }
    return m;
  }

  /** The {@code k} best tables not in {@code excluded} (first iteration of the basic retrieval). */
  public List<TableMatch> top(int k, Collection<String> excluded) {
    checkK(k);
    Set<String> skip = new HashSet<>(excluded);
    List<TableMatch> out = new ArrayList<>(k);
    for (TableMatch m : ranking) {
      if (out.size() == k) {
        break;
      }
      if (!skip.contains(m.table())) {
        out.add(m);
      }
    }
    return out;
  }

  /**
   * Table–table reranking S_k(t) = R_Q(t) + max over t_j in {@code context} of Ω(t, t_j) (thesis §5.1.2), over
   * the tables neither in {@code context} nor {@code evicted}; the {@code k} best, ties by name. With an empty
   * context S_k = R_Q. Runs in O(|tables| · |context|) calls of Ω plus a sort.
   *
   * @param context the tables in the scratchpad
   * @param evicted tables evicted from it, never reconsidered
   * @param omega the join graph's joinability
   */
  public List<RerankedTable> rerank(Collection<String> context, Collection<String> evicted, Joinability omega,
      int k) {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(evicted, "evicted");
    Objects.requireNonNull(omega, "omega");
    checkK(k);
    for (String c : context) {
      match(c);
    }
    Set<String> skip = new HashSet<>(context);
    skip.addAll(evicted);
    List<RerankedTable> out = new ArrayList<>();
    for (TableMatch m : ranking) {
      if (skip.contains(m.table())) {
        continue;
      }
      double best = 0;
      String bestWith = null;
      for (String c : context) {
        double o = omega.omega(m.table(), c);
        if (Double.isNaN(o) || o < 0) {
          throw new IllegalArgumentException("joinability of '" + m.table() + "' and '" + c + "' is " + o
              + "; it must be a non-negative number");
        }
        if (o > best || (o == best && bestWith != null && c.compareTo(bestWith) < 0)) {
          best = o;
          bestWith = o > 0 ? c : null;
        }
      }
      double score = m.score() + best;
      String why = String.format(java.util.Locale.ROOT, "S=%.3f: R_Q=%.3f (%s)%s", score, m.score(), m.why(),
          bestWith == null ? ", joins no context table"
              : String.format(java.util.Locale.ROOT, " + Ω=%.3f with %s", best, bestWith));
      out.add(new RerankedTable(m.table(), score, m.score(), best, bestWith, why));
    }
    out.sort(Comparator.comparingDouble(RerankedTable::score).reversed().thenComparing(RerankedTable::table));
    return List.copyOf(out.subList(0, Math.min(k, out.size())));
  }

  private static void checkK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, was " + k);
    }
  }
}
