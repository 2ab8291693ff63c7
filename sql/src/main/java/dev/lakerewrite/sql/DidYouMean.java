package dev.lakerewrite.sql;

import java.text.Normalizer;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * "Did you mean" for wrong names, the one implementation behind every message that reports an unknown table,
 * column, recipe, tag, field or option, in one format: {@code ; did you mean 'x'?} or
 * {@code ; did you mean 'x' or 'y'?}.
 *
 * <p>Names are compared by Levenshtein distance (Apache Commons Text) of their comparison keys (lower case,
 * accents removed, every run of other characters than letters and digits one space), so {@code Whangarei},
 * {@code whangārei} and {@code WHANGĀREI} are one name and {@code region-of-new-zealand} is
 * {@code region_of_new_zealand}. A known name is close when it contains the wrong one (or, from four characters,
 * the other way round) or is at most {@code max(2, length / 3)} edits away; names that contain come first, then
 * by distance, then alphabetically. When nothing is close, a single known name sharing the wrong one's first word
 * (three characters or more) is suggested: {@code golden_sql} → {@code golden_query}. O(n·|a|·|b|) for n known
 * names.
 */
public final class DidYouMean {
  private static final LevenshteinDistance LEVENSHTEIN = LevenshteinDistance.getDefaultInstance();
  private static final Pattern MARKS = Pattern.compile("\\p{M}+");
  private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

  private record Scored(String name, int distance, boolean contains) {}

  private DidYouMean() {}

  /** Up to {@code max} names of {@code known} close enough to {@code wrong}, nearest first. */
  public static List<String> suggest(String wrong, Collection<String> known, int max) {
    Objects.requireNonNull(wrong, "wrong");
    Objects.requireNonNull(known, "known");
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1, was " + max);
    }
    String w = key(wrong);
    int tolerance = Math.max(2, w.length() / 3);
    List<String> close = known.stream()
        .map(k -> {
          String n = key(k);
          return new Scored(k, LEVENSHTEIN.apply(w, n),
              !w.isEmpty() && (n.contains(w) || (n.length() >= 4 && w.contains(n))));
        })
        .filter(s -> s.contains() || s.distance() <= tolerance)
        .sorted(Comparator.comparing((Scored s) -> !s.contains()).thenComparingInt(Scored::distance)
            .thenComparing(Scored::name))
        .limit(max)
        .map(Scored::name)
        .toList();
    if (!close.isEmpty()) {
      return close;
    }
    String firstWord = firstWord(w);
    if (firstWord.length() < 3) {
      return List.of();
    }
    List<String> sameFirstWord = known.stream().filter(k -> firstWord(key(k)).equals(firstWord)).limit(2).toList();
    return sameFirstWord.size() == 1 ? sameFirstWord : List.of();
  }

  /** {@code ; did you mean 'x'?} (or {@code 'x', 'y' or 'z'}, up to three), or empty when nothing is close. */
  public static String hint(String wrong, Collection<String> known) {
    return hint(wrong, known, 3);
  }

  /** {@link #hint(String, Collection)} with at most {@code max} suggestions. */
  public static String hint(String wrong, Collection<String> known, int max) {
    return format(suggest(wrong, known, max));
  }

  /**
   * {@link #hint(String, Collection, int) hint} with one suggestion, or when nothing is close the known names
   * ({@code ; known: a, b, c}, up to eight, else their number); empty only when nothing is known.
   */
  public static String hintOrKnown(String wrong, Collection<String> known) {
    List<String> s = suggest(wrong, known, 1);
    if (!s.isEmpty()) {
      return format(s);
    }
    return known.isEmpty() ? "" : "; known: " + (known.size() <= 8 ? String.join(", ", known) : known.size() + " names");
  }

  /** {@code ; did you mean 'a', 'b' or 'c'?} for the given suggestions, or empty. */
  public static String format(List<String> suggestions) {
    if (suggestions.isEmpty()) {
      return "";
    }
    List<String> quoted = suggestions.stream().map(s -> "'" + s + "'").toList();
    String list = quoted.size() == 1 ? quoted.get(0)
        : String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.get(quoted.size() - 1);
    return "; did you mean " + list + "?";
  }

  /** Levenshtein distance of the two names' comparison keys (case, accents and separators ignored). */
  public static int distance(String a, String b) {
    return LEVENSHTEIN.apply(key(a), key(b));
  }

  /** The comparison key: lower case, accents removed, runs of non-letters and non-digits one space. */
  static String key(String name) {
    String s = MARKS.matcher(Normalizer.normalize(name, Normalizer.Form.NFKD)).replaceAll("");
    return NOT_WORD.matcher(s.toLowerCase(Locale.ROOT)).replaceAll(" ").strip();
  }

  private static String firstWord(String key) {
    int space = key.indexOf(' ');
    return space < 0 ? key : key.substring(0, space);
  }
}
