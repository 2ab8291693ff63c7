package dev.lakerewrite.joingraph;

import dev.lakerewrite.retrieval.Embedder;
import dev.lakerewrite.retrieval.NameSignals;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.List;

/**
 * S(c_a, c_b) = (S_schema + S_inst) · K (thesis §5.2.1) and the join-evidence test of {@link JoinGraphConfig}.
 * Thread-safe; O(d + |A| + |B|) per pair for d embedding dimensions.
 */
final class PairScorer {
  private final JoinGraphConfig config;
  private final ColumnSketch[] columns;
  /** Name vector of each column; null when the name has no words. */
  private final float[][] vectors;
  /** Name vector of each table; null when the name has no words. */
  private final float[][] tableVectors;
  /** Each column's name as compared (without its table's shared leading word; see GraphBuild). */
  private final String[] names;
  /** Each table's name (for the lexical reading of names). */
  private final List<String> tableNames;

  PairScorer(JoinGraphConfig config, ColumnSketch[] columns, String[] names, float[][] vectors,
      float[][] tableVectors, List<String> tableNames) {
    this.config = config;
    this.columns = columns;
    this.names = names;
    this.vectors = vectors;
    this.tableVectors = tableVectors;
    this.tableNames = tableNames;
  }

  /** Whether the column can be one side of join evidence at all. */
  boolean eligible(int c) {
    ColumnSketch p = columns[c];
    return p.distinct >= config.minDistinctValues() && p.hashes.length > 0
        && !(config.skipBooleanColumns() && p.family == TypeFamily.BOOLEAN);
  }

  /** Whether the column can be the key side of join evidence (it is then held by the inverted index). */
  boolean keyLike(int c) {
    return eligible(c) && columns[c].uniqueness >= config.minKeyUniqueness();
  }

  /**
   * S_schema: the cosine of the two column-name vectors; with {@link JoinGraphConfig#tableAwareNames()} also the
   * cosine of the less unique column's name with the more unique column's table name (the referenced table);
   * with {@link JoinGraphConfig#lexicalNames()} each comparison also reads the names lexically (the better counts).
   * Negative cosines and names without words count as 0.
   */
  double schemaSimilarity(int a, int b) {
    ColumnSketch pa = columns[a];
    ColumnSketch pb = columns[b];
    double schema = Math.max(cosine(vectors[a], vectors[b]), lexical(names[a], names[b]));
    if (config.tableAwareNames()) {
      if (pb.uniqueness >= pa.uniqueness) {
        schema = Math.max(schema, Math.max(cosine(vectors[a], tableVectors[pb.table]),
            lexical(names[a], tableNames.get(pb.table))));
      }
      if (pa.uniqueness >= pb.uniqueness) {
        schema = Math.max(schema, Math.max(cosine(vectors[b], tableVectors[pa.table]),
            lexical(names[b], tableNames.get(pa.table))));
      }
    }
    return schema;
  }

  /**
   * The names read lexically: the better of their token alignment with abbreviations and the whole-name
   * abbreviation ({@code ORDR} ~ {@code orderkey}); 0 when lexical names are off.
   */
  private double lexical(String x, String y) {
    if (!config.lexicalNames()) {
      return 0;
    }
    return Math.max(NameSignals.tokenAlignment(x, y), NameSignals.wholeAbbreviation(x, y));
  }

  private static double cosine(float[] x, float[] y) {
    if (x == null || y == null) {
      return 0;
    }
    return Math.max(0.0, Math.min(1.0, Embedder.cosine(x, y)));
  }

  /** How unique each column of a same-key-set pair is, and how much of each set the other holds. */
  private static final double SAME_KEY_SET_SHARE = 0.95;

  ScoredPair score(int a, int b) {
    ColumnSketch pa = columns[a];
    ColumnSketch pb = columns[b];
    Overlap overlap = Overlap.of(pa, pb);
    ColumnSketch referencing = referencing(pa, pb);
    double containment = Math.min(1.0, overlap.shared() / Math.max(1, referencing.distinct));
    double instance = config.instanceMeasure() == JoinGraphConfig.InstanceMeasure.JACCARD
        ? overlap.jaccard()
        : Math.min(1.0, overlap.shared() / (Math.max(1, referencing.distinct) + config.containmentPseudoCount()));
    double schema = schemaSimilarity(a, b);
    double k = Math.max(pa.uniqueness, pb.uniqueness);
    double score = (schema + instance) * k;
    long shared = Math.round(overlap.shared());
    boolean evidence = instance > 0
        && shared >= config.minSharedValues()
        && instance >= config.minInstanceSimilarity()
        && k >= config.minKeyUniqueness()
        && eligible(a) && eligible(b)
        && (!(coincidental(pa.family) && coincidental(pb.family)) || schema >= config.minNumericNameSimilarity()
            || sameKeySet(pa, pb, overlap.shared()));
    return new ScoredPair(a, b, score, schema, instance, overlap.jaccard(), containment, k, shared, evidence);
  }

  /**
   * Whether both columns are unique and hold the same values ({@link JoinGraphConfig#minSameKeySetValues}): one
   * row id under two names, as in a table split by columns.
   */
  private boolean sameKeySet(ColumnSketch a, ColumnSketch b, double shared) {
    int min = config.minSameKeySetValues();
    return min > 0 && Math.min(a.distinct, b.distinct) >= min
        && a.uniqueness >= SAME_KEY_SET_SHARE && b.uniqueness >= SAME_KEY_SET_SHARE
        && shared >= SAME_KEY_SET_SHARE * Math.max(a.distinct, b.distinct);
  }

  /**
   * The referencing side of a pair, whose values should be found in the other: the less unique column (a
   * foreign key repeats values, the key it references does not); on equal uniqueness the one with fewer values.
   */
  static ColumnSketch referencing(ColumnSketch a, ColumnSketch b) {
    if (a.uniqueness != b.uniqueness) {
      return a.uniqueness < b.uniqueness ? a : b;
    }
    return a.distinct <= b.distinct ? a : b;
  }

  /** Families whose values coincide by chance between unrelated columns (years, counts, dates). */
  private static boolean coincidental(TypeFamily family) {
    return family == TypeFamily.NUMERIC || family == TypeFamily.DATETIME;
  }
}
