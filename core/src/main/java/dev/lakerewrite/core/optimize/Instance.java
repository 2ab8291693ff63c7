package dev.lakerewrite.core.optimize;

import dev.lakerewrite.core.SafeExecutor;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * One database instance of the query's schema that candidates are checked on: the target itself, or a further
 * instance the optimizer built (a sample, a generated one) and owns.
 */
final class Instance implements AutoCloseable {
  private final String name;
  private final String description;
  private final Connection connection;
  private final SafeExecutor executor;
  private final boolean owned;
  private final java.util.function.UnaryOperator<String> view;

  Instance(String name, String description, Connection connection, boolean owned) {
    this(name, description, connection, owned, java.util.function.UnaryOperator.identity());
  }

  /**
   * An instance seen through {@code view}: every query is rewritten by it before it runs (e.g. CTEs that shadow
   * large tables with a sample of their rows, so that the same database holds a smaller instance without writes).
   */
  Instance(String name, String description, Connection connection, boolean owned,
      java.util.function.UnaryOperator<String> view) {
    this.name = name;
    this.description = description;
    this.connection = connection;
    this.executor = SafeExecutor.on(connection);
    this.owned = owned;
    this.view = view;
  }

  /** Runs untrusted SQL on this instance (through its view). */
  dev.lakerewrite.core.Execution execute(String sql, dev.lakerewrite.core.QueryLimits limits) {
    return executor.execute(view.apply(sql), limits);
  }

  String name() {
    return name;
  }

  String description() {
    return description;
  }

  Connection connection() {
    return connection;
  }

  SafeExecutor executor() {
    return executor;
  }

  @Override
  public void close() {
    if (owned) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // An in-memory instance: nothing to lose.
      }
    }
  }

  @Override
  public String toString() {
    return name + " (" + description + ")";
  }
}
