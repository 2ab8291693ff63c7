package dev.lakerewrite.eval;

import dev.lakerewrite.core.DataLake;
import java.nio.file.Path;

/**
 * The WikiDBs sample loaded by core ({@code DataLake.fromWikiDbs}) as one lake, shared by the test classes. Its
 * cache lives under the build's temp directory (surefire points {@code java.io.tmpdir} into {@code target/}), so
 * the tests never write beside the sample or into the user's cache.
 */
final class SampleLake {

  private static DataLake shared;

  private SampleLake() {}

  /** The sample folder, from the system property surefire sets. */
  static Path sampleDir() {
    String dir = System.getProperty("lakerewrite.sample");
    if (dir == null) {
      throw new IllegalStateException("system property lakerewrite.sample is not set (surefire sets it)");
    }
    return Path.of(dir);
  }

  /** A cache root inside the build directory. */
  static Path cacheRoot() {
    return Path.of(System.getProperty("java.io.tmpdir"), "lake-cache");
  }

  /** One lake for the whole test run; open a session per test class (sessions are not thread-safe). */
  static synchronized DataLake shared() {
    if (shared == null) {
      shared = DataLake.builder().cacheDirectory(cacheRoot()).fromWikiDbs(sampleDir());
    }
    return shared;
  }
}
