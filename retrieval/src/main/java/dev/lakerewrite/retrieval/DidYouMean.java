package dev.lakerewrite.retrieval;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean" suggestions for unknown names. */
final class DidYouMean {
  private DidYouMean() {}

  /** {@code "; did you mean 'x'?"} for the closest of {@code known}, or {@code ""} when nothing is close. */
  static String suffix(String unknown, Collection<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    String u = unknown.toLowerCase(Locale.ROOT);
    for (String k : known) {
      int d = distance(u, k.toLowerCase(Locale.ROOT));
      if (d < bestDistance || (d == bestDistance && best != null && k.compareTo(best) < 0)) {
        best = k;
        bestDistance = d;
      }
    }
    if (best == null || bestDistance > Math.max(2, unknown.length() / 2)) {
      return known.isEmpty() ? "" : "; known: " + (known.size() <= 8 ? String.join(", ", known) : known.size() + " names");
    }
    return "; did you mean '" + best + "'?";
  }

  /** Levenshtein distance, O(|a|·|b|). */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
