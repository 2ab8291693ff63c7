package dev.lakerewrite.core.rewrite;

import static dev.lakerewrite.core.rewrite.OfflinePlanner.key;

import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.core.sql.QueryAnalysis.JoinCondition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Structure evidence for table choice: assumed tables the query joins must be lake tables whose join keys hold the
 * same values. Each assumed table's candidates are ranked on their own (names, columns, values: {@link TableChooser});
 * a candidate whose key column shares its values with the key of the table chosen for a join partner is raised by
 * their overlap: the containment of the two columns' value sets as the join graph measured it (0 when the join graph
 * holds no such pair), weighted by how well each column's name answers its key. A customers table and a suppliers
 * table answer {@code s_name, s_address, s_phone} alike; only the suppliers' key holds the values of
 * {@code partsupp.ps_suppkey}. A join on several keys counts each key only as far as their tuples are contained
 * together: a catalog return's customer, item and order number are each among the store sales' keys (small surrogate
 * keys are contained in any large key set), but not as a store sale's customer, item and ticket. And numeric keys
 * count as far as they cover each other's range ({@link PlanningContext#keySpread}): a thousand customers' keys are
 * contained in the demographics' 1.9 million keys as fully as in the customers' own, spread over only their start.
 *
 * <p>The joint choice maximises the sum of the candidates' own scores and the weighted overlaps of every join, over
 * each linked table's {@value #CANDIDATES} best candidates, exhaustively (a choice made one table at a time gets stuck:
 * the suppliers' table only pays off together with the part of a split {@code partsupp} that holds the suppliers'
 * key). Cost: O(K^t · joins) for t joined tables and K candidates each, K shrinking until K^t is at most
 * {@value #MAX_ASSIGNMENTS}; each distinct key lookup (a column match in one lake table and an edge lookup in the join
 * graph) is memoised per plan.
 */
final class JoinConsistency extends PlannerPart {
  /**
   * Weight of the key overlap (in [0, 1] per join) against a candidate's own score (about 0.5 to 2.2); 0 turns the
   * structure evidence off. {@code -Dlakerewrite.planner.joinWeight=W} sets another, for fitting it on the fit part.
   */
  static final double WEIGHT = Double.parseDouble(System.getProperty("lakerewrite.planner.joinWeight", "0.5"));
  /** Candidates per joined table in the joint search. */
  static final int CANDIDATES = 4;
  /** The most joint assignments scored; beyond it fewer candidates per table are tried. */
  static final int MAX_ASSIGNMENTS = 100_000;

  private final TableChooser chooser;
  private final Map<String, KeyMatch> keyMatches = new HashMap<>();

  JoinConsistency(PlanningContext context, TableChooser chooser) {
    super(context);
    this.chooser = chooser;
  }

  /** A join between two assumed tables, on one key column each (lower-case assumed names). */
  private record Link(String table, String column, String partner, String partnerColumn) {}

  /**
   * The candidates of every assumed table, re-ranked by their own score plus {@link #WEIGHT} times the key overlap
   * with each join partner's choice. Tables the query joins with no other table keep their order; so does everything
   * when the join graph is off.
   */
  Map<String, List<TableChoice>> rerank(Map<String, List<TableChoice>> ranked, List<String> notes) {
    if (!state.config().joinGraph() || WEIGHT <= 0) {
      return ranked;
    }
    List<Link> links = links(ranked);
    if (links.isEmpty()) {
      return ranked;
    }
    Map<String, String> chosen = jointChoice(ranked, links);
    Map<String, List<TableChoice>> out = new LinkedHashMap<>();
    ranked.forEach((assumed, candidates) -> {
      List<TableChoice> rescored = new ArrayList<>();
      for (TableChoice c : candidates) {
        double s = heldByAnother(assumed, c, ranked) ? c.score() : adjusted(c, links, chosen);
        rescored.add(s == c.score() ? c
            : new TableChoice(c.assumed(), c.lake(), s, c.columns(), c.unmapped(), c.mergedInto()));
      }
      // The joint choice first; then by adjusted score, stable (among equal scores the own ranking's order stays).
      String first = chosen.get(assumed);
      rescored.sort(Comparator.comparing((TableChoice c) -> !c.lake().equals(first))
          .thenComparingDouble(c -> -c.score()));
      if (!rescored.get(0).lake().equals(candidates.get(0).lake())) {
        notes.add(String.format(Locale.ROOT, "%s→%s over %s: its join keys share the values of its partners' (%.2f "
            + "against %.2f)", rescored.get(0).assumed(), rescored.get(0).lake(), candidates.get(0).lake(),
            bonus(rescored.get(0), links, chosen), bonus(candidates.get(0), links, chosen)));
      }
      out.put(assumed, rescored);
    });
    return out;
  }

  /**
   * The best joint assignment of lake tables to the linked assumed tables (the others keep their best candidate):
   * every combination of their first K candidates, scored by own scores plus the weighted overlaps of all links.
   */
  private Map<String, String> jointChoice(Map<String, List<TableChoice>> ranked, List<Link> links) {
    Map<String, String> chosen = new LinkedHashMap<>();
    ranked.forEach((assumed, candidates) -> chosen.put(assumed, candidates.get(0).lake()));
    List<String> linked = links.stream().map(Link::table).distinct().toList();
    int k = CANDIDATES;
    while (k > 1 && Math.pow(k, linked.size()) > MAX_ASSIGNMENTS) {
      k--;
    }
    List<List<TableChoice>> options = new ArrayList<>();
    for (String t : linked) {
      options.add(options(t, ranked, k));
    }
    int[] at = new int[linked.size()];
    double best = Double.NEGATIVE_INFINITY;
    Map<String, String> trial = new LinkedHashMap<>(chosen);
    while (true) {
      double total = 0;
      for (int i = 0; i < at.length; i++) {
        TableChoice c = options.get(i).get(at[i]);
        trial.put(linked.get(i), c.lake());
        total += c.score();
      }
      for (int i = 0; i < at.length; i++) {
        total += WEIGHT * bonus(options.get(i).get(at[i]), links, trial) / 2; // each link is listed both ways
      }
      if (total > best + 1e-9) {
        best = total;
        chosen.putAll(trial);
      }
      int i = 0;
      while (i < at.length && ++at[i] == options.get(i).size()) {
        at[i++] = 0;
      }
      if (i == at.length) {
        return chosen;
      }
    }
  }

  /** An assumed table's first K candidates in the joint search, without those {@link #heldByAnother}. */
  private List<TableChoice> options(String assumed, Map<String, List<TableChoice>> ranked, int k) {
    return ranked.get(assumed).stream().filter(c -> !heldByAnother(assumed, c, ranked)).limit(k).toList();
  }

  /**
   * Whether a candidate, not the assumed table's own first, holds another assumed table's entity (that table's
   * best candidate, or a part of it): it gains nothing from keys. The query's two fact tables (store sales, catalog
   * sales) share keys with the same dimensions, so the keys' values would move one onto the other, and the merge
   * of obsolete tables that follows would drop a table the query needs.
   */
  private boolean heldByAnother(String assumed, TableChoice c, Map<String, List<TableChoice>> ranked) {
    List<TableChoice> own = ranked.get(assumed);
    return c != own.get(0) && ranked.entrySet().stream().anyMatch(e -> !e.getKey().equals(assumed)
        && !e.getValue().isEmpty() && context.sameEntity(e.getValue().get(0).lake(), c.lake()));
  }

  private double adjusted(TableChoice c, List<Link> links, Map<String, String> chosen) {
    return c.score() + WEIGHT * bonus(c, links, chosen);
  }

  /**
   * The sum of the key overlaps of a candidate with its join partners' choices. Where the query joins the candidate
   * with one partner on several keys, each key's containment counts at most as far as the keys' tuples are contained
   * ({@link #tupleContainment}).
   */
  private double bonus(TableChoice c, List<Link> links, Map<String, String> chosen) {
    Map<String, List<Link>> byPartner = new LinkedHashMap<>();
    for (Link l : links) {
      String partnerTable = chosen.get(l.partner());
      // Two assumed tables on one lake table, or on two parts of one table split off by columns, join on its own
      // rows: no evidence either way.
      if (l.table().equals(key(c.assumed())) && partnerTable != null && !context.sameEntity(partnerTable, c.lake())) {
        byPartner.computeIfAbsent(l.partner(), p -> new ArrayList<>()).add(l);
      }
    }
    double sum = 0;
    for (List<Link> keys : byPartner.values()) {
      String partnerTable = chosen.get(keys.get(0).partner());
      List<KeyMatch> matches = new ArrayList<>();
      for (Link l : keys) {
        matches.add(keyMatch(c.assumed(), l.column(), c.lake(), l.partner(), l.partnerColumn(), partnerTable));
      }
      double tuple = matches.size() > 1 ? tupleContainment(matches) : 1;
      for (KeyMatch m : matches) {
        sum += m.overlap(tuple);
      }
    }
    return sum;
  }

  /**
   * The lake columns that best answer the two assumed key columns of a join, and how far their value sets are
   * contained one in the other. Absent columns: no overlap.
   */
  private record KeyMatch(@Nullable ColumnTarget column, @Nullable ColumnTarget partnerColumn, double containment,
      double covering) {
    /**
     * The key's overlap with its containment capped at {@code cap}: containment times the square root of how far
     * the two cover the same keys, times each column's key fit.
     */
    double overlap(double cap) {
      return column == null || partnerColumn == null ? 0
          : Math.min(containment, cap) * Math.sqrt(covering) * keyFit(column) * keyFit(partnerColumn);
    }
  }

  /**
   * How well two lake tables join on one of the query's keys: the lake columns that best answer the two assumed key
   * columns and the containment of their values ({@link LakeTools#keyContainment}, as the join graph measured it,
   * or over the parts of a table split by rows), weighed in {@link KeyMatch#overlap} by how well each column answers
   * its key ({@link #keyFit}). Containment, not Jaccard: an order's customer key is contained in the customers' key,
   * though most customers have no order. The name fit keeps a column that merely holds small integers (a quantity
   * among order keys) from passing as the key. Memoised per plan.
   */
  private KeyMatch keyMatch(String assumed, String column, String lakeTable, String partner, String partnerColumn,
      String partnerTable) {
    return keyMatches.computeIfAbsent(String.join("\u0000", key(assumed), key(column), lakeTable, partner,
        key(partnerColumn), partnerTable), k -> {
          Optional<ColumnTarget> a = chooser.bestColumnWithParts(assumed, column, lakeTable);
          Optional<ColumnTarget> b = chooser.bestColumnWithParts(partner, partnerColumn, partnerTable);
          if (a.isEmpty() || b.isEmpty()) {
            return new KeyMatch(null, null, 0, 0);
          }
          // A table split by rows holds its keys across its parts: measured over their union.
          List<String> partsA = context.rowParts(a.get().lakeTable());
          List<String> partsB = context.rowParts(b.get().lakeTable());
          double containment = partsA.size() > 1 || partsB.size() > 1
              ? lake.unionContainment(partsA, a.get().lakeColumn(), partsB, b.get().lakeColumn())
              : lake.keyContainment(a.get().lakeTable(), a.get().lakeColumn(), b.get().lakeTable(),
                  b.get().lakeColumn());
          // Numbers cover each other as far as their ranges do (or their values, by Jaccard, where that says more):
          // a thousand customers' keys are contained in the 1.9 million demographics' keys, or in the items' 18000,
          // as fully as in the customers' own, but spread over only the start of them. Text keys are rarely
          // contained by chance.
          double covering = context.keyCovering(a.get().lakeTable(), a.get().lakeColumn(), b.get().lakeTable(),
              b.get().lakeColumn()).orElse(1);
          return new KeyMatch(a.get(), b.get(), containment, covering);
        });
  }

  /**
   * The containment of the key columns' tuples of a join on several keys, over the parts of tables split by rows
   * ({@link LakeTools#tupleContainment}); 1 (no cap) where a key has no column or the columns of one side are spread
   * over several tables (parts split off by columns: their rows meet only through a join).
   */
  private double tupleContainment(List<KeyMatch> matches) {
    Set<String> tables = new LinkedHashSet<>();
    Set<String> partnerTables = new LinkedHashSet<>();
    List<String> columns = new ArrayList<>();
    List<String> partnerColumns = new ArrayList<>();
    for (KeyMatch m : matches) {
      if (m.column() == null || m.partnerColumn() == null) {
        return 1;
      }
      tables.add(m.column().lakeTable());
      partnerTables.add(m.partnerColumn().lakeTable());
      columns.add(m.column().lakeColumn());
      partnerColumns.add(m.partnerColumn().lakeColumn());
    }
    if (tables.size() > 1 || partnerTables.size() > 1 || new LinkedHashSet<>(columns).size() < columns.size()
        || new LinkedHashSet<>(partnerColumns).size() < partnerColumns.size()) {
      return 1;
    }
    return lake.tupleContainment(context.rowParts(tables.iterator().next()), columns,
        context.rowParts(partnerTables.iterator().next()), partnerColumns);
  }

  /**
   * How far a column answers its key, for weighing the key's values: fully from the score at which a join is taken
   * on it ({@link JoinRepairs#GOOD_KEY}), in proportion below. Finer name differences among columns that answer well
   * ({@code country} against {@code country of origin}) say nothing about which table the query means; the tables'
   * own scores do.
   */
  static double keyFit(ColumnTarget target) {
    return Math.max(0, Math.min(1, target.score() / JoinRepairs.GOOD_KEY));
  }

  /** A column's score for an assumed column as a weight in [0, 1] (scores above 1 carry literal or entity hits). */
  static double nameFit(ColumnTarget target) {
    return Math.max(0, Math.min(1, target.score()));
  }

  /**
   * The query's joins between two distinct assumed tables that both have candidates, in both directions, each once
   * (a correlated subquery that repeats the outer joins adds no evidence).
   */
  private List<Link> links(Map<String, List<TableChoice>> ranked) {
    Set<Link> out = new LinkedHashSet<>();
    for (JoinCondition j : analysis.joins()) {
      Optional<String> lt = j.left().table().map(OfflinePlanner::key);
      Optional<String> rt = j.right().table().map(OfflinePlanner::key);
      if (lt.isEmpty() || rt.isEmpty() || lt.get().equals(rt.get()) || !ranked.containsKey(lt.get())
          || !ranked.containsKey(rt.get())) {
        continue;
      }
      String lc = key(j.left().column());
      String rc = key(j.right().column());
      out.add(new Link(lt.get(), lc, rt.get(), rc));
      out.add(new Link(rt.get(), rc, lt.get(), lc));
    }
    return new ArrayList<>(out);
  }
}
