package dev.lakerewrite.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.match.AssumedSchema;
import dev.lakerewrite.retrieval.NameSignals;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ColumnPrefixesTest {

  @Test
  void tpchPrefixesNameTheirTablesAndALongerPrefixLeavesTheShorterOneItsTable() {
    Map<String, String> owners = ColumnPrefixes.owners(
        List.of("l_orderkey", "ps_supplycost", "p_partkey", "s_suppkey", "n_name"),
        List.of("lineitem", "partsupp", "part", "supplier", "nation"));

    assertThat(owners).containsExactlyInAnyOrderEntriesOf(Map.of("l", "lineitem", "ps", "partsupp", "p", "part",
        "s", "supplier", "n", "nation"));
  }

  @Test
  void tpcdsPrefixesAreTheInitialsOfTheirTablesWords() {
    Map<String, String> owners = ColumnPrefixes.owners(
        List.of("ss_sold_date_sk", "s_store_name", "d_year", "ca_state", "cd_gender", "c_customer_id", "inv_item_sk"),
        List.of("store_sales", "store", "date_dim", "customer_address", "customer_demographics", "customer",
            "inventory"));

    assertThat(owners).containsExactlyInAnyOrderEntriesOf(Map.of("ss", "store_sales", "s", "store", "d", "date_dim",
        "ca", "customer_address", "cd", "customer_demographics", "c", "customer", "inv", "inventory"));
  }

  @Test
  void aColumnLosesOnlyThePrefixThatNamesItsOwnTable() {
    assertThat(ColumnPrefixes.withoutTablePrefix("l_commitdate", "lineitem")).isEqualTo("commitdate");
    assertThat(ColumnPrefixes.withoutTablePrefix("ps_supplycost", "partsupp")).isEqualTo("supplycost");
    assertThat(ColumnPrefixes.withoutTablePrefix("ss_sold_date_sk", "store_sales")).isEqualTo("sold_date_sk");
    // The prefix names another table, or is a word of the column's own: the name stays as written.
    assertThat(ColumnPrefixes.withoutTablePrefix("o_orderdate", "lineitem")).isEqualTo("o_orderdate");
    assertThat(ColumnPrefixes.withoutTablePrefix("is_capital", "cities")).isEqualTo("is_capital");
    assertThat(ColumnPrefixes.withoutTablePrefix("population", "cities")).isEqualTo("population");
  }

  @Test
  void aWordEveryColumnOfALakeTableStartsWithIsItsPrefixAndComesOffForComparingNames() {
    // camelCase, snake and upper case; the split-off part's key may carry another prefix (liRecordRef).
    assertThat(NameSignals.sharedLeadingWord(List.of("cstCust", "cstName", "cstActb", "cstPhone")))
        .hasValue("cst");
    assertThat(NameSignals.sharedLeadingWord(List.of("liRecordRef", "lntPrtky", "lntTax", "lntShipdate")))
        .hasValue("lnt");
    assertThat(NameSignals.sharedLeadingWord(List.of("ORD_ID", "ORD_DT", "ORD_TOT_PRC"))).hasValue("ord");
    assertThat(NameSignals.withoutLeadingWord("cstActb", "cst")).isEqualTo("actb");
    assertThat(NameSignals.withoutLeadingWord("ORD_TOT_PRC", "ord")).isEqualTo("tot prc");
    // Not a prefix: columns that merely start alike, two columns, or a word that would leave nothing.
    assertThat(NameSignals.sharedLeadingWord(List.of("country", "capital", "population", "name"))).isEmpty();
    assertThat(NameSignals.sharedLeadingWord(List.of("birth_date", "birth_place", "name", "death_date")))
        .isEmpty();
    assertThat(NameSignals.sharedLeadingWord(List.of("cstName", "cstPhone"))).isEmpty();
    assertThat(NameSignals.withoutLeadingWord("cst", "cst")).isEqualTo("cst");
  }

  @Test
  void aPrefixThatFitsTwoTablesAlikeOrAQueryWithOnePrefixPlacesNothing() {
    assertThat(ColumnPrefixes.owners(List.of("ws_net_paid", "web_name"), List.of("web_sales", "web_site")))
        .isEmpty();
    assertThat(ColumnPrefixes.owners(List.of("is_active", "name"), List.of("items", "users"))).isEmpty();
    assertThat(ColumnPrefixes.prefix("official website")).isEmpty();
    assertThat(ColumnPrefixes.prefix("L_ORDERKEY")).contains("l");
  }

  private static final String Q17 = """
      SELECT sum(l_extendedprice) / 7.0 AS avg_yearly FROM lineitem, part
      WHERE p_partkey = l_partkey AND p_brand = 'Brand#23' AND p_container = 'MED BOX'
        AND l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)""";

  @Test
  void theAnalysisPlacesUnqualifiedColumnsOfAMultiTableQueryAndItsCorrelatedSubquery() {
    QueryAnalysis a = SqlAnalyzer.analyzeStandalone(Q17);

    assertThat(a.unresolvedColumns()).isEmpty();
    assertThat(a.columnsOf("part")).containsExactlyInAnyOrder("p_partkey", "p_brand", "p_container");
    assertThat(a.columnsOf("lineitem")).containsExactlyInAnyOrder("l_extendedprice", "l_partkey", "l_quantity");
  }

  @Test
  void theAssumedSchemaPlacesThemAlikeWithNothingLeftAmbiguous() {
    AssumedSchema schema = AssumedSchema.of(SqlParser.standalone().parse(Q17).statement(0));

    assertThat(schema.ambiguous()).isEmpty();
    assertThat(schema.table("part").orElseThrow().columns().keySet())
        .containsExactlyInAnyOrder("p_partkey", "p_brand", "p_container");
    assertThat(schema.table("lineitem").orElseThrow().columns().keySet())
        .containsExactlyInAnyOrder("l_extendedprice", "l_partkey", "l_quantity");
  }

  @Test
  void prefixesPlaceColumnsAlsoInABlockBesideACteWhoseColumnsAreAllKnown() {
    // TPC-DS q1: store and customer beside the CTE; the CTE has neither s_store_sk nor c_customer_sk.
    String q1 = "WITH customer_total_return AS (SELECT sr_customer_sk AS ctr_customer_sk, sr_store_sk AS ctr_store_sk,"
        + " sum(sr_return_amt) AS ctr_total_return FROM store_returns, date_dim"
        + " WHERE sr_returned_date_sk = d_date_sk AND d_year = 2000 GROUP BY sr_customer_sk, sr_store_sk)"
        + " SELECT c_customer_id FROM customer_total_return ctr1, store, customer"
        + " WHERE ctr1.ctr_total_return > 1.2 AND s_store_sk = ctr1.ctr_store_sk AND s_state = 'TN'"
        + " AND ctr1.ctr_customer_sk = c_customer_sk ORDER BY c_customer_id LIMIT 100";

    AssumedSchema schema = AssumedSchema.of(SqlParser.standalone().parse(q1).statement(0));

    assertThat(schema.ambiguous()).isEmpty();
    assertThat(schema.table("store").orElseThrow().columns().keySet())
        .containsExactlyInAnyOrder("s_store_sk", "s_state");
    assertThat(schema.table("customer").orElseThrow().columns().keySet())
        .containsExactlyInAnyOrder("c_customer_id", "c_customer_sk");
  }

  /** TPC-H Q2: the subquery reads partsupp but not part, whose p_partkey it compares with its own ps_partkey. */
  private static final String Q2_CORE = """
      SELECT s_name, p_partkey FROM part, supplier, partsupp
      WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey AND p_size = 15
        AND ps_supplycost = (SELECT min(ps_supplycost) FROM partsupp, supplier
                             WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey)""";

  @Test
  void aPrefixTheQueryGivesToAnEnclosingBlocksTableIsACorrelatedReferenceThere() {
    // Alone, the subquery's tables would give p (partsupp's initial) to partsupp, and p_partkey = ps_partkey would
    // compare partsupp's key with itself.
    AssumedSchema schema = AssumedSchema.of(SqlParser.standalone().parse(Q2_CORE).statement(0));

    assertThat(schema.ambiguous()).isEmpty();
    assertThat(schema.table("part").orElseThrow().columns().keySet())
        .containsExactlyInAnyOrder("p_partkey", "p_size");
    assertThat(schema.table("partsupp").orElseThrow().columns().keySet())
        .containsExactlyInAnyOrder("ps_partkey", "ps_suppkey", "ps_supplycost");
    QueryAnalysis a = SqlAnalyzer.analyzeStandalone(Q2_CORE);
    assertThat(a.columnsOf("part")).containsExactlyInAnyOrder("p_partkey", "p_size");
    assertThat(a.columnsOf("partsupp")).containsExactlyInAnyOrder("ps_partkey", "ps_suppkey", "ps_supplycost");
  }
}
