package dev.lakerewrite.core.match;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;
import dev.lakerewrite.core.LakeRewriteException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The calibrated confidence that a column's chosen lake column is right (Platt scaling: J. Platt, "Probabilistic
 * outputs for support vector machines", 1999): a logistic regression, fitted on the fit part of the corpora, from
 * the chosen candidate's probability, its margin over the runner-up and its share of all candidates' probability
 * to whether it was right. Shipped as {@code confidence-model.txt} beside this class.
 */
public final class MappingConfidence {
  private static volatile MappingConfidence standard;

  private final Model model;
  private final int positive;

  private MappingConfidence(Model model) {
    this.model = model;
    int p = 0;
    int[] labels = model.getLabels();
    for (int i = 0; i < labels.length; i++) {
      if (labels[i] == 1) {
        p = i;
      }
    }
    this.positive = p;
  }

  /** The shipped calibration. */
  public static MappingConfidence standard() {
    MappingConfidence m = standard;
    if (m == null) {
      try (InputStream in = MappingConfidence.class.getResourceAsStream("confidence-model.txt")) {
        if (in == null) {
          throw new LakeRewriteException("the matcher's confidence-model.txt is missing from the class path; "
              + "regenerate it with bin/lakerewrite train-matcher");
        }
        try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
          m = new MappingConfidence(Linear.loadModel(r));
        }
      } catch (IOException e) {
        throw new LakeRewriteException("cannot read the matcher's confidence model: " + e.getMessage(), e);
      }
      standard = m;
    }
    return m;
  }

  /** The features of one choice: the top probability, its margin over the second, its share of the total. */
  static double[] features(double top, double second, double total) {
    return new double[] {top, top - second, total <= 0 ? 0 : top / total};
  }

  /** The features as LIBLINEAR's vector, with the bias feature LIBLINEAR expects the caller to append. */
  private static Feature[] vector(double[] f) {
    Feature[] x = new Feature[f.length + 1];
    for (int i = 0; i < f.length; i++) {
      x[i] = new FeatureNode(i + 1, f[i]);
    }
    x[f.length] = new FeatureNode(f.length + 1, 1);
    return x;
  }

  /** The calibrated probability that the choice is right. */
  public double confidence(double top, double second, double total) {
    double[] f = features(top, second, total);
    double[] prob = new double[model.getNrClass()];
    Linear.predictProbability(model, vector(f), prob);
    return prob[positive];
  }

  /** Fits the calibration on choices: each {top, second, total} with whether it was right. */
  static MappingConfidence fit(List<double[]> choices, List<Boolean> right) {
    Problem problem = new Problem();
    problem.l = choices.size();
    problem.n = 4;
    problem.bias = 1;
    problem.x = new Feature[choices.size()][];
    problem.y = new double[choices.size()];
    for (int i = 0; i < choices.size(); i++) {
      double[] c = choices.get(i);
      double[] f = features(c[0], c[1], c[2]);
      problem.x[i] = vector(f);
      problem.y[i] = right.get(i) ? 1 : 0;
    }
    Linear.disableDebugOutput();
    Linear.resetRandom();
    return new MappingConfidence(Linear.train(problem, new Parameter(SolverType.L2R_LR, 10.0, 1e-6)));
  }

  public void save(Writer w) throws IOException {
    Linear.saveModel(w, model);
  }
}
