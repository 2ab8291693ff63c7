package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.lakerewrite.core.equivalence.EquivalenceEvidence;
import dev.lakerewrite.core.llm.JsonContract;
import dev.lakerewrite.core.llm.LlmFailure;
import dev.lakerewrite.core.llm.LlmGateway;
import dev.lakerewrite.core.llm.Role;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The LLM proposer, in the prompt design's two modes. <b>One-shot</b>: one prompt with the query, the execution
 * hint (E3-Rewrite), the Block Map, the schema, relevant recipes (QUITE's knowledge base, BM25) and
 * demonstrations (E3's hybrid retrieval); one answer, verified. <b>Agentic</b>: QUITE's state machine —
 * REASONING (ask), VERIFICATION (apply the edit operations, validate, executable, equivalent), DECISION (time it;
 * stop at the target speedup, else feed back the failure: the differing rows, the regression, the negligible
 * gain, the error) and TERMINATION (target reached, iterations or budget exhausted). Like QUITE, recipes enter
 * the prompt only after the first round; a memory buffer of earlier attempts replaces the full chat history.
 */
final class LlmProposer {
  static final String SYSTEM = String.join("\n",
      "You are a database performance engineer. You rewrite a DuckDB SQL query into an EQUIVALENT query that runs",
      "FASTER on DuckDB. Equivalent means: the same rows (as a multiset, in the same order when the query has ORDER",
      "BY, the same LIMIT) on EVERY database instance of the schema, not only on today's data.",
      "",
      "Algorithm:",
      "1. ANALYZE: read the execution hint (bottlenecks are marked), the Block Map (repeated scans, filter gaps,",
      "   which clause references which CTE).",
      "2. IDENTIFY OPPORTUNITIES: scan consolidation (same table in several blocks -> one scan with CASE WHEN or",
      "   window aggregates), correlated aggregate subqueries (pre-aggregate once and join), filters not pushed into",
      "   CTEs, aggregation after a fan-out join (aggregate first), OR across tables (derive per-table filters), LEFT",
      "   JOIN made inner by WHERE, CTE materialisation (WITH x AS MATERIALIZED / NOT MATERIALIZED).",
      "3. VERIFY before answering: if you remove a join, add WHERE fk IS NOT NULL; a filter that looks missing is",
      "   often intentional (all-time vs period); never change GROUP BY columns; keep ORDER BY and LIMIT; NOT IN and",
      "   NOT EXISTS differ when NULLs occur; COUNT over an empty group is 0, not NULL.",
      "Principle: reduce rows as early as possible. Prefer conservative patches to aggressive restructuring. DuckDB",
      "already reorders joins, pushes filters into inlined subqueries and decorrelates most subqueries: restating",
      "that gains nothing.",
      "",
      "Answer with exactly one JSON object, either edit operations on the ORIGINAL query:",
      "{\"operations\": [",
      "  {\"op\": \"add_cte\", \"name\": \"new_cte\", \"after\": \"existing_cte (optional)\", \"sql\": \"SELECT ...\",",
      "   \"materialized\": \"MATERIALIZED | NOT MATERIALIZED (optional)\"},",
      "  {\"op\": \"delete_cte\", \"name\": \"old_cte\"},",
      "  {\"op\": \"replace_cte\", \"name\": \"cte\", \"sql\": \"SELECT ...\"},",
      "  {\"op\": \"replace_clause\", \"target\": \"main_query.where\", \"sql\": \"new clause text without the keyword\"},",
      "  {\"op\": \"patch\", \"target\": \"cte_name.where\", \"patches\": [{\"search\": \"old text\", \"replace\": \"new text\"}]}",
      " ],",
      " \"semantic_warnings\": [], \"explanation\": \"summary\"}",
      "Targets are block.clause with block = a CTE name, main_query, or main_query.union[N] and clause one of",
      "select, from, where, group_by, having, qualify, order_by.",
      "Or the whole rewritten query: {\"sql\": \"WITH ... SELECT ...\", \"semantic_warnings\": [], \"explanation\": \"...\"}",
      "Only a single SELECT/WITH query is ever executed; anything else is rejected.");

  /** The model's answer. */
  record Answer(List<EditOperations.Operation> operations, @JsonAlias({"query", "rewritten_sql"}) String sql,
      @JsonProperty("semantic_warnings") List<String> semanticWarnings, String explanation) {}

  static final JsonContract<Answer> CONTRACT = new JsonContract<>("rewrite", Answer.class, a -> {
    boolean hasOps = a.operations() != null && !a.operations().isEmpty();
    boolean hasSql = a.sql() != null && !a.sql().isBlank();
    if (!hasOps && !hasSql) {
      return List.of("give either a non-empty \"operations\" list or a \"sql\" string");
    }
    if (hasOps && hasSql) {
      return List.of("give either \"operations\" or \"sql\", not both");
    }
    List<String> problems = new ArrayList<>();
    if (hasOps) {
      for (int i = 0; i < a.operations().size(); i++) {
        EditOperations.Operation op = a.operations().get(i);
        if (op == null || op.op() == null || !EditOperations.OPS.contains(op.op().strip().toLowerCase(Locale.ROOT))) {
          problems.add("operations[" + i + "].op must be one of " + String.join(", ", EditOperations.OPS));
        }
      }
    }
    return problems;
  });

  private static final int MAX_CONSECUTIVE_FAILURES = 2;
  private static final int DIFF_ROWS_SHOWN = 5;

  private final OptimizationSession session;
  private final LlmGateway gateway;
  private final List<String> memory = new ArrayList<>();

  LlmProposer(OptimizationSession session, LlmGateway gateway) {
    this.session = session;
    this.gateway = gateway;
  }

  void run() {
    if (!gateway.hasModel(Role.OPTIMIZER)) {
      session.trace("REASONING", "llm-skipped", "the gateway has no model for the OPTIMIZER role");
      return;
    }
    QueryOptimizer config = session.config();
    int iterations = config.mode == Optimizer.Mode.ONE_SHOT ? 1 : config.maxIterations;
    String feedback = null;
    int failures = 0;
    for (int it = 1; it <= iterations; it++) {
      if (session.budgetSpent()) {
        return;
      }
      boolean withKnowledge = config.knowledgeBase && (config.mode == Optimizer.Mode.ONE_SHOT || it > 1);
      List<ChatMessage> prompt = List.of(SystemMessage.from(SYSTEM),
          UserMessage.from(userPrompt(it, withKnowledge, feedback)));
      session.trace("REASONING", "llm-call", "iteration " + it + (withKnowledge ? ", with recipes" : ""));
      Answer answer;
      try {
        answer = gateway.askJson(Role.OPTIMIZER, prompt, CONTRACT);
      } catch (LlmFailure f) {
        session.trace("REASONING", "llm-failed", f.getMessage());
        failures++;
        boolean retryable = f.kind() == LlmFailure.Kind.MALFORMED_ANSWER || f.kind() == LlmFailure.Kind.TIMEOUT;
        if (!retryable || failures >= MAX_CONSECUTIVE_FAILURES) {
          session.trace("TERMINATION", "llm-stopped", "stopping the LLM loop: " + f.kind());
          return;
        }
        feedback = f.kind() == LlmFailure.Kind.MALFORMED_ANSWER
            ? "Your last answer could not be used: " + f.getMessage() + "\nAnswer with one JSON object as described."
            : "Your last answer took too long. Answer concisely.";
        memory.add("iteration " + it + ": no usable answer (" + f.kind() + ")");
        continue;
      }
      failures = 0;
      String label = "llm-" + (config.mode == Optimizer.Mode.ONE_SHOT ? "one-shot" : "iteration-" + it);
      String explanation = answer.explanation() == null ? "" : answer.explanation();
      String candidateSql;
      try {
        candidateSql = answer.operations() != null && !answer.operations().isEmpty()
            ? session.operations.apply(session.sql(), answer.operations())
            : session.operations.validate(Verifier.stripSemicolons(answer.sql()));
      } catch (EditOperations.EditException e) {
        OptimizationCandidate c = session.evaluateInvalid(label, explanation, answer.sql() == null ? "" : answer.sql(),
            e.getMessage());
        feedback = "Your edit could not be applied or validated: " + e.getMessage()
            + "\nFix the operations (targets are block.clause as in the Block Map) or give the whole query.";
        memory.add(memoryLine(it, c));
        continue;
      }
      OptimizationCandidate c = session.evaluate(CandidateSource.LLM, label, explanation, candidateSql);
      memory.add(memoryLine(it, c));
      if (c.verdict() == CandidateVerdict.FASTER && c.speedup() >= config.targetSpeedup) {
        session.trace("TERMINATION", "target-reached", String.format(Locale.ROOT, "%.2fx >= target %.2fx",
            c.speedup(), config.targetSpeedup));
        return;
      }
      feedback = feedback(c, config);
      if (it < iterations) {
        session.trace("DECISION", "feedback", feedback);
      }
    }
    session.trace("TERMINATION", "llm-done", iterations + " iteration(s) used");
  }

  private static String memoryLine(int it, OptimizationCandidate c) {
    return "iteration " + it + " (candidate #" + c.id() + "): " + c.verdict()
        + (c.speedup() > 0 ? String.format(Locale.ROOT, " %.2fx", c.speedup()) : "") + " - " + c.reason()
        + (c.explanation().isBlank() ? "" : " | your explanation: " + shorten(c.explanation(), 200));
  }

  /** The prompt design's feedback for one verified candidate. */
  static String feedback(OptimizationCandidate c, QueryOptimizer config) {
    switch (c.verdict()) {
      case NOT_EXECUTABLE:
        return "Your rewrite does not run: " + c.reason() + "\nFix the error; keep the rewrite's intent.";
      case NOT_EQUIVALENT: {
        StringBuilder sb = new StringBuilder("Semantics: INCORRECT\n");
        c.equivalence().flatMap(EquivalenceEvidence::firstDifference).ifPresent(d -> {
          sb.append("  on the ").append(d.instance()).append(" instance: ").append(d.detail()).append('\n');
          sb.append("  Original:  ").append(rows(d.onlyInOriginal())).append('\n');
          sb.append("  Optimized: ").append(rows(d.onlyInCandidate())).append('\n');
        });
        sb.append("The optimization changed the query semantics. Common causes:\n")
            .append("- Removed a join without adding IS NOT NULL for the FK column\n")
            .append("- Added a filter that was intentionally missing (e.g., all-time vs period)\n")
            .append("- NOT IN vs NOT EXISTS with NULLs, COUNT over empty groups, changed GROUP BY or ORDER BY\n")
            .append("Revert the breaking change and try a different approach.");
        return sb.toString();
      }
      case SLOWER:
        return String.format(Locale.ROOT, "Speedup: %.2fx%n", c.speedup())
            + "Optimization made query SLOWER (" + c.reason() + "). Try a different approach:\n"
            + "- Scan consolidation (CASE WHEN for conditional aggregates)\n"
            + "- Join reordering (filter by smallest result first)";
      case NEGLIGIBLE:
        return String.format(Locale.ROOT, "Speedup: %.2fx%n", c.speedup())
            + "Negligible speedup (not shown faster than the original). Try more aggressive"
            + " optimization:\n- Can multiple scans of same table be consolidated?\n"
            + "- Can a join be eliminated with IS NOT NULL?";
      case FASTER:
      default:
        return String.format(Locale.ROOT, "Speedup: %.2fx, verified equivalent. The target is %.2fx: improve further"
            + " (the faster query so far is:%n%s%n)", c.speedup(), config.targetSpeedup, c.sql());
    }
  }

  private static String rows(List<List<Object>> rows) {
    if (rows.isEmpty()) {
      return "None";
    }
    return rows.stream().limit(DIFF_ROWS_SHOWN).map(r -> r.stream().map(v -> v == null ? "NULL" : shorten(String.valueOf(v), 40))
        .collect(Collectors.joining(", ", "(", ")"))).collect(Collectors.joining(" "));
  }

  private String userPrompt(int iteration, boolean withKnowledge, String feedback) {
    StringBuilder sb = new StringBuilder();
    sb.append("## Query\n").append(session.sql()).append("\n\n");
    if (session.plan != null) {
      sb.append("## Execution hint (DuckDB plan; bottlenecks marked with <--)\n").append(session.plan.linearize())
          .append('\n');
    }
    if (session.blockMap != null) {
      sb.append("## Block Map\n").append(session.blockMap.format()).append('\n');
    }
    sb.append("## Schema (tables the query uses)\n").append(schema()).append('\n');
    if (withKnowledge) {
      String recipes = KnowledgeBase.shared().search(features(feedback), 3).stream()
          .map(h -> h.recipe().format()).collect(Collectors.joining("\n\n"));
      if (!recipes.isEmpty()) {
        sb.append("## Relevant rewrite recipes\n").append(recipes).append("\n\n");
      }
    }
    List<DemonstrationPool.Scored> demos = session.config().demonstrations.retrieve(session.sql(), session.trees,
        session.config().embedder, 2, 0.5);
    if (!demos.isEmpty()) {
      sb.append("## Demonstrations (verified faster rewrites of similar queries)\n");
      for (DemonstrationPool.Scored d : demos) {
        sb.append(String.format(Locale.ROOT, "-- similarity %.2f, %.2fx faster: %s%n", d.similarity(),
            d.demonstration().speedup(), d.demonstration().explanation()));
        sb.append("Original:\n").append(d.demonstration().originalSql()).append("\nRewrite:\n")
            .append(d.demonstration().rewrittenSql()).append("\n\n");
      }
    }
    List<OptimizationCandidate> tried = session.candidates().stream().filter(c -> c.source() != CandidateSource.LLM).toList();
    if (!tried.isEmpty() && iteration == 1) {
      sb.append("## Rewrites already tried by rules (do not repeat them)\n");
      for (OptimizationCandidate c : tried) {
        sb.append("- ").append(c.label()).append(": ").append(c.verdict())
            .append(c.speedup() > 0 ? String.format(Locale.ROOT, " %.2fx", c.speedup()) : "").append('\n');
      }
      sb.append('\n');
    }
    if (!memory.isEmpty()) {
      sb.append("## Your earlier attempts\n");
      memory.forEach(m -> sb.append("- ").append(m).append('\n'));
      sb.append('\n');
    }
    if (feedback != null) {
      sb.append("## Feedback on your last attempt\n").append(feedback).append("\n\n");
    }
    sb.append("Answer with the JSON object now.");
    return sb.toString();
  }

  private String schema() {
    StringBuilder sb = new StringBuilder();
    for (String name : session.analysis.tableNames()) {
      session.catalog.table(name).ifPresent(t -> {
        sb.append(t.name()).append('(').append(t.columns().stream()
            .map(c -> c.name() + " " + c.type() + (c.nullable() ? "" : " NOT NULL")).collect(Collectors.joining(", ")))
            .append(')');
        if (!t.primaryKey().isEmpty()) {
          sb.append(" PRIMARY KEY (").append(String.join(", ", t.primaryKey())).append(')');
        }
        sb.append(String.format(Locale.ROOT, " ~%,d rows%n", t.estimatedRows()));
      });
    }
    return sb.toString();
  }

  /** A description of the query for recipe retrieval: its constructs, plan operators, Block Map signals. */
  private String features(String feedback) {
    String text = session.sql().toLowerCase(Locale.ROOT);
    StringBuilder sb = new StringBuilder(text.replaceAll("[^a-z_ ]", " "));
    // "or", "not", "in" are stop words to the analyzer: name the constructs instead.
    if (text.matches("(?s).*\\bor\\b.*")) {
      sb.append(" disjunction");
    }
    if (text.matches("(?s).*\\bnot\\s+in\\b.*")) {
      sb.append(" not_in anti join");
    }
    if (session.plan != null) {
      session.plan.operators().forEach(o -> sb.append(' ').append(o.type().toLowerCase(Locale.ROOT)));
    }
    if (session.blockMap != null) {
      if (!session.blockMap.repeatedScans().isEmpty()) {
        sb.append(" repeated scan same table twice");
      }
      if (!session.blockMap.filterGaps().isEmpty()) {
        sb.append(" filter gap");
      }
    }
    if (feedback != null) {
      sb.append(' ').append(feedback);
    }
    return sb.toString();
  }

  private static String shorten(String s, int max) {
    String one = s.replaceAll("\\s+", " ");
    return one.length() > max ? one.substring(0, max - 3) + "..." : one;
  }
}
