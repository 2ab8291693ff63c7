package dev.lakerewrite.core;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;

/**
 * Runs an untrusted query through the same admission check as {@link LakeSession#execute} and streams its
 * result as Arrow record batches (DuckDB's {@code arrowExportStream}), without materialising rows in Java.
 *
 * <p>Needs {@code org.apache.arrow:arrow-c-data} and an allocator implementation (e.g. {@code
 * arrow-memory-unsafe}) on the class path, and on JDK 17 the JVM flag
 * {@code --add-opens=java.base/java.nio=ALL-UNNAMED}. Kept in its own class so that the rest of the library
 * works without Arrow.
 */
public final class ArrowExport {
  private ArrowExport() {}

  /**
   * Executes {@code sql} and returns a reader over its batches. The caller closes the reader, then the
   * session may run other queries. The query's time limit is the session's default and applies until the
   * reader is exhausted.
   *
   * @throws QueryFailedException if the query is refused or fails before its first batch
   */
  public static ArrowReader query(LakeSession session, String sql, BufferAllocator allocator, int batchSize) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(allocator, "allocator");
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1, was " + batchSize);
    }
    Optional<QueryError> refusal = StatementGuard.check(session.parser(), sql);
    if (refusal.isPresent()) {
      throw new QueryFailedException(refusal.get());
    }
    try {
      Statement st = session.connection().createStatement();
      st.setQueryTimeout((int) Math.max(1, Math.ceil(session.defaultLimits().timeout().toMillis() / 1000.0)));
      ResultSet rs = st.executeQuery(sql);
      st.closeOnCompletion();
      return (ArrowReader) rs.unwrap(DuckDBResultSet.class).arrowExportStream(allocator, batchSize);
    } catch (SQLException e) {
      throw new QueryFailedException(EngineErrors.classify(e, sql));
    }
  }
}
