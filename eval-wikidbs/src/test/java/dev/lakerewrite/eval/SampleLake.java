package dev.lakerewrite.eval;

import dev.lakerewrite.core.DataLake;
import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * The WikiDBs sample loaded by core ({@code DataLake.fromWikiDbs}) as one lake, shared by the test classes. Its
 * cache lives in this module's {@code target/lake-cache}, so the tests never write beside the sample, into the
 * user's cache or into the machine's temp directory.
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

  /** {@code target/lake-cache}, found from where the test classes were compiled to ({@code target/test-classes}). */
  static Path cacheRoot() {
    try {
      Path testClasses = Path.of(SampleLake.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return testClasses.getParent().resolve("lake-cache");
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the build directory", e);
    }
  }

  /** One lake for the whole test run; open a session per test class (sessions are not thread-safe). */
  static synchronized DataLake shared() {
    if (shared == null) {
      DataLake lake = DataLake.builder().cacheDirectory(cacheRoot()).fromWikiDbs(sampleDir());
      // Closed when the test JVM ends, so core removes the lake's temp directory.
      Runtime.getRuntime().addShutdownHook(new Thread(lake::close, "close-sample-lake"));
      shared = lake;
    }
    return shared;
  }
}
