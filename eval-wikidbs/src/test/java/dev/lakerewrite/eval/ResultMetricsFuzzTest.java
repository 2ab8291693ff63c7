package dev.lakerewrite.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Issue 9, fuzzing the metrics: on random tables (repeated column names, nulls, mixed types, NaN, empty tables)
 * every figure lies in [0, 1], a table scored against itself has F1 = 1 and matches exactly, and F1 does not
 * depend on the order of rows or of columns (columns of one name keep their relative order: they are matched
 * occurrence by occurrence).
 */
class ResultMetricsFuzzTest {

  @Property(tries = 1000)
  void everyFigureIsInTheUnitInterval(@ForAll("tables") PlainTable predicted, @ForAll("tables") PlainTable gold,
      @ForAll boolean ordered) {
    ResultScore s = ResultMetrics.score(predicted, gold, ordered);
    for (double v : new double[] {s.columnPrecision(), s.columnRecall(), s.columnF1(), s.rowPrecision(),
        s.rowRecall(), s.rowF1(), s.f1()}) {
      assertThat(v).isBetween(0.0, 1.0);
    }
    if (s.executionMatch()) {
      assertThat(s.f1()).isEqualTo(1.0, within(1e-12));
    }
  }

  @Property(tries = 1000)
  void aTableScoredAgainstItselfIsPerfect(@ForAll("tables") PlainTable t, @ForAll boolean ordered) {
    ResultScore s = ResultMetrics.score(t, t, ordered);
    assertThat(s.f1()).isEqualTo(1.0, within(1e-12));
    assertThat(s.executionMatch()).isTrue();
    assertThat(ResultMetrics.score(copy(t), t, ordered).f1()).isEqualTo(1.0, within(1e-12));
  }

  @Property(tries = 1000)
  void f1IgnoresTheOrderOfRowsAndColumns(@ForAll("tables") PlainTable predicted, @ForAll("tables") PlainTable gold,
      @ForAll long seed) {
    ResultScore s = ResultMetrics.score(predicted, gold, false);
    PlainTable shuffled = shuffle(predicted, new Random(seed));
    ResultScore t = ResultMetrics.score(shuffled, gold, false);
    assertThat(t.f1()).isEqualTo(s.f1(), within(1e-9));
    assertThat(t.executionMatch()).isEqualTo(s.executionMatch());
    // A shuffled copy of the gold table still scores 1 (and matches when order does not count).
    ResultScore self = ResultMetrics.score(shuffle(gold, new Random(seed + 1)), gold, false);
    assertThat(self.f1()).isEqualTo(1.0, within(1e-12));
    assertThat(self.executionMatch()).isTrue();
  }

  @Provide
  Arbitrary<PlainTable> tables() {
    Arbitrary<List<String>> columns = Arbitraries.of("label", "name", "population", "Label", "area", "x", "")
        .list().ofMinSize(1).ofMaxSize(4);
    Arbitrary<Object> cell = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(4, Arbitraries.of("Northland", "Auckland", "northland", " Auckland ", "", "é", "1")
            .map(Object.class::cast)),
        net.jqwik.api.Tuple.of(3, Arbitraries.longs().between(-3, 3).map(Object.class::cast)),
        net.jqwik.api.Tuple.of(2, Arbitraries.of(1.0, 1.5, -0.0, 0.0, Double.NaN, Double.POSITIVE_INFINITY)
            .map(Object.class::cast)),
        net.jqwik.api.Tuple.of(1, Arbitraries.of(new BigDecimal("1.0"), new BigDecimal("1"), true, false)
            .map(Object.class::cast)),
        net.jqwik.api.Tuple.of(2, Arbitraries.just(null)));
    return columns.flatMap(cols -> cell.list().ofSize(cols.size()).list().ofMaxSize(12)
        .map(rows -> PlainTable.of(cols, rows)));
  }

  static PlainTable copy(PlainTable t) {
    return PlainTable.of(new ArrayList<>(t.columns()), t.rows());
  }

  /** The same table with rows and columns in another order. */
  static PlainTable shuffle(PlainTable t, Random random) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < t.columns().size(); i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    // Repeated names are matched occurrence by occurrence (documented): keep their relative order.
    java.util.Map<String, List<Integer>> byName = new java.util.LinkedHashMap<>();
    for (int i = 0; i < t.columns().size(); i++) {
      byName.computeIfAbsent(t.columns().get(i).toLowerCase(java.util.Locale.ROOT), k -> new ArrayList<>()).add(i);
    }
    for (List<Integer> group : byName.values()) {
      List<Integer> slots = new ArrayList<>();
      for (int p = 0; p < order.size(); p++) {
        if (group.contains(order.get(p))) {
          slots.add(p);
        }
      }
      for (int k = 0; k < slots.size(); k++) {
        order.set(slots.get(k), group.get(k));
      }
    }
    List<String> cols = order.stream().map(t.columns()::get).toList();
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> r : t.rows()) {
      List<Object> row = new ArrayList<>();
      order.forEach(i -> row.add(r.get(i)));
      rows.add(row);
    }
    Collections.shuffle(rows, random);
    return PlainTable.of(cols, rows);
  }

}
