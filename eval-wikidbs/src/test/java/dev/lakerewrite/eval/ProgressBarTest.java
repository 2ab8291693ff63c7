package dev.lakerewrite.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The progress bar: pairs done, running F1 and ETA, in place on a terminal, in lines in a log. */
class ProgressBarTest {

  private static final Variant V = Variant.of(EvalMethod.ITERATIVE, EvalModel.OFFLINE);

  @Test
  void aLogGetsALineEveryTenthWithTheRunningF1() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
    QueryResultPair p = Outcomes.pair("p", Difficulty.EASY);
    bar.runStarted(List.of(V), 20);
    bar.variantStarted(V, 20);
    for (int i = 0; i < 20; i++) {
      bar.pairFinished(i % 2 == 0 ? Outcomes.completed(V, p, 2, 10) : Outcomes.failed(V, p, 10));
    }
    String log = bytes.toString(StandardCharsets.UTF_8);
    assertThat(log).contains("running Iterative Rewriter on 20 pairs", "2/20", "20/20", "F1 0.500", "ETA");
    assertThat(log.lines().filter(l -> l.startsWith("[")).count()).isEqualTo(10);
    assertThat(log).doesNotContain("\r");
  }

  @Test
  void aTerminalGetsOneRedrawnLine() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
    QueryResultPair p = Outcomes.pair("p", Difficulty.EASY);
    bar.runStarted(List.of(V), 4);
    bar.variantStarted(V, 4);
    bar.pairFinished(Outcomes.completed(V, p, 2, 10));
    assertThat(bar.line(System.nanoTime())).startsWith("[######..................] 1/4  iterative  F1 1.000");
    bar.pairFinished(Outcomes.completed(V, p, 2, 10));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(out).startsWith("\r[").contains("\r[############............] 2/4");
    assertThat(out).as("redrawn in place, no new line").doesNotContain("\n");
  }
}
