package dev.lakerewrite.joingraph;

/**
 * How a graph was built: sizes, the candidate search used, and where the time went (milliseconds).
 *
 * @param tables tables read
 * @param columns columns profiled
 * @param distinctNames distinct normalised column names embedded
 * @param candidateSearch the search used ({@code AUTO} resolved)
 * @param pairsScored column pairs scored exactly
 * @param evidencePairs pairs that passed the evidence thresholds
 * @param edges edges of the graph
 * @param stopValuesSkipped probe hits on stop values the sketch search ignored
 * @param readMillis reading and profiling values (overlapping: profiling runs while values are read)
 * @param embedMillis embedding column names
 * @param searchMillis candidate search and scoring
 * @param assembleMillis grouping pairs into edges
 */
public record BuildStats(int tables, int columns, int distinctNames, JoinGraphConfig.CandidateSearch candidateSearch,
    long pairsScored, long evidencePairs, int edges, long stopValuesSkipped, long readMillis, long embedMillis,
    long searchMillis, long assembleMillis) {

  /** Total build time. */
  public long totalMillis() {
    return readMillis + embedMillis + searchMillis + assembleMillis;
  }
}
