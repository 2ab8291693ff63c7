package dev.lakerewrite.eval;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A progress bar on a terminal stream (stderr): pairs done, the running F1 of the current variant, the elapsed
 * time and an ETA for the whole run. On a terminal it redraws one line; elsewhere (CI logs) it prints a line
 * every tenth of a variant's pairs, and after 30 s without one, so logs stay short but show a slow run is alive.
 */
public final class ProgressBar implements ProgressListener {
  private static final int WIDTH = 24;
  private static final long QUIET_INTERVAL_NANOS = 30_000_000_000L;

  private final PrintStream out;
  private final boolean interactive;
  private long start;
  private int total;
  private int done;
  private @Nullable Variant current;
  private int variantPairs;
  private int variantDone;
  private double variantF1Sum;
  private int variantScored;
  private long lastPrint;
  private int lastWidth;

  /**
   * @param out where to draw (stderr)
   * @param interactive redraw in place (a terminal) or print lines (a log)
   */
  public ProgressBar(PrintStream out, boolean interactive) {
    this.out = Objects.requireNonNull(out, "out");
    this.interactive = interactive;
  }

  /** A bar on stderr, redrawn in place when the JVM has a console. */
  public static ProgressBar onStderr() {
    return new ProgressBar(System.err, System.console() != null);
  }

  @Override
  public synchronized void warmUpStarted(int pairs) {
    out.println("warming up: one untimed offline one-step rewrite per pair (" + pairs + "), so caches the lake "
        + "builds on first use are not timed");
    out.flush();
  }

  @Override
  public synchronized void runStarted(List<Variant> variants, int totalPairRuns) {
    start = System.nanoTime();
    total = totalPairRuns;
    done = 0;
  }

  @Override
  public synchronized void variantStarted(Variant variant, int pairs) {
    current = variant;
    variantPairs = pairs;
    variantDone = 0;
    variantF1Sum = 0;
    variantScored = 0;
    lastPrint = System.nanoTime();
    if (!interactive) {
      out.println("running " + variant.title() + " on " + pairs + " pairs");
      out.flush();
    }
  }

  @Override
  public synchronized void variantSkipped(Variant variant, String reason) {
    clear();
    out.println("skipping " + variant.title() + ": " + reason);
    out.flush();
  }

  @Override
  public synchronized void pairFinished(PairOutcome outcome) {
    done++;
    variantDone++;
    if (outcome.status().scored()) {
      variantScored++;
      variantF1Sum += outcome.f1();
    }
    long now = System.nanoTime();
    if (interactive) {
      draw(line(now));
    } else {
      int step = Math.max(1, variantPairs / 10);
      if (variantDone == variantPairs || variantDone % step == 0 || now - lastPrint >= QUIET_INTERVAL_NANOS) {
        out.println(line(now));
        out.flush();
        lastPrint = now;
      }
    }
  }

  @Override
  public synchronized void variantFinished(Variant variant, VariantSummary summary) {
    clear();
    out.printf(Locale.ROOT, "%s: F1 %s, EX %s, median latency %s ms over %d pairs%n", variant.title(),
        MarkdownReport.f3(summary.f1()), MarkdownReport.f3(summary.executionAccuracy()),
        MarkdownReport.f0(summary.latency().medianMillis()), summary.pairs());
    out.flush();
  }

  /** The bar's text at a moment: {@code [#####.....] 37/118 iterative  F1 0.812  1m02s  ETA 3m12s}. */
  synchronized String line(long now) {
    int filled = total == 0 ? WIDTH : (int) Math.round((double) done / total * WIDTH);
    long elapsedMillis = (now - start) / 1_000_000;
    String eta = done == 0 || done >= total ? "" : "  ETA " + MarkdownReport.duration(elapsedMillis * (total - done) / done);
    return "[" + "#".repeat(filled) + ".".repeat(WIDTH - filled) + "] " + done + "/" + total + "  "
        + (current == null ? "" : current.name()) + "  F1 "
        + (variantScored == 0 ? "–" : MarkdownReport.f3(variantF1Sum / variantScored)) + "  "
        + MarkdownReport.duration(elapsedMillis) + eta;
  }

  private void draw(String text) {
    String padded = text.length() < lastWidth ? text + " ".repeat(lastWidth - text.length()) : text;
    out.print("\r" + padded);
    out.flush();
    lastWidth = text.length();
  }

  private void clear() {
    if (interactive && lastWidth > 0) {
      out.print("\r" + " ".repeat(lastWidth) + "\r");
      lastWidth = 0;
    }
  }
}
