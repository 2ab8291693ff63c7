package dev.lakerewrite.joingraph;

import dev.lakerewrite.retrieval.Embedder;
import dev.lakerewrite.retrieval.NameSignals;
import dev.lakerewrite.retrieval.Names;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One build of the join graph (thesis §5.2.1): read and profile every column (value/sketch stage), embed the
 * distinct column names, search and score candidate column pairs, group the evidence into edges.
 */
final class GraphBuild {
  private static final Logger LOG = LoggerFactory.getLogger(GraphBuild.class);
  /** Names per embedder call: large enough to batch well, small enough to log progress on big lakes. */
  private static final int EMBED_CHUNK = 2048;

  /** What a build produces, and the tables it read (the others' sketches were loaded). */
  record Result(List<GraphTable> tables, List<JoinEdge> edges, BuildStats stats, List<String> readTables) {}

  private final ColumnSource source;
  private final Embedder embedder;
  private final JoinGraphConfig config;
  private final @Nullable SketchStore store;
  private final java.util.Map<String, String> fingerprints;
  private final java.util.function.Consumer<JoinGraph.Progress> progress;
  private final @Nullable JoinGraph previous;
  private final List<String> readTables = java.util.Collections.synchronizedList(new ArrayList<>());

  GraphBuild(ColumnSource source, Embedder embedder, JoinGraphConfig config) {
    this(source, embedder, config, null, java.util.Map.of(), p -> {}, null);
  }

  /**
   * @param store where tables' sketches are kept between builds (null: none kept)
   * @param fingerprints table name → content fingerprint; a table's stored sketches are used when its fingerprint
   *     matches
   * @param previous the graph of an earlier state of the lake (null: none): when it was found with the same
   *     settings, only pairs with a column of a new or changed table are searched, and its edges between unchanged
   *     tables are kept
   */
  GraphBuild(ColumnSource source, Embedder embedder, JoinGraphConfig config, @Nullable SketchStore store,
      java.util.Map<String, String> fingerprints, java.util.function.Consumer<JoinGraph.Progress> progress,
      @Nullable JoinGraph previous) {
    this.previous = previous;
    this.source = source;
    this.embedder = embedder;
    this.config = config;
    this.store = store;
    this.fingerprints = fingerprints;
    this.progress = progress;
  }

  Result run() {
    int threads = config.parallelism();
    AtomicInteger threadIds = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "joingraph-build-" + threadIds.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      return run(pool, threads);
    } finally {
      pool.shutdownNow();
    }
  }

  private Result run(ExecutorService pool, int threads) {
    long t0 = System.nanoTime();
    List<ColumnSource.Table> tables = source.tables();
    Set<String> names = new HashSet<>();
    for (ColumnSource.Table table : tables) {
      if (!names.add(table.name())) {
        throw new IllegalArgumentException("the column source lists table " + table.name() + " twice");
      }
    }
    ColumnSketch[] columns = profile(tables, pool, threads);
    long t1 = System.nanoTime();
    List<String> tableNames = tables.stream().map(ColumnSource.Table::name).toList();
    float[][] tableVectors = new float[tables.size()][];
    String[] compared = comparedNames(columns, tables.size());
    float[][] vectors = embedNames(columns, compared, tableNames, tableVectors);
    int distinctNames = (int) java.util.Arrays.stream(compared).map(GraphBuild::embeddingText).distinct().count();
    long t2 = System.nanoTime();

    PairScorer scorer = new PairScorer(config, columns, compared, vectors, tableVectors, tableNames);
    JoinGraphConfig.CandidateSearch search = config.resolvedSearch(columns.length);
    boolean[] changed = changedTables(tables, search);
    PairSearch pairSearch = new PairSearch(columns, scorer, config, pool, threads, changed);
    List<ScoredPair> evidence = pairSearch.run(search);
    long t3 = System.nanoTime();

    List<GraphTable> infos = tableInfos(tables, columns);
    List<JoinEdge> edges = assemble(tables, columns, scorer, evidence);
    if (changed != null) {
      edges = withKeptEdges(edges, tables, changed);
    }
    long t4 = System.nanoTime();

    BuildStats stats = new BuildStats(tables.size(), columns.length, distinctNames, search,
        pairSearch.scored.get(), evidence.size(), edges.size(), pairSearch.stopValuesSkipped.get(),
        millis(t1 - t0), millis(t2 - t1), millis(t3 - t2), millis(t4 - t3));
    LOG.info("join graph built: {}", stats);
    if (store != null) {
      List<String[]> keep = new ArrayList<>();
      for (ColumnSource.Table t : tables) {
        keep.add(new String[] {t.name(), fingerprints.getOrDefault(t.name(), "")});
      }
      store.retainOnly(keep);
    }
    List<String> read = new ArrayList<>(readTables);
    java.util.Collections.sort(read);
    return new Result(infos, edges, stats, read);
  }

  /**
   * Per table, whether it is new or changed since {@link #previous} (same fingerprint, same columns): null when
   * there is no usable previous graph (none, other settings, or every table changed), and every pair is searched.
   */
  private boolean @Nullable [] changedTables(List<ColumnSource.Table> tables, JoinGraphConfig.CandidateSearch search) {
    if (previous == null || previous.tableFingerprints().isEmpty()
        || !previous.searchSettings().equals(JoinGraph.searchSettings(embedder.modelId(), config, search))) {
      return null;
    }
    boolean[] changed = new boolean[tables.size()];
    boolean all = true;
    for (int t = 0; t < tables.size(); t++) {
      ColumnSource.Table table = tables.get(t);
      String fp = fingerprints.get(table.name());
      GraphTable before = previous.table(table.name()).orElse(null);
      boolean same = fp != null && fp.equals(previous.tableFingerprints().get(table.name())) && before != null
          && sameColumns(before, table);
      changed[t] = !same;
      all &= !same;
    }
    return all ? null : changed;
  }

  private static boolean sameColumns(GraphTable before, ColumnSource.Table now) {
    if (before.columns().size() != now.columns().size()) {
      return false;
    }
    for (int i = 0; i < now.columns().size(); i++) {
      if (!before.columns().get(i).name().equals(now.columns().get(i).name())
          || !java.util.Objects.equals(before.columns().get(i).sqlType(), now.columns().get(i).sqlType())) {
        return false;
      }
    }
    return true;
  }

  /** The new edges (each with a changed table) and the previous graph's edges between unchanged tables. */
  private List<JoinEdge> withKeptEdges(List<JoinEdge> found, List<ColumnSource.Table> tables, boolean[] changed) {
    java.util.Map<String, Boolean> unchanged = new java.util.HashMap<>();
    for (int t = 0; t < tables.size(); t++) {
      unchanged.put(tables.get(t).name(), !changed[t]);
    }
    List<JoinEdge> out = new ArrayList<>(found);
    for (JoinEdge e : previous.edges()) {
      if (unchanged.getOrDefault(e.tableA(), false) && unchanged.getOrDefault(e.tableB(), false)) {
        out.add(e);
      }
    }
    out.sort(Comparator.comparing(JoinEdge::tableA).thenComparing(JoinEdge::tableB));
    return List.copyOf(out);
  }

  private static long millis(long nanos) {
    return nanos / 1_000_000;
  }

  /**
   * Loads the stored sketches of unchanged tables and reads the others: one after the other on this thread while
   * the pool profiles the columns already read (a semaphore bounds how many read-but-unprofiled columns are held in
   * memory), or, when the source reads several tables at once, that many tables in parallel, each profiled as it
   * is read. Newly read tables' sketches are stored.
   */
  private ColumnSketch[] profile(List<ColumnSource.Table> tables, ExecutorService pool, int threads) {
    ColumnProfiler profiler = new ColumnProfiler(config.valueCap());
    List<List<ColumnSketch>> perTable = new ArrayList<>();
    List<Integer> toRead = new ArrayList<>();
    for (int t = 0; t < tables.size(); t++) {
      ColumnSource.Table table = tables.get(t);
      String fp = fingerprints.get(table.name());
      java.util.Optional<List<ColumnSketch>> stored = store == null || fp == null ? java.util.Optional.empty()
          : store.load(table.name(), fp, t).filter(cols -> sameColumns(cols, table));
      perTable.add(stored.orElse(null));
      if (stored.isEmpty()) {
        toRead.add(t);
      }
    }
    AtomicInteger done = new AtomicInteger();
    progress.accept(new JoinGraph.Progress(0, toRead.size()));
    int readers = Math.min(source.parallelism(), threads);
    if (readers > 1) {
      List<Future<List<ColumnSketch>>> futures = new ArrayList<>();
      for (int t : toRead) {
        ColumnSource.Table table = tables.get(t);
        futures.add(pool.submit(() -> {
          List<ColumnSketch> cols = new ArrayList<>();
          readTable(table, values -> cols.add(profiler.profile(t, values)));
          tableRead(table, cols, done, toRead.size());
          return cols;
        }));
      }
      List<List<ColumnSketch>> read = Futures.getAll(futures, "reading and profiling tables");
      for (int i = 0; i < toRead.size(); i++) {
        perTable.set(toRead.get(i), read.get(i));
      }
    } else {
      Semaphore inFlight = new Semaphore(4 * threads);
      for (int t : toRead) {
        ColumnSource.Table table = tables.get(t);
        int tableId = t;
        List<Future<ColumnSketch>> futures = new ArrayList<>();
        readTable(table, values -> {
          inFlight.acquireUninterruptibly();
          futures.add(pool.submit(() -> {
            try {
              return profiler.profile(tableId, values);
            } finally {
              inFlight.release();
            }
          }));
        });
        List<ColumnSketch> cols = Futures.getAll(futures, "profiling columns");
        perTable.set(t, cols);
        tableRead(table, cols, done, toRead.size());
      }
    }
    List<ColumnSketch> all = new ArrayList<>();
    perTable.forEach(all::addAll);
    return all.toArray(new ColumnSketch[0]);
  }

  /** Reads one table's columns, checking the source delivers each declared column once, in order. */
  private void readTable(ColumnSource.Table table, java.util.function.Consumer<ColumnValues> sink) {
    int[] delivered = {0};
    source.readColumns(table, values -> {
      int index = delivered[0]++;
      if (index >= table.columns().size() || !table.columns().get(index).name().equals(values.column())) {
        throw new IllegalStateException("column source delivered column " + values.column() + " of table "
            + table.name() + " out of its declared order " + table.columns());
      }
      sink.accept(values);
    });
    if (delivered[0] != table.columns().size()) {
      throw new IllegalStateException("column source delivered " + delivered[0] + " of the "
          + table.columns().size() + " columns of table " + table.name());
    }
  }

  private void tableRead(ColumnSource.Table table, List<ColumnSketch> cols, AtomicInteger done, int total) {
    readTables.add(table.name());
    String fp = fingerprints.get(table.name());
    if (store != null && fp != null) {
      store.save(table.name(), fp, cols);
    }
    progress.accept(new JoinGraph.Progress(done.incrementAndGet(), total));
  }

  /** Stored sketches are used only while the table still has exactly those columns and types. */
  private static boolean sameColumns(List<ColumnSketch> stored, ColumnSource.Table table) {
    if (stored.size() != table.columns().size()) {
      return false;
    }
    for (int i = 0; i < stored.size(); i++) {
      ColumnSource.Column c = table.columns().get(i);
      if (!stored.get(i).name.equals(c.name()) || !java.util.Objects.equals(stored.get(i).sqlType, c.sqlType())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Embeds each distinct normalised column name once (lakes repeat names a lot) and, when table-aware names are
   * on, the table names; returns a vector per column and fills {@code tableVectors}.
   */
  private float[][] embedNames(ColumnSketch[] columns, String[] names, List<String> tableNames,
      float[][] tableVectors) {
    Map<String, Integer> slot = new LinkedHashMap<>();
    for (String name : names) {
      String text = embeddingText(name);
      if (!text.isEmpty()) {
        slot.putIfAbsent(text, slot.size());
      }
    }
    if (config.tableAwareNames()) {
      for (String table : tableNames) {
        String text = embeddingText(table);
        if (!text.isEmpty()) {
          slot.putIfAbsent(text, slot.size());
        }
      }
    }
    List<String> texts = new ArrayList<>(slot.keySet());
    float[][] distinct = new float[texts.size()][];
    for (int from = 0; from < texts.size(); from += EMBED_CHUNK) {
      List<String> chunk = texts.subList(from, Math.min(texts.size(), from + EMBED_CHUNK));
      List<float[]> vectors;
      try {
        vectors = embedder.embedAll(chunk);
      } catch (RuntimeException e) {
        throw new JoinGraphException(JoinGraphException.Reason.EMBED,
            "embedder " + embedder.modelId() + " failed on column names: " + e.getMessage(), e);
      }
      if (vectors.size() != chunk.size()) {
        throw new JoinGraphException(JoinGraphException.Reason.EMBED, "embedder " + embedder.modelId()
            + " returned " + vectors.size() + " vectors for " + chunk.size() + " names");
      }
      for (int i = 0; i < chunk.size(); i++) {
        float[] v = vectors.get(i);
        if (v == null || v.length != embedder.dimension()) {
          throw new JoinGraphException(JoinGraphException.Reason.EMBED, "embedder " + embedder.modelId()
              + " returned a vector of " + (v == null ? "null" : v.length + " dimensions") + " for '"
              + chunk.get(i) + "', expected " + embedder.dimension());
        }
        distinct[from + i] = v;
      }
      if (texts.size() > EMBED_CHUNK) {
        LOG.info("embedded {} of {} distinct column names", Math.min(texts.size(), from + EMBED_CHUNK),
            texts.size());
      }
    }
    float[][] perColumn = new float[columns.length][];
    for (int c = 0; c < columns.length; c++) {
      String text = embeddingText(names[c]);
      perColumn[c] = text.isEmpty() ? null : distinct[slot.get(text)];
    }
    if (config.tableAwareNames()) {
      for (int t = 0; t < tableNames.size(); t++) {
        String text = embeddingText(tableNames.get(t));
        tableVectors[t] = text.isEmpty() ? null : distinct[slot.get(text)];
      }
    }
    return perColumn;
  }

  /**
   * Each column's name as S_schema compares it: with {@link JoinGraphConfig#lexicalNames()}, without the word every
   * column of its table starts with ({@code lnt} of {@code lntRecId}, {@code lntPrtky}, {@code lntTax}), which names
   * the table, not the column: two parts of one table split by columns share it, and it pulls every pair of their
   * columns together ({@code lntRecId} read 0.51 from {@code lntPrtky} and 0.33 from {@code liRecordRef}; without
   * it, 0.24 and 0.34). O(columns).
   */
  private String[] comparedNames(ColumnSketch[] columns, int tableCount) {
    String[] out = new String[columns.length];
    List<List<String>> perTable = new ArrayList<>();
    for (int t = 0; t < tableCount; t++) {
      perTable.add(new ArrayList<>());
    }
    for (ColumnSketch c : columns) {
      perTable.get(c.table).add(c.name);
    }
    List<java.util.Optional<String>> shared = perTable.stream()
        .map(n -> config.lexicalNames() ? NameSignals.sharedLeadingWord(n) : java.util.Optional.<String>empty())
        .toList();
    for (int c = 0; c < columns.length; c++) {
      String name = columns[c].name;
      out[c] = shared.get(columns[c].table).map(w -> NameSignals.withoutLeadingWord(name, w)).orElse(name);
    }
    return out;
  }

  /** The normalised name, or the raw name lower-cased when normalisation leaves nothing (a name of symbols). */
  private static String embeddingText(String name) {
    String normalized = Names.normalize(name);
    return normalized.isEmpty() ? name.strip().toLowerCase(Locale.ROOT) : normalized;
  }

  private static List<GraphTable> tableInfos(List<ColumnSource.Table> tables, ColumnSketch[] columns) {
    List<List<GraphColumn>> perTable = new ArrayList<>();
    for (int t = 0; t < tables.size(); t++) {
      perTable.add(new ArrayList<>());
    }
    for (ColumnSketch c : columns) {
      perTable.get(c.table).add(new GraphColumn(c.name, c.sqlType, c.family, c.nonNull, c.distinct, c.uniqueness));
    }
    List<GraphTable> infos = new ArrayList<>();
    for (int t = 0; t < tables.size(); t++) {
      ColumnSource.Table table = tables.get(t);
      infos.add(new GraphTable(table.name(), table.schema(), table.relation(), perTable.get(t)));
    }
    return List.copyOf(infos);
  }

  /** Best pair first; ties broken by instance similarity, then by column ids, so builds are deterministic. */
  static final Comparator<ScoredPair> BEST_FIRST = Comparator.comparingDouble(ScoredPair::score).reversed()
      .thenComparing(Comparator.comparingDouble(ScoredPair::instance).reversed())
      .thenComparingInt(ScoredPair::a)
      .thenComparingInt(ScoredPair::b);

  private List<JoinEdge> assemble(List<ColumnSource.Table> tables, ColumnSketch[] columns, PairScorer scorer,
      List<ScoredPair> evidence) {
    Map<Long, List<ScoredPair>> byTablePair = new HashMap<>();
    long n = tables.size();
    for (ScoredPair p : evidence) {
      int ta = columns[p.a()].table;
      int tb = columns[p.b()].table;
      long key = Math.min(ta, tb) * n + Math.max(ta, tb);
      byTablePair.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
    }
    // Columns are numbered table by table, in reading order: table t owns [firstColumn[t], firstColumn[t + 1]).
    int[] firstColumn = new int[tables.size() + 1];
    for (int t = 0; t < tables.size(); t++) {
      firstColumn[t + 1] = firstColumn[t] + tables.get(t).columns().size();
    }
    List<JoinEdge> edges = new ArrayList<>();
    for (Map.Entry<Long, List<ScoredPair>> e : byTablePair.entrySet()) {
      int t1 = (int) (e.getKey() / n);
      int t2 = (int) (e.getKey() % n);
      List<ScoredPair> pairs;
      if (config.omegaScope() == JoinGraphConfig.OmegaScope.ALL_COLUMN_PAIRS) {
        pairs = new ArrayList<>();
        for (int a = firstColumn[t1]; a < firstColumn[t1 + 1]; a++) {
          for (int b = firstColumn[t2]; b < firstColumn[t2 + 1]; b++) {
            pairs.add(scorer.score(Math.min(a, b), Math.max(a, b)));
          }
        }
      } else {
        pairs = e.getValue();
      }
      pairs.sort(BEST_FIRST);
      String nameA = tables.get(t1).name();
      String nameB = tables.get(t2).name();
      boolean flip = nameA.compareTo(nameB) > 0;
      List<ColumnPair> top = new ArrayList<>();
      for (ScoredPair p : pairs.subList(0, Math.min(config.topPairs(), pairs.size()))) {
        boolean aInFirst = columns[p.a()].table == t1;
        String first = columns[aInFirst ? p.a() : p.b()].name;
        String second = columns[aInFirst ? p.b() : p.a()].name;
        ColumnPair pair = new ColumnPair(first, second, p.score(), p.schema(), p.instance(), p.jaccard(),
            p.containment(), p.uniqueness(), p.shared());
        top.add(flip ? pair.swapped() : pair);
      }
      double omega = pairs.get(0).score();
      edges.add(flip ? new JoinEdge(nameB, nameA, omega, top) : new JoinEdge(nameA, nameB, omega, top));
    }
    edges.sort(Comparator.comparing(JoinEdge::tableA).thenComparing(JoinEdge::tableB));
    return List.copyOf(edges);
  }
}
