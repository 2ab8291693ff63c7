package dev.lakerewrite.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DuckDB's own parser, the one wrapper every module uses: {@code json_serialize_sql} turns SQL text into the
 * engine's syntax tree as JSON (read with Jackson), {@code json_deserialize_sql} renders a tree back to SQL. What
 * is analysed or validated is therefore exactly what DuckDB will execute, DuckDB-only syntax included, and what
 * is rendered is DuckDB's own printing of the tree. DuckDB serialises only queries (SELECT, WITH, set
 * operations); other statements come back as a {@link SqlParseException} of type {@code not implemented}.
 *
 * <p>No data is read: any DuckDB connection will do, sandboxed or not. A parser is bound to its connection and,
 * like it, used by one thread at a time. Parsing takes tens of microseconds.
 */
public final class DuckDbParser {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LOCATION = Pattern.compile("\\[(\\d+),(\\d+)\\]");

  private final Connection connection;

  /**
   * Answers of {@code json_serialize_sql} and {@code json_deserialize_sql} by their argument: both are pure
   * functions of their text, and the equivalence checker asks for the same few thousand again and again (each
   * query of a pair, each constant and filter it renders, on every check): one engine round trip saved per repeat.
   * Keyed by the argument's text, at most {@value #CACHED} entries (least recently used first out), arguments
   * longer than {@value #CACHED_LENGTH} characters are not kept; shared by every connection (the functions do
   * not read the catalog).
   */
  private static final Map<String, String> ANSWERS = java.util.Collections.synchronizedMap(
      new java.util.LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
          return size() > CACHED;
        }
      });

  private static final int CACHED = 4096;
  private static final int CACHED_LENGTH = 65_536;

  private DuckDbParser(Connection connection) {
    this.connection = connection;
  }

  /** A parser on the caller's DuckDB connection (which the caller keeps open while using the parser). */
  public static DuckDbParser on(Connection duckdb) {
    return new DuckDbParser(Objects.requireNonNull(duckdb, "duckdb"));
  }

  /**
   * The syntax trees of the statements in {@code sql}, in order (one object with a {@code node} per statement;
   * empty for text without a statement). The trees are the parser's own: copy before editing when they are kept.
   *
   * @throws SqlParseException if DuckDB cannot parse the text or a statement is not a query
   * @throws SQLException if the connection fails
   */
  public List<ObjectNode> parse(String sql) throws SQLException {
    Objects.requireNonNull(sql, "sql");
    JsonNode root = readTree(call("SELECT json_serialize_sql(?::VARCHAR)", sql));
    if (root.path("error").asBoolean(false)) {
      int position = -1;
      Matcher m = LOCATION.matcher(root.path("location").asText(""));
      if (m.matches()) {
        position = Integer.parseInt(m.group(1));
      } else if (root.has("position")) {
        position = root.path("position").asInt(-1);
      }
      throw new SqlParseException(root.path("error_message").asText("cannot parse"),
          root.path("error_type").asText(""), position);
    }
    List<ObjectNode> statements = new ArrayList<>();
    for (JsonNode s : root.path("statements")) {
      statements.add((ObjectNode) s);
    }
    return statements;
  }

  /** Renders one statement tree (as {@link #parse} returns it, possibly edited) back to SQL text. */
  public String render(JsonNode statement) throws SQLException {
    Objects.requireNonNull(statement, "statement");
    ObjectNode wrapper = JSON.createObjectNode();
    wrapper.put("error", false);
    wrapper.putArray("statements").add(statement);
    return call("SELECT json_deserialize_sql(?::JSON)", wrapper.toString());
  }

  private String call(String query, String argument) throws SQLException {
    boolean keep = argument.length() <= CACHED_LENGTH;
    String key = keep ? (query.contains("deserialize") ? "render:" : "parse:") + argument : null;
    if (keep) {
      String known = ANSWERS.get(key);
      if (known != null) {
        return known;
      }
    }
    String answer = ask(query, argument);
    if (keep && answer != null) {
      ANSWERS.put(key, answer);
    }
    return answer;
  }

  private String ask(String query, String argument) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement(query)) {
      ps.setString(1, argument);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }

  private static JsonNode readTree(String json) {
    try {
      return JSON.readTree(json);
    } catch (StreamConstraintsException e) {
      // Thousands of nested parentheses or subqueries: DuckDB parses them, but their tree passes Jackson's
      // nesting limit. Refuse them like any text that cannot be analysed.
      throw new SqlParseException("the query is nested too deeply to analyse (" + e.getOriginalMessage() + ")",
          "nesting", -1);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("DuckDB returned a syntax tree that is not JSON: " + e.getOriginalMessage(), e);
    }
  }
}
