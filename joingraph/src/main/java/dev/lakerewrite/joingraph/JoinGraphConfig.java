package dev.lakerewrite.joingraph;

import java.util.Locale;
import java.util.Objects;

/**
 * Immutable settings of the join graph (thesis §5.2): how column pairs are scored and which pairs count as join
 * evidence when the graph is built, how the candidate pairs are searched, and how FIND_JOIN_PATH weighs and
 * executes paths. Create with {@link #builder()} (the measured defaults), {@link #thesis()} (the thesis formula
 * taken literally) or {@link #toBuilder()}.
 *
 * <h2>Scoring (build)</h2>
 * For columns c_a, c_b of two different tables, S(c_a, c_b) = (S_schema + S_inst) · K with S_schema the cosine of
 * the column-name embeddings (negative cosines count as 0), S_inst the {@link InstanceMeasure} of the normalised
 * value sets and K the larger uniqueness (distinct / non-null values) of the two. S lies in [0, 2]. A pair is
 * <em>join evidence</em> when it passes the evidence thresholds below; a table pair with evidence becomes an
 * edge whose joinability Ω is the largest S over its {@link OmegaScope}.
 *
 * <h2>Querying</h2>
 * An edge of joinability Ω costs {@code −ln(max(Ω / 2, ε)) + λ}: Ω is divided by its maximum 2 so that every
 * weight is at least λ ≥ 0 (Dijkstra and Yen need non-negative weights). Dividing by a constant adds ln 2 per hop,
 * so this is exactly the thesis cost C(P) = −Σ log(max(Ω, ε)) + λ·L with hop penalty λ + ln 2. Join keys are
 * re-ranked by S_join = S / (1 + f)^α with f the executed fan-out.
 */
public final class JoinGraphConfig {

  /** How the value sets of two columns are compared (S_inst). */
  public enum InstanceMeasure {
    /** |A ∩ B| / |A ∪ B|: the thesis measure; low for a foreign key into a much larger key column. */
    JACCARD,
    /**
     * |A ∩ B| / (|R| + c): the share of the referencing column's values found in the other, with R the less
     * unique column (on equal uniqueness the smaller set) and c a pseudo-count. A foreign key whose values all
     * occur in the referenced key scores about 1 whatever the sizes; a year or country column of a small table
     * (which looks unique) inside the same domain column of a big table scores low, because the big, repetitive
     * column is the referencing side and most of its values are missing from the small one.
     */
    CONTAINMENT
  }

  /** Over which column pairs Ω(t_i, t_j) takes its maximum. */
  public enum OmegaScope {
    /**
     * Every column pair of the two tables, as the thesis writes it: a pair without any shared value still
     * contributes S_schema · K, so two {@code description} columns make any edge strong.
     */
    ALL_COLUMN_PAIRS,
    /** Only the pairs that are join evidence: Ω then always describes a join that can actually match rows. */
    EVIDENCE_PAIRS
  }

  /** How candidate column pairs are found before they are scored. */
  public enum CandidateSearch {
    /** Every column pair of every table pair is scored: the thesis build, O(C²) in the number of columns C. */
    ALL_PAIRS,
    /**
     * Exact: an inverted index from normalised values to the key-like columns holding them is probed with every
     * column's values, so only pairs that share a value are scored. O(V · p + P) for V stored values, average
     * posting length p and P pairs sharing a value; same edges as {@link #ALL_PAIRS}.
     */
    INVERTED_INDEX,
    /**
     * Pruned: as {@link #INVERTED_INDEX}, but each key-like column is indexed by its theta-sketch sample (the
     * {@code sketchSize} smallest value hashes) and values held by more than {@code maxPostings} key-like columns
     * (stop values such as {@code 1}, {@code yes}, a country every table mentions) are ignored when searching,
     * which bounds the work per value. Candidates are then scored exactly like the other searches.
     */
    SKETCH,
    /** {@link #INVERTED_INDEX} up to {@code autoSketchColumns} columns, {@link #SKETCH} above. */
    AUTO
  }

  private final InstanceMeasure instanceMeasure;
  private final OmegaScope omegaScope;
  private final int minSharedValues;
  private final int minDistinctValues;
  private final double minKeyUniqueness;
  private final double minInstanceSimilarity;
  private final double minNumericNameSimilarity;
  private final int minSameKeySetValues;
  private final boolean skipBooleanColumns;
  private final boolean tableAwareNames;
  private final boolean lexicalNames;
  private final double containmentPseudoCount;
  private final int topPairs;
  private final CandidateSearch candidateSearch;
  private final int valueCap;
  private final int sketchSize;
  private final int maxPostings;
  private final int autoSketchColumns;
  private final int maxScannedValues;
  private final int parallelism;
  private final double hopPenalty;
  private final double epsilon;
  private final double fanOutExponent;
  private final int paths;
  private final int keysPerHop;
  private final int previewRows;
  private final int previewColumnsPerTable;
  private final long rowCap;
  private final int queryTimeoutSeconds;

  private JoinGraphConfig(Builder b) {
    this.instanceMeasure = b.instanceMeasure;
    this.omegaScope = b.omegaScope;
    this.minSharedValues = b.minSharedValues;
    this.minDistinctValues = b.minDistinctValues;
    this.minKeyUniqueness = b.minKeyUniqueness;
    this.minInstanceSimilarity = b.minInstanceSimilarity;
    this.minNumericNameSimilarity = b.minNumericNameSimilarity;
    this.minSameKeySetValues = b.minSameKeySetValues;
    this.skipBooleanColumns = b.skipBooleanColumns;
    this.tableAwareNames = b.tableAwareNames;
    this.lexicalNames = b.lexicalNames;
    this.containmentPseudoCount = b.containmentPseudoCount;
    this.topPairs = b.topPairs;
    this.candidateSearch = b.candidateSearch;
    this.valueCap = b.valueCap;
    this.sketchSize = b.sketchSize;
    this.maxPostings = b.maxPostings;
    this.autoSketchColumns = b.autoSketchColumns;
    this.maxScannedValues = b.maxScannedValues;
    this.parallelism = b.parallelism;
    this.hopPenalty = b.hopPenalty;
    this.epsilon = b.epsilon;
    this.fanOutExponent = b.fanOutExponent;
    this.paths = b.paths;
    this.keysPerHop = b.keysPerHop;
    this.previewRows = b.previewRows;
    this.previewColumnsPerTable = b.previewColumnsPerTable;
    this.rowCap = b.rowCap;
    this.queryTimeoutSeconds = b.queryTimeoutSeconds;
  }

  /** The measured defaults (see {@link Builder} for each value and why). */
  public static JoinGraphConfig defaults() {
    return builder().build();
  }

  /**
   * The thesis formula taken literally (§5.2.1): Jaccard, Ω over all column pairs, an edge as soon as one value is
   * shared, no junk guards. Kept for comparison; it connects nearly every pair of tables that share a country or
   * a year.
   */
  public static JoinGraphConfig thesis() {
    return builder()
        .instanceMeasure(InstanceMeasure.JACCARD)
        .omegaScope(OmegaScope.ALL_COLUMN_PAIRS)
        .minSharedValues(1)
        .minDistinctValues(1)
        .minKeyUniqueness(0)
        .minInstanceSimilarity(0)
        .minNumericNameSimilarity(0)
        .minSameKeySetValues(0)
        .skipBooleanColumns(false)
        .tableAwareNames(false)
        .lexicalNames(false)
        .containmentPseudoCount(0)
        .build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  /** S_inst: how value sets are compared. Default {@link InstanceMeasure#CONTAINMENT}. */
  public InstanceMeasure instanceMeasure() {
    return instanceMeasure;
  }

  /** The column pairs Ω maximises over. Default {@link OmegaScope#EVIDENCE_PAIRS}. */
  public OmegaScope omegaScope() {
    return omegaScope;
  }

  /** Join evidence needs at least this many shared normalised values. Default 2; thesis 1. */
  public int minSharedValues() {
    return minSharedValues;
  }

  /** Columns with fewer distinct normalised values are never join evidence. Default 2; thesis 1. */
  public int minDistinctValues() {
    return minDistinctValues;
  }

  /**
   * Join evidence needs one side with at least this uniqueness (distinct / non-null), i.e. one side that looks
   * like a key. Default 0.9: in a small table a year, count or country column looks half unique (66 distinct
   * years in 86 rows) and such columns connected every small table to every other in the synthetic lakes; real
   * keys, with a little noise, stay above 0.9. Thesis 0. Also selects the columns the inverted index holds.
   */
  public double minKeyUniqueness() {
    return minKeyUniqueness;
  }

  /** Join evidence needs S_inst at least this (and always above 0). Default 0.5; thesis 0. */
  public double minInstanceSimilarity() {
    return minInstanceSimilarity;
  }

  /**
   * When both columns are numeric or temporal, their values coincide by chance (years, small counts), so join
   * evidence also needs S_schema at least this. Default 0.4; thesis 0.
   */
  public double minNumericNameSimilarity() {
    return minNumericNameSimilarity;
  }

  /**
   * The exception to {@link #minNumericNameSimilarity}: two numeric or temporal columns that are both unique and
   * hold the same set of values (each at least 95 % of the other's), at least this many, are join evidence however
   * their names compare. A table split by columns keeps one row id under two names ({@code RecId} /
   * {@code RecordRef}) that embeddings do not relate; two unrelated tables whose keys coincide value for value
   * would need the same number of rows. 0 turns it off. Default 100; thesis 0.
   */
  public int minSameKeySetValues() {
    return minSameKeySetValues;
  }

  /** Whether boolean columns are left out of join evidence. Default true; thesis false. */
  public boolean skipBooleanColumns() {
    return skipBooleanColumns;
  }

  /**
   * Whether S_schema also compares a column with the <em>table</em> of the other, more unique column: a foreign
   * key is usually named after the table it references ({@code orders.customer_id} → {@code customers.id},
   * {@code region.capital} → {@code capital.label}), rarely after that table's key column. S_schema is then
   * max(cos(c_a, c_b), cos(c_a, t_b)) with t_b the table of the more unique column. Default true; thesis false.
   */
  public boolean tableAwareNames() {
    return tableAwareNames;
  }

  /**
   * Whether S_schema also reads the names lexically: the better of the cosine and the names' token alignment with
   * abbreviations or whole-name abbreviation ({@link dev.lakerewrite.retrieval.NameSignals}). Embeddings of an
   * abbreviated key ({@code ORDR}, {@code NATI}) are far from the names they abbreviate ({@code orderkey},
   * {@code nationkey}), and numeric keys need a name match to join. Column names are then also compared, by both
   * readings, without the word every column of their table starts with ({@code lnt} of {@code lntRecId},
   * {@code lntPrtky}): it names the table, and two parts of one table would read alike in every pair. Default
   * true; thesis false.
   */
  public boolean lexicalNames() {
    return lexicalNames;
  }

  /**
   * Pseudo-count c of {@link InstanceMeasure#CONTAINMENT}: S_inst = |A ∩ B| / (|R| + c), so that a two-value
   * column contained in a key (often chance) weighs less than forty contained values. Default 2.
   */
  public double containmentPseudoCount() {
    return containmentPseudoCount;
  }

  /** How many column pairs each edge keeps (the thesis' top-k pairs), best S first. Default 5. */
  public int topPairs() {
    return topPairs;
  }

  /** How candidate column pairs are found. Default {@link CandidateSearch#AUTO}. */
  public CandidateSearch candidateSearch() {
    return candidateSearch;
  }

  /**
   * Most distinct normalised values kept per column (a theta sketch with this many nominal entries: exact below,
   * a uniform hash sample above). Default 65,536; a power of two.
   */
  public int valueCap() {
    return valueCap;
  }

  /** Sample size (smallest value hashes) a key-like column is indexed with by {@link CandidateSearch#SKETCH}. */
  public int sketchSize() {
    return sketchSize;
  }

  /** Stop-value threshold of {@link CandidateSearch#SKETCH}: values in more key-like columns are not searched. */
  public int maxPostings() {
    return maxPostings;
  }

  /** {@link CandidateSearch#AUTO} switches to {@link CandidateSearch#SKETCH} above this many columns. */
  public int autoSketchColumns() {
    return autoSketchColumns;
  }

  /**
   * Most distinct raw values read from one column of the lake; a table with more rows is read from a reservoir
   * sample of this many rows (bounded time and memory on tables larger than memory). Default 1,000,000.
   */
  public int maxScannedValues() {
    return maxScannedValues;
  }

  /** Threads used to profile columns and score pairs. Default: available processors. */
  public int parallelism() {
    return parallelism;
  }

  /** λ, the hop penalty of the path cost. Default 0.25. */
  public double hopPenalty() {
    return hopPenalty;
  }

  /** ε, the floor of the normalised joinability Ω / 2 inside the logarithm. Default 1e-3. */
  public double epsilon() {
    return epsilon;
  }

  /** α, how strongly S_join = S / (1 + f)^α punishes fan-out. Default 1. */
  public double fanOutExponent() {
    return fanOutExponent;
  }

  /** k, the number of join paths FIND_JOIN_PATH returns. Default 3. */
  public int paths() {
    return paths;
  }

  /** How many of an edge's column pairs are executed and re-ranked per hop. Default 3. */
  public int keysPerHop() {
    return keysPerHop;
  }

  /** Rows in the executed preview of each path. Default 5. */
  public int previewRows() {
    return previewRows;
  }

  /** Columns per table in a preview, besides the join keys. Default 2. */
  public int previewColumnsPerTable() {
    return previewColumnsPerTable;
  }

  /** Most rows a join is counted to when measuring fan-out and path size. Default 100,000. */
  public long rowCap() {
    return rowCap;
  }

  /** Time limit of each statement FIND_JOIN_PATH runs ({@code Statement.setQueryTimeout}). Default 10 s. */
  public int queryTimeoutSeconds() {
    return queryTimeoutSeconds;
  }

  /** The candidate search a lake of {@code columns} columns is built with ({@link CandidateSearch#AUTO} resolved). */
  public CandidateSearch resolvedSearch(long columns) {
    if (candidateSearch != CandidateSearch.AUTO) {
      return candidateSearch;
    }
    return columns > autoSketchColumns ? CandidateSearch.SKETCH : CandidateSearch.INVERTED_INDEX;
  }

  /**
   * The settings that change what a build produces, as one line: part of the key under which a built graph is
   * cached, so that a graph built under other settings is never reused. Query settings and parallelism are not
   * part of it, and neither is the candidate search (the searches differ in speed, and {@code SKETCH} in recall,
   * but not in what they compute for the pairs they find).
   */
  public String buildSignature() {
    return String.format(Locale.ROOT,
        "measure=%s;omega=%s;minShared=%d;minDistinct=%d;minKey=%s;minInst=%s;minNumName=%s;sameKeys=%d;"
            + "skipBool=%b;tableNames=%b;lexical=%b;pseudo=%s;top=%d;cap=%d;scan=%d",
        instanceMeasure, omegaScope, minSharedValues, minDistinctValues, minKeyUniqueness, minInstanceSimilarity,
        minNumericNameSimilarity, minSameKeySetValues, skipBooleanColumns, tableAwareNames, lexicalNames,
        containmentPseudoCount, topPairs, valueCap, maxScannedValues);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof JoinGraphConfig)) {
      return false;
    }
    JoinGraphConfig c = (JoinGraphConfig) o;
    return toString().equals(c.toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT,
        "JoinGraphConfig{%s;search=%s;sketch=%d;maxPostings=%d;autoSketch=%d;threads=%d;λ=%s;ε=%s;α=%s;k=%d;"
            + "keysPerHop=%d;preview=%dx%d;rowCap=%d;timeout=%ds}",
        buildSignature(), candidateSearch, sketchSize, maxPostings, autoSketchColumns, parallelism, hopPenalty,
        epsilon, fanOutExponent, paths, keysPerHop, previewRows, previewColumnsPerTable, rowCap,
        queryTimeoutSeconds);
  }

  /** Builder of {@link JoinGraphConfig}; every setter checks its argument. */
  public static final class Builder {
    private InstanceMeasure instanceMeasure = InstanceMeasure.CONTAINMENT;
    private OmegaScope omegaScope = OmegaScope.EVIDENCE_PAIRS;
    private int minSharedValues = 2;
    private int minDistinctValues = 2;
    private double minKeyUniqueness = 0.9;
    private double minInstanceSimilarity = 0.5;
    private double minNumericNameSimilarity = 0.4;
    private int minSameKeySetValues = 100;
    private boolean skipBooleanColumns = true;
    private boolean tableAwareNames = true;
    private boolean lexicalNames = true;
    private double containmentPseudoCount = 2;
    private int topPairs = 5;
    private CandidateSearch candidateSearch = CandidateSearch.AUTO;
    private int valueCap = 1 << 16;
    private int sketchSize = 1024;
    private int maxPostings = 64;
    private int autoSketchColumns = 20_000;
    private int maxScannedValues = 1_000_000;
    private int parallelism = Runtime.getRuntime().availableProcessors();
    private double hopPenalty = 0.25;
    private double epsilon = 1e-3;
    private double fanOutExponent = 1.0;
    private int paths = 3;
    private int keysPerHop = 3;
    private int previewRows = 5;
    private int previewColumnsPerTable = 2;
    private long rowCap = 100_000;
    private int queryTimeoutSeconds = 10;

    private Builder() {}

    private Builder(JoinGraphConfig c) {
      instanceMeasure = c.instanceMeasure;
      omegaScope = c.omegaScope;
      minSharedValues = c.minSharedValues;
      minDistinctValues = c.minDistinctValues;
      minKeyUniqueness = c.minKeyUniqueness;
      minInstanceSimilarity = c.minInstanceSimilarity;
      minNumericNameSimilarity = c.minNumericNameSimilarity;
      minSameKeySetValues = c.minSameKeySetValues;
      skipBooleanColumns = c.skipBooleanColumns;
      tableAwareNames = c.tableAwareNames;
      lexicalNames = c.lexicalNames;
      containmentPseudoCount = c.containmentPseudoCount;
      topPairs = c.topPairs;
      candidateSearch = c.candidateSearch;
      valueCap = c.valueCap;
      sketchSize = c.sketchSize;
      maxPostings = c.maxPostings;
      autoSketchColumns = c.autoSketchColumns;
      maxScannedValues = c.maxScannedValues;
      parallelism = c.parallelism;
      hopPenalty = c.hopPenalty;
      epsilon = c.epsilon;
      fanOutExponent = c.fanOutExponent;
      paths = c.paths;
      keysPerHop = c.keysPerHop;
      previewRows = c.previewRows;
      previewColumnsPerTable = c.previewColumnsPerTable;
      rowCap = c.rowCap;
      queryTimeoutSeconds = c.queryTimeoutSeconds;
    }

    public Builder instanceMeasure(InstanceMeasure measure) {
      this.instanceMeasure = Objects.requireNonNull(measure, "instanceMeasure");
      return this;
    }

    public Builder omegaScope(OmegaScope scope) {
      this.omegaScope = Objects.requireNonNull(scope, "omegaScope");
      return this;
    }

    public Builder minSharedValues(int n) {
      this.minSharedValues = atLeast("minSharedValues", n, 1);
      return this;
    }

    public Builder minDistinctValues(int n) {
      this.minDistinctValues = atLeast("minDistinctValues", n, 1);
      return this;
    }

    public Builder minKeyUniqueness(double u) {
      this.minKeyUniqueness = unit("minKeyUniqueness", u);
      return this;
    }

    public Builder minInstanceSimilarity(double s) {
      this.minInstanceSimilarity = unit("minInstanceSimilarity", s);
      return this;
    }

    public Builder minNumericNameSimilarity(double s) {
      this.minNumericNameSimilarity = unit("minNumericNameSimilarity", s);
      return this;
    }

    public Builder minSameKeySetValues(int n) {
      this.minSameKeySetValues = atLeast("minSameKeySetValues", n, 0);
      return this;
    }

    public Builder skipBooleanColumns(boolean skip) {
      this.skipBooleanColumns = skip;
      return this;
    }

    public Builder tableAwareNames(boolean tableAware) {
      this.tableAwareNames = tableAware;
      return this;
    }

    public Builder lexicalNames(boolean lexical) {
      this.lexicalNames = lexical;
      return this;
    }

    public Builder containmentPseudoCount(double c) {
      if (!(c >= 0) || Double.isInfinite(c)) {
        throw new IllegalArgumentException("containmentPseudoCount must be a finite number ≥ 0, was " + c);
      }
      this.containmentPseudoCount = c;
      return this;
    }

    public Builder topPairs(int k) {
      this.topPairs = atLeast("topPairs", k, 1);
      return this;
    }

    public Builder candidateSearch(CandidateSearch search) {
      this.candidateSearch = Objects.requireNonNull(search, "candidateSearch");
      return this;
    }

    /** Must be a power of two between 16 and 2^26 (a theta sketch's nominal entries). */
    public Builder valueCap(int cap) {
      if (cap < 16 || cap > (1 << 26) || Integer.bitCount(cap) != 1) {
        throw new IllegalArgumentException("valueCap must be a power of two in [16, 2^26], was " + cap);
      }
      this.valueCap = cap;
      return this;
    }

    public Builder sketchSize(int size) {
      this.sketchSize = atLeast("sketchSize", size, 16);
      return this;
    }

    public Builder maxPostings(int postings) {
      this.maxPostings = atLeast("maxPostings", postings, 2);
      return this;
    }

    public Builder autoSketchColumns(int columns) {
      this.autoSketchColumns = atLeast("autoSketchColumns", columns, 0);
      return this;
    }

    public Builder maxScannedValues(int values) {
      this.maxScannedValues = atLeast("maxScannedValues", values, 1);
      return this;
    }

    public Builder parallelism(int threads) {
      this.parallelism = atLeast("parallelism", threads, 1);
      return this;
    }

    public Builder hopPenalty(double lambda) {
      if (!(lambda >= 0) || Double.isInfinite(lambda)) {
        throw new IllegalArgumentException("hopPenalty (λ) must be a finite number ≥ 0, was " + lambda);
      }
      this.hopPenalty = lambda;
      return this;
    }

    public Builder epsilon(double eps) {
      if (!(eps > 0 && eps < 1)) {
        throw new IllegalArgumentException("epsilon (ε) must be in (0, 1), was " + eps);
      }
      this.epsilon = eps;
      return this;
    }

    public Builder fanOutExponent(double alpha) {
      if (!(alpha >= 0) || Double.isInfinite(alpha)) {
        throw new IllegalArgumentException("fanOutExponent (α) must be a finite number ≥ 0, was " + alpha);
      }
      this.fanOutExponent = alpha;
      return this;
    }

    public Builder paths(int k) {
      this.paths = atLeast("paths", k, 1);
      return this;
    }

    public Builder keysPerHop(int keys) {
      this.keysPerHop = atLeast("keysPerHop", keys, 1);
      return this;
    }

    public Builder previewRows(int rows) {
      this.previewRows = atLeast("previewRows", rows, 0);
      return this;
    }

    public Builder previewColumnsPerTable(int columns) {
      this.previewColumnsPerTable = atLeast("previewColumnsPerTable", columns, 0);
      return this;
    }

    public Builder rowCap(long rows) {
      if (rows < 1) {
        throw new IllegalArgumentException("rowCap must be at least 1, was " + rows);
      }
      this.rowCap = rows;
      return this;
    }

    public Builder queryTimeoutSeconds(int seconds) {
      this.queryTimeoutSeconds = atLeast("queryTimeoutSeconds", seconds, 1);
      return this;
    }

    public JoinGraphConfig build() {
      if (keysPerHop > topPairs) {
        throw new IllegalArgumentException(
            "keysPerHop (" + keysPerHop + ") cannot exceed topPairs (" + topPairs + "): an edge keeps only "
                + "topPairs column pairs to execute");
      }
      return new JoinGraphConfig(this);
    }

    private static int atLeast(String name, int value, int min) {
      if (value < min) {
        throw new IllegalArgumentException(name + " must be at least " + min + ", was " + value);
      }
      return value;
    }

    private static double unit(String name, double value) {
      if (!(value >= 0 && value <= 1)) {
        throw new IllegalArgumentException(name + " must be in [0, 1], was " + value);
      }
      return value;
    }
  }
}
