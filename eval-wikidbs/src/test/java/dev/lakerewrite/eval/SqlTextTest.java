package dev.lakerewrite.eval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlTextTest {

  @Test
  void findsATopLevelOrderBy() {
    assertThat(SqlText.hasTopLevelOrderBy("SELECT name FROM countries ORDER BY name")).isTrue();
    assertThat(SqlText.hasTopLevelOrderBy("select name\nfrom countries\norder\n  by name desc;")).isTrue();
    assertThat(SqlText.hasTopLevelOrderBy("SELECT a FROM t UNION SELECT a FROM u ORDER BY a")).isTrue();
    assertThat(SqlText.hasTopLevelOrderBy("SELECT a FROM t ORDER /* why not */ BY a")).isTrue();
    assertThat(SqlText.hasTopLevelOrderBy(
        "WITH c AS (SELECT * FROM t ORDER BY x) SELECT * FROM c ORDER BY y LIMIT 3")).isTrue();
  }

  @Test
  void ignoresOrderByThatDoesNotOrderTheResult() {
    assertThat(SqlText.hasTopLevelOrderBy("SELECT name FROM countries")).isFalse();
    assertThat(SqlText.hasTopLevelOrderBy("SELECT * FROM (SELECT a FROM t ORDER BY a LIMIT 5) s")).isFalse();
    assertThat(SqlText.hasTopLevelOrderBy("WITH c AS (SELECT * FROM t ORDER BY x) SELECT * FROM c")).isFalse();
    assertThat(SqlText.hasTopLevelOrderBy("SELECT row_number() OVER (ORDER BY a) FROM t")).isFalse();
    assertThat(SqlText.hasTopLevelOrderBy("SELECT 'order by' AS x FROM t")).isFalse();
    assertThat(SqlText.hasTopLevelOrderBy("SELECT \"order by\" FROM t")).isFalse();
    assertThat(SqlText.hasTopLevelOrderBy("SELECT a FROM t -- ORDER BY a\n")).isFalse();
    assertThat(SqlText.hasTopLevelOrderBy("SELECT a FROM t /* ORDER BY a */")).isFalse();
    assertThat(SqlText.hasTopLevelOrderBy("SELECT a AS \"order\", b AS by_col FROM t")).isFalse();
    assertThat(SqlText.hasTopLevelOrderBy("SELECT a FROM t WHERE s = 'it''s ORDER BY'")).isFalse();
    assertThat(SqlText.hasTopLevelOrderBy("SELECT border BY_x FROM t")).isFalse();
  }
}
