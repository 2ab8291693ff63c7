package dev.lakerewrite.core.match;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.ColumnProfile;
import dev.lakerewrite.retrieval.NameSignals;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The evidence that an assumed table is a given lake table, as a feature vector for the learned table combiner
 * ({@link TableModel}):
 *
 * <ul>
 *   <li>what the table is about ({@link #about}): its name read semantically (embeddings) or lexically (token
 *       alignment with abbreviations: {@code present_in_work} ~ {@code zo_prsn_in_wrks}), or what its rows are (the
 *       name's similarity to the frequent values of its categorical text columns: a table of districts says
 *       {@code district of New Zealand} in its {@code instance of} column), for tables named after a property;
 *   <li>schema retrieval's relevance R_Q of the table to the assumed table and its columns (thesis §5.1.1);
 *   <li>the columns: how well the table answers the assumed table's columns (their mean best evidence and the share
 *       that reach one half), each by name similarity or, where the lake name abbreviates it, the column matcher's
 *       probability ({@link ColumnModel}).
 * </ul>
 *
 * <p>Cost: one column-matcher probability per (assumed column, lake column) pair, which callers memoise.
 */
public final class TableFeatures {

  /** Feature names, in vector order. */
  public static final List<String> NAMES = List.of("about", "retrieval.relevance", "columns.mean_evidence",
      "columns.matched_share");

  /** The column matcher's probability that an assumed column is a column of the lake table being scored. */
  @FunctionalInterface
  public interface ColumnScorer {
    double probability(String assumedColumn, String lakeColumn);
  }

  private TableFeatures() {}

  /**
   * The features of one (assumed table, lake table) pair.
   *
   * @param lake the lake
   * @param assumedTable the assumed table's name
   * @param columns the assumed table's columns that describe it ({@link #describingColumns}; may be empty)
   * @param lakeTable the lake table
   * @param relevance schema retrieval's relevance of the lake table to the assumed table (0 when unknown)
   * @param scorer the column matcher's probabilities for this lake table
   */
  public static double[] compute(MatchLake lake, String assumedTable, List<String> columns, String lakeTable,
      double relevance, ColumnScorer scorer) {
    Objects.requireNonNull(scorer, "scorer");
    double[] f = new double[NAMES.size()];
    f[0] = about(lake, assumedTable, lakeTable);
    f[1] = relevance;
    if (!columns.isEmpty()) {
      List<CatalogTable.Column> lakeColumns = lake.table(lakeTable).columns();
      double sum = 0;
      int matched = 0;
      for (String c : columns) {
        double best = 0;
        for (CatalogTable.Column lc : lakeColumns) {
          best = Math.max(best, columnEvidence(lake, c, lc.name(), scorer));
        }
        sum += best;
        matched += best >= 0.5 ? 1 : 0;
      }
      f[2] = sum / columns.size();
      f[3] = (double) matched / columns.size();
    }
    return f;
  }

  /**
   * The evidence that an assumed column is a lake column, read as the planner reads it: the names' embedding
   * similarity, or the column matcher's probability where the lake name abbreviates the assumed one ({@code INST_OF}
   * for {@code instance of}). The matcher's probability alone learned the renamed lakes' habit of abbreviating and
   * misreads a lake named by synonyms ({@code name} → {@code GeoNames ID}).
   */
  public static double columnEvidence(MatchLake lake, String assumedColumn, String lakeColumn,
      ColumnScorer scorer) {
    double byName = lake.nameSimilarity(assumedColumn, lakeColumn);
    return ColumnFeatures.abbreviates(assumedColumn, lakeColumn)
        ? Math.max(byName, scorer.probability(assumedColumn, lakeColumn)) : byName;
  }

  /**
   * What a lake table is about, as evidence for an assumed table's name, in [0, 1.25]: the better of the name's and
   * the rows' kind's similarity, plus a quarter of the other. The name's similarity is the better of the semantic
   * and the lexical reading: a lake named by synonyms ({@code countries} ~ {@code country_of_origin}) and one named
   * by abbreviations ({@code present_in_work} ~ {@code zo_prsn_in_wrks}, which embeddings miss) are both read, and
   * the rows speak for tables named after a property. One feature for all three, so that a model fitted on lakes of
   * one naming habit cannot learn to distrust another.
   */
  public static double about(MatchLake lake, String assumedTable, String lakeTable) {
    return about(nameEvidence(lake, assumedTable, lakeTable), entityKindSimilarity(lake, assumedTable, lakeTable));
  }

  /**
   * How well a lake table's name reads as an assumed table's, in [0, 1]: the better of the semantic reading (the
   * names' embedding similarity, for synonyms: {@code countries} ~ {@code country_of_origin}) and the lexical one
   * (token alignment with abbreviations, or the whole name abbreviated: {@code supplier} ~ {@code zo_splrs}, which
   * embeddings miss and read closer to {@code zo_clnts}, unless the two names' words do not line up: {@link
   * NameSignals#tableNameAbbreviation}). O(words²) besides the embedding lookup.
   */
  public static double nameEvidence(MatchLake lake, String assumedTable, String lakeTable) {
    return nameEvidence(lake, assumedTable, lakeTable, lakeTable);
  }

  /**
   * {@link #nameEvidence(MatchLake, String, String)} with the lexical reading on {@code lexicalName}: the lake table's
   * name without a prefix the lake puts before every table ({@code zo_splrs} read as {@code splrs}).
   */
  public static double nameEvidence(MatchLake lake, String assumedTable, String lakeTable, String lexicalName) {
    // The stores (tbl_store, zo_strs) abbreviate "storesales" letter by letter, but name one of its two words.
    return Math.max(lake.nameSimilarity(assumedTable, lakeTable), Math.max(
        NameSignals.tokenAlignment(assumedTable, lexicalName), NameSignals.tableNameAbbreviation(assumedTable,
            lexicalName)));
  }

  private static final Pattern IDENTIFIER = Pattern.compile("\\s*(\\p{L}{3,})\\s*[#:_-]?\\s*\\d+\\s*");

  /**
   * The word every sampled value starts with before its number, when there are at least three values and all have
   * that form ({@code Supplier#000000001}, {@code Supplier#000000002} → {@code Supplier}): identifiers that name
   * their entity's kind. Empty otherwise.
   */
  static Optional<String> identifierPrefix(List<String> values) {
    String prefix = null;
    int n = 0;
    for (String v : values) {
      if (v == null) {
        continue;
      }
      Matcher m = IDENTIFIER.matcher(v);
      if (!m.matches() || prefix != null && !prefix.equalsIgnoreCase(m.group(1))) {
        return Optional.empty();
      }
      prefix = m.group(1);
      n++;
    }
    return n >= 3 ? Optional.of(prefix) : Optional.empty();
  }

  /** The better of a name's and a row kind's similarity, plus a quarter of the other. */
  public static double about(double name, double kind) {
    return Math.max(name, kind) + 0.25 * Math.min(name, kind);
  }

  /**
   * The columns of an assumed table that say what it holds: those the query reads other than to join it (a join key
   * and a bare {@code id} look alike in every table).
   */
  public static List<String> describingColumns(AssumedSchema.Table table) {
    return table.columns().values().stream()
        .filter(c -> !c.uses().equals(java.util.EnumSet.of(AssumedSchema.Use.JOINED)))
        .filter(c -> !dev.lakerewrite.retrieval.Names.normalize(c.name()).equals("id"))
        .map(AssumedSchema.Column::name).toList();
  }

  /**
   * How well an assumed table's name describes the kind of rows a lake table holds, judged from the data: the best
   * similarity between the name and the three most frequent values of the table's categorical text columns
   * (uniqueness at most 0.3), or the word that prefixes every identifier of one of its unique text columns
   * ({@code Supplier#000000001}, {@code CUST-0042}: {@link #identifierPrefix}).
   */
  public static double entityKindSimilarity(MatchLake lake, String assumedTable, String lakeTable) {
    double best = 0;
    for (ColumnProfile c : lake.profile(lakeTable).columns()) {
      if (c.typeFamily() != TypeFamily.STRING || c.nonNullCount() == 0) {
        continue;
      }
      if (c.uniqueness() > 0.3) {
        Optional<String> prefix = identifierPrefix(c.sampleValues());
        if (prefix.isPresent()) {
          best = Math.max(best, lake.nameSimilarity(assumedTable, prefix.get()));
        }
        continue;
      }
      for (String v : c.sampleValues().subList(0, Math.min(3, c.sampleValues().size()))) {
        if (v.length() <= 60) {
          best = Math.max(best, lake.nameSimilarity(assumedTable, v));
        }
      }
    }
    return best;
  }
}
