package dev.lakerewrite.eval;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

/**
 * The PNG charts of a report, drawn with XChart (headless): F1 and execution accuracy by method (thesis figures
 * 7.4, 7.5), F1 by error type per method (table 7.3 as bars), and, when ablations ran, a heatmap of F1 by error
 * type per ablation (figure 7.8).
 */
public final class ReportCharts {

  /** F1 and execution accuracy per method/model variant. */
  public static final String F1_BY_METHOD = "charts/f1-by-method.png";
  /** F1 per error type, one bar per method/model variant. */
  public static final String F1_BY_ERROR_TYPE = "charts/f1-by-error-type.png";
  /** F1 per error type (and overall) for the full rewriter and each ablation. */
  public static final String ABLATION_HEATMAP = "charts/ablation-heatmap.png";

  static {
    // PNGs need no display; without this a JVM with DISPLAY set would try to reach it.
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  private ReportCharts() {}

  /** What was written and what could not be. */
  public record Written(List<String> charts, List<String> failures) {
    public Written {
      charts = List.copyOf(charts);
      failures = List.copyOf(failures);
    }
  }

  /**
   * Writes the charts under {@code dir} (as the constants name them). A chart that cannot be drawn is reported in
   * {@link Written#failures()}, never thrown: the run's figures matter more than its pictures.
   */
  public static Written write(EvaluationResult result, Path dir) {
    List<String> written = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    List<EvaluationResult.VariantRun> methods = result.methodRuns().isEmpty() ? result.runs() : result.methodRuns();
    if (!methods.isEmpty()) {
      save(dir, F1_BY_METHOD, () -> f1ByMethod(methods), written, failures);
      save(dir, F1_BY_ERROR_TYPE, () -> f1ByErrorType(methods), written, failures);
    }
    if (!result.ablationRuns().isEmpty()) {
      save(dir, ABLATION_HEATMAP, () -> ablationHeatmap(ablationRows(result)), written, failures);
    }
    return new Written(written, failures);
  }

  private interface ChartMaker {
    Chart<?, ?> make();
  }

  private static void save(Path dir, String name, ChartMaker maker, List<String> written, List<String> failures) {
    try {
      Path file = dir.resolve(name);
      Files.createDirectories(file.getParent());
      BitmapEncoder.saveBitmap(maker.make(), file.toString(), BitmapEncoder.BitmapFormat.PNG);
      written.add(name);
    } catch (IOException | RuntimeException | LinkageError e) {
      failures.add(name + ": " + Evaluation.describe(e));
    }
  }

  static CategoryChart f1ByMethod(List<EvaluationResult.VariantRun> runs) {
    CategoryChart chart = new CategoryChartBuilder().width(Math.max(700, 160 * runs.size())).height(480)
        .title("F1 and execution accuracy by method").yAxisTitle("score").build();
    style(chart, runs.size() > 4);
    List<String> names = runs.stream().map(r -> r.summary().title()).toList();
    chart.addSeries("F1", names, runs.stream().map(r -> finite(r.summary().f1())).toList());
    chart.addSeries("execution accuracy", names,
        runs.stream().map(r -> finite(r.summary().executionAccuracy())).toList());
    return chart;
  }

  static CategoryChart f1ByErrorType(List<EvaluationResult.VariantRun> runs) {
    List<DifficultyTag> tags = MarkdownReport.tags(runs);
    CategoryChart chart = new CategoryChartBuilder().width(Math.max(900, 110 * tags.size() * runs.size()))
        .height(520).title("F1 by error type").yAxisTitle("F1").build();
    style(chart, true);
    List<String> labels = tags.stream().map(DifficultyTag::label).toList();
    for (EvaluationResult.VariantRun r : runs) {
      List<Double> values = new ArrayList<>();
      for (DifficultyTag t : tags) {
        VariantSummary.Group g = r.summary().byTag().get(t);
        values.add(g == null ? 0.0 : finite(g.f1()));
      }
      chart.addSeries(r.summary().title(), labels, values);
    }
    return chart;
  }

  static HeatMapChart ablationHeatmap(List<EvaluationResult.VariantRun> rows) {
    List<DifficultyTag> tags = MarkdownReport.tags(rows);
    List<String> columns = new ArrayList<>();
    columns.add("overall");
    tags.forEach(t -> columns.add(t.label()));
    // XChart puts the first y category at the bottom; the full rewriter belongs on top, as in the tables.
    List<String> names = new ArrayList<>(rows.stream().map(r -> r.summary().title()).toList());
    java.util.Collections.reverse(names);
    List<Number[]> cells = new ArrayList<>();
    for (int y = 0; y < rows.size(); y++) {
      VariantSummary s = rows.get(rows.size() - 1 - y).summary();
      cells.add(new Number[] {0, y, finite(s.f1())});
      for (int x = 0; x < tags.size(); x++) {
        VariantSummary.Group g = s.byTag().get(tags.get(x));
        cells.add(new Number[] {x + 1, y, g == null ? 0.0 : finite(g.f1())});
      }
    }
    HeatMapChart chart = new HeatMapChartBuilder().width(Math.max(900, 120 * columns.size()))
        .height(Math.max(360, 60 * rows.size() + 200)).title("F1 by error type per ablation").build();
    chart.getStyler().setShowValue(true).setMin(0).setMax(1).setHeatMapValueDecimalPattern("0.00")
        .setRangeColors(new Color[] {new Color(0xD7, 0x30, 0x27), new Color(0xFE, 0xE0, 0x8B),
            new Color(0x1A, 0x98, 0x50)});
    chart.getStyler().setXAxisLabelRotation(30);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    chart.addSeries("F1", columns, names, cells);
    return chart;
  }

  /** For each model with ablations: the full iterative run (when it ran), then its ablations. */
  static List<EvaluationResult.VariantRun> ablationRows(EvaluationResult result) {
    Set<EvalModel> models = new LinkedHashSet<>();
    result.ablationRuns().forEach(r -> models.add(r.variant().model()));
    List<EvaluationResult.VariantRun> rows = new ArrayList<>();
    for (EvalModel m : models) {
      Optional<EvaluationResult.VariantRun> full = result.run(Variant.of(EvalMethod.ITERATIVE, m).name());
      full.ifPresent(rows::add);
      result.ablationRuns().stream().filter(r -> r.variant().model().equals(m)).forEach(rows::add);
    }
    return rows;
  }

  private static void style(CategoryChart chart, boolean rotate) {
    CategoryStyler styler = chart.getStyler();
    styler.setYAxisMin(0.0);
    styler.setYAxisMax(1.0);
    styler.setYAxisDecimalPattern("0.00"); // also the bars' labels
    styler.setLabelsPosition(0.95);
    styler.setLegendPosition(Styler.LegendPosition.OutsideS);
    styler.setLegendLayout(Styler.LegendLayout.Horizontal);
    styler.setChartBackgroundColor(Color.WHITE);
    styler.setLabelsVisible(true);
    styler.setLabelsFontColorAutomaticEnabled(false);
    styler.setLabelsFontColor(Color.DARK_GRAY);
    if (rotate) {
      chart.getStyler().setXAxisLabelRotation(20);
    }
  }

  private static double finite(double v) {
    return Double.isFinite(v) ? v : 0.0;
  }
}
