package dev.lakerewrite.eval;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.lakerewrite.sql.DidYouMean;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Reads pair files, validates every pair, and returns the good pairs with a list of problems, never stopping at a
 * bad pair.
 *
 * <h2>Format</h2>
 * A JSON file whose top level is either an array of pairs or an object
 * {@code {"lake": "...", "description": "...", "pairs": [...]}}. Java-style comments are
 * allowed. A pair is an object with:
 * <ul>
 *   <li>{@code id} (string, unique in the file);</li>
 *   <li>{@code user_query}, {@code golden_query}: a string, or an array of strings that are the query's lines
 *       (joined with newlines, for readable files);</li>
 *   <li>{@code difficulty}: {@code "easy"}, {@code "medium"} or {@code "hard"};</li>
 *   <li>{@code difficulty_tags}: a non-empty array of the thesis's labels ({@link DifficultyTag#labels()});</li>
 *   <li>{@code noisy} (optional boolean, default: whether the tags include Noise; must agree with them);</li>
 *   <li>{@code required_tables}: a non-empty array of lake table names;</li>
 *   <li>{@code result_table} (optional): {@code {"columns": [...], "rows": [[...], ...]}} or, as pandas writes
 *       with {@code orient="records"}, an array of row objects; cells are strings, numbers, booleans or null. When
 *       absent it is computed by running the golden query on the (clean) lake;</li>
 *   <li>{@code notes} (optional string);</li>
 *   <li>{@code gold_mapping} (optional): where the assumed tables and columns are in the lake ({@link GoldMapping});
 *       {@code perturbations}, {@code sql_shapes} (optional arrays of strings): what the lake disorganizer did and
 *       the query's SQL shapes.</li>
 * </ul>
 *
 * <h2>Validation</h2>
 * Every field is checked and every problem reported (with file, line, pair index and id), not just the first.
 * With a {@linkplain Builder#goldRunner gold runner} each surviving golden query is run: a failure drops the pair
 * and reports the database's message; an empty or all-NULL result is a warning; a stored result table that
 * differs from the golden query's result is a warning (the stored table is kept). With
 * {@linkplain Builder#lakeTables lake tables}, required tables the lake lacks are errors ("did you mean").
 * Broken JSON is reported with its line and column; the pairs read before it are kept.
 *
 * <p>Loaders are immutable and thread-safe if their runner is.
 */
public final class PairLoader {

  /** The development set written for the WikiDBs sample lake (a class-path resource of this module). */
  public static final String WIKIDBS_SAMPLE_DEV_SET = "/dev/lakerewrite/eval/wikidbs-sample-dev.json";

  static final List<String> PAIR_FIELDS = List.of("id", "user_query", "golden_query", "result_table",
      "difficulty", "difficulty_tags", "noisy", "required_tables", "notes", "gold_mapping", "perturbations",
      "sql_shapes");
  static final List<String> FILE_FIELDS = List.of("lake", "description", "pairs");

  private static final JsonMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES) // keep 229200.0 as written
      .build();

  private final QueryRunner goldRunner;
  private final Map<String, String> lakeTables; // lower-case name -> name as the lake spells it
  private final boolean checkStoredResults;

  private PairLoader(Builder b) {
    this.goldRunner = b.goldRunner;
    this.lakeTables = b.lakeTables == null ? null : Map.copyOf(b.lakeTables);
    this.checkStoredResults = b.checkStoredResults;
  }

  /** A loader that only parses and validates the file itself (no lake). */
  public static PairLoader parseOnly() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Configures a {@link PairLoader}. */
  public static final class Builder {
    private @Nullable QueryRunner goldRunner;
    private @Nullable Map<String, String> lakeTables;
    private boolean checkStoredResults = true;

    private Builder() {}

    /**
     * Runs golden queries on the clean lake: to check that they run, to compute missing result tables, and to
     * check stored ones.
     */
    public Builder goldRunner(QueryRunner runner) {
      this.goldRunner = Objects.requireNonNull(runner, "runner");
      return this;
    }

    /** The lake's table names, to check {@code required_tables} (compared ignoring case). */
    public Builder lakeTables(Collection<String> tables) {
      Objects.requireNonNull(tables, "tables");
      Map<String, String> map = new HashMap<>();
      for (String t : tables) {
        map.put(Objects.requireNonNull(t, "table name").toLowerCase(Locale.ROOT), t);
      }
      this.lakeTables = map;
      return this;
    }

    /**
     * Whether to compare stored result tables with the golden query's result (default true; only with a gold
     * runner). Turn off for a file written for another version of the lake.
     */
    public Builder checkStoredResults(boolean check) {
      this.checkStoredResults = check;
      return this;
    }

    public PairLoader build() {
      return new PairLoader(this);
    }
  }

  /** Loads a pair file (UTF-8). */
  public LoadedPairs load(Path file) throws IOException {
    Objects.requireNonNull(file, "file");
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return load(reader, file.toString());
    }
  }

  /** Loads pairs from a stream of UTF-8 JSON; {@code source} names it in problems. */
  public LoadedPairs load(InputStream in, String source) throws IOException {
    Objects.requireNonNull(in, "in");
    return load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8), source);
  }

  /** Loads pairs from JSON text; {@code source} names it in problems. */
  public LoadedPairs load(String json, String source) {
    try {
      return load(new StringReader(Objects.requireNonNull(json, "json")), source);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringReader does not fail
    }
  }

  /** Loads a class-path resource, such as {@link #WIKIDBS_SAMPLE_DEV_SET}. */
  public LoadedPairs loadResource(String resource) throws IOException {
    Objects.requireNonNull(resource, "resource");
    InputStream in = PairLoader.class.getResourceAsStream(resource);
    if (in == null) {
      throw new IOException("no class-path resource " + resource);
    }
    try (in) {
      return load(in, resource);
    }
  }

  /** Loads pairs from a reader; {@code source} names it in problems. I/O failures are thrown, not reported. */
  public LoadedPairs load(Reader reader, String source) throws IOException {
    Objects.requireNonNull(reader, "reader");
    Objects.requireNonNull(source, "source");
    Reading reading = new Reading(source);
    try (JsonParser parser = MAPPER.createParser(reader)) {
      reading.readFile(parser);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      reading.problems.add(new PairProblem(PairProblem.Severity.ERROR, PairProblem.Kind.SYNTAX, source, -1, null,
          at == null ? -1 : at.getLineNr(), at == null ? -1 : at.getColumnNr(),
          "broken JSON: " + e.getOriginalMessage()
              + (reading.candidates.isEmpty() ? "" : "; the " + reading.candidates.size()
                  + " pairs before it were read, the rest of the file was not")));
    }
    List<QueryResultPair> pairs = reading.validateAll();
    return new LoadedPairs(source, reading.lake, reading.description, pairs, reading.problems);
  }

  /** A pair that parsed, with where it came from. */
  private record Candidate(QueryResultPair pair, int index, int line) {}

  /** The state of one load. */
  private final class Reading {
    final String source;
    final List<PairProblem> problems = new ArrayList<>();
    final List<Candidate> candidates = new ArrayList<>();
    final Map<String, Integer> idLines = new HashMap<>();
    final Map<String, Integer> idIndexes = new HashMap<>();
    @Nullable String lake;
    String description;
    int index;

    Reading(String source) {
      this.source = source;
    }

    void readFile(JsonParser parser) throws IOException {
      JsonToken first = parser.nextToken();
      if (first == JsonToken.START_ARRAY) {
        readPairs(parser);
      } else if (first == JsonToken.START_OBJECT) {
        boolean sawPairs = false;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String field = parser.currentName();
          JsonLocation at = parser.currentTokenLocation();
          JsonToken value = parser.nextToken();
          switch (field) {
            case "pairs" -> {
              if (value != JsonToken.START_ARRAY) {
                fileProblem(at, "'pairs' must be an array of pairs, was " + describe(value));
                parser.skipChildren();
              } else {
                sawPairs = true;
                readPairs(parser);
              }
            }
            case "lake", "description" -> {
              JsonNode node = parser.readValueAsTree();
              if (node == null || !node.isTextual()) {
                fileProblem(at, "'" + field + "' must be a string");
              } else if (field.equals("lake")) {
                lake = node.textValue();
              } else {
                description = node.textValue();
              }
            }
            default -> {
              parser.skipChildren();
              problems.add(new PairProblem(PairProblem.Severity.WARNING, PairProblem.Kind.UNKNOWN_FIELD, source,
                  -1, null, at.getLineNr(), at.getColumnNr(), "unknown top-level field '" + field + "' ignored"
                      + DidYouMean.hint(field, FILE_FIELDS, 1)));
            }
          }
        }
        if (!sawPairs) {
          problems.add(new PairProblem(PairProblem.Severity.ERROR, PairProblem.Kind.FILE_STRUCTURE, source, -1,
              null, -1, -1, "the file has no 'pairs' array"));
        }
      } else {
        problems.add(new PairProblem(PairProblem.Severity.ERROR, PairProblem.Kind.FILE_STRUCTURE, source, -1, null,
            1, 1, "a pair file is a JSON array of pairs or an object with a 'pairs' array, not "
                + describe(first)));
        return;
      }
      if (parser.nextToken() != null) {
        JsonLocation at = parser.currentTokenLocation();
        problems.add(new PairProblem(PairProblem.Severity.WARNING, PairProblem.Kind.FILE_STRUCTURE, source, -1,
            null, at.getLineNr(), at.getColumnNr(), "content after the end of the pairs is ignored"));
      }
    }

    private void fileProblem(JsonLocation at, String message) {
      problems.add(new PairProblem(PairProblem.Severity.ERROR, PairProblem.Kind.FILE_STRUCTURE, source, -1, null,
          at.getLineNr(), at.getColumnNr(), message));
    }

    /** Reads the elements of the pairs array; the parser is on its START_ARRAY. */
    private void readPairs(JsonParser parser) throws IOException {
      JsonToken token;
      while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
        int line = parser.currentTokenLocation().getLineNr();
        int i = index++;
        if (token != JsonToken.START_OBJECT) {
          parser.skipChildren();
          problems.add(new PairProblem(PairProblem.Severity.ERROR, PairProblem.Kind.FILE_STRUCTURE, source, i,
              null, line, -1, "a pair must be a JSON object, was " + describe(token)));
          continue;
        }
        JsonNode node = parser.readValueAsTree();
        QueryResultPair pair = new PairParser(this, node, i, line).parse();
        if (pair != null) {
          candidates.add(new Candidate(pair, i, line));
        }
      }
    }

    List<QueryResultPair> validateAll() {
      List<QueryResultPair> out = new ArrayList<>(candidates.size());
      for (Candidate c : candidates) {
        QueryResultPair pair = goldRunner == null ? c.pair() : runGolden(c);
        if (pair != null) {
          out.add(pair);
        }
      }
      return out;
    }

    private @Nullable QueryResultPair runGolden(Candidate c) {
      QueryResultPair pair = c.pair();
      PlainTable computed;
      try {
        computed = goldRunner.run(pair.goldenQuery());
      } catch (QueryRunException e) {
        error(c, PairProblem.Kind.GOLDEN_QUERY_FAILED, "golden query failed on the lake: " + e.getMessage());
        return null;
      } catch (RuntimeException e) {
        error(c, PairProblem.Kind.GOLDEN_QUERY_FAILED,
            "golden query failed on the lake: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        return null;
      }
      if (computed == null) {
        error(c, PairProblem.Kind.GOLDEN_QUERY_FAILED, "the query runner returned no table");
        return null;
      }
      if (!pair.hasResultTable()) {
        pair = pair.withResultTable(computed);
      } else if (checkStoredResults) {
        PlainTable stored = pair.resultTable();
        boolean same = stored.columns().equals(computed.columns())
            && ResultMetrics.exactMatch(computed, stored, pair.ordered());
        if (!same) {
          ResultScore s = ResultMetrics.score(computed, stored, pair.ordered());
          warning(c, PairProblem.Kind.RESULT_MISMATCH, String.format(Locale.ROOT,
              "the stored result_table (%d rows, columns %s) differs from the golden query's result on this lake "
                  + "(%d rows, columns %s; F1 %.3f against the stored table); the stored table is kept",
              stored.rowCount(), stored.columns(), computed.rowCount(), computed.columns(), s.f1()));
        }
      }
      PlainTable expected = pair.resultTable();
      if (expected.isEmpty()) {
        warning(c, PairProblem.Kind.TRIVIAL_RESULT, "the expected result has no rows, so an empty answer scores 1");
      } else if (expected.allNull()) {
        warning(c, PairProblem.Kind.TRIVIAL_RESULT, "every cell of the expected result is NULL");
      }
      return pair;
    }

    private void error(Candidate c, PairProblem.Kind kind, String message) {
      problems.add(new PairProblem(PairProblem.Severity.ERROR, kind, source, c.index(), c.pair().id(), c.line(), -1,
          message));
    }

    private void warning(Candidate c, PairProblem.Kind kind, String message) {
      problems.add(new PairProblem(PairProblem.Severity.WARNING, kind, source, c.index(), c.pair().id(), c.line(),
          -1, message));
    }
  }

  /** Parses one pair object, reporting every problem it has. */
  private final class PairParser {
    private final Reading reading;
    private final JsonNode node;
    private final int index;
    private final int line;
    private @Nullable String id;
    private boolean failed;

    PairParser(Reading reading, JsonNode node, int index, int line) {
      this.reading = reading;
      this.node = node;
      this.index = index;
      this.line = line;
    }

    /** The pair, or null when it has errors (all of them reported). */
    @Nullable QueryResultPair parse() {
      JsonNode idNode = node.get("id");
      if (idNode != null && idNode.isTextual() && !idNode.textValue().isBlank()) {
        id = idNode.textValue();
      }
      for (Map.Entry<String, JsonNode> property : node.properties()) {
        String field = property.getKey();
        if (!PAIR_FIELDS.contains(field)) {
          problem(PairProblem.Severity.WARNING, PairProblem.Kind.UNKNOWN_FIELD,
              "unknown field '" + field + "' ignored" + DidYouMean.hint(field, PAIR_FIELDS, 1));
        }
      }
      if (idNode == null || idNode.isNull()) {
        error(PairProblem.Kind.MISSING_FIELD, "missing field 'id'");
      } else if (id == null) {
        error(PairProblem.Kind.INVALID_FIELD, "'id' must be a non-blank string, was " + idNode);
      } else if (reading.idLines.containsKey(id)) {
        error(PairProblem.Kind.DUPLICATE_ID, "duplicate id: pair #" + reading.idIndexes.get(id) + " (line "
            + reading.idLines.get(id) + ") already uses '" + id + "'; this pair is dropped");
      } else {
        reading.idLines.put(id, line);
        reading.idIndexes.put(id, index);
      }
      String userQuery = query("user_query");
      String goldenQuery = query("golden_query");
      Difficulty difficulty = difficulty();
      Set<DifficultyTag> tags = tags();
      boolean noisy = noisy(tags);
      List<String> requiredTables = requiredTables();
      String notes = optionalText("notes");
      PlainTable result = node.has("result_table") && !node.get("result_table").isNull()
          ? resultTable(node.get("result_table")) : null;
      GoldMapping goldMapping = goldMapping();
      List<String> perturbations = stringList("perturbations");
      List<String> sqlShapes = stringList("sql_shapes");
      if (failed) {
        return null;
      }
      return new QueryResultPair(id, userQuery, goldenQuery, result, difficulty, tags, noisy, requiredTables, notes,
          goldMapping, perturbations, sqlShapes);
    }

    private @Nullable String query(String field) {
      JsonNode q = node.get(field);
      if (q == null || q.isNull()) {
        error(PairProblem.Kind.MISSING_FIELD, "missing field '" + field + "'");
        return null;
      }
      String text;
      if (q.isTextual()) {
        text = q.textValue();
      } else if (q.isArray()) {
        List<String> lines = new ArrayList<>();
        for (JsonNode l : q) {
          if (!l.isTextual()) {
            error(PairProblem.Kind.INVALID_FIELD, "'" + field + "' lines must be strings, found " + l);
            return null;
          }
          lines.add(l.textValue());
        }
        text = String.join("\n", lines);
      } else {
        error(PairProblem.Kind.INVALID_FIELD, "'" + field + "' must be a string or an array of lines, was " + q);
        return null;
      }
      if (text.isBlank()) {
        error(PairProblem.Kind.INVALID_FIELD, "'" + field + "' is blank");
        return null;
      }
      return text;
    }

    private @Nullable Difficulty difficulty() {
      JsonNode d = node.get("difficulty");
      if (d == null || d.isNull()) {
        error(PairProblem.Kind.MISSING_FIELD, "missing field 'difficulty' (easy, medium or hard)");
        return null;
      }
      Difficulty parsed = d.isTextual() ? Difficulty.fromLabel(d.textValue()).orElse(null) : null;
      if (parsed == null) {
        error(PairProblem.Kind.INVALID_FIELD, "'difficulty' must be easy, medium or hard, was " + d);
      }
      return parsed;
    }

    private @Nullable Set<DifficultyTag> tags() {
      JsonNode t = node.get("difficulty_tags");
      if (t == null || t.isNull()) {
        error(PairProblem.Kind.MISSING_FIELD, "missing field 'difficulty_tags' (one or more of "
            + DifficultyTag.labels() + ")");
        return null;
      }
      if (!t.isArray() || t.isEmpty()) {
        error(PairProblem.Kind.INVALID_FIELD, "'difficulty_tags' must be a non-empty array of "
            + DifficultyTag.labels() + ", was " + t);
        return null;
      }
      Set<DifficultyTag> tags = EnumSet.noneOf(DifficultyTag.class);
      boolean ok = true;
      for (JsonNode e : t) {
        DifficultyTag tag = e.isTextual() ? DifficultyTag.fromLabel(e.textValue()).orElse(null) : null;
        if (tag == null) {
          ok = false;
          String label = e.isTextual() ? e.textValue() : e.toString();
          error(PairProblem.Kind.UNKNOWN_TAG, "unknown difficulty tag '" + label + "'"
              + DidYouMean.hint(label, DifficultyTag.labels(), 1) + " (the tags are " + DifficultyTag.labels() + ")");
        } else {
          tags.add(tag);
        }
      }
      return ok ? tags : null;
    }

    private boolean noisy(Set<DifficultyTag> tags) {
      JsonNode n = node.get("noisy");
      boolean tagged = tags != null && tags.contains(DifficultyTag.NOISE);
      if (n == null || n.isNull()) {
        return tagged;
      }
      if (!n.isBoolean()) {
        error(PairProblem.Kind.INVALID_FIELD, "'noisy' must be true or false, was " + n);
        return tagged;
      }
      if (tags != null && n.booleanValue() != tagged) {
        error(PairProblem.Kind.INCONSISTENT, n.booleanValue()
            ? "'noisy' is true but the tags do not include Noise (only Noise pairs run on the noisy lake)"
            : "the tags include Noise but 'noisy' is false (Noise pairs run on the noisy lake)");
      }
      return n.booleanValue();
    }

    private @Nullable List<String> requiredTables() {
      JsonNode r = node.get("required_tables");
      if (r == null || r.isNull()) {
        error(PairProblem.Kind.MISSING_FIELD, "missing field 'required_tables'");
        return null;
      }
      if (!r.isArray() || r.isEmpty()) {
        error(PairProblem.Kind.INVALID_FIELD, "'required_tables' must be a non-empty array of table names, was " + r);
        return null;
      }
      Set<String> tables = new LinkedHashSet<>();
      for (JsonNode e : r) {
        if (!e.isTextual() || e.textValue().isBlank()) {
          error(PairProblem.Kind.INVALID_FIELD, "'required_tables' entries must be table names, found " + e);
          continue;
        }
        String table = e.textValue();
        if (lakeTables != null && !lakeTables.containsKey(table.toLowerCase(Locale.ROOT))) {
          error(PairProblem.Kind.UNKNOWN_TABLE, "required table '" + table + "' is not in the lake"
              + DidYouMean.hint(table, lakeTables.values(), 1));
        }
        tables.add(table);
      }
      return List.copyOf(tables);
    }

    private List<String> stringList(String field) {
      JsonNode n = node.get(field);
      if (n == null || n.isNull()) {
        return List.of();
      }
      List<String> out = new ArrayList<>();
      if (n.isArray()) {
        for (JsonNode e : n) {
          if (!e.isTextual()) {
            error(PairProblem.Kind.INVALID_FIELD, "'" + field + "' entries must be strings, found " + e);
            return List.of();
          }
          out.add(e.textValue());
        }
        return out;
      }
      error(PairProblem.Kind.INVALID_FIELD, "'" + field + "' must be an array of strings, was " + abbreviate(n.toString()));
      return List.of();
    }

    private GoldMapping goldMapping() {
      JsonNode n = node.get("gold_mapping");
      if (n == null || n.isNull()) {
        return GoldMapping.empty();
      }
      String shape = "'gold_mapping' must be {\"tables\": {table: [lake tables]}, \"columns\": {\"table.column\": "
          + "{\"lake\": [\"table.column\"], \"encoding\": ..., \"detail\": ...}}}";
      if (!n.isObject()) {
        error(PairProblem.Kind.INVALID_FIELD, shape);
        return GoldMapping.empty();
      }
      Map<String, List<String>> tables = new LinkedHashMap<>();
      Map<String, GoldMapping.ColumnGold> columns = new LinkedHashMap<>();
      JsonNode t = n.path("tables");
      JsonNode c = n.path("columns");
      if ((!t.isMissingNode() && !t.isObject()) || (!c.isMissingNode() && !c.isObject())) {
        error(PairProblem.Kind.INVALID_FIELD, shape);
        return GoldMapping.empty();
      }
      for (Map.Entry<String, JsonNode> e : t.properties()) {
        List<String> lake = texts(e.getValue());
        if (lake == null) {
          error(PairProblem.Kind.INVALID_FIELD, "'gold_mapping' table '" + e.getKey() + "': " + shape);
          return GoldMapping.empty();
        }
        tables.put(e.getKey(), lake);
      }
      for (Map.Entry<String, JsonNode> e : c.properties()) {
        JsonNode v = e.getValue();
        List<String> lake = v.isObject() ? texts(v.path("lake")) : null;
        if (lake == null || !v.path("encoding").isTextual()) {
          error(PairProblem.Kind.INVALID_FIELD, "'gold_mapping' column '" + e.getKey() + "': " + shape);
          return GoldMapping.empty();
        }
        columns.put(e.getKey(), new GoldMapping.ColumnGold(lake, v.path("encoding").textValue(),
            v.path("detail").isTextual() ? v.path("detail").textValue() : ""));
      }
      return new GoldMapping(tables, columns);
    }

    private static @Nullable List<String> texts(JsonNode array) {
      if (!array.isArray()) {
        return null;
      }
      List<String> out = new ArrayList<>();
      for (JsonNode e : array) {
        if (!e.isTextual()) {
          return null;
        }
        out.add(e.textValue());
      }
      return out;
    }

    private String optionalText(String field) {
      JsonNode n = node.get(field);
      if (n == null || n.isNull()) {
        return "";
      }
      if (!n.isTextual()) {
        error(PairProblem.Kind.INVALID_FIELD, "'" + field + "' must be a string, was " + n);
        return "";
      }
      return n.textValue();
    }

    private @Nullable PlainTable resultTable(JsonNode t) {
      if (t.isObject()) {
        JsonNode cols = t.get("columns");
        JsonNode rows = t.get("rows");
        if (cols == null || !cols.isArray() || rows == null || !rows.isArray()) {
          error(PairProblem.Kind.INVALID_FIELD,
              "'result_table' must be {\"columns\": [names], \"rows\": [[values], ...]} or an array of row objects");
          return null;
        }
        List<String> columns = new ArrayList<>();
        for (JsonNode c : cols) {
          if (!c.isTextual()) {
            error(PairProblem.Kind.INVALID_FIELD, "'result_table' column names must be strings, found " + c);
            return null;
          }
          columns.add(c.textValue());
        }
        List<List<Object>> out = new ArrayList<>();
        int r = 0;
        for (JsonNode row : rows) {
          if (!row.isArray() || row.size() != columns.size()) {
            error(PairProblem.Kind.INVALID_FIELD, "'result_table' row " + r + " must be an array of "
                + columns.size() + " values, was " + abbreviate(row.toString()));
            return null;
          }
          List<Object> values = new ArrayList<>(columns.size());
          for (int c = 0; c < columns.size(); c++) {
            if (!cell(row.get(c), values, r, columns.get(c))) {
              return null;
            }
          }
          out.add(values);
          r++;
        }
        return new PlainTable(columns, out);
      }
      if (t.isArray()) {
        if (t.isEmpty()) {
          error(PairProblem.Kind.INVALID_FIELD, "'result_table' is an empty array of records, which cannot say "
              + "which columns the result has; write {\"columns\": [...], \"rows\": []}");
          return null;
        }
        List<String> columns = null;
        List<List<Object>> out = new ArrayList<>();
        int r = 0;
        for (JsonNode record : t) {
          if (!record.isObject()) {
            error(PairProblem.Kind.INVALID_FIELD, "'result_table' record " + r + " must be an object, was "
                + abbreviate(record.toString()));
            return null;
          }
          Map<String, JsonNode> fields = new LinkedHashMap<>();
          record.properties().forEach(e -> fields.put(e.getKey(), e.getValue()));
          if (columns == null) {
            columns = List.copyOf(fields.keySet());
          } else if (!new TreeMap<>(fields).keySet().equals(new java.util.TreeSet<>(columns))) {
            error(PairProblem.Kind.INVALID_FIELD, "'result_table' record " + r + " has fields " + fields.keySet()
                + " but record 0 has " + columns);
            return null;
          }
          List<Object> values = new ArrayList<>(columns.size());
          for (String c : columns) {
            if (!cell(fields.get(c), values, r, c)) {
              return null;
            }
          }
          out.add(values);
          r++;
        }
        return new PlainTable(columns, out);
      }
      error(PairProblem.Kind.INVALID_FIELD, "'result_table' must be an object with columns and rows or an array of "
          + "records, was " + abbreviate(t.toString()));
      return null;
    }

    private boolean cell(JsonNode v, List<Object> values, int row, String column) {
      if (v == null || v.isNull()) {
        values.add(null);
      } else if (v.isTextual()) {
        values.add(v.textValue());
      } else if (v.isBoolean()) {
        values.add(v.booleanValue());
      } else if (v.isIntegralNumber()) {
        values.add(v.canConvertToLong() ? (Object) v.longValue() : v.bigIntegerValue());
      } else if (v.isNumber()) {
        values.add(v.decimalValue());
      } else {
        error(PairProblem.Kind.INVALID_FIELD, "'result_table' row " + row + " column '" + column
            + "': cells must be strings, numbers, booleans or null, was " + abbreviate(v.toString()));
        return false;
      }
      return true;
    }

    private void error(PairProblem.Kind kind, String message) {
      failed = true;
      problem(PairProblem.Severity.ERROR, kind, message);
    }

    private void problem(PairProblem.Severity severity, PairProblem.Kind kind, String message) {
      reading.problems.add(new PairProblem(severity, kind, reading.source, index, id, line, -1, message));
    }
  }

  private static String describe(JsonToken token) {
    if (token == null) {
      return "an empty file";
    }
    return switch (token) {
      case START_ARRAY -> "an array";
      case START_OBJECT -> "an object";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> token.toString();
    };
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }
}
