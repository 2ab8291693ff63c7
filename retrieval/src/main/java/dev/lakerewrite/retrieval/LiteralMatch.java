package dev.lakerewrite.retrieval;

/**
 * How literally a cell value matches the sought value in SEARCH_VALUE (thesis §5.3), strongest first. The bonus is
 * added to the embedding similarity.
 */
public enum LiteralMatch {
  /** The same string. */
  EXACT(0.5),
  /** The same after {@link Values#normalize}: case, whitespace, diacritics, number form ({@code Whangārei}). */
  NORMALIZED(0.4),
  /**
   * One comparison form contains the other ({@code Wellington} in {@code Wellington Region}); the bonus is scaled
   * by the square root of the length ratio, so near-equal strings gain most.
   */
  SUBSTRING(0.3),
  /** Most character trigrams shared (typos, transliterations); scaled by the trigram Jaccard similarity. */
  FUZZY(0.2),
  NONE(0.0);

  private final double maxBonus;

  LiteralMatch(double maxBonus) {
    this.maxBonus = maxBonus;
  }

  /** The largest bonus this kind of match adds to a score. */
  public double maxBonus() {
    return maxBonus;
  }
}
