package dev.lakerewrite.core.rewrite;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.lakerewrite.core.llm.JsonContract;
import dev.lakerewrite.core.llm.LlmGateway;
import dev.lakerewrite.core.llm.Role;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * The self-checker as an LLM (thesis §4.1). Its answer is checked before anything runs: action types must be
 * known and enabled, parameters present, tables must exist in the lake (with a "did you mean" in the repair
 * message), candidate indexes must exist.
 */
final class LlmCheckerAgent implements CheckerAgent {

  /** The JSON the checker answers with. */
  record Answer(List<ActionAnswer> actions, @JsonProperty("best_candidate") Integer bestCandidate,
      ReasoningAnswer reasoning) {}

  /** One action object; which fields matter depends on {@code type}. */
  record ActionAnswer(String type, String domain, List<String> columns,
      @JsonProperty("search_table") String searchTable, @JsonProperty("search_value") String searchValue,
      @JsonProperty("table_a") String tableA, @JsonProperty("table_b") String tableB,
      @JsonProperty("base_table") String baseTable, String goal, String table, Integer candidate) {}

  record ReasoningAnswer(@JsonProperty("intent_coverage") String intentCoverage,
      @JsonProperty("output_quality") String outputQuality,
      @JsonProperty("missing_information") String missingInformation,
      @JsonProperty("suggested_improvement") String suggestedImprovement) {}

  private final LlmGateway gateway;

  public LlmCheckerAgent(LlmGateway gateway) {
    this.gateway = Objects.requireNonNull(gateway, "gateway");
  }

  @Override
  public Decision decide(RewriteState state) {
    List<Action> actions = new ArrayList<>();
    JsonContract<Answer> contract = new JsonContract<>("checker decision", Answer.class,
        a -> validate(a, state, actions));
    Answer a = gateway.askJson(Role.CHECKER, List.of(SystemMessage.from(Prompts.CHECKER_INSTRUCTION),
        UserMessage.from(Prompts.checkerUser(state))), contract);
    ReasoningAnswer r = a.reasoning();
    Decision.Reasoning reasoning = r == null ? Decision.Reasoning.NONE : new Decision.Reasoning(r.intentCoverage(),
        r.outputQuality(), r.missingInformation(), r.suggestedImprovement());
    Map<Integer, Double> scores = new HashMap<>();
    OptionalInt best = OptionalInt.empty();
    if (a.bestCandidate() != null) {
      best = OptionalInt.of(a.bestCandidate());
      scores.put(a.bestCandidate(), 1.0);
    }
    for (Action action : actions) {
      if (action instanceof Action.OutputQuery o) {
        best = OptionalInt.of(o.candidate());
        scores.put(o.candidate(), 1.0);
      }
    }
    return new Decision(actions, reasoning, scores, best);
  }

  /** Checks the answer and fills {@code out} with the parsed actions; returns the problems. */
  static List<String> validate(Answer a, RewriteState state, List<Action> out) {
    out.clear();
    List<String> problems = new ArrayList<>();
    int candidates = state.history().size();
    if (a.bestCandidate() != null && (a.bestCandidate() < 0 || a.bestCandidate() >= candidates)) {
      problems.add("best_candidate " + a.bestCandidate() + " does not exist; candidates are 0.." + (candidates - 1));
    }
    if (a.actions() == null) {
      problems.add("\"actions\" must be a list (it may be empty)");
      return problems;
    }
    for (int i = 0; i < a.actions().size(); i++) {
      ActionAnswer x = a.actions().get(i);
      String where = "actions[" + i + "]";
      if (x == null || x.type() == null) {
        problems.add(where + " has no \"type\"");
        continue;
      }
      ActionType type;
      try {
        type = ActionType.valueOf(x.type().strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        problems.add(where + ": unknown action type '" + x.type() + "'; use one of "
            + java.util.Arrays.toString(ActionType.values()));
        continue;
      }
      if (!state.enabled(type)) {
        problems.add(where + ": " + type + " is not available in this run");
        continue;
      }
      switch (type) {
        case SEARCH_TABLE -> {
          if (blank(x.domain()) && (x.columns() == null || x.columns().isEmpty())) {
            problems.add(where + ": SEARCH_TABLE needs \"domain\" and \"columns\"");
          } else {
            out.add(new Action.SearchTable(x.domain() == null ? "" : x.domain(),
                x.columns() == null ? List.of() : x.columns().stream().filter(Objects::nonNull).toList()));
          }
        }
        case SEARCH_VALUE -> {
          String t = table(x.searchTable() != null ? x.searchTable() : x.table(), where, "search_table", state,
              problems);
          if (blank(x.searchValue())) {
            problems.add(where + ": SEARCH_VALUE needs \"search_value\"");
          } else if (t != null) {
            out.add(new Action.SearchValue(t, x.searchValue()));
          }
        }
        case FIND_JOIN_PATH -> {
          String ta = table(x.tableA(), where, "table_a", state, problems);
          String tb = table(x.tableB(), where, "table_b", state, problems);
          if (ta != null && tb != null) {
            out.add(new Action.FindJoinPath(ta, tb));
          }
        }
        case UNION_SEARCH -> {
          String t = table(x.baseTable() != null ? x.baseTable() : x.table(), where, "base_table", state, problems);
          if (t != null) {
            out.add(new Action.UnionSearch(t));
          }
        }
        case BUILD_CTE -> {
          String t = table(x.baseTable() != null ? x.baseTable() : x.table(), where, "base_table", state, problems);
          if (t != null) {
            List<String> cols = x.columns() == null ? List.of() : x.columns().stream().filter(Objects::nonNull).toList();
            List<String> unknown = cols.stream().filter(c -> !state.lake().hasColumn(t, c)).toList();
            if (!unknown.isEmpty()) {
              problems.add(where + ": table " + t + " has no column(s) " + unknown + "; its columns are "
                  + state.lake().columnNames(t));
            } else {
              out.add(new Action.BuildCte(t, cols, x.goal() == null ? "clean the noisy values" : x.goal()));
            }
          }
        }
        case EVICT_TABLE -> {
          String t = table(x.table() != null ? x.table() : x.baseTable(), where, "table", state, problems);
          if (t != null) {
            out.add(new Action.EvictTable(t));
          }
        }
        case OUTPUT_QUERY -> {
          if (x.candidate() == null || x.candidate() < 0 || x.candidate() >= candidates) {
            problems.add(where + ": OUTPUT_QUERY needs \"candidate\", an index from 0 to " + (candidates - 1));
          } else {
            out.add(new Action.OutputQuery(x.candidate()));
          }
        }
        default -> throw new IllegalStateException("unhandled action type " + type);
      }
    }
    return problems;
  }

  private static @Nullable String table(String name, String where, String field, RewriteState state, List<String> problems) {
    if (blank(name)) {
      problems.add(where + ": \"" + field + "\" is missing");
      return null;
    }
    java.util.Optional<String> resolved = state.lake().resolveTable(name.strip());
    if (resolved.isEmpty()) {
      problems.add(where + ": the lake has no table '" + name + "'" + state.lake().didYouMean(name));
      return null;
    }
    return resolved.get();
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
