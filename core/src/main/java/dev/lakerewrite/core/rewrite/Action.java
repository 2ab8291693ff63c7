package dev.lakerewrite.core.rewrite;

import java.util.List;
import java.util.Objects;

/**
 * A data-lake action the self-checker can choose (thesis §3.3). Actions gather evidence into the scratchpad
 * (SEARCH_TABLE, SEARCH_VALUE, FIND_JOIN_PATH, UNION_SEARCH, BUILD_CTE), prune it (EVICT_TABLE) or end the loop
 * (OUTPUT_QUERY).
 */
sealed interface Action {

  ActionType type();

  /** A one-line rendering for traces and prompts: {@code SEARCH_VALUE(capital, 'Whangarei')}. */
  String describe();

  /** Search tables like a schema: a domain (the assumed table) and the columns it should have. */
  record SearchTable(String domain, List<String> columns) implements Action {
    public SearchTable {
      Objects.requireNonNull(domain, "domain");
      columns = List.copyOf(columns);
    }

    @Override
    public ActionType type() {
      return ActionType.SEARCH_TABLE;
    }

    @Override
    public String describe() {
      return "SEARCH_TABLE(" + domain + ", [" + String.join(", ", columns) + "])";
    }
  }

  /** Search a table's cells for a value or its lake spelling. */
  record SearchValue(String table, String value) implements Action {
    public SearchValue {
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public ActionType type() {
      return ActionType.SEARCH_VALUE;
    }

    @Override
    public String describe() {
      return "SEARCH_VALUE(" + table + ", '" + value + "')";
    }
  }

  /** Find how two tables join, through the join graph, keys ranked by executed fan-out. */
  record FindJoinPath(String tableA, String tableB) implements Action {
    public FindJoinPath {
      Objects.requireNonNull(tableA, "tableA");
      Objects.requireNonNull(tableB, "tableB");
    }

    @Override
    public ActionType type() {
      return ActionType.FIND_JOIN_PATH;
    }

    @Override
    public String describe() {
      return "FIND_JOIN_PATH(" + tableA + ", " + tableB + ")";
    }
  }

  /** Find tables that can be UNIONed with a base table, with column mappings. */
  record UnionSearch(String baseTable) implements Action {
    public UnionSearch {
      Objects.requireNonNull(baseTable, "baseTable");
    }

    @Override
    public ActionType type() {
      return ActionType.UNION_SEARCH;
    }

    @Override
    public String describe() {
      return "UNION_SEARCH(" + baseTable + ")";
    }
  }

  /** Build a cleaned CTE of a table's noisy columns with cleaning UDFs. */
  record BuildCte(String table, List<String> columns, String goal) implements Action {
    public BuildCte {
      Objects.requireNonNull(table, "table");
      columns = List.copyOf(columns);
      Objects.requireNonNull(goal, "goal");
    }

    @Override
    public ActionType type() {
      return ActionType.BUILD_CTE;
    }

    @Override
    public String describe() {
      return "BUILD_CTE(" + table + ", [" + String.join(", ", columns) + "], '" + goal + "')";
    }
  }

  /** Remove a table from the scratchpad for good (basic retrieval never brings it back). */
  record EvictTable(String table) implements Action {
    public EvictTable {
      Objects.requireNonNull(table, "table");
    }

    @Override
    public ActionType type() {
      return ActionType.EVICT_TABLE;
    }

    @Override
    public String describe() {
      return "EVICT_TABLE(" + table + ")";
    }
  }

  /** Stop and return a candidate from the history (by its index). */
  record OutputQuery(int candidate) implements Action {
    @Override
    public ActionType type() {
      return ActionType.OUTPUT_QUERY;
    }

    @Override
    public String describe() {
      return "OUTPUT_QUERY(" + candidate + ")";
    }
  }
}
