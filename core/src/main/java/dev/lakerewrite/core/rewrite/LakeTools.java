package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.TableProfile;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The lake as the rewriting loop uses it, over the capability modules: the catalog and previews, query–table
 * and table–table relevance (retrieval, join graph), the data-lake actions' evidence, and name similarity for
 * the offline agents. One instance per rewrite, bound to that rewrite's session.
 */
public interface LakeTools extends dev.lakerewrite.core.match.MatchLake {

  /** All table names. */
  List<String> tableNames();

  /** The table with this name (exact, else case-insensitive). */
  Optional<String> resolveTable(String name);

  /** {@code ; did you mean 'x'?} for a wrong table name (the one format, {@link dev.lakerewrite.sql.DidYouMean}), or empty. */
  String didYouMean(String name);

  CatalogTable table(String name);

  TableProfile profile(String name);

  default List<String> columnNames(String table) {
    return table(table).columnNames();
  }

  default boolean hasColumn(String table, String column) {
    return resolveTable(table).map(t -> table(t).column(column).isPresent()).orElse(false);
  }

  /** Up to {@code limit} distinct non-null values of a column, as text. */
  List<String> distinctValues(String table, String column, int limit);

  /** Whether some row of {@code table} has exactly {@code value} in {@code column} (compared as text). */
  boolean valueExists(String table, String column, String value);

  /**
   * How many rows hold the value exactly, and how many hold it up to case, spacing, accents and encoding
   * (the vetted {@code clean_key}); a larger second count reveals spelling variants of the value.
   */
  long[] variantCounts(String table, String column, String value);

  /** Whether some row of {@code table} has a {@code column} value LIKE {@code pattern} (case-sensitive). */
  boolean patternExists(String table, String column, String pattern);

  /** The first rows of a table, all columns. */
  ResultTable preview(String table, int rows);

  /** The preview record used by the scratchpad and the prompts. */
  Evidence.TablePreview tablePreview(String table, int rows, double relevance, String origin);

  /**
   * Query–table relevance R_Q(t) (thesis §5.1.1) of every lake table for the assumed tables of a query: assumed
   * table name → referenced columns.
   */
  Map<String, Double> queryRelevance(Map<String, List<String>> assumedTables);

  /** Relevance of every lake table to one assumed table, for mapping it. */
  Map<String, Double> relevanceTo(String assumedTable, List<String> assumedColumns);

  /** Joinability Ω(a, b) from the join graph; 0 when there is no edge or the join graph is off. */
  double joinability(String a, String b);

  /**
   * The Jaccard similarity of two columns' value sets (normalised distinct values) as the join graph measured them:
   * how far the two hold the same keys. 0 when the graph holds no such column pair, or is off.
   */
  double keyOverlap(String tableA, String columnA, String tableB, String columnB);

  /**
   * The containment of two columns' value sets measured now over tables split by rows: the share of the smaller
   * distinct value set (the referencing column's, where one refers to the other's keys) found in the other, each set
   * the union over its tables ({@code columnA} over {@code tablesA}, {@code columnB} over {@code tablesB}), numbers
   * compared as numbers and text by {@code clean_key} (case, spacing, accents, encoding). The join graph measures one
   * table against one, and each part of a table split by rows holds only a share of the keys its partners refer to.
   * 0 when either side has no values; by default {@link #keyContainment} of the first tables.
   */
  default double unionContainment(List<String> tablesA, String columnA, List<String> tablesB, String columnB) {
    return keyContainment(tablesA.get(0), columnA, tablesB.get(0), columnB);
  }

  /**
   * {@link #unionContainment} of column tuples: the share of the smaller set of distinct tuples ({@code columnsA[i]}
   * beside each other in one row of {@code tablesA}, against {@code columnsB} in {@code tablesB}, aligned by
   * position) found in the other, rows with a NULL among the columns left out. A join on several keys (a return's
   * customer, item and ticket against a sale's) needs its rows' keys together in the partner: small surrogate keys
   * are each contained in any large key set, their combinations are not. 0 when either side has no tuples; by
   * default the smallest of the columns' own containments, which the tuples' cannot much exceed.
   *
   * @throws IllegalArgumentException when the two lists differ in length or are empty
   */
  default double tupleContainment(List<String> tablesA, List<String> columnsA, List<String> tablesB,
      List<String> columnsB) {
    requireAlignedTuples(columnsA, columnsB);
    double min = 1;
    for (int i = 0; i < columnsA.size(); i++) {
      min = Math.min(min, unionContainment(tablesA, columnsA.get(i), tablesB, columnsB.get(i)));
    }
    return min;
  }

  /**
   * Checks the arguments of {@link #tupleContainment}.
   *
   * @throws IllegalArgumentException when the two lists differ in length or are empty
   */
  static void requireAlignedTuples(List<String> columnsA, List<String> columnsB) {
    if (columnsA.isEmpty() || columnsA.size() != columnsB.size()) {
      throw new IllegalArgumentException("a tuple containment needs as many columns on each side, at least one; was "
          + columnsA + " and " + columnsB);
    }
  }

  /**
   * The containment of two columns' value sets as the join graph measured it: the share of the referencing (less
   * unique) column's distinct values found in the other. A foreign key is contained in the key it references even
   * where the key holds many values nobody references (every customer, few with orders), where the Jaccard
   * similarity is small. 0 when the graph holds no such column pair, or is off; by default the Jaccard similarity.
   */
  default double keyContainment(String tableA, String columnA, String tableB, String columnB) {
    return keyOverlap(tableA, columnA, tableB, columnB);
  }

  /**
   * The join graph's edges at a table: per neighbour, its best column pair as a step from {@code table}. Empty
   * when the join graph is off.
   */
  List<Evidence.JoinStep> joinNeighbours(String table);

  /**
   * What a union partner adds to a base table: the share of its distinct {@code otherColumn} values the base's
   * {@code baseColumn} lacks (compared as text), and, among those new rows, the most frequent value of
   * {@code otherKindColumn} (what the new rows are; null when none or no such column).
   */
  NewRows newRows(String base, String baseColumn, String other, String otherColumn, @Nullable String otherKindColumn);

  /** See {@link #newRows}. */
  record NewRows(double share, @Nullable String topKind) {}

  /** SEARCH_TABLE: tables like the schema {@code domain(columns)}, best first, without {@code excluded}. */
  List<Evidence.TableHit> searchTable(String domain, List<String> columns, int k, Collection<String> excluded);

  /**
   * The tables holding a value or a close spelling of it, with the best match score per table (lake-wide value
   * search; exact and normalised matches score above 1.35).
   */
  Map<String, Double> tablesWithValue(String value);

  /** SEARCH_VALUE in one table. */
  Evidence.ValueSearch searchValue(String table, String value, int k);

  /** FIND_JOIN_PATH: the top paths, keys ranked by executed fan-out, with previews. */
  List<Evidence.JoinPath> findJoinPaths(String a, String b, int k);

  /** UNION_SEARCH: union-compatible tables with column mappings. */
  List<Evidence.UnionPartner> unionSearch(String baseTable, int k);

  /**
   * BUILD_CTE: a cleaned version of a table's columns as a CTE, with an LLM when one is configured for the
   * cleaner role, else offline from detected noise.
   *
   * @throws dev.lakerewrite.core.LakeRewriteException when no acceptable cleaning could be built
   */
  Evidence.CleanedTable buildCte(String table, List<String> columns, String goal);

  /**
   * Which of the given columns of a table look noisy, with the evidence (conservative: the cleaning module's
   * detector).
   */
  Map<String, List<String>> noisyColumns(String table, Collection<String> columns);

  /** Similarity in [0, 1] of two names (normalised, embedded), for mapping assumed names to lake names. */
  double nameSimilarity(String assumed, String lake);
}
