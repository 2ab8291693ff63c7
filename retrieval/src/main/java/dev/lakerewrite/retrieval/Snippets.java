package dev.lakerewrite.retrieval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The short texts that are embedded to compare tables (thesis §5.1.1 and §5.3). Every name is first
 * {@linkplain Names#normalize normalised}, so {@code Gini_Index}, {@code giniIndex} and {@code Gini Index} give
 * the same snippet.
 *
 * <ul>
 *   <li>{@link #table}: a lake table, {@code "table column1 column2 ..."}.
 *   <li>{@link #query}: a table as a query assumes it, {@code "table col1 col2 col1 col2"}: the referenced columns
 *       repeated {@value #COLUMN_REPEATS} times, because they say more about the table sought than its
 *       (often invented) name.
 *   <li>{@link #searchTable}: SEARCH_TABLE's request, {@code "col1 col1 col2 col2 domain"}.
 * </ul>
 *
 * <p>All run in O(total length of the names).
 */
public final class Snippets {
  /** How often query snippets repeat each referenced column. */
  public static final int COLUMN_REPEATS = 2;

  private Snippets() {}

  /** The schema snippet of a lake table: its name, then its columns in order. */
  public static String table(String table, List<String> columns) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(columns, "columns");
    List<String> parts = new ArrayList<>(columns.size() + 1);
    parts.add(Names.normalize(table));
    parts.addAll(normalizeAll(columns));
    return join(parts);
  }

  /**
   * The snippet of a table a query refers to: its assumed name (may be null or blank for columns of no known
   * table) followed by the referenced columns, repeated {@value #COLUMN_REPEATS} times.
   */
  public static String query(String assumedTable, List<String> columns) {
    Objects.requireNonNull(columns, "columns");
    List<String> cols = normalizeAll(columns);
    List<String> parts = new ArrayList<>();
    if (assumedTable != null) {
      parts.add(Names.normalize(assumedTable));
    }
    for (int r = 0; r < COLUMN_REPEATS; r++) {
      parts.addAll(cols);
    }
    return join(parts);
  }

  /** SEARCH_TABLE's snippet: each column twice, then the domain (may be null or blank). */
  public static String searchTable(String domain, List<String> columns) {
    Objects.requireNonNull(columns, "columns");
    List<String> parts = new ArrayList<>();
    for (String c : normalizeAll(columns)) {
      parts.addAll(Collections.nCopies(2, c));
    }
    if (domain != null) {
      parts.add(Names.normalize(domain));
    }
    return join(parts);
  }

  private static List<String> normalizeAll(List<String> names) {
    List<String> out = new ArrayList<>(names.size());
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i);
      if (n == null) {
        throw new IllegalArgumentException("column name at position " + i + " is null");
      }
      out.add(Names.normalize(n));
    }
    return out;
  }

  private static String join(List<String> parts) {
    StringBuilder sb = new StringBuilder();
    for (String p : parts) {
      if (!p.isEmpty()) {
        if (sb.length() > 0) {
          sb.append(' ');
        }
        sb.append(p);
      }
    }
    return sb.toString();
  }
}
