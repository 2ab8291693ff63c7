package dev.lakerewrite.core.rewrite;

import static dev.lakerewrite.core.rewrite.OfflinePlanner.joinKey;
import static dev.lakerewrite.core.rewrite.OfflinePlanner.key;

import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.core.sql.QueryAnalysis.JoinCondition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Joins between assumed tables (thesis error type Key Mismatch): a join whose keys do not map to good lake columns
 * of the two lake tables (or whose last result was empty) is replaced by the best join path the scratchpad holds
 * between them; asks for FIND_JOIN_PATH where it holds none. Joins through an obsolete table connect the tables that
 * absorbed it.
 */
final class JoinRepairs extends PlannerPart {
  JoinRepairs(PlanningContext context) {
    super(context);
  }

  Map<String, Evidence.JoinPath> joinFixes(Map<String, TableChoice> tables, List<Action> wanted,
      List<String> notes) {
    Map<String, Evidence.JoinPath> fixes = new LinkedHashMap<>();
    boolean lastEmpty = state.latest().flatMap(RewriteCandidate::result).map(r -> r.rowCount() == 0).orElse(false);
    for (JoinCondition j : analysis.joins()) {
      Optional<String> lt = j.left().table();
      Optional<String> rt = j.right().table();
      if (lt.isEmpty() || rt.isEmpty()) {
        continue;
      }
      TableChoice left = tables.get(key(lt.get()));
      TableChoice right = tables.get(key(rt.get()));
      if (left == null || right == null) {
        continue;
      }
      // Joins through an obsolete table connect the tables that absorbed it.
      TableChoice a = effective(left, tables);
      TableChoice b = effective(right, tables);
      if (a.lake().equals(b.lake())) {
        continue;
      }
      ColumnTarget ka = left.mergedInto() == null ? left.columns().get(key(j.left().column())) : null;
      ColumnTarget kb = right.mergedInto() == null ? right.columns().get(key(j.right().column())) : null;
      // A key read from a part of the table split off by columns is the table's own, joined one to one.
      boolean keysMap = mapsWell(ka) && mapsWell(kb)
          && context.ownOrPart(a.lake(), ka.lakeTable()) && context.ownOrPart(b.lake(), kb.lakeTable());
      // Keys read by their names and by values they share (JoinKeys) stay when the result was empty: the join is
      // not what emptied it.
      if (keysMap && (!lastEmpty || JoinKeys.readByNamesAndValues(ka) && JoinKeys.readByNamesAndValues(kb))) {
        continue;
      }
      Optional<Evidence.JoinPath> path = joinPath(a.lake(), b.lake());
      // Keys used only in joins are not in the table choices; a lake column named as the key (s_nationkey and
      // Nationkey) is the key the rewrite reads.
      boolean directKeys = (ka != null ? ka.lakeTable().equals(a.lake()) : namedAlike(left, j.left().column(), a))
          && (kb != null ? kb.lakeTable().equals(b.lake()) : namedAlike(right, j.right().column(), b));
      if (path.isPresent() && path.get().steps().size() > 1 && directKeys && !lastEmpty) {
        // The query joins the two tables directly and both keys map onto them: a path through other tables would
        // join by something else (customers to the orders of their nation). It stays an alternative for when the
        // direct join returns nothing.
        notes.add("join " + a.assumed() + "–" + b.assumed() + " keeps its own keys: the join graph's path goes "
            + "through " + (path.get().steps().size() - 1) + " other table(s)");
        continue;
      }
      if (path.isPresent() && path.get().steps().size() == 1 && ka == null && kb == null) {
        path = Optional.of(namedPair(left, j.left().column(), right, j.right().column(), path.get()));
      }
      if (path.isPresent()) {
        fixes.put(joinKey(a.assumed(), b.assumed()), path.get());
        notes.add("join " + a.assumed() + "–" + b.assumed() + " uses " + path.get().sqlJoin());
      } else if (state.enabled(ActionType.FIND_JOIN_PATH) && state.config().joinGraph()) {
        wanted.add(new Action.FindJoinPath(a.lake(), b.lake()));
      }
    }
    return fixes;
  }

  /** Whether a key's column answers it well enough to join on as the query wrote the join. */
  static boolean mapsWell(@Nullable ColumnTarget key) {
    return key != null && !key.weak() && key.score() >= GOOD_KEY;
  }

  /** Score at which a key's column is taken as the key. */
  static final double GOOD_KEY = 0.7;

  /** Whether {@code lakeTable}'s table has a column named as the assumed key, without the assumed table's prefix. */
  private boolean namedAlike(TableChoice assumed, String column, TableChoice lakeTable) {
    return namedColumn(assumed, column, lakeTable.lake()).isPresent();
  }

  /** The column of a lake table named as the assumed key, without the assumed table's prefix. */
  private Optional<String> namedColumn(TableChoice assumed, String column, String lakeTable) {
    return assumed.mergedInto() != null ? Optional.empty()
        : context.columnNamedAs(assumed.assumed(), column, lakeTable);
  }

  /**
   * The join of the query's own keys where the two lake tables have columns named as them and the join graph holds
   * that pair too (its values join), instead of the graph's best pair for the two tables: a sale has a sold date and
   * a ship date, both keys of the dates, and cs_sold_date_sk = d_date_sk names which one. The graph's path otherwise.
   */
  private Evidence.JoinPath namedPair(TableChoice left, String leftKey, TableChoice right, String rightKey,
      Evidence.JoinPath graphPath) {
    Evidence.JoinStep step = graphPath.steps().get(0);
    Optional<String> l = namedColumn(left, leftKey, step.leftTable());
    Optional<String> r = namedColumn(right, rightKey, step.rightTable());
    if (l.isEmpty() || r.isEmpty() || l.get().equals(step.leftColumn()) && r.get().equals(step.rightColumn())
        || lake.keyOverlap(step.leftTable(), l.get(), step.rightTable(), r.get()) <= 0) {
      return graphPath;
    }
    Evidence.JoinStep named = new Evidence.JoinStep(step.leftTable(), l.get(), step.rightTable(), r.get(),
        step.score(), Double.NaN);
    return new Evidence.JoinPath(graphPath.from(), graphPath.to(), List.of(named), graphPath.score(),
        graphPath.rank(), null);
  }

  private static TableChoice effective(TableChoice t, Map<String, TableChoice> tables) {
    TableChoice e = t;
    int guard = 0;
    while (e.mergedInto() != null && guard++ < 8) {
      TableChoice next = tables.get(key(e.mergedInto()));
      if (next == null) {
        break;
      }
      e = next;
    }
    return e;
  }
}
