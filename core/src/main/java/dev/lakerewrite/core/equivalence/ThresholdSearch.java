package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.Trees;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Instances at the threshold of a comparison over aggregates, found by running the queries themselves: {@code
 * HAVING sum(x) > (SELECT 0.05 * avg(x) ...)}, ratios of two CTE copies' totals compared in an outer WHERE, an
 * average against a multiple of another — comparisons whose two sides are aggregates of the same rows, which no
 * choice of values column by column puts near their boundary. Starting from an instance on which the queries
 * return rows (or a witness), one cell of a column the queries aggregate ({@code sum(ss_net_paid)}, {@code
 * sum(ss_ext_list_price - ss_ext_discount_amt)}) is moved outward (by 1, to 0, to its negation, doubled, halved,
 * tenfold, by 100) until the queries' row counts change — a group passed or failed a comparison; the counts are
 * the results' and those of each query's CTEs, so a comparison inside a CTE that the outer query reads under one
 * aggregate row is seen crossing too — and then
 * bisected, in units of the column's type, down to two neighbouring values: the last one on the side it started and
 * the first one across. Every value tried is an instance on which both queries run and are compared, so a group
 * put exactly on, just above and just below the comparison's other side — whatever that side is, evaluated by the
 * engine on the instance — separates a dropped predicate, a boundary made strict or loose and a moved constant.
 *
 * <p>Two more moves: where a query calls an aggregate that a group of one row leaves NULL ({@code stddev_samp},
 * {@code var_samp}), every aggregated row first gets a sibling in its group ({@link Siblings}: TPC-DS q39's
 * coefficient of variation), and those doubled instances are the first seeds; after the cells, every measure cell
 * of one table is multiplied by one factor ({@link Scale}, at most {@value #SCALE_TRIALS} instances): totals cross
 * a comparison with a constant while ratios between them stay (q11/q74's first-year total {@code > 0} against
 * {@code > 1} beside a comparison of two channels' year-over-year ratios).
 *
 * <p>Only for queries that compare an aggregate, a window value or an output derived from one (through CTE and
 * derived-table outputs, by name) with something; the effort is counted: at most {@code maxTrials} instances per
 * check, {@value #MAX_SEEDS} starting instances and {@value #MAX_CELLS} cells of each.
 */
final class ThresholdSearch {
  /** Starting instances at most. */
  static final int MAX_SEEDS = 3;
  /** Cells moved per starting instance at most. */
  static final int MAX_CELLS = 6;

  private static final Pattern DECIMAL = Pattern.compile("(?:DECIMAL|NUMERIC)\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)",
      Pattern.CASE_INSENSITIVE);

  private ThresholdSearch() {}

  /** An instance to start from and the row counts of the two queries on it. */
  record Seed(Database instance, List<Integer> signature) {}

  /** What running both queries on an instance showed: whether they differ, and their row counts. */
  record Outcome(Database loaded, boolean different, List<Integer> signature) {}

  /** Loads an instance and runs both queries on it; null when they cannot be compared there. */
  interface Probe {
    @Nullable Outcome run(Database instance) throws SQLException;
  }

  /**
   * The columns (per table, lower-case name, their indices) whose cells the search moves: numeric, not in a key,
   * read inside the argument of an aggregate other than {@code count} — empty unless a query compares an
   * aggregate, a window value or an output computed from one (by {@code <}, {@code <=}, {@code >}, {@code >=},
   * {@code <>} or {@code BETWEEN}).
   */
  static Map<String, Set<Integer>> measures(List<JsonNode> statements, List<Schema.Table> tables) {
    List<JsonNode> items = selectItems(statements);
    Set<String> derived = derivedOutputs(items, ThresholdSearch::derivedFrom);
    boolean compared = false;
    Set<String> aggregated = new LinkedHashSet<>();
    for (JsonNode s : statements) {
      List<JsonNode> comparisons = new ArrayList<>();
      Trees.visit(s, n -> {
        String cls = n.path("class").asText("");
        String type = n.path("type").asText("");
        if (cls.equals("COMPARISON") && !type.equals("COMPARE_EQUAL") && !type.equals("COMPARE_NOT_DISTINCT_FROM")
            || cls.equals("BETWEEN")) {
          comparisons.add(n);
        }
        if (cls.equals("FUNCTION") && SqlAnalyzer.isAggregate(n.path("function_name").asText(""))
            && !n.path("function_name").asText("").toLowerCase(Locale.ROOT).startsWith("count")) {
          for (JsonNode arg : QueryFacts.arguments(n)) {
            for (List<String> ref : Trees.columnRefs(arg)) {
              if (!ref.isEmpty()) {
                aggregated.add(ref.get(ref.size() - 1).toLowerCase(Locale.ROOT));
              }
            }
          }
        }
      });
      for (JsonNode c : comparisons) {
        compared |= derivedFrom(c, derived);
      }
    }
    Map<String, Set<Integer>> out = new LinkedHashMap<>();
    if (!compared) {
      return out;
    }
    // An aggregated output of a derived table or a UNION branch (sum(sales_cnt) over ss_quantity -
    // coalesce(sr_return_quantity, 0) AS sales_cnt: TPC-DS q75) stands for the columns its expression reads.
    Map<String, Set<String>> reads = new HashMap<>();
    for (JsonNode item : items) {
      String alias = item.path("alias").asText("").toLowerCase(Locale.ROOT);
      if (!alias.isEmpty()) {
        for (List<String> ref : Trees.columnRefs(item)) {
          if (!ref.isEmpty()) {
            reads.computeIfAbsent(alias, k -> new LinkedHashSet<>()).add(ref.get(ref.size() - 1)
                .toLowerCase(Locale.ROOT));
          }
        }
      }
    }
    for (List<String> frontier = new ArrayList<>(aggregated); !frontier.isEmpty(); ) {
      List<String> next = new ArrayList<>();
      for (String name : frontier) {
        for (String read : reads.getOrDefault(name, Set.of())) {
          if (aggregated.add(read)) {
            next.add(read);
          }
        }
      }
      frontier = next;
    }
    for (Schema.Table t : tables) {
      for (int c = 0; c < t.columns().size(); c++) {
        Schema.Column col = t.columns().get(c);
        if (aggregated.contains(col.name().toLowerCase(Locale.ROOT)) && !t.inKey(col.name())
            && ValueType.of(col.valueType()).numeric()) {
          out.computeIfAbsent(t.name().toLowerCase(Locale.ROOT), k -> new TreeSet<>()).add(c);
        }
      }
    }
    return out;
  }

  /**
   * The lower-case names of the outputs {@code from} says are derived (given the names found so far), through any
   * number of CTEs and derived tables: {@link #derivedFrom} for aggregates and windows.
   */
  static Set<String> derivedOutputs(List<JsonNode> items,
      java.util.function.BiPredicate<JsonNode, Set<String>> from) {
    Set<String> derived = new HashSet<>();
    boolean changed = true;
    for (int round = 0; changed && round < 8; round++) {
      changed = false;
      for (JsonNode item : items) {
        String alias = item.path("alias").asText("");
        String name = (!alias.isEmpty() ? alias : "COLUMN_REF".equals(item.path("class").asText(""))
            ? Trees.columnName(item) : "").toLowerCase(Locale.ROOT);
        if (!name.isEmpty() && !derived.contains(name) && from.test(item, derived)) {
          derived.add(name);
          changed = true;
        }
      }
    }
    return derived;
  }

  /** The select-list items of every SELECT in the statements. */
  static List<JsonNode> selectItems(List<JsonNode> statements) {
    List<JsonNode> items = new ArrayList<>();
    for (JsonNode s : statements) {
      Trees.visit(s, n -> {
        if ("SELECT_NODE".equals(n.path("type").asText("")) && n.path("select_list").isArray()) {
          n.path("select_list").forEach(items::add);
        }
      });
    }
    return items;
  }

  /** Whether an expression calls an aggregate (count too), holds a window, or names a derived output. */
  private static boolean derivedFrom(JsonNode e, Set<String> derived) {
    boolean[] found = {false};
    Trees.visit(e, n -> {
      String cls = n.path("class").asText("");
      if (cls.equals("WINDOW") || cls.equals("FUNCTION") && SqlAnalyzer.isAggregate(n.path("function_name")
          .asText("")) || cls.equals("COLUMN_REF") && derived.contains(Trees.columnName(n).toLowerCase(Locale.ROOT))) {
        found[0] = true;
      }
    });
    return found[0];
  }

  /**
   * Moves one measure cell of each seed at a time until the queries' row counts change, then bisects to the
   * threshold; every instance tried is run through {@code probe}. The first instance on which the queries differ
   * (as loaded), or null when none did within {@code maxTrials} instances.
   */
  static @Nullable Outcome search(List<Seed> seeds, Map<String, Set<Integer>> measures, int maxTrials, Probe probe)
      throws SQLException {
    return search(seeds, measures, Set.of(), false, maxTrials, probe);
  }

  /**
   * The search, with groups of two first where an aggregate needs them ({@code pairs}: {@code stddev_samp},
   * {@code var_samp} and the like are NULL over one row), and whole measure columns scaled after the cells. {@code
   * grouped}: the lower-case names of the columns the queries group by.
   */
  static @Nullable Outcome search(List<Seed> seeds, Map<String, Set<Integer>> measures, Set<String> grouped,
      boolean pairs, int maxTrials, Probe probe) throws SQLException {
    List<Seed> starts = new ArrayList<>(seeds.subList(0, Math.min(seeds.size(), MAX_SEEDS)));
    if (pairs) {
      // Every row of an aggregated table gets a sibling in its group, at ten times its measures: a spread the
      // sample deviation sees. The doubled instances are the first seeds.
      List<Seed> doubled = new ArrayList<>();
      for (Seed seed : starts) {
        Database twice = Siblings.of(seed.instance(), measures, grouped);
        if (twice == null) {
          continue;
        }
        Outcome o = probe.run(twice);
        if (o == null) {
          continue;
        }
        if (o.different()) {
          return o;
        }
        doubled.add(new Seed(o.loaded(), o.signature()));
      }
      starts.addAll(0, doubled);
      starts = starts.subList(0, Math.min(starts.size(), MAX_SEEDS));
    }
    Outcome found = cells(starts, measures, maxTrials, probe);
    if (found != null) {
      return found;
    }
    int[] used = {0};
    for (Seed seed : starts) {
      for (Schema.Table t : seed.instance().tables()) {
        Set<Integer> columns = measures.get(t.name().toLowerCase(Locale.ROOT));
        if (columns == null || seed.instance().rows(t).isEmpty() || used[0] >= SCALE_TRIALS) {
          continue;
        }
        found = new Scale(seed, t, columns).search(used, probe);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /** Instances the scaling of whole measure columns tries per check at most (after the cells' trials). */
  static final int SCALE_TRIALS = 12;

  private static @Nullable Outcome cells(List<Seed> seeds, Map<String, Set<Integer>> measures, int maxTrials,
      Probe probe) throws SQLException {
    int trials = 0;
    List<Later> later = new ArrayList<>();
    for (Seed seed : seeds) {
      int cells = 0;
      for (Schema.Table t : seed.instance().tables()) {
        Set<Integer> columns = measures.get(t.name().toLowerCase(Locale.ROOT));
        if (columns == null) {
          continue;
        }
        List<List<String>> rows = seed.instance().rows(t);
        for (int r = 0; r < rows.size(); r++) {
          for (int c : columns) {
            String v = rows.get(r).get(c);
            if (v == null || cells >= MAX_CELLS) {
              continue;
            }
            cells++;
            Cell cell = new Cell(seed, t, r, c, ValueType.of(t.columns().get(c).valueType()),
                limit(t.columns().get(c).type()), measures);
            int[] used = {0};
            Outcome found = cell.search(v, maxTrials - trials, used, probe, later);
            trials += used[0];
            if (found != null) {
              return found;
            }
            if (trials >= maxTrials) {
              return later(later, probe);
            }
          }
        }
      }
    }
    return later(later, probe);
  }

  /** Trials of the steps the cells' moves put off, on top of the moves' own. */
  static final int LATER_TRIALS = 24;

  /**
   * What the cells' moves put off, in its own budget of {@value #LATER_TRIALS} trials: cells whose moves changed
   * only a CTE's row count, bracketed to that change, and thresholds the tenfold grid did not meet, on other grids.
   * So the moves and bisections run as they would without these, within the same budget.
   */
  private static @Nullable Outcome later(List<Later> later, Probe probe) throws SQLException {
    int trials = 0;
    for (int i = 0; i < later.size() && trials < LATER_TRIALS; i++) {
      int[] used = {0};
      Outcome found = later.get(i).run(LATER_TRIALS - trials, used);
      trials += used[0];
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /** A search step put off until every cell was moved: runs within {@code allowed} trials, counting them. */
  @FunctionalInterface
  private interface Later {
    @Nullable Outcome run(int allowed, int[] used) throws SQLException;
  }

  /**
   * Every measure cell of one table multiplied by one factor: sums of the table's rows scale alike, so ratios
   * between them (TPC-DS q11/q74's {@code secyear.year_total / firstyear.year_total}, compared between two
   * channels) stay as they are while each total crosses a comparison with a constant ({@code firstyear.year_total
   * > 0} against {@code > 1}), which moving one cell cannot do without crossing the ratio's comparison first.
   * Factors 0.1, 0.01, 0.001, 10, 100, -1, 0.5, 2, then bisection between the last factor that kept the row counts
   * and the first that changed them.
   */
  private record Scale(Seed seed, Schema.Table table, Set<Integer> columns) {
    private static final double[] FACTORS = {0.1, 0.01, 0.001, 10, 100, -1, 0.5, 2};

    @Nullable Database at(BigDecimal f) {
      return scaled(seed.instance(), Map.of(table.name().toLowerCase(Locale.ROOT), columns), f,
          ", every " + table.name().toLowerCase(Locale.ROOT) + " measure times " + f.stripTrailingZeros()
          .toPlainString() + " (totals across a comparison, their ratios kept)");
    }

    @Nullable Outcome search(int[] used, Probe probe) throws SQLException {
      BigDecimal one = BigDecimal.ONE;
      for (double step : FACTORS) {
        if (used[0] >= SCALE_TRIALS) {
          return null;
        }
        BigDecimal f = BigDecimal.valueOf(step);
        Database d = at(f);
        if (d == null) {
          continue;
        }
        used[0]++;
        Outcome o = probe.run(d);
        if (o == null) {
          continue;
        }
        if (o.different()) {
          return o;
        }
        if (results(o.signature()).equals(results(seed.signature()))) { // the results' counts alone
          continue;
        }
        // Between 1 and f the counts changed: bisect (on the side of 1 the counts are the seed's).
        BigDecimal from = one;
        BigDecimal to = f;
        for (int i = 0; i < 6 && used[0] < SCALE_TRIALS; i++) {
          BigDecimal mid = from.add(to).divide(BigDecimal.valueOf(2), 12, RoundingMode.HALF_UP);
          Database m = at(mid);
          if (m == null) {
            break;
          }
          used[0]++;
          Outcome mo = probe.run(m);
          if (mo == null) {
            break;
          }
          if (mo.different()) {
            return mo;
          }
          if (results(mo.signature()).equals(results(seed.signature()))) {
            from = mid;
          } else {
            to = mid;
          }
        }
        return null;
      }
      return null;
    }
  }

  /**
   * The instance with every cell of the given columns (per lower-case table name) multiplied by {@code f}, rounded
   * to the column's scale; null when a product leaves its column's range or nothing changed.
   */
  private static @Nullable Database scaled(Database db, Map<String, Set<Integer>> columnsByTable, BigDecimal f,
      String what) {
    Map<String, List<List<String>>> all = new LinkedHashMap<>();
    boolean changed = false;
    for (Schema.Table table : db.tables()) {
      Set<Integer> columns = columnsByTable.getOrDefault(table.name().toLowerCase(Locale.ROOT), Set.of());
      List<List<String>> rows = new ArrayList<>();
      for (List<String> row : db.rows(table)) {
        List<String> r = new ArrayList<>(row);
        for (int c : columns) {
          String v = r.get(c);
          if (v == null) {
            continue;
          }
          String moved;
          try {
            ValueType type = ValueType.of(table.columns().get(c).valueType());
            BigDecimal lim = limit(table.columns().get(c).type());
            BigDecimal x = new BigDecimal(v.strip()).multiply(f)
                .setScale(scale(type, table.columns().get(c).type()), RoundingMode.HALF_UP);
            if (lim != null && x.abs().compareTo(lim) >= 0) {
              return null;
            }
            moved = type.number(x);
          } catch (NumberFormatException | ArithmeticException e) {
            moved = null;
          }
          if (moved == null) {
            return null;
          }
          changed |= !moved.equals(v);
          r.set(c, moved);
        }
        rows.add(r);
      }
      all.put(table.name().toLowerCase(Locale.ROOT), rows);
    }
    return changed ? new Database(db.name() + what, db.tables(), all) : null;
  }

  /** Aggregates that are NULL (or say nothing) over a group of one row: they need groups of two. */
  private static final Pattern PAIR_AGGREGATE = Pattern.compile(
      "stddev.*|std|var.*|variance|covar_samp|corr|regr_.*|kurtosis.*|skewness");

  /** Whether a query calls an aggregate that needs two rows in a group ({@code stddev_samp}, {@code var_samp}). */
  static boolean needsPairs(List<JsonNode> statements) {
    boolean[] found = {false};
    for (JsonNode s : statements) {
      Trees.visit(s, n -> found[0] |= "FUNCTION".equals(n.path("class").asText(""))
          && PAIR_AGGREGATE.matcher(n.path("function_name").asText("").toLowerCase(Locale.ROOT)).matches());
    }
    return found[0];
  }

  /**
   * The instance with every aggregated row given three siblings in its group, all three alike ({@link Siblings}, at
   * ten times its measures): a sample deviation over a group of four rows {@code (a, b, b, b)} is {@code |a - b| /
   * 2}, a rational number, where over two or three rows, {@code |a - b| / sqrt(2)} and {@code / sqrt(3)}, it never
   * equals a decimal constant. So a coefficient of variation {@code stdev / mean = 2 |a - b| / (a + 3b)} sits exactly
   * on 1 at {@code a = 5b} and on 1.5 at {@code a = 13b} (TPC-DS q39's {@code cov > 1}, {@code > 1.5}), where a
   * search moving the cell {@code a} finds it ({@link BranchDistance}). Null where no table is aggregated.
   */
  static @Nullable Database fourPerGroup(Database db, Map<String, Set<Integer>> measures, Set<String> grouped) {
    return Siblings.of(db, measures, grouped, 3);
  }

  /** The lower-case names of the columns the queries group or partition by. */
  static Set<String> grouped(List<JsonNode> statements) {
    Set<String> out = new HashSet<>();
    for (JsonNode s : statements) {
      Trees.visit(s, n -> {
        for (String field : List.of("group_expressions", "partitions")) {
          for (JsonNode g : n.path(field)) {
            for (List<String> ref : Trees.columnRefs(g)) {
              if (!ref.isEmpty()) {
                out.add(ref.get(ref.size() - 1).toLowerCase(Locale.ROOT));
              }
            }
          }
        }
      });
    }
    return out;
  }

  /**
   * Groups of two: every row of a table the queries aggregate gets a sibling in the same group — the same
   * values, a fresh value in one key column that is not grouped by, and ten times its measures. The key column is
   * one whose value no grouped column holds; rows of other tables whose key holds the row's value there (its join
   * partners: the date of an inventory row) are copied with the fresh value too, so the sibling joins as the row
   * does (TPC-DS q39's {@code stddev_samp(inv_quantity_on_hand)} per warehouse, item and month: a second
   * inventory row on a second date of the same month).
   */
  private static final class Siblings {
    private Siblings() {}

    static @Nullable Database of(Database db, Map<String, Set<Integer>> measures, Set<String> grouped) {
      return of(db, measures, grouped, 1);
    }

    /** Every aggregated row with {@code copies} siblings, all at ten times its measures. */
    static @Nullable Database of(Database db, Map<String, Set<Integer>> measures, Set<String> grouped, int copies) {
      BigInteger next = BigInteger.valueOf(1000);
      for (Schema.Table t : db.tables()) {
        for (List<String> row : db.rows(t)) {
          for (String v : row) {
            if (v != null && v.strip().matches("-?\\d{1,18}")) {
              next = next.max(new BigInteger(v.strip()).add(BigInteger.valueOf(1000)));
            }
          }
        }
      }
      Map<String, List<List<String>>> rows = new LinkedHashMap<>();
      for (Schema.Table t : db.tables()) {
        rows.put(t.name().toLowerCase(Locale.ROOT), new ArrayList<>(db.rows(t)));
      }
      boolean any = false;
      for (Schema.Table t : db.tables()) {
        Set<Integer> columns = measures.get(t.name().toLowerCase(Locale.ROOT));
        List<List<String>> original = db.rows(t);
        if (columns == null || original.isEmpty()) {
          continue;
        }
        int key = keyColumn(db, t, grouped);
        if (key < 0 && !t.primaryKey().isEmpty()) {
          continue;
        }
        for (int n = 0; n < copies; n++) {
          for (List<String> row : original) {
            List<String> sibling = new ArrayList<>(row);
            if (key >= 0) {
              String fresh = next.toString();
              next = next.add(BigInteger.ONE);
              String old = row.get(key);
              sibling.set(key, fresh);
              for (Schema.Table u : db.tables()) {
                if (u == t) {
                  continue;
                }
                for (List<String> partner : db.rows(u)) {
                  for (int k = 0; k < u.columns().size(); k++) {
                    if (old != null && old.equals(partner.get(k)) && u.inKey(u.columns().get(k).name())) {
                      List<String> copy = new ArrayList<>(partner);
                      copy.set(k, fresh);
                      rows.get(u.name().toLowerCase(Locale.ROOT)).add(copy);
                    }
                  }
                }
              }
            }
            for (int c : columns) {
              String v = sibling.get(c);
              if (v == null) {
                continue;
              }
              try {
                BigDecimal x = new BigDecimal(v.strip());
                BigDecimal moved = x.signum() == 0 ? BigDecimal.valueOf(7) : x.multiply(BigDecimal.TEN);
                BigDecimal lim = limit(t.columns().get(c).type());
                String text = lim != null && moved.abs().compareTo(lim) >= 0 ? null
                    : ValueType.of(t.columns().get(c).valueType()).number(moved);
                sibling.set(c, text != null ? text : v);
              } catch (NumberFormatException | ArithmeticException e) {
                // The sibling keeps the value.
              }
            }
            rows.get(t.name().toLowerCase(Locale.ROOT)).add(sibling);
            any = true;
          }
        }
      }
      return any ? new Database(db.name() + (copies == 1 ? ", every aggregated row with a sibling in its group (ten "
          + "times its measures)" : ", every aggregated row with " + copies + " siblings in its group (ten times its "
          + "measures)"), db.tables(), rows) : null;
    }

    /**
     * The key column of {@code t} to give siblings a fresh value in: an integer column of the primary key, not
     * grouped by, whose values no grouped key column of another table holds; one whose values no other table's
     * key holds first (a ticket number), then one with join partners (a date key); -1 if none.
     */
    private static int keyColumn(Database db, Schema.Table t, Set<String> grouped) {
      int withPartners = -1;
      for (String name : t.primaryKey()) {
        int c = t.columnIndex(name);
        if (c < 0 || grouped.contains(name.toLowerCase(Locale.ROOT))
            || ValueType.of(t.columns().get(c).valueType()).family() != ValueType.Family.INTEGER) {
          continue;
        }
        Set<String> values = new HashSet<>();
        db.rows(t).forEach(r -> values.add(r.get(c)));
        boolean partners = false;
        boolean groupedPartner = false;
        for (Schema.Table u : db.tables()) {
          if (u == t) {
            continue;
          }
          for (int k = 0; k < u.columns().size(); k++) {
            String uk = u.columns().get(k).name();
            if (!u.inKey(uk)) {
              continue;
            }
            for (List<String> r : db.rows(u)) {
              if (r.get(k) != null && values.contains(r.get(k))) {
                partners = true;
                groupedPartner |= grouped.contains(uk.toLowerCase(Locale.ROOT));
              }
            }
          }
        }
        if (groupedPartner) {
          continue;
        }
        if (!partners) {
          return c;
        }
        if (withPartners < 0) {
          withPartners = c;
        }
      }
      return withPartners;
    }
  }

  /** Digits after the point a numeric column holds: 0 for integers, s of DECIMAL(p, s), 6 for floats. */
  static int scale(ValueType type, String declared) {
    if (type.family() == ValueType.Family.INTEGER) {
      return 0;
    }
    Matcher m = DECIMAL.matcher(declared.strip());
    return m.matches() ? Integer.parseInt(m.group(2)) : 6;
  }

  /** The largest magnitude a DECIMAL(p, s) holds (10^(p-s)), null for other types. */
  private static @Nullable BigDecimal limit(String type) {
    Matcher m = DECIMAL.matcher(type.strip());
    return m.matches() ? BigDecimal.TEN.pow(Math.max(0, Integer.parseInt(m.group(1)) - Integer.parseInt(m.group(2))))
        : null;
  }

  /**
   * One cell of a seed (table, row, column) and its type; {@code measures}, every measure column, for the finer grid
   * ({@link #refined}).
   */
  private record Cell(Seed seed, Schema.Table table, int row, int column, ValueType type, @Nullable BigDecimal limit,
      Map<String, Set<Integer>> measures) {

    /** The seed with this cell at {@code v}. */
    Database with(String v) {
      return with(seed.instance(), v);
    }

    /** An instance with the seed's tables and this cell at {@code v}. */
    Database with(Database base, String v) {
      Map<String, List<List<String>>> rows = new LinkedHashMap<>();
      for (Schema.Table t : base.tables()) {
        List<List<String>> r = new ArrayList<>(base.rows(t));
        if (t == table) {
          List<String> changed = new ArrayList<>(r.get(row));
          changed.set(column, v);
          r.set(row, changed);
        }
        rows.put(t.name().toLowerCase(Locale.ROOT), r);
      }
      return new Database(base.name() + ", " + table.name().toLowerCase(Locale.ROOT) + "."
          + table.columns().get(column).name() + " of row " + (row + 1) + " at " + v + " (a threshold of a "
          + "comparison over aggregates)", base.tables(), rows);
    }

    /** The value as the type writes it, rounded to a multiple of {@code unit}; null outside the type. */
    @Nullable String fit(BigDecimal v, BigDecimal unit) {
      BigDecimal rounded = v.divide(unit, 0, RoundingMode.HALF_UP).multiply(unit);
      if (limit != null && rounded.abs().compareTo(limit) >= 0) {
        return null;
      }
      try {
        return type.number(rounded);
      } catch (ArithmeticException e) {
        return null;
      }
    }

    /** Both queries on the seed with this cell at {@code v} (one more instance used). */
    @Nullable Outcome tryAt(String v, int[] used, Probe probe) throws SQLException {
      used[0]++;
      return probe.run(with(v));
    }

    @Nullable Outcome search(String start, int allowed, int[] used, Probe probe, List<Later> later)
        throws SQLException {
      BigDecimal v0;
      try {
        v0 = new BigDecimal(start.strip());
      } catch (NumberFormatException e) {
        return null;
      }
      List<String> around = type.neighbours(start);
      if (around.size() != 2) {
        return null;
      }
      BigDecimal unit = new BigDecimal(around.get(1).strip()).subtract(v0);
      if (unit.signum() <= 0) {
        return null;
      }
      List<BigDecimal> steps = new ArrayList<>();
      if (v0.signum() == 0) {
        for (long d : new long[] {1, -1, 10, -10, 100, -100, 1000}) {
          steps.add(BigDecimal.valueOf(d));
        }
      } else {
        steps.addAll(List.of(v0.add(BigDecimal.ONE), v0.subtract(BigDecimal.ONE), BigDecimal.ZERO, v0.negate(),
            v0.multiply(BigDecimal.valueOf(2)), v0.divide(BigDecimal.valueOf(2)), v0.multiply(BigDecimal.TEN),
            v0.add(BigDecimal.valueOf(100)), v0.subtract(BigDecimal.valueOf(100)),
            v0.multiply(BigDecimal.valueOf(-10))));
      }
      // Values tried and whether the row counts were the seed's.
      Map<BigDecimal, Boolean> same = new java.util.TreeMap<>();
      same.put(v0, true);
      BigDecimal pending = null; // the first value at which only a CTE's count changed
      for (BigDecimal s : steps) {
        String text = fit(s, unit);
        if (text == null || used[0] >= allowed) {
          continue;
        }
        BigDecimal at = new BigDecimal(text);
        if (same.containsKey(at)) {
          continue;
        }
        Outcome o = tryAt(text, used, probe);
        if (o == null) {
          continue;
        }
        if (o.different()) {
          return o;
        }
        boolean unchanged = o.signature().equals(seed.signature());
        same.put(at, unchanged);
        if (unchanged) {
          continue;
        }
        if (results(o.signature()).equals(results(seed.signature()))) {
          // Only a CTE's row count moved: bracketed after every cell's moves, in the put-off trials.
          pending = pending == null ? at : pending;
          continue;
        }
        return toward(at, v0, same, unit, allowed, used, probe, RESULTS, later);
      }
      if (pending != null) {
        BigDecimal at = pending;
        later.add((a, u) -> toward(at, v0, same, unit, a, u, probe, Integer.MAX_VALUE, later));
      }
      return null;
    }

    /**
     * Bisects between the nearest value tried on the seed's side and {@code at}, where the first {@code watched}
     * counts of the signature changed, then refines: the instance on which the queries differ, or null.
     */
    private @Nullable Outcome toward(BigDecimal at, BigDecimal v0, Map<BigDecimal, Boolean> same, BigDecimal unit,
        int allowed, int[] used, Probe probe, int watched, List<Later> later) throws SQLException {
      BigDecimal from = v0;
      for (Map.Entry<BigDecimal, Boolean> e : same.entrySet()) {
        BigDecimal x = e.getKey();
        boolean between = at.compareTo(v0) > 0 ? x.compareTo(v0) >= 0 && x.compareTo(at) < 0
            : x.compareTo(at) > 0 && x.compareTo(v0) <= 0;
        if (between && e.getValue() && x.subtract(at).abs().compareTo(from.subtract(at).abs()) < 0) {
          from = x;
        }
      }
      Bracket b = bisect(seed.instance(), seed.signature(), from, at, unit, allowed, used, probe, watched);
      if (b.found() != null) {
        return b.found();
      }
      if (b.to().subtract(b.from()).abs().compareTo(unit) <= 0) {
        Outcome found = refined(b.from(), b.to(), unit, allowed, used, probe, watched, TENFOLD);
        if (found == null) {
          later.add((a, u) -> refined(b.from(), b.to(), unit, a, u, probe, watched, OTHER_GRIDS));
        }
        return found;
      }
      return null; // this cell's threshold is tried: the next cell
    }

    /**
     * The threshold between two neighbouring values of the cell, on finer grids: every measure of the seed times
     * {@code f} (ratios between sums kept) and the cell bisected between {@code f} times each neighbour, for each of
     * {@code factors}: 10 at once, 9 and 11 after every cell's moves. A ratio's boundary that no value of the cell
     * meets exactly on the seed's totals ({@code curr / prev < 0.9} with {@code prev} = 3: 2/3 and 3/3 either side)
     * is met on the grid ten times finer (27/30); a
     * relative deviation from a partition's average ({@code abs(s - a) / a > 0.1} with two groups: {@code s} at 11/9
     * or 9/11 of the other group's total) on the grid nine or eleven times finer. At most {@value #REFINE_TRIALS}
     * instances per call.
     */
    private @Nullable Outcome refined(BigDecimal from, BigDecimal to, BigDecimal unit, int allowed, int[] used,
        Probe probe, int watched, int[] factors) throws SQLException {
      int budget = used[0] + REFINE_TRIALS;
      for (int f : factors) {
        BigDecimal factor = BigDecimal.valueOf(f);
        Database finer = scaled(seed.instance(), measures, factor, ", every measure times " + f + " (a finer grid)");
        String start = finer == null ? null : fit(from.multiply(factor), unit);
        if (start == null || used[0] >= Math.min(allowed, budget)) {
          return null;
        }
        used[0]++;
        Outcome base = probe.run(with(finer, start));
        if (base == null || base.different()) {
          return base;
        }
        Outcome found = bisect(finer, base.signature(), new BigDecimal(start), to.multiply(factor), unit,
            Math.min(allowed, budget), used, probe, watched).found();
        if (found != null) {
          return found;
        }
      }
      return null;
    }

    /**
     * Bisects this cell of {@code base} between {@code from}, where the queries' row counts are {@code same}, and
     * {@code to}, where they are not, in units of the column's type, while fewer than {@code limit} instances are
     * used: the instance on which the queries differ, if one does, and the last two values either side.
     */
    private Bracket bisect(Database base, List<Integer> same, BigDecimal from, BigDecimal to, BigDecimal unit,
        int limit, int[] used, Probe probe, int watched) throws SQLException {
      while (used[0] < limit) {
        BigDecimal units = to.subtract(from).divideToIntegralValue(unit);
        if (units.abs().compareTo(BigDecimal.ONE) <= 0) {
          break;
        }
        String mid = fit(from.add(units.divide(BigDecimal.valueOf(2), 0, RoundingMode.DOWN).multiply(unit)), unit);
        if (mid == null) {
          break;
        }
        used[0]++;
        Outcome m = probe.run(with(base, mid));
        if (m == null) {
          break;
        }
        if (m.different()) {
          return new Bracket(m, from, to);
        }
        if (watched(m.signature(), watched).equals(watched(same, watched))) {
          from = new BigDecimal(mid);
        } else {
          to = new BigDecimal(mid);
        }
      }
      return new Bracket(null, from, to);
    }
  }

  /** Signature entries that are the two results' row counts (the rest are the queries' CTEs' row counts). */
  static final int RESULTS = 2;

  private static List<Integer> results(List<Integer> signature) {
    return watched(signature, RESULTS);
  }

  private static List<Integer> watched(List<Integer> signature, int watched) {
    return signature.subList(0, Math.min(watched, signature.size()));
  }

  /** Where a bisection ended: the instance on which the queries differed (null if none), and its two sides. */
  private record Bracket(@Nullable Outcome found, BigDecimal from, BigDecimal to) {}

  /** Instances the finer grids of one cell's threshold try at most, at each of the two turns. */
  static final int REFINE_TRIALS = 10;

  /** The finer grid tried at once, and those tried with the trials left after every cell's moves. */
  private static final int[] TENFOLD = {10};
  private static final int[] OTHER_GRIDS = {9, 11};
}
