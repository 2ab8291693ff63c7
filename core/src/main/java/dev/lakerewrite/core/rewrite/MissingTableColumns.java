package dev.lakerewrite.core.rewrite;

import static dev.lakerewrite.core.rewrite.OfflinePlanner.key;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.match.ColumnAssignment;
import dev.lakerewrite.core.match.ColumnFeatures;
import dev.lakerewrite.core.match.EntityNames;
import dev.lakerewrite.core.match.TableFeatures;
import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.JoinRoute;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.core.sql.ColumnPrefixes;
import dev.lakerewrite.core.sql.QueryAnalysis.ColumnReference;
import dev.lakerewrite.core.sql.QueryAnalysis.JoinCondition;
import dev.lakerewrite.retrieval.NameSignals;
import dev.lakerewrite.retrieval.Names;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Columns that live in other tables (thesis error type Missing Table): an assumed column its table cannot answer is
 * read from a join-graph neighbour through an added join; a code column compared with text reads the label of its
 * lookup table; a compound column ({@code capital_population}) reads the attribute of the table its prefix names.
 * Asks for FIND_JOIN_PATH and SEARCH_TABLE where the scratchpad has no path or candidate yet.
 */
final class MissingTableColumns extends PlannerPart {
  /** A column found in another table must beat its best column in the main table by this much. */
  static final double CROSS_TABLE_MARGIN = 0.1;

  private final TableChooser chooser;
  private final CodeLookups lookups;

  MissingTableColumns(PlanningContext context, TableChooser chooser, CodeLookups lookups) {
    super(context);
    this.chooser = chooser;
    this.lookups = lookups;
  }

  TableChoice crossTableColumns(TableChoice choice, List<JoinRoute> extraJoins, List<Action> wanted) {
    TableChoice t = splitPartColumns(compoundColumns(choice, extraJoins, wanted), extraJoins, wanted);
    if (t.unmapped().isEmpty()) {
      return t;
    }
    Map<String, ColumnTarget> columns = new LinkedHashMap<>(t.columns());
    List<String> still = new ArrayList<>();
    List<String> searchFor = new ArrayList<>();
    for (String c : t.unmapped()) {
      ColumnTarget inMain = chooser.bestColumn(t.assumed(), c, t.lake()).orElse(null);
      double mainScore = inMain == null ? 0 : inMain.score();
      ColumnTarget best = null;
      Set<String> neighbours = new LinkedHashSet<>();
      lake.joinNeighbours(t.lake()).forEach(n -> neighbours.add(n.rightTable()));
      for (String other : ownIdentifier(t.assumed(), c) ? List.<String>of() : pad.contextTables()) {
        // A column read from another table comes through one join with a direct neighbour in the join graph;
        // longer chains to a table that merely has a similarly named column are guesses.
        // Nor from one part of a table split by rows: it holds only some of the rows a join should find.
        if (other.equals(t.lake()) || !neighbours.contains(other) || context.partitionStem(other).isPresent()) {
          continue;
        }
        Optional<ColumnTarget> ct = bestColumnOutsideEntity(t.assumed(), c, other);
        if (ct.isPresent() && ct.get().score() >= TableChooser.COLUMN_THRESHOLD && ct.get().score() >= mainScore + CROSS_TABLE_MARGIN
            && (best == null || ct.get().score() > best.score()) && !ownFreeText(t, c, ct.get())) {
          best = ct.get();
        }
      }
      if (best == null) {
        still.add(c);
        searchFor.add(c);
        continue;
      }
      Optional<Evidence.JoinPath> path = context.attributeJoinPath(t.lake(), best.lakeTable());
      if (path.isPresent()) {
        columns.put(key(c), new ColumnTarget(best.lakeTable(), best.lakeColumn(), best.score(),
            best.why() + ", joined from " + t.lake()));
        joinOnce(extraJoins, t.assumed(), path.get());
      } else {
        still.add(c);
        askForJoinPath(t.lake(), best.lakeTable(), wanted);
      }
    }
    if (!searchFor.isEmpty() && state.enabled(ActionType.SEARCH_TABLE)) {
      wanted.add(new Action.SearchTable(t.assumed(), searchFor));
    }
    // Meanwhile every column reads the best its table offers: an executable guess beats a binder error. A guess
    // never takes a lake column another column of the table already reads (c_address and c_acctbal both read
    // ACTB), unless every column is taken.
    Set<String> taken = new LinkedHashSet<>();
    columns.values().stream().filter(x -> x.lakeTable().equals(t.lake())).forEach(x -> taken.add(x.lakeColumn()));
    // The guesses are one assignment too (ColumnAssignment.ordered): each column in turn takes its best, but never
    // the only column a later one can read. Taken greedily, o_orderpriority took ORDR_3 (name similarity 0.223
    // against ORDR_4's 0.222), the only date column, which o_orderdate, compared with dates, needed.
    // Free text (a comment, a remark) guesses among the columns that play no other part: not the table's key, its
    // references to other tables or its name (n_comment had read the nation's NAME).
    Map<String, Map<String, Double>> weights = new LinkedHashMap<>();
    Map<String, Map<String, ColumnTarget>> options = new LinkedHashMap<>();
    for (String c : still) {
      if (!columns.containsKey(key(c))) {
        Map<String, Double> w = new LinkedHashMap<>();
        Map<String, ColumnTarget> o = new LinkedHashMap<>();
        boolean prose = PlanningContext.promisesProse(t.assumed(), c);
        for (ColumnTarget target : chooser.targets(t.assumed(), c, t.lake(), taken)) {
          if (prose && context.playsRole(t.lake(), target.lakeColumn())) {
            continue;
          }
          // Free text (a comment, a description) is nearly unique per row; a type or a category repeats a few values.
          w.put(target.lakeColumn(), prose ? target.score() * context.proseFit(t.lake(), target.lakeColumn()) : target.score());
          o.put(target.lakeColumn(), target);
        }
        weights.put(key(c), w);
        options.put(key(c), o);
      }
    }
    Map<String, ColumnTarget> guesses = new LinkedHashMap<>();
    ColumnAssignment.ordered(weights).pairs().forEach((c, lakeColumn) -> {
      guesses.put(c, options.get(c).get(lakeColumn));
      taken.add(lakeColumn);
    });
    for (String c : still) {
      if (columns.containsKey(key(c))) {
        continue;
      }
      Optional<ColumnTarget> guess = Optional.ofNullable(guesses.get(key(c)))
          .or(() -> chooser.bestColumn(t.assumed(), c, t.lake(), true, taken))
          .or(() -> chooser.bestColumn(t.assumed(), c, t.lake()));
      guess.ifPresent(weak -> {
        columns.put(key(c), new ColumnTarget(weak.lakeTable(), weak.lakeColumn(), weak.score(),
            "best guess: " + weak.why(), true));
        taken.add(weak.lakeColumn());
      });
    }
    return new TableChoice(t.assumed(), t.lake(), t.score(), columns, still, null);
  }

  /**
   * Whether free text the query asks of a table (a comment, a description) is in the table itself rather than in a
   * neighbour's column named for it: every table may have a comment, and a neighbour's is its own ({@code prv_comment}
   * is the supplier's, not the part supply's). So a column that promises prose is not read from another table where
   * the table or a part of it split off by columns has a column that plays no other part ({@link
   * PlanningContext#playsRole}) holding text at least as nearly unique as the neighbour's ({@code prt_remark}).
   */
  private boolean ownFreeText(TableChoice t, String column, ColumnTarget elsewhere) {
    if (!PlanningContext.promisesProse(t.assumed(), column)) {
      return false;
    }
    double theirs = context.proseFit(elsewhere.lakeTable(), elsewhere.lakeColumn());
    for (String own : context.tableAndParts(t.lake())) {
      for (CatalogTable.Column col : lake.table(own).columns()) {
        if (!context.playsRole(own, col.name()) && context.proseFit(own, col.name()) >= theirs && theirs > 0) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether an assumed column is its own table's identifier: it promises an identifier and names the table's entity
   * ({@code c_customer_id} in {@code customer}). Another entity's table never holds it (an item's class id read
   * like a customer's id through a join of surrogate keys that happen to match).
   */
  private static boolean ownIdentifier(String assumedTable, String column) {
    String bare = ColumnPrefixes.withoutTablePrefix(column, assumedTable);
    if (!ColumnFeatures.promisesIdentifier(bare)) {
      return false;
    }
    List<String> entity = NameSignals.tokens(assumedTable);
    return NameSignals.tokens(bare).stream()
        .anyMatch(w -> entity.stream().anyMatch(e -> NameSignals.tokenMatch(w, e) >= 0.9));
  }

  /**
   * Columns of the assumed table that a part split off by columns answers better than the lake table chosen for it:
   * o_orderstatus is ORDERSTATUS in the orders' details part, not the main table's ORDERPRIORITY; a sale's
   * ss_ext_sales_price is EXT_SALES_MONETARY_VALUE in the sales, not EXT_LISTING_MONETARY_VALUE in their attributes.
   * The table and its parts hold the same rows, so they are read as one table: their columns are assigned to the
   * assumed ones one to one by the chooser's scores (maximum-weight bipartite matching, {@link ColumnAssignment#best},
   * as within one table), and a column assigned to a part is read through the join of the two. A part's column named
   * exactly as the assumed one beats a main column that only abbreviates it. A part is a join-graph neighbour joined
   * one to one whose name extends the table's, or the table's name extends its own (either may be the one chosen);
   * a neighbour the main table references (the nation of a customer) holds another entity's attributes, which only
   * columns the main table cannot answer at all are read from. Asks for FIND_JOIN_PATH where the scratchpad has no
   * path yet; the main table's column stays meanwhile.
   */
  private TableChoice splitPartColumns(TableChoice t, List<JoinRoute> extraJoins, List<Action> wanted) {
    List<Evidence.JoinStep> parts = context.splitParts(t.lake());
    if (parts.isEmpty()) {
      return t;
    }
    List<String> group = context.tableAndParts(t.lake());
    // The key the parts share is no attribute of either (l_receiptdate is no recId of the other part).
    Set<String> sharedKeys = new LinkedHashSet<>();
    parts.forEach(n -> {
      sharedKeys.add(t.lake() + "." + n.leftColumn());
      sharedKeys.add(n.rightTable() + "." + n.rightColumn());
    });
    String entity = entityColumn(t.lake());
    Map<String, Map<String, Double>> weights = new LinkedHashMap<>();
    Map<String, Map<String, ColumnTarget>> options = new LinkedHashMap<>();
    Map<String, ColumnTarget> exact = new LinkedHashMap<>();
    for (Map.Entry<String, ColumnTarget> e : t.columns().entrySet()) {
      ColumnTarget mapped = e.getValue();
      // The rows' own name is read where the rows are named (a name-like city → the capitals' label, not the area
      // of the table capital_of), and the key the parts share where it is; another key the query joins on (a sale's
      // date) may live in either part.
      if (!mapped.lakeTable().equals(t.lake())
          || sharedKeys.contains(t.lake() + "." + mapped.lakeColumn()) && isKey(t.assumed(), e.getKey())
          || mapped.lakeColumn().equals(entity) && EntityNames.isNameLike(e.getKey(), t.assumed())) {
        continue;
      }
      List<String> texts = lookups.textLiterals(e.getKey());
      if (!texts.isEmpty()) {
        // Compared with text: where the table chosen holds none of the literals in that column and a part holds
        // one, the part's column is the one (o_orderstatus = 'F' on the orders' key ordr, the status in the part).
        if (holdsAny(t.lake(), mapped.lakeColumn(), texts)) {
          continue;
        }
        parts.stream().map(Evidence.JoinStep::rightTable)
            .flatMap(part -> chooser.targets(t.assumed(), e.getKey(), part, Set.of()).stream())
            .filter(target -> target.score() > 0 && holdsAny(target.lakeTable(), target.lakeColumn(), texts))
            .max(Comparator.comparingDouble(ColumnTarget::score))
            .ifPresent(target -> exact.put(e.getKey(), target));
        continue;
      }
      // A column named exactly as the assumed one stays (o_orderstatus is orderstatus, not the orders' key ordr,
      // which abbreviates it as well).
      if (namedExactly(t.assumed(), e.getKey(), t.lake(), mapped.lakeColumn())) {
        continue;
      }
      Map<String, Double> w = new LinkedHashMap<>();
      Map<String, ColumnTarget> o = new LinkedHashMap<>();
      for (String table : group) {
        for (ColumnTarget target : chooser.targets(t.assumed(), e.getKey(), table, Set.of())) {
          String id = table + "." + target.lakeColumn();
          if (sharedKeys.contains(id) && !isKey(t.assumed(), e.getKey())) {
            continue;
          }
          offer(id, target, w, o);
          // ordOrderstatus for o_orderstatus, prefixes aside, against the main table's ordOrde (the order date).
          if (!table.equals(t.lake()) && !exact.containsKey(e.getKey()) && target.score() > 0
              && namedExactly(t.assumed(), e.getKey(), table, target.lakeColumn())) {
            exact.put(e.getKey(), target);
          }
        }
      }
      weights.put(e.getKey(), w);
      options.put(e.getKey(), o);
    }
    // A column the table chosen cannot answer is one of the group's too: the parts are the table, in sight or not
    // (c_address is the customers' part's ADRS though SEARCH_TABLE found other tables).
    for (String c : t.unmapped()) {
      Map<String, Double> w = new LinkedHashMap<>();
      Map<String, ColumnTarget> o = new LinkedHashMap<>();
      for (Evidence.JoinStep part : parts) {
        for (ColumnTarget target : chooser.targets(t.assumed(), c, part.rightTable(), Set.of())) {
          String id = part.rightTable() + "." + target.lakeColumn();
          if (!sharedKeys.contains(id) || isKey(t.assumed(), c)) {
            offer(id, target, w, o);
          }
        }
      }
      weights.put(key(c), w);
      options.put(key(c), o);
    }
    Map<String, String> assigned = ColumnAssignment.best(weights).pairs();
    Map<String, ColumnTarget> columns = new LinkedHashMap<>(t.columns());
    List<String> unmapped = new ArrayList<>(t.unmapped());
    boolean changed = false;
    List<String> assumedColumns = new ArrayList<>(t.columns().keySet());
    t.unmapped().forEach(c -> assumedColumns.add(key(c)));
    // A key the query only joins on, named so in a part and not in the table (ss_sold_date_sk is the sales
    // attributes' SOLD_DATE_SK; the sales' SOLD_TIME_SK only resembles it), is read from the part: the join keeps
    // the query's own keys instead of the join graph's best pair, which links record ids of unrelated tables.
    for (String k : joinOnlyKeys(t.assumed())) {
      if (columns.containsKey(key(k)) || context.columnNamedAs(t.assumed(), k, t.lake()).isPresent()) {
        continue;
      }
      Optional<ColumnTarget> fromPart = Optional.empty();
      for (Evidence.JoinStep part : parts) {
        Optional<String> named = context.columnNamedAs(t.assumed(), k, part.rightTable());
        if (named.isPresent()) {
          fromPart = Optional.of(new ColumnTarget(part.rightTable(), named.get(), 1.0, "named " + named.get()));
          break;
        }
      }
      if (fromPart.isEmpty()) {
        fromPart = abbreviatedInPart(t, k, parts, sharedKeys);
      }
      fromPart.ifPresent(target -> {
        exact.put(key(k), target);
        assumedColumns.add(key(k));
      });
    }
    for (String c : assumedColumns) {
      ColumnTarget best = exact.containsKey(c) ? exact.get(c)
          : assigned.containsKey(c) ? options.get(c).get(assigned.get(c)) : null;
      if (best == null || best.lakeTable().equals(t.lake())) {
        continue;
      }
      Optional<Evidence.JoinPath> path = context.attributeJoinPath(t.lake(), best.lakeTable());
      if (path.isPresent()) {
        columns.put(c, new ColumnTarget(best.lakeTable(), best.lakeColumn(), best.score(),
            best.why() + " in " + best.lakeTable() + ", the part of " + t.lake() + " split off by columns"));
        unmapped.removeIf(u -> key(u).equals(c));
        joinOnce(extraJoins, t.assumed(), path.get());
        changed = true;
      } else {
        askForJoinPath(t.lake(), best.lakeTable(), wanted);
      }
    }
    return changed ? new TableChoice(t.assumed(), t.lake(), t.score(), columns, unmapped, t.mergedInto()) : t;
  }

  /**
   * A part's column that the chooser scores above every column of the table itself for a key the query only joins
   * on, where no column is named exactly as the key: partsupp split on its comment column holds ps_partkey and
   * ps_suppkey as the part's PRTK and SPKY, while the main table's best guesses are its comment CMNT and the supply
   * cost SPLY. The key the parts share is no candidate: the table holds it too.
   */
  private Optional<ColumnTarget> abbreviatedInPart(TableChoice t, String assumedKey, List<Evidence.JoinStep> parts,
      Set<String> sharedKeys) {
    double own = chooser.bestColumn(t.assumed(), assumedKey, t.lake()).map(ColumnTarget::score).orElse(0.0);
    return parts.stream().map(Evidence.JoinStep::rightTable)
        .flatMap(part -> chooser.targets(t.assumed(), assumedKey, part, Set.of()).stream())
        .filter(target -> !sharedKeys.contains(target.lakeTable() + "." + target.lakeColumn())
            && target.score() >= TableChooser.COLUMN_THRESHOLD && target.score() > own)
        .max(Comparator.comparingDouble(ColumnTarget::score));
  }

  /** Offers a lake column ({@code table.column}) to the group's assignment when it scores at the threshold or above. */
  private static void offer(String id, ColumnTarget target, Map<String, Double> weights,
      Map<String, ColumnTarget> options) {
    if (target.score() >= TableChooser.COLUMN_THRESHOLD) {
      weights.put(id, TableChooser.assignmentWeight(target.score()));
      options.put(id, target);
    }
  }

  /** The columns of an assumed table the query names only in join conditions, as written. */
  private List<String> joinOnlyKeys(String assumedTable) {
    Set<String> out = new LinkedHashSet<>();
    for (JoinCondition j : analysis.joins()) {
      for (ColumnReference r : List.of(j.left(), j.right())) {
        if (r.table().map(x -> key(x).equals(key(assumedTable))).orElse(false) && isKey(assumedTable, r.column())) {
          out.add(r.column());
        }
      }
    }
    return List.copyOf(out);
  }

  /** Whether a lake column holds one of the literals as written. One value probe per literal. */
  private boolean holdsAny(String table, String column, List<String> literals) {
    return family(table, column) == TypeFamily.STRING
        && literals.stream().anyMatch(l -> lake.valueExists(table, column, l));
  }

  /**
   * Columns the lake holds as codes: an assumed column compared with text that is not a number, mapped to a numeric
   * lake column, is read from the text column of a lookup table that holds the text, joined on the code (the join
   * graph's edge from that very column): {@code approved_by = 'Free Software Foundation'} over
   * {@code licences.SNCT_BY} (1, 2, 3) becomes {@code lookup.NM} through {@code LEFT JOIN lookup ON SNCT_BY = CD}.
   * Costs one value probe per text column of each neighbour joined on the code.
   */
  TableChoice codeLabels(TableChoice t, List<JoinRoute> extraJoins) {
    Map<String, ColumnTarget> columns = new LinkedHashMap<>(t.columns());
    boolean changed = false;
    for (Map.Entry<String, ColumnTarget> e : t.columns().entrySet()) {
      ColumnTarget c = e.getValue();
      if (family(c.lakeTable(), c.lakeColumn()) != TypeFamily.NUMERIC) {
        continue;
      }
      List<String> texts = lookups.textLiterals(e.getKey());
      if (texts.isEmpty()) {
        Optional<CodeLookups.CodeLookup> found = readsCodes(t.assumed(), e.getKey(), c) ? lookups.named(c) : Optional.empty();
        // A column named like the lookup's key wants the code itself (n_regionkey and REGIONKEY), not its label.
        found = found.filter(l -> ColumnFeatures.lexicalMatch(e.getKey(), l.step().rightColumn())
            <= ColumnFeatures.lexicalMatch(e.getKey(), l.label()));
        if (found.isPresent()) {
          CodeLookups.CodeLookup l = found.get();
          columns.put(e.getKey(), new ColumnTarget(l.step().rightTable(), l.label(), c.score(),
              "label of the code " + c.lakeColumn() + " in " + l.step().rightTable() + "." + l.label()));
          addJoin(t, l.step(), c, extraJoins);
          changed = true;
        }
        continue;
      }
      List<String> codes = lookups.codes(c);
      if (codes.isEmpty() || codes.size() > CodeLookups.LOOKUP_CODES) {
        // A key of many values (a customer's) is no code, though a lookup's few codes fall among its values.
        continue;
      }
      List<Evidence.JoinStep> steps = new ArrayList<>(lake.joinNeighbours(c.lakeTable()));
      lookupByValues(c, texts).ifPresent(steps::add);
      for (Evidence.JoinStep step : steps) {
        if (!step.leftColumn().equals(c.lakeColumn())) {
          continue;
        }
        Optional<String> label = lake.table(step.rightTable()).columns().stream()
            .map(CatalogTable.Column::name)
            .filter(o -> !o.equals(step.rightColumn()) && holdsAny(step.rightTable(), o, texts))
            .findFirst();
        if (label.isEmpty()) {
          continue;
        }
        columns.put(e.getKey(), new ColumnTarget(step.rightTable(), label.get(), c.score(),
            "label of the code " + c.lakeColumn() + " in " + step.rightTable() + "." + label.get()));
        addJoin(t, step, c, extraJoins);
        changed = true;
        break;
      }
    }
    return changed ? new TableChoice(t.assumed(), t.lake(), t.score(), columns, t.unmapped(), t.mergedInto()) : t;
  }

  /**
   * A lookup table of a code column the join graph gave no edge that leads to the literal (small integer codes rarely
   * pass as join keys, and the graph's one pair per table pair may be another column's): a table holding one of the
   * literals in a text column, with a numeric column that holds every code the column uses (up to {@value
   * CodeLookups#LOOKUP_CODES} of them). Empty when none does.
   */
  private Optional<Evidence.JoinStep> lookupByValues(ColumnTarget c, List<String> texts) {
    // Alternative plans ask again for the same column; each answer costs lake queries.
    return valueLookups.computeIfAbsent(c.lakeTable() + "|" + c.lakeColumn() + "|" + texts, k -> findLookup(c, texts));
  }

  private final Map<String, Optional<Evidence.JoinStep>> valueLookups = new HashMap<>();

  private Optional<Evidence.JoinStep> findLookup(ColumnTarget c, List<String> texts) {
    // The codes as cleaning reads them: a noisy copy writes some with markup ('<b>3</b>'), which no key holds.
    List<String> codes = lookups.codes(c);
    if (codes.isEmpty()) {
      return Optional.empty();
    }
    for (String literal : texts) {
      for (Map.Entry<String, Double> hit : lake.tablesWithValue(literal).entrySet()) {
        String other = hit.getKey();
        if (other.equals(c.lakeTable()) || hit.getValue() < FilterLiterals.EXACT_HIT) {
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

  private static void addJoin(TableChoice t, Evidence.JoinStep step, ColumnTarget code, List<JoinRoute> extraJoins) {
    joinOnce(extraJoins, t.assumed(),
        new Evidence.JoinPath(code.lakeTable(), step.rightTable(), List.of(step), step.score(), 1, null));
  }

  /**
   * Whether an assumed column the query reads without comparing it with text is likely held as codes that the user
   * expects decoded: its name promises no kind of value a number would answer (an id, a count, a date, a url: see
   * {@link ColumnFeatures#promisesValue}), the query neither compares it with numbers or dates nor sums it nor joins
   * on it, and its lake column holds integers of at most {@value CodeLookups#LOOKUP_CODES} distinct values.
   */
  private boolean readsCodes(String assumedTable, String column, ColumnTarget c) {
    // A key (r_regionkey, compared with another table's n_regionkey) is the code itself, never a label.
    if (ColumnFeatures.promisesValue(column) || context.expectedFamilies.containsKey(key(column))
        || isKey(assumedTable, column)
        || ColumnFeatures.promisesIdentifier(ColumnPrefixes.withoutTablePrefix(column, assumedTable))) {
      return false;
    }
    List<String> codes = lookups.codes(c);
    return !codes.isEmpty() && codes.size() <= CodeLookups.LOOKUP_CODES;
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
      // The prefix that abbreviates the column's own table (s_phone in supplier) names no other entity.
      String[] words = Names.normalize(ColumnPrefixes.withoutTablePrefix(c, t.assumed())).split(" ");
      if (words.length < 2 || isKey(t.assumed(), c) || ownIdentifier(t.assumed(), c)) {
        continue;
      }
      ColumnTarget direct = columns.get(c);
      // A direct column whose name holds the prefix too, word for word or abbreviated (NEW_ZEALAND_GAZE_SPOT_ID for
      // "New Zealand Gazetteer place ID", ISO_3166_2_CODIFICATION for "ISO 3166-2 code") is the compound column
      // itself, in its own table.
      Set<String> directWords = new LinkedHashSet<>();
      if (direct != null && !direct.weak()) {
        directWords.addAll(List.of(Names.normalize(direct.lakeColumn()).split(" ")));
        directWords.addAll(List.of(Names.normalize(lake.bareColumnName(t.lake(), direct.lakeColumn())).split(" ")));
      }
      Compound best = null;
      for (int k = 1; k < words.length; k++) {
        String prefix = String.join(" ", java.util.Arrays.copyOfRange(words, 0, k));
        String suffix = String.join(" ", java.util.Arrays.copyOfRange(words, k, words.length));
        if (java.util.Arrays.stream(words, 0, k)
            .allMatch(w -> directWords.stream().anyMatch(d -> NameSignals.tokenMatch(w, d) > 0))) {
          continue;
        }
        double baseDescribes = chooser.about(prefix, t.lake());
        for (Evidence.JoinStep n : neighbours) {
          double prefixEvidence = Math.max(lake.nameSimilarity(prefix, n.leftColumn()), chooser.about(prefix, n.rightTable()));
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
      Optional<Evidence.JoinPath> path = context.attributeJoinPath(t.lake(), best.neighbour().rightTable());
      if (path.isPresent()) {
        columns.put(c, new ColumnTarget(best.neighbour().rightTable(), best.attribute().lakeColumn(), best.score(),
            "the " + best.attribute().lakeColumn() + " of " + best.neighbour().rightTable() + " through "
                + best.neighbour().leftColumn()));
        unmapped.removeIf(u -> key(u).equals(c));
        joinOnce(extraJoins, t.assumed(), path.get());
      } else {
        askForJoinPath(t.lake(), best.neighbour().rightTable(), wanted);
      }
    }
    return new TableChoice(t.assumed(), t.lake(), t.score(), columns, unmapped, t.mergedInto());
  }

  /**
   * Whether a lake column is named exactly as the assumed column once each loses the prefix that names its table
   * ({@code o_orderstatus} and {@code ordOrderstatus} in a table whose columns share {@code ord}).
   */
  private boolean namedExactly(String assumedTable, String column, String table, String lakeColumn) {
    String bare = Names.normalize(ColumnPrefixes.withoutTablePrefix(column, assumedTable));
    return !bare.isEmpty() && (bare.equals(Names.normalize(lake.bareColumnName(table, lakeColumn)))
        || bare.equals(Names.normalize(lakeColumn)));
  }

  /**
   * How well a lake column answers an assumed column read outside the table's entity, in [0, 1]: by name, or by the
   * table's name and the column's together.
   */
  private double evidenceOutsideEntity(String assumedTable, String column, String table, String lakeColumn) {
    return context.canServe(column, table, lakeColumn) ? Math.max(byName(assumedTable, column, table, lakeColumn),
        0.9 * lake.nameSimilarity(column, table + " " + lakeColumn)) : 0;
  }

  /**
   * The same evidence as in the assumed table's own lake table: the names' similarity, or the matcher's probability
   * where the lake name abbreviates the assumed one (ADRS for c_address), which embeddings miss.
   */
  private double byName(String assumedTable, String column, String table, String lakeColumn) {
    return TableFeatures.columnEvidence(lake, column, lakeColumn,
        (c, lc) -> chooser.probability(assumedTable, c, table, lc));
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
    // A key of another table answers no attribute (cd_marital_status is no CRNT_CDM_SK of the clients), though
    // key names abbreviate many words; a code of few values (a category id) may, through its labels.
    boolean wantsKey = ColumnFeatures.promisesIdentifier(ColumnPrefixes.withoutTablePrefix(column, assumedTable));
    ColumnTarget best = null;
    for (CatalogTable.Column col : info.columns()) {
      if (!wantsKey && ColumnFeatures.promisesIdentifier(lake.bareColumnName(table, col.name()))) {
        List<String> codes = lookups.codes(new ColumnTarget(table, col.name(), 0, ""));
        if (codes.isEmpty() || codes.size() > CodeLookups.LOOKUP_CODES) {
          continue;
        }
      }
      double combined = evidenceOutsideEntity(assumedTable, column, table, col.name());
      if (best == null || combined > best.score()) {
        best = new ColumnTarget(table, col.name(), combined, String.format("name similarity %.2f in %s", combined,
            table));
      }
    }
    return Optional.ofNullable(best);
  }
}
