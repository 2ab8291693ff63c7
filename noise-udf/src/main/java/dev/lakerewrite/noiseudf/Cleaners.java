package dev.lakerewrite.noiseudf;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The vetted cleaning functions as plain, pure Java methods (thesis §6.2: "Unicode decomposition, whitespace
 * collapsing, punctuation spacing, strict boolean parsing, ISO-style date normalization, and numeric
 * de-grouping"). {@link CleaningFunctions} registers each of them in DuckDB as a {@code clean_*} scalar UDF; the
 * detector, the offline CTE builder and the benchmark call them directly, so SQL and Java agree by construction.
 *
 * <p>Every method is NULL-safe ({@code null} in, {@code null} out), deterministic, thread-safe and linear in the
 * length of its input. Text cleaners never return {@code null} for a non-null input; parsers
 * ({@link #parseBoolean}, {@link #isoDate}, {@link #parseNumber}) return {@code null} for input they cannot read
 * unambiguously ("strict": garbage becomes NULL, it is never guessed).
 */
public final class Cleaners {

  private Cleaners() {}

  // ---------------------------------------------------------------------------------------------------------
  // Unicode and diacritics

  /** Letters whose "diacritic" is not a combining mark after NFD (stroke, bar), mapped to their base letter. */
  private static final Map<Character, String> STROKE_LETTERS =
      Map.ofEntries(
          Map.entry('ø', "o"), Map.entry('Ø', "O"), Map.entry('ł', "l"), Map.entry('Ł', "L"),
          Map.entry('đ', "d"), Map.entry('Đ', "D"), Map.entry('ħ', "h"), Map.entry('Ħ', "H"),
          Map.entry('ŧ', "t"), Map.entry('Ŧ', "T"), Map.entry('ı', "i"), Map.entry('ƀ', "b"),
          Map.entry('ɨ', "i"), Map.entry('ʉ', "u"));

  /**
   * Unicode decomposition and diacritic stripping: NFD, drop combining marks, map stroke letters (ø, ł, đ, ħ, ı)
   * to their base letter, recompose (NFC). Letters that are not accented forms (ß, æ, œ, þ) are kept.
   * 'Whangārei' → 'Whangarei', 'Ōpōtiki' → 'Opotiki'.
   */
  public static @Nullable String unaccent(@Nullable String value) {
    if (value == null) {
      return null;
    }
    if (isAscii(value)) {
      return value;
    }
    String decomposed = Normalizer.normalize(value, Normalizer.Form.NFD);
    StringBuilder out = new StringBuilder(decomposed.length());
    for (int i = 0; i < decomposed.length(); i++) {
      char c = decomposed.charAt(i);
      int type = Character.getType(c);
      if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK) {
        continue;
      }
      String replacement = STROKE_LETTERS.get(c);
      if (replacement != null) {
        out.append(replacement);
      } else {
        out.append(c);
      }
    }
    return Normalizer.normalize(out, Normalizer.Form.NFC);
  }

  /** True when the string has at least one letter carrying a diacritic that {@link #unaccent} would remove. */
  public static boolean hasDiacritics(@Nullable String value) {
    return value != null && !isAscii(value) && !unaccent(value).equals(Normalizer.normalize(value, Normalizer.Form.NFC));
  }

  // ---------------------------------------------------------------------------------------------------------
  // Whitespace, punctuation, control characters and markup

  /** Whitespace in the broad sense: Java whitespace plus no-break spaces (U+00A0, U+2007, U+202F). */
  static boolean isSpace(char c) {
    return Character.isWhitespace(c) || c == '\u00A0' || c == '\u2007' || c == '\u202F';
  }

  /**
   * Whitespace collapsing: trims, and turns every run of whitespace (spaces, tabs, newlines, no-break and thin
   * spaces) into one plain space. '  Hamilton\u00A0 City\t' → 'Hamilton City'.
   */
  public static @Nullable String collapseWhitespace(@Nullable String value) {
    if (value == null) {
      return null;
    }
    StringBuilder out = new StringBuilder(value.length());
    boolean pendingSpace = false;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (isSpace(c)) {
        pendingSpace = out.length() > 0;
      } else {
        if (pendingSpace) {
          out.append(' ');
          pendingSpace = false;
        }
        out.append(c);
      }
    }
    return out.toString().equals(value) ? value : out.toString();
  }

  private static final Pattern SPACE_BEFORE_CLOSING = Pattern.compile("[\\s\\u00A0]+([,;:!?)\\]}])");
  private static final Pattern SPACE_BEFORE_PERIOD = Pattern.compile("[\\s\\u00A0]+\\.(?=\\s|$)");
  private static final Pattern SPACE_AFTER_OPENING = Pattern.compile("([(\\[{])[\\s\\u00A0]+");
  private static final Pattern MISSING_SPACE_AFTER_COMMA = Pattern.compile("([,;])(?=\\p{L})");

  /**
   * Punctuation spacing: no space before <code>, ; : ! ? ) ] }</code> or a sentence-final period, none after
   * <code>( [ {</code>, one space after a comma or semicolon that is directly followed by a letter; then collapses
   * whitespace. Digits after a comma are left alone ('1,5' may be a number). 'Hamilton ,New Zealand' →
   * 'Hamilton, New Zealand'.
   */
  public static @Nullable String punctuationSpacing(@Nullable String value) {
    if (value == null) {
      return null;
    }
    String out = SPACE_BEFORE_CLOSING.matcher(value).replaceAll("$1");
    out = SPACE_BEFORE_PERIOD.matcher(out).replaceAll(".");
    out = SPACE_AFTER_OPENING.matcher(out).replaceAll("$1");
    out = MISSING_SPACE_AFTER_COMMA.matcher(out).replaceAll("$1 ");
    return collapseWhitespace(out);
  }

  private static final Pattern TAG = Pattern.compile("</?[A-Za-z][A-Za-z0-9:-]*(?:\\s[^<>]*)?/?>");
  private static final Pattern ENTITY = Pattern.compile("&(#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,7});");
  private static final Map<String, String> NAMED_ENTITIES =
      Map.ofEntries(
          Map.entry("amp", "&"), Map.entry("lt", "<"), Map.entry("gt", ">"), Map.entry("quot", "\""),
          Map.entry("apos", "'"), Map.entry("nbsp", "\u00A0"), Map.entry("ndash", "\u2013"),
          Map.entry("mdash", "\u2014"), Map.entry("hellip", "\u2026"), Map.entry("rsquo", "\u2019"),
          Map.entry("lsquo", "\u2018"), Map.entry("ldquo", "\u201C"), Map.entry("rdquo", "\u201D"),
          Map.entry("eacute", "é"), Map.entry("egrave", "è"), Map.entry("aacute", "á"), Map.entry("uuml", "ü"),
          Map.entry("ouml", "ö"), Map.entry("auml", "ä"), Map.entry("szlig", "ß"), Map.entry("ccedil", "ç"),
          Map.entry("copy", "©"), Map.entry("reg", "®"), Map.entry("deg", "°"));

  /** Invisible format characters that carry no meaning in a cell (ZWSP, BOM, soft hyphen, word joiner, bidi). */
  static boolean isInvisibleJunk(char c) {
    return c == '\u200B' || c == '\uFEFF' || c == '\u00AD' || c == '\u2060' || c == '\u200E' || c == '\u200F'
        || (c >= '\u202A' && c <= '\u202E') || (c >= '\u2066' && c <= '\u2069');
  }

  /**
   * Control and markup removal: drops HTML/XML tags, decodes HTML entities ({@code &amp;}, {@code &#233;}),
   * deletes control characters (tabs and line breaks become spaces) and invisible format characters
   * (zero-width space, BOM, soft hyphen, bidi marks). Does not collapse whitespace.
   * '&lt;b&gt;Toy&nbsp;Story&lt;/b&gt;\u200B' → 'Toy\u00A0Story'.
   */
  public static @Nullable String stripMarkup(@Nullable String value) {
    if (value == null) {
      return null;
    }
    String out = value;
    if (out.indexOf('<') >= 0) {
      out = TAG.matcher(out).replaceAll("");
    }
    if (out.indexOf('&') >= 0) {
      out = decodeEntities(out);
    }
    StringBuilder sb = null;
    for (int i = 0; i < out.length(); i++) {
      char c = out.charAt(i);
      boolean control = Character.getType(c) == Character.CONTROL;
      if (control || isInvisibleJunk(c)) {
        if (sb == null) {
          sb = new StringBuilder(out.length());
          sb.append(out, 0, i);
        }
        if (control && (c == '\t' || c == '\n' || c == '\r' || c == '\u0085')) {
          sb.append(' ');
        }
      } else if (sb != null) {
        sb.append(c);
      }
    }
    return sb == null ? out : sb.toString();
  }

  private static String decodeEntities(String value) {
    Matcher m = ENTITY.matcher(value);
    StringBuilder out = new StringBuilder(value.length());
    while (m.find()) {
      String body = m.group(1);
      String replacement;
      if (body.startsWith("#x") || body.startsWith("#X")) {
        replacement = codePoint(Integer.parseInt(body.substring(2), 16));
      } else if (body.startsWith("#")) {
        replacement = codePoint(Integer.parseInt(body.substring(1)));
      } else {
        replacement = NAMED_ENTITIES.get(body);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement == null ? m.group() : replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static String codePoint(int cp) {
    return Character.isValidCodePoint(cp) && cp != 0 ? new String(Character.toChars(cp)) : "";
  }

  // ---------------------------------------------------------------------------------------------------------
  // Mojibake: UTF-8 bytes that were decoded as Windows-1252 (or Latin-1)

  /** The 27 characters Windows-1252 puts at bytes 0x80..0x9F; the other five bytes are undefined. */
  private static final String CP1252_HIGH =
      "\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F"
          + "\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178";

  private static final Map<Character, Byte> CP1252_REVERSE = new HashMap<>();

  static {
    for (int i = 0; i < 32; i++) {
      CP1252_REVERSE.put(CP1252_HIGH.charAt(i), (byte) (0x80 + i));
    }
  }

  /**
   * Decodes bytes as Windows-1252, keeping the five bytes it leaves undefined as the C1 controls Latin-1 gives
   * them (what most software does). This is how mojibake is made; {@link #fixMojibake} is its inverse.
   */
  static String decodeCp1252Lenient(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length);
    for (byte b : bytes) {
      int u = b & 0xFF;
      out.append(u >= 0x80 && u <= 0x9F ? CP1252_HIGH.charAt(u - 0x80) : (char) u);
    }
    return out.toString();
  }

  /** Encodes as Windows-1252/Latin-1 (the inverse of {@link #decodeCp1252Lenient}); null if not encodable. */
  private static byte @Nullable [] encodeCp1252Lenient(String value) {
    byte[] out = new byte[value.length()];
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      Byte mapped = CP1252_REVERSE.get(c);
      if (mapped != null) {
        out[i] = mapped;
      } else if (c <= 0xFF && !(c >= 0x80 && c <= 0x9F)) {
        out[i] = (byte) c;
      } else {
        return null;
      }
    }
    return out;
  }

  /** Counts characters typical of mojibake: Latin-1 supplement, C1 controls and Windows-1252 punctuation. */
  private static int mojibakeMarkers(String value) {
    int n = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c >= 0x80 && c <= 0xFF) || CP1252_REVERSE.containsKey(c)) {
        n++;
      }
    }
    return n;
  }

  /**
   * Mojibake repair: when the text is UTF-8 that was read as Windows-1252 or Latin-1 ('WhangÄ\u0081rei',
   * 'SÃ£o Paulo', 'â€“'), re-encodes it and decodes it as UTF-8 (up to two rounds, for double mojibake). The
   * repair is taken only if the bytes are strictly valid UTF-8 and the result has fewer mojibake markers, so
   * genuine Latin-1 text such as 'São Paulo' or 'Ærø' is left untouched.
   */
  public static @Nullable String fixMojibake(@Nullable String value) {
    if (value == null || isAscii(value)) {
      return value;
    }
    String current = value;
    for (int round = 0; round < 2; round++) {
      String repaired = repairRuns(current);
      if (repaired.equals(current)) {
        break;
      }
      current = repaired;
    }
    return current;
  }

  /**
   * Repairs each maximal run of Windows-1252-encodable characters on its own, so a stray character outside
   * Windows-1252 (a zero-width space, a macron that survived) does not block the repair of the rest.
   */
  private static String repairRuns(String value) {
    StringBuilder out = new StringBuilder(value.length());
    int i = 0;
    while (i < value.length()) {
      int start = i;
      while (i < value.length() && encodable(value.charAt(i))) {
        i++;
      }
      if (i > start) {
        out.append(repairRun(value.substring(start, i)));
      }
      if (i < value.length()) {
        out.append(value.charAt(i));
        i++;
      }
    }
    return out.toString();
  }

  private static boolean encodable(char c) {
    return CP1252_REVERSE.containsKey(c) || (c <= 0xFF && !(c >= 0x80 && c <= 0x9F));
  }

  private static String repairRun(String run) {
    if (isAscii(run)) {
      return run;
    }
    byte[] bytes = encodeCp1252Lenient(run);
    if (bytes == null) {
      return run;
    }
    try {
      CharsetDecoder decoder =
          StandardCharsets.UTF_8.newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT);
      String decoded = decoder.decode(ByteBuffer.wrap(bytes)).toString();
      return mojibakeMarkers(decoded) < mojibakeMarkers(run) ? decoded : run;
    } catch (CharacterCodingException e) {
      return run;
    }
  }

  /** Makes mojibake the way broken pipelines do: UTF-8 bytes decoded as Windows-1252. Used by the injector. */
  static String toMojibake(String value) {
    return decodeCp1252Lenient(value.getBytes(StandardCharsets.UTF_8));
  }

  // ---------------------------------------------------------------------------------------------------------
  // Case, composites

  /**
   * Case folding: NFKC, then full Unicode case folding through upper-then-lower case in the root locale
   * ('Straße' → 'strasse', 'ＴＯＹ' → 'toy'), so that equal-ignoring-case strings fold to one string.
   */
  public static @Nullable String casefold(@Nullable String value) {
    if (value == null) {
      return null;
    }
    String normalized = isAscii(value) ? value : Normalizer.normalize(value, Normalizer.Form.NFKC);
    return normalized.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
  }

  /**
   * Lossless formatting repair, the text cleaner of choice: mojibake repair, control/markup removal, whitespace
   * collapsing, NFC. Keeps case and diacritics, so a clean value comes out unchanged.
   */
  public static @Nullable String cleanText(@Nullable String value) {
    if (value == null) {
      return null;
    }
    String out = collapseWhitespace(stripMarkup(fixMojibake(value)));
    return isAscii(out) ? out : Normalizer.normalize(out, Normalizer.Form.NFC);
  }

  /**
   * The matching key: {@link #cleanText}, diacritics stripped, case folded, typographic quotes and dashes made
   * ASCII. Two spellings of the same value ('Whangārei', ' WHANGAREI', 'WhangÄ\u0081rei') share one key. Lossy by
   * design: use it to compare, not to display.
   */
  public static @Nullable String textKey(@Nullable String value) {
    if (value == null) {
      return null;
    }
    String out = casefold(unaccent(cleanText(value)));
    if (!isAscii(out)) {
      out = out.replace('\u2019', '\'').replace('\u2018', '\'').replace('\u201C', '"').replace('\u201D', '"')
          .replace('\u2013', '-').replace('\u2014', '-').replace('\u2212', '-');
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Booleans

  private static final Set<String> TRUE_WORDS =
      Set.of("true", "t", "yes", "y", "1", "on", "ja", "j", "oui", "si", "vrai", "wahr", "✓", "✔", "☑", "+");
  private static final Set<String> FALSE_WORDS =
      Set.of("false", "f", "no", "n", "0", "off", "nein", "non", "faux", "falsch", "✗", "✘", "☐", "-");

  /**
   * Strict boolean parsing: true for t/true/yes/y/1/on (and ja/oui/sí/vrai/wahr, ✓), false for
   * f/false/no/n/0/off (and nein/non/faux/falsch, ✗), in any case, spacing, accents or encoding ('TRÜE',
   * ' Yes ', '0'); NULL for anything else.
   */
  public static @Nullable Boolean parseBoolean(@Nullable String value) {
    if (value == null) {
      return null;
    }
    String key = textKey(value);
    if (key.endsWith(".")) {
      key = key.substring(0, key.length() - 1);
    }
    if (TRUE_WORDS.contains(key)) {
      return Boolean.TRUE;
    }
    if (FALSE_WORDS.contains(key)) {
      return Boolean.FALSE;
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Dates

  /** How to read an all-numeric date whose first two fields are both ≤ 12 ('03/04/2020'). */
  public enum DateOrder {
    /** Day first (international, and always for dotted dates). */
    DMY,
    /** Month first (US). */
    MDY;

    /** Parses 'DMY'/'MDY' in any case; null and blank mean DMY. */
    public static DateOrder parse(@Nullable String text) {
      if (text == null || text.isBlank()) {
        return DMY;
      }
      String t = text.trim().toUpperCase(Locale.ROOT);
      if (t.equals("DMY")) {
        return DMY;
      }
      if (t.equals("MDY")) {
        return MDY;
      }
      throw new IllegalArgumentException("date order must be 'DMY' or 'MDY', got '" + text + "'");
    }
  }

  private static final Pattern ISO_LIKE =
      Pattern.compile(
          "([+-]?)(\\d{4,})-(\\d{1,2})-(\\d{1,2})"
              + "(?:[T ](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.\\d+)?)?)?\\s*(?:Z|UTC|[+-]\\d{2}:?\\d{2})?",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern YMD_SEPARATED = Pattern.compile("(\\d{4})[/.](\\d{1,2})[/.](\\d{1,2})");
  private static final Pattern NUMERIC_DATE = Pattern.compile("(\\d{1,2})([./-])(\\d{1,2})\\2(\\d{4})");
  private static final Pattern YEAR_ONLY = Pattern.compile("[+]?(\\d{4})");
  /**
   * {@code 19950305}: the compact ISO form, common where a lake keeps dates as integers (years 1000 to 2999 only);
   * also as a number some step typed as a double ({@code 19950305.0}).
   */
  private static final Pattern COMPACT_YMD = Pattern.compile("([12]\\d{3})(\\d{2})(\\d{2})(?:\\.0+)?");
  private static final Pattern YEAR_MONTH = Pattern.compile("(\\d{4})-(\\d{1,2})");
  private static final Pattern DAY_MONTH_YEAR =
      Pattern.compile("(\\d{1,2})(?:st|nd|rd|th)?\\.?[\\s-]+([A-Za-z]{3,9})\\.?[\\s,-]+(\\d{4})");
  private static final Pattern MONTH_DAY_YEAR =
      Pattern.compile("([A-Za-z]{3,9})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})");
  private static final Pattern MONTH_YEAR = Pattern.compile("([A-Za-z]{3,9})\\.?,?\\s+(\\d{4})");
  private static final Pattern YEAR_MONTHNAME_DAY =
      Pattern.compile("(\\d{4})[\\s-]+([A-Za-z]{3,9})\\.?[\\s-]+(\\d{1,2})");

  private static final Map<String, Integer> MONTHS = new HashMap<>();

  static {
    String[] names = {
      "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
      "november", "december"
    };
    for (int i = 0; i < names.length; i++) {
      MONTHS.put(names[i], i + 1);
      MONTHS.put(names[i].substring(0, 3), i + 1);
    }
    MONTHS.put("sept", 9);
  }

  /** {@link #isoDate(String, DateOrder)} with day-first reading of ambiguous numeric dates. */
  public static @Nullable String isoDate(@Nullable String value) {
    return isoDate(value, DateOrder.DMY);
  }

  /**
   * Date normalisation to ISO 8601 text. Reads ISO dates and timestamps, Wikidata timestamps
   * ('+1995-11-22T00:00:00Z'; month or day 00 mean reduced precision), 'YYYY/MM/DD', 'DD.MM.YYYY',
   * 'DD/MM/YYYY' and 'MM/DD/YYYY' (by the fields' ranges, else by {@code order}), compact 'YYYYMMDD' (years 1000 to
   * 2999), English month names ('22 November 1995', 'Nov 22, 1995', '22-Nov-1995', 'November 1995') and bare
   * years. Returns 'YYYY-MM-DD', or 'YYYY-MM' / 'YYYY' for reduced precision, with a leading '-' for years BCE;
   * NULL when the text is not a date or names an impossible one (31 February).
   */
  public static @Nullable String isoDate(@Nullable String value, DateOrder order) {
    if (value == null) {
      return null;
    }
    String s = cleanText(value);
    Matcher m;
    if ((m = ISO_LIKE.matcher(s)).matches()) {
      boolean negative = m.group(1).equals("-");
      return iso(negative, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)));
    }
    if ((m = YMD_SEPARATED.matcher(s)).matches()) {
      return iso(false, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }
    if ((m = NUMERIC_DATE.matcher(s)).matches()) {
      int a = Integer.parseInt(m.group(1));
      int b = Integer.parseInt(m.group(3));
      int year = Integer.parseInt(m.group(4));
      boolean dayFirst;
      if (m.group(2).equals(".")) {
        dayFirst = true;
      } else if (a > 12) {
        dayFirst = true;
      } else if (b > 12) {
        dayFirst = false;
      } else {
        dayFirst = order != DateOrder.MDY;
      }
      return fullDate(year, dayFirst ? b : a, dayFirst ? a : b);
    }
    if ((m = YEAR_MONTH.matcher(s)).matches()) {
      return iso(false, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), 0);
    }
    if ((m = YEAR_ONLY.matcher(s)).matches()) {
      return iso(false, Integer.parseInt(m.group(1)), 0, 0);
    }
    if ((m = COMPACT_YMD.matcher(s)).matches()) {
      return fullDate(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }
    if ((m = DAY_MONTH_YEAR.matcher(s)).matches()) {
      Integer month = month(m.group(2));
      return month == null ? null : fullDate(Integer.parseInt(m.group(3)), month, Integer.parseInt(m.group(1)));
    }
    if ((m = MONTH_DAY_YEAR.matcher(s)).matches()) {
      Integer month = month(m.group(1));
      return month == null ? null : fullDate(Integer.parseInt(m.group(3)), month, Integer.parseInt(m.group(2)));
    }
    if ((m = YEAR_MONTHNAME_DAY.matcher(s)).matches()) {
      Integer month = month(m.group(2));
      return month == null ? null : fullDate(Integer.parseInt(m.group(1)), month, Integer.parseInt(m.group(3)));
    }
    if ((m = MONTH_YEAR.matcher(s)).matches()) {
      Integer month = month(m.group(1));
      return month == null ? null : iso(false, Integer.parseInt(m.group(2)), month, 0);
    }
    return null;
  }

  /** {@link #isoDate(String, DateOrder)} as a {@link LocalDate}; NULL unless the value has day precision. */
  public static @Nullable LocalDate parseDate(@Nullable String value, DateOrder order) {
    String iso = isoDate(value, order);
    if (iso == null || iso.startsWith("-") || iso.length() != 10) {
      return null;
    }
    return LocalDate.parse(iso);
  }

  private static @Nullable Integer month(String name) {
    return MONTHS.get(name.toLowerCase(Locale.ROOT));
  }

  private static @Nullable String fullDate(int year, int month, int day) {
    if (month < 1 || day < 1) {
      return null;
    }
    return iso(false, year, month, day);
  }

  private static @Nullable String iso(boolean negative, int year, int month, int day) {
    if (year > 9999 || month > 12 || day > 31 || (month == 0 && day != 0)) {
      return null;
    }
    String y = (negative ? "-" : "") + String.format(Locale.ROOT, "%04d", year);
    if (month == 0) {
      return y;
    }
    if (day == 0) {
      return y + String.format(Locale.ROOT, "-%02d", month);
    }
    try {
      LocalDate.of(negative ? -year : year, month, day);
    } catch (DateTimeException e) {
      return null;
    }
    return y + String.format(Locale.ROOT, "-%02d-%02d", month, day);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Numbers

  /** {@link #parseNumber(String, Character)} with the separator inferred from the value alone. */
  public static @Nullable Double parseNumber(@Nullable String value) {
    return parseNumber(value, null);
  }

  /**
   * Numeric parsing with signs, group separators and decimal commas: '+13789' → 13789, '1.234,5' → 1234.5,
   * '12 484,59' → 12484.59, '−3' → -3, '1,234,567' → 1234567, "1'000" → 1000, '2.5e3' → 2500, '214,092 units' → 214092,
   * '$12.50' → 12.5, 'USD 1,234.50' → 1234.5 (a unit word after a space, a currency sign before, or a currency code
   * of two to four letters and a space before is dropped; '12a' stays NULL). A lone '.' or
   * ',' that could group (1–3 digits before, exactly 3 after: '13,789') is read by {@code decimalSeparator}
   * ('.' or ','); without it a ',' groups (13789) and a '.' is the decimal point; any other lone separator is
   * the decimal point ('2854,325' → 2854.325). Group
   * structure is checked (1–3 digits, then groups of three): '1,2,3' is NULL, as is anything that is not a
   * number.
   */
  public static @Nullable Double parseNumber(@Nullable String value, @Nullable Character decimalSeparator) {
    BigDecimal d = parseDecimal(value, decimalSeparator);
    return d == null ? null : d.doubleValue();
  }

  /** {@link #parseNumber(String, Character)} as an exact decimal rounded to {@code scale} places (HALF_EVEN). */
  public static @Nullable BigDecimal parseDecimal(@Nullable String value, @Nullable Character decimalSeparator, int scale) {
    BigDecimal d = parseDecimal(value, decimalSeparator);
    return d == null ? null : d.setScale(scale, RoundingMode.HALF_EVEN);
  }

  /** A currency sign before the number ({@code $12.50}). */
  private static final Pattern CURRENCY_BEFORE = Pattern.compile("[$€£¥]\\s?(.+)");
  /** A unit or currency word after the number and a space ({@code 214,092 units}, {@code 12 kg}, {@code 5 EUR}). */
  private static final Pattern UNIT_AFTER = Pattern.compile("(.*\\d)\\s+\\p{L}{1,6}\\.?");

  /** A currency code or short unit word before the number and a space ({@code USD 1,234.50}, {@code Rs. 120}). */
  private static final Pattern CODE_BEFORE = Pattern.compile("\\p{L}{2,4}\\.?\\s+([+\\-\u2212]?[\\d.,].*)");

  /** The number without a currency sign or code before it or a unit word after it; else as it is. */
  static String withoutUnit(String s) {
    Matcher m = CURRENCY_BEFORE.matcher(s);
    if (m.matches()) {
      return m.group(1).strip();
    }
    m = CODE_BEFORE.matcher(s);
    if (m.matches()) {
      return m.group(1).strip();
    }
    m = UNIT_AFTER.matcher(s);
    return m.matches() ? m.group(1) : s;
  }

  private static final Pattern EXPONENT_NUMBER = Pattern.compile("\\d+(?:\\.\\d+)?[eE][+-]?\\d{1,3}");

  static @Nullable BigDecimal parseDecimal(@Nullable String value, @Nullable Character decimalSeparator) {
    if (value == null) {
      return null;
    }
    if (decimalSeparator != null && decimalSeparator != '.' && decimalSeparator != ',') {
      throw new IllegalArgumentException("decimal separator must be '.' or ',', got '" + decimalSeparator + "'");
    }
    String s = withoutUnit(cleanText(value));
    if (s.isEmpty()) {
      return null;
    }
    boolean negative = false;
    char first = s.charAt(0);
    if (first == '+' || first == '-' || first == '\u2212') {
      negative = first != '+';
      s = withoutUnit(s.substring(1).stripLeading());
    }
    if (s.isEmpty() || !Character.isDigit(s.charAt(0)) && s.charAt(0) != '.' && s.charAt(0) != ',') {
      return null;
    }
    if (EXPONENT_NUMBER.matcher(s).matches()) {
      BigDecimal d = new BigDecimal(s);
      return negative ? d.negate() : d;
    }
    // Split into digit runs and the separators between them.
    List<String> groups = new ArrayList<>();
    List<Character> separators = new ArrayList<>();
    StringBuilder run = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        run.append(c);
      } else if (c == '.' || c == ',' || c == '\'' || c == '\u2019' || c == ' ' || c == '\u00A0'
          || c == '\u202F' || c == '\u2009' || c == '_') {
        if (run.length() == 0 && !(i == 0 && (c == '.' || c == ','))) {
          return null;
        }
        groups.add(run.toString());
        run.setLength(0);
        separators.add(c == '\u2019' ? '\'' : (isSpace(c) || c == '\u2009' ? ' ' : c));
      } else {
        return null;
      }
    }
    if (run.length() == 0) {
      return null;
    }
    groups.add(run.toString());
    if (separators.isEmpty()) {
      return signed(groups.get(0), "", negative);
    }
    // Decide which separator, if any, is the decimal point: it can only be the last one.
    char last = separators.get(separators.size() - 1);
    boolean lastIsDecimal;
    long dots = separators.stream().filter(c -> c == '.').count();
    long commas = separators.stream().filter(c -> c == ',').count();
    if (last != '.' && last != ',') {
      lastIsDecimal = false;
    } else if (dots > 0 && commas > 0) {
      lastIsDecimal = (last == '.' ? dots : commas) == 1;
    } else if ((last == '.' ? dots : commas) > 1) {
      lastIsDecimal = false;
    } else if (separators.size() > 1) {
      lastIsDecimal = true; // e.g. '12 484,59', "1'234.5": other separators group
    } else {
      // One '.' or ','; it can group only if 1-3 digits precede it and exactly 3 follow.
      boolean couldGroup = groups.get(1).length() == 3 && !groups.get(0).isEmpty() && groups.get(0).length() <= 3;
      if (!couldGroup) {
        lastIsDecimal = true;
      } else if (decimalSeparator != null) {
        lastIsDecimal = decimalSeparator == last;
      } else {
        lastIsDecimal = last == '.';
      }
    }
    String fraction = "";
    int integerGroups = groups.size();
    if (lastIsDecimal) {
      fraction = groups.get(groups.size() - 1);
      integerGroups--;
    }
    // Every separator in the integer part must be the same and group by three.
    Character groupSeparator = null;
    StringBuilder integer = new StringBuilder();
    for (int g = 0; g < integerGroups; g++) {
      String digits = groups.get(g);
      if (g > 0) {
        char sep = separators.get(g - 1);
        if (groupSeparator == null) {
          groupSeparator = sep;
        } else if (groupSeparator != sep) {
          return null;
        }
        if (digits.length() != 3) {
          return null;
        }
      } else if (integerGroups > 1 && (digits.isEmpty() || digits.length() > 3)) {
        return null;
      }
      integer.append(digits);
    }
    if (lastIsDecimal && groupSeparator != null && groupSeparator == last) {
      return null;
    }
    if (integer.length() == 0 && fraction.isEmpty()) {
      return null;
    }
    return signed(integer.length() == 0 ? "0" : integer.toString(), fraction, negative);
  }

  private static BigDecimal signed(String integer, String fraction, boolean negative) {
    BigDecimal d = new BigDecimal(fraction.isEmpty() ? integer : integer + "." + fraction);
    return negative ? d.negate() : d;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Categories

  /**
   * Categorical canonicalisation: returns the vocabulary entry whose {@link #textKey} equals the value's
   * ('whangarei ' with vocabulary ['Whangārei', 'Auckland'] → 'Whangārei'); a value with no such entry is
   * returned unchanged, never dropped. When two entries share a key the first wins.
   */
  public static @Nullable String canonicalize(@Nullable String value, List<String> vocabulary) {
    if (value == null) {
      return null;
    }
    Objects.requireNonNull(vocabulary, "vocabulary");
    return Vocabulary.of(vocabulary).canonical(value);
  }

  /** A vocabulary indexed by {@link #textKey}; immutable, thread-safe. */
  static final class Vocabulary {
    private final Map<String, String> byKey;

    private Vocabulary(Map<String, String> byKey) {
      this.byKey = byKey;
    }

    static Vocabulary of(List<? extends @Nullable String> entries) {
      Map<String, String> byKey = new HashMap<>();
      for (String entry : entries) {
        if (entry != null) {
          byKey.putIfAbsent(textKey(entry), entry);
        }
      }
      return new Vocabulary(byKey);
    }

    @Nullable String canonical(@Nullable String value) {
      if (value == null) {
        return null;
      }
      String hit = byKey.get(textKey(value));
      return hit == null ? value : hit;
    }
  }

  // ---------------------------------------------------------------------------------------------------------

  static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }
}
