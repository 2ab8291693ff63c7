package dev.lakerewrite.joingraph;

/**
 * One scored column pair of the build (column ids index the build's profiles). {@code evidence} tells whether it
 * passes the configured evidence thresholds.
 */
record ScoredPair(int a, int b, double score, double schema, double instance, double jaccard, double containment,
    double uniqueness, long shared, boolean evidence) {}
