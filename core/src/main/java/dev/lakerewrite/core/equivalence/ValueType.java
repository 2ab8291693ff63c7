package dev.lakerewrite.core.equivalence;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What the instance generator knows about a column type: its family, the values on either side of a value
 * (for boundaries: {@code x < 5} needs 4, 5 and 6), a few default values, and how a value is written as a
 * literal. Values are the engine's text form of the value.
 */
final class ValueType {
  enum Family { INTEGER, DECIMAL, FLOAT, STRING, DATE, TIMESTAMP, TIME, BOOLEAN, OTHER }

  private static final Pattern DECIMAL = Pattern.compile("(?:DECIMAL|NUMERIC)\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");
  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private final String type;
  private final Family family;
  private final int scale;
  private final BigInteger min;
  private final BigInteger max;

  private ValueType(String type, Family family, int scale, @Nullable BigInteger min, @Nullable BigInteger max) {
    this.type = type;
    this.family = family;
    this.scale = scale;
    this.min = min;
    this.max = max;
  }

  static ValueType of(String type) {
    String t = type.strip().toUpperCase(Locale.ROOT);
    Matcher d = DECIMAL.matcher(t);
    if (d.matches()) {
      // DECIMAL(p, s) holds numbers whose integer part has at most p - s digits: |v| < 10^(p - s).
      int scale = Integer.parseInt(d.group(2));
      BigInteger bound = BigInteger.TEN.pow(Math.max(0, Integer.parseInt(d.group(1)) - scale));
      return new ValueType(type, Family.DECIMAL, scale, bound.negate(), bound);
    }
    switch (t) {
      case "TINYINT", "INT1" -> {
        return integer(type, -128, 127);
      }
      case "SMALLINT", "INT2", "SHORT" -> {
        return integer(type, Short.MIN_VALUE, Short.MAX_VALUE);
      }
      case "INTEGER", "INT", "INT4", "SIGNED", "SERIAL" -> {
        return integer(type, Integer.MIN_VALUE, Integer.MAX_VALUE);
      }
      case "BIGINT", "INT8", "LONG", "BIGSERIAL", "HUGEINT", "INT128" -> {
        return integer(type, Long.MIN_VALUE, Long.MAX_VALUE);
      }
      case "UTINYINT" -> {
        return integer(type, 0, 255);
      }
      case "USMALLINT" -> {
        return integer(type, 0, 65_535);
      }
      case "UINTEGER" -> {
        return integer(type, 0, 4_294_967_295L);
      }
      case "UBIGINT", "UHUGEINT" -> {
        return integer(type, 0, Long.MAX_VALUE);
      }
      case "DECIMAL", "NUMERIC" -> {
        return new ValueType(type, Family.DECIMAL, 3, null, null);
      }
      case "DOUBLE", "FLOAT", "REAL", "FLOAT4", "FLOAT8", "DOUBLE PRECISION" -> {
        return new ValueType(type, Family.FLOAT, 0, null, null);
      }
      case "VARCHAR", "TEXT", "STRING", "CHAR", "BPCHAR", "CHARACTER VARYING", "CHARACTER", "NAME" -> {
        return new ValueType(type, Family.STRING, 0, null, null);
      }
      case "DATE" -> {
        return new ValueType(type, Family.DATE, 0, null, null);
      }
      case "TIMESTAMP", "DATETIME", "TIMESTAMP WITHOUT TIME ZONE", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS" -> {
        return new ValueType(type, Family.TIMESTAMP, 0, null, null);
      }
      case "TIME", "TIME WITHOUT TIME ZONE" -> {
        return new ValueType(type, Family.TIME, 0, null, null);
      }
      case "BOOLEAN", "BOOL", "LOGICAL" -> {
        return new ValueType(type, Family.BOOLEAN, 0, null, null);
      }
      default -> {
        if (t.startsWith("VARCHAR") || t.startsWith("CHARACTER VARYING") || t.startsWith("CHAR")
            || t.startsWith("BPCHAR")) {
          return new ValueType(type, Family.STRING, 0, null, null);
        }
        return new ValueType(type, Family.OTHER, 0, null, null);
      }
    }
  }

  private static ValueType integer(String type, long min, long max) {
    return new ValueType(type, Family.INTEGER, 0, BigInteger.valueOf(min), BigInteger.valueOf(max));
  }

  String type() {
    return type;
  }

  Family family() {
    return family;
  }

  /** Whether the type is a number (integer, decimal or floating point). */
  boolean numeric() {
    return family == Family.INTEGER || family == Family.DECIMAL || family == Family.FLOAT;
  }

  /**
   * A number as this numeric type writes it (a decimal at its scale), or null when the type cannot hold it
   * exactly (an integer type and a fraction, more digits after the point than the decimal's scale, more before it
   * than its precision leaves).
   */
  @Nullable String number(BigDecimal value) {
    BigDecimal v = value.stripTrailingZeros();
    switch (family) {
      case INTEGER -> {
        if (v.scale() > 0) {
          return null;
        }
        BigInteger i = v.toBigIntegerExact();
        return i.compareTo(min) < 0 || i.compareTo(max) > 0 ? null : i.toString();
      }
      case DECIMAL -> {
        if (v.scale() > scale || max != null && v.abs().compareTo(new BigDecimal(max)) >= 0) {
          return null;
        }
        return v.setScale(scale, java.math.RoundingMode.UNNECESSARY).toPlainString();
      }
      case FLOAT -> {
        return v.scale() > 6 ? null : Double.toString(v.doubleValue());
      }
      default -> {
        return null;
      }
    }
  }

  /** Whether values of the two types can be compared directly (so the two columns may share their values). */
  boolean comparableWith(ValueType other) {
    return group() == other.group();
  }

  private int group() {
    return switch (family) {
      case INTEGER, DECIMAL, FLOAT -> 0;
      case DATE, TIMESTAMP -> 1;
      case STRING -> 2;
      case TIME -> 3;
      case BOOLEAN -> 4;
      case OTHER -> 5 + Math.floorMod(type.toUpperCase(Locale.ROOT).hashCode(), 1000);
    };
  }

  /** The values just below and just above {@code value} (empty when there is no such notion or it fails). */
  List<String> neighbours(String value) {
    List<String> out = new ArrayList<>();
    try {
      switch (family) {
        case INTEGER -> {
          BigInteger v = new BigDecimal(value.strip()).toBigInteger();
          if (v.compareTo(min) > 0) {
            out.add(v.subtract(BigInteger.ONE).toString());
          }
          if (v.compareTo(max) < 0) {
            out.add(v.add(BigInteger.ONE).toString());
          }
        }
        case DECIMAL -> {
          BigDecimal v = new BigDecimal(value.strip());
          BigDecimal step = BigDecimal.ONE.movePointLeft(scale);
          out.add(v.subtract(step).setScale(scale, java.math.RoundingMode.HALF_UP).toPlainString());
          out.add(v.add(step).setScale(scale, java.math.RoundingMode.HALF_UP).toPlainString());
        }
        case FLOAT -> {
          double v = Double.parseDouble(value.strip());
          out.add(Double.toString(v - 0.5));
          out.add(Double.toString(v + 0.5));
        }
        case DATE -> {
          LocalDate v = LocalDate.parse(value.strip().substring(0, 10));
          out.add(v.minusDays(1).toString());
          out.add(v.plusDays(1).toString());
        }
        case TIMESTAMP -> {
          LocalDateTime v = timestamp(value);
          out.add(v.minusSeconds(1).format(TIMESTAMP));
          out.add(v.plusSeconds(1).format(TIMESTAMP));
        }
        case TIME -> {
          LocalTime v = LocalTime.parse(value.strip());
          out.add(v.minusSeconds(1).toString());
          out.add(v.plusSeconds(1).toString());
        }
        case STRING -> {
          if (!value.isEmpty()) {
            out.add(value.substring(0, value.length() - 1));
          }
          out.add(value + "a");
        }
        case BOOLEAN -> {
          out.add("true".equalsIgnoreCase(value.strip()) ? "false" : "true");
        }
        default -> {
          // No order to step along.
        }
      }
    } catch (NumberFormatException | DateTimeParseException | StringIndexOutOfBoundsException e) {
      return List.of();
    }
    return out;
  }

  /**
   * Whether a comparison {@code x op y} holds given {@code cmp}, the sign of comparing x with y; {@code otherwise}
   * for an operator that is not a comparison. {@code IN} and {@code NOT IN} count as {@code =} and {@code <>}.
   */
  static boolean holds(String operator, int cmp, boolean otherwise) {
    return switch (operator) {
      case "=", "IN" -> cmp == 0;
      case "<>", "NOT IN" -> cmp != 0;
      case "<" -> cmp < 0;
      case "<=" -> cmp <= 0;
      case ">" -> cmp > 0;
      case ">=" -> cmp >= 0;
      default -> otherwise;
    };
  }

  /**
   * How two values of this type compare (negative, zero, positive), or null when they cannot be compared here
   * (unknown types, text that does not parse).
   */
  @Nullable Integer compare(String x, String y) {
    try {
      return switch (family) {
        case INTEGER, DECIMAL, FLOAT -> new BigDecimal(x.strip()).compareTo(new BigDecimal(y.strip()));
        case DATE, TIMESTAMP, TIME, STRING -> x.compareTo(y);
        case BOOLEAN -> Boolean.compare(Boolean.parseBoolean(x.strip()), Boolean.parseBoolean(y.strip()));
        case OTHER -> null;
      };
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** A value inside the year {@code year} and its neighbours across the year's ends (for {@code year(d) = 1995}). */
  List<String> yearValues(int year) {
    if (family != Family.DATE && family != Family.TIMESTAMP || year < 1 || year > 9998) {
      return List.of();
    }
    String suffix = family == Family.TIMESTAMP ? " 00:00:00" : "";
    return List.of(String.format(Locale.ROOT, "%04d-01-01", year) + suffix,
        String.format(Locale.ROOT, "%04d-12-31", year) + suffix,
        String.format(Locale.ROOT, "%04d-12-31", year - 1) + suffix,
        String.format(Locale.ROOT, "%04d-01-01", year + 1) + suffix);
  }

  /** A few ordinary values for a column no literal speaks about (few, so that joins match and groups form). */
  List<String> defaults() {
    return switch (family) {
      case INTEGER -> min.signum() < 0 ? List.of("1", "2", "3", "0", "-1") : List.of("1", "2", "3", "0");
      case DECIMAL -> List.of(scaled("1"), scaled("2"), scaled("10.5"), scaled("0"), scaled("-1"));
      case FLOAT -> List.of("1.0", "2.5", "0.0", "-1.0");
      case STRING -> List.of("a", "b", "c", "");
      case DATE -> List.of("2000-01-01", "2000-01-02", "1999-12-31");
      case TIMESTAMP -> List.of("2000-01-01 00:00:00", "2000-01-01 12:00:00", "1999-12-31 23:59:59");
      case TIME -> List.of("00:00:00", "12:00:00", "23:59:59");
      case BOOLEAN -> List.of("true", "false");
      case OTHER -> List.of();
    };
  }

  /** Distinct values for key columns that need more than the shared pool holds. */
  String fresh(int n) {
    return switch (family) {
      case INTEGER -> Integer.toString(1000 + n);
      case DECIMAL -> scaled(Integer.toString(1000 + n));
      case FLOAT -> (1000 + n) + ".0";
      case STRING -> "k" + n;
      case DATE -> LocalDate.of(2100, 1, 1).plusDays(n).toString();
      case TIMESTAMP -> LocalDateTime.of(2100, 1, 1, 0, 0).plusSeconds(n).format(TIMESTAMP);
      case TIME -> LocalTime.of(0, 0).plusSeconds(n).toString();
      case BOOLEAN -> n % 2 == 0 ? "true" : "false";
      case OTHER -> null;
    };
  }

  private String scaled(String v) {
    return new BigDecimal(v).setScale(scale, java.math.RoundingMode.HALF_UP).toPlainString();
  }

  /** Strings a LIKE pattern matches (wildcards as nothing and as a letter) and one it does not. */
  static List<String> likeExamples(String pattern) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    StringBuilder empty = new StringBuilder();
    StringBuilder filled = new StringBuilder();
    boolean escape = false;
    for (int i = 0; i < pattern.length(); i++) {
      char ch = pattern.charAt(i);
      if (escape) {
        empty.append(ch);
        filled.append(ch);
        escape = false;
      } else if (ch == '\\') {
        escape = true;
      } else if (ch == '%') {
        filled.append("zz");
      } else if (ch == '_') {
        empty.append('x');
        filled.append('y');
      } else {
        empty.append(ch);
        filled.append(ch);
      }
    }
    out.add(empty.toString());
    out.add(filled.toString());
    String e = empty.toString();
    out.add(e.isEmpty() ? "q" : e.substring(0, e.length() - 1) + (e.charAt(e.length() - 1) == 'q' ? 'r' : 'q'));
    return new ArrayList<>(out);
  }

  private static LocalDateTime timestamp(String value) {
    String v = value.strip().replace('T', ' ');
    if (v.length() == 10) {
      return LocalDate.parse(v).atStartOfDay();
    }
    return LocalDateTime.parse(v.substring(0, Math.min(19, v.length())), TIMESTAMP);
  }

  @Override
  public String toString() {
    return type + " (" + family + ")";
  }
}
