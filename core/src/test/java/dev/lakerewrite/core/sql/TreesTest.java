package dev.lakerewrite.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** The one set of syntax-tree editing helpers: what {@link Trees#replace} does with aliases, rendered back to SQL. */
class TreesTest {
  private final Trees trees = new Trees(SqlParser.standalone());

  @Test
  void replacingAnAliasedSelectItemKeepsTheNameItIsSelectedUnder() {
    ObjectNode node = trees.node("SELECT price * qty AS total FROM sales");
    ObjectNode item = (ObjectNode) node.get("select_list").get(0);

    Trees.replace(item, trees.parseExpression("sum(amount)"));

    assertThat(trees.renderNode(node)).isEqualTo("SELECT sum(amount) AS total FROM sales");
  }

  @Test
  void anUnaliasedTargetDropsTheReplacementsAlias() {
    ObjectNode node = trees.node("SELECT price FROM sales");
    ObjectNode item = (ObjectNode) node.get("select_list").get(0);

    Trees.replace(item, trees.parseExpression("amount * 100 AS price_in_cents"));

    assertThat(trees.renderNode(node)).isEqualTo("SELECT (amount * 100) FROM sales");
  }

  @Test
  void replacingAnAliasedTableKeepsTheAliasTheQueryRefersTo() {
    ObjectNode node = trees.node("SELECT s.id FROM sales AS s WHERE s.qty > 1");
    ObjectNode from = (ObjectNode) node.get("from_table");

    Trees.replace(from, trees.parseFrom("sales_2024"));

    assertThat(trees.renderNode(node)).isEqualTo("SELECT s.id FROM sales_2024 AS s WHERE (s.qty > 1)");
  }

  @Test
  void aTargetWithoutAnAliasFieldTakesTheReplacementAsItIs() {
    ObjectNode statement = trees.statement("SELECT 1");
    ObjectNode node = (ObjectNode) statement.get("node");
    assertThat(node.has("alias")).isFalse();

    Trees.replace(node, trees.node("SELECT 2 AS two"));

    assertThat(trees.render(statement)).isEqualTo("SELECT 2 AS two");
  }

  @Test
  void theTargetObjectIsEditedInPlaceSoItsParentSeesTheReplacement() {
    ObjectNode node = trees.node("SELECT a FROM t WHERE a > 1 AND b < 2");
    ObjectNode second = (ObjectNode) Trees.conjuncts(node.get("where_clause")).get(1);

    Trees.replace(second, trees.parseExpression("b IS NULL"));

    assertThat(trees.renderNode(node)).isEqualTo("SELECT a FROM t WHERE ((a > 1) AND (b IS NULL))");
  }
}
