package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.match.ColumnMapping;
import java.util.List;
import java.util.Objects;

/**
 * The rewriter's answer (thesis §4.1): a rewritten query, a short rationale, and the lake tables it uses.
 *
 * @param sql the rewritten query
 * @param reason one or two sentences on why
 * @param usedTables the lake tables the query reads (their previews join the scratchpad)
 * @param mapping the column mapping it applies, when the agent knows it ({@link ColumnMapping#NONE} otherwise)
 */
record Proposal(String sql, String reason, List<String> usedTables, ColumnMapping mapping) {
  public Proposal {
    Objects.requireNonNull(sql, "sql");
    reason = reason == null ? "" : reason;
    usedTables = usedTables == null ? List.of() : List.copyOf(usedTables);
    mapping = mapping == null ? ColumnMapping.NONE : mapping;
  }

  /** A proposal without a known mapping. */
  public Proposal(String sql, String reason, List<String> usedTables) {
    this(sql, reason, usedTables, ColumnMapping.NONE);
  }
}
