package dev.lakerewrite.core.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.core.TableProfile;
import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.JoinRoute;
import dev.lakerewrite.core.rewrite.OfflinePlanner.Plan;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The offline rewriter's in-place rewrite keeps every scope: generated queries of every SQL shape (scalar, IN,
 * EXISTS and correlated subqueries, derived tables, CTEs, set operations, self-joins, one alias reused at several
 * depths, unqualified outer references) over a small assumed schema, rewritten with the gold plan onto a lake whose
 * tables and columns are renamed and, per case, split by columns (a join brings a column back) or by rows (a union
 * brings the rows back). Every query that binds on its assumed schema binds on the lake after the rewrite, and
 * returns the same rows (as a set) as the original on the same data.
 */
class ScopeAwareRewriteTest {

  /** The assumed schema: table → columns (name, type). */
  private static final Map<String, List<String[]>> ASSUMED = new LinkedHashMap<>();

  static {
    ASSUMED.put("person", List.of(new String[] {"id", "INTEGER"}, new String[] {"name", "VARCHAR"},
        new String[] {"age", "INTEGER"}, new String[] {"city_id", "INTEGER"}));
    ASSUMED.put("city", List.of(new String[] {"id", "INTEGER"}, new String[] {"name", "VARCHAR"},
        new String[] {"population", "INTEGER"}, new String[] {"country", "VARCHAR"}));
    ASSUMED.put("visit", List.of(new String[] {"id", "INTEGER"}, new String[] {"person_id", "INTEGER"},
        new String[] {"city_id", "INTEGER"}, new String[] {"year", "INTEGER"}));
  }

  /** Foreign keys: table.column → referenced table (its id). */
  private static final Map<String, String> KEYS = Map.of("person.city_id", "city", "visit.person_id", "person",
      "visit.city_id", "city");

  private static Connection db;

  @BeforeContainer
  static void open() throws SQLException {
    db = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = db.createStatement()) {
      s.execute("CREATE TABLE person (id INTEGER, name VARCHAR, age INTEGER, city_id INTEGER)");
      s.execute("CREATE TABLE city (id INTEGER, name VARCHAR, population INTEGER, country VARCHAR)");
      s.execute("CREATE TABLE visit (id INTEGER, person_id INTEGER, city_id INTEGER, year INTEGER)");
      s.execute("INSERT INTO city VALUES (1, 'Oslo', 700, 'NO'), (2, 'Bergen', 280, 'NO'), (3, 'Lund', 90, 'SE'),"
          + " (4, 'Malmo', 350, 'SE')");
      s.execute("INSERT INTO person VALUES (1, 'Ada', 36, 1), (2, 'Bo', 52, 2), (3, 'Cy', 19, 3), (4, 'Di', 36, 1),"
          + " (5, 'Ed', 70, 4), (6, 'Oslo', 44, 2)");
      s.execute("INSERT INTO visit VALUES (1, 1, 2, 2019), (2, 1, 3, 2020), (3, 2, 1, 2020), (4, 3, 3, 2021),"
          + " (5, 5, 1, 2019), (6, 6, 4, 2022), (7, 2, 2, 2021)");
    }
  }

  @AfterContainer
  static void close() throws SQLException {
    db.close();
  }

  // ----- the lake: renamed, split ----------------------------------------------------------------------------

  /** A lake made from the assumed schema in its own catalog of the same database, and the gold plan onto it. */
  private record Lake(String catalog, Plan plan, Map<String, CatalogTable> tables) {}

  private static int lakes;

  private static Lake lake(Random random) throws SQLException {
    String catalog = "lake" + (++lakes);
    Map<String, TableChoice> choices = new LinkedHashMap<>();
    Map<String, CatalogTable> tables = new LinkedHashMap<>();
    List<JoinRoute> extraJoins = new ArrayList<>();
    Map<String, List<Evidence.UnionPartner>> unions = new LinkedHashMap<>();
    boolean splitColumns = random.nextBoolean();
    boolean splitRows = random.nextBoolean();
    try (Statement s = db.createStatement()) {
      s.execute("ATTACH ':memory:' AS " + catalog);
      for (Map.Entry<String, List<String[]>> t : ASSUMED.entrySet()) {
        String lakeTable = renamed(t.getKey(), random);
        Map<String, String> columnNames = new LinkedHashMap<>();
        t.getValue().forEach(c -> columnNames.put(c[0], renamed(c[0], random)));
        Map<String, ColumnTarget> targets = new LinkedHashMap<>();
        List<String> select = new ArrayList<>();
        List<CatalogTable.Column> cols = new ArrayList<>();
        String moved = splitColumns && t.getKey().equals("person") ? "age" : null;
        for (String[] c : t.getValue()) {
          if (c[0].equals(moved)) {
            continue;
          }
          select.add(c[0] + " AS " + columnNames.get(c[0]));
          cols.add(new CatalogTable.Column(columnNames.get(c[0]), c[1]));
          targets.put(c[0], new ColumnTarget(lakeTable, columnNames.get(c[0]), 1, "gold", false));
        }
        String where = splitRows && t.getKey().equals("visit") ? " WHERE id % 2 = 0" : "";
        s.execute("CREATE TABLE " + catalog + "." + lakeTable + " AS SELECT " + String.join(", ", select)
            + " FROM memory." + t.getKey() + where);
        tables.put(lakeTable, new CatalogTable(lakeTable, cols, 0, Optional.empty()));
        if (moved != null) {
          // Split by columns: the moved column lives in a second table keyed by the first one's id.
          String side = lakeTable + "_ext";
          String key = "ref_" + columnNames.get("id");
          s.execute("CREATE TABLE " + catalog + "." + side + " AS SELECT id AS " + key + ", " + moved + " AS "
              + columnNames.get(moved) + " FROM memory." + t.getKey());
          tables.put(side, new CatalogTable(side, List.of(new CatalogTable.Column(key, "INTEGER"),
              new CatalogTable.Column(columnNames.get(moved), "INTEGER")), 0, Optional.empty()));
          targets.put(moved, new ColumnTarget(side, columnNames.get(moved), 1, "gold", false));
          extraJoins.add(new JoinRoute(t.getKey(), side, new Evidence.JoinPath(lakeTable, side, List.of(
              new Evidence.JoinStep(lakeTable, columnNames.get("id"), side, key, 1, 1)), 1, 1, null)));
        }
        if (!where.isEmpty()) {
          // Split by rows: the other rows live in a second table whose columns are named otherwise.
          String other = lakeTable + "_more";
          Map<String, String> partner = new LinkedHashMap<>();
          List<String> otherSelect = new ArrayList<>();
          List<CatalogTable.Column> otherCols = new ArrayList<>();
          for (String[] c : t.getValue()) {
            String name = columnNames.get(c[0]) + "_x";
            partner.put(columnNames.get(c[0]), name);
            otherSelect.add(c[0] + " AS " + name);
            otherCols.add(new CatalogTable.Column(name, c[1]));
          }
          s.execute("CREATE TABLE " + catalog + "." + other + " AS SELECT " + String.join(", ", otherSelect)
              + " FROM memory." + t.getKey() + " WHERE id % 2 = 1");
          tables.put(other, new CatalogTable(other, otherCols, 0, Optional.empty()));
          unions.put(lakeTable, List.of(new Evidence.UnionPartner(lakeTable, other, partner, 1)));
        }
        choices.put(t.getKey(), new TableChoice(t.getKey(), lakeTable, 1, targets, List.of(), null));
      }
    }
    Plan plan = new Plan(choices, Map.of(), Map.of(), extraJoins, Map.of(), unions, List.of(), 1, List.of(),
        java.util.Set.of());
    return new Lake(catalog, plan, tables);
  }

  private static String renamed(String name, Random random) {
    String[] styles = {"tbl_%s_%d", "%S_%d", "x%d_%s", "%s_v%d"};
    String style = styles[random.nextInt(styles.length)];
    int n = random.nextInt(90) + 10;
    return style.startsWith("x") ? String.format(style, n, name) : String.format(style, name, n).toLowerCase();
  }

  /** The lake as the rewrite sees it: its tables' catalogue (profiles are empty: nothing is text holding numbers). */
  private static LakeTools tools(Lake lake) {
    return (LakeTools) Proxy.newProxyInstance(LakeTools.class.getClassLoader(), new Class<?>[] {LakeTools.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "table" -> lake.tables().get((String) args[0]);
          case "profile" -> new TableProfile((String) args[0], 0, List.of());
          case "tableNames" -> List.copyOf(lake.tables().keySet());
          case "toString" -> lake.catalog();
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  private static String rewrite(String sql, Lake lake) {
    RewriteState state = new RewriteState(sql, Optional.of(SqlAnalyzer.analyzeStandalone(sql)), 1, 1, List.of(),
        new Scratchpad(Map.of()), List.of(), EnumSet.noneOf(ActionType.class), tools(lake), RewriterConfig.defaults(),
        List.of());
    return new OfflineRewriterAgent.Rewrite(state, lake.plan(), new Trees(SqlParser.standalone())).apply();
  }

  // ----- queries of every shape ------------------------------------------------------------------------------

  /** A FROM item in scope: its alias (or name) and assumed table. */
  private record Ref(String alias, String table) {}

  private static final String[] ALIASES = {"p", "c", "v", "t", "x", "a", "b"};

  /** Generates queries over the assumed schema; outer aliases are visible to subqueries (correlation). */
  private static final class Generator {
    final Random random;
    /** The shapes the generated query has (for the statistics jqwik reports). */
    final java.util.Set<String> shapes = new java.util.TreeSet<>();
    int derived;

    Generator(Random random) {
      this.random = random;
    }

    String table() {
      List<String> names = new ArrayList<>(ASSUMED.keySet());
      return names.get(random.nextInt(names.size()));
    }

    String column(String table) {
      List<String[]> cols = ASSUMED.get(table);
      return cols.get(random.nextInt(cols.size()))[0];
    }

    String numeric(String table) {
      List<String[]> cols = ASSUMED.get(table).stream().filter(c -> c[1].equals("INTEGER")).toList();
      return cols.get(random.nextInt(cols.size()))[0];
    }

    /** A top-level query of a random shape. */
    String query() {
      return switch (random.nextInt(4)) {
        case 0 -> {
          shapes.add("cte");
          yield cte();
        }
        case 1 -> {
          shapes.add("set-operation");
          yield block(1, List.of()) + (random.nextBoolean() ? " UNION " : " EXCEPT ") + block(1, List.of());
        }
        case 2 -> {
          shapes.add("derived-table");
          yield derivedTable(List.of());
        }
        default -> block(0, List.of());
      };
    }

    String cte() {
      String table = table();
      String col = column(table);
      String body = "SELECT " + col + " AS k, count(*) AS n FROM " + table + " GROUP BY " + col;
      String alias = ALIASES[random.nextInt(ALIASES.length)];
      String join = table();
      if (random.nextBoolean()) {
        return "WITH w AS (" + body + ") SELECT w.k, w.n FROM w WHERE w.n > 0 ORDER BY w.k";
      }
      return "WITH w AS (" + body + ") SELECT " + alias + "." + column(join) + ", w.n FROM w JOIN " + join + " "
          + alias + " ON " + alias + ".id = w.n" + (random.nextBoolean() ? " WHERE " + predicate(1,
          List.of(new Ref(alias, join))) : "");
    }

    String derivedTable(List<Ref> outer) {
      String table = table();
      String alias = ALIASES[random.nextInt(ALIASES.length)];
      String col = column(table);
      String inner = "SELECT " + alias + "." + col + " AS o1, " + alias + ".id AS o2 FROM " + table + " " + alias
          + (random.nextBoolean() ? " WHERE " + predicate(2, List.of(new Ref(alias, table))) : "");
      String d = "d" + (++derived);
      return "SELECT " + d + ".o1, count(*) AS n FROM (" + inner + ") AS " + d + " GROUP BY " + d + ".o1";
    }

    /** One SELECT block with its own FROM; {@code outer} are the enclosing blocks' references. */
    String block(int depth, List<Ref> outer) {
      List<Ref> own = new ArrayList<>();
      String first = table();
      String a1 = random.nextInt(4) == 0 ? first : ALIASES[random.nextInt(ALIASES.length)];
      own.add(new Ref(a1, first));
      StringBuilder from = new StringBuilder(first + (a1.equals(first) ? "" : " " + a1));
      if (random.nextInt(3) == 0) {
        // A join along a key, or a self-join on id.
        String second;
        String on;
        String a2 = ALIASES[random.nextInt(ALIASES.length)];
        if (a2.equals(a1)) {
          a2 = a1 + "2";
        }
        List<String> fks = KEYS.keySet().stream().filter(k -> k.startsWith(first + ".")).sorted().toList();
        if (!fks.isEmpty() && random.nextBoolean()) {
          String fk = fks.get(random.nextInt(fks.size()));
          second = KEYS.get(fk);
          on = a1 + "." + fk.substring(fk.indexOf('.') + 1) + " = " + a2 + ".id";
        } else {
          second = first;
          shapes.add("self-join");
          on = a1 + ".id " + (random.nextBoolean() ? "=" : "<") + " " + a2 + ".id";
        }
        own.add(new Ref(a2, second));
        shapes.add("join");
        from.append(random.nextBoolean() ? " JOIN " : " LEFT JOIN ").append(second).append(' ').append(a2)
            .append(" ON ").append(on);
      }
      List<Ref> visible = new ArrayList<>(own);
      visible.addAll(outer);
      List<String> items = new ArrayList<>();
      int n = 1 + random.nextInt(2);
      boolean aggregate = depth == 0 && random.nextInt(4) == 0;
      for (int i = 0; i < n; i++) {
        Ref r = own.get(random.nextInt(own.size()));
        items.add(aggregate ? "max(" + r.alias() + "." + column(r.table()) + ") AS m" + i
            : reference(r, own) + (depth > 0 ? "" : " AS " + "o" + i));
      }
      if (depth == 0 && !aggregate && random.nextInt(4) == 0) {
        Ref r = own.get(0);
        String col = numeric(r.table());
        shapes.add("correlated-subquery");
        items.add("(SELECT max(s." + col + ") FROM " + r.table() + " s WHERE s.id <> " + r.alias() + ".id) AS sc");
      }
      String where = random.nextInt(5) == 0 ? "" : " WHERE " + predicate(depth, visible);
      String order = depth == 0 && !aggregate && random.nextBoolean() ? " ORDER BY 1" : "";
      if (depth > 0) {
        items = List.of(own.get(0).alias() + ".id"); // compared with an id by IN, or a branch of a set operation
      }
      return "SELECT " + (depth > 0 ? "" : "DISTINCT ") + String.join(", ", items) + " FROM " + from + where + order;
    }

    /** {@code alias.column}, or the bare column when no other FROM item of the block has a column of that name. */
    String reference(Ref r, List<Ref> block) {
      String col = column(r.table());
      boolean unique = block.stream().filter(o -> ASSUMED.get(o.table()).stream().anyMatch(c -> c[0].equals(col)))
          .count() == 1;
      return unique && random.nextInt(3) == 0 ? col : r.alias() + "." + col;
    }

    /** A WHERE predicate: a literal filter, IN / EXISTS / scalar subqueries, correlated or not. */
    String predicate(int depth, List<Ref> visible) {
      Ref r = visible.get(random.nextInt(visible.size()));
      int choice = depth >= 2 ? 0 : random.nextInt(5);
      switch (choice) {
        case 1: {
          // IN subquery over a key.
          shapes.add("in-subquery");
          String inner = table();
          String key = inner.equals("visit") ? (random.nextBoolean() ? "person_id" : "city_id") : "id";
          String target = key.equals("person_id") ? "person" : key.equals("city_id") ? "city" : inner;
          List<String> candidates = KEYS.entrySet().stream().filter(e -> e.getValue().equals(target)
              && e.getKey().startsWith(r.table() + ".")).map(e -> e.getKey().substring(e.getKey().indexOf('.') + 1))
              .toList();
          String outerCol = r.table().equals(target) ? "id" : candidates.isEmpty() ? "id" : candidates.get(0);
          String ia = ALIASES[random.nextInt(ALIASES.length)];
          return r.alias() + "." + outerCol + (random.nextBoolean() ? " IN " : " NOT IN ") + "(SELECT " + ia + "."
              + key + " FROM " + inner + " " + ia + " WHERE " + predicate(depth + 1, List.of(new Ref(ia, inner))) + ")";
        }
        case 2: {
          // EXISTS, correlated with the enclosing block (possibly reusing its alias name for the inner table).
          shapes.add("exists-subquery");
          shapes.add("correlated-subquery");
          String inner = table();
          String ia = ALIASES[random.nextInt(ALIASES.length)];
          if (ia.equals(r.alias())) {
            ia = ia + "i";
          }
          List<Ref> innerVisible = new ArrayList<>();
          innerVisible.add(new Ref(ia, inner));
          innerVisible.add(r);
          String corr = ia + ".id " + (random.nextBoolean() ? "=" : "<>") + " " + r.alias() + ".id";
          String more = random.nextBoolean() ? " AND " + predicate(depth + 1, innerVisible) : "";
          return (random.nextBoolean() ? "" : "NOT ") + "EXISTS (" + "SELECT 1 FROM " + inner + " " + ia + " WHERE "
              + corr + more + ")";
        }
        case 3: {
          // A correlated scalar subquery, the same alias reused inside (shadowing) when it happens to.
          shapes.add("scalar-subquery");
          String col = numeric(r.table());
          String ia = ALIASES[random.nextInt(ALIASES.length)];
          boolean unqualifiedOuter = !ia.equals(r.alias()) && ASSUMED.get(r.table()).stream()
              .anyMatch(c -> c[0].equals("age")) && random.nextBoolean();
          String corr = ia.equals(r.alias()) ? ia + ".id > 0"
              : unqualifiedOuter && !r.table().equals("person") ? ia + ".id > 0"
              : ia + "." + "id" + " <> " + r.alias() + ".id";
          return r.alias() + "." + col + " >= (SELECT " + (random.nextBoolean() ? "avg" : "min") + "(" + ia + "." + col
              + ") FROM " + r.table() + " " + ia + " WHERE " + corr + ")";
        }
        case 4: {
          // A block nested inside an IN with the enclosing references visible (depth).
          shapes.add("nested-block");
          // Outer references whose alias an inner FROM item could shadow are left out: DuckDB then falls back to
          // the outer table for columns the inner one lacks, which no rewrite can know without the full schema.
          List<Ref> unshadowed = visible.stream().filter(v -> java.util.Arrays.stream(ALIASES)
              .noneMatch(a -> a.equals(v.alias()))).toList();
          return r.alias() + ".id IN (" + block(depth + 1, unshadowed) + ")";
        }
        default: {
          String[] col = ASSUMED.get(r.table()).get(random.nextInt(ASSUMED.get(r.table()).size()));
          if (col[1].equals("VARCHAR")) {
            return r.alias() + "." + col[0] + (random.nextBoolean() ? " <> 'Oslo'" : " LIKE '%o%'");
          }
          return r.alias() + "." + col[0] + (random.nextBoolean() ? " > 2" : " BETWEEN 1 AND 3000");
        }
      }
    }
  }

  // ----- properties ------------------------------------------------------------------------------------------

  @Property(tries = 400, maxDiscardRatio = 3)
  void aQueryThatBindsOnItsAssumedSchemaBindsOnTheLakeAndKeepsItsRows(@ForAll Random random) throws SQLException {
    Generator generator = new Generator(random);
    String sql = generator.query();
    generator.shapes.forEach(shape -> Statistics.label("shape").collect(shape));
    List<String> expected = rows(sql, "memory");
    Assume.that(expected != null);
    Lake lake = lake(random);
    try {
      String rewritten = rewrite(sql, lake);
      List<String> actual = rows(rewritten, lake.catalog());
      assertThat(actual).as("%s%n  became%n%s%n  on %s", sql, rewritten, lake.tables().keySet()).isNotNull();
      assertThat(actual).as("%s%n  became%n%s", sql, rewritten).isEqualTo(expected);
    } finally {
      detach(lake);
    }
  }

  @Example
  void correlatedExistsAndScalarSubqueriesReadTheOuterBlocksMapping() throws SQLException {
    Lake lake = lake(new Random(7));
    try {
      for (String sql : List.of(
          "SELECT p.name FROM person p WHERE EXISTS (SELECT 1 FROM visit v WHERE v.person_id = p.id AND v.year > 2019)",
          "SELECT p.name FROM person p WHERE p.age >= (SELECT avg(q.age) FROM person q WHERE q.city_id = p.city_id)",
          "SELECT name FROM person WHERE city_id IN (SELECT id FROM city WHERE country = 'NO' AND population > age)",
          "SELECT p.name FROM person p WHERE EXISTS (SELECT 1 FROM city p2 WHERE p2.id = p.city_id AND EXISTS "
              + "(SELECT 1 FROM visit p WHERE p.person_id = p2.id))",
          "WITH w AS (SELECT city_id, count(*) AS n FROM visit GROUP BY city_id) SELECT c.name, w.n FROM w JOIN city c"
              + " ON c.id = w.city_id",
          "SELECT d.k FROM (SELECT c.name AS k FROM city c WHERE c.population > 100) d ORDER BY d.k",
          "SELECT a.name, b.name FROM person a JOIN person b ON a.age = b.age AND a.id < b.id",
          "SELECT a.name, b.name AS other FROM person a JOIN person b ON a.city_id = b.city_id AND a.name <> b.name "
              + "WHERE a.age * 2 > 40",
          "SELECT name FROM city UNION SELECT name FROM person ORDER BY 1")) {
        assertSameRowsOnTheLake(sql, lake);
      }
    } finally {
      detach(lake);
    }
  }

  @Example
  void aDerivedTablesColumnNamedAsALakeColumnOfATableBesideItIsReadThroughItsAlias() throws SQLException {
    Lake lake = lake(new Random(5));
    try {
      // The derived table's date_sk is unambiguous on the assumed schema; once city is its lake table, a column of
      // that name sits beside it (TPC-DS q5: the sales-and-returns union's date_sk beside the dates' DATE_SK).
      String lakeKey = lake.plan().tables().get("city").columns().get("id").lakeColumn();
      for (String derived : List.of("SELECT v.city_id AS " + lakeKey + " FROM visit v",
          "SELECT v.city_id AS " + lakeKey + " FROM visit v UNION ALL SELECT p.city_id FROM person p",
          // The derived table's own body reads a CTE's column of that name: it is the CTE's, not the outer block's.
          "WITH w AS (SELECT city_id AS " + lakeKey + " FROM visit) SELECT " + lakeKey + " FROM w")) {
        String sql = "SELECT c.name, d." + lakeKey + " FROM (" + derived + ") AS d, city c WHERE " + lakeKey
            + " = c.id ORDER BY 1, 2";
        assertSameRowsOnTheLake(sql, lake);
      }
    } finally {
      detach(lake);
    }
  }

  @Example
  void aCorrelatedLinkTakesTheJoinGraphsKeysWhenTheAssumedKeysMapNowhere() throws SQLException {
    Lake lake = lake(new Random(11));
    try {
      // The plan found no lake column for visit.person_id and person.id: the join graph's keys replace them.
      TableChoice visit = lake.plan().tables().get("visit");
      TableChoice person = lake.plan().tables().get("person");
      ColumnTarget fk = visit.columns().get("person_id");
      ColumnTarget pk = person.columns().get("id");
      Map<String, TableChoice> tables = new LinkedHashMap<>(lake.plan().tables());
      tables.put("visit", without(visit, "person_id"));
      tables.put("person", without(person, "id"));
      Evidence.JoinPath path = new Evidence.JoinPath(visit.lake(), person.lake(), List.of(new Evidence.JoinStep(
          visit.lake(), fk.lakeColumn(), person.lake(), pk.lakeColumn(), 1, 1)), 1, 1, null);
      Plan p = lake.plan();
      Plan plan = new Plan(tables, p.literalFixes(), Map.of(OfflinePlanner.joinKey("visit", "person"), path),
          p.extraJoins(), p.cleaned(), p.unions(), p.wanted(), p.confidence(), p.notes(), p.keyedFilters());
      Lake fixed = new Lake(lake.catalog(), plan, lake.tables());
      String sql = "SELECT p.name FROM person p WHERE EXISTS (SELECT 1 FROM visit v WHERE v.person_id = p.id "
          + "AND v.year > 2019)";
      String rewritten = rewrite(sql, fixed);
      assertThat(rewritten).contains(fk.lakeColumn()).contains(pk.lakeColumn());
      assertThat(rows(rewritten, lake.catalog())).as(rewritten).isEqualTo(rows(sql, "memory"));
    } finally {
      detach(lake);
    }
  }

  @Example
  void aLookupJoinedOffAPartSplitByColumnsJoinsAfterThePartAndReadsItsAlias() throws SQLException {
    Lake lake = null;
    for (int seed = 1; lake == null; seed++) {
      Lake candidate = lake(new Random(seed));
      if (candidate.plan().extraJoins().isEmpty()) {
        detach(candidate);
      } else {
        lake = candidate;
      }
    }
    try {
      // person's age lives in a part split off by columns; here it is read as the label of a code the part holds
      // (each age its own code), and the plan lists the label's join before the part's.
      JoinRoute part = lake.plan().extraJoins().get(0);
      TableChoice person = lake.plan().tables().get("person");
      ColumnTarget age = person.columns().get("age");
      try (Statement s = db.createStatement()) {
        s.execute("CREATE TABLE " + lake.catalog() + ".age_band AS SELECT DISTINCT age AS code, age AS years "
            + "FROM memory.person");
      }
      Map<String, CatalogTable> tables = new LinkedHashMap<>(lake.tables());
      tables.put("age_band", new CatalogTable("age_band", List.of(new CatalogTable.Column("code", "INTEGER"),
          new CatalogTable.Column("years", "INTEGER")), 0, Optional.empty()));
      JoinRoute label = new JoinRoute("person", "age_band", new Evidence.JoinPath(part.toLake(), "age_band",
          List.of(new Evidence.JoinStep(part.toLake(), age.lakeColumn(), "age_band", "code", 1, 1)), 1, 1, null));
      Map<String, ColumnTarget> columns = new LinkedHashMap<>(person.columns());
      columns.put("age", new ColumnTarget("age_band", "years", 1, "label of the code", false));
      Map<String, TableChoice> choices = new LinkedHashMap<>(lake.plan().tables());
      choices.put("person", new TableChoice("person", person.lake(), 1, columns, List.of(), null));
      Plan p = lake.plan();
      Plan plan = new Plan(choices, p.literalFixes(), p.joinFixes(), List.of(label, part), p.cleaned(), p.unions(),
          p.wanted(), p.confidence(), p.notes(), p.keyedFilters());
      Lake withLabels = new Lake(lake.catalog(), plan, tables);
      for (String sql : List.of("SELECT p.name, p.age FROM person p WHERE p.age > 30",
          "SELECT c.name, avg(p.age) FROM person p JOIN city c ON c.id = p.city_id GROUP BY c.name")) {
        String rewritten = rewrite(sql, withLabels);
        assertThat(rows(rewritten, lake.catalog())).as("%s%n  became%n%s", sql, rewritten)
            .isEqualTo(rows(sql, "memory"));
      }
    } finally {
      detach(lake);
    }
  }

  @Example
  void aJoinWrittenInWhereGoesThroughThePartSplitOffByColumnsThatHoldsItsKey() throws SQLException {
    Lake lake = null;
    for (int seed = 1; lake == null; seed++) {
      Lake candidate = lake(new Random(seed));
      Plan p = candidate.plan();
      if (p.extraJoins().isEmpty() && p.unions().isEmpty()
          && p.tables().get("person").columns().get("id").lakeTable().equals(p.tables().get("person").lake())) {
        lake = candidate;
      } else {
        detach(candidate);
      }
    }
    try {
      // person's city_id lives only in a part split off by columns, which the plan joins to person; the join graph's
      // path to city goes through that part, so the WHERE equality becomes the part's key = city's key.
      TableChoice person = lake.plan().tables().get("person");
      TableChoice city = lake.plan().tables().get("city");
      String personKey = person.columns().get("id").lakeColumn();
      String cityKey = city.columns().get("id").lakeColumn();
      try (Statement s = db.createStatement()) {
        s.execute("CREATE TABLE " + lake.catalog() + ".person_home AS SELECT id AS pid, city_id AS town "
            + "FROM memory.person");
      }
      Map<String, CatalogTable> tables = new LinkedHashMap<>(lake.tables());
      tables.put("person_home", new CatalogTable("person_home", List.of(new CatalogTable.Column("pid", "INTEGER"),
          new CatalogTable.Column("town", "INTEGER")), 0, Optional.empty()));
      Evidence.JoinStep toPart = new Evidence.JoinStep(person.lake(), personKey, "person_home", "pid", 1, 1);
      JoinRoute part = new JoinRoute("person", "person_home",
          new Evidence.JoinPath(person.lake(), "person_home", List.of(toPart), 1, 1, null));
      Evidence.JoinPath throughPart = new Evidence.JoinPath(person.lake(), city.lake(), List.of(toPart,
          new Evidence.JoinStep("person_home", "town", city.lake(), cityKey, 1, 1)), 1, 1, null);
      Map<String, TableChoice> choices = new LinkedHashMap<>(lake.plan().tables());
      choices.put("person", without(person, "city_id"));
      Plan p = lake.plan();
      Plan plan = new Plan(choices, p.literalFixes(), Map.of(OfflinePlanner.joinKey("person", "city"), throughPart),
          List.of(part), p.cleaned(), p.unions(), p.wanted(), p.confidence(), p.notes(), p.keyedFilters());
      Lake withPart = new Lake(lake.catalog(), plan, tables);
      String sql = "SELECT p.name, c.name FROM person p, city c WHERE p.city_id = c.id AND c.population > 100";
      String rewritten = rewrite(sql, withPart);
      assertThat(rewritten).contains("town");
      assertThat(rows(rewritten, lake.catalog())).as(rewritten).isEqualTo(rows(sql, "memory"));
    } finally {
      detach(lake);
    }
  }

  @Example
  void digitsTheQueryCutsAsTextAreReadAsTextWhereTheLakeKeepsThemAsNumbers() throws SQLException {
    Lake lake = lake(new Random(3));
    try {
      try (Statement s = db.createStatement()) {
        s.execute("CREATE TABLE IF NOT EXISTS memory.zip_code AS SELECT id, CAST(id * 11111 AS VARCHAR) AS zip "
            + "FROM memory.city");
        s.execute("CREATE TABLE " + lake.catalog() + ".zips AS SELECT id AS zid, CAST(id * 11111 AS BIGINT) AS zcode "
            + "FROM memory.city");
      }
      Map<String, CatalogTable> tables = new LinkedHashMap<>(lake.tables());
      tables.put("zips", new CatalogTable("zips", List.of(new CatalogTable.Column("zid", "INTEGER"),
          new CatalogTable.Column("zcode", "BIGINT")), 0, Optional.empty()));
      Map<String, TableChoice> choices = new LinkedHashMap<>(lake.plan().tables());
      choices.put("zip_code", new TableChoice("zip_code", "zips", 1, Map.of(
          "id", new ColumnTarget("zips", "zid", 1, "gold", false),
          "zip", new ColumnTarget("zips", "zcode", 1, "gold", false)), List.of(), null));
      Plan p = lake.plan();
      Lake withZips = new Lake(lake.catalog(), new Plan(choices, p.literalFixes(), p.joinFixes(), p.extraJoins(),
          p.cleaned(), p.unions(), p.wanted(), p.confidence(), p.notes(), p.keyedFilters()), tables);
      String sql = "SELECT zip FROM zip_code WHERE substr(zip, 1, 2) IN ('11', '22', '33')";
      String rewritten = rewrite(sql, withZips);
      assertThat(rows(sql, "memory")).hasSize(3);
      assertThat(rows(rewritten, lake.catalog())).as(rewritten).isEqualTo(rows(sql, "memory"));
    } finally {
      detach(lake);
    }
  }

  private static TableChoice without(TableChoice t, String column) {
    Map<String, ColumnTarget> columns = new LinkedHashMap<>(t.columns());
    columns.remove(column);
    return new TableChoice(t.assumed(), t.lake(), t.score(), columns, List.of(column), t.mergedInto());
  }

  /** The distinct rows of a query run in a catalog, sorted as text; null when it does not bind or run. */
  /** The query binds on the assumed schema, and its rewrite returns the same rows on the lake. */
  private static void assertSameRowsOnTheLake(String sql, Lake lake) throws SQLException {
    List<String> expected = rows(sql, "memory");
    assertThat(expected).as(sql).isNotNull();
    String rewritten = rewrite(sql, lake);
    assertThat(rows(rewritten, lake.catalog())).as("%s%n  became%n%s", sql, rewritten).isEqualTo(expected);
  }

  private static List<String> rows(String sql, String catalog) throws SQLException {
    use(catalog);
    try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      TreeMap<String, Boolean> out = new TreeMap<>();
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          row.append(v instanceof Number num ? String.valueOf(num.doubleValue()) : String.valueOf(v)).append('|');
        }
        out.put(row.toString(), true);
      }
      return new ArrayList<>(out.keySet());
    } catch (SQLException e) {
      return null;
    } finally {
      use("memory");
    }
  }

  /** Back in the assumed schema's catalog, the lake's catalog detached. */
  private static void detach(Lake lake) throws SQLException {
    use("memory");
    try (Statement s = db.createStatement()) {
      s.execute("DETACH " + lake.catalog());
    }
  }

  private static void use(String catalog) throws SQLException {
    try (Statement s = db.createStatement()) {
      s.execute("USE " + catalog);
    }
  }
}
