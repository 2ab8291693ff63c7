package dev.lakerewrite.core;

import dev.lakerewrite.sql.Sql;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Locks a DuckDB database down for untrusted queries: no extension installs or loads (nothing ever reaches for
 * the network), spilling only to a private per-lake temp directory, bounded memory and threads, no file system
 * or network access from SQL, and finally the configuration locked so that no statement can undo any of it.
 * Settings are database-wide, so every {@code duplicate()} of the connection inherits them.
 */
final class Sandbox {
  private Sandbox() {}

  static void apply(Connection connection, Path tempDirectory, String memoryLimit, int threads) {
    List<String> settings = List.of(
        "SET autoinstall_known_extensions = false",
        "SET autoload_known_extensions = false",
        "SET allow_community_extensions = false",
        "SET temp_directory = " + Sql.literal(tempDirectory.toString()),
        "SET memory_limit = " + Sql.literal(memoryLimit),
        "SET threads = " + threads,
        "SET enable_external_access = false",
        "SET lock_configuration = true");
    try (Statement st = connection.createStatement()) {
      for (String s : settings) {
        st.execute(s);
      }
    } catch (SQLException e) {
      throw new LakeRewriteException("cannot sandbox the lake's DuckDB connection: " + e.getMessage(), e);
    }
  }

  /** Temp directories of lakes not closed yet: removed at JVM exit if their lake never is. */
  private static final java.util.Set<Path> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Sandbox::deleteRecursively),
        "lakerewrite-temp-cleanup"));
  }

  /** Creates the private temp directory DuckDB may spill to. */
  static Path createTempDirectory() {
    try {
      Path dir = Files.createTempDirectory("lakerewrite-duckdb-");
      LIVE.add(dir);
      return dir;
    } catch (IOException e) {
      throw new LakeRewriteException("cannot create a temp directory for DuckDB under "
          + System.getProperty("java.io.tmpdir") + ": " + e.getMessage(), e);
    }
  }

  static void deleteRecursively(Path dir) {
    if (dir == null) {
      return;
    }
    LIVE.remove(dir);
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException ignored) {
          // Best effort: a leftover spill file in the OS temp directory is harmless.
        }
      });
    } catch (IOException ignored) {
      // Best effort, as above.
    }
  }
}
