package dev.lakerewrite.core.equivalence;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Shrinks a database on which two queries differ to a smallest one on which they still differ: first whole
 * tables are emptied, then Zeller and Hildebrandt's delta debugging ({@code ddmin}, "Simplifying and Isolating
 * Failure-Inducing Input", TSE 2002) removes rows, ending 1-minimal (no single row can go). Every subset tried is
 * first made valid by dropping rows whose foreign key lost its referenced row. At most {@code maxTests} subsets
 * are tried (ddmin needs O(n^2) tests in the worst case, O(log n) when one row suffices); the smallest failing
 * database found so far is returned when the budget runs out.
 */
final class Minimizer {
  /** Whether the two queries still differ on a database. */
  interface Test {
    boolean differs(Database candidate);
  }

  private final Test test;
  private final int maxTests;
  private final long deadline;
  private final Map<List<Database.RowRef>, Boolean> memo = new HashMap<>();
  private int tests;

  private Minimizer(Test test, int maxTests, long deadlineNanos) {
    this.test = test;
    this.maxTests = maxTests;
    this.deadline = deadlineNanos;
  }

  /**
   * The smallest database found on which the queries still differ (the input itself when nothing goes): rows
   * removed by ddmin, then nullable foreign keys set to NULL where the difference stays (so that the rows they
   * pointed at can go too), then ddmin once more.
   */
  static Database minimize(Database failing, Test test, int maxTests, long deadlineNanos) {
    Minimizer m = new Minimizer(test, maxTests, deadlineNanos);
    Database small = m.run(failing);
    Database simpler = m.nullForeignKeys(small);
    if (simpler == small) {
      return small;
    }
    m.memo.clear();
    return m.run(simpler);
  }

  /** Sets nullable foreign-key cells to NULL, one at a time, keeping each change under which they still differ. */
  private Database nullForeignKeys(Database db) {
    Database current = db;
    for (int t = 0; t < db.tables().size(); t++) {
      Schema.Table table = db.tables().get(t);
      for (Schema.ForeignKey fk : table.foreignKeys()) {
        for (String column : fk.columns()) {
          int c = table.columnIndex(column);
          if (c < 0 || !table.columns().get(c).nullable()) {
            continue;
          }
          for (int r = 0; r < current.rows(table).size() && budgetLeft(); r++) {
            if (current.rows(table).get(r).get(c) == null) {
              continue;
            }
            Database candidate = current.withCell(table, r, c, null);
            tests++;
            if (test.differs(candidate)) {
              current = candidate;
            }
          }
        }
      }
    }
    return current;
  }

  private Database run(Database db) {
    List<Database.RowRef> current = db.rowRefs();
    // Whole tables first: most counterexamples need rows in a few tables only.
    for (int t = 0; t < db.tables().size(); t++) {
      int table = t;
      List<Database.RowRef> without = new ArrayList<>(current.stream().filter(r -> r.table() != table).toList());
      if (without.size() < current.size() && differs(db, without)) {
        current = valid(db, without);
      }
    }
    int n = 2;
    while (current.size() >= 2 && budgetLeft()) {
      List<List<Database.RowRef>> chunks = split(current, n);
      boolean reduced = false;
      for (List<Database.RowRef> chunk : chunks) {
        if (differs(db, chunk)) {
          current = valid(db, chunk);
          n = 2;
          reduced = true;
          break;
        }
      }
      if (!reduced) {
        for (List<Database.RowRef> chunk : chunks) {
          List<Database.RowRef> complement = new ArrayList<>(current);
          complement.removeAll(chunk);
          if (differs(db, complement)) {
            current = valid(db, complement);
            n = Math.max(n - 1, 2);
            reduced = true;
            break;
          }
        }
      }
      if (!reduced) {
        if (n >= current.size()) {
          break;
        }
        n = Math.min(current.size(), 2 * n);
      }
    }
    if (current.size() == 1 || current.isEmpty()) {
      // Maybe no row at all is needed (e.g. an aggregate over nothing).
      if (!current.isEmpty() && differs(db, List.of())) {
        current = List.of();
      }
    }
    return db.subset(db.name(), current).withForeignKeysHonoured();
  }

  private boolean budgetLeft() {
    return tests < maxTests && System.nanoTime() < deadline;
  }

  /** The rows that can stay: a row whose foreign key lost its referenced row goes too, until nothing changes. */
  private static List<Database.RowRef> valid(Database db, List<Database.RowRef> rows) {
    List<Schema.Table> tables = db.tables();
    if (tables.stream().allMatch(t -> t.foreignKeys().isEmpty())) {
      return rows;
    }
    java.util.Set<Database.RowRef> keep = new java.util.LinkedHashSet<>(rows);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int t = 0; t < tables.size(); t++) {
        Schema.Table table = tables.get(t);
        for (Schema.ForeignKey fk : table.foreignKeys()) {
          int p = -1;
          for (int i = 0; i < tables.size(); i++) {
            if (tables.get(i).name().equalsIgnoreCase(fk.referencedTable())) {
              p = i;
            }
          }
          if (p < 0) {
            continue;
          }
          Schema.Table parent = tables.get(p);
          int[] mine = fk.columns().stream().mapToInt(table::columnIndex).toArray();
          int[] theirs = fk.referencedColumns().stream().mapToInt(parent::columnIndex).toArray();
          java.util.Set<List<String>> present = new java.util.HashSet<>();
          for (Database.RowRef r : keep) {
            if (r.table() == p) {
              present.add(project(db.rows(parent).get(r.row()), theirs));
            }
          }
          int table0 = t;
          changed |= keep.removeIf(r -> {
            if (r.table() != table0) {
              return false;
            }
            List<String> key = project(db.rows(table).get(r.row()), mine);
            return !key.contains(null) && !present.contains(key);
          });
        }
      }
    }
    return new ArrayList<>(keep);
  }

  private static List<String> project(List<String> row, int[] columns) {
    List<String> out = new ArrayList<>(columns.length);
    for (int c : columns) {
      out.add(c < 0 ? null : row.get(c));
    }
    return out;
  }

  private boolean differs(Database db, List<Database.RowRef> rows) {
    List<Database.RowRef> key = valid(db, rows);
    Boolean known = memo.get(key);
    if (known != null) {
      return known;
    }
    if (!budgetLeft()) {
      return false;
    }
    tests++;
    boolean d = test.differs(db.subset(db.name(), key));
    memo.put(key, d);
    return d;
  }

  private static List<List<Database.RowRef>> split(List<Database.RowRef> rows, int n) {
    List<List<Database.RowRef>> out = new ArrayList<>();
    int size = rows.size();
    int start = 0;
    for (int i = 0; i < n; i++) {
      int end = start + (size - start) / (n - i);
      if (end > start) {
        out.add(new ArrayList<>(rows.subList(start, end)));
      }
      start = end;
    }
    return out;
  }

  int tests() {
    return tests;
  }
}
