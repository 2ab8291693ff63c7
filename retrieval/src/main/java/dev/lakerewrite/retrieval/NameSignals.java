package dev.lakerewrite.retrieval;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.text.similarity.JaroWinklerSimilarity;

/**
 * Lexical name evidence, independent of embeddings: token alignment with abbreviations ({@code num_emp} ~
 * {@code number_of_employees}, {@code CNTR} ~ {@code country}, {@code TPC_S_MN_CTGR} ~ {@code topic's main
 * category}) and string similarity of the whole names. An abbreviation is recognised by its shape alone — a token
 * that starts like a word and keeps its letters in order (a prefix, or a consonant skeleton) — with no dictionary:
 * the matcher must not know how any particular lake was named. Used by the schema matcher and by the join graph's
 * schema similarity (an abbreviated key, {@code ORDR} for {@code orderkey}, is as much a name match as a synonym).
 */
public final class NameSignals {
  private static final JaroWinklerSimilarity JARO_WINKLER = new JaroWinklerSimilarity();

  private NameSignals() {}

  /** Words of a name, normalised ({@link Names#normalize}). */
  public static List<String> tokens(String name) {
    List<String> out = new ArrayList<>();
    for (String t : Names.normalize(name).split(" ")) {
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * How well one word stands for another: 1 when equal; 0.9 when one is a prefix of the other (at least two
   * letters); 0.8 when the shorter keeps the longer's first letter and the rest of its letters in order (an
   * abbreviation such as a consonant skeleton, at least two letters, covering at least a third of the word); else 0.
   * Each also on the words' singular forms.
   */
  public static double tokenMatch(String a, String b) {
    double m = shapeMatch(a, b);
    String sa = singular(a);
    String sb = singular(b);
    // Lakes switch singular and plural (suppliers → splrs for supplier): the words' singular forms match as well.
    return m < 1 && (!sa.equals(a) || !sb.equals(b)) ? Math.max(m, shapeMatch(sa, sb)) : m;
  }

  /** A word without a plural ending ({@code countries} → {@code country}, {@code splrs} → {@code splr}). */
  public static String singular(String w) {
    if (w.length() > 4 && w.endsWith("ies")) {
      return w.substring(0, w.length() - 3) + "y";
    }
    return w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.substring(0, w.length() - 1) : w;
  }

  private static double shapeMatch(String a, String b) {
    if (a.equals(b)) {
      return 1;
    }
    String shorter = a.length() <= b.length() ? a : b;
    String longer = shorter == a ? b : a;
    if (shorter.length() >= 2 && longer.startsWith(shorter)) {
      return 0.9;
    }
    if (shorter.length() >= 2 && shorter.charAt(0) == longer.charAt(0) && 3 * shorter.length() >= longer.length()
        && subsequence(shorter, longer)) {
      return 0.8;
    }
    return 0;
  }

  public static boolean subsequence(String s, String t) {
    int i = 0;
    for (int j = 0; j < t.length() && i < s.length(); j++) {
      if (s.charAt(i) == t.charAt(j)) {
        i++;
      }
    }
    return i == s.length();
  }

  /**
   * Token alignment: the mean, over the words of each name, of its best match among the other's words (each
   * direction), combined as their harmonic mean. In [0, 1].
   */
  public static double tokenAlignment(String assumed, String lake) {
    List<String> a = tokens(assumed);
    List<String> b = tokens(lake);
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    double ab = coverage(a, b);
    double ba = coverage(b, a);
    return ab + ba == 0 ? 0 : 2 * ab * ba / (ab + ba);
  }

  private static double coverage(List<String> from, List<String> to) {
    double sum = 0;
    for (String f : from) {
      double best = 0;
      for (String t : to) {
        best = Math.max(best, tokenMatch(f, t));
      }
      sum += best;
    }
    return sum / from.size();
  }

  /**
   * Whether each name spells the other word for word: every word of either matches a word of the other
   * ({@link #tokenMatch}: equal, a prefix, or an abbreviation), both having at least two words ({@code LISTING_PRC}
   * for {@code list price}; not {@code SALES_PRICE}, whose "sales" has no word of {@code list price}, nor
   * {@code short name} for {@code given name}). O(words²).
   */
  public static boolean spellsWordForWord(String assumed, String lake) {
    List<String> a = tokens(assumed);
    List<String> b = tokens(lake);
    return a.size() >= 2 && b.size() >= 2 && covers(a, b) && covers(b, a);
  }

  private static boolean covers(List<String> from, List<String> to) {
    return from.stream().allMatch(f -> to.stream().anyMatch(t -> tokenMatch(f, t) > 0));
  }

  /**
   * {@link #wholeAbbreviation} for names of tables, which name entities, where the two names' words line up. A lake
   * name shorter and in fewer words names one word of the assumed name, another entity: {@code store} and {@code
   * strs} for {@code store_sales}, {@code customer} for {@code customer_address} read 0. A lake name longer and in
   * more words must have a word for each of the assumed name's: {@code office_held_by_head_of_state} for {@code
   * offices} reads {@value #ABBREVIATED_TABLE}, {@code storage_warehouse_attributes} (every letter of
   * {@code store_returns} in order, spread over other words) 0. Otherwise (word for word, or a shorter lake name in
   * more words: {@code ln_itm} for {@code lineitem}) as {@link #wholeAbbreviation}, except that an abbreviation reads
   * {@value #ABBREVIATED_TABLE} and only the name itself (singular or plural) 1: {@code parts} spells the first
   * letters of {@code partsupp}, whose own table {@code partsupps} names it better. O(words² + length).
   */
  public static double tableNameAbbreviation(String assumed, String lake) {
    List<String> a = tokens(assumed);
    List<String> b = tokens(lake);
    int la = String.join("", a).length();
    int lb = String.join("", b).length();
    if (lb < la && b.size() < a.size()) {
      return 0;
    }
    if (lb > la && b.size() > a.size()
        && !a.stream().allMatch(w -> b.stream().anyMatch(x -> tokenMatch(w, x) > 0))) {
      return 0;
    }
    double abbreviation = wholeAbbreviation(assumed, lake);
    return abbreviation > 0 && !singular(String.join("", a)).equals(singular(String.join("", b)))
        ? ABBREVIATED_TABLE : abbreviation;
  }

  /**
   * What a table name that abbreviates the assumed one reads: a little less than the name itself, so that among
   * tables whose names both read so the one named exactly wins ({@code partsupps} over {@code parts} for
   * {@code partsupp}).
   */
  public static final double ABBREVIATED_TABLE = 0.95;

  /**
   * Whether the lake name, without separators, abbreviates the assumed name without separators (first letters
   * equal, letters in order, at least a quarter of its length): {@code CNTR} ~ {@code country}. In {0, 1}.
   */
  public static double wholeAbbreviation(String assumed, String lake) {
    String a = String.join("", tokens(assumed));
    String b = String.join("", tokens(lake));
    return Math.max(abbreviates(a, b), abbreviates(singular(a), singular(b)));
  }

  private static double abbreviates(String a, String b) {
    if (a.isEmpty() || b.isEmpty() || a.equals(b)) {
      return a.equals(b) && !a.isEmpty() ? 1 : 0;
    }
    String shorter = a.length() <= b.length() ? a : b;
    String longer = shorter == a ? b : a;
    return shorter.length() >= 2 && shorter.charAt(0) == longer.charAt(0) && 4 * shorter.length() >= longer.length()
        && subsequence(shorter, longer) ? 1 : 0;
  }

  /** Jaro–Winkler similarity of the normalised names without separators. */
  public static double jaroWinkler(String assumed, String lake) {
    String a = String.join("", tokens(assumed));
    String b = String.join("", tokens(lake));
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    return JARO_WINKLER.apply(a, b);
  }

  /** Whether the normalised names are equal. */
  public static double exact(String assumed, String lake) {
    String a = Names.normalize(assumed);
    return !a.isEmpty() && a.equals(Names.normalize(lake)) ? 1 : 0;
  }

  /**
   * The word (nearly) every column of a lake table starts with: a prefix a lake's naming habit adds ({@code cst} in
   * {@code cstName}, {@code cstActb}, {@code cstPhone}; {@code ORD} in {@code ORD_DT}, {@code ORD_TOT}), which says
   * which table, not what the column holds. Needs three or more columns, all but at most one starting with the
   * word and leaving a rest after it. Words as {@link Names#normalize} splits them. O(c) for c columns.
   *
   * @param columns the table's column names
   * @return the shared first word, lower case; empty when there is none
   */
  public static Optional<String> sharedLeadingWord(List<String> columns) {
    if (columns.size() < 3) {
      return Optional.empty();
    }
    return leadingWords(columns).entrySet().stream().filter(e -> e.getValue() >= columns.size() - 1)
        .map(Map.Entry::getKey).findFirst();
  }

  /**
   * How many of the names start with each word and go on after it (as {@link Names#normalize} splits them), in the
   * order first seen: what a prefix shared by names of tables or of columns is found from. O(n) for n names.
   */
  public static Map<String, Integer> leadingWords(Collection<String> names) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String n : names) {
      String[] words = Names.normalize(n).split(" ");
      if (words.length >= 2 && !words[0].isEmpty()) {
        counts.merge(words[0], 1, Integer::sum);
      }
    }
    return counts;
  }

  /**
   * A column's name without a leading word its table's columns share ({@link #sharedLeadingWord}): {@code actb} for
   * {@code cstActb}, in {@link Names#normalize}'s form; the name itself when it does not start with the word or
   * nothing would be left.
   */
  public static String withoutLeadingWord(String column, String word) {
    String normalized = Names.normalize(column);
    return normalized.startsWith(word + " ") && normalized.length() > word.length() + 1
        ? normalized.substring(word.length() + 1) : column;
  }}
