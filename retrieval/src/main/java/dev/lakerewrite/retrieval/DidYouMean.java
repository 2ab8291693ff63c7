package dev.lakerewrite.retrieval;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * "Did you mean" suggestions for wrong names, shared by every module that reports unknown tables, columns,
 * recipes or tags: the known names nearest to the wrong one, by Levenshtein distance (Apache Commons Text) on
 * their {@linkplain Names#normalize normalised} forms, names containing the wrong one first. O(n·|a|·|b|) for n
 * known names.
 */
public final class DidYouMean {
  private static final LevenshteinDistance LEVENSHTEIN = LevenshteinDistance.getDefaultInstance();

  private record Candidate(String name, int distance, boolean contains) {}

  private DidYouMean() {}

  /** Up to {@code max} names of {@code known} close enough to {@code wrong}, nearest first. */
  public static List<String> suggest(String wrong, Collection<String> known, int max) {
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

  /** {@code ; did you mean "a" or "b"?} (up to three), or empty. */
  public static String hint(String wrong, Collection<String> known) {
    List<String> s = suggest(wrong, known, 3);
    return s.isEmpty() ? "" : "; did you mean " + String.join(" or ", s.stream().map(x -> '"' + x + '"').toList()) + "?";
  }

  /**
   * {@code ; did you mean 'x'?} for the nearest name; when nothing is near, the known names (up to eight) or
   * their number.
   */
  public static String suffix(String wrong, Collection<String> known) {
    List<String> s = suggest(wrong, known, 1);
    if (s.isEmpty()) {
      return known.isEmpty() ? "" : "; known: " + (known.size() <= 8 ? String.join(", ", known) : known.size() + " names");
    }
    return "; did you mean '" + s.get(0) + "'?";
  }

  /** Levenshtein distance of two strings, ignoring case. */
  public static int distance(String a, String b) {
    return LEVENSHTEIN.apply(a.toLowerCase(Locale.ROOT), b.toLowerCase(Locale.ROOT));
  }
}
