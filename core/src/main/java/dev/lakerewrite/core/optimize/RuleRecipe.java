package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A recipe carried out by a rule of the {@link RuleProposer}: either a rule applied to each SELECT block of the
 * query (at every site separately, then at all sites at once), or a rule over the whole statement.
 */
final class RuleRecipe implements Recipe {
  /** Rewrites one block in place; returns what it did, or null where it does not apply. */
  interface NodeRule {
    String apply(RuleProposer rules, ObjectNode node, RuleProposer.Context ctx);
  }

  /** Produces the candidates for a whole statement. */
  interface StatementRule {
    List<RuleProposer.Proposal> apply(RuleProposer rules, String sql, String id);
  }

  private final KnowledgeBase.Recipe knowledge;
  private final Set<PlanSymptom> targets;
  private final StatementRule rule;

  private RuleRecipe(StatementRule rule, Set<PlanSymptom> targets, KnowledgeBase.Recipe knowledge) {
    this.rule = Objects.requireNonNull(rule, "rule");
    this.targets = Set.copyOf(targets);
    this.knowledge = Objects.requireNonNull(knowledge, "knowledge");
  }

  static RuleRecipe node(NodeRule rule, Set<PlanSymptom> targets, KnowledgeBase.Recipe knowledge) {
    return new RuleRecipe((rules, sql, id) -> rules.applyAtEverySite(sql, id, rule), targets, knowledge);
  }

  static RuleRecipe statement(StatementRule rule, Set<PlanSymptom> targets, KnowledgeBase.Recipe knowledge) {
    return new RuleRecipe(rule, targets, knowledge);
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
    return targets;
  }

  @Override
  public List<RuleProposer.Proposal> candidates(String sql, RuleProposer rules) {
    return rule.apply(rules, sql, id());
  }

  @Override
  public String toString() {
    return id();
  }
}
