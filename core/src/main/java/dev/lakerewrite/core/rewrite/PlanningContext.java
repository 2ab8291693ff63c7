package dev.lakerewrite.core.rewrite;

import static dev.lakerewrite.core.rewrite.OfflinePlanner.key;
import static dev.lakerewrite.core.rewrite.OfflinePlanner.reversed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.ColumnProfile;
import dev.lakerewrite.core.match.AssumedSchema;
import dev.lakerewrite.core.match.ColumnFeatures;
import dev.lakerewrite.core.match.EntityNames;
import dev.lakerewrite.core.sql.ColumnPrefixes;
import dev.lakerewrite.core.sql.QueryAnalysis.ColumnReference;
import dev.lakerewrite.core.sql.QueryAnalysis.JoinCondition;
import dev.lakerewrite.core.sql.QueryAnalysis.Predicate;
import dev.lakerewrite.core.sql.QueryAnalysis;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.noiseudf.Cleaners;
import dev.lakerewrite.retrieval.NameSignals;
import dev.lakerewrite.retrieval.Names;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.jspecify.annotations.Nullable;

/**
 * What every part of one plan reads: the rewrite's state, the lake, the user query's analysis and assumed schema, the
 * scratchpad's evidence, and the facts derived from them once (the query's own join keys, the type each column is used
 * as, the scratchpad's best join path between two lake tables). One per {@link OfflinePlanner}; not thread-safe.
 */
final class PlanningContext {
  final RewriteState state;
  final LakeTools lake;
  final QueryAnalysis analysis;
  final Scratchpad pad;
  /** "table|column" (lower case) of columns the query uses only in join conditions: keys of its own schema. */
  private final Set<String> joinOnly;
  /** Assumed column (lower case) → the type family the query treats it as (compared with numbers or dates). */
  final Map<String, TypeFamily> expectedFamilies;
  /** The user query's tree, parsed once per plan; null when it does not parse ({@link #schema} then throws). */
  private final @Nullable JsonNode tree;
  /** The query's assumed schema with how it uses each column (the matcher's type and instance evidence). */
  private @Nullable AssumedSchema schema;

  PlanningContext(RewriteState state) {
    this.state = state;
    this.lake = state.lake();
    this.analysis = state.analysis().orElseThrow();
    this.pad = state.scratchpad();
    this.joinOnly = joinOnlyColumns(analysis);
    this.tree = parsedOrNull(state.userQuery());
    this.expectedFamilies = expectedFamilies(analysis, tree);
  }

  /** The user query's tree, or null when it does not parse here (the analysis came from the normalised query). */
  private static @Nullable JsonNode parsedOrNull(String query) {
    try {
      return new Trees(SqlParser.standalone()).statement(query);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * {@link #expectedFamilies(QueryAnalysis)}, plus columns the query computes with ({@link
   * SqlAnalyzer#numericOperands}: numbers), and a column compared with another takes that one's family
   * ({@code l_commitdate < l_receiptdate} with {@code l_receiptdate >= DATE '1994-01-01'}: both dates).
   */
  static Map<String, TypeFamily> expectedFamilies(QueryAnalysis analysis, @Nullable JsonNode tree) {
    Map<String, TypeFamily> expected = expectedFamilies(analysis);
    if (tree == null) {
      return expected;
    }
    for (String c : SqlAnalyzer.numericOperands(tree)) {
      expected.putIfAbsent(c, TypeFamily.NUMERIC);
    }
    List<String[]> pairs = SqlAnalyzer.comparedColumns(tree);
    for (boolean changed = true; changed; ) {
      changed = false;
      for (String[] p : pairs) {
        for (int side = 0; side < 2; side++) {
          TypeFamily known = expected.get(p[side]);
          if (known != null && !expected.containsKey(p[1 - side])) {
            expected.put(p[1 - side], known);
            changed = true;
          }
        }
      }
    }
    return expected;
  }

  /**
   * Whether the query reads a number from this column that a date can give as its year: the name says year, or the
   * column is compared with whole numbers that look like years ({@code founded < 1950}).
   */
  private boolean yearLike(String assumedColumn) {
    if (Names.normalize(assumedColumn).matches("(.* )?(year|yr)s?( .*)?")) {
      return true;
    }
    boolean compared = false;
    for (Predicate p : analysis.predicates()) {
      if (!key(p.column().column()).equals(key(assumedColumn))) {
        continue;
      }
      for (String lit : p.literals()) {
        if (lit == null || !lit.strip().matches("[12]\\d{3}")) {
          return false;
        }
        compared = true;
      }
    }
    return compared;
  }

  AssumedSchema schema() {
    if (schema == null) {
      schema = AssumedSchema.of(tree != null ? tree : new Trees(SqlParser.standalone()).statement(state.userQuery()));
    }
    return schema;
  }

  /** A column compared by order with numbers is numeric, with dates a date; summed or averaged, numeric. */
  static Map<String, TypeFamily> expectedFamilies(QueryAnalysis a) {
    Map<String, TypeFamily> out = new LinkedHashMap<>();
    for (Predicate p : a.predicates()) {
      boolean ordered = Set.of("<", ">", "<=", ">=", "BETWEEN").contains(p.operator());
      for (int i = 0; i < p.literals().size() && ordered; i++) {
        String kind = i < p.literalKinds().size() ? p.literalKinds().get(i) : "";
        String lit = p.literals().get(i);
        if (kind.startsWith("DATE") || kind.startsWith("TIMESTAMP")
            || lit != null && lit.matches("\\d{4}-\\d{2}(-\\d{2})?.*") && !kind.equals("INTEGER")) {
          out.put(key(p.column().column()), TypeFamily.DATETIME);
        } else if (kind.equals("INTEGER") || kind.equals("NUMERIC") || kind.startsWith("DECIMAL")
            || kind.equals("DOUBLE") || kind.equals("BIGINT")) {
          out.putIfAbsent(key(p.column().column()), TypeFamily.NUMERIC);
        }
      }
    }
    for (QueryAnalysis.OutputColumn o : a.outputColumns()) {
      String e = o.expression().toLowerCase(Locale.ROOT);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\b(sum|avg)\\(\\s*(?:\\w+\\.)?\"?([^\")]+)\"?\\s*\\)")
          .matcher(e);
      while (m.find()) {
        out.put(m.group(2).strip(), TypeFamily.NUMERIC);
      }
    }
    return out;
  }

  /**
   * Columns that appear only in join conditions ({@code r.id}, {@code c.region_id}): they name the assumed
   * schema's keys, which the lake may not have; the join graph decides the real keys.
   */
  static Set<String> joinOnlyColumns(QueryAnalysis a) {
    Set<String> inJoins = new LinkedHashSet<>();
    for (JoinCondition j : a.joins()) {
      for (ColumnReference r : List.of(j.left(), j.right())) {
        inJoins.add(r.table().map(OfflinePlanner::key).orElse("") + "|" + key(r.column()));
      }
    }
    Set<String> elsewhere = new LinkedHashSet<>();
    for (QueryAnalysis.OutputColumn o : a.outputColumns()) {
      o.source().ifPresent(r -> elsewhere.add(r.table().map(OfflinePlanner::key).orElse("") + "|" + key(r.column())));
      if (o.source().isEmpty()) {
        for (String t : a.tableNames()) {
          for (String c : a.columnsOf(t)) {
            if (o.expression().toLowerCase(Locale.ROOT).contains(key(c))) {
              elsewhere.add(key(t) + "|" + key(c));
            }
          }
        }
      }
    }
    for (Predicate p : a.predicates()) {
      if (!p.clause().equals("JOIN")) {
        elsewhere.add(p.column().table().map(OfflinePlanner::key).orElse("") + "|" + key(p.column().column()));
      }
    }
    for (String g : a.groupBy()) {
      for (String t : a.tableNames()) {
        for (String c : a.columnsOf(t)) {
          if (g.toLowerCase(Locale.ROOT).contains(key(c))) {
            elsewhere.add(key(t) + "|" + key(c));
          }
        }
      }
    }
    for (QueryAnalysis.OrderItem o : a.orderBy()) {
      for (String t : a.tableNames()) {
        for (String c : a.columnsOf(t)) {
          if (o.expression().toLowerCase(Locale.ROOT).contains(key(c))) {
            elsewhere.add(key(t) + "|" + key(c));
          }
        }
      }
    }
    inJoins.removeAll(elsewhere);
    return inJoins;
  }

  boolean isKey(String assumedTable, String column) {
    return joinOnly.contains(key(assumedTable) + "|" + key(column)) || Names.normalize(column).equals("id");
  }

  /**
   * A lake table's name without the prefix the lake puts before most of its tables ({@code zo_}, {@code tbl_},
   * {@code dim_}): a first word of at most four letters that at least half the tables (and three or more) start with.
   * Such a word says nothing about what a table holds and drags the lexical reading of its name down. O(tables) once.
   */
  String withoutTablePrefix(String table) {
    if (tablePrefix == null) {
      List<String> names = lake.tableNames();
      tablePrefix = NameSignals.leadingWords(names).entrySet().stream()
          .filter(e -> e.getKey().length() <= 4 && e.getValue() >= 3 && 2 * e.getValue() >= names.size())
          .map(Map.Entry::getKey).findFirst().orElse("");
    }
    String[] words = Names.normalize(table).split(" ");
    return !tablePrefix.isEmpty() && words.length > 1 && words[0].equals(tablePrefix)
        ? String.join(" ", Arrays.copyOfRange(words, 1, words.length)) : table;
  }

  private @Nullable String tablePrefix;

  /**
   * The name the parts of a table split by rows share, when {@code table} is one: the longest run of leading words
   * it shares with another lake table that has exactly its columns, when every table with those columns that shares
   * that longest run shares no longer one ({@code client} for {@code src_client_batcha} and {@code src_client_batchb},
   * {@code country} for {@code country_current} and {@code country_archive}; {@code winter_games} beside
   * {@code winter_sports_east} and {@code _west} is none of theirs), the lake's table prefix aside; empty for a table
   * no other table's columns and name so match. A part's own marker ({@code batcha}, {@code part1}, {@code before
   * 1995}) drags the reading of its name down: embeddings put {@code customer} at 0.61 from {@code client} but 0.23
   * from {@code client batcha}. O(tables² · words) once.
   */
  Optional<String> partitionStem(String table) {
    if (partitionStems == null) {
      Map<Set<String>, List<String>> byColumns = new LinkedHashMap<>();
      for (String t : lake.tableNames()) {
        Set<String> columns = new TreeSet<>();
        lake.table(t).columns().forEach(c -> columns.add(key(c.name())));
        byColumns.computeIfAbsent(columns, k -> new ArrayList<>()).add(t);
      }
      withoutTablePrefix(""); // computes the lake's table prefix, which is no stem
      Map<String, String> stems = new HashMap<>();
      for (List<String> group : byColumns.values()) {
        Map<String, String> longest = new LinkedHashMap<>();
        for (String t : group) {
          String[] words = Names.normalize(t).split(" ");
          String best = "";
          for (String o : group) {
            String[] other = Names.normalize(o).split(" ");
            int common = 0;
            while (!o.equals(t) && common < words.length - 1 && common < other.length - 1
                && words[common].equals(other[common])) {
              common++;
            }
            String stem = withoutTablePrefix(String.join(" ", Arrays.copyOfRange(words, 0, common)));
            if (stem.length() > best.length() && !stem.equals(tablePrefix)) {
              best = stem;
            }
          }
          if (!best.isBlank()) {
            longest.put(t, best);
          }
        }
        longest.forEach((t, stem) -> {
          if (longest.entrySet().stream().anyMatch(e -> !e.getKey().equals(t) && e.getValue().equals(stem))) {
            stems.put(t, stem);
          }
        });
      }
      partitionStems = stems;
    }
    return Optional.ofNullable(partitionStems.get(table));
  }

  private @Nullable Map<String, String> partitionStems;

  /**
   * The parts of the table split by rows that {@code table} is one of ({@link #partitionStem}: the lake tables with
   * its columns and stem), itself first; just the table when it is none.
   */
  List<String> rowParts(String table) {
    Optional<String> stem = partitionStem(table);
    List<String> out = new ArrayList<>();
    out.add(table);
    if (stem.isPresent()) {
      partitionStems.forEach((t, s) -> {
        if (!t.equals(table) && s.equals(stem.get()) && lake.table(t).columnNames().size()
            == lake.table(table).columnNames().size()) {
          out.add(t);
        }
      });
    }
    return out;
  }

  /**
   * Whether a lake column can serve an assumed column the way the query uses it: one compared by order with dates or
   * numbers, or summed or averaged ({@link #expectedFamilies}), needs a column of that family, or text that may spell
   * it (at least half its frequent values read as such: the cleaning functions read {@code '28.0 units'} and
   * {@code '03/15/1995'});
   * a number may also be read from a date, as its year.
   * DuckDB's binder rejects a BIGINT compared with a DATE, and a cast of {@code 'O'} to a number fails at run time, so
   * no name similarity makes such a column an answer. Columns the query uses otherwise can serve anything.
   */
  boolean canServe(String assumedColumn, String table, String lakeColumn) {
    if (refuted(assumedColumn, table, lakeColumn).isPresent()) {
      return false;
    }
    TypeFamily expected = expectedFamilies.get(key(assumedColumn));
    if (expected == null) {
      return true;
    }
    Optional<ColumnProfile> c = lake.profile(table).column(lakeColumn);
    if (c.isEmpty() || c.get().nonNullCount() == 0 || c.get().typeFamily() == expected) {
      return true;
    }
    return switch (c.get().typeFamily()) {
      // The rewrite reads a number from a date as its year ("year"(clean_date(...))): birth_year < 1950.
      case DATETIME -> expected == TypeFamily.NUMERIC && yearLike(assumedColumn);
      // Integers of the form 19950305 are dates the lake kept as numbers; the rewrite reads them with clean_date.
      case NUMERIC -> expected == TypeFamily.DATETIME && holdsCompactDates(c);
      // Text serves when its frequent values read as what the query compares it with (a clerk's 'Clerk#000000951'
      // has digits but is neither a date nor a number).
      case STRING -> readsAs(c.get().sampleValues(), expected);
      default -> false;
    };
  }

  /**
   * Whether a lake column's numbers can satisfy the comparisons the query makes of the assumed column as it is
   * ({@link AssumedSchema.Literal#bound}: outside any NOT or OR). They cannot when no number in the column's
   * {@code [min, max]} equals one of the column's equality literals, or none passes one of its lower bounds, or none
   * one of its upper bounds: a query's {@code l_quantity < 24} selects nothing from extended prices of 900 and more,
   * and its {@code l_discount BETWEEN 0.05 AND 0.07} nothing from them either. Within a kind one satisfiable bound is
   * enough (an IN list names values the data may lack), and cell noise only widens a range. Columns that are no
   * numbers (text that does not read as numbers, dates) have no range and are not judged. One range query per lake
   * column, cached by the lake tools.
   *
   * @return null when the column is not judged (no bounds, no numbers), the empty string when its range satisfies
   *     every kind of bound, else why it cannot
   */
  @Nullable String rangeVerdict(String assumedTable, String assumedColumn, String table, String lakeColumn) {
    List<AssumedSchema.Literal> bounds = schema().table(assumedTable).flatMap(t -> t.column(assumedColumn))
        .map(AssumedSchema.Column::literals).orElse(List.of()).stream()
        .filter(l -> !l.bound().isEmpty() && numberOf(l) != null).toList();
    if (bounds.isEmpty()) {
      return null;
    }
    Optional<ColumnProfile> profile = lake.profile(table).column(lakeColumn);
    TypeFamily family = answeringFamily(table, lakeColumn);
    if (family != TypeFamily.NUMERIC && !(family == TypeFamily.STRING && profile.isPresent()
        && readsAs(profile.get().sampleValues(), TypeFamily.NUMERIC))) {
      return null;
    }
    Optional<double[]> range = lake.numericRange(table, lakeColumn);
    if (range.isEmpty()) {
      return null;
    }
    double min = range.get()[0];
    double max = range.get()[1];
    for (List<String> kind : List.of(List.of("="), List.of(">", ">="), List.of("<", "<="))) {
      List<AssumedSchema.Literal> ofKind = bounds.stream().filter(l -> kind.contains(l.bound())).toList();
      if (!ofKind.isEmpty() && ofKind.stream().noneMatch(l -> satisfiable(l.bound(), numberOf(l), min, max))) {
        AssumedSchema.Literal first = ofKind.get(0);
        return String.format(Locale.ROOT, "no value between %s and %s is %s %s", plain(min), plain(max),
            first.bound(), first.text());
      }
    }
    return "";
  }

  /** Whether some number in {@code [min, max]} stands in relation {@code bound} to {@code literal}. */
  static boolean satisfiable(String bound, double literal, double min, double max) {
    return switch (bound) {
      case "=" -> literal >= min && literal <= max;
      case ">" -> max > literal;
      case ">=" -> max >= literal;
      case "<" -> min < literal;
      case "<=" -> min <= literal;
      default -> true;
    };
  }

  /** A numeric literal's value, or null for text, dates and others. */
  private static @Nullable Double numberOf(AssumedSchema.Literal l) {
    if (l.isString() || l.kind().startsWith("DATE") || l.kind().startsWith("TIME") || l.kind().startsWith("INTERVAL")
        || l.kind().equals("NULL") || l.kind().equals("BOOLEAN")) {
      return null;
    }
    try {
      return Double.parseDouble(l.text().strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static String plain(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
  }

  /**
   * Whether a text column holds numbers written with a unit or currency ({@code '214,092 units'}, {@code '1,308,733
   * EUR'}, {@code '$12.50'}, {@code 'USD 1,234.50'}): at least nine in ten of its frequent values, and three or more
   * of them. Such a column is a number the lake wrote as text; the rewrite reads it with {@code clean_number}
   * wherever it reads it.
   */
  static boolean holdsNumbersWithUnits(Optional<ColumnProfile> column) {
    if (column.isEmpty() || column.get().typeFamily() != TypeFamily.STRING) {
      return false;
    }
    List<String> values = column.get().sampleValues().stream().filter(v -> v != null && !v.isBlank()).toList();
    long matching = values.stream().filter(v -> NUMBER_WITH_UNIT.matcher(v.strip()).matches()).count();
    return values.size() >= 3 && matching >= 0.9 * values.size();
  }

  private static final java.util.regex.Pattern NUMBER_WITH_UNIT = java.util.regex.Pattern.compile(
      "[+-]?\\d{1,3}(?:[,.' ]\\d{3})*(?:[.,]\\d+)?\\s*(?:%|[\\p{L}][\\p{L}.]{0,5})"
          + "|(?:[$€£¥]\\s?|\\p{L}{2,4}\\.?\\s)[+-]?\\d+(?:[,.' ]\\d{3})*(?:[.,]\\d+)?"
          + "|[+-]?\\d+(?:[.,]\\d+)?\\s*(?:%|[\\p{L}][\\p{L}.]{0,5})");

  /**
   * Whether an integer column holds dates in the compact form {@code 19950305} (a habit of warehouses and CSV
   * exports): nine in ten of its frequent values, three or more, are eight digits naming a real day of the years 1000
   * to 2999. Such a column serves a comparison with dates, read as {@code clean_date(CAST(x AS VARCHAR))}.
   */
  static boolean holdsCompactDates(Optional<ColumnProfile> column) {
    if (column.isEmpty() || column.get().typeFamily() != TypeFamily.NUMERIC) {
      return false;
    }
    List<String> values = column.get().sampleValues().stream().filter(v -> v != null && !v.isBlank())
        .map(String::strip).toList();
    long dates = values.stream().filter(v -> v.length() == 8 && Cleaners.isoDate(v) != null).count();
    return values.size() >= 3 && dates >= 0.9 * values.size();
  }

  /**
   * How the rewrite reads a column of compact dates ({@link #holdsCompactDates}) for an assumed column that is a
   * date: as a date, or as its year when a year is asked for; empty for any other column. The digits are read from
   * the integer as the lake typed it, from text as it is (clean_date cleans it), and from a cleaning CTE's output as
   * text (the CTE may have made ISO dates of them, or typed them: 19960421.0).
   *
   * @param column the lake column's profile
   * @param qualified the column reference
   * @param type the column's declared type in the lake
   * @param cleanedByCte whether the reference reads a cleaning CTE's output
   * @param wantsYear whether the assumed column asks for a year
   */
  static Optional<String> compactDateRead(Optional<ColumnProfile> column, String qualified, String type,
      boolean cleanedByCte, boolean wantsYear) {
    if (!holdsCompactDates(column)) {
      return Optional.empty();
    }
    // A cleaning CTE's output may be text already turned into ISO dates or a number it typed (19960421.0):
    // clean_date reads both, so the digits are read as text whatever the CTE made of them.
    String digits = type.equals("VARCHAR") && !cleanedByCte ? qualified : "CAST(" + qualified + " AS VARCHAR)";
    String date = "clean_date(" + digits + ")";
    return Optional.of(wantsYear ? "year(" + date + ")" : date);
  }

  /**
   * The family a column answers for the query: its profile's, except that integers of compact dates answer as dates
   * ({@link #holdsCompactDates}) and text of numbers with units as numbers ({@link #holdsNumbersWithUnits}).
   */
  TypeFamily answeringFamily(String table, String column) {
    Optional<ColumnProfile> profile = lake.profile(table).column(column);
    if (holdsCompactDates(profile)) {
      return TypeFamily.DATETIME;
    }
    // Text of numbers with a unit or currency ('USD 1,234.50') is read with clean_number wherever it is read.
    return holdsNumbersWithUnits(profile) ? TypeFamily.NUMERIC
        : profile.map(ColumnProfile::typeFamily).orElse(TypeFamily.STRING);
  }

  /**
   * Whether at least half of a text column's frequent values read as numbers (for NUMERIC; units and separators
   * allowed) or as dates (for DATETIME; a number may also be read from a date, as its year).
   */
  static boolean readsAs(List<String> values, TypeFamily expected) {
    List<String> present = values.stream().filter(v -> v != null && !v.isBlank()).toList();
    if (present.isEmpty()) {
      return false;
    }
    long reading = present.stream().filter(v -> (expected == TypeFamily.NUMERIC && Cleaners.parseNumber(v) != null)
        || Cleaners.isoDate(v) != null).count();
    return 2 * reading >= present.size();
  }

  /** Whether a column's values are numbers: typed so, or text of plain, formatted or unit-bearing numbers. */
  static boolean holdsNumbers(Optional<ColumnProfile> column) {
    return column.map(c -> c.typeFamily() == TypeFamily.NUMERIC).orElse(false) || holdsNumbersWithUnits(column);
  }

  /**
   * Whether a column a cleaned CTE reads is still text of numbers: the CTE cleaned its text (control characters,
   * whitespace) without typing it with {@code clean_number} or {@code clean_decimal}. Read as it is, it would sort
   * and compare as text ('85868' after '3878123').
   */
  static boolean numbersLeftAsText(Evidence.CleanedTable cleaned, String column, Optional<ColumnProfile> profile) {
    if (!holdsNumbers(profile) && !cleanedToNumbers(cleaned, column)) {
      return false;
    }
    // The CTE writes the column quoted or not (FNRT_ARCH_SYNY_ID, "genomic start"), possibly inside clean_text(...).
    java.util.regex.Pattern typed = java.util.regex.Pattern.compile("clean_(?:number|decimal)\\((?:\\w+\\()*\"?"
        + java.util.regex.Pattern.quote(column) + "\"?[),]", java.util.regex.Pattern.CASE_INSENSITIVE);
    return !typed.matcher(cleaned.definition()).find();
  }

  /**
   * Whether a cleaned column's values are numbers once cleaned: every value of the CTE's preview, three or more,
   * reads as a number without a leading zero (an identifier such as '0042' stays text). The profile of the raw column
   * may say text where noise ('<b>12</b>', '7\u200B') spoils more than one value in ten.
   */
  static boolean cleanedToNumbers(Evidence.CleanedTable cleaned, String column) {
    if (cleaned.preview() == null) {
      return false;
    }
    Optional<Integer> index = cleaned.preview().columnIndex(cleaned.cleanedColumns().getOrDefault(column, column));
    if (index.isEmpty()) {
      return false;
    }
    List<String> values = cleaned.preview().columnValues(index.get()).stream().filter(java.util.Objects::nonNull)
        .map(String::valueOf).map(String::strip).filter(v -> !v.isEmpty()).toList();
    return values.size() >= 3 && values.stream().allMatch(v -> !v.matches("0\\d.*") && Cleaners.parseNumber(v) != null);
  }

  /** The lake columns earlier candidates' type errors refuted for assumed columns ({@link TypeRefutations}). */
  List<TypeRefutations.Refutation> refutations() {
    if (refutations == null) {
      List<TypeRefutations.Refutation> out = new ArrayList<>();
      state.history().forEach(c -> out.addAll(TypeRefutations.of(c, lake)));
      refutations = List.copyOf(out);
    }
    return refutations;
  }

  private @Nullable List<TypeRefutations.Refutation> refutations;

  /** Why a lake column was refuted for an assumed column, if a candidate's type error did. */
  Optional<TypeRefutations.Refutation> refuted(String assumedColumn, String table, String lakeColumn) {
    return refutations().stream().filter(r -> r.assumedColumn().equalsIgnoreCase(assumedColumn)
        && r.lakeTable().equals(table) && r.lakeColumn().equals(lakeColumn)).findFirst();
  }

  /** A table's entity-name column: the first unique text column (WikiDBs: {@code label}). */
  @Nullable String entityColumn(String table) {
    return EntityNames.entityColumn(lake.profile(table));
  }

  /** The best join path between two lake tables from the scratchpad's join previews (either direction). */
  Optional<Evidence.JoinPath> joinPath(String from, String to) {
    Evidence.JoinPath best = null;
    for (Evidence.JoinPath p : pad.payloads(Scratchpad.Section.JOINS, Evidence.JoinPath.class)) {
      Evidence.JoinPath oriented = null;
      if (p.from().equals(from) && p.to().equals(to)) {
        oriented = p;
      } else if (p.from().equals(to) && p.to().equals(from)) {
        oriented = reversed(p);
      }
      if (oriented != null && (best == null || preference(oriented) < preference(best))) {
        best = oriented;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * The join path from an assumed table's lake table to another that can bring one of its rows' attributes: one
   * hop that matches at most about one row per key (a part of the same entity split off by columns, a lookup, the
   * row a key points at). A hop matching many rows per key (a supplier's key equal to customers' nation keys)
   * would repeat each row of the assumed table once per match. A part of the table split off by columns is joined
   * even before FIND_JOIN_PATH brought the path ({@link #partJoin}).
   */
  Optional<Evidence.JoinPath> attributeJoinPath(String from, String to) {
    Optional<Evidence.JoinPath> found = joinPath(from, to)
        .filter(p -> p.steps().size() == 1 && !(p.steps().get(0).fanOut() > MAX_ATTRIBUTE_FAN_OUT));
    return found.isPresent() ? found : partJoin(from, to);
  }

  /**
   * The join of a table to one of its parts split off by columns, as the join graph holds it ({@link #splitParts}:
   * one to one on keys holding the same values), where the scratchpad holds no path yet: putting a row back together
   * needs no search.
   */
  private Optional<Evidence.JoinPath> partJoin(String table, String part) {
    return splitParts(table).stream().filter(s -> s.rightTable().equals(part)).findFirst()
        .map(s -> new Evidence.JoinPath(table, part, List.of(s), s.score(), 1, null));
  }

  /**
   * Rows a hop may match per key on average and still read as one row per key: exact for clean keys, with room
   * for the duplicates noise adds; a key repeated in another entity's rows matches several.
   */
  static final double MAX_ATTRIBUTE_FAN_OUT = 1.5;

  /**
   * Lower is better: fewer hops first (each hop is a chance to be wrong, thesis §8), then paths keyed on text
   * rather than numbers (equal populations are a coincidence, equal names a reference), then the join graph's
   * rank. A hop to a part of the same table split off by columns ({@link #splitParts}) costs less than a hop to
   * another entity, whatever its key's type: it only puts the row back together. A numeric key counts as a
   * reference where both sides name it alike and exactly one side is unique (an order's {@code custkey} pointing at
   * a customer's), the shape of a foreign key rather than of a coincidence.
   */
  private double preference(Evidence.JoinPath p) {
    double cost = 0;
    for (Evidence.JoinStep s : p.steps()) {
      if (sameEntity(s.leftTable(), s.rightTable())) {
        cost += OWN_PART_HOP;
        continue;
      }
      cost += HOP;
      boolean numeric = family(s.leftTable(), s.leftColumn()) == TypeFamily.NUMERIC
          || family(s.rightTable(), s.rightColumn()) == TypeFamily.NUMERIC;
      if (numeric && !namedReference(s)) {
        cost += NUMERIC_KEY;
      }
    }
    return cost + p.rank();
  }

  private static final double HOP = 10;
  private static final double OWN_PART_HOP = 3;
  private static final double NUMERIC_KEY = 5;

  /**
   * Whether a hop reads as a foreign key by its names and keys: both columns named alike once their tables'
   * prefixes are dropped ({@code o_custkey} and {@code c_custkey}, {@code ORDR_CUSTKEY} and {@code CUSTKEY}), and
   * exactly one of them unique.
   */
  private boolean namedReference(Evidence.JoinStep s) {
    String left = Names.normalize(ColumnPrefixes.withoutTablePrefix(s.leftColumn(), s.leftTable()));
    String right = Names.normalize(ColumnPrefixes.withoutTablePrefix(s.rightColumn(), s.rightTable()));
    boolean alike = !left.isEmpty() && !right.isEmpty()
        && (left.equals(right) || left.endsWith(" " + right) || right.endsWith(" " + left));
    return alike && uniqueKey(s.leftTable(), s.leftColumn()) != uniqueKey(s.rightTable(), s.rightColumn());
  }

  /**
   * How far two numeric key columns cover the same values as a reference and its key do, in (0, 1]; empty unless both
   * columns hold numbers. Small surrogate keys are contained in any long counter by chance, and then fill only its
   * start: the narrower range beginning at the wider one's start (no farther from it than its own width) scores its
   * width over the wider one's ({@code (max - min + 1)} each, over the parts of a table split by rows): the store keys
   * 1..12 among the item keys 1..18000, a thousand customers' keys among 1.9 million demographics. A foreign key spreads
   * over the whole range of the key it references however few its values are (the thousand customers'
   * demographics), or is a window inside it away from its start (a sale's dates among the calendar's): 1. Unlike the
   * Jaccard similarity, it does not punish a reference to a huge table. Two range queries per column, memoised by the
   * lake.
   */
  OptionalDouble keySpread(String tableA, String columnA, String tableB, String columnB) {
    Optional<double[]> a = partsRange(tableA, columnA);
    Optional<double[]> b = partsRange(tableB, columnB);
    if (a.isEmpty() || b.isEmpty()) {
      return OptionalDouble.empty();
    }
    double wa = a.get()[1] - a.get()[0] + 1;
    double wb = b.get()[1] - b.get()[0] + 1;
    double[] narrow = wa <= wb ? a.get() : b.get();
    double[] wide = narrow == a.get() ? b.get() : a.get();
    double narrowWidth = Math.min(wa, wb);
    if (narrow[0] - wide[0] > narrowWidth) {
      return OptionalDouble.of(1);
    }
    return OptionalDouble.of(narrowWidth / Math.max(wa, wb));
  }

  /**
   * How far two key columns cover each other's values as a reference and its key do: for numbers, the larger of
   * their {@link #keySpread} and their Jaccard similarity as the join graph measured it; empty for keys that are not
   * both numbers (text is rarely contained in another key by chance).
   */
  OptionalDouble keyCovering(String tableA, String columnA, String tableB, String columnB) {
    OptionalDouble spread = keySpread(tableA, columnA, tableB, columnB);
    return spread.isEmpty() ? spread
        : OptionalDouble.of(Math.max(spread.getAsDouble(), lake.keyOverlap(tableA, columnA, tableB, columnB)));
  }

  /** A numeric column's [min, max] over the table's parts split by rows; empty unless every part holds numbers. */
  private Optional<double[]> partsRange(String table, String column) {
    if (!holdsNumbers(lake.profile(table).column(column))) {
      return Optional.empty();
    }
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (String part : rowParts(table)) {
      Optional<double[]> r = lake.numericRange(part, column);
      if (r.isEmpty()) {
        return Optional.empty();
      }
      min = Math.min(min, r.get()[0]);
      max = Math.max(max, r.get()[1]);
    }
    return Optional.of(new double[] {min, max});
  }

  TypeFamily family(String table, String column) {
    return lake.profile(table).column(column).map(ColumnProfile::typeFamily).orElse(TypeFamily.STRING);
  }

  /**
   * The parts of a lake table split off by columns: join-graph neighbours joined one to one whose name extends the
   * table's, or the table's name extends their own ({@link #namedAsPart}), holding the same rows ({@link #sameRows}).
   */
  List<Evidence.JoinStep> splitParts(String table) {
    // Asked per table choice and per join of every plan part: profiles and key overlaps read once per table.
    return splitParts.computeIfAbsent(table, x -> lake.joinNeighbours(x).stream()
        .filter(n -> (namedAsPart(x, n.rightTable()) || namedAsPart(n.rightTable(), x)) && sameRows(x, n))
        .toList());
  }

  private final Map<String, List<Evidence.JoinStep>> splitParts = new HashMap<>();

  /** A lake table followed by its parts split off by columns ({@link #splitParts}): where its columns may be read. */
  List<String> tableAndParts(String table) {
    List<String> out = new ArrayList<>();
    out.add(table);
    splitParts(table).forEach(p -> out.add(p.rightTable()));
    return out;
  }

  /**
   * Whether a join-graph neighbour holds the same rows as the table, one to one: both keys unique and holding the
   * same key values ({@link LakeTools#keyOverlap}, Jaccard at least {@value #SAME_KEYS}). Unique keys alone are not
   * enough: the surrogate keys 1..n of two unrelated tables are unique and overlap.
   */
  boolean sameRows(String table, Evidence.JoinStep n) {
    return uniqueKey(table, n.leftColumn()) && uniqueKey(n.rightTable(), n.rightColumn())
        && lake.keyOverlap(table, n.leftColumn(), n.rightTable(), n.rightColumn()) >= SAME_KEYS;
  }

  /**
   * Whether a table is named as a part of another: its name is the other's followed by more words
   * ({@code tbl_orders_details} of {@code tbl_orders}, {@code zo_prts_atrb} of {@code zo_prts}). Entities of their own
   * that hold one row per row of the table ({@code capital_of} beside {@code region_of_new_zealand}, one capital per
   * region) are named otherwise, and so is a relation named by the entity and a function word ({@code capital_of}
   * beside {@code capital}).
   */
  static boolean namedAsPart(String table, String part) {
    String t = Names.normalize(table);
    String p = Names.normalize(part);
    if (t.isEmpty() || !p.startsWith(t + " ")) {
      return false;
    }
    // A part adds a noun (details, atrb, extra); "capital of" beside "capital" adds only a preposition: a relation.
    return Arrays.stream(p.substring(t.length() + 1).split(" "))
        .anyMatch(w -> !EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(w));
  }

  /** Whether a column's values are unique (a key of its table): at least {@value #UNIQUE_KEY} distinct per row. */
  private boolean uniqueKey(String table, String column) {
    return lake.profile(table).column(column).map(c -> c.uniqueness() >= UNIQUE_KEY).orElse(false);
  }

  /**
   * Whether a lake column plays a part that a descriptive attribute (a comment, a remark, a status) does not: its name
   * promises an identifier or a name, or it holds numbers that identify the table's rows (unique) or refer to another
   * table's key (a join-graph step onto a unique column of another entity). The supplier's {@code SPKY},
   * {@code NTNKY} and {@code NAME} are the supplier's key, nation and name whatever the query asks; its comment is
   * among the other columns.
   */
  boolean playsRole(String table, String column) {
    String bare = lake.bareColumnName(table, column);
    if (ColumnFeatures.promisesIdentifier(bare) || ColumnFeatures.promisesName(bare)) {
      return true;
    }
    if (family(table, column) != TypeFamily.NUMERIC) {
      return false;
    }
    return uniqueKey(table, column) || lake.joinNeighbours(table).stream().anyMatch(s -> s.leftColumn().equals(column)
        && !sameEntity(table, s.rightTable()) && uniqueKey(s.rightTable(), s.rightColumn()));
  }

  /** Whether an assumed column names an attribute: it promises no identifier and no name. */
  static boolean descriptive(String assumedTable, String column) {
    String bare = ColumnPrefixes.withoutTablePrefix(column, assumedTable);
    return !ColumnFeatures.promisesIdentifier(bare) && !ColumnFeatures.promisesName(bare)
        && !EntityNames.isNameLike(column, assumedTable) && !EntityNames.isNameLike(bare, assumedTable);
  }

  /** Whether an assumed column is a descriptive one whose name promises free text (a comment, a description). */
  static boolean promisesProse(String assumedTable, String column) {
    return descriptive(assumedTable, column)
        && ColumnFeatures.promisesProse(ColumnPrefixes.withoutTablePrefix(column, assumedTable));
  }

  /**
   * How far a lake column holds free text, in [0, 1]: its values' uniqueness for a text column (a comment is nearly
   * unique per row; a type or a container repeats a few values), 0 for any other.
   */
  double proseFit(String table, String column) {
    return family(table, column) != TypeFamily.STRING ? 0
        : lake.profile(table).column(column).map(ColumnProfile::uniqueness).orElse(0.0);
  }

  /** Uniqueness at which a column is a key: one in twenty values may repeat (noise, a few duplicated rows). */
  static final double UNIQUE_KEY = 0.95;

  /** Jaccard of two keys' values at which two tables hold the same rows (noise alters a few keys). */
  static final double SAME_KEYS = 0.8;

  /** Whether a lake table is the table itself or one of its parts split off by columns ({@link #splitParts}). */
  boolean ownOrPart(String table, String candidate) {
    return table.equals(candidate) || splitParts(table).stream().anyMatch(n -> n.rightTable().equals(candidate));
  }

  /** Whether two lake tables hold one entity's rows: the same table, or one a part of the other. */
  boolean sameEntity(String a, String b) {
    return ownOrPart(a, b) || ownOrPart(b, a);
  }

  /**
   * The column of a lake table named as an assumed column, with or without the assumed table's prefix
   * ({@code ss_sold_date_sk} and {@code SOLD_DATE_SK}).
   */
  Optional<String> columnNamedAs(String assumedTable, String column, String lakeTable) {
    List<String> names = List.of(Names.normalize(ColumnPrefixes.withoutTablePrefix(column, assumedTable)),
        Names.normalize(column));
    return lake.table(lakeTable).columns().stream().map(c -> c.name())
        .filter(c -> names.contains(Names.normalize(c))).findFirst();
  }
}
