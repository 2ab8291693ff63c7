package dev.lakerewrite.noiseudf;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * UDF metadata for the scratchpad (thesis §4.2: "the UDF's signature, its return type, and a short
 * description").
 *
 * @param name function or macro name
 * @param signature {@code name(params)}, with types for vetted functions
 * @param returnType DuckDB return type (as observed on the preview for macros)
 * @param description one line
 * @param definition the {@code CREATE ... TEMP MACRO} statement for generated macros; null for vetted functions
 * @param origin vetted Java UDF or validated generated macro
 */
public record UdfInfo(
    String name, String signature, String returnType, String description, @Nullable String definition, Origin origin) {

  /** Where a UDF comes from. */
  public enum Origin {
    /** A vetted Java function from {@link CleaningFunctions}, registered for the whole database. */
    VETTED,
    /** An LLM-written macro that {@link MacroValidator} accepted, registered on one session connection. */
    GENERATED
  }

  public UdfInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(signature, "signature");
    Objects.requireNonNull(returnType, "returnType");
    description = description == null ? "" : description;
    Objects.requireNonNull(origin, "origin");
  }

  /** One scratchpad line. */
  public String summary() {
    return signature + (signature.contains("->") ? "" : " -> " + returnType) + ": " + description
        + (origin == Origin.GENERATED ? " [generated]" : "");
  }
}
