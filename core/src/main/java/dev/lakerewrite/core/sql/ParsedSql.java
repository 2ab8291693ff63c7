package dev.lakerewrite.core.sql;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * SQL text and DuckDB's syntax trees for its statements. The trees are mutable Jackson nodes: copy before
 * editing ({@code statement(i).deepCopy()}) and render the copy with {@link SqlParser#render}.
 */
public final class ParsedSql {
  private final String sql;
  private final List<ObjectNode> statements;

  ParsedSql(String sql, List<ObjectNode> statements) {
    this.sql = sql;
    this.statements = List.copyOf(statements);
  }

  public String sql() {
    return sql;
  }

  public int statementCount() {
    return statements.size();
  }

  /** The i-th statement's tree: an object with a {@code node} member (SELECT_NODE, SET_OPERATION_NODE...). */
  public ObjectNode statement(int i) {
    return statements.get(i);
  }

  public List<ObjectNode> statements() {
    return statements;
  }
}
