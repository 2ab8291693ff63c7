package dev.lakerewrite.joingraph;

import java.util.List;
import java.util.Objects;

/**
 * One hop of a join path, from {@code leftTable} to {@code rightTable}, with its key candidates ranked by
 * S_join (the first is the one the path's preview uses).
 */
public record JoinHop(String leftTable, String rightTable, double joinability, List<JoinKey> keys) {
  public JoinHop {
    Objects.requireNonNull(leftTable, "leftTable");
    Objects.requireNonNull(rightTable, "rightTable");
    keys = List.copyOf(keys);
  }

  /** The best key: highest S_join. */
  public JoinKey bestKey() {
    return keys.get(0);
  }
}
