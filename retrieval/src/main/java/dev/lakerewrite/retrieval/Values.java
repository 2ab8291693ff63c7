package dev.lakerewrite.retrieval;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.commons.text.StringEscapeUtils;
import org.jspecify.annotations.Nullable;

/**
 * The comparison form of a cell value, used wherever two values must count as "the same" despite light noise:
 * join-key overlap in the join graph, literal matches in SEARCH_VALUE, profile statistics. Drops what a reader
 * never sees (zero-width and other format characters such as a soft hyphen or a byte-order mark, control characters,
 * simple HTML tags such as {@code <b>}), decodes HTML entities ({@code &amp;}), folds case, collapses whitespace,
 * strips diacritics and canonicalises numbers ({@code '+13789'}, {@code '13789.0'}, {@code '13789\u00AD'} and
 * {@code 13789} all become {@code 13789}).
 *
 * <p>Idempotent; O(n) in the length of the value.
 */
public final class Values {
  private static final Pattern WHITESPACE = Pattern.compile("[\\s\\u00A0\\u2000-\\u200A\\u202F\\u3000]+");
  /**
   * Characters a reader never sees: format characters (zero-width spaces and joiners, the soft hyphen, the byte-order
   * mark) and control characters other than whitespace. Removed, not turned into spaces: {@code '11\u200B35'} is
   * {@code 1135}.
   */
  private static final Pattern INVISIBLE = Pattern.compile("[\\p{Cf}\\x00-\\x08\\x0E-\\x1F\\x7F-\\x9F]");
  /** An HTML tag without attributes ({@code <b>}, {@code </i>}, {@code <br/>}): markup around a value, not the value. */
  private static final Pattern TAG = Pattern.compile("</?[a-zA-Z][a-zA-Z0-9]{0,9}\\s*/?>");
  /** A plain decimal number with an optional sign and exponent: what {@link BigDecimal} accepts. */
  private static final Pattern PLAIN_NUMBER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
  /** Midnight timestamps as Wikidata writes dates: {@code +1995-11-22T00:00:00Z} → {@code 1995-11-22}. */
  private static final Pattern MIDNIGHT_TIMESTAMP =
      Pattern.compile("^\\+?(\\d{4}-\\d{2}-\\d{2})[t ]00:00:00(\\.0+)?(z|[+-]00:?00)?$");

  private Values() {}

  /** Returns the comparison form of {@code value}; {@code null} stays {@code null}. */
  public static @Nullable String normalize(String value) {
    if (value == null) {
      return null;
    }
    String plain = plainAscii(value);
    return plain != null ? plain : normalizeFully(value);
  }

  /**
   * The comparison form of the commonest values, without regular expressions or Unicode normalisation (indexing
   * normalises millions of values): printable ASCII with single inner spaces, not starting like a number, or a
   * whole number without leading zeros, is only lower-cased; a decimal number already in canonical form
   * ({@code -35.719}: no leading zeros, no trailing zeros after the point) and an ISO date ({@code 2024-01-31}) are
   * their own comparison form. Null for anything else.
   */
  static @Nullable String plainAscii(String value) {
    int n = value.length();
    if (n == 0 || n > 64) {
      return null;
    }
    boolean upper = false;
    boolean digits = true;
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7E || c == '<' || c == '&' || c == ' ' && (i == 0 || i == n - 1 || value.charAt(i - 1) == ' ')) {
        return null;
      }
      upper |= c >= 'A' && c <= 'Z';
      digits &= c >= '0' && c <= '9';
    }
    char first = value.charAt(0);
    if (digits) {
      return first != '0' || n == 1 ? value : null;
    }
    if (first >= '0' && first <= '9' || first == '+' || first == '-' || first == '.') {
      return isCanonicalDecimal(value) || isIsoDate(value) ? value : null;
    }
    return upper ? value.toLowerCase(Locale.ROOT) : value;
  }

  /** {@code [-]digits[.digits]} as {@link #canonicalNumber} writes it: no leading zeros, none trailing the point. */
  private static boolean isCanonicalDecimal(String value) {
    int n = value.length();
    int start = value.charAt(0) == '-' ? 1 : 0;
    int i = start;
    while (i < n && isDigit(value.charAt(i))) {
      i++;
    }
    if (i == start) {
      return false;
    }
    boolean leadingZero = value.charAt(start) == '0';
    if (leadingZero && i - start > 1) {
      return false;
    }
    if (i == n) {
      return !leadingZero;
    }
    if (value.charAt(i) != '.') {
      return false;
    }
    int fraction = ++i;
    while (i < n && isDigit(value.charAt(i))) {
      i++;
    }
    return i == n && i > fraction && value.charAt(n - 1) != '0';
  }

  /** {@code yyyy-mm-dd}: no number, no midnight timestamp, nothing to fold. */
  private static boolean isIsoDate(String value) {
    if (value.length() != 10 || value.charAt(4) != '-' || value.charAt(7) != '-') {
      return false;
    }
    for (int i = 0; i < 10; i++) {
      if (i != 4 && i != 7 && !isDigit(value.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** {@code s} without HTML tags ({@code <b>12</b>} → {@code 12}); the rest as written. */
  static String withoutTags(String s) {
    return s.indexOf('<') >= 0 ? TAG.matcher(s).replaceAll("") : s;
  }

  static String normalizeFully(String value) {
    String s = withoutTags(INVISIBLE.matcher(value).replaceAll(""));
    if (s.indexOf('&') >= 0) {
      s = StringEscapeUtils.unescapeHtml4(s); // &amp; → &, &#233; → é; an unknown entity stays as written
    }
    s = WHITESPACE.matcher(s).replaceAll(" ").strip();
    s = Names.Text.stripDiacritics(s).toLowerCase(Locale.ROOT);
    String number = canonicalNumber(s);
    if (number != null) {
      return number;
    }
    var midnight = MIDNIGHT_TIMESTAMP.matcher(s);
    if (midnight.matches()) {
      return midnight.group(1);
    }
    return s;
  }

  /**
   * Returns the canonical plain form of a number written without grouping ({@code +13789} → {@code 13789},
   * {@code 2854.320} → {@code 2854.32}), or null when {@code s} is not such a number. Grouped and
   * locale-formatted numbers ({@code 1.234,5}) are the cleaning module's business, not a comparison's.
   */
  public static @Nullable String canonicalNumber(String s) {
    Objects.requireNonNull(s, "s");
    String t = s.strip();
    if (t.isEmpty() || t.length() > 64 || !PLAIN_NUMBER.matcher(t).matches()) {
      return null;
    }
    try {
      BigDecimal d = new BigDecimal(t.startsWith("+") ? t.substring(1) : t);
      if (d.signum() == 0) {
        return "0";
      }
      BigDecimal stripped = d.stripTrailingZeros();
      // 1e99999 is a number, but its plain form would be 100k characters: leave such values alone.
      return Math.abs(stripped.scale()) > 64 ? null : stripped.toPlainString();
    } catch (NumberFormatException | ArithmeticException e) {
      return null;
    }
  }
}
