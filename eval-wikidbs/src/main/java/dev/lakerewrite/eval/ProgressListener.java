package dev.lakerewrite.eval;

import java.util.List;

/**
 * Follows an evaluation as it runs. Methods may be called from several worker threads (with {@code jobs > 1});
 * implementations synchronise themselves. The defaults do nothing.
 */
public interface ProgressListener {

  /** Nothing. */
  ProgressListener NONE = new ProgressListener() {};

  /** The untimed warm-up starts (one offline one-step rewrite per pair). */
  default void warmUpStarted(int pairs) {}

  /** The run starts: the variants that will run and the pair runs in all (variants × pairs). */
  default void runStarted(List<Variant> variants, int totalPairRuns) {}

  /** A variant starts. */
  default void variantStarted(Variant variant, int pairs) {}

  /** A variant does not run (an LLM baseline without a model). */
  default void variantSkipped(Variant variant, String reason) {}

  /** A pair finished (in any status). */
  default void pairFinished(PairOutcome outcome) {}

  /** A variant finished. */
  default void variantFinished(Variant variant, VariantSummary summary) {}

  /** The run finished. */
  default void runFinished(EvaluationResult result) {}

  /** Listeners called in order. */
  static ProgressListener all(List<ProgressListener> listeners) {
    List<ProgressListener> copy = List.copyOf(listeners);
    return new ProgressListener() {
      @Override
      public void warmUpStarted(int pairs) {
        copy.forEach(l -> l.warmUpStarted(pairs));
      }

      @Override
      public void runStarted(List<Variant> variants, int totalPairRuns) {
        copy.forEach(l -> l.runStarted(variants, totalPairRuns));
      }

      @Override
      public void variantStarted(Variant variant, int pairs) {
        copy.forEach(l -> l.variantStarted(variant, pairs));
      }

      @Override
      public void variantSkipped(Variant variant, String reason) {
        copy.forEach(l -> l.variantSkipped(variant, reason));
      }

      @Override
      public void pairFinished(PairOutcome outcome) {
        copy.forEach(l -> l.pairFinished(outcome));
      }

      @Override
      public void variantFinished(Variant variant, VariantSummary summary) {
        copy.forEach(l -> l.variantFinished(variant, summary));
      }

      @Override
      public void runFinished(EvaluationResult result) {
        copy.forEach(l -> l.runFinished(result));
      }
    };
  }
}
