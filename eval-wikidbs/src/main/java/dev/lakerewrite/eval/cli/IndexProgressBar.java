package dev.lakerewrite.eval.cli;

import dev.lakerewrite.core.IndexProgress;
import dev.lakerewrite.core.IndexStage;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Objects;

/**
 * The progress of {@code lakerewrite index} on stderr: the stage, a bar of its units done (tables, or values while
 * embedding them), and the time. On a terminal it redraws one line; elsewhere (logs) it prints a line per tenth of a
 * stage and after 30 s without one.
 */
final class IndexProgressBar implements IndexProgress {
  private static final int WIDTH = 24;
  private static final long QUIET_INTERVAL_NANOS = 30_000_000_000L;

  private final PrintWriter out;
  private final boolean interactive;
  private final long start = System.nanoTime();
  private IndexStage stage;
  private long lastPrinted = -1;
  private long lastPrintNanos = System.nanoTime();
  private int lastWidth;

  IndexProgressBar(PrintWriter out, boolean interactive) {
    this.out = Objects.requireNonNull(out, "out");
    this.interactive = interactive;
  }

  @Override
  public synchronized void update(IndexStage s, long done, long total) {
    long now = System.nanoTime();
    if (s != stage) {
      stage = s;
      lastPrinted = -1;
    }
    String line = line(s, done, total, now - start);
    if (interactive) {
      String padded = line.length() < lastWidth ? line + " ".repeat(lastWidth - line.length()) : line;
      out.print("\r" + padded);
      lastWidth = line.length();
      if (done >= total) {
        out.println();
        lastWidth = 0;
      }
      out.flush();
      return;
    }
    long step = Math.max(1, total / 10);
    boolean milestone = lastPrinted < 0 || done >= total || done / step > lastPrinted / step;
    if (milestone || now - lastPrintNanos >= QUIET_INTERVAL_NANOS) {
      if (done == lastPrinted) {
        return;
      }
      out.println(line);
      out.flush();
      lastPrinted = done;
      lastPrintNanos = now;
    }
  }

  /** {@code [#########...............]  join graph  812/2000 tables  1m02s}. */
  static String line(IndexStage stage, long done, long total, long elapsedNanos) {
    int filled = total <= 0 ? WIDTH : (int) Math.min(WIDTH, Math.round((double) done / total * WIDTH));
    String unit = stage == IndexStage.VALUES ? "values" : "tables";
    long seconds = elapsedNanos / 1_000_000_000L;
    return String.format(Locale.ROOT, "[%s%s]  %-10s  %d/%d %s  %dm%02ds", "#".repeat(filled),
        ".".repeat(WIDTH - filled), stage.label(), done, total, unit, seconds / 60, seconds % 60);
  }
}
