package dev.lakerewrite.eval.perturb;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the disorganizer did to one schema: for every source table, the lake tables that hold it, the lake name and
 * encoding of every column, the lookup tables, and the tables that got cell noise. Written beside the lake as
 * {@code manifest.json}; the gold mappings and golden queries are derived from it.
 *
 * @param seed the lake's seed
 * @param style the naming habits drawn for the lake
 * @param tables one plan per source table, in source order
 * @param lookups the lookup tables of code-encoded columns
 * @param noiseTables lake tables that get seeded cell noise in the noisy copy
 */
public record LakePlan(long seed, NamingStyle style, List<TablePlan> tables, List<Lookup> lookups,
    Set<String> noiseTables) {

  /** The name a source column has in the work table when the source table has no key of its own. */
  public static final String SURROGATE_KEY = "__row_id";

  public LakePlan {
    Objects.requireNonNull(style, "style");
    tables = List.copyOf(tables);
    lookups = List.copyOf(lookups);
    noiseTables = Set.copyOf(new TreeSet<>(noiseTables));
  }

  /** How a source table is laid out in the lake. */
  public enum Layout {
    /** One lake table. */
    WHOLE,
    /** Columns over two lake tables joined by a key named differently in each (the second may lack rows). */
    VERTICAL,
    /** Rows over several lake tables with the same columns. */
    HORIZONTAL
  }

  /**
   * One source table in the lake.
   *
   * @param source the source table's name
   * @param layout whole, split by columns, or split by rows
   * @param key the source column joining vertical parts ({@link #SURROGATE_KEY} when the table has none), else
   *     empty
   * @param parts the lake tables, in order
   * @param encodings source column → how the lake stores it (columns absent are stored as they are)
   */
  public record TablePlan(String source, Layout layout, Optional<String> key, List<Part> parts,
      Map<String, Encoding> encodings) {
    public TablePlan {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(layout, "layout");
      Objects.requireNonNull(key, "key");
      parts = List.copyOf(parts);
      encodings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(encodings));
    }

    /** The encoding of a source column ({@link Encoding.Plain} when none). */
    public Encoding encoding(String column) {
      return encodings.getOrDefault(column, new Encoding.Plain());
    }

    /** The parts holding a source column. */
    public List<Part> partsHolding(String column) {
      return parts.stream().filter(p -> p.columns().containsKey(column)).toList();
    }
  }

  /**
   * One lake table.
   *
   * @param table the table name as the lake loader gives it
   * @param file the file name in the lake folder
   * @param columns source column → lake column name, in the lake table's column order
   * @param rowFilter the SQL condition choosing its rows from the source table (aliased {@code w}, with
   *     {@link #SURROGATE_KEY}), {@code TRUE} for all
   * @param description why the part exists, in words
   */
  public record Part(String table, String file, Map<String, String> columns, String rowFilter, String description) {
    public Part {
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(file, "file");
      columns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(columns));
      Objects.requireNonNull(rowFilter, "rowFilter");
      Objects.requireNonNull(description, "description");
    }
  }

  /**
   * A lookup table: the distinct labels of a source column with consecutive integer codes.
   *
   * @param table lake table name
   * @param file the file name
   * @param sourceTable the source table of the labels
   * @param sourceColumn the source column of the labels
   * @param encoding the code encoding (names and first code)
   */
  public record Lookup(String table, String file, String sourceTable, String sourceColumn,
      Encoding.CodeLookup encoding) {}

  /** The plan of a source table (case-insensitive). */
  public Optional<TablePlan> table(String source) {
    return tables.stream().filter(t -> t.source().equalsIgnoreCase(source)).findFirst();
  }

  /** Every lake table name: parts and lookups. */
  public List<String> lakeTables() {
    List<String> out = new java.util.ArrayList<>();
    tables.forEach(t -> t.parts().forEach(p -> out.add(p.table())));
    lookups.forEach(l -> out.add(l.table()));
    return out;
  }
}
