package dev.lakerewrite.noiseudf;

import java.util.Objects;

/**
 * Why a generated UDF, a CTE or an answer was not used.
 *
 * @param subject what was rejected (a macro name, "cte", "answer")
 * @param stage where it failed
 * @param reason what was wrong, precisely
 */
public record Rejection(String subject, Stage stage, String reason) {

  /** The validation stage that rejected something. */
  public enum Stage {
    /** The model's answer was not valid JSON or broke the JSON contract. */
    ANSWER,
    /** Name or parameter rules (shadowing, reserved prefix, keywords). */
    NAME,
    /** Text rules: length, statement separators, comments. */
    TEXT,
    /** DuckDB could not parse it, or it is not a single SELECT / expression. */
    PARSE,
    /** The parsed expression uses something not allowed (subquery, table function, non-determinism, ...). */
    AST,
    /** Calls form a cycle through other macros. */
    RECURSION,
    /** DuckDB refused to create it or to bind it. */
    REGISTRATION,
    /** It errored on the preview rows or changed values it should not. */
    PREVIEW
  }

  public Rejection {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(reason, "reason");
  }

  @Override
  public String toString() {
    return subject + " [" + stage + "]: " + reason;
  }
}
