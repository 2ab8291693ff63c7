package dev.lakerewrite.retrieval;

import java.text.Normalizer;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Normalisation of table and column names into the natural-language form that is embedded and compared
 * (thesis §5.1.1): lower case, snake_case and camelCase split into words, punctuation and file extensions
 * stripped, diacritics removed, spaces collapsed. {@code Gini_Index}, {@code giniIndex} and {@code Gini Index}
 * all become {@code gini index}.
 *
 * <p>The function is idempotent: {@code normalize(normalize(s)).equals(normalize(s))}. Runs in O(n) for a name
 * of n characters.
 */
public final class Names {
  private static final Pattern FILE_EXTENSION = Pattern.compile(
      "\\.(csv|tsv|txt|json|jsonl|ndjson|parquet|xlsx?|duckdb|db|sqlite3?|arrow|feather|orc|avro)$",
      Pattern.CASE_INSENSITIVE);
  /** A lower-case letter or digit followed by an upper-case letter: {@code giniIndex}. */
  private static final Pattern CAMEL_LOWER_UPPER = Pattern.compile("(?<=[\\p{Ll}\\p{N}])(?=\\p{Lu})");
  /** The end of an acronym before a capitalised word: {@code HTMLParser} → {@code HTML Parser}. */
  private static final Pattern CAMEL_ACRONYM = Pattern.compile("(?<=\\p{Lu})(?=\\p{Lu}\\p{Ll})");
  /** Apostrophes join a word ({@code topic's} → {@code topics}) instead of splitting it. */
  private static final Pattern APOSTROPHES = Pattern.compile("['’`´]");
  private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

  private Names() {}

  /** Returns the normalised form of a table or column name; never null, possibly empty. */
  public static String normalize(String name) {
    Objects.requireNonNull(name, "name");
    String s = FILE_EXTENSION.matcher(name.strip()).replaceFirst("");
    s = Text.stripDiacritics(s);
    s = CAMEL_LOWER_UPPER.matcher(s).replaceAll(" ");
    s = CAMEL_ACRONYM.matcher(s).replaceAll(" ");
    s = APOSTROPHES.matcher(s).replaceAll("");
    s = NOT_WORD.matcher(s).replaceAll(" ");
    return s.toLowerCase(Locale.ROOT).strip();
  }

  /** Shared Unicode helpers for names and values. */
  static final class Text {
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");

    private Text() {}

    /**
     * Removes diacritics (NFD, then drops combining marks) and folds the Latin letters that do not decompose
     * ({@code æ ø œ ß ł đ þ}); {@code Whangārei} → {@code Whangarei}, {@code Encyclopædia} → {@code Encyclopaedia}.
     */
    static String stripDiacritics(String s) {
      String decomposed = Normalizer.normalize(s, Normalizer.Form.NFKD);
      String stripped = MARKS.matcher(decomposed).replaceAll("");
      if (isAscii(stripped)) {
        return stripped;
      }
      StringBuilder out = new StringBuilder(stripped.length() + 4);
      for (int i = 0; i < stripped.length(); i++) {
        char c = stripped.charAt(i);
        switch (c) {
          case 'æ': out.append("ae"); break;
          case 'Æ': out.append("AE"); break;
          case 'œ': out.append("oe"); break;
          case 'Œ': out.append("OE"); break;
          case 'ø': out.append('o'); break;
          case 'Ø': out.append('O'); break;
          case 'ß': out.append("ss"); break;
          case 'ẞ': out.append("SS"); break; // capital sharp s: lower-cased later to ß, which would fold again
          case 'ł': out.append('l'); break;
          case 'Ł': out.append('L'); break;
          case 'đ': out.append('d'); break;
          case 'Đ': out.append('D'); break;
          case 'þ': out.append("th"); break;
          case 'Þ': out.append("TH"); break;
          case 'ı': out.append('i'); break;
          default: out.append(c);
        }
      }
      return out.toString();
    }

    private static boolean isAscii(String s) {
      for (int i = 0; i < s.length(); i++) {
        if (s.charAt(i) > 0x7F) {
          return false;
        }
      }
      return true;
    }
  }
}
