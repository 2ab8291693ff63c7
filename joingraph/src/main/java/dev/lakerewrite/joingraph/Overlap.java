package dev.lakerewrite.joingraph;

/**
 * Overlap of two columns' normalised value sets, from their theta sketches. When both sketches hold every value
 * the result is exact; otherwise it is the theta-sketch estimate: both samples are cut at the smaller theta, the
 * shared hashes below it estimate the intersection (divided by theta) and the Jaccard index (shared / union of the
 * cut samples), as DataSketches' {@code Intersection} and {@code JaccardSimilarity} compute them. O(|A| + |B|).
 *
 * @param shared estimated number of shared distinct values
 * @param jaccard |A ∩ B| / |A ∪ B|
 */
record Overlap(double shared, double jaccard) {
  static final Overlap NONE = new Overlap(0, 0);

  static Overlap of(ColumnSketch a, ColumnSketch b) {
    if (a.hashes.length == 0 || b.hashes.length == 0) {
      return NONE;
    }
    if (a.exact && b.exact) {
      int common = common(a.hashes, a.hashes.length, b.hashes, b.hashes.length);
      if (common == 0) {
        return NONE;
      }
      int union = a.hashes.length + b.hashes.length - common;
      return new Overlap(common, (double) common / union);
    }
    long theta = Math.min(a.thetaLong, b.thetaLong);
    int na = below(a.hashes, theta);
    int nb = below(b.hashes, theta);
    int common = common(a.hashes, na, b.hashes, nb);
    if (common == 0) {
      return NONE;
    }
    double fraction = theta / (double) Long.MAX_VALUE;
    double shared = common / fraction;
    double jaccard = (double) common / (na + nb - common);
    return new Overlap(shared, jaccard);
  }

  /** Number of equal values among the first {@code na} of {@code a} and the first {@code nb} of {@code b}. */
  static int common(long[] a, int na, long[] b, int nb) {
    int i = 0;
    int j = 0;
    int common = 0;
    while (i < na && j < nb) {
      long x = a[i];
      long y = b[j];
      if (x < y) {
        i++;
      } else if (x > y) {
        j++;
      } else {
        common++;
        i++;
        j++;
      }
    }
    return common;
  }

  /** Number of hashes strictly below {@code theta} in an ascending array. */
  static int below(long[] hashes, long theta) {
    int lo = 0;
    int hi = hashes.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (hashes[mid] < theta) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
