package dev.lakerewrite.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DuckDbParserTest {
  private static Connection connection;
  private static DuckDbParser parser;

  @BeforeAll
  static void open() throws Exception {
    connection = DriverManager.getConnection("jdbc:duckdb:");
    parser = DuckDbParser.on(connection);
  }

  @AfterAll
  static void close() throws Exception {
    connection.close();
  }

  @Test
  void parsesToDuckDbsTreeAndRendersItBack() throws Exception {
    List<ObjectNode> statements = parser.parse("SELECT \"topic's main category\" FROM capital QUALIFY x = 1; SELECT 2");
    assertThat(statements).hasSize(2);
    ObjectNode node = (ObjectNode) statements.get(0).get("node");
    assertThat(node.path("type").asText()).isEqualTo("SELECT_NODE");
    assertThat(node.path("from_table").path("table_name").asText()).isEqualTo("capital");
    ObjectNode edited = statements.get(0).deepCopy();
    ((com.fasterxml.jackson.databind.node.ArrayNode) edited.get("node").get("select_list").get(0).get("column_names"))
        .set(0, "region's label");
    String rendered = parser.render(edited);
    assertThat(rendered).contains("\"region's label\"").contains("QUALIFY");
    assertThat(parser.parse(rendered)).hasSize(1);
    assertThat(parser.parse("  ")).isEmpty();
  }

  @Test
  void refusalsCarryDuckDbsMessageTypeAndPosition() {
    assertThatThrownBy(() -> parser.parse("SELECT label FROM capital WHERE"))
        .isInstanceOfSatisfying(SqlParseException.class, e -> {
          assertThat(e.getMessage()).contains("syntax error");
          assertThat(e.errorType()).isEqualTo("parser");
          assertThat(e.position()).isBetween(0, "SELECT label FROM capital WHERE".length());
        });
    assertThatThrownBy(() -> parser.parse("DROP TABLE capital"))
        .isInstanceOfSatisfying(SqlParseException.class,
            e -> assertThat(e.errorType()).isEqualTo("not implemented"));
  }

  @Test
  void treesDeeperThanJacksonReadsAreRefusedNotCrashed() {
    String deep = "SELECT " + "(".repeat(3000) + "1" + ")".repeat(3000);
    assertThatThrownBy(() -> parser.parse(deep))
        .isInstanceOfSatisfying(SqlParseException.class, e -> assertThat(e.errorType()).isIn("nesting", "parser"));
  }
}
