package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.sql.QueryAnalysis;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the agents see in one iteration: the user query (and its analysis, when it parses), the rewrite history,
 * the scratchpad, the tables basic retrieval brought this iteration, the enabled actions and the lake. A view:
 * only the loop changes the state.
 */
final class RewriteState {
  private final String userQuery;
  private final Optional<QueryAnalysis> analysis;
  private final int iteration;
  private final int maxIterations;
  private final List<RewriteCandidate> history;
  private final Scratchpad scratchpad;
  private final List<Evidence.TablePreview> retrieved;
  private final Set<ActionType> enabledActions;
  private final LakeTools lake;
  private final RewriterConfig config;
  private final List<Action> performed;

  RewriteState(String userQuery, Optional<QueryAnalysis> analysis, int iteration, int maxIterations,
      List<RewriteCandidate> history, Scratchpad scratchpad, List<Evidence.TablePreview> retrieved,
      Set<ActionType> enabledActions, LakeTools lake, RewriterConfig config, List<Action> performed) {
    this.userQuery = Objects.requireNonNull(userQuery);
    this.analysis = analysis;
    this.iteration = iteration;
    this.maxIterations = maxIterations;
    this.history = List.copyOf(history);
    this.scratchpad = scratchpad;
    this.retrieved = List.copyOf(retrieved);
    this.enabledActions = Set.copyOf(enabledActions);
    this.lake = lake;
    this.config = config;
    this.performed = List.copyOf(performed);
  }

  /** Every action run so far, in order (including those that found nothing). */
  public List<Action> performedActions() {
    return performed;
  }

  public String userQuery() {
    return userQuery;
  }

  /** The user query's analysis; empty when it does not parse as a query. */
  public Optional<QueryAnalysis> analysis() {
    return analysis;
  }

  /** The current iteration, 1-based. */
  public int iteration() {
    return iteration;
  }

  public int maxIterations() {
    return maxIterations;
  }

  public boolean lastIteration() {
    return iteration >= maxIterations;
  }

  /** Candidates so far, by index. */
  public List<RewriteCandidate> history() {
    return history;
  }

  public Optional<RewriteCandidate> latest() {
    return history.isEmpty() ? Optional.empty() : Optional.of(history.get(history.size() - 1));
  }

  public Scratchpad scratchpad() {
    return scratchpad;
  }

  /** Tables basic retrieval ranked highest this iteration (not yet in the scratchpad, never evicted ones). */
  public List<Evidence.TablePreview> retrieved() {
    return retrieved;
  }

  public Set<ActionType> enabledActions() {
    return enabledActions;
  }

  public boolean enabled(ActionType action) {
    return enabledActions.contains(action);
  }

  /** The lake: catalog, previews, similarity of names (the offline agents' reasoning aids). */
  public LakeTools lake() {
    return lake;
  }

  public RewriterConfig config() {
    return config;
  }
}
