package dev.lakerewrite.core.reliability;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What the reliability suite compares before and after hostile input: SHA-256 of files and folder trees, folder
 * listings, and where a lake lets DuckDB spill.
 */
final class Fingerprints {
  private Fingerprints() {}

  /** SHA-256 of one file's bytes. */
  static String sha256(Path file) {
    MessageDigest md = digest();
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
      in.transferTo(OutputStream.nullOutputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return HexFormat.of().formatHex(md.digest());
  }

  /** SHA-256 over every regular file under {@code folder}: relative paths and contents, in path order. */
  static String sha256Tree(Path folder) {
    MessageDigest md = digest();
    for (var e : listing(folder).entrySet()) {
      md.update(e.getKey().getBytes(StandardCharsets.UTF_8));
      md.update((byte) 0);
      md.update(sha256(folder.resolve(e.getKey())).getBytes(StandardCharsets.US_ASCII));
    }
    return HexFormat.of().formatHex(md.digest());
  }

  /** Regular files under {@code folder} (relative path → size), sorted; empty when it does not exist. */
  static TreeMap<String, Long> listing(Path folder) {
    TreeMap<String, Long> out = new TreeMap<>();
    if (!Files.isDirectory(folder)) {
      return out;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        out.put(folder.relativize(p).toString(), Files.size(p));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The private temp directory DuckDB may spill to for this lake (read back from the engine's settings). */
  static Path tempDirectory(DataLake lake) {
    try (LakeSession s = lake.openSession(); Statement st = s.connection().createStatement();
        ResultSet rs = st.executeQuery("SELECT current_setting('temp_directory')")) {
      rs.next();
      return Path.of(rs.getString(1));
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Files that attacks try to create; none may exist afterwards. */
  static List<Path> attackTargets() {
    Path tmp = Path.of("/tmp");
    try (Stream<Path> s = Files.list(tmp)) {
      return s.filter(p -> p.getFileName().toString().startsWith("lakerewrite-attack")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
