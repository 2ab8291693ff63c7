package dev.lakerewrite.core.rewrite;

import static dev.lakerewrite.core.match.EntityNames.isNameLike;

import dev.lakerewrite.core.ColumnProfile;
import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.match.AssumedSchema;
import dev.lakerewrite.core.match.ColumnAssignment;
import dev.lakerewrite.core.match.ColumnFeatures;
import dev.lakerewrite.core.match.ColumnModel;
import dev.lakerewrite.core.match.EntityNames;
import dev.lakerewrite.core.match.TableFeatures;
import dev.lakerewrite.core.match.TableModel;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.core.sql.QueryAnalysis;
import dev.lakerewrite.core.sql.QueryAnalysis.ColumnReference;
import dev.lakerewrite.core.sql.QueryAnalysis.JoinCondition;
import dev.lakerewrite.core.sql.QueryAnalysis.Predicate;
import dev.lakerewrite.retrieval.Names;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
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
 */
final class OfflinePlanner {
  /** A column maps to a lake column at or above this score. */
  static final double COLUMN_THRESHOLD = 0.5;
  /** A column found in another table must beat its best column in the main table by this much. */
  static final double CROSS_TABLE_MARGIN = 0.1;
  /** A value-search hit at or above this score replaces a filter literal. */
  static final double VALUE_THRESHOLD = 0.55;
  /** Tables this close in relevance to the best one are candidates for a union. */
  static final double UNION_ABOUT_GAP = 0.1;
  /** The rows a union partner adds may fit the assumed name this much less than the base's rows. */
  static final double UNION_KIND_GAP = 0.05;
  static final double UNION_SCORE_THRESHOLD = 0.75;
  static final int CANDIDATE_TABLES = 6;
  /** Runner-up tables per assumed table that alternative plans try. */
  static final int ALTERNATIVE_TABLES = 2;
  /** With -Dlakerewrite.debug.planner=true the plan's notes (and so the trace) list every scored candidate. */
  static final boolean DEBUG = Boolean.getBoolean("lakerewrite.debug.planner");
  static final boolean LEARNED_FALLBACK = !Boolean.getBoolean("lakerewrite.planner.nameOnly");
  /**
   * Experimental, off by default: the learned table matcher's probability ({@link TableModel}) joins the planner's
   * table score ({@code -Dlakerewrite.planner.learnedTables=true}). On the renamed lakes of the fit part it lifts
   * F1 from 0.555 to 0.598; on the development lake, named by synonyms rather than abbreviations, it costs 0.013 F1 and
   * 0.017 EX (below the floor that lake must hold), so it is not the default.
   */
  static final boolean LEARNED_TABLES = Boolean.getBoolean("lakerewrite.planner.learnedTables");
  /**
   * Weight of what a lake table is about (its name, or the kind of its rows, whichever fits the assumed table's
   * name better) in choosing the table.
   */
  static final double ABOUT_WEIGHT = 0.8;
  /** How much a column's type family fitting (or not) the query's use of the assumed column moves its score. */
  static final double TYPE_FIT = 0.15;
  /** Bonus for a table that holds the query's filter literals as they are written (half for close spellings). */
  static final double VALUE_TABLE_BONUS = 0.15;
  /** Tables, by relevance, among which name and kind similarity add candidates. */
  static final int ABOUT_POOL = 30;
  /** A union partner must bring at least this share of entities the base table lacks (twins add nothing). */
  static final double UNION_MIN_NEW_SHARE = 0.2;
  /** Added rows of another kind than the base's must fit the assumed name at least this well. */
  static final double UNION_MIN_KIND = 0.45;

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
  record JoinRoute(String fromAssumed, String toLake, Evidence.JoinPath path) {}

  /** The plan: mappings, fixes, and what evidence is still missing. */
  record Plan(Map<String, TableChoice> tables, Map<String, LiteralFix> literalFixes,
      Map<String, Evidence.JoinPath> joinFixes, List<JoinRoute> extraJoins,
      Map<String, Evidence.CleanedTable> cleaned, Map<String, List<Evidence.UnionPartner>> unions,
      List<Action> wanted, double confidence, List<String> notes, Set<String> keyedFilters) {

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

  private final RewriteState state;
  private final LakeTools lake;
  private final QueryAnalysis analysis;
  private final Scratchpad pad;
  /** "table|column" (lower case) of columns the query uses only in join conditions: keys of its own schema. */
  private final Set<String> joinOnly;
  /** Assumed column (lower case) → the type family the query treats it as (compared with numbers or dates). */
  private final Map<String, TypeFamily> expectedFamilies;
  /** The query's assumed schema with how it uses each column (the matcher's type and instance evidence). */
  private @Nullable AssumedSchema schema;
  private final Map<String, Double> probabilities = new HashMap<>();

  OfflinePlanner(RewriteState state) {
    this.state = state;
    this.lake = state.lake();
    this.analysis = state.analysis().orElseThrow();
    this.pad = state.scratchpad();
    this.joinOnly = joinOnlyColumns(analysis);
    this.expectedFamilies = expectedFamilies(analysis);
  }

  /**
   * A column's choice as the confidence calibration reads it: the matcher's probability of the chosen lake column,
   * of the best other column of the same table, and their sum over the table's columns.
   */
  double[] choice(String assumedTable, String column, String table, String lakeColumn) {
    double chosen = 0;
    double other = 0;
    double total = 0;
    for (CatalogTable.Column c : lake.table(table).columns()) {
      double p = probability(assumedTable, column, table, c.name());
      total += p;
      if (c.name().equals(lakeColumn)) {
        chosen = p;
      } else {
        other = Math.max(other, p);
      }
    }
    return new double[] {chosen, other, total};
  }

  /**
   * The schema matcher's probability that assumed column {@code column} of {@code assumedTable} is
   * {@code lakeColumn} of {@code table} (memoised per plan).
   */
  double probability(String assumedTable, String column, String table, String lakeColumn) {
    return probabilities.computeIfAbsent(key(assumedTable) + "|" + key(column) + "|" + table + "|" + lakeColumn, k -> {
      AssumedSchema.Column use = schema().table(assumedTable).flatMap(t -> t.column(column)).orElse(null);
      return ColumnModel.standard().probability(
          ColumnFeatures.compute(lake, assumedTable, use, column, table, lakeColumn));
    });
  }

  private AssumedSchema schema() {
    if (schema == null) {
      schema = AssumedSchema.of(new Trees(SqlParser.standalone()).statement(state.userQuery()));
    }
    return schema;
  }

  /** A column compared by order with numbers is numeric, with dates a date; summed or averaged, numeric. */
  static Map<String, TypeFamily> expectedFamilies(QueryAnalysis a) {
    Map<String, TypeFamily> out = new LinkedHashMap<>();
    for (Predicate p : a.predicates()) {
      boolean ordered = Set.of("<", ">", "<=", ">=", "BETWEEN").contains(p.operator());
      for (int i = 0; i < p.literals().size() && ordered; i++) {
        String kind = i < p.literalKinds().size() ? p.literalKinds().get(i) : "";
        String lit = p.literals().get(i);
        if (kind.startsWith("DATE") || kind.startsWith("TIMESTAMP")
            || lit != null && lit.matches("\\d{4}-\\d{2}(-\\d{2})?.*") && !kind.equals("INTEGER")) {
          out.put(key(p.column().column()), TypeFamily.DATETIME);
        } else if (kind.equals("INTEGER") || kind.equals("NUMERIC") || kind.startsWith("DECIMAL")
            || kind.equals("DOUBLE") || kind.equals("BIGINT")) {
          out.putIfAbsent(key(p.column().column()), TypeFamily.NUMERIC);
        }
      }
    }
    for (QueryAnalysis.OutputColumn o : a.outputColumns()) {
      String e = o.expression().toLowerCase(Locale.ROOT);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\b(sum|avg)\\(\\s*(?:\\w+\\.)?\"?([^\")]+)\"?\\s*\\)")
          .matcher(e);
      while (m.find()) {
        out.put(m.group(2).strip(), TypeFamily.NUMERIC);
      }
    }
    return out;
  }

  /**
   * Columns that appear only in join conditions ({@code r.id}, {@code c.region_id}): they name the assumed
   * schema's keys, which the lake may not have; the join graph decides the real keys.
   */
  static Set<String> joinOnlyColumns(QueryAnalysis a) {
    Set<String> inJoins = new LinkedHashSet<>();
    for (JoinCondition j : a.joins()) {
      for (ColumnReference r : List.of(j.left(), j.right())) {
        inJoins.add(r.table().map(OfflinePlanner::key).orElse("") + "|" + key(r.column()));
      }
    }
    Set<String> elsewhere = new LinkedHashSet<>();
    for (QueryAnalysis.OutputColumn o : a.outputColumns()) {
      o.source().ifPresent(r -> elsewhere.add(r.table().map(OfflinePlanner::key).orElse("") + "|" + key(r.column())));
      if (o.source().isEmpty()) {
        for (String t : a.tableNames()) {
          for (String c : a.columnsOf(t)) {
            if (o.expression().toLowerCase(Locale.ROOT).contains(key(c))) {
              elsewhere.add(key(t) + "|" + key(c));
            }
          }
        }
      }
    }
    for (Predicate p : a.predicates()) {
      if (!p.clause().equals("JOIN")) {
        elsewhere.add(p.column().table().map(OfflinePlanner::key).orElse("") + "|" + key(p.column().column()));
      }
    }
    for (String g : a.groupBy()) {
      for (String t : a.tableNames()) {
        for (String c : a.columnsOf(t)) {
          if (g.toLowerCase(Locale.ROOT).contains(key(c))) {
            elsewhere.add(key(t) + "|" + key(c));
          }
        }
      }
    }
    for (QueryAnalysis.OrderItem o : a.orderBy()) {
      for (String t : a.tableNames()) {
        for (String c : a.columnsOf(t)) {
          if (o.expression().toLowerCase(Locale.ROOT).contains(key(c))) {
            elsewhere.add(key(t) + "|" + key(c));
          }
        }
      }
    }
    inJoins.removeAll(elsewhere);
    return inJoins;
  }

  private boolean isKey(String assumedTable, String column) {
    return joinOnly.contains(key(assumedTable) + "|" + key(column)) || Names.normalize(column).equals("id");
  }

  static String key(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  static String literalKey(String assumedTable, String column, String literal) {
    return key(assumedTable) + "|" + key(column) + "|" + literal;
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
   * other than the one it was merged into); then one assumed table moved to one of its next
   * {@value #ALTERNATIVE_TABLES} candidate tables, those that keep distinct assumed tables on distinct lake tables
   * first, each group in order of the score it gives up.
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
        List.of(String.format(Locale.ROOT, "alternative %d: %s→%s%s (%.2f below the best table)", n,
            a.choice().assumed(), a.choice().lake(), a.keepApart() ? ", not merged" : "", a.loss()))));
  }

  /** One assumed table on another lake table, or kept apart from the table it was merged into. */
  private record Alternative(String assumed, TableChoice choice, boolean keepApart, double loss, int shared) {}

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
        out.put(key(e.getKey()), rankTables(e.getKey(), e.getValue(), rankingNotes));
      }
      ranked = out;
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
    rankedTables(notes).forEach((assumed, ranked) -> tables.put(assumed,
        overrides.getOrDefault(assumed, ranked.get(0))));
    mergeObsolete(tables, notes, keepApart);

    Map<String, Evidence.CleanedTable> cleaned = new LinkedHashMap<>();
    for (Evidence.CleanedTable c : pad.payloads(Scratchpad.Section.CTES, Evidence.CleanedTable.class)) {
      cleaned.put(c.baseTable(), c);
    }

    List<JoinRoute> extraJoins = new ArrayList<>();
    Map<String, TableChoice> resolved = new LinkedHashMap<>();
    for (TableChoice t : tables.values()) {
      resolved.put(key(t.assumed()), t.mergedInto() == null
          ? codeLabels(crossTableColumns(t, extraJoins, wanted), extraJoins) : t);
    }
    Map<String, Evidence.JoinPath> joinFixes = joinFixes(resolved, wanted, notes);
    Set<String> keyed = new LinkedHashSet<>();
    Map<String, LiteralFix> literalFixes = literalFixes(resolved, wanted, notes, keyed);
    Map<String, List<Evidence.UnionPartner>> unions = unions(resolved, wanted);
    noise(resolved, extraJoins, cleaned, wanted);

    double confidence = confidence(resolved);
    return new Plan(resolved, literalFixes, joinFixes, extraJoins, cleaned, unions, dedupe(wanted), confidence,
        notes, keyed);
  }

  /** Assumed tables with the columns the query uses on them; unresolved columns go to every table for now. */
  private Map<String, List<String>> assumedTables() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String t : analysis.tableNames()) {
      out.put(t, new ArrayList<>(analysis.columnsOf(t)));
    }
    for (ColumnReference c : analysis.unresolvedColumns()) {
      for (List<String> cols : out.values()) {
        if (!containsIgnoreCase(cols, c.column())) {
          cols.add(c.column());
        }
      }
    }
    return out;
  }

  private static boolean containsIgnoreCase(List<String> list, String s) {
    return list.stream().anyMatch(x -> x.equalsIgnoreCase(s));
  }

  // ---------------------------------------------------------------------------------------------------------
  // Tables and columns

  /** The candidate tables for an assumed table, best first (never empty). */
  private List<TableChoice> rankTables(String assumedName, List<String> columns, List<String> notes) {
    Map<String, Double> relevance = lake.relevanceTo(assumedName, columns);
    Set<String> candidates = new LinkedHashSet<>();
    relevance.entrySet().stream().limit(CANDIDATE_TABLES).forEach(e -> candidates.add(e.getKey()));
    // Schema retrieval misses tables whose name or many columns hide what their rows are: add the tables whose
    // name or rows' kind fit the assumed name best (among the most relevant ones, to bound the cost).
    List<String> pool = relevance.keySet().stream().limit(ABOUT_POOL).toList();
    pool.stream().sorted(java.util.Comparator.comparingDouble((String t) -> -about(assumedName, t)))
        .limit(CANDIDATE_TABLES / 2).forEach(candidates::add);
    Map<String, Double> valueEvidence = literalTables(assumedName);
    valueEvidence.keySet().stream().filter(t -> valueEvidence.get(t) >= EXACT_HIT).forEach(candidates::add);
    candidates.addAll(pad.contextTables());
    TableChoice best = null;
    List<TableChoice> all = new ArrayList<>();
    List<String> scored = new ArrayList<>();
    for (String t : candidates) {
      if (pad.isEvicted(t) && !pad.hasTable(t)) {
        continue;
      }
      double rel = relevance.getOrDefault(t, 0.0);
      double name = lake.nameSimilarity(assumedName, t);
      double kind = entityKindSimilarity(assumedName, t);
      double values = valueEvidence.getOrDefault(t, 0.0);
      double valueBonus = values >= EXACT_HIT ? VALUE_TABLE_BONUS : values >= 0.8 ? VALUE_TABLE_BONUS / 2 : 0;
      double evidence = rel + ABOUT_WEIGHT / 0.5 * about(name, kind) + valueBonus / 0.5;
      TableChoice c = mapColumns(assumedName, t, columns, evidence);
      scored.add(String.format("%s %.2f (R %.2f, name %.2f, kind %.2f, values %.2f, fit %.2f)", t, c.score(), rel,
          name, kind, values, c.score() - 0.5 * evidence));
      if (LEARNED_TABLES) {
        // The learned table matcher's probability joins the planner's own score (an even ensemble, not a tuned
        // weight): where the matcher is sure (a name that abbreviates the assumed one, on lakes renamed the way it
        // was fitted on) it decides; where it is unsure (a lake named by synonyms) its probabilities are small and
        // alike, and the planner's score decides as before.
        double[] features = tableFeatures(assumedName, t, rel);
        double p = TableModel.standard().probability(features);
        c = new TableChoice(c.assumed(), c.lake(), c.score() + p, c.columns(), c.unmapped(), c.mergedInto());
        scored.add(String.format(Locale.ROOT, "%s + table matcher %.2f %s", t, p, java.util.Arrays.toString(features)));
      }
      all.add(c);
      if (best == null || c.score() > best.score() + 1e-9) {
        best = c;
      }
    }
    if (DEBUG) {
      notes.add("candidates for " + assumedName + ": " + String.join("; ", scored));
    }
    if (best == null) {
      String t = relevance.keySet().iterator().next();
      return List.of(mapColumns(assumedName, t, columns, relevance.get(t)));
    }
    List<TableChoice> out = new ArrayList<>();
    out.add(best);
    TableChoice first = best;
    // Stable: among equal scores the earlier candidate ranks first, as the best is chosen.
    all.stream().filter(c -> c != first).sorted(Comparator.comparingDouble((TableChoice c) -> -c.score()))
        .forEach(out::add);
    return out;
  }

  /** The table matcher's features of an assumed table against a lake table (the query's columns of that table). */
  private double[] tableFeatures(String assumedName, String table, double relevance) {
    List<String> columns = schema().table(assumedName).map(TableFeatures::describingColumns).orElse(List.of());
    return TableFeatures.compute(lake, assumedName, columns, table, relevance,
        (c, lakeColumn) -> probability(assumedName, c, table, lakeColumn));
  }

  private TableChoice mapColumns(String assumedName, String table, List<String> columns, double relevance) {
    return mapColumns(assumedName, table, columns, relevance, true);
  }

  private TableChoice mapColumns(String assumedName, String table, List<String> columns, double relevance,
      boolean entityPrior) {
    Map<String, ColumnTarget> mapped = new LinkedHashMap<>();
    List<String> unmapped = new ArrayList<>();
    Map<String, String> assumedOf = new LinkedHashMap<>();
    Map<String, Map<String, Double>> weights = new LinkedHashMap<>();
    Map<String, Map<String, ColumnTarget>> options = new LinkedHashMap<>();
    double sum = 0;
    int counted = 0;
    for (String c : columns) {
      if (isKey(assumedName, c)) {
        continue;
      }
      List<ColumnTarget> targets = columnTargets(assumedName, c, table, entityPrior, Set.of());
      ColumnTarget best = strongest(targets);
      counted++;
      if (best != null && best.score() >= COLUMN_THRESHOLD) {
        sum += best.score();
        Map<String, Double> w = new LinkedHashMap<>();
        Map<String, ColumnTarget> o = new LinkedHashMap<>();
        for (ColumnTarget t : targets) {
          if (t.score() >= COLUMN_THRESHOLD) {
            w.put(t.lakeColumn(), t.score());
            o.put(t.lakeColumn(), t);
          }
        }
        weights.put(key(c), w);
        options.put(key(c), o);
        assumedOf.put(key(c), c);
      } else {
        unmapped.add(c);
        sum += best == null ? 0 : best.score() * 0.5;
      }
    }
    // Two assumed columns never read one lake column (state_name and border both → state): the maximum-weight
    // one-to-one assignment over every column that reaches the threshold; a column left without one is sought
    // elsewhere.
    Map<String, String> assigned = ColumnAssignment.best(weights).pairs();
    for (Map.Entry<String, Map<String, ColumnTarget>> e : options.entrySet()) {
      String lakeColumn = assigned.get(e.getKey());
      if (lakeColumn != null) {
        mapped.put(e.getKey(), e.getValue().get(lakeColumn));
      } else {
        unmapped.add(assumedOf.get(e.getKey()));
      }
    }
    double fit = counted == 0 ? 0.5 : sum / counted;
    double score = 0.5 * relevance + fit;
    return new TableChoice(assumedName, table, score, mapped, unmapped, null);
  }

  /** The lake column of {@code table} that best answers assumed column {@code column}. */
  Optional<ColumnTarget> bestColumn(String assumedTable, String column, String table) {
    return bestColumn(assumedTable, column, table, true, Set.of());
  }

  Optional<ColumnTarget> bestColumn(String assumedTable, String column, String table, boolean entityPrior) {
    return bestColumn(assumedTable, column, table, entityPrior, Set.of());
  }

  /**
   * Every column of {@code table} scored for an assumed column by name similarity (and type fit) or, when
   * {@code learned}, by the schema matcher's probability (only columns whose names abbreviate the assumed one); an
   * entity-name prior and a filter value found in a column raise either score.
   */
  private List<ColumnTarget> columnTargets(String assumedTable, String column, String table, boolean entityPrior,
      Set<String> excluded, boolean learned) {
    CatalogTable info = lake.table(table);
    String entity = entityColumn(table);
    boolean nameLike = entityPrior && (isNameLike(column, assumedTable) || isNameLike(column, table));
    TypeFamily expected = expectedFamilies.get(key(column));
    List<ColumnTarget> out = new ArrayList<>();
    for (CatalogTable.Column col : info.columns()) {
      if (excluded.contains(col.name())) {
        continue;
      }
      if (learned && !ColumnFeatures.abbreviates(column, col.name())) {
        continue;
      }
      double sim = learned ? probability(assumedTable, column, table, col.name())
          : lake.nameSimilarity(column, col.name());
      String why = String.format(learned ? "matcher probability %.2f" : "name similarity %.2f", sim);
      if (expected != null && !learned) {
        TypeFamily actual = family(table, col.name());
        if (actual == expected) {
          sim += TYPE_FIT;
        } else if (actual == TypeFamily.STRING || actual == TypeFamily.BOOLEAN) {
          sim -= TYPE_FIT;
        }
      }
      if (nameLike && col.name().equals(entity) && sim < 0.8) {
        sim = 0.8;
        why = "entity-name column for a name-like column";
      }
      double valueBoost = valueEvidence(assumedTable, column, table, col.name());
      if (valueBoost > sim) {
        sim = valueBoost;
        why = "filter value found in this column";
      }
      out.add(new ColumnTarget(table, col.name(), sim, why));
    }
    return out;
  }

  /** The first of the highest-scored targets, or null for none. */
  private static @Nullable ColumnTarget strongest(List<ColumnTarget> targets) {
    ColumnTarget best = null;
    for (ColumnTarget t : targets) {
      if (best == null || t.score() > best.score() + 1e-9) {
        best = t;
      }
    }
    return best;
  }

  Optional<ColumnTarget> bestColumn(String assumedTable, String column, String table, boolean entityPrior,
      Set<String> excluded) {
    return Optional.ofNullable(strongest(columnTargets(assumedTable, column, table, entityPrior, excluded)));
  }

  /**
   * The columns of {@code table} scored for an assumed column by name; where no column's name answers, the learned
   * matcher's scores among the columns whose names abbreviate the assumed one (embeddings miss abbreviated names:
   * INST_OF for "instance of"), when one of them reaches the threshold.
   */
  private List<ColumnTarget> columnTargets(String assumedTable, String column, String table, boolean entityPrior,
      Set<String> excluded) {
    List<ColumnTarget> byName = columnTargets(assumedTable, column, table, entityPrior, excluded, false);
    ColumnTarget best = strongest(byName);
    if (LEARNED_FALLBACK && best != null && best.score() < COLUMN_THRESHOLD) {
      List<ColumnTarget> learned = columnTargets(assumedTable, column, table, entityPrior, excluded, true);
      ColumnTarget top = strongest(learned);
      if (top != null && top.score() >= COLUMN_THRESHOLD) {
        return learned;
      }
    }
    return byName;
  }

  /**
   * 0.75 when a value search found one of the column's filter literals in this lake column: the hit a filter
   * would use (see {@link #pickHit}) without a mapping, i.e. an exact spelling or a strong categorical match.
   */
  private double valueEvidence(String assumedTable, String column, String table, String lakeColumn) {
    for (Predicate p : analysis.predicates()) {
      if (!p.column().column().equalsIgnoreCase(column)) {
        continue;
      }
      for (String lit : p.literals()) {
        Optional<Scratchpad.Entry> e = pad.entry(Scratchpad.Section.VALUES, table + "|" + lit);
        if (e.isPresent() && e.get().payload() instanceof Evidence.ValueSearch vs) {
          Optional<String[]> category = categorySpelling(table, lit);
          String where = category.map(c -> c[0])
              .orElseGet(() -> pickHit(vs, null, column).map(Evidence.ValueHit::column).orElse(null));
          if (lakeColumn.equals(where)) {
            return 0.75;
          }
        }
      }
    }
    return 0;
  }

  /**
   * Per lake table, the best lake-wide match of the string filter literals on an assumed table's columns: a
   * table that holds {@code 'winter sport'} is likelier the one meant than one that does not.
   */
  private Map<String, Double> literalTables(String assumedName) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (Predicate p : analysis.predicates()) {
      if (p.column().table().isPresent() && !p.column().table().get().equalsIgnoreCase(assumedName)
          || p.operator().contains("LIKE") || p.clause().equals("JOIN")) {
        continue;
      }
      for (int i = 0; i < p.literals().size(); i++) {
        String kind = i < p.literalKinds().size() ? p.literalKinds().get(i) : "STRING";
        String lit = p.literals().get(i);
        if (lit != null && (kind.equals("STRING") || kind.equals("VARCHAR")) && lit.length() >= 2) {
          lake.tablesWithValue(lit).forEach((t, sc) -> out.merge(t, sc, Math::max));
        }
      }
    }
    return out;
  }

  /**
   * What a lake table is about, as evidence for an assumed table name: the better of the table name's and the
   * rows' kind's similarity, plus a quarter of the other. WikiDBs tables are often named after a property
   * ({@code located_in_the_administrative_territorial_entity}) while their rows say what they are.
   */
  double about(String assumedName, String table) {
    return about(lake.nameSimilarity(assumedName, table), entityKindSimilarity(assumedName, table));
  }

  static double about(double name, double kind) {
    return TableFeatures.about(name, kind);
  }

  /**
   * How well the assumed table's name describes the kind of rows a lake table holds, judged from the data: the
   * best similarity between the name and the frequent values of the table's categorical text columns (a
   * table of districts says {@code district of New Zealand} in its {@code instance of} column).
   */
  double entityKindSimilarity(String assumedName, String table) {
    return TableFeatures.entityKindSimilarity(lake, assumedName, table);
  }

  /** A table's entity-name column: the first unique text column (WikiDBs: {@code label}). */
  @Nullable String entityColumn(String table) {
    return EntityNames.entityColumn(lake.profile(table));
  }

  // ---------------------------------------------------------------------------------------------------------
  // Obsolete tables

  /**
   * An assumed table is obsolete when its lake answer is the same table as another's, or when all its columns
   * are answered as well by the other's lake table: it is merged into that table and its join dropped.
   */
  private void mergeObsolete(Map<String, TableChoice> tables, List<String> notes, Set<String> keepApart) {
    List<TableChoice> list = new ArrayList<>(tables.values());
    for (int i = 1; i < list.size(); i++) {
      TableChoice b = list.get(i);
      if (keepApart.contains(key(b.assumed()))) {
        continue;
      }
      for (int j = 0; j < i; j++) {
        TableChoice a = list.get(j);
        if (a.mergedInto() != null) {
          continue;
        }
        boolean same = a.lake().equals(b.lake());
        boolean absorbed = false;
        boolean unjoinable = joined(a, b) && joinSearchFailed(a.lake(), b.lake());
        boolean junction = joined(a, b) && analysis.columnsOf(b.assumed()).stream().allMatch(c -> isKey(b.assumed(), c));
        if (!same && !unjoinable && !referencedByName(a, b)) {
          List<String> cols = analysis.columnsOf(b.assumed()).stream().filter(c -> !isKey(b.assumed(), c)).toList();
          TableChoice inA = mergedMapping(a, b);
          absorbed = !cols.isEmpty() && inA.unmapped().isEmpty()
              && inA.columns().values().stream().allMatch(t -> t.score() >= 0.6)
              && fit(inA) >= fit(b) - 0.05;
        }
        if (same || absorbed || unjoinable || junction) {
          TableChoice merged = mergedMapping(a, b);
          tables.put(key(b.assumed()), new TableChoice(b.assumed(), a.lake(), merged.score(), merged.columns(),
              merged.unmapped(), a.assumed()));
          notes.add(b.assumed() + " is obsolete: " + (junction ? "it only links tables"
              : a.lake() + " (for " + a.assumed() + ") answers it")
              + (unjoinable ? " (no join path to " + b.lake() + ")" : ""));
          list.set(i, tables.get(key(b.assumed())));
          break;
        }
      }
    }
  }

  /**
   * B's columns read from A's lake table: its entity-name columns from the column of A that refers to B's
   * entities (the one named most like B: {@code countries} → {@code country of origin}), the others by name,
   * without the entity-name prior (B's entity is not A's).
   */
  private TableChoice mergedMapping(TableChoice a, TableChoice b) {
    List<String> cols = analysis.columnsOf(b.assumed()).stream().filter(c -> !isKey(b.assumed(), c)).toList();
    TableChoice plain = mapColumns(b.assumed(), a.lake(), cols, 0, false);
    Map<String, ColumnTarget> columns = new LinkedHashMap<>(plain.columns());
    List<String> unmapped = new ArrayList<>(plain.unmapped());
    String entity = entityColumn(a.lake());
    for (String c : cols) {
      if (!isNameLike(c, b.assumed())) {
        continue;
      }
      // B's entity is not A's: never A's entity-name column.
      if (columns.containsKey(key(c)) && columns.get(key(c)).lakeColumn().equals(entity)) {
        Optional<ColumnTarget> other = bestColumn(b.assumed(), c, a.lake(), false, entity == null ? Set.of() : Set.of(entity));
        if (other.isPresent()) {
          columns.put(key(c), other.get().score() >= COLUMN_THRESHOLD ? other.get()
              : new ColumnTarget(other.get().lakeTable(), other.get().lakeColumn(), other.get().score(),
                  "best guess: " + other.get().why(), true));
        }
      }
      ColumnTarget best = null;
      for (CatalogTable.Column col : lake.table(a.lake()).columns()) {
        if (col.name().equals(entity)) {
          continue;
        }
        double sim = lake.nameSimilarity(b.assumed(), col.name());
        if (best == null || sim > best.score()) {
          best = new ColumnTarget(a.lake(), col.name(), sim, String.format("refers to %s (similarity %.2f)",
              b.assumed(), sim));
        }
      }
      if (best != null && best.score() >= COLUMN_THRESHOLD - 0.1
          && (!columns.containsKey(key(c)) || columns.get(key(c)).score() < best.score())) {
        columns.put(key(c), best);
        unmapped.removeIf(u -> key(u).equals(key(c)));
      }
    }
    return new TableChoice(b.assumed(), a.lake(), plain.score(), columns, unmapped, null);
  }

  /** Whether the query joins the two assumed tables directly. */
  private boolean joined(TableChoice a, TableChoice b) {
    for (JoinCondition j : analysis.joins()) {
      Set<String> sides = new LinkedHashSet<>();
      j.left().table().ifPresent(t -> sides.add(key(t)));
      j.right().table().ifPresent(t -> sides.add(key(t)));
      if (sides.contains(key(a.assumed())) && sides.contains(key(b.assumed()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the query joins A to B on B's entity-name column ({@code c.sport = p.label}) while reading other
   * columns of B: B's rows are entities of their own that A names, so A's columns that look like B's (every entity
   * table has a category, a description, a kind) are A's own, not B's — B is not obsolete. Joins on surrogate
   * keys ({@code s.id = e.sport_id}) say nothing either way.
   */
  private boolean referencedByName(TableChoice a, TableChoice b) {
    for (JoinCondition j : analysis.joins()) {
      for (boolean leftIsB : new boolean[] {true, false}) {
        QueryAnalysis.ColumnReference bSide = leftIsB ? j.left() : j.right();
        QueryAnalysis.ColumnReference aSide = leftIsB ? j.right() : j.left();
        if (bSide.table().map(OfflinePlanner::key).orElse("").equals(key(b.assumed()))
            && aSide.table().map(OfflinePlanner::key).orElse("").equals(key(a.assumed()))
            && isNameLike(bSide.column(), b.assumed())) {
          return analysis.columnsOf(b.assumed()).stream()
              .anyMatch(c -> !isKey(b.assumed(), c) && !isNameLike(c, b.assumed()));
        }
      }
    }
    return false;
  }

  /** FIND_JOIN_PATH between the two lake tables ran and found no path. */
  private boolean joinSearchFailed(String x, String y) {
    boolean searched = state.performedActions().stream().anyMatch(a -> a instanceof Action.FindJoinPath f
        && (f.tableA().equals(x) && f.tableB().equals(y) || f.tableA().equals(y) && f.tableB().equals(x)));
    return searched && joinPath(x, y).isEmpty();
  }

  private static double fit(TableChoice t) {
    return t.columns().values().stream().mapToDouble(ColumnTarget::score).average().orElse(0);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Columns that live in other tables (Missing Table)

  private TableChoice crossTableColumns(TableChoice choice, List<JoinRoute> extraJoins, List<Action> wanted) {
    TableChoice t = compoundColumns(choice, extraJoins, wanted);
    if (t.unmapped().isEmpty()) {
      return t;
    }
    Map<String, ColumnTarget> columns = new LinkedHashMap<>(t.columns());
    List<String> still = new ArrayList<>();
    List<String> searchFor = new ArrayList<>();
    for (String c : t.unmapped()) {
      ColumnTarget inMain = bestColumn(t.assumed(), c, t.lake()).orElse(null);
      double mainScore = inMain == null ? 0 : inMain.score();
      ColumnTarget best = null;
      Set<String> neighbours = new LinkedHashSet<>();
      lake.joinNeighbours(t.lake()).forEach(n -> neighbours.add(n.rightTable()));
      for (String other : pad.contextTables()) {
        // A column read from another table comes through one join with a direct neighbour in the join graph;
        // longer chains to a table that merely has a similarly named column are guesses.
        if (other.equals(t.lake()) || !neighbours.contains(other)) {
          continue;
        }
        Optional<ColumnTarget> ct = bestColumnOutsideEntity(t.assumed(), c, other);
        if (ct.isPresent() && ct.get().score() >= COLUMN_THRESHOLD && ct.get().score() >= mainScore + CROSS_TABLE_MARGIN
            && (best == null || ct.get().score() > best.score())) {
          best = ct.get();
        }
      }
      if (best == null) {
        still.add(c);
        searchFor.add(c);
        continue;
      }
      Optional<Evidence.JoinPath> path = joinPath(t.lake(), best.lakeTable())
          .filter(p -> p.steps().size() == 1);
      if (path.isPresent()) {
        columns.put(key(c), new ColumnTarget(best.lakeTable(), best.lakeColumn(), best.score(),
            best.why() + ", joined from " + t.lake()));
        final String target = best.lakeTable();
        if (extraJoins.stream().noneMatch(j -> j.fromAssumed().equalsIgnoreCase(t.assumed()) && j.toLake().equals(target))) {
          extraJoins.add(new JoinRoute(t.assumed(), best.lakeTable(), path.get()));
        }
      } else {
        still.add(c);
        if (state.enabled(ActionType.FIND_JOIN_PATH) && state.config().joinGraph()) {
          wanted.add(new Action.FindJoinPath(t.lake(), best.lakeTable()));
        }
      }
    }
    if (!searchFor.isEmpty() && state.enabled(ActionType.SEARCH_TABLE)) {
      wanted.add(new Action.SearchTable(t.assumed(), searchFor));
    }
    // Meanwhile every column reads the best its table offers: an executable guess beats a binder error.
    for (String c : still) {
      bestColumn(t.assumed(), c, t.lake()).ifPresent(weak -> columns.putIfAbsent(key(c),
          new ColumnTarget(weak.lakeTable(), weak.lakeColumn(), weak.score(), "best guess: " + weak.why(), true)));
    }
    return new TableChoice(t.assumed(), t.lake(), t.score(), columns, still, null);
  }

  /**
   * Columns the lake holds as codes: an assumed column compared with text that is not a number, mapped to a numeric
   * lake column, is read from the text column of a lookup table that holds the text, joined on the code (the join
   * graph's edge from that very column): {@code approved_by = 'Free Software Foundation'} over
   * {@code licences.SNCT_BY} (1, 2, 3) becomes {@code lookup.NM} through {@code LEFT JOIN lookup ON SNCT_BY = CD}.
   * Costs one value probe per text column of each neighbour joined on the code.
   */
  private TableChoice codeLabels(TableChoice t, List<JoinRoute> extraJoins) {
    Map<String, ColumnTarget> columns = new LinkedHashMap<>(t.columns());
    boolean changed = false;
    for (Map.Entry<String, ColumnTarget> e : t.columns().entrySet()) {
      ColumnTarget c = e.getValue();
      List<String> texts = textLiterals(e.getKey());
      if (texts.isEmpty() || family(c.lakeTable(), c.lakeColumn()) != TypeFamily.NUMERIC) {
        continue;
      }
      List<Evidence.JoinStep> steps = new ArrayList<>(lake.joinNeighbours(c.lakeTable()));
      lookupByValues(c, texts).ifPresent(steps::add);
      for (Evidence.JoinStep step : steps) {
        if (!step.leftColumn().equals(c.lakeColumn())) {
          continue;
        }
        Optional<String> label = lake.table(step.rightTable()).columns().stream()
            .filter(o -> !o.name().equals(step.rightColumn()) && family(step.rightTable(), o.name()) == TypeFamily.STRING)
            .map(CatalogTable.Column::name)
            .filter(o -> texts.stream().anyMatch(l -> lake.valueExists(step.rightTable(), o, l)))
            .findFirst();
        if (label.isEmpty()) {
          continue;
        }
        columns.put(e.getKey(), new ColumnTarget(step.rightTable(), label.get(), c.score(),
            "label of the code " + c.lakeColumn() + " in " + step.rightTable() + "." + label.get()));
        if (extraJoins.stream().noneMatch(j -> j.fromAssumed().equalsIgnoreCase(t.assumed())
            && j.toLake().equals(step.rightTable()))) {
          extraJoins.add(new JoinRoute(t.assumed(), step.rightTable(),
              new Evidence.JoinPath(c.lakeTable(), step.rightTable(), List.of(step), step.score(), 1, null)));
        }
        changed = true;
        break;
      }
    }
    return changed ? new TableChoice(t.assumed(), t.lake(), t.score(), columns, t.unmapped(), t.mergedInto()) : t;
  }

  /**
   * A lookup table of a code column the join graph has no edge for (small integer codes rarely pass as join keys):
   * a table holding one of the literals in a text column, with a numeric column that holds every code the column
   * uses (up to {@value #LOOKUP_CODES} of them). Empty when none does, or when the join graph already has an edge.
   */
  private Optional<Evidence.JoinStep> lookupByValues(ColumnTarget c, List<String> texts) {
    // Alternative plans ask again for the same column; each answer costs lake queries.
    return lookups.computeIfAbsent(c.lakeTable() + "|" + c.lakeColumn() + "|" + texts, k -> findLookup(c, texts));
  }

  private final Map<String, Optional<Evidence.JoinStep>> lookups = new HashMap<>();

  private Optional<Evidence.JoinStep> findLookup(ColumnTarget c, List<String> texts) {
    if (lake.joinNeighbours(c.lakeTable()).stream().anyMatch(s -> s.leftColumn().equals(c.lakeColumn()))) {
      return Optional.empty();
    }
    List<String> codes = lake.distinctValues(c.lakeTable(), c.lakeColumn(), LOOKUP_CODES);
    if (codes.isEmpty()) {
      return Optional.empty();
    }
    for (String literal : texts) {
      for (Map.Entry<String, Double> hit : lake.tablesWithValue(literal).entrySet()) {
        String other = hit.getKey();
        if (other.equals(c.lakeTable()) || hit.getValue() < EXACT_HIT) {
          continue;
        }
        for (CatalogTable.Column k : lake.table(other).columns()) {
          if (family(other, k.name()) == TypeFamily.NUMERIC
              && codes.stream().allMatch(v -> lake.valueExists(other, k.name(), v))) {
            return Optional.of(new Evidence.JoinStep(c.lakeTable(), c.lakeColumn(), other, k.name(), hit.getValue(),
                1));
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Codes of a column checked against a lookup table's key column. */
  static final int LOOKUP_CODES = 50;

  /** The text literals (not numbers) the query compares a column of this name with. */
  private List<String> textLiterals(String column) {
    List<String> out = new ArrayList<>();
    for (Predicate p : analysis.predicates()) {
      if (!p.column().column().equalsIgnoreCase(column)) {
        continue;
      }
      for (int i = 0; i < p.literals().size(); i++) {
        String lit = p.literals().get(i);
        boolean text = i < p.literalKinds().size() ? p.literalKinds().get(i).contains("VARCHAR")
            || p.literalKinds().get(i).contains("STRING") : true;
        if (text && !lit.isBlank() && !lit.strip().matches("[+-]?\\d+(\\.\\d+)?")) {
          out.add(lit);
        }
      }
    }
    return out;
  }

  /**
   * Columns named {@code <key column>_<attribute>} ({@code capital_population}): when a prefix of the name is a
   * column of the lake table that the join graph connects to another table through that very column, and the
   * other table has the attribute, the column is read from there, through an added join. Without the join path
   * in the scratchpad yet, FIND_JOIN_PATH is asked for and the direct mapping stays meanwhile.
   */
  private TableChoice compoundColumns(TableChoice t, List<JoinRoute> extraJoins, List<Action> wanted) {
    List<Evidence.JoinStep> neighbours = lake.joinNeighbours(t.lake());
    if (neighbours.isEmpty()) {
      return t;
    }
    Map<String, ColumnTarget> columns = new LinkedHashMap<>(t.columns());
    List<String> unmapped = new ArrayList<>(t.unmapped());
    List<String> all = new ArrayList<>(columns.keySet());
    all.addAll(unmapped.stream().map(OfflinePlanner::key).toList());
    for (String c : all) {
      String[] words = Names.normalize(c).split(" ");
      if (words.length < 2 || isKey(t.assumed(), c)) {
        continue;
      }
      ColumnTarget direct = columns.get(c);
      Compound best = null;
      for (int k = 1; k < words.length; k++) {
        String prefix = String.join(" ", java.util.Arrays.copyOfRange(words, 0, k));
        String suffix = String.join(" ", java.util.Arrays.copyOfRange(words, k, words.length));
        double baseDescribes = about(prefix, t.lake());
        for (Evidence.JoinStep n : neighbours) {
          double prefixEvidence = Math.max(lake.nameSimilarity(prefix, n.leftColumn()), about(prefix, n.rightTable()));
          if (prefixEvidence < COMPOUND_PREFIX || prefixEvidence <= baseDescribes) {
            continue;
          }
          Optional<ColumnTarget> attr = bestColumnOutsideEntity(t.assumed(), suffix, n.rightTable());
          if (attr.isEmpty() || attr.get().score() < 0.7) {
            continue;
          }
          double score = Math.min(prefixEvidence, attr.get().score());
          boolean suffixIsDirect = direct != null && lake.nameSimilarity(suffix, direct.lakeColumn()) >= 0.85;
          if (direct != null && !direct.weak() && score < direct.score() - 0.1 && !suffixIsDirect) {
            continue;
          }
          if (best == null || score > best.score()) {
            best = new Compound(n, attr.get(), score);
          }
        }
      }
      if (best == null) {
        continue;
      }
      Optional<Evidence.JoinPath> path = joinPath(t.lake(), best.neighbour().rightTable());
      if (path.isPresent()) {
        columns.put(c, new ColumnTarget(best.neighbour().rightTable(), best.attribute().lakeColumn(), best.score(),
            "the " + best.attribute().lakeColumn() + " of " + best.neighbour().rightTable() + " through "
                + best.neighbour().leftColumn()));
        unmapped.removeIf(u -> key(u).equals(c));
        String target = best.neighbour().rightTable();
        if (extraJoins.stream().noneMatch(j -> j.fromAssumed().equalsIgnoreCase(t.assumed())
            && j.toLake().equals(target))) {
          extraJoins.add(new JoinRoute(t.assumed(), target, path.get()));
        }
      } else if (state.enabled(ActionType.FIND_JOIN_PATH) && state.config().joinGraph()) {
        wanted.add(new Action.FindJoinPath(t.lake(), best.neighbour().rightTable()));
      }
    }
    return new TableChoice(t.assumed(), t.lake(), t.score(), columns, unmapped, t.mergedInto());
  }

  /** A compound column's reading: through a join-graph neighbour, one of its columns. */
  private record Compound(Evidence.JoinStep neighbour, ColumnTarget attribute, double score) {}

  /** A compound column's prefix must name the neighbour (its key column or what it is about) at least this well. */
  static final double COMPOUND_PREFIX = 0.5;

  /**
   * For a column sought in another table, the entity-name prior applies only when the assumed column names that
   * table's entity ({@code capital_city} in a capital table), not any name-like column.
   */
  private Optional<ColumnTarget> bestColumnOutsideEntity(String assumedTable, String column, String table) {
    CatalogTable info = lake.table(table);
    ColumnTarget best = null;
    for (CatalogTable.Column col : info.columns()) {
      double sim = lake.nameSimilarity(column, col.name());
      double combined = Math.max(sim, 0.9 * lake.nameSimilarity(column, table + " " + col.name()));
      if (best == null || combined > best.score()) {
        best = new ColumnTarget(table, col.name(), combined, String.format("name similarity %.2f in %s", combined,
            table));
      }
    }
    return Optional.ofNullable(best);
  }

  /** The best join path between two lake tables from the scratchpad's join previews (either direction). */
  Optional<Evidence.JoinPath> joinPath(String from, String to) {
    Evidence.JoinPath best = null;
    for (Evidence.JoinPath p : pad.payloads(Scratchpad.Section.JOINS, Evidence.JoinPath.class)) {
      Evidence.JoinPath oriented = null;
      if (p.from().equals(from) && p.to().equals(to)) {
        oriented = p;
      } else if (p.from().equals(to) && p.to().equals(from)) {
        oriented = reversed(p);
      }
      if (oriented != null && (best == null || preference(oriented) < preference(best))) {
        best = oriented;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * Lower is better: fewer hops first (each hop is a chance to be wrong, thesis §8), then paths keyed on text
   * rather than numbers (equal populations are a coincidence, equal names a reference), then the join graph's
   * rank.
   */
  private double preference(Evidence.JoinPath p) {
    int numericKeys = 0;
    for (Evidence.JoinStep s : p.steps()) {
      if (family(s.leftTable(), s.leftColumn()) == TypeFamily.NUMERIC
          || family(s.rightTable(), s.rightColumn()) == TypeFamily.NUMERIC) {
        numericKeys++;
      }
    }
    return p.steps().size() * 10 + numericKeys * 5 + p.rank();
  }

  private TypeFamily family(String table, String column) {
    return lake.profile(table).column(column).map(ColumnProfile::typeFamily).orElse(TypeFamily.STRING);
  }

  static Evidence.JoinPath reversed(Evidence.JoinPath p) {
    List<Evidence.JoinStep> steps = new ArrayList<>();
    for (int i = p.steps().size() - 1; i >= 0; i--) {
      Evidence.JoinStep s = p.steps().get(i);
      steps.add(new Evidence.JoinStep(s.rightTable(), s.rightColumn(), s.leftTable(), s.leftColumn(), s.score(),
          s.fanOut()));
    }
    return new Evidence.JoinPath(p.to(), p.from(), steps, p.score(), p.rank(), p.preview());
  }

  // ---------------------------------------------------------------------------------------------------------
  // Joins between assumed tables (Key Mismatch)

  private Map<String, Evidence.JoinPath> joinFixes(Map<String, TableChoice> tables, List<Action> wanted,
      List<String> notes) {
    Map<String, Evidence.JoinPath> fixes = new LinkedHashMap<>();
    boolean lastEmpty = state.latest().flatMap(RewriteCandidate::result).map(r -> r.rowCount() == 0).orElse(false);
    for (JoinCondition j : analysis.joins()) {
      Optional<String> lt = j.left().table();
      Optional<String> rt = j.right().table();
      if (lt.isEmpty() || rt.isEmpty()) {
        continue;
      }
      TableChoice left = tables.get(key(lt.get()));
      TableChoice right = tables.get(key(rt.get()));
      if (left == null || right == null) {
        continue;
      }
      // Joins through an obsolete table connect the tables that absorbed it.
      TableChoice a = effective(left, tables);
      TableChoice b = effective(right, tables);
      if (a.lake().equals(b.lake())) {
        continue;
      }
      ColumnTarget ka = left.mergedInto() == null ? left.columns().get(key(j.left().column())) : null;
      ColumnTarget kb = right.mergedInto() == null ? right.columns().get(key(j.right().column())) : null;
      boolean keysMap = ka != null && kb != null && !ka.weak() && !kb.weak() && ka.lakeTable().equals(a.lake())
          && kb.lakeTable().equals(b.lake()) && ka.score() >= 0.7 && kb.score() >= 0.7;
      if (keysMap && !lastEmpty) {
        continue;
      }
      Optional<Evidence.JoinPath> path = joinPath(a.lake(), b.lake());
      if (path.isPresent()) {
        fixes.put(joinKey(a.assumed(), b.assumed()), path.get());
        notes.add("join " + a.assumed() + "–" + b.assumed() + " uses " + path.get().sqlJoin());
      } else if (state.enabled(ActionType.FIND_JOIN_PATH) && state.config().joinGraph()) {
        wanted.add(new Action.FindJoinPath(a.lake(), b.lake()));
      }
    }
    return fixes;
  }

  private static TableChoice effective(TableChoice t, Map<String, TableChoice> tables) {
    TableChoice e = t;
    int guard = 0;
    while (e.mergedInto() != null && guard++ < 8) {
      TableChoice next = tables.get(key(e.mergedInto()));
      if (next == null) {
        break;
      }
      e = next;
    }
    return e;
  }

  static String joinKey(String a, String b) {
    return key(a) + "⋈" + key(b);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Filter literals (Filter Mismatch)

  private Map<String, LiteralFix> literalFixes(Map<String, TableChoice> tables, List<Action> wanted,
      List<String> notes, Set<String> keyed) {
    Map<String, LiteralFix> fixes = new LinkedHashMap<>();
    for (Predicate p : analysis.predicates()) {
      boolean like = p.operator().contains("LIKE");
      boolean equality = p.operator().equals("=") || p.operator().equals("<>") || p.operator().contains("IN");
      if (!like && !equality) {
        continue;
      }
      Optional<TableChoice> owner = owner(p.column(), tables);
      if (owner.isEmpty()) {
        continue;
      }
      TableChoice t = owner.get();
      ColumnTarget target = t.columns().get(key(p.column().column()));
      for (int i = 0; i < p.literals().size(); i++) {
        String lit = p.literals().get(i);
        String kind = i < p.literalKinds().size() ? p.literalKinds().get(i) : "STRING";
        if (lit == null || !kind.equals("STRING") && !kind.equals("VARCHAR")) {
          continue;
        }
        String table = target == null ? t.lake() : target.lakeTable();
        if (target != null) {
          boolean found = like ? lake.patternExists(table, target.lakeColumn(), lit)
              : lake.valueExists(table, target.lakeColumn(), lit);
          if (found) {
            // Noisy spellings of a value that exists ('JAVA', ' java') are rows the filter should keep: compare by
            // the vetted matching key (part of cleaning, so off with BUILD_CTE).
            if (!like && state.enabled(ActionType.BUILD_CTE)) {
              long[] counts = lake.variantCounts(table, target.lakeColumn(), lit);
              if (counts[1] > counts[0]) {
                keyed.add(literalKey(t.assumed(), p.column().column(), lit));
                notes.add("'" + lit + "' also appears as " + (counts[1] - counts[0]) + " noisy spelling(s) in " + table
                    + "." + target.lakeColumn() + ": compared by clean_key");
              }
            }
            continue;
          }
        }
        String probe = like ? lit.replace("%", " ").replace("_", " ").strip() : lit;
        if (probe.isEmpty()) {
          continue;
        }
        Optional<Scratchpad.Entry> e = pad.entry(Scratchpad.Section.VALUES, table + "|" + probe);
        if (e.isEmpty()) {
          if (state.enabled(ActionType.SEARCH_VALUE)) {
            wanted.add(new Action.SearchValue(table, probe));
          }
          continue;
        }
        Evidence.ValueSearch vs = (Evidence.ValueSearch) e.get().payload();
        Optional<String[]> spelled = like ? Optional.empty() : target != null && !target.weak()
            ? spelling(table, target.lakeColumn(), lit).map(v -> new String[] {target.lakeColumn(), v})
            : categorySpelling(table, lit);
        if (spelled.isPresent()) {
          fixes.put(literalKey(t.assumed(), p.column().column(), lit),
              new LiteralFix(table, spelled.get()[0], spelled.get()[1], 1.0));
          notes.add("'" + lit + "' is spelled '" + spelled.get()[1] + "' in " + table + "." + spelled.get()[0]);
          continue;
        }
        Optional<Evidence.ValueHit> hit = pickHit(vs, target, p.column().column(), t);
        if (hit.isPresent() && !like) {
          fixes.put(literalKey(t.assumed(), p.column().column(), lit),
              new LiteralFix(table, hit.get().column(), hit.get().value(), hit.get().score()));
          notes.add("'" + lit + "' is spelled '" + hit.get().value() + "' in " + table + "." + hit.get().column());
        } else if (hit.isPresent() && target == null) {
          fixes.put(literalKey(t.assumed(), p.column().column(), lit),
              new LiteralFix(table, hit.get().column(), lit, hit.get().score()));
        }
      }
    }
    return fixes;
  }

  /**
   * The hit to use for a filter literal: the best one in the mapped column if it is good enough; else an exact
   * or normalised match anywhere (the literal names a value of another column); else, when the column mapping
   * itself is weak, a strong match in a categorical column (filters usually select a category). Hits in
   * categorical columns get a small bonus in the ranking unless the filtered column names the rows' entity.
   */
  private Optional<Evidence.ValueHit> pickHit(Evidence.ValueSearch vs, @Nullable ColumnTarget mapped,
      String assumedColumn) {
    return pickHit(vs, mapped, assumedColumn, null);
  }

  private Optional<Evidence.ValueHit> pickHit(Evidence.ValueSearch vs, @Nullable ColumnTarget mapped,
      String assumedColumn, @Nullable TableChoice owner) {
    ColumnTarget target = mapped == null || mapped.weak() ? null : mapped;
    for (Evidence.ValueHit h : vs.hits()) {
      if (target != null && h.column().equals(target.lakeColumn()) && h.score() >= VALUE_THRESHOLD - 0.05) {
        return Optional.of(h);
      }
    }
    for (Evidence.ValueHit h : vs.hits()) {
      if (h.score() >= EXACT_HIT) {
        return Optional.of(h);
      }
    }
    if (target == null || target.score() < 0.8) {
      // A filter on the rows' own name is not a category; an obsolete table's name column is (its entities are
      // a category of the rows).
      boolean entityFilter = assumedColumn != null && (owner != null
          ? owner.mergedInto() == null && isNameLike(assumedColumn, owner.assumed())
          : analysis.tableNames().stream().anyMatch(t -> isNameLike(assumedColumn, t)));
      Evidence.ValueHit best = null;
      double bestScore = 0;
      for (Evidence.ValueHit h : vs.hits()) {
        double u = lake.profile(vs.table()).column(h.column()).map(c -> c.uniqueness()).orElse(1.0);
        double s = h.score() + (entityFilter ? 0 : CATEGORICAL_BONUS * (1 - u));
        if (s > bestScore) {
          best = h;
          bestScore = s;
        }
      }
      if (best != null && best.score() >= 0.75) {
        return Optional.of(best);
      }
    }
    return Optional.empty();
  }

  /**
   * The lake's spelling of a literal in the column it filters, once SEARCH_VALUE has looked into the table:
   * the unique value equal to it up to case, spaces and diacritics ('Whangarei' → 'Whangārei'); else the unique
   * value it abbreviates ('US' → 'United States of America'); else the unique shortest value containing all its
   * words ('Northland' → 'Northland Region'). Empty when none, or when several fit equally.
   */
  Optional<String> spelling(String table, String column, String literal) {
    return spellings.computeIfAbsent(table + "|" + column + "|" + literal, k -> findSpelling(table, column, literal));
  }

  private Optional<String> findSpelling(String table, String column, String literal) {
    List<String> values = lake.distinctValues(table, column, SPELLING_VALUES);
    String norm = dev.lakerewrite.retrieval.Values.normalize(literal);
    List<String> equal = values.stream().filter(v -> norm.equals(dev.lakerewrite.retrieval.Values.normalize(v)))
        .toList();
    if (equal.size() == 1) {
      return Optional.of(equal.get(0));
    }
    String acronym = literal.replace(".", "").strip();
    if (acronym.length() >= 2 && acronym.length() <= 5 && acronym.chars().allMatch(Character::isUpperCase)) {
      List<String> abbreviated = values.stream().filter(v -> {
        String initials = initials(v);
        return initials.length() >= acronym.length() && initials.startsWith(acronym);
      }).toList();
      if (abbreviated.size() == 1) {
        return Optional.of(abbreviated.get(0));
      }
    }
    Set<String> words = Set.of(norm.split("[^\\p{L}\\p{N}]+"));
    String best = null;
    int bestExtra = Integer.MAX_VALUE;
    boolean tie = false;
    for (String v : values) {
      List<String> vw = List.of(dev.lakerewrite.retrieval.Values.normalize(v).split("[^\\p{L}\\p{N}]+"));
      if (!vw.containsAll(words)) {
        continue;
      }
      int extra = vw.size() - words.size();
      if (extra < bestExtra) {
        best = v;
        bestExtra = extra;
        tie = false;
      } else if (extra == bestExtra) {
        tie = true;
      }
    }
    return best == null || tie || bestExtra > 3 ? Optional.empty() : Optional.of(best);
  }

  /**
   * When the filtered column has no counterpart: the literal's spelling in the table's one categorical column
   * (few distinct values) that has it ('district' → "instance of" = 'district of New Zealand'). Empty when no
   * or several columns have it. Returns {column, value}.
   */
  Optional<String[]> categorySpelling(String table, String literal) {
    return categorySpellings.computeIfAbsent(table + "|" + literal, k -> findCategorySpelling(table, literal));
  }

  private final Map<String, Optional<String[]>> categorySpellings = new java.util.HashMap<>();
  private final Map<String, Optional<String>> spellings = new java.util.HashMap<>();

  private Optional<String[]> findCategorySpelling(String table, String literal) {
    String[] found = null;
    for (ColumnProfile c : lake.profile(table).columns()) {
      if (c.typeFamily() != TypeFamily.STRING || c.uniqueness() > 0.3 || c.nonNullCount() == 0) {
        continue;
      }
      Optional<String> v = spelling(table, c.column(), literal);
      if (v.isPresent()) {
        if (found != null) {
          return Optional.empty();
        }
        found = new String[] {c.column(), v.get()};
      }
    }
    return Optional.ofNullable(found);
  }

  /** Distinct values of a column read to find a literal's spelling. */
  static final int SPELLING_VALUES = 5_000;

  private static final Set<String> STOPWORDS = Set.of("of", "the", "and", "de", "la", "del", "du", "des", "le");

  /** Initials of the significant words, upper case: "United States of America" → "USA". */
  static String initials(String value) {
    StringBuilder sb = new StringBuilder();
    for (String w : value.split("[\\s\\-]+")) {
      if (!w.isEmpty() && !STOPWORDS.contains(w.toLowerCase(Locale.ROOT)) && Character.isLetter(w.charAt(0))) {
        sb.append(Character.toUpperCase(w.charAt(0)));
      }
    }
    return sb.toString();
  }

  /** Ranking bonus of a value hit in a column with few distinct values (a category), scaled by 1 − uniqueness. */
  static final double CATEGORICAL_BONUS = 0.3;

  /** Literal bonus of an exact or normalised match (retrieval's {@code LiteralMatch}) puts a hit above this. */
  static final double EXACT_HIT = 1.35;

  /** The assumed table a column reference belongs to (its own, or the one whose lake table has it). */
  Optional<TableChoice> owner(ColumnReference ref, Map<String, TableChoice> tables) {
    if (ref.table().isPresent()) {
      TableChoice t = tables.get(key(ref.table().get()));
      return Optional.ofNullable(t);
    }
    return tables.values().stream().filter(t -> t.columns().containsKey(key(ref.column())))
        .max(Comparator.comparingDouble(t -> t.columns().get(key(ref.column())).score()))
        .or(() -> tables.values().stream().findFirst());
  }

  // ---------------------------------------------------------------------------------------------------------
  // Unions and noise

  /**
   * UNION partners of the single table a query reads: asked for (UNION_SEARCH) when another table is about as
   * plausible an answer to the assumed table; accepted when the partner is union-compatible on every column the
   * query uses, adds entities the base lacks, and those added rows are the kind of thing the user asked for (a
   * regions query takes no district rows from a table that lists both).
   */
  private Map<String, List<Evidence.UnionPartner>> unions(Map<String, TableChoice> tables, List<Action> wanted) {
    Map<String, List<Evidence.UnionPartner>> out = new LinkedHashMap<>();
    List<TableChoice> live = tables.values().stream().filter(t -> t.mergedInto() == null).toList();
    for (TableChoice t : live) {
      List<Evidence.UnionPartner> twins = schemaTwins(t);
      if (!twins.isEmpty()) {
        out.put(t.lake(), twins);
      }
    }
    if (!out.isEmpty() || live.size() != 1 || analysis.hasSetOperation() || !analysis.joins().isEmpty()) {
      return out;
    }
    TableChoice t = live.get(0);
    double baseKind = entityKindSimilarity(t.assumed(), t.lake());
    double baseAbout = about(t.assumed(), t.lake());
    List<Evidence.UnionPartner> partners = pad.payloads(Scratchpad.Section.UNIONS, Evidence.UnionPartner.class)
        .stream().filter(p -> p.baseTable().equals(t.lake())).toList();
    boolean searched = state.performedActions().stream()
        .anyMatch(a -> a instanceof Action.UnionSearch u && u.baseTable().equals(t.lake()));
    if (!searched) {
      Map<String, Double> relevance = lake.relevanceTo(t.assumed(), analysis.columnsOf(t.assumed()));
      // Another table is as plausible an answer: about as well named, or holding rows of the same kind.
      boolean rival = relevance.keySet().stream().limit(ABOUT_POOL).anyMatch(o -> !o.equals(t.lake())
          && (about(t.assumed(), o) >= baseAbout - UNION_ABOUT_GAP
              || baseKind >= 0.3 && entityKindSimilarity(t.assumed(), o) >= baseKind - UNION_KIND_GAP));
      if (rival && state.enabled(ActionType.UNION_SEARCH)) {
        wanted.add(new Action.UnionSearch(t.lake()));
      }
      return out;
    }
    Set<String> needed = new LinkedHashSet<>();
    t.columns().values().stream().filter(c -> c.lakeTable().equals(t.lake())).forEach(c -> needed.add(c.lakeColumn()));
    String entity = entityColumn(t.lake());
    List<Evidence.UnionPartner> accepted = new ArrayList<>();
    for (Evidence.UnionPartner p : partners) {
      String partnerEntity = entity == null ? null : p.columnMapping().get(entity);
      boolean plausible = about(t.assumed(), p.table()) >= baseAbout - UNION_ABOUT_GAP - 0.1
          || baseKind >= 0.3 && entityKindSimilarity(t.assumed(), p.table()) >= baseKind - UNION_KIND_GAP;
      if (p.score() < UNION_SCORE_THRESHOLD || partnerEntity == null || !p.columnMapping().keySet().containsAll(needed)
          || !plausible || referencedBy(t.lake(), entity, p.table(), partnerEntity)) {
        continue;
      }
      String partnerKindColumn = kindColumn(t.assumed(), p.table());
      LakeTools.NewRows added = lake.newRows(t.lake(), entity, p.table(), partnerEntity, partnerKindColumn);
      double addedKind = added.topKind() == null ? entityKindSimilarity(t.assumed(), p.table())
          : lake.nameSimilarity(t.assumed(), added.topKind());
      // Rows of the base's own most frequent kind are the same kind of thing, however loosely its name fits.
      boolean sameKind = added.topKind() != null && added.topKind().equals(topKind(t.lake(), p, partnerKindColumn));
      if (added.share() >= UNION_MIN_NEW_SHARE && addedKind >= baseKind - UNION_KIND_GAP
          && (sameKind || addedKind >= UNION_MIN_KIND)) {
        accepted.add(p);
      }
    }
    if (!accepted.isEmpty()) {
      out.put(t.lake(), accepted);
    }
    return out;
  }

  /**
   * The horizontal parts of an assumed table's lake table: the other lake tables with exactly its column names
   * (ignoring case) whose names share its stem, i.e. all but their last words and at least two
   * words ({@code orders_2023} and {@code orders_2024}, {@code sports_east} and {@code sports_west},
   * {@code taxa_current} and {@code taxa_archive}). A lake splits one table by rows this way; tables of different
   * things share a column list (code lists, category tables) but not a name stem. None when the user names the lake
   * table itself. Costs one pass over the catalog: O(tables · columns).
   */
  private List<Evidence.UnionPartner> schemaTwins(TableChoice t) {
    if (Names.normalize(t.assumed()).equals(Names.normalize(t.lake()))) {
      return List.of();
    }
    Set<String> shape = columnShape(t.lake());
    if (shape.size() < 2) {
      return List.of();
    }
    List<Evidence.UnionPartner> out = new ArrayList<>();
    for (String other : lake.tableNames()) {
      if (other.equals(t.lake()) || !sameStem(t.lake(), other) || !columnShape(other).equals(shape)
          || !sameTypes(t, other)) {
        continue;
      }
      Map<String, String> mapping = new LinkedHashMap<>();
      for (CatalogTable.Column c : lake.table(t.lake()).columns()) {
        lake.table(other).columns().stream().filter(o -> o.name().equalsIgnoreCase(c.name())).findFirst()
            .ifPresent(o -> mapping.put(c.name(), o.name()));
      }
      out.add(new Evidence.UnionPartner(t.lake(), other, mapping, 1.0));
    }
    return out;
  }

  /** Whether another table types the columns the assumed table reads as its lake table does (so they union). */
  private boolean sameTypes(TableChoice t, String other) {
    for (ColumnTarget c : t.columns().values()) {
      if (c.lakeTable().equals(t.lake())) {
        String type = lake.table(t.lake()).column(c.lakeColumn()).map(CatalogTable.Column::type).orElse("");
        boolean same = lake.table(other).columns().stream()
            .anyMatch(o -> o.name().equalsIgnoreCase(c.lakeColumn()) && o.type().equals(type));
        if (!same) {
          return false;
        }
      }
    }
    return true;
  }

  /** A lake table's column names, lower case (types are left out: each part's file is typed on its own). */
  private Set<String> columnShape(String table) {
    Set<String> out = new HashSet<>();
    for (CatalogTable.Column c : lake.table(table).columns()) {
      out.add(c.name().toLowerCase(Locale.ROOT));
    }
    return out;
  }

  /** Whether two table names agree on all their words but the last ones, and on at least two and half of each. */
  static boolean sameStem(String a, String b) {
    String[] x = Names.normalize(a).split("\\s+");
    String[] y = Names.normalize(b).split("\\s+");
    int common = 0;
    while (common < Math.min(x.length, y.length) && x[common].equals(y[common])) {
      common++;
    }
    return common >= 2 && common < Math.max(x.length, y.length) && 2 * common >= x.length && 2 * common >= y.length;
  }

  /**
   * Whether one table refers to the other's entities (the join graph's best link between them pairs an entity
   * column with a non-entity column): then the partner lists what the base's rows point at (countries of
   * offices), or what points at them, not more rows like the base's.
   */
  private boolean referencedBy(String base, String baseEntity, String partner, String partnerEntity) {
    for (Evidence.JoinStep n : lake.joinNeighbours(base)) {
      if (n.rightTable().equals(partner)
          && n.rightColumn().equals(partnerEntity) != n.leftColumn().equals(baseEntity)) {
        return true; // one side names entities, the other refers to them: a reference, either way round
      }
    }
    return false;
  }

  /** The most frequent value of the base column that a partner's kind column is mapped from, if any. */
  private @Nullable String topKind(String base, Evidence.UnionPartner partner, String partnerKindColumn) {
    if (partnerKindColumn == null) {
      return null;
    }
    for (Map.Entry<String, String> m : partner.columnMapping().entrySet()) {
      if (m.getValue().equals(partnerKindColumn)) {
        return lake.profile(base).column(m.getKey()).filter(c -> !c.sampleValues().isEmpty())
            .map(c -> c.sampleValues().get(0)).orElse(null);
      }
    }
    return null;
  }

  /** The categorical column of a table whose frequent values fit the assumed name best (its "kind" column). */
  private String kindColumn(String assumedName, String table) {
    String best = null;
    double bestSim = -1;
    for (ColumnProfile c : lake.profile(table).columns()) {
      if (c.typeFamily() != TypeFamily.STRING || c.uniqueness() > 0.3 || c.nonNullCount() == 0) {
        continue;
      }
      for (String v : c.sampleValues().subList(0, Math.min(3, c.sampleValues().size()))) {
        double sim = v.length() <= 60 ? lake.nameSimilarity(assumedName, v) : 0;
        if (sim > bestSim) {
          bestSim = sim;
          best = c.column();
        }
      }
    }
    return best;
  }

  private void noise(Map<String, TableChoice> tables, List<JoinRoute> extraJoins,
      Map<String, Evidence.CleanedTable> cleaned, List<Action> wanted) {
    if (!state.enabled(ActionType.BUILD_CTE)) {
      return;
    }
    Map<String, Set<String>> used = new LinkedHashMap<>();
    for (TableChoice t : tables.values()) {
      for (ColumnTarget c : t.columns().values()) {
        used.computeIfAbsent(c.lakeTable(), k -> new LinkedHashSet<>()).add(c.lakeColumn());
      }
    }
    for (Map.Entry<String, Set<String>> e : used.entrySet()) {
      if (cleaned.containsKey(e.getKey()) || cteFailed(e.getKey())) {
        continue;
      }
      Map<String, List<String>> noisy = lake.noisyColumns(e.getKey(), e.getValue());
      List<String> cols = e.getValue().stream().filter(noisy::containsKey).toList();
      if (!cols.isEmpty()) {
        String goal = cols.stream().map(c -> c + ": " + String.join("; ", noisy.get(c))).reduce((x, y) -> x + " | " + y)
            .orElse("clean noisy values");
        wanted.add(new Action.BuildCte(e.getKey(), cols, goal.length() > 300 ? goal.substring(0, 300) : goal));
      }
    }
  }

  private boolean cteFailed(String table) {
    return pad.entries(Scratchpad.Section.NOTES).stream()
        .anyMatch(e -> e.key().startsWith("action-error-") && e.key().contains("BUILD_CTE(" + table + ","));
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
    return new ArrayList<>(new LinkedHashSet<>(actions));
  }
}
