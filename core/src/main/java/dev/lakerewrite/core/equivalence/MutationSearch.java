package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.Trees;
import java.math.BigInteger;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Instances one edit away from an instance on which the queries return rows: a cell set to another value, or a
 * row copied with one cell changed — the mutation operators of search-based test data generation for SQL (EvoSQL:
 * Castelein, Aniche, Soltani, Panichella, Zaidman, ICSE 2018), applied without a fitness function, in a fixed
 * order. A predicate one query has and the other lacks (a dropped conjunct, a join condition left out of an
 * {@code ON}) is told apart by a row that passes everything but that predicate; the instance generators build
 * rows that pass every filter or none, so such a row appears only by chance. Starting from rows that reach the
 * output, one edit of a column the predicate reads makes it.
 *
 * <p>The columns are tried in order of evidence: first those read by the expressions that occur in one query and
 * not in the other (comparisons, {@code BETWEEN}, {@code IN}, functions, compared with table qualifiers and
 * aliases removed), on a few rows each and with the constants the queries compare them with first (a boundary made
 * strict or moved by one); then every other column either query names, on one row each, except the columns of
 * join equalities both queries hold (another value there only loses the row's partners in both). New values come
 * from the column's own pool (one that satisfies the queries' predicates on it and one that does not), from the
 * other rows of the instance, NULL first where the column allows it, and for a foreign-key column only the
 * referenced values present. Where the queries differ in no expression (DISTINCT, UNION, a join's kind), a cell's
 * copied row comes before its edited one; beside the other columns' edits, rows are also copied unchanged but for
 * a fresh key (duplicates). Every edited
 * instance honours the schema: a copied row gets a fresh key where its edited cell is not part of every key (and
 * the rows the queries join to that key are copied to join the copy: an entity twice, with its facts), rows
 * whose foreign keys lose their target are dropped, and the engine refuses what breaks the rest. Before the edits,
 * a table the starting instance leaves empty (an anti-join's side) gets a row joined to the rows present, and
 * copies of it that miss the join in one differing column ({@link #partners}).
 *
 * <p>Effort: at most {@code maxTrials} instances per check ({@value #MAX_SEEDS} starting instances, {@value
 * #MAX_ROWS} rows of each table per differing column, one per other column); every trial loads one instance and
 * runs both queries on it, so the cost is {@code O(maxTrials)} query pairs on instances of the starting instances'
 * size.
 */
final class MutationSearch {
  /** Starting instances at most. */
  static final int MAX_SEEDS = 3;
  /**
   * Rows of one table whose cell in a differing column is edited, at most (one in the other columns): a witness
   * holds a row per occurrence of a table (TPC-DS q88 reads time_dim in eight blocks), and only the row of the block
   * whose filter changed tells the queries apart. Each cell's first value comes before any cell's second, so more
   * rows cost no trials until their first values are tried.
   */
  static final int MAX_ROWS = 8;
  /** New values per cell at most; of a differing column's cell ({@link #differingColumns}). */
  static final int MAX_VALUES = 3;
  static final int MAX_THOROUGH_VALUES = 6;
  /** Node classes whose text is compared between the two queries. */
  private static final Set<String> COMPARED = Set.of("COMPARISON", "BETWEEN", "OPERATOR", "FUNCTION", "CASE");

  private MutationSearch() {}

  /**
   * The lower-case names of the columns read by an expression that one query has more often than the other:
   * where a dropped, negated or changed predicate lives. Empty when the two queries hold the same expressions.
   */
  static Set<String> differingColumns(JsonNode left, JsonNode right) {
    return namedColumns(differingExpressions(left, right));
  }

  /**
   * The expressions (comparisons, BETWEEN, operators, functions, CASE; in both trees, in the order visited) whose
   * text, without locations, aliases and qualifiers, one query has more often than the other.
   */
  static List<JsonNode> differingExpressions(JsonNode left, JsonNode right) {
    List<JsonNode> nodes = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    Map<String, Integer> counts = new HashMap<>();
    List<JsonNode> trees = List.of(left, right);
    for (int q = 0; q < trees.size(); q++) {
      int sign = q == 0 ? 1 : -1;
      Trees.visit(trees.get(q), n -> {
        if (COMPARED.contains(n.path("class").asText(""))) {
          String text = unqualified(n).toString();
          nodes.add(n);
          texts.add(text);
          counts.merge(text, sign, Integer::sum);
        }
      });
    }
    List<JsonNode> out = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      if (counts.get(texts.get(i)) != 0) {
        out.add(nodes.get(i));
      }
    }
    return out;
  }

  /**
   * Per column, the constants it is compared with inside the {@linkplain #differingExpressions differing
   * expressions}, each with its neighbours: the values that flip exactly the predicate a mutant dropped, negated or
   * moved ({@code hd_dep_count = 0} dropped from one disjunct of eight: 0 is told apart by -1 or 1, where the other
   * constants, 2 and 4, satisfy a sibling disjunct in both queries).
   *
   * @param atoms the evaluated constants, in the order of {@code constants} (null where not evaluated)
   */
  static Map<QueryFacts.ColumnKey, Set<String>> differingValues(List<JsonNode> differing,
      List<QueryFacts.Constant> constants, List<Domains.@Nullable Atom> atoms,
      java.util.function.Function<QueryFacts.ColumnKey, java.util.Optional<ValueType>> types) {
    Set<JsonNode> inside = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    differing.forEach(n -> Trees.visit(n, inside::add));
    // A constant only one of the differing expressions writes (300 in BETWEEN 150 AND 300 against BETWEEN 150 AND
    // 299) is where they part; its values come before those of constants both write.
    Map<String, Integer> written = new HashMap<>();
    for (JsonNode n : inside) {
      if ("CONSTANT".equals(n.path("class").asText(""))) {
        written.merge(unqualified(n).toString(), 1, Integer::sum);
      }
    }
    Map<QueryFacts.ColumnKey, Set<String>> out = new LinkedHashMap<>();
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < constants.size() && i < atoms.size(); i++) {
        Domains.Atom atom = atoms.get(i);
        JsonNode constant = constants.get(i).expression();
        if (atom == null || !inside.contains(constant)
            || (written.getOrDefault(unqualified(constant).toString(), 0) == 1) != (pass == 0)) {
          continue;
        }
        Set<String> values = out.computeIfAbsent(atom.column(), k -> new LinkedHashSet<>());
        values.add(atom.value());
        types.apply(atom.column()).ifPresent(t -> values.addAll(t.neighbours(atom.value())));
      }
    }
    return out;
  }

  /** A copy of an expression without locations, aliases and table qualifiers: the same predicate compares equal. */
  static JsonNode unqualified(JsonNode e) {
    JsonNode copy = e.deepCopy();
    Trees.visit(copy, n -> {
      if (n instanceof ObjectNode o) {
        o.remove("query_location");
        o.remove("query_location_length"); // the same predicate written with other spacing or qualifiers
        o.remove("alias");
        if ("COLUMN_REF".equals(o.path("class").asText("")) && o.path("column_names").size() > 1) {
          String last = Trees.columnName(o);
          o.putArray("column_names").add(last);
        }
      }
    });
    return copy;
  }

  /**
   * The lower-case names of every column the statements or expressions name (through any alias, in subqueries
   * too): the columns edited after the differing ones.
   */
  static Set<String> namedColumns(List<JsonNode> statements) {
    Set<String> out = new LinkedHashSet<>();
    for (JsonNode s : statements) {
      Trees.visit(s, n -> {
        if ("COLUMN_REF".equals(n.path("class").asText(""))) {
          out.add(Trees.columnName(n).toLowerCase(Locale.ROOT));
        }
      });
    }
    return out;
  }

  /**
   * Runs edited copies of the seeds until the queries differ on one (its outcome is returned) or the trials run
   * out (null).
   *
   * @param joins the queries' comparisons of two columns: a copied row's fresh key takes its partners along
   * @param first lower-case column names edited first ({@link #differingColumns})
   * @param then lower-case column names edited afterwards ({@link #namedColumns})
   */
  static ThresholdSearch.@Nullable Outcome search(List<ThresholdSearch.Seed> seeds, Domains domains,
      List<QueryFacts.ColumnComparison> joins, Set<String> first, Map<QueryFacts.ColumnKey, Set<String>> firstValues,
      Set<String> then, long randomSeed, int maxTrials, ThresholdSearch.Probe probe) throws SQLException {
    if (maxTrials <= 0 || seeds.isEmpty()) {
      return null;
    }
    Random random = new Random(randomSeed);
    List<Database> candidates = new ArrayList<>();
    List<ThresholdSearch.Seed> starts = seeds.subList(0, Math.min(seeds.size(), MAX_SEEDS));
    // First, a row in a table the starting instance leaves empty (an anti-join's side): the partner of rows present.
    for (ThresholdSearch.Seed seed : starts) {
      candidates.addAll(partners(seed.instance(), first, domains, joins));
    }
    for (Set<String> columns : List.of(first, rest(then, first))) {
      // Seeds alternate, and each cell's first edit comes before any cell's second.
      List<List<List<Database>>> perSeed = new ArrayList<>();
      for (ThresholdSearch.Seed seed : starts) {
        perSeed.add(edits(seed.instance(), columns, columns != first, first.isEmpty(), domains, firstValues, joins,
            then, random));
      }
      for (int depth = 0; ; depth++) {
        boolean any = false;
        for (List<List<Database>> cells : perSeed) {
          for (List<Database> edits : cells) {
            if (depth < edits.size()) {
              candidates.add(edits.get(depth));
              any = true;
            }
          }
        }
        if (!any) {
          break;
        }
      }
    }
    Set<List<List<List<String>>>> seen = new HashSet<>();
    for (ThresholdSearch.Seed s : starts) {
      seen.add(s.instance().content(null));
    }
    int trials = 0;
    for (Database candidate : candidates) {
      if (trials >= maxTrials) {
        break;
      }
      Database valid = candidate.withForeignKeysHonoured();
      if (!seen.add(valid.content(null))) {
        continue;
      }
      trials++;
      ThresholdSearch.Outcome o = probe.run(valid);
      if (o != null && o.different()) {
        return o;
      }
    }
    return null;
  }

  /**
   * Instances with one row added to a table that has none and holds a differing column ({@code first}): the
   * partner, by the queries' join equalities, of the first row of each joined table present, and copies of it
   * whose one differing column takes another value. The other columns take NULL where they may, else a value of
   * their pool that passes the queries' predicates, a referenced value present for a foreign key, a fresh integer
   * for a key. The side of an anti-join ({@code LEFT JOIN web_returns ON wr_order_number = ws_order_number AND
   * wr_item_sk = ws_item_sk WHERE wr_order_number IS NULL}, TPC-DS q78) is empty in a witness; a mutant that
   * drops or negates one of its join conditions differs on a return that matches the sale in all but that column.
   */
  static List<Database> partners(Database db, Set<String> first, Domains domains,
      List<QueryFacts.ColumnComparison> joins) {
    List<Database> out = new ArrayList<>();
    for (Schema.Table t : db.tables()) {
      if (!db.rows(t).isEmpty()) {
        continue;
      }
      List<Integer> differing = new ArrayList<>();
      for (int c = 0; c < t.columns().size(); c++) {
        if (first.contains(t.columns().get(c).name().toLowerCase(Locale.ROOT))) {
          differing.add(c);
        }
      }
      if (differing.isEmpty()) {
        continue;
      }
      List<String> row = new ArrayList<>();
      List<@Nullable String> others = new ArrayList<>(); // per column, another value its partner table holds
      boolean joined = false;
      for (int c = 0; c < t.columns().size(); c++) {
        Schema.Column col = t.columns().get(c);
        QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), col.name());
        String value = null;
        String other = null;
        for (QueryFacts.ColumnComparison j : joins) {
          QueryFacts.ColumnKey partner = partner(j, key);
          Schema.Table u = partner == null ? null : table(db.tables(), partner.table());
          int x = u == null || u == t ? -1 : u.columnIndex(partner.column());
          if (x < 0 || db.rows(u).isEmpty() || db.rows(u).get(0).get(x) == null) {
            continue;
          }
          value = db.rows(u).get(0).get(x);
          other = freshInteger(db.rows(u), x);
          joined = true;
          break;
        }
        if (value == null) {
          List<String> referenced = referencedValues(db, t, col.name());
          if (referenced != null) {
            value = col.nullable() || referenced.isEmpty() ? null : referenced.get(0);
          } else if (t.inKey(col.name()) && ValueType.of(col.valueType()).family() == ValueType.Family.INTEGER) {
            value = "1";
          } else if (!col.nullable()) {
            List<String> pool = domains.satisfying(key).isEmpty() ? domains.values(key) : domains.satisfying(key);
            value = pool.isEmpty() ? null : pool.get(0);
          }
          if (value == null && !col.nullable()) {
            row = null;
            break;
          }
        }
        row.add(value);
        others.add(other);
      }
      if (row == null || !joined) {
        continue;
      }
      Map<String, List<List<String>>> rows = new LinkedHashMap<>();
      for (Schema.Table x : db.tables()) {
        rows.put(x.name().toLowerCase(Locale.ROOT), db.rows(x));
      }
      rows.put(t.name().toLowerCase(Locale.ROOT), List.of(row));
      out.add(new Database(db.name() + ", a row of " + t.name() + " joined to the rows present", db.tables(), rows));
      for (int c : differing) {
        if (others.get(c) == null) {
          continue;
        }
        List<String> moved = new ArrayList<>(row);
        moved.set(c, others.get(c));
        rows.put(t.name().toLowerCase(Locale.ROOT), List.of(moved));
        out.add(new Database(db.name() + ", a row of " + t.name() + " joined to the rows present but in "
            + t.columns().get(c).name(), db.tables(), rows));
      }
    }
    return out;
  }

  private static Set<String> rest(Set<String> all, Set<String> first) {
    Set<String> out = new LinkedHashSet<>(all);
    out.removeAll(first);
    return out;
  }

  /**
   * Per edited cell (in a random order), its edited instances in the order they are tried; with {@code copies}
   * also rows copied unchanged but for a fresh key (duplicates: DISTINCT, UNION against UNION ALL); with {@code
   * copiesFirst} a cell's copied row before its edited one.
   */
  private static List<List<Database>> edits(Database db, Set<String> columns, boolean copies, boolean copiesFirst,
      Domains domains, Map<QueryFacts.ColumnKey, Set<String>> firstValues, List<QueryFacts.ColumnComparison> joins,
      Set<String> read, Random random) {
    boolean thorough = !copies; // the differing columns: few, and each value there may sit on a boundary
    List<List<Database>> out = new ArrayList<>();
    for (Schema.Table t : db.tables()) {
      List<List<String>> rows = db.rows(t);
      if (rows.isEmpty()) {
        continue;
      }
      boolean duplicates = copies;
      for (int c = 0; c < t.columns().size(); c++) {
        Schema.Column column = t.columns().get(c);
        if (!columns.contains(column.name().toLowerCase(Locale.ROOT))) {
          continue;
        }
        QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), column.name());
        if (!thorough && joins.stream().anyMatch(j -> partner(j, key) != null)) {
          continue; // a join column both queries compare: another value only loses the row's partners in both
        }
        List<Integer> picked = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
          picked.add(r);
        }
        java.util.Collections.shuffle(picked, random);
        // Differing columns: a few rows each; the other columns: one row each, so that the trials reach them all.
        List<Integer> chosen = picked.subList(0, Math.min(thorough ? MAX_ROWS : 1, picked.size()));
        if (duplicates) {
          for (int r : chosen) {
            Database copy = copied(db, t, r, -1, null, joins, read);
            if (copy != null) {
              out.add(List.of(copy.named(db.name() + ", row " + (r + 1) + " of " + t.name() + " copied")));
            }
          }
          duplicates = false;
        }
        for (int r : chosen) {
          List<Database> cell = new ArrayList<>();
          for (String value : alternatives(db, t, r, c, domains, thorough ? firstValues : Map.of(), thorough,
              random)) {
            String edit = t.name() + "." + column.name() + " of row " + (r + 1) + " set to "
                + (value == null ? "NULL" : "'" + value + "'");
            Database set = db.withCell(t, r, c, value).named(db.name() + ", " + edit);
            Database copy = copied(db, t, r, c, value, joins, read);
            if (copy != null) {
              copy = copy.named(db.name() + ", a copy of " + edit);
            }
            // Queries that differ in no expression differ in structure (DISTINCT, UNION, a join's kind): a copied
            // row, which changes how many rows meet, comes before an edited one there.
            List<Database> order = copiesFirst ? java.util.Arrays.asList(copy, set)
                : java.util.Arrays.asList(set, copy);
            for (Database edited : order) {
              if (edited != null) {
                cell.add(edited);
              }
            }
          }
          if (!cell.isEmpty()) {
            out.add(cell);
          }
        }
      }
    }
    java.util.Collections.shuffle(out, random);
    return out;
  }

  /**
   * Values a cell may take instead of its own, NULL first where the column allows it: for a foreign-key column the
   * referenced values present; otherwise ({@code thorough}: first the constants the queries compare the column
   * with) one pool value that satisfies the queries' predicates on it and one that does not, and another row's
   * value; at most {@value #MAX_VALUES}, {@value #MAX_THOROUGH_VALUES} when thorough.
   */
  private static List<@Nullable String> alternatives(Database db, Schema.Table t, int row, int column,
      Domains domains, Map<QueryFacts.ColumnKey, Set<String>> firstValues, boolean thorough, Random random) {
    Schema.Column col = t.columns().get(column);
    String current = db.rows(t).get(row).get(column);
    Set<String> values = new LinkedHashSet<>();
    List<String> referenced = referencedValues(db, t, col.name());
    QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), col.name());
    if (referenced != null) {
      values.addAll(referenced);
    } else {
      if (thorough) {
        // The constants of the differing expressions and their neighbours, then every constant the queries compare
        // the column with: a boundary made strict or moved by one is told apart exactly there.
        values.addAll(firstValues.getOrDefault(key, Set.of()));
        for (Domains.Atom atom : domains.atoms()) {
          if (atom != null && atom.column().equals(key) && atom.relation() == QueryFacts.Relation.COMPARE
              && !atom.value().equals(current)) {
            values.add(atom.value());
          }
        }
      }
      List<String> satisfying = domains.satisfying(key);
      List<String> others = new ArrayList<>(domains.values(key));
      others.removeAll(satisfying);
      pickOther(satisfying, current, random, values);
      pickOther(others, current, random, values);
      List<String> inColumn = new ArrayList<>();
      for (List<String> r : db.rows(t)) {
        if (r.get(column) != null) {
          inColumn.add(r.get(column));
        }
      }
      pickOther(inColumn, current, random, values);
    }
    values.remove(current);
    List<@Nullable String> out = new ArrayList<>();
    if (col.nullable() && current != null && !t.inKey(col.name())) {
      out.add(null); // first: what COUNT(col), NOT IN and comparisons treat unlike any value
    }
    out.addAll(values);
    int cap = thorough ? MAX_THOROUGH_VALUES : MAX_VALUES;
    return out.subList(0, Math.min(out.size(), cap));
  }

  private static void pickOther(List<String> pool, @Nullable String current, Random random, Set<String> into) {
    List<String> candidates = new ArrayList<>(pool);
    candidates.remove(current);
    candidates.removeAll(into);
    if (!candidates.isEmpty()) {
      into.add(candidates.get(random.nextInt(candidates.size())));
    }
  }

  /** The values present in the referenced column when the column is a one-column foreign key; else null. */
  private static @Nullable List<String> referencedValues(Database db, Schema.Table t, String column) {
    for (Schema.ForeignKey fk : t.foreignKeys()) {
      if (fk.columns().size() == 1 && fk.columns().get(0).equalsIgnoreCase(column)) {
        for (Schema.Table parent : db.tables()) {
          if (parent.name().equalsIgnoreCase(fk.referencedTable())) {
            int pc = parent.columnIndex(fk.referencedColumns().get(0));
            List<String> out = new ArrayList<>();
            for (List<String> r : db.rows(parent)) {
              if (pc >= 0 && r.get(pc) != null) {
                out.add(r.get(pc));
              }
            }
            return out;
          }
        }
        return List.of();
      }
    }
    return null;
  }

  /**
   * The instance with row {@code row} of {@code t} copied and the copy's cell {@code column} (none: -1) set to
   * {@code value}; the copy's keys that the edit does not make distinct take a fresh integer, and the rows of
   * other tables that the queries join to a key given a fresh value ({@code joins}: their equalities) are copied
   * to join the copy instead (one level): an entity copied with its facts, a group or an output row twice. Null
   * when no key can be made fresh.
   */
  private static @Nullable Database copied(Database db, Schema.Table t, int row, int column,
      @Nullable String value, List<QueryFacts.ColumnComparison> joins, Set<String> read) {
    return copied(db, t, row, column, value, joins, read, true);
  }

  /**
   * {@link #copied(Database, Schema.Table, int, int, String, List, Set)}, the rows joining the copy's fresh keys
   * copied only {@code withFacts} (else the copy stands alone: a sale without its return).
   */
  static @Nullable Database copied(Database db, Schema.Table t, int row, int column, @Nullable String value,
      List<QueryFacts.ColumnComparison> joins, Set<String> read, boolean withFacts) {
    Map<String, List<List<String>>> rows = new LinkedHashMap<>();
    for (Schema.Table x : db.tables()) {
      rows.put(x.name().toLowerCase(Locale.ROOT), new ArrayList<>(db.rows(x)));
    }
    List<String> original = db.rows(t).get(row);
    List<String> copy = withFreshKeys(t, original, column, value, rows, db.tables(), read, true);
    if (copy == null) {
      return null;
    }
    rows.get(t.name().toLowerCase(Locale.ROOT)).add(copy);
    for (int f = 0; withFacts && f < copy.size(); f++) {
      if (f == column || java.util.Objects.equals(copy.get(f), original.get(f)) || original.get(f) == null) {
        continue; // only keys made fresh carry the copy's partners with them
      }
      QueryFacts.ColumnKey fresh = QueryFacts.ColumnKey.of(t.name(), t.columns().get(f).name());
      // Each partner column once: the comparisons come in both orientations and from both queries.
      Set<QueryFacts.ColumnKey> others = new LinkedHashSet<>();
      for (QueryFacts.ColumnComparison j : joins) {
        QueryFacts.ColumnKey other = partner(j, fresh);
        if (other != null && !other.table().equals(fresh.table())) {
          others.add(other);
        }
      }
      for (QueryFacts.ColumnKey other : others) {
        Schema.Table u = table(db.tables(), other.table());
        int x = u == null ? -1 : u.columnIndex(other.column());
        if (x < 0) {
          continue;
        }
        List<List<String>> partners = rows.get(u.name().toLowerCase(Locale.ROOT));
        for (List<String> p : List.copyOf(partners)) {
          if (original.get(f).equals(p.get(x))) {
            List<String> moved = withFreshKeys(u, p, x, copy.get(f), rows, db.tables(), read, true);
            if (moved != null) {
              partners.add(moved);
            }
          }
        }
      }
    }
    return new Database(db.name(), db.tables(), rows);
  }

  /** The column an equality compares {@code column} with; null when it is not an equality on that column. */
  private static QueryFacts.@Nullable ColumnKey partner(QueryFacts.ColumnComparison j, QueryFacts.ColumnKey column) {
    if (!j.operator().equals("=")) {
      return null;
    }
    return j.left().equals(column) ? j.right() : j.right().equals(column) ? j.left() : null;
  }

  /**
   * A copy of {@code row} with cell {@code column} (none: -1) set to {@code value} and, for each key of {@code t}
   * the edit does not make distinct, a new value in one of its columns; null when no key column can take one. The
   * column is one the queries do not read where the key has one ({@code read}: lower-case names), so that the copy
   * stays in the groups and output rows of the original (a sale copied to a second customer keeps its ticket
   * number and takes another item): an integer column takes a fresh integer, a column referencing a one-column
   * integer key a copy of the referenced row under a fresh key (added to {@code rows}, with {@code parents}). Else
   * an integer key column, preferably one that references nothing, takes a fresh integer.
   *
   * @param rows every table's rows (lower-case name), the copy not yet among them
   */
  private static @Nullable List<String> withFreshKeys(Schema.Table t, List<String> row, int column,
      @Nullable String value, Map<String, List<List<String>>> rows, List<Schema.Table> tables, Set<String> read,
      boolean parents) {
    List<List<String>> present = rows.get(t.name().toLowerCase(Locale.ROOT));
    List<String> copy = new ArrayList<>(row);
    String edited = column < 0 ? "" : t.columns().get(column).name();
    if (column >= 0) {
      copy.set(column, value);
    }
    for (List<String> key : t.keys()) {
      if (column >= 0 && value != null && key.stream().anyMatch(k -> k.equalsIgnoreCase(edited))) {
        continue; // the edited cell makes this key's value new, unless another row already holds it: refused
      }
      if (unreadKeyColumn(t, key, copy, rows, tables, read, parents)) {
        continue;
      }
      int fresh = -1;
      // An integer key column, preferably one that references nothing (a fresh value there leaves no dangling key).
      for (int pass = 0; pass < 2 && fresh < 0; pass++) {
        for (int i = key.size() - 1; i >= 0 && fresh < 0; i--) {
          int idx = t.columnIndex(key.get(i));
          if (idx >= 0 && (pass == 1 || references(t, key.get(i)) == null)
              && ValueType.of(t.columns().get(idx).valueType()).family() == ValueType.Family.INTEGER) {
            fresh = idx;
          }
        }
      }
      String next = fresh < 0 ? null : freshInteger(present, fresh);
      if (next == null) {
        return null;
      }
      copy.set(fresh, next);
    }
    return copy;
  }

  /**
   * Gives {@code copy} a new value in a key column the queries do not read, if the key has one that can take it;
   * whether it did.
   */
  private static boolean unreadKeyColumn(Schema.Table t, List<String> key, List<String> copy,
      Map<String, List<List<String>>> rows, List<Schema.Table> tables, Set<String> read, boolean parents) {
    List<List<String>> present = rows.get(t.name().toLowerCase(Locale.ROOT));
    for (int pass = 0; pass < 2; pass++) { // columns that reference nothing first
      for (String name : key) {
        int idx = t.columnIndex(name);
        if (idx < 0 || read.contains(name.toLowerCase(Locale.ROOT))
            || ValueType.of(t.columns().get(idx).valueType()).family() != ValueType.Family.INTEGER) {
          continue;
        }
        Schema.ForeignKey fk = references(t, name);
        if (pass == 0 && fk == null) {
          String next = freshInteger(present, idx);
          if (next != null) {
            copy.set(idx, next);
            return true;
          }
        } else if (pass == 1 && fk != null && parents && fk.columns().size() == 1) {
          Schema.Table parent = table(tables, fk.referencedTable());
          int pc = parent == null ? -1 : parent.columnIndex(fk.referencedColumns().get(0));
          if (pc < 0 || !parent.keys().contains(List.of(parent.columns().get(pc).name()))) {
            continue;
          }
          List<List<String>> parentRows = rows.get(parent.name().toLowerCase(Locale.ROOT));
          List<String> referenced = parentRows.stream().filter(r -> java.util.Objects.equals(r.get(pc),
              copy.get(idx))).findFirst().orElse(null);
          if (referenced == null) {
            continue;
          }
          // The referenced row again under a fresh key: one level, its own keys made fresh where it can.
          List<String> parentCopy = new ArrayList<>(referenced);
          String next = freshInteger(parentRows, pc);
          if (next == null) {
            continue;
          }
          parentCopy.set(pc, next);
          List<String> complete = withFreshKeys(parent, parentCopy, pc, next, rows, tables, read, false);
          if (complete == null) {
            continue;
          }
          parentRows.add(complete);
          copy.set(idx, next);
          return true;
        }
      }
    }
    return false;
  }

  private static Schema.@Nullable Table table(List<Schema.Table> tables, String name) {
    return tables.stream().filter(x -> x.name().equalsIgnoreCase(name)).findFirst().orElse(null);
  }

  private static Schema.@Nullable ForeignKey references(Schema.Table t, String column) {
    return t.foreignKeys().stream().filter(fk -> fk.columns().stream().anyMatch(x -> x.equalsIgnoreCase(column)))
        .findFirst().orElse(null);
  }

  /** One more than the largest integer in column {@code column} of these rows; null when a value is no integer. */
  private static @Nullable String freshInteger(List<List<String>> rows, int column) {
    BigInteger max = BigInteger.ZERO;
    for (List<String> r : rows) {
      try {
        if (r.get(column) != null) {
          max = max.max(new BigInteger(r.get(column)));
        }
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return max.add(BigInteger.ONE).toString();
  }

}
