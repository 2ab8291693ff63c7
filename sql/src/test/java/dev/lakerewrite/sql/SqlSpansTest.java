package dev.lakerewrite.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlSpansTest {

  @Test
  void quotedSpansEndAfterTheirClosingQuoteAndDoubledQuotesEscape() {
    String sql = "x = 'it''s; -- not a comment' AND \"a \"\"b\"\"\" = 1";
    int literal = sql.indexOf('\'');
    assertThat(sql.substring(literal, SqlSpans.endOfQuoted(sql, literal))).isEqualTo("'it''s; -- not a comment'");
    int name = sql.indexOf('"');
    assertThat(sql.substring(name, SqlSpans.endOfQuoted(sql, name))).isEqualTo("\"a \"\"b\"\"\"");
    assertThat(SqlSpans.endOfQuoted("''", 0)).isEqualTo(2);
    assertThat(SqlSpans.endOfQuoted("'open", 0)).isEqualTo(5);
    assertThat(SqlSpans.endOfQuoted("'open''", 0)).isEqualTo(7);
    assertThat(SqlSpans.endOfQuoted("abc", 1)).isEqualTo(1);
  }

  @Test
  void commentsEndAfterTheirNewlineOrCloser() {
    String sql = "SELECT 1 -- 'no string here\n; /* ; '' */ 2";
    int line = sql.indexOf("--");
    assertThat(SqlSpans.endOfComment(sql, line)).isEqualTo(sql.indexOf('\n') + 1);
    int block = sql.indexOf("/*");
    assertThat(sql.substring(block, SqlSpans.endOfComment(sql, block))).isEqualTo("/* ; '' */");
    assertThat(SqlSpans.endOfComment("-- to the end", 0)).isEqualTo(13);
    assertThat(SqlSpans.endOfComment("/* open", 0)).isEqualTo(7);
    assertThat(SqlSpans.endOfComment("- 1", 0)).isZero();
  }

  @Test
  void dollarQuotedBodiesEndAtTheirTagAndParametersAreNoBodies() {
    String sql = "SELECT $$a; 'b$$, $fn$ x $$ y $fn$, $1";
    int plain = sql.indexOf("$$");
    assertThat(sql.substring(plain, SqlSpans.endOfDollarQuoted(sql, plain))).isEqualTo("$$a; 'b$$");
    int tagged = sql.indexOf("$fn$");
    assertThat(sql.substring(tagged, SqlSpans.endOfDollarQuoted(sql, tagged))).isEqualTo("$fn$ x $$ y $fn$");
    int parameter = sql.indexOf("$1");
    assertThat(SqlSpans.endOfDollarQuoted(sql, parameter)).isEqualTo(parameter);
    assertThat(SqlSpans.endOfSpan(sql, parameter)).isEqualTo(parameter);
    assertThat(SqlSpans.endOfSpan(sql, plain)).isEqualTo(SqlSpans.endOfDollarQuoted(sql, plain));
    assertThat(SqlSpans.endOfSpan("'a' b", 0)).isEqualTo(3);
    assertThat(SqlSpans.endOfSpan("/* a */ b", 0)).isEqualTo(7);
  }
}
