package dev.lakerewrite.noiseudf;

import java.util.List;
import java.util.Objects;

/**
 * A cleaning UDF as an LLM proposes it: a DuckDB scalar macro {@code name(parameters) AS body}. Untrusted until
 * {@link MacroValidator} accepts it.
 *
 * @param name macro name
 * @param parameters parameter names
 * @param body one scalar SQL expression over the parameters
 * @param description one line on what it fixes
 * @param appliesTo columns of the base table it is meant for (its preview test runs on them)
 */
public record GeneratedUdf(String name, List<String> parameters, String body, String description, List<String> appliesTo) {

  public GeneratedUdf {
    Objects.requireNonNull(name, "name");
    parameters = List.copyOf(parameters);
    Objects.requireNonNull(body, "body");
    description = description == null ? "" : description;
    appliesTo = appliesTo == null ? List.of() : List.copyOf(appliesTo);
  }

  /** {@code name(p1, p2)}. */
  public String signature() {
    return name + "(" + String.join(", ", parameters) + ")";
  }
}
