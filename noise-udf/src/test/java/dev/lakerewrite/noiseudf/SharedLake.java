package dev.lakerewrite.noiseudf;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.duckdb.DuckDBConnection;

/** The WikiDBs sample as a sandboxed lake, built once per test JVM under target/ and shared (read-only). */
final class SharedLake {

  private static DuckDBConnection connection;
  private static List<String> tables;

  private SharedLake() {}

  static synchronized DuckDBConnection connection() throws Exception {
    if (connection == null) {
      Path dir = Path.of("target", "test-lakes");
      Files.createDirectories(dir);
      Path file = dir.resolve("sample-" + ProcessHandle.current().pid() + ".duckdb");
      tables = Sandbox.buildLake(Sandbox.sample(), file);
      connection = Sandbox.open(file, dir.resolve("tmp"));
      CleaningFunctions.register(connection);
    }
    return connection;
  }

  static synchronized List<String> tables() throws Exception {
    connection();
    return tables;
  }
}
