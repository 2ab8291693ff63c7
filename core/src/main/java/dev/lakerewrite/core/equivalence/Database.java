package dev.lakerewrite.core.equivalence;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One database instance as data: for each table (referenced tables first), its rows, each cell as the text the
 * engine prints for the value ({@code CAST(v AS VARCHAR)}) or null for NULL. Instances are small (generated,
 * sampled, or minimised counterexamples); the values are cast back to the column types when loaded.
 */
final class Database {
  private final String name;
  private final List<Schema.Table> tables;
  private final Map<String, List<List<String>>> rows;

  Database(String name, List<Schema.Table> tables, Map<String, List<List<String>>> rows) {
    this.name = name;
    this.tables = List.copyOf(tables);
    Map<String, List<List<String>>> copy = new LinkedHashMap<>();
    for (Schema.Table t : tables) {
      List<List<String>> r = rows.getOrDefault(t.name().toLowerCase(Locale.ROOT), List.of());
      List<List<String>> frozen = new ArrayList<>(r.size());
      for (List<String> row : r) {
        frozen.add(Collections.unmodifiableList(new ArrayList<>(row)));
      }
      copy.put(t.name().toLowerCase(Locale.ROOT), Collections.unmodifiableList(frozen));
    }
    this.rows = Collections.unmodifiableMap(copy);
  }

  /** What the instance is, e.g. {@code generated #7 (random, up to 6 rows per table)}. */
  String name() {
    return name;
  }

  List<Schema.Table> tables() {
    return tables;
  }

  List<List<String>> rows(Schema.Table table) {
    return rows.getOrDefault(table.name().toLowerCase(Locale.ROOT), List.of());
  }

  int rowCount() {
    return rows.values().stream().mapToInt(List::size).sum();
  }

  /** Every row as (table index, row) in table order: the items delta debugging removes. */
  List<RowRef> rowRefs() {
    List<RowRef> out = new ArrayList<>();
    for (int t = 0; t < tables.size(); t++) {
      List<List<String>> r = rows(tables.get(t));
      for (int i = 0; i < r.size(); i++) {
        out.add(new RowRef(t, i));
      }
    }
    return out;
  }

  /** A row of this database by its position. */
  record RowRef(int table, int row) {}

  /** The database holding only these rows (in their original order), under a new name. */
  Database subset(String newName, java.util.Collection<RowRef> keep) {
    Map<String, List<List<String>>> out = new LinkedHashMap<>();
    java.util.Set<RowRef> set = new java.util.HashSet<>(keep);
    for (int t = 0; t < tables.size(); t++) {
      Schema.Table table = tables.get(t);
      List<List<String>> r = rows(table);
      List<List<String>> kept = new ArrayList<>();
      for (int i = 0; i < r.size(); i++) {
        if (set.contains(new RowRef(t, i))) {
          kept.add(r.get(i));
        }
      }
      out.put(table.name().toLowerCase(Locale.ROOT), kept);
    }
    return new Database(newName, tables, out);
  }

  /** The same rows under another name. */
  Database named(String newName) {
    return new Database(newName, tables, rows);
  }

  /**
   * The rows of every table (only of those named in {@code read}, lower-case, when it is not null; the others as no
   * rows), in table order: equal for instances on which any query reading only those tables answers the same.
   */
  List<List<List<String>>> content(@Nullable Set<String> read) {
    List<List<List<String>>> out = new ArrayList<>();
    for (Schema.Table t : tables) {
      out.add(read == null || read.contains(t.name().toLowerCase(Locale.ROOT)) ? rows(t) : List.of());
    }
    return out;
  }

  /** This database with one cell changed. */
  Database withCell(Schema.Table table, int row, int column, @Nullable String value) {
    Map<String, List<List<String>>> out = new LinkedHashMap<>();
    for (Schema.Table t : tables) {
      List<List<String>> r = new ArrayList<>(rows(t));
      if (t.name().equalsIgnoreCase(table.name())) {
        List<String> changed = new ArrayList<>(r.get(row));
        changed.set(column, value);
        r.set(row, changed);
      }
      out.put(t.name().toLowerCase(Locale.ROOT), r);
    }
    return new Database(name, tables, out);
  }

  /**
   * The rows that may stay together: a row whose foreign key points at a row that is not there is dropped, and
   * so on until nothing changes (a referencing row without its referenced row is not a valid instance).
   */
  Database withForeignKeysHonoured() {
    Map<String, List<List<String>>> current = new LinkedHashMap<>();
    for (Schema.Table t : tables) {
      current.put(t.name().toLowerCase(Locale.ROOT), new ArrayList<>(rows(t)));
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Schema.Table t : tables) {
        List<List<String>> mine = current.get(t.name().toLowerCase(Locale.ROOT));
        for (Schema.ForeignKey fk : t.foreignKeys()) {
          List<List<String>> parent = current.get(fk.referencedTable().toLowerCase(Locale.ROOT));
          Schema.Table parentTable = tables.stream().filter(x -> x.name().equalsIgnoreCase(fk.referencedTable()))
              .findFirst().orElse(null);
          if (parent == null || parentTable == null) {
            continue;
          }
          int[] mineCols = fk.columns().stream().mapToInt(t::columnIndex).toArray();
          int[] parentCols = fk.referencedColumns().stream().mapToInt(parentTable::columnIndex).toArray();
          java.util.Set<List<String>> present = new java.util.HashSet<>();
          for (List<String> p : parent) {
            present.add(project(p, parentCols));
          }
          int before = mine.size();
          mine.removeIf(row -> {
            List<String> key = project(row, mineCols);
            return !key.contains(null) && !present.contains(key);
          });
          changed |= mine.size() != before;
        }
      }
    }
    return new Database(name, tables, current);
  }

  private static List<String> project(List<String> row, int[] cols) {
    List<String> out = new ArrayList<>(cols.length);
    for (int c : cols) {
      out.add(c < 0 ? null : row.get(c));
    }
    return out;
  }

  @Override
  public String toString() {
    return name + " (" + rowCount() + " rows)";
  }
}
