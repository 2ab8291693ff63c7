package dev.lakerewrite.eval;

import dev.lakerewrite.core.rewrite.ActionType;
import dev.lakerewrite.core.rewrite.RewriteTrace;
import dev.lakerewrite.core.rewrite.RewriteEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the harness reads from a rewrite's trace: the actions the loop ran and the checker asked for (thesis table
 * 7.6), the tables that entered the rewriter's view and when (table 7.4), and the user query's output names.
 *
 * <p>Tables enter the view through basic retrieval ({@code retrieved} events), a proposal's used tables
 * ({@code proposal}), and the evidence actions that add tables: SEARCH_TABLE ({@code found}), UNION_SEARCH
 * ({@code partners}) and FIND_JOIN_PATH ({@code paths}, the tables of each join path).
 */
final class TraceFacts {

  private TraceFacts() {}

  /** Executed actions per type (the loop's {@code action} events), in {@link ActionType} order. */
  static Map<String, Integer> executedActions(RewriteTrace trace) {
    Map<ActionType, Integer> counts = new EnumMap<>(ActionType.class);
    for (RewriteEvent e : trace.events("action")) {
      actionType(String.valueOf(e.data().get("action"))).ifPresent(t -> counts.merge(t, 1, Integer::sum));
    }
    return named(counts);
  }

  /** Actions the checker asked for per type (its {@code decision} events), OUTPUT_QUERY included. */
  static Map<String, Integer> requestedActions(RewriteTrace trace) {
    Map<ActionType, Integer> counts = new EnumMap<>(ActionType.class);
    for (RewriteEvent e : trace.events("decision")) {
      if (e.data().get("actions") instanceof List<?> actions) {
        for (Object a : actions) {
          actionType(String.valueOf(a)).ifPresent(t -> counts.merge(t, 1, Integer::sum));
        }
      }
    }
    return named(counts);
  }

  private static Map<String, Integer> named(Map<ActionType, Integer> counts) {
    Map<String, Integer> out = new LinkedHashMap<>();
    counts.forEach((t, n) -> out.put(t.name(), n));
    return Collections.unmodifiableMap(out);
  }

  /** The type of a described action such as {@code SEARCH_VALUE(capital, 'Whangarei')}. */
  static Optional<ActionType> actionType(String described) {
    int paren = described.indexOf('(');
    String name = (paren < 0 ? described : described.substring(0, paren)).strip();
    for (ActionType t : ActionType.values()) {
      if (t.name().equals(name)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /** A table seen by the rewriter, with the iteration of the event that showed it first. */
  record Sighting(String table, int iteration) {}

  /** Tables in the order they entered the rewriter's view, each once. */
  static List<Sighting> sightings(RewriteTrace trace) {
    Map<String, Sighting> seen = new LinkedHashMap<>();
    for (RewriteEvent e : trace.events()) {
      for (String t : tablesOf(e)) {
        seen.putIfAbsent(t.toLowerCase(java.util.Locale.ROOT), new Sighting(t, e.iteration()));
      }
    }
    return List.copyOf(seen.values());
  }

  private static List<String> tablesOf(RewriteEvent e) {
    Map<String, Object> d = e.data();
    List<String> out = new ArrayList<>();
    switch (e.type()) {
      case "retrieved" -> {
        for (Object o : list(d.get("tables"))) {
          if (o instanceof Map<?, ?> m && m.get("table") != null) {
            out.add(String.valueOf(m.get("table")));
          } else if (o instanceof String s) {
            out.add(s);
          }
        }
      }
      case "proposal" -> list(d.get("used_tables")).forEach(o -> out.add(String.valueOf(o)));
      case "action" -> {
        if (!Boolean.TRUE.equals(d.get("ok"))) {
          break;
        }
        Optional<ActionType> type = actionType(String.valueOf(d.get("action")));
        if (type.isEmpty()) {
          break;
        }
        switch (type.get()) {
          case SEARCH_TABLE -> list(d.get("found")).forEach(o -> out.add(withoutScore(String.valueOf(o))));
          case UNION_SEARCH -> list(d.get("partners")).forEach(o -> out.add(withoutScore(String.valueOf(o))));
          case FIND_JOIN_PATH -> list(d.get("paths")).forEach(o -> out.addAll(joinPathTables(String.valueOf(o))));
          default -> { }
        }
      }
      default -> { }
    }
    return out;
  }

  private static List<?> list(Object o) {
    return o instanceof List<?> l ? l : List.of();
  }

  /** {@code "capital_of (1.1)"} → {@code capital_of}. */
  static String withoutScore(String entry) {
    String s = entry.strip();
    if (s.endsWith(")")) {
      int open = s.lastIndexOf(" (");
      if (open > 0) {
        s = s.substring(0, open);
      }
    }
    return s;
  }

  /** The tables of a join path written as {@code a JOIN b ON a.x = b.y JOIN "c" ON ...}. */
  static List<String> joinPathTables(String sqlJoin) {
    Set<String> out = new LinkedHashSet<>();
    String[] parts = sqlJoin.split(" JOIN ");
    for (int i = 0; i < parts.length; i++) {
      String head = parts[i];
      if (i > 0) {
        int on = head.indexOf(" ON ");
        head = on < 0 ? head : head.substring(0, on);
      }
      out.add(unquote(head.strip()));
    }
    return List.copyOf(out);
  }

  static String unquote(String identifier) {
    if (identifier.length() >= 2 && identifier.startsWith("\"") && identifier.endsWith("\"")) {
      return identifier.substring(1, identifier.length() - 1).replace("\"\"", "\"");
    }
    return identifier;
  }

  /** The output column names of the user query as core analysed them ({@code analysis} event), if any. */
  static List<String> assumedOutputs(RewriteTrace trace) {
    for (RewriteEvent e : trace.events("analysis")) {
      List<String> out = new ArrayList<>();
      list(e.data().get("outputs")).forEach(o -> out.add(String.valueOf(o)));
      return out;
    }
    return List.of();
  }
}
