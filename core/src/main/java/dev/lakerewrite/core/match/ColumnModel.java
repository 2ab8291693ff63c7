package dev.lakerewrite.core.match;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import dev.lakerewrite.core.LakeRewriteException;
import dev.lakerewrite.core.match.ColumnFeatures.Signal;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The learned combiner of the matcher's signals: an L2-regularised logistic regression (LIBLINEAR, Fan et al.,
 * JMLR 9, 2008) over {@link ColumnFeatures}, giving the probability that an assumed column is a lake column.
 * Fitted on the fit part of the perturbed corpora only ({@code bin/lakerewrite train-matcher}, which rewrites the
 * resources {@code column-model*.txt} beside this class); one model per set of ablated signals, each trained
 * without those features. Prediction is O(features).
 */
public final class ColumnModel {
  private static final Map<Set<Signal>, ColumnModel> CACHE = new ConcurrentHashMap<>();

  private final Model model;
  private final Set<Signal> disabled;
  private final int positive;

  ColumnModel(Model model, Set<Signal> disabled) {
    this.model = model;
    this.disabled = disabled.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(disabled));
    this.positive = positiveIndex(model);
  }

  /** The index of label 1 among a fitted model's labels (LIBLINEAR orders them as it met them). */
  static int positiveIndex(Model model) {
    int[] labels = model.getLabels();
    for (int i = 0; i < labels.length; i++) {
      if (labels[i] == 1) {
        return i;
      }
    }
    return 0;
  }

  /** The shipped model with every signal. */
  public static ColumnModel standard() {
    return ablated(Set.of());
  }

  /** The shipped model trained without the given signals. */
  public static ColumnModel ablated(Set<Signal> disabled) {
    Set<Signal> key = disabled.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(disabled));
    return CACHE.computeIfAbsent(key, k -> load(resourceName(k), k));
  }

  /** The resource file name of the model trained without {@code disabled}. */
  public static String resourceName(Set<Signal> disabled) {
    if (disabled.isEmpty()) {
      return "column-model.txt";
    }
    return "column-model-no-" + disabled.stream().sorted().map(s -> s.name().toLowerCase(Locale.ROOT))
        .collect(Collectors.joining("-")) + ".txt";
  }

  private static ColumnModel load(String resource, Set<Signal> disabled) {
    try (InputStream in = ColumnModel.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new LakeRewriteException("the matcher's model " + resource + " is missing from the class path; "
            + "regenerate it with bin/lakerewrite train-matcher");
      }
      try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
        return new ColumnModel(Linear.loadModel(r), disabled);
      }
    } catch (IOException e) {
      throw new LakeRewriteException("cannot read the matcher's model " + resource + ": " + e.getMessage(), e);
    }
  }

  /** Reads a model written by {@link #save}. */
  public static ColumnModel read(Reader r, Set<Signal> disabled) throws IOException {
    return new ColumnModel(Linear.loadModel(r), disabled);
  }

  public void save(Writer w) throws IOException {
    Linear.saveModel(w, model);
  }

  public Set<Signal> disabled() {
    return disabled;
  }

  /** The probability that the pair with these features is a match. */
  public double probability(double[] features) {
    double[] prob = new double[model.getNrClass()];
    Linear.predictProbability(model, vector(features, disabled), prob);
    return prob[positive];
  }

  /**
   * The features as LIBLINEAR's sparse vector (1-based indexes), without the disabled signals' features, ending
   * with the constant bias feature (LIBLINEAR expects the caller to append it: index {@link #DIMENSION}).
   */
  static Feature[] vector(double[] features, Set<Signal> disabled) {
    List<Feature> out = new ArrayList<>();
    for (int i = 0; i < features.length; i++) {
      if (features[i] != 0 && !disabled.contains(ColumnFeatures.SIGNALS.get(i))) {
        out.add(new FeatureNode(i + 1, features[i]));
      }
    }
    out.add(new FeatureNode(DIMENSION, 1));
    return out.toArray(new Feature[0]);
  }

  /** LIBLINEAR's number of features: the signals' features plus the bias. */
  static final int DIMENSION = ColumnFeatures.NAMES.size() + 1;

  /** The learned weight of each feature (named), for reports. */
  public Map<String, Double> weights() {
    Map<String, Double> out = new java.util.LinkedHashMap<>();
    double[] w = model.getFeatureWeights();
    int classes = model.getNrClass() == 2 ? 1 : model.getNrClass();
    double sign = positive == 0 ? 1 : -1;
    for (int i = 0; i < ColumnFeatures.NAMES.size() && i * classes < w.length; i++) {
      out.put(ColumnFeatures.NAMES.get(i), sign * w[i * classes]);
    }
    if ((DIMENSION - 1) * classes < w.length) {
      out.put("bias", sign * w[(DIMENSION - 1) * classes]);
    }
    return out;
  }

  /** Wraps a model trained elsewhere (by the trainer). */
  static ColumnModel of(Model model, Set<Signal> disabled) {
    return new ColumnModel(model, disabled);
  }
}
