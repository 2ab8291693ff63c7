package dev.lakerewrite.joingraph;

import dev.lakerewrite.retrieval.Names;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/** "Did you mean" for unknown table names: the closest names by edit distance of their normalised forms. */
final class Suggestions {
  private static final int MAX = 3;

  private Suggestions() {}

  /** {@code "; did you mean x, y?"}, or {@code ""} when nothing is close. */
  static String didYouMean(String wanted, Collection<String> known) {
    String w = Names.normalize(wanted);
    int budget = Math.max(2, w.length() / 3);
    List<String> close = known.stream()
        .map(name -> new Scored(name, distance(w, Names.normalize(name)),
            !w.isEmpty() && Names.normalize(name).contains(w)))
        .filter(s -> s.distance <= budget || s.contains)
        .sorted(Comparator.comparingInt(Scored::distance).thenComparing(Scored::name))
        .limit(MAX)
        .map(Scored::name)
        .collect(Collectors.toList());
    return close.isEmpty() ? "" : "; did you mean " + String.join(", ", close) + "?";
  }

  private record Scored(String name, int distance, boolean contains) {}

  /** Levenshtein distance, O(|a| · |b|). */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
