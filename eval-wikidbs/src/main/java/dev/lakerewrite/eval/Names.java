package dev.lakerewrite.eval;

import dev.lakerewrite.retrieval.DidYouMean;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean" suggestions for names in pair files. */
final class Names {

  private Names() {}

  /**
   * The candidate closest to {@code name} by case-insensitive edit distance, if it is close enough to be a
   * plausible typo (at most a third of the longer name's length, and at least one edit allowed).
   */
  static Optional<String> closest(String name, Collection<String> candidates) {
    String wanted = name.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = DidYouMean.distance(wanted, candidate);
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    int allowed = Math.max(1, Math.max(wanted.length(), best.length()) / 3);
    if (bestDistance <= allowed) {
      return Optional.of(best);
    }
    // No near spelling: a single candidate with the same first word ("golden_sql" -> "golden_query").
    String firstWord = firstWord(wanted);
    String only = null;
    for (String candidate : candidates) {
      if (firstWord.length() >= 3 && firstWord(candidate.toLowerCase(Locale.ROOT)).equals(firstWord)) {
        if (only != null) {
          return Optional.empty();
        }
        only = candidate;
      }
    }
    return Optional.ofNullable(only);
  }

  private static String firstWord(String s) {
    String[] words = s.split("[\\s_\\-]+", 2);
    return words.length == 0 ? "" : words[0];
  }

  /** A name for lenient comparison: lower case, without spaces, underscores and hyphens. */
  static String key(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[\\s_\\-]+", "");
  }

  /** ", did you mean 'x'?" or the empty string. */
  static String didYouMean(String name, Collection<String> candidates) {
    return closest(name, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
  }
}
