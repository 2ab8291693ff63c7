package dev.lakerewrite.noiseudf;

import java.util.Objects;

/**
 * Why BUILD_CTE produced no CTE. A value, never thrown: the agent loop records it and goes on.
 *
 * @param kind the kind of failure
 * @param message what went wrong and where, for the scratchpad
 */
public record CteBuildFailure(Kind kind, String message) {

  /** Failure kinds. */
  public enum Kind {
    /** The base table does not exist (message has "did you mean"). */
    UNKNOWN_TABLE,
    /** A requested column does not exist (message has "did you mean"). */
    UNKNOWN_COLUMN,
    /** Detection found no noise in the requested columns (offline builder). */
    NO_NOISE_FOUND,
    /** The model's answer was not JSON, even after the repair round. */
    MALFORMED_ANSWER,
    /** The model's JSON broke the contract (missing or mistyped fields), even after the repair round. */
    SCHEMA_VIOLATION,
    /** Every proposed CTE was rejected by validation. */
    REJECTED,
    /** The model call itself failed (network, rate limit, ...). */
    MODEL_ERROR,
    /** DuckDB failed on trusted SQL (e.g. the connection was closed). */
    SQL_ERROR
  }

  public CteBuildFailure {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
  }
}
