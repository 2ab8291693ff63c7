package dev.lakerewrite.noiseudf;

import dev.lakerewrite.testing.SampleLake;
import dev.lakerewrite.testing.Sandbox;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.sql.Sql;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OfflineCteBuilderTest {

  @TempDir Path dir;

  private DuckDBConnection noisyLake() throws Exception {
    Path csv = dir.resolve("lake").resolve("Towns & Cities.csv");
    Files.createDirectories(csv.getParent());
    String mojibake = Cleaners.toMojibake("Manawatū-Whanganui Region");
    String rows = String.join("\n",
        "name,region,founded,area,is capital,note",
        "Whangārei,Northland Region,+1964-01-01T00:00:00Z,+13789,true,port city",
        "Whangārei,Northland Region,01.01.1964,\"13,789\",yes,\"port city, north\"",
        "WHANGAREI,Northland Region,+1964-01-01T00:00:00Z,+13789,T,   port city",
        "Palmerston North,Manawatū-Whanganui Region,\"Nov 22, 1995\",\"12 484,59\",false,inland",
        "Palmerston North," + mojibake + ",22/11/1995,+12484.59,no,inland",
        "palmerston north,Manawatū-Whanganui Region,+1995-11-22T00:00:00Z,+12484.59,0,inland",
        "Hamilton,\"Waikato  Region\",+1877-00-00T00:00:00Z,+110.8,F,river",
        "Hamilton,Waikato Region,1877,+110.8,false,river",
        "Blenheim,Marlborough District,+1973-04-01T00:00:00Z,+103.89,N,wine",
        "Opotiki,Bay of Plenty Region,+1840-00-00T00:00:00Z,+3089.21,FALSE,Ōpōtiki") + "\n";
    Files.writeString(csv, rows, StandardCharsets.UTF_8);
    Path file = dir.resolve("lake.duckdb");
    assertThat(SampleLake.build(csv.getParent(), file)).containsExactly("towns_cities");
    DuckDBConnection c = Sandbox.open(file, dir.resolve("tmp"));
    CleaningFunctions.register(c);
    return c;
  }

  @Test
  void composesACteFromVettedFunctionsChosenByDetection() throws Exception {
    try (DuckDBConnection c = noisyLake()) {
      CteBuildResult r = OfflineCteBuilder.create().build(c, CteRequest.of("towns_cities"));
      assertThat(r.failure()).isEmpty();
      assertThat(r.builder()).isEqualTo("offline");
      assertThat(r.modelCalls()).isZero();
      assertThat(r.cteName()).isEqualTo("towns_cities_clean");
      Map<String, CleanedColumn> byColumn = r.cleanedColumns().stream().collect(Collectors.toMap(CleanedColumn::column, x -> x));
      assertThat(byColumn.keySet()).containsExactlyInAnyOrder("name", "region", "founded", "area", "is capital", "note");
      assertThat(byColumn.get("area").resultType()).isEqualTo("DOUBLE");
      assertThat(byColumn.get("is capital").resultType()).isEqualTo("BOOLEAN");
      assertThat(byColumn.get("name").kinds()).contains(NoiseKind.CASING, NoiseKind.DIACRITICS);
      assertThat(byColumn.get("region").kinds()).contains(NoiseKind.ENCODING, NoiseKind.WHITESPACE);
      assertThat(byColumn.get("name").matchKey()).isEqualTo("clean_key(%s)");
      assertThat(r.udfs()).extracting(UdfInfo::name).contains("clean_text", "clean_number", "clean_iso_date", "clean_boolean", "clean_category");
      assertThat(r.udfs()).allSatisfy(u -> assertThat(u.origin()).isEqualTo(UdfInfo.Origin.VETTED));

      String sql = "WITH " + r.withClause().orElseThrow()
          + " SELECT name, region, founded, area, \"is capital\", note FROM towns_cities_clean";
      List<List<String>> rows = Jdbc.query(c, sql);
      assertThat(rows).extracting(x -> x.get(0)).containsExactly("Whangārei", "Whangārei", "Whangārei",
          "Palmerston North", "Palmerston North", "Palmerston North", "Hamilton", "Hamilton", "Blenheim", "Opotiki");
      assertThat(rows).extracting(x -> x.get(1)).containsOnly("Northland Region", "Manawatū-Whanganui Region",
          "Waikato Region", "Marlborough District", "Bay of Plenty Region");
      assertThat(rows).extracting(x -> x.get(2)).containsExactly("1964-01-01", "1964-01-01", "1964-01-01", "1995-11-22",
          "1995-11-22", "1995-11-22", "1877", "1877", "1973-04-01", "1840");
      assertThat(rows).extracting(x -> x.get(3)).containsExactly("13789.0", "13789.0", "13789.0", "12484.59", "12484.59",
          "12484.59", "110.8", "110.8", "103.89", "3089.21");
      assertThat(rows).extracting(x -> x.get(4)).containsExactly("true", "true", "true", "false", "false", "false", "false",
          "false", "false", "false");
      // 'note' had one leading-space value: whitespace is cleaned; the unique 'Ōpōtiki' note is left alone
      assertThat(rows).extracting(x -> x.get(5)).contains("port city", "Ōpōtiki");
      assertThat(r.preview().rows()).hasSize(5);
      assertThat(r.toScratchpad(2)).contains("BUILD_CTE(towns_cities").contains("clean_number");
    }
  }

  @Test
  void theJavaPlanAndTheSqlAgreeCellByCell() throws Exception {
    try (DuckDBConnection c = noisyLake()) {
      OfflineCteBuilder builder = OfflineCteBuilder.create();
      NoiseDetector detector = NoiseDetector.create();
      for (ColumnSample s : NoiseDetector.samples(c, "towns_cities", List.of(), 100)) {
        OfflineCteBuilder.ColumnPlan plan = builder.plan(s, detector.detect(s));
        if (plan == null) {
          continue;
        }
        String col = Sql.quoted(s.column());
        for (List<String> row : Jdbc.query(c, "SELECT CAST(" + col + " AS VARCHAR), CAST(" + plan.sql(col)
            + " AS VARCHAR) FROM towns_cities")) {
          Object java = plan.apply(row.get(0));
          assertThat(row.get(1)).as(s.column() + ": " + row.get(0)).isEqualTo(java == null ? null : java.toString());
        }
      }
    }
  }

  @Test
  void reportsNoNoiseAndBadNamesAsTypedFailures() throws Exception {
    var c = SharedLake.connection();
    CteBuildResult clean = OfflineCteBuilder.create().build(c, new CteRequest("capital", List.of("label", "country"), ""));
    assertThat(clean.failure().orElseThrow().kind()).isEqualTo(CteBuildFailure.Kind.NO_NOISE_FOUND);
    CteBuildResult area = OfflineCteBuilder.create().build(c, new CteRequest("capital", List.of("area"), "plus signs"));
    assertThat(area.succeeded()).isTrue();
    assertThat(area.cleanedColumns()).singleElement().satisfies(x -> assertThat(x.expression()).isEqualTo("clean_number(\"area\", '.')"));
    CteBuildResult missing = OfflineCteBuilder.create().build(c, CteRequest.of("capitals"));
    assertThat(missing.failure().orElseThrow().kind()).isEqualTo(CteBuildFailure.Kind.UNKNOWN_TABLE);
    assertThat(missing.failure().orElseThrow().message()).contains("did you mean 'capital'");
  }
}
