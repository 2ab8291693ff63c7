package dev.lakerewrite.eval;

/**
 * The scores of one predicted table against its gold table (thesis §7.3).
 *
 * @param columnPrecision mean over gold columns of the share of predicted cells found in the gold column
 * @param columnRecall mean over gold columns of the share of gold cells found in the predicted column
 * @param columnF1 harmonic mean of {@code columnPrecision} and {@code columnRecall}
 * @param rowPrecision mean over distinct predicted rows of their best partial match among gold rows
 * @param rowRecall mean over distinct gold rows of their best partial match among predicted rows
 * @param rowF1 harmonic mean of {@code rowPrecision} and {@code rowRecall}
 * @param f1 the thesis's final score, {@code (columnF1 + rowF1) / 2}, order-insensitive
 * @param executionMatch execution accuracy for this pair: the prediction holds every gold column and, on them,
 *     exactly the gold rows with their multiplicities, in the gold order when the user query has ORDER BY
 */
public record ResultScore(
    double columnPrecision,
    double columnRecall,
    double columnF1,
    double rowPrecision,
    double rowRecall,
    double rowF1,
    double f1,
    boolean executionMatch) {

  /** The score of a pair whose prediction is missing (the rewrite failed or its query did not run). */
  public static final ResultScore FAILED = new ResultScore(0, 0, 0, 0, 0, 0, 0, false);

  public ResultScore {
    check("columnPrecision", columnPrecision);
    check("columnRecall", columnRecall);
    check("columnF1", columnF1);
    check("rowPrecision", rowPrecision);
    check("rowRecall", rowRecall);
    check("rowF1", rowF1);
    check("f1", f1);
  }

  private static void check(String name, double value) {
    if (!(value >= 0.0 && value <= 1.0)) {
      throw new IllegalArgumentException(name + " must be in [0, 1], was " + value);
    }
  }

  /** Execution accuracy as a number (1 or 0), for averaging. */
  public double executionAccuracy() {
    return executionMatch ? 1.0 : 0.0;
  }

  /** The harmonic mean of a precision and a recall, 0 when both are 0. */
  static double harmonic(double precision, double recall) {
    double sum = precision + recall;
    return sum == 0 ? 0.0 : 2 * precision * recall / sum;
  }
}
