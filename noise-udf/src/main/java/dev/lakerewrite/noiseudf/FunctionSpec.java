package dev.lakerewrite.noiseudf;

import java.util.List;
import java.util.Objects;

/**
 * One vetted cleaning function as prompts and the scratchpad show it (thesis §4.2, "UDF metadata: signature,
 * return type and a short description").
 *
 * @param name SQL name (all start with {@code clean_})
 * @param parameters parameters as {@code "name TYPE"}; a trailing {@code "..."} parameter is variadic
 * @param returnType DuckDB return type
 * @param description one line, for prompts
 * @param example a call and its result, for prompts
 */
public record FunctionSpec(String name, List<String> parameters, String returnType, String description, String example) {

  public FunctionSpec {
    Objects.requireNonNull(name, "name");
    parameters = List.copyOf(parameters);
    Objects.requireNonNull(returnType, "returnType");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(example, "example");
  }

  /** {@code clean_number(value VARCHAR, decimal_separator VARCHAR) -> DOUBLE}. */
  public String signature() {
    return name + "(" + String.join(", ", parameters) + ") -> " + returnType;
  }

  /** Number of fixed parameters (a variadic one not counted). */
  public int arity() {
    return (int) parameters.stream().filter(p -> !p.endsWith("...")).count();
  }

  /** True when the last parameter takes any number of arguments. */
  public boolean variadic() {
    return !parameters.isEmpty() && parameters.get(parameters.size() - 1).endsWith("...");
  }

  /** The line a prompt shows: signature, description and example. */
  public String promptLine() {
    return signature() + " -- " + description + " e.g. " + example;
  }
}
