package dev.lakerewrite.eval.perturb;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The naming habits of one disorganized lake, drawn from its seed: the letter case, a table prefix, whether table
 * names switch between singular and plural, whether columns carry a prefix made from their table's name, and
 * whether names are vendor-style codes ({@code CSTMR_NM}). Within these habits every name is still drawn word by
 * word (a WordNet synonym, an abbreviation, or the word itself).
 *
 * @param letterCase snake, camel, pascal or upper_snake
 * @param tablePrefix written before every table name, possibly empty ({@code tbl_}, {@code dim_}, ...)
 * @param switchNumber singular table names become plural and plural ones singular
 * @param columnPrefix columns start with an abbreviation of their table's name ({@code cst_name})
 * @param vendorCodes words become upper-case consonant skeletons ({@code customer_name} → {@code CSTMR_NM})
 */
public record NamingStyle(String letterCase, String tablePrefix, boolean switchNumber, boolean columnPrefix,
    boolean vendorCodes) {

  private static final List<String> TABLE_PREFIXES = List.of("", "", "tbl_", "dim_", "t_", "src_", "raw_");

  public NamingStyle {
    Objects.requireNonNull(letterCase, "letterCase");
    Words.Case.valueOf(letterCase.toUpperCase(Locale.ROOT)); // validates
    Objects.requireNonNull(tablePrefix, "tablePrefix");
  }

  Words.Case wordCase() {
    return Words.Case.valueOf(letterCase.toUpperCase(Locale.ROOT));
  }

  /** The style of the lake with this seed. */
  static NamingStyle draw(SplittableRandom random) {
    boolean vendor = random.nextDouble() < 0.2;
    Words.Case c = vendor ? Words.Case.UPPER_SNAKE : Words.Case.values()[random.nextInt(Words.Case.values().length)];
    String prefix = TABLE_PREFIXES.get(random.nextInt(TABLE_PREFIXES.size()));
    if (vendor) {
      prefix = "Z" + (char) ('A' + random.nextInt(26)) + "_";
    }
    return new NamingStyle(c.name().toLowerCase(Locale.ROOT), prefix, random.nextBoolean(),
        random.nextDouble() < 0.3, vendor);
  }

  @Override
  public String toString() {
    return letterCase + (tablePrefix.isEmpty() ? "" : ", table prefix '" + tablePrefix + "'")
        + (switchNumber ? ", plural/singular switched" : "") + (columnPrefix ? ", table-prefixed columns" : "")
        + (vendorCodes ? ", vendor codes" : "");
  }
}
