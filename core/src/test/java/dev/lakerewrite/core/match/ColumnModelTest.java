package dev.lakerewrite.core.match;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.match.ColumnFeatures.Signal;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The learned combiner: the shipped models, fitting, ablation and the confidence calibration. */
class ColumnModelTest {

  private static double[] features(double embedding, double tokens, double literalHit) {
    double[] f = new double[ColumnFeatures.NAMES.size()];
    f[ColumnFeatures.NAMES.indexOf("name.embedding")] = embedding;
    f[ColumnFeatures.NAMES.indexOf("name.tokens")] = tokens;
    f[ColumnFeatures.NAMES.indexOf("instance.literal_hit")] = literalHit;
    return f;
  }

  @Test
  void theShippedModelPrefersAColumnWhoseNameAndValuesFit() {
    ColumnModel m = ColumnModel.standard();
    double fits = m.probability(features(0.9, 1, 1));
    double namesOnly = m.probability(features(0.9, 1, 0));
    double neither = m.probability(features(0.2, 0, 0));
    assertThat(fits).isGreaterThan(namesOnly);
    assertThat(namesOnly).isGreaterThan(neither);
    assertThat(neither).isLessThan(0.5);
    // Nothing at all (every feature 0) is no match: the model has an intercept.
    assertThat(m.probability(new double[ColumnFeatures.NAMES.size()])).isLessThan(0.1);
  }

  @Test
  void everyAblatedModelShipsAndIgnoresItsSignal() {
    for (Signal s : Signal.values()) {
      ColumnModel m = ColumnModel.ablated(Set.of(s));
      assertThat(m.disabled()).containsExactly(s);
      double[] a = features(0.7, 0.5, 1);
      double[] b = a.clone();
      for (int i : ColumnFeatures.indexesOf(EnumSet.of(s))) {
        b[i] = 0.37;
      }
      assertThat(m.probability(b)).isEqualTo(m.probability(a));
    }
  }

  @Test
  void fittingLearnsWhichFeatureSeparatesMatchesAndSavesAndReadsTheModel() throws Exception {
    Random random = new Random(7);
    List<MatcherTraining.Example> examples = new ArrayList<>();
    for (int group = 0; group < 200; group++) {
      int gold = random.nextInt(5);
      for (int c = 0; c < 5; c++) {
        boolean match = c == gold;
        // Token alignment separates; the embedding is noise.
        double[] f = features(random.nextDouble(), match ? 0.7 + 0.3 * random.nextDouble() : 0.4 * random.nextDouble(),
            0);
        examples.add(new MatcherTraining.Example("lake-" + (group % 4) + "|p" + group + "|t.c", "t.c" + c,
            match ? 1 : 0, f));
      }
    }
    ColumnModel m = MatcherTraining.fit(examples, Set.of());
    assertThat(m.weights().get("name.tokens")).isGreaterThan(Math.abs(m.weights().get("name.embedding")));
    assertThat(m.probability(features(0.5, 0.95, 0))).isGreaterThan(0.5);
    assertThat(m.probability(features(0.5, 0.1, 0))).isLessThan(0.5);
    StringWriter w = new StringWriter();
    m.save(w);
    ColumnModel read = ColumnModel.read(new StringReader(w.toString()), Set.of());
    assertThat(read.probability(features(0.5, 0.8, 0))).isEqualTo(m.probability(features(0.5, 0.8, 0)));

    MatcherTraining.Evaluation e = MatcherTraining.crossValidate(examples, Set.of(),
        MatcherTraining.fitConfidence(examples));
    assertThat(e.columns()).isEqualTo(200);
    assertThat(e.accuracy()).isGreaterThan(0.95);
    assertThat(e.expectedCalibrationError()).isLessThan(0.1);

    // Without the name signal nothing separates the candidates (ties go to the first): about one in five is right.
    MatcherTraining.Evaluation blind = MatcherTraining.crossValidate(examples, Set.of(Signal.NAME),
        MatcherTraining.fitConfidence(examples));
    assertThat(blind.accuracy()).isLessThan(0.5);
  }

  @Test
  void theShippedCalibrationIsMoreConfidentOfAClearWinner() {
    MappingConfidence c = MappingConfidence.standard();
    double clear = c.confidence(0.95, 0.05, 1.1);
    double close = c.confidence(0.6, 0.55, 1.5);
    assertThat(clear).isGreaterThan(close).isBetween(0.0, 1.0);
    assertThat(close).isBetween(0.0, 1.0);
  }
}
