package dev.lakerewrite.core.equivalence;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Generates the database instances two queries are run on, in a fixed order that puts the instances most likely
 * to tell queries apart first: every table empty; one row per table (without and with NULLs); each table empty
 * in turn while the others have rows (inner against outer joins, aggregates over nothing); every row twice
 * (DISTINCT, UNION against UNION ALL); then random instances of growing size and varying NULL rates, and, when
 * a query has a LIMIT, instances with more rows than the LIMIT. Cells come from {@link Domains}; every instance
 * honours the schema: NOT NULL, primary keys and UNIQUE sets (distinct key tuples), foreign keys (values drawn
 * from the rows of the referenced table, which is filled first), CHECKs (rows the engine refuses are dropped
 * when loading).
 *
 * <p>Deterministic for a seed. Generating one instance is O(rows x columns).
 */
final class InstanceGenerator {
  private static final int KEY_ATTEMPTS = 12;

  private final List<Schema.Table> tables;
  private final Domains domains;
  private final long seed;
  private final long largestLimit;
  private final List<QueryFacts.ColumnComparison> comparisons;
  private final List<Profile> fixed = new ArrayList<>();
  private final java.util.function.Supplier<List<Database>> targetedSource;
  private @Nullable List<Database> targeted;

  /** How one instance is made: rows per table (a maximum, or exact counts), NULL and duplicate rates. */
  record Profile(String description, Map<String, Integer> rows, int maxRows, double nullRate, double duplicateRate,
      boolean exact, double satisfyRate) {}

  InstanceGenerator(List<Schema.Table> tables, Domains domains, long seed, long largestLimit,
      List<QueryFacts.ColumnComparison> comparisons) {
    this(tables, domains, seed, largestLimit, comparisons, List.of());
  }

  /**
   * A generator whose instances, after the fixed profiles, are first {@code targeted} (built from the queries'
   * predicates by {@link TargetedInstances}) and then random.
   */
  InstanceGenerator(List<Schema.Table> tables, Domains domains, long seed, long largestLimit,
      List<QueryFacts.ColumnComparison> comparisons, List<Database> targeted) {
    this(tables, domains, seed, largestLimit, comparisons, () -> targeted);
  }

  /**
   * As above, with the targeted instances made only when the first of them is asked for: a check that finds a
   * difference on the fixed instances before them (every table empty, one row per table, ...) never builds them.
   */
  InstanceGenerator(List<Schema.Table> tables, Domains domains, long seed, long largestLimit,
      List<QueryFacts.ColumnComparison> comparisons, java.util.function.Supplier<List<Database>> targeted) {
    this.targetedSource = targeted;
    this.tables = List.copyOf(tables);
    this.domains = domains;
    this.seed = seed;
    this.largestLimit = largestLimit;
    this.comparisons = List.copyOf(comparisons);
    fixed.add(new Profile("every table empty", Map.of(), 0, 0, 0, true, 0));
    fixed.add(new Profile("one row per table, no NULLs, passing the filters", counts(1), 1, 0, 0, true, 1.0));
    fixed.add(new Profile("one row per table, NULLs", counts(1), 1, 0.6, 0, true, 0.5));
    fixed.add(new Profile("two rows per table", counts(2), 2, 0.2, 0, true, 0.7));
    if (tables.size() > 1) {
      for (Schema.Table t : tables) {
        Map<String, Integer> c = new LinkedHashMap<>(counts(3));
        c.put(key(t), 0);
        fixed.add(new Profile(t.name() + " empty, 3 rows in the others", c, 3, 0.15, 0, true, 0.7));
      }
    }
    fixed.add(new Profile("every row twice", counts(2), 2, 0.15, 1.0, true, 0.7));
  }

  private Map<String, Integer> counts(int n) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Schema.Table t : tables) {
      out.put(key(t), n);
    }
    return out;
  }

  private static String key(Schema.Table t) {
    return t.name().toLowerCase(Locale.ROOT);
  }

  List<Schema.Table> tables() {
    return tables;
  }

  /** How many fixed instances come before the targeted ones (generating one of these never builds those). */
  int fixedCount() {
    return fixed.size();
  }

  private List<Database> targeted() {
    if (targeted == null) {
      targeted = List.copyOf(targetedSource.get());
    }
    return targeted;
  }

  /** The profile of instance {@code index} (0-based). */
  Profile profile(int index) {
    if (index < fixed.size()) {
      return fixed.get(index);
    }
    int r = index - fixed.size();
    if (largestLimit > 0 && largestLimit <= 2_000 && r % 5 == 4) {
      int n = (int) Math.min(2_000, largestLimit + 3);
      return new Profile("random, " + n + " rows per table (more than the LIMIT)", counts(n), n, 0.1, 0.1, true,
          0.5);
    }
    int[] sizes = {3, 4, 5, 6, 8, 10, 12, 16};
    double[] nulls = {0.15, 0.0, 0.3, 0.1, 0.45};
    double[] duplicates = {0.0, 0.2, 0.0, 0.4};
    double[] satisfy = {0.7, 0.3, 0.9, 0.0, 0.5, 0.8};
    int max = sizes[Math.min(sizes.length - 1, r / 3)];
    double nullRate = nulls[r % nulls.length];
    double duplicateRate = duplicates[r % duplicates.length];
    double satisfyRate = satisfy[r % satisfy.length];
    return new Profile(String.format(Locale.ROOT, "random, up to %d rows per table, %.0f%% NULLs, %.0f%% passing",
        max, nullRate * 100, satisfyRate * 100), Map.of(), max, nullRate, duplicateRate, false, satisfyRate);
  }

  /** Instance {@code index}: the same for the same seed, schema and queries. */
  Database generate(int index) {
    if (index < fixed.size()) {
      return generated(index, index, profile(index));
    }
    List<Database> targeted = targeted();
    if (index < fixed.size() + targeted.size()) {
      Database t = targeted.get(index - fixed.size());
      return new Database("generated #" + (index + 1) + " (" + t.name() + ")", tables,
          rowsOf(t));
    }
    return generated(index, index - targeted.size(), profile(index - targeted.size()));
  }

  /**
   * Instance {@code index} drawn with profile {@code p}; its rows depend on {@code ordinal}, its place among the
   * fixed and random instances, so that a change in the number of targeted instances before them leaves the random
   * ones as they were.
   */
  private Database generated(int index, int ordinal, Profile p) {
    Random random = new Random(seed * 1_000_003L + ordinal);
    Map<String, List<List<String>>> rows = new LinkedHashMap<>();
    for (Schema.Table t : tables) {
      int n = p.exact() ? p.rows().getOrDefault(key(t), p.maxRows()) : random.nextInt(p.maxRows() + 1);
      rows.put(key(t), table(t, n, p, random, rows));
    }
    return new Database("generated #" + (index + 1) + " (" + p.description() + ")", tables, rows);
  }

  private Map<String, List<List<String>>> rowsOf(Database d) {
    Map<String, List<List<String>>> out = new LinkedHashMap<>();
    for (Schema.Table t : tables) {
      out.put(key(t), d.rows(t));
    }
    return out;
  }

  private List<List<String>> table(Schema.Table t, int n, Profile p, Random random,
      Map<String, List<List<String>>> filled) {
    List<List<String>> out = new ArrayList<>();
    List<Set<List<String>>> seenKeys = new ArrayList<>();
    List<int[]> keyColumns = new ArrayList<>();
    for (List<String> k : t.keys()) {
      keyColumns.add(k.stream().mapToInt(t::columnIndex).toArray());
      seenKeys.add(new HashSet<>());
    }
    boolean keyed = !keyColumns.isEmpty();
    int fresh = 0;
    for (int r = 0; r < n; r++) {
      if (!keyed && !out.isEmpty() && p.duplicateRate() < 1.0 && random.nextDouble() < p.duplicateRate()) {
        out.add(out.get(random.nextInt(out.size())));
        continue;
      }
      List<String> row = null;
      for (int attempt = 0; attempt < KEY_ATTEMPTS && row == null; attempt++) {
        List<String> candidate = row(t, p, random, filled, attempt >= KEY_ATTEMPTS / 2 ? fresh++ : -1);
        if (candidate != null && unique(candidate, keyColumns, seenKeys, t)) {
          row = candidate;
        }
      }
      if (row == null) {
        continue;
      }
      for (int k = 0; k < keyColumns.size(); k++) {
        seenKeys.get(k).add(project(row, keyColumns.get(k)));
      }
      out.add(row);
    }
    if (!keyed && p.duplicateRate() >= 1.0) {
      out.addAll(new ArrayList<>(out));
    }
    return out;
  }

  private static boolean unique(List<String> row, List<int[]> keyColumns, List<Set<List<String>>> seen,
      Schema.Table t) {
    for (int k = 0; k < keyColumns.size(); k++) {
      List<String> key = project(row, keyColumns.get(k));
      boolean primary = k == 0 && !t.primaryKey().isEmpty();
      if (key.contains(null)) {
        if (primary) {
          return false;
        }
        continue; // UNIQUE allows any number of NULLs
      }
      if (seen.get(k).contains(key)) {
        return false;
      }
    }
    return true;
  }

  private static List<String> project(List<String> row, int[] columns) {
    List<String> out = new ArrayList<>(columns.length);
    for (int c : columns) {
      out.add(row.get(c));
    }
    return out;
  }

  /** One row, or null when a NOT NULL foreign key has nothing to point at. */
  private @Nullable List<String> row(Schema.Table t, Profile p, Random random, Map<String, List<List<String>>> filled,
      int fresh) {
    String[] cells = new String[t.columns().size()];
    boolean[] set = new boolean[cells.length];
    for (Schema.ForeignKey fk : t.foreignKeys()) {
      List<List<String>> parentRows = filled.get(fk.referencedTable().toLowerCase(Locale.ROOT));
      Schema.Table parent = tables.stream().filter(x -> x.name().equalsIgnoreCase(fk.referencedTable())).findFirst()
          .orElse(null);
      int[] mine = fk.columns().stream().mapToInt(t::columnIndex).toArray();
      boolean nullable = true;
      for (int c : mine) {
        nullable &= c >= 0 && t.columns().get(c).nullable();
      }
      boolean nothingToPointAt = parent == null || parentRows == null || parentRows.isEmpty();
      if (nothingToPointAt && !nullable) {
        return null;
      }
      if (nothingToPointAt || (nullable && random.nextDouble() < p.nullRate())) {
        for (int c : mine) {
          cells[c] = null;
          set[c] = true;
        }
        continue;
      }
      List<String> target = parentRows.get(random.nextInt(parentRows.size()));
      for (int i = 0; i < mine.length; i++) {
        int pc = parent.columnIndex(fk.referencedColumns().get(i));
        if (mine[i] >= 0 && pc >= 0) {
          cells[mine[i]] = target.get(pc);
          set[mine[i]] = true;
        }
      }
    }
    for (int c = 0; c < cells.length; c++) {
      if (set[c]) {
        continue;
      }
      Schema.Column col = t.columns().get(c);
      QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), col.name());
      List<String> pool = domains.values(key);
      boolean keyColumn = fresh >= 0 && t.inKey(col.name());
      if (col.nullable() && (pool.isEmpty() || random.nextDouble() < p.nullRate())) {
        cells[c] = null;
      } else if (keyColumn) {
        // Later attempts at a unique key take values no pool holds (a key must be unique even in small pools).
        cells[c] = ValueType.of(col.valueType()).fresh(fresh * 31 + c);
      } else if (pool.isEmpty()) {
        return null;
      } else {
        List<String> passing = domains.satisfying(key);
        cells[c] = !passing.isEmpty() && random.nextDouble() < p.satisfyRate()
            ? passing.get(random.nextInt(passing.size())) : pool.get(random.nextInt(pool.size()));
      }
      if (cells[c] == null && !col.nullable()) {
        return null;
      }
    }
    if (random.nextDouble() < p.satisfyRate()) {
      satisfyColumnComparisons(t, cells, set, random);
    }
    List<String> row = new ArrayList<>(cells.length);
    for (String cell : cells) {
      row.add(cell);
    }
    return row;
  }

  /**
   * Makes the row pass the comparisons between its own columns ({@code l_shipdate < l_commitdate}) by swapping
   * or copying values (two rounds, so that chains settle); cells set from a foreign key stay.
   */
  private void satisfyColumnComparisons(Schema.Table t, String[] cells, boolean[] fixed, Random random) {
    String table = t.name().toLowerCase(Locale.ROOT);
    for (int round = 0; round < 2; round++) {
      for (QueryFacts.ColumnComparison c : comparisons) {
        if (!c.left().table().equals(table) || !c.right().table().equals(table)) {
          continue;
        }
        int l = t.columnIndex(c.left().column());
        int r = t.columnIndex(c.right().column());
        if (l < 0 || r < 0 || l == r || cells[l] == null || cells[r] == null || fixed[l] || fixed[r]) {
          continue;
        }
        ValueType type = ValueType.of(t.columns().get(l).valueType());
        if (!type.comparableWith(ValueType.of(t.columns().get(r).valueType()))) {
          continue;
        }
        Integer cmp = type.compare(cells[l], cells[r]);
        if (cmp == null) {
          continue;
        }
        boolean holds = ValueType.holds(c.operator(), cmp, true);
        if (holds) {
          continue;
        }
        if (c.operator().equals("=") && t.columns().get(l).valueType().equals(t.columns().get(r).valueType())) {
          cells[r] = cells[l];
        } else if (!c.operator().equals("<>") && cmp != 0) {
          String x = cells[l];
          cells[l] = cells[r];
          cells[r] = x;
        } else {
          List<String> pool = domains.values(QueryFacts.ColumnKey.of(t.name(), t.columns().get(r).name()));
          if (!pool.isEmpty()) {
            cells[r] = pool.get(random.nextInt(pool.size()));
          }
        }
      }
    }
  }
}
