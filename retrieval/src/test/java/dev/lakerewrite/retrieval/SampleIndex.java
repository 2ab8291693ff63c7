package dev.lakerewrite.retrieval;

import dev.lakerewrite.testing.SampleLake;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import org.duckdb.DuckDBConnection;

/**
 * The WikiDBs sample as this module receives it (the shared {@link SampleLake}, sandboxed) and its index, shared by
 * the search tests of one JVM.
 */
final class SampleIndex {
  private static DuckDBConnection sandboxed;
  private static LakeIndex index;
  private static Path cacheDirectory;

  private SampleIndex() {}

  /** The sandboxed connection of this JVM's sample lake; duplicate it per thread. */
  static synchronized DuckDBConnection connection() throws Exception {
    if (sandboxed == null) {
      sandboxed = SampleLake.open();
    }
    return sandboxed;
  }

  /**
   * The index of the sample lake shared by this JVM's search tests (built on first use in a fresh cache directory
   * under the temp directory, with the shared embedder; never closed).
   */
  static synchronized LakeIndex index() throws Exception {
    if (index == null) {
      cacheDirectory = Files.createTempDirectory(tmp(), "sample-index");
      try (Connection c = duplicate()) {
        index = LakeIndex.builder().connection(c).cacheDirectory(cacheDirectory).build();
      }
    }
    return index;
  }

  /** The shared index's cache directory. */
  static synchronized Path cacheDirectory() throws Exception {
    index();
    return cacheDirectory;
  }

  static Path tmp() throws IOException {
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(dir);
    return dir;
  }

  /** A fresh connection duplicate for one thread (and one test). */
  static Connection duplicate() throws Exception {
    return connection().duplicate();
  }
}
