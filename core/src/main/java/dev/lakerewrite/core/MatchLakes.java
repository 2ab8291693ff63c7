package dev.lakerewrite.core;

import dev.lakerewrite.core.match.MatchLake;
import java.util.Objects;
import java.util.Optional;

/**
 * A lake as the schema matcher reads it, outside a rewrite: for fitting and judging the matcher
 * ({@code bin/lakerewrite train-matcher}). Close it to release its session.
 */
public final class MatchLakes implements AutoCloseable {
  private final LakeSession session;
  private final MatchLake lake;

  private MatchLakes(LakeSession session, MatchLake lake) {
    this.session = session;
    this.lake = lake;
  }

  /** Opens a session on an (indexed or indexing) lake. */
  public static MatchLakes open(DataLake lake) {
    Objects.requireNonNull(lake, "lake");
    lake.services();
    LakeSession session = lake.openSession();
    return new MatchLakes(session, new DefaultLakeTools(lake, session, Optional.empty(), true));
  }

  public MatchLake lake() {
    return lake;
  }

  @Override
  public void close() {
    session.close();
  }
}
