package dev.lakerewrite.eval;

import static dev.lakerewrite.eval.PlainTable.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** Each metric of thesis 7.3 pinned on examples computed by hand (the arithmetic is in the comments). */
class ResultMetricsTest {

  private static final Offset<Double> EPS = within(1e-12);

  private static PlainTable table(List<String> columns, List<?>... rows) {
    List<List<?>> list = new ArrayList<>();
    for (List<?> r : rows) {
      list.add(r);
    }
    return PlainTable.of(columns, list);
  }

  private static final List<String> NAME_POP = List.of("name", "pop");

  private static void assertScore(ResultScore s, double cp, double cr, double rp, double rr) {
    assertThat(s.columnPrecision()).as("column precision").isCloseTo(cp, EPS);
    assertThat(s.columnRecall()).as("column recall").isCloseTo(cr, EPS);
    assertThat(s.rowPrecision()).as("row precision").isCloseTo(rp, EPS);
    assertThat(s.rowRecall()).as("row recall").isCloseTo(rr, EPS);
    double cf = cp + cr == 0 ? 0 : 2 * cp * cr / (cp + cr);
    double rf = rp + rr == 0 ? 0 : 2 * rp * rr / (rp + rr);
    assertThat(s.columnF1()).as("column F1").isCloseTo(cf, EPS);
    assertThat(s.rowF1()).as("row F1").isCloseTo(rf, EPS);
    assertThat(s.f1()).as("F1").isCloseTo((cf + rf) / 2, EPS);
  }

  @Test
  void identicalTablesScoreOneAndMatch() {
    PlainTable gold = table(NAME_POP, row("A", 1L), row("B", 2L));
    ResultScore s = ResultMetrics.score(gold, gold, true);
    assertScore(s, 1, 1, 1, 1);
    assertThat(s.f1()).isEqualTo(1.0);
    assertThat(s.executionMatch()).isTrue();
  }

  @Test
  void reorderedRowsKeepF1ButFailExecutionAccuracyOnlyWhenOrdered() {
    PlainTable gold = table(NAME_POP, row("A", 1L), row("B", 2L));
    PlainTable pred = table(NAME_POP, row("B", 2L), row("A", 1L));
    ResultScore unordered = ResultMetrics.score(pred, gold, false);
    ResultScore ordered = ResultMetrics.score(pred, gold, true);
    assertScore(unordered, 1, 1, 1, 1);
    assertScore(ordered, 1, 1, 1, 1);
    assertThat(unordered.executionMatch()).isTrue();
    assertThat(ordered.executionMatch()).isFalse();
  }

  @Test
  void reorderedColumnsAreMatchedByName() {
    PlainTable gold = table(NAME_POP, row("A", 1L), row("B", 2L));
    PlainTable pred = table(List.of("pop", "name"), row(1L, "A"), row(2L, "B"));
    ResultScore s = ResultMetrics.score(pred, gold, true);
    assertScore(s, 1, 1, 1, 1);
    assertThat(s.executionMatch()).isTrue();
  }

  @Test
  void columnNamesMatchIgnoringCaseButNotByPosition() {
    PlainTable gold = table(NAME_POP, row("A", 1L));
    assertThat(ResultMetrics.score(table(List.of("NAME", "Pop"), row("A", 1L)), gold, false).f1()).isEqualTo(1.0);
    // Same values under other names: nothing overlaps, everything is zero.
    ResultScore renamed = ResultMetrics.score(table(List.of("label", "population"), row("A", 1L)), gold, false);
    assertScore(renamed, 0, 0, 0, 0);
    assertThat(renamed.executionMatch()).isFalse();
  }

  @Test
  void missingGoldColumnScoresZeroForThatColumnAndRowsUseTheOverlap() {
    PlainTable gold = table(List.of("name", "pop", "area"), row("A", 1L, 10L), row("B", 2L, 20L));
    PlainTable pred = table(NAME_POP, row("A", 1L), row("B", 2L));
    // columns: name 1/1, pop 1/1, area 0/0 -> P_col = R_col = 2/3; rows on {name, pop}: all exact -> 1.
    ResultScore s = ResultMetrics.score(pred, gold, false);
    assertScore(s, 2.0 / 3, 2.0 / 3, 1, 1);
    assertThat(s.f1()).isCloseTo((2.0 / 3 + 1) / 2, EPS);
    assertThat(s.executionMatch()).isFalse();
  }

  @Test
  void extraPredictedColumnsAreIgnoredByEveryMetric() {
    PlainTable gold = table(NAME_POP, row("A", 1L), row("B", 2L));
    PlainTable pred = table(List.of("name", "pop", "extra"), row("A", 1L, "x"), row("B", 2L, "y"));
    ResultScore s = ResultMetrics.score(pred, gold, true);
    assertScore(s, 1, 1, 1, 1);
    assertThat(s.executionMatch()).isTrue();
  }

  @Test
  void partialRowsGetPartialCredit() {
    PlainTable gold = table(NAME_POP, row("A", 1L), row("B", 2L));
    PlainTable pred = table(NAME_POP, row("A", 1L), row("B", 3L));
    // columns: name P=R=1; pop V_p=[1,3] V_g=[1,2]: P=1/2, R=1/2 -> P_col = R_col = 3/4.
    // rows: (A,1)->1, (B,3) best (B,2) on 1 of 2 columns -> 1/2; P_row = R_row = 3/4.
    ResultScore s = ResultMetrics.score(pred, gold, false);
    assertScore(s, 0.75, 0.75, 0.75, 0.75);
    assertThat(s.f1()).isCloseTo(0.75, EPS);
    assertThat(s.executionMatch()).isFalse();
  }

  @Test
  void rowMatchTakesTheBestRowNotTheFirst() {
    List<String> cols = List.of("a", "b", "c");
    PlainTable gold = table(cols, row("x", "y", "z"), row("p", "q", "r"));
    PlainTable pred = table(cols, row("p", "q", "z"));
    // (p,q,z) vs (x,y,z): 1/3, vs (p,q,r): 2/3 -> P_row = 2/3.
    // gold (x,y,z) -> 1/3, (p,q,r) -> 2/3 -> R_row = 1/2.
    // columns: a V_p=[p] in gold -> P=1, R: [x,p] -> 1/2; b same; c V_p=[z] -> P=1, R: [z,r] -> 1/2.
    ResultScore s = ResultMetrics.score(pred, gold, false);
    assertScore(s, 1, 0.5, 2.0 / 3, 0.5);
  }

  @Test
  void duplicatedPredictionsCountPerEntryForColumnsAndOnceForRows() {
    List<String> cols = List.of("name");
    PlainTable gold = table(cols, row("A"), row("B"));
    PlainTable pred = table(cols, row("A"), row("A"), row("A"));
    // column: V_p=[A,A,A] all in gold -> P=3/3=1; V_g=[A,B], only A predicted -> R=1/2.
    // rows are sets: R_p={A} -> P_row=1; R_g={A,B} -> R_row=1/2.
    ResultScore s = ResultMetrics.score(pred, gold, false);
    assertScore(s, 1, 0.5, 1, 0.5);
    assertThat(s.f1()).isCloseTo(2.0 / 3, EPS);
    assertThat(s.executionMatch()).isFalse();
  }

  @Test
  void duplicatesMissingFromThePredictionKeepF1ButFailExecutionAccuracy() {
    List<String> cols = List.of("name");
    PlainTable gold = table(cols, row("A"), row("A"), row("B"));
    PlainTable pred = table(cols, row("A"), row("B"));
    // every value and every distinct row is found both ways -> F1 = 1, but the multiset differs.
    ResultScore s = ResultMetrics.score(pred, gold, false);
    assertScore(s, 1, 1, 1, 1);
    assertThat(s.executionMatch()).isFalse();
    assertThat(ResultMetrics.score(table(cols, row("B"), row("A"), row("A")), gold, false).executionMatch())
        .isTrue();
  }

  @Test
  void wrongRowsAmongGoodOnesLowerRowPrecision() {
    List<String> cols = List.of("name");
    PlainTable gold = table(cols, row("A"));
    PlainTable pred = table(cols, row("A"), row("X"), row("Y"));
    // column: P = 1/3, R = 1; rows: P = (1+0+0)/3, R = 1.
    assertScore(ResultMetrics.score(pred, gold, false), 1.0 / 3, 1, 1.0 / 3, 1);
  }

  @Test
  void nullsEqualNullsAndNothingElse() {
    PlainTable gold = table(NAME_POP, row("A", null), row("B", 2L));
    PlainTable pred = table(NAME_POP, row("A", null), row("B", null));
    // name: 1/1. pop: V_p=[N,N] both in V_g -> P=1; V_g=[N,2]: N found, 2 not -> R=1/2.
    // P_col = (1+1)/2 = 1, R_col = (1+1/2)/2 = 3/4.
    // rows: (A,N)->1, (B,N) best 1/2 -> P_row = 3/4; gold (A,N)->1, (B,2)->1/2 -> R_row = 3/4.
    ResultScore s = ResultMetrics.score(pred, gold, false);
    assertScore(s, 1, 0.75, 0.75, 0.75);
    assertThat(s.f1()).isCloseTo((6.0 / 7 + 0.75) / 2, EPS);

    PlainTable nullAsText = table(NAME_POP, row("A", "NULL"), row("B", 2L));
    ResultScore t = ResultMetrics.score(nullAsText, gold, false);
    // pop: V_p=["NULL",2] -> P=1/2 (2 only); V_g=[N,2] -> R=1/2.
    assertScore(t, 0.75, 0.75, 0.75, 0.75);
    PlainTable emptyString = table(NAME_POP, row("A", ""), row("B", 2L));
    assertThat(ResultMetrics.score(emptyString, gold, false).executionMatch()).isFalse();
    assertThat(ResultMetrics.score(gold, gold, true).executionMatch()).isTrue();
  }

  @Test
  void numbersCompareByValueWhateverTheirTypeOrSpelling() {
    PlainTable gold = table(List.of("area"), row(13789L));
    for (Object same : List.of(13789.0, 13789, "13789", "+13789", "13789.00", new BigDecimal("13789.000"),
        13789.0f, new java.math.BigInteger("13789"))) {
      assertThat(ResultMetrics.score(table(List.of("area"), row(same)), gold, true).executionMatch())
          .as("%s (%s)", same, same.getClass().getSimpleName()).isTrue();
    }
    for (Object different : List.of("13,789", " 13789", "13789 km2", 13789.5, "1.3789e4")) {
      assertThat(ResultMetrics.score(table(List.of("area"), row(different)), gold, true).f1())
          .as("%s", different).isZero();
    }
  }

  @Test
  void emptyPredictionOfNonEmptyGoldScoresZero() {
    PlainTable gold = table(NAME_POP, row("A", 1L));
    ResultScore s = ResultMetrics.score(PlainTable.empty(NAME_POP), gold, false);
    assertScore(s, 0, 0, 0, 0);
    assertThat(s.executionMatch()).isFalse();
  }

  @Test
  void emptyPredictionOfEmptyGoldIsPerfect() {
    ResultScore s = ResultMetrics.score(PlainTable.empty(NAME_POP), PlainTable.empty(NAME_POP), true);
    assertScore(s, 1, 1, 1, 1);
    assertThat(s.executionMatch()).isTrue();
  }

  @Test
  void rowsPredictedForAnEmptyGoldScoreZero() {
    ResultScore s = ResultMetrics.score(table(NAME_POP, row("A", 1L)), PlainTable.empty(NAME_POP), false);
    assertScore(s, 0, 0, 0, 0);
    assertThat(s.executionMatch()).isFalse();
  }

  @Test
  void emptyPredictionWithWrongColumnsOfEmptyGoldScoresZero() {
    ResultScore s = ResultMetrics.score(PlainTable.empty(List.of("x")), PlainTable.empty(NAME_POP), false);
    assertScore(s, 0, 0, 0, 0);
    assertThat(s.executionMatch()).isFalse();
  }

  @Test
  void aFailedPredictionScoresZero() {
    PlainTable gold = table(NAME_POP, row("A", 1L));
    assertThat(ResultMetrics.score(null, gold, false)).isEqualTo(ResultScore.FAILED);
    assertThat(ResultScore.FAILED.f1()).isZero();
    assertThat(ResultScore.FAILED.executionAccuracy()).isZero();
  }

  @Test
  void repeatedColumnNamesMatchOccurrenceByOccurrence() {
    List<String> cols = List.of("label", "label");
    PlainTable gold = table(cols, row("A", "x"), row("B", "y"));
    PlainTable pred = table(cols, row("A", "x"), row("B", "y"));
    assertThat(ResultMetrics.score(pred, gold, true).executionMatch()).isTrue();
    PlainTable swapped = table(cols, row("x", "A"), row("y", "B"));
    // first label [x,y] vs [A,B] -> 0; second [A,B] vs [x,y] -> 0.
    assertScore(ResultMetrics.score(swapped, gold, false), 0, 0, 0, 0);
  }

  @Test
  void floatingPointNoiseDoesNotCount() {
    PlainTable gold = table(List.of("v"), row(0.3), row(-40.35698333333333));
    PlainTable pred = table(List.of("v"), row(0.1 + 0.2), row("-40.3569833333333"));
    assertThat(ResultMetrics.score(pred, gold, true).executionMatch()).isTrue();
  }

  @Test
  void aThesisSizedExampleByHand() {
    // Gold: three countries; the prediction gets one row right, one half right, misses one and adds one.
    List<String> cols = List.of("name", "capital");
    PlainTable gold = table(cols, row("France", "Paris"), row("Japan", "Tokyo"), row("Chile", "Santiago"));
    PlainTable pred = table(cols, row("France", "Paris"), row("Japan", "Kyoto"), row("Peru", "Lima"));
    // name: V_p=[France,Japan,Peru] -> P=2/3; V_g=[France,Japan,Chile] -> R=2/3.
    // capital: V_p=[Paris,Kyoto,Lima] -> P=1/3; V_g=[Paris,Tokyo,Santiago] -> R=1/3.
    // P_col = R_col = 1/2.
    // rows: (France,Paris)->1, (Japan,Kyoto)->1/2, (Peru,Lima)->0 -> P_row = 1/2;
    // gold: (France,Paris)->1, (Japan,Tokyo)->1/2, (Chile,Santiago)->0 -> R_row = 1/2.
    ResultScore s = ResultMetrics.score(pred, gold, false);
    assertScore(s, 0.5, 0.5, 0.5, 0.5);
    assertThat(s.f1()).isCloseTo(0.5, EPS);
  }

  @Test
  void largeTablesWithASharedValueAreScoredCorrectly() {
    List<String> cols = List.of("k", "constant", "v");
    List<List<?>> goldRows = new ArrayList<>();
    List<List<?>> predRows = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      goldRows.add(row((long) i, "New Zealand", "v" + i));
      predRows.add(row((long) i, "New Zealand", "w" + i));
    }
    ResultScore s = ResultMetrics.score(PlainTable.of(cols, predRows), PlainTable.of(cols, goldRows), false);
    // every row matches its partner on k and constant: 2/3.
    assertThat(s.rowPrecision()).isCloseTo(2.0 / 3, EPS);
    assertThat(s.rowRecall()).isCloseTo(2.0 / 3, EPS);
    assertThat(s.columnPrecision()).isCloseTo(2.0 / 3, EPS);
  }
}
