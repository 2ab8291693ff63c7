package dev.lakerewrite.joingraph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.lakerewrite.retrieval.TypeFamily;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.datasketches.theta.Intersection;
import org.apache.datasketches.theta.JaccardSimilarity;
import org.apache.datasketches.theta.SetOperation;
import org.apache.datasketches.theta.UpdateSketch;
import org.junit.jupiter.api.Test;

/** The value/sketch stage and the overlap arithmetic on its sketches. */
class ProfileAndOverlapTest {
  private final ColumnProfiler profiler = new ColumnProfiler(1 << 12);

  private ColumnSketch profile(String column, String sqlType, String... cells) {
    return profiler.profile(0, ColumnValues.ofCells(column, sqlType, Arrays.asList(cells)));
  }

  @Test
  void lightlyNoisyValuesCompareEqual() {
    ColumnSketch clean = profile("area", "BIGINT", "13789", "22215", "Whangārei");
    ColumnSketch noisy = profile("area", "VARCHAR", "+13789", " 22215.0 ", "WHANGAREI");
    assertThat(noisy.hashes).isEqualTo(clean.hashes);
    Overlap o = Overlap.of(clean, noisy);
    assertThat(o.shared()).isEqualTo(3);
    assertThat(o.jaccard()).isEqualTo(1.0);
  }

  @Test
  void uniquenessCountsDistinctComparisonFormsOverNonNullCells() {
    ColumnSketch p = profile("country", "VARCHAR", "New Zealand", "new zealand ", null, "Australia", "NEW ZEALAND");
    assertThat(p.nonNull).isEqualTo(4);
    assertThat(p.distinct).isEqualTo(2);
    assertThat(p.uniqueness).isEqualTo(0.5);
    assertThat(p.exact).isTrue();
    assertThat(p.normalizedName).isEqualTo("country");
    assertThat(profile("flag", "VARCHAR", "yes", "no", "yes").family).isEqualTo(TypeFamily.BOOLEAN);
    assertThat(profile("year", "VARCHAR", "1999", "2001").family).isEqualTo(TypeFamily.NUMERIC);
    assertThat(profile("empty", "VARCHAR", null, " ", "").hashes).isEmpty();
  }

  @Test
  void bigColumnsKeepAUniformSampleAndEstimateOverlapLikeDataSketches() {
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      a.add("v" + i);
    }
    for (int i = 30_000; i < 120_000; i++) {
      b.add("v" + i);
    }
    ColumnSketch pa = profiler.profile(0, ColumnValues.ofCells("a", "VARCHAR", a));
    ColumnSketch pb = profiler.profile(1, ColumnValues.ofCells("b", "VARCHAR", b));
    assertThat(pa.exact).isFalse();
    assertThat(pa.hashes.length).isLessThan(2 * 4096 + 1);
    assertThat((double) pa.distinct).isCloseTo(50_000, within(50_000 * 0.05));
    Overlap o = Overlap.of(pa, pb);
    assertThat(o.shared()).isCloseTo(20_000, within(20_000 * 0.1));
    assertThat(o.jaccard()).isCloseTo(20_000.0 / 120_000, within(0.02));

    UpdateSketch sa = UpdateSketch.builder().setNominalEntries(1 << 12).build();
    UpdateSketch sb = UpdateSketch.builder().setNominalEntries(1 << 12).build();
    a.forEach(v -> sa.update(v));
    b.forEach(v -> sb.update(v));
    Intersection intersection = SetOperation.builder().buildIntersection();
    double libraryShared = intersection.intersect(sa.compact(), sb.compact()).getEstimate();
    assertThat(o.shared()).isCloseTo(libraryShared, within(1e-6));
    assertThat(o.jaccard()).isCloseTo(JaccardSimilarity.jaccard(sa, sb)[1], within(0.01));
  }

  @Test
  void directionalContainmentReadsFromTheLessUniqueSide() {
    // A foreign key (repeats values) whose values all occur in a much larger key column.
    String[] key = new String[200];
    for (int i = 0; i < key.length; i++) {
      key[i] = "entity " + i;
    }
    ColumnSketch pk = profile("label", "VARCHAR", key);
    ColumnSketch fk = profiler.profile(1, ColumnValues.ofCells("entity", "VARCHAR",
        List.of("entity 1", "entity 2", "entity 2", "entity 3", "entity 3", "entity 3", "entity 4", "entity 4")));
    assertThat(PairScorer.referencing(pk, fk)).isSameAs(fk);
    assertThat(Overlap.of(pk, fk).jaccard()).isEqualTo(4.0 / 200);
  }
}
