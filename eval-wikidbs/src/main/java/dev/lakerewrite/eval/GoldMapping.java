package dev.lakerewrite.eval;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where the tables and columns a user query assumes really are in the lake: the ground truth a schema matcher is
 * judged against (written by the lake disorganizer, {@code dev.lakerewrite.eval.perturb}).
 *
 * <p>In a pair file: {@code "gold_mapping": {"tables": {"orders": ["ord_hdr", "ord_hdr_ext"]}, "columns":
 * {"orders.o_totalprice": {"lake": ["ord_hdr.tot_prc"], "encoding": "number-as-text", "detail": "numbers as text:
 * 'USD 1,234.5'"}}}}. Assumed names are lower-case {@code table} and {@code table.column}; lake names are
 * {@code table} and {@code table.column} as the lake spells them. A column whose table is split by rows lists the
 * column in every part; a code-encoded column lists its code column and the lookup's label column.
 *
 * @param tables assumed table → the lake tables holding its rows and columns
 * @param columns {@code table.column} → where it is and how it is stored
 */
public record GoldMapping(Map<String, List<String>> tables, Map<String, ColumnGold> columns) {

  public GoldMapping {
    Map<String, List<String>> t = new LinkedHashMap<>();
    Objects.requireNonNull(tables, "tables").forEach((k, v) -> t.put(k, List.copyOf(v)));
    tables = Collections.unmodifiableMap(t);
    columns = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(columns, "columns")));
  }

  /**
   * One assumed column.
   *
   * @param lake the lake columns ({@code table.column}) holding it
   * @param encoding how the lake stores it: {@code none}, {@code code-lookup}, {@code number-as-text},
   *     {@code date-as-text}, {@code boolean-as-words}
   * @param detail the encoding in words, empty for {@code none}
   */
  public record ColumnGold(List<String> lake, String encoding, String detail) {
    public ColumnGold {
      lake = List.copyOf(lake);
      Objects.requireNonNull(encoding, "encoding");
      detail = detail == null ? "" : detail;
    }
  }

  /** No mapping. */
  public static GoldMapping empty() {
    return new GoldMapping(Map.of(), Map.of());
  }

  public boolean isEmpty() {
    return tables.isEmpty() && columns.isEmpty();
  }
}
