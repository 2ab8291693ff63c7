package dev.lakerewrite.core.rewrite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.match.AssumedSchema;
import dev.lakerewrite.core.match.ColumnFeatures;
import dev.lakerewrite.core.match.AssumedSchema.Use;
import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.JoinRoute;
import dev.lakerewrite.core.rewrite.OfflinePlanner.LiteralFix;
import dev.lakerewrite.core.rewrite.OfflinePlanner.Plan;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.retrieval.Names;
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

/**
 * Applies a plan by giving the user's query the schema it assumes: one CTE per assumed table, named like it, that
 * rebuilds it from the lake (the mapped table, or its cleaned CTE, or the union of its parts; the joins that bring
 * columns from other tables and code lookups; numbers and dates stored as text read through the vetted cleaners),
 * each assumed column under the user's own name. The user's query stays as written — every subquery, correlation,
 * derived table, CTE, set operation and alias binds exactly as it did on the assumed schema — except for filter
 * literals, which take the lake's spelling, and comparisons that the cleaning says to make by a match key.
 *
 * <p>This is how the disorganizer writes its golden queries, which is no accident: a rewrite that only supplies
 * the assumed tables cannot break the query's own structure. A query that binds on its assumed schema binds on
 * these views as long as every assumed column it reads is one of its view's columns, which {@link AssumedSchema}
 * guarantees (every reference is resolved with SQL's scoping rules; an unqualified column that two tables could
 * hold goes to exactly one view).
 */
final class ViewRewrite {
  private final RewriteState state;
  private final Plan plan;
  private final OfflinePlanner planner;
  private final Trees editor;
  /** Assumed columns the query passes to text functions ({@link SqlAnalyzer#textOperands}). */
  private Set<String> textOperands = Set.of();
  private final Set<String> used = new LinkedHashSet<>();
  private final Set<String> cteUsed = new LinkedHashSet<>();
  /** The lake column each assumed column reads, "table.column" (lower) → "lake_table.column". */
  private final Map<String, Set<String>> mapping = new LinkedHashMap<>();
  private final List<String> warnings = new ArrayList<>();
  private int aliasCounter;

  ViewRewrite(RewriteState state, Plan plan, OfflinePlanner planner, Trees editor) {
    this.state = state;
    this.plan = plan;
    this.planner = planner;
    this.editor = editor;
  }

  List<String> usedTables() {
    return new ArrayList<>(used);
  }

  /** Assumed {@code table.column} (lower case) → the lake {@code table.column}s the rewrite reads for it. */
  Map<String, Set<String>> mapping() {
    return mapping;
  }

  List<String> warnings() {
    return warnings;
  }

  private final Map<String, String> names = new LinkedHashMap<>();

  /** The assumed table's name as written, for its lower-case key. */
  String assumedName(String tableKey) {
    return names.getOrDefault(tableKey, tableKey);
  }

  /** The assumed column's name as written, for its lower-case {@code table.column} key. */
  String columnName(String key) {
    return names.getOrDefault(key, key.substring(key.indexOf('.') + 1));
  }

  String apply() {
    ObjectNode tree = editor.statement(state.userQuery());
    textOperands = SqlAnalyzer.textOperands(tree);
    AssumedSchema schema = AssumedSchema.of(tree);
    Map<String, Set<String>> columns = new LinkedHashMap<>();
    schema.tables().forEach((k, t) -> columns.put(k, new LinkedHashSet<>(t.columns().keySet())));
    Map<String, String> placed = placeAmbiguous(schema, columns);
    Map<String, String> keyOverrides = joinKeys(schema);
    List<String> views = new ArrayList<>();
    for (AssumedSchema.Table t : schema.tables().values()) {
      Optional<TableChoice> choice = plan.table(t.name());
      if (choice.isEmpty()) {
        continue; // a table the plan does not know: left as written
      }
      views.add(view(t, choice.get(), columns.get(OfflinePlanner.key(t.name())), keyOverrides, schema));
    }
    fixLiterals(tree, schema, placed);
    List<String> defs = new ArrayList<>();
    for (String lake : cteUsed) {
      defs.add(plan.cleaned().get(lake).definition());
    }
    defs.addAll(views);
    OfflineRewriterAgent.prependCtes(editor, (ObjectNode) tree.get("node"), defs);
    return editor.render(tree);
  }

  // ----- placing columns ----------------------------------------------------------------------------------------

  /** Each ambiguous unqualified column goes to exactly one of its candidate tables: the one that maps it best. */
  private Map<String, String> placeAmbiguous(AssumedSchema schema, Map<String, Set<String>> columns) {
    Map<String, String> out = new LinkedHashMap<>();
    for (AssumedSchema.Ambiguous a : schema.ambiguous()) {
      String best = null;
      double bestScore = Double.NEGATIVE_INFINITY;
      for (String candidate : a.candidates()) {
        Optional<TableChoice> t = plan.table(candidate);
        double score = t.map(c -> Optional.ofNullable(c.columns().get(OfflinePlanner.key(a.column())))
            .map(ct -> ct.weak() ? ct.score() - 1 : ct.score()).orElse(-2.0)).orElse(-3.0);
        // A column the query reads qualified on one table elsewhere is that table's.
        if (schema.table(candidate).flatMap(x -> x.column(a.column())).isPresent()) {
          score += 1;
        }
        if (score > bestScore) {
          bestScore = score;
          best = candidate;
        }
      }
      if (best != null) {
        columns.computeIfAbsent(OfflinePlanner.key(best), k -> new LinkedHashSet<>()).add(OfflinePlanner.key(a.column()));
        out.put(OfflinePlanner.key(a.column()) + "|" + a.candidates(), best);
      }
    }
    return out;
  }

  /**
   * Join columns whose lake keys come from the plan's join fixes (the join graph's keys) or, for two assumed tables
   * answered by one lake table, its key column: "table|column" (lower) → "lake column@lake table".
   */
  private Map<String, String> joinKeys(AssumedSchema schema) {
    Map<String, String> out = new LinkedHashMap<>();
    for (AssumedSchema.JoinPair j : schema.joins()) {
      if (OfflinePlanner.key(j.leftTable()).equals(OfflinePlanner.key(j.rightTable()))) {
        continue; // a self-join: one mapping serves both sides
      }
      Optional<TableChoice> l = plan.effective(j.leftTable());
      Optional<TableChoice> r = plan.effective(j.rightTable());
      if (l.isEmpty() || r.isEmpty()) {
        continue;
      }
      if (l.get().lake().equals(r.get().lake())) {
        String entity = planner.entityColumn(l.get().lake());
        if (entity != null) {
          out.put(OfflinePlanner.key(j.leftTable()) + "|" + OfflinePlanner.key(j.leftColumn()), entity);
          out.put(OfflinePlanner.key(j.rightTable()) + "|" + OfflinePlanner.key(j.rightColumn()), entity);
        }
        continue;
      }
      Evidence.JoinPath path = plan.joinFixes().get(OfflinePlanner.joinKey(l.get().assumed(), r.get().assumed()));
      boolean flipped = false;
      if (path == null) {
        path = plan.joinFixes().get(OfflinePlanner.joinKey(r.get().assumed(), l.get().assumed()));
        flipped = true;
      }
      if (path == null) {
        continue;
      }
      if (flipped) {
        path = OfflinePlanner.reversed(path);
      }
      if (!path.from().equals(l.get().lake())) {
        continue;
      }
      // Multi-hop: the left view joins the intermediate tables and exposes the last hop's key.
      out.put(OfflinePlanner.key(j.leftTable()) + "|" + OfflinePlanner.key(j.leftColumn()), "path:" + pathId(path));
      paths.put(pathId(path), path);
      Evidence.JoinStep last = path.steps().get(path.steps().size() - 1);
      out.put(OfflinePlanner.key(j.rightTable()) + "|" + OfflinePlanner.key(j.rightColumn()), last.rightColumn());
    }
    return out;
  }

  private final Map<String, Evidence.JoinPath> paths = new LinkedHashMap<>();

  private static String pathId(Evidence.JoinPath p) {
    StringBuilder sb = new StringBuilder(p.from());
    p.steps().forEach(s -> sb.append('>').append(s.leftColumn()).append('=').append(s.rightTable()).append('.')
        .append(s.rightColumn()));
    return sb.toString();
  }

  // ----- views --------------------------------------------------------------------------------------------------

  /** {@code "assumed" AS (SELECT expr AS "column", ... FROM source AS t0 LEFT JOIN ...)}. */
  private String view(AssumedSchema.Table t, TableChoice choice, Set<String> columns, Map<String, String> keys,
      AssumedSchema schema) {
    TableChoice effective = plan.effective(choice.assumed()).orElse(choice);
    String lake = effective.lake();
    used.add(lake);
    Map<String, String> aliasOfLake = new LinkedHashMap<>();
    aliasOfLake.put(lake, "t0");
    StringBuilder joins = new StringBuilder();
    for (JoinRoute route : plan.extraJoins()) {
      if (route.fromAssumed().equalsIgnoreCase(choice.assumed())
          || route.fromAssumed().equalsIgnoreCase(effective.assumed())) {
        addPath(route.path(), aliasOfLake, joins);
      }
    }
    List<String> items = new ArrayList<>();
    Set<String> baseColumns = new LinkedHashSet<>();
    String tableKey = OfflinePlanner.key(t.name());
    for (String c : columns) {
      String display = t.column(c).map(AssumedSchema.Column::name).orElse(c);
      AssumedSchema.Column info = t.column(c).orElse(null);
      String key = keys.get(tableKey + "|" + c);
      String expr;
      String readLake;
      if (key != null && key.startsWith("path:")) {
        Evidence.JoinPath p = paths.get(key.substring(5));
        List<Evidence.JoinStep> head = p.steps().subList(0, p.steps().size() - 1);
        addPath(new Evidence.JoinPath(p.from(), p.to(), head, p.score(), p.rank(), null), aliasOfLake, joins);
        Evidence.JoinStep last = p.steps().get(p.steps().size() - 1);
        expr = Sql.qualified(aliasOfLake.get(last.leftTable()), last.leftColumn());
        readLake = last.leftTable() + "." + last.leftColumn();
        if (last.leftTable().equals(lake)) {
          baseColumns.add(last.leftColumn());
        }
      } else if (key != null) {
        expr = Sql.qualified("t0", key);
        readLake = lake + "." + key;
        baseColumns.add(key);
      } else {
        ColumnTarget target = target(choice, effective, display);
        if (target == null) {
          items.add("CAST(NULL AS VARCHAR) AS " + Sql.identifier(display));
          warnings.add("no lake column for " + t.name() + "." + display);
          continue;
        }
        String alias = aliasOfLake.get(target.lakeTable());
        if (alias == null) {
          target = planner.bestColumn(choice.assumed(), display, lake).orElse(null);
          if (target == null) {
            items.add("CAST(NULL AS VARCHAR) AS " + Sql.identifier(display));
            continue;
          }
          alias = "t0";
        }
        if (alias.equals("t0")) {
          baseColumns.add(target.lakeColumn());
        }
        expr = readAs(target.lakeTable(), target.lakeColumn(), Sql.qualified(alias, target.lakeColumn()), display,
            info);
        readLake = target.lakeTable() + "." + target.lakeColumn();
        if (target.weak()) {
          warnings.add(t.name() + "." + display + " read from " + readLake + " on a weak guess (" + target.why() + ")");
        }
      }
      mapping.computeIfAbsent(tableKey + "." + c, k -> new LinkedHashSet<>()).add(readLake);
      names.put(tableKey, t.name());
      names.put(tableKey + "." + c, display);
      items.add(expr + " AS " + Sql.identifier(display));
    }
    if (items.isEmpty()) {
      items.add("1 AS " + Sql.identifier("lakerewrite_row"));
    }
    String source = source(lake, baseColumns);
    return Sql.identifier(t.name()) + " AS (SELECT " + String.join(", ", items) + " FROM " + source + " AS t0"
        + joins + ")";
  }

  /** The lake column an assumed column reads: the plan's target, else the best the table offers. */
  private ColumnTarget target(TableChoice choice, TableChoice effective, String column) {
    ColumnTarget t = choice.columns().get(OfflinePlanner.key(column));
    if (t == null && effective != choice) {
      t = effective.columns().get(OfflinePlanner.key(column));
    }
    if (t == null) {
      t = planner.bestColumn(choice.assumed(), column, effective.lake())
          .map(b -> new ColumnTarget(b.lakeTable(), b.lakeColumn(), b.score(), "best guess: " + b.why(), true))
          .orElse(null);
    }
    // A filter literal found in another column of the same table says where the column really is.
    for (Map.Entry<String, LiteralFix> f : plan.literalFixes().entrySet()) {
      String prefix = OfflinePlanner.key(choice.assumed()) + "|" + OfflinePlanner.key(column) + "|";
      if (f.getKey().startsWith(prefix) && t != null && f.getValue().lakeTable().equals(t.lakeTable())
          && !f.getValue().lakeColumn().equals(t.lakeColumn())) {
        t = new ColumnTarget(t.lakeTable(), f.getValue().lakeColumn(), f.getValue().score(),
            "the filter value is in this column");
      }
    }
    return t;
  }

  private void addPath(Evidence.JoinPath path, Map<String, String> aliasOfLake, StringBuilder joins) {
    for (Evidence.JoinStep s : path.steps()) {
      if (aliasOfLake.containsKey(s.rightTable())) {
        continue;
      }
      String alias = "j" + (++aliasCounter);
      aliasOfLake.put(s.rightTable(), alias);
      used.add(s.rightTable());
      String left = aliasOfLake.getOrDefault(s.leftTable(), "t0");
      // Read cleaned where BUILD_CTE cleaned it, as readAs then reads its columns (typed by the CTE).
      joins.append(" LEFT JOIN ").append(Sql.identifier(OfflineRewriterAgent.readFrom(plan.cleaned(), s.rightTable(),
          cteUsed))).append(" AS ").append(alias).append(" ON ")
          .append(OfflineRewriterAgent.keyEquality(state.lake(), plan.cleaned(), s, left, alias));
    }
  }

  /** The lake table, its cleaned CTE, or the union of it with its partners (on the columns read). */
  private String source(String lake, Set<String> columns) {
    String base = OfflineRewriterAgent.readFrom(plan.cleaned(), lake, cteUsed);
    List<Evidence.UnionPartner> partners = plan.unions().getOrDefault(lake, List.of());
    if (partners.isEmpty()) {
      return Sql.identifier(base);
    }
    List<String> cols = new ArrayList<>(columns);
    if (cols.isEmpty()) {
      cols.addAll(partners.get(0).columnMapping().keySet());
      partners.forEach(p -> cols.retainAll(p.columnMapping().keySet()));
    }
    StringBuilder sb = new StringBuilder("(SELECT ");
    sb.append(String.join(", ", cols.stream().map(Sql::identifier).toList())).append(" FROM ")
        .append(Sql.identifier(base));
    for (Evidence.UnionPartner p : partners) {
      used.add(p.table());
      List<String> items = new ArrayList<>();
      for (String c : cols) {
        items.add(UnionsAndNoise.unionItem(state.lake(), lake, c, p.table(), p.columnMapping().get(c)));
      }
      sb.append(" UNION ALL SELECT ").append(String.join(", ", items)).append(" FROM ")
          .append(Sql.identifier(p.table()));
    }
    return sb.append(")").toString();
  }

  /**
   * {@code clean_number(x)} for a text column holding numbers, {@code clean_date(x)} for dates, {@code year(...)}
   * of a date when the user asks for a year; a column compared with text literals stays text.
   */
  private String readAs(String lakeTable, String column, String qualified, String assumedColumn,
      AssumedSchema.Column use) {
    boolean againstText = use != null && (use.uses(Use.COMPARED_STRING) || use.uses(Use.LIKE));
    CatalogTable info = state.lake().table(lakeTable);
    Optional<CatalogTable.Column> col = info.column(column);
    boolean wantsYear = Names.normalize(assumedColumn).matches("(.* )?year( .*)?");
    if (col.isEmpty() || againstText) {
      return qualified;
    }
    boolean numericUse = use != null && (use.uses(Use.SUMMED) || use.uses(Use.ARITHMETIC)
        || use.uses(Use.COMPARED_NUMBER));
    Evidence.CleanedTable cleaned = plan.cleaned().get(lakeTable);
    if (wantsYear || use != null && use.uses(Use.COMPARED_DATE) || ColumnFeatures.promisesDate(assumedColumn)
        && !numericUse) {
      Optional<String> date = PlanningContext.compactDateRead(state.lake().profile(lakeTable).column(column),
          qualified, col.get().type(), cleaned != null && cleaned.cleanedColumns().containsKey(column), wantsYear);
      if (date.isPresent()) {
        return date.get(); // 19950305: a date the lake kept as an integer
      }
    }
    if (numericUse && col.get().type().equals("VARCHAR")) {
      boolean date = state.lake().profile(lakeTable).column(column).map(c -> c.typeFamily() == TypeFamily.DATETIME)
          .orElse(false);
      if (wantsYear && date) {
        return "year(clean_date(" + qualified + "))"; // a year compared with a number, stored as a date
      }
      return "clean_number(" + qualified + ")"; // summed or compared with numbers: read as a number, whatever it is
    }
    TypeFamily declared = TypeFamily.fromSqlType(col.get().type());
    // Digits the query cuts with substr (a zip code) are text: see OfflineRewriterAgent's reading.
    boolean textUse = textOperands.contains(assumedColumn.toLowerCase(Locale.ROOT));
    if (!col.get().type().equals("VARCHAR")) {
      return wantsYear && declared == TypeFamily.DATETIME ? "year(" + qualified + ")"
          : textUse && declared == TypeFamily.NUMERIC ? "CAST(" + qualified + " AS VARCHAR)" : qualified;
    }
    if (cleaned != null && cleaned.cleanedColumns().containsKey(column)) {
      boolean date = cleaned.dateColumns().contains(column) || state.lake().profile(lakeTable).column(column)
          .map(c -> c.typeFamily() == TypeFamily.DATETIME).orElse(false);
      if (date && (wantsYear || use != null && use.uses(Use.COMPARED_DATE))) {
        return wantsYear ? "year(clean_date(" + qualified + "))" : "clean_date(" + qualified + ")";
      }
      return !date && PlanningContext.numbersLeftAsText(cleaned, column, state.lake().profile(lakeTable).column(column))
          ? "clean_number(" + qualified + ")" : qualified; // numbers the CTE only cleaned as text are read as numbers
    }
    TypeFamily family = state.lake().profile(lakeTable).column(column).map(c -> c.typeFamily())
        .orElse(TypeFamily.STRING);
    if (!textUse && (family == TypeFamily.NUMERIC
        || PlanningContext.holdsNumbersWithUnits(state.lake().profile(lakeTable).column(column)))) {
      return "clean_number(" + qualified + ")";
    }
    if (family == TypeFamily.DATETIME && (wantsYear || use != null && use.uses(Use.COMPARED_DATE))) {
      return wantsYear ? "year(clean_date(" + qualified + "))" : "clean_date(" + qualified + ")";
    }
    return qualified;
  }

  // ----- literals -----------------------------------------------------------------------------------------------

  /** Filter literals take the lake's spelling; comparisons the cleaning keys compare by the match key. */
  private void fixLiterals(ObjectNode tree, AssumedSchema schema, Map<String, String> placed) {
    List<ObjectNode> comparisons = new ArrayList<>();
    Trees.visit(tree, n -> {
      String cls = n.path("class").asText("");
      if (cls.equals("COMPARISON") || cls.equals("OPERATOR") && n.path("type").asText("").contains("IN")
          || cls.equals("FUNCTION") && n.path("function_name").asText("").contains("~~")) {
        comparisons.add((ObjectNode) n);
      }
    });
    for (ObjectNode e : comparisons) {
      fixComparison(e, schema, placed);
    }
  }

  private void fixComparison(ObjectNode e, AssumedSchema schema, Map<String, String> placed) {
    String cls = e.path("class").asText("");
    List<ObjectNode> operands = new ArrayList<>();
    if (cls.equals("COMPARISON")) {
      operands.add((ObjectNode) e.get("left"));
      operands.add((ObjectNode) e.get("right"));
    } else if (cls.equals("OPERATOR")) {
      e.path("children").forEach(c -> operands.add((ObjectNode) c));
    } else {
      e.path("arguments").forEach(a -> operands.add((ObjectNode) (a.has("expression") ? a.get("expression") : a)));
    }
    ObjectNode columnRef = null;
    for (ObjectNode o : operands) {
      if (o != null && "COLUMN_REF".equals(o.path("class").asText())) {
        columnRef = o;
        break;
      }
    }
    if (columnRef == null) {
      return;
    }
    Optional<AssumedSchema.Binding> b = schema.binding(columnRef);
    if (b.isEmpty()) {
      return;
    }
    String table = b.get().table();
    if (table == null) {
      table = placed.get(OfflinePlanner.key(b.get().column()) + "|" + b.get().candidates());
      if (table == null) {
        return;
      }
    }
    String column = b.get().column();
    Optional<TableChoice> choice = plan.table(table);
    if (choice.isEmpty()) {
      return;
    }
    String assumed = choice.get().assumed();
    boolean keyed = false;
    boolean againstText = false;
    for (ObjectNode o : operands) {
      if (o == null || !"CONSTANT".equals(o.path("class").asText())) {
        continue;
      }
      String lit = o.path("literal").path("text").asText(null);
      if (lit == null) {
        continue;
      }
      againstText |= "STRING".equals(o.path("literal").path("kind").asText());
      keyed |= plan.keyedFilters().contains(OfflinePlanner.literalKey(assumed, column, lit));
      LiteralFix fix = plan.literalFixes().get(OfflinePlanner.literalKey(assumed, column, lit));
      if (fix != null) {
        ((ObjectNode) o.get("literal")).put("text", fix.lakeValue());
      }
    }
    if (!againstText) {
      return;
    }
    TableChoice effective = plan.effective(assumed).orElse(choice.get());
    ColumnTarget target = choice.get().columns().get(OfflinePlanner.key(column));
    String lakeTable = target != null ? target.lakeTable() : effective.lake();
    Evidence.CleanedTable cleaned = plan.cleaned().get(lakeTable);
    boolean equality = cls.equals("COMPARISON") && e.path("type").asText("").equals("COMPARE_EQUAL");
    boolean in = cls.equals("OPERATOR") && e.path("type").asText("").contains("IN");
    if ((equality || in) && target != null && cleaned != null && cleaned.matchKeys().containsKey(target.lakeColumn())) {
      keyOperands(e, operands, cleaned.matchKeys().get(target.lakeColumn()));
    } else if (keyed && (equality || in)) {
      keyOperands(e, operands, "clean_key(%s)");
    } else if (target != null && cleaned != null && cleaned.cleanedColumns().containsKey(target.lakeColumn())) {
      OfflineRewriterAgent.cleanLiterals(operands);
    }
  }

  /** Wraps every operand of a comparison or IN list in the match key. */
  private void keyOperands(ObjectNode e, List<ObjectNode> operands, String template) {
    for (ObjectNode o : operands) {
      if (o == null) {
        continue;
      }
      ObjectNode keyed = editor.parseExpression(String.format(template, editor.expression(o)));
      Trees.replace(o, keyed);
      o.put("alias", "");
    }
  }

  // ----- CTEs ---------------------------------------------------------------------------------------------------

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
