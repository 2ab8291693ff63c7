package dev.lakerewrite.core;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.ParsedSql;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.SqlSyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The executor's admission check, decided on DuckDB's own syntax tree rather than by pattern matching: exactly
 * one statement, and it must be a query (DuckDB serialises nothing else); table functions only from a small
 * allow-list (no file, network or nested-SQL readers); no functions with side effects. The sandbox (read-only
 * lake, no external access, locked configuration) would stop the rest anyway; this check makes the refusal
 * early, uniform and explained. Linear in the size of the syntax tree.
 */
final class StatementGuard {
  /** Table functions a lake query may use: generators and in-memory unnesting only. */
  static final Set<String> ALLOWED_TABLE_FUNCTIONS = Set.of(
      "range", "generate_series", "unnest", "json_each", "json_tree", "duckdb_tables", "duckdb_columns",
      "duckdb_views", "duckdb_schemas", "duckdb_types", "duckdb_keywords");
  /** Scalar functions with effects beyond computing a value, that run SQL text, or read session state. */
  static final Set<String> FORBIDDEN_FUNCTIONS = Set.of(
      "setseed", "nextval", "currval", "query", "query_table", "json_execute_serialized_sql", "getenv",
      "set_variable", "getvariable", "current_setting", "make_secret", "which_secret", "enable_profiling",
      "disable_profiling");
  /**
   * Longest SQL text admitted (characters). Far above any hand- or LLM-written query with cleaning CTEs; it bounds
   * the parsing and binding work done before the time limit starts (DuckDB cannot cancel a statement while it
   * is being planned, and the executor plans a query twice: a 100 KB IN list spends 4 to 5 s there on 2 cores).
   */
  static final int MAX_SQL_CHARS = 64 * 1024;

  private StatementGuard() {}

  /** Returns the refusal for {@code sql}, or empty when it may run. */
  /**
   * PostgreSQL's server-side functions that read or list files, sleep, lock, signal or terminate backends, change
   * or read settings, reach other servers, use large objects, or run SQL text ({@code query_to_xml}...): refused
   * by name (prefixes end with {@code _}), on top of the read-only transaction the executor runs PostgreSQL
   * queries in.
   */
  static final Set<String> FORBIDDEN_POSTGRES_FUNCTIONS = Set.of(
      "pg_read_file", "pg_read_binary_file", "pg_ls_", "pg_stat_file", "pg_sleep", "pg_advisory_",
      "pg_try_advisory_", "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile",
      "pg_promote", "pg_switch_wal", "pg_create_", "pg_drop_", "pg_logical_", "pg_replication_", "pg_file_",
      "pg_log_backend_memory_contexts", "pg_notify", "pg_import_system_collations", "lo_", "dblink",
      "set_config", "current_setting", "query_to_xml", "query_to_xmlschema", "query_to_xml_and_xmlschema",
      "cursor_to_xml", "table_to_xml", "schema_to_xml", "database_to_xml", "txid_current", "pg_current_xact_id");

  static Optional<QueryError> check(SqlParser parser, String sql) {
    return check(parser, sql, Engine.DUCKDB);
  }

  static Optional<QueryError> check(SqlParser parser, String sql, Engine engine) {
    if (sql.isBlank()) {
      return Optional.of(new QueryError(ErrorKind.REJECTED, "empty SQL: there is no statement to run", 0, sql));
    }
    if (sql.length() > MAX_SQL_CHARS) {
      return Optional.of(new QueryError(ErrorKind.REJECTED, String.format(Locale.ROOT,
          "the SQL text is too long: %,d characters; the executor accepts at most %,d", sql.length(), MAX_SQL_CHARS),
          MAX_SQL_CHARS, sql));
    }
    ParsedSql parsed;
    try {
      parsed = parser.parse(sql);
    } catch (SqlSyntaxException e) {
      return Optional.of(new QueryError(e.notAQuery() ? ErrorKind.REJECTED : ErrorKind.PARSE, e.getMessage(),
          e.position(), sql));
    }
    if (parsed.statementCount() != 1) {
      return Optional.of(new QueryError(ErrorKind.REJECTED,
          "multiple statements: found " + parsed.statementCount()
              + "; the executor runs exactly one query at a time", secondStatementOffset(parsed), sql));
    }
    return firstForbidden(parsed.statement(0), sql, engine);
  }

  private static boolean forbiddenOnPostgres(String fn) {
    for (String f : FORBIDDEN_POSTGRES_FUNCTIONS) {
      if (f.endsWith("_") ? fn.startsWith(f) : fn.equals(f)) {
        return true;
      }
    }
    return false;
  }

  private static int secondStatementOffset(ParsedSql parsed) {
    JsonNode second = parsed.statement(1).path("node");
    long loc = minLocation(second);
    return loc >= 0 && loc < parsed.sql().length() ? (int) loc : -1;
  }

  private static long minLocation(JsonNode n) {
    long best = -1;
    if (n.isObject()) {
      JsonNode loc = n.get("query_location");
      if (loc != null && loc.canConvertToLong() && loc.asLong() >= 0 && loc.asLong() < Integer.MAX_VALUE) {
        best = loc.asLong();
      }
    }
    for (JsonNode child : n) {
      long c = minLocation(child);
      if (c >= 0 && (best < 0 || c < best)) {
        best = c;
      }
    }
    return best;
  }

  private static Optional<QueryError> firstForbidden(JsonNode node, String sql, Engine engine) {
    if (node.isObject()) {
      if ("BASE_TABLE".equals(node.path("type").asText())) {
        String name = node.path("table_name").asText("");
        if (looksLikePath(name)) {
          return Optional.of(new QueryError(ErrorKind.REJECTED,
              "reading files or URLs by path is not allowed (" + name + "): queries may read lake tables only",
              location(node, sql), sql));
        }
      }
      if ("TABLE_FUNCTION".equals(node.path("type").asText())) {
        String fn = node.path("function").path("function_name").asText("").toLowerCase(Locale.ROOT);
        if (!ALLOWED_TABLE_FUNCTIONS.contains(fn)) {
          return Optional.of(new QueryError(ErrorKind.REJECTED,
              "table function " + fn + "() is not allowed: queries may read lake tables only (allowed table"
                  + " functions: " + String.join(", ", new java.util.TreeSet<>(ALLOWED_TABLE_FUNCTIONS)) + ")",
              location(node, sql), sql));
        }
      }
      if ("FUNCTION".equals(node.path("class").asText())) {
        String fn = node.path("function_name").asText("").toLowerCase(Locale.ROOT);
        if (FORBIDDEN_FUNCTIONS.contains(fn) || engine == Engine.POSTGRESQL && forbiddenOnPostgres(fn)) {
          return Optional.of(new QueryError(ErrorKind.REJECTED,
              "function " + fn + "() is not allowed in lake queries: it has side effects or runs SQL text",
              location(node, sql), sql));
        }
      }
    }
    for (JsonNode child : node) {
      Optional<QueryError> e = firstForbidden(child, sql, engine);
      if (e.isPresent()) {
        return e;
      }
    }
    return Optional.empty();
  }

  /** DuckDB's replacement scans turn {@code FROM 'x.csv'} into a file read; lake table names never look so. */
  static boolean looksLikePath(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.contains("/") || n.contains("\\") || n.contains("://") || n.startsWith("~")
        || n.matches(".*\\.(csv|tsv|txt|json|jsonl|ndjson|parquet|gz|zst|db|duckdb|sqlite|xlsx|arrow)$");
  }

  private static int location(JsonNode node, String sql) {
    long loc = minLocation(node);
    return loc >= 0 && loc < sql.length() ? (int) loc : -1;
  }
}
