package dev.lakerewrite.core.match;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import dev.lakerewrite.core.LakeRewriteException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The learned combiner of the table evidence ({@link TableFeatures}): an L2-regularised logistic regression
 * (LIBLINEAR, Fan et al., JMLR 9, 2008) giving the probability that a lake table holds an assumed table's rows.
 * Fitted on the fit part of the perturbed corpora only ({@code bin/lakerewrite train-matcher} writes the resource
 * {@code table-model.txt} beside this class). Prediction is O(features).
 */
public final class TableModel {
  /** The resource the shipped model is read from. */
  public static final String RESOURCE = "table-model.txt";

  private static volatile @org.jspecify.annotations.Nullable TableModel standard;

  private final Model model;
  private final int positive;

  private TableModel(Model model) {
    this.model = model;
    this.positive = ColumnModel.positiveIndex(model);
  }

  /** The shipped model. */
  public static TableModel standard() {
    TableModel m = standard;
    if (m == null) {
      try (InputStream in = TableModel.class.getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new LakeRewriteException("the table matcher's model " + RESOURCE + " is missing from the class path; "
              + "regenerate it with bin/lakerewrite train-matcher");
        }
        m = read(new InputStreamReader(in, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new LakeRewriteException("cannot read the table matcher's model " + RESOURCE + ": " + e.getMessage(), e);
      }
      standard = m;
    }
    return m;
  }

  /** Reads a model written by {@link #save}. */
  public static TableModel read(Reader r) throws IOException {
    return new TableModel(Linear.loadModel(r));
  }

  public void save(Writer w) throws IOException {
    Linear.saveModel(w, model);
  }

  static TableModel of(Model model) {
    return new TableModel(model);
  }

  /** The probability that the (assumed table, lake table) pair with these features is a match. */
  public double probability(double[] features) {
    if (features.length != TableFeatures.NAMES.size()) {
      throw new IllegalArgumentException("expected " + TableFeatures.NAMES.size() + " table features, got "
          + features.length);
    }
    double[] prob = new double[model.getNrClass()];
    Linear.predictProbability(model, vector(features), prob);
    return prob[positive];
  }

  /** The features as LIBLINEAR's sparse vector (1-based), ending with the bias feature (index {@link #DIMENSION}). */
  static Feature[] vector(double[] features) {
    List<Feature> out = new ArrayList<>();
    for (int i = 0; i < features.length; i++) {
      if (features[i] != 0) {
        out.add(new FeatureNode(i + 1, features[i]));
      }
    }
    out.add(new FeatureNode(DIMENSION, 1));
    return out.toArray(new Feature[0]);
  }

  /** LIBLINEAR's number of features: the table features plus the bias. */
  static final int DIMENSION = TableFeatures.NAMES.size() + 1;

  /** The learned weight of each feature (named), for reports. */
  public Map<String, Double> weights() {
    Map<String, Double> out = new LinkedHashMap<>();
    double[] w = model.getFeatureWeights();
    double sign = positive == 0 ? 1 : -1;
    for (int i = 0; i < TableFeatures.NAMES.size() && i < w.length; i++) {
      out.put(TableFeatures.NAMES.get(i), sign * w[i]);
    }
    if (DIMENSION - 1 < w.length) {
      out.put("bias", sign * w[DIMENSION - 1]);
    }
    return out;
  }
}
