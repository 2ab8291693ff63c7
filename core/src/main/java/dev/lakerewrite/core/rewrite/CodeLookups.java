package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.match.ColumnFeatures;
import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.noiseudf.Cleaners;
import dev.lakerewrite.core.sql.QueryAnalysis.Predicate;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Code columns and their lookup tables (thesis error type Value Mismatch, codes vs labels): the small integer codes a
 * lake column holds, the table whose name carries the column's name and decodes them, and the text literals the
 * query compares a column with. Shared by the table chooser (a literal among a code column's labels is evidence for
 * that column) and {@link MissingTableColumns} (which reads the label through an added join). Answers are memoised
 * per plan.
 */
final class CodeLookups extends PlannerPart {
  /** Codes of a column checked against a lookup table's key column. */
  static final int LOOKUP_CODES = 50;

  /** A lookup table of a code column: the join step onto its key and its label column. */
  record CodeLookup(Evidence.JoinStep step, String label) {}

  private final Map<String, List<String>> codeValues = new HashMap<>();
  private final Map<String, Optional<CodeLookup>> namedLookups = new HashMap<>();
  private final Map<String, Boolean> labelHits = new HashMap<>();

  CodeLookups(PlanningContext context) {
    super(context);
  }

  /**
   * The distinct codes of a column of integers (at most {@value #LOOKUP_CODES} + 1), or none when any value is not
   * one. Values are read through the text repair of cleaning ({@code '<b>3</b>'} and {@code ' 3'} are the code 3 in a
   * noisy copy of the lake), so noise in a few cells does not hide a code column.
   */
  List<String> codes(ColumnTarget c) {
    return codeValues.computeIfAbsent(c.lakeTable() + "|" + c.lakeColumn(), k -> {
      List<String> values = lake.distinctValues(c.lakeTable(), c.lakeColumn(), 4 * LOOKUP_CODES).stream()
          .map(Cleaners::cleanText).filter(v -> v != null && !v.isEmpty()).distinct().limit(LOOKUP_CODES + 1L)
          .toList();
      return values.stream().allMatch(v -> v.matches("[+-]?\\d+")) ? values : List.of();
    });
  }

  /**
   * The lookup table that decodes a code column: a table whose name carries the code column's name ({@code SNCT_BY}
   * → {@code zo_snct_by_typs}, {@code EXAMPLE_OF} → {@code tbl_example_of_dim}; the lake's table prefix aside), with
   * a numeric key column holding every code and a text column of labels (its entity-name column, or its only other
   * text column). A join-graph edge from the code column comes first. The best-named such table wins; a column of
   * fewer than two codes or more than {@value #LOOKUP_CODES} has none (every code in a key column says nothing then,
   * and so many are a key's values). Costs one
   * value probe per code and candidate key column, over the few tables so named.
   */
  Optional<CodeLookup> named(ColumnTarget c) {
    return namedLookups.computeIfAbsent(c.lakeTable() + "|" + c.lakeColumn(), k -> findNamed(c));
  }

  /**
   * Whether one of the text literals is a label of the code column: spelled exactly so in the label column of the
   * column's {@linkplain #named named lookup}. With columns named alike ({@code ORDR}, {@code ORDR_2}, …,
   * {@code ORDR_4} for an order's key, status, date and priority), {@code '1-URGENT'} in {@code zo_ordr_4_typs.LBL}
   * tells which one holds the priority. False for a column that holds no codes.
   */
  boolean labelsHold(ColumnTarget c, List<String> texts) {
    if (texts.isEmpty() || family(c.lakeTable(), c.lakeColumn()) != TypeFamily.NUMERIC) {
      return false;
    }
    return labelHits.computeIfAbsent(c.lakeTable() + "|" + c.lakeColumn() + "|" + texts, k -> {
      List<String> codes = codes(c);
      if (codes.isEmpty() || codes.size() > LOOKUP_CODES) {
        return false;
      }
      return named(c).map(l -> texts.stream().anyMatch(t -> lake.valueExists(l.step().rightTable(), l.label(), t)))
          .orElse(false);
    });
  }

  private Optional<CodeLookup> findNamed(ColumnTarget c) {
    List<String> codes = codes(c);
    if (codes.size() < 2 || codes.size() > LOOKUP_CODES) {
      // One value is in any table's keys: a constant column (TPC-H's shippriority, all 0) is no evidence of codes;
      // and a column of more than a few dozen integers is a key (a supplier's), not a code a lookup decodes.
      return Optional.empty();
    }
    CodeLookup best = null;
    double bestName = 0;
    Set<String> joinedOnCode = new HashSet<>();
    lake.joinNeighbours(c.lakeTable()).stream().filter(s -> s.leftColumn().equals(c.lakeColumn()))
        .forEach(s -> joinedOnCode.add(s.rightTable()));
    for (String other : lake.tableNames()) {
      if (other.equals(c.lakeTable())) {
        continue;
      }
      double name = ColumnFeatures.lexicalMatch(c.lakeColumn(), context.withoutTablePrefix(other));
      if (joinedOnCode.contains(other)) {
        name += 1;
      }
      if (name <= bestName) {
        continue;
      }
      String label = labelColumn(other);
      if (label == null) {
        continue;
      }
      for (CatalogTable.Column k : lake.table(other).columns()) {
        if (!k.name().equals(label) && family(other, k.name()) == TypeFamily.NUMERIC
            && codes.stream().allMatch(v -> lake.valueExists(other, k.name(), v))) {
          best = new CodeLookup(new Evidence.JoinStep(c.lakeTable(), c.lakeColumn(), other, k.name(), name, 1), label);
          bestName = name;
          break;
        }
      }
    }
    return Optional.ofNullable(best);
  }

  /** A lookup table's label column: its entity-name column, or else its only text column. */
  private @Nullable String labelColumn(String table) {
    String entity = context.entityColumn(table);
    if (entity != null) {
      return entity;
    }
    List<String> texts = lake.table(table).columns().stream().map(CatalogTable.Column::name)
        .filter(n -> family(table, n) == TypeFamily.STRING).toList();
    return texts.size() == 1 ? texts.get(0) : null;
  }

  /** The text literals (not numbers) the query compares a column of this name with. */
  List<String> textLiterals(String column) {
    List<String> out = new ArrayList<>();
    for (Predicate p : analysis.predicates()) {
      if (!p.column().column().equalsIgnoreCase(column)) {
        continue;
      }
      for (int i = 0; i < p.literals().size(); i++) {
        String lit = p.literals().get(i);
        boolean text = i < p.literalKinds().size() ? p.literalKinds().get(i).contains("VARCHAR")
            || p.literalKinds().get(i).contains("STRING") : true;
        if (text && lit != null && !lit.isBlank() && !lit.strip().matches("[+-]?\\d+(\\.\\d+)?")) {
          out.add(lit);
        }
      }
    }
    return out;
  }
}
