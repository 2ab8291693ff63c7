package dev.lakerewrite.core.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.LakeRewriteException;
import dev.lakerewrite.sql.DuckDbParser;
import dev.lakerewrite.sql.SqlParseException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import org.jspecify.annotations.Nullable;
import java.util.regex.Pattern;

/**
 * DuckDB's own parser ({@link DuckDbParser}, through {@code json_serialize_sql} / {@code json_deserialize_sql})
 * for callers that accept exactly one query: the syntax tree the library analyses and edits is exactly the one
 * the engine will execute, including DuckDB-only syntax
 * ({@code QUALIFY}, {@code ::}, {@code EXCLUDE}, quoted identifiers with spaces). DuckDB serialises only
 * queries (SELECT, WITH, set operations), which is precisely the class of statements the safe executor allows,
 * so "parses here" doubles as "is a read-only query".
 *
 * <p>Parsing is cheap (tens of microseconds) and never touches data. A parser bound to a connection must be used
 * by one thread at a time, like the connection; {@link #standalone()} is safe for any number of threads.
 */
public final class SqlParser {
  private static volatile @Nullable SqlParser standalone;

  private final DuckDbParser duckdb;
  private final Object lock;

  private SqlParser(Connection connection, Object lock) {
    this.duckdb = DuckDbParser.on(connection);
    this.lock = lock;
  }

  /**
   * A parser on the given DuckDB connection (no data is read; the lake's sandbox settings are fine). The caller
   * keeps the connection open for as long as it uses the parser and uses both from one thread at a time.
   */
  public static SqlParser on(Connection duckdb) {
    return new SqlParser(Objects.requireNonNull(duckdb, "duckdb"), new Object());
  }

  /** A process-wide parser on its own in-memory, sandboxed DuckDB; thread-safe (calls are serialised). */
  public static SqlParser standalone() {
    SqlParser p = standalone;
    if (p == null) {
      synchronized (SqlParser.class) {
        p = standalone;
        if (p == null) {
          p = new SqlParser(openStandaloneConnection(), new Object());
          standalone = p;
        }
      }
    }
    return p;
  }

  private static Connection openStandaloneConnection() {
    try {
      Connection c = DriverManager.getConnection("jdbc:duckdb:");
      try (Statement s = c.createStatement()) {
        s.execute("SET autoinstall_known_extensions=false");
        s.execute("SET autoload_known_extensions=false");
        s.execute("SET enable_external_access=false");
        s.execute("SET threads=1");
        s.execute("SET lock_configuration=true");
      }
      return c;
    } catch (SQLException e) {
      throw new LakeRewriteException("cannot start the in-memory DuckDB used for SQL parsing: " + e.getMessage(), e);
    }
  }

  /**
   * Parses SQL text into DuckDB's syntax tree.
   *
   * @return the statements' trees (one {@code node} object per statement), in order
   * @throws SqlSyntaxException if the text does not parse or a statement is not a query
   */
  public ParsedSql parse(String sql) {
    Objects.requireNonNull(sql, "sql");
    List<ObjectNode> statements;
    try {
      synchronized (lock) {
        statements = duckdb.parse(sql);
      }
    } catch (SqlParseException e) {
      throw syntaxError(sql, e);
    } catch (SQLException e) {
      throw new SqlSyntaxException(firstLine(e), -1, false);
    } catch (IllegalStateException e) {
      throw new LakeRewriteException(e.getMessage(), e);
    }
    if (statements.isEmpty()) {
      throw new SqlSyntaxException("empty SQL: there is no statement to run", 0, false);
    }
    return new ParsedSql(sql, statements);
  }

  /** What a refusal of DuckDB's parser means for a caller that accepts exactly one query. */
  private static SqlSyntaxException syntaxError(String sql, SqlParseException e) {
    String message = e.getMessage();
    int position = e.position();
    boolean notAQuery = e.errorType().equals("not implemented") && message.contains("Only SELECT statements");
    if (notAQuery) {
      List<int[]> starts = StatementSplitter.statementStarts(sql);
      List<String> keywords = starts.stream().map(st -> firstKeyword(sql.substring(st[0])).orElse("?")).toList();
      if (starts.size() > 1) {
        message = "multiple statements: found " + starts.size() + " (" + String.join(", ", keywords)
            + "); only one SELECT or WITH query is allowed";
        position = keywords.stream().filter(k -> !k.equals("SELECT") && !k.equals("WITH")).findFirst()
            .map(k -> starts.get(keywords.indexOf(k))[0]).orElse(starts.get(1)[0]);
      } else {
        message = "not a query: only SELECT and WITH statements are allowed, got "
            + (keywords.isEmpty() ? "an empty statement" : keywords.get(0) + " ...");
        position = starts.isEmpty() ? 0 : starts.get(0)[0];
      }
    } else if (!e.errorType().equals("nesting")) {
      message = "Parser Error: " + message;
    }
    return new SqlSyntaxException(message, position, notAQuery);
  }

  /** Renders one statement tree (as {@link ParsedSql#statement(int)} returns it, possibly edited) back to SQL. */
  public String render(ObjectNode statement) {
    Objects.requireNonNull(statement, "statement");
    try {
      synchronized (lock) {
        return duckdb.render(statement);
      }
    } catch (SQLException e) {
      throw new SqlSyntaxException(firstLine(e), -1, false);
    }
  }

  /** Renders one expression tree to SQL text. */
  public String renderExpression(JsonNode expression) {
    Objects.requireNonNull(expression, "expression");
    ObjectNode template = (ObjectNode) parse("SELECT 1").statement(0).deepCopy();
    ObjectNode node = (ObjectNode) template.get("node");
    node.putArray("select_list").add(expression.deepCopy());
    String sql = render(template);
    return sql.startsWith("SELECT ") ? sql.substring("SELECT ".length()) : sql;
  }

  private static String firstLine(SQLException e) {
    return String.valueOf(e.getMessage()).lines().findFirst().orElse("cannot parse");
  }

  static java.util.Optional<String> firstKeyword(String sql) {
    Matcher m = Pattern.compile("^(?:\\s|--[^\\n]*\\n?|/\\*.*?\\*/)*([A-Za-z_]+)", Pattern.DOTALL).matcher(sql);
    return m.find() ? java.util.Optional.of(m.group(1).toUpperCase(java.util.Locale.ROOT)) : java.util.Optional.empty();
  }

}
