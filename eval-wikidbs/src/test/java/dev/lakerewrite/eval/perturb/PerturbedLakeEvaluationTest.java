package dev.lakerewrite.eval.perturb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.eval.EvalMethod;
import dev.lakerewrite.eval.EvalModel;
import dev.lakerewrite.eval.Evaluation;
import dev.lakerewrite.eval.EvaluationResult;
import dev.lakerewrite.eval.GoldMapping;
import dev.lakerewrite.eval.Lakes;
import dev.lakerewrite.eval.PairOutcome;
import dev.lakerewrite.eval.SuiteReport;
import dev.lakerewrite.eval.Variant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The offline rewriter on a disorganized lake, scored per lake with the suite report and the mapping seam. */
class PerturbedLakeEvaluationTest {

  @TempDir
  Path dir;

  @Test
  void aDisorganizedLakeIsScoredWithMappingAccuracyThroughTheSeam() throws Exception {
    Path db = ShopDatabase.create(dir.resolve("shop.duckdb"));
    PerturbedLake lake = LakePerturber.builder().seed(6).noiseTableRate(0).cacheDirectory(dir.resolve("cache"))
        .build().perturb(db, ShopDatabase.queries().subList(0, 4), dir.resolve("lake"));
    Map<String, GoldMapping> gold = new LinkedHashMap<>();
    lake.pairs().forEach(p -> gold.put(p.userQuery(), p.goldMapping()));
    try (DataLake clean = Lakes.open(lake.lake(), dir.resolve("cache"))) {
      // A stand-in for a rewriter that reports its mapping: it reports the gold one, so accuracy must be 1.
      EvaluationResult r = Evaluation.builder().lake(clean).pairs(lake.pairs())
          .variant(Variant.of(EvalMethod.ONE_STEP, EvalModel.OFFLINE)).warmUp(false)
          .pairTimeout(Duration.ofSeconds(120))
          .chosenMapping(result -> Optional.of(asChosen(gold.get(result.userQuery())))).build().run();
      List<PairOutcome> outcomes = r.runs().get(0).outcomes();
      assertThat(outcomes).hasSize(4).allSatisfy(o -> assertThat(o.mapping()).isPresent());
      SuiteReport report = new SuiteReport();
      report.add(new SuiteReport.LakeRun("shop", "lake-6", "held-out", r, null));
      SuiteReport.Figures f = SuiteReport.Figures.of(outcomes);
      assertThat(f.pairs()).isEqualTo(4);
      assertThat(f.mappingAccuracy()).hasValue(1.0);
      assertThat(f.binderRejected()).isEqualTo(
          outcomes.stream().filter(PairOutcome::binderRejected).count() / 4.0);
      assertThat(report.markdown()).contains("| shop | lake-6 | held-out | one-step | 4 |", "by SQL shape",
          "by perturbation kind", "| rename-table |");
      report.write(dir.resolve("out"));
      assertThat(Files.readString(dir.resolve("out/suites.json"))).contains("\"by_sql_shape\"", "\"mapping_accuracy\" : 1.0");
    }
  }

  private static Map<String, Set<String>> asChosen(GoldMapping g) {
    Map<String, Set<String>> out = new LinkedHashMap<>();
    g.columns().forEach((k, v) -> out.put(k, new LinkedHashSet<>(v.lake())));
    return out;
  }
}
