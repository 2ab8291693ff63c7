package dev.lakerewrite.core.rewrite;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.lakerewrite.core.llm.JsonContract;
import dev.lakerewrite.core.llm.LlmGateway;
import dev.lakerewrite.core.llm.Role;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The rewriter as an LLM (thesis §4.1): prompt from the state, JSON answer, one repair round. */
final class LlmRewriterAgent implements RewriterAgent {

  /** The JSON the rewriter answers with. */
  record Answer(String sql, String reason, @JsonProperty("used_tables") List<UsedTable> usedTables) {}

  /** A table the rewriter says it used; its rows, if any, are ignored. */
  record UsedTable(@JsonProperty("table_name") String tableName, List<String> columns) {}

  static final JsonContract<Answer> CONTRACT = new JsonContract<>("rewrite", Answer.class, a -> {
    List<String> problems = new ArrayList<>();
    if (a.sql() == null || a.sql().isBlank()) {
      problems.add("\"sql\" must hold the rewritten query");
    }
    return problems;
  });

  private final LlmGateway gateway;

  public LlmRewriterAgent(LlmGateway gateway) {
    this.gateway = Objects.requireNonNull(gateway, "gateway");
  }

  @Override
  public Proposal propose(RewriteState state) {
    Answer a = gateway.askJson(Role.REWRITER, List.of(SystemMessage.from(Prompts.REWRITER_INSTRUCTION),
        UserMessage.from(Prompts.rewriterUser(state))), CONTRACT);
    List<String> used = new ArrayList<>();
    if (a.usedTables() != null) {
      for (UsedTable t : a.usedTables()) {
        if (t != null && t.tableName() != null && !t.tableName().isBlank()) {
          used.add(t.tableName().strip());
        }
      }
    }
    return new Proposal(stripFences(a.sql()), a.reason(), used);
  }

  /** Models sometimes wrap the SQL in a Markdown fence inside the JSON string. */
  static String stripFences(String sql) {
    String s = sql.strip();
    if (s.startsWith("```")) {
      s = s.replaceFirst("^```[a-zA-Z]*\\s*", "");
      int end = s.lastIndexOf("```");
      if (end >= 0) {
        s = s.substring(0, end);
      }
    }
    return s.strip();
  }
}
