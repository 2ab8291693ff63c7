package dev.lakerewrite.retrieval;

import java.util.Arrays;

/** Character trigram sets of comparison forms, as sorted distinct hashes, for fuzzy literal matching. */
final class Trigrams {
  private static final int[] NONE = new int[0];

  private Trigrams() {}

  /** The sorted distinct trigram hashes of {@code s} padded with one space on each side; O(n log n). */
  static int[] of(String s) {
    if (s == null || s.isEmpty()) {
      return NONE;
    }
    String p = " " + s + " ";
    if (p.length() < 3) {
      return NONE;
    }
    int[] grams = new int[p.length() - 2];
    for (int i = 0; i + 3 <= p.length(); i++) {
      grams[i] = p.charAt(i) * 31 * 31 + p.charAt(i + 1) * 31 + p.charAt(i + 2);
    }
    Arrays.sort(grams);
    int n = 0;
    for (int i = 0; i < grams.length; i++) {
      if (i == 0 || grams[i] != grams[i - 1]) {
        grams[n++] = grams[i];
      }
    }
    return Arrays.copyOf(grams, n);
  }

  /** Jaccard similarity of two sorted distinct arrays; O(|a| + |b|). */
  static double jaccard(int[] a, int[] b) {
    if (a.length == 0 || b.length == 0) {
      return 0;
    }
    int i = 0;
    int j = 0;
    int common = 0;
    while (i < a.length && j < b.length) {
      if (a[i] == b[j]) {
        common++;
        i++;
        j++;
      } else if (a[i] < b[j]) {
        i++;
      } else {
        j++;
      }
    }
    return (double) common / (a.length + b.length - common);
  }
}
