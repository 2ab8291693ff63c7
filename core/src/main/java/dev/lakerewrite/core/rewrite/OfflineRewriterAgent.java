package dev.lakerewrite.core.rewrite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.match.AssumedSchema;
import dev.lakerewrite.core.match.ColumnMapping;
import dev.lakerewrite.core.match.MappingConfidence;
import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.JoinRoute;
import dev.lakerewrite.core.rewrite.OfflinePlanner.LiteralFix;
import dev.lakerewrite.core.rewrite.OfflinePlanner.Plan;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.noiseudf.Cleaners;
import dev.lakerewrite.retrieval.TypeFamily;
import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The rewriter without a model: plans the mapping from the evidence ({@link OfflinePlanner}) and applies it to
 * the user's own syntax tree, so everything the user wrote (grouping, ordering, limits, expressions) stays:
 * table references are pointed at lake tables (keeping the user's names as aliases), column references at lake
 * columns (output columns keep the user's names), filter literals take the lake's spelling, obsolete tables and
 * their joins go, wrong join keys are replaced by the join graph's, missing columns arrive through added joins,
 * noisy tables are read through their cleaned CTEs, and numbers or dates stored as text are read through the
 * vetted {@code clean_number}/{@code clean_date} functions.
 *
 * <p>The rewrite is scope-aware: every column reference is resolved with SQL's scoping rules ({@link
 * dev.lakerewrite.core.match.AssumedSchema#source}) to the FROM item it reads — in its own block, or an enclosing
 * one for a correlated reference in a scalar, {@code IN} or {@code EXISTS} subquery — and pointed at the lake
 * through that block's mapping and alias. An assumed table has one mapping in every block where it appears; each
 * occurrence keeps the user's alias (each side of a self-join its own, with its own added joins); a block never
 * loses its FROM clause; a column the plan mapped nowhere is read from its table's best guess rather than left for
 * the binder to reject. So a query that binds on its assumed schema binds on the lake ({@code
 * ScopeAwareRewriteTest} checks it, and the rows, on generated queries of every shape over renamed and split
 * lakes).
 */
final class OfflineRewriterAgent implements RewriterAgent {
  private final SqlParser parser;

  public OfflineRewriterAgent(SqlParser parser) {
    this.parser = parser;
  }

  @Override
  public Proposal propose(RewriteState state) {
    if (state.analysis().isEmpty()) {
      throw new IllegalStateException("the offline rewriter needs a query that parses");
    }
    OfflinePlanner planner = new OfflinePlanner(state);
    Plan best = planner.plan();
    Rewrite r = new Rewrite(state, best, new Trees(parser), planner);
    String sql = r.apply();
    List<String> reason = new ArrayList<>();
    if (lastLostAScope(state)) {
      // Execution feedback: DuckDB's binder found an alias with no table behind it in the last candidate. Editing
      // the user's query in place can lose a scope (an alias of an outer query, a FROM clause of a subquery, a
      // table dropped as obsolete); the view rewrite cannot, since it leaves the query as written and supplies the
      // tables it assumes. Tried once per plan.
      ViewRewrite v = new ViewRewrite(state, best, planner, new Trees(parser));
      String viewSql = v.apply();
      if (state.history().stream().noneMatch(c -> c.sql().equals(viewSql))) {
        reason.add("the last candidate lost a scope in DuckDB's binder: the query as written over views of its "
            + "assumed tables");
        best.tables().values().forEach(t -> reason.add(t.assumed() + "→" + best.effective(t.assumed())
            .map(TableChoice::lake).orElse(t.lake())));
        reason.addAll(best.notes());
        return new Proposal(viewSql, String.join("; ", reason), v.usedTables(),
            mapping(planner, best, v.mapping(), k -> new String[] {v.assumedName(k.substring(0, k.indexOf('.'))),
                v.columnName(k)}, v.warnings()));
      }
    }
    Plan plan = best;
    Optional<RewriteCandidate> failed = failedBefore(state, sql);
    if (failed.isPresent()) {
      // Execution-guided search: the best plan, with all the evidence there is, already ran and failed (an error or
      // no rows). Its next alternatives (one assumed table on a runner-up table) become candidates, and the checker
      // ranks them all on their results.
      for (int n = 1; n <= MAX_ALTERNATIVES; n++) {
        Optional<Plan> alternative = planner.alternative(n);
        if (alternative.isEmpty()) {
          break;
        }
        Rewrite ra = new Rewrite(state, alternative.get(), new Trees(parser), planner);
        String altSql = ra.apply();
        if (!triedBefore(state, altSql)) {
          reason.add("candidate " + failed.get().index() + ", the best plan's query, "
              + failed.get().error().map(e -> "failed (" + e.summary() + ")").orElse("returned no rows"));
          plan = alternative.get();
          r = ra;
          sql = altSql;
          break;
        }
      }
    }
    Rewrite applied = r;
    plan.tables().values().forEach(t -> reason.add(t.mergedInto() != null
        ? t.assumed() + " dropped (obsolete)" : t.assumed() + "→" + applied.lakeNameOf(t)));
    reason.addAll(plan.notes());
    return new Proposal(sql, String.join("; ", reason), r.usedTables(),
        mapping(planner, plan, r.mapping, r.assumedNames::get, r.guesses.stream().distinct().toList()));
  }

  /** Alternative plans tried, at most, when the best plan's query failed. */
  static final int MAX_ALTERNATIVES = 6;

  /** The earlier candidate with this SQL, when it failed: an error, or no rows. */
  private static Optional<RewriteCandidate> failedBefore(RewriteState state, String sql) {
    String key = RewriteLoop.normalized(sql);
    return state.history().stream().filter(c -> RewriteLoop.normalized(c.sql()).equals(key))
        .filter(OfflineRewriterAgent::failed).findFirst();
  }

  private static boolean triedBefore(RewriteState state, String sql) {
    String key = RewriteLoop.normalized(sql);
    return state.history().stream().anyMatch(c -> RewriteLoop.normalized(c.sql()).equals(key));
  }

  /** Whether a candidate's execution says its mapping is wrong: it failed, or it returned no rows. */
  static boolean failed(RewriteCandidate c) {
    return c.result().map(t -> t.rowCount() == 0).orElse(true);
  }

  /**
   * Whether the latest candidate lost a scope in DuckDB's binder: it names an alias no FROM clause in reach defines
   * ({@code Referenced table "l" not found}, {@code Values list "c" does not have a column}). A missing column of a
   * table that is in scope is a mapping question, which the plan's next evidence answers instead.
   */
  private static boolean lastLostAScope(RewriteState state) {
    List<RewriteCandidate> h = state.history();
    return !h.isEmpty() && h.get(h.size() - 1).error().filter(e -> e.kind() == ErrorKind.BINDER)
        .map(e -> LOST_SCOPE.matcher(e.message()).find()).orElse(false);
  }

  private static final java.util.regex.Pattern LOST_SCOPE = java.util.regex.Pattern.compile(
      "Referenced table \"[^\"]*\" not found|Values list \"[^\"]*\" does not have a column");

  /**
   * The mapping the rewrite applied (every assumed column reference it pointed at the lake), each column with the
   * calibrated confidence of its lake column ({@link MappingConfidence}); the plan's unmapped columns are warnings.
   */
  private static ColumnMapping mapping(OfflinePlanner planner, Plan plan, Map<String, Set<String>> applied,
      java.util.function.Function<String, String[]> assumedNames, List<String> notes) {
    Map<String, Double> confidence = new LinkedHashMap<>();
    MappingConfidence calibration = MappingConfidence.standard();
    double least = 1;
    for (Map.Entry<String, Set<String>> e : applied.entrySet()) {
      String[] assumed = assumedNames.apply(e.getKey());
      double c = 1;
      for (String lake : e.getValue()) {
        int d = lake.indexOf('.');
        double[] choice = planner.choice(assumed[0], assumed[1], lake.substring(0, d), lake.substring(d + 1));
        c = Math.min(c, calibration.confidence(choice[0], choice[1], choice[2]));
      }
      confidence.put(e.getKey(), c);
      least = Math.min(least, c);
    }
    List<String> warnings = new ArrayList<>(notes);
    plan.tables().values().forEach(t -> t.unmapped().forEach(c -> warnings.add(
        "no lake column found for " + t.assumed() + "." + c)));
    return new ColumnMapping(applied, confidence, least, warnings.stream().distinct().toList());
  }

  /**
   * {@code l.a = r.b} for one join step. Where one key is text and the other a number (a CSV row id beside a typed
   * one), DuckDB would cast the text to the number and fail on the first noisy cell ({@code ' 83'}), so the text
   * side is read with {@code clean_number(clean_text(...))} unless a cleaning CTE already typed it.
   */
  static String keyEquality(LakeTools lake, Map<String, Evidence.CleanedTable> cleaned, Evidence.JoinStep s,
      String leftAlias, String rightAlias) {
    String l = Sql.qualified(leftAlias, s.leftColumn());
    String r = Sql.qualified(rightAlias, s.rightColumn());
    boolean leftText = textHoldingNumbers(lake, cleaned, s.leftTable(), s.leftColumn());
    boolean rightText = textHoldingNumbers(lake, cleaned, s.rightTable(), s.rightColumn());
    if (leftText && typedNumber(lake, s.rightTable(), s.rightColumn())) {
      l = "clean_number(clean_text(" + l + "))";
    } else if (rightText && typedNumber(lake, s.leftTable(), s.leftColumn())) {
      r = "clean_number(clean_text(" + r + "))";
    }
    return l + " = " + r;
  }

  /**
   * The name a rewritten query reads a lake table under: its cleaned CTE when BUILD_CTE cleaned it (added to
   * {@code cteUsed}, the CTEs the WITH clause must define), else the table itself.
   */
  static String readFrom(Map<String, Evidence.CleanedTable> cleaned, String lakeTable, Set<String> cteUsed) {
    Evidence.CleanedTable c = cleaned.get(lakeTable);
    if (c == null) {
      return lakeTable;
    }
    cteUsed.add(lakeTable);
    return c.name();
  }

  private static boolean textHoldingNumbers(LakeTools lake, Map<String, Evidence.CleanedTable> cleaned, String table,
      String column) {
    Evidence.CleanedTable c = cleaned.get(table);
    if (c != null && c.cleanedColumns().containsKey(column)) {
      return false;
    }
    return lake.table(table).column(column).map(k -> k.type().equals("VARCHAR")).orElse(false)
        && lake.profile(table).column(column).map(k -> k.typeFamily() == TypeFamily.NUMERIC).orElse(false);
  }

  private static boolean typedNumber(LakeTools lake, String table, String column) {
    return lake.table(table).column(column)
        .map(k -> TypeFamily.fromSqlType(k.type()) == TypeFamily.NUMERIC && !k.type().equals("VARCHAR")).orElse(false);
  }

  /** One application of a plan to the user's tree. */
  static final class Rewrite {
    private final RewriteState state;
    private final Plan plan;
    private final Trees editor;
    private final Set<String> used = new LinkedHashSet<>();
    private final Set<String> cteUsed = new LinkedHashSet<>();
    /** Assumed {@code table.column} (lower case) → the lake {@code table.column}s read for it. */
    final Map<String, Set<String>> mapping = new LinkedHashMap<>();
    /** The same keys → {assumed table, assumed column} as the query writes them. */
    final Map<String, String[]> assumedNames = new LinkedHashMap<>();
    /** Nodes already pointed at the lake: never rewritten twice. */
    private final Set<JsonNode> done = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private int aliasCounter;

    /** Where a column the plan left unmapped is guessed (null: such columns stay as written). */
    private final @Nullable OfflinePlanner planner;
    /** Columns read from a best guess because the plan mapped them nowhere. */
    final List<String> guesses = new ArrayList<>();

    Rewrite(RewriteState state, Plan plan, Trees editor) {
      this(state, plan, editor, null);
    }

    Rewrite(RewriteState state, Plan plan, Trees editor, @Nullable OfflinePlanner planner) {
      this.state = state;
      this.plan = plan;
      this.editor = editor;
      this.planner = planner;
    }

    List<String> usedTables() {
      return new ArrayList<>(used);
    }

    String lakeNameOf(TableChoice t) {
      Evidence.CleanedTable c = plan.cleaned().get(t.lake());
      return c != null ? c.name() + " (cleaned " + t.lake() + ")" : t.lake();
    }

    String apply() {
      ObjectNode tree = editor.statement(state.userQuery());
      // Read before any edit: which FROM item (in which block, at any depth) each column reference reads.
      schema = AssumedSchema.of(tree);
      findArithmetic(tree);
      textOperands = SqlAnalyzer.textOperands(tree);
      Set<String> userCtes = new LinkedHashSet<>();
      state.analysis().orElseThrow().cteNames().forEach(n -> userCtes.add(n.toLowerCase(Locale.ROOT)));
      List<ObjectNode> selects = new ArrayList<>();
      Trees.selectNodes(tree.get("node"), selects::add);
      // Every block's FROM clause first (its tables, aliases and added joins), then every block's expressions:
      // a correlated reference in a subquery resolves to the enclosing block's mapping, whatever the order.
      Map<JsonNode, ObjectNode> enclosing = new java.util.IdentityHashMap<>();
      enclosingSelects(tree.get("node"), null, enclosing);
      Map<JsonNode, Scope> scopeOf = new java.util.IdentityHashMap<>();
      List<Scope> scopes = new ArrayList<>();
      for (ObjectNode sel : selects) {
        Scope scope = rewriteFromClause(sel, userCtes);
        scope.parent = enclosing.containsKey(sel) ? scopeOf.get(enclosing.get(sel)) : null;
        scopeOf.put(sel, scope);
        scopes.add(scope);
      }
      for (int i = 0; i < selects.size(); i++) {
        rewriteClauses(selects.get(i), scopes.get(i));
      }
      addCtes((ObjectNode) tree.get("node"));
      return editor.render(tree);
    }

    /** Each SELECT block → the block it is nested in (subqueries, derived tables; CTE bodies of nested WITHs). */
    private static void enclosingSelects(JsonNode n, @Nullable ObjectNode outer, Map<JsonNode, ObjectNode> out) {
      if (n == null) {
        return;
      }
      ObjectNode here = outer;
      if (n.isObject() && "SELECT_NODE".equals(n.path("type").asText()) && n.has("select_list")) {
        if (outer != null) {
          out.put(n, outer);
        }
        here = (ObjectNode) n;
      }
      if (n.isContainerNode()) {
        for (JsonNode child : n) {
          enclosingSelects(child, here, out);
        }
      }
    }

    /** The query's assumed schema, read from the tree being edited (bindings are by node). */
    private @Nullable AssumedSchema schema;
    /** Each FROM item of an assumed table (the user's node, by identity) → its block's scope and alias key. */
    private final Map<JsonNode, Owner> owners = new java.util.IdentityHashMap<>();

    private record Owner(Scope scope, String aliasKey) {}

    // ----- scope --------------------------------------------------------------------------------------------

    /** A table reference in one SELECT: its alias, the assumed table, and the alias queries should use. */
    private final class Scope {
      final Map<String, TableChoice> byAlias = new LinkedHashMap<>();
      final Map<String, String> aliasOfAssumed = new LinkedHashMap<>();
      /** Alias key (lower case) → the alias as written (the table's name when it has none). */
      final Map<String, String> written = new LinkedHashMap<>();
      final Map<String, String> extraAlias = new LinkedHashMap<>(); // assumed|lake → alias of an added join
      /** Occurrence alias → the FROM item its added joins replaced it with (the next joins wrap it whole). */
      final Map<String, ObjectNode> joinedItems = new LinkedHashMap<>();
      final Set<String> selectAliases = new LinkedHashSet<>();
      /** Output column (lower case) of a derived table in this block's FROM → that derived table's alias. */
      final Map<String, String> derivedColumns = new LinkedHashMap<>();
      /** Whether this block's FROM reads a table the plan does not map (a user's CTE, say): its columns are unknown. */
      boolean readsUnmapped;
      /** The enclosing block's scope (null at the top, and for blocks not nested in another). */
      @Nullable Scope parent;
      /** The FROM clause after the rewrite (null when the block reads no assumed table). */
      @Nullable JsonNode from;

      /** The assumed table behind an alias (an obsolete table keeps its own mapping; {@link #aliasFor} redirects). */
      Optional<TableChoice> table(String alias) {
        return Optional.ofNullable(byAlias.get(alias.toLowerCase(Locale.ROOT)));
      }

      String aliasFor(TableChoice t) {
        TableChoice effective = plan.effective(t.assumed()).orElse(t);
        return aliasOfAssumed.getOrDefault(OfflinePlanner.key(effective.assumed()),
            aliasOfAssumed.getOrDefault(OfflinePlanner.key(t.assumed()), t.assumed()));
      }
    }

    /** A block's FROM clause: its assumed tables pointed at the lake under the user's aliases, joins added. */
    private Scope rewriteFromClause(ObjectNode sel, Set<String> userCtes) {
      Scope scope = new Scope();
      collect(sel.get("from_table"), scope, userCtes);
      for (JsonNode item : sel.path("select_list")) {
        String alias = item.path("alias").asText("");
        if (!alias.isEmpty()) {
          scope.selectAliases.add(alias.toLowerCase(Locale.ROOT));
        }
      }
      if (scope.byAlias.isEmpty()) {
        return scope;
      }
      JsonNode from = rewriteFrom(sel.get("from_table"), scope);
      from = addJoins(from, scope);
      sel.set("from_table", from);
      scope.from = from;
      return scope;
    }

    /**
     * A block's expressions: every column reference is pointed at the lake through the scope of the FROM item it
     * reads (this block's, or an enclosing one's for a correlated reference); a block without assumed tables of its
     * own still has its outer references rewritten.
     */
    private void rewriteClauses(ObjectNode sel, Scope scope) {
      if (scope.from != null) {
        rewriteJoinConditions(scope.from, scope);
      }
      fixCorrelations(sel.get("where_clause"));
      for (JsonNode item : sel.path("select_list")) {
        rewriteOutput((ObjectNode) item, scope);
      }
      for (String clause : List.of("where_clause", "having", "qualify")) {
        if (sel.has(clause) && sel.get(clause).isObject()) {
          rewriteExpression((ObjectNode) sel.get(clause), scope, false);
        }
      }
      for (JsonNode g : sel.path("group_expressions")) {
        if (g.isObject()) {
          rewriteExpression((ObjectNode) g, scope, true);
        }
      }
      for (JsonNode m : sel.path("modifiers")) {
        for (JsonNode o : m.path("orders")) {
          if (o.path("expression").isObject()) {
            rewriteExpression((ObjectNode) o.get("expression"), scope, true);
          }
        }
      }
    }

    private void collect(JsonNode ref, Scope scope, Set<String> userCtes) {
      if (ref == null || !ref.isObject()) {
        return;
      }
      String type = ref.path("type").asText("");
      if (type.equals("BASE_TABLE")) {
        String name = ref.path("table_name").asText("");
        if (userCtes.contains(name.toLowerCase(Locale.ROOT))) {
          scope.readsUnmapped = true;
          return;
        }
        Optional<TableChoice> choice = plan.table(name);
        if (choice.isEmpty()) {
          scope.readsUnmapped = true;
          return;
        }
        String alias = ref.path("alias").asText("");
        String key = (alias.isEmpty() ? name : alias).toLowerCase(Locale.ROOT);
        scope.byAlias.put(key, choice.get());
        scope.written.put(key, alias.isEmpty() ? name : alias);
        owners.put(ref, new Owner(scope, key));
        scope.aliasOfAssumed.put(OfflinePlanner.key(choice.get().assumed()), alias.isEmpty() ? name : alias);
      } else if (type.equals("JOIN")) {
        collect(ref.get("left"), scope, userCtes);
        collect(ref.get("right"), scope, userCtes);
      } else if (type.equals("SUBQUERY") && !ref.path("alias").asText("").isEmpty()) {
        for (String c : outputNames(ref.path("subquery").path("node"))) {
          scope.derivedColumns.putIfAbsent(c.toLowerCase(Locale.ROOT), ref.path("alias").asText());
        }
      }
    }

    /** The output column names of a query node (a set operation's are its first branch's). */
    private static List<String> outputNames(JsonNode node) {
      if ("SET_OPERATION_NODE".equals(node.path("type").asText())) {
        return outputNames(node.has("children") ? node.path("children").path(0) : node.path("left"));
      }
      List<String> out = new ArrayList<>();
      for (JsonNode item : node.path("select_list")) {
        String alias = item.path("alias").asText("");
        List<String> names = "COLUMN_REF".equals(item.path("class").asText()) ? Trees.columnNames(item) : List.of();
        if (!alias.isEmpty()) {
          out.add(alias);
        } else if (!names.isEmpty()) {
          out.add(names.get(names.size() - 1));
        }
      }
      return out;
    }

    // ----- FROM ---------------------------------------------------------------------------------------------

    private @Nullable JsonNode rewriteFrom(JsonNode ref, Scope scope) {
      if (ref == null || !ref.isObject()) {
        return ref;
      }
      ObjectNode node = (ObjectNode) ref;
      String type = node.path("type").asText("");
      if (type.equals("BASE_TABLE")) {
        String name = node.path("table_name").asText("");
        String alias = node.path("alias").asText("");
        Optional<TableChoice> choice = scope.table(alias.isEmpty() ? name : alias);
        if (choice.isEmpty() || !choice.get().assumed().equalsIgnoreCase(name)) {
          return node;
        }
        TableChoice t = choice.get();
        if (t.mergedInto() != null) {
          TableChoice absorbing = plan.effective(t.assumed()).orElse(t);
          if (scope.aliasOfAssumed.containsKey(OfflinePlanner.key(absorbing.assumed()))) {
            return null; // removed by the enclosing JOIN: the absorbing table of this block answers it
          }
          // The table that absorbs it is not in this block (a subquery, a CTE): read it here, under this alias.
          return tableNode(absorbing, alias.isEmpty() ? name : alias);
        }
        return tableNode(t, alias.isEmpty() ? name : alias);
      }
      if (type.equals("JOIN")) {
        JsonNode left = rewriteFrom(node.get("left"), scope);
        JsonNode right = rewriteFrom(node.get("right"), scope);
        if (left == null) {
          redirectMerged(node.get("left"), scope);
          return right;
        }
        if (right == null) {
          redirectMerged(node.get("right"), scope);
          return left;
        }
        node.set("left", left);
        node.set("right", right);
        fixJoinCondition(node, scope);
        return node;
      }
      return node;
    }

    /** Points the column references of the user's own join conditions at the lake. */
    private void rewriteJoinConditions(JsonNode from, Scope scope) {
      if (from instanceof ObjectNode node && "JOIN".equals(node.path("type").asText())) {
        rewriteJoinConditions(node.get("left"), scope);
        rewriteJoinConditions(node.get("right"), scope);
        if (node.get("condition") instanceof ObjectNode cond) {
          rewriteExpression(cond, scope, false);
        }
      }
    }

    /** Marks a node we built and everything under it as final. */
    private void markDone(JsonNode node) {
      if (node == null) {
        return;
      }
      if (node.isObject()) {
        done.add(node);
      }
      node.forEach(this::markDone);
    }

    /** Makes the aliases of a removed (obsolete) table point at the table that absorbed it. */
    private void redirectMerged(JsonNode removed, Scope scope) {
      String name = removed.path("table_name").asText("");
      String alias = removed.path("alias").asText("");
      String key = (alias.isEmpty() ? name : alias).toLowerCase(Locale.ROOT);
      TableChoice t = scope.byAlias.get(key);
      if (t != null && t.mergedInto() != null) {
        String target = scope.aliasOfAssumed.get(OfflinePlanner.key(t.mergedInto()));
        if (target != null) {
          scope.aliasOfAssumed.put(OfflinePlanner.key(t.assumed()), target);
        }
      }
    }

    /** The FROM item for a mapped table: the lake table (or its cleaned CTE, or a union) under the user's name. */
    private ObjectNode tableNode(TableChoice t, String alias) {
      used.add(t.lake());
      List<Evidence.UnionPartner> partners = plan.unions().getOrDefault(t.lake(), List.of());
      if (!partners.isEmpty()) {
        String cleanedUnion = cleanedUnion(t, partners);
        return editor.parseFrom("(" + (cleanedUnion != null ? cleanedUnion : unionSql(t, partners, false)) + ") AS "
            + Sql.identifier(alias));
      }
      return editor.parseFrom(Sql.identifier(readFrom(t.lake())) + " AS " + Sql.identifier(alias));
    }

    /**
     * The base table's cleaning applied to the whole union, when the base has a cleaned table: every part holds the
     * same noise (the parts of one split table), and cleaning one part only would leave the union's column half
     * typed and half text. Null when the cleaned table's definition is not one SELECT from the base table.
     */
    private @Nullable String cleanedUnion(TableChoice t, List<Evidence.UnionPartner> partners) {
      Evidence.CleanedTable cleaned = plan.cleaned().get(t.lake());
      if (cleaned == null) {
        return null;
      }
      String definition = cleaned.definition();
      int open = definition.indexOf(" AS (");
      if (open < 0 || !definition.endsWith(")")) {
        return null;
      }
      ObjectNode body;
      try {
        body = editor.node(definition.substring(open + 5, definition.length() - 1));
      } catch (RuntimeException e) {
        return null;
      }
      JsonNode from = body.get("from_table");
      if (!"SELECT_NODE".equals(body.path("type").asText()) || from == null
          || !"BASE_TABLE".equals(from.path("type").asText())
          || !from.path("table_name").asText().equalsIgnoreCase(t.lake())) {
        return null;
      }
      Trees.replace((ObjectNode) from, editor.parseFrom("(" + unionSql(t, partners, true) + ") AS "
          + Sql.identifier(t.lake())));
      return editor.renderNode(body);
    }

    /**
     * {@code SELECT cols FROM base UNION SELECT mapped cols FROM partner ...}, named as the base's columns.
     *
     * @param raw whether the base is read as it is (its cleaning is applied around the union), with every column
     *     its cleaning names; else through its cleaned table, if any
     */
    private String unionSql(TableChoice t, List<Evidence.UnionPartner> partners, boolean raw) {
      Set<String> cols = new LinkedHashSet<>();
      t.columns().values().stream().filter(c -> c.lakeTable().equals(t.lake())).forEach(c -> cols.add(c.lakeColumn()));
      // Whole rows (every column each partner maps), not only the columns the query reads: UNION removes rows
      // that are copies in two parts, never two distinct rows that agree on the columns read (a count stays a count).
      Set<String> whole = new LinkedHashSet<>(partners.get(0).columnMapping().keySet());
      partners.forEach(p -> whole.retainAll(p.columnMapping().keySet()));
      state.lake().table(t.lake()).columnNames().stream().filter(whole::contains).forEach(cols::add);
      cols.addAll(whole);
      StringBuilder sb = new StringBuilder("SELECT ");
      Evidence.CleanedTable cleaned = plan.cleaned().get(t.lake());
      if (cleaned != null && raw) {
        state.lake().table(t.lake()).columnNames().stream().filter(cleaned.cleanedColumns()::containsKey)
            .forEach(cols::add);
        cleaned = null;
      }
      sb.append(String.join(", ", cols.stream().map(Sql::identifier).toList())).append(" FROM ")
          .append(Sql.identifier(cleaned != null ? readFrom(t.lake()) : t.lake()));
      for (Evidence.UnionPartner p : partners) {
        used.add(p.table());
        sb.append(" UNION SELECT ");
        List<String> items = new ArrayList<>();
        for (String c : cols) {
          items.add(UnionsAndNoise.unionItem(state.lake(), t.lake(), c, p.table(), p.columnMapping().get(c)));
        }
        sb.append(String.join(", ", items)).append(" FROM ").append(Sql.identifier(p.table()));
      }
      return sb.toString();
    }

    /** Replaces a join condition between two assumed tables by the join graph's keys when the plan says so. */
    private void fixJoinCondition(ObjectNode join, Scope scope) {
      Set<String> aliases = new LinkedHashSet<>();
      columnRefs(join.get("condition"), ref -> {
        List<String> names = Trees.columnNames(ref);
        if (names.size() >= 2) {
          aliases.add(names.get(names.size() - 2).toLowerCase(Locale.ROOT));
        }
      });
      List<TableChoice> sides = aliases.stream().map(a -> scope.table(a)).filter(Optional::isPresent)
          .map(Optional::get).map(t -> plan.effective(t.assumed()).orElse(t)).distinct().toList();
      if (sides.size() != 2) {
        return;
      }
      Evidence.JoinPath path = plan.joinFixes().get(OfflinePlanner.joinKey(sides.get(0).assumed(), sides.get(1).assumed()));
      boolean flipped = false;
      if (path == null) {
        path = plan.joinFixes().get(OfflinePlanner.joinKey(sides.get(1).assumed(), sides.get(0).assumed()));
        flipped = true;
      }
      if (path == null) {
        return;
      }
      TableChoice a = flipped ? sides.get(1) : sides.get(0);
      TableChoice b = flipped ? sides.get(0) : sides.get(1);
      // A multi-hop chain hangs off the join's left side: start the path at the table found there.
      if (path.steps().size() > 1 && !aliasesIn(join.get("left")).contains(scope.aliasFor(a).toLowerCase(Locale.ROOT))) {
        path = OfflinePlanner.reversed(path);
        TableChoice swap = a;
        a = b;
        b = swap;
      }
      Map<String, String> aliasOfLake = new LinkedHashMap<>();
      aliasOfLake.put(a.lake(), scope.aliasFor(a));
      aliasOfLake.put(b.lake(), scope.aliasFor(b));
      if (path.steps().size() == 1) {
        join.set("condition", editor.parseExpression(condition(path.steps().get(0), aliasOfLake)));
        markDone(join.get("condition"));
        return;
      }
      // Multi-hop: the intermediate tables join the left side, the last hop becomes this join's condition.
      StringBuilder from = new StringBuilder("lakerewrite_left");
      for (int i = 0; i < path.steps().size() - 1; i++) {
        Evidence.JoinStep s = path.steps().get(i);
        String alias = nextAlias();
        aliasOfLake.putIfAbsent(s.rightTable(), alias);
        used.add(s.rightTable());
        from.append(" JOIN ").append(Sql.identifier(s.rightTable())).append(" AS ").append(Sql.identifier(alias))
            .append(" ON ").append(condition(s, aliasOfLake));
      }
      ObjectNode chain = editor.parseFrom(from.toString());
      markDone(chain);
      replaceBase(chain, "lakerewrite_left", (ObjectNode) join.get("left"));
      join.set("left", chain);
      join.set("condition", editor.parseExpression(condition(path.steps().get(path.steps().size() - 1), aliasOfLake)));
      markDone(join.get("condition"));
    }

    /**
     * A WHERE equality between columns of two assumed tables (a correlated subquery's link to its outer block, or a
     * join written in WHERE) is a join: when the plan replaces the assumed keys of the two tables by the join
     * graph's, it is replaced here too, each side read through the alias of its own block. A path of several hops
     * is written here when all but one of its hops join tables one side already reads (the part of a table split
     * off by columns that holds the key, joined to it by the plan): the remaining hop is the equality.
     */
    private void fixCorrelations(@Nullable JsonNode where) {
      if (schema == null || where == null || !where.isObject()) {
        return;
      }
      for (JsonNode c : Trees.conjuncts(where)) {
        if (!"COMPARISON".equals(c.path("class").asText()) || !"COMPARE_EQUAL".equals(c.path("type").asText())
            || done.contains(c)) {
          continue;
        }
        Owner lo = schema.source(c.path("left")).map(owners::get).orElse(null);
        Owner ro = schema.source(c.path("right")).map(owners::get).orElse(null);
        if (lo == null || ro == null) {
          continue;
        }
        TableChoice l = lo.scope().byAlias.get(lo.aliasKey());
        TableChoice r = ro.scope().byAlias.get(ro.aliasKey());
        TableChoice le = plan.effective(l.assumed()).orElse(l);
        TableChoice re = plan.effective(r.assumed()).orElse(r);
        if (le.lake().equals(re.lake())) {
          continue;
        }
        Evidence.JoinPath path = plan.joinFixes().get(OfflinePlanner.joinKey(le.assumed(), re.assumed()));
        if (path == null) {
          path = plan.joinFixes().get(OfflinePlanner.joinKey(re.assumed(), le.assumed()));
        }
        if (path == null) {
          continue;
        }
        if (!path.from().equals(le.lake())) {
          path = OfflinePlanner.reversed(path);
        }
        Map<String, String> leftReads = joinedAliases(lo, l, le);
        Map<String, String> rightReads = joinedAliases(ro, r, re);
        // Each side reads its own table under its own alias, not under a join the other side added to it.
        leftReads.remove(re.lake());
        rightReads.remove(le.lake());
        Evidence.JoinStep crossing = crossingStep(path, leftReads, rightReads);
        if (crossing == null) {
          continue;
        }
        ObjectNode condition = editor.parseExpression(keyEquality(state.lake(), plan.cleaned(), crossing,
            leftReads.get(crossing.leftTable()), rightReads.get(crossing.rightTable())));
        Trees.replace((ObjectNode) c, condition);
        markDone(c);
      }
    }

    /**
     * The lake tables one occurrence of an assumed table reads, each under its alias: its own table, and the tables
     * the plan's added joins brought to it (a part of the table split off by columns, holding the key a join needs).
     */
    private Map<String, String> joinedAliases(Owner o, TableChoice t, TableChoice effective) {
      Map<String, String> out = new LinkedHashMap<>();
      out.put(effective.lake(), aliasOf(o, t));
      String occurrence = o.aliasKey() + "|";
      String assumed = OfflinePlanner.key(effective.assumed()) + "|";
      o.scope().extraAlias.forEach((k, alias) -> {
        if (k.startsWith(occurrence)) {
          out.put(k.substring(occurrence.length()), alias);
        }
      });
      o.scope().extraAlias.forEach((k, alias) -> {
        if (k.startsWith(assumed)) {
          out.putIfAbsent(k.substring(assumed.length()), alias);
        }
      });
      return out;
    }

    /**
     * The one hop of a join path that crosses from the tables one side reads to those the other reads, when every
     * hop before it stays among the first side's tables and every hop after it among the second's: that hop alone
     * is then the join, the others being joins each side already has. Null for a path that needs a table neither
     * side reads.
     */
    private static Evidence.@Nullable JoinStep crossingStep(Evidence.JoinPath path, Map<String, String> left,
        Map<String, String> right) {
      List<Evidence.JoinStep> steps = path.steps();
      for (int i = 0; i < steps.size(); i++) {
        Evidence.JoinStep s = steps.get(i);
        if (s.leftTable().equals(s.rightTable()) || !left.containsKey(s.leftTable())
            || !right.containsKey(s.rightTable())) {
          continue;
        }
        boolean before = steps.subList(0, i).stream()
            .allMatch(b -> left.containsKey(b.leftTable()) && left.containsKey(b.rightTable()));
        boolean after = steps.subList(i + 1, steps.size()).stream()
            .allMatch(a -> right.containsKey(a.leftTable()) && right.containsKey(a.rightTable()));
        if (before && after) {
          return s;
        }
      }
      return null;
    }

    /** The alias that reads an occurrence of an assumed table (the absorbing table's, when it was merged). */
    private static String aliasOf(Owner o, TableChoice t) {
      return t.mergedInto() == null ? o.scope().written.get(o.aliasKey()) : o.scope().aliasFor(t);
    }

    /** Aliases (lower case) of the base tables under a FROM node. */
    private static Set<String> aliasesIn(JsonNode from) {
      Set<String> out = new LinkedHashSet<>();
      if (from == null || !from.isObject()) {
        return out;
      }
      if ("BASE_TABLE".equals(from.path("type").asText()) || "SUBQUERY".equals(from.path("type").asText())) {
        String alias = from.path("alias").asText("");
        out.add((alias.isEmpty() ? from.path("table_name").asText("") : alias).toLowerCase(Locale.ROOT));
      }
      out.addAll(aliasesIn(from.get("left")));
      out.addAll(aliasesIn(from.get("right")));
      return out;
    }

    private String condition(Evidence.JoinStep s, Map<String, String> aliasOfLake) {
      String l = aliasOfLake.getOrDefault(s.leftTable(), s.leftTable());
      String r = aliasOfLake.getOrDefault(s.rightTable(), s.rightTable());
      return keyEquality(state.lake(), plan.cleaned(), s, l, r);
    }

    private String readFrom(String lakeTable) {
      return OfflineRewriterAgent.readFrom(plan.cleaned(), lakeTable, cteUsed);
    }

    private static boolean replaceBase(ObjectNode tree, String placeholder, ObjectNode with) {
      if ("BASE_TABLE".equals(tree.path("type").asText()) && placeholder.equals(tree.path("table_name").asText())) {
        tree.removeAll();
        tree.setAll(with);
        return true;
      }
      for (String side : List.of("left", "right")) {
        if (tree.get(side) instanceof ObjectNode child && replaceBase(child, placeholder, with)) {
          return true;
        }
      }
      return false;
    }

    /** Adds the joins that bring columns from other tables (Missing Table), as LEFT JOINs. */
    private JsonNode addJoins(JsonNode from, Scope scope) {
      JsonNode result = from;
      for (JoinRoute route : plan.extraJoins()) {
        String assumedKey = OfflinePlanner.key(route.fromAssumed());
        if (!scope.aliasOfAssumed.containsKey(assumedKey)) {
          continue;
        }
        TableChoice t = plan.table(route.fromAssumed()).orElseThrow();
        // Every occurrence of the table (each side of a self-join) gets its own joins.
        List<String> occurrences = new ArrayList<>();
        scope.byAlias.forEach((k, c) -> {
          if (c == t && t.mergedInto() == null) {
            occurrences.add(k);
          }
        });
        if (occurrences.isEmpty()) {
          occurrences.add(null);
        }
        for (String occurrence : occurrences) {
          result = addRoute(result, scope, route, t, assumedKey, occurrence);
        }
      }
      return result;
    }

    /** Joins that bring a column of another lake table to one occurrence of an assumed table (LEFT JOINs). */
    private JsonNode addRoute(JsonNode result, Scope scope, JoinRoute route, TableChoice t, String assumedKey,
      @Nullable String occurrence) {
      Map<String, String> aliasOfLake = new LinkedHashMap<>();
      aliasOfLake.put(t.lake(), occurrence != null ? scope.written.get(occurrence) : scope.aliasFor(t));
      // A route from a table an earlier route joined (a code's label, the code in a part of the table) starts at
      // that join's alias.
      String start = route.path().from();
      String startAlias = occurrence != null ? scope.extraAlias.get(occurrence + "|" + start) : null;
      if (startAlias == null) {
        startAlias = scope.extraAlias.get(assumedKey + "|" + start);
      }
      if (startAlias != null) {
        aliasOfLake.putIfAbsent(start, startAlias);
      }
      StringBuilder sql = new StringBuilder("lakerewrite_left");
      for (Evidence.JoinStep s : route.path().steps()) {
        String alias = aliasOfLake.containsKey(s.rightTable()) ? aliasOfLake.get(s.rightTable()) : nextAlias();
        aliasOfLake.putIfAbsent(s.rightTable(), alias);
        used.add(s.rightTable());
        // A joined table that BUILD_CTE cleaned is read cleaned, as its columns are then read (typed by the CTE).
        sql.append(" LEFT JOIN ").append(Sql.identifier(readFrom(s.rightTable()))).append(" AS ")
            .append(Sql.identifier(alias)).append(" ON ").append(condition(s, aliasOfLake));
      }
      scope.extraAlias.putIfAbsent(assumedKey + "|" + route.toLake(), aliasOfLake.get(route.toLake()));
      if (occurrence != null) {
        scope.extraAlias.put(occurrence + "|" + route.toLake(), aliasOfLake.get(route.toLake()));
      }
      ObjectNode chain = editor.parseFrom(sql.toString());
      markDone(chain);
      ObjectNode item = occurrence == null ? null
          : scope.joinedItems.getOrDefault(occurrence, fromItem(result, scope.written.get(occurrence)));
      if (item == null) {
        replaceBase(chain, "lakerewrite_left", (ObjectNode) result);
        return chain;
      }
      scope.joinedItems.put(occurrence, item);
      // The joins hang off the occurrence itself, so the user's own join conditions (evaluated where the user
      // wrote them) can already read the columns they bring.
      replaceBase(chain, "lakerewrite_left", item.deepCopy());
      item.removeAll();
      item.setAll(chain);
      return result;
    }

    /** The table reference of a FROM tree named {@code alias} (the user's alias, kept by the rewrite); else null. */
    private static @Nullable ObjectNode fromItem(JsonNode from, String alias) {
      if (!(from instanceof ObjectNode node)) {
        return null;
      }
      String type = node.path("type").asText("");
      if (type.equals("JOIN")) {
        ObjectNode left = fromItem(node.get("left"), alias);
        return left != null ? left : fromItem(node.get("right"), alias);
      }
      return (type.equals("BASE_TABLE") || type.equals("SUBQUERY")) && alias.equalsIgnoreCase(
          node.path("alias").asText("")) ? node : null;
    }

    private String nextAlias() {
      return "j" + (++aliasCounter);
    }

    // ----- expressions --------------------------------------------------------------------------------------

    private void rewriteOutput(ObjectNode item, Scope scope) {
      if ("COLUMN_REF".equals(item.path("class").asText()) && item.path("alias").asText("").isEmpty()) {
        List<String> names = Trees.columnNames(item);
        String assumedName = names.get(names.size() - 1);
        boolean changed = rewriteColumn(item, scope, false);
        if (changed) {
          item.put("alias", assumedName);
        }
        return;
      }
      rewriteExpression(item, scope, false);
    }

    /** Rewrites every column reference and literal under {@code e} (not into nested query blocks). */
    private void rewriteExpression(ObjectNode e, Scope scope, boolean aliasesVisible) {
      if (done.contains(e)) {
        return;
      }
      String cls = e.path("class").asText("");
      if (cls.equals("COLUMN_REF")) {
        rewriteColumn(e, scope, aliasesVisible);
        return;
      }
      if (cls.equals("SUBQUERY")) {
        if (e.get("child") instanceof ObjectNode child) {
          rewriteExpression(child, scope, aliasesVisible);
        }
        return; // the subquery's own block is rewritten on its own
      }
      if (cls.equals("COMPARISON") || cls.equals("OPERATOR") || cls.equals("FUNCTION")) {
        fixLiterals(e, scope);
      }
      e.fields().forEachRemaining(f -> {
        JsonNode v = f.getValue();
        if (f.getKey().equals("subquery")) {
          return;
        }
        if (v instanceof ObjectNode o && o.has("class")) {
          rewriteExpression(o, scope, aliasesVisible);
        } else if (v instanceof ArrayNode arr) {
          for (JsonNode item : arr) {
            if (item instanceof ObjectNode o) {
              if (o.has("class")) {
                rewriteExpression(o, scope, aliasesVisible);
              } else {
                for (String k : List.of("expression", "when_expr", "then_expr")) {
                  if (o.get(k) instanceof ObjectNode x) {
                    rewriteExpression(x, scope, aliasesVisible);
                  }
                }
              }
            }
          }
        }
      });
    }

    /** Points a column reference at its lake column; true when it changed. */
    private boolean rewriteColumn(ObjectNode ref, Scope scope, boolean aliasesVisible) {
      Optional<Resolved> r = resolve(ref, scope, aliasesVisible);
      if (r.isEmpty()) {
        return false;
      }
      apply(ref, r.get(), null, false);
      return true;
    }

    /** A column reference resolved to the lake: the alias to use, the column, and the column's profile. */
    private record Resolved(TableChoice table, ColumnTarget target, String alias, String assumedColumn) {}

    private Optional<Resolved> resolve(ObjectNode ref, Scope scope, boolean aliasesVisible) {
      List<String> names = Trees.columnNames(ref);
      if (names.isEmpty() || done.contains(ref)) {
        return Optional.empty();
      }
      String column = names.get(names.size() - 1);
      Optional<AssumedSchema.Binding> binding = schema == null ? Optional.empty() : schema.binding(ref);
      if (schema != null && binding.isEmpty() && names.size() >= 2) {
        return Optional.empty(); // a CTE's or a derived table's column: nothing assumed
      }
      Owner owner = schema == null ? null : schema.source(ref).map(owners::get).orElse(null);
      // A column its prefix places (c_custkey in customer) belongs to that table even when the plan mapped it nowhere
      // (a key the join graph answers): it is read from the table's best guess, never left for the binder to reject.
      boolean placed = schema != null && schema.placedByPrefix(ref);
      if (owner != null) {
        // The FROM item SQL's scoping picks, in this block or an enclosing one: resolve in that block's scope.
        scope = owner.scope();
        TableChoice t = scope.byAlias.get(owner.aliasKey());
        if (t != null && (t.columns().containsKey(OfflinePlanner.key(column)) || names.size() >= 2 || placed)) {
          return resolveIn(scope, t, column, owner.aliasKey());
        }
      } else if (placed) {
        String assumed = binding.get().table();
        for (Scope s = scope; s != null; s = s.parent) {
          Optional<TableChoice> t = s.byAlias.values().stream().filter(x -> x.assumed().equalsIgnoreCase(assumed))
              .findFirst();
          if (t.isPresent()) {
            return resolveIn(s, t.get(), column, null);
          }
        }
      } else if (binding.isPresent() && !binding.get().ambiguous()) {
        if (schema.source(ref).isPresent()) {
          return Optional.empty(); // a table the plan does not map (or a user's CTE): left as written
        }
      }
      Optional<TableChoice> table;
      if (names.size() >= 2) {
        table = scope.table(names.get(names.size() - 2));
      } else {
        if (aliasesVisible && scope.selectAliases.contains(column.toLowerCase(Locale.ROOT))) {
          return Optional.empty();
        }
        // A derived table's output column that no assumed table of the block answers (SQL's scoping read it there)
        // is qualified by the derived table's alias: a lake table beside it may have a column of that name (the
        // sales-and-returns union's date_sk beside the dates' DATE_SK), which DuckDB's binder calls ambiguous. Only
        // in the block itself, and only where every other FROM item is an assumed table whose columns are known.
        String derived = scope.derivedColumns.get(column.toLowerCase(Locale.ROOT));
        if (derived != null && !scope.readsUnmapped
            && scope.byAlias.values().stream().noneMatch(t -> t.columns().containsKey(OfflinePlanner.key(column)))) {
          ArrayNode qualified = ref.putArray("column_names");
          qualified.add(derived);
          qualified.add(column);
          markDone(ref);
          return Optional.empty();
        }
        if (schema != null && binding.isEmpty() && schema.readsNamedOutput(ref)) {
          // A CTE's or derived table's named output (q15's total_revenue beside supplier): no table's column.
          return Optional.empty();
        }
        // The nearest block with a table that has the column (an outer reference the syntax could not place).
        table = Optional.empty();
        for (Scope s = scope; s != null && table.isEmpty(); s = s.parent) {
          table = s.byAlias.values().stream().filter(t -> t.columns().containsKey(OfflinePlanner.key(column)))
              .max((x, y) -> Double.compare(x.columns().get(OfflinePlanner.key(column)).score(),
                  y.columns().get(OfflinePlanner.key(column)).score()));
          if (table.isPresent()) {
            scope = s;
          }
        }
        if (table.isEmpty() && new LinkedHashSet<>(scope.byAlias.values()).size() == 1) {
          table = scope.byAlias.values().stream().findFirst();
        }
      }
      if (table.isEmpty()) {
        return Optional.empty();
      }
      return resolveIn(scope, table.get(), column, null);
    }

    /** A column of an assumed table of {@code scope}, pointed at its lake column and the alias that reads it. */
    private Optional<Resolved> resolveIn(Scope scope, TableChoice t, String column, @Nullable String aliasKey) {
      Optional<TableChoice> table = Optional.of(t);
      ColumnTarget target = table.get().columns().get(OfflinePlanner.key(column));
      TableChoice effective = plan.effective(table.get().assumed()).orElse(table.get());
      if (target == null && planner != null) {
        // A column the plan mapped nowhere (a key of the assumed schema, a column below the threshold) still needs
        // a lake column, or the query that bound on its own schema no longer binds: the table's best guess.
        target = planner.bestColumn(effective.assumed(), column, effective.lake()).map(b -> new ColumnTarget(
            b.lakeTable(), b.lakeColumn(), b.score(), "best guess: " + b.why(), true)).orElse(null);
        if (target != null) {
          guesses.add(t.assumed() + "." + column + " read from " + target.lakeTable() + "." + target.lakeColumn()
              + " on a weak guess (the plan mapped it nowhere)");
        }
      }
      if (target == null) {
        return Optional.empty();
      }
      String alias;
      if (target.lakeTable().equals(effective.lake())) {
        // The occurrence the reference reads (one side of a self-join), unless it was merged into another table.
        alias = aliasKey != null && t.mergedInto() == null ? scope.written.get(aliasKey) : scope.aliasFor(table.get());
      } else {
        alias = aliasKey == null ? null : scope.extraAlias.get(aliasKey + "|" + target.lakeTable());
        if (alias == null) {
          alias = scope.extraAlias.get(OfflinePlanner.key(effective.assumed()) + "|" + target.lakeTable());
        }
        if (alias == null) {
          alias = scope.extraAlias.get(OfflinePlanner.key(table.get().assumed()) + "|" + target.lakeTable());
        }
        if (alias == null) {
          return Optional.empty();
        }
      }
      return Optional.of(new Resolved(table.get(), target, alias, column));
    }

    /** Writes the lake reference into {@code ref}, reading numbers and dates stored as text through cleaners. */
    private void apply(ObjectNode ref, Resolved r, @Nullable String overrideColumn, boolean againstText) {
      String column = overrideColumn != null ? overrideColumn : r.target().lakeColumn();
      String lakeTable = r.target().lakeTable();
      String key = OfflinePlanner.key(r.table().assumed()) + "." + OfflinePlanner.key(r.assumedColumn());
      mapping.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(lakeTable + "." + column);
      assumedNames.putIfAbsent(key, new String[] {r.table().assumed(), r.assumedColumn()});
      String qualified = Sql.qualified(r.alias(), column);
      // Compared with a text literal, the column is read as text: no number or date conversion.
      String wrapped = againstText ? qualified : readAs(lakeTable, column, qualified, r.assumedColumn(),
          numericUse(r.table().assumed(), r.assumedColumn()) || inArithmetic.contains(ref));
      if (wrapped.equals(qualified)) {
        Trees.setColumn(ref, r.alias(), column);
      } else {
        Trees.replace(ref, editor.parseExpression(wrapped));
      }
      done.add(ref);
    }

    /** Assumed columns the query passes to text functions (read before any edit). */
    private Set<String> textOperands = Set.of();

    /**
     * {@code clean_number(x)} for a text column holding numbers, {@code clean_date(x)} for dates, and {@code
     * year(...)} of a date when the user asked for a year; else x.
     */
    private String readAs(String lakeTable, String column, String qualified, String assumedColumn,
        boolean numericUse) {
      Evidence.CleanedTable cleaned = plan.cleaned().get(lakeTable);
      CatalogTable info = state.lake().table(lakeTable);
      Optional<CatalogTable.Column> col = info.column(column);
      boolean wantsYear = dev.lakerewrite.retrieval.Names.normalize(assumedColumn).matches("(.* )?year( .*)?");
      if (col.isEmpty()) {
        return qualified;
      }
      if (wantsYear || !numericUse && dev.lakerewrite.core.match.ColumnFeatures.promisesDate(assumedColumn)) {
        Optional<String> date = PlanningContext.compactDateRead(state.lake().profile(lakeTable).column(column),
            qualified, col.get().type(), cleaned != null && cleaned.cleanedColumns().containsKey(column),
            wantsYear); // 19950305: a date the lake kept as an integer
        if (date.isPresent()) {
          return date.get();
        }
      }
      if (numericUse && col.get().type().equals("VARCHAR")
          && (cleaned == null || !cleaned.cleanedColumns().containsKey(column))) {
        // The query sums it, computes with it or compares it with numbers, so it is a number on the assumed
        // schema; text here (numbers with units or separators, or dates when a year is asked for) is read as one,
        // so the query binds on the lake as it did on its own schema.
        boolean date = state.lake().profile(lakeTable).column(column)
            .map(c -> c.typeFamily() == TypeFamily.DATETIME).orElse(false);
        return wantsYear && date ? "year(clean_date(" + qualified + "))" : "clean_number(" + qualified + ")";
      }
      TypeFamily declared = TypeFamily.fromSqlType(col.get().type());
      // A zip code the query cuts with substr is text, though the lake keeps its digits as a number (or as text of
      // digits, below): substr(BIGINT, ...) does not bind.
      boolean textUse = textOperands.contains(assumedColumn.toLowerCase(Locale.ROOT));
      if (!col.get().type().equals("VARCHAR")) {
        return wantsYear && declared == TypeFamily.DATETIME ? "year(" + qualified + ")"
            : textUse && declared == TypeFamily.NUMERIC ? "CAST(" + qualified + " AS VARCHAR)" : qualified;
      }
      if (cleaned != null && cleaned.cleanedColumns().containsKey(column)) {
        boolean date = cleaned.dateColumns().contains(column) || state.lake().profile(lakeTable).column(column)
            .map(c -> c.typeFamily() == TypeFamily.DATETIME).orElse(false);
        if (date) {
          return wantsYear ? "year(clean_date(" + qualified + "))" : "clean_date(" + qualified + ")";
        }
        // The CTE typed it, or only cleaned its text (control characters): numbers it left as text are read as
        // numbers, or they sort and compare as text ('85868' after '3878123').
        return PlanningContext.numbersLeftAsText(cleaned, column, state.lake().profile(lakeTable).column(column))
            ? "clean_number(" + qualified + ")" : qualified;
      }
      TypeFamily family = state.lake().profile(lakeTable).column(column).map(c -> c.typeFamily())
          .orElse(TypeFamily.STRING);
      if (!textUse && (family == TypeFamily.NUMERIC
          || PlanningContext.holdsNumbersWithUnits(state.lake().profile(lakeTable).column(column)))) {
        return "clean_number(" + qualified + ")";
      }
      if (family == TypeFamily.DATETIME) {
        return wantsYear ? "year(clean_date(" + qualified + "))" : "clean_date(" + qualified + ")";
      }
      return qualified;
    }

    /**
     * Whether the query uses an assumed column as a number wherever it reads it: summed or averaged, or compared with
     * numbers. (A comparison with another column, {@code a.label <> b.label}, says nothing about the type.)
     */
    private boolean numericUse(String assumedTable, String column) {
      if (schema == null) {
        return false;
      }
      return schema.table(assumedTable).flatMap(t -> t.column(column)).map(c -> c.uses(AssumedSchema.Use.SUMMED)
          || c.uses(AssumedSchema.Use.COMPARED_NUMBER)).orElse(false);
    }

    /**
     * Column references the query computes with (read before any edit): an operand of {@code + - * / %}, directly
     * or through a cast or {@code min}/{@code max} ({@code max(x) * 0.9}), or compared with a computed number ({@code
     * x > (SELECT avg(x) * 1.2 ...)}). A comparison of two columns ({@code a.label <> b.label}) is not one.
     */
    private final Set<JsonNode> inArithmetic = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    private static final Set<String> ARITHMETIC = dev.lakerewrite.core.sql.SqlAnalyzer.ARITHMETIC;
    private static final Set<String> NUMERIC_AGGREGATES = Set.of("sum", "avg", "mean", "median", "stddev",
        "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "fsum", "favg", "product");
    private static final Set<String> SAME_TYPE = Set.of("min", "max", "first", "last", "any_value");

    private void findArithmetic(JsonNode tree) {
      Trees.visit(tree, n -> {
        String cls = n.path("class").asText();
        if ("FUNCTION".equals(cls) && ARITHMETIC.contains(n.path("function_name").asText())) {
          dev.lakerewrite.core.sql.SqlAnalyzer.arguments(n).forEach(this::operand);
        } else if ("COMPARISON".equals(cls)) {
          if (computesNumber(n.path("right"), 0)) {
            operand(n.path("left"));
          }
          if (computesNumber(n.path("left"), 0)) {
            operand(n.path("right"));
          }
        }
      });
    }

    private void operand(JsonNode e) {
      for (int depth = 0; depth < 8; depth++) {
        String cls = e.path("class").asText();
        if ("COLUMN_REF".equals(cls)) {
          inArithmetic.add(e);
          return;
        }
        if ("CAST".equals(cls)) {
          e = e.path("child");
        } else if (("FUNCTION".equals(cls) || "AGGREGATE".equals(cls))
            && SAME_TYPE.contains(e.path("function_name").asText().toLowerCase(Locale.ROOT))
            && dev.lakerewrite.core.sql.SqlAnalyzer.arguments(e).size() == 1) {
          e = dev.lakerewrite.core.sql.SqlAnalyzer.arguments(e).get(0);
        } else {
          return;
        }
      }
    }

    /**
     * Whether an expression computes a number: arithmetic (not on dates), a sum or average, or a subquery that
     * selects one.
     */
    private static boolean computesNumber(JsonNode e, int depth) {
      if (depth > 4) {
        return false;
      }
      String cls = e.path("class").asText();
      String fn = e.path("function_name").asText().toLowerCase(Locale.ROOT);
      if ("FUNCTION".equals(cls) && ARITHMETIC.contains(fn)) {
        // DATE '1994-01-01' + INTERVAL '1' YEAR is arithmetic, but on dates: what it is compared with is a date.
        return dev.lakerewrite.core.sql.SqlAnalyzer.arguments(e).stream().noneMatch(dev.lakerewrite.core.sql.SqlAnalyzer::temporal);
      }
      if (("FUNCTION".equals(cls) || "AGGREGATE".equals(cls)) && NUMERIC_AGGREGATES.contains(fn)) {
        return true;
      }
      if ("SUBQUERY".equals(cls)) {
        JsonNode items = e.path("subquery").path("node").path("select_list");
        return items.size() == 1 && computesNumber(items.get(0), depth + 1);
      }
      return "CAST".equals(cls) && computesNumber(e.path("child"), depth + 1);
    }

    /** Applies the plan's literal fixes to a comparison, IN list or LIKE between a column and literals. */
    private void fixLiterals(ObjectNode e, Scope scope) {
      List<ObjectNode> operands = new ArrayList<>();
      String cls = e.path("class").asText("");
      if (cls.equals("COMPARISON")) {
        if (e.get("left") instanceof ObjectNode l) {
          operands.add(l);
        }
        if (e.get("right") instanceof ObjectNode r) {
          operands.add(r);
        }
      } else if (cls.equals("OPERATOR") && e.path("type").asText("").contains("IN")) {
        e.path("children").forEach(c -> operands.add((ObjectNode) c));
      } else if (cls.equals("FUNCTION") && e.path("function_name").asText("").contains("~~")) {
        e.path("arguments").forEach(a -> operands.add((ObjectNode) a.get("expression")));
      } else {
        return;
      }
      ObjectNode columnRef = operands.stream().filter(o -> "COLUMN_REF".equals(o.path("class").asText()))
          .findFirst().orElse(null);
      if (columnRef == null) {
        return;
      }
      Optional<Resolved> r = resolve(columnRef, scope, false);
      List<String> names = Trees.columnNames(columnRef);
      String column = names.isEmpty() ? "" : names.get(names.size() - 1);
      String assumed = r.map(x -> x.table().assumed()).orElseGet(() ->
          scope.byAlias.values().stream().findFirst().map(TableChoice::assumed).orElse(""));
      String overrideColumn = null;
      boolean keyedFilter = false;
      Evidence.CleanedTable cleaned = r.map(x -> plan.cleaned().get(x.target().lakeTable())).orElse(null);
      for (ObjectNode o : operands) {
        if (!"CONSTANT".equals(o.path("class").asText())) {
          continue;
        }
        String lit = o.path("literal").path("text").asText(null);
        if (lit == null) {
          continue;
        }
        keyedFilter |= plan.keyedFilters().contains(OfflinePlanner.literalKey(assumed, column, lit));
        LiteralFix fix = plan.literalFixes().get(OfflinePlanner.literalKey(assumed, column, lit));
        if (fix == null) {
          continue;
        }
        ((ObjectNode) o.get("literal")).put("text", fix.lakeValue());
        if (r.isPresent() && !fix.lakeColumn().equals(r.get().target().lakeColumn())
            && fix.lakeTable().equals(r.get().target().lakeTable())) {
          overrideColumn = fix.lakeColumn();
        }
      }
      if (r.isPresent()) {
        boolean againstText = operands.stream().anyMatch(o -> "CONSTANT".equals(o.path("class").asText())
            && "STRING".equals(o.path("literal").path("kind").asText()));
        apply(columnRef, r.get(), overrideColumn, againstText);
        String col = overrideColumn != null ? overrideColumn : r.get().target().lakeColumn();
        boolean equality = cls.equals("COMPARISON") && e.path("type").asText("").equals("COMPARE_EQUAL");
        boolean in = cls.equals("OPERATOR") && e.path("type").asText("").contains("IN");
        if ((equality || in) && againstText && cleaned != null && cleaned.matchKeys().containsKey(col)) {
          keyOperands(e, cls, cleaned.matchKeys().get(col));
        } else if (keyedFilter && againstText && (equality || in)) {
          keyOperands(e, cls, "clean_key(%s)");
        } else if (againstText && cleaned != null && cleaned.cleanedColumns().containsKey(col)) {
          cleanLiterals(operands);
        }
      }
    }

    /** Wraps the column and the text literals of a comparison or IN list in a match key ({@code clean_key(%s)}). */
    private void keyOperands(ObjectNode e, String cls, String template) {
      if (cls.equals("COMPARISON")) {
        keyBothSides(e, template);
        return;
      }
      ArrayNode children = (ArrayNode) e.get("children");
      for (int i = 0; i < children.size(); i++) {
        ObjectNode keyed = editor.parseExpression(String.format(template, editor.expression(children.get(i))));
        children.set(i, keyed);
        done.add(keyed);
      }
    }

    /** {@code clean_key(a) = clean_key('v')}: compares a cleaned text column by its match key. */
    private void keyBothSides(ObjectNode comparison, String template) {
      for (String side : List.of("left", "right")) {
        ObjectNode operand = (ObjectNode) comparison.get(side);
        ObjectNode keyed = editor.parseExpression(String.format(template, editor.expression(operand)));
        comparison.set(side, keyed);
        done.add(keyed);
      }
    }

    private static void columnRefs(JsonNode e, java.util.function.Consumer<ObjectNode> visitor) {
      if (e == null) {
        return;
      }
      if (e.isObject()) {
        if ("COLUMN_REF".equals(e.path("class").asText())) {
          visitor.accept((ObjectNode) e);
          return;
        }
        e.forEach(child -> columnRefs(child, visitor));
      } else if (e.isArray()) {
        e.forEach(child -> columnRefs(child, visitor));
      }
    }

    private void addCtes(ObjectNode node) {
      if (cteUsed.isEmpty()) {
        return;
      }
      List<String> defs = new ArrayList<>();
      for (String lakeTable : cteUsed) {
        defs.add(plan.cleaned().get(lakeTable).definition());
      }
      prependCtes(editor, node, defs);
    }
  }

  /**
   * Text literals compared with a column a cleaning CTE repaired as text take the same repair: the CTE trims and
   * strips markup from every value, so a literal written with the value's own leading space (' haggle. carefully')
   * would match nothing.
   */
  static void cleanLiterals(List<ObjectNode> operands) {
    for (ObjectNode o : operands) {
      if (o != null && "CONSTANT".equals(o.path("class").asText())
          && "STRING".equals(o.path("literal").path("kind").asText())) {
        String text = o.path("literal").path("text").asText(null);
        String cleaned = text == null ? null : Cleaners.cleanText(text);
        if (cleaned != null && !cleaned.equals(text)) {
          ((ObjectNode) o.get("literal")).put("text", cleaned);
        }
      }
    }
  }

  /** Puts CTE definitions in front of a query node's own WITH clause (its CTEs may read them). */
  static void prependCtes(Trees editor, ObjectNode node, List<String> defs) {
    if (defs.isEmpty()) {
      return;
    }
    ObjectNode cteMap = node.has("cte_map") && node.get("cte_map").isObject() ? (ObjectNode) node.get("cte_map")
        : node.putObject("cte_map");
    ArrayNode map = cteMap.has("map") && cteMap.get("map").isArray() ? (ArrayNode) cteMap.get("map")
        : cteMap.putArray("map");
    List<JsonNode> entries = editor.cteEntries(String.join(", ", defs));
    ArrayNode merged = map.arrayNode();
    entries.forEach(merged::add);
    map.forEach(merged::add);
    cteMap.set("map", merged);
  }
}
