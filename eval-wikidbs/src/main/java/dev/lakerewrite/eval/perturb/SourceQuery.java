package dev.lakerewrite.eval.perturb;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

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
}
