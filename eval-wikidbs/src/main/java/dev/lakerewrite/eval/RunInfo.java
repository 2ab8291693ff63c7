package dev.lakerewrite.eval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the reports say about a run besides its outcomes: its settings (lake, pair file, seed...), the problems
 * found loading the pairs, and notes (noisy lake, skipped pairs...).
 *
 * @param settings name → value, in display order
 * @param problems pair-file problems, one line each
 * @param notes anything else worth reading first, one line each
 */
public record RunInfo(Map<String, String> settings, List<String> problems, List<String> notes) {

  public RunInfo {
    settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    problems = List.copyOf(problems);
    notes = List.copyOf(notes);
  }

  /** No settings, problems or notes. */
  public static RunInfo empty() {
    return new RunInfo(Map.of(), List.of(), List.of());
  }
}
