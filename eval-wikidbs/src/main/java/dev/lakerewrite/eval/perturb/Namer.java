package dev.lakerewrite.eval.perturb;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Draws the lake's names for a schema's tables and columns in one {@link NamingStyle}: each word of the original
 * name is replaced by a WordNet synonym, abbreviated (truncated or reduced to its consonants) or kept, then the
 * words are joined in the style's letter case with its prefixes. Names are unique (case-insensitively) within their
 * scope, and differ from the original wherever a few draws can make them differ.
 */
final class Namer {

  private final NamingStyle style;
  private final SplittableRandom random;
  private final Set<String> tableNames = new HashSet<>();

  Namer(NamingStyle style, SplittableRandom random) {
    this.style = style;
    this.random = random;
  }

  NamingStyle style() {
    return style;
  }

  /** A lake name for a table (unique among the tables named so far). */
  String table(String original) {
    List<String> words = Words.tokens(original);
    String name = null;
    for (int attempt = 0; attempt < 6; attempt++) {
      List<String> drawn = drawWords(words, attempt, false);
      if (style.switchNumber() && !drawn.isEmpty()) {
        int last = drawn.size() - 1;
        String w = drawn.get(last);
        drawn.set(last, Words.singular(w).equals(w) ? Words.plural(w) : Words.singular(w));
      }
      name = style.tablePrefix() + style.wordCase().join(drawn);
      if (!sameName(name, original) || attempt == 5) {
        break;
      }
    }
    return unique(name, tableNames);
  }

  /** A suffix-style variant of a table name for a split part ({@code orders} → {@code orders_details}). */
  String part(String lakeTable, String role) {
    String prefix = style.tablePrefix();
    String base = lakeTable.regionMatches(true, 0, prefix, 0, prefix.length())
        ? lakeTable.substring(prefix.length()) : lakeTable;
    List<String> roleWords = style.vendorCodes()
        ? Words.tokens(role).stream().map(w -> Words.skeleton(w, 4)).toList() : Words.tokens(role);
    // The part's role is set off by '_' whatever the case: the lake loader lower-cases table names, and
    // "orders_archive" stays readable where "ordersarchive" would not.
    return unique(prefix + base + "_" + style.wordCase().join(roleWords), tableNames);
  }

  /** Registers a name chosen elsewhere so later names avoid it. */
  void reserveTable(String name) {
    tableNames.add(name.toLowerCase(Locale.ROOT));
  }

  /** A column namer for one table; {@code originalColumns} give the shared column prefix to drop. */
  Columns columns(String lakeTable, List<String> originalColumns) {
    return new Columns(lakeTable, Words.columnPrefix(originalColumns));
  }

  /** Names the columns of one lake table. */
  final class Columns {
    private final String sourcePrefix;
    private final String prefix;
    private final Set<String> used = new HashSet<>();

    private Columns(String lakeTable, String sourcePrefix) {
      this.sourcePrefix = sourcePrefix;
      if (style.columnPrefix()) {
        List<String> t = Words.tokens(lakeTable.startsWith(style.tablePrefix())
            ? lakeTable.substring(style.tablePrefix().length()) : lakeTable);
        StringBuilder p = new StringBuilder();
        t.forEach(w -> p.append(w.charAt(0)));
        String abbreviation = p.length() >= 2 ? p.toString() : Words.skeleton(t.isEmpty() ? "t" : t.get(0), 3);
        prefix = style.wordCase() == Words.Case.UPPER_SNAKE ? abbreviation.toUpperCase(Locale.ROOT) : abbreviation;
      } else {
        prefix = "";
      }
    }

    /** A lake name for a column. */
    String name(String original) {
      List<String> words = Words.tokens(Words.withoutPrefix(original, sourcePrefix));
      if (words.isEmpty()) {
        words = List.of("col");
      }
      String name = null;
      for (int attempt = 0; attempt < 6; attempt++) {
        List<String> drawn = drawWords(words, attempt, true);
        if (!prefix.isEmpty()) {
          drawn.add(0, prefix);
        }
        name = style.wordCase().join(drawn);
        if (!sameName(name, original) || attempt == 5) {
          break;
        }
      }
      return unique(name, used);
    }

    /** Registers a name this table already holds (given by another namer) so later names avoid it. */
    void reserve(String name) {
      used.add(name.toLowerCase(Locale.ROOT));
    }

    /** A name given outright (a key column's second name, a lookup's columns), made unique here. */
    String fixed(List<String> words) {
      List<String> w = new ArrayList<>(words);
      if (style.vendorCodes()) {
        w.replaceAll(x -> Words.skeleton(x, 4));
      }
      if (!prefix.isEmpty()) {
        w.add(0, prefix);
      }
      return unique(style.wordCase().join(w), used);
    }
  }

  /** Draws each word: a synonym, an abbreviation or the word; later attempts change more. */
  private List<String> drawWords(List<String> words, int attempt, boolean column) {
    List<String> out = new ArrayList<>();
    double change = Math.min(1.0, 0.55 + 0.15 * attempt);
    for (String w : words) {
      if (style.vendorCodes()) {
        out.add(w.chars().allMatch(Character::isDigit) ? w : Words.skeleton(pickSynonymOrSelf(w, 0.3), 4));
        continue;
      }
      if (w.chars().allMatch(Character::isDigit) || random.nextDouble() >= change) {
        out.add(w);
        continue;
      }
      List<String> synonyms = Synonyms.of(w);
      double r = random.nextDouble();
      if (!synonyms.isEmpty() && r < 0.6) {
        out.addAll(Synonyms.words(synonyms.get(random.nextInt(Math.min(3, synonyms.size())))));
      } else if (w.length() > 4 && (column || r < 0.9)) {
        out.add(random.nextBoolean() ? Words.truncated(w, 3 + random.nextInt(2)) : Words.skeleton(w, 4 + random.nextInt(2)));
      } else {
        out.add(w);
      }
    }
    return out;
  }

  private String pickSynonymOrSelf(String w, double p) {
    List<String> synonyms = Synonyms.of(w);
    if (!synonyms.isEmpty() && random.nextDouble() < p) {
      return String.join("", Synonyms.words(synonyms.get(0)));
    }
    return w;
  }

  private static boolean sameName(String name, String original) {
    return Words.tokens(name).equals(Words.tokens(original));
  }

  private static String unique(String name, Set<String> used) {
    String candidate = name;
    for (int i = 2; !used.add(candidate.toLowerCase(Locale.ROOT)); i++) {
      candidate = name + "_" + i;
    }
    return candidate;
  }
}
