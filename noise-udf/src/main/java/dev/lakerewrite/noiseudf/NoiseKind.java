package dev.lakerewrite.noiseudf;

/**
 * The kinds of cell noise the thesis names (§6.1–6.2, §7.1: "irregular encodings, spelling variations, or
 * mismatched categorical values"; "inconsistent date formats, diacritics, irregular boolean values, or numeric
 * delimiters"). Shared by detection, cleaning and injection.
 */
public enum NoiseKind {
  /** UTF-8 read as Windows-1252/Latin-1 ('WhangÄ\u0081rei'). */
  ENCODING(true, "encoding artefacts (mojibake)"),
  /** Control characters, zero-width characters, HTML tags or entities. */
  MARKUP(true, "control characters or markup"),
  /** Leading, trailing, doubled or exotic whitespace. */
  WHITESPACE(true, "stray whitespace"),
  /** The same value in different letter case. */
  CASING(false, "mixed letter case"),
  /** The same value with and without diacritics ('Whangārei' / 'Whangarei'). */
  DIACRITICS(false, "diacritic variants"),
  /** Several spellings of true/false ('t', 'Yes', '1', 'TRUE'). */
  BOOLEAN(true, "boolean zoo"),
  /** Several date formats in one column. */
  DATE_FORMAT(true, "mixed date formats"),
  /** Numbers stored as text with signs, group separators or decimal commas ('+13789', '12 484,59'). */
  NUMBER_FORMAT(true, "numbers stored as formatted text");

  private final boolean formatting;
  private final String description;

  NoiseKind(boolean formatting, String description) {
    this.formatting = formatting;
    this.description = description;
  }

  /**
   * True for formatting noise, which a cleaner can undo exactly (the value is still all there); false for
   * spelling noise (case, diacritics), where the original spelling of a value seen once is lost.
   */
  public boolean formatting() {
    return formatting;
  }

  /** A few words for prompts and reports. */
  public String description() {
    return description;
  }
}
