package dev.lakerewrite.core.optimize;

import java.util.List;
import java.util.Set;

/** Knowledge for the language model only (a pitfall to avoid, what the engine already does well): no rule. */
final class AdviceRecipe implements Recipe {
  private final KnowledgeBase.Recipe knowledge;

  AdviceRecipe(KnowledgeBase.Recipe knowledge) {
    this.knowledge = knowledge;
  }

  @Override
  public String id() {
    return knowledge.id();
  }

  @Override
  public KnowledgeBase.Recipe knowledge() {
    return knowledge;
  }

  @Override
  public Set<PlanSymptom> targets() {
    return Set.of();
  }

  @Override
  public boolean adviceOnly() {
    return true;
  }

  @Override
  public List<RuleProposer.Proposal> candidates(String sql, RuleProposer rules) {
    return List.of();
  }
}
