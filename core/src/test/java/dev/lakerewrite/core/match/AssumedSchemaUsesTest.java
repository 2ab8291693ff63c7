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
}
