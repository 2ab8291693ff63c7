package dev.lakerewrite.core.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.SqlParser;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** User queries with other dialects' habits parse after normalisation, and say what changed. */
class DialectNormalizerTest {
  private static final SqlParser PARSER = SqlParser.standalone();

  private static DialectNormalizer.Normalized normalize(String sql) {
    return DialectNormalizer.normalize(sql, PARSER);
  }

  @Test
  void keywordsUsedAsColumnNamesAreQuoted() {
    DialectNormalizer.Normalized n = normalize("SELECT show, title FROM tv WHERE show = 'Lost' ORDER BY show");
    assertThat(n.sql()).isEqualTo("SELECT \"show\", title FROM tv WHERE \"show\" = 'Lost' ORDER BY \"show\"");
    assertThat(n.changes()).contains("quoted the keyword show used as a name");
  }

  @Test
  void backticksBracketsAndMySqlLimitsAreRewritten() {
    DialectNormalizer.Normalized n = normalize("SELECT `first name`, [last name] FROM `people` LIMIT 5, 10");
    assertThat(n.sql()).isEqualTo("SELECT \"first name\", \"last name\" FROM \"people\" LIMIT 10 OFFSET 5");
    assertThat(n.changes()).containsExactly("`name` identifiers written as \"name\"",
        "[name] identifiers written as \"name\"", "LIMIT 5, 10 written as LIMIT 10 OFFSET 5");
  }

  @Test
  void aQueryThatParsesIsNeverTouchedNorAreLiterals() {
    for (String sql : new String[] {"SELECT [1, 2][1] AS x", "SELECT 'LIMIT 1, 2 `x` [y]' AS s FROM t",
        "SELECT \"show\" FROM t LIMIT 3"}) {
      assertThat(normalize(sql).sql()).isEqualTo(sql);
      assertThat(normalize(sql).changes()).isEmpty();
    }
    // Normalised (show stops the parser), but not inside the literal.
    assertThat(normalize("SELECT [a], show FROM t WHERE b = 'x `y` [z] LIMIT 1, 2'").sql())
        .isEqualTo("SELECT \"a\", \"show\" FROM t WHERE b = 'x `y` [z] LIMIT 1, 2'");
  }

  @Test
  void aColumnSelectedBesideAggregatesWithoutBeingGroupedIsReadAsAnyValue() throws Exception {
    DialectNormalizer.Normalized n = normalize("SELECT country, name, max(score) FROM players GROUP BY country");
    assertThat(n.sql()).isEqualTo("SELECT country, any_value(name) AS name, max(score) FROM players"
        + " GROUP BY country");
    assertThat(n.changes()).containsExactly("selected beside aggregates without being grouped, as SQLite and MySQL"
        + " allow: name read as any_value(...)");
    // No GROUP BY at all, a grouped alias, a qualified column with its own alias, and a nested block.
    assertThat(normalize("SELECT name, count(*) FROM players").sql())
        .isEqualTo("SELECT any_value(name) AS name, count(*) FROM players");
    assertThat(normalize("SELECT p.country AS c, p.team t, count(*) FROM players p GROUP BY c").sql())
        .isEqualTo("SELECT p.country AS c, any_value(p.team) t, count(*) FROM players p GROUP BY c");
    assertThat(normalize("SELECT * FROM (SELECT team, country, avg(score) a FROM players GROUP BY team) s").sql())
        .isEqualTo("SELECT * FROM (SELECT team, any_value(country) AS country, avg(score) a FROM players"
            + " GROUP BY team) s");
    // Grouped by position, windows only, or grouped correctly: untouched.
    for (String sql : new String[] {"SELECT country, name, count(*) FROM players GROUP BY 1, 2",
        "SELECT name, sum(score) OVER () FROM players", "SELECT p.country, count(*) FROM players p GROUP BY country",
        "SELECT country, count(*) FROM players GROUP BY ROLLUP (country)"}) {
      assertThat(normalize(sql).sql()).as(sql).isEqualTo(sql);
      assertThat(normalize(sql).changes()).as(sql).isEmpty();
    }
    // What DuckDB refused now runs and returns one row per group.
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
        java.sql.Statement st = c.createStatement()) {
      st.execute("CREATE TABLE players AS SELECT * FROM (VALUES ('fr', 'ana', 3), ('fr', 'bo', 5), ('es', 'cy', 4))"
          + " t(country, name, score)");
      try (java.sql.ResultSet rs = st.executeQuery(n.sql() + " ORDER BY country")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(2)).isEqualTo("cy");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(2)).isIn("ana", "bo");
        assertThat(rs.getInt(3)).isEqualTo(5);
        assertThat(rs.next()).isFalse();
      }
    }
  }

  @Test
  void doubleQuotedNamesNoLakeColumnHasAreStringLiteralsWhereComparedWithAColumn() {
    java.util.function.Predicate<String> lake = name -> java.util.Set.of("currency", "country", "label", "gdp")
        .contains(name.toLowerCase(java.util.Locale.ROOT));
    DialectNormalizer.Normalized n = DialectNormalizer.normalize("SELECT country FROM c WHERE currency = \"US Dollar\""
        + " AND label IN (\"a\", \"it's\") AND country LIKE \"%land\"", PARSER, lake);
    assertThat(n.sql()).isEqualTo("SELECT country FROM c WHERE currency = 'US Dollar' AND label IN ('a', 'it''s')"
        + " AND country LIKE '%land'");
    assertThat(n.changes()).containsExactly("double-quoted \"US Dollar\", \"a\", \"it's\", \"%land\" read as string"
        + " literals (no lake column has that name; MySQL and SQLite read it so)");
    // A lake column, a name the query also selects or defines, and a comparison of two quoted names stay names.
    for (String sql : new String[] {"SELECT country FROM c WHERE currency = \"GDP\"",
        "SELECT \"usd\" FROM c WHERE currency = \"usd\"", "SELECT gdp AS \"rich\" FROM c WHERE country = \"rich\"",
        "SELECT country FROM c WHERE \"a\" = \"b\""}) {
      assertThat(DialectNormalizer.normalize(sql, PARSER, lake).sql()).as(sql).isEqualTo(sql);
    }
    // Without the lake's columns (the one-argument form) nothing is read as a literal.
    assertThat(normalize("SELECT country FROM c WHERE currency = \"US Dollar\"").changes()).isEmpty();
  }

  @Test
  void whatNoNormalisationRepairsComesBackUnchanged() {
    DialectNormalizer.Normalized n = normalize("SELEC name FROM t WHERE");
    assertThat(n.sql()).isEqualTo("SELEC name FROM t WHERE");
    assertThat(n.changes()).isEmpty();
  }

  @Property(tries = 60)
  void aKeywordAsAColumnParsesAndIsReadAsThatColumn(@ForAll("keywords") String keyword) {
    String sql = "SELECT " + keyword + ", title FROM tv t WHERE " + keyword + " = 'x' AND t.rating > 2 ORDER BY "
        + keyword;
    DialectNormalizer.Normalized n = normalize(sql);
    assertThat(new SqlAnalyzer(PARSER).analyze(n.sql()).columnsByTable().get("tv")).contains(keyword);
  }

  @Provide
  Arbitrary<String> keywords() {
    return Arbitraries.of("show", "character", "year", "month", "day", "value", "type", "user", "name", "position",
        "time", "row", "start", "level", "replace", "text", "key", "language", "comment", "data", "first", "last",
        "zone", "national", "varchar", "char", "decimal", "numeric", "timestamp", "interval", "primary", "check");
  }
}
