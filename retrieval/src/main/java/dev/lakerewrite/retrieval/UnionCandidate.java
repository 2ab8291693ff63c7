package dev.lakerewrite.retrieval;

import java.util.List;

/**
 * A table that can be stacked under a base table (UNION_SEARCH, thesis §5.3): score = 0.6·meanSimilarity +
 * 0.4·coverage + typeBonus.
 *
 * @param table the candidate table id
 * @param score the unionability score
 * @param meanSimilarity mean name similarity of the aligned columns
 * @param coverage aligned columns divided by the base table's columns
 * @param typeBonus {@link LakeIndex#UNION_TYPE_BONUS} times the share of aligned pairs whose type families agree
 * @param mapping the aligned pairs, in the base table's column order
 * @param why a one-line explanation
 */
public record UnionCandidate(String table, double score, double meanSimilarity, double coverage, double typeBonus,
    List<UnionColumnPair> mapping, String why) {
  public UnionCandidate {
    mapping = List.copyOf(mapping);
  }
}
