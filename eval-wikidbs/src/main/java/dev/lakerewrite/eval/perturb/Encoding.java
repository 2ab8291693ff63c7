package dev.lakerewrite.eval.perturb;

import dev.lakerewrite.sql.Sql;
import java.util.Locale;
import java.util.Objects;

/**
 * How the lake stores a column's values, and the two SQL expressions that go there and back: {@link #encode} writes
 * the lake's value from the clean one, {@link #decode} reads the clean value back from the column <em>as the lake
 * loader typed it</em> (a CSV loader may read {@code 'Y'}/{@code 'N'} back as booleans, or a day-first date as a
 * date, which then needs no decoding). Every decoding is exact: it returns the clean value, NULL for NULL.
 */
public sealed interface Encoding {

  /** The kind, as pair files and reports spell it. */
  String kind();

  /** A short human description ({@code "numbers as text: 'USD 1,234.50'"}). */
  String describe();

  /** The lake's value from the clean column reference {@code ref}. */
  String encode(String ref);

  /**
   * The clean value (of {@code sourceType}) from the lake column {@code ref} that the loader typed
   * {@code loadedType}.
   */
  String decode(String ref, String loadedType, String sourceType);

  /**
   * Whether the loader undid this encoding by itself (the lake column already has the clean type), so the lake
   * holds the clean values and the column is not re-encoded after all.
   */
  boolean undoneByLoader(String loadedType, String sourceType);

  /** The clean value as is. */
  record Plain() implements Encoding {
    @Override public String kind() {
      return "none";
    }

    @Override public String describe() {
      return "as is";
    }

    @Override public String encode(String ref) {
      return ref;
    }

    @Override public String decode(String ref, String loadedType, String sourceType) {
      return cast(ref, loadedType, sourceType);
    }

    @Override public boolean undoneByLoader(String loadedType, String sourceType) {
      return true;
    }
  }

  /**
   * Numbers stored as text with a unit or currency and thousands separators: {@code 'USD 1,234.50'},
   * {@code '12 kg'}.
   *
   * @param prefix written before the number, with its space ({@code "USD "}), or empty
   * @param suffix written after it, with its space ({@code " kg"}), or empty
   */
  record NumberAsText(String prefix, String suffix) implements Encoding {
    public NumberAsText {
      Objects.requireNonNull(prefix, "prefix");
      Objects.requireNonNull(suffix, "suffix");
      if (prefix.chars().anyMatch(ch -> Character.isDigit(ch) || ch == ',' || ch == '.' || ch == '-')
          || suffix.chars().anyMatch(ch -> Character.isDigit(ch) || ch == ',' || ch == '.' || ch == '-')) {
        throw new IllegalArgumentException("a unit cannot contain digits, ',', '.' or '-': '" + prefix + "', '"
            + suffix + "'");
      }
    }

    @Override public String kind() {
      return "number-as-text";
    }

    @Override public String describe() {
      return "numbers as text: '" + prefix + "1,234.5" + suffix + "'";
    }

    @Override public String encode(String ref) {
      return Sql.literal(prefix) + " || format('{:,}', " + ref + ") || " + Sql.literal(suffix);
    }

    @Override public String decode(String ref, String loadedType, String sourceType) {
      if (!isText(loadedType)) {
        return cast(ref, loadedType, sourceType);
      }
      String s = ref;
      if (!prefix.isEmpty()) {
        s = "replace(" + s + ", " + Sql.literal(prefix) + ", '')";
      }
      if (!suffix.isEmpty()) {
        s = "replace(" + s + ", " + Sql.literal(suffix) + ", '')";
      }
      return "CAST(replace(" + s + ", ',', '') AS " + sourceType + ")";
    }

    @Override public boolean undoneByLoader(String loadedType, String sourceType) {
      return !isText(loadedType);
    }
  }

  /**
   * Dates stored as text in another format ({@code '05 Mar 1995'}, {@code '1995/03/05'}).
   *
   * @param format a strftime/strptime format
   */
  record DateAsText(String format) implements Encoding {
    public DateAsText {
      Objects.requireNonNull(format, "format");
    }

    @Override public String kind() {
      return "date-as-text";
    }

    @Override public String describe() {
      return "dates as text in the format " + format;
    }

    @Override public String encode(String ref) {
      return "strftime(" + ref + ", " + Sql.literal(format) + ")";
    }

    @Override public String decode(String ref, String loadedType, String sourceType) {
      String t = loadedType.toUpperCase(Locale.ROOT);
      if (t.equals("DATE") || t.startsWith("TIMESTAMP")) {
        return cast(ref, loadedType, sourceType);
      }
      String text = isText(loadedType) ? ref : "CAST(" + ref + " AS VARCHAR)";
      return "CAST(strptime(" + text + ", " + Sql.literal(format) + ") AS " + sourceType + ")";
    }

    @Override public boolean undoneByLoader(String loadedType, String sourceType) {
      String t = loadedType.toUpperCase(Locale.ROOT);
      return t.equals("DATE") || t.startsWith("TIMESTAMP");
    }
  }

  /**
   * Booleans stored as words ({@code 'active'}/{@code 'inactive'}, {@code 'Y'}/{@code 'N'}).
   *
   * @param trueWord the word for true
   * @param falseWord the word for false
   */
  record BooleanAsWords(String trueWord, String falseWord) implements Encoding {
    public BooleanAsWords {
      Objects.requireNonNull(trueWord, "trueWord");
      Objects.requireNonNull(falseWord, "falseWord");
      if (trueWord.equals(falseWord)) {
        throw new IllegalArgumentException("true and false need different words, both were '" + trueWord + "'");
      }
    }

    @Override public String kind() {
      return "boolean-as-words";
    }

    @Override public String describe() {
      return "booleans as '" + trueWord + "'/'" + falseWord + "'";
    }

    @Override public String encode(String ref) {
      return "CASE WHEN " + ref + " THEN " + Sql.literal(trueWord) + " WHEN NOT " + ref + " THEN "
          + Sql.literal(falseWord) + " END";
    }

    @Override public String decode(String ref, String loadedType, String sourceType) {
      if (loadedType.equalsIgnoreCase("BOOLEAN")) {
        return ref;
      }
      String text = isText(loadedType) ? ref : "CAST(" + ref + " AS VARCHAR)";
      return "CASE " + text + " WHEN " + Sql.literal(trueWord) + " THEN TRUE WHEN " + Sql.literal(falseWord)
          + " THEN FALSE END";
    }

    @Override public boolean undoneByLoader(String loadedType, String sourceType) {
      return loadedType.equalsIgnoreCase("BOOLEAN");
    }
  }

  /**
   * Labels replaced by integer codes, with a lookup table (code, label) elsewhere in the lake.
   *
   * @param lookupTable the lake table holding the labels
   * @param codeColumn its code column
   * @param labelColumn its label column
   * @param firstCode the code of the first label in sorted order (codes are consecutive from it)
   */
  record CodeLookup(String lookupTable, String codeColumn, String labelColumn, int firstCode) implements Encoding {
    public CodeLookup {
      Objects.requireNonNull(lookupTable, "lookupTable");
      Objects.requireNonNull(codeColumn, "codeColumn");
      Objects.requireNonNull(labelColumn, "labelColumn");
    }

    @Override public String kind() {
      return "code-lookup";
    }

    @Override public String describe() {
      return "integer codes; labels in " + lookupTable + "(" + codeColumn + ", " + labelColumn + ")";
    }

    /** Not used: the code comes from a join with the lookup (see the writer). */
    @Override public String encode(String ref) {
      throw new UnsupportedOperationException("codes are joined in from the lookup table");
    }

    /** {@code ref} is the lookup's label column here; the join is the CTE's. */
    @Override public String decode(String ref, String loadedType, String sourceType) {
      return cast(ref, loadedType, sourceType);
    }

    @Override public boolean undoneByLoader(String loadedType, String sourceType) {
      return false;
    }
  }

  private static boolean isText(String type) {
    return type.equalsIgnoreCase("VARCHAR");
  }

  private static String cast(String ref, String loadedType, String sourceType) {
    return loadedType.equalsIgnoreCase(sourceType) ? ref : "CAST(" + ref + " AS " + sourceType + ")";
  }
}
