package dev.lakerewrite.eval.perturb;

import java.util.Locale;
import java.util.Optional;

/** The kinds of disorder the disorganizer puts into a lake; each pair records those its query meets. */
public enum Perturbation {
  /** A table has another name (synonyms, abbreviations, prefixes, plural/singular, letter case, vendor codes). */
  RENAME_TABLE,
  /** A column has another name. */
  RENAME_COLUMN,
  /** A table's columns are split over two tables that share a (differently named) key and no declared key. */
  VERTICAL_SPLIT,
  /** A table's rows are split over several tables with the same columns: a union gives them back. */
  HORIZONTAL_SPLIT,
  /** Labels are replaced by integer codes with a lookup table elsewhere in the lake. */
  CODE_LOOKUP,
  /** Numbers stored as text with units, currencies and thousands separators. */
  NUMBER_AS_TEXT,
  /** Dates stored as text in another format. */
  DATE_AS_TEXT,
  /** Booleans stored as words. */
  BOOLEAN_AS_WORDS,
  /** Seeded cell noise (noise-udf's injector): the pair runs on the noisy copy of the lake. */
  CELL_NOISE;

  /** The spelling in pair files and reports ({@code vertical-split}). */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The kind with this label (or constant name), ignoring case. */
  public static Optional<Perturbation> fromLabel(String label) {
    if (label == null) {
      return Optional.empty();
    }
    String key = label.strip().toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
    for (Perturbation p : values()) {
      if (p.name().equals(key)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** The perturbation an encoding kind stands for. */
  static Optional<Perturbation> ofEncoding(Encoding e) {
    if (e instanceof Encoding.NumberAsText) {
      return Optional.of(NUMBER_AS_TEXT);
    } else if (e instanceof Encoding.DateAsText) {
      return Optional.of(DATE_AS_TEXT);
    } else if (e instanceof Encoding.BooleanAsWords) {
      return Optional.of(BOOLEAN_AS_WORDS);
    } else if (e instanceof Encoding.CodeLookup) {
      return Optional.of(CODE_LOOKUP);
    }
    return Optional.empty();
  }
}
