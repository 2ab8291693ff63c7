package dev.lakerewrite.noiseudf;

import dev.lakerewrite.testing.SampleLake;
import dev.lakerewrite.testing.Sandbox;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Registration facts of DuckDB JDBC 2.0.0.1 Java UDFs under the sandbox, and every vetted function in SQL. */
class CleaningFunctionsTest {

  @TempDir Path dir;

  private static String one(Connection c, String sql) throws SQLException {
    return Jdbc.query(c, sql).get(0).get(0);
  }

  @Test
  void registersOnALockedReadOnlySandboxOncePerDatabaseAndDuplicatesSeeThem() throws Exception {
    Path csv = dir.resolve("lake").resolve("t.csv");
    java.nio.file.Files.createDirectories(csv.getParent());
    java.nio.file.Files.writeString(csv, "x\nWhangārei\n");
    Path file = dir.resolve("lake.duckdb");
    SampleLake.build(csv.getParent(), file);
    try (DuckDBConnection session = Sandbox.open(file, dir.resolve("tmp"));
        DuckDBConnection before = session.duplicate()) {
      assertThat(one(session, "SELECT current_setting('lock_configuration')")).isEqualTo("true");
      assertThat(one(session, "SELECT current_setting('enable_external_access')")).isEqualTo("false");
      assertThat(CleaningFunctions.isRegistered(session)).isFalse();
      CleaningFunctions.Registration first = CleaningFunctions.register(session);
      assertThat(first.registered()).hasSize(16).contains("clean_text/1", "clean_number/2", "clean_category/1");
      assertThat(first.alreadyPresent()).isEmpty();
      // database-wide: a duplicate made before, one made after, all see them; registering again is a no-op
      try (DuckDBConnection after = session.duplicate()) {
        assertThat(one(before, "SELECT clean_key(x) FROM t")).isEqualTo("whangarei");
        assertThat(one(after, "SELECT clean_number('+13789')")).isEqualTo("13789.0");
        CleaningFunctions.Registration second = CleaningFunctions.register(after);
        assertThat(second.registered()).isEmpty();
        assertThat(second.alreadyPresent()).hasSize(16);
      }
      assertThat(one(session, "SELECT database_name || '.' || schema_name FROM duckdb_functions() WHERE function_name = 'clean_text'"))
          .isEqualTo("system.main");
      // another database instance does not see them
      try (Connection other = DriverManager.getConnection("jdbc:duckdb:")) {
        assertThatThrownBy(() -> one(other, "SELECT clean_text('x')")).hasMessageContaining("clean_text");
      }
      // an exception inside a UDF is a query error; the connection stays usable
      assertThatThrownBy(() -> one(session, "SELECT clean_number('1', ';')")).hasMessageContaining("decimal_separator");
      assertThat(one(session, "SELECT clean_text(' ok ')")).isEqualTo("ok");
    }
  }

  @Test
  void noVettedNameShadowsABuiltIn() throws Exception {
    try (Connection fresh = DriverManager.getConnection("jdbc:duckdb:")) {
      for (String name : CleaningFunctions.names()) {
        assertThat(Jdbc.query(fresh, "SELECT 1 FROM duckdb_functions() WHERE function_name = ?", name)).as(name).isEmpty();
      }
    }
  }

  @Test
  void everyVettedFunctionWorksInSqlOnTrickyInputsAndNull() throws Exception {
    Connection c = SharedLake.connection();
    String moj = Cleaners.toMojibake("Whangārei").replace("'", "''");
    List<String[]> cases = List.of(
        new String[] {"clean_text('  " + moj + "&nbsp;<b>x</b>\u200B')", "Whangārei x"},
        new String[] {"clean_key(' WHANGĀREI ')", "whangarei"},
        new String[] {"clean_unaccent('Ōpōtiki Łódź')", "Opotiki Lodz"},
        new String[] {"clean_whitespace(' a \t\u00A0 b ')", "a b"},
        new String[] {"clean_punctuation('Hamilton ,New Zealand ( NZ )')", "Hamilton, New Zealand (NZ)"},
        new String[] {"clean_markup('a&amp;b<br/>\u00AD')", "a&b"},
        new String[] {"clean_mojibake('SÃ£o Paulo')", "São Paulo"},
        new String[] {"clean_casefold('STRAßE')", "strasse"},
        new String[] {"clean_boolean('TRÜE')", "true"},
        new String[] {"clean_boolean('0')", "false"},
        new String[] {"CAST(clean_boolean('maybe') AS VARCHAR)", null},
        new String[] {"clean_iso_date('+1995-11-22T00:00:00Z')", "1995-11-22"},
        new String[] {"clean_iso_date('+1992-00-00T00:00:00Z')", "1992"},
        new String[] {"clean_iso_date('03/04/2020', 'MDY')", "2020-03-04"},
        new String[] {"clean_iso_date('not a date')", null},
        new String[] {"CAST(clean_date('22.11.1995') AS VARCHAR)", "1995-11-22"},
        new String[] {"typeof(clean_date('22.11.1995'))", "DATE"},
        new String[] {"clean_number('12 484,59')", "12484.59"},
        new String[] {"clean_number('1.234,5')", "1234.5"},
        new String[] {"clean_number('13,789', ',')", "13.789"},
        new String[] {"CAST(clean_number('12a') AS VARCHAR)", null},
        new String[] {"clean_number('214,092 units')", "214092.0"},
        new String[] {"CAST(clean_decimal('1.234,5') AS VARCHAR)", "1234.5000000000"},
        new String[] {"typeof(clean_decimal('1'))", "DECIMAL(38,10)"},
        new String[] {"clean_category('whangarei', 'Whangārei', 'Auckland')", "Whangārei"},
        new String[] {"clean_category('AUCKLAND ', '[\"Whangārei\",\"Auckland\"]')", "Auckland"},
        new String[] {"clean_category('Hamilton', 'Whangārei')", "Hamilton"},
        new String[] {"clean_category('x', to_json(['X', 'Y'])::VARCHAR)", "X"});
    for (String[] t : cases) {
      assertThat(one(c, "SELECT " + t[0])).as(t[0]).isEqualTo(t[1]);
    }
    for (FunctionSpec f : CleaningFunctions.catalogue()) {
      StringBuilder call = new StringBuilder("SELECT " + f.name() + "(NULL");
      for (int i = 1; i < f.arity(); i++) {
        call.append(f.name().equals("clean_number") ? ", '.'" : ", 'DMY'");
      }
      call.append(f.variadic() ? ", 'a')" : ")");
      assertThat(one(c, call.toString())).as(call.toString()).isNull();
    }
    // vectorized over a column, with NULLs and repeats (the per-chunk memo must not mix rows up)
    List<List<String>> rows = Jdbc.query(c, "SELECT v, clean_number(v) FROM (SELECT CASE WHEN i % 5 = 0 THEN NULL "
        + "ELSE '+' || (i % 7) END AS v FROM range(5000) t(i))");
    for (List<String> row : rows) {
      assertThat(row.get(1)).isEqualTo(row.get(0) == null ? null : Double.parseDouble(row.get(0).substring(1)) + "");
    }
    assertThat(CleaningFunctions.promptCatalogue()).contains("clean_number(value VARCHAR) -> DOUBLE");
    assertThat(CleaningFunctions.catalogue()).allSatisfy(f -> assertThat(f.description()).isNotBlank());
  }
}
