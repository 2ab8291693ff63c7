package dev.lakerewrite.core.rewrite;

import static dev.lakerewrite.core.match.EntityNames.isNameLike;
import static dev.lakerewrite.core.rewrite.OfflinePlanner.key;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.core.sql.QueryAnalysis.ColumnReference;
import dev.lakerewrite.core.sql.QueryAnalysis.JoinCondition;
import dev.lakerewrite.core.sql.QueryAnalysis;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Obsolete tables (thesis error type Obsolete Table): an assumed table whose columns another assumed table's lake
 * table answers (or that only links two tables) is merged into it and its join dropped. Pairwise over the query's
 * assumed tables: O(tables² · columns²) name similarities.
 */
final class ObsoleteTables extends PlannerPart {
  /** How much worse A's lake table may be for B than B's own and still answer it. */
  static final double MARGIN = 0.05;

  private final TableChooser chooser;

  ObsoleteTables(PlanningContext context, TableChooser chooser) {
    super(context);
    this.chooser = chooser;
  }

  /**
   * An assumed table is obsolete when its lake answer is the same table as another's, or when all its columns
   * are answered as well by the other's lake table: it is merged into that table and its join dropped.
   */
  void mergeObsolete(Map<String, TableChoice> tables, List<String> notes, Set<String> keepApart) {
    mergeObsolete(tables, notes, keepApart, Map.of());
  }

  /**
   * As {@link #mergeObsolete(Map, List, Set)}, where {@code ranked} holds each assumed table's scored candidate
   * tables (lower-case assumed name → best first): with a join path between the two lake tables, A's lake table
   * answers B only when it is as good a table for B, by the score that chose B's table (name, kind, relevance and
   * column fit), not by column fit alone. TPC-H's region has only a key and a name, which the nation table also
   * has; {@code tbl_rgn} is still the region table.
   */
  void mergeObsolete(Map<String, TableChoice> tables, List<String> notes, Set<String> keepApart,
      Map<String, List<TableChoice>> ranked) {
    separateParallel(tables, notes, keepApart, ranked);
    List<TableChoice> list = new ArrayList<>(tables.values());
    for (int i = 1; i < list.size(); i++) {
      TableChoice b = list.get(i);
      // A table the query names as the lake names it is meant as it is (two parts of a table split by rows,
      // tbl_lin_since_1995 and tbl_lin_before_1995, answer each other's columns and differ in their rows).
      if (keepApart.contains(key(b.assumed())) || b.lake().equalsIgnoreCase(b.assumed())) {
        continue;
      }
      Set<String> partners = partners(b);
      for (int j = 0; j < i; j++) {
        TableChoice a = list.get(j);
        if (a.mergedInto() != null) {
          continue;
        }
        boolean same = a.lake().equals(b.lake());
        if (!same && parallel(a, b)) {
          // Parallel tables answer each other's columns by their shared names (net profit, item key): no evidence.
          continue;
        }
        boolean absorbed = false;
        String scores = "";
        boolean unjoinable = joined(a, b) && joinSearchFailed(a.lake(), b.lake());
        // A junction links two tables; a table of keys joined to three or more (sales of a customer, an item and a
        // date) is the query's fact table, whatever its columns.
        boolean junction = joined(a, b) && analysis.columnsOf(b.assumed()).stream().allMatch(c -> isKey(b.assumed(), c))
            && partners.size() <= 2 && !linksInTheLake(b, partners, tables) && !holdsKeys(b);
        if (!same && !referencedByName(a, b)) {
          List<String> cols = analysis.columnsOf(b.assumed()).stream().filter(c -> !isKey(b.assumed(), c)).toList();
          TableChoice inA = mergedMapping(a, b);
          boolean answers = !cols.isEmpty() && inA.unmapped().isEmpty()
              && inA.columns().values().stream().allMatch(t -> t.score() >= 0.6);
          // Without a join path, A answering B's columns at all is enough; with one, it must answer them as well, by
          // the score that ranks B's candidates (a supplier's table answers a nation's key and name by their words,
          // not by what it is about).
          Optional<TableChoice> bOnA = ranked.getOrDefault(key(b.assumed()), List.of()).stream()
              .filter(c -> c.lake().equals(a.lake())).findFirst();
          if (bOnA.isEmpty() && answers && !unjoinable && ranked.containsKey(key(b.assumed()))) {
            bOnA = Optional.of(chooser.scoreOn(b.assumed(), analysis.columnsOf(b.assumed()), a.lake()));
          }
          absorbed = answers && (unjoinable || (bOnA.isPresent() ? bOnA.get().score() >= b.score() - MARGIN
              : fit(inA) >= fit(b) - MARGIN));
          scores = bOnA.map(c -> String.format(java.util.Locale.ROOT, " (scored %.2f for %s, %s %.2f)", c.score(),
              b.assumed(), b.lake(), b.score())).orElse("");
        }
        // A join search that found nothing drops no table whose columns the other cannot answer: the query's own
        // join, on the mapped keys, stays (TPC-H partsupp and a part split by rows have no join-graph edge).
        unjoinable &= absorbed;
        if (same || absorbed || unjoinable || junction) {
          TableChoice merged = mergedMapping(a, b);
          tables.put(key(b.assumed()), new TableChoice(b.assumed(), a.lake(), merged.score(), merged.columns(),
              merged.unmapped(), a.assumed()));
          notes.add(b.assumed() + " is obsolete: " + (junction ? "it only links tables"
              : a.lake() + " (for " + a.assumed() + ") answers it" + scores)
              + (unjoinable ? " (no join path to " + b.lake() + ")" : ""));
          list.set(i, tables.get(key(b.assumed())));
          break;
        }
      }
    }
  }

  /**
   * Two assumed tables that chose one lake table are kept apart where one table written twice is unlikely:
   * <ul>
   *   <li>parallel tables, which the query never joins with each other while it joins each with tables of its own
   *       (store sales and catalog sales, each joined to its dates and items; a store return between them): merged,
   *       the catalog sales' date key would be read from the store sales. The one with the weaker claim on the lake
   *       table (its lower score there) takes its best other candidate;</li>
   *   <li>any two, where one of them scores almost as well elsewhere (its best other candidate within
   *       {@link #MARGIN} of its score on the shared table, the smaller loss of the two) on a table its name names
   *       better: {@code parts} reads for {@code partsupp} about as well as {@code partsupps}, which is its name,
   *       while the part has no other table as good. A table merged as obsolete has no table of its own name (a
   *       council's type in the councils' table), and {@link #mergeObsolete} judges it.</li>
   * </ul>
   * O(tables² · candidates).
   */
  private void separateParallel(Map<String, TableChoice> tables, List<String> notes, Set<String> keepApart,
      Map<String, List<TableChoice>> ranked) {
    List<String> names = new ArrayList<>(tables.keySet());
    for (int i = 0; i < names.size(); i++) {
      for (int j = i + 1; j < names.size(); j++) {
        TableChoice a = tables.get(names.get(i));
        TableChoice b = tables.get(names.get(j));
        if (!a.lake().equals(b.lake())) {
          continue;
        }
        boolean parallel = parallel(a, b);
        Optional<TableChoice> aElsewhere = elsewhere(a, ranked);
        Optional<TableChoice> bElsewhere = elsewhere(b, ranked);
        double aLoss = aElsewhere.map(o -> a.score() - o.score()).orElse(Double.POSITIVE_INFINITY);
        double bLoss = bElsewhere.map(o -> b.score() - o.score()).orElse(Double.POSITIVE_INFINITY);
        TableChoice mover = parallel ? (a.score() < b.score() ? a : b) : aLoss <= bLoss ? a : b;
        TableChoice stays = mover == a ? b : a;
        Optional<TableChoice> other = mover == a ? aElsewhere : bElsewhere;
        if (other.isEmpty() || !parallel && (Math.min(aLoss, bLoss) > MARGIN || !namesBetter(mover, other.get()))
            || keepApart.contains(key(mover.assumed())) || mover.lake().equalsIgnoreCase(mover.assumed())) {
          continue;
        }
        tables.put(key(mover.assumed()), other.get());
        notes.add(String.format(java.util.Locale.ROOT, "%s→%s: %s (%.2f) is %s's (%.2f), %s", mover.assumed(),
            other.get().lake(), stays.lake(), mover.score(), stays.assumed(), stays.score(), parallel
                ? "a table the query keeps apart from it"
                : String.format(java.util.Locale.ROOT, "and %s scores %.2f there", mover.assumed(), other.get().score())));
      }
    }
  }

  /**
   * Whether the other candidate's name names the assumed table (at least {@link TableChooser#COLUMN_THRESHOLD}, as a
   * column's name must) and better than the shared table's does: {@code partsupps} names {@code partsupp}, while
   * {@code found_in_taxon} (0.34) only scores near {@code authority} (0.32) for a council's type, which is no name.
   */
  private boolean namesBetter(TableChoice mover, TableChoice other) {
    double there = chooser.nameEvidence(mover.assumed(), other.lake());
    return there >= TableChooser.COLUMN_THRESHOLD && there > chooser.nameEvidence(mover.assumed(), mover.lake());
  }

  /** An assumed table's best candidate other than the lake table it chose. */
  private static Optional<TableChoice> elsewhere(TableChoice t, Map<String, List<TableChoice>> ranked) {
    return ranked.getOrDefault(key(t.assumed()), List.of()).stream().filter(c -> !c.lake().equals(t.lake()))
        .findFirst();
  }

  /**
   * Whether the query never joins A and B with each other but joins each with other tables, and no table of keys
   * links the two (films and languages through a table of film and language keys are one query's entity and its
   * attribute: the link is a junction, and the lake may hold the languages in the films' table).
   */
  private boolean parallel(TableChoice a, TableChoice b) {
    if (joined(a, b)) {
      return false;
    }
    Set<String> shared = new LinkedHashSet<>(partners(a));
    Set<String> ofB = partners(b);
    if (shared.isEmpty() || ofB.isEmpty()) {
      return false;
    }
    shared.retainAll(ofB);
    for (String link : shared) {
      List<String> columns = analysis.columnsOf(link);
      if (!columns.isEmpty() && columns.stream().allMatch(c -> isKey(link, c))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the lake table A chose holds B's entities rather than A's: both chose it, and the kind of its rows is more
   * nearly B's (a table of heads of state's people, one row per person, answers both the heads of state and the
   * persons; its label is the person's name). Then B's columns read the table's entity-name column as A's would.
   */
  private boolean rowsAreOf(TableChoice b, TableChoice a) {
    return a.lake().equals(b.lake())
        && chooser.entityKindSimilarity(b.assumed(), a.lake()) > chooser.entityKindSimilarity(a.assumed(), a.lake());
  }

  /**
   * B's columns read from A's lake table (unless its rows are B's: {@link #rowsAreOf}): its entity-name columns from
   * the column of A that refers to B's entities (the one named most like B: {@code countries} → {@code country of
   * origin}), the others by name, without the entity-name prior (B's entity is not A's).
   */
  private TableChoice mergedMapping(TableChoice a, TableChoice b) {
    List<String> cols = analysis.columnsOf(b.assumed()).stream().filter(c -> !isKey(b.assumed(), c)).toList();
    if (rowsAreOf(b, a)) {
      return chooser.mapColumns(b.assumed(), a.lake(), cols, 0, true);
    }
    TableChoice plain = chooser.mapColumns(b.assumed(), a.lake(), cols, 0, false);
    Map<String, ColumnTarget> columns = new LinkedHashMap<>(plain.columns());
    List<String> unmapped = new ArrayList<>(plain.unmapped());
    String entity = entityColumn(a.lake());
    for (String c : cols) {
      if (!isNameLike(c, b.assumed())) {
        continue;
      }
      // B's entity is not A's: never A's entity-name column.
      if (columns.containsKey(key(c)) && columns.get(key(c)).lakeColumn().equals(entity)) {
        Optional<ColumnTarget> other = chooser.bestColumn(b.assumed(), c, a.lake(), false, entity == null ? Set.of() : Set.of(entity));
        if (other.isPresent()) {
          columns.put(key(c), other.get().score() >= TableChooser.COLUMN_THRESHOLD ? other.get()
              : new ColumnTarget(other.get().lakeTable(), other.get().lakeColumn(), other.get().score(),
                  "best guess: " + other.get().why(), true));
        }
      }
      ColumnTarget best = null;
      for (CatalogTable.Column col : lake.table(a.lake()).columns()) {
        if (col.name().equals(entity)) {
          continue;
        }
        double sim = lake.nameSimilarity(b.assumed(), col.name());
        if (best == null || sim > best.score()) {
          best = new ColumnTarget(a.lake(), col.name(), sim, String.format("refers to %s (similarity %.2f)",
              b.assumed(), sim));
        }
      }
      if (best != null && best.score() >= TableChooser.COLUMN_THRESHOLD - 0.1
          && (!columns.containsKey(key(c)) || columns.get(key(c)).score() < best.score())) {
        columns.put(key(c), best);
        unmapped.removeIf(u -> key(u).equals(key(c)));
      }
    }
    return new TableChoice(b.assumed(), a.lake(), plain.score(), columns, unmapped, null);
  }

  /**
   * Whether B's lake table (or a part of it split off by columns) answers every key the query reads of B well
   * ({@link JoinRepairs#GOOD_KEY}): then the lake has the table the query walks through, and dropping it would join
   * its neighbours by other keys (a line's supplier key to a customer's nation key). A table the lake lacks has no
   * such columns; the join graph may still miss B's edges when B is split by rows (each part holds a share of the
   * keys its partners refer to). O(keys · columns of B's table and parts).
   */
  private boolean holdsKeys(TableChoice b) {
    List<String> keys = analysis.columnsOf(b.assumed()).stream().filter(c -> isKey(b.assumed(), c)).toList();
    return !keys.isEmpty() && keys.stream().allMatch(k -> chooser.bestColumnWithParts(b.assumed(), k, b.lake())
        .filter(t -> t.score() >= JoinRepairs.GOOD_KEY).isPresent());
  }

  /**
   * Whether B's lake table links, in the join graph, every lake table of the assumed tables the query joins B with
   * (two at least): then the lake has the link the query walks (sales → customer → address), and dropping it would
   * join the two ends by another pair of keys (the sale's ship address, not the customer's current one).
   */
  private boolean linksInTheLake(TableChoice b, Set<String> partners, Map<String, TableChoice> tables) {
    if (partners.size() < 2) {
      return false;
    }
    for (String p : partners) {
      TableChoice other = tables.get(p);
      if (other == null || other.lake().equals(b.lake()) || lake.joinability(b.lake(), other.lake()) <= 0) {
        return false;
      }
    }
    return true;
  }

  /** The assumed tables the query joins B with directly (lower-case names). */
  private Set<String> partners(TableChoice b) {
    Set<String> partners = new LinkedHashSet<>();
    for (JoinCondition j : analysis.joins()) {
      Optional<String> l = j.left().table();
      Optional<String> r = j.right().table();
      if (l.isEmpty() || r.isEmpty()) {
        continue;
      }
      if (key(l.get()).equals(key(b.assumed())) && !key(r.get()).equals(key(b.assumed()))) {
        partners.add(key(r.get()));
      } else if (key(r.get()).equals(key(b.assumed())) && !key(l.get()).equals(key(b.assumed()))) {
        partners.add(key(l.get()));
      }
    }
    return partners;
  }

  /** Whether the query joins the two assumed tables directly. */
  private boolean joined(TableChoice a, TableChoice b) {
    for (JoinCondition j : analysis.joins()) {
      Set<String> sides = new LinkedHashSet<>();
      j.left().table().ifPresent(t -> sides.add(key(t)));
      j.right().table().ifPresent(t -> sides.add(key(t)));
      if (sides.contains(key(a.assumed())) && sides.contains(key(b.assumed()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the query joins A to B on B's entity-name column ({@code c.sport = p.label}) while reading other
   * columns of B: B's rows are entities of their own that A names, so A's columns that look like B's (every entity
   * table has a category, a description, a kind) are A's own, not B's — B is not obsolete. Joins on surrogate
   * keys ({@code s.id = e.sport_id}) say nothing either way.
   */
  private boolean referencedByName(TableChoice a, TableChoice b) {
    for (JoinCondition j : analysis.joins()) {
      for (boolean leftIsB : new boolean[] {true, false}) {
        QueryAnalysis.ColumnReference bSide = leftIsB ? j.left() : j.right();
        QueryAnalysis.ColumnReference aSide = leftIsB ? j.right() : j.left();
        if (bSide.table().map(OfflinePlanner::key).orElse("").equals(key(b.assumed()))
            && aSide.table().map(OfflinePlanner::key).orElse("").equals(key(a.assumed()))
            && isNameLike(bSide.column(), b.assumed())) {
          return analysis.columnsOf(b.assumed()).stream()
              .anyMatch(c -> !isKey(b.assumed(), c) && !isNameLike(c, b.assumed()));
        }
      }
    }
    return false;
  }

  /** FIND_JOIN_PATH between the two lake tables ran and found no path. */
  private boolean joinSearchFailed(String x, String y) {
    boolean searched = state.performedActions().stream().anyMatch(a -> a instanceof Action.FindJoinPath f
        && (f.tableA().equals(x) && f.tableB().equals(y) || f.tableA().equals(y) && f.tableB().equals(x)));
    return searched && joinPath(x, y).isEmpty();
  }

  private static double fit(TableChoice t) {
    return t.columns().values().stream().mapToDouble(ColumnTarget::score).average().orElse(0);
  }
}
