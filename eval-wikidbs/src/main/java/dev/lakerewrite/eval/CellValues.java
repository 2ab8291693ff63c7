package dev.lakerewrite.eval;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How the metrics read a cell "as a string" (thesis §7.3: "we extract its cell values as a list of strings").
 *
 * <p>Comparing {@code String.valueOf} of raw engine values would make the score depend on which column type a
 * rewrite happened to pick rather than on the data: the sample lake holds the same area as DOUBLE {@code 13789.0}
 * in one table and as VARCHAR {@code "+13789"} in another, and a rewrite that casts to BIGINT yields {@code 13789}.
 * All three are one value. So the canonical string is:
 * <ul>
 *   <li>{@code null} stays {@code null}: a NULL cell equals another NULL cell and never equals any string (not
 *       {@code ""}, not {@code "NULL"});</li>
 *   <li>numbers (any Java numeric type) become a plain decimal without exponent, sign {@code +} or trailing zeros:
 *       {@code 13789}, {@code 13789.0}, {@code 13789.00} and {@code 13789L} all read {@code "13789"}; integral
 *       values keep every digit (identifiers such as 21-digit VIAF ids stay distinct), fractional values are
 *       rounded to 12 significant digits so float noise ({@code 0.1 + 0.2}) and CSV truncation
 *       ({@code -40.35698333333333} vs {@code -40.3569833333333}) do not count as different values;</li>
 *   <li>a string that is exactly a plain decimal number ({@code [+-]?digits[.digits]}, no spaces, no thousands
 *       separators, no exponent) reads as that number, so {@code "+13789"} equals {@code 13789}; every other
 *       string is compared verbatim (case, whitespace and diacritics matter: cleaning noise is the rewriter's
 *       job, not the metric's);</li>
 *   <li>booleans read {@code "true"}/{@code "false"}; dates and times read ISO-8601 ({@code 2020-01-31},
 *       {@code 2020-01-31T10:15:00}); byte arrays read {@code \x} and lower-case hex; lists and arrays read
 *       {@code [a, b]} and maps {@code {k=v}} with canonical elements; anything else reads {@code toString()}.</li>
 * </ul>
 */
public final class CellValues {

  /** Significant digits kept for non-integral numbers. */
  public static final int SIGNIFICANT_DIGITS = 12;

  private static final MathContext ROUNDING = new MathContext(SIGNIFICANT_DIGITS, RoundingMode.HALF_EVEN);
  private static final Pattern PLAIN_DECIMAL = Pattern.compile("[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)");

  private CellValues() {}

  /** The canonical string of a cell, or {@code null} for a NULL cell. */
  public static @Nullable String canonical(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof String s) {
      return PLAIN_DECIMAL.matcher(s).matches() ? number(new BigDecimal(s)) : s;
    }
    if (value instanceof Character c) {
      return canonical(String.valueOf(c));
    }
    if (value instanceof Number n) {
      return number(n);
    }
    if (value instanceof Boolean b) {
      return b ? "true" : "false";
    }
    if (value instanceof java.sql.Timestamp ts) {
      return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(ts.toLocalDateTime());
    }
    if (value instanceof java.sql.Date d) {
      return d.toLocalDate().toString();
    }
    if (value instanceof java.sql.Time t) {
      return DateTimeFormatter.ISO_LOCAL_TIME.format(t.toLocalTime());
    }
    if (value instanceof LocalDate d) {
      return d.toString();
    }
    if (value instanceof LocalDateTime dt) {
      return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(dt);
    }
    if (value instanceof LocalTime t) {
      return DateTimeFormatter.ISO_LOCAL_TIME.format(t);
    }
    if (value instanceof OffsetDateTime odt) {
      return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(odt);
    }
    if (value instanceof byte[] bytes) {
      return "\\x" + HexFormat.of().formatHex(bytes);
    }
    if (value instanceof Object[] array) {
      return sequence(Arrays.asList(array).iterator());
    }
    if (value instanceof Collection<?> collection) {
      return sequence(collection.iterator());
    }
    if (value instanceof Map<?, ?> map) {
      StringBuilder sb = new StringBuilder("{");
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        sb.append(first ? "" : ", ").append(element(e.getKey())).append('=').append(element(e.getValue()));
        first = false;
      }
      return sb.append('}').toString();
    }
    return value.toString();
  }

  private static String sequence(Iterator<?> it) {
    StringBuilder sb = new StringBuilder("[");
    boolean first = true;
    while (it.hasNext()) {
      sb.append(first ? "" : ", ").append(element(it.next()));
      first = false;
    }
    return sb.append(']').toString();
  }

  private static String element(Object value) {
    String s = canonical(value);
    return s == null ? "NULL" : s;
  }

  private static String number(Number n) {
    if (n instanceof Double || n instanceof Float) {
      double d = n.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return Double.toString(d);
      }
      // The shortest decimal that round-trips, not the binary expansion (0.1 is "0.1", not 0.1000000000000000055...).
      return number(new BigDecimal(n instanceof Float ? Float.toString(n.floatValue()) : Double.toString(d)));
    }
    if (n instanceof BigDecimal bd) {
      return number(bd);
    }
    if (n instanceof BigInteger bi) {
      return bi.toString();
    }
    if (n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte) {
      return Long.toString(n.longValue());
    }
    // Other Number implementations (atomic types, engine-specific decimals): go through their text form.
    String text = n.toString();
    try {
      return number(new BigDecimal(text));
    } catch (NumberFormatException e) {
      return text;
    }
  }

  private static String number(BigDecimal value) {
    if (value.signum() == 0) {
      return "0";
    }
    BigDecimal stripped = value.stripTrailingZeros();
    if (stripped.scale() <= 0) {
      return stripped.toBigInteger().toString();
    }
    BigDecimal rounded = stripped.round(ROUNDING).stripTrailingZeros();
    if (rounded.signum() == 0) {
      return "0";
    }
    return rounded.scale() <= 0 ? rounded.toBigInteger().toString() : rounded.toPlainString();
  }
}
