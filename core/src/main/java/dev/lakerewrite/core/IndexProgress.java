package dev.lakerewrite.core;

/**
 * Told how far {@link DataLake#index(IndexProgress)} has come: called with the stage, the units done and the units
 * to do (tables, or values for {@link IndexStage#VALUES}) when a stage starts, as it goes and when it ends. Called
 * from the indexing threads; implementations synchronise themselves and return quickly.
 */
@FunctionalInterface
public interface IndexProgress {
  /** Nothing. */
  IndexProgress NONE = (stage, done, total) -> {};

  void update(IndexStage stage, long done, long total);
}
