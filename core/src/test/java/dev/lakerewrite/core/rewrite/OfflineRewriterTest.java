package dev.lakerewrite.core.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.LakeRewriter;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.TestLakes;
import dev.lakerewrite.noiseudf.NoiseInjector;
import dev.lakerewrite.noiseudf.NoiseKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The offline rewriter end to end on the WikiDBs sample: the thesis's motivating cases, on real data. */
class OfflineRewriterTest {

  private static RewriteResult rewrite(String sql) {
    return Rewriter.rewrite(sql, TestLakes.sample());
  }

  private static List<String> actions(RewriteResult r) {
    return r.trace().events("action").stream().map(e -> String.valueOf(e.data().get("action"))).toList();
  }

  /** A lake of the CSV files written into {@code tmp} (file name → contents, header first). */
  private static DataLake csvLake(Path tmp, Map<String, String> files) throws Exception {
    Path folder = Files.createDirectories(tmp.resolve("lake"));
    for (Map.Entry<String, String> f : files.entrySet()) {
      Files.writeString(folder.resolve(f.getKey()), f.getValue());
    }
    return DataLake.builder().cacheDirectory(tmp.resolve("cache")).fromCsvFolder(folder);
  }

  private static double number(Object v) {
    return v instanceof Number n ? n.doubleValue() : Double.parseDouble(v.toString().replace("+", ""));
  }

  @Test
  void findsTheTableTheColumnsAndTheLakesSpellingOfAFilterValue() {
    RewriteResult r = rewrite("SELECT name, population FROM nz_regions WHERE capital = 'Whangarei'");
    assertThat(r.stopReason()).isEqualTo(StopReason.OUTPUT_QUERY);
    assertThat(r.sql()).contains("region_of_new_zealand").contains("'Whangārei'");
    ResultTable t = r.result().orElseThrow();
    assertThat(t.columnNames()).containsExactly("name", "population");
    assertThat(t.rowCount()).isEqualTo(1);
    assertThat(t.get(0, 0)).isEqualTo("Northland Region");
    assertThat(number(t.get(0, 1))).isEqualTo(179100);
    assertThat(actions(r)).anyMatch(a -> a.startsWith("SEARCH_VALUE(region_of_new_zealand, 'Whangarei')"));
    assertThat(r.candidates()).hasSizeGreaterThanOrEqualTo(2);
    assertThat(r.candidates().get(0).result().orElseThrow().rowCount()).isZero();
    // The mapping it applied, each column with a calibrated confidence.
    assertThat(r.mapping().columns()).containsEntry("nz_regions.population", java.util.Set.of(
        "region_of_new_zealand.population")).containsEntry("nz_regions.capital", java.util.Set.of(
        "region_of_new_zealand.capital"));
    assertThat(r.mapping().columnConfidence().get("nz_regions.population")).isGreaterThan(0.5);
    assertThat(r.confidence()).isBetween(0.0, 1.0);
  }

  @Test
  void aCtesOutputReadUnqualifiedBesideOneAssumedTableStaysTheCtesColumn() {
    // TPC-H q15's shape: total_revenue is the CTE's, not a column of the one assumed table in the block (it was
    // once read from that table's best guess, and supplier_no from its address).
    RewriteResult r = rewrite("WITH totals AS (SELECT sum(population) AS total_people FROM nz_regions) "
        + "SELECT name, total_people FROM nz_regions, totals WHERE population * 10 > total_people ORDER BY name");
    ResultTable t = r.result().orElseThrow();
    assertThat(t.columnNames()).containsExactly("name", "total_people");
    assertThat(t.rowCount()).isPositive();
    assertThat(new java.util.HashSet<>(t.columnValues(1))).as(r.sql()).hasSize(1);
    assertThat(r.mapping().columns()).doesNotContainKey("nz_regions.total_people");
  }

  @Test
  void aTableTheLakeDoesNotHaveKeepsItsAliasAndNoCandidateLosesAScope() {
    // venues is not a table of its own in the lake: its alias v stays in scope, read from the table that answers it
    // (the in-place rewrite once dropped it and left v.photo dangling, for DuckDB's binder to reject).
    RewriteResult r = rewrite("SELECT e.event, v.photo FROM olympic_events e JOIN venues v ON v.venue_id = e.venue_id "
        + "WHERE e.sport = 'bobsleigh'");
    assertThat(r.candidates()).isNotEmpty().allSatisfy(c -> assertThat(c.error().map(e -> e.kind()))
        .as("%s", c.sql()).isNotEqualTo(java.util.Optional.of(ErrorKind.BINDER)));
    assertThat(r.result()).isPresent();
    assertThat(r.result().orElseThrow().columnNames()).containsExactly("event", "photo");
    assertThat(r.mapping().columns()).containsKeys("olympic_events.event", "venues.photo");
  }

  @Test
  void anOptInMinimumConfidenceRefusesAGuessAndSaysWhichColumnsAreUnsure() {
    String sql = "SELECT name, population FROM nz_regions WHERE capital = 'Whangarei'";
    double confidence = rewrite(sql).confidence();
    LakeRewriter strict = Rewriter.builder().minConfidence(Math.min(1, confidence + 0.01)).build();
    assertThat(strict.config().minConfidence()).isEqualTo(Math.min(1, confidence + 0.01));
    RewriteResult refused = strict.rewrite(sql, TestLakes.sample());
    assertThat(refused.stopReason()).isEqualTo(StopReason.LOW_CONFIDENCE);
    assertThat(refused.result()).isEmpty();
    assertThat(refused.error().orElseThrow().message()).contains("below the minimum").contains("nz_regions.");
    RewriteResult answered = Rewriter.builder().minConfidence(Math.max(0, confidence - 0.01)).build()
        .rewrite(sql, TestLakes.sample());
    assertThat(answered.result()).isPresent();
  }

  @Test
  void bringsAColumnFromTheTableItsKeyPointsAtThroughTheJoinGraph() {
    RewriteResult r = rewrite("SELECT region, capital_city, capital_population FROM nz_regions ORDER BY region");
    assertThat(actions(r)).anyMatch(a -> a.startsWith("FIND_JOIN_PATH(region_of_new_zealand, capital)"));
    assertThat(r.sql()).contains("JOIN capital");
    ResultTable t = r.result().orElseThrow();
    assertThat(t.columnNames()).containsExactly("region", "capital_city", "capital_population");
    int northland = t.columnValues(0).indexOf("Northland Region");
    assertThat(t.get(northland, 1)).isEqualTo("Whangārei");
    assertThat(number(t.get(northland, 2))).isEqualTo(52600);
  }

  @Test
  void replacesAJoinOnKeysTheLakeDoesNotHaveByTheJoinGraphsKey() {
    RewriteResult r = rewrite("SELECT r.name, c.website FROM regions r JOIN councils c ON c.region_id = r.id ORDER BY r.name");
    // The assumed keys exist nowhere: the first candidate, on the matcher's guesses, fails or finds nothing.
    assertThat(r.candidates().get(0).error().isPresent()
        || r.candidates().get(0).result().orElseThrow().rowCount() == 0).isTrue();
    assertThat(actions(r)).anyMatch(a -> a.startsWith("FIND_JOIN_PATH("));
    // The join graph's key (region_of_new_zealand.authority = authority.label) replaces the assumed keys, in the
    // user's join as written or in views of the assumed tables.
    assertThat(r.sql()).containsIgnoringCase("authority").contains("\"label\"");
    ResultTable t = r.result().orElseThrow();
    assertThat(t.rowCount()).isEqualTo(10);
    assertThat(t.rows()).contains(List.of("Auckland Region", "https://www.aucklandcouncil.govt.nz/"));
  }

  @Test
  void dropsAnObsoleteTableWhoseColumnsTheMainTableHas() {
    RewriteResult r = rewrite("SELECT r.name, rc.iso_code FROM regions r JOIN region_codes rc ON rc.region_id = r.id "
        + "WHERE r.name LIKE '%District' ORDER BY r.name");
    assertThat(r.sql()).doesNotContain("JOIN").contains("\"ISO 3166-2 code\"");
    assertThat(r.result().orElseThrow().rows()).containsExactly(
        List.of("Gisborne District", "NZ-GIS"), List.of("Marlborough District", "NZ-MBH"),
        List.of("Tasman District", "NZ-TAS"));
  }

  @Test
  void keepsTheUsersGroupingOrderingAndLimits() {
    RewriteResult r = rewrite("SELECT implementation_language, COUNT(*) AS editors FROM xml_editors "
        + "GROUP BY implementation_language ORDER BY editors DESC, implementation_language LIMIT 3");
    ResultTable t = r.result().orElseThrow();
    assertThat(t.columnNames()).containsExactly("implementation_language", "editors");
    assertThat(t.rowCount()).isLessThanOrEqualTo(3);
    assertThat(r.sql()).contains("GROUP BY").contains("ORDER BY").contains("LIMIT 3");
  }

  @Test
  void countsTheRowsOfATableSplitInTwoByUnioningBothHalves() {
    RewriteResult r = rewrite("SELECT COUNT(*) AS categories FROM people_categories");
    long both;
    try (LakeSession s = TestLakes.sample().openSession()) {
      both = ((Number) s.execute("SELECT (SELECT count(*) FROM computer_animated_film_category_of_associated_people)"
          + " + (SELECT count(*) FROM region_of_new_zealand_category_of_associated_people)").table().get(0, 0)).longValue();
    }
    assertThat(r.sql()).contains("UNION").contains("computer_animated_film_category_of_associated_people")
        .contains("region_of_new_zealand_category_of_associated_people");
    assertThat(number(r.result().orElseThrow().get(0, 0))).isEqualTo(both);
  }

  @Test
  void readsATableSplitByRowsIntoPartsOfOneNameStemAsTheirUnion(@TempDir Path tmp) throws Exception {
    String header = "SPRT_NM,INST_OF,PLYRS\n";
    try (DataLake lake = csvLake(tmp, Map.of(
        "zo_sprts_est.csv", header + "curling,team sport,4\nluge,individual sport,1\n",
        "zo_sprts_wst.csv", header + "hockey,team sport,6\nskeleton,individual sport,1\n",
        "zo_sprts_cntr.csv", header + "biathlon,individual sport,1\nbobsleigh,team sport,4\n",
        // Same columns, another stem: a different thing, never unioned in.
        "zo_gms_lst.csv", header + "chess,board game,2\n"))) {
      RewriteResult r = Rewriter.rewrite(
          "SELECT \"instance of\", COUNT(*) AS n FROM sport GROUP BY \"instance of\" ORDER BY \"instance of\"", lake);
      assertThat(r.sql()).contains("zo_sprts_est").contains("zo_sprts_wst").contains("zo_sprts_cntr")
          .doesNotContain("zo_gms_lst");
      ResultTable t = r.result().orElseThrow();
      assertThat(t.rowCount()).isEqualTo(2);
      assertThat(t.get(0, 0)).isEqualTo("individual sport");
      assertThat(number(t.get(0, 1))).isEqualTo(3);
      assertThat(number(t.get(1, 1))).isEqualTo(3);

      // A user who names one part means that part.
      RewriteResult part = Rewriter.rewrite("SELECT COUNT(*) AS n FROM zo_sprts_est", lake);
      assertThat(part.sql()).doesNotContain("zo_sprts_wst");
      assertThat(number(part.result().orElseThrow().get(0, 0))).isEqualTo(2);
    }
  }

  @Test
  void readsTheLabelOfACodedColumnFromItsLookupTableWhenTheQueryComparesItWithText(@TempDir Path tmp)
      throws Exception {
    StringBuilder licences = new StringBuilder("licence_name,licence_kind,approved_by\n");
    String[] kinds = {"copyleft", "permissive", "public domain"};
    for (int i = 0; i < 30; i++) {
      licences.append("licence ").append(i).append(',').append(kinds[i % 3]).append(',').append(i % 4 + 1)
          .append('\n');
    }
    try (DataLake lake = csvLake(tmp, Map.of(
        "licences.csv", licences.toString(),
        "approver_codes.csv", "code,approver\n1,Free Software Foundation\n"
            + "2,Open Source Initiative\n3,Debian\n4,Fedora\n"))) {
      RewriteResult r = Rewriter.rewrite("SELECT licence_name, approved_by FROM licences"
          + " WHERE approved_by = 'Free Software Foundation' ORDER BY licence_name", lake);
      assertThat(r.sql()).contains("approver_codes");
      ResultTable t = r.result().orElseThrow();
      assertThat(t.rowCount()).isEqualTo(8);
      assertThat(t.get(0, 1)).isEqualTo("Free Software Foundation");
    }
  }

  @Test
  void showsTheLabelOfACodedColumnAndReadsNumbersWrittenWithUnitsAsNumbers(@TempDir Path tmp) throws Exception {
    StringBuilder licences = new StringBuilder("licence_name,approved_by,tax_id\n");
    for (int i = 0; i < 12; i++) {
      licences.append("licence ").append(i).append(',').append(i % 3 + 1).append(",\"")
          .append(String.format(java.util.Locale.ROOT, "%,d", 214_092 + 1_000 * i)).append(" units\"\n");
    }
    try (DataLake lake = csvLake(tmp, Map.of(
        "licences.csv", licences.toString(),
        // Named after the code column: its lookup. Holds the same codes but named otherwise: not its lookup.
        "approved_by_types.csv", "code,approver\n1,Free Software Foundation\n2,Open Source Initiative\n3,Debian\n",
        "colour_types.csv", "code,colour\n1,red\n2,green\n3,blue\n"))) {
      RewriteResult r = Rewriter.rewrite(
          "SELECT licence_name, approved_by, tax_id FROM licences ORDER BY licence_name LIMIT 2", lake);
      assertThat(r.sql()).contains("approved_by_types").doesNotContain("colour_types");
      ResultTable t = r.result().orElseThrow();
      assertThat(t.get(0, 0)).isEqualTo("licence 0");
      assertThat(t.get(0, 1)).isEqualTo("Free Software Foundation");
      assertThat(t.get(0, 2)).as(r.sql()).isNotNull();
      assertThat(number(t.get(0, 2))).as(r.sql()).isEqualTo(214_092);
      assertThat(t.get(1, 1)).isEqualTo("Open Source Initiative");
      assertThat(number(t.get(1, 2))).isEqualTo(215_092);
    }
  }

  @Test
  void readsDatesTheLakeKeptAsCompactIntegersAndColumnsBehindTheirTablesPrefix(@TempDir Path tmp)
      throws Exception {
    // A warehouse habit: dates as integers (19950305) and every column prefixed with its table (ordTotl). The
    // query's orderdate is ordDay, not the ordPrty beside it, and compares with dates only once read as one.
    StringBuilder orders = new StringBuilder("ordKey,ordCust,ordDay,ordTotl,ordPrty\n");
    for (int i = 1; i <= 40; i++) {
      orders.append(i).append(',').append(100 + i % 7).append(',')
          .append(String.format(java.util.Locale.ROOT, "1995%02d%02d", 1 + i % 12, 1 + i % 28)).append(',')
          .append(1000 + 25 * i).append(',').append(i % 5 + 1).append('\n');
    }
    try (DataLake lake = csvLake(tmp, Map.of("t_orders.csv", orders.toString()))) {
      RewriteResult r = Rewriter.rewrite("SELECT o_orderkey, o_orderdate, o_totalprice FROM orders "
          + "WHERE o_orderdate >= DATE '1995-11-01' AND o_totalprice > 1500 ORDER BY o_orderkey", lake);
      assertThat(r.sql()).contains("ordDay").contains("ordTotl").doesNotContain("ordPrty");
      ResultTable t = r.result().orElseThrow();
      // Months 11 and 12 are i % 12 = 10, 11: i = 22, 23, 34, 35 (totals 1550, 1575, 1850, 1875).
      assertThat(t.columnValues(0).stream().map(v -> number(v)).toList()).as(r.sql()).containsExactly(22.0, 23.0,
          34.0, 35.0);
      assertThat(String.valueOf(t.get(0, 1))).as(r.sql()).startsWith("1995-11-23");
    }
  }

  @Test
  void readsACurrencyCodeAsTheCurrencyTheLakeSpellsOut(@TempDir Path tmp) throws Exception {
    // The thesis's motivating example: the analyst writes 'USD', the lake says 'US Dollar'.
    try (DataLake lake = csvLake(tmp, Map.of("country_profiles.csv", "country_name,currency\n"
        + "United States,US Dollar\nEcuador,US Dollar\nNew Zealand,New Zealand dollar\nFrance,Euro\n"
        + "Japan,Japanese yen\n"))) {
      RewriteResult r = Rewriter.rewrite(
          "SELECT country_name FROM countries WHERE currency = 'USD' ORDER BY country_name", lake);
      assertThat(r.sql()).contains("'US Dollar'");
      assertThat(r.result().orElseThrow().rows()).containsExactly(List.of("Ecuador"), List.of("United States"));

      RewriteResult nzd = Rewriter.rewrite("SELECT country_name FROM countries WHERE currency = 'NZD'", lake);
      assertThat(nzd.result().orElseThrow().rows()).containsExactly(List.of("New Zealand"));
    }
  }

  @Test
  void numbersInACleanedTextColumnStillSortAsNumbers(@TempDir Path tmp) throws Exception {
    StringBuilder genes = new StringBuilder("NCBI_LOCUS_TAG,GENOMIC_STRT\n");
    int[] starts = {85868, 3878123, 3833861, 3384364, 1308308, 2675374, 912345, 45678, 2345678, 1500740, 2559694,
        3274815, 99999, 1234567};
    for (int i = 0; i < starts.length; i++) {
      // Control characters and soft hyphens in a few values: the noise BUILD_CTE cleans as text.
      String start = i % 5 == 0 ? starts[i] + "\u00AD" : i % 5 == 1 ? "\u200B" + starts[i] : String.valueOf(starts[i]);
      genes.append("TAG_").append(i).append(',').append(start).append('\n');
    }
    try (DataLake lake = csvLake(tmp, Map.of("tbl_encoded_by.csv", genes.toString()))) {
      RewriteResult r = Rewriter.rewrite("SELECT \"NCBI locus tag\", \"genomic start\" FROM encoded_by"
          + " WHERE \"genomic start\" IS NOT NULL ORDER BY \"genomic start\" DESC LIMIT 3", lake);
      assertThat(r.sql()).as("the noisy column is read from a cleaned CTE").contains("_clean AS (");
      ResultTable t = r.result().orElseThrow();
      assertThat(t.rows().stream().map(row -> number(row.get(1))).toList()).as(r.sql())
          .containsExactly(3878123.0, 3833861.0, 3384364.0);
    }
    // Numbers with units: the CTE types them itself (clean_number), and the rewrite reads them as they are.
    StringBuilder withUnits = new StringBuilder("NCBI_LOCUS_TAG,GENOMIC_STRT\n");
    for (int i = 0; i < starts.length; i++) {
      withUnits.append("TAG_").append(i).append(",\"").append(String.format(java.util.Locale.ROOT, "%,d", starts[i]))
          .append(" units\"\n");
    }
    try (DataLake lake = csvLake(tmp.resolve("units"), Map.of("tbl_encoded_by.csv", withUnits.toString()))) {
      RewriteResult r = Rewriter.rewrite("SELECT \"NCBI locus tag\", \"genomic start\" FROM encoded_by"
          + " WHERE \"genomic start\" IS NOT NULL ORDER BY \"genomic start\" DESC LIMIT 3", lake);
      assertThat(r.result().orElseThrow().rows().stream().map(row -> number(row.get(1))).toList()).as(r.sql())
          .containsExactly(3878123.0, 3833861.0, 3384364.0);
      assertThat(r.candidates()).as("no candidate reads a typed column with clean_number again")
          .noneMatch(c -> c.error().map(e -> e.message().contains("clean_number(DOUBLE)")).orElse(false));
    }
  }

  @Test
  void numbersWithUnitsInAJoinedPartOfTheTableSortAsNumbers(@TempDir Path tmp) throws Exception {
    // A part table split by columns: the comments in one file, the retail prices (text with units) in the other.
    StringBuilder info = new StringBuilder("ParRef,Brand,Comment\n");
    StringBuilder prices = new StringBuilder("Par,Size,Rtlp\n");
    for (int i = 1; i <= 30; i++) {
      info.append(i).append(",Brand#").append(10 + i % 5).append(",comment number ").append(i).append('\n');
      prices.append(i).append(',').append(i % 7).append(",\"")
          .append(String.format(java.util.Locale.ROOT, "%,.1f", 880.0 + 5 * i)).append(" units\"\n");
    }
    try (DataLake lake = csvLake(tmp, Map.of("raw_part_info.csv", info.toString(), "raw_part.csv",
        prices.toString()))) {
      RewriteResult r = Rewriter.rewrite("SELECT p_comment, p_brand, p_retailprice FROM part WHERE p_retailprice IS NOT NULL"
          + " ORDER BY p_retailprice DESC, p_comment LIMIT 3", lake);
      ResultTable t = r.result().orElseThrow();
      assertThat(t.rows().stream().map(row -> number(row.get(2))).toList()).as(r.sql())
          .containsExactly(1030.0, 1025.0, 1020.0);
    }
  }

  @Test
  void placesUnqualifiedColumnsOfSeveralTablesByTheirPrefixes(@TempDir Path tmp) throws Exception {
    StringBuilder orders = new StringBuilder("ORDKEY,CUSTKEY,TOTALPRICE\n");
    for (int i = 0; i < 9; i++) {
      orders.append(100 + i).append(',').append(i % 3).append(',').append(10 * (i + 1)).append('\n');
    }
    try (DataLake lake = csvLake(tmp, Map.of(
        "tbl_ordrs.csv", orders.toString(),
        "tbl_cstmrs.csv", "CUSTKEY,NAME\n0,Alice\n1,Bob\n2,Carol\n"))) {
      // TPC-H style: no qualifiers; c_ columns are the customers', o_ columns the orders'.
      RewriteResult r = Rewriter.rewrite("SELECT c_name, sum(o_totalprice) AS total FROM customer, orders"
          + " WHERE c_custkey = o_custkey GROUP BY c_name ORDER BY c_name", lake);
      ResultTable t = r.result().orElseThrow();
      assertThat(t.rowCount()).as(r.sql()).isEqualTo(3);
      assertThat(t.get(0, 0)).isEqualTo("Alice");
      assertThat(number(t.get(0, 1))).as(r.sql()).isEqualTo(10 + 40 + 70);
      assertThat(t.get(2, 0)).isEqualTo("Carol");
      assertThat(number(t.get(2, 1))).isEqualTo(30 + 60 + 90);
    }
  }

  @Test
  void aColumnOfATableSplitByColumnsIsReadThroughTheRowIdTheTwoPartsShare(@TempDir Path tmp) throws Exception {
    // lineitem split by columns: the discount went to the second part, whose row id is named otherwise (RecordRef)
    // and typed, while the first part's row id is text with one zero-width space. The first part's date column must not
    // stand in for a discount the query multiplies and bounds by 0.05 .. 0.07.
    StringBuilder first = new StringBuilder("RecId,Ext,Receiptdate\n");
    StringBuilder second = new StringBuilder("RecordRef,Discount,Lnsts\n");
    double expected = 0;
    for (int i = 1; i <= 300; i++) {
      double ext = 100 + i;
      double discount = (i % 11) / 100.0;
      first.append(i == 83 ? "\u200b83" : String.valueOf(i)).append(',').append(ext).append(",1995-0")
          .append(1 + i % 9).append("-1").append(i % 9).append('\n');
      second.append(i).append(',').append(discount).append(',').append(1 + i % 2).append('\n');
      if (discount >= 0.05 && discount <= 0.07) {
        expected += ext * discount;
      }
    }
    try (DataLake lake = csvLake(tmp, Map.of("raw_lntm.csv", first.toString(),
        "raw_lntm_attributes.csv", second.toString()))) {
      RewriteResult r = Rewriter.rewrite("SELECT sum(l_extendedprice * l_discount) AS revenue FROM lineitem "
          + "WHERE l_discount BETWEEN DECIMAL '0.06' - DECIMAL '0.01' AND DECIMAL '0.06' + DECIMAL '0.01'", lake);
      assertThat(r.sql()).contains("Discount").contains("RecordRef").doesNotContain("Receiptdate");
      assertThat(number(r.result().orElseThrow().get(0, 0))).as(r.sql()).isCloseTo(expected,
          org.assertj.core.api.Assertions.within(1e-6));
    }
  }

  @Test
  void whenTheBestPlansQueryReturnsNoRowsTheLoopRunsTheRunnerUpTableAndKeepsTheOneWithRows(@TempDir Path tmp)
      throws Exception {
    StringBuilder editors = new StringBuilder("LBL,DSCR,CPYR_LCNS\n");
    String[] licences = {"GPL-3.0", "MIT", "Apache-2.0", "MIT", "GPL-3.0", "MIT"};
    for (int i = 0; i < licences.length; i++) {
      editors.append("editor ").append(i).append(",XML editor,").append(licences[i]).append('\n');
    }
    String sql = "WITH per_parent AS (SELECT \"copyright license\" AS parent_key, COUNT(*) AS total FROM xml_editor"
        + " GROUP BY \"copyright license\") SELECT p.\"short name\", s.total FROM copyright_license p"
        + " JOIN per_parent s ON s.parent_key = p.label ORDER BY s.total DESC, p.\"short name\"";
    try (DataLake lake = csvLake(tmp, Map.of(
        "zo_xml_edtrs.csv", editors.toString(),
        // A stale table named as the user names it, whose labels no editor uses, and the current one under another
        // name.
        "copyright_license.csv", "label,short_name\nGPL-2.0,GNU GPL v2\n"
            + "LGPL-2.1,GNU LGPL\nMPL-1.1,Mozilla License\n",
        "zo_cpyr_lcncs.csv", "LBL,SHRT_NM\nGPL-3.0,GNU GPL\nMIT,MIT License\n"
            + "Apache-2.0,Apache License\nBSD-2,BSD License\n"))) {
      RewriteResult r = Rewriter.rewrite(sql, lake);
      // The best-scored plan reads the stale table, whose labels join nothing; runner-up tables are run next, and the
      // one with rows wins.
      assertThat(r.candidates().get(0).result().orElseThrow().rowCount()).isZero();
      assertThat(r.sql()).contains("zo_cpyr_lcncs");
      ResultTable t = r.result().orElseThrow();
      assertThat(t.rows()).containsExactly(List.of("MIT License", 3L), List.of("GNU GPL", 2L),
          List.of("Apache License", 1L));
      assertThat(r.candidates().get(r.chosen()).reason()).contains("returned no rows").contains("alternative");

      // One step has no second turn: it returns the empty result.
      RewriteResult once = Rewriter.builder().method(Rewriter.Method.ONE_STEP).build().rewrite(sql, lake);
      assertThat(once.result().orElseThrow().rowCount()).isZero();
    }
  }

  @Test
  void aTableMergedAsObsoleteIsReadOnItsOwnWhenTheMergedQueryReturnsNoRows(@TempDir Path tmp) throws Exception {
    // Creatures and works both have a label and a description; the query counts creatures per work and reads the
    // work's description. Reading the work's columns from the creatures table joins a creature's label with a
    // work's: no rows.
    StringBuilder creatures = new StringBuilder("LBL,DSCR,PRSN_IN_WRK\n");
    String[] works = {"Adventure Time", "Adventure Time", "Pokemon", "Adventure Time", "Pokemon", "Shrek"};
    for (int i = 0; i < works.length; i++) {
      // Descriptions as free text, one per creature: a column a description can be.
      creatures.append("creature ").append(i).append(",fictional creature number ").append(i).append(',')
          .append(works[i]).append('\n');
    }
    String sql = "WITH per_parent AS (SELECT \"present in work\" AS parent_key, COUNT(*) AS total"
        + " FROM fictional_creature GROUP BY \"present in work\") SELECT p.description, s.total"
        + " FROM present_in_work p JOIN per_parent s ON s.parent_key = p.label ORDER BY s.total DESC, p.description";
    try (DataLake lake = csvLake(tmp, Map.of(
        "zo_fctn_crtrs.csv", creatures.toString(),
        "zo_wrks.csv", "LBL,DSCR\nAdventure Time,animated series\n"
            + "Pokemon,media franchise\nShrek,animated film\n"))) {
      RewriteResult r = Rewriter.rewrite(sql, lake);
      assertThat(r.candidates().get(0).result().orElseThrow().rowCount()).isZero();
      assertThat(r.candidates().get(0).reason()).contains("obsolete");
      assertThat(r.sql()).contains("zo_wrks");
      assertThat(r.result().orElseThrow().rows()).containsExactly(List.of("animated series", 3L),
          List.of("media franchise", 2L), List.of("animated film", 1L));
    }
  }

  @Test
  void findsTheLookupTableOfSmallIntegerCodesTheJoinGraphMissesByTheFilterValuesItHolds(@TempDir Path tmp)
      throws Exception {
    // SANCTIONED_BY holds codes 1-4 and the lookup's key is ID: numeric columns with unrelated names, which the
    // join graph does not pair. The lookup is found by the filter value its LABEL column holds.
    StringBuilder licences = new StringBuilder("LBL,SHOR_NAME,VERBAL_DESCRIPTION,SANCTIONED_BY\n");
    for (int i = 0; i < 24; i++) {
      licences.append("licence-").append(i).append(",L").append(i).append(",licence number ").append(i).append(',')
          .append(i % 4 + 1).append('\n');
    }
    try (DataLake lake = csvLake(tmp, Map.of(
        "tbl_copyright_lice.csv", licences.toString(),
        "tbl_sanctioned_by_dim.csv", "ID,LABEL\n1,Free Software Foundation\n"
            + "2,Open Source Initiative\n3,Debian\n4,Fedora\n"))) {
      RewriteResult r = Rewriter.rewrite("SELECT \"short name\", \"approved by\" FROM copyright_license"
          + " WHERE \"approved by\" = 'Free Software Foundation' ORDER BY \"short name\"", lake);
      assertThat(r.sql()).contains("tbl_sanctioned_by_dim");
      ResultTable t = r.result().orElseThrow();
      assertThat(t.rowCount()).isEqualTo(6);
      assertThat(t.get(0, 0)).isEqualTo("L0");
      assertThat(t.get(0, 1)).isEqualTo("Free Software Foundation");
    }
  }

  @Test
  void aTableJoinedByItsEntitysNameKeepsItsOwnColumnsThoughTheOtherTableHasColumnsOfTheSameNames() {
    // Both tables have a description and an "instance of"; the sport's are the sport's, not the event's.
    String sql = "SELECT p.description, c.label FROM \"1992_winter_olympics\" c JOIN sport p ON c.sport = p.label"
        + " WHERE p.\"instance of\" = 'Olympic sport' ORDER BY c.label";
    RewriteResult r = rewrite(sql);
    ResultTable expected;
    try (LakeSession s = TestLakes.sample().openSession()) {
      expected = s.execute(sql).table();
    }
    assertThat(expected.rowCount()).isPositive();
    assertThat(r.sql()).containsPattern("\\bsport\\w* AS p\\b");
    assertThat(r.result().orElseThrow().rows()).isEqualTo(expected.rows());
  }

  @Test
  void aQueryThatIsNotSqlStopsWithAnErrorThatSaysWhere() {
    RewriteResult r = rewrite("SELECT name population FROM WHERE x = 1");
    assertThat(r.stopReason()).isEqualTo(StopReason.INVALID_QUERY);
    assertThat(r.error().orElseThrow().kind()).isEqualTo(ErrorKind.PARSE);
    assertThat(r.error().orElseThrow().position()).isGreaterThan(0);
    assertThat(r.candidates()).isEmpty();
    RewriteResult drop = rewrite("DROP TABLE capital");
    assertThat(drop.error().orElseThrow().kind()).isEqualTo(ErrorKind.REJECTED);
  }

  @Test
  void ablationsSwitchActionsOff() {
    RewriteResult r = Rewriter.builder().disable(ActionType.SEARCH_VALUE).build()
        .rewrite("SELECT name, population FROM nz_regions WHERE capital = 'Whangarei'", TestLakes.sample());
    assertThat(actions(r)).noneMatch(a -> a.startsWith("SEARCH_VALUE"));
    assertThat(actions(r)).isNotEmpty();
    RewriteResult oneStep = Rewriter.builder().method(Rewriter.Method.ONE_STEP).build()
        .rewrite("SELECT name, population FROM nz_regions WHERE capital = 'Whangarei'", TestLakes.sample());
    assertThat(oneStep.candidates()).hasSize(1);
    assertThat(oneStep.iterations()).isEqualTo(1);
  }

  @Test
  void theTraceIsJsonLinesWithEveryStep() throws Exception {
    RewriteResult r = rewrite("SELECT name, population FROM nz_regions WHERE capital = 'Whangarei'");
    List<String> lines = r.trace().toJsonLines().lines().toList();
    ObjectMapper json = new ObjectMapper();
    for (String line : lines) {
      assertThat(json.readTree(line).has("type")).isTrue();
    }
    assertThat(r.trace().events().stream().map(RewriteEvent::type).distinct())
        .contains("query", "analysis", "retrieved", "proposal", "candidate", "decision", "action", "result");
    assertThat(r.timings().total()).isPositive();
    assertThat(r.usage().calls()).isZero();
  }

  @Test
  void cleansANoisyColumnWithACteOfCleaningFunctions(@TempDir Path tmp) throws Exception {
    Path source = tmp.resolve("clean");
    Path db = TestLakes.sampleFolder().resolve("databases").resolve("region-of-new-zealand");
    Files.createDirectories(source.resolve("databases"));
    copy(db, source.resolve("databases").resolve("region-of-new-zealand"));
    NoiseInjector.builder().seed(7).rate(0)
        .columnRate("region_of_new_zealand", "population", NoiseKind.NUMBER_FORMAT, 1.0)
        .build().inject(source, tmp.resolve("noisy"));
    double cleanTotal;
    try (LakeSession s = TestLakes.sample().openSession()) {
      cleanTotal = number(s.execute("SELECT sum(CAST(population AS BIGINT)) FROM region_of_new_zealand")
          .table().get(0, 0));
    }
    try (DataLake noisy = DataLake.builder().cacheDirectory(tmp.resolve("cache")).fromWikiDbs(tmp.resolve("noisy"))) {
      try (LakeSession s = noisy.openSession()) {
        assertThat(s.execute("SELECT sum(CAST(population AS BIGINT)) FROM region_of_new_zealand").isSuccess())
            .as("the injected formats no longer cast").isFalse();
      }
      RewriteResult r = Rewriter.rewrite("SELECT SUM(population) AS total_population FROM nz_regions", noisy);
      assertThat(actions(r)).anyMatch(a -> a.startsWith("BUILD_CTE(region_of_new_zealand"));
      assertThat(r.sql()).startsWith("WITH").contains("clean_number");
      assertThat(number(r.result().orElseThrow().get(0, 0))).isEqualTo(cleanTotal);
    }
  }

  private static void copy(Path from, Path to) throws Exception {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
