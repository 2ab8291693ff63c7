package dev.lakerewrite.noiseudf;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The model's BUILD_CTE answer, read with Jackson against the JSON contract of {@link CleaningPrompt}. Reading
 * never throws: {@link #parse} returns either an answer or the precise problems (with JSON paths) that the repair
 * round sends back.
 *
 * @param udfs proposed macros
 * @param cteName proposed CTE name, or null
 * @param cte the CTE body
 * @param notes the model's note
 */
record CleaningAnswer(List<GeneratedUdf> udfs, @Nullable String cteName, String cte, String notes) {

  /** Either an answer or problems; {@code malformed} means it was not JSON at all. */
  record Parsed(@Nullable CleaningAnswer answer, List<String> problems, boolean malformed) {}

  static Parsed parse(@Nullable String text, int maxUdfs) {
    if (text == null || text.isBlank()) {
      return new Parsed(null, List.of("the answer is empty"), true);
    }
    String json = extractObject(text);
    if (json == null) {
      return new Parsed(null, List.of("the answer contains no JSON object"), true);
    }
    JsonNode root;
    try {
      root = SqlAst.JSON.readTree(json);
    } catch (IOException e) {
      String m = e.getMessage() == null ? "invalid JSON" : e.getMessage();
      int nl = m.indexOf('\n');
      return new Parsed(null, List.of("the answer is not valid JSON: " + (nl < 0 ? m : m.substring(0, nl))), true);
    }
    List<String> problems = new ArrayList<>();
    if (!root.isObject()) {
      return new Parsed(null, List.of("the answer must be a JSON object"), false);
    }
    List<GeneratedUdf> udfs = new ArrayList<>();
    JsonNode u = root.path("udfs");
    if (!u.isMissingNode() && !u.isNull() && !u.isArray()) {
      problems.add("udfs: must be an array");
    } else if (u.isArray()) {
      if (u.size() > maxUdfs) {
        problems.add("udfs: at most " + maxUdfs + " macros, got " + u.size());
      }
      for (int i = 0; i < u.size() && i < maxUdfs; i++) {
        JsonNode x = u.get(i);
        String at = "udfs[" + i + "]";
        if (!x.isObject()) {
          problems.add(at + ": must be an object");
          continue;
        }
        String name = text(x, "name", at, problems, true);
        List<String> params = strings(x.has("params") ? x.get("params") : x.get("parameters"), at + ".params", problems, true);
        String body = text(x, "body", at, problems, true);
        String description = text(x, "description", at, problems, false);
        List<String> appliesTo = strings(x.get("applies_to"), at + ".applies_to", problems, false);
        if (name != null && params != null && body != null) {
          udfs.add(new GeneratedUdf(name, params, body, description, appliesTo == null ? List.of() : appliesTo));
        }
      }
    }
    String cte = text(root, "cte", "", problems, true);
    String cteName = text(root, "cte_name", "", problems, false);
    String notes = text(root, "notes", "", problems, false);
    if (!problems.isEmpty()) {
      return new Parsed(null, problems, false);
    }
    return new Parsed(new CleaningAnswer(udfs, cteName, cte, notes == null ? "" : notes), List.of(), false);
  }

  private static @Nullable String text(JsonNode node, String field, String at, List<String> problems, boolean required) {
    JsonNode v = node.get(field);
    String path = at.isEmpty() ? field : at + "." + field;
    if (v == null || v.isNull()) {
      if (required) {
        problems.add(path + ": missing");
      }
      return null;
    }
    if (!v.isTextual()) {
      problems.add(path + ": must be a string, got " + v.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
      return null;
    }
    if (required && v.asText().isBlank()) {
      problems.add(path + ": must not be empty");
      return null;
    }
    return v.asText();
  }

  private static @Nullable List<String> strings(@Nullable JsonNode v, String path, List<String> problems, boolean required) {
    if (v == null || v.isNull()) {
      if (required) {
        problems.add(path + ": missing");
      }
      return null;
    }
    if (!v.isArray()) {
      problems.add(path + ": must be an array of strings");
      return null;
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : v) {
      if (!item.isTextual()) {
        problems.add(path + ": must contain only strings");
        return null;
      }
      out.add(item.asText());
    }
    return out;
  }

  /** The first balanced {...} in the text (models like code fences and prose around JSON). */
  static @Nullable String extractObject(String text) {
    int start = text.indexOf('{');
    if (start < 0) {
      return null;
    }
    int depth = 0;
    boolean inString = false;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return text.substring(start, i + 1);
      }
    }
    return text.substring(start); // unbalanced: let the JSON parser say where
  }
}
