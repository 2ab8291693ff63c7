package dev.lakerewrite.core.match;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;
import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.match.ColumnFeatures.Signal;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Fits and judges the matcher's {@link ColumnModel} on pairs with gold column mappings (the perturbed corpora):
 * one example per (assumed column of a pair, column of any lake table), labelled 1 when the lake column is one
 * of the gold ones. Deterministic: the same pairs give the same model.
 */
public final class MatcherTraining {

  /** LIBLINEAR's inverse regularisation strength. */
  static final double C = 1.0;

  private MatcherTraining() {}

  /**
   * A pair's user query and gold columns.
   *
   * @param id the pair's id
   * @param userQuery the query over the assumed schema
   * @param columns assumed {@code table.column} (lower case) → the gold lake {@code table.column}s
   * @param tables assumed table (lower case) → the lake tables holding its rows and columns
   */
  public record GoldPair(String id, String userQuery, Map<String, List<String>> columns,
      Map<String, List<String>> tables) {}

  /** One candidate: an assumed column (of a pair) against a lake column, with its label and features. */
  public record Example(String group, String lakeColumn, int label, double[] features) {}

  /**
   * The examples of one lake's pairs: every assumed column against every column of the lake tables that hold its
   * assumed table (its parts and lookups): the choice the matcher makes once the table is chosen.
   */
  public static List<Example> examples(String lakeName, MatchLake lake, List<GoldPair> pairs) {
    List<Example> out = new ArrayList<>();
    Trees trees = new Trees(SqlParser.standalone());
    for (GoldPair p : pairs) {
      AssumedSchema schema = schemaOf(trees, p.userQuery());
      if (schema == null) {
        continue;
      }
      for (Map.Entry<String, List<String>> g : p.columns().entrySet()) {
        int dot = g.getKey().indexOf('.');
        String table = g.getKey().substring(0, dot);
        String column = g.getKey().substring(dot + 1);
        AssumedSchema.Column c = schema.table(table).flatMap(t -> t.column(column)).orElse(null);
        String name = c != null ? c.name() : column;
        String assumedTable = schema.table(table).map(AssumedSchema.Table::name).orElse(table);
        Set<String> gold = new java.util.HashSet<>();
        g.getValue().forEach(x -> gold.add(x.toLowerCase(Locale.ROOT)));
        String group = lakeName + "|" + p.id() + "|" + g.getKey();
        List<String> tables = p.tables().getOrDefault(table, List.of());
        for (String t : tables.isEmpty() ? lake.tableNames() : tables) {
          for (CatalogTable.Column lc : lake.table(t).columns()) {
            String lakeColumn = t + "." + lc.name();
            int label = gold.contains(lakeColumn.toLowerCase(Locale.ROOT)) ? 1 : 0;
            out.add(new Example(group, lakeColumn, label,
                ColumnFeatures.compute(lake, assumedTable, c, name, t, lc.name())));
          }
        }
      }
    }
    return out;
  }

  /** One candidate: an assumed table (of a pair) against a lake table, with its label and features. */
  public record TableExample(String group, String lakeTable, int label, double[] features) {}

  /** Lake tables scored per assumed table in training besides the gold ones: the most relevant, as the planner's. */
  static final int TABLE_CANDIDATES = 10;

  /**
   * The table examples of one lake's pairs: every assumed table against the lake tables schema retrieval ranks
   * highest for it (the candidates the planner weighs) and its gold tables. Labelled 1 for the gold tables that hold
   * the most of its gold columns (the table the planner must pick; both parts of a table split by rows), so that a
   * lookup or a split-off part holding one column is not taught as the table itself.
   */
  public static List<TableExample> tableExamples(String lakeName, MatchLake lake, List<GoldPair> pairs) {
    List<TableExample> out = new ArrayList<>();
    Trees trees = new Trees(SqlParser.standalone());
    Map<String, Double> memo = new java.util.HashMap<>();
    for (GoldPair p : pairs) {
      AssumedSchema schema = schemaOf(trees, p.userQuery());
      if (schema == null) {
        continue;
      }
      for (Map.Entry<String, List<String>> g : p.tables().entrySet()) {
        AssumedSchema.Table assumed = schema.table(g.getKey()).orElse(null);
        if (assumed == null || g.getValue().isEmpty()) {
          continue;
        }
        String name = assumed.name();
        List<String> columns = TableFeatures.describingColumns(assumed);
        Map<String, Integer> held = new LinkedHashMap<>();
        g.getValue().forEach(t -> held.put(t.toLowerCase(Locale.ROOT), 0));
        p.columns().forEach((col, lakeColumns) -> {
          if (col.startsWith(g.getKey() + ".")) {
            lakeColumns.stream().map(lc -> lc.substring(0, lc.indexOf('.')).toLowerCase(Locale.ROOT)).distinct()
                .forEach(t -> held.computeIfPresent(t, (k, v) -> v + 1));
          }
        });
        int most = held.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        Map<String, Double> relevance = lake.relevanceTo(name,
            assumed.columns().values().stream().map(AssumedSchema.Column::name).toList());
        Set<String> candidates = new java.util.LinkedHashSet<>();
        relevance.keySet().stream().limit(TABLE_CANDIDATES).forEach(candidates::add);
        candidates.addAll(g.getValue());
        String group = lakeName + "|" + p.id() + "|" + g.getKey();
        for (String t : candidates) {
          if (!lake.tableNames().contains(t)) {
            continue;
          }
          int label = held.getOrDefault(t.toLowerCase(Locale.ROOT), -1) == most ? 1 : 0;
          double[] f = TableFeatures.compute(lake, name, columns, t, relevance.getOrDefault(t, 0.0),
              (c, lc) -> memo.computeIfAbsent(name + "|" + c + "|" + assumed.column(c).map(Object::toString).orElse("")
                  + "|" + t + "|" + lc, k -> ColumnModel.standard().probability(
                      ColumnFeatures.compute(lake, name, assumed.column(c).orElse(null), c, t, lc))));
          out.add(new TableExample(group, t, label, f));
        }
      }
    }
    return out;
  }

  /** The schema a pair's query assumes, or null when it does not parse (such pairs teach nothing). */
  private static @org.jspecify.annotations.Nullable AssumedSchema schemaOf(Trees trees, String userQuery) {
    try {
      return AssumedSchema.of(trees.statement(userQuery));
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Fits the table model on the examples (classes balanced, as for columns). */
  public static TableModel fitTables(List<TableExample> examples) {
    Objects.requireNonNull(examples, "examples");
    if (examples.stream().noneMatch(e -> e.label() == 1) || examples.stream().noneMatch(e -> e.label() == 0)) {
      throw new IllegalArgumentException("fitting needs positive and negative examples");
    }
    return TableModel.of(train(examples.stream().map(e -> TableModel.vector(e.features())).toList(),
        examples.stream().map(TableExample::label).toList(), TableModel.DIMENSION));
  }

  /**
   * Top-1 table accuracy (the candidate of highest probability is a gold table) per assumed table, under
   * cross-validation grouped by source database: each source's examples are judged by a model fitted on the others.
   * Also reported: the accuracy of ranking by the column evidence alone ({@code columns.mean_evidence}), for
   * comparison. Returns {assumed tables, accuracy, accuracy by column evidence alone}.
   */
  public static double[] crossValidateTables(List<TableExample> examples) {
    Map<String, List<TableExample>> bySource = new LinkedHashMap<>();
    examples.forEach(e -> bySource.computeIfAbsent(source(e.group()), k -> new ArrayList<>()).add(e));
    if (bySource.size() < 2) {
      throw new IllegalArgumentException("cross-validation needs lakes from at least two source databases, had "
          + bySource.keySet());
    }
    int groups = 0;
    int right = 0;
    int rightByColumns = 0;
    int columnsIndex = TableFeatures.NAMES.indexOf("columns.mean_evidence");
    for (Map.Entry<String, List<TableExample>> fold : bySource.entrySet()) {
      List<TableExample> train = new ArrayList<>();
      bySource.forEach((k, v) -> {
        if (!k.equals(fold.getKey())) {
          train.addAll(v);
        }
      });
      TableModel model = fitTables(train);
      Map<String, List<TableExample>> byGroup = new LinkedHashMap<>();
      fold.getValue().forEach(e -> byGroup.computeIfAbsent(e.group(), k -> new ArrayList<>()).add(e));
      for (List<TableExample> g : byGroup.values()) {
        TableExample top = null;
        double best = -1;
        TableExample topByColumns = null;
        double bestByColumns = -1;
        for (TableExample e : g) {
          double p = model.probability(e.features());
          if (p > best) {
            best = p;
            top = e;
          }
          if (e.features()[columnsIndex] > bestByColumns) {
            bestByColumns = e.features()[columnsIndex];
            topByColumns = e;
          }
        }
        groups++;
        right += top != null && top.label() == 1 ? 1 : 0;
        rightByColumns += topByColumns != null && topByColumns.label() == 1 ? 1 : 0;
      }
    }
    return new double[] {groups, groups == 0 ? 0 : (double) right / groups,
        groups == 0 ? 0 : (double) rightByColumns / groups};
  }

  /** Fits a model on the examples, without the features of the disabled signals. */
  public static ColumnModel fit(List<Example> examples, Set<Signal> disabled) {
    Objects.requireNonNull(examples, "examples");
    if (examples.stream().noneMatch(e -> e.label() == 1) || examples.stream().noneMatch(e -> e.label() == 0)) {
      throw new IllegalArgumentException("fitting needs positive and negative examples");
    }
    return ColumnModel.of(train(examples.stream().map(e -> ColumnModel.vector(e.features(), disabled)).toList(),
        examples.stream().map(Example::label).toList(), ColumnModel.DIMENSION), disabled);
  }

  /**
   * L2-regularised logistic regression on sparse vectors (bias feature included) with labels 0/1. Balanced classes:
   * a probability of 0.5 means the evidence favours the match as much as it opposes it, whatever the number of
   * candidates a table happens to have.
   */
  private static Model train(List<Feature[]> vectors, List<Integer> labels, int dimension) {
    Problem problem = new Problem();
    problem.l = vectors.size();
    problem.n = dimension;
    problem.bias = 1;
    problem.x = vectors.toArray(new Feature[0][]);
    problem.y = labels.stream().mapToDouble(Integer::doubleValue).toArray();
    Linear.disableDebugOutput();
    Linear.resetRandom();
    Parameter parameter = new Parameter(SolverType.L2R_LR, C, 1e-4);
    long positives = labels.stream().filter(l -> l == 1).count();
    parameter.setWeights(new double[] {(double) (labels.size() - positives) / positives, 1.0}, new int[] {1, 0});
    return Linear.train(problem, parameter);
  }

  /**
   * How a model does on examples: top-1 accuracy per assumed column (the lake column of highest probability is a
   * gold one), and the calibration of the top candidate's share of probability among all candidates (expected
   * calibration error over ten bins, with each bin's confidence and accuracy).
   */
  public record Evaluation(int columns, double accuracy, double expectedCalibrationError, List<double[]> bins) {}

  /** Each assumed column's choice: {top probability, second, total} and whether the top one is gold. */
  static void choices(ColumnModel model, List<Example> examples, List<double[]> choices, List<Boolean> right) {
    Map<String, List<Example>> groups = new LinkedHashMap<>();
    examples.forEach(e -> groups.computeIfAbsent(e.group(), k -> new ArrayList<>()).add(e));
    for (List<Example> g : groups.values()) {
      double sum = 0;
      double best = -1;
      double second = 0;
      Example top = null;
      for (Example e : g) {
        double p = model.probability(e.features());
        sum += p;
        if (p > best) {
          second = Math.max(best, 0);
          best = p;
          top = e;
        } else if (p > second) {
          second = p;
        }
      }
      choices.add(new double[] {best, second, sum});
      right.add(top != null && top.label() == 1);
    }
  }

  /**
   * The source a lake was disorganized from: its name without the seed suffix ({@code xml-editor-s2} →
   * {@code xml-editor}), so that cross-validation never fits on one disorder of a database and judges another.
   */
  static String source(String group) {
    String lake = group.substring(0, group.indexOf('|'));
    return lake.replaceFirst("-s\\d+$", "");
  }

  /**
   * Each assumed column's choice under cross-validation grouped by source database: the examples of each source
   * are judged by a model fitted on the other sources only (fit part only; the held-out part is never read here).
   */
  static void crossValidatedChoices(List<Example> examples, Set<Signal> disabled, List<double[]> choices,
      List<Boolean> right) {
    Map<String, List<Example>> bySource = new LinkedHashMap<>();
    examples.forEach(e -> bySource.computeIfAbsent(source(e.group()), k -> new ArrayList<>()).add(e));
    if (bySource.size() < 2) {
      throw new IllegalArgumentException("cross-validation needs lakes from at least two source databases, had "
          + bySource.keySet());
    }
    for (Map.Entry<String, List<Example>> fold : bySource.entrySet()) {
      List<Example> train = new ArrayList<>();
      bySource.forEach((k, v) -> {
        if (!k.equals(fold.getKey())) {
          train.addAll(v);
        }
      });
      choices(fit(train, disabled), fold.getValue(), choices, right);
    }
  }

  /**
   * Fits the confidence calibration on the cross-validated choices over the (fit) examples: a model's choices on
   * its own training data are more often right than on new lakes, so calibrating on them would be overconfident.
   */
  public static MappingConfidence fitConfidence(List<Example> examples) {
    List<double[]> choices = new ArrayList<>();
    List<Boolean> right = new ArrayList<>();
    crossValidatedChoices(examples, Set.of(), choices, right);
    return MappingConfidence.fit(choices, right);
  }

  /**
   * How the model fitted without {@code disabled} does on lakes of sources it was not fitted on (cross-validation
   * grouped by source database over the given examples), its confidence read through {@code calibration}.
   */
  public static Evaluation crossValidate(List<Example> examples, Set<Signal> disabled,
      MappingConfidence calibration) {
    List<double[]> choices = new ArrayList<>();
    List<Boolean> right = new ArrayList<>();
    crossValidatedChoices(examples, disabled, choices, right);
    return evaluate(choices, right, calibration);
  }

  /** How a model does on examples (top-1 accuracy, calibration of its confidence). */
  public static Evaluation evaluate(ColumnModel model, MappingConfidence calibration, List<Example> examples) {
    List<double[]> choices = new ArrayList<>();
    List<Boolean> rights = new ArrayList<>();
    choices(model, examples, choices, rights);
    return evaluate(choices, rights, calibration);
  }

  private static Evaluation evaluate(List<double[]> choices, List<Boolean> rights, MappingConfidence calibration) {
    double[][] bins = new double[10][3]; // count, sum confidence, sum correct
    int right = 0;
    int n = choices.size();
    for (int i = 0; i < n; i++) {
      double[] c = choices.get(i);
      double confidence = calibration.confidence(c[0], c[1], c[2]);
      boolean correct = rights.get(i);
      right += correct ? 1 : 0;
      int b = Math.min(9, (int) (confidence * 10));
      bins[b][0]++;
      bins[b][1] += confidence;
      bins[b][2] += correct ? 1 : 0;
    }
    double ece = 0;
    List<double[]> out = new ArrayList<>();
    for (double[] b : bins) {
      if (b[0] > 0) {
        ece += b[0] / n * Math.abs(b[1] / b[0] - b[2] / b[0]);
        out.add(new double[] {b[0], b[1] / b[0], b[2] / b[0]});
      } else {
        out.add(new double[] {0, Double.NaN, Double.NaN});
      }
    }
    return new Evaluation(n, n == 0 ? 0 : (double) right / n, ece, out);
  }
}
