package dev.lakerewrite.joingraph;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakerewrite.retrieval.TypeFamily;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The compact JSON form of a join graph (thesis §5.2.1: "saved in a compact JSON representation"). Tables carry
 * their column statistics; edges and column pairs are arrays that refer to tables and columns by position:
 *
 * <pre>
 * {"format":"lakerewrite-joingraph","version":1,"fingerprint":"…","buildKey":"…","stats":{…},
 *  "tables":[{"name":"capital","columns":[["label","VARCHAR","STRING",16,16,1.0],…]},…],
 *  "edges":[[tableA,tableB,Ω,[[columnA,columnB,S,S_schema,S_inst,jaccard,containment,K,shared],…]],…]}
 * </pre>
 *
 * Doubles are written in their shortest round-trip form, so a graph reads back equal to the one written.
 */
final class JoinGraphFile {
  static final String FORMAT = "lakerewrite-joingraph";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private JoinGraphFile() {}

  static void write(JoinGraph graph, Path file) {
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = null;
    try {
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, ".join-graph-", ".tmp");
      try (OutputStream out = Files.newOutputStream(tmp);
          JsonGenerator json = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
        writeGraph(graph, json);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new JoinGraphException(JoinGraphException.Reason.WRITE_FILE,
          "cannot write the join graph to " + file + ": " + e.getMessage(), e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // Best effort: the temporary file is hidden and harmless.
        }
      }
    }
  }

  private static void writeGraph(JoinGraph graph, JsonGenerator json) throws IOException {
    Map<String, Integer> tableIds = new HashMap<>();
    List<Map<String, Integer>> columnIds = new ArrayList<>();
    json.writeStartObject();
    json.writeStringField("format", FORMAT);
    json.writeNumberField("version", JoinGraph.FORMAT_VERSION);
    json.writeStringField("fingerprint", graph.fingerprint());
    json.writeStringField("buildKey", graph.buildKey());
    json.writeStringField("searchSettings", graph.searchSettings());
    json.writeObjectFieldStart("tableFingerprints");
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(graph.tableFingerprints()).entrySet()) {
      json.writeStringField(e.getKey(), e.getValue());
    }
    json.writeEndObject();
    BuildStats s = graph.buildStats();
    json.writeObjectFieldStart("stats");
    json.writeNumberField("tables", s.tables());
    json.writeNumberField("columns", s.columns());
    json.writeNumberField("distinctNames", s.distinctNames());
    json.writeStringField("candidateSearch", s.candidateSearch().name());
    json.writeNumberField("pairsScored", s.pairsScored());
    json.writeNumberField("evidencePairs", s.evidencePairs());
    json.writeNumberField("edges", s.edges());
    json.writeNumberField("stopValuesSkipped", s.stopValuesSkipped());
    json.writeNumberField("readMillis", s.readMillis());
    json.writeNumberField("embedMillis", s.embedMillis());
    json.writeNumberField("searchMillis", s.searchMillis());
    json.writeNumberField("assembleMillis", s.assembleMillis());
    json.writeEndObject();

    json.writeArrayFieldStart("tables");
    for (GraphTable t : graph.tables()) {
      tableIds.put(t.name(), tableIds.size());
      Map<String, Integer> cols = new HashMap<>();
      columnIds.add(cols);
      json.writeStartObject();
      json.writeStringField("name", t.name());
      if (!t.schema().equals("main") || !t.relation().equals(t.name())) {
        json.writeStringField("schema", t.schema());
        json.writeStringField("relation", t.relation());
      }
      json.writeArrayFieldStart("columns");
      for (GraphColumn c : t.columns()) {
        cols.putIfAbsent(c.name(), cols.size());
        json.writeStartArray();
        json.writeString(c.name());
        json.writeString(c.sqlType());
        json.writeString(c.family().name());
        json.writeNumber(c.nonNull());
        json.writeNumber(c.distinct());
        number(json, c.uniqueness());
        json.writeEndArray();
      }
      json.writeEndArray();
      json.writeEndObject();
    }
    json.writeEndArray();

    json.writeArrayFieldStart("edges");
    for (JoinEdge e : graph.edges()) {
      int a = tableIds.get(e.tableA());
      int b = tableIds.get(e.tableB());
      json.writeStartArray();
      json.writeNumber(a);
      json.writeNumber(b);
      number(json, e.joinability());
      json.writeStartArray();
      for (ColumnPair p : e.pairs()) {
        json.writeStartArray();
        json.writeNumber(columnIds.get(a).get(p.columnA()));
        json.writeNumber(columnIds.get(b).get(p.columnB()));
        number(json, p.score());
        number(json, p.schemaSimilarity());
        number(json, p.instanceSimilarity());
        number(json, p.jaccard());
        number(json, p.containment());
        number(json, p.uniqueness());
        json.writeNumber(p.sharedValues());
        json.writeEndArray();
      }
      json.writeEndArray();
      json.writeEndArray();
    }
    json.writeEndArray();
    json.writeEndObject();
  }

  private static void number(JsonGenerator json, double value) throws IOException {
    if (!Double.isFinite(value)) {
      throw new IllegalStateException("join graph holds a non-finite score: " + value);
    }
    json.writeNumber(value);
  }

  static JoinGraph read(Path file, JoinGraphConfig config, Connection connection) {
    @Nullable JsonNode root;
    try {
      root = MAPPER.readTree(file.toFile());
    } catch (IOException e) {
      throw new JoinGraphException(JoinGraphException.Reason.READ_FILE,
          "cannot read the join graph file " + file + ": " + e.getMessage(), e);
    }
    try {
      return parse(root, config, connection);
    } catch (RuntimeException e) {
      throw new JoinGraphException(JoinGraphException.Reason.READ_FILE,
          "the join graph file " + file + " is malformed: " + e.getMessage(), e);
    }
  }

  private static JoinGraph parse(JsonNode root, JoinGraphConfig config, Connection connection) {
    if (root == null || !FORMAT.equals(text(root, "format"))) {
      throw new IllegalArgumentException("not a " + FORMAT + " file");
    }
    int version = root.path("version").asInt(-1);
    if (version != JoinGraph.FORMAT_VERSION) {
      throw new IllegalArgumentException("format version " + version + ", expected " + JoinGraph.FORMAT_VERSION);
    }
    JsonNode s = required(root, "stats");
    BuildStats stats = new BuildStats(s.path("tables").asInt(), s.path("columns").asInt(),
        s.path("distinctNames").asInt(), JoinGraphConfig.CandidateSearch.valueOf(text(s, "candidateSearch")),
        s.path("pairsScored").asLong(), s.path("evidencePairs").asLong(), s.path("edges").asInt(),
        s.path("stopValuesSkipped").asLong(), s.path("readMillis").asLong(), s.path("embedMillis").asLong(),
        s.path("searchMillis").asLong(), s.path("assembleMillis").asLong());

    List<GraphTable> tables = new ArrayList<>();
    for (JsonNode t : required(root, "tables")) {
      String name = text(t, "name");
      List<GraphColumn> columns = new ArrayList<>();
      for (JsonNode c : required(t, "columns")) {
        columns.add(new GraphColumn(c.get(0).asText(), c.get(1).isNull() ? null : c.get(1).asText(),
            TypeFamily.valueOf(c.get(2).asText()), c.get(3).asLong(), c.get(4).asLong(), c.get(5).doubleValue()));
      }
      String schema = t.has("schema") ? text(t, "schema") : "main";
      String relation = t.has("relation") ? text(t, "relation") : name;
      tables.add(new GraphTable(name, schema, relation, columns));
    }
    List<JoinEdge> edges = new ArrayList<>();
    for (JsonNode e : required(root, "edges")) {
      GraphTable a = tables.get(e.get(0).asInt());
      GraphTable b = tables.get(e.get(1).asInt());
      List<ColumnPair> pairs = new ArrayList<>();
      for (JsonNode p : e.get(3)) {
        pairs.add(new ColumnPair(a.columns().get(p.get(0).asInt()).name(), b.columns().get(p.get(1).asInt()).name(),
            p.get(2).doubleValue(), p.get(3).doubleValue(), p.get(4).doubleValue(), p.get(5).doubleValue(),
            p.get(6).doubleValue(), p.get(7).doubleValue(), p.get(8).asLong()));
      }
      edges.add(new JoinEdge(a.name(), b.name(), e.get(2).doubleValue(), pairs));
    }
    Map<String, String> fingerprints = new HashMap<>();
    root.path("tableFingerprints").fields().forEachRemaining(e -> fingerprints.put(e.getKey(), e.getValue().asText()));
    return new JoinGraph(text(root, "fingerprint"), text(root, "buildKey"), tables, edges, stats, config,
        connection, fingerprints, root.path("searchSettings").asText(""));
  }

  private static JsonNode required(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      throw new IllegalArgumentException("missing field '" + field + "'");
    }
    return value;
  }

  private static String text(JsonNode node, String field) {
    return required(node, field).asText();
  }
}
