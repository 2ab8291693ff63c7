package dev.lakerewrite.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * The machine-readable forms of a run, for comparisons across runs: {@code summary.json} (the headline variant's
 * figures at the top — {@code pairs}, {@code f1}, {@code execution_accuracy}, {@code median_latency_ms},
 * {@code by_tag} — then every variant under {@code methods} and {@code ablations}) and one JSON object per pair
 * outcome ({@code pairs.jsonl}). Numbers that are undefined (a mean over nothing) are {@code null}.
 */
public final class SummaryJson {

  /** Rows of a prediction kept in {@code pairs.jsonl}. */
  public static final int PREDICTION_ROWS = 50;

  static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private SummaryJson() {}

  /** The whole {@code summary.json}. */
  public static ObjectNode summary(EvaluationResult result, RunInfo info) {
    ObjectNode root = NODES.objectNode();
    var headline = result.headline();
    root.put("variant", headline.map(r -> r.variant().name()).orElse(null));
    if (headline.isPresent()) {
      VariantSummary s = headline.get().summary();
      root.put("pairs", s.pairs());
      number(root, "f1", s.f1());
      number(root, "execution_accuracy", s.executionAccuracy());
      number(root, "median_latency_ms", s.latency().medianMillis());
      root.set("by_tag", byTag(s));
      root.set("by_difficulty", byDifficulty(s));
    } else {
      root.put("pairs", 0);
      root.putNull("f1");
      root.putNull("execution_accuracy");
      root.putNull("median_latency_ms");
      root.putObject("by_tag");
      root.putObject("by_difficulty");
    }
    ObjectNode run = root.putObject("run");
    info.settings().forEach((k, v) -> run.put(k.strip().replaceAll("[^A-Za-z0-9]+", "_").toLowerCase(java.util.Locale.ROOT), v));
    run.put("started", result.started().toString());
    run.put("finished", result.finished().toString());
    run.put("duration_ms", result.duration().toMillis());
    run.put("warm_up_ms", result.warmUp().toMillis());
    ObjectNode methods = root.putObject("methods");
    result.methodRuns().forEach(r -> methods.set(r.variant().name(), variant(r)));
    ObjectNode ablations = root.putObject("ablations");
    result.ablationRuns().forEach(r -> ablations.set(r.variant().name(), variant(r)));
    ArrayNode skipped = root.putArray("skipped");
    result.skipped().forEach(s -> skipped.addObject().put("variant", s.variant().name()).put("reason", s.reason()));
    ArrayNode problems = root.putArray("problems");
    info.problems().forEach(problems::add);
    ArrayNode notes = root.putArray("notes");
    info.notes().forEach(notes::add);
    return root;
  }

  /** One variant's figures. */
  static ObjectNode variant(EvaluationResult.VariantRun run) {
    VariantSummary s = run.summary();
    Variant v = run.variant();
    ObjectNode o = NODES.objectNode();
    o.put("variant", s.variant());
    o.put("title", s.title());
    o.put("method", v.method().label());
    o.put("ablation", v.ablation().map(Ablation::label).orElse(null));
    o.put("model", v.model().name());
    o.put("pairs", s.pairs());
    ObjectNode statuses = o.putObject("statuses");
    for (PairStatus st : PairStatus.values()) {
      statuses.put(st.label(), s.count(st));
    }
    number(o, "f1", s.f1());
    number(o, "execution_accuracy", s.executionAccuracy());
    number(o, "column_f1", s.columnF1());
    number(o, "row_f1", s.rowF1());
    number(o, "median_latency_ms", s.latency().medianMillis());
    ObjectNode latency = o.putObject("latency_ms");
    number(latency, "mean", s.latency().meanMillis());
    number(latency, "median", s.latency().medianMillis());
    number(latency, "p90", s.latency().p90Millis());
    latency.put("max", s.latency().maxMillis());
    ObjectNode llm = o.putObject("llm");
    llm.put("calls", s.usage().calls());
    llm.put("tokens", s.usage().tokens());
    number(llm, "cost_usd", s.usage().costUsd());
    number(llm, "mean_calls", s.usage().meanCalls());
    number(llm, "mean_tokens", s.usage().meanTokens());
    number(llm, "mean_cost_usd", s.usage().meanCostUsd());
    number(o, "mean_iterations", s.meanIterations());
    ObjectNode stops = o.putObject("stop_reasons");
    s.stopReasons().forEach(stops::put);
    o.set("by_difficulty", byDifficulty(s));
    o.set("by_tag", byTag(s));
    ObjectNode tagDetail = o.putObject("by_tag_detail");
    s.byTag().forEach((t, g) -> tagDetail.set(t.label(), group(g)));
    ObjectNode actions = o.putObject("actions");
    s.actions().forEach((name, a) -> {
      ObjectNode n = actions.putObject(name);
      n.put("executed", a.executed());
      number(n, "per_run", a.perRun());
      n.put("pairs_using", a.pairsUsing());
      n.put("requested", a.requested());
    });
    ObjectNode d = o.putObject("table_discovery");
    d.put("runs", s.discovery().runs());
    number(d, "success_fraction", s.discovery().successFraction());
    number(d, "mean_termination_iteration", s.discovery().meanTerminationIteration());
    number(d, "mean_full_coverage_iteration", s.discovery().meanFullCoverageIteration());
    number(d, "mean_coverage", s.discovery().meanCoverage());
    number(d, "mean_chosen_query_coverage", s.discovery().meanChosenCoverage());
    ObjectNode sel = o.putObject("checker_selection");
    sel.put("eligible", s.selection().eligible());
    sel.put("correct", s.selection().correct());
    number(sel, "accuracy", s.selection().accuracy());
    sel.put("contested", s.selection().contested());
    sel.put("contested_correct", s.selection().contestedCorrect());
    number(sel, "contested_accuracy", s.selection().contestedAccuracy());
    return o;
  }

  private static ObjectNode byTag(VariantSummary s) {
    ObjectNode o = NODES.objectNode();
    s.byTag().forEach((t, g) -> number(o, t.label(), g.f1()));
    return o;
  }

  private static ObjectNode byDifficulty(VariantSummary s) {
    ObjectNode o = NODES.objectNode();
    s.byDifficulty().forEach((d, g) -> o.set(d.label(), group(g)));
    return o;
  }

  private static ObjectNode group(VariantSummary.Group g) {
    ObjectNode o = NODES.objectNode();
    o.put("pairs", g.pairs());
    number(o, "f1", g.f1());
    number(o, "execution_accuracy", g.executionAccuracy());
    return o;
  }

  /** One line of {@code pairs.jsonl}. */
  public static ObjectNode outcome(PairOutcome o) {
    ObjectNode n = NODES.objectNode();
    n.put("variant", o.variant().name());
    n.put("id", o.pair().id());
    n.put("status", o.status().label());
    n.put("reason", o.reason());
    n.put("difficulty", o.pair().difficulty().label());
    ArrayNode tags = n.putArray("tags");
    o.pair().difficultyTags().forEach(t -> tags.add(t.label()));
    n.put("noisy_lake", o.noisyLake());
    number(n, "f1", o.score().f1());
    n.put("execution_match", o.score().executionMatch());
    number(n, "column_precision", o.score().columnPrecision());
    number(n, "column_recall", o.score().columnRecall());
    number(n, "column_f1", o.score().columnF1());
    number(n, "row_precision", o.score().rowPrecision());
    number(n, "row_recall", o.score().rowRecall());
    number(n, "row_f1", o.score().rowF1());
    n.put("iterations", o.iterations());
    n.put("stop_reason", o.stopReason());
    n.put("latency_ms", o.latencyMillis());
    n.put("llm_calls", o.llmCalls());
    n.put("tokens", o.tokens());
    number(n, "cost_usd", o.costUsd());
    ObjectNode executed = n.putObject("actions");
    o.executedActions().forEach(executed::put);
    ObjectNode requested = n.putObject("requested_actions");
    o.requestedActions().forEach(requested::put);
    o.discovery().ifPresent(d -> {
      ObjectNode dn = n.putObject("table_discovery");
      strings(dn.putArray("required"), d.required());
      strings(dn.putArray("found"), d.found());
      number(dn, "coverage", d.coverage());
      dn.put("tables_seen", d.seen());
      if (d.fullCoverageIteration().isPresent()) {
        dn.put("full_coverage_iteration", d.fullCoverageIteration().getAsInt());
      } else {
        dn.putNull("full_coverage_iteration");
      }
      strings(dn.putArray("chosen_query_uses"), d.chosenUses());
    });
    o.selection().ifPresent(s -> {
      ObjectNode sn = n.putObject("checker_selection");
      sn.put("chosen", s.chosen());
      sn.put("best", s.best());
      number(sn, "chosen_f1", s.chosenF1());
      number(sn, "best_f1", s.bestF1());
      sn.put("correct", s.correct());
      ArrayNode f1s = sn.putArray("candidate_f1");
      s.candidateF1().forEach(f -> {
        if (f.isNaN()) {
          f1s.addNull();
        } else {
          f1s.add(round(f));
        }
      });
    });
    o.mapping().ifPresent(m -> {
      ObjectNode mn = n.putObject("mapping");
      mn.put("gold_columns", m.goldColumns());
      mn.put("right", m.right());
      ArrayNode misses = mn.putArray("misses");
      m.misses().forEach(miss -> {
        ObjectNode x = misses.addObject();
        x.put("assumed", miss.assumed());
        strings(x.putArray("chosen"), miss.chosen().stream().sorted().toList());
        strings(x.putArray("gold"), miss.gold());
      });
    });
    n.put("sql", o.sql());
    o.prediction().ifPresentOrElse(p -> n.set("prediction", table(p, o.predictionTruncated())),
        () -> n.putNull("prediction"));
    n.put("trace", o.traceFile().orElse(null));
    return n;
  }

  private static ObjectNode table(PlainTable t, boolean truncated) {
    ObjectNode n = NODES.objectNode();
    strings(n.putArray("columns"), t.columns());
    n.put("row_count", t.rowCount());
    n.put("truncated_at_row_cap", truncated);
    ArrayNode rows = n.putArray("rows");
    for (List<Object> row : t.rows().subList(0, Math.min(PREDICTION_ROWS, t.rowCount()))) {
      ArrayNode r = rows.addArray();
      row.forEach(cell -> r.add(cell(cell)));
    }
    return n;
  }

  /** A cell as JSON: strings verbatim, numbers and booleans as such, anything else in its canonical string. */
  static JsonNode cell(Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof String s) {
      return NODES.textNode(s);
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof BigDecimal d) {
      return NODES.numberNode(d);
    }
    if (value instanceof BigInteger i) {
      return NODES.numberNode(i);
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return NODES.numberNode(((Number) value).longValue());
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      return Double.isFinite(d) ? NODES.numberNode(d) : NODES.textNode(String.valueOf(d));
    }
    return NODES.textNode(String.valueOf(CellValues.canonical(value)));
  }

  private static void strings(ArrayNode array, List<String> values) {
    values.forEach(array::add);
  }

  /** Puts a number rounded to 6 decimals, or null when undefined. */
  static void number(ObjectNode o, String field, double value) {
    if (Double.isFinite(value)) {
      o.put(field, round(value));
    } else {
      o.putNull(field);
    }
  }

  private static double round(double v) {
    return Math.round(v * 1e6) / 1e6;
  }

  /** Writes a node as indented JSON text. */
  static String text(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serialises", e);
    }
  }

  /** Writes a node on one line. */
  static String line(JsonNode node) {
    try {
      return MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serialises", e);
    }
  }
}
