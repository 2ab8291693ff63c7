package dev.lakerewrite.joingraph;

import dev.lakerewrite.retrieval.Names;
import dev.lakerewrite.retrieval.TypeFamily;
import dev.lakerewrite.retrieval.Values;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.datasketches.theta.HashIterator;
import org.apache.datasketches.theta.UpdateSketch;

/**
 * The value/sketch stage: turns a column's raw values into a {@link ColumnSketch}. Each value is brought to its
 * comparison form ({@link Values#normalize}: case, whitespace, diacritics, numbers) and fed to an Apache
 * DataSketches theta sketch with {@code valueCap} nominal entries, which hashes it (MurmurHash3, the library's
 * default seed, so hashes of equal values agree across columns) and keeps every hash while the column has fewer
 * distinct values than the cap, a uniform sample of them above. O(n) in the number of values.
 */
final class ColumnProfiler {
  /** Values passed to {@link TypeFamily#infer} to tell numbers and dates stored as text. */
  private static final int TYPE_SAMPLE = 200;
  /**
   * Raw values remembered to skip repeats: normalising costs microseconds, and a column of cells (not distinct
   * values) repeats most of them. Beyond this many, repeats are normalised again (correct, only slower).
   */
  private static final int DEDUPE_LIMIT = 100_000;

  private final int valueCap;

  ColumnProfiler(int valueCap) {
    this.valueCap = valueCap;
  }

  ColumnSketch profile(int table, ColumnValues column) {
    UpdateSketch sketch = UpdateSketch.builder().setNominalEntries(valueCap).build();
    List<String> sample = new ArrayList<>(TYPE_SAMPLE);
    Set<String> seen = new HashSet<>();
    for (String raw : column.values()) {
      if (raw == null) {
        continue;
      }
      if (sample.size() < TYPE_SAMPLE) {
        sample.add(raw);
      }
      if (seen.size() < DEDUPE_LIMIT ? !seen.add(raw) : seen.contains(raw)) {
        continue;
      }
      String value = Values.normalize(raw);
      if (!value.isEmpty()) {
        sketch.update(value);
      }
    }
    CompactSketch compact = sketch.compact(true, null);
    long[] hashes = new long[compact.getRetainedEntries()];
    HashIterator it = compact.iterator();
    int i = 0;
    while (it.next()) {
      hashes[i++] = it.get();
    }
    boolean exact = !compact.isEstimationMode();
    long distinct = exact ? hashes.length : Math.round(compact.getEstimate());
    return new ColumnSketch(table, column.column(), Names.normalize(column.column()), column.sqlType(),
        TypeFamily.infer(column.sqlType(), sample), column.nonNullCount(), distinct, hashes,
        compact.getThetaLong(), exact);
  }
}
