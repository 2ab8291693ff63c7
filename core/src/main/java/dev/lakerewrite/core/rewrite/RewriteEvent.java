package dev.lakerewrite.core.rewrite;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a rewrite, as data: what happened, in which iteration and phase, when (milliseconds since the
 * rewrite started), and the details (SQL, actions, scores, errors, evidence). Written one per line as JSON.
 *
 * @param iteration 0 before the loop, then 1-based
 * @param phase retrieval, proposal, execution, evaluation, action, selection, llm
 * @param type what happened ({@code candidate}, {@code action}, {@code decision}, {@code error}...)
 * @param atMillis milliseconds since the start of the rewrite
 * @param data details; values are strings, numbers, booleans, lists and maps
 */
public record RewriteEvent(int iteration, String phase, String type, long atMillis, Map<String, Object> data) {
  public RewriteEvent {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(type, "type");
    data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
  }
}
