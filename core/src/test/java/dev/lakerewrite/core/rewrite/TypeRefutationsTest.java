package dev.lakerewrite.core.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.match.ColumnMapping;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.core.rewrite.TypeRefutations.Refutation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a candidate's type error refutes, and how the planner and the checker act on it. */
class TypeRefutationsTest {

  private final FakeLakeTools lake = new FakeLakeTools()
      .table("clients", "segment_code INTEGER, segment VARCHAR, balance VARCHAR, balance_eur DOUBLE, name VARCHAR",
          "1|BUILDING|1,200 EUR|1200.0|Ann", "2|MACHINERY|300 EUR|300.0|Bob")
      .similar("mktsegment", "segment code", 0.9).similar("mktsegment", "segment", 0.7)
      .similar("customers", "clients", 0.8);

  private static RewriteCandidate failed(int index, String sql, ErrorKind kind, String message,
      Map<String, Set<String>> mapping) {
    return new RewriteCandidate(index, index + 1, sql, "test", List.of("clients"), Optional.empty(),
        Optional.of(new QueryError(kind, message, -1, sql)), Duration.ZERO, 0, List.of(),
        new ColumnMapping(mapping, Map.of(), 0.5, List.of()));
  }

  private static final String NOT_CONVERTED =
      "Conversion Error: Could not convert string 'BUILDING' to INT32\n\nLINE 1: ...";

  @Test
  void aTextLiteralThatDoesNotConvertRefutesTheNumberColumnComparedWithIt() {
    RewriteCandidate c = failed(0, "SELECT name FROM clients WHERE segment_code = 'BUILDING'", ErrorKind.RUNTIME,
        NOT_CONVERTED, Map.of("customers.mktsegment", Set.of("clients.segment_code"), "customers.c_name",
            Set.of("clients.name")));

    assertThat(TypeRefutations.of(c, lake)).extracting(Refutation::assumedColumn, Refutation::lakeTable,
        Refutation::lakeColumn).containsExactly(org.assertj.core.groups.Tuple.tuple("mktsegment", "clients",
            "segment_code"));
  }

  @Test
  void inListsAreReadButAColumnReadThroughACleanerIsNotBlamed() {
    RewriteCandidate inList = failed(0, "SELECT name FROM clients WHERE segment_code IN ('BUILDING', 'AUTO')",
        ErrorKind.RUNTIME, NOT_CONVERTED, Map.of("customers.mktsegment", Set.of("clients.segment_code")));
    RewriteCandidate cleaned = failed(0, "SELECT name FROM clients WHERE clean_number(balance) IN ('low', 'high')",
        ErrorKind.RUNTIME, "Conversion Error: Could not convert string 'low' to DOUBLE",
        Map.of("customers.acctbal", Set.of("clients.balance")));

    assertThat(TypeRefutations.of(inList, lake)).extracting(Refutation::lakeColumn).containsExactly("segment_code");
    // The rewrite chose to read balance as a number; balance itself may still be the right column.
    assertThat(TypeRefutations.of(cleaned, lake)).isEmpty();
  }

  @Test
  void aDateReadAsANumberDoesNotRefuteTheDateColumn() {
    RewriteCandidate c = failed(0, "SELECT name FROM clients WHERE year(clean_number(segment)) = 2020",
        ErrorKind.BINDER, "Binder Error: No function matches the given name and argument types 'year(DOUBLE)'.",
        Map.of("customers.since", Set.of("clients.segment")));

    assertThat(TypeRefutations.of(c, lake)).isEmpty();
  }

  @Test
  void aFunctionWithoutAnOverloadForTheTypeRefutesTheArgumentOfThatType() {
    RewriteCandidate c = failed(0, "SELECT sum(balance_eur), sum(balance), sum(clean_number(segment)) FROM clients",
        ErrorKind.BINDER, "Binder Error: No function matches the given name and argument types 'sum(VARCHAR)'. "
            + "You might need to add explicit type casts.",
        Map.of("customers.acctbal", Set.of("clients.balance"), "customers.total", Set.of("clients.balance_eur"),
            "customers.mktsegment", Set.of("clients.segment")));

    // balance_eur is a number, segment is read as one: only the text column summed as it is is wrong.
    assertThat(TypeRefutations.of(c, lake)).extracting(Refutation::assumedColumn, Refutation::lakeColumn)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("acctbal", "balance"));
  }

  @Test
  void aColumnDuckDbCouldNotCastIsRefutedWhereverItWasCompared() {
    RewriteCandidate c = failed(0, "SELECT name FROM clients JOIN orders ON segment = o_custkey", ErrorKind.RUNTIME,
        "Conversion Error: Could not convert string 'BUILDING' to INT64 when casting from source column segment\n\n"
            + "LINE 1: ...", Map.of("customers.c_custkey", Set.of("clients.segment")));

    assertThat(TypeRefutations.of(c, lake)).extracting(Refutation::assumedColumn, Refutation::lakeColumn,
        Refutation::reason).containsExactly(org.assertj.core.groups.Tuple.tuple("c_custkey", "segment",
            "segment holds values like 'BUILDING' is no INT64 (candidate 0)"));
  }

  @Test
  void aComparisonTheBinderRejectsRefutesTheTextColumnAtTheErrorsPosition() {
    String sql = "SELECT name FROM clients WHERE segment_code = 1 AND segment >= DATE '1995-03-15'";
    RewriteCandidate c = new RewriteCandidate(0, 1, sql, "test", List.of("clients"), Optional.empty(),
        Optional.of(new QueryError(ErrorKind.BINDER, "Binder Error: Cannot compare values of type VARCHAR and type "
            + "DATE - an explicit cast is required", sql.indexOf("segment >="), sql)), Duration.ZERO, 0, List.of(),
        new ColumnMapping(Map.of("customers.c_since", Set.of("clients.segment"), "customers.mktsegment",
            Set.of("clients.segment_code")), Map.of(), 0.5, List.of()));

    assertThat(TypeRefutations.of(c, lake)).extracting(Refutation::assumedColumn, Refutation::lakeColumn)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("c_since", "segment"));
  }

  private static RewriteCandidate rejectedAt(String sql, String message, String at, Map<String, Set<String>> mapping) {
    return new RewriteCandidate(0, 1, sql, "test", List.of("clients"), Optional.empty(),
        Optional.of(new QueryError(ErrorKind.BINDER, message, sql.indexOf(at), sql)), Duration.ZERO, 0, List.of(),
        new ColumnMapping(mapping, Map.of(), 0.5, List.of()));
  }

  @Test
  void aTextColumnComparedWithASubquerysNumbersInInIsRefuted() {
    // DuckDB words it otherwise for IN and ANY, and points at the column before the IN.
    String sql = "SELECT name FROM clients WHERE segment IN (SELECT segment_code FROM clients WHERE balance_eur > 0)";
    RewriteCandidate c = rejectedAt(sql, "Binder Error: Cannot compare values of type VARCHAR and BIGINT in "
        + "IN/ANY/ALL clause - an explicit cast is required", "segment IN", Map.of("customers.c_custkey",
            Set.of("clients.segment"), "nations.n_key", Set.of("clients.segment_code")));

    assertThat(TypeRefutations.of(c, lake)).extracting(Refutation::assumedColumn, Refutation::lakeColumn)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("c_custkey", "segment"));
  }

  @Test
  void valuesBetweenDatesAndCoalescedWithANumberRefuteTheTextColumn() {
    String between = "SELECT name FROM clients WHERE segment BETWEEN DATE '1999-02-22' AND DATE '1999-03-24'";
    String coalesce = "SELECT name, balance_eur - COALESCE(segment, 0) FROM clients";

    assertThat(TypeRefutations.of(rejectedAt(between, "Binder Error: Cannot mix values of type VARCHAR and DATE in "
        + "BETWEEN clause - an explicit cast is required", "segment BETWEEN", Map.of("items.i_rec_end_date",
            Set.of("clients.segment"))), lake)).extracting(Refutation::assumedColumn)
        .containsExactly("i_rec_end_date");
    assertThat(TypeRefutations.of(rejectedAt(coalesce, "Binder Error: Cannot mix values of type VARCHAR and "
        + "INTEGER_LITERAL in COALESCE operator - an explicit cast is required", "COALESCE", Map.of(
            "returns.sr_return_tax", Set.of("clients.segment"), "sales.ss_qty", Set.of("clients.balance_eur"))),
        lake)).extracting(Refutation::assumedColumn).containsExactly("sr_return_tax");
  }

  @Test
  void columnsInsideOtherFunctionsAreNotBlamed() {
    RewriteCandidate c = failed(0, "SELECT name FROM clients WHERE length(CAST(segment_code AS VARCHAR)) = 'BUILDING'",
        ErrorKind.RUNTIME, NOT_CONVERTED, Map.of("customers.mktsegment", Set.of("clients.segment_code")));

    assertThat(TypeRefutations.of(c, lake)).isEmpty();
  }

  @Test
  void otherErrorsAndCandidatesWithoutAMappingRefuteNothing() {
    assertThat(TypeRefutations.of(failed(0, "SELECT x FROM clients", ErrorKind.BINDER,
        "Binder Error: Referenced column \"x\" not found", Map.of("customers.x", Set.of("clients.name"))), lake))
        .isEmpty();
    assertThat(TypeRefutations.of(failed(0, "SELECT name FROM clients WHERE segment_code = 'BUILDING'",
        ErrorKind.RUNTIME, NOT_CONVERTED, Map.of()), lake)).isEmpty();
    assertThat(TypeRefutations.of(failed(0, "SELECT name FROM clients WHERE", ErrorKind.RUNTIME, NOT_CONVERTED,
        Map.of("customers.mktsegment", Set.of("clients.segment_code"))), lake)).isEmpty();
  }

  @Test
  void duckDbTypeNamesReadAsTheirFamilies() {
    assertThat(TypeRefutations.family("INT32")).isEqualTo(dev.lakerewrite.retrieval.TypeFamily.NUMERIC);
    assertThat(TypeRefutations.family("UINT8")).isEqualTo(dev.lakerewrite.retrieval.TypeFamily.NUMERIC);
    assertThat(TypeRefutations.family("INTEGER_LITERAL")).isEqualTo(dev.lakerewrite.retrieval.TypeFamily.NUMERIC);
    assertThat(TypeRefutations.family("STRING_LITERAL")).isEqualTo(dev.lakerewrite.retrieval.TypeFamily.STRING);
    assertThat(TypeRefutations.family("DATE")).isEqualTo(dev.lakerewrite.retrieval.TypeFamily.DATETIME);
  }

  private static final String USER_QUERY = "SELECT c_name FROM customers WHERE mktsegment = 'BUILDING'";

  private List<RewriteCandidate> firstTry() {
    return List.of(failed(0, "SELECT name FROM clients WHERE segment_code = 'BUILDING'", ErrorKind.RUNTIME,
        NOT_CONVERTED, Map.of("customers.mktsegment", Set.of("clients.segment_code"))));
  }

  @Test
  void thePlannerMovesOnToTheNextBestColumn() {
    Scratchpad pad = lake.padWith("clients");
    PlanningContext before = new PlanningContext(lake.state(USER_QUERY, pad));
    PlanningContext after = new PlanningContext(lake.stateAfter(USER_QUERY, pad, firstTry()));

    TableChoice first = new TableChooser(before, new FilterLiterals(before), new CodeLookups(before))
        .rankTables("customers", List.of("c_name", "mktsegment"), new ArrayList<>()).get(0);
    TableChoice second = new TableChooser(after, new FilterLiterals(after), new CodeLookups(after))
        .rankTables("customers", List.of("c_name", "mktsegment"), new ArrayList<>()).get(0);

    assertThat(first.columns().get("mktsegment").lakeColumn()).isEqualTo("segment_code");
    assertThat(second.columns().get("mktsegment").lakeColumn()).isEqualTo("segment");
  }

  @Test
  void theCheckerHoldsTheOutputBackAndSaysWhy() {
    Decision d = new OfflineCheckerAgent().decide(lake.stateAfter(USER_QUERY, lake.padWith("clients"), firstTry()));

    assertThat(d.actions()).noneMatch(a -> a instanceof Action.OutputQuery);
    assertThat(d.reasoning().outputQuality())
        .contains("its types refute clients.segment_code for mktsegment: trying the next best columns");
  }

  @Test
  void withoutARefutationTheCheckerOutputsAsBefore() {
    Map<String, Set<String>> mapping = new LinkedHashMap<>();
    mapping.put("customers.mktsegment", Set.of("clients.segment"));
    RewriteCandidate ran = new RewriteCandidate(0, 1, "SELECT name FROM clients WHERE segment = 'BUILDING'", "test",
        List.of("clients"), Optional.of(lake.preview("clients", 1)), Optional.empty(), Duration.ZERO, 0, List.of(),
        new ColumnMapping(mapping, Map.of(), 0.9, List.of()));

    Decision d = new OfflineCheckerAgent().decide(lake.stateAfter(USER_QUERY, lake.padWith("clients"), List.of(ran)));

    assertThat(d.reasoning().outputQuality()).doesNotContain("refute");
  }
}
