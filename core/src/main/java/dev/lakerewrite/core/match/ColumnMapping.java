package dev.lakerewrite.core.match;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The mapping a rewrite chose from the schema the user assumes to the lake, with its confidence and warnings.
 *
 * @param columns assumed {@code table.column} (lower case) → the lake {@code table.column}s read for it
 * @param columnConfidence assumed {@code table.column} (lower case) → the calibrated probability that its lake
 *     column is right ({@link MappingConfidence})
 * @param confidence the mapping's confidence: its least confident column's (1 when it maps no column)
 * @param warnings what the mapping is unsure of or could not find
 */
public record ColumnMapping(Map<String, Set<String>> columns, Map<String, Double> columnConfidence,
    double confidence, List<String> warnings) {

  /** No mapping (an LLM agent or a baseline wrote the SQL). */
  public static final ColumnMapping NONE = new ColumnMapping(Map.of(), Map.of(), 0, List.of());

  public ColumnMapping {
    Map<String, Set<String>> c = new LinkedHashMap<>();
    Objects.requireNonNull(columns, "columns").forEach((k, v) -> c.put(k, Collections.unmodifiableSet(
        new LinkedHashSet<>(v))));
    columns = Collections.unmodifiableMap(c);
    columnConfidence = Collections.unmodifiableMap(new LinkedHashMap<>(columnConfidence));
    warnings = List.copyOf(warnings);
  }

  public boolean isEmpty() {
    return columns.isEmpty();
  }
}
