package dev.lakerewrite.eval;

import dev.lakerewrite.noiseudf.NoiseInjector;
import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The noisy copies of a lake that Noise pairs run on (thesis §7.1), made by noise-udf's seeded
 * {@link NoiseInjector} and kept: one folder per (source content, seed, rate, tables, injector version) under a root
 * (the CLI uses {@code <cache>/noisy-lakes}), built once and reused by later runs. The same seed gives
 * byte-identical files. A copy is written to a temporary folder and renamed into place, so an interrupted build
 * never leaves a half-noisy lake to be reused.
 */
public final class NoisyLakes {

  /** The record of changed cells the injector writes in the copy (beside, not inside, the tables). */
  public static final String RECORD_FILE = "noise-record.jsonl";

  private NoisyLakes() {}

  /**
   * What to inject.
   *
   * @param seed the injector's seed
   * @param rate the probability per applicable noise kind that a cell gets it
   * @param tables tables to inject into (table names as the lake names them); the others are copied unchanged
   */
  public record Spec(long seed, double rate, Set<String> tables) {
    public Spec {
      if (!(rate >= 0 && rate <= 1)) {
        throw new IllegalArgumentException("the noise rate must be in [0, 1], was " + rate);
      }
      tables = Collections.unmodifiableSet(new TreeSet<>(Objects.requireNonNull(tables, "tables")));
    }
  }

  /**
   * A noisy copy ready to load with the source's layout.
   *
   * @param folder the copy
   * @param reused whether an earlier run had built it
   * @param changedCells changed cells per table (tables without changes are absent)
   */
  public record Prepared(Path folder, boolean reused, Map<String, Long> changedCells) {
    public Prepared {
      Objects.requireNonNull(folder, "folder");
      changedCells = Collections.unmodifiableMap(new TreeMap<>(changedCells));
    }

    /** Changed cells in all tables. */
    public long totalChangedCells() {
      return changedCells.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /**
   * Returns the noisy copy of {@code source} for {@code spec}, building it under {@code root} if no earlier run
   * did.
   *
   * @param source a WikiDBs folder (with {@code databases/}) or a flat folder of CSV files
   * @param sourceFingerprint identifies the source's content (core's {@code DataLake.fingerprint()}), so a
   *     changed source gets a new copy
   * @throws IOException when the copy cannot be written
   */
  public static Prepared prepare(Path source, String sourceFingerprint, Spec spec, Path root) throws IOException {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(sourceFingerprint, "sourceFingerprint");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(root, "root");
    Path folder = root.resolve(folderName(source, sourceFingerprint, spec));
    if (Files.isDirectory(folder)) {
      return new Prepared(folder, true, changedCells(folder));
    }
    Files.createDirectories(root);
    Path temp = root.resolve(folder.getFileName() + ".tmp-" + UUID.randomUUID());
    try {
      NoiseInjector.builder().seed(spec.seed()).rate(spec.rate()).tables(spec.tables()).recordFile(RECORD_FILE)
          .build().inject(source, temp);
      try {
        Files.move(temp, folder, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, folder);
      }
      return new Prepared(folder, false, changedCells(folder));
    } catch (FileAlreadyExistsException e) {
      // Another run built the same copy meanwhile: same seed, same files; use theirs.
      return new Prepared(folder, true, changedCells(folder));
    } catch (IOException e) {
      if (Files.isDirectory(folder) && Files.exists(folder.resolve(RECORD_FILE))) {
        return new Prepared(folder, true, changedCells(folder));
      }
      throw e;
    } finally {
      deleteRecursively(temp);
    }
  }

  /** {@code <source name>-seed<seed>-<hash>}: the hash covers the source content, the spec and the injector. */
  static String folderName(Path source, String fingerprint, Spec spec) {
    String name = source.toAbsolutePath().normalize().getFileName() == null ? "lake"
        : source.toAbsolutePath().normalize().getFileName().toString();
    String key = fingerprint + "\n" + spec.seed() + "\n" + spec.rate() + "\n" + String.join(",", spec.tables())
        + "\n" + injectorVersion();
    return Evaluation.fileName(name) + "-seed" + spec.seed() + "-" + sha256(key).substring(0, 12);
  }

  /** Changed cells per table, from the copy's record. */
  static Map<String, Long> changedCells(Path folder) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    Path record = folder.resolve(RECORD_FILE);
    if (Files.exists(record)) {
      for (NoiseInjector.InjectedCell c : NoiseInjector.readRecord(record)) {
        out.merge(c.table(), 1L, Long::sum);
      }
    }
    return out;
  }

  /** A hash of the injector's class file: a changed injector makes new copies instead of reusing old ones. */
  private static String injectorVersion() {
    try (InputStream in = NoiseInjector.class.getResourceAsStream("NoiseInjector.class")) {
      return in == null ? "unknown" : sha256(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the noise injector's class file", e);
    }
  }

  private static String sha256(String s) {
    return sha256(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (Files.exists(dir)) {
      MoreFiles.deleteRecursively(dir, RecursiveDeleteOption.ALLOW_INSECURE);
    }
  }
}
