package dev.lakerewrite.noiseudf;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A seeded noise injector for benchmarks (thesis §7.1: noise "manually injected into a subset of tables"; here
 * generated, documented and recorded). It copies a lake folder — WikiDBs layout
 * ({@code databases/<db>/tables/<table>.csv}, other files copied byte for byte) or a flat folder of CSVs — to a
 * target folder with the same layout, and changes cells of the table CSVs:
 *
 * <ul>
 *   <li>{@link NoiseKind#ENCODING}: the value's UTF-8 bytes read as Windows-1252 ('Whangārei' → 'WhangÄ\u0081rei');
 *       values with non-ASCII characters only.
 *   <li>{@link NoiseKind#DIACRITICS}: diacritics stripped ('Whangārei' → 'Whangarei'), or, for plain ASCII
 *       values, one vowel accented ('Hamilton' → 'Hamiltón').
 *   <li>{@link NoiseKind#WHITESPACE}: leading/trailing spaces, a doubled inner space, a tab, a no-break space.
 *   <li>{@link NoiseKind#CASING}: upper, lower or title case (always different from the original).
 *   <li>{@link NoiseKind#MARKUP}: a zero-width space, a soft hyphen, an HTML tag pair or an entity.
 *   <li>{@link NoiseKind#BOOLEAN}: another spelling of the same truth value ('true' → 'Y', 'trüe', '1');
 *       boolean columns only (90% of values are booleans, not just 0/1).
 *   <li>{@link NoiseKind#DATE_FORMAT}: the same date in another common format ('+1995-11-22T00:00:00Z' →
 *       '22.11.1995', 'Nov 22, 1995', '22/11/1995' (day first: the injector never writes month-first dates, which
 *       no cleaner could tell apart), '1992' for year precision); date columns only.
 *   <li>{@link NoiseKind#NUMBER_FORMAT}: the same number with another sign, grouping or decimal separator
 *       ('+13789' → '13 789', '12484.59' → '12.484,59'); only forms that read as the same number whatever the
 *       column's decimal convention ('13,789' and '13.789' are never written); quantity columns only (90%
 *       numbers, some with a sign or decimal point, none with leading zeros: IDs and codes are left alone).
 * </ul>
 *
 * <p>Each non-empty cell gets at most one kind: with probability {@code rate(kind)} for each applicable kind (per
 * column overrides possible). Randomness is a {@link SplittableRandom} per (seed, file, column), so the same seed
 * gives byte-identical output, and changing one table or column does not move the noise elsewhere. CSVs are
 * read with Jackson CSV and written with minimal quoting and the source's line ending, so a file without changes
 * is copied byte for byte. Every changed cell is recorded as a JSON line (file, table, row, column, kind,
 * original, noisy) in {@link Builder#recordFile}, beside (not inside) the lake layout. Files are held in memory
 * one at a time.
 */
public final class NoiseInjector {

  private final long seed;
  private final Map<NoiseKind, Double> rates;
  private final Map<String, Double> columnRates;
  private final Map<String, Map<NoiseKind, Double>> columnKindRates;
  private final @Nullable Set<String> tables;
  private final String recordFile;

  private NoiseInjector(Builder b) {
    this.seed = b.seed;
    this.rates = Collections.unmodifiableMap(new EnumMap<>(b.rates));
    this.columnRates = Map.copyOf(b.columnRates);
    Map<String, Map<NoiseKind, Double>> ck = new HashMap<>();
    b.columnKindRates.forEach((k, v) -> ck.put(k, Collections.unmodifiableMap(new EnumMap<>(v))));
    this.columnKindRates = Collections.unmodifiableMap(ck);
    this.tables = b.tables == null ? null : Set.copyOf(b.tables);
    this.recordFile = b.recordFile;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builder: seed 0, rate 0.05 for every kind, all tables, record in {@code noise-record.jsonl}. */
  public static final class Builder {
    private long seed;
    private final Map<NoiseKind, Double> rates = new EnumMap<>(NoiseKind.class);
    private final Map<String, Double> columnRates = new HashMap<>();
    private final Map<String, Map<NoiseKind, Double>> columnKindRates = new HashMap<>();
    private @Nullable Set<String> tables;
    private String recordFile = "noise-record.jsonl";

    private Builder() {
      for (NoiseKind k : NoiseKind.values()) {
        rates.put(k, 0.05);
      }
    }

    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** The same rate for every kind. */
    public Builder rate(double rate) {
      check(rate);
      for (NoiseKind k : NoiseKind.values()) {
        rates.put(k, rate);
      }
      return this;
    }

    /** The probability that an applicable cell gets {@code kind}. */
    public Builder rate(NoiseKind kind, double rate) {
      rates.put(Objects.requireNonNull(kind, "kind"), check(rate));
      return this;
    }

    /** Only these kinds (the others get rate 0). */
    public Builder kinds(Set<NoiseKind> kinds) {
      for (NoiseKind k : NoiseKind.values()) {
        if (!kinds.contains(k)) {
          rates.put(k, 0.0);
        }
      }
      return this;
    }

    /**
     * One rate for every kind in one column. {@code table} is the table name (see {@link #tableName}) or the
     * CSV file stem; {@code column} the header verbatim.
     */
    public Builder columnRate(String table, String column, double rate) {
      columnRates.put(key(table, column), check(rate));
      return this;
    }

    /** The rate of one kind in one column. */
    public Builder columnRate(String table, String column, NoiseKind kind, double rate) {
      columnKindRates.computeIfAbsent(key(table, column), k -> new EnumMap<>(NoiseKind.class))
          .put(Objects.requireNonNull(kind, "kind"), check(rate));
      return this;
    }

    /** Inject only into these tables (table names or file stems); the others are copied unchanged. */
    public Builder tables(Set<String> tables) {
      this.tables = new TreeSet<>(tables);
      return this;
    }

    /** File name of the change record, written in the target folder (default {@code noise-record.jsonl}). */
    public Builder recordFile(String name) {
      if (name == null || name.isBlank() || name.contains("/") || name.endsWith(".csv")) {
        throw new IllegalArgumentException("recordFile must be a plain file name that is not a .csv, got " + name);
      }
      this.recordFile = name;
      return this;
    }

    public NoiseInjector build() {
      return new NoiseInjector(this);
    }

    private static double check(double rate) {
      if (!(rate >= 0 && rate <= 1)) {
        throw new IllegalArgumentException("rate must be in [0, 1], got " + rate);
      }
      return rate;
    }
  }

  private static String key(String table, String column) {
    return Objects.requireNonNull(table, "table") + "\u0000" + Objects.requireNonNull(column, "column");
  }

  /**
   * One changed cell.
   *
   * @param file the CSV's path relative to the lake folder ('/'-separated)
   * @param table the table name a loader gives it (see {@link #tableName})
   * @param row 1-based data row (the header is row 0)
   * @param column header verbatim
   */
  public record InjectedCell(String file, String table, long row, String column, NoiseKind kind, String original, String noisy) {}

  /**
   * What {@link #inject} did.
   *
   * @param target the noisy lake folder
   * @param record the JSON-lines record of changed cells
   * @param tables table CSVs written
   * @param cells non-empty cells seen
   * @param changed changed cells, in file/row/column order
   * @param perKind changed cells per kind
   */
  public record InjectionReport(Path target, Path record, int tables, long cells, List<InjectedCell> changed,
      Map<NoiseKind, Long> perKind) {
    public InjectionReport {
      changed = List.copyOf(changed);
      perKind = Collections.unmodifiableMap(new EnumMap<>(perKind));
    }
  }

  /**
   * Writes a noisy copy of the lake at {@code source} to {@code target} (created; must not exist or be empty).
   *
   * @throws IOException on I/O errors; IllegalArgumentException for a bad source or a non-empty target
   */
  public InjectionReport inject(Path source, Path target) throws IOException {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(target, "target");
    if (!Files.isDirectory(source)) {
      throw new IllegalArgumentException("source is not a folder: " + source);
    }
    if (Files.exists(target)) {
      try (Stream<Path> s = Files.list(target)) {
        if (s.findAny().isPresent()) {
          throw new IllegalArgumentException("target folder is not empty: " + target);
        }
      }
    }
    Files.createDirectories(target);
    boolean wikiDbs = Files.isDirectory(source.resolve("databases"));
    List<Path> files;
    try (Stream<Path> s = Files.walk(source)) {
      files = s.filter(Files::isRegularFile).map(source::relativize).sorted().toList();
    }
    List<Path> tableFiles = files.stream().filter(p -> isTableFile(p, wikiDbs)).toList();
    Map<Path, String> names = tableNames(tableFiles, wikiDbs);
    List<InjectedCell> changed = new ArrayList<>();
    long cells = 0;
    for (Path rel : files) {
      Path out = target.resolve(rel.toString());
      Files.createDirectories(out.getParent());
      if (!names.containsKey(rel)) {
        Files.copy(source.resolve(rel), out);
        continue;
      }
      String table = names.get(rel);
      String stem = stem(rel);
      boolean selected = tables == null || tables.contains(table) || tables.contains(stem);
      cells += injectFile(source.resolve(rel), out, rel.toString().replace('\\', '/'), table, stem, selected, changed);
    }
    Path record = target.resolve(recordFile);
    try (Writer w = Files.newBufferedWriter(record, StandardCharsets.UTF_8)) {
      for (InjectedCell c : changed) {
        ObjectNode o = SqlAst.JSON.createObjectNode();
        o.put("file", c.file()).put("table", c.table()).put("row", c.row()).put("column", c.column())
            .put("kind", c.kind().name()).put("original", c.original()).put("noisy", c.noisy());
        w.write(SqlAst.JSON.writeValueAsString(o));
        w.write('\n');
      }
    }
    Map<NoiseKind, Long> perKind = new EnumMap<>(NoiseKind.class);
    for (NoiseKind k : NoiseKind.values()) {
      perKind.put(k, 0L);
    }
    changed.forEach(c -> perKind.merge(c.kind(), 1L, Long::sum));
    return new InjectionReport(target, record, names.size(), cells, changed, perKind);
  }

  /** Reads a change record back. */
  public static List<InjectedCell> readRecord(Path record) throws IOException {
    List<InjectedCell> out = new ArrayList<>();
    for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      var o = SqlAst.JSON.readTree(line);
      out.add(new InjectedCell(o.path("file").asText(), o.path("table").asText(), o.path("row").asLong(),
          o.path("column").asText(), NoiseKind.valueOf(o.path("kind").asText()), o.path("original").asText(),
          o.path("noisy").asText()));
    }
    return out;
  }

  private static boolean isTableFile(Path rel, boolean wikiDbs) {
    if (!rel.getFileName().toString().endsWith(".csv")) {
      return false;
    }
    if (!wikiDbs) {
      return rel.getNameCount() == 1;
    }
    return rel.getNameCount() == 4 && rel.getName(0).toString().equals("databases") && rel.getName(2).toString().equals("tables");
  }

  /**
   * The table name a loader gives a CSV: the file stem lower-cased with runs of characters outside [a-z0-9]
   * replaced by '_', prefixed by the database folder's name (same rule) when two databases have the stem.
   */
  public static String tableName(String stem) {
    return stem.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
  }

  private static Map<Path, String> tableNames(List<Path> tableFiles, boolean wikiDbs) {
    Map<String, Integer> count = new HashMap<>();
    tableFiles.forEach(p -> count.merge(tableName(stem(p)), 1, Integer::sum));
    Map<Path, String> out = new LinkedHashMap<>();
    for (Path p : tableFiles) {
      String name = tableName(stem(p));
      if (wikiDbs && count.get(name) > 1) {
        name = tableName(p.getName(1).toString()) + "_" + name;
      }
      out.put(p, name);
    }
    return out;
  }

  private static String stem(Path p) {
    String n = p.getFileName().toString();
    return n.substring(0, n.length() - ".csv".length());
  }

  // ---------------------------------------------------------------------------------------------------------

  private long injectFile(Path in, Path out, String file, String table, String stem, boolean selected,
      List<InjectedCell> changed) throws IOException {
    String raw = Files.readString(in, StandardCharsets.UTF_8);
    String newline = raw.contains("\r\n") ? "\r\n" : "\n";
    List<String[]> rows = new ArrayList<>();
    CsvMapper mapper = new CsvMapper();
    mapper.enable(CsvParser.Feature.WRAP_AS_ARRAY);
    try (MappingIterator<String[]> it = mapper.readerFor(String[].class).readValues(raw)) {
      while (it.hasNext()) {
        rows.add(it.next());
      }
    }
    long cells = 0;
    if (!rows.isEmpty()) {
      String[] header = rows.get(0);
      for (int c = 0; c < header.length; c++) {
        List<String> values = new ArrayList<>();
        for (int r = 1; r < rows.size(); r++) {
          String v = c < rows.get(r).length ? rows.get(r)[c] : "";
          if (!v.isEmpty()) {
            values.add(v);
          }
        }
        cells += values.size();
        if (!selected) {
          continue;
        }
        ColumnClass cls = classify(values);
        Map<NoiseKind, Double> columnKindRate = new EnumMap<>(NoiseKind.class);
        for (NoiseKind k : NoiseKind.values()) {
          columnKindRate.put(k, rateFor(table, stem, header[c], k));
        }
        SplittableRandom random = new SplittableRandom(mix(seed, file + "\u0000" + header[c]));
        for (int r = 1; r < rows.size(); r++) {
          String[] row = rows.get(r);
          if (c >= row.length || row[c].isEmpty()) {
            continue;
          }
          double u = random.nextDouble();
          double acc = 0;
          for (NoiseKind k : NoiseKind.values()) {
            double rate = columnKindRate.get(k);
            if (rate == 0 || !applicable(k, row[c], cls)) {
              continue;
            }
            acc += rate;
            if (u < acc) {
              String noisy = apply(k, row[c], cls, random);
              if (noisy != null && !noisy.equals(row[c]) && !noisy.isEmpty()) {
                changed.add(new InjectedCell(file, table, r, header[c], k, row[c], noisy));
                row[c] = noisy;
              }
              break;
            }
          }
        }
      }
    }
    try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      for (String[] row : rows) {
        for (int c = 0; c < row.length; c++) {
          if (c > 0) {
            w.write(',');
          }
          w.write(csvField(row[c]));
        }
        w.write(newline);
      }
    }
    return cells;
  }

  private double rateFor(String table, String stem, String column, NoiseKind kind) {
    for (String t : List.of(table, stem)) {
      Map<NoiseKind, Double> perKind = columnKindRates.get(key(t, column));
      if (perKind != null && perKind.containsKey(kind)) {
        return perKind.get(kind);
      }
      Double all = columnRates.get(key(t, column));
      if (all != null) {
        return all;
      }
    }
    return rates.get(kind);
  }

  /** Minimal quoting, as Python's csv module writes WikiDBs: only fields with a comma, quote or line break. */
  static String csvField(String v) {
    if (v.indexOf(',') < 0 && v.indexOf('"') < 0 && v.indexOf('\n') < 0 && v.indexOf('\r') < 0) {
      return v;
    }
    return '"' + v.replace("\"", "\"\"") + '"';
  }

  /** A stable 64-bit seed from the run's seed and a string (independent of JVM and iteration order). */
  static long mix(long seed, String s) {
    long h = seed ^ 0x9E3779B97F4A7C15L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xFF;
      h *= 0x100000001B3L;
      h = Long.rotateLeft(h, 29);
    }
    return h ^ (h >>> 31);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Column classes and the noise itself

  /** What a column holds, for the typed kinds. */
  record ColumnClass(boolean booleans, boolean dates, boolean quantities) {}

  static ColumnClass classify(List<String> values) {
    if (values.isEmpty()) {
      return new ColumnClass(false, false, false);
    }
    int bools = 0;
    int dates = 0;
    int nonYearDates = 0;
    int numbers = 0;
    boolean nonDigitBoolean = false;
    boolean leadingZero = false;
    boolean signOrPoint = false;
    for (String v : values) {
      String t = v.trim();
      if (Cleaners.parseBoolean(t) != null) {
        bools++;
        nonDigitBoolean |= !t.matches("[01]");
      }
      String iso = Cleaners.isoDate(t);
      if (iso != null) {
        dates++;
        if (!t.matches("[+]?\\d{4}")) {
          nonYearDates++;
        }
      }
      if (Cleaners.parseNumber(t) != null) {
        numbers++;
        leadingZero |= t.matches("[+-]?0\\d.*");
        signOrPoint |= t.startsWith("+") || t.startsWith("-") || t.contains(".");
      }
    }
    double n = values.size();
    return new ColumnClass(bools >= 0.9 * n && nonDigitBoolean, dates >= 0.9 * n && nonYearDates > 0,
        numbers >= 0.9 * n && !leadingZero && signOrPoint && dates < 0.9 * n);
  }

  static boolean applicable(NoiseKind kind, String value, ColumnClass cls) {
    return switch (kind) {
      case ENCODING -> !Cleaners.isAscii(value);
      case DIACRITICS -> Cleaners.hasDiacritics(value) || value.matches(".*[aeiou].*") && value.matches(".*\\p{L}{3,}.*");
      case WHITESPACE, MARKUP -> true;
      case CASING -> !value.toUpperCase(Locale.ROOT).equals(value.toLowerCase(Locale.ROOT));
      case BOOLEAN -> cls.booleans() && Cleaners.parseBoolean(value) != null;
      case DATE_FORMAT -> cls.dates() && Cleaners.isoDate(value) != null;
      case NUMBER_FORMAT -> cls.quantities() && Cleaners.parseNumber(value) != null;
    };
  }

  /** The noisy version of {@code value} (null when this kind cannot change it). */
  static @Nullable String apply(NoiseKind kind, String value, ColumnClass cls, SplittableRandom random) {
    return switch (kind) {
      case ENCODING -> Cleaners.toMojibake(value);
      case DIACRITICS -> diacritics(value, random);
      case WHITESPACE -> whitespace(value, random);
      case CASING -> casing(value, random);
      case MARKUP -> markup(value, random);
      case BOOLEAN -> booleanSpelling(value, random);
      case DATE_FORMAT -> dateFormat(value, random);
      case NUMBER_FORMAT -> numberFormat(value, random);
    };
  }

  private static final String[] ACUTE = {"á", "é", "í", "ó", "ú"};
  private static final String[] OTHER_ACCENTS = {"ā", "ē", "ī", "ō", "ū", "ä", "ë", "ï", "ö", "ü", "à", "è", "ì", "ò", "ù"};

  private static @Nullable String diacritics(String value, SplittableRandom random) {
    if (Cleaners.hasDiacritics(value)) {
      return Cleaners.unaccent(value);
    }
    List<Integer> vowels = new ArrayList<>();
    for (int i = 0; i < value.length(); i++) {
      if ("aeiou".indexOf(value.charAt(i)) >= 0) {
        vowels.add(i);
      }
    }
    if (vowels.isEmpty()) {
      return null;
    }
    int at = vowels.get(random.nextInt(vowels.size()));
    int v = "aeiou".indexOf(value.charAt(at));
    String accented = random.nextBoolean() ? ACUTE[v] : OTHER_ACCENTS[v + 5 * random.nextInt(3)];
    return value.substring(0, at) + accented + value.substring(at + 1);
  }

  private static String whitespace(String value, SplittableRandom random) {
    int space = value.indexOf(' ');
    return switch (random.nextInt(6)) {
      case 0 -> " " + value;
      case 1 -> value + "  ";
      case 2 -> "  " + value + " ";
      case 3 -> space > 0 ? value.substring(0, space) + "  " + value.substring(space + 1) : value + "\t";
      case 4 -> space > 0 ? value.substring(0, space) + "\u00A0" + value.substring(space + 1) : "\u00A0" + value;
      default -> value + "\t";
    };
  }

  private static @Nullable String casing(String value, SplittableRandom random) {
    List<String> options = new ArrayList<>();
    options.add(value.toUpperCase(Locale.ROOT));
    options.add(value.toLowerCase(Locale.ROOT));
    options.add(titleCase(value));
    options.removeIf(o -> o.equals(value));
    return options.isEmpty() ? null : options.get(random.nextInt(options.size()));
  }

  private static String titleCase(String value) {
    StringBuilder sb = new StringBuilder(value.length());
    boolean start = true;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      sb.append(start ? Character.toUpperCase(c) : Character.toLowerCase(c));
      start = !Character.isLetterOrDigit(c);
    }
    return sb.toString();
  }

  private static String markup(String value, SplittableRandom random) {
    int at = random.nextInt(value.length() + 1);
    if (at > 0 && at < value.length() && Character.isLowSurrogate(value.charAt(at))) {
      at--; // never between the two halves of a character outside the BMP (an emoji): the cell must stay valid UTF-16
    }
    return switch (random.nextInt(4)) {
      case 0 -> value.substring(0, at) + "\u200B" + value.substring(at);
      case 1 -> value + "\u00AD";
      case 2 -> "<b>" + value + "</b>";
      default -> value.contains("&") ? value.replace("&", "&amp;") : "\uFEFF" + value;
    };
  }

  private static final String[] TRUE_SPELLINGS = {"true", "TRUE", "True", "t", "T", "yes", "Yes", "YES", "y", "Y", "1", "on", "trüe"};
  private static final String[] FALSE_SPELLINGS = {"false", "FALSE", "False", "f", "F", "no", "No", "NO", "n", "N", "0", "off", "fälse"};

  private static @Nullable String booleanSpelling(String value, SplittableRandom random) {
    Boolean b = Cleaners.parseBoolean(value);
    String[] options = b ? TRUE_SPELLINGS : FALSE_SPELLINGS;
    for (int tries = 0; tries < 8; tries++) {
      String o = options[random.nextInt(options.length)];
      if (!o.equals(value)) {
        return o;
      }
    }
    return null;
  }

  private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August",
      "September", "October", "November", "December"};

  private static @Nullable String dateFormat(String value, SplittableRandom random) {
    String iso = Cleaners.isoDate(value);
    if (iso == null || iso.startsWith("-")) {
      return null;
    }
    List<String> options = new ArrayList<>();
    if (iso.length() == 4) {
      options.add(iso);
      options.add("+" + iso + "-00-00T00:00:00Z");
    } else if (iso.length() == 7) {
      int month = Integer.parseInt(iso.substring(5));
      options.add(iso);
      options.add(MONTHS[month - 1] + " " + iso.substring(0, 4));
    } else {
      LocalDate d = LocalDate.parse(iso);
      String dd = String.format(Locale.ROOT, "%02d", d.getDayOfMonth());
      String mm = String.format(Locale.ROOT, "%02d", d.getMonthValue());
      String month = MONTHS[d.getMonthValue() - 1];
      options.add(iso);
      options.add(dd + "." + mm + "." + d.getYear());
      options.add(dd + "/" + mm + "/" + d.getYear());
      options.add(d.getDayOfMonth() + " " + month + " " + d.getYear());
      options.add(month.substring(0, 3) + " " + d.getDayOfMonth() + ", " + d.getYear());
      options.add(d.getYear() + "/" + mm + "/" + dd);
      options.add(dd + "-" + month.substring(0, 3) + "-" + d.getYear());
      options.add("+" + iso + "T00:00:00Z");
    }
    options.removeIf(o -> o.equals(value) || !iso.equals(Cleaners.isoDate(o)));
    return options.isEmpty() ? null : options.get(random.nextInt(options.size()));
  }

  private static @Nullable String numberFormat(String value, SplittableRandom random) {
    BigDecimal v = Cleaners.parseDecimal(value, null);
    if (v == null) {
      return null;
    }
    String plain = v.abs().toPlainString();
    int dot = plain.indexOf('.');
    String integer = dot < 0 ? plain : plain.substring(0, dot);
    String fraction = dot < 0 ? "" : plain.substring(dot + 1);
    String sign = v.signum() < 0 ? "-" : "";
    List<String> options = new ArrayList<>();
    options.add(sign + plain);
    options.add((v.signum() < 0 ? "\u2212" : "+") + plain);
    for (String[] style : new String[][] {{",", "."}, {" ", ","}, {".", ","}, {"'", "."}, {"\u00A0", ","}, {"", ","}}) {
      String grouped = group(integer, style[0]);
      options.add(sign + grouped + (fraction.isEmpty() ? "" : style[1] + fraction));
    }
    // keep only forms that read as the same number whatever the column's decimal convention
    options.removeIf(o -> o.equals(value) || !sameNumber(o, v));
    return options.isEmpty() ? null : options.get(random.nextInt(options.size()));
  }

  private static boolean sameNumber(String text, BigDecimal v) {
    for (Character sep : new Character[] {null, '.', ','}) {
      BigDecimal p = Cleaners.parseDecimal(text, sep);
      if (p == null || p.compareTo(v) != 0) {
        return false;
      }
    }
    return true;
  }

  private static String group(String digits, String separator) {
    if (separator.isEmpty() || digits.length() <= 3) {
      return digits;
    }
    StringBuilder sb = new StringBuilder();
    int first = digits.length() % 3 == 0 ? 3 : digits.length() % 3;
    sb.append(digits, 0, first);
    for (int i = first; i < digits.length(); i += 3) {
      sb.append(separator).append(digits, i, i + 3);
    }
    return sb.toString();
  }

  /** Kinds in the order they are tried (stable, for reproducibility). */
  static Set<NoiseKind> allKinds() {
    return EnumSet.allOf(NoiseKind.class);
  }
}
