package dev.lakerewrite.core.sql;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.retrieval.NameSignals;
import dev.lakerewrite.retrieval.Names;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Places unqualified columns by the naming convention many schemas follow: each column starts with a short prefix
 * that abbreviates its table's name ({@code l_orderkey} in {@code lineitem}, {@code ps_supplycost} in
 * {@code partsupp}, {@code ss_sold_date_sk} in {@code store_sales}, {@code cd_gender} in
 * {@code customer_demographics}). A query over several tables that writes its columns without qualifiers (TPC-H
 * and TPC-DS do) cannot be placed by syntax alone; the prefixes place them as a reader of the schema would.
 *
 * <p>A prefix (one to four letters before the first underscore) claims a table at the first of three levels where
 * it matches: it equals the initials of the table's words ({@code ss} for {@code store_sales}); the table's name
 * starts with it ({@code inv} for {@code inventory}); it spells the name's letters in order from its first one
 * ({@code ps} for {@code partsupp}). Prefixes claim tables one to one: a prefix with one candidate left takes it,
 * and that table leaves the other prefixes' candidates ({@code ps} takes {@code partsupp}, so {@code p} takes
 * {@code part}), until nothing changes. A prefix that keeps several candidates places nothing. O(p² · t) for p
 * prefixes and t tables.
 */
public final class ColumnPrefixes {
  private static final Pattern PREFIX = Pattern.compile("([a-z]{1,4})_[a-z0-9].*");

  private ColumnPrefixes() {}

  /** The column's prefix ({@code l} for {@code l_orderkey}), lower case, or empty when it has none. */
  public static Optional<String> prefix(String column) {
    Matcher m = PREFIX.matcher(column.toLowerCase(Locale.ROOT));
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /**
   * The column's name without the prefix of its own table ({@code commitdate} for {@code l_commitdate} in
   * {@code lineitem}, {@code sold_date_sk} for {@code ss_sold_date_sk} in {@code store_sales}): the prefix says which
   * table, not what the column holds, and a lake that renamed the column (CMTD) kept only the latter. The column
   * itself when its prefix does not abbreviate the table's name (at any of the three levels of {@link #owners}) or
   * nothing would be left.
   */
  public static String withoutTablePrefix(String column, String table) {
    Optional<String> p = prefix(column);
    if (p.isEmpty() || column.length() <= p.get().length() + 1) {
      return column;
    }
    for (int level = 1; level <= 3; level++) {
      if (matches(p.get(), table, level)) {
        return column.substring(p.get().length() + 1);
      }
    }
    return column;
  }

  /**
   * Which table each prefix names, among {@code tables} (as written), from the prefixes of {@code columns}: only
   * prefixes placed without doubt are in the map. Empty when the columns follow no prefix convention (fewer than
   * two distinct prefixes).
   */
  public static Map<String, String> owners(Collection<String> columns, Collection<String> tables) {
    Set<String> prefixes = new LinkedHashSet<>();
    for (String c : columns) {
      prefix(c).ifPresent(prefixes::add);
    }
    if (prefixes.size() < 2) {
      return Map.of(); // one prefix is no convention: is_active is not a column of an "items" table
    }
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(tables));
    Map<String, List<String>> candidates = new LinkedHashMap<>();
    for (String p : prefixes) {
      List<String> best = List.of();
      for (int level = 1; level <= 3 && best.isEmpty(); level++) {
        List<String> at = new ArrayList<>();
        for (String t : distinct) {
          if (matches(p, t, level)) {
            at.add(t);
          }
        }
        best = at;
      }
      if (!best.isEmpty()) {
        candidates.put(p, new ArrayList<>(best));
      }
    }
    Map<String, String> out = new LinkedHashMap<>();
    boolean changed = true;
    while (changed) {
      changed = false;
      for (Map.Entry<String, List<String>> e : candidates.entrySet()) {
        if (!out.containsKey(e.getKey()) && e.getValue().size() == 1) {
          String table = e.getValue().get(0);
          out.put(e.getKey(), table);
          candidates.forEach((p, c) -> {
            if (!p.equals(e.getKey()) && c.size() > 1) {
              c.remove(table);
            }
          });
          changed = true;
        }
      }
    }
    return out;
  }

  /**
   * The column names written without a qualifier anywhere in a query's syntax tree (DuckDB's JSON), lower case.
   * O(size of the tree).
   */
  public static Set<String> unqualifiedColumns(JsonNode tree) {
    Set<String> out = new LinkedHashSet<>();
    collect(tree, out, 0);
    return out;
  }

  /**
   * The tables a query's syntax tree (DuckDB's JSON) reads anywhere, as written, its CTEs' names aside: the tables a
   * naming convention is read over ({@link #owners}), since a prefix names a table of the schema, not of one block.
   * O(size of the tree).
   */
  public static Set<String> baseTables(JsonNode tree) {
    Set<String> tables = new LinkedHashSet<>();
    Set<String> ctes = new LinkedHashSet<>();
    collectTables(tree, tables, ctes, 0);
    tables.removeIf(t -> ctes.contains(t.toLowerCase(Locale.ROOT)));
    return tables;
  }

  private static void collectTables(JsonNode n, Set<String> tables, Set<String> ctes, int depth) {
    if (n == null || depth > 400) {
      return;
    }
    if (n.isObject()) {
      if (n.path("type").asText("").equals("BASE_TABLE") && n.has("table_name")) {
        tables.add(n.path("table_name").asText());
      }
      for (JsonNode entry : n.path("cte_map").path("map")) {
        ctes.add(entry.path("key").asText("").toLowerCase(Locale.ROOT));
      }
      n.forEach(child -> collectTables(child, tables, ctes, depth + 1));
    } else if (n.isArray()) {
      n.forEach(child -> collectTables(child, tables, ctes, depth + 1));
    }
  }

  private static void collect(JsonNode n, Set<String> out, int depth) {
    if (n == null || depth > 400) {
      return;
    }
    if (n.isObject()) {
      if (n.path("class").asText("").equals("COLUMN_REF") && n.path("column_names").size() == 1) {
        out.add(n.path("column_names").get(0).asText().toLowerCase(Locale.ROOT));
      }
      n.forEach(child -> collect(child, out, depth + 1));
    } else if (n.isArray()) {
      n.forEach(child -> collect(child, out, depth + 1));
    }
  }

  private static boolean matches(String prefix, String table, int level) {
    String[] words = Names.normalize(table).split(" ");
    StringBuilder initials = new StringBuilder();
    StringBuilder joined = new StringBuilder();
    for (String w : words) {
      if (!w.isEmpty()) {
        initials.append(w.charAt(0));
        joined.append(w);
      }
    }
    String name = joined.toString();
    return switch (level) {
      case 1 -> prefix.contentEquals(initials);
      case 2 -> name.startsWith(prefix);
      default -> prefix.length() >= 2 && !name.isEmpty() && name.charAt(0) == prefix.charAt(0)
          && NameSignals.subsequence(prefix, name);
    };
  }
}
