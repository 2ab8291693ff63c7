package dev.lakerewrite.core.sql;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The one set of syntax-tree editing helpers: what {@link Trees#replace} does with aliases, rendered back to SQL. */
class TreesTest {
  private final Trees trees = new Trees(SqlParser.standalone());

  /** Parses {@code sql}, replaces the node {@code target} picks with {@code replacement}, renders the query. */
  private String replaced(String sql, Function<ObjectNode, ObjectNode> target, ObjectNode replacement) {
    ObjectNode node = trees.node(sql);
    Trees.replace(target.apply(node), replacement);
    return trees.renderNode(node);
  }

  private static ObjectNode firstSelectItem(ObjectNode node) {
    return (ObjectNode) node.get("select_list").get(0);
  }

  @Test
  void replacingAnAliasedSelectItemKeepsTheNameItIsSelectedUnder() {
    assertThat(replaced("SELECT price * qty AS total FROM sales", TreesTest::firstSelectItem,
        trees.parseExpression("sum(amount)")))
        .isEqualTo("SELECT sum(amount) AS total FROM sales");
  }

  @Test
  void anUnaliasedTargetDropsTheReplacementsAlias() {
    assertThat(replaced("SELECT price FROM sales", TreesTest::firstSelectItem,
        trees.parseExpression("amount * 100 AS price_in_cents")))
        .isEqualTo("SELECT (amount * 100) FROM sales");
  }

  @Test
  void replacingAnAliasedTableKeepsTheAliasTheQueryRefersTo() {
    assertThat(replaced("SELECT s.id FROM sales AS s WHERE s.qty > 1", n -> (ObjectNode) n.get("from_table"),
        trees.parseFrom("sales_2024")))
        .isEqualTo("SELECT s.id FROM sales_2024 AS s WHERE (s.qty > 1)");
  }

  @Test
  void theTargetIsEditedInPlaceSoItsParentSeesTheReplacement() {
    assertThat(replaced("SELECT a FROM t WHERE a > 1 AND b < 2",
        n -> (ObjectNode) Trees.conjuncts(n.get("where_clause")).get(1), trees.parseExpression("b IS NULL")))
        .isEqualTo("SELECT a FROM t WHERE ((a > 1) AND (b IS NULL))");
  }

  @Test
  void aTargetWithoutAnAliasFieldTakesTheReplacementAsItIs() {
    ObjectNode statement = trees.statement("SELECT 1");
    ObjectNode node = (ObjectNode) statement.get("node");
    assertThat(node.has("alias")).isFalse();

    Trees.replace(node, trees.node("SELECT 2 AS two"));

    assertThat(trees.render(statement)).isEqualTo("SELECT 2 AS two");
  }
}
