package dev.lakerewrite.core.equivalence;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Instances built from the queries' predicates rather than drawn at random, in the manner of XData's
 * mutation-killing test data and VeriEQL's bounded instances. All start from a <em>base row</em> per table that
 * passes as many of the queries' comparisons as it can (each column takes the pool value satisfying most of the
 * constants it is compared with, the first disjunct of every OR; columns compared with each other take one
 * shared value, so the base rows join), and change one thing:
 *
 * <ul>
 *   <li>the base rows alone; and groups of two and one (each table: the base row, a copy differing only in its
 *       key, and a second row from other values) — duplicates, and groups of size 1 and many;
 *   <li>for every comparison of a column with a constant, the column at the constant and just either side of it
 *       ({@code x < 5}: 4, 5, 6; both ends of a BETWEEN; strings a LIKE pattern does and does not match; the
 *       first and last day of a year and the days around it), as rows of one instance when the table's key can
 *       change without losing the join partners, else one instance per value;
 *   <li>a NULL in every nullable column the queries use (COUNT(col) against COUNT(*), NOT IN against NOT EXISTS);
 *   <li>for every OR, a row satisfying exactly one of its disjuncts, and such a row without a join partner (a
 *       join condition written inside one disjunct);
 *   <li>for every pair of joined tables, a row with no partner and a row with two partners; the row without a
 *       partner misses it in that one column only and keeps its partners in every other joined column (a join on
 *       an item and a ticket number then has a row that matches the item and not the ticket);
 *   <li>for every table a query reads more than once (a self-join, a correlated subquery on the same table), a
 *       second row with other values, its partners cloned along every join path, so that the two occurrences
 *       bind to different rows, taking the other occurrence's values ({@code d_year = 2001} for one, {@code
 *       2001 + 1} for the other); where a query joins the table's column with itself shifted ({@code d_week_seq1 =
 *       d_week_seq2 - 53}), that second row shifted by the constant either way; and the other tables'
 *       boundaries on those rows;
 *   <li>for every column compared with a multiple of an aggregate ({@code x < (SELECT 0.2 * avg(x) ...)}), groups
 *       in the proportion that puts a row just below, at and just above the threshold; and the boundaries of an
 *       aggregated table's comparisons one value per instance (several rows would move the aggregate);
 *   <li>for every difference of two columns compared with a constant ({@code ws_ship_date_sk - ws_sold_date_sk
 *       <= 30}, or of two joined tables' columns: {@code sr_returned_date_sk - ss_sold_date_sk > 120}), rows where
 *       the difference is just below, at and just above it;
 *   <li>for every count compared with a constant {@code k} ({@code HAVING count(*) > k}, a grouped subquery's
 *       {@code cnt BETWEEN 15 AND 20}), groups of {@code k - 1}, {@code k} and {@code k + 1} rows;
 *   <li>for every table another joins with, a second group: a second passing row of it joined by a copy of the
 *       other's base row, the measures in the proportion {@code 1 - c : 1 + c} of each fraction {@code c} the
 *       queries write (a group's deviation from its partition's average, TPC-DS q53/q89);
 *   <li>{@linkplain Witnesses witnesses}: a row per table <em>occurrence</em> (not per table) meeting each query's
 *       joins and constants at once, so that a query reading one table under several filters returns rows, and
 *       their variants (copies, second groups, boundaries, NULLs); built only with an engine at hand.
 * </ul>
 *
 * <p>Base rows avoid values at which arithmetic on the column vanishes ({@code 1 - l_discount} at 1), else every
 * computed result is 0 and no comparison of results tells queries apart.
 *
 * <p>Every instance honours the schema (NOT NULL, keys, foreign keys: a referencing row is pointed at an
 * existing referenced row, or made NULL, or dropped), so a difference on one is a real counterexample. At most
 * {@value #CAP} instances of the kinds other than witnesses, taken in turn from each kind, and at most {@value
 * #CAP} witnesses on top of them (a new kind never takes an older kind's place); identical instances once. Linear
 * in the number of constants times the number of tables.
 */
final class TargetedInstances {
  static final int CAP = 48;
  private static final String UNMATCHED_SEED = "lakerewrite_unmatched";

  private final List<Schema.Table> tables;
  private final Domains domains;
  private final QueryFacts facts;
  private final List<QueryFacts.ColumnComparison> comparisons;
  private final Map<QueryFacts.ColumnKey, List<Integer>> atomsByColumn = new LinkedHashMap<>();
  private final Set<Integer> secondaryDisjunct = new HashSet<>();
  private final Map<QueryFacts.ColumnKey, Set<String>> classTables = new HashMap<>();
  private final Map<QueryFacts.ColumnKey, QueryFacts.ColumnKey> classAtomColumn = new HashMap<>();
  private final Map<String, List<String>> base = new LinkedHashMap<>();
  private final Map<String, List<String>> alt = new LinkedHashMap<>();
  private int fresh;

  private final java.sql.@Nullable Connection duckdb;

  private TargetedInstances(List<Schema.Table> tables, Domains domains, QueryFacts facts,
      List<QueryFacts.ColumnComparison> comparisons, java.sql.@Nullable Connection duckdb) {
    this.duckdb = duckdb;
    this.tables = tables;
    this.domains = domains;
    this.facts = facts;
    this.comparisons = comparisons;
  }

  /** The targeted instances for these queries' facts, most telling kinds first (see {@link Plan}). */
  static List<Database> build(List<Schema.Table> tables, Domains domains, QueryFacts facts) {
    return build(tables, domains, facts, null);
  }

  /**
   * As above; with a DuckDB connection (the library's own), each base row is the one that passes the most of
   * its table's {@linkplain QueryFacts#rowFilters() row filters}, found by the engine among the columns' pools.
   */
  static List<Database> build(List<Schema.Table> tables, Domains domains, QueryFacts facts,
      java.sql.@Nullable Connection duckdb) {
    return build(tables, domains, facts, duckdb, true);
  }

  /** As above; {@code witnesses} false leaves out the {@link Witnesses} and their variants. */
  static List<Database> build(List<Schema.Table> tables, Domains domains, QueryFacts facts,
      java.sql.@Nullable Connection duckdb, boolean witnesses) {
    return plan(tables, domains, facts, duckdb, witnesses).instances();
  }

  /**
   * The targeted instances in the order they are tried, and how many of them are witnesses. The other kinds keep
   * the {@value #CAP} slots and the order they had before witnesses existed (witnesses never displace them); the
   * witnesses come on top, at most {@value #CAP} more, so the checker grants them instances on top of its budget
   * too ({@link #onTop()}) and the random instances after them keep theirs.
   */
  record Plan(List<Database> instances, int onTop) {}

  /** As {@link #build(List, Domains, QueryFacts, java.sql.Connection, boolean)}, with the witnesses counted. */
  static Plan plan(List<Schema.Table> tables, Domains domains, QueryFacts facts,
      java.sql.@Nullable Connection duckdb, boolean witnesses) {
    TargetedInstances t = new TargetedInstances(tables, domains, facts, facts.columnComparisons(), duckdb);
    t.witnesses = witnesses;
    return t.build();
  }

  private boolean witnesses = true;

  private Plan build() {
    List<Domains.@Nullable Atom> atoms = domains.atoms();
    for (int i = 0; i < atoms.size(); i++) {
      Domains.Atom a = atoms.get(i);
      if (a != null && table(a.column().table()) != null) {
        atomsByColumn.computeIfAbsent(a.column(), k -> new ArrayList<>()).add(i);
      }
    }
    for (List<List<Integer>> block : facts.orBlocks()) {
      for (int d = 1; d < block.size(); d++) {
        secondaryDisjunct.addAll(block.get(d));
      }
    }
    for (Schema.Table t : tables) {
      for (Schema.Column c : t.columns()) {
        QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), c.name());
        QueryFacts.ColumnKey cls = facts.classOf(key);
        if (facts.columns().contains(key) || atomsByColumn.containsKey(key)) {
          classTables.computeIfAbsent(cls, k -> new LinkedHashSet<>()).add(key.table());
        }
        if (atomsByColumn.containsKey(key)) {
          classAtomColumn.putIfAbsent(cls, key);
        }
      }
    }
    for (Schema.Table t : tables) {
      List<String> b = row(t, null);
      if (b == null) {
        return new Plan(List.of(), 0); // a NOT NULL column without values: nothing targeted can be built
      }
      satisfyColumnComparisons(t, b);
      b = passing(t, b);
      base.put(key(t), b);
      List<String> a = row(t, b);
      alt.put(key(t), a == null ? b : a);
    }

    List<Database> first = new ArrayList<>();
    first.add(instance("one row per table passing the filters", Map.of()));
    Map<String, List<List<String>>> groups = new LinkedHashMap<>();
    for (Schema.Table t : tables) {
      groups.put(key(t), new ArrayList<>(List.of(base.get(key(t)))));
    }
    for (Schema.Table t : tables) {
      List<String> b = base.get(key(t));
      List<String> copy = freshened(t, b).row();
      groups.get(key(t)).add(copy);
      partners(t, b, copy, base, groups);
      if (!alt.get(key(t)).equals(b)) {
        groups.get(key(t)).add(alt.get(key(t)));
      }
    }
    first.add(instance("groups of two and one (rows equal but for their keys, and another)", groups));
    Map<String, List<List<String>>> zeroed = numbersAtZero(groups);
    if (zeroed != null) {
      first.add(instance("groups of two and one, the numbers no condition reads at 0", zeroed));
    }

    // Witnesses: a row per table occurrence meeting the joins and constants of a query at once, so that it
    // returns rows (each query's first), then their variants, which take two turns at the end of each round below.
    List<Database> witnesses = new ArrayList<>();
    if (duckdb != null && this.witnesses) {
      try {
        for (Witnesses.Witness w : Witnesses.build(facts.statements(), tables, facts.schema(), facts.parser(),
            domains, base, duckdb)) {
          witnesses.add(instance(w.description(), w.rows()));
        }
      } catch (RuntimeException e) {
        witnesses.clear(); // a query shape the witnesses do not foresee: the other kinds still run
      }
    }
    int leading = Math.min(witnesses.size(), facts.statements().size());
    List<Database> evenVariants = new ArrayList<>();
    List<Database> oddVariants = new ArrayList<>();
    for (int i = leading; i < witnesses.size(); i++) {
      ((i - leading) % 2 == 0 ? evenVariants : oddVariants).add(witnesses.get(i));
    }

    // Each kind takes a turn per round. The kinds before witnesses (the first ten) share CAP slots among
    // themselves exactly as they did before witnesses existed; the witnesses (their leading ones right after the
    // base instances, then two variants at the end of each round) count against a CAP of their own.
    List<List<Database>> kinds = List.of(ors(), boundaries(), columnBoundaries(), nulls(), joins(), repeated(),
        thresholds(), differences(), counts(), witnessCounts(witnesses.subList(0, leading)), secondGroups(),
        evenVariants, oddVariants);
    int witnessKinds = 2;
    List<Database> out = new ArrayList<>();
    Set<Map<String, List<List<String>>>> seen = new HashSet<>();
    int[] taken = new int[2]; // [0] the other kinds' instances, [1] witnesses'
    for (Database d : first) {
      taken[0] += add(out, seen, d);
    }
    for (Database d : witnesses.subList(0, leading)) {
      taken[1] += add(out, seen, d);
    }
    int[] next = new int[kinds.size()];
    boolean progress = true;
    while (progress) {
      progress = false;
      for (int k = 0; k < kinds.size(); k++) {
        int share = k >= kinds.size() - witnessKinds ? 1 : 0;
        if (taken[share] < CAP && next[k] < kinds.get(k).size()) {
          taken[share] += add(out, seen, kinds.get(k).get(next[k]++));
          progress = true;
        }
      }
    }
    return new Plan(out, taken[1]);
  }

  /** Adds the instance unless one with the same rows is there already: 1 if added, else 0. */
  private int add(List<Database> out, Set<Map<String, List<List<String>>>> seen, Database d) {
    Map<String, List<List<String>>> content = new HashMap<>();
    for (Schema.Table t : tables) {
      content.put(key(t), d.rows(t));
    }
    if (seen.add(content)) {
      out.add(d);
      return 1;
    }
    return 0;
  }

  // ---- kinds ----------------------------------------------------------------------------------------------

  /** The compared columns at each constant and just either side of it, the other columns as in the base rows. */
  private List<Database> boundaries() {
    // Comparisons inside an OR get their boundaries where their disjunct holds (see ors()).
    return boundaries(base, outsideOrs(), "");
  }

  /** The atoms of each column that are not inside an OR. */
  private Map<QueryFacts.ColumnKey, List<Integer>> outsideOrs() {
    Set<Integer> inOr = new HashSet<>();
    facts.orBlocks().forEach(block -> block.forEach(inOr::addAll));
    Map<QueryFacts.ColumnKey, List<Integer>> outside = new LinkedHashMap<>();
    atomsByColumn.forEach((column, atoms) -> {
      List<Integer> mine = atoms.stream().filter(a -> !inOr.contains(a)).toList();
      if (!mine.isEmpty()) {
        outside.put(column, mine);
      }
    });
    return outside;
  }

  /**
   * The columns of these atoms at each constant and just either side of it, in rows that are otherwise {@code
   * rowsOf} (the base rows, or rows where one disjunct of an OR holds: a boundary inside that disjunct).
   */
  private List<Database> boundaries(Map<String, List<String>> rowsOf,
      Map<QueryFacts.ColumnKey, List<Integer>> atoms, String context) {
    return boundaries(rowsOf, atoms, context, null);
  }

  /** As above; with {@code combined}, also collects every column's rows into that one instance's rows. */
  private List<Database> boundaries(Map<String, List<String>> rowsOf,
      Map<QueryFacts.ColumnKey, List<Integer>> atoms, String context,
      @Nullable Map<String, List<List<String>>> combined) {
    List<Database> out = new ArrayList<>();
    List<Database> single = new ArrayList<>();
    for (Map.Entry<QueryFacts.ColumnKey, List<Integer>> e : atoms.entrySet()) {
      QueryFacts.ColumnKey column = e.getKey();
      Schema.Table t = table(column.table());
      int c = t.columnIndex(column.column());
      List<String> values = variants(column, e.getValue());
      if (values.isEmpty()) {
        continue;
      }
      String what = column + " at " + String.join(", ", values.subList(0, Math.min(6, values.size())))
          + (values.size() > 6 ? ", ..." : "") + context;
      List<String> b = rowsOf.get(key(t));
      Map<String, List<List<String>>> rows = rowsAtValues(t, b, c, values, rowsOf, false);
      out.add(instance(what, rows));
      if (aggregated(key(t)) && e.getValue().stream().allMatch(i -> domains.atoms().get(i).relation()
          == QueryFacts.Relation.COMPARE && !Set.of("IN", "NOT IN").contains(domains.atoms().get(i).operator()))) {
        // Rows the queries aggregate and compare the aggregate with a threshold: every variant row in one group
        // moves the aggregate past it (TPC-H Q20's sum of l_quantity over the lineitems of one year), so each
        // value of a comparison's boundary also gets an instance of its own, after all the others.
        for (String v : values) {
          List<String> r = new ArrayList<>(b);
          r.set(c, v);
          holdComparisons(t, r, c);
          Map<String, List<List<String>>> one = new LinkedHashMap<>();
          rowsOf.forEach((k, x) -> one.put(k, new ArrayList<>(List.of(x))));
          one.put(key(t), new ArrayList<>(List.of(r)));
          single.add(instance(column + " at " + v + " alone" + context, one));
        }
      }
      if (combined != null) {
        // All columns' variants in one instance: the base row of this table once, every variant row after it.
        rows.forEach((k, r) -> {
          List<List<String>> into = combined.computeIfAbsent(k, x -> new ArrayList<>());
          for (List<String> row : r) {
            if (!into.contains(row) || !k.equals(key(t)) && into.isEmpty()) {
              into.add(k.equals(key(t)) && row == r.get(0) ? row : freshenedIfNeeded(k, into, row));
            }
          }
        });
      }
    }
    out.addAll(single);
    return out;
  }

  /** The values a column takes around the constants of these atoms (at each, just either side, LIKE examples). */
  private List<String> variants(QueryFacts.ColumnKey column, List<Integer> atoms) {
    Schema.Table t = table(column.table());
    ValueType type = ValueType.of(t.columns().get(t.columnIndex(column.column())).valueType());
    LinkedHashSet<String> variants = new LinkedHashSet<>();
    for (int i : atoms) {
      Domains.Atom a = domains.atoms().get(i);
      switch (a.relation()) {
        case COMPARE -> {
          List<String> around = type.neighbours(a.value());
          boolean equality = Set.of("=", "<>", "IN", "NOT IN").contains(a.operator());
          if (equality && type.family() == ValueType.Family.STRING) {
            variants.add(a.value()); // a string equal or not: one value that differs is enough (below)
            continue;
          }
          if (around.size() == 2) {
            variants.add(around.get(0));
          }
          variants.add(a.value());
          if (!around.isEmpty()) {
            variants.add(around.get(around.size() - 1));
          }
        }
        case LIKE -> variants.addAll(ValueType.likeExamples(a.value()));
        case YEAR -> {
          try {
            variants.addAll(type.yearValues((int) Double.parseDouble(a.value())));
          } catch (NumberFormatException ignored) {
            // Not a year after all.
          }
        }
        case FUNCTION -> {
          List<String> passing = domains.satisfying(column);
          variants.addAll(passing.subList(0, Math.min(2, passing.size())));
          variants.add(a.value());
        }
      }
    }
    if (type.family() == ValueType.Family.STRING && !variants.isEmpty()) {
      variants.add(variants.iterator().next() + "a");
    }
    return new ArrayList<>(variants);
  }

  /** Whether the queries compare an aggregate over this table's rows with a threshold. */
  private boolean aggregated(String table) {
    for (QueryFacts.AggregateThreshold a : facts.aggregateThresholds()) {
      if (a.aggregated().table().equals(table)) {
        return true;
      }
    }
    return false;
  }

  /** The row, with a fresh key if a row of the list already has its key. */
  private List<String> freshenedIfNeeded(String table, List<List<String>> rows, List<String> row) {
    Schema.Table t = table(table);
    for (List<String> k : t.keys()) {
      int[] cols = k.stream().mapToInt(t::columnIndex).toArray();
      List<String> mine = project(row, cols);
      for (List<String> r : rows) {
        if (project(r, cols).equals(mine)) {
          return freshened(t, row).row();
        }
      }
    }
    return row;
  }

  /**
   * For every comparison between two columns of one table ({@code l_commitdate < l_receiptdate}), rows where the
   * right column is just below, equal to and just above the left one (the other comparisons of the row held).
   */
  private List<Database> columnBoundaries() {
    List<Database> out = new ArrayList<>();
    Set<List<String>> done = new HashSet<>();
    for (QueryFacts.ColumnComparison cmpr : comparisons) {
      Schema.Table t = table(cmpr.left().table());
      if (t == null || !cmpr.left().table().equals(cmpr.right().table()) || cmpr.operator().equals("=")) {
        continue;
      }
      int l = t.columnIndex(cmpr.left().column());
      int r = t.columnIndex(cmpr.right().column());
      List<String> pair = List.of(cmpr.left().column(), cmpr.right().column()).stream().sorted().toList();
      List<String> b = base.get(key(t));
      if (l < 0 || r < 0 || !done.add(pair) || b.get(l) == null) {
        continue;
      }
      ValueType type = ValueType.of(t.columns().get(l).valueType());
      List<String> around = type.neighbours(b.get(l));
      if (around.size() != 2) {
        continue;
      }
      List<List<String>> rows = new ArrayList<>();
      Map<String, List<List<String>>> all = new LinkedHashMap<>();
      base.forEach((k, v) -> all.put(k, new ArrayList<>(List.of(v))));
      all.put(key(t), rows);
      List<String> values = List.of(around.get(0), b.get(l), around.get(1));
      for (int i = 0; i < values.size(); i++) {
        List<String> row = new ArrayList<>(i == 0 ? b : freshened(t, b).row());
        row.set(r, values.get(i));
        holdComparisons(t, row, r, l, 0);
        rows.add(row);
        if (i > 0) {
          partners(t, b, row, base, all);
        }
      }
      out.add(instance(cmpr.right() + " just below, at and just above " + cmpr.left(), all));
    }
    return out;
  }

  /**
   * For every count compared with a constant {@code k} ({@code HAVING count(*) > k}, or {@code cnt BETWEEN 15 AND
   * 20} on a grouped subquery's count), a group of {@code k - 1}, {@code k} and {@code k + 1} rows: the base row of
   * a counted table and copies of it that differ only in a key column no join or filter uses (so each copy joins
   * and groups as the base row does), the other tables as in the base instance. Groups of one and two, and random
   * ones of a few rows, never reach such a size (after XData's constrained aggregation, which sizes groups to
   * satisfy or fail a HAVING).
   */
  private List<Database> counts() {
    List<Database> out = new ArrayList<>();
    Set<Integer> sizesDone = new HashSet<>();
    for (QueryFacts.CountThreshold c : facts.countThresholds()) {
      Schema.Table t = null;
      for (String name : c.tables()) {
        Schema.Table candidate = table(name);
        if (candidate != null && base.get(name) != null && !candidate.keys().isEmpty()
            && freshened(candidate, base.get(name)).keepsJoins()) {
          t = candidate;
          break;
        }
      }
      if (t == null) {
        continue;
      }
      for (int n = Math.max(1, c.constant() - 1); n <= c.constant() + 1; n++) {
        if (n < 3 || !sizesDone.add(n * 31 + t.name().hashCode())) {
          continue; // groups of one and two are in the first instances
        }
        List<String> b = base.get(key(t));
        Map<String, List<List<String>>> rows = oneRowEach(base);
        for (int i = 1; i < n; i++) {
          rows.get(key(t)).add(freshened(t, b).row());
        }
        out.add(instance("a group of " + n + " rows of " + key(t) + " (a count compared with " + c.constant()
            + ")", rows));
      }
    }
    return out;
  }

  /**
   * The rows with every number that no condition reads (not a key, not compared with a constant or a column, not
   * under an aggregate a comparison reads) at 0, or null when there is none: two rows equal but for their keys then
   * give equal sums and running totals (a running sum over them is {@code x} and {@code 2x}, unless {@code x} is 0),
   * which DISTINCT merges and a query without it keeps twice.
   */
  private @Nullable Map<String, List<List<String>>> numbersAtZero(Map<String, List<List<String>>> rows) {
    Set<QueryFacts.ColumnKey> read = new HashSet<>();
    facts.constants().forEach(c -> read.add(c.column()));
    for (QueryFacts.ColumnComparison c : facts.columnComparisons()) {
      read.add(c.left());
      read.add(c.right());
    }
    // Measures under an aggregate a comparison reads (HAVING sum(x) > ...) are read by a condition too.
    Map<String, Set<Integer>> compared = ThresholdSearch.measures(facts.statements(), tables);
    Map<String, List<List<String>>> out = new LinkedHashMap<>();
    boolean changed = false;
    for (Schema.Table t : tables) {
      // The columns to zero and their zero, decided once per table.
      Set<Integer> comparedHere = compared.getOrDefault(t.name().toLowerCase(Locale.ROOT), Set.of());
      Map<Integer, String> zeros = new LinkedHashMap<>();
      for (int c = 0; c < t.columns().size(); c++) {
        Schema.Column col = t.columns().get(c);
        ValueType type = ValueType.of(col.valueType());
        String zero = type.numeric() ? type.number(java.math.BigDecimal.ZERO) : null;
        if (zero != null && !t.inKey(col.name()) && !comparedHere.contains(c)
            && !read.contains(QueryFacts.ColumnKey.of(t.name(), col.name()))) {
          zeros.put(c, zero);
        }
      }
      List<List<String>> zeroedRows = new ArrayList<>();
      for (List<String> row : rows.getOrDefault(key(t), List.of())) {
        List<String> z = new ArrayList<>(row);
        for (Map.Entry<Integer, String> e : zeros.entrySet()) {
          if (z.get(e.getKey()) != null && !e.getValue().equals(z.get(e.getKey()))) {
            z.set(e.getKey(), e.getValue());
            changed = true;
          }
        }
        zeroedRows.add(z);
      }
      out.put(key(t), zeroedRows);
    }
    return changed ? out : null;
  }

  /** Rows a witness grown to a count's threshold may hold at most. */
  private static final int MAX_COUNTED_ROWS = 2_000;

  /**
   * {@link #counts()} on each query's first witness: every row of a counted table (one the count's scope reads) with
   * copies that differ only in a key column no join or filter uses, {@code k - 1}, {@code k} and {@code k + 1} rows
   * per row, the witness's other rows as they are. A count reached only where every other condition holds too (q8's
   * zip codes of more than ten preferred customers, intersected with a list and joined to stores by a prefix) needs
   * the witness's rows, not the base instance's.
   */
  private List<Database> witnessCounts(List<Database> leadingWitnesses) {
    List<Database> out = new ArrayList<>();
    for (Database w : leadingWitnesses) {
      for (QueryFacts.CountThreshold c : facts.countThresholds()) {
        for (String name : c.tables()) {
          Schema.Table t = table(name);
          List<List<String>> counted = t == null ? List.of() : w.rows(t);
          if (counted.isEmpty() || t.keys().isEmpty() || !freshened(t, counted.get(0)).keepsJoins()) {
            continue;
          }
          // From two: the first instances' groups of two are the base rows', not the witness's.
          for (int n = Math.max(2, c.constant() - 1); n <= c.constant() + 1; n++) {
            if (w.rowCount() + (long) counted.size() * (n - 1) > MAX_COUNTED_ROWS) {
              break;
            }
            Map<String, List<List<String>>> rows = new LinkedHashMap<>();
            for (Schema.Table other : tables) {
              rows.put(key(other), new ArrayList<>(w.rows(other)));
            }
            for (List<String> row : counted) {
              for (int i = 1; i < n; i++) {
                rows.get(key(t)).add(freshened(t, row).row());
              }
            }
            out.add(instance(w.name() + ", each " + key(t) + " row " + n + " times (a count compared with "
                + c.constant() + ")", rows));
          }
          break;
        }
      }
    }
    return out;
  }

  /**
   * For every difference of two columns compared with a constant ({@code ws_ship_date_sk - ws_sold_date_sk <=
   * 30}), rows where the difference is just below, at and just above the constant: the column that is not joined
   * (the subtrahend if neither is) moves, the other keeps the base row's value and so its partners. One instance,
   * the three rows in it (keys fresh, partners cloned), as {@link #boundaries} does for a column and a constant.
   * The two columns may be of two joined tables ({@code sr_returned_date_sk - ss_sold_date_sk > 120}, TPC-DS q50):
   * the moved column's table then gets the three rows, each with its partners cloned (a return for each sale).
   */
  private List<Database> differences() {
    List<Database> out = new ArrayList<>();
    Set<List<Object>> done = new HashSet<>();
    for (QueryFacts.ColumnDifference d : facts.columnDifferences()) {
      if (!done.add(List.of(d.minuend(), d.subtrahend(), d.constant().stripTrailingZeros()))) {
        continue; // the same rows for another operator
      }
      Schema.Table tm = table(d.minuend().table());
      Schema.Table ts = table(d.subtrahend().table());
      if (tm == null || ts == null) {
        continue;
      }
      int a = tm.columnIndex(d.minuend().column());
      int b = ts.columnIndex(d.subtrahend().column());
      List<String> rowM = base.get(key(tm));
      List<String> rowS = base.get(key(ts));
      if (a < 0 || b < 0 || rowM == null || rowS == null || rowM.get(a) == null || rowS.get(b) == null) {
        continue;
      }
      boolean moveMinuend = multiTable(d.subtrahend()) && !multiTable(d.minuend());
      Schema.Table t = moveMinuend ? tm : ts;
      List<String> row = moveMinuend ? rowM : rowS;
      int moved = moveMinuend ? a : b;
      String kept = moveMinuend ? rowS.get(b) : rowM.get(a);
      ValueType type = ValueType.of(t.columns().get(moved).valueType());
      ValueType keptType = ValueType.of((moveMinuend ? ts : tm).columns().get(moveMinuend ? b : a).valueType());
      if (!type.numeric() || !keptType.numeric()) {
        continue;
      }
      String at;
      try {
        java.math.BigDecimal k = new java.math.BigDecimal(kept.strip());
        at = type.number(moveMinuend ? k.add(d.constant()) : k.subtract(d.constant()));
      } catch (NumberFormatException e) {
        continue;
      }
      if (at == null) {
        continue;
      }
      Map<String, List<List<String>>> rows = rowsAtValues(t, row, moved, around(type, at), base, true);
      out.add(instance(d.minuend() + " - " + d.subtrahend() + " just below, at and just above " + d.constant()
          .toPlainString(), rows));
    }
    return out;
  }

  /**
   * For every table {@code d} another table {@code f} joins with, a second group: a second row of {@code d} that
   * passes {@code d}'s conditions but differs from the base row in its other columns (the alternative row, made
   * to pass), and a copy of {@code f}'s base row joined with it (a fresh key, the other partners kept), so that
   * rows grouped by {@code d}'s columns form two groups — two months of one item and store — that windows and
   * aggregates over a partition see together. {@code f}'s measures (numeric columns the queries read, neither
   * joined nor compared with a constant) take values in proportion: for every fraction {@code c} the queries write,
   * {@code 100 (1 - c)} and {@code 100 (1 + c)} (each group then deviates from the partition's average by exactly
   * {@code c}: TPC-DS q53/q89's {@code abs(sum_sales - avg_monthly_sales) / avg_monthly_sales > 0.1}, where the
   * engine's floating-point average divides exactly), and just outside and inside around an average of 1 ({@code
   * c} times 1.1 and 0.9: a {@code 0} moved by one in {@code avg_monthly_sales != 0} changes the result); and 1
   * and 2 (times 100 for a type without fractions). XData sizes and values groups to satisfy or fail the
   * conditions on aggregates in the same way (Chandra et al., "Data generation for testing and grading SQL
   * queries", VLDB Journal 2015).
   */
  private List<Database> secondGroups() {
    List<java.math.BigDecimal[]> ratios = new ArrayList<>();
    int fractions = 0;
    for (java.math.BigDecimal c : facts.fractions()) {
      if (fractions++ == 2) {
        break;
      }
      for (String factor : new String[] {"1", "1.1", "0.9"}) {
        java.math.BigDecimal d = c.multiply(new java.math.BigDecimal(factor));
        java.math.BigDecimal[] r = {java.math.BigDecimal.ONE.subtract(d), java.math.BigDecimal.ONE.add(d)};
        if (factor.equals("1")) {
          // Exactly at c around 100: the engine's floating-point average and quotient are then exact.
          r[0] = r[0].movePointRight(2);
          r[1] = r[1].movePointRight(2);
        }
        ratios.add(r);
      }
    }
    ratios.add(new java.math.BigDecimal[] {java.math.BigDecimal.ONE, java.math.BigDecimal.valueOf(2)});
    // The pairs (d, f), each with d's second row and f's copy joined with it.
    List<Schema.Table> ds = new ArrayList<>();
    List<Schema.Table> fs = new ArrayList<>();
    List<List<String>> seconds = new ArrayList<>();
    List<List<String>> copies = new ArrayList<>();
    for (Schema.Table d : tables) {
      List<String> bd = base.get(key(d));
      if (bd == null || !facts.tables().contains(key(d)) || d.keys().isEmpty()) {
        continue;
      }
      List<String> d2 = new ArrayList<>(alt.get(key(d)));
      satisfyColumnComparisons(d, d2);
      d2 = passing(d, d2);
      if (project(d2, keyColumns(d)).equals(project(bd, keyColumns(d)))) {
        continue; // no other row
      }
      for (Schema.Table f : tables) {
        List<String> bf = base.get(key(f));
        if (f == d || bf == null || !facts.tables().contains(key(f))) {
          continue;
        }
        Fresh made = freshened(f, bf);
        if (!made.keepsJoins()) {
          continue;
        }
        List<String> copy = new ArrayList<>(made.row());
        boolean joined = false;
        for (int fc = 0; fc < f.columns().size(); fc++) {
          QueryFacts.ColumnKey fk = QueryFacts.ColumnKey.of(f.name(), f.columns().get(fc).name());
          for (int dc = 0; dc < d.columns().size(); dc++) {
            QueryFacts.ColumnKey dk = QueryFacts.ColumnKey.of(d.name(), d.columns().get(dc).name());
            if (multiTable(dk) && facts.classOf(dk).equals(facts.classOf(fk))) {
              copy.set(fc, d2.get(dc));
              joined = true;
            }
          }
        }
        if (joined) {
          ds.add(d);
          fs.add(f);
          seconds.add(d2);
          copies.add(copy);
        }
      }
    }
    List<Database> out = new ArrayList<>();
    for (java.math.BigDecimal[] ratio : ratios) {
      for (int i = 0; i < ds.size(); i++) {
        Schema.Table d = ds.get(i);
        Schema.Table f = fs.get(i);
        List<String> first = new ArrayList<>(base.get(key(f)));
        List<String> second = new ArrayList<>(copies.get(i));
        for (int c = 0; c < f.columns().size(); c++) {
          QueryFacts.ColumnKey ck = QueryFacts.ColumnKey.of(f.name(), f.columns().get(c).name());
          ValueType type = ValueType.of(f.columns().get(c).valueType());
          if (!type.numeric() || !facts.columns().contains(ck) || multiTable(ck) || atomsByColumn.containsKey(ck)
              || isKey(f, c)) {
            continue;
          }
          // Around 1 (an average of exactly 1, where a 0 moved by one in avg != 0 changes the result), else
          // around 100 where the type holds no fraction.
          String lo = type.number(ratio[0]);
          String hi = type.number(ratio[1]);
          if (lo == null || hi == null) {
            lo = type.number(ratio[0].movePointRight(2));
            hi = type.number(ratio[1].movePointRight(2));
          }
          if (lo != null && hi != null) {
            first.set(c, lo);
            second.set(c, hi);
          }
        }
        Map<String, List<List<String>>> rows = oneRowEach(base);
        rows.get(key(d)).add(seconds.get(i));
        rows.put(key(f), new ArrayList<>(List.of(first, second)));
        out.add(instance("a second group: " + key(f) + " joined with a second " + key(d) + " row, measures "
            + ratio[0].toPlainString() + " : " + ratio[1].toPlainString(), rows));
      }
    }
    return out;
  }

  private static int[] keyColumns(Schema.Table t) {
    return t.keys().get(0).stream().mapToInt(t::columnIndex).toArray();
  }

  private static boolean isKey(Schema.Table t, int column) {
    String name = t.columns().get(column).name();
    for (List<String> k : t.keys()) {
      for (String c : k) {
        if (c.equalsIgnoreCase(name)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * For every OR, one instance per disjunct where only that disjunct holds; then, inside each such disjunct, its
   * columns at and around their constants.
   */
  private List<Database> ors() {
    List<Database> out = new ArrayList<>();
    List<Database> inside = new ArrayList<>();
    List<Database> combinedInside = new ArrayList<>();
    List<Database> unjoined = new ArrayList<>();
    List<List<List<Integer>>> blocks = facts.orBlocks();
    for (int b = 0; b < blocks.size(); b++) {
      List<List<Integer>> block = blocks.get(b);
      for (int d = 0; d < block.size(); d++) {
        Map<QueryFacts.ColumnKey, List<Integer>> holds = byColumn(block.get(d));
        Map<QueryFacts.ColumnKey, List<Integer>> fails = new LinkedHashMap<>();
        for (int o = 0; o < block.size(); o++) {
          if (o != d) {
            byColumn(block.get(o)).forEach((k, v) -> {
              if (!holds.containsKey(k)) {
                fails.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v);
              }
            });
          }
        }
        if (holds.isEmpty() && fails.isEmpty()) {
          continue;
        }
        Map<String, List<String>> rows = new LinkedHashMap<>();
        holds.forEach((column, atoms) -> set(rows, column, best(column, atoms, true, null)));
        fails.forEach((column, atoms) -> set(rows, column, best(column, atoms, false, null)));
        Map<String, List<List<String>>> changed = new LinkedHashMap<>();
        rows.forEach((t, r) -> changed.put(t, List.of(r)));
        String what = "only disjunct " + (d + 1) + " of OR #" + (b + 1) + " holds";
        out.add(instance(what, changed));
        unjoined.addAll(unjoined(rows, what));
        Map<String, List<String>> context = new LinkedHashMap<>(base);
        context.putAll(rows);
        Map<String, List<List<String>>> all = new LinkedHashMap<>();
        inside.addAll(boundaries(context, holds, ", " + what, all));
        if (!all.isEmpty()) {
          combinedInside.add(instance("every compared column at and around its constants, " + what, all));
        }
      }
    }
    out.addAll(combinedInside);
    out.addAll(unjoined);
    out.addAll(inside);
    return out;
  }

  /**
   * Where one disjunct holds ({@code rows}: the rows changed so that it does), for each joined column of those
   * tables, a second row of its table that holds the disjunct too but has no partner in that column: a join
   * condition written inside one disjunct (TPC-H Q19's {@code p_partkey = l_partkey} in each of three) matters
   * only on rows that pass the rest of that disjunct without joining.
   */
  private List<Database> unjoined(Map<String, List<String>> rows, String what) {
    List<Database> out = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : rows.entrySet()) {
      Schema.Table t = table(e.getKey());
      for (int c = 0; c < t.columns().size(); c++) {
        QueryFacts.ColumnKey column = QueryFacts.ColumnKey.of(t.name(), t.columns().get(c).name());
        if (!multiTable(column) || !facts.columns().contains(column)) {
          continue;
        }
        String unmatched = ValueType.of(t.columns().get(c).valueType()).fresh(500
            + (UNMATCHED_SEED.hashCode() & 0xff) + fresh++);
        if (unmatched == null) {
          continue;
        }
        Map<String, List<List<String>>> changed = new LinkedHashMap<>();
        rows.forEach((k, r) -> changed.put(k, new ArrayList<>(List.of(r))));
        base.forEach((k, r) -> changed.putIfAbsent(k, new ArrayList<>(List.of(r))));
        Map<String, List<String>> context = new LinkedHashMap<>(base);
        context.putAll(rows);
        changed.get(e.getKey()).add(withoutPartner(t, e.getValue(), c, unmatched, context, changed));
        out.add(instance(what + ", and a row of " + e.getKey() + " passing it without a partner in " + column,
            changed));
      }
    }
    return out;
  }

  /**
   * A copy of {@code row} of {@code t} whose column {@code c} takes {@code unmatched} (a value no other row
   * holds) and that keeps its partners in every other joined column: a join on two columns ({@code ss_item_sk =
   * sr_item_sk AND ss_ticket_number = sr_ticket_number}) then has a row that matches in one and not the other,
   * which tells the join from one with a condition dropped. When {@code c} is in every key of the table, the new
   * value alone makes the copy's keys new; else the copy gets a fresh key and, where that changed a joined column,
   * its partners are cloned into {@code into} (after XData's tuples that fail exactly one join condition).
   */
  private List<String> withoutPartner(Schema.Table t, List<String> row, int c, String unmatched,
      Map<String, List<String>> rowsOf, Map<String, List<List<String>>> into) {
    String name = t.columns().get(c).name();
    boolean inEveryKey = !t.keys().isEmpty() && t.keys().stream()
        .allMatch(k -> k.stream().anyMatch(x -> x.equalsIgnoreCase(name)));
    List<String> lonely;
    if (inEveryKey) {
      lonely = new ArrayList<>(row);
    } else {
      lonely = freshened(t, row).row();
      lonely.set(c, row.get(c)); // partners are cloned for the other columns that changed, not for this one
      partners(t, row, lonely, rowsOf, into);
    }
    lonely.set(c, unmatched);
    return lonely;
  }

  /**
   * For every column joined with another table's: a row without a partner in it (its partners in the other
   * joined columns kept), and two partners for the base row.
   */
  private List<Database> joins() {
    List<Database> out = new ArrayList<>();
    for (QueryFacts.ColumnKey column : facts.columns()) {
      Schema.Table t = table(column.table());
      if (t == null || !multiTable(column)) {
        continue;
      }
      int c = t.columnIndex(column.column());
      ValueType type = ValueType.of(t.columns().get(c).valueType());
      String unmatched = type.fresh(500 + (UNMATCHED_SEED.hashCode() & 0xff) + fresh++);
      if (unmatched == null) {
        continue;
      }
      Map<String, List<List<String>>> changed = oneRowEach(base);
      for (String other : classTables.get(facts.classOf(column))) {
        Schema.Table o = table(other);
        if (o == null || other.equals(key(t))) {
          continue;
        }
        Fresh copy = freshened(o, base.get(other));
        if (copy.keepsJoins()) {
          changed.get(other).add(copy.row());
        }
      }
      changed.get(key(t)).add(withoutPartner(t, base.get(key(t)), c, unmatched, base, changed));
      out.add(instance(column + " without a partner, the base row with two", changed));
    }
    return out;
  }

  /**
   * For every table a query reads more than once (a self-join, or the table again in a subquery), a second row
   * with other values in the columns compared with constants and a key of its own, and the rows joined to it
   * cloned along every join path (their keys fresh, and the rows joined to those cloned in turn), so that two
   * occurrences of the table can bind to different rows in one result row: TPC-H Q7's {@code nation n1, nation
   * n2} with the supplier's nation and the customer's nation different (after XData, which gives each tuple
   * variable of a query its own tuple).
   */
  private List<Database> repeated() {
    List<Database> out = new ArrayList<>();
    List<Database> later = new ArrayList<>();
    for (String name : facts.repeatedTables()) {
      Schema.Table t = table(name);
      if (t == null || base.get(name) == null) {
        continue;
      }
      List<String> b = base.get(name);
      List<String> second = new ArrayList<>(b);
      for (int c = 0; c < t.columns().size(); c++) {
        QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), t.columns().get(c).name());
        List<Integer> atoms = atomsByColumn.get(key);
        if (atoms != null) {
          String v = best(key, atoms, true, b.get(c), true);
          if (v != null) {
            second.set(c, v);
          }
        }
      }
      satisfyColumnComparisons(t, second);
      Map<String, List<List<String>>> rows = withSecond(t, second);
      String what = "two different rows of " + name + " (read more than once), joined along every path";
      out.add(instance(what, rows));
      // A self-join on a shifted column (a week and the same week a year later): the second row shifted.
      for (QueryFacts.ColumnOffset o : facts.columnOffsets()) {
        int c = t.columnIndex(o.column().column());
        if (!o.column().equals(o.other()) || !o.column().table().equalsIgnoreCase(t.name()) || c < 0
            || b.get(c) == null) {
          continue;
        }
        ValueType type = ValueType.of(t.columns().get(c).valueType());
        for (java.math.BigDecimal k : List.of(o.offset(), o.offset().negate())) {
          String shifted;
          try {
            shifted = type.numeric() ? type.number(new java.math.BigDecimal(b.get(c).strip()).add(k)) : null;
          } catch (NumberFormatException e) {
            shifted = null;
          }
          if (shifted != null) {
            List<String> moved = new ArrayList<>(second);
            moved.set(c, shifted);
            out.add(instance(what + ", the second's " + o.column().column() + " " + (k.signum() > 0 ? "+ " : "- ")
                + k.abs().toPlainString(), withSecond(t, moved)));
          }
        }
      }
      // The boundaries of the comparisons on the other tables: every row of the column's table at one value.
      outsideOrs().forEach((column, atoms) -> {
        Schema.Table ct = table(column.table());
        int c = ct == null ? -1 : ct.columnIndex(column.column());
        if (c < 0 || ct == t || ct.inKey(column.column()) || rows.get(key(ct)) == null) {
          return; // the repeated table's own columns: boundaries() puts their values in rows of one instance
        }
        for (String v : variants(column, atoms)) {
          Map<String, List<List<String>>> moved = new LinkedHashMap<>();
          rows.forEach((k, r) -> {
            List<List<String>> copies = new ArrayList<>();
            for (List<String> row : r) {
              List<String> x = new ArrayList<>(row);
              if (k.equals(key(ct))) {
                x.set(c, v);
                holdComparisons(ct, x, c);
              }
              copies.add(x);
            }
            moved.put(k, copies);
          });
          later.add(instance(what + ", " + column + " at " + v, moved));
        }
      });
    }
    out.addAll(later);
    return out;
  }

  /**
   * The base rows and a copy of {@code second} (a row of {@code t}, which the queries read more than once) under a
   * fresh key, with the rows joined to it cloned along every join path.
   */
  private Map<String, List<List<String>>> withSecond(Schema.Table t, List<String> second) {
    List<String> b = base.get(key(t));
    List<String> copy = freshened(t, second).row();
    Map<String, List<List<String>>> rows = oneRowEach(base);
    rows.get(key(t)).add(copy);
    Set<Integer> changed = new HashSet<>();
    for (int c = 0; c < copy.size(); c++) {
      if (!java.util.Objects.equals(b.get(c), copy.get(c))) {
        changed.add(c);
      }
    }
    clonePartners(t, b, copy, changed, rows, 0);
    return rows;
  }

  /**
   * For every column compared with a multiple of an aggregate a scalar subquery computes
   * ({@code x < (SELECT 0.2 * avg(x) ...)}), groups whose aggregate puts the compared value just below, at and just above the threshold:
   * for the column itself, a group of two rows in the proportion that makes one of them equal to the threshold
   * (avg: {@code k} and {@code 2 - k}; sum: {@code k} and {@code 1 - k}; min, max: 1 and 2), the other rows as
   * in the base instance; for another column, the aggregated row at a power of ten and the compared column at
   * {@code k} times it. Values the column's type cannot hold exactly are scaled by powers of ten (the four
   * aggregates are homogeneous), else the comparison gets no instance.
   */
  private List<Database> thresholds() {
    List<Database> out = new ArrayList<>();
    List<Database> far = new ArrayList<>();
    for (QueryFacts.AggregateThreshold a : facts.aggregateThresholds()) {
      Schema.Table pt = table(a.probe().table());
      Schema.Table at = table(a.aggregated().table());
      if (pt == null || at == null || base.get(key(pt)) == null || base.get(key(at)) == null) {
        continue;
      }
      int pc = pt.columnIndex(a.probe().column());
      int ac = at.columnIndex(a.aggregated().column());
      if (pc < 0 || ac < 0) {
        continue;
      }
      ValueType ptype = ValueType.of(pt.columns().get(pc).valueType());
      ValueType atype = ValueType.of(at.columns().get(ac).valueType());
      if (!ptype.numeric() || !atype.numeric()) {
        continue;
      }
      java.math.BigDecimal k = a.factor();
      String what = a.probe() + " " + a.operator() + " " + k.toPlainString() + " * " + a.function() + "("
          + a.aggregated() + ")";
      if (a.probe().equals(a.aggregated())) {
        java.math.BigDecimal one = java.math.BigDecimal.ONE;
        java.math.BigDecimal[] pair = switch (a.function()) {
          case "avg" -> k.compareTo(java.math.BigDecimal.valueOf(2)) < 0 ? new java.math.BigDecimal[] {k,
              java.math.BigDecimal.valueOf(2).subtract(k)} : null;
          case "sum" -> k.compareTo(one) < 0 ? new java.math.BigDecimal[] {k, one.subtract(k)} : null;
          case "min" -> k.compareTo(one) == 0 ? new java.math.BigDecimal[] {one, java.math.BigDecimal.valueOf(2)}
              : null;
          case "max" -> k.compareTo(one) == 0 ? new java.math.BigDecimal[] {java.math.BigDecimal.valueOf(2), one}
              : null;
          default -> null;
        };
        String[] texts = pair == null ? null : scaled(ptype, pair[0], pair[1]);
        if (texts == null) {
          continue;
        }
        List<String> b = base.get(key(pt));
        for (List<String> second : keyVariants(pt, b)) {
          for (String probe : around(ptype, texts[0])) {
            Map<String, List<List<String>>> rows = oneRowEach(base);
            List<String> p = new ArrayList<>(b);
            p.set(pc, probe);
            List<String> o = new ArrayList<>(second);
            o.set(pc, texts[1]);
            rows.put(key(pt), new ArrayList<>(List.of(p, o)));
            partners(pt, b, o, base, rows);
            out.add(instance(what + ": a group of two, the compared row at " + probe + ", the other at "
                + texts[1], rows));
          }
        }
        far.addAll(farGroups(pt, pc, texts, what));
      } else {
        String[] texts = null;
        java.math.BigDecimal aggregated = java.math.BigDecimal.ONE;
        for (int m = 0; m < 7 && texts == null; m++) {
          aggregated = java.math.BigDecimal.TEN.pow(m);
          String av = atype.number(aggregated);
          String pv = ptype.number(aggregated.multiply(k));
          texts = av == null || pv == null ? null : new String[] {av, pv};
        }
        if (texts == null) {
          continue;
        }
        for (String probe : around(ptype, texts[1])) {
          Map<String, List<String>> rows = new LinkedHashMap<>();
          set(rows, a.aggregated(), texts[0]);
          set(rows, a.probe(), probe);
          Map<String, List<List<String>>> changed = new LinkedHashMap<>();
          rows.forEach((t, r) -> changed.put(t, List.of(r)));
          out.add(instance(what + ": the aggregated value " + texts[0] + ", the compared one " + probe, changed));
        }
      }
    }
    out.addAll(far);
    return out;
  }

  /**
   * Copies of a row that differ from it in one key column each (the copy {@link #freshened} prefers first): which
   * key column changes decides which groups the copy shares with the row (TPC-H Q2's partsupp row of the same
   * part from another supplier, or of another part).
   */
  private List<List<String>> keyVariants(Schema.Table t, List<String> row) {
    List<List<String>> out = new ArrayList<>();
    out.add(freshened(t, row).row());
    for (List<String> k : t.keys()) {
      if (k.size() < 2) {
        continue;
      }
      for (String c : k) {
        int i = t.columnIndex(c);
        String v = i < 0 ? null : ValueType.of(t.columns().get(i).valueType()).fresh(fresh++);
        if (v == null) {
          continue;
        }
        List<String> copy = new ArrayList<>(row);
        copy.set(i, v);
        boolean same = false;
        for (List<String> o : out) {
          for (int j = 0; j < o.size(); j++) {
            same |= j == i && !java.util.Objects.equals(o.get(j), row.get(j));
          }
        }
        if (!same) {
          out.add(copy);
        }
      }
    }
    return out;
  }

  /**
   * Groups of two whose second row (same group key, another key column fresh) reaches a copy of the whole joined
   * neighbourhood (its partners cloned with fresh values along every join path), where one filter at a time
   * fails: the aggregate then includes, or not, a row that a filter two joins away excludes (TPC-H Q2's cheaper
   * partsupp row whose supplier's nation lies outside the region). Both orders of the two values.
   */
  private List<Database> farGroups(Schema.Table pt, int pc, String[] texts, String what) {
    List<Database> out = new ArrayList<>();
    List<String> b = base.get(key(pt));
    List<List<String>> variants = keyVariants(pt, b);
    for (List<String> second : variants.subList(1, variants.size())) {
      Map<String, List<List<String>>> rows = oneRowEach(base);
      List<String> p = new ArrayList<>(b);
      List<String> o = new ArrayList<>(second);
      rows.put(key(pt), new ArrayList<>(List.of(p, o)));
      Set<Integer> changed = new HashSet<>();
      for (int c = 0; c < o.size(); c++) {
        if (!java.util.Objects.equals(b.get(c), o.get(c))) {
          changed.add(c);
        }
      }
      Map<String, List<List<String>>> made = new LinkedHashMap<>();
      clonePartners(pt, b, o, changed, rows, 0, made);
      for (Map.Entry<QueryFacts.ColumnKey, List<Integer>> e : outsideOrs().entrySet()) {
        QueryFacts.ColumnKey column = e.getKey();
        List<List<String>> clones = made.get(column.table());
        Schema.Table ct = table(column.table());
        if (clones == null || ct == null) {
          continue;
        }
        int c = ct.columnIndex(column.column());
        String failing = best(column, e.getValue(), false, null);
        if (c < 0 || failing == null) {
          continue;
        }
        for (int order = 0; order < 2; order++) {
          Map<String, List<List<String>>> copy = new LinkedHashMap<>();
          for (Map.Entry<String, List<List<String>>> r : rows.entrySet()) {
            List<List<String>> list = new ArrayList<>();
            for (List<String> row : r.getValue()) {
              List<String> x = new ArrayList<>(row);
              if (r.getKey().equals(column.table()) && clones.stream().anyMatch(cl -> cl == row)) {
                x.set(c, failing);
              }
              list.add(x);
            }
            copy.put(r.getKey(), list);
          }
          copy.get(key(pt)).get(0).set(pc, texts[order]);
          copy.get(key(pt)).get(1).set(pc, texts[1 - order]);
          out.add(instance(what + ": a group of two, the second row's " + column + " at " + failing + " two "
              + "joins away, the rows at " + texts[order] + " and " + texts[1 - order], copy));
        }
      }
    }
    return out;
  }

  /** Two numbers as the type writes them, both multiplied by the smallest power of ten that makes that exact. */
  private static String @Nullable [] scaled(ValueType type, java.math.BigDecimal x, java.math.BigDecimal y) {
    for (int m = 0; m < 7; m++) {
      String a = type.number(x.movePointRight(m));
      String b = type.number(y.movePointRight(m));
      if (a != null && b != null) {
        return new String[] {a, b};
      }
    }
    return null;
  }

  /** A value and its neighbours: at the threshold first, then just below and just above. */
  private static List<String> around(ValueType type, String value) {
    List<String> out = new ArrayList<>();
    out.add(value);
    out.addAll(type.neighbours(value));
    return out;
  }

  /** Rows per table at most when partners are cloned along join paths. */
  private static final int CLONED_ROWS = 8;

  /**
   * Gives {@code copy} (a new row of {@code t} made from {@code original}) the partners {@code original} has
   * through the columns {@code through}: every row of another table joined to the old value is cloned with the
   * new one and a key of its own; where that key is itself joined, the clone's partners are cloned in turn (at
   * most four levels, {@value #CLONED_ROWS} rows per table).
   */
  private void clonePartners(Schema.Table t, List<String> original, List<String> copy, Set<Integer> through,
      Map<String, List<List<String>>> rows, int depth) {
    clonePartners(t, original, copy, through, rows, depth, null);
  }

  /**
   * As above; with {@code made}, the clones also take fresh values in every other joined column (so they reach
   * rows of their own along every path: a copy of the whole joined neighbourhood), and are collected there.
   */
  private void clonePartners(Schema.Table t, List<String> original, List<String> copy, Set<Integer> through,
      Map<String, List<List<String>>> rows, int depth, @Nullable Map<String, List<List<String>>> made) {
    if (depth > 3) {
      return;
    }
    for (int k : through) {
      QueryFacts.ColumnKey changed = QueryFacts.ColumnKey.of(t.name(), t.columns().get(k).name());
      if (java.util.Objects.equals(original.get(k), copy.get(k)) || !multiTable(changed)) {
        continue;
      }
      for (String other : classTables.get(facts.classOf(changed))) {
        Schema.Table o = table(other);
        if (o == null || other.equals(key(t)) || rows.get(other) == null) {
          continue;
        }
        for (int m = 0; m < o.columns().size(); m++) {
          QueryFacts.ColumnKey mk = QueryFacts.ColumnKey.of(o.name(), o.columns().get(m).name());
          if (!facts.classOf(mk).equals(facts.classOf(changed))) {
            continue;
          }
          for (List<String> row : new ArrayList<>(rows.get(other))) {
            if (!java.util.Objects.equals(row.get(m), original.get(k)) || rows.get(other).size() >= CLONED_ROWS) {
              continue;
            }
            List<String> clone = new ArrayList<>(row);
            clone.set(m, copy.get(k));
            Set<Integer> freshKeys = new HashSet<>();
            String linked = mk.column();
            for (List<String> key : o.keys()) {
              if (key.stream().anyMatch(x -> x.equalsIgnoreCase(linked))) {
                continue;
              }
              String pick = null;
              for (String x : key) {
                if (!multiTable(QueryFacts.ColumnKey.of(o.name(), x))) {
                  pick = x;
                  break;
                }
              }
              pick = pick == null && !key.isEmpty() ? key.get(0) : pick;
              if (pick == null) {
                continue;
              }
              int xi = o.columnIndex(pick);
              String v = ValueType.of(o.columns().get(xi).valueType()).fresh(fresh++);
              if (v != null) {
                clone.set(xi, v);
                freshKeys.add(xi);
              }
            }
            if (made != null) {
              for (int j = 0; j < o.columns().size(); j++) {
                QueryFacts.ColumnKey jk = QueryFacts.ColumnKey.of(o.name(), o.columns().get(j).name());
                if (j == m || freshKeys.contains(j) || clone.get(j) == null || !multiTable(jk)
                    || facts.classOf(jk).equals(facts.classOf(changed))) {
                  continue;
                }
                String v = ValueType.of(o.columns().get(j).valueType()).fresh(fresh++);
                if (v != null) {
                  clone.set(j, v);
                  freshKeys.add(j);
                }
              }
              made.computeIfAbsent(other, x -> new ArrayList<>()).add(clone);
            }
            rows.get(other).add(clone);
            clonePartners(o, row, clone, freshKeys, rows, depth + 1, made);
          }
        }
      }
    }
  }

  /** A NULL in each nullable column the queries use, the other rows passing. */
  private List<Database> nulls() {
    List<Database> out = new ArrayList<>();
    for (QueryFacts.ColumnKey column : facts.columns()) {
      Schema.Table t = table(column.table());
      if (t == null) {
        continue;
      }
      int c = t.columnIndex(column.column());
      if (c < 0 || !t.columns().get(c).nullable()) {
        continue;
      }
      List<String> r = new ArrayList<>(base.get(key(t)));
      r.set(c, null);
      out.add(instance(column + " NULL", Map.of(key(t), List.of(r))));
    }
    return out;
  }

  // ---- rows -----------------------------------------------------------------------------------------------

  /** A row of the table: the best value per column ({@code avoid}: a second row, other values where possible). */
  private @Nullable List<String> row(Schema.Table t, @Nullable List<String> avoid) {
    List<String> row = new ArrayList<>();
    for (int c = 0; c < t.columns().size(); c++) {
      Schema.Column col = t.columns().get(c);
      QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), col.name());
      String v = value(key, avoid == null ? null : avoid.get(c));
      if (v == null && !col.nullable()) {
        v = ValueType.of(col.valueType()).fresh(fresh++);
        if (v == null) {
          return null;
        }
      }
      row.add(v);
    }
    return row;
  }

  private @Nullable String value(QueryFacts.ColumnKey key, @Nullable String avoid) {
    List<Integer> atoms = atomsByColumn.get(key);
    if (atoms != null) {
      return best(key, primary(atoms), true, avoid);
    }
    QueryFacts.ColumnKey driver = classAtomColumn.get(facts.classOf(key));
    if (driver != null) {
      return best(driver, primary(atomsByColumn.get(driver)), true, avoid);
    }
    List<String> pool = domains.values(key);
    for (String v : pool) {
      if (!v.equals(avoid)) {
        return v;
      }
    }
    return pool.isEmpty() ? null : pool.get(0);
  }

  private List<Integer> primary(List<Integer> atoms) {
    List<Integer> out = new ArrayList<>();
    for (int a : atoms) {
      if (!secondaryDisjunct.contains(a)) {
        out.add(a);
      }
    }
    return out;
  }

  /**
   * The value of the column's pool that satisfies most of these atoms ({@code pass}) or fails all it can (not
   * {@code pass}); IN lists count once, satisfied by any of their values. Ties go to the earlier value.
   */
  private @Nullable String best(QueryFacts.ColumnKey column, List<Integer> atoms, boolean pass,
      @Nullable String avoid) {
    return best(column, atoms, pass, avoid, false);
  }

  /**
   * As above; with {@code others}, an atom that {@code avoid} fails counts twice when satisfied: the second row of
   * a table read more than once then takes the other occurrence's values ({@code d_year = 2001} for one, {@code
   * d_year = 2001 + 1} for the other) rather than another value passing the base row's.
   */
  private @Nullable String best(QueryFacts.ColumnKey column, List<Integer> atoms, boolean pass,
      @Nullable String avoid, boolean others) {
    Schema.Table t = table(column.table());
    ValueType type = ValueType.of(t.columns().get(t.columnIndex(column.column())).valueType());
    LinkedHashSet<String> candidates = new LinkedHashSet<>(domains.satisfying(column));
    candidates.addAll(domains.values(column));
    String best = null;
    int bestScore = Integer.MIN_VALUE;
    for (String v : candidates) {
      if (v.equals(avoid)) {
        continue;
      }
      int score = 0;
      boolean anyIn = false;
      boolean inHit = false;
      for (int i : atoms) {
        Domains.Atom a = domains.atoms().get(i);
        boolean s = satisfies(a, v, type)
            // A function of the column (substr(ca_zip, 1, 5) IN ('85669', ...)) cannot be evaluated here: a value
            // that fails it must at least not hold the constant.
            || !pass && a.relation() == QueryFacts.Relation.FUNCTION && (a.operator().equals("=")
                || a.operator().equals("IN")) && !a.value().isEmpty() && v.contains(a.value());
        if (a.operator().equals("IN")) {
          anyIn = true;
          inHit |= s;
        } else {
          score += s == pass ? 1 : 0;
          if (others && s && avoid != null && !satisfies(a, avoid, type)) {
            score++;
          }
        }
      }
      if (anyIn) {
        score += inHit == pass ? 1 : 0;
      }
      if (score > bestScore) {
        bestScore = score;
        best = v;
      }
    }
    return best;
  }

  /** Whether {@code value} satisfies the atom, as far as can be told here (functions of a column: no). */
  static boolean satisfies(Domains.Atom a, String value, ValueType type) {
    switch (a.relation()) {
      case COMPARE, ARITHMETIC -> {
        Integer cmp = type.compare(value, a.value());
        if (cmp == null) {
          return false;
        }
        return ValueType.holds(a.operator(), cmp, false);
      }
      case LIKE -> {
        boolean m = like(a.value()).matcher(value).matches();
        return a.operator().equals("NOT LIKE") != m;
      }
      case YEAR -> {
        try {
          int year = Integer.parseInt(value.strip().substring(0, 4));
          int wanted = (int) Double.parseDouble(a.value());
          int cmp = Integer.compare(year, wanted);
          return ValueType.holds(a.operator(), cmp, false);
        } catch (RuntimeException e) {
          return false;
        }
      }
      default -> {
        return false;
      }
    }
  }

  private static Pattern like(String pattern) {
    StringBuilder re = new StringBuilder();
    boolean escape = false;
    for (char ch : pattern.toCharArray()) {
      if (escape) {
        re.append(Pattern.quote(String.valueOf(ch)));
        escape = false;
      } else if (ch == '\\') {
        escape = true;
      } else if (ch == '%') {
        re.append(".*");
      } else if (ch == '_') {
        re.append('.');
      } else {
        re.append(Pattern.quote(String.valueOf(ch)));
      }
    }
    return Pattern.compile(re.toString(), Pattern.DOTALL);
  }

  private Map<QueryFacts.ColumnKey, List<Integer>> byColumn(List<Integer> atoms) {
    Map<QueryFacts.ColumnKey, List<Integer>> out = new LinkedHashMap<>();
    for (int i : atoms) {
      Domains.Atom a = domains.atoms().get(i);
      if (a != null && table(a.column().table()) != null) {
        out.computeIfAbsent(a.column(), k -> new ArrayList<>()).add(i);
      }
    }
    return out;
  }

  private void set(Map<String, List<String>> rows, QueryFacts.ColumnKey column, @Nullable String value) {
    Schema.Table t = table(column.table());
    if (value == null) {
      return;
    }
    List<String> r = rows.computeIfAbsent(key(t), k -> new ArrayList<>(base.get(k)));
    r.set(t.columnIndex(column.column()), value);
  }

  /** A copy of a row with new key values; whether its join columns (and constants' columns) stayed. */
  private record Fresh(List<String> row, boolean keepsJoins) {}

  private Fresh freshened(Schema.Table t, List<String> row) {
    List<String> out = new ArrayList<>(row);
    boolean keeps = true;
    for (List<String> k : t.keys()) {
      String pick = null;
      for (int pass = 0; pass < 3 && pick == null; pass++) {
        for (String c : k) {
          QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), c);
          boolean joined = multiTable(key);
          boolean compared = atomsByColumn.containsKey(key);
          if (pass == 0 && !joined && !compared || pass == 1 && !joined || pass == 2) {
            pick = c;
            keeps &= pass < 2;
            break;
          }
        }
      }
      if (pick == null) {
        continue;
      }
      int c = t.columnIndex(pick);
      String v = ValueType.of(t.columns().get(c).valueType()).fresh(fresh++);
      if (v != null) {
        out.set(c, v);
      }
    }
    return new Fresh(out, keeps);
  }

  /** Candidate rows the engine compares at most when it looks for a base row that passes the row filters. */
  private static final int FILTER_SEARCH = 20_000;

  /**
   * The row of {@code t} that passes the most of the queries' conditions on {@code t}'s rows alone ({@code
   * hd_dep_count / hd_vehicle_count > 1.2}, a CASE, arithmetic on two columns: what the per-constant choice of
   * values cannot see), changing as few of the base row's columns as it can: the engine evaluates the conditions
   * on the cross product of the pools of the columns they read (the base row's value first). Key columns, foreign
   * keys and columns joined with other tables keep their values (the base rows must still join). The base row
   * itself when it passes as many, when there is no engine or no such condition, or when the engine fails.
   */
  private List<String> passing(Schema.Table t, List<String> b) {
    if (duckdb == null) {
      return b;
    }
    List<QueryFacts.RowFilter> filters = new ArrayList<>();
    Set<String> read = new LinkedHashSet<>();
    for (QueryFacts.RowFilter f : facts.rowFilters()) {
      if (f.table().equals(key(t))) {
        filters.add(f);
        read.addAll(f.columns());
      }
    }
    if (filters.isEmpty()) {
      return b;
    }
    Set<String> fixed = new HashSet<>();
    for (Schema.ForeignKey fk : t.foreignKeys()) {
      fk.columns().forEach(c -> fixed.add(c.toLowerCase(Locale.ROOT)));
    }
    List<Integer> searched = new ArrayList<>();
    List<List<String>> pools = new ArrayList<>();
    for (String column : read) {
      int c = t.columnIndex(column);
      if (c < 0) {
        return b;
      }
      QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), column);
      if (t.inKey(t.columns().get(c).name()) || fixed.contains(column) || multiTable(key)) {
        continue;
      }
      List<String> pool = new ArrayList<>();
      if (b.get(c) != null) {
        pool.add(b.get(c));
      }
      for (String v : domains.values(key)) {
        if (!pool.contains(v)) {
          pool.add(v);
        }
      }
      if (pool.size() > 1) {
        searched.add(c);
        pools.add(pool);
      }
    }
    if (searched.isEmpty()) {
      return b;
    }
    // Trim the largest pools until the cross product is small enough.
    while (true) {
      long product = 1;
      int largest = 0;
      for (int i = 0; i < pools.size(); i++) {
        product *= pools.get(i).size();
        if (pools.get(i).size() > pools.get(largest).size()) {
          largest = i;
        }
      }
      if (product <= FILTER_SEARCH || pools.get(largest).size() <= 2) {
        break;
      }
      List<String> p = pools.get(largest);
      p.remove(p.size() - 1);
    }
    StringBuilder inner = new StringBuilder("SELECT ");
    StringBuilder from = new StringBuilder();
    StringBuilder changes = new StringBuilder();
    StringBuilder indexes = new StringBuilder();
    for (int i = 0; i < searched.size(); i++) {
      int c = searched.get(i);
      inner.append("p").append(i).append(".i AS lakerewrite_i").append(i).append(", TRY_CAST(p").append(i)
          .append(".v AS ").append(t.columns().get(c).type()).append(") AS ")
          .append(dev.lakerewrite.sql.Sql.quoted(t.columns().get(c).name())).append(", ");
      from.append(i == 0 ? "" : ", ").append("(VALUES ");
      List<String> pool = pools.get(i);
      for (int v = 0; v < pool.size(); v++) {
        from.append(v == 0 ? "" : ", ").append('(').append(v).append(", ")
            .append(dev.lakerewrite.sql.Sql.literal(pool.get(v))).append(')');
      }
      from.append(") AS p").append(i).append("(i, v)");
      changes.append(i == 0 ? "" : " + ").append("CAST(lakerewrite_i").append(i).append(" > 0 AS INTEGER)");
      indexes.append(", lakerewrite_i").append(i);
    }
    for (String column : read) {
      int c = t.columnIndex(column);
      if (searched.contains(c)) {
        continue;
      }
      inner.append("TRY_CAST(").append(dev.lakerewrite.sql.Sql.literal(b.get(c))).append(" AS ")
          .append(t.columns().get(c).type()).append(") AS ").append(dev.lakerewrite.sql.Sql.quoted(
              t.columns().get(c).name())).append(", ");
    }
    inner.append("1 AS lakerewrite_one FROM ").append(from);
    StringBuilder passed = new StringBuilder();
    for (int f = 0; f < filters.size(); f++) {
      passed.append(f == 0 ? "" : " + ").append("CAST((").append(filters.get(f).sql()).append(") IS TRUE AS INTEGER)");
    }
    String sql = "SELECT " + indexes.substring(2) + " FROM (" + inner + ") AS lakerewrite_candidates ORDER BY ("
        + passed + ") DESC, (" + changes + ")" + indexes + " LIMIT 1";
    try {
      List<List<String>> rows = EngineAnswers.rows(duckdb, sql);
      if (rows.isEmpty()) {
        return b;
      }
      List<String> out = new ArrayList<>(b);
      for (int i = 0; i < searched.size(); i++) {
        out.set(searched.get(i), pools.get(i).get(Integer.parseInt(rows.get(0).get(i))));
      }
      return out;
    } catch (java.sql.SQLException e) {
      return b;
    }
  }

  /** Every table's row of {@code rowsOf} as the one row of a mutable list, in a mutable map (a base to change). */
  private static Map<String, List<List<String>>> oneRowEach(Map<String, List<String>> rowsOf) {
    Map<String, List<List<String>>> rows = new LinkedHashMap<>();
    rowsOf.forEach((k, r) -> rows.put(k, new ArrayList<>(List.of(r))));
    return rows;
  }

  /**
   * The rows of {@code rowsOf} with {@code t}'s row replaced by one row per value of column {@code column}: the
   * first is {@code row} itself, the others fresh copies of it (keys of their own), each holding the comparisons
   * the column is in and given the join partners {@code row} has (the first too when {@code partnersOfFirst}).
   */
  private Map<String, List<List<String>>> rowsAtValues(Schema.Table t, List<String> row, int column,
      List<String> values, Map<String, List<String>> rowsOf, boolean partnersOfFirst) {
    Map<String, List<List<String>>> rows = oneRowEach(rowsOf);
    rows.put(key(t), new ArrayList<>());
    for (int i = 0; i < values.size(); i++) {
      List<String> r = new ArrayList<>(i == 0 ? row : freshened(t, row).row());
      r.set(column, values.get(i));
      holdComparisons(t, r, column);
      rows.get(key(t)).add(r);
      if (i > 0 || partnersOfFirst) {
        partners(t, row, r, rowsOf, rows);
      }
    }
    return rows;
  }

  /**
   * Gives a copy {@code copy} of the row {@code original} of {@code t} the join partners the original has: where
   * a joined column changed (a new key), each other table's row that matched the old value is cloned with the
   * new value (and a key of its own), so the copy joins as the original did.
   */
  private void partners(Schema.Table t, List<String> original, List<String> copy, Map<String, List<String>> rowsOf,
      Map<String, List<List<String>>> into) {
    for (int k = 0; k < t.columns().size(); k++) {
      QueryFacts.ColumnKey changed = QueryFacts.ColumnKey.of(t.name(), t.columns().get(k).name());
      if (java.util.Objects.equals(original.get(k), copy.get(k)) || !multiTable(changed)) {
        continue;
      }
      for (String other : classTables.get(facts.classOf(changed))) {
        Schema.Table o = table(other);
        if (o == null || other.equals(key(t)) || rowsOf.get(other) == null) {
          continue;
        }
        List<String> ob = rowsOf.get(other);
        for (int m = 0; m < o.columns().size(); m++) {
          QueryFacts.ColumnKey mk = QueryFacts.ColumnKey.of(o.name(), o.columns().get(m).name());
          if (!facts.classOf(mk).equals(facts.classOf(changed)) || !java.util.Objects.equals(ob.get(m),
              original.get(k))) {
            continue;
          }
          List<String> clone = new ArrayList<>(ob);
          clone.set(m, copy.get(k));
          for (List<String> key : o.keys()) {
            boolean holdsM = key.stream().anyMatch(x -> x.equalsIgnoreCase(mk.column()));
            if (holdsM) {
              continue;
            }
            for (String x : key) {
              QueryFacts.ColumnKey xk = QueryFacts.ColumnKey.of(o.name(), x);
              if (!multiTable(xk)) {
                int xi = o.columnIndex(x);
                String v = ValueType.of(o.columns().get(xi).valueType()).fresh(fresh++);
                if (v != null) {
                  clone.set(xi, v);
                }
                break;
              }
            }
          }
          into.computeIfAbsent(other, x -> new ArrayList<>()).add(clone);
          break;
        }
      }
    }
  }

  private boolean multiTable(QueryFacts.ColumnKey key) {
    Set<String> in = classTables.get(facts.classOf(key));
    return in != null && in.size() > 1;
  }

  /**
   * Makes a row whose column {@code fixed} was set still pass the comparisons between that column and the row's
   * other columns ({@code l_shipdate < l_commitdate < l_receiptdate}), by moving the other column next to it.
   */
  private void holdComparisons(Schema.Table t, List<String> cells, int fixed) {
    holdComparisons(t, cells, fixed, -1, 0);
  }

  /** As above, leaving the column {@code skip} (the other side of a comparison at its boundary) alone. */
  private void holdComparisons(Schema.Table t, List<String> cells, int fixed, int skip, int depth) {
    for (int round = 0; round < 1; round++) {
      for (QueryFacts.ColumnComparison cmpr : comparisons) {
        if (!cmpr.left().table().equals(key(t)) || !cmpr.right().table().equals(key(t))) {
          continue;
        }
        int l = t.columnIndex(cmpr.left().column());
        int r = t.columnIndex(cmpr.right().column());
        if (l < 0 || r < 0 || l == r || l != fixed || r == skip || cells.get(l) == null || cells.get(r) == null) {
          continue; // each comparison comes in both orientations: handle the one with the fixed column left
        }
        ValueType type = ValueType.of(t.columns().get(l).valueType());
        if (!type.comparableWith(ValueType.of(t.columns().get(r).valueType()))) {
          continue;
        }
        Integer cmp = type.compare(cells.get(l), cells.get(r));
        List<String> around = type.neighbours(cells.get(l));
        if (cmp == null || around.size() != 2) {
          continue;
        }
        switch (cmpr.operator()) {
          case "<" -> {
            if (cmp >= 0) {
              cells.set(r, around.get(1));
            }
          }
          case "<=" -> {
            if (cmp > 0) {
              cells.set(r, cells.get(l));
            }
          }
          case ">" -> {
            if (cmp <= 0) {
              cells.set(r, around.get(0));
            }
          }
          case ">=" -> {
            if (cmp < 0) {
              cells.set(r, cells.get(l));
            }
          }
          case "=" -> cells.set(r, cells.get(l));
          default -> {
            // <> and unknown: left as they are.
          }
        }
        // The moved column may be compared with a third one: hold it in turn.
        if (depth < 3) {
          holdComparisons(t, cells, r, skip == r ? -1 : (skip < 0 ? l : skip), depth + 1);
        }
      }
    }
  }

  /** Makes the base row pass the comparisons between its own columns by swapping or copying values. */
  private void satisfyColumnComparisons(Schema.Table t, List<String> cells) {
    for (int round = 0; round < 2; round++) {
      for (QueryFacts.ColumnComparison cmpr : comparisons) {
        if (!cmpr.left().table().equals(key(t)) || !cmpr.right().table().equals(key(t))) {
          continue;
        }
        int l = t.columnIndex(cmpr.left().column());
        int r = t.columnIndex(cmpr.right().column());
        if (l < 0 || r < 0 || l == r || cells.get(l) == null || cells.get(r) == null) {
          continue;
        }
        ValueType type = ValueType.of(t.columns().get(l).valueType());
        if (!type.comparableWith(ValueType.of(t.columns().get(r).valueType()))) {
          continue;
        }
        Integer cmp = type.compare(cells.get(l), cells.get(r));
        if (cmp == null) {
          continue;
        }
        boolean holds = ValueType.holds(cmpr.operator(), cmp, true);
        if (holds) {
          continue;
        }
        if (cmpr.operator().equals("=")) {
          cells.set(r, cells.get(l));
        } else if (cmp != 0 && !cmpr.operator().equals("<>")) {
          String x = cells.get(l);
          cells.set(l, cells.get(r));
          cells.set(r, x);
        } else {
          List<String> around = type.neighbours(cells.get(l));
          if (!around.isEmpty()) {
            cells.set(r, around.get(around.size() - 1));
          }
        }
      }
    }
  }

  // ---- instances ------------------------------------------------------------------------------------------

  /** The base rows with these tables' rows replaced, made to honour foreign keys and keys. */
  private Database instance(String what, Map<String, List<List<String>>> changed) {
    Map<String, List<List<String>>> rows = new LinkedHashMap<>();
    for (Schema.Table t : tables) {
      List<List<String>> mine = new ArrayList<>();
      for (List<String> r : changed.getOrDefault(key(t), List.of(base.get(key(t))))) {
        mine.add(new ArrayList<>(r));
      }
      for (Schema.ForeignKey fk : t.foreignKeys()) {
        Schema.Table parent = table(fk.referencedTable().toLowerCase(Locale.ROOT));
        List<List<String>> parentRows = parent == null ? null : rows.get(key(parent));
        if (parent == null || parentRows == null) {
          continue;
        }
        int[] cols = fk.columns().stream().mapToInt(t::columnIndex).toArray();
        int[] pcols = fk.referencedColumns().stream().mapToInt(parent::columnIndex).toArray();
        Set<List<String>> present = new HashSet<>();
        for (List<String> p : parentRows) {
          present.add(project(p, pcols));
        }
        boolean nullable = true;
        for (int c : cols) {
          nullable &= c >= 0 && t.columns().get(c).nullable();
        }
        for (var it = mine.iterator(); it.hasNext(); ) {
          List<String> r = it.next();
          List<String> k = project(r, cols);
          if (k.contains(null) || present.contains(k)) {
            continue;
          }
          if (!parentRows.isEmpty()) {
            List<String> target = parentRows.get(0);
            for (int i = 0; i < cols.length; i++) {
              if (cols[i] >= 0 && pcols[i] >= 0) {
                r.set(cols[i], target.get(pcols[i]));
              }
            }
          } else if (nullable) {
            for (int c : cols) {
              r.set(c, null);
            }
          } else {
            it.remove();
          }
        }
      }
      rows.put(key(t), unique(t, mine));
    }
    return new Database("targeted: " + what, tables, rows);
  }

  private static List<List<String>> unique(Schema.Table t, List<List<String>> rows) {
    List<List<String>> out = new ArrayList<>();
    List<Set<List<String>>> seen = new ArrayList<>();
    for (int k = 0; k < t.keys().size(); k++) {
      seen.add(new HashSet<>());
    }
    rows:
    for (List<String> r : rows) {
      for (int k = 0; k < t.keys().size(); k++) {
        List<String> key = project(r, t.keys().get(k).stream().mapToInt(t::columnIndex).toArray());
        boolean primary = k == 0 && !t.primaryKey().isEmpty();
        if (key.contains(null) ? primary : seen.get(k).contains(key)) {
          continue rows;
        }
      }
      for (int k = 0; k < t.keys().size(); k++) {
        seen.get(k).add(project(r, t.keys().get(k).stream().mapToInt(t::columnIndex).toArray()));
      }
      for (int c = 0; c < r.size(); c++) {
        if (r.get(c) == null && !t.columns().get(c).nullable()) {
          continue rows;
        }
      }
      out.add(r);
    }
    return out;
  }

  private static List<String> project(List<String> row, int[] cols) {
    List<String> out = new ArrayList<>(cols.length);
    for (int c : cols) {
      out.add(c < 0 ? null : row.get(c));
    }
    return out;
  }

  private Schema.@Nullable Table table(String lower) {
    for (Schema.Table t : tables) {
      if (key(t).equals(lower)) {
        return t;
      }
    }
    return null;
  }

  private static String key(Schema.Table t) {
    return t.name().toLowerCase(Locale.ROOT);
  }
}
