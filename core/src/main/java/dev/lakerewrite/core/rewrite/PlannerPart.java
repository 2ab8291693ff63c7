package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.sql.QueryAnalysis;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.List;
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

  /** Adds the join to the path's last table for an assumed table, unless the table already joins it. */
  static void joinOnce(List<OfflinePlanner.JoinRoute> extraJoins, String assumed, Evidence.JoinPath path) {
    if (extraJoins.stream().noneMatch(j -> j.fromAssumed().equalsIgnoreCase(assumed) && j.toLake().equals(path.to()))) {
      extraJoins.add(new OfflinePlanner.JoinRoute(assumed, path.to(), path));
    }
  }

  /** Asks FIND_JOIN_PATH for two lake tables unless the scratchpad already has a path between them. */
  void askForJoinPath(String from, String to, List<Action> wanted) {
    if (joinPath(from, to).isEmpty() && state.enabled(ActionType.FIND_JOIN_PATH) && state.config().joinGraph()) {
      wanted.add(new Action.FindJoinPath(from, to));
    }
  }
}
