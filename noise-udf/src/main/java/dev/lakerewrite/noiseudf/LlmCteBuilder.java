package dev.lakerewrite.noiseudf;

import dev.lakerewrite.sql.DuckDbParser;
import dev.lakerewrite.sql.Sql;
import dev.lakerewrite.sql.SqlParseException;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * BUILD_CTE with an LLM (thesis §6.2): a separate model call sees a preview of up to 50 rows, the detector's
 * evidence and the catalogue of vetted functions, and answers in JSON with a few narrowly scoped cleaning macros
 * and one CTE. Every macro goes through {@link MacroValidator#validateAndRegister} (registered as a TEMP macro on
 * the session connection only if it passes), the CTE through {@link MacroValidator#validateCte}.
 *
 * <p>Failure handling: an answer that is not JSON or breaks the contract, or whose CTE is rejected, gets
 * {@link Builder#maxRepairRounds} repair rounds (default 1) in which the model sees the precise problems; after
 * that the result carries a typed {@link CteBuildFailure}. Model exceptions become {@code MODEL_ERROR}. Nothing
 * is thrown for what the model does. Macros rejected individually are reported; the CTE may still succeed
 * without them.
 */
public final class LlmCteBuilder implements CteBuilder {

  private final ChatModel model;
  private final MacroValidator validator;
  private final NoiseDetector detector;
  private final int promptRows;
  private final int previewRows;
  private final int maxRepairRounds;
  private final int maxUdfs;
  private final int maxPromptColumns;

  private LlmCteBuilder(Builder b) {
    this.model = b.model;
    this.validator = b.validator;
    this.detector = b.detector;
    this.promptRows = b.promptRows;
    this.previewRows = b.previewRows;
    this.maxRepairRounds = b.maxRepairRounds;
    this.maxUdfs = b.maxUdfs;
    this.maxPromptColumns = b.maxPromptColumns;
  }

  /** A builder for the given model; every other setting has a default. */
  public static Builder builder(ChatModel model) {
    return new Builder(model);
  }

  /** Builder. */
  public static final class Builder {
    private final ChatModel model;
    private MacroValidator validator = MacroValidator.create();
    private NoiseDetector detector = NoiseDetector.create();
    private int promptRows = 50;
    private int previewRows = 5;
    private int maxRepairRounds = 1;
    private int maxUdfs = 6;
    private int maxPromptColumns = 16;

    private Builder(ChatModel model) {
      this.model = Objects.requireNonNull(model, "model");
    }

    public Builder validator(MacroValidator validator) {
      this.validator = Objects.requireNonNull(validator, "validator");
      return this;
    }

    public Builder detector(NoiseDetector detector) {
      this.detector = Objects.requireNonNull(detector, "detector");
      return this;
    }

    /** Rows of the base table shown to the model (default 50, as in the thesis). */
    public Builder promptRows(int n) {
      this.promptRows = Args.between("promptRows", n, 1, 500);
      return this;
    }

    /** Rows of cleaned data in the result's preview (default 5). */
    public Builder previewRows(int n) {
      this.previewRows = Args.atLeast("previewRows", n, 0);
      return this;
    }

    /** Extra model calls to repair a malformed or rejected answer (default 1). */
    public Builder maxRepairRounds(int n) {
      this.maxRepairRounds = Args.between("maxRepairRounds", n, 0, 5);
      return this;
    }

    /** Macros one answer may propose (default 6; the thesis asks for "a small set"). */
    public Builder maxUdfs(int n) {
      this.maxUdfs = Args.atLeast("maxUdfs", n, 0);
      return this;
    }

    /** Columns shown in the prompt's preview when all columns are requested (default 16). */
    public Builder maxPromptColumns(int n) {
      this.maxPromptColumns = Args.atLeast("maxPromptColumns", n, 1);
      return this;
    }

    public LlmCteBuilder build() {
      return new LlmCteBuilder(this);
    }
  }

  @Override
  public CteBuildResult build(Connection session, CteRequest request) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(request, "request");
    int calls = 0;
    List<Rejection> rejections = new ArrayList<>();
    List<NoiseFinding> evidence = List.of();
    try {
      Optional<CteBuildResult> bad = OfflineCteBuilder.checkNames(session, request, "llm");
      if (bad.isPresent()) {
        return bad.get();
      }
      evidence = detector.detect(session, request.baseTable(), request.columns());
      String cteName = OfflineCteBuilder.cteName(session, request.baseTable());
      PreviewTable prompted = promptPreview(session, request);
      List<ChatMessage> messages = new ArrayList<>();
      messages.add(SystemMessage.from(CleaningPrompt.system()));
      messages.add(UserMessage.from(CleaningPrompt.user(request, prompted, evidence, cteName)));
      CteBuildFailure.Kind lastKind = CteBuildFailure.Kind.MALFORMED_ANSWER;
      String lastMessage = "no answer";
      for (int round = 0; round <= maxRepairRounds; round++) {
        String text;
        try {
          ChatResponse response = model.chat(ChatRequest.builder().messages(messages).build());
          calls++;
          text = response == null || response.aiMessage() == null ? null : response.aiMessage().text();
        } catch (RuntimeException e) {
          calls++;
          return CteBuildResult.failed(request, "llm", CteBuildFailure.Kind.MODEL_ERROR,
              e.getClass().getSimpleName() + ": " + MacroValidator.firstLine(e.getMessage()), evidence, rejections, calls);
        }
        CleaningAnswer.Parsed parsed = CleaningAnswer.parse(text, maxUdfs);
        List<String> problems = new ArrayList<>(parsed.problems());
        if (parsed.answer() != null) {
          Attempt attempt = attempt(session, request, parsed.answer(), cteName);
          rejections.addAll(attempt.rejections);
          if (attempt.result != null) {
            return withBookkeeping(attempt.result, evidence, rejections, calls);
          }
          lastKind = CteBuildFailure.Kind.REJECTED;
          lastMessage = attempt.rejections.isEmpty() ? "the CTE was rejected"
              : "the CTE was rejected: " + attempt.rejections.get(attempt.rejections.size() - 1).reason();
          attempt.rejections.forEach(r -> problems.add(r.toString()));
        } else {
          lastKind = parsed.malformed() ? CteBuildFailure.Kind.MALFORMED_ANSWER : CteBuildFailure.Kind.SCHEMA_VIOLATION;
          lastMessage = String.join("; ", parsed.problems());
          parsed.problems().forEach(p -> rejections.add(new Rejection("answer", Rejection.Stage.ANSWER, p)));
        }
        messages.add(dev.langchain4j.data.message.AiMessage.from(text == null ? "" : text));
        messages.add(UserMessage.from(CleaningPrompt.repair(text, problems)));
      }
      return CteBuildResult.failed(request, "llm", lastKind,
          lastMessage + " (after " + maxRepairRounds + " repair round" + (maxRepairRounds == 1 ? "" : "s") + ")",
          evidence, rejections, calls);
    } catch (SQLException e) {
      return CteBuildResult.failed(request, "llm", CteBuildFailure.Kind.SQL_ERROR, MacroValidator.firstLine(e.getMessage()),
          evidence, rejections, calls);
    }
  }

  private static CteBuildResult withBookkeeping(CteBuildResult r, List<NoiseFinding> evidence, List<Rejection> rejections, int calls) {
    // Attach to each cleaned column the kinds of noise the detector had found there.
    List<CleanedColumn> cleaned = new ArrayList<>();
    for (CleanedColumn c : r.cleanedColumns()) {
      List<NoiseKind> kinds = evidence.stream().filter(f -> f.column().equals(c.column())).map(NoiseFinding::kind)
          .distinct().toList();
      cleaned.add(new CleanedColumn(c.column(), c.expression(), c.resultType(), kinds, c.matchKey()));
    }
    return new CteBuildResult(r.request(), r.builder(), r.cteName(), r.cteSql(), r.udfs(), cleaned, r.preview(),
        evidence, rejections, r.failure(), calls);
  }

  private record Attempt(@Nullable CteBuildResult result, List<Rejection> rejections) {}

  /** Validates one parsed answer: macros one by one, then the CTE. */
  private Attempt attempt(Connection session, CteRequest request, CleaningAnswer answer, String cteName) throws SQLException {
    List<Rejection> rejections = new ArrayList<>();
    Map<String, MacroValidator.MacroVerdict> accepted = new LinkedHashMap<>();
    for (GeneratedUdf udf : answer.udfs()) {
      MacroValidator.MacroVerdict v = validator.validateAndRegister(session, request.baseTable(), udf);
      if (v.accepted()) {
        accepted.put(udf.name(), v);
      } else {
        rejections.addAll(v.rejections());
      }
    }
    if (answer.cteName() != null && !answer.cteName().equals(cteName)) {
      rejections.addAll(MacroValidator.cteNameProblems(session, answer.cteName()));
    }
    String name = answer.cteName() != null && MacroValidator.cteNameProblems(session, answer.cteName()).isEmpty()
        ? answer.cteName() : cteName;
    MacroValidator.CteVerdict cte = validator.validateCte(session, request.baseTable(), answer.cte(), previewRows);
    if (!cte.accepted()) {
      rejections.addAll(cte.rejections());
      return new Attempt(null, rejections);
    }
    List<String> outputColumns = cte.preview().columns();
    for (String c : request.columns()) {
      if (!outputColumns.contains(c)) {
        rejections.add(new Rejection("cte", Rejection.Stage.AST, "the CTE drops requested column " + c));
      }
    }
    if (rejections.stream().anyMatch(r -> r.subject().equals("cte"))) {
      return new Attempt(null, rejections);
    }
    // Metadata: generated macros the CTE uses (directly or through each other), vetted functions it calls.
    java.util.Set<String> calls;
    try {
      calls = SqlAst.calledFunctions(DuckDbParser.on(session).parse(cte.cteSql()));
    } catch (SqlParseException e) {
      throw new IllegalStateException("a validated CTE no longer parses", e);
    }
    java.util.Set<String> reachable = new java.util.LinkedHashSet<>(calls);
    boolean grew = true;
    while (grew) {
      grew = false;
      for (MacroValidator.MacroVerdict v : accepted.values()) {
        if (reachable.contains(v.udf().name()) && reachable.addAll(v.calls())) {
          grew = true;
        }
      }
    }
    List<UdfInfo> udfs = new ArrayList<>();
    for (MacroValidator.MacroVerdict v : accepted.values()) {
      if (reachable.contains(v.udf().name())) {
        udfs.add(new UdfInfo(v.udf().name(), v.udf().signature(), v.returnType(), v.udf().description(),
            v.createStatement(), UdfInfo.Origin.GENERATED));
      }
    }
    java.util.Set<String> vetted = new java.util.HashSet<>();
    for (FunctionSpec f : CleaningFunctions.catalogue()) {
      if (reachable.contains(f.name()) && vetted.add(f.name())) {
        udfs.add(new UdfInfo(f.name(), f.signature(), f.returnType(), f.description(), null, UdfInfo.Origin.VETTED));
      }
    }
    List<CleanedColumn> cleaned = cleanedColumns(session, cte);
    CteBuildResult result = new CteBuildResult(request, "llm", name, cte.cteSql(), udfs, cleaned, cte.preview(), List.of(),
        List.of(), Optional.empty(), 0);
    return new Attempt(result, rejections);
  }

  /** Per changed column: the expression the CTE computes for it (from the validated AST). */
  private static List<CleanedColumn> cleanedColumns(Connection session, MacroValidator.CteVerdict cte) throws SQLException {
    List<CleanedColumn> out = new ArrayList<>();
    com.fasterxml.jackson.databind.JsonNode node;
    try {
      node = DuckDbParser.on(session).parse(cte.cteSql()).get(0).path("node");
    } catch (SqlParseException e) {
      return out;
    }
    Map<String, com.fasterxml.jackson.databind.JsonNode> expressions = new LinkedHashMap<>();
    for (com.fasterxml.jackson.databind.JsonNode item : node.path("select_list")) {
      if ("STAR".equals(item.path("class").asText())) {
        item.path("replace_list").forEach(r -> expressions.put(r.path("key").asText(), r.path("value")));
      } else if (!item.path("alias").asText("").isEmpty()) {
        expressions.put(item.path("alias").asText(), item);
      }
    }
    for (Map.Entry<String, Integer> changed : cte.changedCells().entrySet()) {
      com.fasterxml.jackson.databind.JsonNode expr = expressions.get(changed.getKey());
      String sql = expr == null ? changed.getKey() : renderExpression(session, expr);
      int idx = cte.preview().columns().indexOf(changed.getKey());
      String type = idx < 0 ? "unknown" : cte.preview().types().get(idx);
      out.add(new CleanedColumn(changed.getKey(), sql, type, List.of(), "VARCHAR".equals(type) ? "clean_key(%s)" : null));
    }
    return out;
  }

  private static String renderExpression(Connection session, com.fasterxml.jackson.databind.JsonNode expr) throws SQLException {
    com.fasterxml.jackson.databind.node.ObjectNode statement;
    try {
      statement = (com.fasterxml.jackson.databind.node.ObjectNode) DuckDbParser.on(session).parse("SELECT 1").get(0);
    } catch (SqlParseException e) {
      throw new IllegalStateException(e);
    }
    com.fasterxml.jackson.databind.node.ObjectNode copy = (com.fasterxml.jackson.databind.node.ObjectNode) expr.deepCopy();
    copy.put("alias", "");
    ((com.fasterxml.jackson.databind.node.ArrayNode) statement.path("node").path("select_list")).removeAll().add(copy);
    String rendered = DuckDbParser.on(session).render(statement);
    return rendered.startsWith("SELECT ") ? rendered.substring(7) : rendered;
  }

  /** Up to {@code promptRows} rows of the requested columns (or the first columns), for the prompt. */
  private PreviewTable promptPreview(Connection session, CteRequest request) throws SQLException {
    List<String> columns = request.columns();
    if (columns.isEmpty()) {
      columns = Jdbc.describeTable(session, request.baseTable()).stream().map(c -> c[0]).limit(maxPromptColumns).toList();
    }
    StringBuilder select = new StringBuilder("SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      select.append(i == 0 ? "" : ", ").append(Sql.quoted(columns.get(i)));
    }
    select.append(" FROM ").append(Sql.quoted(request.baseTable())).append(" LIMIT ").append(promptRows);
    Jdbc.Table t = Jdbc.table(session, select.toString(), promptRows);
    return new PreviewTable(t.columns(), t.types(), t.rows());
  }
}
