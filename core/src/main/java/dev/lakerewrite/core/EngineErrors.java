package dev.lakerewrite.core;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns engine exceptions into {@link QueryError}s: DuckDB's by the message's error class and caret, PostgreSQL's
 * by SQLSTATE and the server's "Position: n".
 */
final class EngineErrors {
  private static final Pattern CARET = Pattern.compile("LINE (\\d+): (.*)\\R( *)\\^", Pattern.MULTILINE);

  private EngineErrors() {}

  static QueryError classify(SQLException e, String sql) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().strip();
    ErrorKind kind = kindOf(e, message);
    if (kind == ErrorKind.TIMEOUT) {
      message = "query cancelled: it ran past its time limit (" + message + ")";
    }
    return new QueryError(kind, message, position(message, sql), sql);
  }

  private static final Pattern PG_POSITION = Pattern.compile("\\n\\s*Position: (\\d+)");

  static ErrorKind kindOf(SQLException e, String message) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    if (state.equals("57014")) {
      return ErrorKind.TIMEOUT; // query_canceled: statement_timeout or a cancel request
    }
    if (state.equals("42601")) {
      return ErrorKind.PARSE;
    }
    if (state.equals("25006") || state.equals("42501")) {
      return ErrorKind.REJECTED; // read-only transaction, insufficient privilege
    }
    if (state.startsWith("42")) {
      return ErrorKind.BINDER;
    }
    if (e instanceof SQLTimeoutException || message.startsWith("INTERRUPT Error")) {
      return ErrorKind.TIMEOUT;
    }
    if (message.startsWith("Parser Error")) {
      return ErrorKind.PARSE;
    }
    if (message.startsWith("Binder Error") || message.startsWith("Catalog Error")) {
      return ErrorKind.BINDER;
    }
    if (message.startsWith("Permission Error")
        || message.contains("attached in read-only mode")
        || message.contains("the configuration has been locked")
        || message.contains("disabled through configuration")
        || message.contains("disabled by configuration")) {
      return ErrorKind.REJECTED;
    }
    return ErrorKind.RUNTIME;
  }

  /**
   * The character offset DuckDB's caret points at. DuckDB prints the offending line (elided with "..." when
   * long) and a caret under it; the offset is recovered by locating the printed fragment in the SQL.
   */
  static int position(String message, String sql) {
    Matcher pg = PG_POSITION.matcher(message);
    if (pg.find()) {
      int p = Integer.parseInt(pg.group(1)) - 1;
      return p >= 0 && p < sql.length() ? p : -1;
    }
    Matcher m = CARET.matcher(message);
    if (!m.find()) {
      return -1;
    }
    int lineNo = Integer.parseInt(m.group(1));
    String shown = m.group(2);
    int caretColumn = m.group(3).length() - ("LINE " + lineNo + ": ").length();
    if (caretColumn < 0) {
      return -1;
    }
    String[] lines = sql.split("\\R", -1);
    if (lineNo < 1 || lineNo > lines.length) {
      return -1;
    }
    int lineStart = 0;
    for (int i = 0; i < lineNo - 1; i++) {
      lineStart += lines[i].length() + 1;
    }
    String fragment = shown;
    int prefix = 0;
    if (fragment.startsWith("...")) {
      fragment = fragment.substring(3);
      prefix = 3;
    }
    if (fragment.endsWith("...")) {
      fragment = fragment.substring(0, fragment.length() - 3);
    }
    int at = fragment.isEmpty() ? 0 : lines[lineNo - 1].indexOf(fragment);
    if (at < 0) {
      return -1;
    }
    int pos = lineStart + at + caretColumn - prefix;
    return pos >= 0 && pos < sql.length() ? pos : -1;
  }
}
