package dev.lakerewrite.core.sql;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.QueryAnalysis.ColumnReference;
import dev.lakerewrite.core.sql.QueryAnalysis.JoinCondition;
import dev.lakerewrite.core.sql.QueryAnalysis.OrderItem;
import dev.lakerewrite.core.sql.QueryAnalysis.OutputColumn;
import dev.lakerewrite.core.sql.QueryAnalysis.Predicate;
import dev.lakerewrite.core.sql.QueryAnalysis.TableReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Analyses one query through DuckDB's own syntax tree (see {@link SqlParser}). Aliases are resolved per query
 * block with correlation to enclosing blocks; unqualified columns are tied to a table when exactly one base table
 * is in scope. Runs in time linear in the size of the syntax tree, plus one parser round trip per rendered
 * expression (output, GROUP BY and ORDER BY items).
 */
public final class SqlAnalyzer {
  private static final Set<String> AGGREGATES = Set.of(
      "count", "count_star", "sum", "avg", "mean", "min", "max", "median", "mode", "string_agg", "group_concat",
      "list", "array_agg", "first", "last", "any_value", "arbitrary", "stddev", "stddev_pop", "stddev_samp",
      "variance", "var_pop", "var_samp", "approx_count_distinct", "approx_quantile", "quantile", "quantile_cont",
      "quantile_disc", "bool_and", "bool_or", "bit_and", "bit_or", "product", "arg_max", "arg_min", "max_by",
      "min_by", "histogram", "entropy", "kurtosis", "skewness", "corr", "covar_pop", "covar_samp", "fsum",
      "favg", "sumkahan", "bitstring_agg", "count_if", "countif", "sum_no_overflow");
  private static final Map<String, String> COMPARISONS = Map.of(
      "COMPARE_EQUAL", "=", "COMPARE_NOTEQUAL", "<>", "COMPARE_LESSTHAN", "<", "COMPARE_GREATERTHAN", ">",
      "COMPARE_LESSTHANOREQUALTO", "<=", "COMPARE_GREATERTHANOREQUALTO", ">=");
  private static final Map<String, String> FLIPPED = Map.of("<", ">", ">", "<", "<=", ">=", ">=", "<=");
  private static final Map<String, String> LIKE_FUNCTIONS = Map.of(
      "~~", "LIKE", "!~~", "NOT LIKE", "~~*", "ILIKE", "!~~*", "NOT ILIKE", "like_escape", "LIKE",
      "ilike_escape", "ILIKE", "not_like_escape", "NOT LIKE", "not_ilike_escape", "NOT ILIKE");

  private final SqlParser parser;

  public SqlAnalyzer(SqlParser parser) {
    this.parser = Objects.requireNonNull(parser, "parser");
  }

  /** Whether a function name (any case) is one of DuckDB's aggregate functions. */
  public static boolean isAggregate(String functionName) {
    return AGGREGATES.contains(functionName.toLowerCase(Locale.ROOT));
  }
  /** {kind, text} of a constant, possibly cast ({@code DATE '2020-01-01'}, {@code '3'::INT}); else null. */
  public static @Nullable String @Nullable [] literal(@Nullable JsonNode e) {
    if (e == null || !e.isObject()) {
      return null;
    }
    String cls = e.path("class").asText("");
    if (cls.equals("CONSTANT")) {
      JsonNode lit = e.path("literal");
      if (lit.isObject()) {
        String kind = lit.path("kind").asText("");
        return new String[] {kind, lit.has("text") && !lit.get("text").isNull() ? lit.get("text").asText() : null};
      }
      JsonNode value = e.path("value");
      return new String[] {value.path("type").path("id").asText(""), value.path("value").asText(null)};
    }
    if (cls.equals("CAST")) {
      @Nullable String @Nullable [] inner = literal(e.path("child"));
      if (inner != null) {
        return new String[] {e.path("type_expr").path("type_name").asText(
            e.path("cast_type").path("id").asText(inner[0])), inner[1]};
      }
    }
    return null;
  }

  /** The arithmetic operators of DuckDB's tree ({@code +} and {@code -} also take one argument). */
  public static final Set<String> ARITHMETIC = Set.of("+", "-", "*", "/", "%", "//");

  /** Date, time and interval functions whose result is temporal ({@code INTERVAL '1' YEAR} parses as {@code to_years}). */
  private static final Set<String> TEMPORAL_FUNCTIONS = Set.of("to_years", "to_months", "to_weeks", "to_days",
      "to_hours", "to_minutes", "to_seconds", "to_milliseconds", "to_microseconds", "to_centuries", "to_decades",
      "to_millennia", "to_quarters", "date_add", "date_sub", "make_date", "make_timestamp", "current_date",
      "today", "now", "current_timestamp", "date_trunc", "last_day", "strptime", "try_strptime");

  private static final Set<String> NUMBER_KINDS = Set.of("INTEGER", "BIGINT", "HUGEINT", "SMALLINT", "TINYINT",
      "UBIGINT", "UINTEGER", "DOUBLE", "FLOAT", "REAL", "NUMERIC", "DECIMAL");

  /**
   * A literal ({@link #literal}), or arithmetic of numeric literals folded to one: {@code DECIMAL '0.06' -
   * DECIMAL '0.01'} reads {@code {"DECIMAL", "0.05"}}, as a BETWEEN bound in TPC-H Q6. Null for anything else
   * (columns, functions, dates: {@code DATE '1994-01-01' + INTERVAL '1' YEAR} is not folded).
   */
  public static @Nullable String @Nullable [] constant(@Nullable JsonNode e) {
    @Nullable String @Nullable [] lit = literal(e);
    if (lit != null || e == null || !"FUNCTION".equals(e.path("class").asText(""))) {
      return lit;
    }
    String fn = e.path("function_name").asText("");
    List<JsonNode> args = arguments(e);
    if (!Set.of("+", "-", "*", "/").contains(fn) || args.isEmpty() || args.size() > 2) {
      return null;
    }
    java.math.BigDecimal[] values = new java.math.BigDecimal[args.size()];
    for (int i = 0; i < args.size(); i++) {
      @Nullable String @Nullable [] a = constant(args.get(i));
      if (a == null || a[1] == null || !NUMBER_KINDS.contains(a[0] == null ? "" : baseKind(a[0]))) {
        return null;
      }
      try {
        values[i] = new java.math.BigDecimal(a[1].strip());
      } catch (NumberFormatException ex) {
        return null;
      }
    }
    java.math.BigDecimal out;
    if (values.length == 1) {
      out = fn.equals("-") ? values[0].negate() : fn.equals("+") ? values[0] : null;
    } else {
      out = switch (fn) {
        case "+" -> values[0].add(values[1]);
        case "-" -> values[0].subtract(values[1]);
        case "*" -> values[0].multiply(values[1]);
        default -> values[1].signum() == 0 ? null : values[0].divide(values[1], java.math.MathContext.DECIMAL64);
      };
    }
    return out == null ? null : new String[] {"DECIMAL", out.stripTrailingZeros().toPlainString()};
  }

  private static String baseKind(String kind) {
    String k = kind.toUpperCase(Locale.ROOT);
    int paren = k.indexOf('(');
    return paren > 0 ? k.substring(0, paren) : k;
  }

  /**
   * Whether an expression is a date, timestamp or interval: a typed constant or cast, a date function, or sums of
   * them. O(size of the expression), at most six levels deep.
   */
  public static boolean temporal(JsonNode e) {
    return temporal(e, 0);
  }

  private static boolean temporal(JsonNode e, int depth) {
    if (depth > 6) {
      return false;
    }
    String cls = e.path("class").asText();
    @Nullable String @Nullable [] literal = literal(e);
    if (literal != null && literal[0] != null) {
      String kind = literal[0].toUpperCase(Locale.ROOT);
      return kind.startsWith("DATE") || kind.startsWith("TIME") || kind.startsWith("INTERVAL");
    }
    String fn = e.path("function_name").asText().toLowerCase(Locale.ROOT);
    if ("FUNCTION".equals(cls) && TEMPORAL_FUNCTIONS.contains(fn)) {
      return true;
    }
    if ("FUNCTION".equals(cls) && ARITHMETIC.contains(fn)) {
      return arguments(e).stream().anyMatch(a -> temporal(a, depth + 1));
    }
    return false;
  }

  /**
   * Columns (their last name part, lower case) the query computes numbers with: operands of {@code + - * / %},
   * directly or under a cast, where no operand is a date or interval ({@code l_extendedprice * l_discount}, not
   * {@code o_orderdate + INTERVAL '3' MONTH}). Subqueries included.
   */
  public static Set<String> numericOperands(JsonNode statement) {
    Set<String> out = new LinkedHashSet<>();
    Trees.visit(statement, n -> {
      if ("FUNCTION".equals(n.path("class").asText()) && ARITHMETIC.contains(n.path("function_name").asText())) {
        List<JsonNode> args = arguments(n);
        if (args.stream().noneMatch(SqlAnalyzer::temporal)) {
          for (JsonNode a : args) {
            String name = columnName(a);
            if (name != null) {
              out.add(name);
            }
          }
        }
      }
    });
    return out;
  }

  /**
   * Columns (last name part, lower case) the query passes to a text function as the text ({@code substr(ca_zip, 1,
   * 5)}, {@code upper(name)}, {@code a || b}): text on the assumed schema, whatever a lake column holding digits
   * would be read as. Subqueries included.
   */
  public static Set<String> textOperands(JsonNode statement) {
    Set<String> out = new LinkedHashSet<>();
    Trees.visit(statement, n -> {
      String fn = n.path("function_name").asText().toLowerCase(Locale.ROOT);
      if ("FUNCTION".equals(n.path("class").asText()) && TEXT_FUNCTIONS.contains(fn)) {
        List<JsonNode> args = arguments(n);
        // Every operand of a concatenation is text; of the other functions, the first.
        boolean concat = fn.equals("||") || fn.equals("concat");
        for (JsonNode a : concat ? args : args.subList(0, Math.min(1, args.size()))) {
          String name = columnName(a);
          if (name != null) {
            out.add(name);
          }
        }
      }
    });
    return out;
  }

  private static final Set<String> TEXT_FUNCTIONS = Set.of("substr", "substring", "left", "right", "upper",
      "lower", "trim", "ltrim", "rtrim", "strpos", "replace", "concat", "||", "starts_with", "prefix", "suffix",
      "contains", "lpad", "rpad");

  /**
   * Pairs of columns (last name part, lower case) the query compares with each other ({@code l_commitdate <
   * l_receiptdate}, {@code o_orderkey = l_orderkey}), directly or under casts. Subqueries included.
   */
  public static List<String[]> comparedColumns(JsonNode statement) {
    List<String[]> out = new ArrayList<>();
    Trees.visit(statement, n -> {
      if ("COMPARISON".equals(n.path("class").asText())) {
        String l = columnName(n.path("left"));
        String r = columnName(n.path("right"));
        if (l != null && r != null && !l.equals(r)) {
          out.add(new String[] {l, r});
        }
      }
    });
    return out;
  }

  private static @Nullable String columnName(JsonNode e) {
    JsonNode c = e;
    while ("CAST".equals(c.path("class").asText())) {
      c = c.path("child");
    }
    JsonNode names = c.path("column_names");
    return "COLUMN_REF".equals(c.path("class").asText()) && names.size() > 0
        ? names.get(names.size() - 1).asText().toLowerCase(Locale.ROOT) : null;
  }

  /** A function's or operator's argument expressions, in order (DuckDB's tree has both shapes). */
  public static List<JsonNode> arguments(JsonNode function) {
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


  /** Analyses with the process-wide {@link SqlParser#standalone()} parser. */
  public static QueryAnalysis analyzeStandalone(String sql) {
    return new SqlAnalyzer(SqlParser.standalone()).analyze(sql);
  }

  /**
   * Analyses a single query.
   *
   * @throws SqlSyntaxException if the text does not parse, is not a query, or holds more than one statement
   */
  public QueryAnalysis analyze(String sql) {
    ParsedSql parsed = parser.parse(sql);
    if (parsed.statementCount() != 1) {
      throw new SqlSyntaxException(
          "expected one statement, got " + parsed.statementCount() + "; remove everything after the first ';'",
          -1, false);
    }
    Walk walk = new Walk();
    JsonNode root = parsed.statement(0).get("node");
    walk.unqualified.addAll(ColumnPrefixes.unqualifiedColumns(root));
    walk.queryOwners.putAll(ColumnPrefixes.owners(walk.unqualified, ColumnPrefixes.baseTables(root)));
    walk.queryNode(root, null, true);
    return new QueryAnalysis(sql, walk.tables, freeze(walk.columns), walk.unresolved, walk.outputs,
        walk.predicates, walk.joins, walk.groupBy, walk.orderBy, walk.limit, new ArrayList<>(walk.ctes),
        walk.hasUnion, walk.hasSetOperation, walk.hasAggregates, walk.hasSubqueries);
  }

  private static Map<String, List<String>> freeze(Map<String, LinkedHashSet<String>> columns) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    columns.forEach((k, v) -> out.put(k, List.copyOf(v)));
    return out;
  }

  /** What an alias in FROM stands for. */
  private record Source(String name, boolean baseTable) {}

  /** Names visible in one query block, with its enclosing block for correlated references. */
  private static final class Scope {
    final Scope parent;
    final Map<String, Source> byAlias = new LinkedHashMap<>();
    final Set<String> selectAliases = new LinkedHashSet<>();

    Scope(Scope parent) {
      this.parent = parent;
    }

    Optional<Source> lookup(String qualifier) {
      for (Scope s = this; s != null; s = s.parent) {
        Source src = s.byAlias.get(qualifier.toLowerCase(Locale.ROOT));
        if (src != null) {
          return Optional.of(src);
        }
      }
      return Optional.empty();
    }

    /** The only base table of the nearest block that has sources, if it has exactly one source. */
    Optional<Source> single() {
      for (Scope s = this; s != null; s = s.parent) {
        if (!s.byAlias.isEmpty()) {
          Set<Source> distinct = new LinkedHashSet<>(s.byAlias.values());
          return distinct.size() == 1 ? Optional.of(distinct.iterator().next()) : Optional.empty();
        }
      }
      return Optional.empty();
    }
  }

  private final class Walk {
    final List<TableReference> tables = new ArrayList<>();
    final Map<String, LinkedHashSet<String>> columns = new LinkedHashMap<>();
    final List<ColumnReference> unresolved = new ArrayList<>();
    /** Every column name the query writes without a qualifier (for {@link ColumnPrefixes}). */
    final Set<String> unqualified = new LinkedHashSet<>();
    /** Which table each prefix names over every table the query reads (see {@link #placedByPrefix}). */
    final Map<String, String> queryOwners = new LinkedHashMap<>();
    final List<OutputColumn> outputs = new ArrayList<>();
    final List<Predicate> predicates = new ArrayList<>();
    final List<JoinCondition> joins = new ArrayList<>();
    final List<String> groupBy = new ArrayList<>();
    final List<OrderItem> orderBy = new ArrayList<>();
    final LinkedHashSet<String> ctes = new LinkedHashSet<>();
    final Set<String> cteNamesLower = new java.util.HashSet<>();
    OptionalLong limit = OptionalLong.empty();
    boolean hasUnion;
    boolean hasSetOperation;
    boolean hasAggregates;
    boolean hasSubqueries;

    void queryNode(@Nullable JsonNode node, Scope outer, boolean outermost) {
      if (node == null || node.isNull() || node.isMissingNode()) {
        return;
      }
      cteMap(node.path("cte_map"), outer);
      String type = node.path("type").asText("");
      switch (type) {
        case "SELECT_NODE" -> selectNode(node, outer, outermost);
        case "SET_OPERATION_NODE" -> {
          hasSetOperation = true;
          String op = node.path("setop_type").asText("");
          if (op.startsWith("UNION")) {
            hasUnion = true;
          }
          boolean first = true;
          for (JsonNode child : children(node)) {
            queryNode(child, outer, outermost && first);
            first = false;
          }
          if (outermost) {
            modifiers(node, new Scope(outer), true);
          }
        }
        case "RECURSIVE_CTE_NODE", "CTE_NODE" -> {
          queryNode(node.path("left"), outer, false);
          queryNode(node.path("right"), outer, false);
          queryNode(node.path("query"), outer, outermost);
          queryNode(node.path("child"), outer, outermost);
        }
        default -> {
          // Unknown node kinds (future DuckDB versions): still collect what is inside.
          node.forEach(child -> {
            if (child.isObject() && child.has("type") && child.path("type").asText("").endsWith("_NODE")) {
              queryNode(child, outer, false);
            }
          });
        }
      }
    }

    private Iterable<JsonNode> children(JsonNode setOp) {
      List<JsonNode> out = new ArrayList<>();
      if (setOp.has("children")) {
        setOp.get("children").forEach(out::add);
      } else {
        if (setOp.has("left")) {
          out.add(setOp.get("left"));
        }
        if (setOp.has("right")) {
          out.add(setOp.get("right"));
        }
      }
      return out;
    }

    private void cteMap(JsonNode cteMap, Scope outer) {
      for (JsonNode entry : cteMap.path("map")) {
        String name = entry.path("key").asText("");
        if (!name.isEmpty()) {
          ctes.add(name);
          cteNamesLower.add(name.toLowerCase(Locale.ROOT));
        }
      }
      for (JsonNode entry : cteMap.path("map")) {
        JsonNode value = entry.path("value");
        JsonNode q = value.has("query_node") ? value.get("query_node") : value.path("query").path("node");
        queryNode(q, outer, false);
      }
    }

    private void selectNode(JsonNode node, Scope outer, boolean outermost) {
      Scope scope = new Scope(outer);
      List<JsonNode> joinNodes = new ArrayList<>();
      fromTable(node.path("from_table"), scope, joinNodes);
      for (JsonNode item : node.path("select_list")) {
        String alias = item.path("alias").asText("");
        if (!alias.isEmpty()) {
          scope.selectAliases.add(alias.toLowerCase(Locale.ROOT));
        }
      }
      for (JsonNode item : node.path("select_list")) {
        // A comparison in the select list (CASE WHEN o_orderpriority = '1-URGENT') says what the column holds as
        // much as a filter does.
        expression(item, scope, "SELECT");
        if (outermost) {
          outputs.add(output(item, scope));
        }
      }
      // Join conditions after the select list, so that columns come out in reading order.
      for (JsonNode join : joinNodes) {
        String joinType = join.path("join_type").asText("INNER");
        expression(join.path("condition"), scope, "JOIN");
        joinConditions(join.path("condition"), scope, joinType);
        usingColumns(join, scope, joinType);
      }
      expression(node.path("where_clause"), scope, "WHERE");
      joinConditions(node.path("where_clause"), scope, "INNER");
      for (JsonNode g : node.path("group_expressions")) {
        expression(g, scope, null);
        if (outermost) {
          groupBy.add(text(g));
        }
      }
      expression(node.path("having"), scope, "HAVING");
      expression(node.path("qualify"), scope, "QUALIFY");
      modifiers(node, scope, outermost);
    }

    private void modifiers(JsonNode node, Scope scope, boolean outermost) {
      for (JsonNode m : node.path("modifiers")) {
        String type = m.path("type").asText("");
        if (type.equals("ORDER_MODIFIER")) {
          for (JsonNode o : m.path("orders")) {
            expression(o.path("expression"), scope, null);
            if (outermost) {
              orderBy.add(new OrderItem(text(o.path("expression")), o.path("type").asText("").startsWith("DESC")));
            }
          }
        } else if (type.equals("LIMIT_MODIFIER") && outermost) {
          JsonNode lim = m.path("limit");
          if (lim.path("class").asText("").equals("CONSTANT")) {
            try {
              limit = OptionalLong.of(Long.parseLong(lim.path("literal").path("text").asText(
                  lim.path("value").path("value").asText(""))));
            } catch (NumberFormatException ignored) {
              // A non-integer limit (a percentage, an expression) is not a row count.
            }
          }
        }
      }
    }

    private void fromTable(@Nullable JsonNode ref, Scope scope, List<JsonNode> joinNodes) {
      if (ref == null || ref.isMissingNode() || ref.isNull()) {
        return;
      }
      String type = ref.path("type").asText("");
      String alias = ref.path("alias").asText("");
      switch (type) {
        case "BASE_TABLE" -> {
          String name = ref.path("table_name").asText("");
          boolean isCte = ref.path("schema_name").asText("").isEmpty()
              && cteNamesLower.contains(name.toLowerCase(Locale.ROOT));
          Source src = new Source(name, !isCte);
          scope.byAlias.put((alias.isEmpty() ? name : alias).toLowerCase(Locale.ROOT), src);
          if (!isCte) {
            tables.add(new TableReference(name, alias.isEmpty() ? Optional.empty() : Optional.of(alias)));
            columns.computeIfAbsent(name, k -> new LinkedHashSet<>());
          }
        }
        case "JOIN" -> {
          fromTable(ref.path("left"), scope, joinNodes);
          fromTable(ref.path("right"), scope, joinNodes);
          joinNodes.add(ref);
        }
        case "SUBQUERY" -> {
          hasSubqueries = true;
          queryNode(ref.path("subquery").path("node"), scope.parent, false);
          if (!alias.isEmpty()) {
            scope.byAlias.put(alias.toLowerCase(Locale.ROOT), new Source(alias, false));
          }
        }
        case "TABLE_FUNCTION" -> {
          expression(ref.path("function"), scope, null);
          if (!alias.isEmpty()) {
            scope.byAlias.put(alias.toLowerCase(Locale.ROOT), new Source(alias, false));
          }
        }
        default -> {
          // EMPTY (no FROM), EXPRESSION_LIST (VALUES), PIVOT...: nothing to name.
        }
      }
    }

    private void usingColumns(JsonNode ref, Scope scope, String joinType) {
      for (JsonNode using : ref.path("using_columns")) {
        List<Source> sides = lastBaseTables(ref, scope);
        ColumnReference l = new ColumnReference(
            sides.size() > 0 ? Optional.of(sides.get(0).name()) : Optional.empty(), using.asText());
        ColumnReference r = new ColumnReference(
            sides.size() > 1 ? Optional.of(sides.get(1).name()) : Optional.empty(), using.asText());
        l.table().ifPresent(t -> columns.computeIfAbsent(t, k -> new LinkedHashSet<>()).add(using.asText()));
        r.table().ifPresent(t -> columns.computeIfAbsent(t, k -> new LinkedHashSet<>()).add(using.asText()));
        joins.add(new JoinCondition(l, r, joinType));
      }
    }

    /** The base tables named directly on the left and right sides of a join, for USING columns. */
    private List<Source> lastBaseTables(JsonNode join, Scope scope) {
      List<Source> out = new ArrayList<>();
      for (String side : List.of("left", "right")) {
        JsonNode n = join.path(side);
        while (n.path("type").asText("").equals("JOIN")) {
          n = n.path("right");
        }
        String alias = n.path("alias").asText("");
        String name = alias.isEmpty() ? n.path("table_name").asText("") : alias;
        scope.lookup(name).filter(Source::baseTable).ifPresent(out::add);
      }
      return out;
    }

    private void joinConditions(@Nullable JsonNode cond, Scope scope, String joinType) {
      if (cond == null || cond.isMissingNode() || cond.isNull()) {
        return;
      }
      String cls = cond.path("class").asText("");
      if (cls.equals("CONJUNCTION") && cond.path("type").asText("").equals("CONJUNCTION_AND")) {
        cond.path("children").forEach(c -> joinConditions(c, scope, joinType));
        return;
      }
      if (cls.equals("COMPARISON") && cond.path("type").asText("").equals("COMPARE_EQUAL")) {
        JsonNode l = unwrapColumn(cond.path("left"));
        JsonNode r = unwrapColumn(cond.path("right"));
        if (l != null && r != null) {
          ColumnReference lc = resolve(l, scope);
          ColumnReference rc = resolve(r, scope);
          if (!(lc.table().isPresent() && lc.table().equals(rc.table()))) {
            joins.add(new JoinCondition(lc, rc, joinType));
          }
        }
      }
    }

    /** Walks an expression: records column references, predicates, aggregates and subqueries. */
    private void expression(@Nullable JsonNode e, Scope scope, String clause) {
      if (e == null || e.isMissingNode() || e.isNull() || !e.isObject()) {
        return;
      }
      String cls = e.path("class").asText("");
      switch (cls) {
        case "COLUMN_REF" -> {
          ColumnReference ref = resolve(e, scope);
          if (ref.table().isPresent()) {
            columns.computeIfAbsent(ref.table().get(), k -> new LinkedHashSet<>()).add(ref.column());
          } else if (!isSelectAlias(e, scope) && !unresolved.contains(ref)) {
            unresolved.add(ref);
          }
          return;
        }
        case "SUBQUERY" -> {
          hasSubqueries = true;
          queryNode(e.path("subquery").path("node"), scope, false);
          expression(e.path("child"), scope, clause);
          return;
        }
        case "FUNCTION", "AGGREGATE", "WINDOW" -> {
          String fn = e.path("function_name").asText("").toLowerCase(Locale.ROOT);
          if (AGGREGATES.contains(fn) && !cls.equals("WINDOW")) {
            hasAggregates = true;
          }
          if (clause != null && LIKE_FUNCTIONS.containsKey(fn)) {
            List<JsonNode> args = arguments(e);
            if (args.size() >= 2) {
              predicate(args.get(0), List.of(args.get(1)), LIKE_FUNCTIONS.get(fn), scope, clause);
            }
          }
        }
        case "COMPARISON" -> {
          String op = COMPARISONS.get(e.path("type").asText(""));
          if (clause != null && op != null) {
            JsonNode l = e.path("left");
            JsonNode r = e.path("right");
            if (constant(r) != null) {
              predicate(l, List.of(r), op, scope, clause);
            } else if (constant(l) != null) {
              predicate(r, List.of(l), FLIPPED.getOrDefault(op, op), scope, clause);
            }
          }
        }
        case "OPERATOR" -> {
          String type = e.path("type").asText("");
          JsonNode negated = e.path("children").path(0);
          if (clause != null && type.equals("OPERATOR_NOT") && e.path("children").size() == 1
              && negated.path("type").asText("").equals("COMPARE_IN")) {
            List<JsonNode> kids = new ArrayList<>();
            negated.path("children").forEach(kids::add);
            if (kids.size() >= 2) {
              predicate(kids.get(0), kids.subList(1, kids.size()), "NOT IN", scope, clause);
            }
            expression(negated, scope, null);
            return;
          }
          if (clause != null && (type.equals("COMPARE_IN") || type.equals("COMPARE_NOT_IN"))) {
            List<JsonNode> kids = new ArrayList<>();
            e.path("children").forEach(kids::add);
            if (kids.size() >= 2) {
              predicate(kids.get(0), kids.subList(1, kids.size()), type.equals("COMPARE_IN") ? "IN" : "NOT IN",
                  scope, clause);
            }
          }
        }
        case "BETWEEN" -> {
          if (clause != null) {
            predicate(e.path("input"), List.of(e.path("lower"), e.path("upper")), "BETWEEN", scope, clause);
          }
        }
        default -> {
          // Other expression classes are walked generically below.
        }
      }
      e.fields().forEachRemaining(f -> {
        JsonNode v = f.getValue();
        if (f.getKey().equals("subquery")) {
          return;
        }
        if (v.isObject()) {
          if (v.has("class") || v.has("expression")) {
            expression(v.has("class") ? v : v.get("expression"), scope, clause);
          }
        } else if (v.isArray()) {
          for (JsonNode item : v) {
            if (item.isObject()) {
              if (item.has("class")) {
                expression(item, scope, clause);
              } else if (item.has("expression")) {
                expression(item.get("expression"), scope, clause);
              } else if (item.has("when_expr")) {
                expression(item.get("when_expr"), scope, clause);
                expression(item.get("then_expr"), scope, clause);
              }
            }
          }
        }
      });
    }

    private void predicate(JsonNode columnSide, List<JsonNode> literalSide, String op, Scope scope, String clause) {
      JsonNode col = unwrapColumn(columnSide);
      if (col == null) {
        return;
      }
      List<String> values = new ArrayList<>();
      List<String> kinds = new ArrayList<>();
      for (JsonNode l : literalSide) {
        @Nullable String @Nullable [] lit = constant(l);
        if (lit == null) {
          return;
        }
        kinds.add(lit[0]);
        values.add(lit[1]);
      }
      predicates.add(new Predicate(resolve(col, scope), op, values, kinds, clause));
    }

    /** A column reference, possibly under casts or one-argument-column functions like {@code lower(x)}. */
    private @Nullable JsonNode unwrapColumn(@Nullable JsonNode e) {
      for (int depth = 0; depth < 8 && e != null && e.isObject(); depth++) {
        String cls = e.path("class").asText("");
        if (cls.equals("COLUMN_REF")) {
          return e;
        }
        if (cls.equals("CAST") || cls.equals("COLLATE")) {
          e = e.path("child");
        } else if (cls.equals("FUNCTION")) {
          List<JsonNode> args = arguments(e);
          @Nullable JsonNode only = null;
          for (JsonNode a : args) {
            if (literal(a) == null) {
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

    private ColumnReference resolve(JsonNode colRef, Scope scope) {
      List<String> parts = new ArrayList<>();
      colRef.path("column_names").forEach(p -> parts.add(p.asText()));
      if (parts.isEmpty()) {
        return new ColumnReference(Optional.empty(), "");
      }
      String column = parts.get(parts.size() - 1);
      if (parts.size() >= 2) {
        String qualifier = parts.get(parts.size() - 2);
        Optional<Source> src = scope.lookup(qualifier);
        if (src.isPresent()) {
          return new ColumnReference(src.get().baseTable() ? Optional.of(src.get().name()) : Optional.empty(), column);
        }
        return new ColumnReference(Optional.empty(), column);
      }
      if (isSelectAlias(colRef, scope)) {
        return new ColumnReference(Optional.empty(), column);
      }
      Optional<String> placed = placedByPrefix(column, scope);
      if (placed.isPresent()) {
        return new ColumnReference(placed, column);
      }
      Optional<Source> single = scope.single();
      if (single.isPresent() && single.get().baseTable()) {
        return new ColumnReference(Optional.of(single.get().name()), column);
      }
      return new ColumnReference(Optional.empty(), column);
    }

    /**
     * The table an unqualified column's prefix names ({@link ColumnPrefixes}): in the nearest block with sources, or,
     * when that block's tables follow the convention but none carries this prefix, in an enclosing block (a
     * correlated reference: {@code p_partkey} inside a subquery over {@code lineitem}). Empty in a block that reads a
     * derived table or CTE, whose columns the convention says nothing about.
     */
    private Optional<String> placedByPrefix(String column, Scope scope) {
      Optional<String> prefix = ColumnPrefixes.prefix(column);
      if (prefix.isEmpty()) {
        return Optional.empty();
      }
      for (Scope s = scope; s != null; s = s.parent) {
        if (s.byAlias.isEmpty()) {
          continue;
        }
        if (s.byAlias.values().stream().anyMatch(src -> !src.baseTable())) {
          return Optional.empty();
        }
        List<String> tables = s.byAlias.values().stream().map(Source::name).distinct().toList();
        // The query's tables together say which table a prefix names: p is part's beside partsupp, also in a block
        // over partsupp alone (TPC-H Q2's correlated p_partkey), where this block's tables would give it partsupp.
        String queryOwner = queryOwners.get(prefix.get());
        if (queryOwner != null && tables.stream().noneMatch(queryOwner::equalsIgnoreCase)
            && enclosedBy(queryOwner, s.parent)) {
          continue;
        }
        Map<String, String> owners = ColumnPrefixes.owners(unqualified, tables);
        String owner = owners.get(prefix.get());
        if (owner != null || owners.isEmpty()) {
          return Optional.ofNullable(owner);
        }
      }
      return Optional.empty();
    }

    /** Whether an enclosing block reads the table (as a base table). */
    private static boolean enclosedBy(String table, @Nullable Scope scope) {
      for (Scope s = scope; s != null; s = s.parent) {
        if (s.byAlias.values().stream().anyMatch(src -> src.baseTable() && table.equalsIgnoreCase(src.name()))) {
          return true;
        }
      }
      return false;
    }

    private boolean isSelectAlias(JsonNode colRef, Scope scope) {
      JsonNode names = colRef.path("column_names");
      return names.size() == 1 && scope.selectAliases.contains(names.get(0).asText().toLowerCase(Locale.ROOT));
    }

    private OutputColumn output(JsonNode item, Scope scope) {
      String cls = item.path("class").asText("");
      String alias = item.path("alias").asText("");
      String text = text(item);
      if (cls.equals("STAR")) {
        return new OutputColumn(alias.isEmpty() ? "*" : alias, text, Optional.empty(), true);
      }
      if (cls.equals("COLUMN_REF")) {
        ColumnReference ref = resolve(item, scope);
        return new OutputColumn(alias.isEmpty() ? ref.column() : alias, text, Optional.of(ref), false);
      }
      return new OutputColumn(alias.isEmpty() ? text : alias, text, Optional.empty(), false);
    }

    private final Map<JsonNode, String> rendered = new HashMap<>();

    private String text(JsonNode expression) {
      return rendered.computeIfAbsent(expression, ex -> {
        com.fasterxml.jackson.databind.node.ObjectNode copy = (com.fasterxml.jackson.databind.node.ObjectNode) ex.deepCopy();
        copy.put("alias", "");
        try {
          return parser.renderExpression(copy);
        } catch (RuntimeException ignored) {
          return "<expression>";
        }
      });
    }
  }
}
