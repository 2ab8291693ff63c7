package dev.lakerewrite.core;

import dev.lakerewrite.retrieval.Names;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** "Did you mean" suggestions: the known names nearest to a wrong one by edit distance on normalised forms. */
final class DidYouMean {
  private DidYouMean() {}

  private record Candidate(String name, int distance, boolean contains) {}

  /** Up to {@code max} names from {@code known} close enough to {@code wrong}, nearest first. */
  static List<String> suggest(String wrong, Collection<String> known, int max) {
    String w = Names.normalize(wrong);
    int tolerance = Math.max(2, w.length() / 3);
    return known.stream()
        .map(k -> {
          String n = Names.normalize(k);
          return new Candidate(k, distance(w, n), !w.isEmpty() && (n.contains(w) || (n.length() >= 4 && w.contains(n))));
        })
        .filter(c -> c.contains() || c.distance() <= tolerance)
        .sorted(Comparator.comparing((Candidate c) -> !c.contains()).thenComparingInt(Candidate::distance)
            .thenComparing(Candidate::name))
        .limit(max)
        .map(Candidate::name)
        .toList();
  }

  /** The hint appended to error messages: {@code ; did you mean "a" or "b"?}, or empty. */
  static String hint(String wrong, Collection<String> known) {
    List<String> s = suggest(wrong, known, 3);
    if (s.isEmpty()) {
      return "";
    }
    return "; did you mean " + String.join(" or ", s.stream().map(x -> '"' + x + '"').toList()) + "?";
  }

  /** Levenshtein distance, O(|a|·|b|) time, O(|b|) space. */
  static int distance(String a, String b) {
    a = a.toLowerCase(Locale.ROOT);
    b = b.toLowerCase(Locale.ROOT);
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
