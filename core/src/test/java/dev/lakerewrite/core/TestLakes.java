package dev.lakerewrite.core;

import java.nio.file.Files;
import java.nio.file.Path;

/** The WikiDBs sample, loaded once per test JVM into a cache under target/. */
public final class TestLakes {
  private static DataLake sample;

  private TestLakes() {}

  /** The sample folder ({@code ../shared/data/wikidbs-sample}), as surefire passes it. */
  public static Path sampleFolder() {
    String p = System.getProperty("lakerewrite.sample");
    if (p == null) {
      throw new IllegalStateException("system property lakerewrite.sample is not set (run the tests with Maven)");
    }
    Path path = Path.of(p);
    if (!Files.isDirectory(path)) {
      throw new IllegalStateException("the WikiDBs sample is not at " + path + "; ../shared must sit beside the checkout");
    }
    return path;
  }

  /** The shared cache root for test lakes, under target/ so that test runs reuse materialised lakes. */
  public static Path cacheRoot() {
    return Path.of("target", "lake-cache").toAbsolutePath();
  }

  /** The sample lake, shared by all tests of the JVM; never close it. */
  public static synchronized DataLake sample() {
    if (sample == null || sample.isClosed()) {
      sample = DataLake.builder().cacheDirectory(cacheRoot()).fromWikiDbs(sampleFolder());
    }
    return sample;
  }
}
