package dev.lakerewrite.core;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A failed query, as data: the loop hands it to its agents, the harness records it.
 *
 * @param kind what kind of failure
 * @param message the engine's or the executor's message, including DuckDB's own "did you mean" hints
 * @param position zero-based character offset into {@code sql} where the problem is, or -1 when unknown
 * @param sql the statement that failed
 */
public record QueryError(ErrorKind kind, String message, int position, String sql) {

  public QueryError {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(sql, "sql");
    if (position < -1) {
      throw new IllegalArgumentException("position must be -1 (unknown) or an offset, was " + position);
    }
  }

  /** The offset of the problem in {@link #sql()}, if known. */
  public OptionalInt location() {
    return position < 0 ? OptionalInt.empty() : OptionalInt.of(position);
  }

  /** A one-line summary for prompts and logs: {@code BINDER at 7: Referenced column "x" not found...}. */
  public String summary() {
    String firstLine = message.lines().findFirst().orElse(message);
    return kind + (position >= 0 ? " at " + position : "") + ": " + firstLine;
  }

  @Override
  public String toString() {
    return summary();
  }
}
