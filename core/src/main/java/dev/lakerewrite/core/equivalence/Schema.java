package dev.lakerewrite.core.equivalence;

import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The schema two queries are checked against: base tables with their column types, NOT NULL, primary keys,
 * UNIQUE sets, foreign keys and CHECK expressions, and views with their defining query. Immutable; names are
 * matched case-insensitively, as DuckDB and PostgreSQL match unquoted names.
 */
final class Schema {
  /**
   * A column: its type as the engine names it, whether it allows NULL, and the DuckDB type its values are
   * generated and normalised in (the same for DuckDB; e.g. {@code DECIMAL(15,2)} for PostgreSQL's
   * {@code numeric(15,2)}).
   */
  record Column(String name, String type, boolean nullable, String valueType) {
    Column(String name, String type, boolean nullable) {
      this(name, type, nullable, type);
    }
  }

  record ForeignKey(List<String> columns, String referencedTable, List<String> referencedColumns) {
    ForeignKey {
      columns = List.copyOf(columns);
      referencedColumns = List.copyOf(referencedColumns);
    }
  }

  record Table(String name, List<Column> columns, List<String> primaryKey, List<List<String>> uniques,
      List<ForeignKey> foreignKeys, List<String> checks) {
    Table {
      columns = List.copyOf(columns);
      primaryKey = List.copyOf(primaryKey);
      uniques = uniques.stream().map(List::copyOf).toList();
      foreignKeys = List.copyOf(foreignKeys);
      checks = List.copyOf(checks);
    }

    /** Whether a column belongs to the primary key or a unique key (case-insensitive). */
    boolean inKey(String column) {
      return keys().stream().flatMap(List::stream).anyMatch(c -> c.equalsIgnoreCase(column));
    }

    Optional<Column> column(String name) {
      for (Column c : columns) {
        if (c.name().equalsIgnoreCase(name)) {
          return Optional.of(c);
        }
      }
      return Optional.empty();
    }

    int columnIndex(String name) {
      for (int i = 0; i < columns.size(); i++) {
        if (columns.get(i).name().equalsIgnoreCase(name)) {
          return i;
        }
      }
      return -1;
    }

    /** The primary key and every UNIQUE set: column sets whose non-NULL values no two rows share. */
    List<List<String>> keys() {
      List<List<String>> out = new ArrayList<>();
      if (!primaryKey.isEmpty()) {
        out.add(primaryKey);
      }
      out.addAll(uniques);
      return out;
    }

    /** {@code CREATE TABLE}, with foreign keys only when asked (instances enforce them while generating). */
    String createStatement(boolean withForeignKeys) {
      StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(Sql.identifier(name)).append(" (");
      for (int i = 0; i < columns.size(); i++) {
        Column col = columns.get(i);
        ddl.append(i == 0 ? "\n  " : ",\n  ").append(Sql.identifier(col.name())).append(' ').append(col.type());
        if (!col.nullable()) {
          ddl.append(" NOT NULL");
        }
      }
      if (!primaryKey.isEmpty()) {
        ddl.append(",\n  PRIMARY KEY (").append(list(primaryKey)).append(')');
      }
      for (List<String> u : uniques) {
        ddl.append(",\n  UNIQUE (").append(list(u)).append(')');
      }
      for (String check : checks) {
        ddl.append(",\n  CHECK (").append(check).append(')');
      }
      if (withForeignKeys) {
        for (ForeignKey fk : foreignKeys) {
          ddl.append(",\n  FOREIGN KEY (").append(list(fk.columns())).append(") REFERENCES ")
              .append(Sql.identifier(fk.referencedTable())).append(" (").append(list(fk.referencedColumns()))
              .append(')');
        }
      }
      return ddl.append("\n)").toString();
    }

    private static String list(List<String> names) {
      return names.stream().map(Sql::identifier).collect(Collectors.joining(", "));
    }
  }

  /**
   * A view: its name, the statement that creates it and the query inside (as the engine printed them).
   */
  record View(String name, String createStatement, String query) {}

  private final Map<String, Table> tables;
  private final Map<String, View> views;

  Schema(Collection<Table> tables, Collection<View> views) {
    Map<String, Table> t = new LinkedHashMap<>();
    for (Table table : tables) {
      t.put(table.name().toLowerCase(Locale.ROOT), table);
    }
    Map<String, View> v = new LinkedHashMap<>();
    for (View view : views) {
      v.put(view.name().toLowerCase(Locale.ROOT), view);
    }
    this.tables = java.util.Collections.unmodifiableMap(t);
    this.views = java.util.Collections.unmodifiableMap(v);
  }

  Optional<Table> table(String name) {
    return Optional.ofNullable(tables.get(name.toLowerCase(Locale.ROOT)));
  }

  Optional<View> view(String name) {
    return Optional.ofNullable(views.get(name.toLowerCase(Locale.ROOT)));
  }

  Collection<Table> tables() {
    return tables.values();
  }

  Collection<View> views() {
    return views.values();
  }

  /** All relation names (tables and views), for "did you mean" messages. */
  List<String> relationNames() {
    List<String> out = new ArrayList<>();
    tables.values().forEach(t -> out.add(t.name()));
    views.values().forEach(v -> out.add(v.name()));
    return out;
  }

  /**
   * These tables and, transitively, every table they reference through a foreign key (rows of a referencing
   * table need their referenced rows), in an order where referenced tables come first; unknown names are left
   * out. Cycles of foreign keys keep the order they were found in.
   */
  List<Table> closure(Collection<String> names) {
    Set<String> seen = new LinkedHashSet<>();
    List<Table> ordered = new ArrayList<>();
    for (String n : names) {
      visit(n.toLowerCase(Locale.ROOT), seen, new LinkedHashSet<>(), ordered);
    }
    return ordered;
  }

  private void visit(String name, Set<String> seen, Set<String> path, List<Table> ordered) {
    Table t = tables.get(name);
    if (t == null || seen.contains(name) || !path.add(name)) {
      return;
    }
    for (ForeignKey fk : t.foreignKeys()) {
      visit(fk.referencedTable().toLowerCase(Locale.ROOT), seen, path, ordered);
    }
    path.remove(name);
    if (seen.add(name)) {
      ordered.add(t);
    }
  }
}
