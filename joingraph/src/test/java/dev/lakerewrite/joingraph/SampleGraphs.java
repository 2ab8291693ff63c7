package dev.lakerewrite.joingraph;

import dev.lakerewrite.testing.SampleLake;
import java.sql.Connection;
import java.sql.SQLException;

/** The sample lake's join graph under the default settings, built once per test JVM on a sandboxed connection. */
final class SampleGraphs {
  private static Connection connection;
  private static JoinGraph defaults;

  private SampleGraphs() {}

  static synchronized Connection connection() {
    try {
      if (connection == null || connection.isClosed()) {
        connection = SampleLake.open();
      }
      return connection;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  static synchronized JoinGraph defaults() {
    if (defaults == null) {
      defaults = JoinGraph.builder().connection(connection()).embedder(TestEmbedders.miniLm()).build();
    }
    return defaults;
  }
}
