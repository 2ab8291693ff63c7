package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.match.AssumedSchema;
import dev.lakerewrite.core.sql.QueryAnalysis;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The offline agents' shared reasoning: from the user query's analysis and the evidence in the scratchpad, a
 * {@link Plan} that maps every assumed table and column to the lake, fixes filter literals, replaces wrong join
 * keys, drops obsolete tables, adds the joins that bring missing columns, and uses cleaned CTEs and union
 * partners; plus the issues that more evidence could settle, as actions. Deterministic: the same state gives the
 * same plan, so the offline rewriter and checker agree.
 *
 * <p>Scores are in [0, 1]: name similarity of all-MiniLM-L6-v2 embeddings of normalised names, raised by
 * evidence (a filter value found in a column, an entity-name column for a name-like assumed column).
 *
 * <p>The plan is assembled from one part per error type of the thesis (each its own class, over one shared
 * {@link PlanningContext}): {@link TableChooser} (tables and columns) with {@link JoinConsistency} (joined tables'
 * keys), {@link ObsoleteTables},
 * {@link MissingTableColumns} (columns of other tables, code labels, compound columns), {@link JoinKeys} (keys the
 * query only joins on) and {@link JoinRepairs} (key mismatch), {@link FilterLiterals} and {@link UnionsAndNoise}.
 */
final class OfflinePlanner {
  /** Runner-up tables per assumed table that alternative plans try. */
  static final int ALTERNATIVE_TABLES = 2;

  /**
   * How an assumed column is answered: a lake table's column, possibly through an added join. A weak target is
   * only the best guess of a table that has no good column for it (it keeps the query executable).
   */
  record ColumnTarget(String lakeTable, String lakeColumn, double score, String why, boolean weak) {
    ColumnTarget(String lakeTable, String lakeColumn, double score, String why) {
      this(lakeTable, lakeColumn, score, why, false);
    }
  }

  /**
   * The mapping of one assumed table.
   *
   * @param assumed the assumed name, as written
   * @param lake the lake table
   * @param score how well it fits (relevance + column fit)
   * @param columns assumed column (lower case) → target
   * @param unmapped assumed columns without a good target
   * @param mergedInto when the table is obsolete: the assumed table that absorbs it
   */
  record TableChoice(String assumed, String lake, double score, Map<String, ColumnTarget> columns,
      List<String> unmapped, @Nullable String mergedInto) {}

  /** A filter literal spelled as the lake spells it, possibly on another column. */
  record LiteralFix(String lakeTable, String lakeColumn, String lakeValue, double score) {}

  /** A join the plan adds or replaces: a path from one lake table to another. */
  record JoinRoute(String fromAssumed, String toLake, Evidence.JoinPath path) {

    /**
     * The routes in an order they can be joined in: a route that starts at a table another route of the same
     * assumed table brings (the label of a code held by a part split off by columns) after that route, otherwise
     * as given. O(n³) for n routes, a handful per query.
     */
    static List<JoinRoute> inJoinOrder(List<JoinRoute> routes) {
      List<JoinRoute> pending = new ArrayList<>(routes);
      List<JoinRoute> out = new ArrayList<>();
      while (!pending.isEmpty()) {
        JoinRoute next = pending.stream()
            .filter(r -> pending.stream().noneMatch(o -> o != r && o.fromAssumed().equalsIgnoreCase(r.fromAssumed())
                && o.toLake().equals(r.path().from())))
            .findFirst().orElse(pending.get(0));
        pending.remove(next);
        out.add(next);
      }
      return out;
    }
  }

  /** The plan: mappings, fixes, and what evidence is still missing. */
  record Plan(Map<String, TableChoice> tables, Map<String, LiteralFix> literalFixes,
      Map<String, Evidence.JoinPath> joinFixes, List<JoinRoute> extraJoins,
      Map<String, Evidence.CleanedTable> cleaned, Map<String, List<Evidence.UnionPartner>> unions,
      List<Action> wanted, double confidence, List<String> notes, Set<String> keyedFilters) {

    Plan {
      extraJoins = JoinRoute.inJoinOrder(extraJoins);
    }

    Optional<TableChoice> table(String assumed) {
      return Optional.ofNullable(tables.get(key(assumed)));
    }

    /** The lake table that answers an assumed table, following merges. */
    Optional<TableChoice> effective(String assumed) {
      TableChoice t = tables.get(key(assumed));
      int guard = 0;
      while (t != null && t.mergedInto() != null && guard++ < 8) {
        t = tables.get(key(t.mergedInto()));
      }
      return Optional.ofNullable(t);
    }
  }

  private final PlanningContext context;
  private final FilterLiterals literals;
  private final TableChooser tables;
  private final ObsoleteTables obsolete;
  private final MissingTableColumns missing;
  private final JoinRepairs joins;
  private final JoinKeys joinKeys;
  private final UnionsAndNoise unionsAndNoise;
  private final JoinConsistency joinConsistency;

  OfflinePlanner(RewriteState state) {
    this.context = new PlanningContext(state);
    this.literals = new FilterLiterals(context);
    CodeLookups lookups = new CodeLookups(context);
    this.tables = new TableChooser(context, literals, lookups);
    this.obsolete = new ObsoleteTables(context, tables);
    this.missing = new MissingTableColumns(context, tables, lookups);
    this.joins = new JoinRepairs(context);
    this.joinKeys = new JoinKeys(context, tables);
    this.unionsAndNoise = new UnionsAndNoise(context, tables);
    this.joinConsistency = new JoinConsistency(context, tables);
  }

  /** See {@link TableChooser#choice}. */
  double[] choice(String assumedTable, String column, String table, String lakeColumn) {
    return tables.choice(assumedTable, column, table, lakeColumn);
  }

  /** The lake column of {@code table} that best answers assumed column {@code column}. */
  Optional<ColumnTarget> bestColumn(String assumedTable, String column, String table) {
    return tables.bestColumn(assumedTable, column, table);
  }

  /** A table's entity-name column: the first unique text column (WikiDBs: {@code label}). */
  @Nullable String entityColumn(String table) {
    return context.entityColumn(table);
  }

  static String key(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  static String literalKey(String assumedTable, String column, String literal) {
    return key(assumedTable) + "|" + key(column) + "|" + literal;
  }

  static String joinKey(String a, String b) {
    return key(a) + "⋈" + key(b);
  }

  static Evidence.JoinPath reversed(Evidence.JoinPath p) {
    List<Evidence.JoinStep> steps = new ArrayList<>();
    for (int i = p.steps().size() - 1; i >= 0; i--) {
      Evidence.JoinStep s = p.steps().get(i);
      // The fan-out was measured the other way round: how many rows this direction's hop matches is unknown.
      steps.add(new Evidence.JoinStep(s.rightTable(), s.rightColumn(), s.leftTable(), s.leftColumn(), s.score(),
          Double.NaN));
    }
    return new Evidence.JoinPath(p.to(), p.from(), steps, p.score(), p.rank(), p.preview());
  }

  /** The plan on the best-scored table for every assumed table (computed once per planner). */
  Plan plan() {
    if (bestPlan == null) {
      bestPlan = plan(Map.of(), Set.of(), List.of());
    }
    return bestPlan;
  }

  /**
   * The {@code n}-th alternative plan (1 = the first), or empty when there are fewer. The loop runs them when the
   * best plan's query failed (an error or no rows), so their order is only a search order; execution decides. First
   * come the best plan's obsolete-table merges undone one at a time (the table read on its own, from its best table
   * other than the one it was merged into); then, in order of the table score they give up, one assumed table moved
   * to one of its next {@value #ALTERNATIVE_TABLES} candidate tables and one assumed column moved to the best lake
   * column of its table that no other column reads (the next best assignment of that column: columns the lake named
   * alike, {@code ORDR} and {@code ORDR_2}, are told apart by what their query returns), those that keep distinct
   * assumed tables on distinct lake tables first. A column's move gives up its score difference over the number of
   * the table's columns, as the table's score averages them.
   */
  Optional<Plan> alternative(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("alternatives are numbered from 1, was " + n);
    }
    List<Alternative> all = alternatives();
    if (n > all.size()) {
      return Optional.empty();
    }
    Alternative a = all.get(n - 1);
    return Optional.of(plan(Map.of(a.assumed(), a.choice()), a.keepApart() ? Set.of(a.assumed()) : Set.of(),
        List.of(String.format(Locale.ROOT, "alternative %d: %s%s (%.2f below the best plan)", n,
            a.move(), a.keepApart() ? ", not merged" : "", a.loss()))));
  }

  /**
   * One assumed table on another lake table, or kept apart from the table it was merged into, or one of its columns
   * on another lake column.
   */
  private record Alternative(String assumed, TableChoice choice, boolean keepApart, double loss, int shared,
      String move) {
    Alternative(String assumed, TableChoice choice, boolean keepApart, double loss, int shared) {
      this(assumed, choice, keepApart, loss, shared, choice.assumed() + "→" + choice.lake());
    }
  }

  /** Each mapped column of the best plan's tables moved to the best lake column of its table no other one reads. */
  private List<Alternative> columnMoves(Map<String, List<TableChoice>> ranked) {
    List<Alternative> out = new ArrayList<>();
    for (TableChoice t : plan().tables().values()) {
      TableChoice base = t.mergedInto() != null ? null : ranked.get(key(t.assumed())).stream()
          .filter(c -> c.lake().equals(t.lake())).findFirst().orElse(null);
      if (base == null) {
        continue;
      }
      Set<String> read = new LinkedHashSet<>();
      t.columns().values().stream().filter(c -> c.lakeTable().equals(t.lake())).forEach(c -> read.add(c.lakeColumn()));
      int columns = Math.max(1, t.columns().size() + t.unmapped().size());
      t.columns().forEach((column, now) -> {
        if (!now.lakeTable().equals(t.lake())) {
          return;
        }
        tables.targets(t.assumed(), column, t.lake(), read).stream().filter(c -> c.score() > 0)
            .max(Comparator.comparingDouble(ColumnTarget::score)).ifPresent(next -> {
              Map<String, ColumnTarget> moved = new LinkedHashMap<>(base.columns());
              moved.put(column, new ColumnTarget(next.lakeTable(), next.lakeColumn(), next.score(),
                  "next best column: " + next.why()));
              List<String> unmapped = new ArrayList<>(base.unmapped());
              unmapped.removeIf(u -> key(u).equals(column));
              out.add(new Alternative(key(t.assumed()),
                  new TableChoice(base.assumed(), base.lake(), base.score(), moved, unmapped, null), false,
                  Math.max(0, now.score() - next.score()) / columns, 0,
                  t.assumed() + "." + column + "→" + t.lake() + "." + next.lakeColumn()));
            });
      });
    }
    return out;
  }

  private List<Alternative> alternatives() {
    if (alternatives == null) {
      Map<String, List<TableChoice>> all = rankedTables(new ArrayList<>());
      List<Alternative> unmerged = new ArrayList<>();
      for (TableChoice t : plan().tables().values()) {
        if (t.mergedInto() == null) {
          continue;
        }
        String into = plan().effective(t.mergedInto()).map(TableChoice::lake).orElse("");
        List<TableChoice> ranked = all.get(key(t.assumed()));
        ranked.stream().filter(c -> !c.lake().equals(into)).findFirst().ifPresent(c -> unmerged.add(
            new Alternative(key(t.assumed()), c, true, ranked.get(0).score() - c.score(), 0)));
      }
      List<Alternative> swaps = new ArrayList<>();
      all.forEach((assumed, ranked) -> {
        for (int i = 1; i < ranked.size() && i <= ALTERNATIVE_TABLES; i++) {
          String lakeTable = ranked.get(i).lake();
          int shared = (int) all.entrySet().stream().filter(e -> !e.getKey().equals(assumed))
              .filter(e -> e.getValue().get(0).lake().equals(lakeTable)).count();
          swaps.add(new Alternative(assumed, ranked.get(i), false, ranked.get(0).score() - ranked.get(i).score(),
              shared));
        }
      });
      // Structure first: distinct assumed tables are mostly distinct lake tables, so a swap onto a table another
      // assumed table already reads (a join of a table with itself) comes after those that keep them apart.
      Comparator<Alternative> order = Comparator.comparingInt(Alternative::shared)
          .thenComparingDouble(Alternative::loss);
      swaps.addAll(columnMoves(all));
      unmerged.sort(order);
      swaps.sort(order);
      List<Alternative> out = new ArrayList<>(unmerged);
      out.addAll(swaps);
      alternatives = out;
    }
    return alternatives;
  }

  private @Nullable List<Alternative> alternatives;
  private @Nullable Plan bestPlan;

  /** Per assumed table (lower case), its candidate tables best first (scored once per planner). */
  private Map<String, List<TableChoice>> rankedTables(List<String> notes) {
    if (ranked == null) {
      Map<String, List<TableChoice>> out = new LinkedHashMap<>();
      for (Map.Entry<String, List<String>> e : assumedTables().entrySet()) {
        out.put(key(e.getKey()), tables.rankTables(e.getKey(), e.getValue(), rankingNotes));
      }
      ranked = joinConsistency.rerank(out, rankingNotes);
    }
    notes.addAll(rankingNotes);
    return ranked;
  }

  private @Nullable Map<String, List<TableChoice>> ranked;
  private final List<String> rankingNotes = new ArrayList<>();

  private Plan plan(Map<String, TableChoice> overrides, Set<String> keepApart, List<String> why) {
    List<Action> wanted = new ArrayList<>();
    List<String> notes = new ArrayList<>(why);
    Map<String, TableChoice> tables = new LinkedHashMap<>();
    Map<String, List<TableChoice>> candidatesByAssumed = rankedTables(notes);
    candidatesByAssumed.forEach((assumed, candidates) -> tables.put(assumed,
        overrides.getOrDefault(assumed, candidates.get(0))));
    obsolete.mergeObsolete(tables, notes, keepApart, candidatesByAssumed);

    Map<String, Evidence.CleanedTable> cleaned = new LinkedHashMap<>();
    for (Evidence.CleanedTable c : context.pad.payloads(Scratchpad.Section.CTES, Evidence.CleanedTable.class)) {
      cleaned.put(c.baseTable(), c);
    }

    List<JoinRoute> extraJoins = new ArrayList<>();
    Map<String, TableChoice> resolved = new LinkedHashMap<>();
    for (TableChoice t : tables.values()) {
      resolved.put(key(t.assumed()), t.mergedInto() == null
          ? missing.codeLabels(missing.crossTableColumns(t, extraJoins, wanted), extraJoins) : t);
    }
    resolved = joinKeys.resolve(resolved, extraJoins, wanted, notes);
    Map<String, Evidence.JoinPath> joinFixes = joins.joinFixes(resolved, wanted, notes);
    Set<String> keyed = new LinkedHashSet<>();
    Map<String, List<Evidence.UnionPartner>> unions = unionsAndNoise.unions(resolved, wanted);
    Map<String, LiteralFix> literalFixes = literals.literalFixes(resolved, unions, wanted, notes, keyed);
    unionsAndNoise.noise(resolved, extraJoins, cleaned, wanted);

    if (TableChooser.DEBUG) {
      resolved.values().forEach(t -> notes.add("plan for " + t.assumed() + " on " + t.lake() + ": " + t.columns()
          .entrySet().stream().map(e -> e.getKey() + "→" + e.getValue().lakeTable() + "." + e.getValue().lakeColumn()
              + " (" + e.getValue().why() + ")").toList() + ", unmapped " + t.unmapped()));
      extraJoins.forEach(j -> notes.add("extra join for " + j.fromAssumed() + ": " + j.path().steps().stream()
          .map(s -> s.leftTable() + "." + s.leftColumn() + " = " + s.rightTable() + "." + s.rightColumn()).toList()));
    }
    double confidence = confidence(resolved);
    return new Plan(resolved, literalFixes, joinFixes, extraJoins, cleaned, unions, dedupe(wanted), confidence,
        notes, keyed);
  }

  /** Assumed tables with the columns the query uses on them; unresolved columns go to every table for now. */
  /**
   * Each assumed table with the columns the query reads on it. A column the analysis could not tie to one table
   * goes where the assumed schema places it: to the table its prefix names, or to each table it may belong to when
   * nothing tells; a column no assumed table can own (a CTE's or derived table's own output, say {@code
   * total_revenue} beside {@code supplier}) goes nowhere, instead of into every table's ranking.
   */
  private Map<String, List<String>> assumedTables() {
    return assumedTables(context.analysis, context.schema());
  }

  /**
   * Each assumed table of a query with the columns it reads on it: the analysis's columns, and those the assumed
   * schema placed (by prefix, or on each candidate table when nothing tells). A column no assumed table can own (a
   * CTE's or derived table's own output) is on none. Used for retrieval and for ranking lake tables.
   */
  static Map<String, List<String>> assumedTables(QueryAnalysis analysis, AssumedSchema schema) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String t : analysis.tableNames()) {
      List<String> cols = new ArrayList<>(analysis.columnsOf(t));
      schema.table(t).ifPresent(assumed -> assumed.columns().values().forEach(c -> addIgnoringCase(cols, c.name())));
      out.put(t, cols);
    }
    for (AssumedSchema.Ambiguous a : schema.ambiguous()) {
      for (String candidate : a.candidates()) {
        out.forEach((t, cols) -> {
          if (t.equalsIgnoreCase(candidate)) {
            addIgnoringCase(cols, a.column());
          }
        });
      }
    }
    return out;
  }

  private static void addIgnoringCase(List<String> list, String s) {
    if (!containsIgnoreCase(list, s)) {
      list.add(s);
    }
  }

  private static boolean containsIgnoreCase(List<String> list, String s) {
    return list.stream().anyMatch(x -> x.equalsIgnoreCase(s));
  }

  private double confidence(Map<String, TableChoice> tables) {
    double sum = 0;
    int n = 0;
    for (TableChoice t : tables.values()) {
      for (ColumnTarget c : t.columns().values()) {
        sum += c.score();
        n++;
      }
      n += t.unmapped().size();
    }
    return n == 0 ? 0.5 : sum / n;
  }

  private static List<Action> dedupe(List<Action> actions) {
    Map<String, Action> byQuestion = new LinkedHashMap<>();
    for (Action a : actions) {
      byQuestion.putIfAbsent(question(a), a);
    }
    return new ArrayList<>(byQuestion.values());
  }

  /**
   * What an action asks of the lake, the same for actions that get the same answer: FIND_JOIN_PATH(a, b) and
   * FIND_JOIN_PATH(b, a) (the scratchpad reads a join path in either direction), case aside.
   */
  static String question(Action action) {
    if (action instanceof Action.FindJoinPath f) {
      String a = f.tableA().toLowerCase(Locale.ROOT);
      String b = f.tableB().toLowerCase(Locale.ROOT);
      return a.compareTo(b) <= 0 ? "find_join_path " + a + "\u0000" + b : "find_join_path " + b + "\u0000" + a;
    }
    return action.describe().toLowerCase(Locale.ROOT);
  }
}
