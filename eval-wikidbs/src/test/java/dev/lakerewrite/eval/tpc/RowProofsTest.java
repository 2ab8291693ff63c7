package dev.lakerewrite.eval.tpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.Engine;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The corpus's proofs that a mutant is equivalent after all: DISTINCT on a TPC-DS result that keys, grouping and
 * one-row aggregates already make distinct, and a change inside a block that returns no row on the schema with
 * every column NOT NULL. Without them these mutants were counted as misses of the checker although no database
 * can tell them apart; the counter-cases are real differences that must stay mutants.
 */
class RowProofsTest {
  private static Connection connection;
  private static Trees trees;

  @BeforeAll
  static void open() throws Exception {
    connection = DriverManager.getConnection("jdbc:duckdb:");
    trees = new Trees(SqlParser.on(connection));
  }

  @AfterAll
  static void close() throws Exception {
    connection.close();
  }

  private static boolean distinct(String query, boolean nullable) {
    return new RowProofs(trees, TpcdsData.tables(), nullable).distinct(trees.statement(TpcQueries.tpcds(query,
        Engine.DUCKDB)));
  }

  @Test
  void resultsMadeDistinctByKeysGroupingAndOneRowAggregatesAreProvedDistinct() {
    // Three CTEs grouped by i_item_id, joined on it: each row of the first meets at most one of the others.
    assertThat(distinct("q83", false)).isTrue();
    // Grouped by warehouse name and key, item and month, output without the name: the warehouse's primary key
    // determines its name, through a CTE read twice.
    assertThat(distinct("q39a", false)).isTrue();
    // GROUPING SETS over NOT NULL columns, then a window and a filter: each set's NULL pattern tells it apart.
    assertThat(distinct("q67", false)).isTrue();
    // The cross product of two aggregates without GROUP BY: one row.
    assertThat(distinct("q61", false)).isTrue();
    // SELECT * over a block grouped by every column it outputs, with a window average.
    assertThat(distinct("q89", false)).isTrue();
  }

  @Test
  void aUnionAllOfDistinctBranchesWithOneLiteralEachIsDistinct() {
    // ROLLUP (channel, id) over a UNION ALL whose branches say 'store channel', 'catalog channel', 'web channel';
    // each branch is a CTE grouped by the id, LEFT JOINed on it to another grouped CTE (one match at most).
    assertThat(distinct("q77", false)).isTrue();
    // The same with the id written concat('store', s_store_id): one id for each store id (NOT NULL).
    assertThat(distinct("q80", false)).isTrue();
    // On the nullable schema the catalog branch's id (cs_call_center_sk) may be NULL, like a rolled-up row's.
    assertThat(distinct("q77", true)).isFalse();
  }

  @Test
  void resultsThatCanHoldEqualRowsAreNotProvedDistinct() {
    // Grouped by i_item_id, which is not output (and not the item's key): two items may share the rest.
    assertThat(distinct("q12", false)).isFalse();
    // A week's store sales joined with date_dim on d_week_seq: seven days of a week, seven equal rows.
    assertThat(distinct("q59", false)).isFalse();
    // On the nullable schema a NULL category looks like the rolled-up set that leaves the category out.
    assertThat(distinct("q67", true)).isFalse();
    // rank() gives ties the same rank, and two items may have the same product name.
    assertThat(distinct("q44", false)).isFalse();
  }

  @Test
  void aChangeInsideABlockThatReturnsNoRowIsProvedToChangeNothing() {
    ObjectNode original = trees.statement(TpcQueries.tpcds("q76", Engine.DUCKDB));
    // q76's first UNION branch reads store sales whose ss_store_sk IS NULL.
    String join = pointer(original, "", n -> "COMPARE_EQUAL".equals(n.path("type").asText())
        && "ss_item_sk".equals(Trees.columnName(n.path("left"))));
    String and = join.substring(0, join.lastIndexOf("/children/"));
    String isNull = pointer(original, "", n -> "OPERATOR_IS_NULL".equals(n.path("type").asText()));

    ObjectNode joinDropped = original.deepCopy();
    ((ArrayNode) joinDropped.at(and).get("children")).remove(index(join));
    assertThat(new RowProofs(trees, TpcdsData.tables(), false).emptyBlockAround(original, joinDropped, and))
        .as("every column NOT NULL: the branch is empty with the join condition or without").isTrue();
    assertThat(new RowProofs(trees, TpcdsData.tables(), true).emptyBlockAround(original, joinDropped, and))
        .as("nullable ss_store_sk: the branch has rows").isFalse();

    ObjectNode nullTestDropped = original.deepCopy();
    ((ArrayNode) nullTestDropped.at(and).get("children")).remove(index(isNull));
    assertThat(new RowProofs(trees, TpcdsData.tables(), false).emptyBlockAround(original, nullTestDropped, and))
        .as("without the IS NULL test the branch returns rows").isFalse();
  }

  /**
   * TPC-DS q44 on the schema with every column NOT NULL: each ranking block's HAVING compares with {@code 0.9 *
   * (SELECT avg(ss_net_profit) ... WHERE ss_store_sk = 4 AND ss_addr_sk IS NULL GROUP BY ss_store_sk)}, a subquery
   * that returns no row, so the comparison is NULL and both ranking blocks are empty; the outer query joins them.
   * A changed comparison inside one block, or the IS NULL test dropped from one of them (the other stays empty),
   * changes nothing; on the nullable schema both change the result.
   */
  @Test
  void aComparisonWithAnEmptyScalarSubqueryEmptiesItsBlockAndAJoinWithAnEmptyBlockEmptiesTheQuery() {
    ObjectNode original = trees.statement(TpcQueries.tpcds("q44", Engine.DUCKDB));
    String having = pointer(original, "", n -> "COMPARE_GREATERTHAN".equals(n.path("type").asText())
        && "FUNCTION".equals(n.path("right").path("class").asText()));
    ObjectNode loosened = original.deepCopy();
    ((ObjectNode) loosened.at(having)).put("type", "COMPARE_GREATERTHANOREQUALTO");
    assertThat(new RowProofs(trees, TpcdsData.tables(), false).emptyBlockAround(original, loosened, having))
        .as("every column NOT NULL: the ranking block is empty with > or >=").isTrue();
    assertThat(new RowProofs(trees, TpcdsData.tables(), true).emptyBlockAround(original, loosened, having))
        .as("nullable ss_addr_sk: the ranking block has rows").isFalse();

    String isNull = pointer(original, "", n -> "OPERATOR_IS_NULL".equals(n.path("type").asText()));
    String and = isNull.substring(0, isNull.lastIndexOf("/children/"));
    ObjectNode dropped = original.deepCopy();
    ((ArrayNode) dropped.at(and).get("children")).remove(index(isNull));
    assertThat(new RowProofs(trees, TpcdsData.tables(), false).emptyBlockAround(original, dropped, and))
        .as("one ranking block has rows without its IS NULL test; the other, joined with it, stays empty").isTrue();
    assertThat(new RowProofs(trees, TpcdsData.tables(), true).emptyBlockAround(original, dropped, and)).isFalse();
  }

  private static int index(String pointer) {
    return Integer.parseInt(pointer.substring(pointer.lastIndexOf('/') + 1));
  }

  /** The JSON pointer of the first node (depth first) that matches, or null. */
  private static String pointer(JsonNode n, String path, Predicate<JsonNode> match) {
    if (n.isObject()) {
      if (match.test(n)) {
        return path;
      }
      for (var it = n.fields(); it.hasNext(); ) {
        var f = it.next();
        String found = pointer(f.getValue(), path + "/" + f.getKey(), match);
        if (found != null) {
          return found;
        }
      }
    } else if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) {
        String found = pointer(n.get(i), path + "/" + i, match);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }
}
