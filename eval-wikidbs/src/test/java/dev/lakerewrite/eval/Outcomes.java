package dev.lakerewrite.eval;

import static dev.lakerewrite.eval.PlainTable.row;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** Hand-made pairs and outcomes for tests of summaries and reports (no lake, no rewriter). */
final class Outcomes {

  private Outcomes() {}

  static final PlainTable GOLD = PlainTable.of(List.of("name", "population"),
      List.of(row("Northland", 179100), row("Auckland", 1571718)));

  static QueryResultPair pair(String id, Difficulty difficulty, DifficultyTag... tags) {
    EnumSet<DifficultyTag> set = EnumSet.of(DifficultyTag.NAME_MISMATCH, tags);
    return new QueryResultPair(id, "SELECT name, population FROM nz_regions", "SELECT 1", GOLD, difficulty, set,
        set.contains(DifficultyTag.NOISE), List.of("region_of_new_zealand", "capital"), "");
  }

  /** A completed outcome whose prediction is the first {@code goldRows} gold rows. */
  static PairOutcome completed(Variant v, QueryResultPair p, int goldRows, long latency) {
    PlainTable prediction = new PlainTable(GOLD.columns(), GOLD.rows().subList(0, goldRows));
    ResultScore score = p.score(prediction);
    TableDiscovery discovery = new TableDiscovery(p.requiredTables(), List.of("region_of_new_zealand"), 5, 2,
        OptionalInt.empty(), List.of("region_of_new_zealand"));
    CandidateSelection selection = new CandidateSelection(List.of(0.25, score.f1()), 1, score.f1());
    return new PairOutcome(v, p, PairStatus.COMPLETED, "", p.noisy(), "SELECT ...", Optional.of(prediction), false,
        score, 2, "OUTPUT_QUERY", Map.of("SEARCH_VALUE", 2, "BUILD_CTE", 1), Map.of("SEARCH_VALUE", 2,
            "BUILD_CTE", 1, "OUTPUT_QUERY", 1), latency, 0, 0, 0, Optional.of(discovery), Optional.of(selection),
        Optional.empty());
  }

  static PairOutcome failed(Variant v, QueryResultPair p, long latency) {
    return PairOutcome.without(v, p, PairStatus.FAILED, "IllegalStateException: boom", p.noisy(), latency);
  }

  static EvaluationResult.VariantRun run(Variant v, List<PairOutcome> outcomes) {
    return new EvaluationResult.VariantRun(v, outcomes, VariantSummary.of(v, outcomes));
  }
}
