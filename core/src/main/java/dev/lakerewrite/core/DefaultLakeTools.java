package dev.lakerewrite.core;

import dev.lakerewrite.sql.DidYouMean;
import dev.lakerewrite.core.rewrite.Evidence;
import dev.lakerewrite.core.rewrite.LakeTools;
import dev.lakerewrite.joingraph.ColumnPair;
import dev.lakerewrite.joingraph.JoinEdge;
import dev.lakerewrite.joingraph.JoinGraph;
import dev.lakerewrite.joingraph.JoinHop;
import dev.lakerewrite.joingraph.JoinKey;
import dev.lakerewrite.joingraph.JoinPath;
import dev.lakerewrite.noiseudf.CleanedColumn;
import dev.lakerewrite.noiseudf.CteBuildResult;
import dev.lakerewrite.noiseudf.CteBuilder;
import dev.lakerewrite.noiseudf.CteRequest;
import dev.lakerewrite.noiseudf.LlmCteBuilder;
import dev.lakerewrite.noiseudf.NoiseDetector;
import dev.lakerewrite.noiseudf.NoiseFinding;
import dev.lakerewrite.noiseudf.NoiseKind;
import dev.lakerewrite.noiseudf.OfflineCteBuilder;
import dev.lakerewrite.noiseudf.PreviewTable;
import dev.lakerewrite.noiseudf.UdfInfo;
import dev.lakerewrite.retrieval.UnionColumnPair;
import dev.lakerewrite.retrieval.Embedder;
import dev.lakerewrite.retrieval.Names;
import dev.lakerewrite.retrieval.QueryRelevance;
import dev.lakerewrite.retrieval.QueryTable;
import dev.lakerewrite.retrieval.TableMatch;
import dev.lakerewrite.retrieval.TypeFamily;
import dev.lakerewrite.retrieval.UnionCandidate;
import dev.lakerewrite.retrieval.ValueMatch;
import dev.lakerewrite.sql.Sql;
import dev.langchain4j.model.chat.ChatModel;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * {@link LakeTools} over the lake's services (retrieval index, join graph, cleaning module) and one rewrite's
 * session: trusted SQL of the capability modules runs on the session's sandboxed connection.
 */
final class DefaultLakeTools implements LakeTools {
  private final DataLake lake;
  private final LakeSession session;
  private final LakeServices services;
  private final Optional<ChatModel> cleaner;
  private final boolean joinGraph;
  private final Map<String, float[]> nameVectors = new HashMap<>();
  private final Map<String, ResultTable> previews = new HashMap<>();
  private final Map<String, Map<String, Double>> valueTables = new HashMap<>();
  private final Map<String, List<String>> distinct = new HashMap<>();
  private final Map<String, long[]> variants = new HashMap<>();
  private final Map<String, Optional<double[]>> ranges = new HashMap<>();
  private final Map<String, Double> tupleContainments = new HashMap<>();
  private final Map<String, Boolean> existing = new HashMap<>();

  DefaultLakeTools(DataLake lake, LakeSession session, Optional<ChatModel> cleaner, boolean joinGraph) {
    this.lake = lake;
    this.session = session;
    this.services = lake.services();
    this.cleaner = cleaner;
    this.joinGraph = joinGraph;
  }

  @Override
  public List<String> tableNames() {
    return lake.catalog().tableNames();
  }

  @Override
  public Optional<String> resolveTable(String name) {
    return lake.catalog().table(name).map(CatalogTable::name);
  }

  @Override
  public String didYouMean(String name) {
    return DidYouMean.hint(name, tableNames());
  }

  @Override
  public CatalogTable table(String name) {
    return lake.catalog().requireTable(name);
  }

  @Override
  public TableProfile profile(String name) {
    return lake.catalog().profile(name);
  }

  @Override
  public ResultTable preview(String table, int rows) {
    String t = table(table).name();
    String key = t + "#" + rows;
    return previews.computeIfAbsent(key, k -> {
      Execution e = session.executeTrusted("SELECT * FROM " + Sql.quoted(t) + " LIMIT " + rows,
          session.defaultLimits());
      return e.isSuccess() ? e.table() : ResultTable.empty();
    });
  }

  @Override
  public List<String> distinctValues(String table, String column, int limit) {
    return distinct.computeIfAbsent(table + "|" + column + "|" + limit, k -> readDistinct(table, column, limit));
  }

  private List<String> readDistinct(String table, String column, int limit) {
    CatalogTable t = table(table);
    Optional<CatalogTable.Column> c = t.column(column);
    if (c.isEmpty()) {
      return List.of();
    }
    String col = Sql.quoted(c.get().name());
    Execution e = session.executeTrusted("SELECT DISTINCT CAST(" + col + " AS VARCHAR) FROM " + Sql.quoted(t.name())
        + " WHERE " + col + " IS NOT NULL LIMIT " + limit, session.defaultLimits());
    if (!e.isSuccess()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (List<Object> row : e.table().rows()) {
      out.add(String.valueOf(row.get(0)));
    }
    return out;
  }

  @Override
  public boolean valueExists(String table, String column, String value) {
    return exists(table, column, "=", value);
  }

  @Override
  public Optional<double[]> numericRange(String table, String column) {
    return ranges.computeIfAbsent(table + "|" + column, k -> readNumericRange(table, column))
        .map(double[]::clone);
  }

  private Optional<double[]> readNumericRange(String table, String column) {
    CatalogTable t = table(table);
    Optional<CatalogTable.Column> c = t.column(column);
    if (c.isEmpty()) {
      return Optional.empty();
    }
    String col = Sql.quoted(c.get().name());
    String value;
    if (c.get().type().equalsIgnoreCase("VARCHAR")) {
      value = "clean_number(" + col + ")";
    } else if (TypeFamily.fromSqlType(c.get().type()) == TypeFamily.NUMERIC) {
      value = "CAST(" + col + " AS DOUBLE)";
    } else {
      return Optional.empty();
    }
    Execution e = session.executeTrusted("SELECT min(v), max(v) FROM (SELECT " + value + " AS v FROM "
        + Sql.quoted(t.name()) + ")", session.defaultLimits());
    if (!e.isSuccess() || e.table().rowCount() == 0 || e.table().get(0, 0) == null || e.table().get(0, 1) == null) {
      return Optional.empty();
    }
    return Optional.of(new double[] {((Number) e.table().get(0, 0)).doubleValue(),
        ((Number) e.table().get(0, 1)).doubleValue()});
  }

  @Override
  public long[] variantCounts(String table, String column, String value) {
    // The planner asks again every iteration, and each answer is a clean_key UDF call per row of the table.
    return variants.computeIfAbsent(table + "|" + column + "|" + value, k -> readVariantCounts(table, column, value))
        .clone();
  }

  private long[] readVariantCounts(String table, String column, String value) {
    CatalogTable t = table(table);
    if (t.column(column).isEmpty()) {
      return new long[] {0, 0};
    }
    String c = "CAST(" + Sql.quoted(t.column(column).get().name()) + " AS VARCHAR)";
    String sql = "SELECT count(*) FILTER (WHERE " + c + " = " + Sql.literal(value) + "), count(*) FILTER (WHERE "
        + "clean_key(" + c + ") = clean_key(" + Sql.literal(value) + ")) FROM " + Sql.quoted(t.name());
    Execution e = session.executeTrusted(sql, session.defaultLimits());
    if (!e.isSuccess()) {
      return new long[] {0, 0};
    }
    return new long[] {((Number) e.table().get(0, 0)).longValue(), ((Number) e.table().get(0, 1)).longValue()};
  }

  @Override
  public boolean patternExists(String table, String column, String pattern) {
    return exists(table, column, "LIKE", pattern);
  }

  private boolean exists(String table, String column, String op, String value) {
    // Asked again by every plan of a rewrite and by several planner parts (labels, literals, value evidence).
    return existing.computeIfAbsent(table + "\u0000" + column + "\u0000" + op + "\u0000" + value,
        k -> readExists(table, column, op, value));
  }

  private boolean readExists(String table, String column, String op, String value) {
    CatalogTable t = table(table);
    if (t.column(column).isEmpty()) {
      return false;
    }
    String sql = "SELECT 1 FROM " + Sql.quoted(t.name()) + " WHERE CAST(" + Sql.quoted(t.column(column).get().name())
        + " AS VARCHAR) " + op + " " + Sql.literal(value) + " LIMIT 1";
    Execution e = session.executeTrusted(sql, session.defaultLimits());
    return e.isSuccess() && e.table().rowCount() > 0;
  }

  @Override
  public Evidence.TablePreview tablePreview(String table, int rows, double relevance, String origin) {
    CatalogTable info = table(table);
    List<String> cols = info.columns().stream().map(c -> Sql.identifier(c.name()) + " " + c.type()).toList();
    return new Evidence.TablePreview(info.name(), cols, preview(info.name(), rows), relevance, origin);
  }

  @Override
  public Map<String, Double> queryRelevance(Map<String, List<String>> assumedTables) {
    List<QueryTable> q = new ArrayList<>();
    assumedTables.forEach((t, cols) -> q.add(new QueryTable(t, cols)));
    if (q.isEmpty()) {
      return Map.of();
    }
    return scores(services.index().queryRelevance(q));
  }

  @Override
  public Map<String, Double> relevanceTo(String assumedTable, List<String> assumedColumns) {
    return scores(services.index().queryRelevance(List.of(new QueryTable(assumedTable, assumedColumns))));
  }

  private static Map<String, Double> scores(QueryRelevance r) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (TableMatch m : r.ranking()) {
      out.put(m.table(), m.score());
    }
    return out;
  }

  @Override
  public double joinability(String a, String b) {
    return joinGraph ? services.joinGraph().joinability(a, b) : 0;
  }

  @Override
  public double keyOverlap(String tableA, String columnA, String tableB, String columnB) {
    return pairMeasure(tableA, columnA, tableB, columnB, ColumnPair::jaccard);
  }

  @Override
  public double keyContainment(String tableA, String columnA, String tableB, String columnB) {
    return pairMeasure(tableA, columnA, tableB, columnB, ColumnPair::containment);
  }

  @Override
  public double unionContainment(List<String> tablesA, String columnA, List<String> tablesB, String columnB) {
    return tupleContainment(tablesA, List.of(columnA), tablesB, List.of(columnB));
  }

  @Override
  public double tupleContainment(List<String> tablesA, List<String> columnsA, List<String> tablesB,
      List<String> columnsB) {
    LakeTools.requireAlignedTuples(columnsA, columnsB);
    return tupleContainments.computeIfAbsent(String.join(",", tablesA) + "|" + String.join(",", columnsA) + "|"
        + String.join(",", tablesB) + "|" + String.join(",", columnsB),
        k -> readTupleContainment(tablesA, columnsA, tablesB, columnsB));
  }

  private double readTupleContainment(List<String> tablesA, List<String> columnsA, List<String> tablesB,
      List<String> columnsB) {
    String a = comparableValues(tablesA, columnsA);
    String b = comparableValues(tablesB, columnsB);
    if (a == null || b == null) {
      return 0;
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < columnsA.size(); i++) {
      names.add("v" + i);
    }
    Execution e = session.executeTrusted("WITH a AS (" + a + "), b AS (" + b + ") SELECT (SELECT count(*) FROM a), "
        + "(SELECT count(*) FROM b), (SELECT count(*) FROM a JOIN b USING (" + String.join(", ", names) + "))",
        session.defaultLimits());
    if (!e.isSuccess() || e.table().rowCount() == 0) {
      return 0;
    }
    long na = ((Number) e.table().get(0, 0)).longValue();
    long nb = ((Number) e.table().get(0, 1)).longValue();
    long shared = ((Number) e.table().get(0, 2)).longValue();
    // The smaller value set is the referencing one where one side refers to the other's keys (a sale's clients
    // among all clients, a return's tickets among all sales).
    return na == 0 || nb == 0 ? 0 : (double) shared / Math.min(na, nb);
  }

  /**
   * A query for the distinct tuples of the given columns over tables (columns {@code v0, v1, ...}), numbers as
   * numbers and text by {@code clean_key}, rows with a NULL among them left out; null when a table lacks a column.
   */
  private @Nullable String comparableValues(List<String> tables, List<String> columns) {
    List<String> parts = new ArrayList<>();
    for (String name : tables) {
      CatalogTable t = table(name);
      List<String> values = new ArrayList<>();
      List<String> present = new ArrayList<>();
      for (int i = 0; i < columns.size(); i++) {
        Optional<CatalogTable.Column> c = t.column(columns.get(i));
        if (c.isEmpty()) {
          return null;
        }
        String text = "CAST(" + Sql.quoted(c.get().name()) + " AS VARCHAR)";
        values.add("coalesce(CAST(TRY_CAST(" + text + " AS DOUBLE) AS VARCHAR), clean_key(" + text + ")) AS v" + i);
        present.add(Sql.quoted(c.get().name()) + " IS NOT NULL");
      }
      parts.add("SELECT DISTINCT " + String.join(", ", values) + " FROM " + Sql.quoted(t.name()) + " WHERE "
          + String.join(" AND ", present));
    }
    return String.join(" UNION ", parts);
  }

  /** A measure of the join graph's pair of two columns; 0 when the graph holds no such pair, or is off. */
  private double pairMeasure(String tableA, String columnA, String tableB, String columnB,
      ToDoubleFunction<ColumnPair> measure) {
    if (!joinGraph) {
      return 0;
    }
    String a = table(tableA).name();
    String b = table(tableB).name();
    JoinGraph graph = services.joinGraph();
    if (a.equals(b) || graph.table(a).isEmpty() || graph.table(b).isEmpty()) {
      return 0;
    }
    return graph.edge(a, b).stream().flatMap(e -> e.pairsFrom(a).stream())
        .filter(p -> p.columnA().equalsIgnoreCase(columnA) && p.columnB().equalsIgnoreCase(columnB))
        .mapToDouble(measure).max().orElse(0);
  }

  @Override
  public List<Evidence.JoinStep> joinNeighbours(String table) {
    if (!joinGraph) {
      return List.of();
    }
    String t = table(table).name();
    List<Evidence.JoinStep> out = new ArrayList<>();
    for (JoinEdge e : services.joinGraph().neighbours(t)) {
      if (e.pairs().isEmpty()) {
        continue;
      }
      ColumnPair p = e.pairs().get(0);
      boolean aSide = e.tableA().equals(t);
      out.add(new Evidence.JoinStep(t, aSide ? p.columnA() : p.columnB(), aSide ? e.tableB() : e.tableA(),
          aSide ? p.columnB() : p.columnA(), p.score(), Double.NaN));
    }
    return out;
  }

  @Override
  public NewRows newRows(String base, String baseColumn, String other, String otherColumn, String otherKindColumn) {
    String b = Sql.quoted(table(base).name());
    String o = Sql.quoted(table(other).name());
    String bc = Sql.quoted(baseColumn);
    String oc = Sql.quoted(otherColumn);
    String fresh = "CAST(" + oc + " AS VARCHAR) NOT IN (SELECT CAST(" + bc + " AS VARCHAR) FROM " + b + " WHERE " + bc
        + " IS NOT NULL)";
    String sql = "SELECT count(DISTINCT " + oc + "), count(DISTINCT " + oc + ") FILTER (WHERE " + fresh + ")"
        + (otherKindColumn == null ? ", NULL" : ", mode(CAST(" + Sql.quoted(otherKindColumn) + " AS VARCHAR)) FILTER (WHERE "
        + fresh + ")") + " FROM " + o + " WHERE " + oc + " IS NOT NULL";
    Execution e = session.executeTrusted(sql, session.defaultLimits());
    if (!e.isSuccess() || e.table().rowCount() == 0) {
      return new NewRows(0, null);
    }
    long all = ((Number) e.table().get(0, 0)).longValue();
    long added = ((Number) e.table().get(0, 1)).longValue();
    Object kind = e.table().get(0, 2);
    return new NewRows(all == 0 ? 0 : (double) added / all, kind == null ? null : kind.toString());
  }

  @Override
  public List<Evidence.TableHit> searchTable(String domain, List<String> columns, int k, Collection<String> excluded) {
    List<Evidence.TableHit> out = new ArrayList<>();
    if (columns.isEmpty() && (domain == null || domain.isBlank())) {
      return out;
    }
    List<String> cols = columns.isEmpty() ? List.of(domain) : columns;
    for (TableMatch m : services.index().searchTable(domain, cols, k, excluded)) {
      out.add(new Evidence.TableHit(m.table(), m.score(), m.why()));
    }
    return out;
  }

  @Override
  public Map<String, Double> tablesWithValue(String value) {
    return valueTables.computeIfAbsent(value, v -> {
      Map<String, Double> out = new LinkedHashMap<>();
      for (ValueMatch m : services.index().searchValueInLake(session.connection(), v, 20)) {
        out.merge(m.table(), m.score(), Math::max);
      }
      return out;
    });
  }

  @Override
  public Evidence.ValueSearch searchValue(String table, String value, int k) {
    String t = table(table).name();
    // The best value per column first: a table's top values can all come from one column, hiding the column
    // where the value is a category (e.g. 'district' → 'district of New Zealand' among many "X District").
    List<ValueMatch> matches = services.index().searchValue(session.connection(), t, value, Math.max(k * 6, 30));
    List<Evidence.ValueHit> hits = new ArrayList<>();
    java.util.Set<String> columns = new java.util.HashSet<>();
    List<ValueMatch> rest = new ArrayList<>();
    for (ValueMatch m : matches) {
      if (columns.add(m.column())) {
        hits.add(new Evidence.ValueHit(m.column(), m.value(), m.score(), m.why(), rows(m.exampleRows())));
      } else {
        rest.add(m);
      }
    }
    for (ValueMatch m : rest) {
      hits.add(new Evidence.ValueHit(m.column(), m.value(), m.score(), m.why(), rows(m.exampleRows())));
    }
    hits.sort(java.util.Comparator.comparingDouble(Evidence.ValueHit::score).reversed());
    return new Evidence.ValueSearch(t, value, hits.subList(0, Math.min(hits.size(), Math.max(k, 12))));
  }

  private static ResultTable rows(List<Map<String, String>> exampleRows) {
    if (exampleRows == null || exampleRows.isEmpty()) {
      return ResultTable.empty();
    }
    List<ResultTable.Column> cols = exampleRows.get(0).keySet().stream()
        .map(c -> new ResultTable.Column(c, "VARCHAR")).toList();
    List<List<Object>> rows = new ArrayList<>();
    for (Map<String, String> r : exampleRows) {
      List<Object> row = new ArrayList<>();
      for (ResultTable.Column c : cols) {
        row.add(r.get(c.name()));
      }
      rows.add(row);
    }
    return ResultTable.of(cols, rows, false);
  }

  @Override
  public List<Evidence.JoinPath> findJoinPaths(String a, String b, int k) {
    if (!joinGraph) {
      return List.of();
    }
    String ta = table(a).name();
    String tb = table(b).name();
    List<Evidence.JoinPath> out = new ArrayList<>();
    int rank = 0;
    for (JoinPath p : services.joinGraph().findJoinPaths(ta, tb, k, session.connection())) {
      List<Evidence.JoinStep> steps = new ArrayList<>();
      for (JoinHop h : p.hops()) {
        JoinKey key = h.bestKey();
        steps.add(new Evidence.JoinStep(h.leftTable(), key.leftColumn(), h.rightTable(), key.rightColumn(),
            key.joinScore(), key.fanOut()));
      }
      out.add(new Evidence.JoinPath(ta, tb, steps, Math.exp(-p.cost()), ++rank, preview(p)));
    }
    return out;
  }

  private static @Nullable ResultTable preview(JoinPath p) {
    if (p.preview() == null) {
      return null;
    }
    return fromPreview(p.preview().columns(), p.preview().rows());
  }

  private static ResultTable fromPreview(List<String> columns, List<List<String>> rows) {
    List<ResultTable.Column> cols = columns.stream().map(c -> new ResultTable.Column(c, "VARCHAR")).toList();
    List<List<Object>> out = new ArrayList<>();
    for (List<String> r : rows) {
      out.add(new ArrayList<>(r));
    }
    return ResultTable.of(cols, out, false);
  }

  @Override
  public List<Evidence.UnionPartner> unionSearch(String baseTable, int k) {
    String t = table(baseTable).name();
    List<Evidence.UnionPartner> out = new ArrayList<>();
    for (UnionCandidate c : services.index().unionSearch(t, k)) {
      Map<String, String> mapping = new LinkedHashMap<>();
      for (UnionColumnPair m : c.mapping()) {
        mapping.put(m.baseColumn(), m.candidateColumn());
      }
      out.add(new Evidence.UnionPartner(t, c.table(), mapping, c.score()));
    }
    return out;
  }

  @Override
  public Evidence.CleanedTable buildCte(String table, List<String> columns, String goal) {
    String t = table(table).name();
    CteBuilder builder = cleaner.<CteBuilder>map(m -> LlmCteBuilder.builder(m).build())
        .orElseGet(OfflineCteBuilder::create);
    CteBuildResult r = builder.build(session.connection(), new CteRequest(t, columns, goal));
    if (!r.succeeded()) {
      throw new LakeRewriteException("BUILD_CTE on " + t + " failed: "
          + r.failure().map(f -> f.kind() + ": " + f.message()).orElse("no cleaning applies"));
    }
    Map<String, String> cleaned = new LinkedHashMap<>();
    Map<String, String> matchKeys = new LinkedHashMap<>();
    Set<String> dates = new LinkedHashSet<>();
    for (CleanedColumn c : r.cleanedColumns()) {
      cleaned.put(c.column(), c.column());
      if (c.matchKey() != null) {
        matchKeys.put(c.column(), c.matchKey());
      }
      if (c.kinds().contains(NoiseKind.DATE_FORMAT)) {
        dates.add(c.column());
      }
    }
    List<Evidence.Udf> udfs = new ArrayList<>();
    for (UdfInfo u : r.udfs()) {
      udfs.add(new Evidence.Udf(u.signature(), u.returnType(), u.description()));
    }
    PreviewTable p = r.preview();
    ResultTable preview = p == null ? null : fromPreview(p.columns(), p.rows());
    return new Evidence.CleanedTable(r.cteName(), t, Sql.identifier(r.cteName()) + " AS (" + r.cteSql() + ")",
        cleaned, matchKeys, dates, udfs, preview, goal);
  }

  @Override
  public Map<String, List<String>> noisyColumns(String table, Collection<String> columns) {
    String t = table(table).name();
    Map<String, List<String>> out = new LinkedHashMap<>();
    if (columns.isEmpty()) {
      return out;
    }
    try {
      for (NoiseFinding f : NoiseDetector.create().detect(session.connection(), t, List.copyOf(columns))) {
        out.computeIfAbsent(f.column(), k -> new ArrayList<>()).add(f.summary());
      }
    } catch (SQLException e) {
      throw new LakeRewriteException("noise detection on " + t + " failed: " + e.getMessage(), e);
    }
    return out;
  }

  @Override
  public double nameSimilarity(String assumed, String lakeName) {
    String a = Names.normalize(assumed);
    String b = Names.normalize(lakeName);
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    if (a.equals(b)) {
      return 1;
    }
    return Math.max(0, Embedder.cosine(vector(a), vector(b)));
  }

  private float[] vector(String normalized) {
    return nameVectors.computeIfAbsent(normalized, n -> services.index().embedder().embed(n));
  }
}
