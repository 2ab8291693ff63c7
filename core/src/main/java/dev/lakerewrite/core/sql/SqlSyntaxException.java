package dev.lakerewrite.core.sql;

import dev.lakerewrite.core.LakeRewriteException;

/**
 * SQL text that DuckDB's parser rejects, or a statement that is not a query. Carries the zero-based offset of
 * the problem when the parser reports one.
 */
public final class SqlSyntaxException extends LakeRewriteException {
  private static final long serialVersionUID = 1L;
  private final int position;
  private final boolean notAQuery;

  SqlSyntaxException(String message, int position, boolean notAQuery) {
    super(message);
    this.position = position;
    this.notAQuery = notAQuery;
  }

  /** Zero-based character offset of the problem, or -1 when unknown. */
  public int position() {
    return position;
  }

  /** True when the text parsed but is not a SELECT/WITH query (DDL, DML, PRAGMA, SET, COPY...). */
  public boolean notAQuery() {
    return notAQuery;
  }
}
