package dev.lakerewrite.noiseudf;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.sql.Sql;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What BUILD_CTE returns, for the scratchpad (thesis §4.2 "UDF metadata" and "CTE previews"; §6.3): the UDFs with
 * signatures, return types and descriptions, the CTE text, a preview of cleaned rows, the evidence it acted on,
 * and what was rejected and why. The same shape for the LLM and the offline builder.
 *
 * @param request what was asked
 * @param builder "llm" or "offline"
 * @param cteName name to give the CTE in a WITH clause, or null on failure
 * @param cteSql the CTE body (a SELECT over the base table, rendered from the validated AST), or null
 * @param udfs UDFs the CTE uses (vetted functions and accepted generated macros)
 * @param cleanedColumns per column, the cleaning expression
 * @param preview the first rows of the CTE's result, or null
 * @param evidence detector findings shown to the model or acted on offline
 * @param rejections everything rejected on the way (macros, CTEs, answers), with reasons
 * @param failure why there is no CTE; empty on success
 * @param modelCalls LLM calls made (0 offline)
 */
public record CteBuildResult(
    CteRequest request,
    String builder,
    @Nullable String cteName,
    @Nullable String cteSql,
    List<UdfInfo> udfs,
    List<CleanedColumn> cleanedColumns,
    @Nullable PreviewTable preview,
    List<NoiseFinding> evidence,
    List<Rejection> rejections,
    Optional<CteBuildFailure> failure,
    int modelCalls) {

  public CteBuildResult {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(builder, "builder");
    udfs = List.copyOf(udfs);
    cleanedColumns = List.copyOf(cleanedColumns);
    evidence = List.copyOf(evidence);
    rejections = List.copyOf(rejections);
    Objects.requireNonNull(failure, "failure");
    if (failure.isEmpty() && (cteName == null || cteSql == null)) {
      throw new IllegalArgumentException("a successful result needs a CTE name and body");
    }
  }

  static CteBuildResult failed(CteRequest request, String builder, CteBuildFailure.Kind kind, String message,
      List<NoiseFinding> evidence, List<Rejection> rejections, int modelCalls) {
    return new CteBuildResult(request, builder, null, null, List.of(), List.of(), null, evidence, rejections,
        Optional.of(new CteBuildFailure(kind, message)), modelCalls);
  }

  /** True when there is a validated CTE. */
  public boolean succeeded() {
    return failure.isEmpty();
  }

  /** {@code "name" AS (body)}, ready to put after WITH; empty on failure. */
  public Optional<String> withClause() {
    return succeeded() ? Optional.of(Sql.quoted(cteName) + " AS (" + cteSql + ")") : Optional.empty();
  }

  /** Compact text for the scratchpad and prompts. */
  public String toScratchpad(int previewRows) {
    StringBuilder sb = new StringBuilder("BUILD_CTE(" + request.baseTable() + ", " + request.columns() + ", \""
        + request.goal() + "\") via " + builder + ": ");
    if (!succeeded()) {
      CteBuildFailure f = failure.orElseThrow();
      sb.append("FAILED ").append(f.kind()).append(": ").append(f.message()).append('\n');
    } else {
      sb.append("WITH ").append(withClause().orElseThrow()).append('\n');
      if (!udfs.isEmpty()) {
        sb.append("UDFs:\n");
        udfs.forEach(u -> sb.append("- ").append(u.summary()).append('\n'));
      }
      for (CleanedColumn c : cleanedColumns) {
        sb.append("- ").append(c.column()).append(" := ").append(c.expression()).append(" (").append(c.resultType())
            .append(c.matchKey() == null ? "" : "; compare with " + c.matchKey()).append(")\n");
      }
      if (preview != null) {
        sb.append("Preview:\n").append(preview.toText(previewRows, 40));
      }
    }
    if (!rejections.isEmpty()) {
      sb.append("Rejected:\n");
      rejections.stream().limit(8).forEach(r -> sb.append("- ").append(r).append('\n'));
    }
    return sb.toString();
  }

  /** The result as JSON (for traces). */
  public ObjectNode toJson() {
    ObjectNode o = SqlAst.JSON.createObjectNode();
    o.put("base_table", request.baseTable());
    o.set("columns", SqlAst.JSON.valueToTree(request.columns()));
    o.put("goal", request.goal());
    o.put("builder", builder);
    o.put("succeeded", succeeded());
    failure.ifPresent(f -> {
      o.put("failure", f.kind().name());
      o.put("failure_message", f.message());
    });
    o.put("cte_name", cteName);
    o.put("cte", cteSql);
    ArrayNode u = o.putArray("udfs");
    udfs.forEach(x -> u.addObject().put("name", x.name()).put("signature", x.signature()).put("return_type", x.returnType())
        .put("description", x.description()).put("definition", x.definition()).put("origin", x.origin().name()));
    ArrayNode c = o.putArray("cleaned_columns");
    cleanedColumns.forEach(x -> c.addObject().put("column", x.column()).put("expression", x.expression())
        .put("type", x.resultType()).put("match_key", x.matchKey()));
    if (preview != null) {
      o.set("preview", SqlAst.JSON.valueToTree(preview));
    }
    ArrayNode r = o.putArray("rejections");
    rejections.forEach(x -> r.addObject().put("subject", x.subject()).put("stage", x.stage().name()).put("reason", x.reason()));
    ArrayNode e = o.putArray("evidence");
    evidence.forEach(x -> e.add(x.summary()));
    o.put("model_calls", modelCalls);
    return o;
  }
}
