package dev.lakerewrite.eval;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Writes pairs in the format {@link PairLoader} reads: queries as arrays of lines, result tables as
 * {@code {"columns", "rows"}} with numbers, booleans and strings as JSON values and other cell types (dates,
 * lists, ...) as their {@linkplain CellValues#canonical canonical strings}, which the metrics read the same way.
 */
public final class PairWriter {

  private static final JsonFactory FACTORY = new JsonFactory();

  private PairWriter() {}

  /** Writes a pair file (UTF-8). */
  public static void write(Path file, String lake, String description, List<QueryResultPair> pairs)
      throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      write(w, lake, description, pairs);
    }
  }

  /** The pair file as a string. */
  public static String toJson(String lake, String description, List<QueryResultPair> pairs) {
    StringWriter w = new StringWriter();
    try {
      write(w, lake, description, pairs);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e); // a StringWriter does not fail
    }
    return w.toString();
  }

  /** Writes a pair file; {@code lake} and {@code description} may be null or empty to leave them out. */
  public static void write(Writer out, String lake, String description, List<QueryResultPair> pairs)
      throws IOException {
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(pairs, "pairs");
    DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
        .withObjectIndenter(new DefaultIndenter("  ", "\n"))
        .withArrayIndenter(new DefaultIndenter("  ", "\n"));
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.setPrettyPrinter(printer);
      g.writeStartObject();
      if (lake != null && !lake.isEmpty()) {
        g.writeStringField("lake", lake);
      }
      if (description != null && !description.isEmpty()) {
        g.writeStringField("description", description);
      }
      g.writeArrayFieldStart("pairs");
      for (QueryResultPair p : pairs) {
        writePair(g, p);
      }
      g.writeEndArray();
      g.writeEndObject();
      g.writeRaw('\n');
    }
  }

  private static void writePair(JsonGenerator g, QueryResultPair p) throws IOException {
    g.writeStartObject();
    g.writeStringField("id", p.id());
    g.writeStringField("difficulty", p.difficulty().label());
    g.writeArrayFieldStart("difficulty_tags");
    for (DifficultyTag t : p.difficultyTags()) {
      g.writeString(t.label());
    }
    g.writeEndArray();
    g.writeBooleanField("noisy", p.noisy());
    g.writeArrayFieldStart("required_tables");
    for (String t : p.requiredTables()) {
      g.writeString(t);
    }
    g.writeEndArray();
    writeLines(g, "user_query", p.userQuery());
    writeLines(g, "golden_query", p.goldenQuery());
    if (!p.notes().isEmpty()) {
      g.writeStringField("notes", p.notes());
    }
    if (!p.perturbations().isEmpty()) {
      writeStrings(g, "perturbations", p.perturbations());
    }
    if (!p.sqlShapes().isEmpty()) {
      writeStrings(g, "sql_shapes", p.sqlShapes());
    }
    if (!p.goldMapping().isEmpty()) {
      g.writeObjectFieldStart("gold_mapping");
      g.writeObjectFieldStart("tables");
      for (var e : p.goldMapping().tables().entrySet()) {
        writeStrings(g, e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeObjectFieldStart("columns");
      for (var e : p.goldMapping().columns().entrySet()) {
        g.writeObjectFieldStart(e.getKey());
        writeStrings(g, "lake", e.getValue().lake());
        g.writeStringField("encoding", e.getValue().encoding());
        if (!e.getValue().detail().isEmpty()) {
          g.writeStringField("detail", e.getValue().detail());
        }
        g.writeEndObject();
      }
      g.writeEndObject();
      g.writeEndObject();
    }
    if (p.hasResultTable()) {
      g.writeObjectFieldStart("result_table");
      g.writeArrayFieldStart("columns");
      for (String c : p.resultTable().columns()) {
        g.writeString(c);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("rows");
      List<String> rows = new java.util.ArrayList<>();
      for (List<Object> row : p.resultTable().rows()) {
        // One row per line: compact JSON for the row, spliced in as a raw value.
        StringWriter compact = new StringWriter();
        try (JsonGenerator rowGenerator = FACTORY.createGenerator(compact)) {
          rowGenerator.writeStartArray();
          for (Object v : row) {
            writeCell(rowGenerator, v);
          }
          rowGenerator.writeEndArray();
        }
        rows.add(compact.toString());
      }
      if (!p.ordered()) {
        // An unordered result comes in whatever order DuckDB's parallel operators produced: sorted, the same pairs
        // give the same file.
        java.util.Collections.sort(rows);
      }
      for (String row : rows) {
        g.writeRawValue(row);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  private static void writeStrings(JsonGenerator g, String field, List<String> values) throws IOException {
    g.writeArrayFieldStart(field);
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }

  private static void writeLines(JsonGenerator g, String field, String text) throws IOException {
    g.writeArrayFieldStart(field);
    for (String line : text.split("\n", -1)) {
      g.writeString(line);
    }
    g.writeEndArray();
  }

  private static void writeCell(JsonGenerator g, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      g.writeNumber(((Number) v).longValue());
    } else if (v instanceof BigInteger bi) {
      g.writeNumber(bi);
    } else if (v instanceof BigDecimal bd) {
      g.writeNumber(bd);
    } else if ((v instanceof Double || v instanceof Float) && Double.isFinite(((Number) v).doubleValue())) {
      g.writeNumber(new BigDecimal(v.toString()));
    } else {
      g.writeString(CellValues.canonical(v));
    }
  }
}
