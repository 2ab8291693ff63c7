package dev.lakerewrite.eval;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes a run's reports into a folder: {@code summary.json}, {@code report.md}, {@code pairs.jsonl} and the PNG
 * charts (traces are written by the {@link Evaluation} itself, as pairs finish).
 */
public final class ReportWriter {

  public static final String SUMMARY_JSON = "summary.json";
  public static final String REPORT_MD = "report.md";
  public static final String PAIRS_JSONL = "pairs.jsonl";

  private ReportWriter() {}

  /**
   * What was written.
   *
   * @param summary {@code summary.json}
   * @param report {@code report.md}
   * @param pairs {@code pairs.jsonl}
   * @param charts the PNG files
   * @param chartFailures charts that could not be drawn, with why
   */
  public record Written(Path summary, Path report, Path pairs, List<Path> charts, List<String> chartFailures) {
    public Written {
      charts = List.copyOf(charts);
      chartFailures = List.copyOf(chartFailures);
    }
  }

  /** Writes every report of the run into {@code dir} (created), replacing earlier ones. */
  public static Written write(EvaluationResult result, RunInfo info, Path dir) throws IOException {
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(info, "info");
    Files.createDirectories(dir);
    ReportCharts.Written charts = ReportCharts.write(result, dir);
    RunInfo withChartNotes = info;
    if (!charts.failures().isEmpty()) {
      List<String> notes = new ArrayList<>(info.notes());
      charts.failures().forEach(f -> notes.add("chart not drawn: " + f));
      withChartNotes = new RunInfo(info.settings(), info.problems(), notes);
    }
    Path summary = dir.resolve(SUMMARY_JSON);
    Files.writeString(summary, SummaryJson.text(SummaryJson.summary(result, withChartNotes)), StandardCharsets.UTF_8);
    Path report = dir.resolve(REPORT_MD);
    Files.writeString(report, MarkdownReport.render(result, withChartNotes, charts.charts()), StandardCharsets.UTF_8);
    Path pairs = dir.resolve(PAIRS_JSONL);
    try (BufferedWriter w = Files.newBufferedWriter(pairs, StandardCharsets.UTF_8)) {
      for (EvaluationResult.VariantRun run : result.runs()) {
        for (PairOutcome o : run.outcomes()) {
          w.write(SummaryJson.line(SummaryJson.outcome(o)));
          w.write('\n');
        }
      }
    }
    return new Written(summary, report, pairs, charts.charts().stream().map(dir::resolve).toList(),
        charts.failures());
  }

  /**
   * A listener that appends each finished pair to {@code pairs.jsonl} at once, so an interrupted run keeps what
   * it did ({@link #write} rewrites the file in order at the end).
   */
  public static ProgressListener pairLog(Path dir) {
    Path file = dir.resolve(PAIRS_JSONL);
    return new ProgressListener() {
      @Override
      public synchronized void runStarted(List<Variant> variants, int totalPairRuns) {
        try {
          Files.createDirectories(dir);
          Files.writeString(file, "", StandardCharsets.UTF_8);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
      }

      @Override
      public synchronized void pairFinished(PairOutcome outcome) {
        try {
          Files.writeString(file, SummaryJson.line(SummaryJson.outcome(outcome)) + "\n", StandardCharsets.UTF_8,
              StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot append to " + file + ": " + e.getMessage(), e);
        }
      }
    };
  }
}
