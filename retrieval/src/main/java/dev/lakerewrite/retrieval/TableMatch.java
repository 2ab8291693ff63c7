package dev.lakerewrite.retrieval;

/**
 * A lake table ranked against a snippet (query–table relevance R_Q, thesis §5.1.1, or SEARCH_TABLE, §5.3).
 *
 * @param table the table id ({@link LakeTable#name()})
 * @param score the ranking score: {@code similarity} alone under {@link TableScoring#EMBEDDING}, plus the weighted
 *     lexical part under {@link TableScoring#HYBRID}
 * @param similarity cosine between the table's schema snippet and the best query snippet
 * @param lexical the best query snippet's BM25 score of this table divided by that snippet's best BM25 score
 *     over all tables, in [0, 1]; 0 under {@link TableScoring#EMBEDDING} or without shared words
 * @param matchedSnippet the query snippet that gave the score
 * @param why a one-line explanation for people and LLM prompts
 */
public record TableMatch(String table, double score, double similarity, double lexical, String matchedSnippet,
    String why) {}
