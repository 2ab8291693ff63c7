package dev.lakerewrite.core;

import java.nio.file.Files;
import java.nio.file.Path;

/** The WikiDBs sample, loaded once per test JVM into a cache under target/. */
public final class TestLakes {
  private static DataLake sample;
  private static DataLake sampleInPlace;

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

  /**
   * The sample's 29 tables as a plain folder lake queried in place: {@code <db>/<table>.csv} copies under
   * {@code target/}, so {@link DataLake#fromFolder} names them as {@code fromWikiDbs} does (the stem, or the
   * database's name as a prefix where two databases share a stem). Shared by all tests of the JVM; never close it.
   */
  public static synchronized DataLake sampleInPlace() {
    if (sampleInPlace == null || sampleInPlace.isClosed()) {
      sampleInPlace = DataLake.builder().cacheDirectory(cacheRoot()).fromFolder(flatSample());
    }
    return sampleInPlace;
  }

  /** {@code target/wikidbs-flat/<db>/<table>.csv}: copies of the sample's table files, made once. */
  public static Path flatSample() {
    Path flat = Path.of("target", "wikidbs-flat").toAbsolutePath();
    try (java.util.stream.Stream<Path> dbs = Files.list(sampleFolder().resolve("databases"))) {
      for (Path db : dbs.filter(Files::isDirectory).toList()) {
        Path tables = db.resolve("tables");
        if (!Files.isDirectory(tables)) {
          continue;
        }
        Path target = Files.createDirectories(flat.resolve(db.getFileName().toString()));
        try (java.util.stream.Stream<Path> csv = Files.list(tables)) {
          for (Path f : csv.filter(p -> p.toString().endsWith(".csv")).toList()) {
            Path copy = target.resolve(f.getFileName().toString());
            if (!Files.exists(copy)) {
              Files.copy(f, copy, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            }
          }
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot copy the sample to " + flat, e);
    }
    return flat;
  }
}
