package dev.lakerewrite.testing;

import dev.lakerewrite.sql.Sql;
import java.nio.file.Files;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import org.duckdb.DuckDBConnection;

/**
 * A lake file opened the way core hands a lake to a capability module: read-only, its own DuckDB instance, then
 * core's sandbox settings (no extension installs or loads, spilling to a private temp directory, bounded memory
 * and threads, no file or network access from SQL), then the configuration locked. Core's tests check that
 * {@link #settings} and core's sandbox leave DuckDB with the same configuration.
 */
public final class Sandbox {
  /** The memory limit the fixture's lakes run with. */
  public static final String MEMORY_LIMIT = "1GB";
  /** The DuckDB worker threads the fixture's lakes run with. */
  public static final int THREADS = 2;

  private Sandbox() {}

  /** The settings, in the order core runs them ({@code lock_configuration} last). */
  public static List<String> settings(Path tempDirectory) {
    return List.of(
        "SET autoinstall_known_extensions = false",
        "SET autoload_known_extensions = false",
        "SET allow_community_extensions = false",
        "SET temp_directory = " + Sql.literal(tempDirectory.toString()),
        "SET memory_limit = " + Sql.literal(MEMORY_LIMIT),
        "SET threads = " + THREADS,
        "SET enable_external_access = false",
        "SET lock_configuration = true");
  }

  /** Runs {@link #settings} on {@code connection}. */
  public static void apply(Connection connection, Path tempDirectory) throws SQLException {
    try (Statement st = connection.createStatement()) {
      for (String s : settings(tempDirectory)) {
        st.execute(s);
      }
    }
  }

  /**
   * Opens {@code lakeFile} read-only in an instance of its own and sandboxes it; DuckDB spills to
   * {@code tempDirectory} (created if missing). The caller closes the connection.
   */
  public static DuckDBConnection open(Path lakeFile, Path tempDirectory) throws SQLException {
    try {
      Files.createDirectories(tempDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + tempDirectory, e);
    }
    Properties props = new Properties();
    props.setProperty("duckdb.read_only", "true");
    props.setProperty("jdbc_instance_cache", "false");
    DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection(
        "jdbc:duckdb:" + lakeFile.toAbsolutePath(), props);
    try {
      apply(c, tempDirectory);
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }
}
