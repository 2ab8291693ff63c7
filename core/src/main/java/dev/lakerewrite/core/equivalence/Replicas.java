package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.Trees;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Instances with more ranked groups than a rank threshold: where a query compares {@code rank()}, {@code
 * dense_rank()} or {@code row_number()} (or an output computed from one, through CTEs and derived tables) with a
 * constant N ({@code rk <= 100}, {@code return_rank <= 10}), a mutant that moves or loosens the boundary differs
 * only on a partition holding at least N + 1 ranked rows with distinct ordering values — which no instance of a few
 * rows per table has. The instance the queries return rows on is copied N times: every integer key column, every
 * foreign key and every column a query equates with one shifted by a multiple of the largest value (copy {@code j}
 * by {@code j * span}, so each copy joins only itself and its groups keyed by a surrogate key are new groups), the
 * other values kept (the copies stay in the original's partitions and pass its filters). Values that make the
 * copies distinct groups and distinct ranks: a grouped text column suffixed with the copy's number (groups by
 * values: TPC-DS q67's rollup over product names and store ids, tried column by column, the last grouped first),
 * and each measure (a numeric column the queries aggregate) of the copy raised by {@code j}, in every table or in
 * one table only (ranks of ratios between two tables' sums then move apart: q49's return and currency ranks).
 *
 * <p>Effort: at most {@value #MAX_TRIALS} instances per check, each of {@code (N + 1)} times its seed's rows, N at
 * most {@value #MAX_COPIES}; the cost is that many query pairs on instances of up to {@code MAX_COPIES} times the
 * seed's size.
 */
final class Replicas {
  /** Instances tried per check at most. */
  static final int MAX_TRIALS = 16;
  /** Copies of an instance at most (thresholds above it are not searched). */
  static final int MAX_COPIES = 256;
  /** Starting instances at most. */
  static final int MAX_SEEDS = 2;
  /** Witnesses put beside the first one per check at most ({@link #sideBySide}). */
  static final int MAX_SIDE_BY_SIDE = 6;

  private static final Set<String> RANKS = Set.of("WINDOW_RANK", "WINDOW_RANK_DENSE", "WINDOW_ROW_NUMBER");

  private Replicas() {}

  /**
   * The integer constants, at least 2 and below {@value #MAX_COPIES}, that the statements compare a rank with (or
   * an output derived from one, by name, through CTEs and derived tables), by {@code <}, {@code <=}, {@code >},
   * {@code >=}, {@code =}, {@code <>} or {@code BETWEEN}; empty when they compare none.
   */
  static SortedSet<Integer> rankThresholds(List<JsonNode> statements) {
    Set<String> ranked = ThresholdSearch.derivedOutputs(ThresholdSearch.selectItems(statements),
        Replicas::rankedFrom);
    SortedSet<Integer> out = new TreeSet<>();
    for (JsonNode s : statements) {
      Trees.visit(s, n -> {
        String cls = n.path("class").asText("");
        List<JsonNode> sides = cls.equals("COMPARISON") ? List.of(n.path("left"), n.path("right"))
            : cls.equals("BETWEEN") ? List.of(n.path("input"), n.path("lower"), n.path("upper")) : List.of();
        if (sides.isEmpty() || sides.stream().noneMatch(x -> rankedFrom(x, ranked))) {
          return;
        }
        for (JsonNode side : sides) {
          Integer v = integerConstant(side);
          if (v != null && v >= 2 && v < MAX_COPIES) {
            out.add(v);
          }
        }
      });
    }
    return out;
  }

  /**
   * The text columns the copies may number to make new groups: those the queries group by (not those they
   * partition by: the copies stay in their partitions), the last grouped first, without the columns a query
   * compares with a constant ({@code constrained}: a numbered value would fail the filter).
   */
  static List<QueryFacts.ColumnKey> variedColumns(List<JsonNode> statements, List<Schema.Table> tables,
      Set<QueryFacts.ColumnKey> constrained) {
    Set<String> names = new LinkedHashSet<>();
    for (JsonNode s : statements) {
      Trees.visit(s, n -> {
        for (JsonNode g : n.path("group_expressions")) {
          for (List<String> ref : Trees.columnRefs(g)) {
            if (!ref.isEmpty()) {
              names.add(ref.get(ref.size() - 1).toLowerCase(Locale.ROOT));
            }
          }
        }
      });
    }
    List<QueryFacts.ColumnKey> out = new ArrayList<>();
    for (String name : names) {
      for (Schema.Table t : tables) {
        int c = t.columnIndex(name);
        QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), name);
        if (c >= 0 && !t.inKey(name) && !constrained.contains(key)
            && ValueType.of(t.columns().get(c).valueType()).family() == ValueType.Family.STRING) {
          out.add(0, key);
        }
      }
    }
    return out;
  }

  private static boolean rankedFrom(JsonNode e, Set<String> ranked) {
    boolean[] found = {false};
    Trees.visit(e, n -> {
      String cls = n.path("class").asText("");
      found[0] |= cls.equals("WINDOW") && RANKS.contains(n.path("type").asText(""))
          || cls.equals("COLUMN_REF") && ranked.contains(Trees.columnName(n).toLowerCase(Locale.ROOT));
    });
    return found[0];
  }

  private static @Nullable Integer integerConstant(JsonNode e) {
    @Nullable String[] literal = dev.lakerewrite.core.sql.SqlAnalyzer.literal(e);
    if (literal == null || literal[1] == null) {
      return null;
    }
    try {
      return Integer.parseInt(literal[1].strip());
    } catch (NumberFormatException ex) {
      return null;
    }
  }

  /**
   * How the copies' measures move: raised by the copy's number {@code j} in {@code tables} (lower-case names), or
   * ({@code alternating}) every other measure column of each table raised by {@code copies - 1 - j} instead, so that
   * ratios between two measures of the copies rank in opposite orders.
   */
  private record Raise(Set<String> tables, boolean alternating) {}

  /**
   * Runs replicated seeds until the queries differ on one (its outcome) or the trials run out (null). Per seed,
   * first without a varied column and then with each of {@code varied} in order; per threshold N: N + 1 copies
   * with every measure raised, 2N + 1 copies with the measures of one table raised in alternating directions (a
   * row ranked N on one ratio and far from N on the other), N + 1 copies with one table's measures raised.
   *
   * @param measures per lower-case table name, the indices of its measure columns ({@link ThresholdSearch#measures})
   * @param joins the queries' comparisons of two columns (equalities carry a shifted key to its partners)
   */
  static ThresholdSearch.@Nullable Outcome search(List<ThresholdSearch.Seed> seeds, SortedSet<Integer> thresholds,
      Map<String, Set<Integer>> measures, List<QueryFacts.ColumnKey> varied, List<QueryFacts.ColumnComparison> joins,
      int maxTrials, ThresholdSearch.Probe probe) throws SQLException {
    if (thresholds.isEmpty() || seeds.isEmpty()) {
      return null;
    }
    List<QueryFacts.@Nullable ColumnKey> columns = new ArrayList<>();
    columns.add(null);
    columns.addAll(varied);
    int trials = 0;
    Set<List<List<List<String>>>> seen = new HashSet<>();
    Set<QueryFacts.ColumnKey> shifted = shiftedColumns(seeds.get(0).instance().tables(), joins);
    for (ThresholdSearch.Seed seed : seeds.subList(0, Math.min(MAX_SEEDS, seeds.size()))) {
      Database db = seed.instance();
      BigInteger span = span(db, shifted);
      if (span == null) {
        continue;
      }
      // Tables whose measures the seed holds: raising another one changes nothing.
      List<String> measured = new ArrayList<>();
      for (Schema.Table t : db.tables()) {
        String name = t.name().toLowerCase(Locale.ROOT);
        if (measures.containsKey(name) && !db.rows(t).isEmpty()) {
          measured.add(name);
        }
      }
      List<Raise> raises = new ArrayList<>();
      raises.add(new Raise(measures.keySet(), false));
      measured.forEach(t -> raises.add(new Raise(Set.of(t), true)));
      if (measured.size() > 1) {
        measured.forEach(t -> raises.add(new Raise(Set.of(t), false)));
      }
      for (QueryFacts.ColumnKey column : columns) {
        for (Raise raise : raises) {
          for (int n : thresholds) {
            if (trials >= Math.min(maxTrials, MAX_TRIALS)) {
              return null;
            }
            Database copies = replicated(db, raise.alternating() ? 2 * n + 1 : n + 1, column, raise, measures,
                shifted, span);
            if (copies == null || !seen.add(copies.content(null))) {
              continue;
            }
            trials++;
            ThresholdSearch.Outcome o = probe.run(copies);
            if (o != null && o.different()) {
              return o;
            }
          }
        }
      }
    }
    return null;
  }

  /**
   * {@code copies} copies of the instance (the original first): the {@code shifted} columns of copy {@code j}
   * shifted by {@code 2 j span}, {@code varied} (a text column; null: none) suffixed with the copy's number,
   * measures raised as {@code raise} says. Null when a value leaves its column's range.
   */
  static @Nullable Database replicated(Database db, int copies, QueryFacts.@Nullable ColumnKey varied, Raise raise,
      Map<String, Set<Integer>> measures, Set<QueryFacts.ColumnKey> shifted, BigInteger span) {
    Map<String, List<List<String>>> rows = new LinkedHashMap<>();
    for (Schema.Table t : db.tables()) {
      String name = t.name().toLowerCase(Locale.ROOT);
      List<List<String>> out = new ArrayList<>();
      List<Integer> raised = raise.tables().contains(name) ? List.copyOf(new TreeSet<>(measures.getOrDefault(name,
          Set.of()))) : List.of();
      int variedColumn = varied != null && varied.table().equalsIgnoreCase(t.name()) ? t.columnIndex(varied.column())
          : -1;
      for (int j = 0; j < copies; j++) {
        for (List<String> row : db.rows(t)) {
          List<String> r = shiftedRow(t, row, shifted, span.shiftLeft(1).multiply(BigInteger.valueOf(j)));
          if (r == null) {
            return null;
          }
          for (int c = 0; c < r.size(); c++) {
            String v = r.get(c);
            if (v == null || shifted.contains(QueryFacts.ColumnKey.of(t.name(), t.columns().get(c).name()))) {
              continue;
            }
            ValueType type = ValueType.of(t.columns().get(c).valueType());
            int position = raised.indexOf(c);
            if (c == variedColumn && j > 0) {
              r.set(c, v + String.format(Locale.ROOT, "~%03d", j));
            } else if (position >= 0 && type.numeric()) {
              int by = raise.alternating() && position % 2 == 1 ? copies - 1 - j : j;
              String moved;
              try {
                moved = type.number(new BigDecimal(v.strip()).add(BigDecimal.valueOf(by)));
              } catch (NumberFormatException | ArithmeticException e) {
                moved = null;
              }
              if (moved == null) {
                return null;
              }
              r.set(c, moved);
            }
          }
          out.add(r);
        }
      }
      rows.put(name, out);
    }
    return new Database(db.name() + ", " + copies + " copies under shifted keys" + (varied == null ? ""
        : ", " + varied.table() + "." + varied.column() + " numbered per copy") + ", measures of "
        + String.join(", ", raise.tables()) + " raised per copy" + (raise.alternating() ? " in alternating "
        + "directions" : "") + " (more ranked groups than a rank threshold)", db.tables(), rows);
  }

  /**
   * A copy of {@code row} whose {@code shifted} columns hold their value plus {@code offset}; null when a sum leaves
   * its column's type (INTEGER, BIGINT).
   */
  private static @Nullable List<String> shiftedRow(Schema.Table t, List<String> row,
      Set<QueryFacts.ColumnKey> shifted, BigInteger offset) {
    List<String> r = new ArrayList<>(row);
    for (int c = 0; c < r.size(); c++) {
      Schema.Column col = t.columns().get(c);
      if (r.get(c) != null && offset.signum() != 0 && shifted.contains(QueryFacts.ColumnKey.of(t.name(),
          col.name()))) {
        BigInteger moved = integer(r.get(c)).add(offset);
        if (moved.bitLength() >= (col.valueType().toUpperCase(Locale.ROOT).contains("BIGINT") ? 63 : 31)) {
          return null;
        }
        r.set(c, moved.toString());
      }
    }
    return r;
  }

  /**
   * One more than the largest magnitude in the shifted columns; null when one holds a value that is no integer.
   */
  private static @Nullable BigInteger span(Database db, Set<QueryFacts.ColumnKey> shifted) {
    BigInteger span = BigInteger.ONE;
    for (Schema.Table t : db.tables()) {
      for (int c = 0; c < t.columns().size(); c++) {
        if (!shifted.contains(QueryFacts.ColumnKey.of(t.name(), t.columns().get(c).name()))) {
          continue;
        }
        for (List<String> row : db.rows(t)) {
          BigInteger v = integer(row.get(c));
          if (v != null) {
            span = span.max(v.abs().add(BigInteger.ONE));
          } else if (row.get(c) != null) {
            return null; // a key that is no integer cannot be shifted
          }
        }
      }
    }
    return span;
  }

  /**
   * Two instances in one: the rows of {@code a} and those of {@code b} with their keys shifted past {@code a}'s
   * (as a copy's are), so that each keeps its own joins while their values meet in the same groups and output
   * rows. Two witnesses, each of one disjunct of an OR (TPC-DS q91's married and widowed customers of one call
   * center), give a query two groups that differ only in the columns the disjuncts constrain: what DISTINCT added
   * over them changes. Null when a shifted column holds a value that is no integer or leaves its type's range.
   */
  static @Nullable Database sideBySide(Database a, Database b, List<QueryFacts.ColumnComparison> joins) {
    Set<QueryFacts.ColumnKey> shifted = shiftedColumns(a.tables(), joins);
    BigInteger spanA = span(a, shifted);
    BigInteger spanB = span(b, shifted);
    if (spanA == null || spanB == null) {
      return null;
    }
    BigInteger offset = spanA.max(spanB).shiftLeft(1);
    Map<String, List<List<String>>> rows = new LinkedHashMap<>();
    for (Schema.Table t : a.tables()) {
      List<List<String>> out = new ArrayList<>(a.rows(t));
      for (List<String> row : b.rows(t)) {
        List<String> r = shiftedRow(t, row, shifted, offset);
        if (r == null) {
          return null;
        }
        out.add(r);
      }
      rows.put(t.name().toLowerCase(Locale.ROOT), out);
    }
    return new Database(a.name() + " beside " + b.name() + " (its keys shifted)", a.tables(), rows);
  }

  /**
   * The integer columns whose values copies shift: every column of a key or a foreign key, and every integer column
   * a query equates with one of them (a join on a ticket number), to a fixpoint.
   */
  private static Set<QueryFacts.ColumnKey> shiftedColumns(List<Schema.Table> tables,
      List<QueryFacts.ColumnComparison> joins) {
    Set<QueryFacts.ColumnKey> integers = new HashSet<>();
    Set<QueryFacts.ColumnKey> out = new LinkedHashSet<>();
    for (Schema.Table t : tables) {
      Set<String> keyed = new HashSet<>();
      t.keys().forEach(k -> k.forEach(c -> keyed.add(c.toLowerCase(Locale.ROOT))));
      t.foreignKeys().forEach(fk -> fk.columns().forEach(c -> keyed.add(c.toLowerCase(Locale.ROOT))));
      for (Schema.Column c : t.columns()) {
        if (ValueType.of(c.valueType()).family() != ValueType.Family.INTEGER) {
          continue;
        }
        QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), c.name());
        integers.add(key);
        if (keyed.contains(c.name().toLowerCase(Locale.ROOT))) {
          out.add(key);
        }
      }
    }
    for (boolean changed = true; changed; ) {
      changed = false;
      for (QueryFacts.ColumnComparison j : joins) {
        if (!j.operator().equals("=")) {
          continue;
        }
        if (out.contains(j.left()) && integers.contains(j.right()) && out.add(j.right())
            || out.contains(j.right()) && integers.contains(j.left()) && out.add(j.left())) {
          changed = true;
        }
      }
    }
    return out;
  }

  private static @Nullable BigInteger integer(@Nullable String v) {
    if (v == null) {
      return null;
    }
    try {
      return new BigInteger(v.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
