package dev.lakerewrite.eval;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One evaluation pair (thesis §7.1, figure 7.1): a user query written against an assumed schema, the gold query
 * that answers it on the lake, and the expected result.
 *
 * <p>The gold query and the expected result are always defined on the <em>clean</em> lake. A {@link #noisy()}
 * pair's user query runs on the noisy variant of the lake, where a rewrite has to clean the data to get back to
 * the clean result.
 *
 * @param id unique within its file
 * @param userQuery the query as the user wrote it, against the schema the user assumes
 * @param goldenQuery a correct rewrite, using the lake's real names
 * @param resultTable the expected result; {@code null} only when the file gave none and the pairs were loaded
 *     without a lake to compute it (see {@link #expectedResult()})
 * @param difficulty easy, medium or hard
 * @param difficultyTags the wrong assumptions the user query makes, at least one
 * @param noisy whether the user query runs on the noisy lake; true exactly when the tags include
 *     {@link DifficultyTag#NOISE}
 * @param requiredTables the lake tables the gold query needs (for discovery and coverage, thesis table 7.4)
 * @param notes free text, empty when absent
 * @param goldMapping where the user query's assumed tables and columns are in the lake (empty when unknown; the
 *     lake disorganizer writes it)
 * @param perturbations the disorganizer's perturbation kinds the query meets ({@code vertical-split}, ...), empty
 *     for hand-written pairs
 * @param sqlShapes the SQL shapes of the user query ({@code join}, {@code correlated-subquery}, ...), empty when
 *     unknown
 */
public record QueryResultPair(
    String id,
    String userQuery,
    String goldenQuery,
    PlainTable resultTable,
    Difficulty difficulty,
    Set<DifficultyTag> difficultyTags,
    boolean noisy,
    List<String> requiredTables,
    String notes,
    GoldMapping goldMapping,
    List<String> perturbations,
    List<String> sqlShapes) {

  /** A pair without disorganizer annotations (hand-written pairs). */
  public QueryResultPair(String id, String userQuery, String goldenQuery, PlainTable resultTable,
      Difficulty difficulty, Set<DifficultyTag> difficultyTags, boolean noisy, List<String> requiredTables,
      String notes) {
    this(id, userQuery, goldenQuery, resultTable, difficulty, difficultyTags, noisy, requiredTables, notes,
        GoldMapping.empty(), List.of(), List.of());
  }

  public QueryResultPair {
    requireText(id, "id");
    requireText(userQuery, "userQuery");
    requireText(goldenQuery, "goldenQuery");
    Objects.requireNonNull(difficulty, "difficulty");
    Objects.requireNonNull(difficultyTags, "difficultyTags");
    if (difficultyTags.isEmpty()) {
      throw new IllegalArgumentException("pair '" + id + "' needs at least one difficulty tag");
    }
    difficultyTags = Collections.unmodifiableSet(EnumSet.copyOf(difficultyTags));
    if (noisy != difficultyTags.contains(DifficultyTag.NOISE)) {
      throw new IllegalArgumentException("pair '" + id + "': noisy is " + noisy + " but the tags "
          + (noisy ? "do not include" : "include") + " Noise; only Noise pairs run on the noisy lake (thesis 7.1)");
    }
    requiredTables = List.copyOf(Objects.requireNonNull(requiredTables, "requiredTables"));
    notes = notes == null ? "" : notes;
    goldMapping = goldMapping == null ? GoldMapping.empty() : goldMapping;
    perturbations = perturbations == null ? List.of() : List.copyOf(perturbations);
    sqlShapes = sqlShapes == null ? List.of() : List.copyOf(sqlShapes);
  }

  private static void requireText(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " must be non-blank, was " + (value == null ? "null" : "'" + value + "'"));
    }
  }

  /** Whether the pair has its expected result. */
  public boolean hasResultTable() {
    return resultTable != null;
  }

  /**
   * The expected result.
   *
   * @throws IllegalStateException if the pair file had no result table and none was computed
   */
  public PlainTable expectedResult() {
    if (resultTable == null) {
      throw new IllegalStateException("pair '" + id + "' has no result table: the file gave none and it was "
          + "loaded without a lake to compute it from the golden query (PairLoader.Builder.goldRunner)");
    }
    return resultTable;
  }

  /** Whether row order matters for execution accuracy: the user query has a top-level ORDER BY. */
  public boolean ordered() {
    return SqlText.hasTopLevelOrderBy(userQuery);
  }

  /** Whether the pair carries this tag. */
  public boolean hasTag(DifficultyTag tag) {
    return difficultyTags.contains(tag);
  }

  /** This pair with another expected result. */
  public QueryResultPair withResultTable(PlainTable table) {
    return new QueryResultPair(id, userQuery, goldenQuery, table, difficulty, difficultyTags, noisy,
        requiredTables, notes, goldMapping, perturbations, sqlShapes);
  }

  /** Scores a prediction for this pair (see {@link ResultMetrics}); {@code null} means the rewrite failed. */
  public ResultScore score(PlainTable predicted) {
    return ResultMetrics.score(predicted, expectedResult(), ordered());
  }
}
