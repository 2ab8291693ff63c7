package dev.lakerewrite.core.rewrite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Every step of one rewrite, in order (principle 4: everything is observable). Immutable once returned. */
public final class RewriteTrace {
  private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  private final List<RewriteEvent> events;

  RewriteTrace(List<RewriteEvent> events) {
    this.events = List.copyOf(events);
  }

  public List<RewriteEvent> events() {
    return events;
  }

  /** Events of one type, in order. */
  public List<RewriteEvent> events(String type) {
    return events.stream().filter(e -> e.type().equals(type)).toList();
  }

  /** One JSON object per event, one per line. */
  public String toJsonLines() {
    return events.stream().map(RewriteTrace::json).collect(Collectors.joining("\n", "", events.isEmpty() ? "" : "\n"));
  }

  /** Writes the JSON lines to a file (UTF-8), replacing it. */
  public void writeJsonLines(Path file) {
    try {
      Files.writeString(file, toJsonLines(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the trace to " + file + ": " + e.getMessage(), e);
    }
  }

  /** Writes the JSON lines to a writer (not closed). */
  public void writeJsonLines(Writer out) throws IOException {
    out.write(toJsonLines());
  }

  static String json(RewriteEvent e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("iteration", e.iteration());
    m.put("phase", e.phase());
    m.put("type", e.type());
    m.put("at_ms", e.atMillis());
    m.putAll(e.data());
    try {
      return JSON.writeValueAsString(m);
    } catch (JsonProcessingException ex) {
      Map<String, Object> fallback = new LinkedHashMap<>(m);
      fallback.replaceAll((k, v) -> v instanceof Number || v instanceof Boolean ? v : String.valueOf(v));
      try {
        return JSON.writeValueAsString(fallback);
      } catch (JsonProcessingException again) {
        throw new IllegalStateException("trace event cannot be written as JSON: " + again.getMessage(), again);
      }
    }
  }

  /** Collects events during a rewrite. */
  static final class Recorder {
    private final long start = System.nanoTime();
    private final List<RewriteEvent> events = new ArrayList<>();

    void add(int iteration, String phase, String type, Map<String, Object> data) {
      events.add(new RewriteEvent(iteration, phase, type, (System.nanoTime() - start) / 1_000_000, data));
    }

    long elapsedMillis() {
      return (System.nanoTime() - start) / 1_000_000;
    }

    RewriteTrace build() {
      return new RewriteTrace(events);
    }
  }
}
