package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What two queries say about the data that could tell them apart, read from DuckDB's syntax trees with the
 * schema at hand (so unqualified columns resolve to their tables, through aliases, CTEs, views and derived
 * tables, and correlated references to the outer query): the base tables and columns used; which columns are
 * compared with which (joins, {@code IN} subqueries, set-operation branches, scalar subqueries: such columns
 * share one pool of values, so joins find partners and groups collide); the constants each column is compared
 * with ({@code =}, {@code <}, {@code BETWEEN}, {@code IN}, {@code LIKE}, {@code year(d) = 1995}, a string
 * function of it); differences of two columns and counts of rows compared with a constant; the largest LIMIT; and constructs whose result is not determined by the data (volatile
 * functions, {@code row_number()}).
 *
 * <p>This is the query-driven half of instance generation (after XData's per-predicate test data and
 * VeriEQL's small symbolic domains); {@link InstanceGenerator} turns it into rows. One walk per query, linear
 * in the size of the tree.
 */
final class QueryFacts {
  /** A base table column, lower-cased. */
  record ColumnKey(String table, String column) {
    static ColumnKey of(String table, String column) {
      return new ColumnKey(table.toLowerCase(Locale.ROOT), column.toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
      return table + "." + column;
    }
  }

  /** How a column relates to a constant. */
  enum Relation {
    /** Compared directly ({@code =, <, BETWEEN, IN}): the value and its neighbours matter. */
    COMPARE,
    /** Matched by a LIKE pattern (the constant is the pattern). */
    LIKE,
    /** A function of the column is compared with the constant (e.g. {@code substring(phone, 1, 2) = '13'}). */
    FUNCTION,
    /** The year of the column is compared with the constant. */
    YEAR,
    /**
     * The column is an operand of arithmetic with the constant that vanishes at it ({@code 1 - l_discount}:
     * 1): not a filter, but a row should not take that value, or every result computed from it is 0.
     */
    ARITHMETIC
  }

  /**
   * A constant expression a column is compared with (evaluated later by the engine, in the column's type), and
   * how: {@code =}, {@code <>}, {@code <}, {@code <=}, {@code >}, {@code >=} (column on the left), {@code IN},
   * {@code LIKE} or {@code ?} when unknown.
   */
  record Constant(ColumnKey column, JsonNode expression, Relation relation, String operator) {}

  /** Two columns compared directly ({@code l_shipdate < l_commitdate}), the operator with the left on the left. */
  record ColumnComparison(ColumnKey left, String operator, ColumnKey right) {}

  /**
   * A column compared with a multiple of an aggregate that a scalar subquery computes: {@code probe operator
   * factor * function(aggregated)}, e.g. TPC-H Q17's {@code l_quantity < (SELECT 0.2 * avg(l_quantity) ...)};
   * function is {@code avg}, {@code sum}, {@code min} or {@code max}.
   */
  record AggregateThreshold(ColumnKey probe, String operator, String function, java.math.BigDecimal factor,
      ColumnKey aggregated) {}

  /**
   * The difference of two columns compared with a constant: {@code minuend - subtrahend operator constant}, e.g.
   * TPC-DS q62's {@code ws_ship_date_sk - ws_sold_date_sk <= 30}.
   */
  record ColumnDifference(ColumnKey minuend, ColumnKey subtrahend, String operator, java.math.BigDecimal constant) {}

  /**
   * A count of rows compared with a constant: {@code HAVING count(*) > 2}, or a column a grouped subquery or CTE
   * computes as {@code count(*)} ({@code cnt BETWEEN 15 AND 20}, TPC-DS q34); {@code tables} are the base tables
   * of the counting query's FROM.
   */
  record CountThreshold(Set<String> tables, String operator, int constant) {}

  /**
   * A column joined with another shifted by a constant: {@code column = other + offset} (TPC-DS q2's {@code
   * d_week_seq1 = d_week_seq2 - 53}, a week and the same week a year later).
   */
  record ColumnOffset(ColumnKey column, ColumnKey other, java.math.BigDecimal offset) {}

  /**
   * A condition on the rows of one base table alone: a conjunct of a WHERE or join condition whose every column is
   * a column of that one table in the query's FROM ({@code hd_dep_count / hd_vehicle_count > 1.2}, {@code
   * CASE WHEN x > 0 THEN y / x END > 1}, {@code a + b < 10}), as SQL over the table's bare column names. No
   * subqueries, aggregates, window functions or volatile functions. Targeted instances look for base rows that
   * pass these (the engine evaluates them, so any expression counts, not only comparisons with constants).
   */
  record RowFilter(String table, String sql, Set<String> columns) {}

  private static final Map<String, String> OPERATORS = Map.of("COMPARE_EQUAL", "=", "COMPARE_NOTEQUAL", "<>",
      "COMPARE_LESSTHAN", "<", "COMPARE_GREATERTHAN", ">", "COMPARE_LESSTHANOREQUALTO", "<=",
      "COMPARE_GREATERTHANOREQUALTO", ">=", "COMPARE_NOT_DISTINCT_FROM", "=", "COMPARE_DISTINCT_FROM", "<>");
  private static final Map<String, String> MIRRORED = Map.of("<", ">", ">", "<", "<=", ">=", ">=", "<=");

  private static final Set<String> VOLATILE = Set.of("random", "rand", "uuid", "gen_random_uuid", "uuidv4",
      "uuidv7", "now", "current_timestamp", "get_current_timestamp", "current_date", "current_time",
      "today", "transaction_timestamp", "statement_timestamp", "clock_timestamp", "setseed", "nextval",
      "currval", "localtime", "localtimestamp");
  /** Window functions whose value depends on how ties of the window's order are broken. */
  private static final Set<String> TIE_DEPENDENT = Set.of("row_number", "first_value", "last_value", "nth_value",
      "lead", "lag", "ntile");
  /** Aggregates whose value depends on the order rows arrive in (unless the aggregate orders them). */
  private static final Set<String> ORDER_DEPENDENT = Set.of("first", "last", "any_value", "arbitrary",
      "string_agg", "group_concat", "listagg", "list", "array_agg", "histogram");
  private static final Set<String> LIKE = Set.of("~~", "!~~", "~~*", "!~~*", "like_escape", "not_like_escape",
      "ilike_escape", "not_ilike_escape", "glob");
  private static final Set<String> COMPARISONS = Set.of("COMPARE_EQUAL", "COMPARE_NOTEQUAL", "COMPARE_LESSTHAN",
      "COMPARE_GREATERTHAN", "COMPARE_LESSTHANOREQUALTO", "COMPARE_GREATERTHANOREQUALTO",
      "COMPARE_DISTINCT_FROM", "COMPARE_NOT_DISTINCT_FROM");
  private static final Set<String> KEY_PRESERVING_AGGREGATES = Set.of("min", "max", "avg", "sum", "first", "last",
      "any_value", "arbitrary", "arg_min", "arg_max", "median", "mode", "quantile", "quantile_cont",
      "quantile_disc", "fsum", "sumkahan", "kahan_sum", "bit_and", "bit_or");

  private final Schema schema;
  private final SqlParser parser;
  private final Set<String> tables = new LinkedHashSet<>();
  private final Set<String> repeated = new LinkedHashSet<>();
  private final Map<String, Integer> occurrences = new HashMap<>();
  private final Set<ColumnKey> columns = new LinkedHashSet<>();
  private final Map<ColumnKey, ColumnKey> parent = new HashMap<>();
  private final List<Constant> constants = new ArrayList<>();
  private final List<ColumnComparison> columnComparisons = new ArrayList<>();
  private final Set<AggregateThreshold> thresholds = new LinkedHashSet<>();
  private final Set<ColumnDifference> differences = new LinkedHashSet<>();
  private final Set<CountThreshold> countThresholds = new LinkedHashSet<>();
  private final Set<ColumnOffset> offsets = new LinkedHashSet<>();
  private final Set<String> nondeterministic = new LinkedHashSet<>();
  private final Set<String> unknownRelations = new LinkedHashSet<>();
  private final List<List<List<Integer>>> orBlocks = new ArrayList<>();
  private final Set<RowFilter> rowFilters = new LinkedHashSet<>();
  private long largestLimit;
  private final Set<java.math.BigDecimal> fractions = new java.util.TreeSet<>();
  private int viewDepth;
  private final List<JsonNode> statements = new ArrayList<>();

  QueryFacts(Schema schema, SqlParser parser) {
    this.schema = schema;
    this.parser = parser;
  }

  /** Adds what one query (its statement tree, as the parser returns it) says. */
  void add(JsonNode statement) {
    statements.add(statement);
    Trees.visit(statement, n -> {
      if ("CONSTANT".equals(n.path("class").asText())) {
        try {
          java.math.BigDecimal v = new java.math.BigDecimal(constantText(n).strip());
          if (v.signum() > 0 && v.compareTo(java.math.BigDecimal.ONE) < 0) {
            fractions.add(v.stripTrailingZeros());
          }
        } catch (NumberFormatException e) {
          // not a number
        }
      }
    });
    occurrences.clear();
    query(statement.path("node"), null, new HashMap<>());
    occurrences.forEach((table, n) -> {
      if (n > 1) {
        repeated.add(table);
      }
    });
  }

  Set<String> tables() {
    return tables;
  }

  /** The statements added, in order (the checker's left query first). */
  List<JsonNode> statements() {
    return statements;
  }

  Schema schema() {
    return schema;
  }

  SqlParser parser() {
    return parser;
  }

  /**
   * The base tables one query reads more than once (a self-join such as TPC-H Q7's {@code nation n1, nation n2},
   * or the table again in a subquery, as Q17's correlated {@code lineitem}): two different rows of such a table
   * can meet in one result row.
   */
  Set<String> repeatedTables() {
    return repeated;
  }

  /**
   * The numeric constants strictly between 0 and 1 written anywhere in the queries ({@code abs(sum_sales -
   * avg_monthly_sales) / avg_monthly_sales > 0.1}), smallest first.
   */
  Set<java.math.BigDecimal> fractions() {
    return fractions;
  }

  Set<ColumnKey> columns() {
    return columns;
  }

  List<Constant> constants() {
    return constants;
  }

  /** Pairs of columns compared directly with each other (each pair in both orientations). */
  List<ColumnComparison> columnComparisons() {
    return columnComparisons;
  }

  /** Columns compared with a multiple of an aggregate computed by a scalar subquery. */
  Set<AggregateThreshold> aggregateThresholds() {
    return thresholds;
  }

  /** Counts of rows compared with a constant. */
  Set<CountThreshold> countThresholds() {
    return countThresholds;
  }

  /** Differences of two columns compared with a constant. */
  Set<ColumnDifference> columnDifferences() {
    return differences;
  }

  /** Columns equal to another column plus a constant. */
  Set<ColumnOffset> columnOffsets() {
    return offsets;
  }

  /**
   * The OR conditions written in the queries: for each, its disjuncts, each as the indices (into {@link
   * #constants()}) of the constants compared inside it. Targeted instances make rows that satisfy exactly one
   * disjunct.
   */
  List<List<List<Integer>>> orBlocks() {
    return orBlocks;
  }

  /** Conditions on the rows of one table alone, as written in the queries' WHERE and join conditions. */
  Set<RowFilter> rowFilters() {
    return rowFilters;
  }

  /** Why the queries' results may not be determined by the data (empty when they are). */
  Set<String> nondeterminism() {
    return nondeterministic;
  }

  /** Relations named in FROM that are neither tables, views nor CTEs of the schema. */
  Set<String> unknownRelations() {
    return unknownRelations;
  }

  /** The largest LIMIT + OFFSET written anywhere (0 when none). */
  long largestLimit() {
    return largestLimit;
  }

  /** The representative of a column's class (columns compared with each other share one). */
  ColumnKey classOf(ColumnKey key) {
    ColumnKey p = parent.getOrDefault(key, key);
    if (p.equals(key)) {
      return key;
    }
    ColumnKey root = classOf(p);
    parent.put(key, root);
    return root;
  }

  private void union(ColumnKey a, ColumnKey b) {
    if (a == null || b == null) {
      return;
    }
    Optional<ValueType> ta = typeOf(a);
    Optional<ValueType> tb = typeOf(b);
    if (ta.isEmpty() || tb.isEmpty() || !ta.get().comparableWith(tb.get())) {
      return;
    }
    ColumnKey ra = classOf(a);
    ColumnKey rb = classOf(b);
    if (!ra.equals(rb)) {
      parent.put(ra, rb);
    }
  }

  Optional<ValueType> typeOf(ColumnKey key) {
    return schema.table(key.table()).flatMap(t -> t.column(key.column())).map(c -> ValueType.of(c.valueType()));
  }

  // ---- scopes -------------------------------------------------------------------------------------------

  /**
   * One output column of a query or relation: its name, the base column its values come from, if any, and, for a
   * {@code count(*)} or {@code count(col)}, the base tables whose rows it counts (else null).
   */
  private record Output(String name, ColumnKey key, @Nullable Set<String> counted) {
    Output(String name, ColumnKey key) {
      this(name, key, null);
    }
  }

  /** A relation in a FROM clause: a base table, or something with known output columns. */
  private record Source(@Nullable String table, @Nullable List<Output> outputs) {
    List<Output> columns(Schema schema) {
      if (table != null) {
        List<Output> out = new ArrayList<>();
        schema.table(table).ifPresent(t -> t.columns().forEach(c -> out.add(
            new Output(c.name().toLowerCase(Locale.ROOT), ColumnKey.of(t.name(), c.name())))));
        return out;
      }
      return outputs;
    }

    Optional<Output> column(Schema schema, String name) {
      if (table != null) {
        return schema.table(table).flatMap(t -> t.column(name))
            .map(c -> new Output(c.name().toLowerCase(Locale.ROOT), ColumnKey.of(table, c.name())));
      }
      Output found = null;
      for (Output o : outputs) {
        if (o.name().equalsIgnoreCase(name)) {
          if (found != null) {
            return Optional.empty();
          }
          found = o;
        }
      }
      return Optional.ofNullable(found);
    }
  }

  private static final class Scope {
    final @Nullable Scope parent;
    final Map<String, Source> sources = new LinkedHashMap<>();
    final Map<String, ColumnKey> selectAliases = new HashMap<>();
    /** The columns the SELECT groups by (lower-case names), when it groups by plain columns only: each one row. */
    Set<String> groupedBy = Set.of();

    Scope(@Nullable Scope parent) {
      this.parent = parent;
    }
  }

  // ---- queries ------------------------------------------------------------------------------------------

  private List<Output> query(JsonNode node, @Nullable Scope outer, Map<String, List<Output>> ctesOuter) {
    if (node == null || !node.isObject()) {
      return List.of();
    }
    Map<String, List<Output>> ctes = new HashMap<>(ctesOuter);
    for (JsonNode entry : node.path("cte_map").path("map")) {
      String name = entry.path("key").asText("").toLowerCase(Locale.ROOT);
      JsonNode value = entry.path("value");
      JsonNode q = value.has("query_node") ? value.get("query_node") : value.path("query").path("node");
      ctes.put(name, List.of()); // visible to itself (recursive CTEs) with no known columns yet
      List<Output> outs = query(q, outer, ctes);
      List<String> aliases = new ArrayList<>();
      value.path("aliases").forEach(a -> aliases.add(a.asText()));
      ctes.put(name, renamed(outs, aliases));
    }
    String type = node.path("type").asText("");
    switch (type) {
      case "SELECT_NODE" -> {
        return select(node, outer, ctes);
      }
      case "SET_OPERATION_NODE" -> {
        List<JsonNode> children = Trees.setOperands(node);
        List<List<Output>> outs = new ArrayList<>();
        for (JsonNode child : children) {
          outs.add(query(child, outer, ctes));
        }
        List<Output> first = outs.isEmpty() ? List.of() : outs.get(0);
        List<Output> merged = new ArrayList<>();
        for (int i = 0; i < first.size(); i++) {
          ColumnKey key = first.get(i).key();
          for (List<Output> o : outs) {
            if (i < o.size()) {
              union(key, o.get(i).key());
              key = key != null ? key : o.get(i).key();
            }
          }
          merged.add(new Output(first.get(i).name(), key));
        }
        Scope scope = new Scope(outer);
        scope.sources.put("", new Source(null, merged));
        modifiers(node, scope, ctes);
        return merged;
      }
      case "RECURSIVE_CTE_NODE", "CTE_NODE" -> {
        List<Output> left = query(node.path("left"), outer, ctes);
        query(node.path("right"), outer, ctes);
        List<Output> q = query(node.path("query"), outer, ctes);
        query(node.path("child"), outer, ctes);
        return left.isEmpty() ? q : left;
      }
      default -> {
        return List.of();
      }
    }
  }

  private static List<Output> renamed(List<Output> outs, List<String> aliases) {
    if (aliases.isEmpty()) {
      return outs;
    }
    List<Output> out = new ArrayList<>();
    for (int i = 0; i < outs.size(); i++) {
      out.add(i < aliases.size() ? new Output(aliases.get(i).toLowerCase(Locale.ROOT), outs.get(i).key(),
          outs.get(i).counted()) : outs.get(i));
    }
    return out;
  }

  private List<Output> select(JsonNode node, @Nullable Scope outer, Map<String, List<Output>> ctes) {
    Scope scope = new Scope(outer);
    from(node.path("from_table"), scope, ctes);
    scope.groupedBy = groupedColumns(node);
    List<Output> outputs = new ArrayList<>();
    for (JsonNode item : node.path("select_list")) {
      String cls = item.path("class").asText("");
      if (cls.equals("STAR") && !item.path("columns").asBoolean(false)) {
        String relation = item.path("relation_name").asText("").toLowerCase(Locale.ROOT);
        Set<String> excluded = new java.util.HashSet<>();
        item.path("exclude_list").forEach(e -> excluded.add(e.isTextual() ? e.asText().toLowerCase(Locale.ROOT)
            : e.path("column_names").path(e.path("column_names").size() - 1).asText().toLowerCase(Locale.ROOT)));
        for (Map.Entry<String, Source> s : scope.sources.entrySet()) {
          if (relation.isEmpty() || s.getKey().equals(relation)) {
            for (Output o : s.getValue().columns(schema)) {
              if (!excluded.contains(o.name())) {
                outputs.add(o);
              }
            }
          }
        }
        continue;
      }
      expression(item, scope, ctes);
      ColumnKey key = keyOf(item, scope);
      String alias = item.path("alias").asText("");
      String name = !alias.isEmpty() ? alias
          : cls.equals("COLUMN_REF") ? last(item.path("column_names")) : "";
      outputs.add(new Output(name.toLowerCase(Locale.ROOT), key, counted(item, scope)));
      if (!alias.isEmpty()) {
        scope.selectAliases.put(alias.toLowerCase(Locale.ROOT), key);
      }
    }
    expression(node.path("where_clause"), scope, ctes);
    rowFilters(node.path("where_clause"), scope);
    for (JsonNode g : node.path("group_expressions")) {
      expression(g, scope, ctes);
    }
    expression(node.path("having"), scope, ctes);
    expression(node.path("qualify"), scope, ctes);
    modifiers(node, scope, ctes);
    return outputs;
  }

  private void modifiers(JsonNode node, Scope scope, Map<String, List<Output>> ctes) {
    for (JsonNode m : node.path("modifiers")) {
      String type = m.path("type").asText("");
      if (type.equals("ORDER_MODIFIER")) {
        for (JsonNode o : m.path("orders")) {
          expression(o.path("expression"), scope, ctes);
        }
      } else if (type.equals("LIMIT_MODIFIER")) {
        long limit = constantLong(m.path("limit"));
        long offset = constantLong(m.path("offset"));
        largestLimit = Math.max(largestLimit, Math.max(0, limit) + Math.max(0, offset));
        expression(m.path("limit"), scope, ctes);
        expression(m.path("offset"), scope, ctes);
      } else if (type.equals("DISTINCT_MODIFIER")) {
        for (JsonNode d : m.path("distinct_on_targets")) {
          expression(d, scope, ctes);
        }
        if (!m.path("distinct_on_targets").isEmpty()) {
          nondeterministic.add("DISTINCT ON keeps an arbitrary row of each group unless ORDER BY decides");
        }
      }
    }
  }

  static long constantLong(JsonNode e) {
    if (e == null || !e.isObject() || !"CONSTANT".equals(e.path("class").asText())) {
      return -1;
    }
    String text = e.path("literal").isObject() ? e.path("literal").path("text").asText("")
        : e.path("value").path("value").asText("");
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException ex) {
      return -1;
    }
  }

  private void from(JsonNode ref, Scope scope, Map<String, List<Output>> ctes) {
    if (ref == null || !ref.isObject()) {
      return;
    }
    String type = ref.path("type").asText("");
    String alias = ref.path("alias").asText("").toLowerCase(Locale.ROOT);
    List<String> columnAliases = new ArrayList<>();
    ref.path("column_name_alias").forEach(a -> columnAliases.add(a.asText()));
    switch (type) {
      case "BASE_TABLE" -> {
        String name = ref.path("table_name").asText("");
        String lower = name.toLowerCase(Locale.ROOT);
        String key = alias.isEmpty() ? lower : alias;
        boolean unqualified = ref.path("schema_name").asText("").isEmpty();
        if (unqualified && ctes.containsKey(lower)) {
          scope.sources.put(key, new Source(null, renamed(ctes.get(lower), columnAliases)));
        } else if (schema.table(name).isPresent()) {
          tables.add(schema.table(name).get().name().toLowerCase(Locale.ROOT));
          occurrences.merge(schema.table(name).get().name().toLowerCase(Locale.ROOT), 1, Integer::sum);
          Source base = new Source(schema.table(name).get().name().toLowerCase(Locale.ROOT), null);
          scope.sources.put(key, columnAliases.isEmpty() ? base
              : new Source(null, renamed(base.columns(schema), columnAliases)));
        } else if (schema.view(name).isPresent() && viewDepth < 16) {
          viewDepth++;
          try {
            JsonNode statement = parser.parse(schema.view(name).get().query()).statement(0);
            List<Output> outs = query(statement.path("node"), null, new HashMap<>());
            scope.sources.put(key, new Source(null, renamed(outs, columnAliases)));
          } catch (RuntimeException e) {
            scope.sources.put(key, new Source(null, List.of()));
          } finally {
            viewDepth--;
          }
        } else {
          unknownRelations.add(name);
          scope.sources.put(key, new Source(null, List.of()));
        }
      }
      case "JOIN" -> {
        from(ref.path("left"), scope, ctes);
        from(ref.path("right"), scope, ctes);
        expression(ref.path("condition"), scope, ctes);
        rowFilters(ref.path("condition"), scope);
        for (JsonNode using : ref.path("using_columns")) {
          List<ColumnKey> keys = new ArrayList<>();
          for (Source s : scope.sources.values()) {
            s.column(schema, using.asText()).map(Output::key).ifPresent(keys::add);
          }
          for (int i = 1; i < keys.size(); i++) {
            union(keys.get(0), keys.get(i));
          }
          keys.forEach(this::use);
        }
        if ("NATURAL".equals(ref.path("ref_type").asText(""))) {
          Map<String, List<ColumnKey>> byName = new HashMap<>();
          for (Source s : scope.sources.values()) {
            for (Output o : s.columns(schema)) {
              if (o.key() != null) {
                byName.computeIfAbsent(o.name(), k -> new ArrayList<>()).add(o.key());
              }
            }
          }
          byName.values().forEach(keys -> {
            for (int i = 1; i < keys.size(); i++) {
              union(keys.get(0), keys.get(i));
            }
          });
        }
      }
      case "SUBQUERY" -> {
        List<Output> outs = query(ref.path("subquery").path("node"), scope, ctes);
        scope.sources.put(alias.isEmpty() ? "__subquery" + scope.sources.size() : alias,
            new Source(null, renamed(outs, columnAliases)));
      }
      case "TABLE_FUNCTION" -> {
        expression(ref.path("function"), scope, ctes);
        scope.sources.put(alias.isEmpty() ? "__function" + scope.sources.size() : alias, new Source(null, List.of()));
      }
      default -> {
        // EMPTY (no FROM), VALUES lists, PIVOT: nothing to draw values for.
        ref.fields().forEachRemaining(f -> {
          if (f.getValue().isObject() && f.getValue().has("class")) {
            expression(f.getValue(), scope, ctes);
          }
        });
      }
    }
  }

  // ---- row filters --------------------------------------------------------------------------------------

  /** Records the conjuncts of {@code condition} that read the columns of one base table of this scope only. */
  private void rowFilters(JsonNode condition, Scope scope) {
    for (JsonNode conjunct : dev.lakerewrite.core.sql.Trees.conjuncts(condition)) {
      if (!conjunct.isObject()) {
        continue;
      }
      String[] table = {null};
      Set<String> columnsRead = new LinkedHashSet<>();
      boolean[] ok = {true};
      JsonNode copy = conjunct.deepCopy();
      visitExpressions(copy, n -> {
        String cls = n.path("class").asText("");
        if (cls.equals("SUBQUERY") || cls.equals("WINDOW") || cls.equals("PARAMETER") || cls.equals("STAR")
            || cls.equals("LAMBDA") || cls.equals("AGGREGATE")) {
          ok[0] = false;
        } else if (cls.equals("FUNCTION")) {
          String fn = n.path("function_name").asText("").toLowerCase(Locale.ROOT);
          if (VOLATILE.contains(fn) || KEY_PRESERVING_AGGREGATES.contains(fn) || fn.equals("count")) {
            ok[0] = false;
          }
        } else if (cls.equals("COLUMN_REF")) {
          ColumnKey key = baseColumn(n, scope);
          if (key == null || (table[0] != null && !table[0].equals(key.table()))) {
            ok[0] = false;
            return;
          }
          table[0] = key.table();
          columnsRead.add(key.column());
          com.fasterxml.jackson.databind.node.ArrayNode names = ((com.fasterxml.jackson.databind.node.ObjectNode) n)
              .putArray("column_names");
          names.add(key.column());
        }
      });
      if (ok[0] && table[0] != null) {
        try {
          rowFilters.add(new RowFilter(table[0], parser.renderExpression(copy), Set.copyOf(columnsRead)));
        } catch (RuntimeException e) {
          // Not renderable: no such filter.
        }
      }
    }
  }

  /** Calls {@code visit} on every expression node under {@code e} (itself included). */
  private static void visitExpressions(JsonNode e, java.util.function.Consumer<JsonNode> visit) {
    if (e == null || !e.isContainerNode()) {
      return;
    }
    if (e.isObject() && e.has("class")) {
      visit.accept(e);
    }
    for (JsonNode child : e) {
      visitExpressions(child, visit);
    }
  }

  /**
   * The base column a column reference names when it names a column of a base table in FROM (of this scope, or,
   * correlated, of an enclosing one: then null, as such a condition joins two rows), else null.
   */
  private @Nullable ColumnKey baseColumn(JsonNode ref, Scope scope) {
    List<String> parts = Trees.columnNames(ref);
    if (parts.isEmpty() || parts.size() > 2) {
      return null;
    }
    String column = parts.get(parts.size() - 1);
    if (parts.size() == 2) {
      Source src = scope.sources.get(parts.get(0).toLowerCase(Locale.ROOT));
      return src == null || src.table() == null ? null : src.column(schema, column).map(Output::key).orElse(null);
    }
    Source found = null;
    for (Source src : scope.sources.values()) {
      if (src.column(schema, column).isPresent()) {
        if (found != null) {
          return null;
        }
        found = src;
      }
    }
    return found == null || found.table() == null ? null : found.column(schema, column).map(Output::key)
        .orElse(null);
  }

  // ---- expressions --------------------------------------------------------------------------------------

  private void use(ColumnKey key) {
    if (key != null) {
      columns.add(key);
    }
  }

  private @Nullable ColumnKey resolve(JsonNode ref, Scope scope) {
    List<String> parts = Trees.columnNames(ref);
    if (parts.isEmpty()) {
      return null;
    }
    String column = parts.get(parts.size() - 1);
    for (Scope s = scope; s != null; s = s.parent) {
      if (parts.size() >= 2) {
        Source src = s.sources.get(parts.get(parts.size() - 2).toLowerCase(Locale.ROOT));
        if (src != null) {
          return src.column(schema, column).map(Output::key).orElse(null);
        }
        continue;
      }
      List<Output> found = new ArrayList<>();
      for (Source src : s.sources.values()) {
        src.column(schema, column).ifPresent(found::add);
      }
      if (found.size() == 1) {
        return found.get(0).key();
      }
      if (found.size() > 1) {
        return null;
      }
      if (s.selectAliases.containsKey(column.toLowerCase(Locale.ROOT))) {
        return s.selectAliases.get(column.toLowerCase(Locale.ROOT));
      }
    }
    return null;
  }

  /** The base column whose values an expression's values come from (through casts, MIN/MAX/..., +constant). */
  private @Nullable ColumnKey keyOf(JsonNode e, Scope scope) {
    for (int depth = 0; depth < 12 && e != null && e.isObject(); depth++) {
      String cls = e.path("class").asText("");
      switch (cls) {
        case "COLUMN_REF" -> {
          return resolve(e, scope);
        }
        case "CAST", "COLLATE" -> e = e.path("child");
        case "FUNCTION" -> {
          String fn = e.path("function_name").asText("").toLowerCase(Locale.ROOT);
          List<JsonNode> args = arguments(e);
          if (KEY_PRESERVING_AGGREGATES.contains(fn) && !args.isEmpty()) {
            e = args.get(0);
          } else if (Set.of("+", "-", "*", "coalesce", "ifnull", "abs", "round", "trunc", "floor", "ceil")
              .contains(fn)) {
            JsonNode only = null;
            for (JsonNode a : args) {
              if (!isConstant(a)) {
                if (only != null) {
                  return null;
                }
                only = a;
              }
            }
            e = only;
          } else {
            return null;
          }
        }
        default -> {
          return null;
        }
      }
    }
    return null;
  }

  /** The column an expression is a (string/date) function of, directly or through casts, and how. */
  private record Wrapped(ColumnKey key, Relation relation) {}

  private @Nullable Wrapped wrapped(JsonNode e, Scope scope) {
    Relation relation = Relation.COMPARE;
    for (int depth = 0; depth < 8 && e != null && e.isObject(); depth++) {
      String cls = e.path("class").asText("");
      switch (cls) {
        case "COLUMN_REF" -> {
          ColumnKey k = resolve(e, scope);
          return k == null ? null : new Wrapped(k, relation);
        }
        case "CAST", "COLLATE" -> e = e.path("child");
        case "FUNCTION" -> {
          String fn = e.path("function_name").asText("").toLowerCase(Locale.ROOT);
          List<JsonNode> args = arguments(e);
          if ((fn.equals("date_part") || fn.equals("datepart") || fn.equals("extract")) && args.size() == 2
              && isConstant(args.get(0)) && constantText(args.get(0)).toLowerCase(Locale.ROOT).startsWith("year")) {
            relation = Relation.YEAR;
            e = args.get(1);
            continue;
          }
          if (fn.equals("year") && args.size() == 1) {
            relation = Relation.YEAR;
            e = args.get(0);
            continue;
          }
          JsonNode only = null;
          for (JsonNode a : args) {
            if (!isConstant(a)) {
              if (only != null) {
                return null;
              }
              only = a;
            }
          }
          if (only == null) {
            return null;
          }
          if (!Set.of("+", "-", "*", "/", "abs", "round", "trunc", "floor", "ceil").contains(fn)
              && relation == Relation.COMPARE) {
            relation = Relation.FUNCTION;
          }
          e = only;
        }
        default -> {
          return null;
        }
      }
    }
    return null;
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

  /** Whether an expression is a constant: no column, subquery, aggregate, parameter or volatile function. */
  static boolean isConstant(JsonNode e) {
    boolean[] constant = {true};
    Trees.visit(e, n -> {
      String cls = n.path("class").asText("");
      if (cls.equals("COLUMN_REF") || cls.equals("SUBQUERY") || cls.equals("PARAMETER") || cls.equals("STAR")
          || cls.equals("WINDOW") || cls.equals("LAMBDA") || cls.equals("LAMBDA_REF")) {
        constant[0] = false;
      } else if (cls.equals("FUNCTION")) {
        String fn = n.path("function_name").asText("").toLowerCase(Locale.ROOT);
        if (VOLATILE.contains(fn) || SqlAnalyzer.isAggregate(fn)) {
          constant[0] = false;
        }
      }
    });
    return constant[0] && e != null && e.isObject() && e.has("class");
  }

  static List<JsonNode> arguments(JsonNode function) {
    List<JsonNode> out = new ArrayList<>();
    if (function.has("arguments")) {
      for (JsonNode a : function.get("arguments")) {
        out.add(a.has("expression") ? a.get("expression") : a);
      }
    } else {
      function.path("children").forEach(out::add);
    }
    return out;
  }

  private void constant(ColumnKey key, JsonNode expression, Relation relation, String operator) {
    if (key != null) {
      constants.add(new Constant(key, expression, relation, operator));
    }
  }

  /** {@code column op other}: unions with another column or scalar subquery, or records a constant. */
  private void compare(JsonNode side, JsonNode other, String operator, Scope scope, Map<String, List<Output>> ctes) {
    if (MIRRORED.containsKey(operator) || operator.equals("=") || operator.equals("<>")) {
      difference(side, other, operator, scope);
      countThreshold(side, other, operator, scope);
    }
    if (operator.equals("=")) {
      offset(side, other, scope);
    }
    Wrapped w = wrapped(side, scope);
    if (w == null) {
      return;
    }
    if (isConstant(other)) {
      constant(w.key(), other, w.relation(), operator);
      return;
    }
    if (w.relation() == Relation.FUNCTION && operator.equals("=")) {
      // substr(s_zip, 1, 2) = substr(ca_zip, 1, 2): equal cells meet it, as they meet a join.
      Wrapped o = wrapped(other, scope);
      if (o != null && o.relation() == Relation.FUNCTION && wrapper(side).equals(wrapper(other))) {
        union(w.key(), o.key());
      }
      return;
    }
    if (w.relation() != Relation.COMPARE) {
      return;
    }
    if ("SUBQUERY".equals(other.path("class").asText()) && "SCALAR".equals(other.path("subquery_type").asText())) {
      ColumnKey output = firstOutput(other, scope, ctes);
      union(w.key(), output);
      threshold(w.key(), operator, other.path("subquery").path("node"), output);
      return;
    }
    Wrapped o = wrapped(other, scope);
    if (o != null && o.relation() == Relation.COMPARE && !operator.equals("?") && !operator.equals("IN")
        && !operator.equals("NOT IN")) {
      columnComparisons.add(new ColumnComparison(w.key(), operator, o.key()));
    }
    union(w.key(), keyOf(other, scope));
  }

  /** An expression with its column references blanked and positions dropped: the function around the column. */
  static JsonNode wrapper(JsonNode e) {
    JsonNode copy = MutationSearch.unqualified(e);
    Trees.visit(copy, n -> {
      if ("COLUMN_REF".equals(n.path("class").asText())) {
        ((com.fasterxml.jackson.databind.node.ObjectNode) n).remove("column_names");
      }
    });
    return copy;
  }

  /** Whether an expression is {@code count(*)} or {@code count(col)} (not {@code count(DISTINCT col)}). */
  private static boolean isCount(JsonNode e) {
    String fn = e.path("function_name").asText("").toLowerCase(Locale.ROOT);
    return "FUNCTION".equals(e.path("class").asText()) && (fn.equals("count_star") || fn.equals("count"))
        && !e.path("distinct").asBoolean(false);
  }

  /** The base tables a count counts: of the scope for {@code count(*)} / {@code count(col)}, null otherwise. */
  private @Nullable Set<String> counted(JsonNode e, Scope scope) {
    if (!isCount(e)) {
      return null;
    }
    Set<String> out = new LinkedHashSet<>();
    for (Source s : scope.sources.values()) {
      if (s.table() != null) {
        out.add(s.table());
      }
    }
    return out.isEmpty() ? null : out;
  }

  /** Records {@code count operator constant}: a count in this scope, or a column that is one, and a small integer. */
  private void countThreshold(JsonNode side, JsonNode other, String operator, Scope scope) {
    if (!isConstant(other)) {
      return;
    }
    Set<String> counted = counted(side, scope);
    if (counted == null && "COLUMN_REF".equals(side.path("class").asText())) {
      counted = countedColumn(side, scope);
    }
    if (counted == null && "SUBQUERY".equals(side.path("class").asText())
        && "SCALAR".equals(side.path("subquery_type").asText())) {
      counted = subqueryCount(side.path("subquery").path("node"));
    }
    if (counted == null) {
      return;
    }
    try {
      java.math.BigDecimal k = new java.math.BigDecimal(constantText(other).strip());
      if (k.signum() >= 0 && k.compareTo(java.math.BigDecimal.valueOf(COUNT_CAP)) <= 0 && k.scale() <= 0) {
        countThresholds.add(new CountThreshold(counted, operator, k.intValueExact()));
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // Not a small whole number.
    }
  }

  /** Counts larger than this get no group of their size. */
  static final int COUNT_CAP = 500;

  /**
   * The base tables a scalar subquery counts, when it is {@code SELECT count(*) FROM ...} without grouping ({@code
   * (SELECT count(*) FROM store_sales WHERE ss_quantity BETWEEN 1 AND 20) > 74129}); null otherwise.
   */
  private static @Nullable Set<String> subqueryCount(JsonNode node) {
    if (!"SELECT_NODE".equals(node.path("type").asText()) || node.path("select_list").size() != 1
        || node.path("group_expressions").size() > 0) {
      return null;
    }
    if (!isCount(node.path("select_list").get(0))) {
      return null;
    }
    Set<String> tables = new LinkedHashSet<>();
    for (JsonNode from : Trees.fromItems(node.path("from_table"))) {
      if ("BASE_TABLE".equals(from.path("type").asText()) && from.has("table_name")) {
        tables.add(from.path("table_name").asText().toLowerCase(Locale.ROOT));
      }
    }
    return tables.isEmpty() ? null : tables;
  }

  /** The tables a column counts, when it names a count output of a relation in scope (null otherwise). */
  private @Nullable Set<String> countedColumn(JsonNode ref, Scope scope) {
    List<String> parts = Trees.columnNames(ref);
    if (parts.isEmpty()) {
      return null;
    }
    String column = parts.get(parts.size() - 1);
    for (Scope s = scope; s != null; s = s.parent) {
      List<Output> found = new ArrayList<>();
      for (Map.Entry<String, Source> src : s.sources.entrySet()) {
        if (src.getValue().table() != null || parts.size() >= 2 && !src.getKey().equals(
            parts.get(parts.size() - 2).toLowerCase(Locale.ROOT))) {
          continue;
        }
        src.getValue().column(schema, column).ifPresent(found::add);
      }
      if (found.size() == 1) {
        return found.get(0).counted();
      }
      if (found.size() > 1) {
        return null;
      }
    }
    return null;
  }

  /** Records {@code column = other + k} (or {@code - k}, {@code k + other}): both plain columns, k a number. */
  private void offset(JsonNode side, JsonNode other, Scope scope) {
    if (!"FUNCTION".equals(other.path("class").asText())) {
      return;
    }
    String fn = other.path("function_name").asText("");
    List<JsonNode> args = arguments(other);
    if (!(fn.equals("+") || fn.equals("-")) || args.size() != 2) {
      return;
    }
    boolean constantFirst = fn.equals("+") && isConstant(args.get(0)) && !isConstant(args.get(1));
    if (!constantFirst && !(isConstant(args.get(1)) && !isConstant(args.get(0)))) {
      return;
    }
    ColumnKey a = plainColumn(side, scope);
    ColumnKey b = plainColumn(args.get(constantFirst ? 1 : 0), scope);
    if (a == null || b == null) {
      return;
    }
    try {
      java.math.BigDecimal k = new java.math.BigDecimal(constantText(args.get(constantFirst ? 0 : 1)).strip());
      if (k.signum() != 0) {
        offsets.add(new ColumnOffset(a, b, fn.equals("-") ? k.negate() : k));
      }
    } catch (NumberFormatException e) {
      // Not a plain number (a date, an interval): no offset.
    }
  }

  /** The column a reference names (through casts), null for any other expression. */
  private @Nullable ColumnKey plainColumn(JsonNode e, Scope scope) {
    while (e != null && ("CAST".equals(e.path("class").asText()) || "COLLATE".equals(e.path("class").asText()))) {
      e = e.path("child");
    }
    return e != null && "COLUMN_REF".equals(e.path("class").asText()) ? resolve(e, scope) : null;
  }

  /** Records {@code a - b operator constant} when a and b are columns (through casts) and the constant a number. */
  private void difference(JsonNode side, JsonNode other, String operator, Scope scope) {
    if (!isConstant(other) || !"FUNCTION".equals(side.path("class").asText())
        || !"-".equals(side.path("function_name").asText())) {
      return;
    }
    List<JsonNode> args = arguments(side);
    if (args.size() != 2 || isConstant(args.get(0)) || isConstant(args.get(1))) {
      return;
    }
    Wrapped a = wrapped(args.get(0), scope);
    Wrapped b = wrapped(args.get(1), scope);
    if (a == null || b == null || a.relation() != Relation.COMPARE || b.relation() != Relation.COMPARE
        || a.key().equals(b.key())) {
      return;
    }
    try {
      differences.add(new ColumnDifference(a.key(), b.key(), operator,
          new java.math.BigDecimal(constantText(other).strip())));
    } catch (NumberFormatException e) {
      // Not a plain number (a date, an interval): no difference boundaries.
    }
  }

  /**
   * Records {@code probe operator factor * agg(column)} when the subquery's one output is a constant multiple of
   * an average, sum, minimum or maximum (of the column {@code output}, resolved in the subquery's scope).
   */
  private void threshold(ColumnKey probe, String operator, JsonNode node, @Nullable ColumnKey output) {
    if (output == null || !"SELECT_NODE".equals(node.path("type").asText()) || node.path("select_list").size() != 1
        || !List.of("<", "<=", ">", ">=", "=", "<>").contains(operator)) {
      return;
    }
    JsonNode e = node.path("select_list").get(0);
    java.math.BigDecimal factor = java.math.BigDecimal.ONE;
    for (int depth = 0; depth < 6 && e != null && e.isObject(); depth++) {
      String cls = e.path("class").asText("");
      String fn = e.path("function_name").asText("").toLowerCase(Locale.ROOT);
      if (cls.equals("CAST")) {
        e = e.path("child");
        continue;
      }
      if (!cls.equals("FUNCTION")) {
        return;
      }
      List<JsonNode> args = arguments(e);
      if (Set.of("avg", "sum", "min", "max").contains(fn) && args.size() == 1
          && !e.path("distinct").asBoolean(false)) {
        if (factor.signum() > 0) {
          thresholds.add(new AggregateThreshold(probe, operator, fn, factor.stripTrailingZeros(), output));
        }
        return;
      }
      if ((fn.equals("*") || fn.equals("/")) && args.size() == 2) {
        int constant = isConstant(args.get(1)) ? 1 : fn.equals("*") && isConstant(args.get(0)) ? 0 : -1;
        if (constant < 0) {
          return;
        }
        try {
          java.math.BigDecimal k = new java.math.BigDecimal(constantText(args.get(constant)).strip());
          factor = fn.equals("*") ? factor.multiply(k) : factor.divide(k, java.math.MathContext.DECIMAL64);
        } catch (NumberFormatException | ArithmeticException ex) {
          return;
        }
        e = args.get(1 - constant);
        continue;
      }
      return;
    }
  }

  private ColumnKey firstOutput(JsonNode subquery, Scope scope, Map<String, List<Output>> ctes) {
    List<Output> outs = query(subquery.path("subquery").path("node"), scope, ctes);
    return outs.isEmpty() ? null : outs.get(0).key();
  }

  private void expression(JsonNode e, Scope scope, Map<String, List<Output>> ctes) {
    if (e == null || !e.isObject()) {
      return;
    }
    String cls = e.path("class").asText("");
    String type = e.path("type").asText("");
    switch (cls) {
      case "COLUMN_REF" -> {
        use(resolve(e, scope));
        return;
      }
      case "SUBQUERY" -> {
        List<Output> outs = query(e.path("subquery").path("node"), scope, ctes);
        JsonNode child = e.path("child");
        if (child.isObject()) {
          expression(child, scope, ctes);
          if (!outs.isEmpty()) {
            Wrapped w = wrapped(child, scope);
            union(w != null && w.relation() == Relation.COMPARE ? w.key() : keyOf(child, scope), outs.get(0).key());
          }
        }
        return;
      }
      case "COMPARISON" -> {
        if (COMPARISONS.contains(type)) {
          String op = OPERATORS.getOrDefault(type, "?");
          compare(e.path("left"), e.path("right"), op, scope, ctes);
          compare(e.path("right"), e.path("left"), MIRRORED.getOrDefault(op, op), scope, ctes);
        }
      }
      case "CONJUNCTION" -> {
        if (type.equals("CONJUNCTION_OR")) {
          List<List<Integer>> disjuncts = new ArrayList<>();
          for (JsonNode child : e.path("children")) {
            int before = constants.size();
            expression(child, scope, ctes);
            List<Integer> mine = new ArrayList<>();
            for (int i = before; i < constants.size(); i++) {
              mine.add(i);
            }
            disjuncts.add(mine);
          }
          orBlocks.add(disjuncts);
          return;
        }
      }
      case "BETWEEN" -> {
        compare(e.path("input"), e.path("lower"), ">=", scope, ctes);
        compare(e.path("input"), e.path("upper"), "<=", scope, ctes);
      }
      case "OPERATOR" -> {
        if (type.equals("COMPARE_IN") || type.equals("COMPARE_NOT_IN")) {
          JsonNode kids = e.path("children");
          for (int i = 1; i < kids.size(); i++) {
            compare(kids.get(0), kids.get(i), type.equals("COMPARE_IN") ? "IN" : "NOT IN", scope, ctes);
          }
        }
      }
      case "FUNCTION" -> {
        String fn = e.path("function_name").asText("").toLowerCase(Locale.ROOT);
        List<JsonNode> args = arguments(e);
        if (VOLATILE.contains(fn)) {
          nondeterministic.add("the volatile function " + fn + "()");
        }
        if (ORDER_DEPENDENT.contains(fn) && e.path("order_bys").path("orders").isEmpty()) {
          nondeterministic.add(fn + "() without ORDER BY depends on the order rows arrive in");
        }
        if (fn.equals("nullif") && args.size() == 2 && isConstant(args.get(1))) {
          // nullif(sum(x), 0): a group whose value is the constant reads as NULL; over one row, sum(x) is x.
          JsonNode value = args.get(0);
          if ("FUNCTION".equals(value.path("class").asText()) && Set.of("sum", "min", "max", "avg").contains(
              value.path("function_name").asText("").toLowerCase(Locale.ROOT)) && arguments(value).size() == 1) {
            value = arguments(value).get(0);
          }
          Wrapped w = wrapped(value, scope);
          if (w != null && w.relation() == Relation.COMPARE) {
            constant(w.key(), args.get(1), Relation.COMPARE, "=");
          }
        }
        if (fn.equals("-") && args.size() == 2 && isConstant(args.get(0)) != isConstant(args.get(1))) {
          // c - x and x - c are 0 at x = c.
          int column = isConstant(args.get(0)) ? 1 : 0;
          Wrapped w = wrapped(args.get(column), scope);
          if (w != null && w.relation() == Relation.COMPARE) {
            constant(w.key(), args.get(1 - column), Relation.ARITHMETIC, "<>");
          }
        }
        if (args.size() >= 2 && isConstant(args.get(1))) {
          Wrapped w = wrapped(args.get(0), scope);
          if (w != null && LIKE.contains(fn)) {
            constant(w.key(), args.get(1), w.relation() == Relation.COMPARE ? Relation.LIKE : Relation.FUNCTION,
                fn.startsWith("!") || fn.startsWith("not_") ? "NOT LIKE" : "LIKE");
          } else if (w != null && Set.of("prefix", "starts_with", "suffix", "ends_with", "contains", "strpos",
              "instr", "position").contains(fn)) {
            constant(w.key(), args.get(1), Relation.FUNCTION, "?");
          }
        }
      }
      case "WINDOW" -> {
        String fn = e.path("function_name").asText("").toLowerCase(Locale.ROOT);
        if (TIE_DEPENDENT.contains(fn) && !uniqueOrder(e, scope)) {
          nondeterministic.add(fn + "() depends on how ties in its window's order are broken");
        }
      }
      default -> {
        // Walked generically below.
      }
    }
    e.fields().forEachRemaining(f -> {
      if (f.getKey().equals("subquery")) {
        return;
      }
      JsonNode v = f.getValue();
      if (v.isObject()) {
        if (v.has("class")) {
          expression(v, scope, ctes);
        } else if (v.has("expression")) {
          expression(v.get("expression"), scope, ctes);
        } else if (v.has("orders")) {
          v.path("orders").forEach(o -> expression(o.path("expression"), scope, ctes));
        }
      } else if (v.isArray()) {
        for (JsonNode item : v) {
          if (item.isObject()) {
            if (item.has("class")) {
              expression(item, scope, ctes);
            } else if (item.has("expression")) {
              expression(item.get("expression"), scope, ctes);
            } else if (item.has("when_expr")) {
              expression(item.get("when_expr"), scope, ctes);
              expression(item.get("then_expr"), scope, ctes);
            }
          }
        }
      }
    });
  }

  /**
   * The lower-case names of the columns a SELECT groups by, when it groups by plain columns in one grouping set
   * (empty otherwise): its rows are then one per combination of them.
   */
  private static Set<String> groupedColumns(JsonNode select) {
    JsonNode groups = select.path("group_expressions");
    if (groups.size() == 0 || select.path("grouping_sets").size() > 1) {
      return Set.of();
    }
    Set<String> out = new LinkedHashSet<>();
    for (JsonNode g : groups) {
      if (!"COLUMN_REF".equals(g.path("class").asText())) {
        return Set.of();
      }
      out.add(last(g.path("column_names")).toLowerCase(Locale.ROOT));
    }
    return out;
  }

  /**
   * Whether a window orders rows without ties: its partition and order keys name every column its SELECT groups by
   * (the rows are one per group: a lag() over months of a brand grouped by brand and month), or, over base tables
   * only (each read once), a key of every table (ntile over a price and the item's primary key).
   */
  private boolean uniqueOrder(JsonNode window, Scope scope) {
    Set<String> keys = new java.util.HashSet<>();
    List<JsonNode> exprs = new ArrayList<>();
    window.path("partitions").forEach(exprs::add);
    window.path("orders").forEach(o -> exprs.add(o.path("expression")));
    for (JsonNode k : exprs) {
      if ("COLUMN_REF".equals(k.path("class").asText())) {
        keys.add(last(k.path("column_names")).toLowerCase(Locale.ROOT));
      }
    }
    if (!scope.groupedBy.isEmpty()) {
      return keys.containsAll(scope.groupedBy);
    }
    Set<String> seen = new java.util.HashSet<>();
    for (Source s : scope.sources.values()) {
      Optional<Schema.Table> t = s.table() == null ? Optional.empty() : schema.table(s.table());
      if (t.isEmpty() || !seen.add(t.get().name().toLowerCase(Locale.ROOT)) || t.get().keys().stream().noneMatch(
          k -> !k.isEmpty() && k.stream().allMatch(c -> keys.contains(c.toLowerCase(Locale.ROOT))))) {
        return false;
      }
    }
    return !seen.isEmpty();
  }

  private static String last(JsonNode names) {
    return names.size() == 0 ? "" : names.get(names.size() - 1).asText();
  }
}
