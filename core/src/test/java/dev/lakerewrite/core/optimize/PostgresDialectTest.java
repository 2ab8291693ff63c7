package dev.lakerewrite.core.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.Engine;
import org.junit.jupiter.api.Test;

/** What DuckDB's printer emits, as PostgreSQL reads it; the server-side proof is in PostgresOptimizerTest. */
class PostgresDialectTest {
  @Test
  void quotedNamesTheAuthorDidNotQuoteFoldToLowerCaseAsPostgresFoldsTheUnquotedOriginal() {
    String authored = "SELECT sum(x) AS RETURNS, \"MixedCase\" FROM t GROUP BY \"MixedCase\"";
    String printed = "SELECT sum(x) AS \"RETURNS\", \"MixedCase\" FROM t GROUP BY \"MixedCase\"";
    assertThat(PostgresDialect.forTarget(Engine.POSTGRESQL, printed, authored))
        .isEqualTo("SELECT sum(x) AS \"returns\", \"MixedCase\" FROM t GROUP BY \"MixedCase\"");
  }

  @Test
  void aNameTheAuthorQuotedIsQuotedAgainWhereThePrinterDroppedTheQuotes() {
    String authored = "SELECT c.\"CarrierKey\" FROM \"Carrier\" c";
    assertThat(PostgresDialect.forTarget(Engine.POSTGRESQL, "SELECT c.\"CarrierKey\" FROM Carrier AS c", authored))
        .isEqualTo("SELECT c.\"CarrierKey\" FROM \"Carrier\" AS c");
  }

  @Test
  void stringLiteralsAndDuckDbTargetsAreLeftAlone() {
    String printed = "SELECT 'ABC' AS \"Label\" FROM t";
    assertThat(PostgresDialect.forTarget(Engine.POSTGRESQL, printed, "SELECT 'ABC' AS Label FROM t"))
        .isEqualTo("SELECT 'ABC' AS \"label\" FROM t");
    assertThat(PostgresDialect.forTarget(Engine.DUCKDB, printed, "SELECT 'ABC' AS Label FROM t")).isEqualTo(printed);
  }

  @Test
  void translatingTwiceChangesNothing() {
    String authored = "SELECT count(*) AS Total FROM t WHERE d < DATE '2000-01-01' + INTERVAL 3 DAY";
    String printed = "SELECT count_star() AS \"Total\" FROM t WHERE (d < (CAST('2000-01-01' AS DATE) + to_days(3)))";
    String once = PostgresDialect.forTarget(Engine.POSTGRESQL, printed, authored);
    assertThat(once).contains("count(*)").contains("\"total\"").contains("CAST('1 day' AS INTERVAL)");
    assertThat(PostgresDialect.forTarget(Engine.POSTGRESQL, once, authored)).isEqualTo(once);
  }
}
