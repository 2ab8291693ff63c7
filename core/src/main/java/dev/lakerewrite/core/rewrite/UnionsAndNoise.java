package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.ColumnProfile;
import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.JoinRoute;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.retrieval.Names;
import dev.lakerewrite.retrieval.TypeFamily;
import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Unions and noise (thesis error types Union and Noise): the horizontal parts of a lake table (same columns, same
 * name stem) and, for a single-table query, union partners that add rows of the kind the user asked for; and the
 * lake columns the plan reads that look noisy, for which BUILD_CTE is asked.
 */
final class UnionsAndNoise extends PlannerPart {
  /** Tables this close in relevance to the best one are candidates for a union. */
  static final double UNION_ABOUT_GAP = 0.1;
  /** The rows a union partner adds may fit the assumed name this much less than the base's rows. */
  static final double UNION_KIND_GAP = 0.05;
  static final double UNION_SCORE_THRESHOLD = 0.75;
  /** A union partner must bring at least this share of entities the base table lacks (twins add nothing). */
  static final double UNION_MIN_NEW_SHARE = 0.2;
  /** Added rows of another kind than the base's must fit the assumed name at least this well. */
  static final double UNION_MIN_KIND = 0.45;

  private final TableChooser chooser;

  UnionsAndNoise(PlanningContext context, TableChooser chooser) {
    super(context);
    this.chooser = chooser;
  }

  /**
   * UNION partners of the single table a query reads: asked for (UNION_SEARCH) when another table is about as
   * plausible an answer to the assumed table; accepted when the partner is union-compatible on every column the
   * query uses, adds entities the base lacks, and those added rows are the kind of thing the user asked for (a
   * regions query takes no district rows from a table that lists both).
   */
  Map<String, List<Evidence.UnionPartner>> unions(Map<String, TableChoice> tables, List<Action> wanted) {
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
    double baseKind = chooser.entityKindSimilarity(t.assumed(), t.lake());
    double baseAbout = chooser.about(t.assumed(), t.lake());
    List<Evidence.UnionPartner> partners = pad.payloads(Scratchpad.Section.UNIONS, Evidence.UnionPartner.class)
        .stream().filter(p -> p.baseTable().equals(t.lake())).toList();
    boolean searched = state.performedActions().stream()
        .anyMatch(a -> a instanceof Action.UnionSearch u && u.baseTable().equals(t.lake()));
    if (!searched) {
      Map<String, Double> relevance = lake.relevanceTo(t.assumed(), analysis.columnsOf(t.assumed()));
      // Another table is as plausible an answer: about as well named, or holding rows of the same kind.
      boolean rival = relevance.keySet().stream().limit(TableChooser.ABOUT_POOL).anyMatch(o -> !o.equals(t.lake())
          && (chooser.about(t.assumed(), o) >= baseAbout - UNION_ABOUT_GAP
              || baseKind >= 0.3 && chooser.entityKindSimilarity(t.assumed(), o) >= baseKind - UNION_KIND_GAP));
      if (rival && state.enabled(ActionType.UNION_SEARCH)) {
        wanted.add(new Action.UnionSearch(t.lake()));
      }
      return out;
    }
    Set<String> needed = new LinkedHashSet<>();
    t.columns().values().stream().filter(c -> c.lakeTable().equals(t.lake())).forEach(c -> needed.add(c.lakeColumn()));
    String entity = entityColumn(t.lake());
    String baseKindColumn = kindColumn(t.assumed(), t.lake());
    List<Evidence.UnionPartner> accepted = new ArrayList<>();
    for (Evidence.UnionPartner p : partners) {
      String partnerEntity = entity == null ? null : p.columnMapping().get(entity);
      boolean plausible = chooser.about(t.assumed(), p.table()) >= baseAbout - UNION_ABOUT_GAP - 0.1
          || baseKind >= 0.3 && chooser.entityKindSimilarity(t.assumed(), p.table()) >= baseKind - UNION_KIND_GAP;
      if (p.score() < UNION_SCORE_THRESHOLD || partnerEntity == null || !p.columnMapping().keySet().containsAll(needed)
          || !plausible || referencedBy(t.lake(), entity, p.table(), partnerEntity)) {
        continue;
      }
      // What the added rows are is read where the base says what its rows are: a partner's own best-fitting column
      // may be an attribute (a countries table's continent, 'Europe', fits "regions" but says where, not what).
      String partnerKindColumn = baseKindColumn != null && p.columnMapping().containsKey(baseKindColumn)
          ? p.columnMapping().get(baseKindColumn) : kindColumn(t.assumed(), p.table());
      LakeTools.NewRows added = lake.newRows(t.lake(), entity, p.table(), partnerEntity, partnerKindColumn);
      double addedKind = added.topKind() == null ? chooser.entityKindSimilarity(t.assumed(), p.table())
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
      // Named as parts of one table: two leading words in common, or the one word the lake's tables with these
      // columns share ("country" of country_current and country_archive; the lake's table prefix aside).
      boolean parts = sameStem(t.lake(), other) || context.partitionStem(t.lake()).isPresent()
          && context.partitionStem(t.lake()).equals(context.partitionStem(other));
      if (other.equals(t.lake()) || !parts || !columnShape(other).equals(shape) || !sameTypes(t, other)) {
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

  /**
   * Whether another table declares the columns the assumed table reads in the same type family as its lake table
   * does (so they union: each part's file is typed on its own, and an INTEGER part unions with a BIGINT one), or one
   * of the two holds the other's values as text (dates '21.04.1996' beside a DATE column: {@link #unionItem} reads
   * them alike).
   */
  private boolean sameTypes(TableChoice t, String other) {
    for (ColumnTarget c : t.columns().values()) {
      if (c.lakeTable().equals(t.lake())) {
        boolean same = lake.table(other).columns().stream().anyMatch(o -> o.name().equalsIgnoreCase(c.lakeColumn())
            && unionable(lake, t.lake(), c.lakeColumn(), other, o.name()));
        if (!same) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether a partner's column unions with a base column: the same declared family, or text holding its values. */
  static boolean unionable(LakeTools lake, String base, String baseColumn, String partner, String partnerColumn) {
    TypeFamily b = declared(lake, base, baseColumn);
    TypeFamily p = declared(lake, partner, partnerColumn);
    if (b == p) {
      return true;
    }
    if (b == TypeFamily.STRING) {
      return profiled(lake, base, baseColumn) == p;
    }
    return p == TypeFamily.STRING && profiled(lake, partner, partnerColumn) == b;
  }

  /**
   * A partner's column as a union branch reads it, named as the base's column: as it is where both are declared
   * alike; text read as the base's dates or numbers ({@code clean_date}, {@code clean_number}) beside a typed base
   * column; a typed column as text beside a text base column (the base is then read as text everywhere, and cleaned
   * where the query reads it).
   */
  static String unionItem(LakeTools lake, String base, String baseColumn, String partner, @Nullable String partnerColumn) {
    if (partnerColumn == null) {
      return "NULL AS " + Sql.identifier(baseColumn);
    }
    String read = Sql.identifier(partnerColumn);
    TypeFamily b = declared(lake, base, baseColumn);
    TypeFamily p = declared(lake, partner, partnerColumn);
    if (b != p && b == TypeFamily.STRING) {
      read = "CAST(" + read + " AS VARCHAR)";
    } else if (b != p && p == TypeFamily.STRING && b == TypeFamily.DATETIME) {
      read = "clean_date(" + read + ")";
    } else if (b != p && p == TypeFamily.STRING && b == TypeFamily.NUMERIC) {
      read = "clean_number(" + read + ")";
    }
    return read + " AS " + Sql.identifier(baseColumn);
  }

  private static TypeFamily declared(LakeTools lake, String table, String column) {
    return TypeFamily.fromSqlType(lake.table(table).column(column).map(CatalogTable.Column::type).orElse("VARCHAR"));
  }

  private static TypeFamily profiled(LakeTools lake, String table, String column) {
    return lake.profile(table).column(column).map(ColumnProfile::typeFamily).orElse(TypeFamily.STRING);
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

  void noise(Map<String, TableChoice> tables, List<JoinRoute> extraJoins,
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
}
