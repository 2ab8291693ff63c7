package dev.lakerewrite.retrieval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import dev.lakerewrite.retrieval.LakeReader.CatalogColumn;
import dev.lakerewrite.retrieval.LakeReader.CatalogTable;
import dev.lakerewrite.retrieval.LakeReader.DistinctValues;
import dev.lakerewrite.retrieval.LuceneLake.IndexedValue;
import dev.lakerewrite.sql.DidYouMean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything retrieval needs to know about one data lake, built once and kept on disk: the catalog (tables,
 * columns, types, type families), a Lucene index (BM25 over schemas and over the distinct values of every column)
 * and the embeddings of table snippets, column names and values (in a {@link CachingEmbedder}). It answers the
 * retrieval questions of thesis chapter 5:
 *
 * <ul>
 *   <li>{@link #queryRelevance}: query–table relevance R_Q (§5.1.1), and from it the table–table reranking S_k
 *       (§5.1.2, {@link QueryRelevance#rerank});
 *   <li>{@link #searchTable}: SEARCH_TABLE (§5.3);
 *   <li>{@link #searchValue}: SEARCH_VALUE (§5.3), and {@link #searchValueInLake} when the table is unknown;
 *   <li>{@link #unionSearch}: UNION_SEARCH (§5.3).
 * </ul>
 *
 * <p>Build with {@link #builder()}: the builder reads the catalog through the given (sandboxed, read-only)
 * connection, and either loads the index stored in the cache directory for the same lake fingerprint or builds and
 * stores a new one. One cache directory per lake.
 *
 * <p>Immutable after building and safe for concurrent searches from many threads. Methods that read rows take the
 * calling thread's own connection. Value embeddings are computed per table on its first SEARCH_VALUE (or all at
 * build time with {@link Builder#embedValuesEagerly}) and then come from the embedding cache.
 */
public final class LakeIndex implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LakeIndex.class);

  public static final int DEFAULT_MAX_DISTINCT_VALUES = 2_000;
  public static final long DEFAULT_MAX_ROWS_SCANNED = 1_000_000;
  /** Weight of the normalised BM25 score under {@link TableScoring#HYBRID}. */
  public static final double LEXICAL_WEIGHT = 0.2;
  public static final double UNION_SIMILARITY_WEIGHT = 0.6;
  public static final double UNION_COVERAGE_WEIGHT = 0.4;
  /** The type bonus of a candidate whose aligned pairs all agree in type family. */
  public static final double UNION_TYPE_BONUS = 0.1;
  /** Column pairs below this name similarity (after the type penalty) are never aligned. */
  public static final double UNION_MIN_COLUMN_SIMILARITY = 0.6;
  /** Subtracted from a pair's similarity while aligning when the type families differ. */
  public static final double UNION_TYPE_MISMATCH_PENALTY = 0.15;
  /** Candidates that align fewer than this share of the base table's columns are no union partners. */
  public static final double UNION_MIN_COVERAGE = 0.5;
  /** Example rows fetched per SEARCH_VALUE match, and the columns shown of each. */
  static final int EXAMPLE_ROWS = 3;
  static final int EXAMPLE_COLUMNS = 8;
  /** BM25 candidates re-ranked by embeddings in a lake-wide value search. */
  static final int LAKE_VALUE_CANDIDATES = 300;
  static final int FORMAT_VERSION = 7; // 6: values compared without invisible characters and markup (Values.normalize); 7: type families read through markup tags
  /** Trigram Jaccard similarity from which a value counts as a {@link LiteralMatch#FUZZY} match. */
  static final double FUZZY_MIN_JACCARD = 0.4;
  private static final String MANIFEST = "manifest.json";
  private static final String LUCENE = "lucene";
  private static final String INDEX_PREFIX = "lake-index-";
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Map<Path, java.util.concurrent.Semaphore> BUILD_LOCKS = new ConcurrentHashMap<>();

  private final Path directory;
  private final String fingerprint;
  private final TableScoring scoring;
  private final boolean built;
  private final long buildMillis;
  private final List<String> rebuiltTables;
  private final List<LakeTable> tables;
  private final Map<String, LakeTable> byName;
  private final Map<String, Integer> ordinal;
  private final float[][] tableVectors;
  private final Map<String, float[][]> columnVectors;
  private final LuceneLake lucene;
  private final CachingEmbedder embedder;
  private final boolean ownsEmbedder;
  private final Cache<String, TableValues> values;

  /**
   * What is stored in {@code manifest.json}: the build settings, and every table with the fingerprint of the
   * content it was read from, so a later build reuses the tables whose fingerprint is unchanged.
   */
  record Manifest(int formatVersion, String fingerprint, String modelId, int maxDistinctValuesPerColumn,
      long maxRowsScannedPerTable, long buildMillis, List<LakeTable> tables, Map<String, String> tableFingerprints) {}

  /**
   * How far a build (or {@link #embedValues}) has come.
   *
   * @param phase reading tables, or embedding values
   * @param done tables read (values embedded) so far
   * @param total tables to read (values to embed)
   */
  public record Progress(Phase phase, long done, long total) {
    /** What a build is doing. */
    public enum Phase { READING_TABLES, EMBEDDING_VALUES }
  }

  /**
   * What {@link #embedValues} did.
   *
   * @param embedded distinct values embedded now
   * @param cached distinct values whose vectors the embedding cache already held (from an earlier build, or a
   *     name embedded earlier); a value found in several columns counts once, in one of these two
   * @param deferred values left for their table's first SEARCH_VALUE (beyond the budget), per column
   */
  public record ValueEmbedding(long embedded, long cached, long deferred) {}

  private LakeIndex(Path directory, Manifest manifest, boolean built, List<String> rebuiltTables,
      TableScoring scoring, LuceneLake lucene, CachingEmbedder embedder, boolean ownsEmbedder,
      long valueCacheCapacity) {
    this.directory = directory;
    this.fingerprint = manifest.fingerprint();
    this.scoring = scoring;
    this.built = built;
    this.rebuiltTables = List.copyOf(rebuiltTables);
    this.buildMillis = manifest.buildMillis();
    this.tables = List.copyOf(manifest.tables());
    this.lucene = lucene;
    this.embedder = embedder;
    this.ownsEmbedder = ownsEmbedder;
    Map<String, LakeTable> names = new LinkedHashMap<>();
    Map<String, Integer> ord = new HashMap<>();
    List<String> snippets = new ArrayList<>();
    Set<String> columnNames = new HashSet<>();
    for (LakeTable t : tables) {
      ord.put(t.name(), names.size());
      names.put(t.name(), t);
      snippets.add(t.snippet());
      for (LakeColumn c : t.columns()) {
        columnNames.add(c.normalizedName());
      }
    }
    this.byName = names;
    this.ordinal = ord;
    this.tableVectors = embedder.embedAll(snippets).toArray(new float[0][]);
    List<String> uniqueColumns = new ArrayList<>(columnNames);
    List<float[]> uniqueVectors = embedder.embedAll(uniqueColumns);
    Map<String, float[]> byColumnName = new HashMap<>();
    for (int i = 0; i < uniqueColumns.size(); i++) {
      byColumnName.put(uniqueColumns.get(i), uniqueVectors.get(i));
    }
    Map<String, float[][]> cols = new HashMap<>();
    for (LakeTable t : tables) {
      float[][] v = new float[t.columns().size()][];
      for (int i = 0; i < v.length; i++) {
        v[i] = byColumnName.get(t.columns().get(i).normalizedName());
      }
      cols.put(t.name(), v);
    }
    this.columnVectors = cols;
    this.values = CacheBuilder.newBuilder()
        .maximumWeight(valueCacheCapacity)
        .<String, TableValues>weigher((k, v) -> Math.max(1, v.size()))
        .build();
  }

  public static Builder builder() {
    return new Builder();
  }

  // ---------------------------------------------------------------------------------------------- catalog

  /** The lake's tables and views, by schema and name. */
  public List<LakeTable> tables() {
    return tables;
  }

  /**
   * The table with id {@code name} ({@link LakeTable#name()}).
   *
   * @throws IllegalArgumentException naming the closest table id when there is no such table
   */
  public LakeTable table(String name) {
    LakeTable t = byName.get(Objects.requireNonNull(name, "name"));
    if (t == null) {
      throw new IllegalArgumentException("unknown table '" + name + "'" + DidYouMean.hintOrKnown(name, byName.keySet()));
    }
    return t;
  }

  public boolean hasTable(String name) {
    return byName.containsKey(name);
  }

  /** The fingerprint the index was built for. */
  public String fingerprint() {
    return fingerprint;
  }

  /** The directory holding this index (manifest and Lucene files). */
  public Path directory() {
    return directory;
  }

  /** Whether this instance built the index (false: loaded from the cache directory). */
  public boolean wasBuilt() {
    return built;
  }

  /**
   * The tables this instance read from the lake: all of them for a first build, those whose fingerprint changed
   * (or that are new) for a refresh, none when the index was loaded. The others were taken from the previous index.
   */
  public List<String> rebuiltTables() {
    return rebuiltTables;
  }

  /** How long building the stored index took, in milliseconds. */
  public long buildMillis() {
    return buildMillis;
  }

  /** The embedder of this index (a cache in the index's cache directory). */
  public Embedder embedder() {
    return embedder;
  }

  /** The default table scoring of this index. */
  public TableScoring scoring() {
    return scoring;
  }

  // ---------------------------------------------------------------------------------------------- R_Q, SEARCH_TABLE

  /**
   * Query–table relevance R_Q(t) = max over the query's table snippets q_j of cos(E(t), E(q_j)) for every lake
   * table (thesis §5.1.1), under this index's {@link #scoring()}. Call once per query; the result also reranks
   * (§5.1.2). O(|tables| · |queryTables| · d) after embedding the snippets.
   */
  public QueryRelevance queryRelevance(List<QueryTable> queryTables) {
    return queryRelevance(queryTables, scoring);
  }

  /** {@link #queryRelevance(List)} with an explicit scoring (to compare the thesis variant with the hybrid). */
  public QueryRelevance queryRelevance(List<QueryTable> queryTables, TableScoring scoring) {
    Objects.requireNonNull(queryTables, "queryTables");
    Objects.requireNonNull(scoring, "scoring");
    if (queryTables.isEmpty()) {
      throw new IllegalArgumentException("queryTables is empty: a query refers to at least one table or column");
    }
    List<String> snippets = new ArrayList<>();
    for (QueryTable q : queryTables) {
      snippets.add(q.snippet());
    }
    return new QueryRelevance(queryTables, scoring, scoreTables(snippets, scoring, "R_Q"));
  }

  /**
   * SEARCH_TABLE(domain, columns) (thesis §5.3): the snippet "col1 col1 col2 col2 ... domain" against every table's
   * schema snippet; the {@code k} best tables not in {@code excluded}.
   *
   * @param domain the general domain of the query (e.g. {@code countries}); may be null
   * @param columns the columns sought, at least one
   */
  public List<TableMatch> searchTable(String domain, List<String> columns, int k, Collection<String> excluded) {
    Objects.requireNonNull(columns, "columns");
    Objects.requireNonNull(excluded, "excluded");
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("SEARCH_TABLE needs at least one column");
    }
    checkK(k);
    Set<String> skip = new HashSet<>(excluded);
    List<TableMatch> out = new ArrayList<>();
    for (TableMatch m : sorted(scoreTables(List.of(Snippets.searchTable(domain, columns)), scoring, "SEARCH_TABLE"))) {
      if (out.size() == k) {
        break;
      }
      if (!skip.contains(m.table())) {
        out.add(m);
      }
    }
    return out;
  }

  public List<TableMatch> searchTable(String domain, List<String> columns, int k) {
    return searchTable(domain, columns, k, List.of());
  }

  private static List<TableMatch> sorted(List<TableMatch> matches) {
    List<TableMatch> s = new ArrayList<>(matches);
    s.sort(Comparator.comparingDouble(TableMatch::score).reversed().thenComparing(TableMatch::table));
    return s;
  }

  private List<TableMatch> scoreTables(List<String> snippets, TableScoring scoring, String what) {
    List<float[]> vectors = embedder.embedAll(snippets);
    List<Map<String, Double>> lexical = new ArrayList<>();
    if (scoring == TableScoring.HYBRID) {
      for (String s : snippets) {
        Map<String, Double> bm25 = searchTablesLexically(s);
        double max = bm25.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        Map<String, Double> normalized = new HashMap<>();
        bm25.forEach((t, v) -> normalized.put(t, max > 0 ? v / max : 0));
        lexical.add(normalized);
      }
    }
    List<TableMatch> out = new ArrayList<>(tables.size());
    for (int t = 0; t < tables.size(); t++) {
      String name = tables.get(t).name();
      double bestScore = Double.NEGATIVE_INFINITY;
      double bestSim = 0;
      double bestLex = 0;
      int best = 0;
      for (int j = 0; j < snippets.size(); j++) {
        double sim = Embedder.cosine(tableVectors[t], vectors.get(j));
        double lex = lexical.isEmpty() ? 0 : lexical.get(j).getOrDefault(name, 0.0);
        double score = sim + LEXICAL_WEIGHT * lex;
        if (score > bestScore) {
          bestScore = score;
          bestSim = sim;
          bestLex = lex;
          best = j;
        }
      }
      String why = scoring == TableScoring.HYBRID
          ? String.format(Locale.ROOT, "%s=%.3f: cosine %.3f + %.1f·BM25 share %.2f of '%s' vs schema '%s'", what,
              bestScore, bestSim, LEXICAL_WEIGHT, bestLex, snippets.get(best), abbreviate(tables.get(t).snippet()))
          : String.format(Locale.ROOT, "%s=%.3f: cosine of '%s' and schema '%s'", what, bestScore,
              snippets.get(best), abbreviate(tables.get(t).snippet()));
      out.add(new TableMatch(name, bestScore, bestSim, bestLex, snippets.get(best), why));
    }
    return out;
  }

  private Map<String, Double> searchTablesLexically(String snippet) {
    try {
      return lucene.searchTables(snippet);
    } catch (IOException e) {
      throw new RetrievalException("cannot search the schema index in " + directory, e);
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }

  // ---------------------------------------------------------------------------------------------- SEARCH_VALUE

  /**
   * SEARCH_VALUE(table, value) (thesis §5.3): ranks the indexed distinct values of every column of {@code table}
   * by cos(E(value), E(cell)) plus a {@linkplain LiteralMatch literal bonus}; the {@code k} best, without example
   * rows. The first search of a table embeds its values (then cached on disk); later ones take milliseconds.
   */
  public List<ValueMatch> searchValue(String table, String value, int k) {
    LakeTable t = table(table);
    Objects.requireNonNull(value, "value");
    checkK(k);
    TableValues tv = tableValues(t);
    float[] q = embedder.embed(value);
    ValueProbe probe = new ValueProbe(value);
    double[] scores = new double[tv.size()];
    for (int i = 0; i < tv.size(); i++) {
      scores[i] = probe.score(tv.values.get(i), tv.normalized[i], tv.trigrams[i], similarity(q, tv.vectors[i]));
    }
    // Explanations are built for the best candidates only; ties are broken in best(...).
    List<ValueMatch> out = new ArrayList<>();
    for (int i : topIndices(scores, k)) {
      out.add(probe.match(tv.values.get(i), tv.normalized[i], tv.trigrams[i], similarity(q, tv.vectors[i])));
    }
    return best(out, k);
  }

  private static double similarity(float[] query, float[] value) {
    return value == null ? Double.NaN : Embedder.cosine(query, value);
  }

  /** Indices of the {@code k} highest scores plus every index tied with the k-th; O(n log n). */
  private static List<Integer> topIndices(double[] scores, int k) {
    if (scores.length == 0) {
      return List.of();
    }
    double[] sorted = scores.clone();
    Arrays.sort(sorted);
    double threshold = sorted[Math.max(0, sorted.length - k)];
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < scores.length; i++) {
      if (scores[i] >= threshold) {
        out.add(i);
      }
    }
    return out;
  }

  /** {@link #searchValue(String, String, int)} with up to three example rows per match, read on {@code connection}. */
  public List<ValueMatch> searchValue(Connection connection, String table, String value, int k) {
    Objects.requireNonNull(connection, "connection");
    return withExampleRows(connection, searchValue(table, value, k));
  }

  /**
   * SEARCH_VALUE over the whole lake, for when the table is unknown: BM25 (folded words and character trigrams)
   * over all indexed values picks {@value #LAKE_VALUE_CANDIDATES} candidates, which are then ranked like
   * {@link #searchValue(String, String, int)}. Values sharing no word or trigram with {@code value} are not found.
   */
  public List<ValueMatch> searchValueInLake(String value, int k) {
    Objects.requireNonNull(value, "value");
    checkK(k);
    List<LuceneLake.Hit<IndexedValue>> hits;
    try {
      hits = lucene.searchValues(value, null, LAKE_VALUE_CANDIDATES);
    } catch (IOException e) {
      throw new RetrievalException("cannot search the value index in " + directory, e);
    }
    List<String> texts = new ArrayList<>();
    List<Boolean> embedded = new ArrayList<>();
    for (LuceneLake.Hit<IndexedValue> h : hits) {
      IndexedValue v = h.item();
      boolean embeds = table(v.table()).columns().get(v.ordinal()).family() == TypeFamily.STRING;
      embedded.add(embeds);
      if (embeds) {
        texts.add(v.value());
      }
    }
    texts.add(value);
    List<float[]> vectors = embedder.embedAll(texts);
    float[] q = vectors.get(vectors.size() - 1);
    ValueProbe probe = new ValueProbe(value);
    List<ValueMatch> out = new ArrayList<>();
    int next = 0;
    for (int i = 0; i < hits.size(); i++) {
      IndexedValue v = hits.get(i).item();
      double sim = embedded.get(i) ? Embedder.cosine(q, vectors.get(next++)) : Double.NaN;
      String norm = Values.normalize(v.value());
      out.add(probe.match(v, norm, Trigrams.of(norm), sim));
    }
    return best(out, k);
  }

  /** {@link #searchValueInLake(String, int)} with example rows read on {@code connection}. */
  public List<ValueMatch> searchValueInLake(Connection connection, String value, int k) {
    Objects.requireNonNull(connection, "connection");
    return withExampleRows(connection, searchValueInLake(value, k));
  }

  private static List<ValueMatch> best(List<ValueMatch> matches, int k) {
    matches.sort(Comparator.comparingDouble(ValueMatch::score).reversed()
        .thenComparing(Comparator.comparingLong(ValueMatch::rows).reversed())
        .thenComparing(ValueMatch::table).thenComparing(ValueMatch::column).thenComparing(ValueMatch::value));
    return List.copyOf(matches.subList(0, Math.min(k, matches.size())));
  }

  private List<ValueMatch> withExampleRows(Connection connection, List<ValueMatch> matches) {
    List<ValueMatch> out = new ArrayList<>(matches.size());
    for (ValueMatch m : matches) {
      try {
        out.add(m.withExampleRows(LakeReader.exampleRows(connection, table(m.table()), m.column(), m.value(),
            EXAMPLE_ROWS, EXAMPLE_COLUMNS)));
      } catch (SQLException e) {
        throw new RetrievalException("cannot read example rows of " + m.table() + "." + m.column() + ": "
            + e.getMessage(), e);
      }
    }
    return out;
  }

  /** The sought value, prepared once per search. */
  private static final class ValueProbe {
    final String raw;
    final String normalized;
    final int[] trigrams;

    ValueProbe(String raw) {
      this.raw = raw;
      this.normalized = Values.normalize(raw);
      this.trigrams = Trigrams.of(normalized);
    }

    /** The score of a value; {@code similarity} is NaN for values that are not embedded. */
    double score(IndexedValue v, String norm, int[] grams, double similarity) {
      LiteralMatch kind = kind(v, norm, grams);
      return effectiveSimilarity(similarity, kind) + bonus(kind, norm, grams);
    }

    /** {@code similarity} is NaN for values that are not embedded (numbers, booleans, dates). */
    ValueMatch match(IndexedValue v, String norm, int[] grams, double similarity) {
      LiteralMatch kind = kind(v, norm, grams);
      double bonus = bonus(kind, norm, grams);
      double sim = effectiveSimilarity(similarity, kind);
      double score = sim + bonus;
      String why = String.format(Locale.ROOT, "%.3f = cosine %.3f + %s bonus %.3f for '%s' in %s.%s (%d row%s)",
          score, sim, kind.name().toLowerCase(Locale.ROOT), bonus, v.value(), v.table(), v.column(),
          v.count(), v.count() == 1 ? "" : "s");
      return new ValueMatch(v.table(), v.column(), v.value(), score, sim, kind, bonus, v.count(), List.of(), why);
    }

    /** Not embedded: equal comparison forms are the same value; anything else carries no evidence of meaning. */
    private static double effectiveSimilarity(double similarity, LiteralMatch kind) {
      if (!Double.isNaN(similarity)) {
        return similarity;
      }
      return kind == LiteralMatch.EXACT || kind == LiteralMatch.NORMALIZED ? 1.0 : 0.0;
    }

    private LiteralMatch kind(IndexedValue v, String norm, int[] grams) {
      if (v.value().equals(raw)) {
        return LiteralMatch.EXACT;
      }
      if (norm.equals(normalized)) {
        return LiteralMatch.NORMALIZED;
      }
      if (Math.min(norm.length(), normalized.length()) >= 3
          && (norm.contains(normalized) || normalized.contains(norm))) {
        return LiteralMatch.SUBSTRING;
      }
      return Trigrams.jaccard(grams, trigrams) >= FUZZY_MIN_JACCARD ? LiteralMatch.FUZZY : LiteralMatch.NONE;
    }

    private double bonus(LiteralMatch kind, String norm, int[] grams) {
      switch (kind) {
        case SUBSTRING:
          double ratio = (double) Math.min(norm.length(), normalized.length())
              / Math.max(norm.length(), normalized.length());
          return kind.maxBonus() * Math.sqrt(ratio);
        case FUZZY:
          return kind.maxBonus() * Trigrams.jaccard(grams, trigrams);
        default:
          return kind.maxBonus();
      }
    }
  }

  /** The indexed values of one table with their comparison forms, trigrams and (string columns only) vectors. */
  private static final class TableValues {
    final List<IndexedValue> values;
    final String[] normalized;
    final int[][] trigrams;
    final float[][] vectors;

    TableValues(List<IndexedValue> values, float[][] vectors) {
      this.values = values;
      this.vectors = vectors;
      this.normalized = new String[values.size()];
      this.trigrams = new int[values.size()][];
      for (int i = 0; i < values.size(); i++) {
        normalized[i] = Values.normalize(values.get(i).value());
        trigrams[i] = Trigrams.of(normalized[i]);
      }
    }

    int size() {
      return values.size();
    }
  }

  private TableValues tableValues(LakeTable t) {
    try {
      return values.get(t.name(), () -> loadValues(t));
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new RetrievalException("cannot load the values of " + t.name(), cause);
    } catch (com.google.common.util.concurrent.UncheckedExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }

  private TableValues loadValues(LakeTable t) throws IOException {
    List<IndexedValue> vs = lucene.values(t.name());
    List<String> texts = new ArrayList<>();
    for (IndexedValue v : vs) {
      if (t.columns().get(v.ordinal()).family() == TypeFamily.STRING) {
        texts.add(v.value());
      }
    }
    List<float[]> embedded = embedder.embedAll(texts);
    float[][] vectors = new float[vs.size()][];
    int next = 0;
    for (int i = 0; i < vs.size(); i++) {
      if (t.columns().get(vs.get(i).ordinal()).family() == TypeFamily.STRING) {
        vectors[i] = embedded.get(next++);
      }
    }
    return new TableValues(vs, vectors);
  }

  /**
   * Embeds the string values that SEARCH_VALUE would otherwise embed at its first search of each table, so that
   * no search pays for it later: columns with the fewest distinct values first (filter values are categories far
   * more often than identifiers), until {@code budget} values have been taken; the rest stay for their table's
   * first search. Values already in the embedding cache cost a lookup. Thread-safe; O(values · d).
   *
   * @param budget values to take at most (cached ones included)
   * @param progress told (values taken, values to take) as batches finish
   */
  public ValueEmbedding embedValues(long budget, java.util.function.Consumer<Progress> progress) {
    if (budget < 0) {
      throw new IllegalArgumentException("budget must be at least 0, was " + budget);
    }
    Objects.requireNonNull(progress, "progress");
    record Column(LakeTable table, int ordinal, int values) {}
    List<Column> columns = new ArrayList<>();
    for (LakeTable t : tables) {
      for (int i = 0; i < t.columns().size(); i++) {
        LakeColumn c = t.columns().get(i);
        if (c.family() == TypeFamily.STRING && c.distinctValues() > 0) {
          columns.add(new Column(t, i, c.distinctValues()));
        }
      }
    }
    columns.sort(Comparator.comparingInt(Column::values).thenComparing(c -> c.table().name())
        .thenComparingInt(Column::ordinal));
    Map<String, Set<Integer>> chosen = new LinkedHashMap<>();
    long taken = 0;
    long deferred = 0;
    for (Column c : columns) {
      if (taken + c.values() <= budget) {
        chosen.computeIfAbsent(c.table().name(), k -> new HashSet<>()).add(c.ordinal());
        taken += c.values();
      } else {
        deferred += c.values();
      }
    }
    long done = 0;
    long cached = 0;
    progress.accept(new Progress(Progress.Phase.EMBEDDING_VALUES, 0, taken));
    // Values repeat across columns (the parts of one split table share theirs): each is looked up and counted once.
    Set<String> seen = new HashSet<>();
    List<String> batch = new ArrayList<>();
    for (Map.Entry<String, Set<Integer>> e : chosen.entrySet()) {
      List<IndexedValue> values;
      try {
        values = lucene.values(e.getKey(), e.getValue());
      } catch (IOException ex) {
        throw new RetrievalException("cannot read the values of " + e.getKey() + " from " + directory, ex);
      }
      for (IndexedValue v : values) {
        done++;
        if (!seen.add(v.value())) {
          continue;
        }
        if (embedder.contains(v.value())) {
          cached++;
        } else {
          batch.add(v.value());
        }
      }
      if (batch.size() >= 2048) {
        embedder.embedAll(batch);
        batch.clear();
        progress.accept(new Progress(Progress.Phase.EMBEDDING_VALUES, done, taken));
      }
    }
    if (!batch.isEmpty()) {
      embedder.embedAll(batch);
    }
    progress.accept(new Progress(Progress.Phase.EMBEDDING_VALUES, done, taken));
    return new ValueEmbedding(seen.size() - cached, cached, deferred);
  }

  // ---------------------------------------------------------------------------------------------- UNION_SEARCH

  /**
   * UNION_SEARCH(base) (thesis §5.3): for every other table, greedily aligns its columns to the base table's
   * (pairs by descending name-embedding similarity, less {@value #UNION_TYPE_MISMATCH_PENALTY} when the inferred
   * type families differ, none below {@value #UNION_MIN_COLUMN_SIMILARITY}), then scores
   * 0.6·mean_sim + 0.4·coverage + type bonus. Tables aligning less than {@value #UNION_MIN_COVERAGE} of the base
   * columns are dropped. Returns the {@code k} best. O(|tables| · |columns|² · d).
   */
  public List<UnionCandidate> unionSearch(String baseTable, int k) {
    LakeTable base = table(baseTable);
    checkK(k);
    float[][] baseVectors = columnVectors.get(base.name());
    List<UnionCandidate> out = new ArrayList<>();
    for (LakeTable candidate : tables) {
      if (candidate.name().equals(base.name()) || candidate.columns().isEmpty() || base.columns().isEmpty()) {
        continue;
      }
      UnionCandidate c = align(base, baseVectors, candidate, columnVectors.get(candidate.name()));
      if (c != null) {
        out.add(c);
      }
    }
    out.sort(Comparator.comparingDouble(UnionCandidate::score).reversed().thenComparing(UnionCandidate::table));
    return List.copyOf(out.subList(0, Math.min(k, out.size())));
  }

  private static @Nullable UnionCandidate align(LakeTable base, float[][] bv, LakeTable cand, float[][] cv) {
    record Pair(int b, int c, double sim, double weight) {}
    List<Pair> pairs = new ArrayList<>();
    for (int i = 0; i < bv.length; i++) {
      for (int j = 0; j < cv.length; j++) {
        double sim = Embedder.cosine(bv[i], cv[j]);
        boolean sameType = base.columns().get(i).family() == cand.columns().get(j).family();
        double weight = sim - (sameType ? 0 : UNION_TYPE_MISMATCH_PENALTY);
        if (weight >= UNION_MIN_COLUMN_SIMILARITY) {
          pairs.add(new Pair(i, j, sim, weight));
        }
      }
    }
    pairs.sort(Comparator.comparingDouble(Pair::weight).reversed().thenComparingInt(Pair::b).thenComparingInt(Pair::c));
    boolean[] baseUsed = new boolean[bv.length];
    boolean[] candUsed = new boolean[cv.length];
    UnionColumnPair[] byBase = new UnionColumnPair[bv.length];
    int matched = 0;
    int consistent = 0;
    double simSum = 0;
    for (Pair p : pairs) {
      if (baseUsed[p.b()] || candUsed[p.c()]) {
        continue;
      }
      baseUsed[p.b()] = true;
      candUsed[p.c()] = true;
      LakeColumn b = base.columns().get(p.b());
      LakeColumn c = cand.columns().get(p.c());
      byBase[p.b()] = new UnionColumnPair(b.name(), c.name(), p.sim(), b.family(), c.family());
      matched++;
      simSum += p.sim();
      if (b.family() == c.family()) {
        consistent++;
      }
    }
    double coverage = (double) matched / bv.length;
    if (matched == 0 || coverage < UNION_MIN_COVERAGE) {
      return null;
    }
    double meanSim = simSum / matched;
    double typeShare = (double) consistent / matched;
    double typeBonus = UNION_TYPE_BONUS * typeShare;
    double score = UNION_SIMILARITY_WEIGHT * meanSim + UNION_COVERAGE_WEIGHT * coverage + typeBonus;
    List<UnionColumnPair> mapping = new ArrayList<>(matched);
    for (UnionColumnPair m : byBase) {
      if (m != null) {
        mapping.add(m);
      }
    }
    String why = String.format(Locale.ROOT,
        "%.3f = 0.6·%.3f mean name similarity + 0.4·%.3f coverage (%d of %d columns of %s) + type bonus %.3f"
            + " (%d of %d aligned pairs of the same type family)",
        score, meanSim, coverage, matched, bv.length, base.name(), typeBonus, consistent, matched);
    return new UnionCandidate(cand.name(), score, meanSim, coverage, typeBonus, mapping, why);
  }

  private static void checkK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, was " + k);
    }
  }

  @Override
  public void close() {
    try {
      lucene.close();
    } catch (IOException e) {
      LOG.debug("closing the Lucene index in {}", directory, e);
    } finally {
      if (ownsEmbedder) {
        embedder.close();
      }
    }
  }

  @Override
  public String toString() {
    return "LakeIndex[" + tables.size() + " tables at " + directory + "]";
  }

  // ---------------------------------------------------------------------------------------------- building

  /**
   * Options of a lake index. {@link #connection} and {@link #cacheDirectory} are required; the rest have
   * defaults.
   */
  public static final class Builder {
    private @Nullable Connection connection;
    private @Nullable Path cacheDirectory;
    private @Nullable Embedder embedder;
    private @Nullable String fingerprint;
    private int maxDistinctValuesPerColumn = DEFAULT_MAX_DISTINCT_VALUES;
    private long maxRowsScannedPerTable = DEFAULT_MAX_ROWS_SCANNED;
    private TableScoring scoring = TableScoring.HYBRID;
    private boolean embedValuesEagerly;
    private long valueCacheCapacity = 500_000;
    private Map<String, String> tableFingerprints = Map.of();
    private List<Connection> moreConnections = List.of();
    private java.util.function.Consumer<Progress> progress = p -> {};

    private Builder() {}

    /**
     * Identifies each table's content (table id → fingerprint, e.g. a digest of its files): a build after a change
     * reads only the tables whose fingerprint changed (or that are new) and takes the others from the previous
     * index of the same cache directory. Tables without an entry are current while their catalog entry and the
     * lake's {@link #fingerprint} are unchanged.
     */
    public Builder tableFingerprints(Map<String, String> fingerprints) {
      this.tableFingerprints = Map.copyOf(Objects.requireNonNull(fingerprints, "fingerprints"));
      return this;
    }

    /**
     * Further connections to the same lake: with them, tables are read in parallel, one table per connection at a
     * time. They are not closed.
     */
    public Builder moreConnections(List<Connection> connections) {
      this.moreConnections = List.copyOf(Objects.requireNonNull(connections, "connections"));
      return this;
    }

    /** Told how far a build has come (tables read of tables to read). Default: nothing. */
    public Builder progress(java.util.function.Consumer<Progress> listener) {
      this.progress = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** The sandboxed, read-only connection to the lake; used only while building. */
    public Builder connection(Connection connection) {
      this.connection = Objects.requireNonNull(connection, "connection");
      return this;
    }

    /** Where the index, the Lucene files and the embedding cache are kept; one directory per lake. */
    public Builder cacheDirectory(Path cacheDirectory) {
      this.cacheDirectory = Objects.requireNonNull(cacheDirectory, "cacheDirectory");
      return this;
    }

    /** The embedding model (default {@link MiniLmEmbedder#shared()}); cached in the cache directory. */
    public Builder embedder(Embedder embedder) {
      this.embedder = Objects.requireNonNull(embedder, "embedder");
      return this;
    }

    /**
     * Identifies the lake's content: the stored index is reused while it is unchanged. Default: a digest of the
     * catalog (schemas, names, column types, DuckDB's row estimates, view definitions), which misses edits that
     * keep all of these; pass e.g. a digest of the lake's files to be exact.
     */
    public Builder fingerprint(String fingerprint) {
      Objects.requireNonNull(fingerprint, "fingerprint");
      if (fingerprint.isBlank()) {
        throw new IllegalArgumentException("fingerprint is blank");
      }
      this.fingerprint = fingerprint;
      return this;
    }

    /** Distinct values indexed per column, most frequent first (default {@value #DEFAULT_MAX_DISTINCT_VALUES}). */
    public Builder maxDistinctValuesPerColumn(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxDistinctValuesPerColumn must be at least 1, was " + max);
      }
      this.maxDistinctValuesPerColumn = max;
      return this;
    }

    /** Larger tables are read through a reservoir sample of this many rows (default 1,000,000). */
    public Builder maxRowsScannedPerTable(long max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxRowsScannedPerTable must be at least 1, was " + max);
      }
      this.maxRowsScannedPerTable = max;
      return this;
    }

    /** Default scoring of {@link #queryRelevance} and {@link #searchTable} (default {@link TableScoring#HYBRID}). */
    public Builder tableScoring(TableScoring scoring) {
      this.scoring = Objects.requireNonNull(scoring, "scoring");
      return this;
    }

    /** Embed all string values while building, instead of per table on its first SEARCH_VALUE. */
    public Builder embedValuesEagerly(boolean eager) {
      this.embedValuesEagerly = eager;
      return this;
    }

    /** Value vectors kept in memory across tables (default 500,000, about 800 MB at 384 dimensions). */
    public Builder valueCacheCapacity(long values) {
      if (values < 1) {
        throw new IllegalArgumentException("valueCacheCapacity must be at least 1, was " + values);
      }
      this.valueCacheCapacity = values;
      return this;
    }

    /**
     * Loads the stored index of this lake, or builds and stores it when the cache directory has none for the
     * lake's fingerprint. Concurrent builders of one cache directory (threads or processes) build once.
     *
     * @throws RetrievalException if the lake cannot be read or the cache directory cannot be written
     */
    public LakeIndex build() {
      try (Build build = start()) {
        return build.finish();
      }
    }

    /**
     * Starts a build whose tables the caller may supply ({@link Build#add}) instead of the index reading them, so
     * that one scan of a table can feed several consumers. Holds the cache directory's build lock until
     * {@link Build#finish()} or {@link Build#close()}.
     *
     * @throws RetrievalException if the lake's catalog cannot be read or the cache directory cannot be written
     */
    public Build start() {
      if (connection == null) {
        throw new IllegalStateException("LakeIndex.builder(): connection(...) is required");
      }
      if (cacheDirectory == null) {
        throw new IllegalStateException("LakeIndex.builder(): cacheDirectory(...) is required");
      }
      return new Build(this);
    }
  }

  /**
   * A column's distinct values and how many rows hold each, most frequent first (ties by value), as a caller that
   * scanned the table hands them to {@link Build#add}.
   *
   * @param column the column name
   * @param values distinct non-null values, as text
   * @param counts rows holding each value
   * @param complete false when the values are not all of the column's (a sample, or cut off)
   */
  public record ValueCounts(String column, List<String> values, long[] counts, boolean complete) {
    public ValueCounts {
      Objects.requireNonNull(column, "column");
      values = List.copyOf(values);
      Objects.requireNonNull(counts, "counts");
      if (counts.length != values.size()) {
        throw new IllegalArgumentException(values.size() + " values but " + counts.length + " counts");
      }
    }
  }

  /**
   * An index being built: it knows which tables it needs ({@link #tablesToRead}: new or changed since the
   * previous index of the cache directory; none when the index is current), accepts them from the caller
   * ({@link #add}, from any thread), reads any still missing itself, and {@link #finish() finishes}. Start and
   * finish on one thread; close it in any case (closing an unfinished build abandons it).
   */
  public static final class Build implements AutoCloseable {
    private final Builder b;
    private final CachingEmbedder embedder;
    private final boolean owns;
    private final Path dir;
    private final java.util.concurrent.Semaphore jvmLock;
    private final FileChannel lockChannel;
    private final FileLock fileLock;
    private final boolean current;
    private final List<CatalogTable> catalog;
    private final Map<String, CatalogTable> needed = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<String> toRead;
    private final String fingerprint;
    private final Map<String, String> tableFps;
    private final Map<String, LakeTable> reused = new HashMap<>();
    private final Map<String, LakeTable> read = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<String> stringValues = java.util.Collections.synchronizedList(new ArrayList<>());
    private final java.util.concurrent.atomic.AtomicLong valueCount = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
    private final long start = System.nanoTime();
    private @Nullable Path tmp;
    private LuceneLake.@Nullable Writer writer;
    private boolean closed;

    private Build(Builder b) {
      this.b = b;
      Embedder model = b.embedder != null ? b.embedder : MiniLmEmbedder.shared();
      this.owns = !(model instanceof CachingEmbedder);
      this.embedder = CachingEmbedder.wrap(model, b.cacheDirectory.resolve("embeddings"));
      java.util.concurrent.Semaphore lock = null;
      FileChannel channel = null;
      FileLock held = null;
      try {
        try {
          catalog = LakeReader.catalog(b.connection);
        } catch (SQLException e) {
          throw new RetrievalException("cannot read the lake's catalog: " + e.getMessage(), e);
        }
        fingerprint = b.fingerprint != null ? b.fingerprint : LakeReader.fingerprint(catalog);
        tableFps = new LinkedHashMap<>();
        for (CatalogTable ct : catalog) {
          String given = b.tableFingerprints.get(ct.id());
          // Without its own fingerprint a table is current while its catalog entry and the lake's fingerprint are.
          tableFps.put(ct.id(), given != null ? given
              : sha256((b.fingerprint == null ? "" : b.fingerprint) + "\n" + LakeReader.fingerprint(List.of(ct))));
        }
        String key = sha256(FORMAT_VERSION + "\n" + fingerprint + "\n" + settings(embedder.modelId(), b))
            .substring(0, 16);
        dir = b.cacheDirectory.resolve(INDEX_PREFIX + key);
        Files.createDirectories(b.cacheDirectory);
        Path lockFile = b.cacheDirectory.resolve("lake-index.lock").toAbsolutePath().normalize();
        lock = BUILD_LOCKS.computeIfAbsent(lockFile, p -> new java.util.concurrent.Semaphore(1));
        lock.acquireUninterruptibly();
        channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        held = channel.lock();
        current = Files.exists(dir.resolve(MANIFEST));
        Previous previous = current ? null : previous(b, embedder.modelId(), dir);
        if (previous != null) {
          for (LakeTable t : previous.manifest().tables()) {
            String fp = tableFps.get(t.name());
            if (fp != null && fp.equals(previous.manifest().tableFingerprints().get(t.name()))) {
              reused.put(t.name(), t);
            }
          }
        }
        List<String> names = new ArrayList<>();
        if (!current) {
          for (CatalogTable ct : catalog) {
            if (!reused.containsKey(ct.id())) {
              needed.put(ct.id(), ct);
              names.add(ct.id());
            }
          }
          tmp = dir.resolveSibling(dir.getFileName() + ".tmp-" + UUID.randomUUID());
          Files.createDirectories(tmp);
          Path lucenePath = tmp.resolve(LUCENE);
          boolean append = !reused.isEmpty();
          if (append) {
            linkFiles(previous.directory().resolve(LUCENE), lucenePath);
          }
          writer = new LuceneLake.Writer(lucenePath, append);
          if (append) {
            for (LakeTable t : previous.manifest().tables()) {
              if (!reused.containsKey(t.name())) {
                writer.deleteTable(t.name());
              }
            }
          }
        }
        toRead = List.copyOf(names);
        jvmLock = lock;
        lockChannel = channel;
        fileLock = held;
        b.progress.accept(new Progress(Progress.Phase.READING_TABLES, 0, toRead.size()));
      } catch (IOException | RuntimeException e) {
        abandon(lock, channel, held);
        if (e instanceof RuntimeException r) {
          throw r;
        }
        throw new RetrievalException("cannot build or load the lake index in " + b.cacheDirectory + ": "
            + e.getMessage(), e);
      }
    }

    private void abandon(java.util.concurrent.Semaphore lock, FileChannel channel, FileLock held) {
      try {
        if (writer != null) {
          writer.close();
        }
      } catch (IOException | RuntimeException ignored) {
        // Abandoned: the temporary folder is deleted below.
      }
      if (tmp != null) {
        deleteRecursively(tmp);
      }
      try {
        if (held != null) {
          held.release();
        }
        if (channel != null) {
          channel.close();
        }
      } catch (IOException ignored) {
        // Closing the channel releases the lock in any case.
      }
      if (lock != null) {
        lock.release();
      }
      if (owns) {
        embedder.close();
      }
    }

    /** The embedder the index will have (a cache in the index's cache directory), to share with other builders. */
    public Embedder embedder() {
      return embedder;
    }

    /** The tables this build needs: new or changed since the previous index; empty when the index is current. */
    public List<String> tablesToRead() {
      return toRead;
    }

    /**
     * Supplies a table the build needs, read by the caller. Thread-safe; a table it does not need is ignored.
     *
     * @param values per column of the table (any order, any subset: columns left out index no values)
     */
    public void add(String table, long rows, List<ValueCounts> values) {
      CatalogTable ct = needed.remove(table);
      if (ct == null) {
        return;
      }
      Map<String, ValueCounts> byColumn = new HashMap<>();
      values.forEach(v -> byColumn.put(v.column(), v));
      List<List<LakeReader.ValueCount>> columns = new ArrayList<>();
      List<Integer> ordinals = new ArrayList<>();
      List<Boolean> capped = new ArrayList<>();
      for (int i = 0; i < ct.columns().size(); i++) {
        CatalogColumn cc = ct.columns().get(i);
        if (!LakeReader.indexesValues(cc.type())) {
          continue;
        }
        ValueCounts vc = byColumn.get(cc.name());
        List<LakeReader.ValueCount> kept = new ArrayList<>();
        boolean more = vc != null && !vc.complete() || rows > b.maxRowsScannedPerTable;
        if (vc != null) {
          for (int k = 0; k < vc.values().size(); k++) {
            String v = vc.values().get(k);
            if (!LakeReader.indexable(v)) {
              continue;
            }
            if (kept.size() == b.maxDistinctValuesPerColumn) {
              more = true;
              break;
            }
            kept.add(new LakeReader.ValueCount(v, vc.counts()[k]));
          }
        }
        columns.add(kept);
        ordinals.add(i);
        capped.add(more);
      }
      store(readTable(ct, rows, columns, ordinals, capped, b.maxDistinctValuesPerColumn));
    }

    private void store(ReadTable r) {
      try {
        LakeTable t = writeTable(writer, r, b.embedValuesEagerly ? stringValues : null, valueCount);
        read.put(t.name(), t);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      b.progress.accept(new Progress(Progress.Phase.READING_TABLES, done.incrementAndGet(), toRead.size()));
    }

    /**
     * Reads the tables still missing, writes the index (or loads the current one) and releases the lock.
     *
     * @throws RetrievalException if the lake cannot be read or the index cannot be written
     */
    public LakeIndex finish() {
      if (closed) {
        throw new IllegalStateException("this build is finished or closed");
      }
      closed = true;
      try {
        List<String> rebuilt = List.of();
        if (!current) {
          readTables(b, List.copyOf(needed.values()).stream()
              .sorted(Comparator.comparing(CatalogTable::id)).toList(), this::store);
          writer.close();
          writer = null;
          List<LakeTable> tables = new ArrayList<>(catalog.size());
          for (CatalogTable ct : catalog) {
            tables.add(reused.containsKey(ct.id()) ? reused.get(ct.id()) : read.get(ct.id()));
          }
          if (!stringValues.isEmpty()) {
            for (List<String> chunk : Embedder.batches(stringValues, 4096)) {
              embedder.embedAll(chunk);
            }
          }
          long millis = (System.nanoTime() - start) / 1_000_000;
          Manifest manifest = new Manifest(FORMAT_VERSION, fingerprint, embedder.modelId(),
              b.maxDistinctValuesPerColumn, b.maxRowsScannedPerTable, millis, tables, tableFps);
          JSON.writeValue(tmp.resolve(MANIFEST).toFile(), manifest);
          try {
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
          } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, dir);
          }
          tmp = null;
          LOG.info("indexed {} tables ({} read, {} reused) and {} distinct values in {} ms into {}", tables.size(),
              toRead.size(), reused.size(), valueCount.get(), millis, dir);
          removeStale(b.cacheDirectory, dir);
          rebuilt = toRead;
        }
        release();
        Manifest manifest = JSON.readValue(dir.resolve(MANIFEST).toFile(), Manifest.class);
        if (manifest.formatVersion() != FORMAT_VERSION) {
          throw new RetrievalException("index " + dir + " has format " + manifest.formatVersion() + ", expected "
              + FORMAT_VERSION + "; delete it");
        }
        LuceneLake lucene = LuceneLake.open(dir.resolve(LUCENE));
        try {
          return new LakeIndex(dir, manifest, !current, rebuilt, b.scoring, lucene, embedder, owns,
              b.valueCacheCapacity);
        } catch (RuntimeException e) {
          lucene.close();
          throw e;
        }
      } catch (IOException | UncheckedIOException e) {
        abandon(jvmLockOrNull(), lockChannelOrNull(), fileLockOrNull());
        throw new RetrievalException("cannot build or load the lake index in " + b.cacheDirectory + ": "
            + e.getMessage(), e);
      } catch (RuntimeException e) {
        abandon(jvmLockOrNull(), lockChannelOrNull(), fileLockOrNull());
        throw e;
      }
    }

    private boolean released;

    private void release() {
      if (released) {
        return;
      }
      released = true;
      try {
        fileLock.release();
        lockChannel.close();
      } catch (IOException ignored) {
        // Closing the channel releases the lock in any case.
      }
      jvmLock.release();
    }

    private java.util.concurrent.Semaphore jvmLockOrNull() {
      return released ? null : jvmLock;
    }

    private FileChannel lockChannelOrNull() {
      return released ? null : lockChannel;
    }

    private FileLock fileLockOrNull() {
      return released ? null : fileLock;
    }

    /** Abandons an unfinished build (nothing is written) and releases the lock; after finish, does nothing. */
    @Override
    public void close() {
      if (!closed) {
        closed = true;
        abandon(jvmLock, lockChannel, fileLock);
        released = true;
      }
    }
  }

  /** The settings an index depends on besides the lake: model and value caps. */
  private static String settings(String modelId, Builder b) {
    return modelId + "\n" + b.maxDistinctValuesPerColumn + "\n" + b.maxRowsScannedPerTable;
  }

  /** A stored index of an earlier state of the lake, built with the same settings, whose tables may be reused. */
  private record Previous(Path directory, Manifest manifest) {}

  private static Previous previous(Builder b, String modelId, Path target) {
    Previous best = null;
    long newest = Long.MIN_VALUE;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(b.cacheDirectory, INDEX_PREFIX + "*")) {
      for (Path p : entries) {
        Path manifestFile = p.resolve(MANIFEST);
        if (p.equals(target) || !Files.isRegularFile(manifestFile)) {
          continue;
        }
        try {
          Manifest m = JSON.readValue(manifestFile.toFile(), Manifest.class);
          long modified = Files.getLastModifiedTime(manifestFile).toMillis();
          if (m.formatVersion() == FORMAT_VERSION && m.tableFingerprints() != null && m.modelId().equals(modelId)
              && m.maxDistinctValuesPerColumn() == b.maxDistinctValuesPerColumn
              && m.maxRowsScannedPerTable() == b.maxRowsScannedPerTable && modified > newest) {
            best = new Previous(p, m);
            newest = modified;
          }
        } catch (IOException | RuntimeException e) {
          LOG.debug("ignoring the unreadable index {}: {}", p, e.getMessage());
        }
      }
    } catch (IOException e) {
      LOG.debug("cannot list earlier indexes in {}: {}", b.cacheDirectory, e.getMessage());
    }
    return best;
  }

  /** One table as read from the lake: its entry and its distinct values per indexed column. */
  private record ReadTable(LakeTable table, List<List<LakeReader.ValueCount>> values, List<Integer> ordinals) {}

  /**
   * Reads the tables' row counts and distinct values on the builder's connections, one table per connection at a
   * time, handing each table to {@code sink} (called from several threads).
   */
  private static void readTables(Builder b, List<CatalogTable> tables, java.util.function.Consumer<ReadTable> sink)
      throws IOException {
    List<Connection> connections = new ArrayList<>();
    connections.add(b.connection);
    connections.addAll(b.moreConnections);
    int threads = Math.min(connections.size(), Math.max(1, tables.size()));
    java.util.concurrent.BlockingQueue<Connection> free = new java.util.concurrent.LinkedBlockingQueue<>(
        connections.subList(0, threads));
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "lake-index-read");
      t.setDaemon(true);
      return t;
    });
    try {
      List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
      for (CatalogTable ct : tables) {
        futures.add(pool.submit(() -> {
          Connection c = free.take();
          try {
            sink.accept(readTable(c, ct, b));
          } finally {
            free.add(c);
          }
          return null;
        }));
      }
      for (java.util.concurrent.Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RetrievalException("interrupted while reading the lake", e);
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof UncheckedIOException u) {
        throw u.getCause();
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new RetrievalException("cannot read the lake while indexing it: " + cause.getMessage(), cause);
    } finally {
      pool.shutdownNow();
    }
  }

  private static ReadTable readTable(Connection c, CatalogTable ct, Builder b) {
    try {
      long rows = LakeReader.rowCount(c, ct);
      List<String> indexed = new ArrayList<>();
      List<Integer> ordinals = new ArrayList<>();
      for (int i = 0; i < ct.columns().size(); i++) {
        CatalogColumn cc = ct.columns().get(i);
        if (LakeReader.indexesValues(cc.type())) {
          indexed.add(cc.name());
          ordinals.add(i);
        }
      }
      List<DistinctValues> distinct = LakeReader.distinctValues(c, ct, indexed, rows, b.maxDistinctValuesPerColumn,
          b.maxRowsScannedPerTable);
      List<List<LakeReader.ValueCount>> values = new ArrayList<>();
      List<Boolean> capped = new ArrayList<>();
      for (DistinctValues dv : distinct) {
        values.add(dv.values());
        capped.add(dv.capped());
      }
      return readTable(ct, rows, values, ordinals, capped, b.maxDistinctValuesPerColumn);
    } catch (SQLException e) {
      throw new RetrievalException("cannot read table " + ct.id() + " while indexing the lake: " + e.getMessage(), e);
    }
  }

  /**
   * A table's entry (columns with their type families) from its indexed columns' values. A numeric, temporal or
   * boolean column with at least {@code cap} distinct values (identifiers, amounts, timestamps) keeps only the
   * values that occur more than once: any {@code cap} of its values would be an arbitrary few, which no filter
   * value is likely to be among, and lakes hold many such columns.
   */
  private static ReadTable readTable(CatalogTable ct, long rows, List<List<LakeReader.ValueCount>> values,
      List<Integer> ordinals, List<Boolean> capped, int cap) {
    List<LakeColumn> columns = new ArrayList<>();
    List<List<LakeReader.ValueCount>> indexed = new ArrayList<>(values.size());
    int next = 0;
    for (int ordinal = 0; ordinal < ct.columns().size(); ordinal++) {
      CatalogColumn cc = ct.columns().get(ordinal);
      if (next >= ordinals.size() || ordinals.get(next) != ordinal) {
        columns.add(new LakeColumn(cc.name(), cc.type(), TypeFamily.fromSqlType(cc.type()), 0, false));
        continue;
      }
      List<LakeReader.ValueCount> all = values.get(next);
      List<String> sample = new ArrayList<>(all.size());
      for (LakeReader.ValueCount v : all) {
        sample.add(v.value());
      }
      TypeFamily family = TypeFamily.infer(cc.type(), sample);
      List<LakeReader.ValueCount> kept = all;
      if (family != TypeFamily.STRING && all.size() >= cap) {
        kept = all.stream().filter(v -> v.count() > 1).toList();
      }
      indexed.add(kept);
      columns.add(new LakeColumn(cc.name(), cc.type(), family, kept.size(), capped.get(next) || kept != all));
      next++;
    }
    return new ReadTable(new LakeTable(ct.id(), ct.schema(), ct.table(), rows, columns), indexed, ordinals);
  }

  /** Adds a table's documents (one for the table, one per distinct value) to the index. */
  private static LakeTable writeTable(LuceneLake.Writer writer, ReadTable r, List<String> stringValues,
      java.util.concurrent.atomic.AtomicLong valueCount) throws IOException {
    LakeTable table = r.table();
    for (int i = 0; i < r.ordinals().size(); i++) {
      int ordinal = r.ordinals().get(i);
      LakeColumn column = table.columns().get(ordinal);
      for (LakeReader.ValueCount v : r.values().get(i)) {
        writer.addValue(table.name(), ordinal, column.name(), v.value(), v.count());
        if (stringValues != null && column.family() == TypeFamily.STRING) {
          stringValues.add(v.value());
        }
      }
      valueCount.addAndGet(r.values().get(i).size());
    }
    writer.addTable(table);
    return table;
  }

  /** Hard-links every file of a Lucene index into a new folder (Lucene never rewrites a file), copying if need be. */
  private static void linkFiles(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(from)) {
      for (Path f : files) {
        if (f.getFileName().toString().equals("write.lock")) {
          continue;
        }
        Path target = to.resolve(f.getFileName().toString());
        try {
          Files.createLink(target, f);
        } catch (IOException | UnsupportedOperationException e) {
          Files.copy(f, target);
        }
      }
    }
  }

  /** Removes indexes of earlier versions of the lake (and leftovers of crashed builds). */
  private static void removeStale(Path cacheDirectory, Path current) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(cacheDirectory, INDEX_PREFIX + "*")) {
      for (Path p : entries) {
        if (!p.equals(current)) {
          deleteRecursively(p);
        }
      }
    } catch (IOException e) {
      LOG.warn("cannot clean stale indexes in {}: {}", cacheDirectory, e.getMessage());
    }
  }

  private static void deleteRecursively(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      LOG.warn("cannot delete {}: {}", path, e.getMessage());
    }
  }

  private static String sha256(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
