package dev.lakerewrite.core.match;

import dev.lakerewrite.core.ColumnProfile;
import dev.lakerewrite.core.TableProfile;
import dev.lakerewrite.core.sql.ColumnPrefixes;
import dev.lakerewrite.retrieval.NameSignals;
import dev.lakerewrite.retrieval.Names;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Which column names a table's rows (its entity-name column) and which assumed columns ask for it. Analysts call the
 * column that names a row {@code name}, {@code title}, or after the table's noun ({@code city} in {@code cities},
 * {@code film_name} in {@code films}); lakes hold it in the first unique text column (WikiDBs: {@code label}).
 * Shared by the schema matcher (a feature) and the offline planner (a prior).
 */
public final class EntityNames {

  /** Distinct over non-null values at which a column counts as unique: a key, or the names of its rows. */
  public static final double UNIQUE = 0.9;

  private EntityNames() {}

  /** A table's entity-name column: the first unique, mostly non-null text column, else its first column. */
  public static @Nullable String entityColumn(TableProfile profile) {
    for (ColumnProfile c : profile.columns()) {
      if (c.typeFamily() == TypeFamily.STRING && c.uniqueness() >= UNIQUE && c.nullFraction() < 0.2) {
        return c.column();
      }
    }
    return profile.columns().isEmpty() ? null : profile.columns().get(0).column();
  }

  /**
   * Whether an assumed column names the rows' entity: {@code name}, {@code title}, {@code label}, {@code
   * full_name}, the table's noun ({@code city} in cities, {@code event} in events_1992) or that noun with
   * {@code name}/{@code title} ({@code region_name} in regions, {@code film_name} in films).
   */
  public static boolean isNameLike(String column, String assumedTable) {
    String c = Names.normalize(column);
    if (c.equals("name") || c.equals("title") || c.equals("label") || c.equals("full name")) {
      return true;
    }
    String noun = null;
    String[] words = Names.normalize(assumedTable).split(" ");
    for (int i = words.length - 1; i >= 0; i--) {
      if (words[i].chars().anyMatch(Character::isLetter)) {
        noun = singular(words[i]);
        break;
      }
    }
    if (noun == null) {
      return false;
    }
    String table = singular(Names.normalize(assumedTable));
    for (String n : List.of(noun, table)) {
      if (c.equals(n) || c.equals(n + " name") || c.equals(n + " title")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether an assumed column is its table's own key named after it: the table's noun (or an abbreviation of it)
   * followed by {@code key}, {@code id} or {@code sk}: {@code n_nationkey} in {@code nation}, {@code s_suppkey} in
   * {@code supplier}, {@code country_id} in {@code countries}. Not a bare {@code id}, which queries also give to
   * tables a lake only holds as a column's values, and not when another table of the query is named so:
   * {@code ps_partkey} in {@code partsupp} is the key of {@code part}.
   *
   * @param column the assumed column
   * @param assumedTable its assumed table
   * @param otherTables the query's other assumed tables
   */
  public static boolean isOwnKey(String column, String assumedTable, java.util.Collection<String> otherTables) {
    String bare = joined(ColumnPrefixes.withoutTablePrefix(column, assumedTable));
    String table = singular(joined(assumedTable));
    for (String suffix : List.of("key", "id", "sk")) {
      if (!bare.endsWith(suffix)) {
        continue;
      }
      String head = singular(bare.substring(0, bare.length() - suffix.length()));
      if (head.isEmpty()) {
        // A bare id says nothing about which rows: queries give one to tables a lake holds as a column's values.
        return false;
      }
      boolean another = otherTables.stream().anyMatch(t -> !t.equalsIgnoreCase(assumedTable)
          && singular(joined(t)).equals(head));
      return !another && NameSignals.tokenMatch(head, table) >= 0.8;
    }
    return false;
  }

  /** A name's words run together ({@code n_nationkey} → {@code nnationkey}). */
  private static String joined(String name) {
    return String.join("", Names.normalize(name).split(" "));
  }

  /** An English noun's singular, by its common suffixes ({@code cities} → {@code city}). */
  public static String singular(String word) {
    if (word.endsWith("ies") && word.length() > 4) {
      return word.substring(0, word.length() - 3) + "y";
    }
    if (word.endsWith("sses") || word.endsWith("ches") || word.endsWith("shes") || word.endsWith("xes")) {
      return word.substring(0, word.length() - 2);
    }
    if (word.endsWith("s") && !word.endsWith("ss") && word.length() > 3) {
      return word.substring(0, word.length() - 1);
    }
    return word;
  }
}
