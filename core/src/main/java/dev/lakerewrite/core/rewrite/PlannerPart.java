package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.sql.QueryAnalysis;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A part of the {@link OfflinePlanner} that repairs one kind of error, over the plan's shared {@link PlanningContext}.
 */
abstract class PlannerPart {
  final PlanningContext context;
  final RewriteState state;
  final LakeTools lake;
  final QueryAnalysis analysis;
  final Scratchpad pad;

  PlannerPart(PlanningContext context) {
    this.context = context;
    this.state = context.state;
    this.lake = context.lake;
    this.analysis = context.analysis;
    this.pad = context.pad;
  }

  boolean isKey(String assumedTable, String column) {
    return context.isKey(assumedTable, column);
  }

  TypeFamily family(String table, String column) {
    return context.family(table, column);
  }

  @Nullable String entityColumn(String table) {
    return context.entityColumn(table);
  }

  Optional<Evidence.JoinPath> joinPath(String from, String to) {
    return context.joinPath(from, to);
  }
}
