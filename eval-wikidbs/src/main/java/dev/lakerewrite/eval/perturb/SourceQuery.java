package dev.lakerewrite.eval.perturb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A query over the clean source database: it becomes the user query of a pair (the user assumes the clean schema)
 * and, over the CTEs that undo the disorder, its golden query.
 *
 * @param id unique among the queries (the pair ids add the lake's name)
 * @param sql the query
 * @param shapes its SQL shapes; empty to have them {@linkplain SqlShape#detect detected}
 */
public record SourceQuery(String id, String sql, Set<SqlShape> shapes) {
  public SourceQuery {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(sql, "sql");
    if (id.isBlank() || sql.isBlank()) {
      throw new IllegalArgumentException("a source query needs an id and SQL, got id '" + id + "'");
    }
    shapes = shapes.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(shapes));
  }

  /** A query whose shapes are detected. */
  public static SourceQuery of(String id, String sql) {
    return new SourceQuery(id, sql, Set.of());
  }

  /**
   * Reads queries: from a folder, every {@code *.sql} file (in name order; id = the file's stem, with
   * {@code -2}, {@code -3} for further statements in one file); from a file, its semicolon-separated statements
   * (ids {@code q001}, {@code q002}, ...).
   *
   * @throws IOException when nothing can be read
   * @throws IllegalArgumentException when the path holds no query
   */
  public static List<SourceQuery> readAll(Path path) throws IOException {
    Objects.requireNonNull(path, "path");
    List<SourceQuery> out = new ArrayList<>();
    if (Files.isDirectory(path)) {
      List<Path> files;
      try (Stream<Path> s = Files.list(path)) {
        files = s.filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".sql")).sorted().toList();
      }
      for (Path f : files) {
        String stem = f.getFileName().toString().replaceFirst("(?i)\\.sql$", "");
        List<String> statements = SqlTokens.statements(Files.readString(f, StandardCharsets.UTF_8));
        for (int i = 0; i < statements.size(); i++) {
          out.add(of(i == 0 ? stem : stem + "-" + (i + 1), statements.get(i)));
        }
      }
    } else if (Files.isRegularFile(path)) {
      List<String> statements = SqlTokens.statements(Files.readString(path, StandardCharsets.UTF_8));
      for (int i = 0; i < statements.size(); i++) {
        out.add(of(String.format(Locale.ROOT, "q%03d", i + 1), statements.get(i)));
      }
    } else {
      throw new IllegalArgumentException("no query file or folder at " + path.toAbsolutePath().normalize());
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no query in " + path + " (a .sql file of ';'-separated queries, or a "
          + "folder of .sql files)");
    }
    return out;
  }
}
