package dev.lakerewrite.eval.perturb;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Splitting names into words and putting words back together in the naming conventions of real schemas. */
final class Words {

  private Words() {}

  /**
   * The lower-case words of a name: split at non-alphanumerics, at lower→upper case changes ({@code custKey}) and
   * between letters and digits. {@code "ISO 3166-2 code"} → {@code [iso, 3166, 2, code]}.
   */
  static List<String> tokens(String name) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    int prev = 0; // 0 none, 1 lower, 2 upper, 3 digit
    for (int i = 0; i < name.length(); ) {
      int cp = name.codePointAt(i);
      i += Character.charCount(cp);
      int kind = Character.isDigit(cp) ? 3 : Character.isUpperCase(cp) ? 2 : Character.isLetter(cp) ? 1 : 0;
      boolean split = kind == 0 || (prev == 1 && kind == 2) || (prev != 0 && (prev == 3) != (kind == 3));
      if (split && cur.length() > 0) {
        out.add(cur.toString().toLowerCase(Locale.ROOT));
        cur.setLength(0);
      }
      if (kind != 0) {
        cur.appendCodePoint(cp);
      }
      prev = kind;
    }
    if (cur.length() > 0) {
      out.add(cur.toString().toLowerCase(Locale.ROOT));
    }
    return out;
  }

  /**
   * The prefix every column of a table shares, as TPC-H's {@code c_} or TPC-DS's {@code ss_} (ending with an
   * underscore, at most five characters), or empty.
   */
  static String columnPrefix(List<String> columns) {
    if (columns.size() < 2) {
      return "";
    }
    String first = columns.get(0);
    int us = first.indexOf('_');
    if (us < 1 || us > 4) {
      return "";
    }
    String prefix = first.substring(0, us + 1);
    return columns.stream().allMatch(c -> c.startsWith(prefix) && c.length() > prefix.length()) ? prefix : "";
  }

  static String withoutPrefix(String name, String prefix) {
    return !prefix.isEmpty() && name.startsWith(prefix) ? name.substring(prefix.length()) : name;
  }

  /** The naming conventions of the names the disorganizer writes. */
  enum Case {
    SNAKE, CAMEL, PASCAL, UPPER_SNAKE;

    String join(List<String> words) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < words.size(); i++) {
        String w = words.get(i);
        switch (this) {
          case SNAKE -> b.append(i == 0 ? "" : "_").append(w);
          case UPPER_SNAKE -> b.append(i == 0 ? "" : "_").append(w.toUpperCase(Locale.ROOT));
          case CAMEL -> b.append(i == 0 ? w : capitalize(w));
          case PASCAL -> b.append(capitalize(w));
        }
      }
      return b.toString();
    }
  }

  static String capitalize(String w) {
    return w.isEmpty() ? w : w.substring(0, 1).toUpperCase(Locale.ROOT) + w.substring(1);
  }

  /** English plural of a noun (regular rules; enough for table names). */
  static String plural(String w) {
    if (w.isEmpty() || w.endsWith("s") || !Character.isLetter(w.charAt(w.length() - 1))) {
      return w;
    }
    if (w.endsWith("y") && w.length() > 1 && "aeiou".indexOf(w.charAt(w.length() - 2)) < 0) {
      return w.substring(0, w.length() - 1) + "ies";
    }
    if (w.endsWith("x") || w.endsWith("ch") || w.endsWith("sh")) {
      return w + "es";
    }
    return w + "s";
  }

  /** English singular of a regular plural. */
  static String singular(String w) {
    if (w.endsWith("ies") && w.length() > 4) {
      return w.substring(0, w.length() - 3) + "y";
    }
    if (w.endsWith("ses") || w.endsWith("xes") || w.endsWith("ches") || w.endsWith("shes")) {
      return w.substring(0, w.length() - 2);
    }
    if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && w.length() > 3) {
      return w.substring(0, w.length() - 1);
    }
    return w;
  }

  /** The first {@code n} letters ({@code customer} → {@code cust}). */
  static String truncated(String w, int n) {
    return w.length() <= n ? w : w.substring(0, n);
  }

  /**
   * The consonant skeleton: first letter kept, later vowels dropped, doubled letters collapsed, at most
   * {@code n} letters ({@code customer} → {@code cstmr}, {@code quantity} → {@code qntt}).
   */
  static String skeleton(String w, int n) {
    if (w.length() <= 3) {
      return w;
    }
    StringBuilder b = new StringBuilder().append(w.charAt(0));
    for (int i = 1; i < w.length() && b.length() < n; i++) {
      char ch = w.charAt(i);
      if ("aeiou".indexOf(ch) >= 0 || ch == b.charAt(b.length() - 1)) {
        continue;
      }
      b.append(ch);
    }
    return b.length() < 2 ? truncated(w, n) : b.toString();
  }
}
