package dev.lakerewrite.joingraph;

import dev.lakerewrite.retrieval.TypeFamily;
import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jgrapht.GraphPath;
import org.jgrapht.alg.shortestpath.YenKShortestPath;
import org.jgrapht.graph.AsWeightedGraph;

/**
 * FIND_JOIN_PATH (thesis §5.2.2): Yen's k shortest simple paths on C(P), then per hop the key candidates executed
 * and re-ranked by S_join = S / (1 + f)^α, then the whole path joined, counted and previewed.
 */
final class JoinPathFinder {
  /** Upper bound of Ω: S = (S_schema + S_inst) · K with each term at most 1. */
  static final double MAX_JOINABILITY = 2.0;

  private final JoinGraph graph;
  private final JoinGraphConfig config;
  /** Join keys measured before, by left table, right table and both columns; failed measurements are not kept. */
  private final Map<String, JoinKey> measured;

  JoinPathFinder(JoinGraph graph, JoinGraphConfig config, Map<String, JoinKey> measured) {
    this.graph = graph;
    this.config = config;
    this.measured = measured;
  }

  /** −ln(max(Ω / 2, ε)) + λ: never below λ ≥ 0, as Dijkstra inside Yen's algorithm needs. */
  double weight(JoinEdge e) {
    double normalised = Math.min(1.0, e.joinability() / MAX_JOINABILITY);
    return -Math.log(Math.max(normalised, config.epsilon())) + config.hopPenalty();
  }

  List<PathCandidate> candidates(String a, String b, int k) {
    AsWeightedGraph<String, JoinEdge> weighted = new AsWeightedGraph<>(graph.jgraph(), this::weight, true, false);
    List<PathCandidate> out = new ArrayList<>();
    for (GraphPath<String, JoinEdge> p : new YenKShortestPath<>(weighted).getPaths(a, b, k)) {
      out.add(new PathCandidate(p.getVertexList(), p.getEdgeList(), p.getWeight()));
    }
    return out;
  }

  List<JoinPath> execute(List<PathCandidate> candidates, Connection connection) {
    List<JoinPath> paths = new ArrayList<>();
    for (PathCandidate candidate : candidates) {
      paths.add(execute(candidate, connection));
    }
    // Stable: cost order within paths that return rows, then within those that do not.
    paths.sort(Comparator.comparing((JoinPath p) -> p.rowCount() == 0 || p.error() != null));
    return paths;
  }

  private JoinPath execute(PathCandidate candidate, Connection connection) {
    List<JoinHop> hops = new ArrayList<>();
    for (int i = 0; i < candidate.length(); i++) {
      String left = candidate.tables().get(i);
      String right = candidate.tables().get(i + 1);
      JoinEdge edge = candidate.edges().get(i);
      List<JoinKey> keys = new ArrayList<>();
      List<ColumnPair> pairs = edge.pairsFrom(left);
      for (ColumnPair pair : pairs.subList(0, Math.min(config.keysPerHop(), pairs.size()))) {
        String memoKey = left + '\u0000' + right + '\u0000' + pair.columnA() + '\u0000' + pair.columnB();
        JoinKey key = measured.get(memoKey);
        if (key == null) {
          key = measureKey(connection, left, right, pair);
          if (key.error() == null) {
            measured.put(memoKey, key);
          }
        }
        keys.add(key);
      }
      keys.sort(Comparator.comparingDouble(JoinKey::joinScore).reversed()
          .thenComparing(Comparator.comparingDouble(JoinKey::similarity).reversed()));
      hops.add(new JoinHop(left, right, edge.joinability(), keys));
    }
    String from = fromClause(candidate.tables(), hops);
    String sql = "SELECT * " + from;
    long rows = 0;
    boolean capped = false;
    JoinPreview preview = JoinPreview.EMPTY;
    String error = null;
    try (Statement st = statement(connection);
        ResultSet rs = st.executeQuery("SELECT count(*) FROM (SELECT 1 " + from + " LIMIT "
            + (config.rowCap() + 1) + ")")) {
      rs.next();
      rows = Math.min(rs.getLong(1), config.rowCap());
      capped = rs.getLong(1) > config.rowCap();
    } catch (SQLException e) {
      error = "counting the joined path failed: " + e.getMessage();
    }
    if (error == null && config.previewRows() > 0) {
      try {
        preview = preview(connection, candidate.tables(), hops, from);
      } catch (SQLException e) {
        error = "previewing the joined path failed: " + e.getMessage();
      }
    }
    return new JoinPath(candidate.tables(), candidate.cost(), hops, sql, rows, capped, preview, error);
  }

  private Statement statement(Connection connection) throws SQLException {
    Statement st = connection.createStatement();
    st.setQueryTimeout(config.queryTimeoutSeconds());
    return st;
  }

  /**
   * Joins one key candidate: the distinct left keys (of the first row-cap non-null left rows) against all right
   * rows, in the comparison form of {@link #comparable}, and counts the right rows matched, the distinct left keys,
   * those that match, and those plain equality would match.
   */
  private JoinKey measureKey(Connection connection, String left, String right, ColumnPair pair) {
    GraphTable lt = graph.require(left);
    GraphTable rt = graph.require(right);
    String lc = Sql.quoted(pair.columnA());
    String rc = Sql.quoted(pair.columnB());
    long cap = config.rowCap();
    String sql = "WITH l AS (SELECT " + comparable(lc) + " AS k, CAST(" + lc + " AS VARCHAR) AS raw FROM "
        + Sql.quoted(lt.schema(), lt.relation()) + " WHERE " + lc + " IS NOT NULL LIMIT " + cap + "), "
        + "r AS (SELECT " + comparable(rc) + " AS k, CAST(" + rc + " AS VARCHAR) AS raw FROM "
        + Sql.quoted(rt.schema(), rt.relation()) + " WHERE " + rc + " IS NOT NULL) "
        + "SELECT (SELECT count(*) FROM (SELECT 1 FROM (SELECT DISTINCT k FROM l) d JOIN r ON d.k = r.k LIMIT "
        + (cap + 1) + ")), "
        + "(SELECT count(DISTINCT k) FROM l), "
        + "(SELECT count(DISTINCT k) FROM l WHERE k IN (SELECT k FROM r)), "
        + "(SELECT count(DISTINCT raw) FROM l WHERE raw IN (SELECT raw FROM r))";
    String plain = condition(lt, pair.columnA(), rt, pair.columnB(), false);
    try (Statement st = statement(connection); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      long rightRows = rs.getLong(1);
      long leftKeys = rs.getLong(2);
      long matched = rs.getLong(3);
      long plainMatched = rs.getLong(4);
      boolean capped = rightRows > cap;
      rightRows = Math.min(rightRows, cap);
      double fanOut = matched == 0 ? 0 : (double) rightRows / matched;
      double joinScore = matched == 0 ? 0
          : pair.score() / Math.pow(1 + fanOut, config.fanOutExponent());
      String condition = plainMatched >= matched ? plain
          : condition(lt, pair.columnA(), rt, pair.columnB(), true);
      return new JoinKey(pair.columnA(), pair.columnB(), pair.score(), fanOut, joinScore, rightRows, leftKeys,
          matched, capped, condition, null);
    } catch (SQLException e) {
      return new JoinKey(pair.columnA(), pair.columnB(), pair.score(), 0, 0, 0, 0, 0, false, plain,
          "joining " + left + "." + pair.columnA() + " with " + right + "." + pair.columnB() + " failed: "
              + e.getMessage());
    }
  }

  /**
   * A SQL approximation of {@code Values.normalize}: invisible characters (zero-width, soft hyphen, byte-order mark)
   * and simple HTML tags removed, then numbers compare as numbers ({@code '+13789'} = 13789), text with whitespace
   * collapsed, trimmed, accents stripped and lower-cased.
   */
  static String comparable(String expression) {
    String text = "regexp_replace(CAST(" + expression + " AS VARCHAR), "
        + "'[\\x{00AD}\\x{200B}-\\x{200F}\\x{2060}\\x{FEFF}]|</?[a-zA-Z][a-zA-Z0-9]{0,9}\\s*/?>', '', 'g')";
    return "coalesce(CAST(TRY_CAST(" + text + " AS DOUBLE) AS VARCHAR), lower(strip_accents(trim(regexp_replace("
        + text + ", '\\s+', ' ', 'g')))))";
  }

  /** The join condition between two columns, plain or in comparison form. */
  private static String condition(GraphTable lt, String leftColumn, GraphTable rt, String rightColumn,
      boolean normalised) {
    String l = reference(lt) + "." + Sql.quoted(leftColumn);
    String r = reference(rt) + "." + Sql.quoted(rightColumn);
    if (normalised) {
      return comparable(l) + " = " + comparable(r);
    }
    String lType = lt.column(leftColumn).map(GraphColumn::sqlType).orElse(null);
    String rType = rt.column(rightColumn).map(GraphColumn::sqlType).orElse(null);
    boolean sameKind = lType != null && lType.equals(rType)
        || TypeFamily.fromSqlType(lType) == TypeFamily.NUMERIC && TypeFamily.fromSqlType(rType) == TypeFamily.NUMERIC;
    return sameKind ? l + " = " + r : "CAST(" + l + " AS VARCHAR) = CAST(" + r + " AS VARCHAR)";
  }

  /** How a table is named in path SQL: its quoted relation, schema-qualified outside {@code main}. */
  private static String reference(GraphTable t) {
    return t.schema().equals("main") ? Sql.quoted(t.relation()) : Sql.quoted(t.schema(), t.relation());
  }

  private String fromClause(List<String> tables, List<JoinHop> hops) {
    StringBuilder from = new StringBuilder("FROM ").append(reference(graph.require(tables.get(0))));
    for (JoinHop hop : hops) {
      from.append(" JOIN ").append(reference(graph.require(hop.rightTable()))).append(" ON ")
          .append(hop.bestKey().condition());
    }
    return from.toString();
  }

  /** Key columns of every hop plus the first columns of each table, as {@code table.column}. */
  private JoinPreview preview(Connection connection, List<String> tables, List<JoinHop> hops, String from)
      throws SQLException {
    List<String[]> shown = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < tables.size(); i++) {
      GraphTable t = graph.require(tables.get(i));
      List<String> columns = new ArrayList<>();
      if (i > 0) {
        columns.add(hops.get(i - 1).bestKey().rightColumn());
      }
      if (i < hops.size()) {
        columns.add(hops.get(i).bestKey().leftColumn());
      }
      for (int c = 0; c < Math.min(config.previewColumnsPerTable(), t.columns().size()); c++) {
        columns.add(t.columns().get(c).name());
      }
      for (String column : columns) {
        if (seen.add(t.name() + "\u0000" + column)) {
          shown.add(new String[] {t.name(), column});
        }
      }
    }
    StringBuilder select = new StringBuilder("SELECT ");
    List<String> names = new ArrayList<>();
    for (int i = 0; i < shown.size(); i++) {
      String[] tc = shown.get(i);
      String label = tc[0] + "." + tc[1];
      names.add(label);
      select.append(i == 0 ? "" : ", ").append(reference(graph.require(tc[0]))).append('.')
          .append(Sql.quoted(tc[1])).append(" AS ").append(Sql.quoted(label));
    }
    select.append(' ').append(from).append(" LIMIT ").append(config.previewRows());
    List<List<String>> rows = new ArrayList<>();
    try (Statement st = statement(connection); ResultSet rs = st.executeQuery(select.toString())) {
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int c = 1; c <= names.size(); c++) {
          Object value = rs.getObject(c);
          row.add(value == null ? null : value.toString());
        }
        rows.add(row);
      }
    }
    return new JoinPreview(names, rows);
  }
}
