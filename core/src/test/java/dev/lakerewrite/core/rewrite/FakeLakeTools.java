package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.ColumnProfile;
import dev.lakerewrite.core.LakeRewriteException;
import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.TableProfile;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.retrieval.Names;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * An in-memory lake for unit tests of the offline planner's parts: tables of text rows with declared types, name
 * similarity from shared words (plus declared synonyms), join-graph edges and noisy columns declared by the test.
 * No DuckDB, no embeddings: a test states exactly the evidence a part sees.
 */
final class FakeLakeTools implements LakeTools {

  private record Table(CatalogTable catalog, List<List<@Nullable String>> rows) {}

  private final Map<String, Table> tables = new LinkedHashMap<>();
  private final Map<String, Double> similar = new HashMap<>();
  private final List<Evidence.JoinStep> edges = new ArrayList<>();
  private final Map<String, Map<String, List<String>>> noisy = new HashMap<>();

  /**
   * Adds a table. {@code columns} is {@code "name TYPE, name TYPE"}; each row is one string of values separated by
   * {@code |} ({@code ""} for NULL).
   */
  FakeLakeTools table(String name, String columns, String... rows) {
    List<CatalogTable.Column> cols = new ArrayList<>();
    for (String c : columns.split(",")) {
      String[] parts = c.strip().split("\\s+");
      cols.add(new CatalogTable.Column(parts[0], parts.length > 1 ? parts[1] : "VARCHAR"));
    }
    List<List<@Nullable String>> data = new ArrayList<>();
    for (String r : rows) {
      List<@Nullable String> values = new ArrayList<>();
      for (String v : r.split("\\|", -1)) {
        values.add(v.isEmpty() ? null : v);
      }
      if (values.size() != cols.size()) {
        throw new IllegalArgumentException("row '" + r + "' of " + name + " has " + values.size() + " values for "
            + cols.size() + " columns");
      }
      data.add(values);
    }
    tables.put(name, new Table(new CatalogTable(name, cols, data.size(), Optional.empty()), data));
    return this;
  }

  /** Declares the similarity of two names (either order), overriding shared words. */
  FakeLakeTools similar(String a, String b, double score) {
    similar.put(pairKey(a, b), score);
    return this;
  }

  /** A join-graph edge {@code a.x = b.y} (both directions). */
  FakeLakeTools edge(String a, String x, String b, String y) {
    return edge(a, x, b, y, 1);
  }

  /** A join-graph edge {@code a.x = b.y} (both directions) whose hop from a matches {@code fanOut} rows of b per key. */
  FakeLakeTools edge(String a, String x, String b, String y, double fanOut) {
    edges.add(new Evidence.JoinStep(a, x, b, y, 0.9, fanOut));
    return this;
  }

  /** Declares the Jaccard similarity of two key columns' values, as the join graph would measure it (either order). */
  FakeLakeTools keyOverlap(String a, String x, String b, String y, double jaccard) {
    keyOverlaps.put(pairKey(a + "." + x, b + "." + y), jaccard);
    return this;
  }

  private final Map<String, Double> keyOverlaps = new HashMap<>();

  /** Declares the containment of two key columns' values (either order); without one, their Jaccard similarity. */
  FakeLakeTools containment(String a, String x, String b, String y, double containment) {
    containments.put(pairKey(a + "." + x, b + "." + y), containment);
    return this;
  }

  private final Map<String, Double> containments = new HashMap<>();

  /** Declares what a column's values read as (the profiler's family: text dates read as dates). */
  FakeLakeTools profiledAs(String table, String column, TypeFamily family) {
    profiled.put(table + "|" + column, family);
    return this;
  }

  private final Map<String, TypeFamily> profiled = new HashMap<>();

  /** Declares a column noisy (the cleaning detector's evidence). */
  FakeLakeTools noisy(String table, String column, String evidence) {
    noisy.computeIfAbsent(table, k -> new LinkedHashMap<>()).put(column, List.of(evidence));
    return this;
  }

  /** The rewrite state of a user query over this lake, with every action enabled and the given scratchpad. */
  RewriteState state(String userQuery, Scratchpad pad, Action... performed) {
    return new RewriteState(userQuery, Optional.of(SqlAnalyzer.analyzeStandalone(userQuery)), 1, 5, List.of(), pad,
        List.of(), EnumSet.allOf(ActionType.class), this, RewriterConfig.defaults(), List.of(performed));
  }

  /** The rewrite state after these candidates ran, with every action enabled and the given scratchpad. */
  RewriteState stateAfter(String userQuery, Scratchpad pad, List<RewriteCandidate> history) {
    return new RewriteState(userQuery, Optional.of(SqlAnalyzer.analyzeStandalone(userQuery)), history.size() + 1, 5,
        history, pad, List.of(), EnumSet.allOf(ActionType.class), this, RewriterConfig.defaults(), List.of());
  }

  /** A scratchpad holding previews of these tables (the loop's context tables). */
  Scratchpad padWith(String... tableNames) {
    Scratchpad pad = new Scratchpad(Map.of());
    for (String t : tableNames) {
      pad.add(Scratchpad.Section.TABLES, t, 1, t, tablePreview(t, 3, 1.0, "test"));
    }
    return pad;
  }

  /** Puts the direct join of two tables (a declared edge) into the scratchpad, as FIND_JOIN_PATH would. */
  void addJoinPath(Scratchpad pad, String a, String b) {
    Evidence.JoinPath p = findJoinPaths(a, b, 1).stream().findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no edge between " + a + " and " + b));
    pad.add(Scratchpad.Section.JOINS, a + "|" + b + "|1", 1, p.sqlJoin(), p);
  }

  /** Puts SEARCH_VALUE's answer for a value in a table into the scratchpad. */
  void addValueSearch(Scratchpad pad, String table, String value) {
    Evidence.ValueSearch vs = searchValue(table, value, 5);
    pad.add(Scratchpad.Section.VALUES, table + "|" + value, 1, value, vs);
  }

  private static String pairKey(String a, String b) {
    String x = Names.normalize(a);
    String y = Names.normalize(b);
    return x.compareTo(y) <= 0 ? x + "|" + y : y + "|" + x;
  }

  private Table t(String name) {
    Table t = tables.get(name);
    if (t == null) {
      throw new IllegalArgumentException("no table " + name + " in the fake lake; tables: " + tables.keySet());
    }
    return t;
  }

  private List<@Nullable String> column(String table, String column) {
    Table t = t(table);
    int i = t.catalog().columnNames().indexOf(column);
    if (i < 0) {
      throw new IllegalArgumentException("no column " + table + "." + column);
    }
    List<@Nullable String> out = new ArrayList<>();
    t.rows().forEach(r -> out.add(r.get(i)));
    return out;
  }

  @Override
  public List<String> tableNames() {
    return List.copyOf(tables.keySet());
  }

  @Override
  public Optional<String> resolveTable(String name) {
    return tables.keySet().stream().filter(n -> n.equalsIgnoreCase(name)).findFirst();
  }

  @Override
  public String didYouMean(String name) {
    return "";
  }

  @Override
  public CatalogTable table(String name) {
    return t(name).catalog();
  }

  @Override
  public TableProfile profile(String name) {
    Table t = t(name);
    List<ColumnProfile> out = new ArrayList<>();
    for (CatalogTable.Column c : t.catalog().columns()) {
      List<String> values = column(name, c.name()).stream().filter(Objects::nonNull).toList();
      Map<String, Long> counts = values.stream().collect(Collectors.groupingBy(v -> v, LinkedHashMap::new,
          Collectors.counting()));
      List<String> frequent = counts.entrySet().stream()
          .sorted(Comparator.comparingLong((Map.Entry<String, Long> e) -> -e.getValue()))
          .map(Map.Entry::getKey).limit(5).toList();
      int rows = t.rows().size();
      out.add(new ColumnProfile(c.name(), c.type(), values.size(), counts.size(),
          rows == 0 ? 0 : 1 - (double) values.size() / rows, values.isEmpty() ? 0 : (double) counts.size() / values.size(),
          frequent, profiled.getOrDefault(name + "|" + c.name(), family(c.type()))));
    }
    return new TableProfile(name, t.rows().size(), out);
  }

  private static TypeFamily family(String type) {
    String u = type.toUpperCase(Locale.ROOT);
    if (u.contains("INT") || u.equals("DOUBLE") || u.startsWith("DECIMAL")) {
      return TypeFamily.NUMERIC;
    }
    if (u.startsWith("DATE") || u.startsWith("TIMESTAMP")) {
      return TypeFamily.DATETIME;
    }
    return u.equals("BOOLEAN") ? TypeFamily.BOOLEAN : TypeFamily.STRING;
  }

  @Override
  public List<String> distinctValues(String table, String column, int limit) {
    return column(table, column).stream().filter(Objects::nonNull).distinct().limit(limit).toList();
  }

  @Override
  public boolean valueExists(String table, String column, String value) {
    return column(table, column).contains(value);
  }

  /** The column's values the cleaners read as numbers, smallest and largest, as the lake tools' query reads them. */
  @Override
  public java.util.Optional<double[]> numericRange(String table, String column) {
    double[] range = column(table, column).stream().filter(java.util.Objects::nonNull)
        .map(dev.lakerewrite.noiseudf.Cleaners::parseNumber).filter(java.util.Objects::nonNull)
        .mapToDouble(Number::doubleValue)
        .collect(() -> new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY},
            (r, v) -> { r[0] = Math.min(r[0], v); r[1] = Math.max(r[1], v); },
            (r, o) -> { r[0] = Math.min(r[0], o[0]); r[1] = Math.max(r[1], o[1]); });
    return range[0] > range[1] ? java.util.Optional.empty() : java.util.Optional.of(range);
  }

  @Override
  public long[] variantCounts(String table, String column, String value) {
    List<@Nullable String> values = column(table, column);
    long exact = values.stream().filter(value::equals).count();
    long loose = values.stream().filter(v -> v != null && v.strip().equalsIgnoreCase(value.strip())).count();
    return new long[] {exact, loose};
  }

  @Override
  public boolean patternExists(String table, String column, String pattern) {
    Pattern p = Pattern.compile(Arrays.stream(pattern.split("", -1))
        .map(ch -> ch.equals("%") ? ".*" : ch.equals("_") ? "." : Pattern.quote(ch)).collect(Collectors.joining()));
    return column(table, column).stream().anyMatch(v -> v != null && p.matcher(v).matches());
  }

  @Override
  public ResultTable preview(String table, int rows) {
    Table t = t(table);
    List<ResultTable.Column> cols = t.catalog().columns().stream()
        .map(c -> new ResultTable.Column(c.name(), c.type())).toList();
    return ResultTable.of(cols, t.rows().subList(0, Math.min(rows, t.rows().size())), rows < t.rows().size());
  }

  @Override
  public Evidence.TablePreview tablePreview(String table, int rows, double relevance, String origin) {
    List<String> cols = table(table).columns().stream().map(c -> c.name() + " " + c.type()).toList();
    return new Evidence.TablePreview(table, cols, preview(table, rows), relevance, origin);
  }

  @Override
  public Map<String, Double> queryRelevance(Map<String, List<String>> assumedTables) {
    Map<String, Double> out = new HashMap<>();
    assumedTables.forEach((t, cols) -> relevanceTo(t, cols).forEach((k, v) -> out.merge(k, v, Math::max)));
    return sorted(out);
  }

  /** Half the table name's similarity, half the mean best similarity of the assumed columns to its columns. */
  @Override
  public Map<String, Double> relevanceTo(String assumedTable, List<String> assumedColumns) {
    Map<String, Double> out = new HashMap<>();
    for (Table t : tables.values()) {
      double columns = 0;
      for (String c : assumedColumns) {
        columns += t.catalog().columns().stream().mapToDouble(l -> nameSimilarity(c, l.name())).max().orElse(0);
      }
      double mean = assumedColumns.isEmpty() ? 0 : columns / assumedColumns.size();
      out.put(t.catalog().name(), 0.5 * nameSimilarity(assumedTable, t.catalog().name()) + 0.5 * mean);
    }
    return sorted(out);
  }

  private static Map<String, Double> sorted(Map<String, Double> scores) {
    Map<String, Double> out = new LinkedHashMap<>();
    scores.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()
        .thenComparing(Map.Entry.comparingByKey())).forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  @Override
  public double keyOverlap(String tableA, String columnA, String tableB, String columnB) {
    return keyOverlaps.getOrDefault(pairKey(tableA + "." + columnA, tableB + "." + columnB), 0.0);
  }

  @Override
  public double keyContainment(String tableA, String columnA, String tableB, String columnB) {
    return containments.getOrDefault(pairKey(tableA + "." + columnA, tableB + "." + columnB),
        keyOverlap(tableA, columnA, tableB, columnB));
  }

  /**
   * Between two single tables, the containment declared for their columns ({@link #containment}, else
   * {@link #keyOverlap}); over several tables, or where none is declared, measured on the rows as
   * {@link #tupleContainment} measures it.
   */
  @Override
  public double unionContainment(List<String> tablesA, String columnA, List<String> tablesB, String columnB) {
    String pair = pairKey(tablesA.get(0) + "." + columnA, tablesB.get(0) + "." + columnB);
    Double declared = containments.containsKey(pair) ? containments.get(pair) : keyOverlaps.get(pair);
    return declared != null && tablesA.size() == 1 && tablesB.size() == 1 ? declared
        : tupleContainment(tablesA, List.of(columnA), tablesB, List.of(columnB));
  }

  /** Measured on the rows: the share of the smaller set of distinct tuples (trimmed text) found in the other. */
  @Override
  public double tupleContainment(List<String> tablesA, List<String> columnsA, List<String> tablesB,
      List<String> columnsB) {
    LakeTools.requireAlignedTuples(columnsA, columnsB);
    Set<List<String>> a = tuples(tablesA, columnsA);
    Set<List<String>> b = tuples(tablesB, columnsB);
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    Set<List<String>> shared = new HashSet<>(a);
    shared.retainAll(b);
    return (double) shared.size() / Math.min(a.size(), b.size());
  }

  private Set<List<String>> tuples(List<String> tableNames, List<String> columns) {
    Set<List<String>> out = new HashSet<>();
    for (String name : tableNames) {
      List<Integer> at = new ArrayList<>();
      for (String c : columns) {
        at.add(t(name).catalog().columnNames().indexOf(c));
      }
      if (at.contains(-1)) {
        throw new IllegalArgumentException("table " + name + " lacks one of " + columns);
      }
      for (List<@Nullable String> row : t(name).rows()) {
        List<String> tuple = new ArrayList<>();
        for (int i : at) {
          String v = row.get(i);
          if (v == null) {
            break;
          }
          tuple.add(v.strip());
        }
        if (tuple.size() == at.size()) {
          out.add(tuple);
        }
      }
    }
    return out;
  }

  @Override
  public double joinability(String a, String b) {
    return joinNeighbours(a).stream().anyMatch(s -> s.rightTable().equals(b)) ? 0.9 : 0;
  }

  @Override
  public List<Evidence.JoinStep> joinNeighbours(String table) {
    List<Evidence.JoinStep> out = new ArrayList<>();
    for (Evidence.JoinStep e : edges) {
      if (e.leftTable().equals(table)) {
        out.add(e);
      } else if (e.rightTable().equals(table)) {
        out.add(new Evidence.JoinStep(e.rightTable(), e.rightColumn(), e.leftTable(), e.leftColumn(), e.score(),
            e.fanOut()));
      }
    }
    return out;
  }

  @Override
  public NewRows newRows(String base, String baseColumn, String other, String otherColumn,
      @Nullable String otherKindColumn) {
    Set<String> known = new HashSet<>(distinctValues(base, baseColumn, Integer.MAX_VALUE));
    List<String> theirs = distinctValues(other, otherColumn, Integer.MAX_VALUE);
    long added = theirs.stream().filter(v -> !known.contains(v)).count();
    String topKind = null;
    if (otherKindColumn != null) {
      List<String> keys = column(other, otherColumn);
      List<String> kinds = column(other, otherKindColumn);
      Map<String, Long> counts = new LinkedHashMap<>();
      for (int i = 0; i < keys.size(); i++) {
        if (keys.get(i) != null && !known.contains(keys.get(i)) && kinds.get(i) != null) {
          counts.merge(kinds.get(i), 1L, Long::sum);
        }
      }
      topKind = counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
    }
    return new NewRows(theirs.isEmpty() ? 0 : (double) added / theirs.size(), topKind);
  }

  @Override
  public List<Evidence.TableHit> searchTable(String domain, List<String> columns, int k, Collection<String> excluded) {
    return relevanceTo(domain, columns).entrySet().stream().filter(e -> !excluded.contains(e.getKey())).limit(k)
        .map(e -> new Evidence.TableHit(e.getKey(), e.getValue(), "fake relevance")).toList();
  }

  /** 1.5 for an exact value, 1.4 equal up to case, 0.8 when the value contains the text. */
  private static double valueScore(String value, String text) {
    if (value.equals(text)) {
      return 1.5;
    }
    if (value.equalsIgnoreCase(text)) {
      return 1.4;
    }
    return value.toLowerCase(Locale.ROOT).contains(text.toLowerCase(Locale.ROOT)) ? 0.8 : 0;
  }

  @Override
  public Map<String, Double> tablesWithValue(String value) {
    Map<String, Double> out = new HashMap<>();
    for (String t : tables.keySet()) {
      Evidence.ValueSearch vs = searchValue(t, value, 1);
      if (!vs.hits().isEmpty()) {
        out.put(t, vs.hits().get(0).score());
      }
    }
    return sorted(out);
  }

  @Override
  public Evidence.ValueSearch searchValue(String table, String value, int k) {
    List<Evidence.ValueHit> hits = new ArrayList<>();
    for (CatalogTable.Column c : table(table).columns()) {
      for (String v : new LinkedHashSet<>(distinctValues(table, c.name(), Integer.MAX_VALUE))) {
        double s = valueScore(v, value);
        if (s > 0) {
          hits.add(new Evidence.ValueHit(c.name(), v, s, "fake match", ResultTable.empty()));
        }
      }
    }
    hits.sort(Comparator.comparingDouble((Evidence.ValueHit h) -> -h.score()));
    return new Evidence.ValueSearch(table, value, hits.subList(0, Math.min(k, hits.size())));
  }

  @Override
  public List<Evidence.JoinPath> findJoinPaths(String a, String b, int k) {
    return joinNeighbours(a).stream().filter(s -> s.rightTable().equals(b)).limit(k)
        .map(s -> new Evidence.JoinPath(a, b, List.of(s), s.score(), 1, null)).toList();
  }

  @Override
  public List<Evidence.UnionPartner> unionSearch(String baseTable, int k) {
    return List.of();
  }

  @Override
  public Evidence.CleanedTable buildCte(String table, List<String> columns, String goal) {
    throw new LakeRewriteException("the fake lake builds no cleaned tables");
  }

  @Override
  public Map<String, List<String>> noisyColumns(String table, Collection<String> columns) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    noisy.getOrDefault(table, Map.of()).forEach((c, e) -> {
      if (columns.contains(c)) {
        out.put(c, e);
      }
    });
    return out;
  }

  /** A declared similarity, else the share of words the two names share (Jaccard on normalised words). */
  @Override
  public double nameSimilarity(String assumed, String lake) {
    Double declared = similar.get(pairKey(assumed, lake));
    if (declared != null) {
      return declared;
    }
    Set<String> a = new HashSet<>(List.of(Names.normalize(assumed).split("\\s+")));
    Set<String> b = new HashSet<>(List.of(Names.normalize(lake).split("\\s+")));
    Set<String> union = new HashSet<>(a);
    union.addAll(b);
    a.retainAll(b);
    return union.isEmpty() ? 0 : (double) a.size() / union.size();
  }
}
