package dev.lakerewrite.noiseudf;

import dev.lakerewrite.sql.DidYouMean;
import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Noise detection over column samples (thesis §6.1). Conservative by construction: a finding needs concrete
 * evidence (a repair that changes the value, two spellings of one value, several formats in one column) and
 * carries counts and examples; typed columns are never flagged, and ID-like text columns (leading zeros, bare
 * digits) are not taken for numbers.
 *
 * <p>Per column it looks for {@link NoiseKind#ENCODING}, {@link NoiseKind#MARKUP}, {@link NoiseKind#WHITESPACE},
 * {@link NoiseKind#CASING} and {@link NoiseKind#DIACRITICS} variants, a {@link NoiseKind#BOOLEAN} zoo, several
 * {@link NoiseKind#DATE_FORMAT}s and {@link NoiseKind#NUMBER_FORMAT}s. Across columns ({@link #detectVariants})
 * it finds the same value spelled with and without diacritics or in another case, as whole values and as words
 * ('Whangārei' in one column, 'Whangarei District' in another). Cost: linear in the number of distinct values
 * sampled (at most {@link Builder#maxDistinctValues} per column).
 */
public final class NoiseDetector {

  private final int maxDistinctValues;
  private final int maxExamples;
  private final double typedShare;

  private NoiseDetector(Builder b) {
    this.maxDistinctValues = b.maxDistinctValues;
    this.maxExamples = b.maxExamples;
    this.typedShare = b.typedShare;
  }

  /** A detector with default settings. */
  public static NoiseDetector create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builder; all settings have defaults. */
  public static final class Builder {
    private int maxDistinctValues = 5000;
    private int maxExamples = 5;
    private double typedShare = 0.9;

    private Builder() {}

    /** Distinct values read per column (default 5000, most frequent first). */
    public Builder maxDistinctValues(int n) {
      this.maxDistinctValues = Args.atLeast("maxDistinctValues", n, 1);
      return this;
    }

    /** Examples kept per finding (default 5). */
    public Builder maxExamples(int n) {
      this.maxExamples = Args.atLeast("maxExamples", n, 0);
      return this;
    }

    /**
     * Share of non-null rows that must parse as booleans, dates or numbers before a column counts as one
     * (default 0.9).
     */
    public Builder typedShare(double share) {
      if (!(share > 0 && share <= 1)) {
        throw new IllegalArgumentException("typedShare must be in (0, 1], got " + share);
      }
      this.typedShare = share;
      return this;
    }

    public NoiseDetector build() {
      return new NoiseDetector(this);
    }
  }

  // ---------------------------------------------------------------------------------------------------------

  /** Findings for every text column of {@code table} (per column; see {@link #detectVariants} for across). */
  public List<NoiseFinding> detect(Connection connection, String table) throws SQLException {
    return detect(connection, table, List.of());
  }

  /**
   * Findings for the given columns of {@code table} (all text columns if {@code columns} is empty), column by
   * column. Spelling variants across columns are a separate, opt-in question ({@link #detectVariants}): in
   * multilingual lakes they are often legitimate ('Canada' / 'Canadá' in a Spanish ID column).
   *
   * @throws IllegalArgumentException for an unknown table or column, naming the closest ones
   */
  public List<NoiseFinding> detect(Connection connection, String table, List<String> columns) throws SQLException {
    List<ColumnSample> samples = samples(connection, table, columns, maxDistinctValues);
    List<NoiseFinding> out = new ArrayList<>();
    for (ColumnSample s : samples) {
      out.addAll(detect(s));
    }
    return out;
  }

  /** Reads samples of the given columns (all text columns when empty), with precise errors for bad names. */
  static List<ColumnSample> samples(Connection connection, String table, List<String> columns, int maxDistinct)
      throws SQLException {
    Objects.requireNonNull(connection, "connection");
    Objects.requireNonNull(table, "table");
    List<String[]> described = Jdbc.describeTable(connection, table);
    if (described.isEmpty()) {
      throw new IllegalArgumentException("no table '" + table + "'" + DidYouMean.hint(table, Jdbc.tableNames(connection)));
    }
    List<String> names = described.stream().map(d -> d[0]).toList();
    long rows = Long.parseLong(Jdbc.query(connection, "SELECT count(*) FROM " + Sql.quoted(table)).get(0).get(0));
    List<ColumnSample> out = new ArrayList<>();
    if (columns.isEmpty()) {
      for (String[] d : described) {
        if (d[1].toUpperCase(Locale.ROOT).startsWith("VARCHAR")) {
          out.add(ColumnSample.read(connection, table, d[0], d[1], rows, maxDistinct));
        }
      }
    } else {
      for (String c : columns) {
        if (!names.contains(c)) {
          throw new IllegalArgumentException("no column '" + c + "' in table '" + table + "'"
              + DidYouMean.hint(c, names));
        }
        out.add(ColumnSample.read(connection, table, c, described.get(names.indexOf(c))[1], rows, maxDistinct));
      }
    }
    return out;
  }

  /** Findings for one column. Non-text columns yield none. */
  public List<NoiseFinding> detect(ColumnSample sample) {
    Objects.requireNonNull(sample, "sample");
    List<NoiseFinding> out = new ArrayList<>();
    if (!sample.isText() || sample.values().isEmpty()) {
      return out;
    }
    repairFinding(sample, NoiseKind.ENCODING, Cleaners::fixMojibake, "values are UTF-8 read as Windows-1252/Latin-1")
        .ifPresent(out::add);
    encodingLoss(sample).ifPresent(out::add);
    repairFinding(sample, NoiseKind.MARKUP, Cleaners::stripMarkup, "values hold control characters or markup")
        .ifPresent(out::add);
    if (strayWhitespace(sample)) {
      repairFinding(sample, NoiseKind.WHITESPACE, v -> Cleaners.collapseWhitespace(v.replace('\t', ' ')),
          "values have leading, trailing, doubled or non-breaking whitespace").ifPresent(out::add);
    }
    variantsWithinColumn(sample, out);
    shouting(sample).ifPresent(out::add);
    booleans(sample).ifPresent(out::add);
    dates(sample).ifPresent(out::add);
    numbers(sample).ifPresent(out::add);
    return out;
  }

  /**
   * Whether a column's whitespace is noise rather than part of its values: some value has whitespace no writer
   * types on purpose (a tab, a no-break or other special space, two spaces in a row), or a value with a leading or
   * trailing space is another value of the column once trimmed (' Hamilton' beside 'Hamilton'), for at least half
   * of the values with such a space. One plain space at either end of otherwise distinct values is how cut-off free
   * text looks (TPC-H's comments: a quarter of them), and trimming it would change the values a query returns; among
   * thousands of short fragments a few ('deposits', ' deposits') meet by chance.
   */
  static boolean strayWhitespace(ColumnSample s) {
    Set<String> values = new HashSet<>();
    for (ValueCount v : s.values()) {
      values.add(v.value());
    }
    int padded = 0;
    int paddedCopies = 0;
    for (ValueCount v : s.values()) {
      String value = v.value();
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (Cleaners.isSpace(c) && (c != ' ' || i + 1 < value.length() && Cleaners.isSpace(value.charAt(i + 1)))) {
          return true;
        }
      }
      String trimmed = value.strip();
      if (!trimmed.equals(value)) {
        padded++;
        paddedCopies += values.contains(trimmed) ? 1 : 0;
      }
    }
    return paddedCopies > 0 && 2 * paddedCopies >= padded;
  }

  private java.util.Optional<NoiseFinding> repairFinding(
      ColumnSample s, NoiseKind kind, Function<String, @Nullable String> repair, String what) {
    long rows = 0;
    long values = 0;
    List<String> examples = new ArrayList<>();
    for (ValueCount v : s.values()) {
      String fixed = repair.apply(v.value());
      if (!fixed.equals(v.value())) {
        rows += v.count();
        values++;
        if (examples.size() < maxExamples) {
          examples.add(show(v.value()) + " → " + show(fixed));
        }
      }
    }
    if (values == 0) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(new NoiseFinding(s.table(), s.column(), kind, rows, values, s.nonNullRows(), examples,
        rows + " of " + s.nonNullRows() + " rows: " + what, Map.of()));
  }

  private java.util.Optional<NoiseFinding> encodingLoss(ColumnSample s) {
    long rows = 0;
    long values = 0;
    List<String> examples = new ArrayList<>();
    for (ValueCount v : s.values()) {
      if (v.value().indexOf('\uFFFD') >= 0) {
        rows += v.count();
        values++;
        if (examples.size() < maxExamples) {
          examples.add(show(v.value()));
        }
      }
    }
    if (values == 0) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(new NoiseFinding(s.table(), s.column(), NoiseKind.ENCODING, rows, values, s.nonNullRows(),
        examples, rows + " of " + s.nonNullRows() + " rows contain U+FFFD replacement characters (bytes lost, not repairable)",
        Map.of("repairable", "false")));
  }

  /**
   * Distinct values that differ only by case or diacritics (after formatting repair) within the column. One-letter
   * values count only where the column writes them in one case ('O', 'F', 'P' with a few 'o' and 'f'): elsewhere 'a'
   * and 'A' may be two codes.
   */
  private void variantsWithinColumn(ColumnSample s, List<NoiseFinding> out) {
    Map<String, List<ValueCount>> byKey = new LinkedHashMap<>();
    boolean letterCodesInOneCase = oneCaseForSingleLetters(s);
    for (ValueCount v : s.values()) {
      String key = Cleaners.textKey(v.value());
      if (key.length() >= 2 || key.length() == 1 && letterCodesInOneCase) {
        byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
      }
    }
    long caseRows = 0;
    long caseValues = 0;
    long accentRows = 0;
    long accentValues = 0;
    List<String> caseExamples = new ArrayList<>();
    List<String> accentExamples = new ArrayList<>();
    for (List<ValueCount> group : byKey.values()) {
      Map<String, ValueCount> spellings = new LinkedHashMap<>();
      for (ValueCount v : group) {
        spellings.merge(Cleaners.cleanText(v.value()), v, (a, b) -> new ValueCount(a.value(), a.count() + b.count()));
      }
      if (spellings.size() < 2) {
        continue;
      }
      ValueCount major = spellings.values().stream().max(Comparator.comparingLong(ValueCount::count)).orElseThrow();
      String majorClean = Cleaners.cleanText(major.value());
      for (Map.Entry<String, ValueCount> e : spellings.entrySet()) {
        if (e.getKey().equals(majorClean)) {
          continue;
        }
        boolean accents = !Cleaners.casefold(e.getKey()).equals(Cleaners.casefold(majorClean));
        String example = show(e.getValue().value()) + " ~ " + show(major.value());
        if (accents) {
          accentRows += e.getValue().count();
          accentValues++;
          if (accentExamples.size() < maxExamples) {
            accentExamples.add(example);
          }
        } else {
          caseRows += e.getValue().count();
          caseValues++;
          if (caseExamples.size() < maxExamples) {
            caseExamples.add(example);
          }
        }
      }
    }
    if (accentValues > 0) {
      out.add(new NoiseFinding(s.table(), s.column(), NoiseKind.DIACRITICS, accentRows, accentValues, s.nonNullRows(),
          accentExamples, accentValues + " values are diacritic variants of other values in the column (" + accentRows
              + " rows)", Map.of("scope", "column")));
    }
    if (caseValues > 0) {
      out.add(new NoiseFinding(s.table(), s.column(), NoiseKind.CASING, caseRows, caseValues, s.nonNullRows(),
          caseExamples, caseValues + " values are case variants of other values in the column (" + caseRows + " rows)",
          Map.of("scope", "column")));
    }
  }

  /**
   * Whether the column's one-letter values have one case: each letter's most frequent spelling is upper case, or
   * each is lower case, and some letter is also written in the other case by fewer rows.
   */
  private static boolean oneCaseForSingleLetters(ColumnSample s) {
    Map<String, long[]> byLetter = new LinkedHashMap<>(); // key -> {upper rows, lower rows}
    for (ValueCount v : s.values()) {
      String text = Cleaners.cleanText(v.value());
      if (text.length() == 1 && Character.isLetter(text.charAt(0))) {
        long[] rows = byLetter.computeIfAbsent(Cleaners.textKey(text), k -> new long[2]);
        rows[Character.isUpperCase(text.charAt(0)) ? 0 : 1] += v.count();
      }
    }
    boolean upper = byLetter.values().stream().allMatch(r -> r[0] > r[1]);
    boolean lower = byLetter.values().stream().allMatch(r -> r[1] > r[0]);
    boolean mixed = byLetter.values().stream().anyMatch(r -> r[0] > 0 && r[1] > 0);
    return (upper || lower) && mixed;
  }

  /** All-caps values (five letters or more) in a column that is otherwise mixed case. */
  private java.util.Optional<NoiseFinding> shouting(ColumnSample s) {
    long lettered = 0;
    long mixed = 0;
    long shoutRows = 0;
    long shoutValues = 0;
    List<String> examples = new ArrayList<>();
    for (ValueCount v : s.values()) {
      String text = v.value();
      int letters = 0;
      int upper = 0;
      int lower = 0;
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (Character.isLetter(c)) {
          letters++;
          if (Character.isUpperCase(c)) {
            upper++;
          } else if (Character.isLowerCase(c)) {
            lower++;
          }
        }
      }
      if (letters == 0) {
        continue;
      }
      lettered += v.count();
      if (upper > 0 && lower > 0) {
        mixed += v.count();
      } else if (lower == 0 && upper >= 5 && text.indexOf(' ') > 0) {
        shoutRows += v.count();
        shoutValues++;
        if (examples.size() < maxExamples) {
          examples.add(show(text));
        }
      }
    }
    if (shoutValues == 0 || mixed < 0.8 * lettered) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(new NoiseFinding(s.table(), s.column(), NoiseKind.CASING, shoutRows, shoutValues,
        s.nonNullRows(), examples,
        shoutRows + " rows are in capitals while " + mixed + " of " + lettered + " lettered rows are mixed case",
        Map.of("scope", "style")));
  }

  private java.util.Optional<NoiseFinding> booleans(ColumnSample s) {
    long parsed = 0;
    boolean nonDigit = false;
    Map<String, Long> spellings = new TreeMap<>();
    for (ValueCount v : s.values()) {
      if (Cleaners.parseBoolean(v.value()) != null) {
        parsed += v.count();
        // Spellings as formatting repair leaves them: '0', ' 0' and '<b>0</b>' are one spelling with markup noise,
        // not a zoo (a column of TPC-H's shippriority, all 0, is no boolean).
        String spelling = Cleaners.cleanText(v.value());
        spellings.merge(spelling, v.count(), Long::sum);
        nonDigit |= !spelling.matches("[01]");
      }
    }
    if (parsed == 0 || parsed < typedShare * s.nonNullRows() || spellings.size() < 3 || !nonDigit) {
      return java.util.Optional.empty();
    }
    long minority = parsed - spellings.values().stream().sorted(Comparator.reverseOrder()).limit(2).mapToLong(Long::longValue).sum();
    List<String> examples = spellings.entrySet().stream().limit(maxExamples)
        .map(e -> show(e.getKey()) + " ×" + e.getValue() + " → " + Cleaners.parseBoolean(e.getKey())).toList();
    return java.util.Optional.of(new NoiseFinding(s.table(), s.column(), NoiseKind.BOOLEAN, minority,
        spellings.size() - 2L, s.nonNullRows(), examples,
        spellings.size() + " spellings of true/false in " + parsed + " of " + s.nonNullRows() + " rows", Map.of()));
  }

  private static final Pattern WIKIDATA = Pattern.compile("[+-]\\d{4,}-\\d{2}-\\d{2}T.*", Pattern.CASE_INSENSITIVE);
  private static final Pattern ISO_DATE = Pattern.compile("\\d{4}-\\d{1,2}-\\d{1,2}([T ].*)?", Pattern.CASE_INSENSITIVE);
  private static final Pattern NUMERIC_DMY_OR_MDY = Pattern.compile("(\\d{1,2})[/-](\\d{1,2})[/-]\\d{4}");

  /** The format family of a date value (null when it is not a date). */
  static @Nullable String dateFormat(String value) {
    String s = Cleaners.cleanText(value);
    if (Cleaners.isoDate(s) == null) {
      return null;
    }
    if (WIKIDATA.matcher(s).matches()) {
      return "Wikidata timestamp";
    }
    if (ISO_DATE.matcher(s).matches()) {
      return "ISO";
    }
    if (s.matches("\\d{1,2}\\.\\d{1,2}\\.\\d{4}")) {
      return "DD.MM.YYYY";
    }
    if (NUMERIC_DMY_OR_MDY.matcher(s).matches()) {
      return "DD/MM/YYYY or MM/DD/YYYY";
    }
    if (s.matches("\\d{4}[/.]\\d{1,2}[/.]\\d{1,2}")) {
      return "YYYY/MM/DD";
    }
    if (s.matches("[+]?\\d{4}")) {
      return "year";
    }
    if (s.matches("\\d{4}-\\d{1,2}")) {
      return "YYYY-MM";
    }
    return "month name";
  }

  private java.util.Optional<NoiseFinding> dates(ColumnSample s) {
    Map<String, Long> formats = new TreeMap<>();
    Map<String, String> formatExample = new TreeMap<>();
    long parsed = 0;
    boolean dayFirstEvidence = false;
    boolean monthFirstEvidence = false;
    for (ValueCount v : s.values()) {
      String f = dateFormat(v.value());
      if (f == null) {
        continue;
      }
      parsed += v.count();
      formats.merge(f, v.count(), Long::sum);
      formatExample.putIfAbsent(f, v.value());
      java.util.regex.Matcher m = NUMERIC_DMY_OR_MDY.matcher(Cleaners.cleanText(v.value()));
      if (m.matches()) {
        dayFirstEvidence |= Integer.parseInt(m.group(1)) > 12;
        monthFirstEvidence |= Integer.parseInt(m.group(2)) > 12;
      }
    }
    boolean onlyYears = formats.keySet().stream().allMatch(f -> f.equals("year"));
    if (parsed == 0 || parsed < typedShare * s.nonNullRows() || formats.size() < 2 || onlyYears) {
      return java.util.Optional.empty();
    }
    String major = formats.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    long minority = parsed - formats.get(major);
    Map<String, String> parameters = new LinkedHashMap<>();
    if (dayFirstEvidence && monthFirstEvidence) {
      parameters.put("date_order", "ambiguous");
    } else {
      parameters.put("date_order", monthFirstEvidence ? "MDY" : "DMY");
    }
    Cleaners.DateOrder order =
        monthFirstEvidence && !dayFirstEvidence ? Cleaners.DateOrder.MDY : Cleaners.DateOrder.DMY;
    List<String> examples = formats.keySet().stream().limit(maxExamples)
        .map(f -> f + ": " + show(formatExample.get(f)) + " → " + Cleaners.isoDate(formatExample.get(f), order))
        .toList();
    StringBuilder evidence = new StringBuilder(formats.size() + " date formats in " + parsed + " of "
        + s.nonNullRows() + " rows (");
    formats.forEach((f, n) -> evidence.append(f).append(" ×").append(n).append(", "));
    evidence.setLength(evidence.length() - 2);
    evidence.append(')');
    if ("ambiguous".equals(parameters.get("date_order"))) {
      evidence.append("; numeric dates are day-first in some rows and month-first in others");
    }
    return java.util.Optional.of(new NoiseFinding(s.table(), s.column(), NoiseKind.DATE_FORMAT, minority,
        formats.size() - 1L, s.nonNullRows(), examples, evidence.toString(), parameters));
  }

  private static final Pattern LEADING_ZERO = Pattern.compile("[+-]?0\\d.*");
  private static final Pattern PLAIN_INTEGER = Pattern.compile("-?\\d+");
  private static final Pattern PLAIN_DECIMAL = Pattern.compile("-?\\d+\\.\\d+");

  private java.util.Optional<NoiseFinding> numbers(ColumnSample s) {
    long parsed = 0;
    long formattedRows = 0;
    long formattedValues = 0;
    boolean leadingZeros = false;
    boolean commaDecimal = false;
    boolean pointDecimal = false;
    Map<String, Long> styles = new TreeMap<>();
    List<String> examples = new ArrayList<>();
    for (ValueCount v : s.values()) {
      String text = Cleaners.cleanText(v.value());
      if (Cleaners.parseNumber(text) == null) {
        continue;
      }
      parsed += v.count();
      leadingZeros |= LEADING_ZERO.matcher(text).matches();
      String style = numberStyle(text);
      if (style == null) {
        continue; // a plain number: not evidence of anything
      }
      styles.merge(style, v.count(), Long::sum);
      formattedRows += v.count();
      formattedValues++;
      if (examples.size() < maxExamples) {
        examples.add(show(v.value()) + " → " + plain(Cleaners.parseNumber(text)));
      }
      String number = Cleaners.withoutUnit(text); // '214,092 units': the separators of 214,092
      int lastDot = number.lastIndexOf('.');
      int lastComma = number.lastIndexOf(',');
      if (lastComma > lastDot && (lastDot >= 0 || number.length() - lastComma - 1 != 3 || number.contains(" "))) {
        commaDecimal = true;
      }
      if (lastDot > lastComma && (lastComma >= 0 || number.length() - lastDot - 1 != 3)) {
        pointDecimal = true;
      }
    }
    for (ValueCount v : s.values()) {
      String text = Cleaners.cleanText(v.value());
      if (PLAIN_DECIMAL.matcher(text).matches() && text.length() - text.indexOf('.') - 1 != 3) {
        pointDecimal = true;
      }
    }
    if (formattedValues == 0 || parsed < typedShare * s.nonNullRows() || leadingZeros) {
      return java.util.Optional.empty();
    }
    Map<String, String> parameters = new LinkedHashMap<>();
    if (commaDecimal && !pointDecimal) {
      parameters.put("decimal_separator", ",");
    } else if (pointDecimal && !commaDecimal) {
      parameters.put("decimal_separator", ".");
    }
    StringBuilder evidence = new StringBuilder(parsed + " of " + s.nonNullRows() + " rows are numbers stored as text; "
        + formattedRows + " formatted (");
    styles.forEach((k, n) -> evidence.append(k).append(" ×").append(n).append(", "));
    evidence.setLength(evidence.length() - 2);
    evidence.append(')');
    if (commaDecimal && pointDecimal) {
      evidence.append("; both decimal commas and decimal points occur");
    }
    return java.util.Optional.of(new NoiseFinding(s.table(), s.column(), NoiseKind.NUMBER_FORMAT, formattedRows,
        formattedValues, s.nonNullRows(), examples, evidence.toString(), parameters));
  }

  /** What makes a numeric text non-plain, or null for a plain integer or decimal. */
  private static @Nullable String numberStyle(String text) {
    if (!Cleaners.withoutUnit(text).equals(text)) {
      return "unit or currency";
    }
    if (PLAIN_INTEGER.matcher(text).matches() || PLAIN_DECIMAL.matcher(text).matches()) {
      return null;
    }
    if (text.startsWith("+")) {
      String rest = text.substring(1);
      if (PLAIN_INTEGER.matcher(rest).matches() || PLAIN_DECIMAL.matcher(rest).matches()) {
        return "explicit '+' sign";
      }
    }
    if (text.matches(".*\\d[eE][+-]?\\d+")) {
      return "exponent";
    }
    if (text.matches(".*\\d[ \u00A0\u202F'’]\\d.*")) {
      return "space or apostrophe grouping";
    }
    int lastDot = text.lastIndexOf('.');
    int lastComma = text.lastIndexOf(',');
    if (lastComma > lastDot) {
      return lastDot >= 0 || text.length() - lastComma - 1 != 3 ? "decimal comma" : "comma grouping";
    }
    if (text.startsWith("\u2212")) {
      return "unicode minus";
    }
    return "point grouping";
  }

  private static String plain(@Nullable Double d) {
    if (d == null) {
      return "NULL";
    }
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf(d.longValue()) : String.valueOf(d);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Across columns

  /**
   * The same value spelled differently in different columns: whole values with one {@link Cleaners#textKey} but
   * different accents or case, and words that occur with diacritics in one column and without in another
   * ('Whangārei' / 'Whangarei District'). One finding per column holding a variant; evidence names the other
   * spelling and where it is. Use it on the columns of one table, or on samples from several tables (joins).
   */
  public List<NoiseFinding> detectVariants(List<ColumnSample> samples) {
    Objects.requireNonNull(samples, "samples");
    record Spot(ColumnSample sample, String spelling, long count) {}
    Map<String, List<Spot>> byKey = new LinkedHashMap<>();
    Map<String, Map<String, List<Spot>>> wordsByKey = new LinkedHashMap<>();
    for (ColumnSample s : samples) {
      if (!s.isText()) {
        continue;
      }
      for (ValueCount v : s.values()) {
        String clean = Cleaners.cleanText(v.value());
        String key = Cleaners.textKey(clean);
        if (key.length() >= 3 && Cleaners.parseNumber(clean) == null) {
          byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(new Spot(s, clean, v.count()));
        }
        for (String word : clean.split("[^\\p{L}\\p{M}]+")) {
          if (word.length() >= 4) {
            String wordKey = Cleaners.casefold(Cleaners.unaccent(word));
            wordsByKey.computeIfAbsent(wordKey, k -> new LinkedHashMap<>())
                .computeIfAbsent(word, k -> new ArrayList<>()).add(new Spot(s, clean, v.count()));
          }
        }
      }
    }
    // Aggregate per (column, kind): counts, examples.
    record Acc(ColumnSample sample, NoiseKind kind, long[] rows, List<String> examples, java.util.Set<String> values) {}
    Map<String, Acc> acc = new LinkedHashMap<>();
    for (List<Spot> spots : byKey.values()) {
      java.util.Set<String> spellings = new java.util.LinkedHashSet<>();
      spots.forEach(sp -> spellings.add(sp.spelling()));
      java.util.Set<String> columnsSeen = new java.util.HashSet<>();
      spots.forEach(sp -> columnsSeen.add(sp.sample().table() + "." + sp.sample().column()));
      if (spellings.size() < 2 || columnsSeen.size() < 2) {
        continue;
      }
      for (Spot a : spots) {
        for (Spot b : spots) {
          if (a.spelling().equals(b.spelling()) || sameColumn(a.sample(), b.sample())) {
            continue;
          }
          boolean accents = !Cleaners.casefold(a.spelling()).equals(Cleaners.casefold(b.spelling()));
          // Report at the plainer spelling: the one without diacritics, or the less frequent case variant.
          if (accents ? Cleaners.hasDiacritics(a.spelling()) || !Cleaners.hasDiacritics(b.spelling())
              : a.count() > b.count() || (a.count() == b.count() && a.spelling().compareTo(b.spelling()) < 0)) {
            continue;
          }
          NoiseKind kind = accents ? NoiseKind.DIACRITICS : NoiseKind.CASING;
          Acc x = acc.computeIfAbsent(a.sample().table() + "\u0000" + a.sample().column() + "\u0000" + kind,
              k -> new Acc(a.sample(), kind, new long[1], new ArrayList<>(), new java.util.LinkedHashSet<>()));
          if (x.values().add(a.spelling())) {
            x.rows()[0] += a.count();
          }
          if (x.examples().size() < maxExamples) {
            String ex = show(a.spelling()) + " here ~ " + show(b.spelling()) + " in " + b.sample().table() + "."
                + b.sample().column();
            if (!x.examples().contains(ex)) {
              x.examples().add(ex);
            }
          }
        }
      }
    }
    for (Map<String, List<Spot>> forms : wordsByKey.values()) {
      if (forms.size() < 2) {
        continue;
      }
      List<String> accented = forms.keySet().stream().filter(Cleaners::hasDiacritics).toList();
      List<String> plainForms = forms.keySet().stream().filter(w -> !Cleaners.hasDiacritics(w)).toList();
      if (accented.isEmpty() || plainForms.isEmpty()) {
        continue;
      }
      String accentedWord = accented.get(0);
      Spot where = forms.get(accentedWord).get(0);
      for (String plainWord : plainForms) {
        if (!Cleaners.casefold(plainWord).equals(Cleaners.casefold(Cleaners.unaccent(accentedWord)))) {
          continue;
        }
        for (Spot sp : forms.get(plainWord)) {
          Acc x = acc.computeIfAbsent(sp.sample().table() + "\u0000" + sp.sample().column() + "\u0000" + NoiseKind.DIACRITICS,
              k -> new Acc(sp.sample(), NoiseKind.DIACRITICS, new long[1], new ArrayList<>(), new java.util.LinkedHashSet<>()));
          if (x.values().add(sp.spelling())) {
            x.rows()[0] += sp.count();
          }
          if (x.examples().size() < maxExamples) {
            String ex = "word " + show(plainWord) + " in " + show(sp.spelling()) + " ~ " + show(accentedWord) + " in "
                + where.sample().table() + "." + where.sample().column();
            if (!x.examples().contains(ex)) {
              x.examples().add(ex);
            }
          }
        }
      }
    }
    List<NoiseFinding> out = new ArrayList<>();
    for (Acc x : acc.values()) {
      out.add(new NoiseFinding(x.sample().table(), x.sample().column(), x.kind(), x.rows()[0], x.values().size(),
          x.sample().nonNullRows(), x.examples(),
          x.values().size() + " values (" + x.rows()[0] + " rows) are spelled "
              + (x.kind() == NoiseKind.DIACRITICS ? "without the diacritics" : "in another case")
              + " used for the same value or word in another column",
          Map.of("scope", "cross-column")));
    }
    return out;
  }

  private static boolean sameColumn(ColumnSample a, ColumnSample b) {
    return a.table().equals(b.table()) && a.column().equals(b.column());
  }

  /** Shows a value with invisible characters made visible and long values shortened. */
  static String show(String value) {
    StringBuilder sb = new StringBuilder("'");
    int limit = Math.min(value.length(), 60);
    for (int i = 0; i < limit; i++) {
      char c = value.charAt(i);
      if (c == '\'') {
        sb.append("''");
      } else if (c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == '\u00A0' || Cleaners.isInvisibleJunk(c)) {
        sb.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
      } else {
        sb.append(c);
      }
    }
    if (value.length() > limit) {
      sb.append('…');
    }
    return sb.append('\'').toString();
  }
}
