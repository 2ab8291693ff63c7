package dev.lakerewrite.core.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.sql.QueryAnalysis.ColumnReference;
import dev.lakerewrite.core.sql.QueryAnalysis.Predicate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SqlAnalyzerTest {
  private final SqlAnalyzer analyzer = new SqlAnalyzer(SqlParser.standalone());

  @Test
  void thesisMotivatingQuery() {
    QueryAnalysis a = analyzer.analyze(
        "SELECT name, is_un_member, gini_index FROM countries WHERE currency = 'USD' ORDER BY name;");
    assertThat(a.tableNames()).containsExactly("countries");
    assertThat(a.columnsOf("countries")).containsExactly("name", "is_un_member", "gini_index", "currency");
    assertThat(a.predicates()).singleElement().satisfies(p -> {
      assertThat(p.column()).isEqualTo(new ColumnReference(Optional.of("countries"), "currency"));
      assertThat(p.operator()).isEqualTo("=");
      assertThat(p.literals()).containsExactly("USD");
      assertThat(p.clause()).isEqualTo("WHERE");
    });
    assertThat(a.outputColumns()).extracting(QueryAnalysis.OutputColumn::name)
        .containsExactly("name", "is_un_member", "gini_index");
    assertThat(a.orderBy()).singleElement().satisfies(o -> {
      assertThat(o.expression()).isEqualTo("\"name\"");
      assertThat(o.descending()).isFalse();
    });
    assertThat(a.hasUnion()).isFalse();
    assertThat(a.hasAggregates()).isFalse();
  }

  @Test
  void aComparisonInTheSelectListIsAPredicateOfClauseSelect() {
    QueryAnalysis a = analyzer.analyze("SELECT sum(CASE WHEN o_orderpriority = '1-URGENT' THEN 1 ELSE 0 END) AS urgent "
        + "FROM orders WHERE o_orderdate >= DATE '1993-07-01'");

    assertThat(a.predicates()).extracting(p -> p.column().column() + " " + p.operator() + " " + p.literals() + " "
        + p.clause()).containsExactlyInAnyOrder("o_orderpriority = [1-URGENT] SELECT",
            "o_orderdate >= [1993-07-01] WHERE");
  }

  @Test
  void thesisRewrittenQueryWithCteJoinAndAliases() {
    QueryAnalysis a = analyzer.analyze("""
        WITH clean_countries AS (
            SELECT *, normalize_text(country_name) AS country_name_norm, parse_bool(is_un) AS is_un_member_norm
            FROM country_profiles
        )
        SELECT c.country_name_norm AS name, c.is_un_member_norm AS is_un_member, is2.gini_coef AS gini_index
        FROM clean_countries AS c
        JOIN inequality_stats AS is2 ON c.iso3 = is2.iso3
        WHERE c.currency = 'US Dollar'
        ORDER BY c.country_name_norm
        """);
    assertThat(a.cteNames()).containsExactly("clean_countries");
    assertThat(a.tableNames()).containsExactly("country_profiles", "inequality_stats");
    assertThat(a.columnsOf("country_profiles")).containsExactly("country_name", "is_un");
    assertThat(a.columnsOf("inequality_stats")).containsExactly("gini_coef", "iso3");
    assertThat(a.joins()).singleElement().satisfies(j -> {
      assertThat(j.left()).isEqualTo(new ColumnReference(Optional.empty(), "iso3"));
      assertThat(j.right()).isEqualTo(new ColumnReference(Optional.of("inequality_stats"), "iso3"));
      assertThat(j.joinType()).isEqualTo("INNER");
    });
    assertThat(a.outputColumns()).extracting(QueryAnalysis.OutputColumn::name)
        .containsExactly("name", "is_un_member", "gini_index");
  }

  @Test
  void resolvesAliasesAndKeepsAmbiguousColumnsUnresolved() {
    QueryAnalysis a = analyzer.analyze("SELECT r.label, population, c.elevation FROM nz_regions r "
        + "JOIN cities c ON r.capital = c.label WHERE r.population > 100000 AND c.name LIKE 'Whang%'");
    assertThat(a.columnsOf("nz_regions")).containsExactly("label", "capital", "population");
    assertThat(a.columnsOf("cities")).containsExactly("elevation", "label", "name");
    assertThat(a.unresolvedColumns()).containsExactly(new ColumnReference(Optional.empty(), "population"));
    assertThat(a.joins()).singleElement().satisfies(j -> {
      assertThat(j.left()).isEqualTo(new ColumnReference(Optional.of("nz_regions"), "capital"));
      assertThat(j.right()).isEqualTo(new ColumnReference(Optional.of("cities"), "label"));
    });
    assertThat(a.predicates()).extracting(Predicate::operator, Predicate::literals).containsExactly(
        org.assertj.core.groups.Tuple.tuple(">", List.of("100000")),
        org.assertj.core.groups.Tuple.tuple("LIKE", List.of("Whang%")));
  }

  @Test
  void foldsArithmeticOfNumericLiteralsButNotOfDates() {
    // TPC-H Q6's discount window and a scaled threshold; the date bound plus an interval stays unfolded.
    QueryAnalysis a = analyzer.analyze("SELECT sum(l_extendedprice * l_discount) FROM lineitem "
        + "WHERE l_discount BETWEEN DECIMAL '0.06' - DECIMAL '0.01' AND DECIMAL '0.06' + DECIMAL '0.01' "
        + "AND l_quantity < 2 * 12 AND l_tax > -0.5 AND l_shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR");
    assertThat(a.predicates()).extracting(p -> p.column().column() + " " + p.operator() + " " + p.literals())
        .containsExactly("l_discount BETWEEN [0.05, 0.07]", "l_quantity < [24]", "l_tax > [-0.5]");
    assertThat(a.predicates().get(0).literalKinds()).containsExactly("DECIMAL", "DECIMAL");
  }

  @Test
  void numericOperandsAreColumnsComputedWithNotDatesShiftedByIntervals() {
    Trees trees = new Trees(SqlParser.standalone());
    assertThat(SqlAnalyzer.numericOperands(trees.statement("SELECT sum(l.l_extendedprice * (1 - l.l_discount)) "
        + "FROM lineitem l, orders o WHERE o.o_orderdate < DATE '1995-01-01' + INTERVAL '3' MONTH "
        + "AND o.o_orderdate + INTERVAL '1' DAY > l.l_shipdate AND l.l_quantity > (SELECT avg(CAST(x.q AS DOUBLE)) / 2 "
        + "FROM t x)"))).containsExactlyInAnyOrder("l_extendedprice", "l_discount");
  }

  @Test
  void textOperandsAreColumnsCutOrJoinedAsText() {
    Trees trees = new Trees(SqlParser.standalone());
    assertThat(SqlAnalyzer.textOperands(trees.statement("SELECT ca_zip, upper(c.c_last_name) || c_first_name "
        + "FROM customer_address, customer c WHERE substr(ca_zip, 1, 5) IN ('85669', '86197') AND c_birth_year > "
        + "(SELECT max(length(x.n)) FROM t x WHERE substr('abc', 1, 1) = x.k)"))).containsExactlyInAnyOrder("ca_zip",
        "c_last_name", "c_first_name");
  }

  @Test
  void collectsInBetweenFlippedAndWrappedPredicates() {
    QueryAnalysis a = analyzer.analyze("SELECT * FROM films WHERE language IN ('English', 'French') "
        + "AND year BETWEEN 1995 AND 2005 AND 10 < rating AND lower(country) = 'usa' "
        + "AND release_date >= DATE '2001-01-01' AND title NOT IN ('Cars')");
    assertThat(a.predicates()).extracting(p -> p.column().column() + " " + p.operator() + " " + p.literals())
        .containsExactly(
            "language IN [English, French]",
            "year BETWEEN [1995, 2005]",
            "rating > [10]",
            "country = [usa]",
            "release_date >= [2001-01-01]",
            "title NOT IN [Cars]");
    assertThat(a.predicates().get(4).literalKinds()).containsExactly("DATE");
    assertThat(a.outputColumns()).singleElement().satisfies(o -> assertThat(o.star()).isTrue());
  }

  @Test
  void duckDbSpecificSyntax() {
    QueryAnalysis a = analyzer.analyze("SELECT * EXCLUDE (description), \"topic's main category\"::VARCHAR AS cat "
        + "FROM \"region of new zealand\" QUALIFY row_number() OVER (PARTITION BY country ORDER BY area DESC) = 1 "
        + "LIMIT 5");
    assertThat(a.tableNames()).containsExactly("region of new zealand");
    assertThat(a.columnsOf("region of new zealand")).contains("topic's main category", "country", "area");
    assertThat(a.limit()).hasValue(5);
    assertThat(a.hasAggregates()).isFalse();
  }

  @Test
  void unionsAggregatesAndSubqueries() {
    QueryAnalysis a = analyzer.analyze("SELECT label, count(*) AS n FROM applies_to_jurisdiction GROUP BY label "
        + "UNION ALL SELECT label, count(*) FROM located_in WHERE area > (SELECT avg(area) FROM located_in) "
        + "GROUP BY label ORDER BY n DESC");
    assertThat(a.hasUnion()).isTrue();
    assertThat(a.hasSetOperation()).isTrue();
    assertThat(a.hasAggregates()).isTrue();
    assertThat(a.hasSubqueries()).isTrue();
    assertThat(a.tableNames()).containsExactly("applies_to_jurisdiction", "located_in");
    assertThat(a.groupBy()).containsExactly("\"label\"");
    assertThat(a.outputColumns()).extracting(QueryAnalysis.OutputColumn::name).containsExactly("label", "n");
    assertThat(a.orderBy()).singleElement().satisfies(o -> assertThat(o.descending()).isTrue());
  }

  @Test
  void rejectsWhatIsNotOneQueryWithAPosition() {
    assertThatThrownBy(() -> analyzer.analyze("SELECT name FROM"))
        .isInstanceOf(SqlSyntaxException.class).hasMessageContaining("Parser Error");
    assertThatThrownBy(() -> analyzer.analyze("DELETE FROM t"))
        .isInstanceOf(SqlSyntaxException.class)
        .satisfies(e -> assertThat(((SqlSyntaxException) e).notAQuery()).isTrue());
    assertThatThrownBy(() -> analyzer.analyze("SELECT 1; SELECT 2"))
        .hasMessageContaining("expected one statement, got 2");
    SqlSyntaxException e = org.junit.jupiter.api.Assertions.assertThrows(SqlSyntaxException.class,
        () -> analyzer.analyze("SELECT a FROM t WHERE WHERE b = 1"));
    assertThat(e.position()).isEqualTo("SELECT a FROM t WHERE ".length());
  }

  @Test
  void renderRoundTripsAnEditedTree() {
    SqlParser parser = SqlParser.standalone();
    ParsedSql parsed = parser.parse("SELECT name FROM countries WHERE currency = 'USD'");
    var tree = parsed.statement(0).deepCopy();
    var from = (com.fasterxml.jackson.databind.node.ObjectNode) tree.get("node").get("from_table");
    from.put("table_name", "country profiles");
    ((com.fasterxml.jackson.databind.node.ObjectNode) from.get("qualified_name")).putArray("path").add("country profiles");
    String sql = parser.render(tree);
    assertThat(sql).contains("FROM \"country profiles\"").contains("'USD'");
    assertThat(analyzer.analyze(sql).tableNames()).containsExactly("country profiles");
  }
}
