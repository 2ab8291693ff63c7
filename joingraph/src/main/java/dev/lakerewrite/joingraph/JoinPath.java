package dev.lakerewrite.joingraph;

import java.util.List;
import java.util.Objects;

/**
 * A join path returned by FIND_JOIN_PATH (thesis §5.2.2): the tables, each hop's keys re-ranked by execution,
 * the SQL joining them on the best keys, its row count and a preview.
 *
 * @param tables the tables from the first requested table to the second
 * @param cost C(P), the path cost Yen's algorithm ranked it by (lower is better)
 * @param hops one per join, in path order
 * @param sql {@code SELECT * FROM t0 JOIN t1 ON … JOIN t2 ON …} on the best keys
 * @param rowCount rows of the joined path (counted up to the row cap)
 * @param rowCountCapped whether {@code rowCount} stopped at the row cap
 * @param preview its first rows
 * @param error why the path could not be executed, or null
 */
public record JoinPath(List<String> tables, double cost, List<JoinHop> hops, String sql, long rowCount,
    boolean rowCountCapped, JoinPreview preview, String error) {
  public JoinPath {
    tables = List.copyOf(tables);
    hops = List.copyOf(hops);
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(preview, "preview");
  }

  /** Number of joins on the path. */
  public int length() {
    return hops.size();
  }
}
