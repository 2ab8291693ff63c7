package dev.lakerewrite.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What {@link DataLake#index()} found, built and reused: the lake's size, the tables whose files were added,
 * changed or removed since the lake was last indexed (and why), and per stage how many tables were built and how
 * many were taken from the cache, with the time it took. Data, for programs; the command line ({@code
 * bin/lakerewrite index}) formats it for people and as JSON.
 *
 * @param tables tables in the lake
 * @param columns columns in all tables
 * @param joinEdges edges of the join graph
 * @param changes tables added, changed or removed since the previous load of this lake (every table the first time)
 * @param stages each stage's work, in order
 * @param elapsed wall time of this call (the load happened when the lake was opened and is not included)
 */
public record IndexStatus(int tables, int columns, int joinEdges, List<TableChange> changes, List<Stage> stages,
    Duration elapsed) {

  public IndexStatus {
    changes = List.copyOf(changes);
    stages = List.copyOf(stages);
    Objects.requireNonNull(elapsed, "elapsed");
  }

  /**
   * A table added, changed or removed since the lake was last loaded.
   *
   * @param table the table
   * @param kind what happened to it
   * @param reason in words, e.g. {@code orders.csv changed (size 1200 → 1350 bytes)}
   */
  public record TableChange(String table, Kind kind, String reason) {
    /** What happened to a table. */
    public enum Kind { ADDED, CHANGED, REMOVED }

    public TableChange {
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * One stage's work.
   *
   * @param stage which stage
   * @param built tables built (or values embedded) now
   * @param reused tables (or values) taken from the cache
   * @param time time taken
   * @param detail what else is worth saying (edges, values left for later), may be empty
   */
  public record Stage(IndexStage stage, long built, long reused, Duration time, String detail) {
    public Stage {
      Objects.requireNonNull(stage, "stage");
      Objects.requireNonNull(time, "time");
      Objects.requireNonNull(detail, "detail");
    }
  }

  /** The stage's record, if it ran. */
  public java.util.Optional<Stage> stage(IndexStage stage) {
    return stages.stream().filter(s -> s.stage() == stage).findFirst();
  }

  /** Whether nothing had to be built: every stage found its work in the cache. */
  public boolean upToDate() {
    return stages.stream().allMatch(s -> s.built() == 0) && changes.isEmpty();
  }

  /** One line: {@code 29 tables, 56 join edges; built: profiles 29, retrieval 29, ...; 12.3 s}. */
  public String summary() {
    List<String> built = new ArrayList<>();
    for (Stage s : stages) {
      if (s.built() > 0) {
        built.add(s.stage().label() + " " + s.built());
      }
    }
    return String.format(Locale.ROOT, "%d tables, %d join edges; %s; %.1f s", tables, joinEdges,
        built.isEmpty() ? "up to date (everything loaded from the cache)" : "built: " + String.join(", ", built),
        elapsed.toMillis() / 1000.0);
  }
}
