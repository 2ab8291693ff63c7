package dev.lakerewrite.joingraph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Finds the join-evidence column pairs of a lake: the candidate search of {@link JoinGraphConfig.CandidateSearch}
 * followed by exact scoring of every candidate with {@link PairScorer}.
 *
 * <p>The index searches rest on one observation: evidence needs a shared value and a key-like side (uniqueness
 * at least {@code minKeyUniqueness}). So only key-like columns are indexed (value hash → columns), and every
 * eligible column probes the index with its own hashes, counting hits per key-like column in a dense array
 * (ScanCount). Work is Σ over probed values of the posting length, instead of one merge per column pair.
 */
final class PairSearch {
  private final ColumnSketch[] columns;
  private final PairScorer scorer;
  private final JoinGraphConfig config;
  private final ExecutorService pool;
  private final int threads;

  final AtomicLong scored = new AtomicLong();
  final AtomicLong stopValuesSkipped = new AtomicLong();

  /** Per table: whether its pairs are searched (null: every table's). */
  private final boolean @Nullable [] searchedTables;

  PairSearch(ColumnSketch[] columns, PairScorer scorer, JoinGraphConfig config, ExecutorService pool,
      int threads) {
    this(columns, scorer, config, pool, threads, null);
  }

  /**
   * @param searchedTables per table, whether pairs with one of its columns are searched; pairs between two tables
   *     not searched are skipped (a refresh keeps their edges). Null searches every pair.
   */
  PairSearch(ColumnSketch[] columns, PairScorer scorer, JoinGraphConfig config, ExecutorService pool,
      int threads, boolean @Nullable [] searchedTables) {
    this.columns = columns;
    this.scorer = scorer;
    this.config = config;
    this.pool = pool;
    this.threads = threads;
    this.searchedTables = searchedTables;
  }

  /** Whether the pair of two columns' tables is searched. */
  private boolean searched(int a, int b) {
    return searchedTables == null || searchedTables[columns[a].table] || searchedTables[columns[b].table];
  }

  /** The evidence pairs, each once with a &lt; b, found by {@code search} ({@code AUTO} must be resolved). */
  List<ScoredPair> run(JoinGraphConfig.CandidateSearch search) {
    switch (search) {
      case ALL_PAIRS:
        return allPairs();
      case INVERTED_INDEX:
        return indexed(false);
      case SKETCH:
        return indexed(true);
      default:
        throw new IllegalArgumentException("unresolved candidate search " + search);
    }
  }

  /** The thesis build: every eligible column pair of different tables is scored. O(C²). */
  private List<ScoredPair> allPairs() {
    int n = columns.length;
    boolean[] eligible = new boolean[n];
    for (int c = 0; c < n; c++) {
      eligible[c] = scorer.eligible(c);
    }
    return parallel(worker -> {
      List<ScoredPair> out = new ArrayList<>();
      for (int a = worker; a < n; a += threads) {
        if (!eligible[a]) {
          continue;
        }
        for (int b = a + 1; b < n; b++) {
          if (eligible[b] && columns[b].table != columns[a].table && searched(a, b)) {
            scored.incrementAndGet();
            ScoredPair pair = scorer.score(a, b);
            if (pair.evidence()) {
              out.add(pair);
            }
          }
        }
      }
      return out;
    });
  }

  private List<ScoredPair> indexed(boolean sketch) {
    int n = columns.length;
    boolean[] eligible = new boolean[n];
    boolean[] key = new boolean[n];
    for (int c = 0; c < n; c++) {
      eligible[c] = scorer.eligible(c);
      key[c] = scorer.keyLike(c);
    }
    int indexed = sketch ? config.sketchSize() : Integer.MAX_VALUE;
    ValueIndex index = ValueIndex.build(columns, key, indexed);
    // A refresh: columns of unchanged tables only need the key-like columns of changed tables.
    ValueIndex changedIndex = null;
    if (searchedTables != null) {
      boolean[] changedKey = new boolean[n];
      for (int c = 0; c < n; c++) {
        changedKey[c] = key[c] && searchedTables[columns[c].table];
      }
      changedIndex = ValueIndex.build(columns, changedKey, indexed);
    }
    ValueIndex unchangedProbes = changedIndex;
    int maxPostings = sketch ? config.maxPostings() : Integer.MAX_VALUE;
    return parallel(worker -> {
      int[] hits = new int[n];
      int[] touched = new int[n];
      List<ScoredPair> out = new ArrayList<>();
      long stops = 0;
      for (int a = worker; a < n; a += threads) {
        if (!eligible[a]) {
          continue;
        }
        ColumnSketch pa = columns[a];
        int probe = a;
        ValueIndex probed = searchedTables == null || searchedTables[pa.table] ? index : unchangedProbes;
        int[] nTouched = {0};
        long[] stopCount = {0};
        probed.forEachShared(pa.hashes, (run, times) -> {
          int start = probed.start[run];
          int end = probed.start[run + 1];
          // A stop value is one that many key-like columns of the whole lake hold, however few of them the
          // probed index (a refresh's changed tables) holds: the refresh then skips exactly what a full build does.
          int holders = probed == index ? end - start : index.postings(probed.keys[run]);
          if (holders > maxPostings) {
            stopCount[0] += times;
            return;
          }
          for (int p = start; p < end; p++) {
            int b = probed.postings[p];
            if (columns[b].table == pa.table || (key[probe] && !probes(probe, b)) || !searched(probe, b)) {
              continue;
            }
            if (hits[b] == 0) {
              touched[nTouched[0]++] = b;
            }
            hits[b] += times;
          }
        });
        stops += stopCount[0];
        for (int t = 0, m = nTouched[0]; t < m; t++) {
          int b = touched[t];
          int count = hits[b];
          hits[b] = 0;
          // The hit count is the exact intersection when both value sets and b's index entries are complete
          // (truncated hashes can only add hits), so evidence thresholds that fail on it fail on the pair.
          ColumnSketch pb = columns[b];
          boolean complete = pa.exact && pb.exact && pb.hashes.length <= indexed;
          double needed = necessaryShared(pa, pb);
          if (complete ? count < needed : count < sampledHitsNeeded(needed, pb, indexed)) {
            continue;
          }
          scored.incrementAndGet();
          ScoredPair pair = a < b ? scorer.score(a, b) : scorer.score(b, a);
          if (pair.evidence()) {
            out.add(pair);
          }
        }
      }
      stopValuesSkipped.addAndGet(stops);
      return out;
    });
  }

  /**
   * The fewest shared values that can pass the evidence thresholds: minSharedValues, and minInstanceSimilarity
   * solved for the intersection (containment: |A ∩ B| ≥ t · (|R| + c); Jaccard: |A ∩ B| ≥ t · (|A| + |B|) / (1 + t)).
   */
  private double necessaryShared(ColumnSketch a, ColumnSketch b) {
    double t = config.minInstanceSimilarity();
    double byInstance = config.instanceMeasure() == JoinGraphConfig.InstanceMeasure.JACCARD
        ? t * (a.distinct + b.distinct) / (1 + t)
        : t * (Math.max(1, PairScorer.referencing(a, b).distinct) + config.containmentPseudoCount());
    // A hair of slack so that floating-point rounding never drops a pair that scores exactly at the threshold.
    return Math.max(Math.max(1, config.minSharedValues()), byInstance - 1e-9);
  }

  /**
   * For a column indexed by a sample of its values, the hits a pair at the evidence threshold would be expected
   * to produce is needed · (sampled / all values of b); half of it is required (a generous margin for sampling
   * noise), and never more than one hit while that expectation is small.
   */
  private static double sampledHitsNeeded(double needed, ColumnSketch b, int indexed) {
    double sampledShare = Math.min(1.0, (double) Math.min(indexed, b.hashes.length) / Math.max(1, b.distinct));
    double expected = needed * sampledShare;
    return expected < 4 ? 1 : expected / 2;
  }

  /**
   * Of two key-like columns (each indexed, each probing), the pair is handled by exactly one probe: the one with
   * more distinct values, whose full value set then meets the other's index entries, which are complete when that
   * column is small (a sketch sample only truncates large columns).
   */
  private boolean probes(int a, int b) {
    long da = columns[a].distinct;
    long db = columns[b].distinct;
    return da > db || (da == db && a < b);
  }

  private interface Worker {
    List<ScoredPair> run(int worker);
  }

  private List<ScoredPair> parallel(Worker work) {
    List<Future<List<ScoredPair>>> futures = new ArrayList<>();
    for (int w = 0; w < threads; w++) {
      int worker = w;
      futures.add(pool.submit(() -> work.run(worker)));
    }
    List<ScoredPair> all = new ArrayList<>();
    Futures.getAll(futures, "searching join candidates").forEach(all::addAll);
    return all;
  }

  /**
   * Value hash → key-like columns. Built by packing each (hash, column) into one long (the hash's high bits, the
   * column id in the low bits) and sorting, which groups each value's columns without a boxed hash map; values
   * whose hashes agree in the high bits share a run, which only adds candidates that exact scoring then rejects.
   */
  static final class ValueIndex {
    final int columnBits;
    /** Distinct truncated hashes, ascending. */
    final long[] keys;
    /** Run r's columns are postings[start[r] .. start[r+1]). */
    final int[] start;
    final int[] postings;

    private ValueIndex(int columnBits, long[] keys, int[] start, int[] postings) {
      this.columnBits = columnBits;
      this.keys = keys;
      this.start = start;
      this.postings = postings;
    }

    static ValueIndex build(ColumnSketch[] columns, boolean[] indexed, int perColumn) {
      int bits = Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, columns.length - 1)));
      long total = 0;
      for (int c = 0; c < columns.length; c++) {
        if (indexed[c]) {
          total += Math.min(perColumn, columns[c].hashes.length);
        }
      }
      if (total > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("value index too large (" + total + " entries); lower valueCap or use "
            + "CandidateSearch.SKETCH");
      }
      long[] packed = new long[(int) total];
      int i = 0;
      long mask = -1L << bits;
      for (int c = 0; c < columns.length; c++) {
        if (!indexed[c]) {
          continue;
        }
        long[] h = columns[c].hashes;
        int n = Math.min(perColumn, h.length);
        for (int j = 0; j < n; j++) {
          packed[i++] = (h[j] & mask) | c;
        }
      }
      Arrays.parallelSort(packed);
      long[] keys = new long[packed.length];
      int[] start = new int[packed.length + 1];
      int[] postings = new int[packed.length];
      int runs = 0;
      long previous = -1;
      for (int p = 0; p < packed.length; p++) {
        long k = packed[p] >>> bits;
        if (runs == 0 || k != previous) {
          keys[runs] = k;
          start[runs] = p;
          runs++;
          previous = k;
        }
        postings[p] = (int) (packed[p] & ~mask);
      }
      start[runs] = packed.length;
      return new ValueIndex(bits, Arrays.copyOf(keys, runs), Arrays.copyOf(start, runs + 1), postings);
    }

    /**
     * The run holding {@code hash}, searching from run {@code from} on (probes come in ascending order), or
     * {@code -(insertion point) - 1}.
     */
    int find(long hash, int from) {
      long k = hash >>> columnBits;
      return Arrays.binarySearch(keys, Math.min(from, keys.length), keys.length, k);
    }

    /** How many columns of this index hold the value with this key (a {@link #keys} entry of an index over the same columns). */
    int postings(long key) {
      int run = find(key << columnBits, 0);
      return run < 0 ? 0 : start[run + 1] - start[run];
    }

    /** Told of a run of the index and how many of the probed hashes fall into it. */
    interface RunVisitor {
      void visit(int run, int times);
    }

    /**
     * Visits every run holding one of {@code hashes} (ascending) with how many of them it holds, in ascending order:
     * walking the hashes and searching the index, or, when the index has fewer runs, walking the runs and searching
     * the hashes. O(min(h, r) · log max(h, r)).
     */
    void forEachShared(long[] hashes, RunVisitor visitor) {
      if (keys.length < hashes.length) {
        int from = 0;
        for (int run = 0; run < keys.length && from < hashes.length; run++) {
          long lowest = keys[run] << columnBits;
          from = lowerBound(hashes, from, lowest);
          int times = 0;
          while (from < hashes.length && hashes[from] >>> columnBits == keys[run]) {
            times++;
            from++;
          }
          if (times > 0) {
            visitor.visit(run, times);
          }
        }
        return;
      }
      int from = 0;
      for (long hash : hashes) {
        int run = find(hash, from);
        if (run < 0) {
          from = -run - 1;
          continue;
        }
        from = run;
        visitor.visit(run, 1);
      }
    }

    /** The first index at or after {@code from} whose value is at least {@code value} (values ascending). */
    private static int lowerBound(long[] values, int from, long value) {
      int lo = from;
      int hi = values.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (values[mid] < value) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }
  }
}
