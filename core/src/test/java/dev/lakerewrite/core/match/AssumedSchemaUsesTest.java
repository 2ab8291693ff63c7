package dev.lakerewrite.core.match;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.sql.SqlParser;
import org.junit.jupiter.api.Test;

/** How the assumed schema reads a column's use from the query around it. */
class AssumedSchemaUsesTest {

  private static AssumedSchema.Column column(String sql, String table, String column) {
    return AssumedSchema.of(SqlParser.standalone().parse(sql).statement(0)).table(table).orElseThrow()
        .column(column).orElseThrow();
  }

  @Test
  void aPartOfADateComparedWithANumberIsADateUseNotANumberUse() {
    AssumedSchema.Column year = column("SELECT name FROM films WHERE YEAR(release_date) = 2020", "films",
        "release_date");
    AssumedSchema.Column extracted = column("SELECT name FROM films WHERE extract(month FROM shown_on) >= 6",
        "films", "shown_on");
    AssumedSchema.Column plain = column("SELECT name FROM films WHERE runtime > 90", "films", "runtime");

    assertThat(year.uses()).contains(AssumedSchema.Use.COMPARED_DATE).doesNotContain(AssumedSchema.Use.COMPARED_NUMBER);
    assertThat(extracted.uses()).contains(AssumedSchema.Use.COMPARED_DATE)
        .doesNotContain(AssumedSchema.Use.COMPARED_NUMBER);
    assertThat(plain.uses()).contains(AssumedSchema.Use.COMPARED_NUMBER);
  }

  @Test
  void aLiteralBoundsTheColumnFromTheColumnsSideOnlyWhereTheColumnIsComparedAsItIs() {
    java.util.function.Function<String, java.util.List<String>> bounds = sql -> column(sql, "lineitem", "l_quantity")
        .literals().stream().map(AssumedSchema.Literal::bound).toList();

    assertThat(bounds.apply("SELECT 1 FROM lineitem WHERE 24 > l_quantity")).containsExactly("<");
    assertThat(bounds.apply("SELECT 1 FROM lineitem WHERE CAST(l_quantity AS DOUBLE) >= 5")).containsExactly(">=");
    assertThat(bounds.apply("SELECT 1 FROM lineitem WHERE l_quantity BETWEEN 1 AND 10")).containsExactly(">=", "<=");
    assertThat(bounds.apply("SELECT 1 FROM lineitem WHERE l_quantity IN (1, 2)")).containsExactly("=", "=");
    // Neither bounds the column's own values: a computed value, a list it is not in, a value it differs from.
    assertThat(bounds.apply("SELECT 1 FROM lineitem WHERE abs(l_quantity) > 5")).containsExactly("");
    assertThat(bounds.apply("SELECT 1 FROM lineitem WHERE l_quantity NOT IN (1, 2)")).containsExactly("", "");
    assertThat(bounds.apply("SELECT 1 FROM lineitem WHERE l_quantity <> 3")).containsExactly("");
    // One disjunct may select nothing on the right column.
    assertThat(bounds.apply("SELECT 1 FROM lineitem WHERE l_quantity > 500 OR l_comment = 'x'")).containsExactly("");
    assertThat(bounds.apply("SELECT 1 FROM lineitem WHERE NOT (l_quantity > 500)")).containsExactly("");
  }
}
