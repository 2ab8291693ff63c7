package dev.lakerewrite.core.match;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.ColumnProfile;
import dev.lakerewrite.core.match.AssumedSchema.Use;
import dev.lakerewrite.core.sql.ColumnPrefixes;
import dev.lakerewrite.noiseudf.Cleaners;
import dev.lakerewrite.retrieval.NameSignals;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The evidence that an assumed column is a given lake column, as a feature vector for the learned combiner
 * ({@link ColumnModel}). Four independent signals, each a group of features that an ablation can switch off:
 *
 * <ul>
 *   <li>{@link Signal#NAME}: embedding similarity of the names (all-MiniLM-L6-v2), token alignment with
 *       abbreviations, abbreviation of the whole name, Jaro–Winkler, equality;
 *   <li>{@link Signal#TYPE}: whether the column's type family fits how the query uses the assumed column (summed or
 *       compared with numbers, compared with dates, compared with text);
 *   <li>{@link Signal#INSTANCE}: the query's text literals found in the column; the values' shape (identifiers,
 *       names, numbers, dates, web addresses, image files) against what the assumed name promises; similarity of
 *       the name to the column's frequent values;
 *       and whether the column is the table's entity-name column when the assumed name asks for one
 *       ({@link EntityNames});
 *   <li>{@link Signal#STRUCTURE}: how well the lake table's name fits the assumed table's.
 * </ul>
 *
 * <p>The name hints are plain English words for kinds of values (an {@code id}, a {@code year}, a {@code website});
 * the matcher has no knowledge of how any lake was renamed.
 */
public final class ColumnFeatures {

  /** A group of features that can be ablated together. */
  public enum Signal {
    NAME, TYPE, INSTANCE, STRUCTURE
  }

  /** Feature names, in vector order, with their signal. */
  public static final List<String> NAMES = List.of("name.embedding", "name.tokens", "name.abbreviation",
      "name.jaro_winkler", "name.exact", "type.numeric_use", "type.date_use", "type.text_use",
      "instance.literal_hit", "instance.literal_miss", "instance.id_shape", "instance.name_shape",
      "instance.number_shape", "instance.date_shape", "instance.url_shape", "instance.image_shape",
      "instance.value_similarity", "instance.uniqueness", "instance.null_fraction", "structure.table_name",
      "instance.entity_name");
  static final List<Signal> SIGNALS = List.of(Signal.NAME, Signal.NAME, Signal.NAME, Signal.NAME, Signal.NAME,
      Signal.TYPE, Signal.TYPE, Signal.TYPE, Signal.INSTANCE, Signal.INSTANCE, Signal.INSTANCE, Signal.INSTANCE,
      Signal.INSTANCE, Signal.INSTANCE, Signal.INSTANCE, Signal.INSTANCE, Signal.INSTANCE, Signal.INSTANCE,
      Signal.INSTANCE, Signal.STRUCTURE, Signal.INSTANCE);

  private static final Set<String> ID_WORDS = Set.of("id", "ids", "code", "codes", "identifier", "key", "isbn",
      "issn", "doi", "uri", "handle", "abbreviation", "symbol", "iso");
  private static final Set<String> KEY_SUFFIXES = Set.of("sk", "pk", "fk");
  private static final Set<String> NAME_WORDS = Set.of("name", "label", "title", "names");
  private static final Set<String> NUMBER_WORDS = Set.of("population", "area", "count", "number", "amount", "total",
      "size", "height", "length", "width", "weight", "price", "cost", "elevation", "capacity", "rate", "age", "score",
      "duration", "depth", "mass", "quantity", "num", "sum", "budget", "revenue", "density", "percentage", "ratio",
      "coordinate", "coordinates", "latitude", "longitude", "altitude", "speed", "distance", "volume", "salary");
  private static final Set<String> DATE_WORDS = Set.of("date", "time", "year", "born", "birth", "death", "founded",
      "inception", "start", "end", "dissolved", "established", "published", "release", "day", "month", "when",
      "opening", "closing", "created", "modified");
  private static final Set<String> PROSE_WORDS = Set.of("comment", "comments", "description", "desc", "note", "notes",
      "remark", "remarks", "summary", "text", "details", "memo", "annotation");
  private static final Set<String> URL_WORDS = Set.of("website", "url", "link", "homepage", "site", "web", "page");
  private static final Set<String> IMAGE_WORDS = Set.of("image", "icon", "logo", "banner", "flag", "picture", "photo",
      "map", "signature", "seal", "emblem", "coat", "locator");
  private static final Pattern NUMBER = Pattern.compile("[+-]?\\d[\\d,]*(\\.\\d+)?([eE][+-]?\\d+)?");
  private static final Pattern DATE = Pattern.compile("[+-]?\\d{4}-\\d{2}(-\\d{2})?.*|\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{2,4}"
      + "|\\d{8}|\\d{1,2} [A-Za-z]{3,9} \\d{4}|[A-Za-z]{3,9} \\d{1,2},? \\d{4}");
  private static final Pattern URL = Pattern.compile("(?i)(https?://|www\\.).*");
  private static final Pattern IMAGE = Pattern.compile("(?i).*\\.(jpe?g|png|svg|gif|tiff?|webp|bmp)$");
  private static final Pattern CODE = Pattern.compile("\\S*\\d\\S*|[A-Z0-9_\\-/.:]{2,}");

  private ColumnFeatures() {}

  /**
   * The features of one (assumed column, lake column) pair.
   *
   * @param lake the lake
   * @param assumedTable the assumed table's name
   * @param column the assumed column with its uses, or null when the query gives none
   * @param columnName the assumed column's name
   * @param lakeTable the lake table
   * @param lakeColumn the lake column
   */
  public static double[] compute(MatchLake lake, String assumedTable, AssumedSchema.Column column, String columnName,
      String lakeTable, String lakeColumn) {
    double[] f = new double[NAMES.size()];
    // A prefix naming the column's table (l_ in l_commitdate) is no part of what the column holds: the names are
    // also compared lexically without it, and the better comparison counts. Embeddings keep the whole name (without
    // its prefix, custkey is as close to NATIONKEY as to CUST).
    // The lake's side may carry such a prefix too (cstActb among cstName, cstPhone): compared without it as well.
    String bare = ColumnPrefixes.withoutTablePrefix(columnName, assumedTable);
    String lakeBare = lake.bareColumnName(lakeTable, lakeColumn);
    f[0] = lake.nameSimilarity(columnName, lakeColumn);
    if (!lakeBare.equals(lakeColumn)) {
      f[0] = Math.max(f[0], lake.nameSimilarity(columnName, lakeBare));
    }
    for (String a : bare.equals(columnName) ? List.of(columnName) : List.of(columnName, bare)) {
      for (String l : lakeBare.equals(lakeColumn) ? List.of(lakeColumn) : List.of(lakeColumn, lakeBare)) {
        f[1] = Math.max(f[1], NameSignals.tokenAlignment(a, l));
        f[2] = Math.max(f[2], NameSignals.wholeAbbreviation(a, l));
        f[3] = Math.max(f[3], NameSignals.jaroWinkler(a, l));
        f[4] = Math.max(f[4], NameSignals.exact(a, l));
      }
    }

    CatalogTable table = lake.table(lakeTable);
    String type = table.column(lakeColumn).map(CatalogTable.Column::type).orElse("VARCHAR");
    ColumnProfile p = lake.profile(lakeTable).column(lakeColumn).orElse(null);
    TypeFamily family = p != null ? p.typeFamily() : TypeFamily.fromSqlType(type);
    List<String> samples = p != null ? p.sampleValues() : List.of();
    Set<Use> uses = column == null ? EnumSet.noneOf(Use.class) : column.uses();
    boolean numericUse = uses.contains(Use.SUMMED) || uses.contains(Use.COMPARED_NUMBER);
    boolean dateUse = uses.contains(Use.COMPARED_DATE);
    boolean textUse = uses.contains(Use.COMPARED_STRING) || uses.contains(Use.LIKE);
    // Text of numbers written with units or separators ('USD 1,234.50', '28 kg') is read as numbers by the
    // rewrite's cleaners, so it answers a numeric use as a typed column does.
    boolean numeric = family == TypeFamily.NUMERIC
        || family == TypeFamily.STRING && parsedShare(samples) >= 0.9;
    boolean date = family == TypeFamily.DATETIME || share(samples, DATE) >= 0.6;
    f[5] = numericUse ? (numeric ? 1 : -1) : 0;
    f[6] = dateUse ? (date ? 1 : -1) : 0;
    f[7] = textUse ? (family == TypeFamily.STRING ? 1 : -1) : 0;

    List<String> literals = new ArrayList<>();
    if (column != null) {
      column.literals().stream().filter(AssumedSchema.Literal::isString).filter(l -> !l.operator().equals("LIKE"))
          .forEach(l -> literals.add(l.text()));
    }
    if (!literals.isEmpty()) {
      int hits = 0;
      if (type.equals("VARCHAR")) {
        for (String l : literals) {
          if (lake.valueExists(lakeTable, lakeColumn, l)) {
            hits++;
          }
        }
      }
      f[8] = (double) hits / literals.size();
      f[9] = hits == 0 ? 1 : 0;
    }

    Set<String> words = Set.copyOf(NameSignals.tokens(columnName));
    double uniqueness = p != null ? p.uniqueness() : 0;
    double url = share(samples, URL);
    double image = share(samples, IMAGE);
    double code = share(samples, CODE);
    double spaced = samples.isEmpty() ? 0 : samples.stream().filter(s -> s.strip().contains(" ")).count()
        / (double) samples.size();
    f[10] = hint(words, ID_WORDS) * (0.5 * code + 0.5 * uniqueness - spaced);
    f[11] = hint(words, NAME_WORDS) * (family == TypeFamily.STRING ? uniqueness - url - image : -1);
    f[12] = hint(words, NUMBER_WORDS) * (numeric || share(samples, NUMBER) >= 0.6 ? 1 : -1);
    f[13] = hint(words, DATE_WORDS) * (date ? 1 : -1);
    f[14] = hint(words, URL_WORDS) * (url >= 0.5 ? 1 : -1);
    f[15] = hint(words, IMAGE_WORDS) * (image >= 0.5 ? 1 : -1);
    double valueSim = 0;
    if (family == TypeFamily.STRING) {
      for (String s : samples.subList(0, Math.min(2, samples.size()))) {
        if (s.length() <= 60) {
          valueSim = Math.max(valueSim, lake.nameSimilarity(columnName, s));
        }
      }
    }
    f[16] = valueSim;
    f[17] = uniqueness;
    f[18] = p != null ? p.nullFraction() : 0;
    f[19] = lake.nameSimilarity(assumedTable, lakeTable);
    // An assumed column that names the rows (name, title, the table's noun) reads the table's entity-name column.
    if (EntityNames.isNameLike(columnName, assumedTable)) {
      f[20] = lakeColumn.equals(EntityNames.entityColumn(lake.profile(lakeTable))) ? 1 : -1;
    }
    return f;
  }

  /**
   * Whether a lake column's name could be an abbreviation of (or share words with) the assumed name: some word
   * aligns ({@code INST_OF} ~ {@code instance of}), or the whole name abbreviates ({@code CNTR} ~ {@code country}).
   */
  public static boolean abbreviates(String assumed, String lakeColumn) {
    return NameSignals.tokenAlignment(assumed, lakeColumn) > 0 || NameSignals.wholeAbbreviation(assumed, lakeColumn) > 0;
  }

  /** Whether a lake column's name abbreviates the whole assumed name ({@code SHPD} ~ {@code shipdate}), not one word. */
  public static boolean abbreviatesWhole(String assumed, String lakeColumn) {
    return NameSignals.wholeAbbreviation(assumed, lakeColumn) > 0;
  }

  /**
   * How well one name spells another word by word, abbreviations included, in [0, 1]: the better of the token
   * alignment and the whole-name abbreviation ({@code SNCT_BY} ~ {@code snct by typs}, {@code CNTR} ~ {@code country}).
   */
  public static double lexicalMatch(String assumed, String lake) {
    return Math.max(NameSignals.tokenAlignment(assumed, lake), NameSignals.wholeAbbreviation(assumed, lake));
  }

  /** Whether a column's name promises a date or a point in time ({@code o_orderdate}, {@code founded}, {@code birth}). */
  public static boolean promisesDate(String columnName) {
    return hint(Set.copyOf(NameSignals.tokens(columnName)), DATE_WORDS) > 0;
  }

  /**
   * Whether a column's name promises a key or identifier: an identifier word ({@code id}, {@code key}, {@code code}),
   * a surrogate, primary or foreign key's {@code sk}, {@code pk}, {@code fk} ({@code ss_sold_date_sk}), or a compound
   * ending in {@code key} after three letters or more ({@code o_orderkey}). Such a column is never a date.
   */
  public static boolean promisesIdentifier(String columnName) {
    for (String w : NameSignals.tokens(columnName)) {
      if (ID_WORDS.contains(w) || KEY_SUFFIXES.contains(w) || w.length() >= 6 && w.endsWith("key")) {
        return true;
      }
    }
    return false;
  }

  /** Whether a column's name promises free text: a comment, a description, a note or a remark. */
  public static boolean promisesProse(String columnName) {
    return hint(Set.copyOf(NameSignals.tokens(columnName)), PROSE_WORDS) > 0;
  }

  /** Whether a column's name promises a name, a label or a title ({@code ntn_name}, {@code LABEL}). */
  public static boolean promisesName(String columnName) {
    return hint(Set.copyOf(NameSignals.tokens(columnName)), NAME_WORDS) > 0;
  }

  /**
   * Whether a column's name promises a kind of value that a number or a code answers as it is: an identifier or
   * code, a quantity, a date or year, a url or an image ({@code population}, {@code GND ID}, {@code birth year}).
   * Names that promise none ({@code instance of}, {@code approved by}) name things, which a lake may hold as codes.
   */
  public static boolean promisesValue(String columnName) {
    Set<String> words = Set.copyOf(NameSignals.tokens(columnName));
    return hint(words, ID_WORDS) + hint(words, NUMBER_WORDS) + hint(words, DATE_WORDS) + hint(words, URL_WORDS)
        + hint(words, IMAGE_WORDS) > 0;
  }

  /**
   * Whether any of the name's words is one of the hint words, or a compound that ends in one of four letters or more
   * after at least three letters ({@code commitdate}, {@code totalprice}; shorter hints end too many words:
   * {@code language} is no age): 1 or 0.
   */
  private static double hint(Set<String> words, Set<String> hints) {
    for (String w : words) {
      String singular = w.endsWith("s") ? w.substring(0, w.length() - 1) : w;
      if (hints.contains(w) || hints.contains(singular)) {
        return 1;
      }
      for (String h : hints) {
        if (h.length() >= 4 && singular.length() >= h.length() + 3 && singular.endsWith(h)) {
          return 1;
        }
      }
    }
    return 0;
  }

  /** The share of the values the cleaners read as numbers ({@link Cleaners#parseNumber}), 0 for none. */
  private static double parsedShare(List<String> samples) {
    if (samples.isEmpty()) {
      return 0;
    }
    return samples.stream().filter(v -> Cleaners.parseNumber(v) != null).count() / (double) samples.size();
  }

  private static double share(List<String> samples, Pattern p) {
    if (samples.isEmpty()) {
      return 0;
    }
    int n = 0;
    for (String s : samples) {
      if (p.matcher(s.strip()).matches()) {
        n++;
      }
    }
    return (double) n / samples.size();
  }

  /** The indexes of the features of the given signals. */
  public static List<Integer> indexesOf(Set<Signal> signals) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < SIGNALS.size(); i++) {
      if (signals.contains(SIGNALS.get(i))) {
        out.add(i);
      }
    }
    return Collections.unmodifiableList(out);
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
