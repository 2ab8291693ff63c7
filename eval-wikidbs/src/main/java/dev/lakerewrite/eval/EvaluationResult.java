package dev.lakerewrite.eval;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What an evaluation produced: per variant, every pair's outcome and the summary; the variants that could not run.
 *
 * @param runs the variants that ran, in run order (the first is the headline)
 * @param skipped the variants that did not run, with why
 * @param started when the run started
 * @param finished when it finished
 * @param warmUp the untimed warm-up before the first pair (zero when off)
 */
public record EvaluationResult(List<VariantRun> runs, List<SkippedVariant> skipped, Instant started,
    Instant finished, Duration warmUp) {

  /** One variant's outcomes (in pair order) and summary. */
  public record VariantRun(Variant variant, List<PairOutcome> outcomes, VariantSummary summary) {
    public VariantRun {
      Objects.requireNonNull(variant, "variant");
      outcomes = List.copyOf(outcomes);
      Objects.requireNonNull(summary, "summary");
    }
  }

  /** A variant that did not run. */
  public record SkippedVariant(Variant variant, String reason) {
    public SkippedVariant {
      Objects.requireNonNull(variant, "variant");
      Objects.requireNonNull(reason, "reason");
    }
  }

  public EvaluationResult {
    runs = List.copyOf(runs);
    skipped = List.copyOf(skipped);
    Objects.requireNonNull(started, "started");
    Objects.requireNonNull(finished, "finished");
    Objects.requireNonNull(warmUp, "warmUp");
  }

  /** The run the top-level figures report: the first variant that ran. */
  public Optional<VariantRun> headline() {
    return runs.isEmpty() ? Optional.empty() : Optional.of(runs.get(0));
  }

  /** The run of the variant with this {@linkplain Variant#name() name}. */
  public Optional<VariantRun> run(String variantName) {
    return runs.stream().filter(r -> r.variant().name().equals(variantName)).findFirst();
  }

  /** Runs without an ablation (methods and models). */
  public List<VariantRun> methodRuns() {
    return runs.stream().filter(r -> r.variant().ablation().isEmpty()).toList();
  }

  /** Runs with an ablation. */
  public List<VariantRun> ablationRuns() {
    return runs.stream().filter(r -> r.variant().ablation().isPresent()).toList();
  }

  public Duration duration() {
    return Duration.between(started, finished);
  }
}
