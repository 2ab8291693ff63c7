package dev.lakerewrite.eval;

import static dev.lakerewrite.eval.PlainTable.row;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading tables out of trace entries, and judging the checker's choice. */
class TraceFactsTest {

  @Test
  void joinPathsNameTheirTablesQuotedOrNot() {
    assertThat(TraceFacts.joinPathTables(
        "region_of_new_zealand JOIN capital ON region_of_new_zealand.capital = capital.\"label\""))
        .containsExactly("region_of_new_zealand", "capital");
    assertThat(TraceFacts.joinPathTables("\"1992_winter_olympics\" JOIN \"location\" ON \"1992_winter_olympics\".x "
        + "= \"location\".y JOIN sport ON \"location\".z = sport.w"))
        .containsExactly("1992_winter_olympics", "location", "sport");
    assertThat(TraceFacts.withoutScore("capital_of (1.1)")).isEqualTo("capital_of");
    assertThat(TraceFacts.withoutScore("capital_of")).isEqualTo("capital_of");
    assertThat(TraceFacts.actionType("SEARCH_VALUE(capital, 'Whangarei')")).hasValue(
        dev.lakerewrite.core.rewrite.ActionType.SEARCH_VALUE);
    assertThat(TraceFacts.actionType("WHATEVER(x)")).isEmpty();
  }

  @Test
  void theChoiceIsRightWhenNoCandidateScoresHigher() {
    CandidateSelection best = new CandidateSelection(List.of(0.2, Double.NaN, 0.9), 2, 0.9);
    assertThat(best.correct()).isTrue();
    assertThat(best.contested()).isTrue();
    assertThat(best.ran()).isEqualTo(2);
    assertThat(best.best()).isEqualTo(2);
    CandidateSelection wrong = new CandidateSelection(List.of(1.0, 0.5), 1, 0.5);
    assertThat(wrong.correct()).isFalse();
    assertThat(wrong.best()).isZero();
    assertThat(wrong.bestF1()).isEqualTo(1.0);
    CandidateSelection tie = new CandidateSelection(List.of(0.5, 0.5), 0, 0.5);
    assertThat(tie.correct()).isTrue();
    assertThat(tie.contested()).isFalse();
    CandidateSelection nothingRan = new CandidateSelection(List.of(Double.NaN), 0, 0);
    assertThat(nothingRan.eligible()).isFalse();
    assertThat(nothingRan.correct()).isFalse();
  }

  @Test
  void candidatesAreScoredUnderTheNamesTheLoopWouldGiveThem() {
    PlainTable raw = PlainTable.of(List.of("label", "pop"), List.of(row("Northland", 1)));
    assertThat(CandidateSelection.presented(raw, List.of("name", "population")).columns())
        .containsExactly("name", "population");
    assertThat(CandidateSelection.presented(raw, List.of("name")).columns()).as("counts differ")
        .containsExactly("label", "pop");
    assertThat(CandidateSelection.presented(raw, List.of("pop", "label")).columns()).as("a name elsewhere")
        .containsExactly("label", "pop");
    assertThat(CandidateSelection.presented(raw, List.of("*", "x")).columns()).containsExactly("label", "pop");
  }
}
