package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.math.BigDecimal;
import java.sql.Connection;
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
import org.jspecify.annotations.Nullable;

/**
 * Witness instances: a small database on which one query returns rows, and variants of it. Most generated
 * instances leave a query with many joins and constant filters empty on both sides (a TPC-DS query reads {@code
 * date_dim} three times with three different year filters; one row per table can pass only one of them), and two
 * queries that both return nothing cannot be told apart.
 *
 * <p>A witness is built per <em>occurrence</em> of a table, not per table: every table reference in FROM, in a
 * derived table, in an {@code EXISTS} or {@code IN} subquery, and in each reference to a CTE (a CTE read twice is
 * instantiated twice) gets a row of its own. The query's equality joins (through CTE and derived-table outputs,
 * {@code IN} subqueries and correlated references) put the occurrences' columns in classes (union-find); each class
 * then takes one value that meets every constant predicate on its columns at once ({@code =}, {@code <}, {@code
 * BETWEEN}, {@code IN}, {@code NOT IN}, {@code LIKE}, {@code year(d) =}), the base rows' values where no predicate
 * speaks, and a fresh value for a key class with no predicate (so that occurrences of one table are distinct rows
 * with distinct keys). Of an OR, the first disjunct is satisfied; {@code NOT EXISTS}, {@code NOT IN (subquery)} and
 * negations are not instantiated; a branch of a {@code UNION} whose constant output a predicate rules out ({@code
 * sale_type = 'w'} on the branch that writes {@code 's'}) gets no rows. Tables no occurrence reads stay empty unless
 * a foreign key needs a row.
 *
 * <p>Variants add to the witness a second copy of it (its key classes fresh: a group of two; and its unconstrained
 * columns other values too: a second group), and copies in which one class is moved just across each of its
 * predicates' boundaries (at, below and above each constant, outside an IN list, not matching a LIKE) or one
 * column is NULL. This is XData's approach (Chandra et al., "Data generation for testing and grading SQL
 * queries", VLDB Journal 2015): a tuple per tuple variable, equivalence classes of join attributes, each constrained
 * to satisfy the query's selections, and then each selection's boundary in turn.
 *
 * <p>A comparison of derived values ({@code HAVING sum(a) > 2 * sum(b)}, ratios of a CTE's copies' sums compared
 * outside, {@code d3.d_date > d1.d_date + 5}) is kept as an expression over the classes it reads and evaluated by
 * the engine: the witness moves a class nothing else constrains until it holds, and a variant puts copies on both
 * sides of where it flips (stepping out, then bisection to neighbouring values of the column's type).
 *
 * <p>Linear in the size of the query times the number of classes; at most {@value #MAX_OCCURRENCES} occurrences per
 * query.
 */
final class Witnesses {
  static final int MAX_OCCURRENCES = 64;
  private static final int MAX_VARIANTS = 24;
  /** Values around a class's constants tried at most (an IN list of twenty gives sixty). */
  private static final int MAX_VALUES = 8;
  /** Comparisons of derived values read per query at most. */
  private static final int MAX_EXPRS = 8;
  /** Witnesses without an outer join's padded row per query, at most. */
  private static final int MAX_PADDED = 4;

  /** A witness instance: what it is and its rows per table (lower-case name), every table present. */
  record Witness(String description, Map<String, List<List<String>>> rows) {}

  private final List<Schema.Table> tables;
  private final Schema schema;
  private final SqlParser parser;
  private final Domains domains;
  private final Map<String, List<String>> base;
  private final Connection duckdb;
  private final Map<String, String> evaluated = new HashMap<>();
  private int fresh = 3_000;
  /**
   * Lower-case names of the columns read by an expression one query has and the other lacks ({@link
   * MutationSearch#differingColumns}): their classes' boundaries come first, as a disjunct's witness keeps only a
   * few.
   */
  private final Set<String> differing;

  private Witnesses(List<Schema.Table> tables, Schema schema, SqlParser parser, Domains domains,
      Map<String, List<String>> base, Connection duckdb, Set<String> differing) {
    this.tables = tables;
    this.schema = schema;
    this.parser = parser;
    this.domains = domains;
    this.base = base;
    this.duckdb = duckdb;
    this.differing = differing;
  }

  /**
   * The witnesses of each of these statements (DuckDB syntax trees) and their variants, the witnesses themselves
   * first.
   *
   * @param base a row per table (lower-case name) that columns no predicate speaks about take their values from
   */
  static List<Witness> build(List<JsonNode> statements, List<Schema.Table> tables, Schema schema, SqlParser parser,
      Domains domains, Map<String, List<String>> base, Connection duckdb) {
    Witnesses w = new Witnesses(tables, schema, parser, domains, base, duckdb, statements.size() == 2
        ? MutationSearch.differingColumns(statements.get(0), statements.get(1)) : Set.of());
    List<Witness> first = new ArrayList<>();
    List<List<Witness>> rest = new ArrayList<>();
    List<Integer> queryOf = new ArrayList<>(); // per entry of first and rest: the statement's number
    int q = 0;
    for (JsonNode statement : statements) {
      q++;
      Model m = w.model(statement, Map.of());
      if (m == null) {
        continue;
      }
      List<Witness> mine = w.variants(m, "query " + q, true);
      if (mine.isEmpty()) {
        continue;
      }
      // Each other disjunct of each OR: a witness where that one holds (the first disjunct of the others), and
      // its boundaries.
      List<Witness> disjunctWitnesses = new ArrayList<>();
      List<List<Witness>> disjunctRest = new ArrayList<>();
      disjunctRest.add(mine.subList(Math.min(5, mine.size()), mine.size()));
      for (int o = 0; o < m.ors.size(); o++) {
        for (int d = 1; d < m.ors.get(o).path("children").size(); d++) {
          Map<JsonNode, Integer> choice = new java.util.IdentityHashMap<>();
          choice.put(m.ors.get(o), d);
          Model other = w.model(statement, choice);
          List<Witness> its = other == null ? List.of() : w.variants(other, "query " + q + " where disjunct "
              + (d + 1) + " of OR #" + (o + 1) + " holds", false);
          if (!its.isEmpty()) {
            disjunctWitnesses.add(its.get(0));
            disjunctRest.add(its.subList(1, its.size()));
          }
        }
      }
      first.add(mine.get(0));
      queryOf.add(q);
      List<Witness> all = new ArrayList<>(mine.subList(1, Math.min(5, mine.size())));
      all.addAll(disjunctWitnesses);
      all.addAll(interleaved(disjunctRest, Integer.MAX_VALUE));
      rest.add(all);
    }
    markOwn(first, rest, queryOf);
    for (int i = 0; i < rest.size(); i++) {
      // A query's own variants first (stable): the witnesses both queries have tell nothing apart.
      List<Witness> sorted = new ArrayList<>(rest.get(i));
      sorted.sort(java.util.Comparator.comparing(x -> !x.description().contains(OWN)));
      rest.set(i, sorted.subList(0, Math.min(sorted.size(), MAX_VARIANTS)));
    }
    List<Witness> out = new ArrayList<>(first);
    int[] next = new int[rest.size()];
    boolean progress = true;
    while (progress) {
      progress = false;
      for (int i = 0; i < rest.size(); i++) {
        if (next[i] < rest.get(i).size()) {
          out.add(rest.get(i).get(next[i]++));
          progress = true;
        }
      }
    }
    return out;
  }

  /**
   * Marks, in place, the witnesses whose rows no witness of another statement has: rows one query's predicates
   * arrange and the other's do not (the disjunct a mutant changed, made to hold with everything else as the other
   * query would have it), the instances one edit away from telling them apart. Their descriptions say so ({@link
   * #OWN}).
   */
  private static void markOwn(List<Witness> first, List<List<Witness>> rest, List<Integer> queryOf) {
    Map<Map<String, List<List<String>>>, Set<Integer>> holders = new HashMap<>();
    for (int i = 0; i < first.size(); i++) {
      int query = queryOf.get(i);
      holders.computeIfAbsent(first.get(i).rows(), k -> new HashSet<>()).add(query);
      rest.get(i).forEach(w -> holders.computeIfAbsent(w.rows(), k -> new HashSet<>()).add(query));
    }
    if (new HashSet<>(queryOf).size() < 2) {
      return; // one statement with witnesses: nothing to tell apart
    }
    java.util.function.UnaryOperator<Witness> mark = w -> holders.get(w.rows()).size() > 1 ? w
        : new Witness(w.description().endsWith(")")
            ? w.description().substring(0, w.description().length() - 1) + "; " + OWN + ")"
            : w.description() + " (" + OWN + ")", w.rows());
    for (int i = 0; i < first.size(); i++) {
      first.set(i, mark.apply(first.get(i)));
      rest.set(i, new ArrayList<>(rest.get(i).stream().map(mark).toList()));
    }
  }

  /** In a witness's description: no witness of the other query has its rows ({@link #markOwn}). */
  static final String OWN = "no witness of the other query has these rows";

  /** The model of one query with these choices of disjuncts (the first elsewhere); null when it cannot be read. */
  private @Nullable Model model(JsonNode statement, Map<JsonNode, Integer> choices) {
    fresh = 3_000; // the same model gives the same rows: the two queries' common witnesses are tried once
    Model m = new Model(choices);
    try {
      m.query(statement.path("node"), null, Map.of(), 0);
      m.readPending();
    } catch (RuntimeException e) {
      return null; // a construct the walk does not know: no witness for this query
    }
    return m.occTable.isEmpty() ? null : m;
  }

  /** The lists' items taken in turn, at most {@code cap}. */
  private static <T> List<T> interleaved(List<List<T>> lists, int cap) {
    List<T> out = new ArrayList<>();
    int[] next = new int[lists.size()];
    boolean progress = true;
    while (progress && out.size() < cap) {
      progress = false;
      for (int i = 0; i < lists.size() && out.size() < cap; i++) {
        if (next[i] < lists.get(i).size()) {
          out.add(lists.get(i).get(next[i]++));
          progress = true;
        }
      }
    }
    return out;
  }

  // ---- the model of one query --------------------------------------------------------------------------------

  /** A constraint on a variable: {@code var op value(s)}; the values are constant expressions. */
  private record Constraint(int var, QueryFacts.Relation relation, String operator, List<JsonNode> values,
      @Nullable String function) {
    Constraint(int var, QueryFacts.Relation relation, String operator, List<JsonNode> values) {
      this(var, relation, operator, values, null);
    }
  }

  /**
   * Functions of one column whose comparison with constants a witness meets by asking the engine ({@code
   * substr(c_phone, 1, 2) IN ('13', '31')}, {@code upper(x) = 'A'}, {@code month(d) = 11}): string and date
   * functions, not arithmetic (read as derived comparisons) nor aggregates.
   */
  private static final Set<String> COLUMN_FUNCTIONS = Set.of("substr", "substring", "left", "right", "upper",
      "lower", "ucase", "lcase", "trim", "ltrim", "rtrim", "length", "strlen", "month", "day", "dayofmonth",
      "dayofweek", "dayofyear", "quarter", "week", "strftime", "date_part", "datepart", "date_trunc");

  /** Functions of one string that leave some values unchanged: {@code a = f(b)} joins a and b at such a value. */
  private static final Set<String> FIXED_POINT_FUNCTIONS = Set.of("upper", "lower", "ucase", "lcase", "trim",
      "ltrim", "rtrim");

  /** {@code var = other + offset}. */
  private record Offset(int var, int other, BigDecimal offset) {}

  /** {@code var op other}, two columns compared by {@code <}, {@code <=}, {@code >}, {@code >=} or {@code <>}. */
  private record Order(int var, String op, int other) {}

  /** One source of an output's values: a variable, or a constant written in one branch (its occurrences). */
  private record Alt(int var, @Nullable JsonNode constant, Set<Integer> occurrences) {}

  /**
   * An output column of a relation: its name and where its values come from (variables and constants), and, for an
   * output computed from several columns ({@code sum(ss_ext_list_price - ss_ext_discount_amt) AS year_total}), the
   * expression in its scope, inlined where a comparison of derived values reads it.
   */
  private record Out(String name, List<Alt> alts, List<Inline> exprs) {
    Out(String name, List<Alt> alts) {
      this(name, alts, List.of());
    }
  }

  /** An output's expression, read in the scope of the SELECT that computes it (its occurrences). */
  private record Inline(JsonNode expression, Scope scope, Set<Integer> occurrences) {}

  /** A comparison a witness cannot read as a constraint on one class: {@code left op right}, read later. */
  private record Pending(JsonNode left, @Nullable Out leftOut, String op, JsonNode right, @Nullable Out rightOut,
      Scope scope) {}

  /**
   * A comparison of values derived from classes ({@code sum(a) > 2 * sum(b)}, a ratio of two CTE copies' sums
   * compared with another, {@code d3.d_date > d1.d_date + 5}), with each class read as a placeholder {@code __wI}
   * (I the index in {@code leaves}): over the one row a witness puts in a group, an aggregate of a column is the
   * column's value. The engine evaluates it ({@code sql}) for given values of the leaves.
   */
  private record Expr(String sql, List<Integer> leaves, String description) {}

  /** A relation in scope: a base table's occurrence, or a derived relation's outputs. */
  private record Source(int occurrence, Schema.@Nullable Table table, List<Out> outs) {}

  private static final class Scope {
    final @Nullable Scope parent;
    final Map<String, Source> sources = new LinkedHashMap<>();

    Scope(@Nullable Scope parent) {
      this.parent = parent;
    }
  }

  private record Cte(JsonNode query, List<String> aliases) {}

  private static final Map<String, String> OPERATORS = Map.of("COMPARE_EQUAL", "=", "COMPARE_NOTEQUAL", "<>",
      "COMPARE_LESSTHAN", "<", "COMPARE_GREATERTHAN", ">", "COMPARE_LESSTHANOREQUALTO", "<=",
      "COMPARE_GREATERTHANOREQUALTO", ">=", "COMPARE_NOT_DISTINCT_FROM", "=");
  private static final Map<String, String> MIRRORED = Map.of("<", ">", ">", "<", "<=", ">=", ">=", "<=", "=", "=",
      "<>", "<>");
  private static final QueryFacts.ColumnKey NOWHERE = QueryFacts.ColumnKey.of("", "");
  /**
   * Functions whose value, over the one row a witness puts in each group, is the value of their argument: {@code
   * HAVING sum(x) > 100} (or a CTE's {@code sum(x) AS total} compared with {@code total > 0} outside) is then a
   * constraint on {@code x}, which the witness meets and its boundary variants cross (a group whose sum is at, just
   * below and just above the threshold).
   */
  private static final Set<String> PASS_THROUGH = Set.of("min", "max", "any_value", "first", "arbitrary", "sum",
      "avg");

  /** The occurrences, variables, classes and constraints of one query. */
  private final class Model {
    final List<Schema.Table> occTable = new ArrayList<>();
    final Set<Integer> dead = new HashSet<>();
    /**
     * Occurrences read by a scalar subquery that is not one aggregate row ({@code d_week_seq = (SELECT d_week_seq
     * FROM date_dim WHERE d_year = 2000 AND d_moy = 12 AND d_dom = 11)}): a copy of such a row with the same
     * values would make the subquery return two rows and the query fail on the instance.
     */
    final Set<Integer> singleRow = new HashSet<>();
    /** Occurrences on the side of an outer join that supplies NULLs when no row matches. */
    final Set<Integer> nullSupplied = new HashSet<>();
    final Map<Long, Integer> varIds = new HashMap<>();
    final List<int[]> vars = new ArrayList<>(); // (occurrence, column)
    final List<Integer> parent = new ArrayList<>();
    final List<Constraint> constraints = new ArrayList<>();
    /** Constant comparisons of disjuncts not chosen: values meeting them are avoided where others do as well. */
    final List<Constraint> avoided = new ArrayList<>();
    final List<Offset> offsets = new ArrayList<>();
    final List<Order> orders = new ArrayList<>();
    /** Comparisons of derived values, read once the walk knows which occurrences are dead. */
    final List<Pending> pending = new ArrayList<>();
    /** The pending comparisons read, over placeholders. */
    final List<Expr> exprs = new ArrayList<>();
    final Set<String> expanding = new HashSet<>();
    /** The ORs met (by identity), in the order met; which disjunct of an OR to satisfy (the first by default). */
    final List<JsonNode> ors = new ArrayList<>();
    final Map<JsonNode, Integer> choices;
    /** The constraints of live occurrences with their constants evaluated (once per model). */
    @Nullable List<Solved> solved;
    List<Solved> avoidedSolved = List.of();

    Model(Map<JsonNode, Integer> choices) {
      this.choices = choices;
    }

    int var(int occurrence, int column) {
      return varIds.computeIfAbsent(occurrence * 100_000L + column, k -> {
        vars.add(new int[] {occurrence, column});
        parent.add(vars.size() - 1);
        return vars.size() - 1;
      });
    }

    int find(int v) {
      while (parent.get(v) != v) {
        parent.set(v, parent.get(parent.get(v)));
        v = parent.get(v);
      }
      return v;
    }

    void union(int a, int b) {
      int ra = find(a);
      int rb = find(b);
      if (ra != rb && comparable(a, b)) {
        parent.set(ra, rb);
      }
    }

    ValueType type(int v) {
      int[] x = vars.get(v);
      return ValueType.of(occTable.get(x[0]).columns().get(x[1]).valueType());
    }

    boolean comparable(int a, int b) {
      return type(a).comparableWith(type(b));
    }

    // ---- walk ----

    List<Out> query(JsonNode node, @Nullable Scope outer, Map<String, Cte> ctesOuter, int depth) {
      if (node == null || !node.isObject() || depth > 12) {
        return List.of();
      }
      Map<String, Cte> ctes = new HashMap<>(ctesOuter);
      for (JsonNode entry : node.path("cte_map").path("map")) {
        JsonNode value = entry.path("value");
        JsonNode q = value.has("query_node") ? value.get("query_node") : value.path("query").path("node");
        List<String> aliases = new ArrayList<>();
        value.path("aliases").forEach(a -> aliases.add(a.asText().toLowerCase(Locale.ROOT)));
        ctes.put(entry.path("key").asText("").toLowerCase(Locale.ROOT), new Cte(q, aliases));
      }
      switch (node.path("type").asText("")) {
        case "SELECT_NODE" -> {
          return select(node, outer, ctes, depth);
        }
        case "SET_OPERATION_NODE" -> {
          List<JsonNode> children = Trees.setOperands(node);
          String op = node.path("setop_type").asText("");
          if (op.startsWith("EXCEPT")) {
            children = children.subList(0, 1); // the rows the others take away are not wanted
          }
          List<List<Out>> outs = new ArrayList<>();
          for (JsonNode child : children) {
            outs.add(query(child, outer, ctes, depth + 1));
          }
          List<Out> merged = new ArrayList<>();
          for (int i = 0; i < outs.get(0).size(); i++) {
            List<Alt> alts = new ArrayList<>();
            for (List<Out> o : outs) {
              if (i < o.size()) {
                alts.addAll(o.get(i).alts());
                if (op.startsWith("INTERSECT") && o != outs.get(0)) {
                  unionOuts(outs.get(0).get(i), o.get(i));
                }
              }
            }
            List<Inline> exprs = new ArrayList<>();
            for (List<Out> o : outs) {
              if (i < o.size()) {
                exprs.addAll(o.get(i).exprs());
              }
            }
            merged.add(new Out(outs.get(0).get(i).name(), alts, exprs));
          }
          return merged;
        }
        default -> {
          return List.of();
        }
      }
    }

    private List<Out> select(JsonNode node, @Nullable Scope outer, Map<String, Cte> ctes, int depth) {
      int firstOcc = occTable.size();
      Scope scope = new Scope(outer);
      from(node.path("from_table"), scope, ctes, depth);
      condition(node.path("where_clause"), scope, ctes, depth);
      condition(node.path("having"), scope, ctes, depth);
      condition(node.path("qualify"), scope, ctes, depth);
      Set<Integer> mine = new HashSet<>();
      for (int i = firstOcc; i < occTable.size(); i++) {
        mine.add(i);
      }
      List<Out> outputs = new ArrayList<>();
      for (JsonNode item : node.path("select_list")) {
        String cls = item.path("class").asText("");
        if (cls.equals("STAR") && !item.path("columns").asBoolean(false)) {
          String relation = item.path("relation_name").asText("").toLowerCase(Locale.ROOT);
          for (Map.Entry<String, Source> s : scope.sources.entrySet()) {
            if (relation.isEmpty() || s.getKey().equals(relation)) {
              outputs.addAll(outs(s.getValue()));
            }
          }
          continue;
        }
        String alias = item.path("alias").asText("");
        String name = !alias.isEmpty() ? alias : cls.equals("COLUMN_REF") ? Trees.columnName(item) : "";
        Out o = valueOf(item, scope);
        if (o == null) {
          o = keptBy(item, scope);
        }
        if (o == null && QueryFacts.isConstant(item) && "CONSTANT".equals(item.path("class").asText())) {
          o = new Out(name, List.of(new Alt(-1, item, mine)));
        }
        outputs.add(new Out(name.toLowerCase(Locale.ROOT), o == null ? List.of() : o.alts(),
            o == null ? List.of(new Inline(item, scope, mine)) : o.exprs()));
      }
      return outputs;
    }

    private List<Out> outs(Source s) {
      if (s.table() == null) {
        return s.outs();
      }
      List<Out> out = new ArrayList<>();
      for (int c = 0; c < s.table().columns().size(); c++) {
        out.add(new Out(s.table().columns().get(c).name().toLowerCase(Locale.ROOT),
            List.of(new Alt(var(s.occurrence(), c), null, Set.of(s.occurrence())))));
      }
      return out;
    }

    private void from(JsonNode ref, Scope scope, Map<String, Cte> ctes, int depth) {
      if (ref == null || !ref.isObject()) {
        return;
      }
      String alias = ref.path("alias").asText("").toLowerCase(Locale.ROOT);
      List<String> columnAliases = new ArrayList<>();
      ref.path("column_name_alias").forEach(a -> columnAliases.add(a.asText().toLowerCase(Locale.ROOT)));
      switch (ref.path("type").asText("")) {
        case "BASE_TABLE" -> {
          String name = ref.path("table_name").asText("");
          String lower = name.toLowerCase(Locale.ROOT);
          String key = alias.isEmpty() ? lower : alias;
          boolean unqualified = ref.path("schema_name").asText("").isEmpty();
          if (unqualified && ctes.containsKey(lower)) {
            if (!expanding.add(lower)) {
              throw new IllegalStateException("recursive CTE " + lower);
            }
            try {
              Cte cte = ctes.get(lower);
              List<Out> outs = renamed(query(cte.query(), null, ctes, depth + 1), cte.aliases());
              scope.sources.put(key, new Source(-1, null, renamed(outs, columnAliases)));
            } finally {
              expanding.remove(lower);
            }
          } else if (schema.table(name).isPresent()) {
            if (occTable.size() >= MAX_OCCURRENCES) {
              throw new IllegalStateException("too many table occurrences");
            }
            Schema.Table t = table(schema.table(name).get().name());
            if (t == null) {
              throw new IllegalStateException("table outside the instance: " + name);
            }
            occTable.add(t);
            Source s = new Source(occTable.size() - 1, t, List.of());
            scope.sources.put(key, columnAliases.isEmpty() ? s : new Source(-1, null, renamed(outs(s),
                columnAliases)));
          } else if (schema.view(name).isPresent()) {
            JsonNode statement = parser.parse(schema.view(name).get().query()).statement(0);
            scope.sources.put(key, new Source(-1, null, renamed(query(statement.path("node"), null, Map.of(),
                depth + 1), columnAliases)));
          } else {
            throw new IllegalStateException("unknown relation " + name);
          }
        }
        case "JOIN" -> {
          int before = occTable.size();
          from(ref.path("left"), scope, ctes, depth);
          int middle = occTable.size();
          from(ref.path("right"), scope, ctes, depth);
          String joinType = ref.path("join_type").asText("");
          if (joinType.equals("LEFT") || joinType.equals("OUTER")) {
            for (int o = middle; o < occTable.size(); o++) {
              nullSupplied.add(o);
            }
          }
          if (joinType.equals("RIGHT") || joinType.equals("OUTER")) {
            for (int o = before; o < middle; o++) {
              nullSupplied.add(o);
            }
          }
          condition(ref.path("condition"), scope, ctes, depth);
          for (JsonNode using : ref.path("using_columns")) {
            List<Out> same = new ArrayList<>();
            for (Source s : scope.sources.values()) {
              for (Out o : outs(s)) {
                if (o.name().equalsIgnoreCase(using.asText())) {
                  same.add(o);
                }
              }
            }
            for (int i = 1; i < same.size(); i++) {
              unionOuts(same.get(0), same.get(i));
            }
          }
          if ("NATURAL".equals(ref.path("ref_type").asText(""))) {
            throw new IllegalStateException("NATURAL JOIN");
          }
        }
        case "SUBQUERY" -> {
          List<Out> outs = query(ref.path("subquery").path("node"), scope, ctes, depth + 1);
          scope.sources.put(alias.isEmpty() ? "__subquery" + scope.sources.size() : alias,
              new Source(-1, null, renamed(outs, columnAliases)));
        }
        case "EMPTY" -> {
          // SELECT without FROM.
        }
        default -> throw new IllegalStateException("FROM item " + ref.path("type").asText(""));
      }
    }

    private List<Out> renamed(List<Out> outs, List<String> aliases) {
      List<Out> out = new ArrayList<>();
      for (int i = 0; i < outs.size(); i++) {
        out.add(i < aliases.size() ? new Out(aliases.get(i), outs.get(i).alts(), outs.get(i).exprs()) : outs.get(i));
      }
      return out;
    }

    /**
     * The column a reference names (through casts, MIN/MAX, SUM/AVG and the like, and {@code coalesce(x, 0)}: its
     * value where it is not NULL), as an output; null otherwise.
     */
    private @Nullable Out valueOf(JsonNode e, Scope scope) {
      for (int d = 0; d < 8 && e != null && e.isObject(); d++) {
        String cls = e.path("class").asText("");
        if (cls.equals("COLUMN_REF")) {
          return resolve(Trees.columnNames(e), scope);
        } else if (cls.equals("CAST") || cls.equals("COLLATE")) {
          e = e.path("child");
        } else if (cls.equals("OPERATOR") && e.path("type").asText("").equals("OPERATOR_COALESCE")
            && e.path("children").size() >= 2 && !QueryFacts.isConstant(e.path("children").get(0))
            && allConstantAfterFirst(e.path("children"))) {
          e = e.path("children").get(0);
        } else if (cls.equals("FUNCTION") && e.path("function_name").asText("").equalsIgnoreCase("coalesce")
            && QueryFacts.arguments(e).size() >= 2 && !QueryFacts.isConstant(QueryFacts.arguments(e).get(0))
            && QueryFacts.arguments(e).stream().skip(1).allMatch(QueryFacts::isConstant)) {
          e = QueryFacts.arguments(e).get(0);
        } else if (cls.equals("FUNCTION") && PASS_THROUGH.contains(e.path("function_name").asText("")
            .toLowerCase(Locale.ROOT)) && QueryFacts.arguments(e).size() == 1) {
          e = QueryFacts.arguments(e).get(0);
        } else {
          return null;
        }
      }
      return null;
    }

    /** An IN list's values (the children after the first), or null where one is not a constant. */
    private static @Nullable List<JsonNode> constantList(JsonNode children) {
      List<JsonNode> values = new ArrayList<>();
      for (int i = 1; i < children.size(); i++) {
        if (!QueryFacts.isConstant(children.get(i))) {
          return null;
        }
        values.add(children.get(i));
      }
      return values;
    }

    private static boolean allConstantAfterFirst(JsonNode children) {
      for (int i = 1; i < children.size(); i++) {
        if (!QueryFacts.isConstant(children.get(i))) {
          return false;
        }
      }
      return true;
    }

    private @Nullable Out resolve(List<String> parts, Scope scope) {
      if (parts.isEmpty() || parts.size() > 2) {
        return null;
      }
      String column = parts.get(parts.size() - 1).toLowerCase(Locale.ROOT);
      for (Scope s = scope; s != null; s = s.parent) {
        if (parts.size() == 2) {
          Source src = s.sources.get(parts.get(0).toLowerCase(Locale.ROOT));
          if (src != null) {
            return find(src, column);
          }
          continue;
        }
        Out found = null;
        for (Source src : s.sources.values()) {
          Out o = find(src, column);
          if (o != null) {
            if (found != null) {
              return null;
            }
            found = o;
          }
        }
        if (found != null) {
          return found;
        }
      }
      return null;
    }

    private @Nullable Out find(Source src, String column) {
      if (src.table() != null) {
        int c = src.table().columnIndex(column);
        return c < 0 ? null : new Out(column, List.of(new Alt(var(src.occurrence(), c), null,
            Set.of(src.occurrence()))));
      }
      for (Out o : src.outs()) {
        if (o.name().equals(column)) {
          return o;
        }
      }
      return null;
    }

    private void unionOuts(Out a, Out b) {
      for (Alt x : a.alts()) {
        for (Alt y : b.alts()) {
          if (x.var() >= 0 && y.var() >= 0) {
            union(x.var(), y.var());
          }
        }
      }
    }

    /** Records what a condition that must hold says (only its positive, conjunctive part). */
    private void condition(JsonNode e, Scope scope, Map<String, Cte> ctes, int depth) {
      if (e == null || !e.isObject()) {
        return;
      }
      String cls = e.path("class").asText("");
      String type = e.path("type").asText("");
      switch (cls) {
        case "CONJUNCTION" -> {
          if (type.equals("CONJUNCTION_AND")) {
            e.path("children").forEach(c -> condition(c, scope, ctes, depth));
          } else if (type.equals("CONJUNCTION_OR") && !e.path("children").isEmpty()) {
            if (ors.stream().noneMatch(x -> x == e)) {
              ors.add(e);
            }
            int d = Math.min(choices.getOrDefault(e, 0), e.path("children").size() - 1);
            condition(e.path("children").get(d), scope, ctes, depth);
            for (int other = 0; other < e.path("children").size(); other++) {
              if (other != d) {
                avoid(e.path("children").get(other), scope);
              }
            }
          }
        }
        case "COMPARISON" -> {
          String op = OPERATORS.get(type);
          if (op != null) {
            compare(e.path("left"), e.path("right"), op, scope, ctes, depth);
          }
        }
        case "BETWEEN" -> {
          compare(e.path("input"), e.path("lower"), ">=", scope, ctes, depth);
          compare(e.path("input"), e.path("upper"), "<=", scope, ctes, depth);
        }
        case "OPERATOR" -> {
          if (type.equals("OPERATOR_IS_NULL") && e.path("children").size() == 1) {
            // An outer join's NULL side that must be NULL (an anti-join: LEFT JOIN returns ... WHERE r_key IS
            // NULL): the witness gives that occurrence no row, so the outer row passes.
            Out o = valueOf(e.path("children").get(0), scope);
            if (o != null) {
              for (Alt a : o.alts()) {
                if (a.var() >= 0 && nullSupplied.contains(vars.get(a.var())[0])) {
                  dead.add(vars.get(a.var())[0]);
                }
              }
            }
          }
          if (type.equals("COMPARE_IN") || type.equals("COMPARE_NOT_IN")) {
            JsonNode kids = e.path("children");
            Out o = valueOf(kids.get(0), scope);
            List<JsonNode> values = constantList(kids);
            if (values == null) {
              return;
            }
            if (o != null && !values.isEmpty()) {
              constrain(o, QueryFacts.Relation.COMPARE, type.equals("COMPARE_IN") ? "IN" : "NOT IN", values);
            } else if (o == null && !values.isEmpty()) {
              constrainFunction(kids.get(0), type.equals("COMPARE_IN") ? "IN" : "NOT IN", values, scope);
            }
          }
        }
        case "FUNCTION" -> {
          String fn = e.path("function_name").asText("").toLowerCase(Locale.ROOT);
          List<JsonNode> args = QueryFacts.arguments(e);
          if (args.size() == 2 && QueryFacts.isConstant(args.get(1))) {
            Out o = valueOf(args.get(0), scope);
            if (o == null) {
              return;
            }
            if (Set.of("~~", "like_escape").contains(fn)) {
              constrain(o, QueryFacts.Relation.LIKE, "LIKE", List.of(args.get(1)));
            } else if (Set.of("!~~", "not_like_escape").contains(fn)) {
              constrain(o, QueryFacts.Relation.LIKE, "NOT LIKE", List.of(args.get(1)));
            } else if (Set.of("prefix", "starts_with").contains(fn)) {
              constrain(o, QueryFacts.Relation.LIKE, "PREFIX", List.of(args.get(1)));
            }
          }
        }
        case "SUBQUERY" -> {
          String kind = e.path("subquery_type").asText("");
          if (kind.equals("EXISTS")) {
            query(e.path("subquery").path("node"), scope, ctes, depth + 1);
          } else if (kind.equals("ANY") && "COMPARE_EQUAL".equals(e.path("comparison_type").asText(""))) {
            List<Out> outs = query(e.path("subquery").path("node"), scope, ctes, depth + 1);
            Out o = valueOf(e.path("child"), scope);
            if (o != null && !outs.isEmpty()) {
              unionOuts(o, outs.get(0));
            }
          }
        }
        default -> {
          // NOT, CASE, IS NULL...: nothing a witness needs to make hold.
        }
      }
    }

    /** Whether a query returns exactly one row whatever the data: an aggregate select without GROUP BY. */
    private static boolean oneAggregateRow(JsonNode node) {
      if (!"SELECT_NODE".equals(node.path("type").asText()) || node.path("group_expressions").size() > 0
          || node.path("select_list").isEmpty()) {
        return false;
      }
      for (JsonNode e : node.path("select_list")) {
        if (!Trees.hasAggregate(e)) {
          return false;
        }
      }
      return true;
    }

    private void compare(JsonNode left, JsonNode right, String op, Scope scope, Map<String, Cte> ctes, int depth) {
      for (JsonNode side : List.of(left, right)) {
        if ("SUBQUERY".equals(side.path("class").asText()) && "SCALAR".equals(side.path("subquery_type").asText())) {
          int first = occTable.size();
          JsonNode subquery = side.path("subquery").path("node");
          List<Out> outs = query(subquery, scope, ctes, depth + 1);
          if (!oneAggregateRow(subquery)) {
            for (int o = first; o < occTable.size(); o++) {
              singleRow.add(o);
            }
          }
          Out o = valueOf(side == left ? right : left, scope);
          if (op.equals("=") && o != null && !outs.isEmpty()) {
            unionOuts(o, outs.get(0));
          } else if (!op.equals("=") && OPERATORS.containsValue(op) && !outs.isEmpty()) {
            // q24's sum(netpaid) > (SELECT 0.05 * avg(netpaid) FROM ssales): the subquery's output is a value.
            pending.add(side == left ? new Pending(left, outs.get(0), op, right, null, scope)
                : new Pending(left, null, op, right, outs.get(0), scope));
          }
          return;
        }
      }
      Out l = valueOf(left, scope);
      Out r = valueOf(right, scope);
      if (l != null && r != null) {
        if (op.equals("=")) {
          unionOuts(l, r);
        } else if (Set.of("<", "<=", ">", ">=", "<>").contains(op)) {
          for (Alt a : l.alts()) {
            for (Alt b : r.alts()) {
              if (a.var() >= 0 && b.var() >= 0 && comparable(a.var(), b.var())) {
                orders.add(new Order(a.var(), op, b.var()));
              }
            }
          }
        }
        return;
      }
      if (l == null && r != null) {
        compare(right, left, MIRRORED.get(op), scope, ctes, depth);
        return;
      }
      if (l != null && QueryFacts.isConstant(right)) {
        constrain(l, QueryFacts.Relation.COMPARE, op, List.of(right));
        return;
      }
      if (!op.equals("=") && !(QueryFacts.isConstant(left) && QueryFacts.isConstant(right))) {
        pending.add(new Pending(left, null, op, right, null, scope));
      }
      if (l != null && op.equals("=") && sameUpToCase(l, right, scope)) {
        return;
      }
      if (l != null && op.equals("=") && "FUNCTION".equals(right.path("class").asText())) {
        String fn = right.path("function_name").asText("");
        List<JsonNode> args = QueryFacts.arguments(right);
        if ((fn.equals("+") || fn.equals("-")) && args.size() == 2 && QueryFacts.isConstant(args.get(1))) {
          Out other = valueOf(args.get(0), scope);
          try {
            BigDecimal k = new BigDecimal(constantText(args.get(1)).strip());
            if (other != null) {
              for (Alt a : l.alts()) {
                for (Alt b : other.alts()) {
                  if (a.var() >= 0 && b.var() >= 0) {
                    offsets.add(new Offset(a.var(), b.var(), fn.equals("-") ? k.negate() : k));
                  }
                }
              }
            }
          } catch (NumberFormatException ex) {
            // Not a plain number.
          }
        }
        return;
      }
      if (l == null && op.equals("=") && sameFunction(left, right, scope)) {
        return;
      }
      if (l == null && QueryFacts.isConstant(right) && "FUNCTION".equals(left.path("class").asText())) {
        String fn = left.path("function_name").asText("").toLowerCase(Locale.ROOT);
        List<JsonNode> args = QueryFacts.arguments(left);
        boolean year = fn.equals("year") && args.size() == 1 || (fn.equals("date_part") || fn.equals("datepart"))
            && args.size() == 2 && constantText(args.get(0)).toLowerCase(Locale.ROOT).startsWith("year");
        Out o = year ? valueOf(args.get(args.size() - 1), scope) : null;
        if (o != null) {
          constrain(o, QueryFacts.Relation.YEAR, op, List.of(right));
        } else if (!year && OPERATORS.containsValue(op)) {
          constrainFunction(left, op, List.of(right), scope);
        }
      }
    }

    /**
     * {@code a = f(b)} for a function that leaves some values as they are ({@code c_birth_country =
     * upper(ca_country)}, {@code lower}, {@code trim}): {@code a} and {@code b} take one value, one that {@code f}
     * leaves unchanged (asked of the engine); false when the right side is no such function of one column.
     */
    private boolean sameUpToCase(Out l, JsonNode right, Scope scope) {
      String fn = right.path("function_name").asText("").toLowerCase(Locale.ROOT);
      if (!"FUNCTION".equals(right.path("class").asText("")) || !FIXED_POINT_FUNCTIONS.contains(fn)
          || QueryFacts.arguments(right).size() != 1) {
        return false;
      }
      Out o = valueOf(QueryFacts.arguments(right).get(0), scope);
      if (o == null) {
        return false;
      }
      unionOuts(l, o);
      keptAsTheyAre(l, fn + "(__w0) = __w0");
      return true;
    }

    /** Holds the values of {@code o}'s variables to those where {@code fixedPoint} ({@code f(__w0) = __w0}) holds. */
    private void keptAsTheyAre(Out o, String fixedPoint) {
      JsonNode yes = parser.parse("SELECT true").statement(0).path("node").path("select_list").get(0);
      for (Alt a : o.alts()) {
        if (a.var() >= 0) {
          constraints.add(new Constraint(a.var(), QueryFacts.Relation.FUNCTION, "=", List.of(yes), fixedPoint));
        }
      }
    }

    /**
     * {@code f(a) = f(b)}, one function of one column on both sides with the same constants ({@code substr(s_zip, 1,
     * 2) = substr(ca_zip, 1, 2)}): equal values of {@code a} and {@code b} meet it, so they take one value, as a
     * join's columns do; false when the two sides are not such a pair.
     */
    private boolean sameFunction(JsonNode left, JsonNode right, Scope scope) {
      if (!"FUNCTION".equals(left.path("class").asText()) || !QueryFacts.wrapper(left).equals(
          QueryFacts.wrapper(right))) {
        return false;
      }
      JsonNode a = only(QueryFacts.arguments(left));
      JsonNode b = only(QueryFacts.arguments(right));
      Out l = a == null ? null : valueOf(a, scope);
      Out r = b == null ? null : valueOf(b, scope);
      if (l == null || r == null) {
        return false;
      }
      unionOuts(l, r);
      return true;
    }

    /** The one argument that is not a constant, or null. */
    private static @Nullable JsonNode only(List<JsonNode> args) {
      List<JsonNode> columns = args.stream().filter(x -> !QueryFacts.isConstant(x)).toList();
      return columns.size() == 1 ? columns.get(0) : null;
    }

    /**
     * An output {@code f(x)} of a function that leaves some values as they are ({@code upper}, {@code trim}, {@code
     * substr(x, 1, n)}, {@code left(x, n)}: TPC-DS q8's {@code substr(ca_zip, 1, 5) AS ca_zip}): x's values, held to
     * those f keeps, so that what the outer query asks of the output is asked of x; null for any other expression.
     */
    private @Nullable Out keptBy(JsonNode e, Scope scope) {
      if (!"FUNCTION".equals(e.path("class").asText(""))) {
        return null;
      }
      String fn = e.path("function_name").asText("").toLowerCase(Locale.ROOT);
      List<JsonNode> args = QueryFacts.arguments(e);
      boolean prefix = (fn.equals("substr") || fn.equals("substring")) && args.size() == 3
          && QueryFacts.isConstant(args.get(1)) && constantText(args.get(1)).strip().equals("1")
          && QueryFacts.isConstant(args.get(2)) || fn.equals("left") && args.size() == 2
          && QueryFacts.isConstant(args.get(1));
      if (args.isEmpty() || !prefix && !(FIXED_POINT_FUNCTIONS.contains(fn) && args.size() == 1)
          || !"COLUMN_REF".equals(args.get(0).path("class").asText(""))) {
        return null;
      }
      Out o = valueOf(args.get(0), scope);
      com.fasterxml.jackson.databind.node.ObjectNode copy = e.deepCopy();
      if (o == null || !replaceColumn(copy, args.get(0))) {
        return null;
      }
      String text;
      try {
        copy.put("alias", "");
        text = parser.renderExpression(copy) + " = " + parser.renderExpression(placeholderTemplate());
      } catch (RuntimeException ex) {
        return null;
      }
      keptAsTheyAre(o, text);
      return new Out(o.name(), o.alts());
    }

    /** Reads the pending comparisons of derived values over placeholders (those whose every leaf resolves). */
    void readPending() {
      for (Pending p : pending) {
        if (exprs.size() >= MAX_EXPRS) {
          break;
        }
        List<Integer> leaves = new ArrayList<>();
        JsonNode l = p.leftOut() != null ? fromOut(p.leftOut(), leaves, 0) : placeholders(p.left(), p.scope(), leaves, 0);
        JsonNode r = p.rightOut() != null ? fromOut(p.rightOut(), leaves, 0)
            : placeholders(p.right(), p.scope(), leaves, 0);
        if (l == null || r == null || leaves.isEmpty()) {
          continue;
        }
        try {
          String sql = "(" + parser.renderExpression(l) + ") " + p.op() + " (" + parser.renderExpression(r) + ")";
          if (exprs.stream().noneMatch(x -> x.sql().equals(sql) && x.leaves().equals(leaves))) {
            exprs.add(new Expr(sql, leaves, sql));
          }
        } catch (RuntimeException e) {
          // Does not render: not read.
        }
      }
    }

    /**
     * A copy of an expression with every column (and an aggregate that passes a column's value through) replaced
     * by a placeholder {@code __wI} for the I-th leaf (a variable), and outputs computed by expressions inlined;
     * null when a column does not resolve to a live variable or the expression holds a subquery or a window.
     */
    private @Nullable JsonNode placeholders(JsonNode e, Scope scope, List<Integer> leaves, int depth) {
      if (depth > 24 || e == null) {
        return null;
      }
      if (!e.isObject()) {
        return e.deepCopy();
      }
      String cls = e.path("class").asText("");
      if (cls.equals("SUBQUERY") || cls.equals("WINDOW") || cls.equals("STAR")) {
        return null;
      }
      if (cls.equals("COLUMN_REF")) {
        Out o = resolve(Trees.columnNames(e), scope);
        return o == null ? null : fromOut(o, leaves, depth + 1);
      }
      if (cls.equals("FUNCTION") && PASS_THROUGH.contains(e.path("function_name").asText("").toLowerCase(Locale.ROOT))
          && QueryFacts.arguments(e).size() == 1 && !e.path("distinct").asBoolean(false)) {
        return placeholders(QueryFacts.arguments(e).get(0), scope, leaves, depth + 1);
      }
      com.fasterxml.jackson.databind.node.ObjectNode copy = Trees.JSON.createObjectNode();
      for (Map.Entry<String, JsonNode> f : (Iterable<Map.Entry<String, JsonNode>>) e::fields) {
        JsonNode v = f.getValue();
        if (v.isObject()) {
          JsonNode c = placeholders(v, scope, leaves, depth + 1);
          if (c == null) {
            return null;
          }
          copy.set(f.getKey(), c);
        } else if (v.isArray()) {
          com.fasterxml.jackson.databind.node.ArrayNode a = copy.putArray(f.getKey());
          for (JsonNode item : v) {
            JsonNode c = item.isObject() ? placeholders(item, scope, leaves, depth + 1) : item.deepCopy();
            if (c == null) {
              return null;
            }
            a.add(c);
          }
        } else {
          copy.set(f.getKey(), f.getKey().equals("alias") ? Trees.JSON.getNodeFactory().textNode("") : v.deepCopy());
        }
      }
      return copy;
    }

    /** An output as a placeholder (its live variable), its live expression inlined, or its constant. */
    private @Nullable JsonNode fromOut(Out o, List<Integer> leaves, int depth) {
      for (Alt a : o.alts()) {
        if (a.var() >= 0 && !dead.contains(vars.get(a.var())[0])) {
          int i = leaves.indexOf(a.var());
          if (i < 0) {
            leaves.add(a.var());
            i = leaves.size() - 1;
          }
          com.fasterxml.jackson.databind.node.ObjectNode ref = placeholderTemplate().deepCopy();
          Trees.setColumn(ref, null, "__w" + i);
          return ref;
        }
      }
      for (Inline x : o.exprs()) {
        if (x.occurrences().isEmpty() || x.occurrences().stream().anyMatch(occ -> !dead.contains(occ))) {
          return placeholders(x.expression(), x.scope(), leaves, depth + 1);
        }
      }
      for (Alt a : o.alts()) {
        if (a.constant() != null && a.occurrences().stream().anyMatch(occ -> !dead.contains(occ))) {
          com.fasterxml.jackson.databind.node.ObjectNode c = a.constant().deepCopy();
          c.put("alias", "");
          return c;
        }
      }
      return null;
    }

    /**
     * {@code f(column) op values} for a function of one column ({@link #COLUMN_FUNCTIONS}), as a constraint on the
     * column's class that the engine evaluates; false when the expression is not such a function.
     */
    private boolean constrainFunction(JsonNode e, String op, List<JsonNode> values, Scope scope) {
      if (!"FUNCTION".equals(e.path("class").asText(""))
          || !COLUMN_FUNCTIONS.contains(e.path("function_name").asText("").toLowerCase(Locale.ROOT))) {
        return false;
      }
      List<JsonNode> refs = new ArrayList<>();
      List<JsonNode> stack = new ArrayList<>(List.of(e));
      while (!stack.isEmpty()) {
        JsonNode n = stack.remove(stack.size() - 1);
        String cls = n.path("class").asText("");
        if (cls.equals("COLUMN_REF")) {
          refs.add(n);
        } else if (cls.equals("SUBQUERY") || cls.equals("WINDOW")) {
          return false;
        } else if (n.isContainerNode()) {
          n.forEach(stack::add);
        }
      }
      if (refs.size() != 1) {
        return false;
      }
      Out o = valueOf(refs.get(0), scope);
      if (o == null) {
        return false;
      }
      com.fasterxml.jackson.databind.node.ObjectNode copy = e.deepCopy();
      if (!replaceColumn(copy, refs.get(0))) {
        return false;
      }
      String text;
      try {
        copy.put("alias", "");
        text = parser.renderExpression(copy);
      } catch (RuntimeException ex) {
        return false;
      }
      for (Alt a : o.alts()) {
        if (a.var() >= 0) {
          constraints.add(new Constraint(a.var(), QueryFacts.Relation.FUNCTION, op, values, text));
        }
      }
      return true;
    }

    /** Replaces the node equal to {@code ref} under {@code node} by the placeholder {@code __w0}. */
    private boolean replaceColumn(JsonNode node, JsonNode ref) {
      if (node.isObject()) {
        for (var it = node.fields(); it.hasNext(); ) {
          var f = it.next();
          if (f.getValue() == ref || f.getValue().equals(ref)) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) node).set(f.getKey(),
                placeholderTemplate().deepCopy());
            return true;
          }
          if (replaceColumn(f.getValue(), ref)) {
            return true;
          }
        }
      } else if (node.isArray()) {
        for (int i = 0; i < node.size(); i++) {
          if (node.get(i).equals(ref)) {
            ((com.fasterxml.jackson.databind.node.ArrayNode) node).set(i, placeholderTemplate().deepCopy());
            return true;
          }
          if (replaceColumn(node.get(i), ref)) {
            return true;
          }
        }
      }
      return false;
    }

    /**
     * Records the constant comparisons of a disjunct not chosen ({@code ca_state IN ('VA', 'TX', 'MS')} beside the
     * chosen {@code ca_state IN ('TX', 'OH')}) as values to avoid: a witness where only its disjunct holds tells a
     * change inside that disjunct apart (the unique-cause coverage of MC/DC), where a value meeting a sibling too
     * would hide it. Only comparisons of a column with constants, its conjunctive part; nothing else of the
     * disjunct is read.
     */
    private void avoid(JsonNode e, Scope scope) {
      String cls = e.path("class").asText("");
      String type = e.path("type").asText("");
      if (cls.equals("CONJUNCTION") && type.equals("CONJUNCTION_AND")) {
        e.path("children").forEach(c -> avoid(c, scope));
      } else if (cls.equals("COMPARISON") && OPERATORS.containsKey(type)) {
        boolean constantRight = QueryFacts.isConstant(e.path("right"));
        if (constantRight == QueryFacts.isConstant(e.path("left"))) {
          return;
        }
        Out o = valueOf(constantRight ? e.path("left") : e.path("right"), scope);
        String op = OPERATORS.get(type);
        if (o != null) {
          avoidOne(o, QueryFacts.Relation.COMPARE, constantRight ? op : MIRRORED.get(op),
              List.of(constantRight ? e.path("right") : e.path("left")));
        }
      } else if (cls.equals("BETWEEN") && QueryFacts.isConstant(e.path("lower"))
          && QueryFacts.isConstant(e.path("upper"))) {
        Out o = valueOf(e.path("input"), scope);
        if (o != null) { // each bound on its own: a value inside meets both, one outside one
          avoidOne(o, QueryFacts.Relation.COMPARE, ">=", List.of(e.path("lower")));
          avoidOne(o, QueryFacts.Relation.COMPARE, "<=", List.of(e.path("upper")));
        }
      } else if (cls.equals("OPERATOR") && type.equals("COMPARE_IN")) {
        JsonNode kids = e.path("children");
        List<JsonNode> values = constantList(kids);
        Out o = values == null ? null : valueOf(kids.get(0), scope);
        if (o != null && !values.isEmpty()) {
          avoidOne(o, QueryFacts.Relation.COMPARE, "IN", values);
        }
      }
    }

    private void avoidOne(Out o, QueryFacts.Relation relation, String op, List<JsonNode> values) {
      for (Alt a : o.alts()) {
        if (a.var() >= 0) {
          avoided.add(new Constraint(a.var(), relation, op, values));
        }
      }
    }

    private void constrain(Out o, QueryFacts.Relation relation, String op, List<JsonNode> values) {
      for (Alt a : o.alts()) {
        if (a.var() >= 0) {
          constraints.add(new Constraint(a.var(), relation, op, values));
        } else if (a.constant() != null && relation == QueryFacts.Relation.COMPARE
            && (op.equals("=") || op.equals("IN"))) {
          // A branch writing a constant the predicate rules out returns no row that passes: no rows for it.
          String written = constantText(a.constant());
          boolean any = false;
          boolean known = true;
          for (JsonNode v : values) {
            known &= "CONSTANT".equals(v.path("class").asText()) || "CAST".equals(v.path("class").asText());
            any |= constantText(v).equals(written);
          }
          if (known && !any) {
            dead.addAll(a.occurrences());
          }
        }
      }
    }
  }

  private @Nullable JsonNode placeholder;

  /** A COLUMN_REF node to copy for placeholders. */
  private JsonNode placeholderTemplate() {
    if (placeholder == null) {
      placeholder = parser.parse("SELECT __w0").statement(0).path("node").path("select_list").get(0);
    }
    return placeholder;
  }

  private static String constantText(JsonNode e) {
    if ("CONSTANT".equals(e.path("class").asText())) {
      return e.path("literal").isObject() ? e.path("literal").path("text").asText("")
          : e.path("value").path("value").asText("");
    }
    if ("CAST".equals(e.path("class").asText())) {
      return constantText(e.path("child"));
    }
    return "";
  }

  private Schema.@Nullable Table table(String name) {
    for (Schema.Table t : tables) {
      if (t.name().equalsIgnoreCase(name)) {
        return t;
      }
    }
    return null;
  }

  private static String key(Schema.Table t) {
    return t.name().toLowerCase(Locale.ROOT);
  }

  private static List<String> project(List<String> row, int[] columns) {
    List<String> out = new ArrayList<>(columns.length);
    for (int c : columns) {
      out.add(c < 0 ? null : row.get(c));
    }
    return out;
  }

  // ---- solving -------------------------------------------------------------------------------------------

  /** A constraint with its constants evaluated in the variable's type (null where they do not evaluate). */
  private record Solved(Constraint constraint, List<String> values) {}

  /** The text of a constant expression in a type, evaluated by the engine (cached; null when it fails). */
  private @Nullable String evaluate(JsonNode expression, String type) {
    List<Object> id = List.of(System.identityHashCode(expression), type);
    if (evaluatedNodes.containsKey(id) && evaluatedNodes.get(id).node() == expression) {
      return evaluatedNodes.get(id).value();
    }
    String v = evaluateOnce(expression, type);
    evaluatedNodes.put(id, new Evaluated(expression, v));
    return v;
  }

  private record Evaluated(JsonNode node, @Nullable String value) {}

  /** A constant expression as SQL text (null when it does not render). */
  private @Nullable String renderConstant(JsonNode expression) {
    try {
      com.fasterxml.jackson.databind.node.ObjectNode copy = expression.deepCopy();
      copy.put("alias", "");
      return parser.renderExpression(copy);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** Evaluations of functions of a column compared with constants, by their SQL. */
  private final Map<String, Boolean> functionHeld = new HashMap<>();

  /**
   * Whether {@code f(v) op constants} holds, for a {@link QueryFacts.Relation#FUNCTION} constraint (false where it
   * is NULL or does not evaluate), asked of the engine.
   */
  private boolean functionHolds(Constraint c, List<String> constants, String v, String sqlType) {
    String op = c.operator();
    String compared = switch (op) {
      case "IN", "NOT IN" -> op + " (" + String.join(", ", constants) + ")";
      default -> op + " (" + constants.get(0) + ")";
    };
    String sql = "SELECT coalesce((" + c.function() + ") " + compared + ", false) FROM (SELECT CAST("
        + (v == null ? "NULL" : dev.lakerewrite.sql.Sql.literal(v)) + " AS " + sqlType + ") AS __w0) AS __t";
    Boolean known = functionHeld.get(sql);
    if (known != null) {
      return known;
    }
    boolean holds = false;
    try {
      List<List<String>> rows = EngineAnswers.rows(duckdb, sql);
      holds = !rows.isEmpty() && "true".equalsIgnoreCase(rows.get(0).get(0));
    } catch (SQLException e) {
      holds = false;
    }
    functionHeld.put(sql, holds);
    return holds;
  }

  private final Map<List<Object>, Evaluated> evaluatedNodes = new HashMap<>();
  /** Evaluations of derived comparisons, by their SQL. */
  private final Map<String, List<Boolean>> held = new HashMap<>();

  private @Nullable String evaluateOnce(JsonNode expression, String type) {
    String text = renderConstant(expression);
    if (text == null) {
      return null;
    }
    String sql = "SELECT CAST(TRY_CAST((" + text + ") AS " + type + ") AS VARCHAR)";
    if (evaluated.containsKey(sql)) {
      return evaluated.get(sql);
    }
    String v = null;
    try {
      List<List<String>> rows = EngineAnswers.rows(duckdb, sql);
      v = rows.isEmpty() ? null : rows.get(0).get(0);
    } catch (SQLException e) {
      v = null;
    }
    evaluated.put(sql, v);
    return v;
  }

  /** One solution: a value per class root, and per variable where a variant overrides it. */
  private final class Solution {
    final Model m;
    final Map<Integer, List<Solved>> byClass = new LinkedHashMap<>();
    /** Per class, the constant comparisons of disjuncts not chosen ({@link Model#avoided}). */
    final Map<Integer, List<Solved>> avoidedByClass = new HashMap<>();
    final Map<Integer, List<Integer>> members = new LinkedHashMap<>();
    final Map<Integer, String> value = new HashMap<>();
    /** Per occurrence, how many live occurrences of its table come before it. */
    final int[] rank;
    boolean spread;
    /**
     * Unconstrained non-key classes, and the columns the model has no variable for (read in a disjunct not chosen,
     * or only by the other query), take the value that meets the fewest of the queries' constant predicates on
     * them (the base rows' value where none is compared).
     */
    boolean outside;
    /** Added to every occurrence's rank when spreading (a copy of the witness: 1). */
    int shift;
    /** Occurrences written without a row (an outer join's padded side left without a partner). */
    Set<Integer> skipped = Set.of();
    /** The classes a constant constraint speaks of (the model's, fixed once it is built), read once. */
    private @Nullable Set<Integer> constrainedClasses;

    Solution(Model m) {
      this.m = m;
      rank = new int[m.occTable.size()];
      Map<String, Integer> seen = new HashMap<>();
      for (int o = 0; o < rank.length; o++) {
        if (!m.dead.contains(o)) {
          rank[o] = seen.merge(key(m.occTable.get(o)), 1, Integer::sum) - 1;
        }
      }
      for (int v = 0; v < m.vars.size(); v++) {
        if (!m.dead.contains(m.vars.get(v)[0])) {
          members.computeIfAbsent(m.find(v), k -> new ArrayList<>()).add(v);
          byClass.computeIfAbsent(m.find(v), k -> new ArrayList<>());
        }
      }
      if (m.solved == null) {
        m.solved = solveAll(m.constraints);
        m.avoidedSolved = solveAll(m.avoided);
      }
      for (Solved s : m.solved) {
        byClass.get(m.find(s.constraint().var())).add(s);
      }
      for (Solved s : m.avoidedSolved) {
        avoidedByClass.computeIfAbsent(m.find(s.constraint().var()), k -> new ArrayList<>()).add(s);
      }
    }

    /** The constraints of live occurrences with their constants evaluated (those with none evaluated left out). */
    private List<Solved> solveAll(List<Constraint> constraints) {
      List<Solved> out = new ArrayList<>();
      for (Constraint c : constraints) {
        if (m.dead.contains(m.vars.get(c.var())[0])) {
          continue;
        }
        String type = switch (c.relation()) {
          case LIKE -> "VARCHAR";
          case YEAR -> "BIGINT";
          default -> m.type(c.var()).type();
        };
        List<String> values = new ArrayList<>();
        if (c.relation() == QueryFacts.Relation.FUNCTION) {
          // The constants as SQL: the engine compares the function's value with them (functionHolds).
          for (JsonNode e : c.values()) {
            String text = renderConstant(e);
            if (text != null) {
              values.add(text);
            }
          }
          if (values.size() == c.values().size()) {
            out.add(new Solved(c, values));
          }
          continue;
        }
        for (JsonNode e : c.values()) {
          String v = evaluate(e, type);
          if (v != null) {
            values.add(c.operator().equals("PREFIX") ? v + "%" : v);
          }
        }
        if (!values.isEmpty()) {
          out.add(new Solved(c, values));
        }
      }
      return out;
    }

    /** Whether a value meets a constraint. */
    boolean meets(Solved s, String v, ValueType type) {
      Constraint c = s.constraint();
      return switch (c.relation()) {
        case LIKE -> {
          boolean any = false;
          for (String p : s.values()) {
            any |= TargetedInstances.satisfies(new Domains.Atom(NOWHERE, QueryFacts.Relation.LIKE, "LIKE", p), v,
                type);
          }
          yield c.operator().equals("NOT LIKE") != any;
        }
        case YEAR -> {
          boolean all = true;
          for (String p : s.values()) {
            all &= TargetedInstances.satisfies(new Domains.Atom(NOWHERE, QueryFacts.Relation.YEAR, c.operator(), p), v,
                type);
          }
          yield all;
        }
        case FUNCTION -> functionHolds(c, s.values(), v, m.type(c.var()).type());
        default -> {
          if (c.operator().equals("IN")) {
            boolean any = false;
            for (String p : s.values()) {
              Integer cmp = type.compare(v, p);
              any |= cmp != null && cmp == 0;
            }
            yield any;
          }
          boolean all = true;
          for (String p : s.values()) {
            Integer cmp = type.compare(v, p);
            all &= cmp != null && ValueType.holds(c.operator().equals("NOT IN") ? "<>" : c.operator(), cmp, false);
          }
          yield all;
        }
      };
    }

    /** Values near a constraint's boundaries: at each constant and just either side, LIKE and year examples. */
    List<String> around(Solved s, ValueType type) {
      List<String> out = new ArrayList<>();
      for (String p : s.values()) {
        switch (s.constraint().relation()) {
          case LIKE -> out.addAll(ValueType.likeExamples(p));
          case YEAR -> {
            try {
              out.addAll(type.yearValues((int) Double.parseDouble(p)));
            } catch (NumberFormatException e) {
              // Not a year.
            }
          }
          case FUNCTION -> {
            // The function is opaque: the column's pool values, those that miss the comparison first (a copy just
            // outside it), then those that meet it; once for the constraint, not per constant.
            if (!out.isEmpty()) {
              continue;
            }
            int[] x = m.vars.get(s.constraint().var());
            Schema.Table t = m.occTable.get(x[0]);
            QueryFacts.ColumnKey ck = QueryFacts.ColumnKey.of(t.name(), t.columns().get(x[1]).name());
            LinkedHashSet<String> pool = new LinkedHashSet<>(domains.satisfying(ck));
            pool.addAll(domains.values(ck));
            List<String> missing = new ArrayList<>();
            List<String> meeting = new ArrayList<>();
            for (String v : pool) {
              if (missing.size() + meeting.size() >= 2 * MAX_VALUES) {
                break;
              }
              (meets(s, v, type) ? meeting : missing).add(v);
            }
            out.addAll(interleaved(List.of(missing, meeting), 2 * MAX_VALUES));
          }
          default -> {
            out.add(p);
            out.addAll(type.neighbours(p));
          }
        }
      }
      return out;
    }

    /** Of the queries' constant predicates on the class's columns, the fraction the value meets (0 without any). */
    double metFraction(int root, String value, ValueType type) {
      Set<QueryFacts.ColumnKey> columns = new HashSet<>();
      for (int v : members.get(root)) {
        int[] x = m.vars.get(v);
        Schema.Table t = m.occTable.get(x[0]);
        columns.add(QueryFacts.ColumnKey.of(t.name(), t.columns().get(x[1]).name()));
      }
      return metFraction(columns, value, type);
    }

    /**
     * For a column the model has no variable for (read only in another disjunct, or by the other query): the pool
     * value that meets the fewest of the queries' constant predicates on it, the current one where it meets no
     * more than any.
     */
    String outsideValue(Schema.Table t, int column, String current) {
      Set<QueryFacts.ColumnKey> key = Set.of(QueryFacts.ColumnKey.of(t.name(), t.columns().get(column).name()));
      ValueType type = ValueType.of(t.columns().get(column).valueType());
      String best = current;
      double least = metFraction(key, current, type);
      LinkedHashSet<String> pool = new LinkedHashSet<>(domains.values(key.iterator().next()));
      pool.addAll(type.defaults());
      for (String v : pool) {
        double met = metFraction(key, v, type);
        if (met < least) {
          least = met;
          best = v;
        }
      }
      return best;
    }

    private double metFraction(Set<QueryFacts.ColumnKey> columns, String value, ValueType type) {
      int atoms = 0;
      int met = 0;
      for (Domains.Atom a : domains.atoms()) {
        if (a != null && columns.contains(a.column())) {
          atoms++;
          met += TargetedInstances.satisfies(a, value, type) ? 1 : 0;
        }
      }
      return atoms == 0 ? 0 : (double) met / atoms;
    }

    ValueType typeOf(int root) {
      return m.type(members.get(root).get(0));
    }

    boolean keyClass(int root) {
      for (int v : members.get(root)) {
        int[] x = m.vars.get(v);
        Schema.Table t = m.occTable.get(x[0]);
        if (t.inKey(t.columns().get(x[1]).name())) {
          return true;
        }
      }
      return false;
    }

    /**
     * Gives every class a value: the one meeting most of its constraints among the base rows' values, the
     * constants and their neighbours and the pools; a fresh one for a key class with no constraint. With {@code
     * avoid}, unconstrained classes take another value than there (a second group); {@code forced} classes take
     * the value given.
     */
    void solve(@Nullable Solution avoid, Map<Integer, String> forced) {
      Map<String, Set<String>> usedKeys = new HashMap<>();
      for (int root : members.keySet()) {
        ValueType type = typeOf(root);
        List<Solved> cons = byClass.get(root);
        boolean key = keyClass(root);
        if (forced.containsKey(root)) {
          value.put(root, forced.get(root));
          continue;
        }
        if (cons.isEmpty() && key) {
          String v = type.fresh(fresh++);
          if (v != null) {
            value.put(root, v);
            continue;
          }
        }
        LinkedHashSet<String> candidates = new LinkedHashSet<>();
        for (int v : members.get(root)) {
          int[] x = m.vars.get(v);
          List<String> b = base.get(key(m.occTable.get(x[0])));
          if (b != null && b.get(x[1]) != null) {
            candidates.add(b.get(x[1]));
          }
        }
        for (Solved s : cons) {
          candidates.addAll(around(s, type));
        }
        for (int v : members.get(root)) {
          int[] x = m.vars.get(v);
          Schema.Table t = m.occTable.get(x[0]);
          QueryFacts.ColumnKey ck = QueryFacts.ColumnKey.of(t.name(), t.columns().get(x[1]).name());
          candidates.addAll(domains.satisfying(ck));
          candidates.addAll(domains.values(ck));
        }
        candidates.addAll(type.defaults());
        String best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        String old = avoid == null ? null : avoid.value.get(root);
        List<Solved> avoided = avoidedByClass.getOrDefault(root, List.of());
        for (String c : candidates) {
          double score = 0;
          for (Solved s : cons) {
            score += meets(s, c, type) ? 1 : 0;
          }
          if (cons.isEmpty() && c.equals(old)) {
            score -= 0.5;
          }
          if (!avoided.isEmpty()) { // less than any own constraint is worth: a tie-break among those meeting them
            score -= 0.4 * avoided.stream().filter(a -> meets(a, c, type)).count() / avoided.size();
          }
          if (outside && cons.isEmpty() && !key) {
            score -= 0.5 * metFraction(root, c, type);
          }
          if (key && usedBy(usedKeys, root, c)) {
            score -= 0.25;
          }
          if (score > bestScore) {
            bestScore = score;
            best = c;
          }
        }
        if (best == null) {
          best = type.fresh(fresh++);
        }
        if (spread && cons.isEmpty() && best != null) {
          int o = m.vars.get(members.get(root).get(0))[0];
          boolean one = members.get(root).stream().allMatch(v -> m.vars.get(v)[0] == o);
          best = one ? spread(type, best, rank[o] + shift) : best;
        }
        if (best != null) {
          value.put(root, best);
          if (key) {
            markUsed(usedKeys, root, best);
          }
        }
      }
      // Shifted joins (d_week_seq1 = d_week_seq2 - 53): the shifted class follows the other.
      for (int round = 0; round < 2; round++) {
        for (Offset o : m.offsets) {
          int a = m.find(o.var());
          int b = m.find(o.other());
          if (!members.containsKey(a) || !members.containsKey(b) || forced.containsKey(a) || a == b
              || byClass.get(a).stream().anyMatch(s -> s.constraint().operator().equals("="))) {
            continue;
          }
          ValueType type = typeOf(a);
          try {
            String v = type.numeric() && value.get(b) != null
                ? type.number(new BigDecimal(value.get(b).strip()).add(o.offset())) : null;
            if (v != null) {
              value.put(a, v);
            }
          } catch (NumberFormatException e) {
            // Not a number after all.
          }
        }
      }
      // Columns compared with each other (inv_quantity_on_hand < cs_quantity): a class nothing else constrains
      // moves next to the other's value so that the comparison holds.
      for (Order o : m.orders) {
        int a = m.find(o.var());
        int b = m.find(o.other());
        if (a == b || !members.containsKey(a) || !members.containsKey(b) || forced.containsKey(a)
            || forced.containsKey(b) || value.get(a) == null || value.get(b) == null) {
          continue;
        }
        ValueType type = typeOf(a);
        Integer cmp = type.compare(value.get(a), value.get(b));
        if (cmp != null && ValueType.holds(o.op(), cmp, false)) {
          continue;
        }
        boolean moveA = byClass.get(a).isEmpty() && !keyClass(a);
        boolean moveB = byClass.get(b).isEmpty() && !keyClass(b);
        if (!moveA && !moveB) {
          continue;
        }
        int moved = moveA ? a : b;
        String op = moveA ? o.op() : MIRRORED.get(o.op());
        String next = beside(typeOf(moved), value.get(moveA ? b : a), op);
        if (next != null) {
          value.put(moved, next);
        }
      }
      // Comparisons of derived values (sum(a) > 2 * sum(b), ratios of CTE copies, d3.d_date > d1.d_date + 5):
      // where the values so far miss one, a class nothing else constrains moves until it holds.
      for (Expr e : m.exprs) {
        List<String> now = leafValues(e);
        if (now == null || Boolean.TRUE.equals(holds(e, List.of(now)).get(0))) {
          continue;
        }
        for (int root : movable(e, forced)) {
          int at = leafIndex(e, root);
          List<String> candidates = steps(typeOf(root), now.get(at));
          List<List<String>> rows = new ArrayList<>();
          for (String c : candidates) {
            List<String> row = new ArrayList<>(now);
            setLeaves(e, row, root, c);
            rows.add(row);
          }
          List<Boolean> ok = holds(e, rows);
          int found = ok.indexOf(Boolean.TRUE);
          if (found >= 0) {
            value.put(root, candidates.get(found));
            break;
          }
        }
      }
    }

    /** The leaves' current values (null when one has none). */
    @Nullable List<String> leafValues(Expr e) {
      List<String> out = new ArrayList<>();
      for (int v : e.leaves()) {
        String x = value.get(m.find(v));
        if (x == null) {
          return null;
        }
        out.add(x);
      }
      return out;
    }

    /** The classes of an expression's leaves that may move: no constant constrains them, no key, not forced. */
    List<Integer> movable(Expr e, Map<Integer, String> forced) {
      List<Integer> out = new ArrayList<>();
      for (int v : e.leaves()) {
        int root = m.find(v);
        ValueType t = members.containsKey(root) ? typeOf(root) : null;
        if (t != null && !out.contains(root) && byClass.get(root).isEmpty() && !keyClass(root)
            && !forced.containsKey(root) && (t.numeric() || t.family() == ValueType.Family.DATE)) {
          out.add(root);
        }
      }
      return out;
    }

    int leafIndex(Expr e, int root) {
      for (int i = 0; i < e.leaves().size(); i++) {
        if (m.find(e.leaves().get(i)) == root) {
          return i;
        }
      }
      return -1;
    }

    void setLeaves(Expr e, List<String> row, int root, String v) {
      for (int i = 0; i < e.leaves().size(); i++) {
        if (m.find(e.leaves().get(i)) == root) {
          row.set(i, v);
        }
      }
    }

    /** Whether the expression holds for each row of leaf values (false where it is NULL or fails). */
    List<Boolean> holds(Expr e, List<List<String>> rows) {
      StringBuilder sql = new StringBuilder();
      for (int r = 0; r < rows.size(); r++) {
        sql.append(r == 0 ? "" : " UNION ALL ").append("SELECT ").append(r).append(" AS i, (SELECT coalesce(")
            .append(e.sql()).append(", false) FROM (SELECT ");
        for (int i = 0; i < e.leaves().size(); i++) {
          String v = rows.get(r).get(i);
          // TRY_CAST: a value the type cannot hold makes its own row fail (NULL, not holding), not the batch.
          sql.append(i == 0 ? "" : ", ").append("TRY_CAST(").append(v == null ? "NULL" : dev.lakerewrite.sql.Sql.literal(v))
              .append(" AS ").append(m.type(e.leaves().get(i)).type()).append(") AS __w").append(i);
        }
        sql.append(") AS __t) AS ok");
      }
      String text = sql.toString();
      List<Boolean> out = new ArrayList<>(java.util.Collections.nCopies(rows.size(), false));
      if (held.containsKey(text)) {
        return held.get(text);
      }
      try {
        for (List<String> row : EngineAnswers.rows(duckdb, text)) {
          out.set(Integer.parseInt(row.get(0)), "true".equalsIgnoreCase(row.get(1)));
        }
      } catch (SQLException ex) {
        // The expression does not evaluate here: it never holds.
      }
      held.put(text, out);
      return out;
    }

    /** A value {@code x} with {@code x op v}: v itself for {@code <=} and {@code >=}, else its neighbour. */
    private static @Nullable String beside(ValueType type, String v, String op) {
      if (op.equals("<=") || op.equals(">=")) {
        return v;
      }
      List<String> around = type.neighbours(v);
      if (around.size() != 2) {
        return null;
      }
      return op.equals("<") ? around.get(0) : around.get(1);
    }

    private boolean usedBy(Map<String, Set<String>> used, int root, String v) {
      for (int x : members.get(root)) {
        if (used.getOrDefault(column(x), Set.of()).contains(v)) {
          return true;
        }
      }
      return false;
    }

    private void markUsed(Map<String, Set<String>> used, int root, String v) {
      for (int x : members.get(root)) {
        used.computeIfAbsent(column(x), k -> new HashSet<>()).add(v);
      }
    }

    private String column(int v) {
      int[] x = m.vars.get(v);
      Schema.Table t = m.occTable.get(x[0]);
      return key(t) + "." + x[1];
    }

    /**
     * The rows of the live occurrences, added to {@code into}: the variables' values (or {@code nulls}' NULLs),
     * the base row elsewhere, fresh values in key columns no variable sets.
     */
    boolean rows(Map<String, List<List<String>>> into, Set<Integer> nulls) {
      for (int o = 0; o < m.occTable.size(); o++) {
        if (m.dead.contains(o) || skipped.contains(o)) {
          continue;
        }
        Schema.Table t = m.occTable.get(o);
        List<String> b = base.get(key(t));
        if (b == null) {
          return false;
        }
        List<String> row = new ArrayList<>(b);
        for (int c = 0; c < t.columns().size(); c++) {
          Integer v = m.varIds.get(o * 100_000L + c);
          if (v != null && value.get(m.find(v)) != null) {
            row.set(c, nulls.contains(v) ? null : value.get(m.find(v)));
          } else if (t.inKey(t.columns().get(c).name()) || row.get(c) == null && !t.columns().get(c).nullable()) {
            String f = ValueType.of(t.columns().get(c).valueType()).fresh(fresh++);
            if (f != null) {
              row.set(c, f);
            }
          } else if (spread && row.get(c) != null) {
            row.set(c, spread(ValueType.of(t.columns().get(c).valueType()), row.get(c), rank[o] + shift));
          } else if (outside && row.get(c) != null) {
            row.set(c, outsideValue(t, c, row.get(c)));
          }
        }
        List<List<String>> rows = into.computeIfAbsent(key(t), k -> new ArrayList<>());
        if (m.singleRow.contains(o)) {
          int occurrence = o;
          if (rows.stream().anyMatch(r -> matches(occurrence, r))) {
            continue; // a copy: the scalar subquery would return two rows
          }
        } else {
          keepOutOfSingleRowSubqueries(o, t, row);
        }
        rows.add(row);
      }
      return true;
    }

    /**
     * The columns of a single-row occurrence that its subquery compares with constants: a row of its table with
     * its values in all of them passes the subquery's filter too.
     */
    private List<Integer> filtered(int single) {
      if (constrainedClasses == null) {
        constrainedClasses = new HashSet<>();
        for (Constraint c : m.constraints) {
          constrainedClasses.add(m.find(c.var()));
        }
      }
      Set<Integer> constrained = constrainedClasses;
      List<Integer> out = new ArrayList<>();
      Schema.Table t = m.occTable.get(single);
      for (int c = 0; c < t.columns().size(); c++) {
        Integer v = m.varIds.get(single * 100_000L + c);
        if (v != null && constrained.contains(m.find(v)) && value.get(m.find(v)) != null) {
          out.add(c);
        }
      }
      return out;
    }

    /** Whether a row of a single-row occurrence's table passes that occurrence's filter (on its constants). */
    private boolean matches(int single, List<String> row) {
      List<Integer> columns = filtered(single);
      if (columns.isEmpty()) {
        return false;
      }
      for (int c : columns) {
        if (!java.util.Objects.equals(row.get(c), value.get(m.find(m.varIds.get(single * 100_000L + c))))) {
          return false;
        }
      }
      return true;
    }

    /**
     * A row of another occurrence of a single-row occurrence's table takes fresh values in the columns the
     * subquery filters on and its own occurrence does not read: the base row's values meet the subquery's
     * constants (TPC-DS q14b's {@code d_year = 2000 AND d_moy = 12 AND d_dom = 11}), and so would every other
     * occurrence's row and every copy's, whatever value a variant gives the subquery's own row.
     */
    private void keepOutOfSingleRowSubqueries(int o, Schema.Table t, List<String> row) {
      for (int single : m.singleRow) {
        if (single == o || m.dead.contains(single) || m.occTable.get(single) != t) {
          continue;
        }
        for (int c : filtered(single)) {
          if (!m.varIds.containsKey(o * 100_000L + c) && !t.inKey(t.columns().get(c).name())) {
            String f = ValueType.of(t.columns().get(c).valueType()).fresh(fresh++);
            if (f != null) {
              row.set(c, f);
            }
          }
        }
      }
    }
  }

  /**
   * The {@code i}-th occurrence's value where nothing constrains it: numbers doubled {@code i} times (0 becomes
   * {@code 2^i - 1}), dates moved by {@code 2^i - 1} days, other values kept. Three occurrences of one table then
   * hold three ordered values in the proportion 1 : 2 : 4 — three months of one item ranked 1, 2, 3 ({@code rn =
   * rn + 1} over a window), whose middle sum deviates from their average.
   */
  private static String spread(ValueType type, String v, int i) {
    if (i == 0) {
      return v;
    }
    try {
      if (type.numeric()) {
        BigDecimal b = new BigDecimal(v.strip());
        BigDecimal times = BigDecimal.valueOf(1L << Math.min(i, 20));
        String out = type.number(b.signum() == 0 ? times.subtract(BigDecimal.ONE) : b.multiply(times));
        return out == null ? v : out;
      }
      if (type.family() == ValueType.Family.DATE) {
        return java.time.LocalDate.parse(v.strip().substring(0, 10)).plusDays((1L << Math.min(i, 20)) - 1)
            .toString();
      }
    } catch (RuntimeException e) {
      return v;
    }
    return v;
  }

  // ---- variants ------------------------------------------------------------------------------------------

  /**
   * The witness of a model and its variants ({@code full}: all kinds; else the witness and its boundaries), at
   * most {@value #MAX_VARIANTS}, and the witness with its free columns outside the queries' constants.
   */
  private List<Witness> variants(Model m, String which, boolean full) {
    List<Witness> out = new ArrayList<>();
    int keysFrom = fresh;
    Solution w = new Solution(m);
    w.solve(null, Map.of());
    Map<String, List<List<String>>> witness = new LinkedHashMap<>();
    if (!w.rows(witness, Set.of())) {
      return out;
    }
    out.add(finish("a witness of " + which + " (a row per table occurrence meeting its joins and constants)",
        witness));
    // The same witness under the same keys, its free columns outside the constants other predicates put on them:
    // rows the other query (or another disjunct) rejects where this one does not look. Last, so that the other
    // variants keep their places; where no witness of the other query has its rows it is lifted first (build). It
    // is solved, written and finished from the witness's fresh-key counter, so that only free columns differ.
    int keysTo = fresh;
    fresh = keysFrom;
    Solution outside = new Solution(m);
    outside.outside = true;
    outside.solve(null, Map.of());
    Map<String, List<List<String>>> outsideRows = new LinkedHashMap<>();
    Witness outsideWitness = outside.rows(outsideRows, Set.of()) ? finish("a witness of " + which
        + " whose free columns miss every constant a predicate compares them with", outsideRows) : null;
    fresh = keysTo;
    List<Witness> last = new ArrayList<>();
    if (outsideWitness != null && !outsideWitness.rows().equals(out.get(0).rows())) {
      last.add(outsideWitness);
    }
    if (!full) {
      List<Witness> bounds = boundaries(m, w, witness, which, new ArrayList<>());
      out.addAll(bounds.subList(0, Math.min(bounds.size(), 3)));
      out.addAll(last);
      return out;
    }
    Solution spread = new Solution(m);
    spread.spread = true;
    spread.solve(null, Map.of());
    Map<String, List<List<String>>> spreadRows = new LinkedHashMap<>();
    if (spread.rows(spreadRows, Set.of()) && m.occTable.size() > new HashSet<>(m.occTable).size()) {
      out.add(finish("a witness of " + which + " whose occurrences of one table differ where nothing constrains "
          + "them (1 : 2 : 4)", spreadRows));
    }
    Solution spreadCopy = new Solution(m);
    spreadCopy.spread = true;
    spreadCopy.shift = 1;
    spreadCopy.solve(null, Map.of());
    out.add(finish("a witness of " + which + " and a copy whose numbers and dates are doubled where nothing "
        + "constrains them (another group of the same partition)", with(witness, spreadCopy, Set.of())));
    Solution same = new Solution(m);
    same.solve(null, Map.of());
    out.add(finish("a witness of " + which + " and a copy of it under fresh keys", with(witness, same, Set.of())));
    Solution other = new Solution(m);
    other.solve(w, Map.of());
    out.add(finish("a witness of " + which + " and a second group (other values where nothing constrains them)",
        with(witness, other, Set.of())));
    // An outer join's padded side without its row: the outer row kept with NULLs, which an inner join (the other
    // query's, or this one's turned inner) drops.
    int padded = 0;
    for (int o : new java.util.TreeSet<>(m.nullSupplied)) {
      if (padded >= MAX_PADDED) {
        break;
      }
      if (m.dead.contains(o)) {
        continue;
      }
      Solution without = new Solution(m);
      without.skipped = Set.of(o);
      without.solve(null, Map.of());
      Map<String, List<List<String>>> rows = new LinkedHashMap<>();
      if (without.rows(rows, Set.of())) {
        padded++;
        out.add(finish("a witness of " + which + " without the row its outer join pads (" + key(m.occTable.get(o))
            + ")", rows));
      }
    }
    List<Witness> alone = new ArrayList<>();
    List<Witness> boundaries = exprBoundaries(m, w, witness, which);
    boundaries.addAll(boundaries(m, w, witness, which, alone));
    boundaries.addAll(orderBoundaries(m, w, witness, which));
    List<Witness> nulls = new ArrayList<>();
    for (List<Integer> vs : w.members.values()) {
      for (int v : vs) {
        int[] x = m.vars.get(v);
        Schema.Column col = m.occTable.get(x[0]).columns().get(x[1]);
        if (col.nullable() && nulls.size() < MAX_VARIANTS) {
          Solution copy = new Solution(m);
          copy.solve(null, Map.of());
          nulls.add(finish(which + "'s witness and a copy with " + key(m.occTable.get(x[0])) + "." + col.name()
              + " NULL", with(witness, copy, Set.of(v))));
        }
      }
    }
    // Every class's boundaries (one instance each), then NULLs and the copies alone, interleaved so that the cap
    // keeps some of each.
    out.addAll(boundaries);
    out.addAll(interleaved(List.of(nulls, alone), Math.max(0, MAX_VARIANTS - out.size())));
    List<Witness> capped = new ArrayList<>(out.subList(0, Math.min(out.size(), MAX_VARIANTS)));
    capped.addAll(last);
    return capped;
  }

  /**
   * For every class with constraints, the witness and copies of it with the class at each value around its
   * constraints' constants (one instance); each such copy alone is added to {@code alone}.
   */
  private List<Witness> boundaries(Model m, Solution w, Map<String, List<List<String>>> witness, String which,
      List<Witness> alone) {
    List<Witness> boundaries = new ArrayList<>();
    List<Witness> later = new ArrayList<>();
    List<Witness> aloneLater = new ArrayList<>();
    for (Map.Entry<Integer, List<Solved>> e : w.byClass.entrySet()) {
      int root = e.getKey();
      boolean differs = w.members.getOrDefault(root, List.of()).stream().anyMatch(v -> {
        int[] x = m.vars.get(v);
        return differing.contains(m.occTable.get(x[0]).columns().get(x[1]).name().toLowerCase(Locale.ROOT));
      });
      ValueType type = w.typeOf(root);
      LinkedHashSet<String> values = new LinkedHashSet<>();
      for (Solved s : e.getValue()) {
        values.addAll(w.around(s, type));
        if (s.constraint().relation() == QueryFacts.Relation.COMPARE && Set.of("=", "IN").contains(
            s.constraint().operator()) && type.family() == ValueType.Family.STRING) {
          values.add(s.values().get(0) + "a");
        }
      }
      values.remove(w.value.get(root));
      if (values.isEmpty()) {
        continue;
      }
      if (values.size() > MAX_VALUES) {
        values = new LinkedHashSet<>(new ArrayList<>(values).subList(0, MAX_VALUES));
      }
      // One instance with a copy of the witness per value (each copy's keys fresh), as boundaries are put in
      // rows of one instance elsewhere; and one instance per value with that copy alone (an aggregate over the
      // witness and its copies may hide a row that passes or fails).
      Map<String, List<List<String>>> combined = new LinkedHashMap<>();
      witness.forEach((k, v) -> combined.put(k, new ArrayList<>(v)));
      int copy = 0;
      for (String v : values) {
        // Each copy's unconstrained numbers and dates scaled apart (spread): a copy equal to the witness but for
        // the class would leave an average, a minimum or a DISTINCT output as it was, whether it passes or not.
        Solution moved = new Solution(m);
        moved.spread = true;
        moved.shift = ++copy;
        moved.solve(null, Map.of(root, v));
        moved.rows(combined, Set.of());
      }
      (differs ? boundaries : later).add(finish(which + "'s witness and copies with " + describe(m, w, root) + " at "
          + String.join(", ", values), combined));
      for (String v : values) {
        Solution moved = new Solution(m);
        moved.solve(null, Map.of(root, v));
        Map<String, List<List<String>>> only = new LinkedHashMap<>();
        if (moved.rows(only, Set.of())) {
          (differs ? alone : aloneLater).add(finish(which + "'s witness with " + describe(m, w, root) + " at " + v,
              only));
        }
      }
    }
    // The classes a differing expression reads first: where the two queries part.
    boundaries.addAll(later);
    alone.addAll(aloneLater);
    return boundaries;
  }

  /**
   * For every two columns compared with each other ({@code a < b}), the witness and copies of it with {@code a}
   * just below, at and just above {@code b}'s value (one instance): the rows on both sides of the comparison and
   * on its boundary, which {@code <} against {@code <=} or a flipped comparison need.
   */
  private List<Witness> orderBoundaries(Model m, Solution w, Map<String, List<List<String>>> witness,
      String which) {
    List<Witness> out = new ArrayList<>();
    Set<List<Integer>> done = new HashSet<>();
    for (Order o : m.orders) {
      int a = m.find(o.var());
      int b = m.find(o.other());
      if (a == b || !w.members.containsKey(a) || !w.members.containsKey(b) || w.value.get(b) == null
          || w.keyClass(a) || w.keyClass(b) || !done.add(List.of(Math.min(a, b), Math.max(a, b)))) {
        continue;
      }
      ValueType type = w.typeOf(a);
      List<String> around = type.neighbours(w.value.get(b));
      if (around.size() != 2) {
        continue;
      }
      Map<String, List<List<String>>> combined = new LinkedHashMap<>();
      witness.forEach((k, v) -> combined.put(k, new ArrayList<>(v)));
      List<String> values = List.of(around.get(0), w.value.get(b), around.get(1));
      for (String v : values) {
        Solution moved = new Solution(m);
        Map<Integer, String> forced = new HashMap<>();
        forced.put(a, v);
        forced.put(b, w.value.get(b));
        moved.solve(null, forced);
        moved.rows(combined, Set.of());
      }
      out.add(finish(which + "'s witness and copies with " + describe(m, w, a) + " at " + String.join(", ", values)
          + " (around " + describe(m, w, b) + ")", combined));
    }
    return out;
  }

  /**
   * For every comparison of derived values ({@code sum(a) > 2 * sum(b)}, {@code t_w_secyear.year_total /
   * t_w_firstyear.year_total > t_s_secyear.year_total / t_s_firstyear.year_total}, {@code d3.d_date > d1.d_date
   * + 5}), the point where it flips as one class moves (the others at the witness's values): found by stepping the
   * class away from the witness's value until the comparison's outcome changes, then by bisection down to two
   * neighbouring values of the column's type. The witness and copies of it at the last two values on each side
   * (one instance), and a copy alone at each of the two values that meet it and just miss it.
   */
  private List<Witness> exprBoundaries(Model m, Solution w, Map<String, List<List<String>>> witness, String which) {
    List<Witness> out = new ArrayList<>();
    for (Expr e : m.exprs) {
      List<String> now = w.leafValues(e);
      if (now == null) {
        continue;
      }
      boolean h0 = w.holds(e, List.of(now)).get(0);
      for (int root : w.movable(e, Map.of())) {
        int at = w.leafIndex(e, root);
        ValueType type = w.typeOf(root);
        List<String> values = crossing(w, e, now, root, type, h0);
        if (values.isEmpty()) {
          continue;
        }
        Map<Integer, String> fixed = new HashMap<>();
        for (int v : e.leaves()) {
          fixed.put(m.find(v), w.value.get(m.find(v)));
        }
        Map<String, List<List<String>>> combined = new LinkedHashMap<>();
        witness.forEach((k, v) -> combined.put(k, new ArrayList<>(v)));
        for (String v : values) {
          Map<Integer, String> forced = new HashMap<>(fixed);
          forced.put(root, v);
          Solution moved = new Solution(m);
          moved.solve(null, forced);
          moved.rows(combined, Set.of());
        }
        String what = describe(m, w, root);
        out.add(finish(which + "'s witness and copies with " + what + " at " + String.join(", ", values)
            + " (where " + e.description() + " flips; was " + now.get(at) + ")", combined));
        for (String v : values.subList(1, values.size() - 1)) {
          Map<Integer, String> forced = new HashMap<>(fixed);
          forced.put(root, v);
          Solution moved = new Solution(m);
          moved.solve(null, forced);
          Map<String, List<List<String>>> only = new LinkedHashMap<>();
          if (moved.rows(only, Set.of())) {
            out.add(finish(which + "'s witness with " + what + " at " + v + " (where " + e.description()
                + " flips)", only));
          }
        }
        break;
      }
    }
    return out;
  }

  /**
   * The values of {@code root} around where the expression's outcome changes from {@code h0} (at the leaves'
   * values {@code now}): the two on each side nearest the change, ordered from the witness's side; empty when no
   * step away changes it.
   */
  private List<String> crossing(Solution w, Expr e, List<String> now, int root, ValueType type, boolean h0) {
    String start = now.get(w.leafIndex(e, root));
    List<String> candidates = steps(type, start);
    List<List<String>> rows = new ArrayList<>();
    for (String c : candidates) {
      List<String> row = new ArrayList<>(now);
      w.setLeaves(e, row, root, c);
      rows.add(row);
    }
    List<Boolean> ok = w.holds(e, rows);
    int found = ok.indexOf(!h0);
    if (found < 0) {
      return List.of();
    }
    // Bisection over whole steps of the type (one unit of its scale, one day) between the start and the value found.
    java.util.function.LongFunction<String> at = unitSteps(type, start);
    long target = units(type, start, candidates.get(found));
    if (at == null || target == 0) {
      return List.of();
    }
    long lo = 0;
    long hi = target;
    for (int i = 0; i < 64 && Math.abs(hi - lo) > 1; i++) {
      long mid = lo + (hi - lo) / 2;
      String v = at.apply(mid);
      if (v == null) {
        break;
      }
      List<String> row = new ArrayList<>(now);
      w.setLeaves(e, row, root, v);
      if (w.holds(e, List.of(row)).get(0) == h0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    long sign = Long.signum(target);
    List<String> out = new ArrayList<>();
    for (long k : new long[] {lo - sign, lo, hi, hi + sign}) {
      String v = at.apply(k);
      if (v != null && !out.contains(v)) {
        out.add(v);
      }
    }
    return out.size() == 4 ? out : List.of();
  }

  /** Values from {@code v} outwards, nearest first: numbers by 1, 2, 5, 10, ... either way, dates by days to years. */
  private static List<String> steps(ValueType type, String v) {
    List<String> out = new ArrayList<>();
    try {
      if (type.numeric()) {
        BigDecimal b = new BigDecimal(v.strip());
        for (long d : new long[] {1, 2, 5, 10, 100, 1_000, 10_000, 1_000_000}) {
          for (BigDecimal c : List.of(b.add(BigDecimal.valueOf(d)), b.subtract(BigDecimal.valueOf(d)))) {
            String x = type.number(c);
            if (x != null) {
              out.add(x);
            }
          }
        }
      } else if (type.family() == ValueType.Family.DATE) {
        java.time.LocalDate d = java.time.LocalDate.parse(v.strip().substring(0, 10));
        for (long k : new long[] {1, 2, 5, 10, 30, 100, 365, 3_650}) {
          out.add(d.plusDays(k).toString());
          out.add(d.minusDays(k).toString());
        }
      }
    } catch (RuntimeException e) {
      return List.of();
    }
    return out;
  }

  /** The value {@code k} units of the type (its scale's last digit, a day) from {@code v}; null where it fails. */
  private static java.util.function.@Nullable LongFunction<String> unitSteps(ValueType type, String v) {
    try {
      if (type.numeric()) {
        BigDecimal b = new BigDecimal(v.strip());
        BigDecimal unit = unit(type, v);
        return unit == null ? null : k -> type.number(b.add(unit.multiply(BigDecimal.valueOf(k))));
      }
      if (type.family() == ValueType.Family.DATE) {
        java.time.LocalDate d = java.time.LocalDate.parse(v.strip().substring(0, 10));
        return k -> d.plusDays(k).toString();
      }
    } catch (RuntimeException e) {
      return null;
    }
    return null;
  }

  private static @Nullable BigDecimal unit(ValueType type, String v) {
    List<String> n = type.neighbours(v);
    if (n.size() != 2) {
      return null;
    }
    BigDecimal u = new BigDecimal(n.get(1).strip()).subtract(new BigDecimal(v.strip()));
    return u.signum() > 0 ? u : null;
  }

  /** How many units of the type {@code to} lies from {@code from} (0 where that cannot be told). */
  private static long units(ValueType type, String from, String to) {
    try {
      if (type.numeric()) {
        BigDecimal unit = unit(type, from);
        return unit == null ? 0 : new BigDecimal(to.strip()).subtract(new BigDecimal(from.strip()))
            .divideToIntegralValue(unit).longValueExact();
      }
      if (type.family() == ValueType.Family.DATE) {
        return java.time.temporal.ChronoUnit.DAYS.between(java.time.LocalDate.parse(from.strip().substring(0, 10)),
            java.time.LocalDate.parse(to.strip().substring(0, 10)));
      }
    } catch (RuntimeException e) {
      return 0;
    }
    return 0;
  }

  private static String describe(Model m, Solution w, int root) {
    int v = w.members.get(root).get(0);
    int[] x = m.vars.get(v);
    Schema.Table t = m.occTable.get(x[0]);
    return key(t) + "." + t.columns().get(x[1]).name();
  }

  /** The witness's rows and a second solution's rows (with NULLs at {@code nulls}). */
  private static Map<String, List<List<String>>> with(Map<String, List<List<String>>> witness, Solution second,
      Set<Integer> nulls) {
    Map<String, List<List<String>>> rows = new LinkedHashMap<>();
    witness.forEach((k, v) -> rows.put(k, new ArrayList<>(v)));
    second.rows(rows, nulls);
    return rows;
  }

  /**
   * Every table present: tables no occurrence reads are empty, and a row whose foreign key points at no row gets
   * one (the referenced table's base row with the key's values, its other key columns fresh), so that no row is
   * re-pointed or dropped when the instance is made to honour the schema.
   */
  private Witness finish(String what, Map<String, List<List<String>>> rows) {
    Map<String, List<List<String>>> out = new LinkedHashMap<>();
    for (Schema.Table t : tables) {
      out.put(key(t), new ArrayList<>(rows.getOrDefault(key(t), List.of())));
    }
    for (int round = 0; round < 4; round++) {
      boolean changed = false;
      for (Schema.Table t : tables) {
        for (Schema.ForeignKey fk : t.foreignKeys()) {
          Schema.Table parent = table(fk.referencedTable());
          if (parent == null || base.get(key(parent)) == null) {
            continue;
          }
          int[] mine = fk.columns().stream().mapToInt(t::columnIndex).toArray();
          int[] theirs = fk.referencedColumns().stream().mapToInt(parent::columnIndex).toArray();
          List<List<String>> parents = out.get(key(parent));
          for (List<String> row : new ArrayList<>(out.get(key(t)))) {
            List<String> wanted = project(row, mine);
            if (wanted.contains(null) || parents.stream().anyMatch(p -> project(p, theirs).equals(wanted))) {
              continue;
            }
            List<String> p = new ArrayList<>(base.get(key(parent)));
            for (int c = 0; c < p.size(); c++) {
              if (parent.inKey(parent.columns().get(c).name())) {
                String f = ValueType.of(parent.columns().get(c).valueType()).fresh(fresh++);
                p.set(c, f == null ? p.get(c) : f);
              }
            }
            for (int i = 0; i < theirs.length; i++) {
              if (theirs[i] >= 0) {
                p.set(theirs[i], wanted.get(i));
              }
            }
            parents.add(p);
            changed = true;
          }
        }
      }
      if (!changed) {
        break;
      }
    }
    return new Witness(what, out);
  }

}
