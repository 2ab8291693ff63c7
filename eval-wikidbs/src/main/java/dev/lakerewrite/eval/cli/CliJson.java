package dev.lakerewrite.eval.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.llm.LlmUsage;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code --json} output of the everyday subcommands: the library's result objects as plain JSON. */
final class CliJson {
  private static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
      .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS).build();

  private CliJson() {}

  static String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A result table: columns, the first {@code maxRows} rows (cells as text), the row count, truncation. */
  static Map<String, Object> table(ResultTable t, int maxRows) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("columns", t.columnNames());
    List<List<String>> rows = new ArrayList<>();
    for (List<Object> r : t.rows().subList(0, Math.min(maxRows, t.rowCount()))) {
      rows.add(r.stream().map(v -> v == null ? null : v.toString()).toList());
    }
    out.put("rows", rows);
    out.put("row_count", t.rowCount());
    out.put("truncated", t.truncated() || t.rowCount() > maxRows);
    return out;
  }

  static Map<String, Object> error(QueryError e) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("kind", e.kind().name());
    out.put("message", e.message());
    out.put("position", e.position());
    return out;
  }

  static Map<String, Object> usage(LlmUsage u) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("calls", u.calls());
    out.put("failed_calls", u.failedCalls());
    out.put("retries", u.retries());
    out.put("input_tokens", u.inputTokens());
    out.put("output_tokens", u.outputTokens());
    out.put("cost_usd", u.costUsd());
    return out;
  }
}
