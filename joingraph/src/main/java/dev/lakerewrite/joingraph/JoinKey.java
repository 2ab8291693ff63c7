package dev.lakerewrite.joingraph;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A join-key candidate of one hop, re-ranked by executing the join (thesis §5.2.2): fan-out f, "the average number
 * of matching rows in the right table per distinct key value in the left table", and S_join = S / (1 + f)^α.
 *
 * <p>f = right rows matched by the distinct left keys / distinct left keys that match. Counting right rows per
 * <em>distinct</em> left key keeps a many-to-one foreign key at f = 1 however often the left table repeats a
 * value. Dividing by the keys that match, not by all left keys, keeps a key pair that matches almost nothing (two
 * {@code description} columns sharing one value) from getting f ≈ 0 and its whole S; a pair that matches nothing
 * gets S_join = 0. All counts are reported.
 *
 * @param leftColumn column of the hop's left table
 * @param rightColumn column of the hop's right table
 * @param similarity S(c_left, c_right) from the graph
 * @param fanOut f; 0 when nothing matched
 * @param joinScore S_join; 0 when nothing matched or the join failed
 * @param rightRows right rows matched by a distinct left key (counted up to the row cap)
 * @param leftKeys distinct non-null left keys (among the first row-cap left rows)
 * @param matchedLeftKeys distinct left keys that find a right row
 * @param capped whether {@code rightRows} stopped at the row cap
 * @param condition the SQL join condition that produced the match ({@code "l"."c" = "r"."d"} when plain equality
 *     matches as many keys as comparing normalised values does, the normalised comparison otherwise)
 * @param error why the join could not be executed (timeout, SQL error), or null
 */
public record JoinKey(String leftColumn, String rightColumn, double similarity, double fanOut, double joinScore,
    long rightRows, long leftKeys, long matchedLeftKeys, boolean capped, String condition, @Nullable String error) {
  public JoinKey {
    Objects.requireNonNull(leftColumn, "leftColumn");
    Objects.requireNonNull(rightColumn, "rightColumn");
  }

  /** Whether the join ran and matched at least one row. */
  public boolean matches() {
    return error == null && matchedLeftKeys > 0;
  }
}
