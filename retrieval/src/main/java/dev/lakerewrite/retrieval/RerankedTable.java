package dev.lakerewrite.retrieval;

/**
 * A table ranked by table–table relevance S_k(t) = R_Q(t) + max over context tables t_j of Ω(t, t_j)
 * (thesis §5.1.2).
 *
 * @param table the candidate table id
 * @param score S_k(t)
 * @param queryRelevance R_Q(t), the score of the query–table relevance ranking
 * @param joinability the best Ω(t, t_j) over the context tables (0 with an empty context)
 * @param joinsWith the context table giving that Ω, or null when no context table joins
 * @param why a one-line explanation
 */
public record RerankedTable(String table, double score, double queryRelevance, double joinability, String joinsWith,
    String why) {}
