package dev.lakerewrite.core.llm;

/**
 * What a model charges, in US dollars per million tokens.
 *
 * @param inputPerMillion price of one million prompt tokens
 * @param outputPerMillion price of one million completion tokens
 */
public record Price(double inputPerMillion, double outputPerMillion) {
  public static final Price FREE = new Price(0, 0);

  public Price {
    if (inputPerMillion < 0 || outputPerMillion < 0 || Double.isNaN(inputPerMillion)
        || Double.isNaN(outputPerMillion)) {
      throw new IllegalArgumentException(
          "prices must be non-negative numbers, were " + inputPerMillion + " and " + outputPerMillion);
    }
  }

  /** The cost of one call. */
  public double cost(long inputTokens, long outputTokens) {
    return (inputTokens * inputPerMillion + outputTokens * outputPerMillion) / 1_000_000.0;
  }
}
