package dev.lakerewrite.core.rewrite;

/** The kinds of data-lake actions (thesis §3.3); ablations switch them off. */
public enum ActionType {
  SEARCH_TABLE,
  SEARCH_VALUE,
  FIND_JOIN_PATH,
  UNION_SEARCH,
  BUILD_CTE,
  EVICT_TABLE,
  OUTPUT_QUERY
}
