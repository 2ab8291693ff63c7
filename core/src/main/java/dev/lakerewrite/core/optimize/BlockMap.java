package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.Trees;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The Block Map of the optimisation prompt design: a clause-level view of the query per CTE, main query and
 * set-operation branch, followed by the references between blocks (which clause uses which CTE), repeated scans
 * of the same base table, and filter gaps (a table scanned in one block with literal filters and in another
 * without). Built from DuckDB's syntax tree; linear in its size plus one render per clause.
 */
final class BlockMap {
  private static final int SUMMARY_WIDTH = 90;

  /** One row of the map. */
  record Entry(String block, String clause, String text) {}

  /** A table scanned in several places. */
  record RepeatedScan(String table, List<String> places) {}

  private final List<Entry> entries;
  private final Map<String, Set<String>> refs;
  private final List<RepeatedScan> repeatedScans;
  private final List<String> filterGaps;
  private final Map<String, Integer> cteReferenceCounts;

  private BlockMap(List<Entry> entries, Map<String, Set<String>> refs, List<RepeatedScan> repeatedScans,
      List<String> filterGaps, Map<String, Integer> cteReferenceCounts) {
    this.entries = entries;
    this.refs = refs;
    this.repeatedScans = repeatedScans;
    this.filterGaps = filterGaps;
    this.cteReferenceCounts = cteReferenceCounts;
  }

  static BlockMap of(Trees trees, String sql) {
    QueryBlocks blocks = new QueryBlocks(trees, trees.statement(sql));
    Set<String> cteNames = new LinkedHashSet<>(blocks.cteNames());
    List<Entry> entries = new ArrayList<>();
    Map<String, Set<String>> refs = new LinkedHashMap<>();
    Map<String, List<String>> scans = new LinkedHashMap<>();
    Map<String, Integer> cteRefs = new LinkedHashMap<>();
    cteNames.forEach(c -> cteRefs.put(c, 0));
    Map<String, Map<String, Set<String>>> filtersByTableAndBlock = new LinkedHashMap<>();
    for (QueryBlocks.Block b : blocks.blocks()) {
      for (String clause : QueryBlocks.CLAUSES) {
        String text = blocks.clause(b, clause);
        if (text.isEmpty()) {
          continue;
        }
        entries.add(new Entry(b.id(), clause, text));
        JsonNode subtree = clauseNode(b.node(), clause);
        for (String table : Trees.baseTables(subtree)) {
          String place = b.id() + "." + clause;
          if (cteNames.contains(table)) {
            refs.computeIfAbsent(place, k -> new LinkedHashSet<>()).add(table);
            cteRefs.merge(table, 1, Integer::sum);
          } else {
            scans.computeIfAbsent(table, k -> new ArrayList<>()).add(place);
          }
        }
      }
      // Literal filters of this block, keyed by the tables it scans in FROM (for the filter-gap check).
      List<String> literalFilters = literalFilters(trees, b.node().get("where_clause"));
      for (String table : Trees.baseTables(b.node().get("from_table"))) {
        if (!cteNames.contains(table)) {
          filtersByTableAndBlock.computeIfAbsent(table, k -> new LinkedHashMap<>())
              .put(b.id(), new LinkedHashSet<>(literalFilters));
        }
      }
    }
    List<RepeatedScan> repeated = new ArrayList<>();
    scans.forEach((table, places) -> {
      if (places.size() > 1) {
        repeated.add(new RepeatedScan(table, List.copyOf(places)));
      }
    });
    List<String> gaps = new ArrayList<>();
    filtersByTableAndBlock.forEach((table, byBlock) -> {
      if (byBlock.size() < 2) {
        return;
      }
      for (Map.Entry<String, Set<String>> without : byBlock.entrySet()) {
        for (Map.Entry<String, Set<String>> with : byBlock.entrySet()) {
          if (without.getKey().equals(with.getKey()) || with.getValue().isEmpty()) {
            continue;
          }
          Set<String> missing = new LinkedHashSet<>(with.getValue());
          missing.removeAll(without.getValue());
          if (!missing.isEmpty() && without.getValue().isEmpty()) {
            gaps.add(without.getKey() + ".from scans " + table + " WITHOUT literal filters, but "
                + with.getKey() + " filters it on " + String.join(" AND ", missing)
                + " (intentional? all-time vs period comparisons are)");
          }
        }
      }
    });
    return new BlockMap(List.copyOf(entries), refs, List.copyOf(repeated), List.copyOf(gaps), cteRefs);
  }

  private static JsonNode clauseNode(ObjectNode node, String clause) {
    return switch (clause) {
      case "select" -> node.get("select_list");
      case "from" -> node.get("from_table");
      case "where" -> node.get("where_clause");
      case "group_by" -> node.get("group_expressions");
      case "having" -> node.get("having");
      case "qualify" -> node.get("qualify");
      case "order_by" -> Trees.orderModifier(node);
      default -> null;
    };
  }

  /** Conjuncts that compare a column with constants (rendered), outside subqueries. */
  private static List<String> literalFilters(Trees trees, JsonNode where) {
    List<String> out = new ArrayList<>();
    for (JsonNode c : Trees.conjuncts(where)) {
      if (Trees.hasSubquery(c)) {
        continue;
      }
      List<List<String>> cols = Trees.columnRefs(c);
      boolean[] constant = {false};
      Trees.visitShallow(c, n -> {
        if ("CONSTANT".equals(n.path("class").asText())) {
          constant[0] = true;
        }
      });
      if (!cols.isEmpty() && constant[0] && cols.stream().map(p -> p.get(p.size() - 1)).distinct().count() == 1) {
        out.add(trees.expression(c));
      }
    }
    return out;
  }

  List<Entry> entries() {
    return entries;
  }

  List<RepeatedScan> repeatedScans() {
    return repeatedScans;
  }

  List<String> filterGaps() {
    return filterGaps;
  }

  /** How many clauses reference each CTE (lower-cased names). */
  Map<String, Integer> cteReferenceCounts() {
    return cteReferenceCounts;
  }

  /** The map as text for prompts: a table of blocks and clauses, then refs, repeated scans and filter gaps. */
  String format() {
    StringBuilder sb = new StringBuilder();
    int blockWidth = Math.max(12, entries.stream().mapToInt(e -> e.block().length()).max().orElse(10));
    sb.append(pad("BLOCK", blockWidth)).append(" | ").append(pad("CLAUSE", 9)).append(" | CONTENT\n");
    String last = null;
    for (Entry e : entries) {
      if (last != null && !last.equals(e.block())) {
        sb.append("-".repeat(blockWidth + 12 + SUMMARY_WIDTH)).append('\n');
      }
      sb.append(pad(e.block().equals(last) ? "" : e.block(), blockWidth)).append(" | ")
          .append(pad("." + e.clause(), 9)).append(" | ").append(summary(e.text())).append('\n');
      last = e.block();
    }
    sb.append("\nRefs:\n");
    if (refs.isEmpty()) {
      sb.append("  (no CTE references)\n");
    }
    refs.forEach((place, ctes) -> sb.append("  ").append(place).append(" -> ").append(String.join(", ", ctes))
        .append('\n'));
    sb.append("\nRepeated scans:\n");
    if (repeatedScans.isEmpty()) {
      sb.append("  (none)\n");
    }
    for (RepeatedScan r : repeatedScans) {
      sb.append("  ").append(r.table()).append(": ").append(r.places().size()).append("x (")
          .append(String.join(", ", r.places())).append(")\n");
    }
    sb.append("\nFilter gaps:\n");
    if (filterGaps.isEmpty()) {
      sb.append("  (none)\n");
    }
    for (String g : filterGaps) {
      sb.append("  ! ").append(g).append('\n');
    }
    return sb.toString();
  }

  private static String summary(String text) {
    String oneLine = text.replaceAll("\\s+", " ");
    return oneLine.length() <= SUMMARY_WIDTH ? oneLine : oneLine.substring(0, SUMMARY_WIDTH - 3) + "...";
  }

  private static String pad(String s, int width) {
    return s.length() >= width ? s : s + " ".repeat(width - s.length());
  }

  @Override
  public String toString() {
    return format();
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
