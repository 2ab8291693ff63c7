package dev.lakerewrite.eval;

/**
 * Runs one SQL query on a lake and returns its result as a plain table. The harness adapts {@code core}'s safe
 * executor to this interface; golden queries from pair files are untrusted text and must run through it.
 */
@FunctionalInterface
public interface QueryRunner {

  /**
   * Runs the query.
   *
   * @throws QueryRunException with the engine's message when the query does not run
   */
  PlainTable run(String sql) throws QueryRunException;
}
