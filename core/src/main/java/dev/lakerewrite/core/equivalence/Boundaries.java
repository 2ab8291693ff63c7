package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Rows put exactly on the boundary of a comparison whose side computes a value from cells of one row: {@code
 * hd_dep_count / hd_vehicle_count > 1.2}, {@code t_hour * 60 + t_minute >= 600}, {@code CASE WHEN v > 0 THEN d / v
 * END > 1.2}, {@code round(l_discount * 100) = 5}. Values chosen column by column (each cell on both sides of a
 * literal) rarely make such a value equal its bound, yet only a row exactly on it tells {@code >} from {@code >=}, and
 * only rows next to it tell a bound moved by one. For each such comparison ({@code E op K}, K a constant or computed
 * from the same row) and each row of a starting instance, the engine evaluates {@code E - K} with one numeric cell x
 * moved; a secant step from two evaluations gives the x where it is zero (exact for the linear dependence of sums,
 * products and numerators), rounded to the column's unit and kept only where the engine finds {@code E - K} zero
 * there. Where no single cell lands on the bound (a denominator of 7 against 1.2), the row's other cells of the
 * comparison are first set to 10 and 100 (whose divisors hold most decimal fractions). Each solution is tried as an
 * instance, then one unit either side.
 *
 * <p>Cost: per comparison and row at most three evaluations of one constant expression per cell and variant of the
 * other cells, and at most {@code maxTrials} instances run through both queries per check.
 */
final class Boundaries {
  /** Comparisons solved per check at most. */
  static final int MAX_COMPARISONS = 6;
  /** Rows of one table tried per starting instance at most. */
  static final int MAX_ROWS = 3;
  /** Starting instances at most. */
  static final int MAX_SEEDS = 2;

  private Boundaries() {}

  /** Evaluates a query that returns one number (null when it fails or returns NULL). */
  interface Evaluator {
    @Nullable BigDecimal value(String sql);
  }

  /**
   * One comparison over a table's row: {@code difference}, the SQL of {@code (E) - (K)} over the table's
   * unqualified column names; {@code columns}, the indices of the numeric, non-key columns it reads (the cells moved).
   */
  record Comparison(Schema.Table table, String difference, List<Integer> columns, List<Integer> reads) {}

  /**
   * The comparisons ({@code =}, {@code <}, {@code <=}, {@code >}, {@code >=}, {@code <>}, {@code BETWEEN}'s two
   * bounds) of the statements where one side computes a value from columns of one table with arithmetic, a CASE or
   * a numeric function and the other side is constant or reads only that table; at most {@value #MAX_COMPARISONS},
   * distinct.
   */
  static List<Comparison> of(List<JsonNode> statements, List<Schema.Table> tables, SqlParser parser) {
    Map<String, Comparison> out = new LinkedHashMap<>();
    for (JsonNode s : statements) {
      Trees.visit(s, n -> {
        String cls = n.path("class").asText("");
        String type = n.path("type").asText("");
        List<JsonNode[]> sides = new ArrayList<>();
        if (cls.equals("COMPARISON") && !type.equals("COMPARE_NOT_DISTINCT_FROM")
            && !type.equals("COMPARE_DISTINCT_FROM")) {
          sides.add(new JsonNode[] {n.path("left"), n.path("right")});
        } else if (cls.equals("BETWEEN")) {
          sides.add(new JsonNode[] {n.path("input"), n.path("lower")});
          sides.add(new JsonNode[] {n.path("input"), n.path("upper")});
        }
        for (JsonNode[] side : sides) {
          if (out.size() >= MAX_COMPARISONS || !computed(side[0]) && !computed(side[1])) {
            continue;
          }
          Comparison c = comparison(side[0], side[1], tables, parser);
          if (c != null) {
            out.putIfAbsent(c.table().name() + "|" + c.difference(), c);
          }
        }
      });
    }
    return List.copyOf(out.values());
  }

  private static @Nullable Comparison comparison(JsonNode left, JsonNode right, List<Schema.Table> tables,
      SqlParser parser) {
    Set<String> names = new LinkedHashSet<>();
    for (JsonNode side : List.of(left, right)) {
      if (Trees.hasSubquery(side) || Trees.hasAggregate(side) || Trees.hasWindow(side)) {
        return null;
      }
      for (List<String> ref : Trees.columnRefs(side)) {
        names.add(ref.get(ref.size() - 1).toLowerCase(Locale.ROOT));
      }
    }
    Schema.Table table = null;
    for (Schema.Table t : tables) {
      if (names.stream().allMatch(name -> t.column(name).isPresent())) {
        table = t;
        break;
      }
    }
    if (table == null || names.isEmpty()) {
      return null;
    }
    List<Integer> columns = new ArrayList<>();
    List<Integer> reads = new ArrayList<>();
    for (int c = 0; c < table.columns().size(); c++) {
      Schema.Column col = table.columns().get(c);
      if (names.contains(col.name().toLowerCase(Locale.ROOT))) {
        reads.add(c);
        if (ValueType.of(col.valueType()).numeric() && !table.inKey(col.name())) {
          columns.add(c);
        }
      }
    }
    if (columns.isEmpty()) {
      return null;
    }
    try {
      String difference = "CAST((" + unqualified(left, parser) + ") - (" + unqualified(right, parser)
          + ") AS DOUBLE)";
      return new Comparison(table, difference, columns, reads);
    } catch (RuntimeException e) {
      return null; // an expression the renderer cannot write back
    }
  }

  private static String unqualified(JsonNode expression, SqlParser parser) {
    return parser.renderExpression(MutationSearch.unqualified(expression));
  }

  /**
   * Whether an expression computes a value from cells (not a bare column, constant or a cast of one): arithmetic, a
   * CASE, or a numeric function over at least one column.
   */
  static boolean computed(JsonNode e) {
    String cls = e.path("class").asText("");
    if (cls.equals("CAST")) {
      return computed(e.path("child"));
    }
    if (!cls.equals("FUNCTION") && !cls.equals("CASE") || Trees.columnRefs(e).isEmpty()) {
      return false;
    }
    return cls.equals("CASE") || NUMERIC.contains(e.path("function_name").asText("").toLowerCase(Locale.ROOT));
  }

  /** Functions whose value moves with a numeric argument. */
  private static final Set<String> NUMERIC = Set.of("+", "-", "*", "/", "//", "%", "abs", "round", "nullif",
      "coalesce", "greatest", "least", "power", "pow", "sqrt", "ln", "log", "exp", "floor", "ceil", "ceiling");

  /**
   * Instances with one row of a seed on a comparison's boundary (and one unit either side), run through {@code
   * probe} until the queries differ; null when none did within {@code maxTrials} instances.
   */
  static ThresholdSearch.@Nullable Outcome search(List<ThresholdSearch.Seed> seeds, List<Comparison> comparisons,
      Evaluator engine, int maxTrials, ThresholdSearch.Probe probe) throws SQLException {
    int trials = 0;
    Set<String> tried = new java.util.HashSet<>();
    for (ThresholdSearch.Seed seed : seeds.subList(0, Math.min(seeds.size(), MAX_SEEDS))) {
      for (Comparison c : comparisons) {
        List<List<String>> rows = seed.instance().rows(c.table());
        for (int r = 0; r < Math.min(rows.size(), MAX_ROWS); r++) {
          List<String> solved = solve(c, rows.get(r), engine);
          if (solved == null) {
            continue;
          }
          for (List<String> row : neighbours(c, rows.get(r), solved)) {
            if (trials >= maxTrials) {
              return null;
            }
            if (!tried.add(seed.instance().name() + "|" + c.table().name() + "|" + r + "|" + row)) {
              continue;
            }
            trials++;
            ThresholdSearch.Outcome o = probe.run(with(seed.instance(), c.table(), r, row,
                ", a " + c.table().name().toLowerCase(Locale.ROOT) + " row on the boundary of "
                    + c.difference().replaceAll("^CAST\\(|\\) AS DOUBLE\\)$", "") + " = 0"));
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
   * The row with one of the comparison's cells moved so that {@code E - K} is zero (the other cells as they are, or
   * set to 10 or 100 first); null when no cell gets there.
   */
  static @Nullable List<String> solve(Comparison c, List<String> row, Evaluator engine) {
    if (c.reads().stream().anyMatch(i -> row.get(i) == null)) {
      return null;
    }
    for (String others : new String[] {null, "10", "100"}) {
      for (int x : c.columns()) {
        List<String> base = new ArrayList<>(row);
        if (others != null) {
          for (int o : c.columns()) {
            if (o != x) {
              base.set(o, number(c, o, new BigDecimal(others)));
            }
          }
          if (base.contains(null)) {
            continue;
          }
        }
        List<String> solved = root(c, base, x, engine);
        if (solved != null) {
          return solved;
        }
      }
    }
    return null;
  }

  /** A secant step on cell x from its value and one unit (or ten) above it, kept where the engine finds zero. */
  private static @Nullable List<String> root(Comparison c, List<String> row, int x, Evaluator engine) {
    BigDecimal x0;
    try {
      x0 = new BigDecimal(row.get(x).strip());
    } catch (NumberFormatException e) {
      return null;
    }
    BigDecimal unit = unit(c, x);
    BigDecimal x1 = x0.add(unit.multiply(BigDecimal.TEN));
    BigDecimal g0 = engine.value(at(c, row, x, x0));
    BigDecimal g1 = engine.value(at(c, row, x, x1));
    if (g0 == null || g1 == null || g0.compareTo(g1) == 0) {
      return null;
    }
    if (g0.signum() == 0) {
      return row;
    }
    BigDecimal step = g0.multiply(x1.subtract(x0)).divide(g1.subtract(g0), MathContext.DECIMAL64);
    BigDecimal candidate = x0.subtract(step).divide(unit, 0, RoundingMode.HALF_EVEN).multiply(unit);
    String v = number(c, x, candidate);
    if (v == null) {
      return null;
    }
    List<String> moved = new ArrayList<>(row);
    moved.set(x, v);
    BigDecimal g = engine.value(at(c, moved, x, candidate));
    return g != null && g.abs().compareTo(new BigDecimal("1e-9")) < 0 ? moved : null;
  }

  /** The solved row, then one unit of its moved cell below and above. */
  private static List<List<String>> neighbours(Comparison c, List<String> original, List<String> solved) {
    List<List<String>> out = new ArrayList<>();
    out.add(solved);
    for (int x : c.columns()) {
      if (solved.get(x) != null && !solved.get(x).equals(original.get(x))) {
        for (BigDecimal d : List.of(unit(c, x).negate(), unit(c, x))) {
          String v = number(c, x, new BigDecimal(solved.get(x).strip()).add(d));
          if (v != null) {
            List<String> next = new ArrayList<>(solved);
            next.set(x, v);
            out.add(next);
          }
        }
        break;
      }
    }
    return out;
  }

  /** {@code SELECT (E) - (K)} over one row holding the given cells, x at {@code value}. */
  private static String at(Comparison c, List<String> row, int x, BigDecimal value) {
    StringBuilder sql = new StringBuilder("SELECT ").append(c.difference()).append(" FROM (SELECT ");
    List<Integer> reads = c.reads();
    for (int i = 0; i < reads.size(); i++) {
      int col = reads.get(i);
      Schema.Column column = c.table().columns().get(col);
      String v = col == x ? value.toPlainString() : row.get(col);
      sql.append(i > 0 ? ", " : "").append("CAST(").append(v == null ? "NULL" : "'" + v.replace("'", "''") + "'")
          .append(" AS ").append(column.type()).append(") AS \"").append(column.name().replace("\"", "\"\""))
          .append('"');
    }
    return sql.append(") AS boundary_row").toString();
  }

  /** The smallest step of a numeric column: 1 for integers, 10^-s for DECIMAL(p, s), 10^-6 for floats. */
  private static BigDecimal unit(Comparison c, int x) {
    Schema.Column column = c.table().columns().get(x);
    return BigDecimal.ONE.movePointLeft(ThresholdSearch.scale(ValueType.of(column.valueType()), column.type()));
  }

  private static @Nullable String number(Comparison c, int x, BigDecimal v) {
    return ValueType.of(c.table().columns().get(x).valueType()).number(v);
  }

  /** The instance with one row of a table replaced (its changed cells set). */
  private static Database with(Database base, Schema.Table table, int row, List<String> values, String what) {
    Database out = base;
    List<String> before = base.rows(table).get(row);
    for (int c = 0; c < values.size(); c++) {
      if (!java.util.Objects.equals(before.get(c), values.get(c))) {
        out = out.withCell(table, row, c, values.get(c));
      }
    }
    return out.named(base.name() + what);
  }
}
