package dev.lakerewrite.core.match;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;

/**
 * The guarantee the view rewrite rests on: a query that binds on its assumed schema binds on tables that hold only
 * the columns {@link AssumedSchema} read from it (each unqualified column that several tables could hold placed on
 * the one that has it), for generated queries of every shape — scalar, {@code IN}, {@code EXISTS} and correlated
 * subqueries, derived tables, CTEs, set operations, self-joins, one alias reused at several depths, select-list
 * aliases in ORDER BY, GROUP BY and HAVING, columns named like keywords.
 */
class AssumedSchemaBindingTest {

  /** The full assumed schema: table → column → type. */
  private static final Map<String, Map<String, String>> SCHEMA = new LinkedHashMap<>();

  static {
    SCHEMA.put("shows", cols("show_id INTEGER", "title VARCHAR", "\"show\" VARCHAR", "year INTEGER", "rating DOUBLE",
        "network_id INTEGER"));
    SCHEMA.put("networks", cols("network_id INTEGER", "name VARCHAR", "country VARCHAR", "founded INTEGER"));
    SCHEMA.put("episodes", cols("episode_id INTEGER", "show_id INTEGER", "\"character\" VARCHAR", "minutes INTEGER",
        "aired DATE"));
  }

  private static Map<String, String> cols(String... defs) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String d : defs) {
      int space = d.lastIndexOf(' ');
      out.put(d.substring(0, space).replace("\"", ""), d.substring(space + 1));
    }
    return out;
  }

  private final Trees trees = new Trees(SqlParser.standalone());
  private Connection full;

  private Connection full() throws SQLException {
    if (full == null) {
      full = DriverManager.getConnection("jdbc:duckdb:");
      create(full, SCHEMA);
    }
    return full;
  }

  @AfterProperty
  void close() throws SQLException {
    if (full != null) {
      full.close();
      full = null;
    }
  }

  private static void create(Connection c, Map<String, Map<String, String>> schema) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (Map.Entry<String, Map<String, String>> t : schema.entrySet()) {
        List<String> defs = new ArrayList<>();
        t.getValue().forEach((n, type) -> defs.add(Sql.identifier(n) + " " + type));
        if (defs.isEmpty()) {
          defs.add("lakerewrite_row INTEGER");
        }
        s.execute("CREATE TABLE " + Sql.identifier(t.getKey()) + " (" + String.join(", ", defs) + ")");
      }
    }
  }

  /** The DuckDB binder's complaint about {@code sql} on {@code c}, or null when it binds. */
  private static String bindError(Connection c, String sql) {
    try (var p = c.prepareStatement(sql)) {
      return null;
    } catch (SQLException e) {
      return e.getMessage();
    }
  }

  @Property(tries = 150)
  void aQueryThatBindsOnItsAssumedSchemaBindsOnTheColumnsReadFromIt(@ForAll("queries") String sql)
      throws SQLException {
    Assume.that(bindError(full(), sql) == null);
    AssumedSchema schema = AssumedSchema.of(trees.statement(sql));
    Map<String, Map<String, String>> reduced = new LinkedHashMap<>();
    for (AssumedSchema.Table t : schema.tables().values()) {
      Map<String, String> columns = new LinkedHashMap<>();
      Map<String, String> types = SCHEMA.get(t.name().toLowerCase(Locale.ROOT));
      assertThat(types).as("an assumed table the query names: %s", t.name()).isNotNull();
      for (AssumedSchema.Column c : t.columns().values()) {
        String type = types.get(c.name().toLowerCase(Locale.ROOT));
        if (type != null) {
          columns.put(c.name().toLowerCase(Locale.ROOT), type);
        }
      }
      reduced.put(t.name().toLowerCase(Locale.ROOT), columns);
    }
    // An unqualified column several tables could hold goes to the one that has it (the matcher's job on a lake).
    for (AssumedSchema.Ambiguous a : schema.ambiguous()) {
      String column = a.column().toLowerCase(Locale.ROOT);
      List<String> holders = a.candidates().stream().map(x -> x.toLowerCase(Locale.ROOT))
          .filter(x -> SCHEMA.get(x).containsKey(column)).toList();
      for (String candidate : a.candidates()) {
        reduced.get(candidate.toLowerCase(Locale.ROOT)).remove(column);
      }
      if (holders.size() == 1) {
        reduced.get(holders.get(0)).put(column, SCHEMA.get(holders.get(0)).get(column));
      }
    }
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
      create(c, reduced);
      assertThat(bindError(c, sql)).as("%s%non the columns read: %s", sql, reduced).isNull();
    }
  }

  // ----- the generator ------------------------------------------------------------------------------------------

  private static String q(String column) {
    return Sql.identifier(column);
  }

  private static Arbitrary<String> columnOf(String table) {
    return Arbitraries.of(new ArrayList<>(SCHEMA.get(table).keySet())).map(AssumedSchemaBindingTest::q);
  }

  private static Arbitrary<String> numericOf(String table) {
    List<String> n = SCHEMA.get(table).entrySet().stream()
        .filter(e -> e.getValue().equals("INTEGER") || e.getValue().equals("DOUBLE")).map(Map.Entry::getKey).toList();
    return Arbitraries.of(n).map(AssumedSchemaBindingTest::q);
  }

  @Provide
  Arbitrary<String> queries() {
    Arbitrary<String> alias = Arbitraries.of("s", "n", "e", "t", "x");
    return Arbitraries.oneOf(
        // qualified select with a filter
        Combinators.combine(columnOf("shows"), columnOf("shows"), numericOf("shows"), alias)
            .as((a, b, n, al) -> "SELECT " + al + "." + a + ", " + al + "." + b + " FROM shows " + al + " WHERE "
                + al + "." + n + " > 5 ORDER BY 1"),
        // unqualified columns of a join: some ambiguous (network_id), some not
        Combinators.combine(columnOf("networks"), numericOf("shows"))
            .as((a, n) -> "SELECT title, " + a.replace("network_id", "networks.network_id") + " FROM shows JOIN "
                + "networks USING (network_id) WHERE " + n.replace("network_id", "shows.network_id") + " >= 1"),
        // IN subquery
        Combinators.combine(columnOf("shows"), numericOf("episodes"))
            .as((a, n) -> "SELECT " + a + " FROM shows WHERE show_id IN (SELECT show_id FROM episodes WHERE " + n
                + " > 20)"),
        // scalar correlated subquery
        Combinators.combine(columnOf("shows"), numericOf("episodes"))
            .as((a, n) -> "SELECT so." + a + ", (SELECT max(e." + n + ") FROM episodes e WHERE e.show_id = so.show_id)"
                + " AS m FROM shows so"),
        // one alias at two depths: the inner one shadows the outer
        Combinators.combine(columnOf("shows"), numericOf("shows"), alias)
            .as((a, n, al) -> "SELECT " + al + "." + a + " FROM shows " + al + " WHERE " + al + "." + n
                + " > (SELECT avg(" + al + "." + n + ") FROM shows " + al + ")"),
        // EXISTS, correlated through the outer alias
        Combinators.combine(columnOf("networks"), numericOf("shows"))
            .as((a, n) -> "SELECT n." + a + " FROM networks n WHERE EXISTS (SELECT 1 FROM shows s WHERE s.network_id"
                + " = n.network_id AND s." + n + " > 2)"),
        // NOT EXISTS with an unqualified correlated column of the outer block
        columnOf("episodes").map(a -> "SELECT " + a + " FROM episodes WHERE NOT EXISTS (SELECT 1 FROM shows WHERE "
            + "shows.show_id = episodes.show_id AND rating > 9)"),
        // derived table with its own aliases
        Combinators.combine(columnOf("shows"), numericOf("shows"))
            .as((a, n) -> "SELECT d.c, d.v FROM (SELECT " + a + " AS c, " + n + " AS v FROM shows) d WHERE d.v > 1"),
        // CTE read twice, joined with a base table
        Combinators.combine(columnOf("networks"), columnOf("shows"))
            .as((a, b) -> "WITH w AS (SELECT network_id AS k, " + a + " AS c FROM networks) SELECT w1.c, s." + b
                + " FROM w w1 JOIN shows s ON s.network_id = w1.k JOIN w w2 ON w2.k = w1.k"),
        // set operation
        Combinators.combine(columnOf("shows"), columnOf("networks"))
            .as((a, b) -> "SELECT CAST(" + a + " AS VARCHAR) AS v FROM shows UNION SELECT CAST(" + b
                + " AS VARCHAR) FROM networks EXCEPT SELECT \"character\" FROM episodes"),
        // self-join with repeated aliases of one table
        Combinators.combine(columnOf("shows"), columnOf("shows"))
            .as((a, b) -> "SELECT s1." + a + ", s2." + b + " FROM shows s1 JOIN shows s2 ON s1.network_id = "
                + "s2.network_id AND s1.show_id < s2.show_id"),
        // group by, having, order by a select alias; keyword-named columns
        numericOf("episodes").map(n -> "SELECT \"character\", count(*) AS k, sum(" + n + ") AS total FROM episodes "
            + "GROUP BY \"character\" HAVING sum(" + n + ") > 10 ORDER BY total DESC"),
        columnOf("shows").map(a -> "SELECT \"show\", " + a + " FROM shows WHERE \"show\" = 'Lost' AND year = (SELECT "
            + "max(year) FROM shows)"),
        // a subquery in FROM that correlates laterally is not SQL-92: nested IN of IN instead
        columnOf("networks").map(a -> "SELECT " + a + " FROM networks WHERE network_id IN (SELECT network_id FROM "
            + "shows WHERE show_id IN (SELECT show_id FROM episodes WHERE aired > DATE '2020-01-01'))"));
  }
}
