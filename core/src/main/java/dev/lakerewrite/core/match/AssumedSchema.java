package dev.lakerewrite.core.match;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.ColumnPrefixes;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The schema a query assumes, read from DuckDB's syntax tree with SQL's scoping rules: every base table it names
 * (not its CTEs or derived tables), every column it reads on each, and how it uses each column (summed, compared
 * with a number, a date or a string, grouped, joined...), which is what a schema matcher can check a lake column
 * against. Column references are resolved per query block — aliases at every depth, correlated references to
 * enclosing blocks, CTE and derived-table columns (which are not assumed columns), select-list aliases — and every
 * resolved reference is remembered by node, so that a rewrite can edit exactly the references of one assumed
 * column.
 *
 * <p>An unqualified column in a block with several base tables cannot be placed by syntax alone: it is listed as
 * {@linkplain #ambiguous() ambiguous} with its candidate tables, for the matcher to place. Linear in the size of the
 * tree.
 */
public final class AssumedSchema {

  /** How a query uses a column. */
  public enum Use {
    /** Shown in a select list. */
    PROJECTED,
    /** Inside {@code sum} or {@code avg}. */
    SUMMED,
    /** Inside {@code min} or {@code max}. */
    MIN_MAX,
    /** Inside {@code count}. */
    COUNTED,
    GROUPED,
    ORDERED,
    /** In an equality with a column of another table. */
    JOINED,
    /** Compared with a numeric literal. */
    COMPARED_NUMBER,
    /** Compared with a date or timestamp literal (or a text literal shaped like an ISO date, by order). */
    COMPARED_DATE,
    /** Compared for equality (or IN) with a text literal. */
    COMPARED_STRING,
    /** Matched with LIKE or ILIKE. */
    LIKE,
    /** In arithmetic or ordered comparisons with other columns or subqueries. */
    ARITHMETIC,
    /** Tested for NULL. */
    NULL_TEST
  }

  /** One assumed column with its uses and the literals it is compared with. */
  public static final class Column {
    private final String table;
    private final String name;
    private final EnumSet<Use> uses = EnumSet.noneOf(Use.class);
    private final List<Literal> literals = new ArrayList<>();

    Column(String table, String name) {
      this.table = table;
      this.name = name;
    }

    /** The assumed table as the query writes it. */
    public String table() {
      return table;
    }

    /** The column as the query writes it (first spelling seen). */
    public String name() {
      return name;
    }

    public Set<Use> uses() {
      return Collections.unmodifiableSet(uses);
    }

    public boolean uses(Use u) {
      return uses.contains(u);
    }

    /** The literals the column is compared with, in order of appearance. */
    public List<Literal> literals() {
      return Collections.unmodifiableList(literals);
    }

    @Override
    public String toString() {
      return table + "." + name + uses;
    }
  }

  /**
   * A literal a column is compared with.
   *
   * @param text the literal's text
   * @param kind DuckDB's kind (STRING, INTEGER, DECIMAL, DATE...)
   * @param operator {@code =}, {@code <>}, {@code <}, {@code <=}, {@code >}, {@code >=}, {@code IN}, {@code LIKE}...
   * @param bound how the literal bounds the column's own values, read from the column's side, where the query compares
   *     the column as it is (through casts only): {@code =}, {@code <}, {@code <=}, {@code >} or {@code >=}
   *     ({@code 5 < x} bounds x by {@code >}; {@code IN} lists bound it by {@code =}; BETWEEN's ends by {@code >=} and
   *     {@code <=}); empty where a function or arithmetic reads the column ({@code year(d) = 1995}), the comparison
   *     bounds nothing ({@code <>}, {@code NOT IN}, {@code LIKE}), or a NOT or an OR encloses it (one disjunct may
   *     select nothing)
   */
  public record Literal(String text, String kind, String operator, String bound) {
    public Literal(String text, String kind, String operator) {
      this(text, kind, operator, "");
    }

    public boolean isString() {
      return kind.equals("STRING") || kind.equals("VARCHAR");
    }
  }

  /** An assumed table: its name as written and its columns (lower-case name → column), in order of appearance. */
  public record Table(String name, Map<String, Column> columns) {
    public Optional<Column> column(String name) {
      return Optional.ofNullable(columns.get(key(name)));
    }
  }

  /** An unqualified column in a block with several base tables, and those tables (assumed names). */
  public record Ambiguous(String column, List<String> candidates) {}

  /** {@code left = right} between columns of two assumed tables (or two occurrences of one, a self-join). */
  public record JoinPair(String leftTable, String leftColumn, String rightTable, String rightColumn) {}

  /** Where a column reference node points: an assumed table and column; candidates when ambiguous. */
  public record Binding(@Nullable String table, String column, List<String> candidates) {
    public boolean ambiguous() {
      return table == null;
    }
  }

  private final Map<String, Table> tables;
  private final List<Ambiguous> ambiguous;
  private final List<JoinPair> joins;
  private final Map<JsonNode, Binding> bindings;
  private final Map<JsonNode, JsonNode> sources;
  private final Set<JsonNode> placedByPrefix;
  private final Set<JsonNode> namedOutputs;
  private final boolean star;

  private AssumedSchema(Map<String, Table> tables, List<Ambiguous> ambiguous, List<JoinPair> joins,
      Map<JsonNode, Binding> bindings, Map<JsonNode, JsonNode> sources, Set<JsonNode> placedByPrefix,
      Set<JsonNode> namedOutputs, boolean star) {
    this.tables = tables;
    this.ambiguous = ambiguous;
    this.joins = joins;
    this.bindings = bindings;
    this.sources = sources;
    this.placedByPrefix = placedByPrefix;
    this.namedOutputs = namedOutputs;
    this.star = star;
  }

  /** Reads the assumed schema of a statement tree ({@code {"node": ...}}) or a query node. */
  public static AssumedSchema of(JsonNode statementOrNode) {
    JsonNode node = statementOrNode.has("node") ? statementOrNode.get("node") : statementOrNode;
    Walk w = new Walk();
    w.unqualified.addAll(ColumnPrefixes.unqualifiedColumns(node));
    w.queryOwners.putAll(ColumnPrefixes.owners(w.unqualified, ColumnPrefixes.baseTables(node)));
    w.queryNode(node, null, new LinkedHashMap<>(), true);
    w.placeAmbiguous();
    Map<String, Table> frozen = new LinkedHashMap<>();
    w.tables.forEach((k, v) -> frozen.put(k, new Table(v.name, Collections.unmodifiableMap(v.columns))));
    return new AssumedSchema(Collections.unmodifiableMap(frozen), List.copyOf(w.ambiguous), List.copyOf(w.joins),
        Collections.unmodifiableMap(w.bindings), Collections.unmodifiableMap(w.sources),
        Collections.unmodifiableSet(w.placedByPrefix), Collections.unmodifiableSet(w.namedOutputs), w.star);
  }

  static String key(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  /** Assumed tables by lower-case name, in order of appearance. */
  public Map<String, Table> tables() {
    return tables;
  }

  public Optional<Table> table(String name) {
    return Optional.ofNullable(tables.get(key(name)));
  }

  /** Unqualified columns whose table syntax cannot tell (also added, tentatively, to their first candidate). */
  public List<Ambiguous> ambiguous() {
    return ambiguous;
  }

  public List<JoinPair> joins() {
    return joins;
  }

  /** The binding of a COLUMN_REF node of the tree this schema was read from; empty for CTE, alias or derived columns. */
  public Optional<Binding> binding(JsonNode columnRef) {
    return Optional.ofNullable(bindings.get(columnRef));
  }

  /**
   * The FROM item (the {@code BASE_TABLE} node of the tree this schema was read from) a column reference reads: the
   * one occurrence of its assumed table that SQL's scoping rules pick, in its own block or an enclosing one (a
   * correlated reference). Empty for references that bind to no assumed table, or to one of several tables.
   */
  public Optional<JsonNode> source(JsonNode columnRef) {
    return Optional.ofNullable(sources.get(columnRef));
  }

  /**
   * Whether an unqualified column reference was placed by its table's prefix ({@link ColumnPrefixes}): its table is
   * known even where the query's tables do not show that they have such a column.
   */
  public boolean placedByPrefix(JsonNode columnRef) {
    return placedByPrefix.contains(columnRef);
  }

  /**
   * Whether an unqualified column reference reads an output a CTE or derived table of its scope names
   * ({@code total_revenue} of TPC-H q15's {@code revenue} beside {@code supplier}): no assumed table's column, so a
   * rewrite leaves it as written.
   */
  public boolean readsNamedOutput(JsonNode columnRef) {
    return namedOutputs.contains(columnRef);
  }

  /** Whether the query selects {@code *} (or {@code t.*}) from an assumed table: its columns are not all known. */
  public boolean selectsStar() {
    return star;
  }

  // -------------------------------------------------------------------------------------------------------------

  private static final class MutableTable {
    final String name;
    final Map<String, Column> columns = new LinkedHashMap<>();

    MutableTable(String name) {
      this.name = name;
    }
  }

  /** A FROM item of one block: an assumed base table, or a CTE / derived table with known output names. */
  private record Source(@Nullable String assumed, Set<String> outputs, List<String> starBases,
      @Nullable JsonNode node) {
    boolean base() {
      return assumed != null;
    }

    /** A base table, or a CTE / derived table whose every output is named (no {@code *} passed through). */
    boolean knownColumns() {
      return base() || !outputs.contains("*") && starBases.isEmpty();
    }
  }

  /** Names visible in one query block. */
  private static final class Scope {
    final @Nullable Scope parent;
    final Map<String, Source> byAlias = new LinkedHashMap<>();
    final Set<String> selectAliases = new LinkedHashSet<>();

    Scope(@Nullable Scope parent) {
      this.parent = parent;
    }
  }

  /** What a CTE exposes: its output names, and the assumed tables a {@code *} in it passes through. */
  private record CteInfo(Set<String> outputs, List<String> starBases) {}

  private static final Set<String> SUM_AVG = Set.of("sum", "avg", "mean", "median", "stddev", "stddev_pop",
      "stddev_samp", "variance", "var_pop", "var_samp", "fsum", "favg", "product", "quantile", "quantile_cont");
  /** Functions that read a part of a date or time as a number. */
  private static final Set<String> DATE_PARTS = Set.of("year", "month", "day", "quarter", "week", "weekofyear",
      "dayofweek", "dayofmonth", "dayofyear", "isodow", "isoyear", "yearweek", "date_part", "datepart", "extract",
      "hour", "minute", "second", "epoch", "decade", "century");
  private static final Set<String> MIN_MAX = Set.of("min", "max", "arg_min", "arg_max");
  private static final Set<String> COUNT = Set.of("count", "count_star", "approx_count_distinct");
  private static final Map<String, String> COMPARISONS = Map.of("COMPARE_EQUAL", "=", "COMPARE_NOTEQUAL", "<>",
      "COMPARE_LESSTHAN", "<", "COMPARE_GREATERTHAN", ">", "COMPARE_LESSTHANOREQUALTO", "<=",
      "COMPARE_GREATERTHANOREQUALTO", ">=");
  /** A comparison read from its right side: {@code 5 < x} is {@code x > 5}. */
  private static final Map<String, String> FLIPPED = Map.of("=", "=", "<", ">", ">", "<", "<=", ">=", ">=", "<=");
  private static final Set<String> LIKES = Set.of("~~", "!~~", "~~*", "!~~*", "like_escape", "ilike_escape",
      "not_like_escape", "not_ilike_escape", "regexp_matches", "contains", "starts_with", "prefix", "suffix");

  private static final class Walk {
    final Map<String, MutableTable> tables = new LinkedHashMap<>();
    final List<Ambiguous> ambiguous = new ArrayList<>();
    final List<JoinPair> joins = new ArrayList<>();
    final Map<JsonNode, Binding> bindings = new IdentityHashMap<>();
    final Map<JsonNode, JsonNode> sources = new IdentityHashMap<>();
    /** The FROM item the last {@link #unqualified} binding came from (null when not a single base item). */
    @Nullable JsonNode lastSource;
    boolean star;
    /** Every column name the query writes without a qualifier (for {@link ColumnPrefixes}). */
    final Set<String> unqualified = new LinkedHashSet<>();
    /**
     * Which table each prefix names over every table the query reads: {@code p} is part's prefix where the query
     * reads part and partsupp, also in a block that reads only partsupp (TPC-H Q2's correlated {@code p_partkey}).
     */
    final Map<String, String> queryOwners = new LinkedHashMap<>();
    /** References the last {@link #unqualified} call placed by prefix, and all such references. */
    boolean prefixPlaced;
    final Set<JsonNode> placedByPrefix = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    boolean lastNamedOutput;
    final Set<JsonNode> namedOutputs = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    MutableTable table(String name) {
      return tables.computeIfAbsent(key(name), k -> new MutableTable(name));
    }

    Column column(String table, String column) {
      MutableTable t = table(table);
      return t.columns.computeIfAbsent(key(column), k -> new Column(t.name, column));
    }

    /**
     * Walks a query node; returns its output names (the first branch's, for a set operation) and the assumed
     * tables whose columns a {@code *} passes through.
     */
    CteInfo queryNode(JsonNode node, @Nullable Scope outer, Map<String, CteInfo> ctes, boolean outermost) {
      if (node == null || !node.isObject()) {
        return new CteInfo(Set.of(), List.of());
      }
      Map<String, CteInfo> visible = new LinkedHashMap<>(ctes);
      for (JsonNode entry : node.path("cte_map").path("map")) {
        String name = entry.path("key").asText("");
        JsonNode value = entry.path("value");
        JsonNode q = value.has("query_node") ? value.get("query_node") : value.path("query").path("node");
        // A CTE sees the CTEs before it (and itself, when recursive: its name is visible while its body is read).
        visible.put(key(name), new CteInfo(Set.of(), List.of()));
        CteInfo info = queryNode(q, outer, visible, false);
        Set<String> outputs = new LinkedHashSet<>(info.outputs());
        List<String> aliases = new ArrayList<>();
        value.path("aliases").forEach(a -> aliases.add(key(a.asText())));
        if (!aliases.isEmpty()) {
          outputs = new LinkedHashSet<>(aliases);
        }
        visible.put(key(name), new CteInfo(outputs, info.starBases()));
      }
      String type = node.path("type").asText("");
      if (type.equals("SELECT_NODE")) {
        return selectNode(node, outer, visible, outermost);
      }
      if (type.equals("SET_OPERATION_NODE")) {
        List<JsonNode> children = new ArrayList<>();
        if (node.has("children")) {
          node.get("children").forEach(children::add);
        } else {
          children.add(node.path("left"));
          children.add(node.path("right"));
        }
        CteInfo first = null;
        for (JsonNode child : children) {
          CteInfo info = queryNode(child, outer, visible, outermost);
          if (first == null) {
            first = info;
          }
        }
        // ORDER BY of a set operation names its output columns.
        return first == null ? new CteInfo(Set.of(), List.of()) : first;
      }
      if (type.equals("RECURSIVE_CTE_NODE") || type.equals("CTE_NODE")) {
        CteInfo left = queryNode(node.path("left"), outer, visible, outermost);
        queryNode(node.path("right"), outer, visible, false);
        return left;
      }
      return new CteInfo(Set.of(), List.of());
    }

    CteInfo selectNode(JsonNode node, @Nullable Scope outer, Map<String, CteInfo> ctes, boolean outermost) {
      Scope scope = new Scope(outer);
      List<JsonNode> joinNodes = new ArrayList<>();
      from(node.path("from_table"), scope, ctes, joinNodes);
      Set<String> outputs = new LinkedHashSet<>();
      List<String> starBases = new ArrayList<>();
      for (JsonNode item : node.path("select_list")) {
        String alias = item.path("alias").asText("");
        if (!alias.isEmpty()) {
          scope.selectAliases.add(key(alias));
          outputs.add(key(alias));
        } else if ("COLUMN_REF".equals(item.path("class").asText())) {
          JsonNode names = item.path("column_names");
          outputs.add(key(names.get(names.size() - 1).asText()));
        }
        if ("STAR".equals(item.path("class").asText())) {
          String relation = item.path("relation_name").asText("");
          for (Map.Entry<String, Source> s : scope.byAlias.entrySet()) {
            if (relation.isEmpty() || s.getKey().equals(key(relation))) {
              if (s.getValue().base()) {
                starBases.add(s.getValue().assumed());
                star = true;
              } else {
                outputs.addAll(s.getValue().outputs());
                starBases.addAll(s.getValue().starBases());
              }
            }
          }
        }
      }
      for (JsonNode item : node.path("select_list")) {
        if ("COLUMN_REF".equals(item.path("class").asText())) {
          ref(item, scope, EnumSet.of(Use.PROJECTED), null, true);
        } else {
          expression(item, scope, ctes, EnumSet.noneOf(Use.class), true);
        }
      }
      for (JsonNode join : joinNodes) {
        expression(join.path("condition"), scope, ctes, EnumSet.noneOf(Use.class), false);
        for (JsonNode using : join.path("using_columns")) {
          for (String side : List.of("left", "right")) {
            JsonNode n = join.path(side);
            while ("JOIN".equals(n.path("type").asText())) {
              n = n.path("right");
            }
            String alias = n.path("alias").asText("");
            Source s = scope.byAlias.get(key(alias.isEmpty() ? n.path("table_name").asText("") : alias));
            if (s != null && s.base()) {
              column(s.assumed(), using.asText()).uses.add(Use.JOINED);
            }
          }
        }
      }
      expression(node.path("where_clause"), scope, ctes, EnumSet.noneOf(Use.class), false);
      for (JsonNode g : node.path("group_expressions")) {
        expression(g, scope, ctes, EnumSet.of(Use.GROUPED), false);
      }
      expression(node.path("having"), scope, ctes, EnumSet.noneOf(Use.class), false);
      expression(node.path("qualify"), scope, ctes, EnumSet.noneOf(Use.class), false);
      for (JsonNode m : node.path("modifiers")) {
        for (JsonNode o : m.path("orders")) {
          expression(o.path("expression"), scope, ctes, EnumSet.of(Use.ORDERED), false);
        }
        expression(m.path("limit"), scope, ctes, EnumSet.noneOf(Use.class), false);
        expression(m.path("offset"), scope, ctes, EnumSet.noneOf(Use.class), false);
      }
      return new CteInfo(outputs, starBases);
    }

    void from(JsonNode ref, Scope scope, Map<String, CteInfo> ctes, List<JsonNode> joinNodes) {
      if (ref == null || !ref.isObject()) {
        return;
      }
      String type = ref.path("type").asText("");
      String alias = ref.path("alias").asText("");
      switch (type) {
        case "BASE_TABLE" -> {
          String name = ref.path("table_name").asText("");
          String refName = key(alias.isEmpty() ? name : alias);
          CteInfo cte = ref.path("schema_name").asText("").isEmpty() ? ctes.get(key(name)) : null;
          if (cte != null) {
            Set<String> outputs = new LinkedHashSet<>(cte.outputs());
            ref.path("column_name_alias").forEach(a -> outputs.add(key(a.asText())));
            scope.byAlias.put(refName, new Source(null, outputs, cte.starBases(), null));
          } else {
            table(name);
            scope.byAlias.put(refName, new Source(name, Set.of(), List.of(), ref));
          }
        }
        case "JOIN" -> {
          from(ref.path("left"), scope, ctes, joinNodes);
          from(ref.path("right"), scope, ctes, joinNodes);
          joinNodes.add(ref);
        }
        case "SUBQUERY" -> {
          // Not lateral: a derived table sees the enclosing block's scope, not its siblings.
          CteInfo info = queryNode(ref.path("subquery").path("node"), scope.parent, ctes, false);
          Set<String> outputs = new LinkedHashSet<>(info.outputs());
          List<String> aliases = new ArrayList<>();
          ref.path("column_name_alias").forEach(a -> aliases.add(key(a.asText())));
          if (!aliases.isEmpty()) {
            outputs.addAll(aliases);
          }
          scope.byAlias.put(key(alias.isEmpty() ? "unnamed_subquery" : alias),
              new Source(null, outputs, info.starBases(), null));
        }
        case "TABLE_FUNCTION" -> {
          expression(ref.path("function"), scope, ctes, EnumSet.noneOf(Use.class), false);
          scope.byAlias.put(key(alias), new Source(null, Set.of("*"), List.of(), null));
        }
        default -> {
          // EMPTY (no FROM), VALUES lists, PIVOT: nothing assumed.
        }
      }
    }

    /** Walks an expression; {@code context} holds the uses of the enclosing functions and clauses. */
    void expression(JsonNode e, Scope scope, Map<String, CteInfo> ctes, EnumSet<Use> context, boolean selectItem) {
      if (e == null || !e.isObject()) {
        return;
      }
      String cls = e.path("class").asText("");
      switch (cls) {
        case "COLUMN_REF" -> {
          EnumSet<Use> uses = EnumSet.copyOf(context);
          if (selectItem && context.isEmpty()) {
            uses.add(Use.PROJECTED);
          }
          ref(e, scope, uses, null, false);
          return;
        }
        case "SUBQUERY" -> {
          queryNode(e.path("subquery").path("node"), scope, ctes, false);
          expression(e.path("child"), scope, ctes, EnumSet.noneOf(Use.class), false);
          return;
        }
        case "FUNCTION", "AGGREGATE", "WINDOW" -> {
          String fn = key(e.path("function_name").asText(""));
          EnumSet<Use> inner = EnumSet.copyOf(context);
          if (SUM_AVG.contains(fn)) {
            inner.add(Use.SUMMED);
          } else if (MIN_MAX.contains(fn)) {
            inner.add(Use.MIN_MAX);
          } else if (COUNT.contains(fn)) {
            inner.add(Use.COUNTED);
          } else if (SqlAnalyzer.ARITHMETIC.contains(fn)) {
            inner.add(Use.ARITHMETIC);
          }
          if (LIKES.contains(fn)) {
            List<JsonNode> args = SqlAnalyzer.arguments(e);
            if (args.size() >= 2) {
              literalUse(args.get(0), args.subList(1, args.size()), "LIKE", List.of(), scope);
            }
          }
          children(e, scope, ctes, inner, selectItem && SqlAnalyzer.isAggregate(fn));
          return;
        }
        case "CONJUNCTION" -> {
          if (e.path("type").asText("").equals("CONJUNCTION_OR")) {
            // One disjunct may select nothing on the right column (TPC-DS q15's cs_sales_price > 500 beside zip
            // codes): a disjunct's literals bound no column's values.
            childrenBoundingNothing(e, scope, ctes, context, selectItem);
            return;
          }
        }
        case "COMPARISON" -> {
          String op = COMPARISONS.getOrDefault(e.path("type").asText(""), "?");
          JsonNode l = e.path("left");
          JsonNode r = e.path("right");
          if (SqlAnalyzer.constant(r) != null) {
            literalUse(l, List.of(r), op, List.of(FLIPPED.containsKey(op) ? op : ""), scope);
          } else if (SqlAnalyzer.constant(l) != null) {
            literalUse(r, List.of(l), op, List.of(FLIPPED.getOrDefault(op, "")), scope);
          } else if (op.equals("=")) {
            joinPair(l, r, scope);
          } else {
            markArithmetic(l, scope);
            markArithmetic(r, scope);
          }
        }
        case "OPERATOR" -> {
          String type = e.path("type").asText("");
          List<JsonNode> kids = new ArrayList<>();
          e.path("children").forEach(kids::add);
          if ((type.equals("COMPARE_IN") || type.equals("COMPARE_NOT_IN")) && kids.size() >= 2
              && kids.subList(1, kids.size()).stream().allMatch(k -> SqlAnalyzer.literal(k) != null)) {
            List<JsonNode> values = kids.subList(1, kids.size());
            literalUse(kids.get(0), values, "IN",
                type.equals("COMPARE_IN") ? java.util.Collections.nCopies(values.size(), "=") : List.of(), scope);
          } else if (type.equals("OPERATOR_NOT")) {
            // NOT x IN (...), NOT x BETWEEN ...: the literals bound the rows left out, not the column's values.
            childrenBoundingNothing(e, scope, ctes, context, selectItem);
            return;
          } else if (type.equals("OPERATOR_IS_NULL") || type.equals("OPERATOR_IS_NOT_NULL")) {
            EnumSet<Use> inner = EnumSet.copyOf(context);
            inner.add(Use.NULL_TEST);
            children(e, scope, ctes, inner, false);
            return;
          }
        }
        case "BETWEEN" -> {
          JsonNode lower = e.path("lower");
          JsonNode upper = e.path("upper");
          if (SqlAnalyzer.constant(lower) != null && SqlAnalyzer.constant(upper) != null) {
            literalUse(e.path("input"), List.of(lower, upper), "BETWEEN", List.of(">=", "<="), scope);
          }
        }
        default -> {
          // Other classes (CASE, CAST, CONJUNCTION, ...) are walked generically below.
        }
      }
      children(e, scope, ctes, context, false);
    }

    void children(JsonNode e, Scope scope, Map<String, CteInfo> ctes, EnumSet<Use> context, boolean selectItem) {
      e.fields().forEachRemaining(f -> {
        String k = f.getKey();
        JsonNode v = f.getValue();
        if (k.equals("subquery")) {
          return;
        }
        if (v.isObject()) {
          if (v.has("class")) {
            expression(v, scope, ctes, context, selectItem);
          } else if (v.has("expression")) {
            expression(v.get("expression"), scope, ctes, context, selectItem);
          } else if (k.equals("order_bys")) {
            v.path("orders").forEach(o -> expression(o.path("expression"), scope, ctes, context, false));
          }
        } else if (v.isArray()) {
          for (JsonNode item : v) {
            if (!item.isObject()) {
              continue;
            }
            if (item.has("class")) {
              expression(item, scope, ctes, context, selectItem);
            } else if (item.has("expression")) {
              expression(item.get("expression"), scope, ctes, context, selectItem);
            } else if (item.has("when_expr")) {
              expression(item.get("when_expr"), scope, ctes, context, false);
              expression(item.get("then_expr"), scope, ctes, context, selectItem);
            }
          }
        }
      });
    }

    /** How many NOTs and ORs enclose the expression being walked: inside one, a literal bounds no column. */
    private int notsAndOrs;

    /** Walks a NOT's or an OR's children, whose literals bound no column's values ({@link Literal#bound}). */
    private void childrenBoundingNothing(JsonNode e, Scope scope, Map<String, CteInfo> ctes, EnumSet<Use> context,
        boolean selectItem) {
      notsAndOrs++;
      children(e, scope, ctes, context, selectItem);
      notsAndOrs--;
    }

    /**
     * Records a column compared with literals (through casts and one-column functions like lower(x)); {@code bounds}
     * says, per literal, how it bounds the column's values where the column is compared as it is (see
     * {@link Literal#bound}; literals past its end bound nothing).
     */
    void literalUse(JsonNode columnSide, List<JsonNode> literals, String op, List<String> bounds, Scope scope) {
      JsonNode col = unwrapColumn(columnSide);
      boolean asItIs = castsOnly(columnSide) && notsAndOrs == 0;
      if (col == null) {
        return;
      }
      Binding b = resolve(col, scope);
      if (b == null || b.ambiguous()) {
        return;
      }
      Column c = column(b.table(), b.column());
      boolean ordered = Set.of("<", ">", "<=", ">=", "BETWEEN").contains(op);
      boolean datePart = readsDatePart(columnSide);
      for (int i = 0; i < literals.size(); i++) {
        String[] lit = SqlAnalyzer.constant(literals.get(i));
        if (lit == null || lit[1] == null) {
          continue;
        }
        c.literals.add(new Literal(lit[1], lit[0], op, asItIs && i < bounds.size() ? bounds.get(i) : ""));
        String kind = lit[0];
        if (datePart) {
          // year(release_date) = 2020 compares a part of a date with a number: the column holds dates.
          c.uses.add(Use.COMPARED_DATE);
        } else if (kind.startsWith("DATE") || kind.startsWith("TIMESTAMP")
            || ordered && lit[1].matches("[+-]?\\d{4}-\\d{2}(-\\d{2})?.*")) {
          c.uses.add(Use.COMPARED_DATE);
        } else if (kind.equals("STRING") || kind.equals("VARCHAR")) {
          c.uses.add(op.equals("LIKE") ? Use.LIKE : Use.COMPARED_STRING);
        } else if (!kind.equals("NULL")) {
          c.uses.add(Use.COMPARED_NUMBER);
        }
      }
    }

    /** Whether an expression is a column reference, through casts and collations only. */
    static boolean castsOnly(JsonNode e) {
      for (int depth = 0; depth < 8 && e != null && e.isObject(); depth++) {
        String cls = e.path("class").asText("");
        if (cls.equals("COLUMN_REF")) {
          return true;
        }
        if (!cls.equals("CAST") && !cls.equals("COLLATE")) {
          return false;
        }
        e = e.path("child");
      }
      return false;
    }

    /** Whether an expression reads a column through a date-part function ({@code year(x)}, {@code extract(month from x)}). */
    static boolean readsDatePart(JsonNode e) {
      for (int depth = 0; depth < 8 && e != null && e.isObject(); depth++) {
        String cls = e.path("class").asText("");
        if (cls.equals("CAST") || cls.equals("COLLATE")) {
          e = e.path("child");
        } else if (cls.equals("FUNCTION")) {
          if (DATE_PARTS.contains(e.path("function_name").asText("").toLowerCase(Locale.ROOT))) {
            return true;
          }
          JsonNode only = null;
          for (JsonNode a : SqlAnalyzer.arguments(e)) {
            if (SqlAnalyzer.literal(a) == null) {
              only = a;
            }
          }
          e = only;
        } else {
          return false;
        }
      }
      return false;
    }

    void joinPair(JsonNode l, JsonNode r, Scope scope) {
      JsonNode lc = unwrapColumn(l);
      JsonNode rc = unwrapColumn(r);
      if (lc == null || rc == null) {
        return;
      }
      Binding lb = resolve(lc, scope);
      Binding rb = resolve(rc, scope);
      if (lb != null && !lb.ambiguous()) {
        column(lb.table(), lb.column()).uses.add(Use.JOINED);
      }
      if (rb != null && !rb.ambiguous()) {
        column(rb.table(), rb.column()).uses.add(Use.JOINED);
      }
      if (lb != null && rb != null && !lb.ambiguous() && !rb.ambiguous() && lc != rc) {
        joins.add(new JoinPair(lb.table(), lb.column(), rb.table(), rb.column()));
      }
    }

    void markArithmetic(JsonNode e, Scope scope) {
      JsonNode c = unwrapColumn(e);
      if (c != null) {
        Binding b = resolve(c, scope);
        if (b != null && !b.ambiguous()) {
          column(b.table(), b.column()).uses.add(Use.ARITHMETIC);
        }
      }
    }

    /** Records a column reference with its uses. */
    void ref(JsonNode e, Scope scope, EnumSet<Use> uses, @Nullable String unused, boolean selectItem) {
      Binding b = resolve(e, scope);
      if (b == null) {
        return;
      }
      if (b.ambiguous()) {
        // Tentatively the first candidate; placeAmbiguous lists it, and the matcher may move it.
        return;
      }
      column(b.table(), b.column()).uses.addAll(uses);
    }

    /** Resolves a column reference to an assumed table's column; null for CTE, derived or alias columns. */
    Binding resolve(JsonNode e, Scope scope) {
      if (bindings.containsKey(e)) {
        return bindings.get(e);
      }
      List<String> parts = new ArrayList<>();
      e.path("column_names").forEach(p -> parts.add(p.asText()));
      Binding b = null;
      if (!parts.isEmpty()) {
        String column = parts.get(parts.size() - 1);
        if (parts.size() >= 2) {
          String qualifier = key(parts.get(parts.size() - 2));
          for (Scope s = scope; s != null; s = s.parent) {
            Source src = s.byAlias.get(qualifier);
            if (src != null) {
              if (src.base()) {
                b = new Binding(src.assumed(), column, List.of());
                if (src.node() != null) {
                  sources.put(e, src.node());
                }
              } else if (src.starBases().size() == 1 && !src.outputs().contains(key(column))) {
                b = new Binding(src.starBases().get(0), column, List.of());
              }
              break;
            }
          }
        } else {
          lastSource = null;
          prefixPlaced = false;
          lastNamedOutput = false;
          b = unqualified(column, scope);
          if (prefixPlaced) {
            placedByPrefix.add(e);
          }
          if (b == null && lastNamedOutput) {
            namedOutputs.add(e);
          }
          if (b != null && !b.ambiguous() && lastSource != null) {
            sources.put(e, lastSource);
          }
        }
      }
      if (b != null) {
        bindings.put(e, b);
        if (!b.ambiguous()) {
          column(b.table(), b.column());
        }
      }
      return b;
    }

    @Nullable Binding unqualified(String column, Scope scope) {
      String k = key(column);
      for (Scope s = scope; s != null; s = s.parent) {
        List<String> bases = new ArrayList<>();
        JsonNode firstNode = null;
        boolean virtualHas = false;
        boolean namedVirtual = false;
        for (Source src : s.byAlias.values()) {
          if (src.base()) {
            if (!bases.contains(src.assumed())) {
              bases.add(src.assumed());
            }
            if (firstNode == null) {
              firstNode = src.node();
            }
          } else if (src.outputs().contains(k) || src.outputs().contains("*")) {
            virtualHas = true;
            namedVirtual |= src.outputs().contains(k);
          } else {
            for (String sb : src.starBases()) {
              if (!bases.contains(sb)) {
                bases.add(sb);
              }
            }
          }
        }
        if (virtualHas) {
          lastNamedOutput = namedVirtual;
          return null;
        }
        // Columns win over select aliases in WHERE and GROUP BY, but an alias of this block names no assumed
        // column when the block's tables cannot be known to have one.
        if (s == scope && s.selectAliases.contains(k)) {
          return null;
        }
        Optional<String> prefix = ColumnPrefixes.prefix(column);
        if (!bases.isEmpty() && prefix.isPresent() && s.byAlias.values().stream().allMatch(Source::knownColumns)) {
          // The naming convention places it (l_orderkey in lineitem), here or, when this block's tables follow
          // the convention but none carries this prefix, in an enclosing block (a correlated reference). A CTE
          // beside them whose outputs are all named and lack the column cannot be where it comes from.
          // A prefix the whole query gives to a table of an enclosing block (not of this one) is a correlated
          // reference to it, even where this block's tables alone would give the prefix to one of them.
          String queryOwner = queryOwners.get(prefix.get());
          if (queryOwner != null && bases.stream().noneMatch(queryOwner::equalsIgnoreCase)
              && enclosedBy(queryOwner, s.parent)) {
            continue;
          }
          Map<String, String> owners = ColumnPrefixes.owners(unqualified, bases);
          String owner = owners.get(prefix.get());
          if (owner != null) {
            List<Source> of = s.byAlias.values().stream().filter(x -> owner.equals(x.assumed())).distinct().toList();
            lastSource = of.size() == 1 ? of.get(0).node() : null;
            prefixPlaced = true;
            return new Binding(owner, column, List.of());
          }
          if (!owners.isEmpty() && claimedOutside(prefix.get(), s.parent)) {
            continue;
          }
        }
        if (bases.size() == 1) {
          lastSource = firstNode;
          return new Binding(bases.get(0), column, List.of());
        }
        if (bases.size() > 1) {
          // Several tables of the same assumed name (a self-join) are one assumed table.
          Set<String> distinct = new LinkedHashSet<>();
          bases.forEach(x -> distinct.add(key(x)));
          if (distinct.size() == 1) {
            return new Binding(bases.get(0), column, List.of());
          }
          return new Binding(null, column, List.copyOf(bases));
        }
        if (!s.byAlias.isEmpty()) {
          // Only virtual sources that do not have it: a correlated reference to an enclosing block.
          continue;
        }
      }
      return null;
    }

    /** Lists ambiguous references once per (column, candidates). */
    /** Whether an enclosing block reads the assumed table. */
    private static boolean enclosedBy(String table, @Nullable Scope scope) {
      for (Scope s = scope; s != null; s = s.parent) {
        if (s.byAlias.values().stream().anyMatch(x -> x.base() && table.equalsIgnoreCase(x.assumed()))) {
          return true;
        }
      }
      return false;
    }

    /** Whether an enclosing block's base tables include the one a column prefix names. */
    private boolean claimedOutside(String prefix, @Nullable Scope scope) {
      for (Scope s = scope; s != null; s = s.parent) {
        List<String> bases = s.byAlias.values().stream().filter(Source::base).map(Source::assumed).distinct().toList();
        if (!bases.isEmpty() && ColumnPrefixes.owners(unqualified, bases).containsKey(prefix)) {
          return true;
        }
      }
      return false;
    }

    void placeAmbiguous() {
      Set<String> seen = new LinkedHashSet<>();
      for (Binding b : bindings.values()) {
        if (b.ambiguous() && seen.add(key(b.column()) + "|" + b.candidates())) {
          ambiguous.add(new Ambiguous(b.column(), b.candidates()));
        }
      }
    }

    /** A column reference under casts, collations and one-column functions ({@code lower(x)}); else null. */
    static @Nullable JsonNode unwrapColumn(JsonNode e) {
      for (int depth = 0; depth < 8 && e != null && e.isObject(); depth++) {
        String cls = e.path("class").asText("");
        if (cls.equals("COLUMN_REF")) {
          return e;
        }
        if (cls.equals("CAST") || cls.equals("COLLATE")) {
          e = e.path("child");
        } else if (cls.equals("FUNCTION") && !SqlAnalyzer.isAggregate(e.path("function_name").asText(""))) {
          JsonNode only = null;
          for (JsonNode a : SqlAnalyzer.arguments(e)) {
            if (SqlAnalyzer.literal(a) == null) {
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
      return null;
    }
  }
}
