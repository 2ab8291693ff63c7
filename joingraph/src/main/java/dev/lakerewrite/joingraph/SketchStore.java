package dev.lakerewrite.joingraph;

import dev.lakerewrite.retrieval.TypeFamily;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The column profiles (counts and value-hash sketches) of each table, kept on disk beside the graph, one file per
 * table and content fingerprint: a rebuild after a change reads and sketches only the tables whose fingerprint
 * changed, and loads the others. A file is written once (to a temporary name, then moved), never changed; files of
 * tables that are gone or changed are removed after a build. A damaged file only costs re-reading its table.
 *
 * <p>Format: {@code "LRSKETCH"}, version, column count, then per column its name, normalised name, SQL type
 * (or none), type family, non-null count, distinct count, theta, exactness and its ascending hashes.
 */
final class SketchStore {
  private static final Logger LOG = LoggerFactory.getLogger(SketchStore.class);
  private static final byte[] MAGIC = "LRSKETCH".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION = 1;
  private static final String SUFFIX = ".sketch";

  private final Path directory;
  private final String settings;

  /**
   * @param directory where the files live
   * @param settings what the sketches depend on besides the table (value caps); part of each file's key
   */
  SketchStore(Path directory, String settings) {
    this.directory = directory;
    this.settings = settings;
  }

  private Path file(String table, String fingerprint) {
    return directory.resolve(key(table, fingerprint) + SUFFIX);
  }

  private String key(String table, String fingerprint) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (String part : List.of(Integer.toString(VERSION), settings, table, fingerprint)) {
        sha.update(part.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
      }
      return HexFormat.of().formatHex(sha.digest()).substring(0, 32);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** The stored profiles of the table's columns, renumbered as table {@code tableIndex}, if this content's are kept. */
  Optional<List<ColumnSketch>> load(String table, String fingerprint, int tableIndex) {
    Path f = file(table, fingerprint);
    if (!Files.isRegularFile(f)) {
      return Optional.empty();
    }
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(f), 1 << 16))) {
      byte[] magic = in.readNBytes(MAGIC.length);
      if (!java.util.Arrays.equals(magic, MAGIC) || in.readInt() != VERSION) {
        return Optional.empty();
      }
      int n = in.readInt();
      List<ColumnSketch> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        String name = in.readUTF();
        String normalized = in.readUTF();
        String sqlType = in.readBoolean() ? in.readUTF() : null;
        TypeFamily family = TypeFamily.valueOf(in.readUTF());
        long nonNull = in.readLong();
        long distinct = in.readLong();
        long theta = in.readLong();
        boolean exact = in.readBoolean();
        long[] hashes = new long[in.readInt()];
        for (int h = 0; h < hashes.length; h++) {
          hashes[h] = in.readLong();
        }
        out.add(new ColumnSketch(tableIndex, name, normalized, sqlType, family, nonNull, distinct, hashes, theta,
            exact));
      }
      return Optional.of(out);
    } catch (IOException | RuntimeException e) {
      LOG.debug("sketch file {} is unreadable ({}); the table is read again", f, e.getMessage());
      return Optional.empty();
    }
  }

  /** Keeps the profiles of one table's content. Failing to write only costs re-reading the table next time. */
  void save(String table, String fingerprint, List<ColumnSketch> columns) {
    Path f = file(table, fingerprint);
    Path tmp = null;
    try {
      Files.createDirectories(directory);
      tmp = Files.createTempFile(directory, ".sketch-", ".tmp");
      try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16))) {
        out.write(MAGIC);
        out.writeInt(VERSION);
        out.writeInt(columns.size());
        for (ColumnSketch c : columns) {
          out.writeUTF(c.name);
          out.writeUTF(c.normalizedName);
          out.writeBoolean(c.sqlType != null);
          if (c.sqlType != null) {
            out.writeUTF(c.sqlType);
          }
          out.writeUTF(c.family.name());
          out.writeLong(c.nonNull);
          out.writeLong(c.distinct);
          out.writeLong(c.thetaLong);
          out.writeBoolean(c.exact);
          out.writeInt(c.hashes.length);
          for (long h : c.hashes) {
            out.writeLong(h);
          }
        }
      }
      try {
        Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
      }
      tmp = null;
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot keep the sketches of table {} in {}: {}", table, directory, e.getMessage());
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // A leftover temporary file is hidden and harmless.
        }
      }
    }
  }

  /** Removes the files of every table content not in {@code keep} (table → fingerprint pairs). */
  void retainOnly(Collection<String[]> keep) {
    Set<String> names = new HashSet<>();
    for (String[] tf : keep) {
      names.add(key(tf[0], tf[1]) + SUFFIX);
    }
    if (!Files.isDirectory(directory)) {
      return;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
      for (Path f : files) {
        if (!names.contains(f.getFileName().toString())) {
          Files.deleteIfExists(f);
        }
      }
    } catch (IOException e) {
      LOG.debug("cannot clean old sketches in {}: {}", directory, e.getMessage());
    }
  }
}
