package dev.lakerewrite.joingraph;

import dev.lakerewrite.retrieval.TypeFamily;
import java.util.Arrays;

/**
 * What the build knows about one column: counts, uniqueness and its normalised value set, held as the sorted
 * 63-bit hashes of a theta sketch ({@link ColumnProfiler}). Below the value cap the sketch holds every distinct
 * value ({@link #exact}); above it, the values whose hash is below {@link #thetaLong}: a uniform sample that is
 * coordinated across columns, so two samples estimate overlap (theta-sketch set algebra).
 */
final class ColumnSketch {
  final int table;
  final String name;
  final String normalizedName;
  final String sqlType;
  final TypeFamily family;
  final long nonNull;
  /** Distinct normalised values (exact when {@link #exact}, else the sketch estimate). */
  final long distinct;
  /** distinct / non-null, in [0, 1]: 1 for a key. */
  final double uniqueness;
  /** Ascending hashes of the normalised values, each below {@link #thetaLong}. */
  final long[] hashes;
  final long thetaLong;
  final boolean exact;

  ColumnSketch(int table, String name, String normalizedName, String sqlType, TypeFamily family, long nonNull,
      long distinct, long[] hashes, long thetaLong, boolean exact) {
    this.table = table;
    this.name = name;
    this.normalizedName = normalizedName;
    this.sqlType = sqlType;
    this.family = family;
    this.nonNull = nonNull;
    this.distinct = distinct;
    this.uniqueness = nonNull == 0 ? 0 : Math.min(1.0, (double) distinct / nonNull);
    this.hashes = hashes;
    this.thetaLong = thetaLong;
    this.exact = exact;
  }

  /** The first {@code n} hashes as a theta sketch of its own (KMV): theta becomes the (n+1)-th hash. */
  long[] sample(int n) {
    return hashes.length <= n ? hashes : Arrays.copyOf(hashes, n);
  }

  @Override
  public String toString() {
    return name + "(t" + table + ", distinct=" + distinct + ", u=" + uniqueness + ")";
  }
}
