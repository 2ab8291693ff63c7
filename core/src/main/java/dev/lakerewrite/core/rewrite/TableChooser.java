package dev.lakerewrite.core.rewrite;

import static dev.lakerewrite.core.match.EntityNames.isNameLike;
import static dev.lakerewrite.core.rewrite.OfflinePlanner.key;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.match.AssumedSchema;
import dev.lakerewrite.core.match.ColumnAssignment;
import dev.lakerewrite.core.match.ColumnFeatures;
import dev.lakerewrite.core.match.ColumnModel;
import dev.lakerewrite.core.match.EntityNames;
import dev.lakerewrite.core.match.TableFeatures;
import dev.lakerewrite.core.match.TableModel;
import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.core.sql.ColumnPrefixes;
import dev.lakerewrite.core.sql.QueryAnalysis.Predicate;
import dev.lakerewrite.retrieval.NameSignals;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
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
 * Table choice (thesis error type Name Mismatch, tables and columns): ranks the lake tables that could answer an
 * assumed table, by schema retrieval's relevance, what the table is about (its name or the kind of its rows), the
 * query's filter values found in it, and how well its columns answer the query's columns: each assumed column to its
 * best lake column by name, type fit and value evidence (or the learned column model where the lake name abbreviates
 * it), one to one within a table (maximum-weight bipartite matching, {@link ColumnAssignment}). Scoring one candidate
 * table costs O(assumed columns · lake columns) name similarities (embeddings, cached by the lake).
 */
final class TableChooser extends PlannerPart {
  /** A column maps to a lake column at or above this score. */
  static final double COLUMN_THRESHOLD = 0.5;
  /** Keeps a pair scored exactly at the threshold in the assignment (only positive weights count). */
  static final double ASSIGNMENT_EPSILON = 1e-6;

  /**
   * What a pair scored at or above {@link #COLUMN_THRESHOLD} is worth in an assignment: what it clears the threshold
   * by. A column left out is sought elsewhere, so two weak pairs (l_extendedprice → Discount 0.62, l_discount → Lnsts
   * 0.55) must not outweigh one sure one (l_discount → Discount 0.95).
   */
  static double assignmentWeight(double score) {
    return score - COLUMN_THRESHOLD + ASSIGNMENT_EPSILON;
  }
  static final int CANDIDATE_TABLES = 6;
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
  /** A column's score when it holds one of the query's literals for the column (found by value search or in its lookup). */
  static final double VALUE_EVIDENCE = 0.75;
  /** How much a column's name similarity adds to {@link #VALUE_EVIDENCE}: only enough to order columns that both hold a literal. */
  static final double VALUE_TIE_BREAK = 0.01;
  /** Tables, by relevance, among which name and kind similarity add candidates. */
  static final int ABOUT_POOL = 30;

  private final FilterLiterals literals;
  private final CodeLookups lookups;
  private final Map<String, Double> probabilities = new HashMap<>();
  private final Map<String, Map<String, String>> rangeConflicts = new HashMap<>();

  TableChooser(PlanningContext context, FilterLiterals literals, CodeLookups lookups) {
    super(context);
    this.literals = literals;
    this.lookups = lookups;
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
      AssumedSchema.Column use = context.schema().table(assumedTable).flatMap(t -> t.column(column)).orElse(null);
      return ColumnModel.standard().probability(
          ColumnFeatures.compute(lake, assumedTable, use, column, table, lakeColumn));
    });
  }

  /** The candidate tables for an assumed table, best first (never empty). */
  List<TableChoice> rankTables(String assumedName, List<String> columns, List<String> notes) {
    Map<String, Double> relevance = lake.relevanceTo(assumedName, columns);
    Set<String> candidates = new LinkedHashSet<>();
    relevance.entrySet().stream().limit(CANDIDATE_TABLES).forEach(e -> candidates.add(e.getKey()));
    // Schema retrieval misses tables whose name or many columns hide what their rows are: add the tables whose
    // name or rows' kind fit the assumed name best (among the most relevant ones, to bound the cost).
    // Names read as the score below reads them, lexically too: embeddings miss zo_splrs for supplier.
    List<String> pool = relevance.keySet().stream().limit(ABOUT_POOL).toList();
    Map<String, Double> aboutInPool = new HashMap<>();
    pool.forEach(t -> aboutInPool.put(t, about(nameEvidence(assumedName, t), entityKindSimilarity(assumedName, t))));
    pool.stream().sorted(java.util.Comparator.comparingDouble((String t) -> -aboutInPool.get(t)))
        .limit(CANDIDATE_TABLES / 2).forEach(candidates::add);
    Map<String, Double> valueEvidence = literalTables(assumedName);
    valueEvidence.keySet().stream().filter(t -> valueEvidence.get(t) >= FilterLiterals.EXACT_HIT).forEach(candidates::add);
    candidates.addAll(pad.contextTables());
    TableChoice best = null;
    List<TableChoice> all = new ArrayList<>();
    List<String> scored = new ArrayList<>();
    for (String t : candidates) {
      if (pad.isEvicted(t) && !pad.hasTable(t)) {
        continue;
      }
      TableChoice c = scoreCandidate(assumedName, t, columns, relevance, valueEvidence, scored);
      all.add(c);
      if (best == null || c.score() > best.score() + 1e-9) {
        best = c;
      }
    }
    if (DEBUG) {
      notes.add("candidates for " + assumedName + ": " + String.join("; ", scored));
      if (best != null) {
        for (String c : columns) {
          String table = best.lake();
          notes.add("columns for " + assumedName + "." + c + " in " + table + ": " + String.join("; ",
              columnTargets(assumedName, c, table, true, Set.of()).stream()
                  .sorted(Comparator.comparingDouble((ColumnTarget x) -> -x.score())).limit(4)
                  .map(x -> String.format(Locale.ROOT, "%s %.2f (%s)", x.lakeColumn(), x.score(), x.why())).toList()));
        }
      }
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

  /**
   * An assumed table's score on one lake table as {@link #rankTables} scores its candidates, for a lake table outside
   * its ranking (another assumed table's choice that might answer it): names, kind, relevance and column fit, not
   * column fit alone.
   */
  TableChoice scoreOn(String assumedName, List<String> columns, String table) {
    return scoreCandidate(assumedName, table, columns, lake.relevanceTo(assumedName, columns),
        literalTables(assumedName), new ArrayList<>());
  }

  /**
   * A candidate's score: its columns' fit plus half the table evidence (schema retrieval's relevance, name and kind,
   * the query's literals found in it), and the learned table matcher's probability when that is on; appends the
   * figures to {@code scored}.
   */
  private TableChoice scoreCandidate(String assumedName, String t, List<String> columns, Map<String, Double> relevance,
      Map<String, Double> valueEvidence, List<String> scored) {
    double rel = relevance.getOrDefault(t, 0.0);
    double name = nameEvidence(assumedName, t);
    double kind = entityKindSimilarity(assumedName, t);
    double values = valueEvidence.getOrDefault(t, 0.0);
    double valueBonus = values >= FilterLiterals.EXACT_HIT ? VALUE_TABLE_BONUS : values >= 0.8 ? VALUE_TABLE_BONUS / 2 : 0;
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
    return c;
  }

  /**
   * How well a lake table's name reads as the assumed table's ({@link TableFeatures#nameEvidence}), the lake's
   * table prefix aside; for a part of a table split by rows, also the name its parts share without their markers
   * ({@code client} of {@code src_client_batcha}), the better reading counting.
   */
  double nameEvidence(String assumedName, String table) {
    double own = TableFeatures.nameEvidence(lake, assumedName, table, context.withoutTablePrefix(table));
    Optional<String> stem = context.partitionStem(table);
    if (stem.isEmpty()) {
      return own;
    }
    // The parts may share a marker word before the one that tells them apart (supp_batch_a, supp_batch_b: the stem
    // is "supp batch"); the stem's leading words are read as well, at least one kept.
    double best = own;
    String[] words = stem.get().split(" ");
    for (int n = words.length; n >= 1; n--) {
      String lead = String.join(" ", Arrays.copyOfRange(words, 0, n));
      best = Math.max(best, TableFeatures.nameEvidence(lake, assumedName, lead, lead));
    }
    return best;
  }

  /** The table matcher's features of an assumed table against a lake table (the query's columns of that table). */
  private double[] tableFeatures(String assumedName, String table, double relevance) {
    List<String> columns = context.schema().table(assumedName).map(TableFeatures::describingColumns).orElse(List.of());
    return TableFeatures.compute(lake, assumedName, columns, table, relevance,
        (c, lakeColumn) -> probability(assumedName, c, table, lakeColumn));
  }

  TableChoice mapColumns(String assumedName, String table, List<String> columns, double relevance) {
    return mapColumns(assumedName, table, columns, relevance, true);
  }

  TableChoice mapColumns(String assumedName, String table, List<String> columns, double relevance,
      boolean entityPrior) {
    Map<String, ColumnTarget> mapped = new LinkedHashMap<>();
    List<String> unmapped = new ArrayList<>();
    Map<String, String> assumedOf = new LinkedHashMap<>();
    Map<String, Map<String, Double>> weights = new LinkedHashMap<>();
    Map<String, Map<String, ColumnTarget>> options = new LinkedHashMap<>();
    double sum = 0;
    int counted = 0;
    Set<String> ownKeys = new LinkedHashSet<>();
    for (String c : columns) {
      if (isKey(assumedName, c)) {
        // A table's own key (n_nationkey in nation) is unique in the table that holds its rows; in a table that
        // only refers to them (customers' nation keys) it repeats. Evidence for the table, not a column to map.
        if (EntityNames.isOwnKey(c, assumedName, context.schema().tables().keySet())) {
          ColumnTarget key = strongest(columnTargets(assumedName, c, table, entityPrior, Set.of()));
          counted++;
          boolean held = key != null && key.score() > 0 && unique(table, key.lakeColumn());
          sum += held ? key.score() : 0;
          if (held && key.score() >= COLUMN_THRESHOLD
              && ColumnFeatures.promisesIdentifier(lake.bareColumnName(table, key.lakeColumn()))) {
            ownKeys.add(key.lakeColumn());
          }
        }
      }
    }
    for (String c : columns) {
      if (isKey(assumedName, c)) {
        continue;
      }
      // The identifier that answers the table's own key is no other column of it (i_item_desc is not ITEM_SK,
      // though the two share a word).
      List<ColumnTarget> targets = columnTargets(assumedName, c, table, entityPrior, ownKeys);
      ColumnTarget best = strongest(targets);
      counted++;
      if (best != null && best.score() >= COLUMN_THRESHOLD) {
        sum += best.score();
        Map<String, Double> w = new LinkedHashMap<>();
        Map<String, ColumnTarget> o = new LinkedHashMap<>();
        for (ColumnTarget t : targets) {
          if (t.score() >= COLUMN_THRESHOLD) {
            w.put(t.lakeColumn(), assignmentWeight(t.score()));
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
    // one-to-one assignment over every column that reaches the threshold, each pair weighted by its margin over the
    // threshold; a column left without one is sought elsewhere.
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

  /**
   * The column that best answers an assumed column in a lake table or its parts split off by columns
   * ({@link PlanningContext#splitParts}): a key the table lacks may sit in a part (the sales' customer key beside
   * their prices), and a plan reads it through the part's join. The best-named column, not the one whose values
   * happen to overlap most: a part's other keys (a time key among the sales' keys) hold small integers too.
   */
  Optional<ColumnTarget> bestColumnWithParts(String assumedTable, String column, String table) {
    Optional<ColumnTarget> best = Optional.empty();
    for (String source : context.tableAndParts(table)) {
      Optional<ColumnTarget> in = bestColumn(assumedTable, column, source);
      if (in.isPresent() && (best.isEmpty() || in.get().score() > best.get().score())) {
        best = in;
      }
    }
    return best;
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
    TypeFamily expected = context.expectedFamilies.get(key(column));
    // l_commitdate's l_ names lineitem; an abbreviated lake column (CMTD) spells only the rest. (Embeddings keep the
    // whole name: without its prefix, custkey is as close to NATIONKEY as to CUST.)
    String bare = ColumnPrefixes.withoutTablePrefix(column, assumedTable);
    boolean keyLike = ColumnFeatures.promisesIdentifier(bare);
    Map<String, String> outOfRange = rangeConflicts(assumedTable, column, table);
    boolean prose = learned && PlanningContext.promisesProse(assumedTable, column);
    List<ColumnTarget> out = new ArrayList<>();
    for (CatalogTable.Column col : info.columns()) {
      if (excluded.contains(col.name())) {
        continue;
      }
      String lakeBare = lake.bareColumnName(table, col.name()); // cstActb's cst names the table, as l_ does
      if (learned && !ColumnFeatures.abbreviates(column, col.name()) && !ColumnFeatures.abbreviates(bare, col.name())
          && !ColumnFeatures.abbreviates(bare, lakeBare)) {
        continue;
      }
      // The matcher reads letters (CONT abbreviates "comment" as well as "container"); free text is nearly unique.
      double sim = learned ? probability(assumedTable, column, table, col.name())
              * (prose ? context.proseFit(table, col.name()) : 1)
          : Math.max(lake.nameSimilarity(column, col.name()),
              lakeBare.equals(col.name()) ? 0 : lake.nameSimilarity(column, lakeBare));
      double named = sim;
      String why = String.format(learned ? "matcher probability %.2f" : "name similarity %.2f", sim);
      if (expected != null && !learned) {
        TypeFamily actual = context.answeringFamily(table, col.name());
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
      double valueBoost = valueEvidence(assumedTable, column, table, col.name(), named);
      if (valueBoost > sim) {
        // Two columns may hold the literal ('Unknown' is an education status and, through its lookup's labels, a
        // credit rating): the name tells them apart.
        sim = valueBoost + VALUE_TIE_BREAK * named;
        why = "a literal of the query found in this column or among the labels of its codes";
      }
      Optional<TypeRefutations.Refutation> refuted = context.refuted(column, table, col.name());
      if (refuted.isPresent()) {
        // Below every other guess: the last resort moves on to a column no candidate has failed with.
        sim = -1;
        why = "refuted: " + refuted.get().reason();
      } else if (!context.canServe(column, table, col.name())) {
        // Kept as a last-resort guess (a reference needs some column), never as an answer.
        sim = 0;
        why = "cannot hold the " + context.expectedFamilies.get(key(column)) + " values the query compares it with";
      } else if (keyLike && context.answeringFamily(table, col.name()) == TypeFamily.DATETIME) {
        // o_orderkey is no ORD (the order date a lake abbreviated like the order's key).
        sim = Math.min(sim, 0);
        why = "a key or identifier is never a date";
      } else if (outOfRange.containsKey(col.name())) {
        // The query's comparison would select no row of it (l_quantity < 24 of extended prices), while another
        // number of the table can satisfy them: kept as a last-resort guess, never as an answer.
        sim = Math.min(sim, 0);
        why = "cannot satisfy the query's comparison: " + outOfRange.get(col.name());
      }
      out.add(new ColumnTarget(table, col.name(), sim, why));
    }
    return out;
  }

  /**
   * The numeric columns of {@code table} whose values cannot satisfy the query's comparisons of the assumed column
   * ({@link PlanningContext#rangeVerdict}), with why; none when no numeric column of the table can (then the ranges
   * tell the columns nothing apart: the right one may be elsewhere, or the query asks for what no row holds).
   */
  private Map<String, String> rangeConflicts(String assumedTable, String column, String table) {
    return rangeConflicts.computeIfAbsent(key(assumedTable) + "|" + key(column) + "|" + table,
        k -> readRangeConflicts(assumedTable, column, table));
  }

  private Map<String, String> readRangeConflicts(String assumedTable, String column, String table) {
    Map<String, String> conflicts = new LinkedHashMap<>();
    boolean anyFits = false;
    for (CatalogTable.Column col : lake.table(table).columns()) {
      String verdict = context.rangeVerdict(assumedTable, column, table, col.name());
      if (verdict == null) {
        continue;
      }
      if (verdict.isEmpty()) {
        anyFits = true;
      } else {
        conflicts.put(col.name(), verdict);
      }
    }
    return anyFits ? conflicts : Map.of();
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

  /** Every column of {@code table} but the excluded ones, scored for an assumed column (see {@link #bestColumn}). */
  List<ColumnTarget> targets(String assumedTable, String column, String table, Set<String> excluded) {
    return columnTargets(assumedTable, column, table, true, excluded);
  }

  Optional<ColumnTarget> bestColumn(String assumedTable, String column, String table, boolean entityPrior,
      Set<String> excluded) {
    return Optional.ofNullable(strongest(columnTargets(assumedTable, column, table, entityPrior, excluded)));
  }

  /**
   * The columns of {@code table} scored for an assumed column by name; where no column's name answers, the learned
   * matcher's scores among the columns whose names abbreviate the assumed one (embeddings miss abbreviated names:
   * INST_OF for "instance of"), when one of them reaches the threshold. Where a name answers, a column whose
   * shorter name abbreviates the whole assumed one keeps the better of its two scores: embeddings find RECEIPTDATE closer to
   * {@code l_shipdate} (0.50) than SHPD (0.21), the matcher reads SHPD as ship date (0.99). Unless one of the
   * query's literals for the column was found in one of them, or one is named exactly as the column without its
   * table prefix: that evidence stands.
   */
  private List<ColumnTarget> columnTargets(String assumedTable, String column, String table, boolean entityPrior,
      Set<String> excluded) {
    List<ColumnTarget> byName = columnTargets(assumedTable, column, table, entityPrior, excluded, false);
    ColumnTarget best = strongest(byName);
    if (!LEARNED_FALLBACK || best == null) {
      return byName;
    }
    if (best.score() < COLUMN_THRESHOLD) {
      List<ColumnTarget> learned = columnTargets(assumedTable, column, table, entityPrior, excluded, true);
      ColumnTarget top = strongest(learned);
      return top != null && top.score() >= COLUMN_THRESHOLD ? learned : byName;
    }
    // A literal of the query found in a column (or among its labels) says where the column is, and a column named
    // exactly so (p_retailprice and RETAILPRICE) is the column meant; the matcher's other guesses stand aside.
    String bare = dev.lakerewrite.retrieval.Names.normalize(ColumnPrefixes.withoutTablePrefix(column, assumedTable));
    if (byName.stream().anyMatch(t -> t.score() > 0 && (valueEvidence(assumedTable, column, table, t.lakeColumn()) > 0
        || dev.lakerewrite.retrieval.Names.normalize(t.lakeColumn()).equals(bare)
        || dev.lakerewrite.retrieval.Names.normalize(lake.bareColumnName(table, t.lakeColumn())).equals(bare)))) {
      return byName;
    }
    // Scored only now: most columns stop above, and the matcher's features cost lake queries.
    List<ColumnTarget> learned = columnTargets(assumedTable, column, table, entityPrior, excluded, true);
    Map<String, ColumnTarget> learnedByColumn = new HashMap<>();
    learned.forEach(t -> learnedByColumn.put(t.lakeColumn(), t));
    List<ColumnTarget> out = new ArrayList<>(byName.size());
    int assumedLetters = letters(bare);
    for (ColumnTarget t : byName) {
      ColumnTarget l = learnedByColumn.get(t.lakeColumn());
      // Only a shorter name that abbreviates the whole one: "given name" and "short name" share a word with "name",
      // "area" one with "phone_area_code", and each is another column.
      String lakeBare = lake.bareColumnName(table, t.lakeColumn());
      // Or a name that spells the assumed one word for word (LISTING_PRC for list price): the embedding reads
      // SALES_PRICE closer (0.50), sharing the one word spelled out.
      out.add(l != null && l.score() > t.score() && (letters(lakeBare) < assumedLetters
          && ColumnFeatures.abbreviatesWhole(bare, lakeBare) || NameSignals.spellsWordForWord(bare, lakeBare)) ? l : t);
    }
    return out;
  }

  /** Whether a lake column's values are unique, as a key's are (the threshold {@link EntityNames} reads names by). */
  private boolean unique(String table, String column) {
    return lake.profile(table).column(column).map(p -> p.uniqueness() >= EntityNames.UNIQUE).orElse(false);
  }

  private static int letters(String name) {
    return name.replaceAll("[^\\p{L}\\p{N}]", "").length();
  }

  /**
   * {@link #valueEvidence(String, String, String, String)}, or a column whose name answers the assumed one (at least
   * {@link #COLUMN_THRESHOLD}) and that holds one of the query's text literals for it exactly: the same evidence as a
   * code whose lookup's labels spell it, which is found without a value search.
   */
  private double valueEvidence(String assumedTable, String column, String table, String lakeColumn,
      double nameSimilarity) {
    double found = valueEvidence(assumedTable, column, table, lakeColumn);
    if (found > 0 || nameSimilarity < COLUMN_THRESHOLD
        || context.family(table, lakeColumn) != TypeFamily.STRING) {
      return found;
    }
    return lookups.textLiterals(column).stream().anyMatch(t -> lake.valueExists(table, lakeColumn, t))
        ? VALUE_EVIDENCE : 0;
  }

  /**
   * 0.75 when a value search found one of the column's filter literals in this lake column: the hit a filter
   * would use (see {@link FilterLiterals#pickHit}) without a mapping, i.e. an exact spelling or a strong categorical
   * match; or when the lake column holds codes whose named lookup table spells one of the literals exactly (see
   * {@link CodeLookups#labelsHold}).
   */
  private double valueEvidence(String assumedTable, String column, String table, String lakeColumn) {
    if (lookups.labelsHold(new ColumnTarget(table, lakeColumn, 0, ""), lookups.textLiterals(column))) {
      return VALUE_EVIDENCE;
    }
    for (Predicate p : analysis.predicates()) {
      if (!p.column().column().equalsIgnoreCase(column)) {
        continue;
      }
      for (String lit : p.literals()) {
        Optional<Scratchpad.Entry> e = pad.entry(Scratchpad.Section.VALUES, table + "|" + lit);
        if (e.isPresent() && e.get().payload() instanceof Evidence.ValueSearch vs) {
          Optional<String[]> category = literals.categorySpelling(table, lit);
          String where = category.map(c -> c[0])
              .orElseGet(() -> literals.pickHit(vs, null, column).map(Evidence.ValueHit::column).orElse(null));
          if (lakeColumn.equals(where)) {
            return VALUE_EVIDENCE;
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
}
