package dev.lakerewrite.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlTest {

  @Test
  void quotesOnlyWhatNeedsQuoting() {
    assertThat(Sql.identifier("population")).isEqualTo("population");
    assertThat(Sql.identifier("topic's main category")).isEqualTo("\"topic's main category\"");
    assertThat(Sql.identifier("Population")).isEqualTo("\"Population\"");
    assertThat(Sql.identifier("1992_winter_olympics")).isEqualTo("\"1992_winter_olympics\"");
    assertThat(Sql.identifier("select")).isEqualTo("\"select\"");
    assertThat(Sql.identifier("a\"b")).isEqualTo("\"a\"\"b\"");
    assertThat(Sql.qualified("capital", "GeoNames ID")).isEqualTo("capital.\"GeoNames ID\"");
    assertThat(Sql.literal("O'Brien")).isEqualTo("'O''Brien'");
    assertThat(Sql.literal(null)).isEqualTo("NULL");
    assertThatThrownBy(() -> Sql.identifier("")).hasMessageContaining("cannot be empty");
    assertThatThrownBy(() -> Sql.quoted("")).hasMessageContaining("cannot be empty");
    assertThat(Sql.quoted("population")).isEqualTo("\"population\"");
    assertThat(Sql.quoted("topic's \"main\" category")).isEqualTo("\"topic's \"\"main\"\" category\"");
    assertThat(Sql.literal("Hawke's Bay")).isEqualTo("'Hawke''s Bay'");
    assertThat(Sql.quoted("main", "capital")).isEqualTo("\"main\".\"capital\"");
  }

  @Test
  void nulIsRefusedInIdentifiersAndKeptInLiterals() throws Exception {
    assertThatThrownBy(() -> Sql.identifier("a\0b")).hasMessageContaining("cannot contain NUL: 'a?b'");
    assertThatThrownBy(() -> Sql.quoted("a\0b")).hasMessageContaining("cannot contain NUL");
    String[] values = {"a\0b", "\0", "\0x'y\0", "it's", ""};
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      for (String v : values) {
        try (ResultSet rs = st.executeQuery("SELECT " + Sql.literal(v) + " AS v")) {
          rs.next();
          assertThat(rs.getString(1)).as(Sql.literal(v)).isEqualTo(v);
        }
      }
    }
    assertThat(Sql.literal("a\0b")).isEqualTo("('a' || chr(0) || 'b')");
  }

  @Test
  void keywordListCoversDuckDbsReservedKeywords() throws Exception {
    List<String> reserved = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(
            "SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category <> 'unreserved'")) {
      while (rs.next()) {
        reserved.add(rs.getString(1));
      }
    }
    assertThat(reserved).isNotEmpty().allSatisfy(k -> assertThat(Sql.isKeyword(k)).as(k).isTrue());
  }

  @Test
  void quotedIdentifiersRoundTripThroughDuckDb() throws Exception {
    String[] names = {"topic's main category", "FIPS 10-4 (countries and regions)", "a\"b", "select", "Ünïcödé name",
        "1992_winter_olympics", "emoji 🇺🇸"};
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      StringBuilder sql = new StringBuilder("SELECT ");
      for (int i = 0; i < names.length; i++) {
        sql.append(i > 0 ? ", " : "").append(i).append(" AS ").append(Sql.identifier(names[i]));
      }
      try (ResultSet rs = st.executeQuery(sql.toString())) {
        for (int i = 0; i < names.length; i++) {
          assertThat(rs.getMetaData().getColumnLabel(i + 1)).isEqualTo(names[i]);
        }
      }
    }
  }
}
