package dev.lakerewrite.eval;

import dev.lakerewrite.core.rewrite.ActionType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The figures of one variant over its pairs, as the thesis reports them (§7.4): overall F1 and execution accuracy,
 * F1 by difficulty (table 7.1) and by error type (table 7.3), latency and cost (table 7.2), action usage (table
 * 7.6), required-table discovery (table 7.4) and checker selection accuracy. Means are over scored pairs (every
 * status but skipped; a pair without a prediction scores 0); a mean over nothing is {@code NaN}.
 *
 * @param variant the variant's name
 * @param title its name in reports
 * @param pairs scored pairs
 * @param statuses pairs per status (skipped included)
 * @param f1 mean final F1
 * @param executionAccuracy share of exact matches
 * @param columnF1 mean column-level F1
 * @param rowF1 mean row-level F1
 * @param latency rewrite wall time over scored pairs
 * @param usage LLM use
 * @param meanIterations mean iterations over rewrites that returned
 * @param stopReasons rewrites per stop reason
 * @param byDifficulty figures per difficulty, in order
 * @param byTag figures per difficulty tag (a pair counts under each of its tags), in tag order
 * @param actions per action type, in {@link ActionType} order
 * @param discovery required-table discovery over rewrites that returned
 * @param selection checker selection over rewrites that returned
 */
public record VariantSummary(String variant, String title, int pairs, Map<PairStatus, Integer> statuses, double f1,
    double executionAccuracy, double columnF1, double rowF1, Latency latency, Usage usage, double meanIterations,
    Map<String, Integer> stopReasons, Map<Difficulty, Group> byDifficulty, Map<DifficultyTag, Group> byTag,
    Map<String, ActionStats> actions, DiscoveryStats discovery, SelectionStats selection) {

  public VariantSummary {
    Objects.requireNonNull(variant, "variant");
    Objects.requireNonNull(title, "title");
    statuses = Collections.unmodifiableMap(new EnumMap<>(statuses));
    stopReasons = Collections.unmodifiableMap(new LinkedHashMap<>(stopReasons));
    byDifficulty = Collections.unmodifiableMap(new EnumMap<>(byDifficulty));
    byTag = Collections.unmodifiableMap(new EnumMap<>(byTag));
    actions = Collections.unmodifiableMap(new LinkedHashMap<>(actions));
  }

  /** Pairs, mean F1 and execution accuracy of a group of pairs. */
  public record Group(int pairs, double f1, double executionAccuracy) {}

  /** Rewrite wall time in milliseconds. */
  public record Latency(double meanMillis, double medianMillis, double p90Millis, long maxMillis) {}

  /** LLM calls, tokens and estimated cost, in total and per scored pair. */
  public record Usage(long calls, long tokens, double costUsd, double meanCalls, double meanTokens,
      double meanCostUsd) {}

  /**
   * One action type.
   *
   * @param executed times the loop ran it
   * @param perRun executed per rewrite that returned
   * @param pairsUsing rewrites that ran it at least once
   * @param requested times the checker asked for it (disabled actions are asked for but not run)
   */
  public record ActionStats(int executed, double perRun, int pairsUsing, int requested) {}

  /**
   * Thesis table 7.4.
   *
   * @param runs rewrites that returned
   * @param successFraction share that discovered every required table
   * @param meanTerminationIteration mean iteration the loop stopped in
   * @param meanFullCoverageIteration mean iteration of first full coverage, over the successful ones
   * @param meanCoverage mean share of required tables discovered
   * @param meanChosenCoverage mean share of required tables the chosen query reads
   */
  public record DiscoveryStats(int runs, double successFraction, double meanTerminationIteration,
      double meanFullCoverageIteration, double meanCoverage, double meanChosenCoverage) {}

  /**
   * Checker selection accuracy (thesis §7.4.3).
   *
   * @param eligible rewrites where a candidate ran and one was chosen
   * @param correct of those, where the chosen candidate has the best F1
   * @param contested rewrites where at least two candidates ran with different F1
   * @param contestedCorrect of those, where the chosen one is a best one
   */
  public record SelectionStats(int eligible, int correct, int contested, int contestedCorrect) {
    public double accuracy() {
      return eligible == 0 ? Double.NaN : (double) correct / eligible;
    }

    public double contestedAccuracy() {
      return contested == 0 ? Double.NaN : (double) contestedCorrect / contested;
    }
  }

  /** Pairs with this status. */
  public int count(PairStatus status) {
    return statuses.getOrDefault(status, 0);
  }

  /** Summarises the outcomes of one variant. */
  public static VariantSummary of(Variant variant, List<PairOutcome> outcomes) {
    Objects.requireNonNull(variant, "variant");
    List<PairOutcome> scored = outcomes.stream().filter(o -> o.status().scored()).toList();
    List<PairOutcome> returned = outcomes.stream().filter(o -> o.status().returned()).toList();
    Map<PairStatus, Integer> statuses = new EnumMap<>(PairStatus.class);
    outcomes.forEach(o -> statuses.merge(o.status(), 1, Integer::sum));

    Map<Difficulty, Group> byDifficulty = new EnumMap<>(Difficulty.class);
    for (Difficulty d : Difficulty.values()) {
      group(scored, o -> o.pair().difficulty() == d).ifPresent(g -> byDifficulty.put(d, g));
    }
    Map<DifficultyTag, Group> byTag = new EnumMap<>(DifficultyTag.class);
    for (DifficultyTag t : DifficultyTag.values()) {
      group(scored, o -> o.pair().hasTag(t)).ifPresent(g -> byTag.put(t, g));
    }

    List<Double> latencies = new ArrayList<>();
    scored.forEach(o -> latencies.add((double) o.latencyMillis()));
    Collections.sort(latencies);
    Latency latency = new Latency(mean(scored, o -> o.latencyMillis()), median(latencies),
        percentile(latencies, 0.9), scored.stream().mapToLong(PairOutcome::latencyMillis).max().orElse(0));
    long calls = scored.stream().mapToLong(PairOutcome::llmCalls).sum();
    long tokens = scored.stream().mapToLong(PairOutcome::tokens).sum();
    double cost = scored.stream().mapToDouble(PairOutcome::costUsd).sum();
    Usage usage = new Usage(calls, tokens, cost, ratio(calls, scored.size()), ratio(tokens, scored.size()),
        ratio(cost, scored.size()));

    Map<String, Integer> stops = new LinkedHashMap<>();
    returned.forEach(o -> stops.merge(o.stopReason(), 1, Integer::sum));

    Map<String, ActionStats> actions = new LinkedHashMap<>();
    for (ActionType t : ActionType.values()) {
      String name = t.name();
      int executed = returned.stream().mapToInt(o -> o.executedActions().getOrDefault(name, 0)).sum();
      int requested = returned.stream().mapToInt(o -> o.requestedActions().getOrDefault(name, 0)).sum();
      int using = (int) returned.stream().filter(o -> o.executedActions().getOrDefault(name, 0) > 0).count();
      if (executed > 0 || requested > 0 || t != ActionType.OUTPUT_QUERY) {
        actions.put(name, new ActionStats(executed, ratio(executed, returned.size()), using, requested));
      }
    }

    List<TableDiscovery> discoveries = returned.stream().flatMap(o -> o.discovery().stream()).toList();
    List<TableDiscovery> complete = discoveries.stream().filter(TableDiscovery::complete).toList();
    DiscoveryStats discovery = new DiscoveryStats(discoveries.size(),
        ratio(complete.size(), discoveries.size()),
        discoveries.stream().mapToInt(TableDiscovery::terminationIteration).average().orElse(Double.NaN),
        complete.stream().mapToInt(d -> d.fullCoverageIteration().orElse(0)).average().orElse(Double.NaN),
        discoveries.stream().mapToDouble(TableDiscovery::coverage).average().orElse(Double.NaN),
        discoveries.stream().mapToDouble(TableDiscovery::chosenCoverage).average().orElse(Double.NaN));

    List<CandidateSelection> selections = returned.stream().flatMap(o -> o.selection().stream()).toList();
    SelectionStats selection = new SelectionStats(
        (int) selections.stream().filter(CandidateSelection::eligible).count(),
        (int) selections.stream().filter(CandidateSelection::correct).count(),
        (int) selections.stream().filter(CandidateSelection::contested).count(),
        (int) selections.stream().filter(s -> s.contested() && s.correct()).count());

    return new VariantSummary(variant.name(), variant.title(), scored.size(), statuses,
        mean(scored, PairOutcome::f1), mean(scored, o -> o.score().executionAccuracy()),
        mean(scored, o -> o.score().columnF1()), mean(scored, o -> o.score().rowF1()), latency, usage,
        mean(returned, o -> o.iterations()), stops, byDifficulty, byTag, actions, discovery, selection);
  }

  private static java.util.Optional<Group> group(List<PairOutcome> scored, Predicate<PairOutcome> member) {
    List<PairOutcome> in = scored.stream().filter(member).toList();
    if (in.isEmpty()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(new Group(in.size(), mean(in, PairOutcome::f1),
        mean(in, o -> o.score().executionAccuracy())));
  }

  static double mean(List<PairOutcome> outcomes, ToDoubleFunction<PairOutcome> value) {
    return outcomes.stream().mapToDouble(value).average().orElse(Double.NaN);
  }

  private static double ratio(double numerator, int denominator) {
    return denominator == 0 ? Double.NaN : numerator / denominator;
  }

  /** The median of sorted values (mean of the middle two for an even count), NaN for none. */
  static double median(List<Double> sorted) {
    int n = sorted.size();
    if (n == 0) {
      return Double.NaN;
    }
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** The nearest-rank percentile of sorted values, NaN for none. */
  static double percentile(List<Double> sorted, double p) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }
}
