package dev.lakerewrite.noiseudf;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Evidence of one kind of noise in one column (thesis §6.1: detection is conservative; it reports, the caller
 * decides).
 *
 * @param table table name
 * @param column column name
 * @param kind the kind of noise
 * @param affectedRows rows whose value shows the noise
 * @param affectedValues distinct values that show it
 * @param sampledRows non-null rows looked at
 * @param examples a few affected values (with their repair, "noisy → clean", where there is one)
 * @param evidence one sentence: what was seen, with counts
 * @param parameters what a cleaner should use for this column, e.g. {@code date_order=DMY},
 *     {@code decimal_separator=','}
 */
public record NoiseFinding(
    String table,
    String column,
    NoiseKind kind,
    long affectedRows,
    long affectedValues,
    long sampledRows,
    List<String> examples,
    String evidence,
    Map<String, String> parameters) {

  public NoiseFinding {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(kind, "kind");
    examples = List.copyOf(examples);
    Objects.requireNonNull(evidence, "evidence");
    parameters = Map.copyOf(parameters);
  }

  /** Share of sampled rows affected. */
  public double share() {
    return sampledRows == 0 ? 0 : (double) affectedRows / sampledRows;
  }

  /** One line for prompts and the scratchpad. */
  public String summary() {
    return table + "." + column + ": " + kind.description() + " — " + evidence
        + (examples.isEmpty() ? "" : " e.g. " + String.join("; ", examples));
  }
}
