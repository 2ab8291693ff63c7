/**
 * Retrieval over a data lake (thesis §5.1, §5.3): the offline all-MiniLM-L6-v2 embedder, name and value
 * normalisation, the Lucene index of schemas and values ({@link LakeIndex}), query–table and table–table relevance,
 * SEARCH_TABLE, SEARCH_VALUE and UNION_SEARCH. Depends on no other lakerewrite module but {@code sql}.
 *
 * <p>Public types (one line each; {@code PublicTypesListedTest} checks that every public type is here):
 * <ul>
 *   <li>{@link CachingEmbedder}: An Embedder that remembers every vector on disk.
 *   <li>{@link Embedder}: Turns text into L2-normalised dense vectors, so that cosine similarity is a dot product.
 *   <li>{@link Joinability}: Joinability Ω(t_i, t_j) of two lake tables (thesis §5.2.1), supplied by the join graph.
 *   <li>{@link LakeColumn}: A column of a lake table as the index saw it.
 *   <li>{@link LakeIndex}: Everything retrieval needs to know about one data lake, built once and kept on disk.
 *   <li>{@link LakeTable}: A table (or view) of the lake as the index saw it.
 *   <li>{@link LiteralMatch}: How literally a cell value matches the sought value in SEARCH_VALUE (thesis §5.3).
 *   <li>{@link MiniLmEmbedder}: Sentence-transformers all-MiniLM-L6-v2.
 *   <li>{@link NameSignals}: Lexical name evidence: token alignment with abbreviations, whole-name abbreviation, a
 *       leading word a table's columns share; used by the schema matcher and the join graph.
 *   <li>{@link Names}: Normalisation of table and column names into the words that are embedded and compared.
 *   <li>{@link QueryRelevance}: Query–table relevance R_Q(t) of every lake table for one query (thesis §5.1.1).
 *   <li>{@link QueryTable}: A table as a user's query assumes it (thesis §5.1.1).
 *   <li>{@link RerankedTable}: A table ranked by table–table relevance S_k(t) = R_Q(t) + max Ω(t, t_j).
 *   <li>{@link RetrievalException}: A failure of the retrieval layer the caller cannot fix by changing an argument.
 *   <li>{@link Snippets}: The short texts that are embedded to compare tables (thesis §5.1.1 and §5.3).
 *   <li>{@link TableMatch}: A lake table ranked against a snippet.
 *   <li>{@link TableScoring}: How tables are scored against a query snippet (query–table relevance and SEARCH_TABLE).
 *   <li>{@link TypeFamily}: The coarse type family of a column (thesis §5.3, UNION_SEARCH): numeric, boolean.
 *   <li>{@link UnionCandidate}: A table that can be stacked under a base table (UNION_SEARCH, thesis §5.3).
 *   <li>{@link UnionColumnPair}: One aligned column pair of UNION_SEARCH (thesis §5.3).
 *   <li>{@link ValueMatch}: A distinct cell value found by SEARCH_VALUE (thesis §5.3).
 *   <li>{@link Values}: The comparison form of a cell value.
 * </ul>
 */
@NullMarked
package dev.lakerewrite.retrieval;

import org.jspecify.annotations.NullMarked;
