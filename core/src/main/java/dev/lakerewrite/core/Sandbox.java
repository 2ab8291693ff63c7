package dev.lakerewrite.core;

import dev.lakerewrite.sql.Sql;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Locks a DuckDB database down for untrusted queries: no extension installs or loads (nothing ever reaches for
 * the network), spilling only to a private per-lake temp directory, bounded memory and threads, no file system
 * or network access from SQL except reading the lake's own table files, and finally the configuration locked so
 * that no statement can undo any of it. Settings are database-wide, so every {@code duplicate()} of the connection
 * inherits them.
 *
 * <p>A lake queried in place must read its files: DuckDB's {@code allowed_paths} lists exactly those files (real
 * paths, never a folder), with {@code enable_external_access = false} for everything else. DuckDB resolves links and
 * {@code ..} before it compares, so no path outside the list opens, and a listed file cannot be used to create
 * another. DuckDB would let a {@code COPY ... TO} overwrite a listed file; no such statement reaches the engine,
 * because the executor admits one {@code SELECT} and nothing else (see {@code StatementGuard}).
 */
final class Sandbox {
  private Sandbox() {}

  static void apply(Connection connection, Path tempDirectory, String memoryLimit, int threads) {
    apply(connection, tempDirectory, memoryLimit, threads, List.of());
  }

  /** The sandbox, with read access to exactly {@code readableFiles} (real paths of the lake's table files). */
  static void apply(Connection connection, Path tempDirectory, String memoryLimit, int threads,
      Collection<Path> readableFiles) {
    List<String> settings = new ArrayList<>(List.of(
        "SET autoinstall_known_extensions = false",
        "SET autoload_known_extensions = false",
        "SET allow_community_extensions = false",
        "SET temp_directory = " + Sql.literal(tempDirectory.toString()),
        "SET memory_limit = " + Sql.literal(memoryLimit),
        "SET threads = " + threads));
    if (!readableFiles.isEmpty()) {
      StringBuilder paths = new StringBuilder("SET allowed_paths = [");
      int n = 0;
      for (Path p : new java.util.TreeSet<>(readableFiles)) {
        paths.append(n++ == 0 ? "" : ", ").append(Sql.literal(p.toString()));
      }
      settings.add(paths.append(']').toString());
    }
    settings.add("SET enable_external_access = false");
    settings.add("SET lock_configuration = true");
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
