package dev.lakerewrite.core.llm;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The JSON an LLM must answer with: a record type and the checks its content must pass. Parsing is lenient
 * about the wrapping (code fences, prose around the object, comments, trailing commas) and strict about the
 * content: missing or ill-typed fields and failed checks are reported as problems, which the gateway sends back
 * in its one repair round.
 *
 * @param name what the object is, for messages ({@code "rewrite"}, {@code "checker decision"})
 * @param type the record the object maps to; unknown fields are ignored
 * @param validator content checks; returns the problems, empty when the value is acceptable
 */
public record JsonContract<T>(String name, Class<T> type, Function<T, List<String>> validator) {
  static final ObjectMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_TRAILING_COMMA,
          JsonReadFeature.ALLOW_SINGLE_QUOTES, JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .build();

  public JsonContract {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(validator, "validator");
  }

  /** A contract with no checks beyond the shape of the type. */
  public static <T> JsonContract<T> of(String name, Class<T> type) {
    return new JsonContract<>(name, type, v -> List.of());
  }

  /** The outcome of parsing one answer: the value, or the problems. */
  public record Parsed<T>(@Nullable T value, List<String> problems) {
    public boolean ok() {
      return value != null && problems.isEmpty();
    }
  }

  /** Parses an answer; never throws. */
  public Parsed<T> parse(String answer) {
    if (answer == null || answer.isBlank()) {
      return new Parsed<>(null, List.of("the answer was empty"));
    }
    String object = extractObject(answer);
    if (object == null) {
      return new Parsed<>(null, List.of("the answer contains no JSON object ({...})"));
    }
    JsonNode tree;
    try {
      tree = JSON.readTree(object);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return new Parsed<>(null, List.of("the JSON does not parse: " + e.getOriginalMessage()));
    }
    @Nullable T value;
    try {
      value = JSON.treeToValue(tree, type);
    } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
      String msg = e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage()
          : e.getMessage();
      return new Parsed<>(null, List.of("the JSON does not fit the " + name + " contract: " + msg));
    }
    if (value == null) {
      return new Parsed<>(null, List.of("the JSON object is null"));
    }
    List<String> problems;
    try {
      problems = new ArrayList<>(validator.apply(value));
    } catch (RuntimeException e) {
      problems = List.of("the " + name + " is invalid: " + e.getMessage());
    }
    return new Parsed<>(problems.isEmpty() ? value : null, List.copyOf(problems));
  }

  /**
   * The first balanced {@code {...}} in the text (string-aware), after dropping Markdown code fences; null if
   * there is none.
   */
  static @Nullable String extractObject(String text) {
    int start = text.indexOf('{');
    while (start >= 0) {
      int depth = 0;
      boolean inString = false;
      char quote = 0;
      for (int i = start; i < text.length(); i++) {
        char c = text.charAt(i);
        if (inString) {
          if (c == '\\') {
            i++;
          } else if (c == quote) {
            inString = false;
          }
        } else if (c == '"' || c == '\'') {
          inString = true;
          quote = c;
        } else if (c == '{') {
          depth++;
        } else if (c == '}') {
          depth--;
          if (depth == 0) {
            return text.substring(start, i + 1);
          }
        }
      }
      start = text.indexOf('{', start + 1);
    }
    return null;
  }

}
