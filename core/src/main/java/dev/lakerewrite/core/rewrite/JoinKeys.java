package dev.lakerewrite.core.rewrite;

import static dev.lakerewrite.core.rewrite.OfflinePlanner.key;

import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.JoinRoute;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.core.sql.QueryAnalysis.JoinCondition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Keys the query only joins on (thesis error type Key Mismatch, before any join path replaces them): for a join
 * whose key columns the table choice left unmapped or mapped poorly ({@link JoinRepairs#mapsWell}), the pair of lake
 * columns, one per side, that best answers both keys by name and holds joinable values, over each side's lake table
 * and its parts split off by columns. A pair
 * needs a containment of at least {@value #MIN_CONTAINMENT} ({@link LakeTools#keyContainment}) and scores
 * {@code nameFit(a) · nameFit(b) · √(containment · covering)} ({@link JoinConsistency#nameFit}; covering the larger
 * of the Jaccard similarity, {@link LakeTools#keyOverlap}, and the keys' spread over one numeric range,
 * {@link PlanningContext#keySpread}): names alone confuse an order's customer key with its clerk's number,
 * containment alone any small code with a long counter that starts where it does. The join then reads the query's own keys, as
 * the user wrote it, instead of the join graph's best pair for the two tables, which may join by another relation (a
 * sale's ship date where the query names its sold date).
 *
 * <p>Keys are assigned one to one per lake table among the keys this part reads: two joins on different keys of one
 * table read different columns. A key found in a part of its table is read through the part, joined to the table
 * ({@link PlanningContext#attributeJoinPath}; FIND_JOIN_PATH is asked where the scratchpad holds no path). Cost per
 * join: O(k²) containment lookups for the k = {@value #CANDIDATES} best-named columns of each side.
 */
final class JoinKeys extends PlannerPart {
  /** The best-named columns of each side's tables tried as the key. */
  static final int CANDIDATES = 12;
  /**
   * Containment below which two columns' values do not join: most of the referencing column's values must be in the
   * other (noise alters a few keys; a coincidental overlap of small integers stays below).
   */
  static final double MIN_CONTAINMENT = 0.5;
  /** The {@link ColumnTarget#why()} of a key this part assigned begins with it and holds {@link #BY_VALUES}. */
  static final String WHY = "joins ";
  private static final String BY_VALUES = " by names and values (";

  private final TableChooser chooser;

  JoinKeys(PlanningContext context, TableChooser chooser) {
    super(context);
    this.chooser = chooser;
  }

  /** A lake column that may answer one side's key, with how well its name answers it. */
  private record Candidate(String table, String column, double fit) {}

  /** The tables with the keys of the query's joins that they left unmapped, where a pair of columns answers them. */
  Map<String, TableChoice> resolve(Map<String, TableChoice> tables, List<JoinRoute> extraJoins, List<Action> wanted,
      List<String> notes) {
    if (!state.config().joinGraph()) {
      return tables;
    }
    Map<String, TableChoice> out = new LinkedHashMap<>(tables);
    Map<String, Set<String>> taken = new HashMap<>(); // lake table → columns this part assigned
    for (JoinCondition j : analysis.joins()) {
      Optional<String> lt = j.left().table().map(OfflinePlanner::key);
      Optional<String> rt = j.right().table().map(OfflinePlanner::key);
      if (lt.isEmpty() || rt.isEmpty() || lt.get().equals(rt.get())) {
        continue;
      }
      TableChoice left = out.get(lt.get());
      TableChoice right = out.get(rt.get());
      if (left == null || right == null || left.mergedInto() != null || right.mergedInto() != null
          || left.lake().equals(right.lake())) {
        continue;
      }
      String lk = key(j.left().column());
      String rk = key(j.right().column());
      // A key that maps well stays as it is and is the other side's partner; one that maps poorly is searched again.
      ColumnTarget mappedLeft = wellMapped(left, lk);
      ColumnTarget mappedRight = wellMapped(right, rk);
      if (mappedLeft != null && mappedRight != null) {
        continue;
      }
      List<Candidate> ls = candidates(left, j.left().column(), mappedLeft, taken);
      List<Candidate> rs = candidates(right, j.right().column(), mappedRight, taken);
      Candidate bestLeft = null;
      Candidate bestRight = null;
      double best = 0;
      double bestContainment = 0;
      for (Candidate a : ls) {
        for (Candidate b : rs) {
          if (a.table().equals(b.table())) {
            continue;
          }
          double containment = containment(a, b);
          if (containment < MIN_CONTAINMENT) {
            continue;
          }
          // Ranked by the geometric mean of containment and how far the two cover the same keys: twelve store keys
          // are contained in the item keys 1..18000 as fully as the sold items are, but cover none of them. Covering
          // is the Jaccard similarity or, for numbers, the keys' spread over one range, whichever says more: a
          // thousand customers' demographics share almost nothing with the 1.9 million demographics by Jaccard, yet
          // spread over all of them.
          double covering = context.keyCovering(a.table(), a.column(), b.table(), b.column())
              .orElseGet(() -> lake.keyOverlap(a.table(), a.column(), b.table(), b.column()));
          double score = a.fit() * b.fit() * Math.sqrt(containment * covering);
          if (score > best + 1e-9) {
            best = score;
            bestContainment = containment;
            bestLeft = a;
            bestRight = b;
          }
        }
      }
      if (bestLeft == null) {
        continue;
      }
      if (mappedLeft == null) {
        out.put(lt.get(), assign(left, lk, bestLeft, bestRight, bestContainment, extraJoins, wanted, taken));
      }
      if (mappedRight == null) {
        out.put(rt.get(), assign(right, rk, bestRight, bestLeft, bestContainment, extraJoins, wanted, taken));
      }
      notes.add(String.format(Locale.ROOT, "join %s.%s = %s.%s reads %s.%s = %s.%s by names and values (%.2f)",
          left.assumed(), j.left().column(), right.assumed(), j.right().column(), bestLeft.table(),
          bestLeft.column(), bestRight.table(), bestRight.column(), best));
    }
    return out;
  }

  /**
   * The containment of two candidate keys' values as the join graph measured it, over the union of the parts of a
   * table split by rows (each part holds only a share of the keys its partners refer to); measured now where the
   * graph holds no such pair but both names answer their keys as well as a join needs ({@link JoinRepairs#GOOD_KEY}).
   * The graph finds its pairs through value sketches, which miss a small key set inside a huge one (a thousand
   * customers' demographics among 1.9 million) while small surrogate keys contained in it by chance fill its few
   * edges.
   */
  private double containment(Candidate a, Candidate b) {
    double measured = lake.keyContainment(a.table(), a.column(), b.table(), b.column());
    boolean wellNamed = a.fit() >= JoinRepairs.GOOD_KEY && b.fit() >= JoinRepairs.GOOD_KEY;
    if (measured == 0 && !wellNamed) {
      return 0;
    }
    List<String> partsA = context.rowParts(a.table());
    List<String> partsB = context.rowParts(b.table());
    if (measured > 0 && partsA.size() == 1 && partsB.size() == 1) {
      return measured;
    }
    return lake.unionContainment(partsA, a.column(), partsB, b.column());
  }

  /** The table's column for a key where it maps well ({@link JoinRepairs#mapsWell}), else null. */
  private static @Nullable ColumnTarget wellMapped(TableChoice t, String column) {
    ColumnTarget target = t.columns().get(column);
    return JoinRepairs.mapsWell(target) ? target : null;
  }

  /**
   * The columns that may answer a key: the one already mapped, else the best-named columns of the table and its
   * parts split off by columns that no other key read through this part.
   */
  private List<Candidate> candidates(TableChoice t, String column, @Nullable ColumnTarget mapped,
      Map<String, Set<String>> taken) {
    if (mapped != null) {
      return List.of(new Candidate(mapped.lakeTable(), mapped.lakeColumn(), JoinConsistency.nameFit(mapped)));
    }
    List<Candidate> out = new ArrayList<>();
    for (String source : context.tableAndParts(t.lake())) {
      Set<String> used = taken.getOrDefault(source, Set.of());
      for (ColumnTarget c : chooser.targets(t.assumed(), column, source, used)) {
        if (c.score() > 0) {
          out.add(new Candidate(source, c.lakeColumn(), JoinConsistency.nameFit(c)));
        }
      }
    }
    out.sort(Comparator.comparingDouble(Candidate::fit).reversed());
    return out.subList(0, Math.min(CANDIDATES, out.size()));
  }

  /** The table with its key read from the chosen column (through the part that holds it, joined to the table). */
  private TableChoice assign(TableChoice t, String column, Candidate key, Candidate partner, double containment,
      List<JoinRoute> extraJoins, List<Action> wanted, Map<String, Set<String>> taken) {
    if (!key.table().equals(t.lake())) {
      Optional<Evidence.JoinPath> path = context.attributeJoinPath(t.lake(), key.table());
      if (path.isEmpty()) {
        askForJoinPath(t.lake(), key.table(), wanted);
        return t;
      }
      joinOnce(extraJoins, t.assumed(), path.get());
    }
    taken.computeIfAbsent(key.table(), k -> new HashSet<>()).add(key.column());
    Map<String, ColumnTarget> columns = new LinkedHashMap<>(t.columns());
    columns.put(column, new ColumnTarget(key.table(), key.column(), 1.0, String.format(Locale.ROOT,
        "%s%s.%s%s%.2f)", WHY, partner.table(), partner.column(), BY_VALUES, containment)));
    List<String> unmapped = new ArrayList<>(t.unmapped());
    unmapped.removeIf(u -> key(u).equals(column));
    return new TableChoice(t.assumed(), t.lake(), t.score(), columns, unmapped, t.mergedInto());
  }

  /** Whether a key was read by this part: by its name and by values it shares with its partner's. */
  static boolean readByNamesAndValues(@Nullable ColumnTarget target) {
    return target != null && target.why().startsWith(WHY) && target.why().contains(BY_VALUES);
  }
}
