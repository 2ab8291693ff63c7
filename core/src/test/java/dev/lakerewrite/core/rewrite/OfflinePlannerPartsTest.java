package dev.lakerewrite.core.rewrite;

import static dev.lakerewrite.core.rewrite.OfflinePlanner.key;
import static dev.lakerewrite.core.rewrite.OfflinePlanner.literalKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.JoinRoute;
import dev.lakerewrite.core.rewrite.OfflinePlanner.LiteralFix;
import dev.lakerewrite.core.rewrite.OfflinePlanner.Plan;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The offline planner's parts, one error type each, against an in-memory lake ({@link FakeLakeTools}) that states
 * exactly the evidence each part sees: no DuckDB, no embeddings, no retrieval index.
 */
class OfflinePlannerPartsTest {

  /** The parts of one plan over a query and a scratchpad. */
  private static final class Parts {
    final PlanningContext context;
    final FilterLiterals literals;
    final CodeLookups lookups;
    final TableChooser chooser;

    Parts(FakeLakeTools lake, String sql, Scratchpad pad, Action... performed) {
      context = new PlanningContext(lake.state(sql, pad, performed));
      literals = new FilterLiterals(context);
      lookups = new CodeLookups(context);
      chooser = new TableChooser(context, literals, lookups);
    }

    MissingTableColumns missing() {
      return new MissingTableColumns(context, chooser, lookups);
    }
  }

  private static TableChoice choice(String assumed, String lake, Map<String, ColumnTarget> columns,
      List<String> unmapped) {
    return new TableChoice(assumed, lake, 1.0, new LinkedHashMap<>(columns), new ArrayList<>(unmapped), null);
  }

  private static ColumnTarget target(String table, String column) {
    return new ColumnTarget(table, column, 0.9, "test");
  }

  private static Map<String, TableChoice> byAssumed(TableChoice... choices) {
    Map<String, TableChoice> out = new LinkedHashMap<>();
    for (TableChoice c : choices) {
      out.put(key(c.assumed()), c);
    }
    return out;
  }

  @Nested
  class TableChoosing {

    private final FakeLakeTools lake = new FakeLakeTools()
        .table("cities", "name VARCHAR, country VARCHAR, population BIGINT",
            "Auckland|New Zealand|1700000", "Sydney|Australia|5300000")
        .table("country_profiles", "country_name VARCHAR, currency VARCHAR, capital VARCHAR",
            "New Zealand|NZD|Wellington", "United States|USD|Washington")
        .similar("countries", "country profiles", 0.8)
        .similar("countries", "cities", 0.3);

    @Test
    void theTableNamedLikeTheAssumedOneWinsOverOneThatOnlySharesAColumnName() {
      Parts p = new Parts(lake, "SELECT name, capital FROM countries WHERE currency = 'USD'",
          lake.padWith("cities", "country_profiles"));

      List<TableChoice> ranked = p.chooser.rankTables("countries", List.of("name", "capital", "currency"),
          new ArrayList<>());

      assertThat(ranked.get(0).lake()).isEqualTo("country_profiles");
      assertThat(ranked.get(0).columns().get("name").lakeColumn()).isEqualTo("country_name");
      assertThat(ranked.get(0).columns().get("capital").lakeColumn()).isEqualTo("capital");
      assertThat(ranked).extracting(TableChoice::lake).contains("cities");
    }

    @Test
    void aCtesOwnOutputColumnIsNoColumnOfTheTablesBesideIt() {
      FakeLakeTools tpch = new FakeLakeTools()
          .table("supplier", "s_suppkey INTEGER, s_name VARCHAR", "1|Supplier#1", "2|Supplier#2")
          .table("lineitem", "l_suppkey INTEGER, l_extendedprice DOUBLE", "1|10.5", "2|20.0");
      String sql = "WITH revenue AS (SELECT l_suppkey AS supplier_no, sum(l_extendedprice) AS total_revenue "
          + "FROM lineitem GROUP BY l_suppkey) "
          + "SELECT s_suppkey, s_name, total_revenue FROM supplier, revenue WHERE s_suppkey = supplier_no";

      Plan plan = new OfflinePlanner(tpch.state(sql, tpch.padWith("supplier", "lineitem"))).plan();

      TableChoice supplier = plan.tables().get("supplier");
      assertThat(supplier.columns()).containsOnlyKeys("s_suppkey", "s_name");
      assertThat(supplier.unmapped()).isEmpty();
      assertThat(plan.tables().get("lineitem").columns()).containsOnlyKeys("l_suppkey", "l_extendedprice");
    }

    /** Customers and suppliers both answer s_name and s_phone; only the suppliers' key holds partsupp's keys. */
    private FakeLakeTools customersAndSuppliers() {
      return new FakeLakeTools()
          .table("clients", "ckey INTEGER, name VARCHAR, phone VARCHAR", "1|Customer#1|11-111", "2|Customer#2|22-222")
          .table("vendors", "vkey INTEGER, name VARCHAR, phone VARCHAR", "1|Supplier#1|33-333", "2|Supplier#2|44-444")
          .table("part_supply", "pkey INTEGER, vref INTEGER, cost DOUBLE", "7|1|10.5", "8|2|20.0")
          .similar("supplier", "clients", 0.45).similar("supplier", "vendors", 0.4)
          .similar("partsupp", "part supply", 0.9)
          .similar("s suppkey", "vkey", 0.6).similar("s suppkey", "ckey", 0.55)
          .similar("ps suppkey", "vref", 0.6).similar("ps supplycost", "cost", 0.8);
    }

    @Test
    void joinedTablesAreChosenWhereTheirKeysShareValues() {
      String sql = "SELECT s_name, s_phone, ps_supplycost FROM supplier, partsupp WHERE s_suppkey = ps_suppkey";
      FakeLakeTools lake = customersAndSuppliers().keyOverlap("vendors", "vkey", "part_supply", "vref", 1.0)
          .keyOverlap("clients", "ckey", "part_supply", "vref", 0.05);

      Plan alone = new OfflinePlanner(customersAndSuppliers().state(sql,
          customersAndSuppliers().padWith("clients", "vendors", "part_supply"))).plan();
      Plan joined = new OfflinePlanner(lake.state(sql, lake.padWith("clients", "vendors", "part_supply"))).plan();

      // By names and columns alone the customers' table fits the suppliers a little better.
      assertThat(alone.tables().get("supplier").lake()).isEqualTo("clients");
      assertThat(joined.tables().get("supplier").lake()).isEqualTo("vendors");
      assertThat(joined.tables().get("partsupp").lake()).isEqualTo("part_supply");
      assertThat(joined.notes()).anyMatch(n -> n.startsWith("supplier→vendors over clients"));
    }

    @Test
    void joinedTablesAreChosenWhereTheirKeysAreContainedInTheirPartnersKeys() {
      // Few suppliers supply parts: their key shares little of its values with partsupp's (Jaccard 0.2), yet holds
      // every one partsupp references; the customers' key holds fewer of them, more of its own values coinciding.
      String sql = "SELECT s_name, s_phone, ps_supplycost FROM supplier, partsupp WHERE s_suppkey = ps_suppkey";
      FakeLakeTools lake = customersAndSuppliers()
          .keyOverlap("vendors", "vkey", "part_supply", "vref", 0.2)
          .containment("vendors", "vkey", "part_supply", "vref", 1.0)
          .keyOverlap("clients", "ckey", "part_supply", "vref", 0.3)
          .containment("clients", "ckey", "part_supply", "vref", 0.4);

      Plan plan = new OfflinePlanner(lake.state(sql, lake.padWith("clients", "vendors", "part_supply"))).plan();

      assertThat(plan.tables().get("supplier").lake()).isEqualTo("vendors");
      assertThat(plan.notes()).anyMatch(n -> n.startsWith("supplier→vendors over clients"));
    }

    @Test
    void keysThatBothAnswerAsWellAsAJoinNeedsWeighTheirValuesAlike() {
      // "country" and "country of origin" both answer a query's country key: which of their tables the query means
      // is for the tables' own scores to say, not for the last few hundredths of name similarity.
      assertThat(JoinConsistency.keyFit(target("films", "country"))).isEqualTo(1.0);
      assertThat(JoinConsistency.keyFit(new ColumnTarget("films", "country_of_origin", 0.75, "test"))).isEqualTo(1.0);
      assertThat(JoinConsistency.keyFit(new ColumnTarget("films", "qty", 0.35, "test"))).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void aPartOfTheJoinPartnersTableGainsNothingFromHoldingItsKeys() {
      // The suppliers' part split off by columns holds the suppliers' own keys, every one of them: that is the
      // same entity's rows, not a table that references suppliers.
      FakeLakeTools lake = new FakeLakeTools()
          .table("vendors", "vkey INTEGER, name VARCHAR", "1|Supplier#1", "2|Supplier#2", "3|Supplier#3")
          .table("vendors_ledger", "vkey INTEGER, cost_center DOUBLE", "1|10.5", "2|20.0", "3|7.25")
          .table("part_supply", "pkey INTEGER, cost DOUBLE", "7|10.5", "8|20.0")
          .similar("supplier", "vendors", 0.8).similar("partsupp", "part supply", 0.9)
          .similar("partsupp", "vendors ledger", 0.6)
          .similar("s name", "name", 0.9).similar("s suppkey", "vkey", 0.9).similar("ps suppkey", "vkey", 0.8)
          .similar("ps supplycost", "cost", 0.8).similar("ps supplycost", "cost center", 0.7)
          .edge("vendors", "vkey", "vendors_ledger", "vkey")
          .keyOverlap("vendors", "vkey", "vendors_ledger", "vkey", 1.0);
      String sql = "SELECT s_name, ps_supplycost FROM supplier, partsupp WHERE s_suppkey = ps_suppkey";

      Plan plan = new OfflinePlanner(lake.state(sql, lake.padWith("vendors", "vendors_ledger", "part_supply")))
          .plan();

      assertThat(plan.tables().get("supplier").lake()).isEqualTo("vendors");
      assertThat(plan.tables().get("partsupp").lake()).isEqualTo("part_supply");
    }

    /** TPC-DS's store and catalog sales, both joined to the dates; the catalog sales' date key sits in a part. */
    private FakeLakeTools twoFactTables(boolean catalogKeyInPart) {
      FakeLakeTools ds = new FakeLakeTools()
          .table("shop_sales", "ss_date INTEGER, qty INTEGER, list_price DOUBLE", "1|3|2.5", "2|5|4.0", "3|1|9.0")
          .table("catalog_orders", "rec INTEGER, price DOUBLE", "1|10.5", "2|20.0", "3|7.25")
          .table("dates", "date_sk INTEGER, yr INTEGER", "1|2001", "2|2001", "3|2002")
          .similar("store sales", "shop sales", 0.8).similar("catalog sales", "catalog orders", 0.7)
          .similar("catalog sales", "shop sales", 0.6).similar("date dim", "dates", 0.8)
          .similar("ss sold date sk", "ss date", 0.8).similar("cs sold date sk", "ss date", 0.75)
          .similar("cs sold date sk", "sold date", 0.9).similar("d date sk", "date sk", 0.9)
          .similar("ss quantity", "qty", 0.8).similar("cs sales price", "price", 0.8)
          .similar("cs sales price", "list price", 0.6)
          .similar("d year", "yr", 0.8)
          .containment("shop_sales", "ss_date", "dates", "date_sk", 1.0);
      if (catalogKeyInPart) {
        ds.table("catalog_orders_info", "rec INTEGER, sold_date INTEGER", "1|1", "2|2", "3|3")
            .edge("catalog_orders", "rec", "catalog_orders_info", "rec")
            .keyOverlap("catalog_orders", "rec", "catalog_orders_info", "rec", 1.0)
            .containment("catalog_orders_info", "sold_date", "dates", "date_sk", 1.0);
      }
      return ds;
    }

    @Test
    void aFactTableIsNotMovedOntoAnotherAssumedTablesTableByTheKeysTheyShare() {
      // Both sales join the dates and have prices; only the store sales' table holds a date key. The catalog sales
      // stay on their own table: on the store sales' table the merge that follows would drop them.
      String sql = "SELECT sum(ss_quantity), sum(cs_sales_price) FROM store_sales, catalog_sales, date_dim "
          + "WHERE ss_sold_date_sk = d_date_sk AND cs_sold_date_sk = d_date_sk AND d_year = 2001";
      FakeLakeTools lake = twoFactTables(false);

      Plan plan = new OfflinePlanner(lake.state(sql, lake.padWith("shop_sales", "catalog_orders", "dates"))).plan();

      assertThat(plan.tables().get("store_sales").lake()).isEqualTo("shop_sales");
      assertThat(plan.tables().get("catalog_sales").lake()).isEqualTo("catalog_orders");
      assertThat(plan.tables().get("catalog_sales").mergedInto()).isNull();
    }

    @Test
    void aKeyInAPartSplitOffByColumnsCountsForItsTable() {
      String sql = "SELECT sum(cs_sales_price) FROM catalog_sales, date_dim "
          + "WHERE cs_sold_date_sk = d_date_sk AND d_year = 2001";
      FakeLakeTools lake = twoFactTables(true);
      Parts p = new Parts(lake, sql, lake.padWith("shop_sales", "catalog_orders", "catalog_orders_info", "dates"));
      Map<String, List<TableChoice>> ranked = new LinkedHashMap<>();
      ranked.put("catalog_sales", List.of(
          choice("catalog_sales", "catalog_orders", Map.of("cs_sales_price", target("catalog_orders", "price")),
              List.of()),
          choice("catalog_sales", "shop_sales", Map.of(), List.of("cs_sales_price"))));
      ranked.put("date_dim", List.of(choice("date_dim", "dates", Map.of("d_year", target("dates", "yr")), List.of())));
      List<String> notes = new ArrayList<>();

      Map<String, List<TableChoice>> out = new JoinConsistency(p.context, p.chooser).rerank(ranked, notes);

      // The catalog's date key is read through its part: as well contained as the store sales' own.
      assertThat(out.get("catalog_sales").get(0).lake()).isEqualTo("catalog_orders");
      assertThat(out.get("catalog_sales").get(0).score()).isGreaterThan(ranked.get("catalog_sales").get(0).score());
    }

    @Test
    void aJoinOnSeveralKeysCountsTheKeysTogether() {
      // Each key of the catalog refunds is among the shop sales' keys (small surrogate keys are contained in any
      // large key set), but no refund's customer, item and order number is a sale's customer, item and ticket: the
      // shop refunds are the returns of these sales, though their name fits a little worse.
      FakeLakeTools lake = new FakeLakeTools()
          .table("shop_sales", "cust INTEGER, item INTEGER, ticket INTEGER, paid DOUBLE",
              "1|10|100|9.5", "2|20|101|3.0", "3|30|102|4.5")
          .table("shop_refunds", "cust INTEGER, item INTEGER, ticket INTEGER, amount DOUBLE",
              "1|10|100|5.0", "3|30|102|2.0")
          .table("catalog_refunds", "cust INTEGER, item INTEGER, ticket INTEGER, amount DOUBLE",
              "1|20|101|3.0", "2|30|102|4.0", "3|10|100|1.0")
          .similar("sr customer sk", "cust", 0.8).similar("sr item sk", "item", 0.8)
          .similar("sr ticket number", "ticket", 0.8).similar("ss customer sk", "cust", 0.8)
          .similar("ss item sk", "item", 0.8).similar("ss ticket number", "ticket", 0.8)
          .similar("sr return amt", "amount", 0.8).similar("ss net paid", "paid", 0.8);
      for (String refunds : List.of("shop_refunds", "catalog_refunds")) {
        for (String k : List.of("cust", "item", "ticket")) {
          lake.containment(refunds, k, "shop_sales", k, 1.0);
        }
      }
      String sql = "SELECT sum(sr_return_amt), sum(ss_net_paid) FROM store_returns, store_sales "
          + "WHERE sr_customer_sk = ss_customer_sk AND sr_item_sk = ss_item_sk AND sr_ticket_number = ss_ticket_number";
      Parts p = new Parts(lake, sql, lake.padWith("shop_sales", "shop_refunds", "catalog_refunds"));
      Map<String, List<TableChoice>> ranked = new LinkedHashMap<>();
      ranked.put("store_returns", List.of(
          choice("store_returns", "catalog_refunds", Map.of("sr_return_amt", target("catalog_refunds", "amount")),
              List.of()),
          new TableChoice("store_returns", "shop_refunds", 0.95,
              new LinkedHashMap<>(Map.of("sr_return_amt", target("shop_refunds", "amount"))), new ArrayList<>(), null)));
      ranked.put("store_sales", List.of(choice("store_sales", "shop_sales",
          Map.of("ss_net_paid", target("shop_sales", "paid")), List.of())));

      Map<String, List<TableChoice>> out = new JoinConsistency(p.context, p.chooser).rerank(ranked, new ArrayList<>());

      assertThat(lake.tupleContainment(List.of("catalog_refunds"), List.of("cust", "item", "ticket"),
          List.of("shop_sales"), List.of("cust", "item", "ticket"))).isZero();
      assertThat(out.get("store_returns").get(0).lake()).isEqualTo("shop_refunds");
    }

    @Test
    void smallSurrogateKeysContainedAtTheStartOfALongCounterEarnLessThanKeysSpreadOverTheirRange() {
      // The sales' customer keys 1..10 are contained in the demographics' keys 1..1000 as fully as in the clients'
      // own keys, whose range they cover.
      FakeLakeTools lake = new FakeLakeTools()
          .table("shop_sales", "cust INTEGER, paid DOUBLE", "1|9.5", "5|3.0", "10|4.5")
          .table("clients", "id INTEGER, first_name VARCHAR", "1|Ann", "5|Bob", "10|Cy")
          .table("demographics", "demo_sk INTEGER, gender VARCHAR", "1|F", "5|M", "10|F", "400|M", "1000|F")
          .similar("c customer sk", "id", 0.8).similar("c customer sk", "demo sk", 0.8)
          .similar("ss customer sk", "cust", 0.8).similar("ss net paid", "paid", 0.8)
          .containment("clients", "id", "shop_sales", "cust", 1.0)
          .containment("demographics", "demo_sk", "shop_sales", "cust", 1.0);
      String sql = "SELECT c_first_name, sum(ss_net_paid) FROM customer, store_sales "
          + "WHERE c_customer_sk = ss_customer_sk GROUP BY c_first_name";
      Parts p = new Parts(lake, sql, lake.padWith("shop_sales", "clients", "demographics"));
      Map<String, List<TableChoice>> ranked = new LinkedHashMap<>();
      ranked.put("customer", List.of(
          choice("customer", "demographics", Map.of("c_first_name", target("demographics", "gender")), List.of()),
          new TableChoice("customer", "clients", 0.95,
              new LinkedHashMap<>(Map.of("c_first_name", target("clients", "first_name"))), new ArrayList<>(), null)));
      ranked.put("store_sales", List.of(choice("store_sales", "shop_sales",
          Map.of("ss_net_paid", target("shop_sales", "paid")), List.of())));

      Map<String, List<TableChoice>> out = new JoinConsistency(p.context, p.chooser).rerank(ranked, new ArrayList<>());

      assertThat(p.context.keySpread("shop_sales", "cust", "demographics", "demo_sk")).hasValue(10 / 1000.0);
      assertThat(out.get("customer").get(0).lake()).isEqualTo("clients");
    }

    @Test
    void keysCoverAKeyAsAReferenceDoesWhenTheySpreadOverItOrFormAWindowAwayFromItsStart() {
      FakeLakeTools lake = new FakeLakeTools()
          .table("sales", "sold_date INTEGER, shop INTEGER", "2450816|1", "2452642|12")
          .table("calendar", "date_sk INTEGER", "2415022", "2488070")
          .table("goods", "id INTEGER", "1", "18000");
      Parts p = new Parts(lake, "SELECT 1 FROM sales", lake.padWith("sales"));

      // A sale's dates: a window of the calendar far from its start.
      assertThat(p.context.keySpread("sales", "sold_date", "calendar", "date_sk")).hasValue(1.0);
      // The shops' codes 1..12 fill the start of the goods' counter.
      assertThat(p.context.keySpread("sales", "shop", "goods", "id")).hasValue(12 / 18000.0);
      assertThat(p.context.keySpread("goods", "id", "sales", "shop")).hasValue(12 / 18000.0);
      assertThat(p.context.keySpread("calendar", "date_sk", "calendar", "date_sk")).hasValue(1.0);
    }

    /** A line's extended prices (900 and more) and its discounts (fractions); the price's name is the closer. */
    private FakeLakeTools pricesAndDiscounts() {
      return new FakeLakeTools()
          .table("lines", "extendedprice DOUBLE, deduction DOUBLE", "901.5|0.04", "2400.0|0.06", "5030.25|0.1")
          .similar("l discount", "extendedprice", 0.6).similar("l discount", "deduction", 0.4);
    }

    @Test
    void aColumnWhoseNumbersCannotSatisfyTheQuerysComparisonIsNotTheColumnMeant() {
      FakeLakeTools lake = pricesAndDiscounts();
      String between = "SELECT count(*) FROM lineitem WHERE l_discount BETWEEN 0.05 AND 0.07";
      String below = "SELECT count(*) FROM lineitem WHERE 0.08 > l_discount";
      String unbounded = "SELECT sum(l_discount) FROM lineitem";

      for (String sql : List.of(between, below)) {
        ColumnTarget t = new Parts(lake, sql, lake.padWith("lines")).chooser
            .bestColumn("lineitem", "l_discount", "lines").orElseThrow();
        assertThat(t.lakeColumn()).as(sql).isEqualTo("deduction");
      }
      // Without a comparison the names decide, and the price's is the closer.
      assertThat(new Parts(lake, unbounded, lake.padWith("lines")).chooser
          .bestColumn("lineitem", "l_discount", "lines").orElseThrow().lakeColumn()).isEqualTo("extendedprice");
      List<ColumnTarget> targets = new Parts(lake, between, lake.padWith("lines")).chooser
          .targets("lineitem", "l_discount", "lines", Set.of());
      assertThat(targets).filteredOn(t -> t.lakeColumn().equals("extendedprice")).singleElement()
          .satisfies(t -> assertThat(t.why()).contains("no value between 901.5 and 5030.25 is <= 0.07"));
    }

    @Test
    void aComparisonNoNumberOfTheTableCanSatisfyLeavesTheChoiceToTheNames() {
      // Nothing in the table is above a million: the ranges tell the columns nothing apart.
      FakeLakeTools lake = pricesAndDiscounts();
      Parts p = new Parts(lake, "SELECT count(*) FROM lineitem WHERE l_discount > 1000000", lake.padWith("lines"));

      assertThat(p.chooser.bestColumn("lineitem", "l_discount", "lines").orElseThrow().lakeColumn())
          .isEqualTo("extendedprice");
    }

    @Test
    void theIdentifierThatAnswersATablesOwnKeyIsNoOtherColumnOfIt() {
      // TPC-DS's item renamed to point: the description's name is closer to the item key's than to POINT_DESC.
      FakeLakeTools ds = new FakeLakeTools()
          .table("points", "item_sk INTEGER, point_desc VARCHAR", "1|Red shoes", "2|Blue hat", "3|Green scarf")
          .similar("i item desc", "item sk", 0.6).similar("i item desc", "point desc", 0.55)
          .similar("i item sk", "item sk", 0.9);
      String sql = "SELECT i_item_desc, sum(ss_net_profit) FROM item, store_sales WHERE i_item_sk = ss_item_sk "
          + "GROUP BY i_item_desc";
      Parts p = new Parts(ds, sql, ds.padWith("points"));

      TableChoice withKey = p.chooser.mapColumns("item", "points", List.of("i_item_sk", "i_item_desc"), 0);
      TableChoice alone = p.chooser.mapColumns("item", "points", List.of("i_item_desc"), 0);

      assertThat(withKey.columns().get("i_item_desc").lakeColumn()).isEqualTo("point_desc");
      // Without the key in the query the names decide.
      assertThat(alone.columns().get("i_item_desc").lakeColumn()).isEqualTo("item_sk");
    }

    @Test
    void aLakeNameThatSpellsTheAssumedOneWordForWordIsReadByTheMatcher() {
      // TPC-DS store sales renamed: the embedding finds SALES_PRICE closer to ss_list_price (it spells "price"
      // out); LISTING_PRC spells both words.
      FakeLakeTools ds = new FakeLakeTools()
          .table("tbl_store_sales", "SALES_PRICE DOUBLE, LISTING_PRC DOUBLE, QNTY INTEGER",
              "10.5|12.0|3", "20.0|25.5|1", "7.25|8.0|2")
          .similar("ss list price", "sales price", 0.5).similar("ss list price", "listing prc", 0.3);
      Parts p = new Parts(ds, "SELECT avg(ss_list_price) FROM store_sales WHERE ss_list_price BETWEEN 8 AND 18",
          ds.padWith("tbl_store_sales"));

      assertThat(p.chooser.bestColumn("store_sales", "ss_list_price", "tbl_store_sales").orElseThrow().lakeColumn())
          .isEqualTo("LISTING_PRC");
    }

    @Test
    void withoutAJoinInTheQueryKeyOverlapsChangeNothing() {
      String sql = "SELECT s_name, s_phone FROM supplier";
      FakeLakeTools lake = customersAndSuppliers().keyOverlap("vendors", "vkey", "part_supply", "vref", 1.0);

      Plan plan = new OfflinePlanner(lake.state(sql, lake.padWith("clients", "vendors", "part_supply"))).plan();

      assertThat(plan.tables().get("supplier").lake()).isEqualTo("clients");
    }

    @Test
    void twoAssumedColumnsNeverReadOneLakeColumn() {
      FakeLakeTools states = new FakeLakeTools()
          .table("us_states", "state VARCHAR, neighbouring_state VARCHAR", "Ohio|Indiana", "Iowa|Nebraska")
          .similar("state name", "state", 0.9).similar("state name", "neighbouring state", 0.6)
          .similar("border", "state", 0.6).similar("border", "neighbouring state", 0.55)
          .similar("states", "us states", 0.8);
      Parts p = new Parts(states, "SELECT state_name, border FROM states", states.padWith("us_states"));

      TableChoice c = p.chooser.rankTables("states", List.of("state_name", "border"), new ArrayList<>()).get(0);

      // Each on its own would take 'state'; the one-to-one assignment gives border the other state column.
      assertThat(c.columns().get("state_name").lakeColumn()).isEqualTo("state");
      assertThat(c.columns().get("border").lakeColumn()).isEqualTo("neighbouring_state");
    }

    @Test
    void theTablePrefixOfAnAssumedColumnIsNoPartOfTheAbbreviationItIsMatchedWith() {
      // The lake abbreviated commitdate, receiptdate and shipdate; l_ only says "of lineitem".
      FakeLakeTools lake = new FakeLakeTools()
          .table("zo_lntms", "LNMB BIGINT, CMNT VARCHAR, SHPD DATE, CMTD DATE, RCPT DATE",
              "1|carefully|1996-03-13|1996-02-12|1996-03-22", "2|quickly|1996-04-12|1996-02-28|1996-04-20")
          .similar("lineitem", "zo lntms", 0.5);
      Parts p = new Parts(lake, "SELECT count(*) FROM lineitem WHERE l_commitdate < l_receiptdate "
          + "AND l_shipdate < l_commitdate AND l_receiptdate >= DATE '1994-01-01'", lake.padWith("zo_lntms"));

      TableChoice c = p.chooser.rankTables("lineitem", List.of("l_commitdate", "l_receiptdate", "l_shipdate"),
          new ArrayList<>()).get(0);

      assertThat(c.unmapped()).isEmpty();
      assertThat(c.columns().get("l_commitdate").lakeColumn()).isEqualTo("CMTD");
      assertThat(c.columns().get("l_receiptdate").lakeColumn()).isEqualTo("RCPT");
      assertThat(c.columns().get("l_shipdate").lakeColumn()).isEqualTo("SHPD");
    }

    @Test
    void anAbbreviatedTableNameIsReadLexicallyWhereEmbeddingsPreferASibling() {
      // Customers and suppliers have the same columns; only the names tell them apart, and embeddings read
      // "zo_splrs" as noise and "zo_clnts" as close to "supplier". Read lexically, without the prefix every table
      // of the lake has, "splrs" abbreviates "suppliers".
      FakeLakeTools lake = new FakeLakeTools()
          .table("zo_clnts", "NM VARCHAR, PHN VARCHAR", "Customer#1|25-989", "Customer#2|23-768")
          .table("zo_splrs", "NM VARCHAR, PHN VARCHAR", "Supplier#1|27-918", "Supplier#2|15-679")
          .table("zo_ntns", "NTNK BIGINT, NM VARCHAR", "1|ARGENTINA", "2|BRAZIL")
          .similar("supplier", "zo clnts", 0.45).similar("supplier", "zo splrs", 0.1)
          .similar("s name", "nm", 0.6).similar("s phone", "phn", 0.6);
      Parts p = new Parts(lake, "SELECT s_name, s_phone FROM supplier", lake.padWith("zo_clnts", "zo_splrs"));

      List<TableChoice> ranked = p.chooser.rankTables("supplier", List.of("s_name", "s_phone"), new ArrayList<>());

      assertThat(ranked.get(0).lake()).isEqualTo("zo_splrs");
    }

    /** Orders whose key, status, date and priority the lake named alike (ORDR, ORDR_2 … ORDR_4). */
    private FakeLakeTools alikeOrders() {
      return new FakeLakeTools()
          .table("zo_ordrs", "ORDR BIGINT, ORDR_2 VARCHAR, ORDR_3 DATE, ORDR_4 BIGINT",
              "1|O|1996-01-02|5", "2|F|1996-12-01|1", "3|O|1993-10-14|2", "4|F|1993-07-21|1")
          .table("zo_ordr_4_typs", "ID BIGINT, LBL VARCHAR", "1|1-URGENT", "2|2-HIGH", "5|5-LOW")
          .similar("orders", "zo ordrs", 0.6)
          .similar("o orderpriority", "ordr", 0.22).similar("o orderpriority", "ordr 2", 0.22)
          .similar("o orderpriority", "ordr 3", 0.223).similar("o orderpriority", "ordr 4", 0.222)
          .similar("o orderdate", "ordr", 0.26).similar("o orderdate", "ordr 2", 0.26)
          .similar("o orderdate", "ordr 3", 0.26).similar("o orderdate", "ordr 4", 0.26);
    }

    @Test
    void aLiteralAmongTheLabelsOfACodeColumnsLookupTellsColumnsNamedAlikeApart() {
      FakeLakeTools lake = alikeOrders();
      // The literal sits in a CASE of the select list, not in a filter.
      String sql = "SELECT sum(CASE WHEN o_orderpriority = '1-URGENT' THEN 1 ELSE 0 END) AS urgent FROM orders";
      Parts p = new Parts(lake, sql, lake.padWith("zo_ordrs"));

      TableChoice c = p.chooser.mapColumns("orders", "zo_ordrs", List.of("o_orderpriority"), 0.6);

      // Only ORDR_4's lookup, zo_ordr_4_typs (named after it), spells '1-URGENT'.
      assertThat(c.columns().get("o_orderpriority").lakeColumn()).isEqualTo("ORDR_4");
      Plan plan = new OfflinePlanner(lake.state(sql, lake.padWith("zo_ordrs"))).plan();
      assertThat(plan.tables().get("orders").columns().get("o_orderpriority"))
          .satisfies(t -> assertThat(t.lakeTable() + "." + t.lakeColumn()).isEqualTo("zo_ordr_4_typs.LBL"));
    }

    @Test
    void aColumnNamedForTheAssumedOneThatHoldsItsLiteralBeatsACodeWhoseLabelsSpellIt() {
      // 'Unknown' is an education status and, among the labels of the credit ratings' lookup, a credit rating too.
      FakeLakeTools lake = new FakeLakeTools()
          .table("demographics", "DEMO_SK BIGINT, EDUCATION_STS VARCHAR, CRDT_RATING BIGINT",
              "1|Primary|1", "2|Unknown|2", "3|College|4", "4|Unknown|1")
          .table("crdt_rating_typs", "ID BIGINT, LBL VARCHAR", "1|Good", "2|High Risk", "4|Unknown")
          .similar("cd education status", "education sts", 0.7).similar("cd education status", "crdt rating", 0.2);
      String sql = "SELECT count(*) FROM customer_demographics WHERE cd_education_status = 'Unknown'";
      Parts p = new Parts(lake, sql, lake.padWith("demographics"));

      TableChoice c = p.chooser.mapColumns("customer_demographics", "demographics", List.of("cd_education_status"),
          0.6);

      assertThat(p.lookups.labelsHold(target("demographics", "CRDT_RATING"), List.of("Unknown"))).isTrue();
      assertThat(c.columns().get("cd_education_status").lakeColumn()).isEqualTo("EDUCATION_STS");
    }

    @Test
    void aGuessNeverTakesTheOnlyColumnALaterColumnCanRead() {
      FakeLakeTools lake = alikeOrders();
      Parts p = new Parts(lake, "SELECT o_orderpriority, count(*) FROM orders "
          + "WHERE o_orderdate >= DATE '1993-07-01' GROUP BY o_orderpriority", lake.padWith("zo_ordrs"));
      TableChoice weak = p.chooser.mapColumns("orders", "zo_ordrs", List.of("o_orderpriority", "o_orderdate"), 0.6);
      assertThat(weak.unmapped()).containsExactly("o_orderpriority", "o_orderdate");

      TableChoice t = p.missing().crossTableColumns(weak, new ArrayList<>(), new ArrayList<>());

      // o_orderpriority, first in line, would take ORDR_3 by a hair; ORDR_3 is the only column o_orderdate can be.
      assertThat(t.columns().get("o_orderdate").lakeColumn()).isEqualTo("ORDR_3");
      assertThat(t.columns().get("o_orderpriority").lakeColumn()).isNotEqualTo("ORDR_3");
    }

    @Test
    void aCommentNamedByNoColumnIsGuessedAmongTheColumnsThatPlayNoOtherPart() {
      // No column's name answers n_comment; the nation's key, its region reference and its name are what they are,
      // whatever their names' similarity to "comment".
      FakeLakeTools lake = new FakeLakeTools()
          .table("zo_ntns", "NTNKY BIGINT, NAME VARCHAR, RGNKY BIGINT, INPUT VARCHAR",
              "0|ALGERIA|0|haggle carefully", "1|ARGENTINA|1|al foxes promise", "2|BRAZIL|1|y alongside of the")
          .table("zo_rgns", "RGNKY BIGINT, NAME VARCHAR", "0|AFRICA", "1|AMERICA")
          .edge("zo_ntns", "RGNKY", "zo_rgns", "RGNKY")
          .similar("nation", "zo ntns", 0.7).similar("n name", "name", 0.9)
          .similar("n comment", "ntnky", 0.3).similar("n comment", "rgnky", 0.28)
          .similar("n comment", "name", 0.25).similar("n comment", "input", 0.2);
      Parts p = new Parts(lake, "SELECT n_name, n_comment FROM nation", lake.padWith("zo_ntns"));
      TableChoice weak = p.chooser.mapColumns("nation", "zo_ntns", List.of("n_name", "n_comment"), 0.6);
      assertThat(weak.unmapped()).containsExactly("n_comment");

      TableChoice t = p.missing().crossTableColumns(weak, new ArrayList<>(), new ArrayList<>());

      assertThat(t.columns().get("n_name").lakeColumn()).isEqualTo("NAME");
      assertThat(t.columns().get("n_comment").lakeColumn()).isEqualTo("INPUT");
      assertThat(p.context.playsRole("zo_ntns", "NTNKY")).as("unique numbers").isTrue();
      assertThat(p.context.playsRole("zo_ntns", "RGNKY")).as("a reference to the regions' key").isTrue();
      assertThat(p.context.playsRole("zo_ntns", "INPUT")).isFalse();
    }

    @Test
    void aCommentIsGuessedAmongTextColumnsByHowNearlyUniqueTheirValuesAre() {
      // A type repeats a few values; a comment's text is nearly unique per row.
      FakeLakeTools lake = new FakeLakeTools()
          .table("component_part", "PAR BIGINT, TYPE VARCHAR, INPUT VARCHAR, SIZE BIGINT",
              "1|PROMO BRUSHED COPPER|ly. slyly ironi|7", "2|PROMO BRUSHED COPPER|lar accounts amo|1",
              "3|LARGE BRUSHED BRASS|egular deposits hag|21", "4|LARGE BRUSHED BRASS|p furiously r|14")
          .similar("part", "component part", 0.7)
          .similar("p comment", "type", 0.3).similar("p comment", "size", 0.28).similar("p comment", "input", 0.2);
      Parts p = new Parts(lake, "SELECT p_comment FROM part", lake.padWith("component_part"));
      TableChoice weak = p.chooser.mapColumns("part", "component_part", List.of("p_comment"), 0.6);

      TableChoice t = p.missing().crossTableColumns(weak, new ArrayList<>(), new ArrayList<>());

      assertThat(t.columns().get("p_comment").lakeColumn()).isEqualTo("INPUT");
    }

    @Test
    void aCommentIsNoColumnWhoseNameOnlyHasItsLettersWhenItsValuesRepeat() {
      // CONT (a container) has the letters of "comment" in order, which the learned matcher reads as an
      // abbreviation; its values repeat a few words, and the comment's text is nearly unique per row.
      FakeLakeTools lake = new FakeLakeTools()
          .table("raw_parts", "PAR BIGINT, CONT VARCHAR, INPUT VARCHAR",
              "1|SM CASE|ly. slyly ironi", "2|SM CASE|lar accounts amo", "3|LG BOX|egular deposits hag",
              "4|LG BOX|p furiously r")
          .similar("part", "raw parts", 0.7)
          .similar("p comment", "cont", 0.3).similar("p comment", "input", 0.2).similar("p comment", "par", 0.2);
      String sql = "SELECT p_comment FROM part";
      Parts p = new Parts(lake, sql, lake.padWith("raw_parts"));
      assertThat(p.chooser.probability("part", "p_comment", "raw_parts", "CONT")).as("the matcher alone")
          .isGreaterThan(TableChooser.COLUMN_THRESHOLD);

      Plan plan = new OfflinePlanner(lake.state(sql, lake.padWith("raw_parts"))).plan();

      assertThat(plan.tables().get("part").columns().get("p_comment").lakeColumn()).isEqualTo("INPUT");
    }

    @Test
    void aCommentIsTheTablesOwnFreeTextNotTheCommentOfATableItJoins() {
      // The providers' comment is named for a comment, but it is the providers'; the part supply's own free text is
      // its remark.
      FakeLakeTools lake = new FakeLakeTools()
          .table("t_partsupps", "PRT BIGINT, SPLY BIGINT, PRT_REMARK VARCHAR",
              "1|10|carefully final packages", "2|20|blithely even deposits", "3|10|quickly regular accounts")
          .table("t_providers", "PRV_KEY BIGINT, PRV_COMMENT VARCHAR", "10|ironic theodolites", "20|even foxes")
          .edge("t_partsupps", "SPLY", "t_providers", "PRV_KEY")
          .similar("partsupp", "t partsupps", 0.8).similar("ps comment", "prv comment", 0.85)
          .similar("ps comment", "comment", 0.85)
          .similar("ps comment", "prt remark", 0.4).similar("ps comment", "remark", 0.4);
      Scratchpad pad = lake.padWith("t_partsupps", "t_providers");
      lake.addJoinPath(pad, "t_partsupps", "t_providers");
      Parts p = new Parts(lake, "SELECT ps_comment FROM partsupp", pad);
      TableChoice weak = p.chooser.mapColumns("partsupp", "t_partsupps", List.of("ps_comment"), 0.6);
      assertThat(weak.unmapped()).containsExactly("ps_comment");

      TableChoice t = p.missing().crossTableColumns(weak, new ArrayList<>(), new ArrayList<>());

      assertThat(t.columns().get("ps_comment").lakeTable() + "." + t.columns().get("ps_comment").lakeColumn())
          .isEqualTo("t_partsupps.PRT_REMARK");
    }

    @Test
    void afterAnEmptyResultTheNextBestColumnIsTriedBeforeAnotherTableWhenItGivesUpLess() {
      FakeLakeTools lake = alikeOrders()
          .table("zo_lntms", "ORDR BIGINT, TAX DOUBLE", "1|0.02", "1|0.06", "2|0.05")
          .similar("orders", "zo lntms", 0.3)
          .similar("o orderstatus", "ordr", 0.6).similar("o orderstatus", "ordr 2", 0.55);
      // Grouped by the order key, no status has two orders: the query returns no rows.
      String sql = "SELECT d.o_orderstatus, d.row_count FROM (SELECT o_orderstatus, COUNT(*) AS row_count "
          + "FROM orders GROUP BY o_orderstatus) d WHERE d.row_count >= 2";
      OfflinePlanner planner = new OfflinePlanner(lake.state(sql, lake.padWith("zo_ordrs", "zo_lntms")));
      assertThat(planner.plan().tables().get("orders").columns().get("o_orderstatus").lakeColumn()).isEqualTo("ORDR");

      Plan next = planner.alternative(1).orElseThrow();

      assertThat(next.tables().get("orders").lake()).isEqualTo("zo_ordrs");
      assertThat(next.tables().get("orders").columns().get("o_orderstatus").lakeColumn()).isEqualTo("ORDR_2");
      assertThat(next.notes()).anyMatch(n -> n.contains("orders.o_orderstatus→zo_ordrs.ORDR_2"));
      assertThat(planner.alternative(2).orElseThrow().tables().get("orders").lake()).isEqualTo("zo_lntms");
    }

    @Test
    void aTableWhoseAbbreviatedNameOnlyTheLexicalReadingFindsIsACandidateBeyondTheMostRelevantOnes() {
      FakeLakeTools lake = new FakeLakeTools()
          .table("zo_splrs", "NM VARCHAR, PHN VARCHAR", "Supplier#1|27-918", "Supplier#2|15-679");
      for (int i = 1; i <= TableChooser.CANDIDATE_TABLES + 1; i++) {
        lake.table("zo_decoy_" + i, "NM VARCHAR, PHN VARCHAR", "Decoy#1|11-111")
            .similar("supplier", "zo decoy " + i, 0.3);
      }
      lake.similar("supplier", "zo splrs", 0.1).similar("s name", "nm", 0.6).similar("s phone", "phn", 0.6);
      Parts p = new Parts(lake, "SELECT s_name, s_phone FROM supplier", lake.padWith("zo_decoy_1"));

      List<TableChoice> ranked = p.chooser.rankTables("supplier", List.of("s_name", "s_phone"), new ArrayList<>());

      // Seven decoys are more relevant and closer by embeddings; "splrs" abbreviates "suppliers".
      assertThat(ranked.get(0).lake()).isEqualTo("zo_splrs");
    }

    @Test
    void aColumnComparedWithDatesIsNeverReadFromANumberColumnHoweverAlikeTheNames() {
      // DuckDB's binder rejects a BIGINT compared with a DATE: the closer name cannot be the answer.
      assertThat(shipdateColumn("ship_day DATE", "1995-03-01", "1995-04-01").lakeColumn()).isEqualTo("ship_day");
    }

    @Test
    void thePartsOfATableSplitByRowsAreReadByTheNameTheyShareWithoutTheirMarkers() {
      // Customers split in two batches, suppliers in one table with the same kind of columns: "batch a" hides the
      // synonym client that embeddings relate to customer.
      FakeLakeTools split = new FakeLakeTools()
          .table("src_client_batcha", "name VARCHAR, phone VARCHAR", "Customer#1|11-111", "Customer#2|11-112")
          .table("src_client_batchb", "phone VARCHAR, name VARCHAR", "11-113|Customer#3", "11-114|Customer#4")
          .table("src_supplier", "name VARCHAR, phone VARCHAR, nationkey BIGINT", "Supplier#1|22-221|3",
              "Supplier#2|22-222|4")
          .table("src_region", "name VARCHAR, comment VARCHAR", "ASIA|x", "EUROPE|y")
          .similar("customer", "client", 0.6).similar("customer", "src client batcha", 0.23)
          .similar("customer", "src client batchb", 0.23).similar("customer", "src supplier", 0.45);
      Parts p = new Parts(split, "SELECT c_name, c_phone FROM customer",
          split.padWith("src_client_batcha", "src_client_batchb", "src_supplier"));

      assertThat(p.context.partitionStem("src_client_batchb")).contains("client");
      assertThat(p.context.partitionStem("src_supplier")).isEmpty();
      assertThat(p.chooser.rankTables("customer", List.of("c_name", "c_phone"), new ArrayList<>()).get(0).lake())
          .startsWith("src_client_batch");
    }

    @Test
    void thePartsOfATableSplitByRowsAreReadByTheLeadingWordsOfTheirStemToo() {
      // TPC-H's suppliers in two batches: the parts share "supp batch"; "supp" alone abbreviates supplier.
      FakeLakeTools split = new FakeLakeTools()
          .table("tbl_supp_batch_a", "SPKY BIGINT, NAME VARCHAR", "1|Supplier#1", "2|Supplier#2")
          .table("tbl_supp_batch_b", "NAME VARCHAR, SPKY BIGINT", "Supplier#3|3", "Supplier#4|4")
          .table("tbl_ntn", "NTNK BIGINT, NAME VARCHAR", "0|ALGERIA", "1|ARGENTINA");
      Parts p = new Parts(split, "SELECT s_name FROM supplier", split.padWith("tbl_supp_batch_a", "tbl_supp_batch_b",
          "tbl_ntn"));

      assertThat(p.context.partitionStem("tbl_supp_batch_a")).contains("supp batch");
      assertThat(p.chooser.nameEvidence("supplier", "tbl_supp_batch_a")).isGreaterThanOrEqualTo(0.9);
      assertThat(p.chooser.nameEvidence("supplier", "tbl_ntn")).isLessThan(0.5);
    }

    @Test
    void textOfNumbersWithACurrencyAnswersASumAsANumberColumnDoes() {
      // EXTN abbreviates extendedprice; its values are text ('USD 1,234.50') the cleaners read as numbers.
      FakeLakeTools lines = new FakeLakeTools()
          .table("t_lin", "DISCOUNT DOUBLE, EXTN VARCHAR", "0.05|USD 1,234.50", "0.07|USD 98.10",
              "0.02|USD 5,000.00", "0.04|USD 17.00")
          .similar("l_extendedprice", "discount", 0.47).similar("l_extendedprice", "extn", 0.25)
          .similar("lineitem", "t lin", 0.8);
      Parts p = new Parts(lines, "SELECT sum(l_extendedprice) FROM lineitem", lines.padWith("t_lin"));

      assertThat(p.chooser.bestColumn("lineitem", "l_extendedprice", "t_lin").orElseThrow().lakeColumn())
          .isEqualTo("EXTN");
    }

    @Test
    void aKeyIsNeverReadFromADateColumnHoweverAlikeTheNames() {
      // The lake abbreviated both the order's key and its date: ORD is the date, ORD_2 the key.
      FakeLakeTools orders = new FakeLakeTools()
          .table("t_ord_info", "ord DATE, ord_2 BIGINT, clerk VARCHAR", "1995-03-01|1|Clerk#1",
              "1995-04-01|2|Clerk#2")
          .similar("o_orderkey", "ord", 0.8).similar("o_orderkey", "ord 2", 0.6).similar("orders", "t ord info", 0.8);
      Parts p = new Parts(orders, "SELECT o_clerk FROM orders WHERE o_orderkey > 1", orders.padWith("t_ord_info"));

      assertThat(p.chooser.bestColumn("orders", "o_orderkey", "t_ord_info").orElseThrow().lakeColumn())
          .isEqualTo("ord_2");
    }

    @Test
    void aColumnComparedWithDatesMayBeIntegersOfCompactDates() {
      // 19950301 is a date kept as an integer; the key's 1, 2, 3 are not.
      ColumnTarget shipdate = shipdateColumn("shipped BIGINT", "19950301", "19950401", "19950517", "19951231");
      assertThat(shipdate.lakeColumn()).isEqualTo("shipped");
    }

    /**
     * The column chosen for shipdate, compared with a date, in a table of a key whose name is closer to it than the
     * other column's, that other column (declared and filled with {@code values}) and a flag.
     */
    private ColumnTarget shipdateColumn(String other, String... values) {
      String name = other.split(" ")[0];
      String[] rows = new String[values.length];
      for (int i = 0; i < values.length; i++) {
        rows[i] = (i + 1) + "|" + values[i] + "|" + (i % 2 == 0 ? "O" : "F");
      }
      FakeLakeTools items = new FakeLakeTools()
          .table("line_items", "ship_key BIGINT, " + other + ", flag VARCHAR", rows)
          .similar("shipdate", "ship key", 0.9).similar("shipdate", name.replace('_', ' '), 0.6)
          .similar("lineitem", "line items", 0.9);
      Parts p = new Parts(items, "SELECT flag FROM lineitem WHERE shipdate < DATE '1995-03-15'",
          items.padWith("line_items"));
      assertThat(p.context.canServe("shipdate", "line_items", "ship_key")).isFalse();
      assertThat(p.context.canServe("shipdate", "line_items", name)).isTrue();
      return p.chooser.rankTables("lineitem", List.of("flag", "shipdate"), new ArrayList<>()).get(0).columns()
          .get("shipdate");
    }

    @Test
    void aPrefixEveryColumnOfALakeTableSharesIsNoPartOfWhatTheColumnsAreCalled() {
      FakeLakeTools lake = new FakeLakeTools()
          .table("t_customers", "cstCust BIGINT, cstName VARCHAR, cstActb DOUBLE, cstPhone VARCHAR",
              "1|Customer#1|711.56|25-989-741-2988", "2|Customer#2|121.65|23-768-687-3665")
          .similar("customer", "t customers", 0.8).similar("c_acctbal", "actb", 0.7)
          .similar("c_acctbal", "cst cust", 0.3);
      Parts p = new Parts(lake, "SELECT c_name, c_acctbal FROM customer ORDER BY c_acctbal DESC",
          lake.padWith("t_customers"));

      TableChoice c = p.chooser.rankTables("customer", List.of("c_name", "c_acctbal"), new ArrayList<>()).get(0);

      // cst says "of customers" in every column: the names compared are actb and cust, not cstActb and cstCust.
      assertThat(c.columns().get("c_acctbal").lakeColumn()).isEqualTo("cstActb");
      assertThat(c.columns().get("c_name").lakeColumn()).isEqualTo("cstName");
    }

    @Test
    void aTableWhoseOwnKeyRepeatsOnlyRefersToTheRowsTheQueryMeans() {
      // Customers carry a nation key, a name and a comment too; only the countries' key is unique.
      FakeLakeTools lake = new FakeLakeTools()
          .table("cstm", "custkey BIGINT, name VARCHAR, nationkey BIGINT, comment VARCHAR",
              "1|Customer#1|7|pending", "2|Customer#2|7|quick", "3|Customer#3|9|bold", "4|Customer#4|9|final")
          .table("country_current", "NATI BIGINT, NAME VARCHAR, REMARK VARCHAR",
              "7|GERMANY|fluffily", "9|FRANCE|carefully", "11|KENYA|slyly")
          .similar("nation", "cstm", 0.4).similar("nation", "country current", 0.4)
          .similar("n_nationkey", "nati", 0.7).similar("n_comment", "remark", 0.6).similar("n_comment", "comment", 0.9);
      Parts p = new Parts(lake, "SELECT n_name, n_comment, count(*) AS customers FROM nation JOIN customer "
          + "ON c_nationkey = n_nationkey GROUP BY n_name, n_comment", lake.padWith("cstm", "country_current"));

      TableChoice c = p.chooser.rankTables("nation", List.of("n_name", "n_comment", "n_nationkey"),
          new ArrayList<>()).get(0);

      assertThat(c.lake()).isEqualTo("country_current");
      assertThat(dev.lakerewrite.core.match.EntityNames.isOwnKey("n_nationkey", "nation", List.of("customer")))
          .isTrue();
      assertThat(dev.lakerewrite.core.match.EntityNames.isOwnKey("c_nationkey", "customer", List.of("nation")))
          .isFalse();
      assertThat(dev.lakerewrite.core.match.EntityNames.isOwnKey("s_suppkey", "supplier", List.of())).isTrue();
      assertThat(dev.lakerewrite.core.match.EntityNames.isOwnKey("id", "council_types", List.of())).isFalse();
      assertThat(dev.lakerewrite.core.match.EntityNames.isOwnKey("ps_partkey", "partsupp", List.of("part")))
          .isFalse();
    }

    @Test
    void aColumnComparedWithNumbersMayBeTextThatSpellsNumbersButNotTextWithout() {
      FakeLakeTools orders = new FakeLakeTools()
          .table("orders", "status VARCHAR, quantity_text VARCHAR, placed DATE", "O|28.0 units|1995-03-01",
              "F|3 units|1996-01-02")
          .similar("quantity", "status", 0.9).similar("quantity", "quantity text", 0.6);
      Parts p = new Parts(orders, "SELECT status FROM orders WHERE quantity > 10", orders.padWith("orders"));

      assertThat(p.context.canServe("quantity", "orders", "quantity_text")).isTrue();
      assertThat(p.context.canServe("quantity", "orders", "status")).isFalse();
      assertThat(p.context.canServe("status", "orders", "quantity_text")).isTrue();
      assertThat(p.context.canServe("quantity", "orders", "placed")).as("10 is no year: a date holds no quantity")
          .isFalse();
      assertThat(p.chooser.bestColumn("orders", "quantity", "orders")).get()
          .extracting(ColumnTarget::lakeColumn).isEqualTo("quantity_text");
      Parts years = new Parts(orders, "SELECT status FROM orders WHERE opened < 1996", orders.padWith("orders"));
      assertThat(years.context.canServe("opened", "orders", "placed")).as("a year read from a date").isTrue();
    }

    @Test
    void aColumnComparedWithADateColumnIsADateToo() {
      // TPC-H Q12: l_commitdate is compared only with other columns; l_receiptdate with dates.
      FakeLakeTools items = new FakeLakeTools()
          .table("lntm", "RECID BIGINT, RECEIPTDATE DATE, SHIPMODE VARCHAR", "1|1995-03-01|MAIL", "2|1996-01-02|SHIP");
      Parts p = new Parts(items, "SELECT l_shipmode FROM lineitem WHERE l_commitdate < l_receiptdate "
          + "AND l_shipdate < l_commitdate AND l_receiptdate >= DATE '1994-01-01'", items.padWith("lntm"));

      assertThat(p.context.expectedFamilies).containsEntry("l_commitdate", TypeFamily.DATETIME)
          .containsEntry("l_shipdate", TypeFamily.DATETIME).doesNotContainKey("l_shipmode");
      assertThat(p.context.canServe("l_commitdate", "lntm", "RECID")).isFalse();
      assertThat(p.context.canServe("l_commitdate", "lntm", "RECEIPTDATE")).isTrue();
    }

    @Test
    void aColumnTheQueryComputesWithIsANumberAndNoDateCanHoldIt() {
      FakeLakeTools items = new FakeLakeTools()
          .table("lntm", "EXT DOUBLE, RECEIPTDATE DATE, TAXATION DOUBLE", "100.0|1995-03-01|0.02",
              "250.0|1996-01-02|0.06")
          .similar("discount", "receiptdate", 0.5).similar("discount", "taxation", 0.3);
      Parts p = new Parts(items, "SELECT sum(l_extendedprice * l_discount) FROM lineitem "
          + "WHERE l_discount BETWEEN DECIMAL '0.06' - DECIMAL '0.01' AND DECIMAL '0.06' + DECIMAL '0.01'",
          items.padWith("lntm"));

      assertThat(p.context.expectedFamilies).containsEntry("l_discount", TypeFamily.NUMERIC)
          .containsEntry("l_extendedprice", TypeFamily.NUMERIC);
      assertThat(p.context.canServe("l_discount", "lntm", "RECEIPTDATE")).isFalse();
      assertThat(p.context.canServe("l_discount", "lntm", "TAXATION")).isTrue();
    }
  }

  @Nested
  class Obsolete {

    private final FakeLakeTools lake = new FakeLakeTools()
        .table("films", "title VARCHAR, country_of_origin VARCHAR", "Up|United States", "Akira|Japan")
        .table("nations", "label VARCHAR, currency VARCHAR", "Japan|JPY")
        .similar("countries", "country of origin", 0.75);

    @Test
    void anAssumedTableAnsweredByAnothersLakeTableIsMergedIntoIt() {
      String sql = "SELECT f.title, c.name FROM films f JOIN countries c ON f.country_id = c.id";
      Parts p = new Parts(lake, sql, lake.padWith("films"));
      ObsoleteTables obsolete = new ObsoleteTables(p.context, p.chooser);
      Map<String, TableChoice> tables = byAssumed(
          choice("films", "films", Map.of("title", target("films", "title")), List.of()),
          choice("countries", "films", Map.of(), List.of("name")));
      List<String> notes = new ArrayList<>();

      obsolete.mergeObsolete(tables, notes, Set.of());

      TableChoice countries = tables.get("countries");
      assertThat(countries.mergedInto()).isEqualTo("films");
      // The country's name is read from the films' column that refers to countries, not from the film's title.
      assertThat(countries.columns().get("name").lakeColumn()).isEqualTo("country_of_origin");
      assertThat(notes).anyMatch(n -> n.startsWith("countries is obsolete"));
    }

    /** Store sales, their returns and catalog sales, each sale table with its own profits and item keys. */
    private final FakeLakeTools sales = new FakeLakeTools()
        .table("shop_sales", "item INTEGER, net_profit DOUBLE", "1|2.5", "2|4.0")
        .table("shop_returns", "item INTEGER, loss DOUBLE", "1|1.0")
        .table("catalog_orders", "item INTEGER, profit DOUBLE", "1|7.5", "2|3.0");

    private Map<String, TableChoice> salesChoices() {
      TableChoice store = new TableChoice("store_sales", "shop_sales", 3.0,
          new LinkedHashMap<>(Map.of("ss_net_profit", target("shop_sales", "net_profit"))), new ArrayList<>(), null);
      TableChoice catalogOnStore = new TableChoice("catalog_sales", "shop_sales", 2.0,
          new LinkedHashMap<>(Map.of("cs_net_profit", target("shop_sales", "net_profit"))), new ArrayList<>(), null);
      return byAssumed(store, choice("store_returns", "shop_returns", Map.of("sr_net_loss",
          target("shop_returns", "loss")), List.of()), catalogOnStore);
    }

    private Map<String, List<TableChoice>> salesRanking(Map<String, TableChoice> tables) {
      Map<String, List<TableChoice>> ranked = new LinkedHashMap<>();
      tables.forEach((k, v) -> ranked.put(k, List.of(v)));
      ranked.put("catalog_sales", List.of(tables.get("catalog_sales"), new TableChoice("catalog_sales",
          "catalog_orders", 1.9, new LinkedHashMap<>(Map.of("cs_net_profit", target("catalog_orders", "profit"))),
          new ArrayList<>(), null)));
      return ranked;
    }

    /** The sales' choices after the merge of obsolete tables for a query over the three tables; notes appended. */
    private Map<String, TableChoice> mergedSales(String sql, List<String> notes) {
      Parts p = new Parts(sales, sql, sales.padWith("shop_sales", "shop_returns", "catalog_orders"));
      Map<String, TableChoice> tables = salesChoices();
      new ObsoleteTables(p.context, p.chooser).mergeObsolete(tables, notes, Set.of(), salesRanking(tables));
      return tables;
    }

    @Test
    void twoTablesTheQueryJoinsOnlyThroughAThirdAreNotOneLakeTable() {
      // TPC-DS q25: store and catalog sales meet through the store returns; the catalog sales chose the store sales'
      // table (it answers their profit), and merged there they would read the store's sales.
      List<String> notes = new ArrayList<>();
      Map<String, TableChoice> tables = mergedSales("SELECT sum(ss_net_profit), sum(sr_net_loss), sum(cs_net_profit) "
          + "FROM store_sales, store_returns, catalog_sales WHERE ss_item_sk = sr_item_sk AND sr_item_sk = cs_item_sk",
          notes);

      assertThat(tables.get("catalog_sales").lake()).isEqualTo("catalog_orders");
      assertThat(tables.get("catalog_sales").mergedInto()).isNull();
      assertThat(tables.get("store_sales").lake()).isEqualTo("shop_sales");
      assertThat(notes).anyMatch(n -> n.startsWith("catalog_sales→catalog_orders: shop_sales")
          && n.contains("store_sales's"));
    }

    @Test
    void twoTablesLinkedByATableOfKeysMayBeOneLakeTable() {
      // Films and their languages through a table of film and language keys: the lake may hold the language in the
      // films' table, as here the catalog's profit in the store's (the returns read only keys).
      Map<String, TableChoice> tables = mergedSales("SELECT sum(ss_net_profit), sum(cs_net_profit) "
          + "FROM store_sales, store_returns, catalog_sales WHERE ss_item_sk = sr_item_sk AND sr_item_sk = cs_item_sk",
          new ArrayList<>());

      assertThat(tables.get("catalog_sales").mergedInto()).isEqualTo("store_sales");
    }

    @Test
    void twoTablesTheQueryJoinsWithEachOtherMayStillBeOneLakeTable() {
      Map<String, TableChoice> tables = mergedSales("SELECT sum(ss_net_profit), sum(sr_net_loss), sum(cs_net_profit) "
          + "FROM store_sales, store_returns, catalog_sales WHERE ss_item_sk = sr_item_sk AND ss_item_sk = cs_item_sk",
          new ArrayList<>());

      assertThat(tables.get("catalog_sales").mergedInto()).isEqualTo("store_sales");
    }

    @Test
    void aJoinSearchThatFoundNothingDropsNoTableWhoseColumnsTheOtherCannotAnswer() {
      String sql = "SELECT f.title, c.currency FROM films f JOIN countries c ON f.country_id = c.id";
      Parts p = new Parts(lake, sql, lake.padWith("films", "nations"), new Action.FindJoinPath("films", "nations"));
      Map<String, TableChoice> tables = byAssumed(
          choice("films", "films", Map.of("title", target("films", "title")), List.of()),
          choice("countries", "nations", Map.of("currency", target("nations", "currency")), List.of()));
      List<String> notes = new ArrayList<>();

      new ObsoleteTables(p.context, p.chooser).mergeObsolete(tables, notes, Set.of());

      // films has no currency: the query's own join stays, on the mapped keys.
      assertThat(tables.get("countries").mergedInto()).isNull();
      assertThat(tables.get("countries").lake()).isEqualTo("nations");
      assertThat(notes).noneMatch(n -> n.contains("obsolete"));
    }

    @Test
    void aTableWhoseOwnLakeTableIsABetterTableForItIsNotMergedThoughAnotherHasItsColumns() {
      // TPC-H's region has only a key and a name; the nation table has both (its region key and its own name).
      FakeLakeTools tpch = new FakeLakeTools()
          .table("tbl_ntn", "NTNK BIGINT, NAME VARCHAR, REGIONKEY BIGINT", "0|ALGERIA|0", "1|ARGENTINA|1",
              "2|BRAZIL|1", "3|CANADA|1", "4|EGYPT|4")
          .table("tbl_rgn", "REGIONKEY BIGINT, NAME VARCHAR", "0|AFRICA", "1|AMERICA", "4|MIDDLE EAST")
          .edge("tbl_ntn", "REGIONKEY", "tbl_rgn", "REGIONKEY")
          .similar("nation", "tbl ntn", 0.7).similar("region", "tbl rgn", 0.7)
          .similar("nation", "tbl rgn", 0.1).similar("region", "tbl ntn", 0.1)
          .similar("r name", "name", 0.6).similar("n regionkey", "regionkey", 0.9)
          .similar("r regionkey", "regionkey", 0.9);
      String sql = "WITH per_parent AS (SELECT n_regionkey AS parent_key, COUNT(*) AS total FROM nation "
          + "GROUP BY n_regionkey) SELECT p.r_name, s.total FROM region p JOIN per_parent s "
          + "ON s.parent_key = p.r_regionkey ORDER BY s.total DESC, p.r_name LIMIT 7";

      Plan plan = new OfflinePlanner(tpch.state(sql, tpch.padWith("tbl_ntn", "tbl_rgn"))).plan();

      assertThat(plan.tables().get("region").mergedInto()).isNull();
      assertThat(plan.tables().get("region").lake()).isEqualTo("tbl_rgn");
      assertThat(plan.notes()).noneMatch(n -> n.contains("obsolete"));
    }

    @Test
    void aTableOutsideAnAssumedTablesRankingAnswersItOnlyWhereItScoresAsWellByWhatItIsAbout() {
      // A supplier's table holds a nation key and a name column (the supplier's); the nation's own table is tbl_land.
      FakeLakeTools tpch = new FakeLakeTools()
          .table("tbl_provider", "SUPP BIGINT, NAME VARCHAR, NTNK BIGINT, ACCTBAL DOUBLE",
              "1|Supplier#1|0|10.5", "2|Supplier#2|1|20.0", "3|Supplier#3|1|7.0")
          .table("tbl_land", "NATIONKEY BIGINT, NAME VARCHAR", "0|ALGERIA", "1|ARGENTINA")
          .edge("tbl_provider", "NTNK", "tbl_land", "NATIONKEY")
          .similar("nation", "tbl land", 0.5).similar("nation", "tbl provider", 0.05)
          .similar("n name", "name", 0.8).similar("s acctbal", "acctbal", 0.9);
      String sql = "SELECT p.n_name, sum(c.s_acctbal) FROM supplier c JOIN nation p ON c.s_nationkey = p.n_nationkey "
          + "GROUP BY p.n_name";
      Parts p = new Parts(tpch, sql, tpch.padWith("tbl_provider", "tbl_land"));
      TableChoice supplier = choice("supplier", "tbl_provider", Map.of("s_acctbal", target("tbl_provider", "ACCTBAL")),
          List.of());
      TableChoice nation = new TableChoice("nation", "tbl_land", 1.5, new LinkedHashMap<>(Map.of("n_name",
          new ColumnTarget("tbl_land", "NAME", 0.8, "test"))), new ArrayList<>(), null);
      Map<String, TableChoice> tables = byAssumed(supplier, nation);
      // tbl_provider is not among the nation's candidates: its column fit alone (the name) would absorb the nation.
      Map<String, List<TableChoice>> ranked = new LinkedHashMap<>();
      ranked.put("supplier", List.of(supplier));
      ranked.put("nation", List.of(nation));
      List<String> notes = new ArrayList<>();

      new ObsoleteTables(p.context, p.chooser).mergeObsolete(tables, notes, Set.of(), ranked);

      assertThat(tables.get("nation").mergedInto()).isNull();
      assertThat(tables.get("nation").lake()).isEqualTo("tbl_land");
      assertThat(notes).noneMatch(n -> n.contains("obsolete"));
    }

    @Test
    void twoJoinedTablesOnOneLakeTableAreKeptApartWhereOneScoresAlmostAsWellElsewhere() {
      // "parts" reads for partsupp nearly as well as "partsupps" does; the part has no other table nearly as good.
      FakeLakeTools tpch = new FakeLakeTools()
          .table("raw_parts", "PAR BIGINT, INPUT VARCHAR", "1|ly. slyly ironi", "2|lar accounts amo")
          .table("raw_partsupps", "PART BIGINT, COST DOUBLE", "1|10.5", "2|20.0")
          .edge("raw_partsupps", "PART", "raw_parts", "PAR");
      String sql = "SELECT p.p_comment, ps.ps_supplycost FROM part p JOIN partsupp ps ON ps.ps_partkey = p.p_partkey";
      Parts p = new Parts(tpch, sql, tpch.padWith("raw_parts", "raw_partsupps"));
      TableChoice part = new TableChoice("part", "raw_parts", 1.58, new LinkedHashMap<>(Map.of("p_comment",
          target("raw_parts", "INPUT"))), new ArrayList<>(), null);
      TableChoice partsuppOnParts = new TableChoice("partsupp", "raw_parts", 1.59, new LinkedHashMap<>(),
          new ArrayList<>(List.of("ps_supplycost")), null);
      TableChoice partsuppOnOwn = new TableChoice("partsupp", "raw_partsupps", 1.57, new LinkedHashMap<>(Map.of(
          "ps_supplycost", target("raw_partsupps", "COST"))), new ArrayList<>(), null);
      TableChoice partOnPartsupps = new TableChoice("part", "raw_partsupps", 1.30, new LinkedHashMap<>(),
          new ArrayList<>(List.of("p_comment")), null);
      Map<String, List<TableChoice>> ranked = new LinkedHashMap<>();
      ranked.put("part", List.of(part, partOnPartsupps));
      ranked.put("partsupp", List.of(partsuppOnParts, partsuppOnOwn));
      Map<String, TableChoice> tables = byAssumed(part, partsuppOnParts);
      List<String> notes = new ArrayList<>();

      new ObsoleteTables(p.context, p.chooser).mergeObsolete(tables, notes, Set.of(), ranked);

      assertThat(tables.get("partsupp").lake()).isEqualTo("raw_partsupps");
      assertThat(tables.get("part").lake()).isEqualTo("raw_parts");
      assertThat(tables.values()).allSatisfy(t -> assertThat(t.mergedInto()).isNull());
    }

    @Test
    void aTableScoringAlmostAsWellOnATableItsNameDoesNotNameIsMergedNotSeparated() {
      // A council's type scores 1.37 on a table of taxa, 1.40 on the councils' table; "found in taxon" is no name for
      // it (0.34), only a little nearer than "authority" (0.32): the type is the councils' column, as the gold reads.
      FakeLakeTools wiki = new FakeLakeTools()
          .table("authority", "LABEL VARCHAR, INSTANCE_OF VARCHAR, WEBSITE VARCHAR",
              "Auckland Council|regional council|a.nz", "Otago Council|regional council|o.nz",
              "Nelson Council|unitary authority|n.nz")
          .table("found_in_taxon", "LABEL VARCHAR, TAXON VARCHAR", "kiwi|Apteryx", "kea|Nestor")
          .similar("council types", "found in taxon", 0.34).similar("council types", "authority", 0.32);
      String sql = "SELECT c.name, c.website FROM councils c JOIN council_types t ON c.type_id = t.id "
          + "WHERE t.name = 'regional council'";
      Parts p = new Parts(wiki, sql, wiki.padWith("authority", "found_in_taxon"));
      TableChoice councils = new TableChoice("councils", "authority", 1.61, new LinkedHashMap<>(Map.of("name",
          target("authority", "LABEL"), "website", target("authority", "WEBSITE"))), new ArrayList<>(), null);
      TableChoice typesOnAuthority = new TableChoice("council_types", "authority", 1.40, new LinkedHashMap<>(Map.of(
          "name", target("authority", "INSTANCE_OF"))), new ArrayList<>(), null);
      TableChoice typesOnTaxa = new TableChoice("council_types", "found_in_taxon", 1.37, new LinkedHashMap<>(Map.of(
          "name", target("found_in_taxon", "LABEL"))), new ArrayList<>(), null);
      Map<String, List<TableChoice>> ranked = new LinkedHashMap<>();
      ranked.put("councils", List.of(councils));
      ranked.put("council_types", List.of(typesOnAuthority, typesOnTaxa));
      Map<String, TableChoice> tables = byAssumed(councils, typesOnAuthority);
      List<String> notes = new ArrayList<>();

      new ObsoleteTables(p.context, p.chooser).mergeObsolete(tables, notes, Set.of(), ranked);

      assertThat(tables.get("council_types").lake()).isEqualTo("authority");
      assertThat(notes).noneMatch(n -> n.startsWith("council_types→found_in_taxon"));
    }

    @Test
    void aTableMergedIntoATableWhoseRowsAreItsOwnReadsItsEntityName() {
      // Heads of state and persons both chose a table of people (its rows are humans): merged, the person's full
      // name is the table's label, not its given name.
      FakeLakeTools wiki = new FakeLakeTools()
          .table("head_of_state", "LABEL VARCHAR, GIVEN_NAME VARCHAR, INSTANCE_OF VARCHAR, CITIZENSHIP VARCHAR",
              "Harald V|Harald|human|Norway", "Margrethe II|Margrethe|human|Denmark",
              "Carl XVI Gustaf|Carl|human|Sweden", "Willem-Alexander|Willem|human|Netherlands")
          .similar("persons", "human", 0.72).similar("heads of state", "human", 0.2)
          .similar("full name", "given name", 0.62).similar("heads of state", "head of state", 1.0);
      String sql = "SELECT p.full_name FROM heads_of_state h JOIN persons p ON p.id = h.person_id "
          + "WHERE h.country = 'Norway'";
      Parts p = new Parts(wiki, sql, wiki.padWith("head_of_state"));
      TableChoice heads = new TableChoice("heads_of_state", "head_of_state", 2.15, new LinkedHashMap<>(Map.of(
          "country", target("head_of_state", "CITIZENSHIP"))), new ArrayList<>(), null);
      TableChoice persons = new TableChoice("persons", "head_of_state", 1.83, new LinkedHashMap<>(Map.of(
          "full_name", target("head_of_state", "LABEL"))), new ArrayList<>(), null);
      Map<String, TableChoice> tables = byAssumed(heads, persons);

      new ObsoleteTables(p.context, p.chooser).mergeObsolete(tables, new ArrayList<>(), Set.of());

      assertThat(tables.get("persons").mergedInto()).isEqualTo("heads_of_state");
      assertThat(tables.get("persons").columns().get("full_name").lakeColumn()).isEqualTo("LABEL");
    }

    /** TPC-DS's sales, customers and addresses; the customers join the addresses only when {@code linked}. */
    private FakeLakeTools salesLake(boolean linked) {
      FakeLakeTools ds = new FakeLakeTools()
          .table("tbl_sales", "BILL_CUSTOMER_SK BIGINT, SHIP_ADDR_SK BIGINT, PRICE DOUBLE", "1|7|5.0")
          .table("tbl_client", "CUSTOMER_SK BIGINT, CRNT_ADDR_SK BIGINT", "1|8")
          .table("tbl_address", "ADDRESS_SK BIGINT, ZIP VARCHAR", "7|85669", "8|86197")
          .edge("tbl_sales", "SHIP_ADDR_SK", "tbl_address", "ADDRESS_SK")
          .edge("tbl_sales", "BILL_CUSTOMER_SK", "tbl_client", "CUSTOMER_SK")
          .similar("c customer sk", "customer sk", 0.9).similar("c current addr sk", "crnt addr sk", 0.8);
      return linked ? ds.edge("tbl_client", "CRNT_ADDR_SK", "tbl_address", "ADDRESS_SK") : ds;
    }

    /** The customer's choice after merging obsolete tables on a lake of {@link #salesLake}. */
    private TableChoice customerAfterMerging(FakeLakeTools ds) {
      String sql = "SELECT ca_zip, sum(cs_sales_price) FROM catalog_sales, customer, customer_address "
          + "WHERE cs_bill_customer_sk = c_customer_sk AND c_current_addr_sk = ca_address_sk GROUP BY ca_zip";
      Parts p = new Parts(ds, sql, ds.padWith("tbl_sales", "tbl_client", "tbl_address"));
      Map<String, TableChoice> tables = byAssumed(
          choice("catalog_sales", "tbl_sales", Map.of("cs_sales_price", target("tbl_sales", "PRICE")), List.of()),
          choice("customer", "tbl_client", Map.of(), List.of()),
          choice("customer_address", "tbl_address", Map.of("ca_zip", target("tbl_address", "ZIP")), List.of()));
      new ObsoleteTables(p.context, p.chooser).mergeObsolete(tables, new ArrayList<>(), Set.of());
      return tables.get("customer");
    }

    @Test
    void aTableThatOnlyLinksTwoOthersStaysWhereTheLakeLinksThemThroughIt() {
      // TPC-DS q15: sales → customer → address on keys alone. The sales also join addresses directly (the ship
      // address); the customers' table joins both, so the query's link, the customer's current address, is kept.
      assertThat(customerAfterMerging(salesLake(true)).mergedInto()).isNull();

      // The customers split by rows: no part holds enough of the addresses' keys for the join graph, but the table
      // answers both keys by name, so the lake has the table the query walks through: kept.
      assertThat(customerAfterMerging(salesLake(false)).mergedInto()).isNull();
    }

    @Test
    void aTableThatOnlyLinksTwoOthersIsDroppedWhereTheLakeHasNoTableForIt() {
      // The best table for the customer holds nothing like its keys: the lake has no such table, and the sales link
      // the addresses themselves.
      FakeLakeTools ds = new FakeLakeTools()
          .table("tbl_sales", "BILL_CUSTOMER_SK BIGINT, SHIP_ADDR_SK BIGINT, PRICE DOUBLE", "1|7|5.0")
          .table("tbl_notes", "REMARK VARCHAR, WRITTEN DATE", "late|2001-01-01")
          .table("tbl_address", "ADDRESS_SK BIGINT, ZIP VARCHAR", "7|85669", "8|86197")
          .edge("tbl_sales", "SHIP_ADDR_SK", "tbl_address", "ADDRESS_SK");
      String sql = "SELECT ca_zip, sum(cs_sales_price) FROM catalog_sales, customer, customer_address "
          + "WHERE cs_bill_customer_sk = c_customer_sk AND c_current_addr_sk = ca_address_sk GROUP BY ca_zip";
      Parts p = new Parts(ds, sql, ds.padWith("tbl_sales", "tbl_notes", "tbl_address"));
      Map<String, TableChoice> tables = byAssumed(
          choice("catalog_sales", "tbl_sales", Map.of("cs_sales_price", target("tbl_sales", "PRICE")), List.of()),
          choice("customer", "tbl_notes", Map.of(), List.of()),
          choice("customer_address", "tbl_address", Map.of("ca_zip", target("tbl_address", "ZIP")), List.of()));
      List<String> notes = new ArrayList<>();

      new ObsoleteTables(p.context, p.chooser).mergeObsolete(tables, notes, Set.of());

      assertThat(tables.get("customer").mergedInto()).isEqualTo("catalog_sales");
      assertThat(notes).contains("customer is obsolete: it only links tables");
    }

    @Test
    void aTableOfKeysJoinedToThreeOthersIsTheFactTableAndStays() {
      // TPC-DS q6's store sales: only keys, joined to customers, dates and items; keys named unlike the query's.
      FakeLakeTools ds = new FakeLakeTools()
          .table("tbl_sales", "CLNT BIGINT, DAY_REF BIGINT, PNT BIGINT", "1|7|3")
          .table("tbl_client", "CUSTOMER_SK BIGINT, STATE VARCHAR", "1|VA")
          .table("tbl_dates", "DATE_SK BIGINT, YEAR BIGINT", "7|2000")
          .table("tbl_items", "ITEM_SK BIGINT, PRICE DOUBLE", "3|9.5");
      String sql = "SELECT c_state, count(*) FROM store_sales, customer, date_dim, item WHERE ss_customer_sk = "
          + "c_customer_sk AND ss_sold_date_sk = d_date_sk AND ss_item_sk = i_item_sk AND d_year = 2000 "
          + "AND i_current_price > 5 GROUP BY c_state";
      Parts p = new Parts(ds, sql, ds.padWith("tbl_sales", "tbl_client", "tbl_dates", "tbl_items"));
      Map<String, TableChoice> tables = byAssumed(
          choice("customer", "tbl_client", Map.of("c_state", target("tbl_client", "STATE")), List.of()),
          choice("store_sales", "tbl_sales", Map.of(), List.of()),
          choice("date_dim", "tbl_dates", Map.of("d_year", target("tbl_dates", "YEAR")), List.of()),
          choice("item", "tbl_items", Map.of("i_current_price", target("tbl_items", "PRICE")), List.of()));
      List<String> notes = new ArrayList<>();

      new ObsoleteTables(p.context, p.chooser).mergeObsolete(tables, notes, Set.of());

      assertThat(tables.get("store_sales").mergedInto()).isNull();
      assertThat(notes).noneMatch(n -> n.contains("obsolete"));
    }

    @Test
    void aTableKeptApartIsNotMerged() {
      String sql = "SELECT f.title, c.name FROM films f JOIN countries c ON f.country_id = c.id";
      Parts p = new Parts(lake, sql, lake.padWith("films"));
      Map<String, TableChoice> tables = byAssumed(
          choice("films", "films", Map.of("title", target("films", "title")), List.of()),
          choice("countries", "films", Map.of(), List.of("name")));

      new ObsoleteTables(p.context, p.chooser).mergeObsolete(tables, new ArrayList<>(), Set.of("countries"));

      assertThat(tables.get("countries").mergedInto()).isNull();
    }
  }

  @Nested
  class MissingTable {

    private final FakeLakeTools lake = new FakeLakeTools()
        .table("country_profiles", "country_name VARCHAR, currency VARCHAR", "Chile|CLP", "Peru|PEN")
        .table("economy", "country VARCHAR, gini_coef DOUBLE", "Chile|44.9", "Peru|40.2")
        .edge("country_profiles", "country_name", "economy", "country")
        .similar("gini index", "gini coef", 0.8);

    private TableChoice countries() {
      return choice("countries", "country_profiles", Map.of("name", target("country_profiles", "country_name")),
          List.of("gini_index"));
    }

    @Test
    void aColumnOfAJoinedNeighbourIsReadThroughAnAddedJoin() {
      Scratchpad pad = lake.padWith("country_profiles", "economy");
      lake.addJoinPath(pad, "country_profiles", "economy");
      Parts p = new Parts(lake, "SELECT name, gini_index FROM countries", pad);
      List<JoinRoute> joins = new ArrayList<>();
      List<Action> wanted = new ArrayList<>();

      TableChoice t = p.missing().crossTableColumns(countries(), joins, wanted);

      assertThat(t.columns().get("gini_index").lakeTable()).isEqualTo("economy");
      assertThat(t.columns().get("gini_index").lakeColumn()).isEqualTo("gini_coef");
      assertThat(t.unmapped()).isEmpty();
      assertThat(joins).singleElement().satisfies(j -> {
        assertThat(j.toLake()).isEqualTo("economy");
        assertThat(j.path().steps().get(0).leftColumn()).isEqualTo("country_name");
      });
    }

    @Test
    void anotherTablesKeyAnswersNoAttributeButACodeOfFewValuesDoes() {
      // The gini index named like the economy's surrogate key (many values) and like its indicator code (two).
      String[] rows = new String[40];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = (i % 2 == 0 ? "Chile" : "Peru") + i + "|" + (1000 + i) + "|" + (i % 2 + 1);
      }
      FakeLakeTools keyed = new FakeLakeTools()
          .table("country_profiles", "country_name VARCHAR, currency VARCHAR", "Chile0|CLP", "Peru1|PEN")
          .table("economy", "country VARCHAR, GINI_REF_SK BIGINT, GINI_CLASS_ID BIGINT", rows)
          .edge("country_profiles", "country_name", "economy", "country")
          .similar("gini index", "gini ref sk", 0.9).similar("gini index", "gini class id", 0.8);
      Scratchpad pad = keyed.padWith("country_profiles", "economy");
      keyed.addJoinPath(pad, "country_profiles", "economy");

      TableChoice t = new Parts(keyed, "SELECT name, gini_index FROM countries", pad).missing()
          .crossTableColumns(countries(), new ArrayList<>(), new ArrayList<>());

      assertThat(t.columns().get("gini_index").lakeColumn()).isEqualTo("GINI_CLASS_ID");
    }

    @Test
    void aTablesOwnIdentifierIsNeverReadFromAnotherEntitysTable() {
      // Customers' and items' surrogate keys match by value; the items' class id reads like a customer id.
      FakeLakeTools clients = new FakeLakeTools()
          .table("tbl_client", "CUSTOMER_SK BIGINT, CLIENT_ID VARCHAR", "1|AAAB", "2|AAAC")
          .table("tbl_item_attributes", "ITEM_SK BIGINT, CLASS_ID VARCHAR", "1|C1", "2|C2")
          .edge("tbl_client", "CUSTOMER_SK", "tbl_item_attributes", "ITEM_SK")
          .similar("c customer id", "class id", 0.8).similar("c customer id", "client id", 0.45);
      Scratchpad pad = clients.padWith("tbl_client", "tbl_item_attributes");
      clients.addJoinPath(pad, "tbl_client", "tbl_item_attributes");
      List<JoinRoute> joins = new ArrayList<>();

      TableChoice t = new Parts(clients, "SELECT c_customer_id FROM customer", pad).missing()
          .crossTableColumns(choice("customer", "tbl_client", Map.of(), List.of("c_customer_id")), joins,
              new ArrayList<>());

      assertThat(t.columns().get("c_customer_id").lakeTable()).isEqualTo("tbl_client");
      assertThat(joins).isEmpty();
    }

    @Test
    void withoutTheJoinPathItAsksForOneAndKeepsAnExecutableGuess() {
      Parts p = new Parts(lake, "SELECT name, gini_index FROM countries", lake.padWith("country_profiles", "economy"));
      List<JoinRoute> joins = new ArrayList<>();
      List<Action> wanted = new ArrayList<>();

      TableChoice t = p.missing().crossTableColumns(countries(), joins, wanted);

      assertThat(wanted).contains(new Action.FindJoinPath("country_profiles", "economy"));
      assertThat(joins).isEmpty();
      assertThat(t.unmapped()).containsExactly("gini_index");
      assertThat(t.columns().get("gini_index").weak()).isTrue();
      assertThat(t.columns().get("gini_index").lakeTable()).isEqualTo("country_profiles");
    }
  }

  @Nested
  class VerticalSplit {

    // A customer table split by columns: the address went to the "extr" part, joined on the key.
    private final FakeLakeTools lake = new FakeLakeTools()
        .table("zo_clnts", "CSTK BIGINT, ACTB VARCHAR, MKTS VARCHAR", "1|711.56 EUR|BUILDING", "2|121.65 EUR|AUTOMOBILE")
        .table("zo_clnts_extr", "CSTK BIGINT, ADRS VARCHAR", "1|IVhzIApeRb ot,c,E", "2|XSTf4,NCwDVaWNe6tEgvwfmRchLXak")
        .edge("zo_clnts", "CSTK", "zo_clnts_extr", "CSTK")
        .similar("c acctbal", "actb", 0.7);
    private final String sql = "SELECT c_address, c_acctbal FROM customer WHERE c_acctbal IS NOT NULL";

    private TableChoice customer() {
      return choice("customer", "zo_clnts", Map.of("c_acctbal", target("zo_clnts", "ACTB")), List.of("c_address"));
    }

    @Test
    void aGuessNeverTakesALakeColumnAnotherAssumedColumnReads() {
      Parts p = new Parts(lake, sql, lake.padWith("zo_clnts"));

      TableChoice t = p.missing().crossTableColumns(customer(), new ArrayList<>(),
          new ArrayList<>());

      assertThat(t.columns().get("c_address").weak()).isTrue();
      assertThat(t.columns().get("c_address").lakeColumn()).isNotEqualTo("ACTB");
      assertThat(t.columns().get("c_acctbal").lakeColumn()).isEqualTo("ACTB");
    }

    @Test
    void anAbbreviatedColumnOfTheSplitPartIsReadThroughTheJoin() {
      Scratchpad pad = lake.padWith("zo_clnts", "zo_clnts_extr");
      lake.addJoinPath(pad, "zo_clnts", "zo_clnts_extr");
      Parts p = new Parts(lake, sql, pad);
      List<JoinRoute> joins = new ArrayList<>();

      TableChoice t = p.missing().crossTableColumns(customer(), joins,
          new ArrayList<>());

      // No shared word and no declared similarity: only the abbreviation (ADRS ~ address) and the column model say so.
      assertThat(t.columns().get("c_address").lakeTable()).isEqualTo("zo_clnts_extr");
      assertThat(t.columns().get("c_address").lakeColumn()).isEqualTo("ADRS");
      assertThat(joins).extracting(JoinRoute::toLake).containsExactly("zo_clnts_extr");
    }

    @Test
    void thePartSplitOffByColumnsAnswersAColumnTheTableLacksThoughNoSearchFoundIt() {
      // SEARCH_TABLE for c_address found other tables; the part holds the customers' own rows, in sight or not.
      lake.keyOverlap("zo_clnts", "CSTK", "zo_clnts_extr", "CSTK", 1.0);
      List<Action> wanted = new ArrayList<>();

      List<JoinRoute> direct = new ArrayList<>();
      TableChoice before = new Parts(lake, sql, lake.padWith("zo_clnts")).missing().crossTableColumns(customer(),
          direct, wanted);

      // The part is joined by the join graph's one-to-one step before any FIND_JOIN_PATH.
      assertThat(before.columns().get("c_address").lakeTable()).isEqualTo("zo_clnts_extr");
      assertThat(before.columns().get("c_address").lakeColumn()).isEqualTo("ADRS");
      assertThat(direct).extracting(JoinRoute::toLake).containsExactly("zo_clnts_extr");
      assertThat(wanted).doesNotContain(new Action.FindJoinPath("zo_clnts", "zo_clnts_extr"));

      Scratchpad pad = lake.padWith("zo_clnts");
      lake.addJoinPath(pad, "zo_clnts", "zo_clnts_extr");
      List<JoinRoute> joins = new ArrayList<>();
      TableChoice after = new Parts(lake, sql, pad).missing().crossTableColumns(customer(), joins, new ArrayList<>());

      assertThat(after.columns().get("c_address").lakeTable()).isEqualTo("zo_clnts_extr");
      assertThat(after.columns().get("c_address").lakeColumn()).isEqualTo("ADRS");
      assertThat(joins).extracting(JoinRoute::toLake).containsExactly("zo_clnts_extr");
    }

    @Test
    void aKeyTheQueryOnlyJoinsOnIsReadFromThePartThatNamesIt() {
      // TPC-DS's sales split by columns: the sold date's key went to the attributes; the sales keep a sold time key,
      // which the matcher reads as sure. The join keeps the query's own key, through the part.
      FakeLakeTools sales = new FakeLakeTools()
          .table("tbl_store_sales", "REC_ID BIGINT, SOLD_TIME_SK BIGINT, NET_PROFIT DOUBLE", "1|33592|686.4",
              "2|33600|12.5")
          .table("tbl_store_sales_attributes", "RECORD_REF BIGINT, SOLD_DATE_SK BIGINT", "1|2450816", "2|2450817")
          .table("tbl_date_dim", "DATE_SK BIGINT, YEAR BIGINT", "2450816|2001", "2450817|2001")
          .edge("tbl_store_sales", "REC_ID", "tbl_store_sales_attributes", "RECORD_REF")
          .keyOverlap("tbl_store_sales", "REC_ID", "tbl_store_sales_attributes", "RECORD_REF", 1.0)
          .similar("ss net profit", "net profit", 0.9);
      String query = "SELECT sum(ss_net_profit) FROM store_sales, date_dim "
          + "WHERE d_date_sk = ss_sold_date_sk AND d_year = 2001";
      List<JoinRoute> joins = new ArrayList<>();

      TableChoice t = withJoinPath(sales, "tbl_store_sales", "tbl_store_sales_attributes", query,
          choice("store_sales", "tbl_store_sales", Map.of("ss_net_profit", target("tbl_store_sales", "NET_PROFIT")),
              List.of()), joins);

      assertThat(t.columns().get("ss_sold_date_sk").lakeTable()).isEqualTo("tbl_store_sales_attributes");
      assertThat(t.columns().get("ss_sold_date_sk").lakeColumn()).isEqualTo("SOLD_DATE_SK");
      assertThat(joins).extracting(JoinRoute::toLake).containsExactly("tbl_store_sales_attributes");
    }

    @Test
    void aKeyTheQueryOnlyJoinsOnIsReadFromThePartWhoseColumnAbbreviatesIt() {
      // TPC-H's partsupp split on its comment column: the keys went to the part, abbreviated (PRTK, SPKY); the table
      // itself offers only the comment, the quantity and the supply cost SPLY.
      FakeLakeTools partsupp = new FakeLakeTools()
          .table("zo_prt", "CMNT VARCHAR, AVLQ BIGINT, SPLY VARCHAR", "even theodolites|3325|USD 771.64",
              "bold realms|8895|USD 1.20")
          .table("zo_prt_inf", "CMNT_REF VARCHAR, PRTK BIGINT, SPKY BIGINT", "even theodolites|1|2",
              "bold realms|1|3")
          .table("zo_lntms", "PRTK BIGINT, SPKY BIGINT, QNTY BIGINT", "1|2|17", "1|3|36")
          .edge("zo_prt", "CMNT", "zo_prt_inf", "CMNT_REF")
          .keyOverlap("zo_prt", "CMNT", "zo_prt_inf", "CMNT_REF", 1.0)
          .similar("ps availqty", "avlq", 0.9);
      String query = "SELECT sum(l_quantity) FROM partsupp, lineitem "
          + "WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey AND ps_availqty > 100";
      List<JoinRoute> joins = new ArrayList<>();

      TableChoice t = withJoinPath(partsupp, "zo_prt", "zo_prt_inf", query,
          choice("partsupp", "zo_prt", Map.of("ps_availqty", target("zo_prt", "AVLQ")), List.of()), joins);

      assertThat(t.columns().get("ps_partkey").lakeTable()).isEqualTo("zo_prt_inf");
      assertThat(t.columns().get("ps_partkey").lakeColumn()).isEqualTo("PRTK");
      assertThat(t.columns().get("ps_suppkey").lakeColumn()).isEqualTo("SPKY");
      assertThat(joins).extracting(JoinRoute::toLake).containsExactly("zo_prt_inf");
    }

    // Orders split by columns one to one (ORDERKEY = ORDRK); customers reference nations (many to one).
    private final FakeLakeTools orders = new FakeLakeTools()
        .table("tbl_orders", "ORDERKEY BIGINT, ORDERPRIORITY BIGINT, CSTK BIGINT", "1|1|7", "2|3|7", "3|2|8")
        .table("tbl_orders_details", "ORDRK BIGINT, ORDERSTATUS VARCHAR", "1|F", "2|O", "3|F")
        .table("tbl_customers", "CSTK BIGINT, NATIONKEY BIGINT, CMNT VARCHAR", "7|1|slyly", "8|1|ironic")
        .table("tbl_nations", "NATIONKEY BIGINT, COMMENT VARCHAR", "1|bold requests")
        .edge("tbl_orders", "ORDERKEY", "tbl_orders_details", "ORDRK")
        .keyOverlap("tbl_orders", "ORDERKEY", "tbl_orders_details", "ORDRK", 1.0)
        .edge("tbl_customers", "NATIONKEY", "tbl_nations", "NATIONKEY")
        .keyOverlap("tbl_customers", "NATIONKEY", "tbl_nations", "NATIONKEY", 1.0)
        .similar("orderstatus", "orderstatus", 1.0)
        .similar("c comment", "comment", 0.9);

    /** {@code crossTableColumns} on a choice, with the join path between two lake tables in the scratchpad. */
    private TableChoice withJoinPath(FakeLakeTools lake, String from, String to, String sql, TableChoice choice,
        List<JoinRoute> joins) {
      Scratchpad pad = lake.padWith(from, to);
      lake.addJoinPath(pad, from, to);
      return new Parts(lake, sql, pad).missing().crossTableColumns(choice, joins, new ArrayList<>());
    }

    @Test
    void aPartsColumnNamedExactlySoBeatsAMainColumnThatOnlyAbbreviatesTheName() {
      // The main table's ORDERPRIORITY reads as sure as the part's ORDERSTATUS by name alone (0.95 against 1.0,
      // within the margin); the part's is the assumed column's own name.
      Scratchpad pad = orders.padWith("tbl_orders", "tbl_orders_details");
      orders.addJoinPath(pad, "tbl_orders", "tbl_orders_details");
      FakeLakeTools close = orders.similar("o_orderstatus", "ORDERPRIORITY", 0.95)
          .similar("o_orderstatus", "ORDERSTATUS", 1.0);
      TableChoice sure = choice("orders", "tbl_orders",
          Map.of("o_orderstatus", new ColumnTarget("tbl_orders", "ORDERPRIORITY", 0.95, "test")), List.of());

      TableChoice after = new Parts(close, "SELECT o_orderstatus, count(*) FROM orders GROUP BY o_orderstatus", pad)
          .missing().crossTableColumns(sure, new ArrayList<>(), new ArrayList<>());
      assertThat(after.columns().get("o_orderstatus").lakeColumn()).isEqualTo("ORDERSTATUS");
    }

    @Test
    void aColumnThePartSplitOffByColumnsAnswersBetterIsReadThroughTheJoin() {
      Scratchpad pad = orders.padWith("tbl_orders", "tbl_orders_details");
      String sql = "SELECT o_orderstatus, count(*) FROM orders GROUP BY o_orderstatus";
      TableChoice weak = choice("orders", "tbl_orders",
          Map.of("o_orderstatus", new ColumnTarget("tbl_orders", "ORDERPRIORITY", 0.4, "test")), List.of());

      List<Action> wanted = new ArrayList<>();
      List<JoinRoute> direct = new ArrayList<>();
      TableChoice before = new Parts(orders, sql, pad).missing().crossTableColumns(weak, direct, wanted);
      assertThat(before.columns().get("o_orderstatus").lakeColumn()).as("no join path yet").isEqualTo("ORDERSTATUS");
      assertThat(direct).extracting(JoinRoute::toLake).containsExactly("tbl_orders_details");
      assertThat(wanted).doesNotContain(new Action.FindJoinPath("tbl_orders", "tbl_orders_details"));

      orders.addJoinPath(pad, "tbl_orders", "tbl_orders_details");
      List<JoinRoute> joins = new ArrayList<>();
      TableChoice after = new Parts(orders, sql, pad).missing().crossTableColumns(weak, joins, new ArrayList<>());
      assertThat(after.columns().get("o_orderstatus").lakeTable()).isEqualTo("tbl_orders_details");
      assertThat(after.columns().get("o_orderstatus").lakeColumn()).isEqualTo("ORDERSTATUS");
      assertThat(joins).extracting(JoinRoute::toLake).containsExactly("tbl_orders_details");
    }

    @Test
    void theTableAPartWasSplitFromAnswersWhenThePartIsTheTableChosen() {
      // The details part was chosen for orders (its keys join the query's other tables); the priority lives in the
      // table it was split from, whose name the part's extends. Either way round the two hold the same rows.
      FakeLakeTools lake = orders.similar("o_orderpriority", "ORDERSTATUS", 0.55)
          .similar("o_orderpriority", "ORDERPRIORITY", 0.75);
      String sql = "SELECT o_orderpriority, count(*) FROM orders GROUP BY o_orderpriority";
      TableChoice onPart = choice("orders", "tbl_orders_details",
          Map.of("o_orderpriority", new ColumnTarget("tbl_orders_details", "ORDERSTATUS", 0.55, "test")), List.of());
      List<JoinRoute> joins = new ArrayList<>();

      TableChoice after = withJoinPath(lake, "tbl_orders_details", "tbl_orders", sql, onPart, joins);

      assertThat(after.columns().get("o_orderpriority").lakeTable()).isEqualTo("tbl_orders");
      assertThat(after.columns().get("o_orderpriority").lakeColumn()).isEqualTo("ORDERPRIORITY");
      assertThat(joins).extracting(JoinRoute::toLake).containsExactly("tbl_orders");
    }

    @Test
    void aColumnNamedExactlyAsTheAssumedOneStaysThoughAPartsColumnScoresHigher() {
      FakeLakeTools lake = orders.similar("o_orderpriority", "ORDERPRIORITY", 0.7)
          .similar("o_orderpriority", "ORDERSTATUS", 0.95);
      TableChoice exact = choice("orders", "tbl_orders",
          Map.of("o_orderpriority", new ColumnTarget("tbl_orders", "ORDERPRIORITY", 0.7, "test")), List.of());

      TableChoice after = withJoinPath(lake, "tbl_orders", "tbl_orders_details",
          "SELECT o_orderpriority, count(*) FROM orders GROUP BY o_orderpriority", exact, new ArrayList<>());

      assertThat(after.columns().get("o_orderpriority").lakeColumn()).isEqualTo("ORDERPRIORITY");
    }

    @Test
    void aColumnComparedWithTextIsReadFromThePartThatHoldsTheText() {
      // o_orderstatus = 'F' guessed onto the main table's numeric priority; the part holds 'F' in its status.
      TableChoice guessed = choice("orders", "tbl_orders",
          Map.of("o_orderstatus", new ColumnTarget("tbl_orders", "ORDERPRIORITY", 0.3, "test", true)), List.of());

      TableChoice after = withJoinPath(orders, "tbl_orders", "tbl_orders_details",
          "SELECT count(*) FROM orders WHERE o_orderstatus = 'F'", guessed, new ArrayList<>());

      assertThat(after.columns().get("o_orderstatus").lakeTable()).isEqualTo("tbl_orders_details");
      assertThat(after.columns().get("o_orderstatus").lakeColumn()).isEqualTo("ORDERSTATUS");
    }

    @Test
    void theKeyAPartSharesIsNoAttribute() {
      // TPC-H: l_receiptdate read the lineitem part's key recId (rec ~ receipt) instead of the main table's rcptd.
      FakeLakeTools lake = orders.similar("o_clerk", "ORDRK", 0.9).similar("o_clerk", "ORDERPRIORITY", 0.6);
      TableChoice main = choice("orders", "tbl_orders",
          Map.of("o_clerk", new ColumnTarget("tbl_orders", "ORDERPRIORITY", 0.6, "test")), List.of());

      TableChoice after = withJoinPath(lake, "tbl_orders", "tbl_orders_details",
          "SELECT o_clerk, count(*) FROM orders GROUP BY o_clerk", main, new ArrayList<>());

      assertThat(after.columns().get("o_clerk").lakeColumn()).isEqualTo("ORDERPRIORITY");
    }

    @Test
    void aColumnGuessedOntoTheKeyThePartsShareIsStillReadFromThePart() {
      // Only the key the parts share is read where it is; o_orderstatus was guessed onto ORDERKEY.
      FakeLakeTools lake = orders.similar("o_orderstatus", "ORDERSTATUS", 0.9).similar("o_orderstatus", "ORDERKEY", 0.5);
      TableChoice guessed = choice("orders", "tbl_orders",
          Map.of("o_orderstatus", new ColumnTarget("tbl_orders", "ORDERKEY", 0.5, "test")), List.of());

      TableChoice after = withJoinPath(lake, "tbl_orders", "tbl_orders_details",
          "SELECT o_orderstatus, count(*) FROM orders GROUP BY o_orderstatus", guessed, new ArrayList<>());

      assertThat(after.columns().get("o_orderstatus").lakeColumn()).isEqualTo("ORDERSTATUS");
    }

    @Test
    void theTableAndItsPartsAreAssignedOneToOneAsOneTable() {
      // Both columns read the details' status best by name; one to one, the status goes to o_orderstatus (0.95)
      // and o_comment, the weaker claim, keeps what the main table gave it.
      FakeLakeTools lake = orders.similar("o_orderstatus", "ORDERSTATUS", 0.95)
          .similar("o_comment", "ORDERSTATUS", 0.9).similar("o_comment", "ORDERPRIORITY", 0.6)
          .similar("o_orderstatus", "ORDERPRIORITY", 0.55);
      String sql = "SELECT o_orderstatus, o_comment FROM orders";
      TableChoice main = choice("orders", "tbl_orders",
          Map.of("o_orderstatus", new ColumnTarget("tbl_orders", "ORDERPRIORITY", 0.55, "test"),
              "o_comment", new ColumnTarget("tbl_orders", "ORDERPRIORITY", 0.6, "test")), List.of());

      TableChoice after = withJoinPath(lake, "tbl_orders", "tbl_orders_details", sql, main, new ArrayList<>());

      assertThat(after.columns().get("o_orderstatus").lakeColumn()).isEqualTo("ORDERSTATUS");
      assertThat(after.columns().get("o_comment").lakeTable()).isEqualTo("tbl_orders");
    }

    @Test
    void aColumnTheMainTableAnswersIsNotReadFromAnEntityItReferences() {
      List<JoinRoute> joins = new ArrayList<>();
      TableChoice c = withJoinPath(orders, "tbl_customers", "tbl_nations", "SELECT c_comment FROM customer",
          choice("customer", "tbl_customers",
              Map.of("c_comment", new ColumnTarget("tbl_customers", "CMNT", 0.5, "test")), List.of()), joins);

      assertThat(c.columns().get("c_comment").lakeColumn()).isEqualTo("CMNT");
      assertThat(joins).isEmpty();
    }

    @Test
    void anEntityWithOneRowPerRowOfTheTableIsNoPartOfIt() {
      // One capital per region, each capital once: the same keys one to one, but the capitals are their own entity.
      FakeLakeTools capitals = new FakeLakeTools()
          .table("region_of_new_zealand", "label VARCHAR, capital VARCHAR", "Northland Region|Whangārei",
              "Waikato|Hamilton")
          .table("capital_of", "capital VARCHAR, FIPS VARCHAR", "Whangārei|NZF6", "Hamilton|NZ85")
          .edge("region_of_new_zealand", "capital", "capital_of", "capital")
          .keyOverlap("region_of_new_zealand", "capital", "capital_of", "capital", 1.0)
          .similar("region", "fips", 0.9);
      List<JoinRoute> joins = new ArrayList<>();
      TableChoice r = withJoinPath(capitals, "region_of_new_zealand", "capital_of", "SELECT region FROM nz_regions",
          choice("nz_regions", "region_of_new_zealand",
              Map.of("region", new ColumnTarget("region_of_new_zealand", "label", 0.4, "test")), List.of()), joins);

      assertThat(r.columns().get("region").lakeColumn()).isEqualTo("label");
      assertThat(joins).isEmpty();
      assertThat(PlanningContext.namedAsPart("tbl_orders", "tbl_orders_details")).isTrue();
      assertThat(PlanningContext.namedAsPart("zo_prts", "zo_prts_atrb")).isTrue();
      assertThat(PlanningContext.namedAsPart("zo_prts", "zo_prtsp")).isFalse();
      // WikiDBs names a relation by the entity and a preposition: the regions a capital is the capital of.
      assertThat(PlanningContext.namedAsPart("capital", "capital_of")).isFalse();
      assertThat(PlanningContext.namedAsPart("capital", "capital_attributes")).isTrue();
    }

    @Test
    void uniqueKeysThatOnlyHappenToOverlapJoinNoPartOfTheTable() {
      // Line items are numbered 1..n too: their keys are unique and meet the orders' keys, but hold other rows.
      FakeLakeTools lines = new FakeLakeTools()
          .table("tbl_orders", "ORDERKEY BIGINT, CMNT VARCHAR", "1|slyly", "2|ironic")
          .table("tbl_line_attrs", "RCRF BIGINT, COMMENT VARCHAR", "1|bold", "2|final", "3|even")
          .edge("tbl_orders", "ORDERKEY", "tbl_line_attrs", "RCRF")
          .keyOverlap("tbl_orders", "ORDERKEY", "tbl_line_attrs", "RCRF", 0.05)
          .similar("o comment", "comment", 0.9);
      List<JoinRoute> joins = new ArrayList<>();
      TableChoice o = withJoinPath(lines, "tbl_orders", "tbl_line_attrs", "SELECT o_comment FROM orders",
          choice("orders", "tbl_orders", Map.of("o_comment", new ColumnTarget("tbl_orders", "CMNT", 0.5, "test")),
              List.of()), joins);

      assertThat(o.columns().get("o_comment").lakeColumn()).isEqualTo("CMNT");
      assertThat(joins).isEmpty();
    }
  }

  @Nested
  class CleanedNumbers {

    private Evidence.CleanedTable cleaned(String... sizes) {
      List<List<String>> rows = java.util.Arrays.stream(sizes).map(v -> List.of("name " + v, v)).toList();
      return new Evidence.CleanedTable("parts_clean", "parts", "parts_clean AS (SELECT * REPLACE (clean_text(SZ) AS SZ)"
          + " FROM parts)", Map.of("SZ", "SZ"), Map.of(), Set.of(), List.of(), dev.lakerewrite.core.ResultTable.of(
              List.of(new dev.lakerewrite.core.ResultTable.Column("NM", "VARCHAR"),
                  new dev.lakerewrite.core.ResultTable.Column("SZ", "VARCHAR")), rows, false), "noise");
    }

    @Test
    void bothRewritesReadATableJoinedForItsColumnsFromItsCleanedCte() {
      // Parts split by columns: the sizes, cleaned by BUILD_CTE, live in the part joined to the one named like parts.
      FakeLakeTools lake = new FakeLakeTools()
          .table("parts", "PRTK BIGINT, NM VARCHAR", "1|bolt", "2|nut")
          .table("parts_sizes", "PRTK_REF BIGINT, SZ VARCHAR", "1|<b>12</b>", "2|7")
          .edge("parts", "PRTK", "parts_sizes", "PRTK_REF");
      String sql = "SELECT p_name, p_size FROM part ORDER BY p_size";
      RewriteState state = lake.state(sql, lake.padWith("parts", "parts_sizes"));
      Evidence.JoinPath path = lake.findJoinPaths("parts", "parts_sizes", 1).get(0);
      Plan plan = new Plan(byAssumed(choice("part", "parts", Map.of("p_name", target("parts", "NM"),
          "p_size", target("parts_sizes", "SZ")), List.of())), Map.of(), Map.of(),
          List.of(new JoinRoute("part", "parts_sizes", path)), Map.of("parts_sizes", new Evidence.CleanedTable(
              "parts_sizes_clean", "parts_sizes", "parts_sizes_clean AS (SELECT * REPLACE (clean_text(SZ) AS SZ) FROM "
              + "parts_sizes)", Map.of("SZ", "SZ"), Map.of(), Set.of(), List.of(), null, "markup")),
          Map.of(), List.of(), 1, List.of(), Set.of());
      OfflinePlanner planner = new OfflinePlanner(state);
      dev.lakerewrite.core.sql.SqlParser parser = dev.lakerewrite.core.sql.SqlParser.standalone();

      String edited = new OfflineRewriterAgent.Rewrite(state, plan, new dev.lakerewrite.core.sql.Trees(parser), planner)
          .apply();
      String views = new ViewRewrite(state, plan, planner, new dev.lakerewrite.core.sql.Trees(parser)).apply();

      assertThat(edited).contains("LEFT JOIN parts_sizes_clean").contains("parts_sizes_clean AS (");
      assertThat(views).contains("LEFT JOIN parts_sizes_clean").contains("parts_sizes_clean AS (");
    }

    @Test
    void numbersTheRawProfileTookForTextAreReadAsNumbersOnceCleaned() {
      // Too many noisy values ('<b>12</b>') for the raw column's profile to say numbers; cleaned, they are.
      assertThat(PlanningContext.numbersLeftAsText(cleaned("12", "7", "33", "1"), "SZ", java.util.Optional.empty()))
          .isTrue();
      assertThat(PlanningContext.numbersLeftAsText(cleaned("0042", "0043", "0107"), "SZ", java.util.Optional.empty()))
          .as("identifiers with leading zeros stay text").isFalse();
      assertThat(PlanningContext.numbersLeftAsText(cleaned("12", "seven", "33"), "SZ", java.util.Optional.empty()))
          .isFalse();
    }
  }

  @Nested
  class CompoundColumns {

    // The supplier's key (sup) is joinable with the customers' nation key, and "s" abbreviates "sup" as well as
    // "supplier": read as a compound, s_phone would be "the phone of the s", a customer's phone.
    private final FakeLakeTools lake = new FakeLakeTools()
        .table("src_provider", "sup BIGINT, phone VARCHAR", "1|27-918-335-1736", "2|15-679-861-2259")
        .table("src_customer", "custkey BIGINT, nationkey BIGINT, phon VARCHAR", "7|1|25-989-741-2988",
            "8|2|14-128-190-5944")
        .edge("src_provider", "sup", "src_customer", "nationkey")
        .similar("s", "sup", 0.9)
        .similar("s", "src customer", 0.6)
        .similar("phone", "phon", 0.9);

    @Test
    void theTablesOwnColumnPrefixNamesNoOtherEntity() {
      Scratchpad pad = lake.padWith("src_provider", "src_customer");
      lake.addJoinPath(pad, "src_provider", "src_customer");
      Parts p = new Parts(lake, "SELECT s_phone FROM supplier", pad);
      List<JoinRoute> joins = new ArrayList<>();

      TableChoice t = p.missing().crossTableColumns(
          choice("supplier", "src_provider", Map.of("s_phone", target("src_provider", "phone")), List.of()), joins,
          new ArrayList<>());

      assertThat(t.columns().get("s_phone").lakeTable()).isEqualTo("src_provider");
      assertThat(t.columns().get("s_phone").lakeColumn()).isEqualTo("phone");
      assertThat(joins).isEmpty();
    }

    @Test
    void aDirectColumnNamedForTheWholeCompoundIsNotReadFromANeighbourNamedByItsPrefix() {
      // Every table of a New Zealand lake is about New Zealand; the jurisdictions' own gazetteer id is the column,
      // not the places' iNaturalist id read as "the place id of the New Zealand places".
      FakeLakeTools nz = new FakeLakeTools()
          .table("tbl_applies_to_legal_power", "LAB VARCHAR, NEW_ZEALAND_GAZE_SPOT_ID BIGINT",
              "Auckland|14964", "Otago|14966")
          .table("tbl_located_places", "LAB VARCHAR, I_NATURALIST_SPOT_ID BIGINT", "Auckland|11510", "Otago|40488")
          .edge("tbl_applies_to_legal_power", "LAB", "tbl_located_places", "LAB")
          .similar("new zealand", "tbl located places", 0.97)
          .similar("new zealand gazetteer", "tbl located places", 0.97)
          .similar("new zealand gazetteer place id", "new zealand gaze spot id", 0.95)
          .similar("gazetteer place id", "i naturalist spot id", 0.97)
          .similar("place id", "i naturalist spot id", 0.97);
      Scratchpad pad = nz.padWith("tbl_applies_to_legal_power", "tbl_located_places");
      nz.addJoinPath(pad, "tbl_applies_to_legal_power", "tbl_located_places");
      String column = "new zealand gazetteer place id";
      Parts p = new Parts(nz, "SELECT \"New Zealand Gazetteer place ID\" FROM applies_to_jurisdiction", pad);
      List<JoinRoute> joins = new ArrayList<>();

      TableChoice t = p.missing().crossTableColumns(choice("applies_to_jurisdiction", "tbl_applies_to_legal_power",
          Map.of(column, new ColumnTarget("tbl_applies_to_legal_power", "NEW_ZEALAND_GAZE_SPOT_ID", 1.0, "test")),
          List.of()), joins,
          new ArrayList<>());

      assertThat(t.columns().get(column).lakeColumn()).isEqualTo("NEW_ZEALAND_GAZE_SPOT_ID");
      assertThat(joins).isEmpty();
    }

    @Test
    void aJoinThatRepeatsEachRowBringsNoColumnOfIt() {
      // Each supplier key matches about 20 customers' nation keys: their phones are not the supplier's.
      FakeLakeTools fanning = new FakeLakeTools()
          .table("src_provider", "sup BIGINT, acc DOUBLE", "1|711.56", "2|121.65")
          .table("src_customer", "nationkey BIGINT, phon VARCHAR", "1|25-989-741-2988", "1|14-128-190-5944")
          .edge("src_provider", "sup", "src_customer", "nationkey", 20)
          .similar("phone", "phon", 0.9);
      Scratchpad pad = fanning.padWith("src_provider", "src_customer");
      fanning.addJoinPath(pad, "src_provider", "src_customer");
      Parts p = new Parts(fanning, "SELECT s_phone, s_acctbal FROM supplier", pad);
      List<JoinRoute> joins = new ArrayList<>();
      List<Action> wanted = new ArrayList<>();

      TableChoice t = p.missing().crossTableColumns(choice("supplier", "src_provider",
          Map.of("s_acctbal", target("src_provider", "acc")), List.of("s_phone")), joins, wanted);

      assertThat(joins).isEmpty();
      assertThat(t.unmapped()).containsExactly("s_phone");
      assertThat(wanted).noneMatch(a -> a instanceof Action.FindJoinPath);
    }
  }

  @Nested
  class KeyMismatch {

    private final FakeLakeTools lake = new FakeLakeTools()
        .table("movies", "title VARCHAR, origin VARCHAR", "Up|United States")
        .table("nations", "label VARCHAR, currency VARCHAR", "United States|USD")
        .edge("movies", "origin", "nations", "label");
    private final String sql =
        "SELECT f.title, c.currency FROM films f JOIN countries c ON f.country_code = c.iso_code";

    private Map<String, TableChoice> tables() {
      return byAssumed(choice("films", "movies", Map.of("title", target("movies", "title")), List.of("country_code")),
          choice("countries", "nations", Map.of("currency", target("nations", "currency")), List.of("iso_code")));
    }

    @Test
    void aJoinOnKeysTheLakeLacksUsesTheJoinPathBetweenTheLakeTables() {
      Scratchpad pad = lake.padWith("movies", "nations");
      lake.addJoinPath(pad, "movies", "nations");
      Parts p = new Parts(lake, sql, pad);

      Map<String, Evidence.JoinPath> fixes = new JoinRepairs(p.context).joinFixes(tables(), new ArrayList<>(),
          new ArrayList<>());

      assertThat(fixes).containsOnlyKeys(OfflinePlanner.joinKey("films", "countries"));
      assertThat(fixes.values().iterator().next().sqlJoin()).contains("origin").contains("label");
    }

    @Test
    void aPathThroughAnotherTableDoesNotReplaceADirectJoinWhoseKeysMap() {
      String direct = "SELECT f.title, c.currency FROM films f JOIN countries c ON f.origin = c.name";
      Scratchpad pad = lake.padWith("movies", "nations");
      pad.add(Scratchpad.Section.JOINS, "movies|nations|2", 1, "two hops", new Evidence.JoinPath("movies", "nations",
          List.of(new Evidence.JoinStep("movies", "title", "awards", "film", 0.9, 1),
              new Evidence.JoinStep("awards", "country", "nations", "label", 0.9, 1)), 0.8, 1, null));
      Parts p = new Parts(lake, direct, pad);
      Map<String, TableChoice> tables = byAssumed(
          choice("films", "movies", Map.of("title", target("movies", "title"), "origin",
              new ColumnTarget("movies", "origin", 0.55, "weak name")), List.of()),
          choice("countries", "nations", Map.of("currency", target("nations", "currency"), "name",
              new ColumnTarget("nations", "label", 0.6, "entity name")), List.of()));
      List<String> notes = new ArrayList<>();

      Map<String, Evidence.JoinPath> fixes = new JoinRepairs(p.context).joinFixes(tables, new ArrayList<>(), notes);

      assertThat(fixes).isEmpty();
      assertThat(notes).anyMatch(n -> n.contains("keeps its own keys"));
    }

    @Test
    void keysUsedOnlyInTheJoinKeepTheirJoinWhenTheLakeNamesThemAlike() {
      // TPC-H: s_nationkey = n_nationkey, the lake has Nationkey on both sides; a path through the supplier's other
      // part (its key equals nation keys by value) would join suppliers to the nation numbered like them.
      FakeLakeTools tpch = new FakeLakeTools()
          .table("raw_supplier", "Supp BIGINT, Name VARCHAR, Nationkey BIGINT", "1|Supplier#1|7")
          .table("raw_supplier_extra", "Suppkey BIGINT, Telephone VARCHAR", "1|25-989")
          .table("raw_nation", "Nationkey BIGINT, Name VARCHAR", "7|GERMANY");
      String sql = "SELECT n_name, s_name FROM supplier JOIN nation ON s_nationkey = n_nationkey";
      Scratchpad pad = tpch.padWith("raw_supplier", "raw_nation");
      pad.add(Scratchpad.Section.JOINS, "raw_supplier|raw_nation|2", 1, "two hops",
          new Evidence.JoinPath("raw_supplier", "raw_nation", List.of(
              new Evidence.JoinStep("raw_supplier", "Supp", "raw_supplier_extra", "Suppkey", 0.9, 1),
              new Evidence.JoinStep("raw_supplier_extra", "Suppkey", "raw_nation", "Nationkey", 0.9, 1)), 0.8, 1,
              null));
      Parts p = new Parts(tpch, sql, pad);
      Map<String, TableChoice> tables = byAssumed(
          choice("supplier", "raw_supplier", Map.of("s_name", target("raw_supplier", "Name")), List.of()),
          choice("nation", "raw_nation", Map.of("n_name", target("raw_nation", "Name")), List.of()));
      List<String> notes = new ArrayList<>();

      Map<String, Evidence.JoinPath> fixes = new JoinRepairs(p.context).joinFixes(tables, new ArrayList<>(), notes);

      assertThat(fixes).isEmpty();
      assertThat(notes).anyMatch(n -> n.contains("keeps its own keys"));
    }

    @Test
    void keysUsedOnlyInTheJoinAndNamedInTheLakeJoinOnThoseColumnsWhereTheGraphPairsThemToo() {
      // TPC-DS: a sale's sold date and ship date are both keys of the dates; the graph's best pair for the two
      // tables is the ship date, the query names the sold date.
      FakeLakeTools ds = new FakeLakeTools()
          .table("tbl_sales", "SHIP_DATE_SK BIGINT, SOLD_DATE_SK BIGINT, QTY BIGINT", "2|1|5")
          .table("tbl_dates", "DATE_SK BIGINT, YEAR BIGINT", "1|2000", "2|2000")
          .edge("tbl_sales", "SHIP_DATE_SK", "tbl_dates", "DATE_SK")
          .keyOverlap("tbl_sales", "SOLD_DATE_SK", "tbl_dates", "DATE_SK", 0.02);
      String sql = "SELECT d_year, sum(cs_quantity) FROM catalog_sales JOIN date_dim ON cs_sold_date_sk = d_date_sk "
          + "GROUP BY d_year";
      Scratchpad pad = ds.padWith("tbl_sales", "tbl_dates");
      ds.addJoinPath(pad, "tbl_sales", "tbl_dates");
      Map<String, TableChoice> tables = byAssumed(
          choice("catalog_sales", "tbl_sales", Map.of("cs_quantity", target("tbl_sales", "QTY")), List.of()),
          choice("date_dim", "tbl_dates", Map.of("d_year", target("tbl_dates", "YEAR")), List.of()));

      Map<String, Evidence.JoinPath> fixes = new JoinRepairs(new Parts(ds, sql, pad).context)
          .joinFixes(tables, new ArrayList<>(), new ArrayList<>());
      assertThat(fixes.values()).singleElement().extracting(Evidence.JoinPath::sqlJoin).asString()
          .contains("\"SOLD_DATE_SK\"").doesNotContain("SHIP_DATE_SK");

      // Where the graph holds no such pair (the values do not join), the graph's pair stays.
      FakeLakeTools unpaired = ds.keyOverlap("tbl_sales", "SOLD_DATE_SK", "tbl_dates", "DATE_SK", 0);
      Map<String, Evidence.JoinPath> kept = new JoinRepairs(new Parts(unpaired, sql, pad).context)
          .joinFixes(tables, new ArrayList<>(), new ArrayList<>());
      assertThat(kept.values()).singleElement().extracting(Evidence.JoinPath::sqlJoin).asString()
          .contains("SHIP_DATE_SK");
    }

    @Test
    void routesJoinAfterTheRouteThatBringsTheirFirstTable() {
      // The label of a category code held by the items' details part: the lookup joins off the part.
      Evidence.JoinPath toPart = new Evidence.JoinPath("zo_itms", "zo_itms_dtls",
          List.of(new Evidence.JoinStep("zo_itms", "ITM_SK", "zo_itms_dtls", "ITM_SK_REF", 1, 1)), 1, 1, null);
      Evidence.JoinPath toLabel = new Evidence.JoinPath("zo_itms_dtls", "zo_ctgrs",
          List.of(new Evidence.JoinStep("zo_itms_dtls", "CTGR_ID", "zo_ctgrs", "CD", 1, 1)), 1, 1, null);
      OfflinePlanner.JoinRoute label = new OfflinePlanner.JoinRoute("item", "zo_ctgrs", toLabel);
      OfflinePlanner.JoinRoute part = new OfflinePlanner.JoinRoute("item", "zo_itms_dtls", toPart);
      OfflinePlanner.JoinRoute other = new OfflinePlanner.JoinRoute("store", "zo_itms_dtls", toPart);

      assertThat(OfflinePlanner.JoinRoute.inJoinOrder(List.of(label, other, part))).containsExactly(other, part, label);
      assertThat(OfflinePlanner.JoinRoute.inJoinOrder(List.of(part, label))).containsExactly(part, label);
    }

    @Test
    void withoutAPathItAsksForOne() {
      Parts p = new Parts(lake, sql, lake.padWith("movies", "nations"));
      List<Action> wanted = new ArrayList<>();

      Map<String, Evidence.JoinPath> fixes = new JoinRepairs(p.context).joinFixes(tables(), wanted, new ArrayList<>());

      assertThat(fixes).isEmpty();
      assertThat(wanted).containsExactly(new Action.FindJoinPath("movies", "nations"));
    }

    @Test
    void aJoinPathAskedForOneWayIsNotAskedForTheOtherWay() {
      Scratchpad pad = lake.padWith("movies", "nations");
      List<Action> asked = new OfflineCheckerAgent().decide(lake.state(sql, pad)).actions();
      assertThat(asked).contains(new Action.FindJoinPath("movies", "nations"));

      // The path was searched from the other end (by the LLM checker, say) and found nothing new.
      List<Action> again = new OfflineCheckerAgent()
          .decide(lake.state(sql, pad, new Action.FindJoinPath("nations", "movies"))).actions();

      assertThat(again).noneMatch(a -> a instanceof Action.FindJoinPath);
    }
  }

  @Nested
  class FilterMismatch {

    private final FakeLakeTools lake = new FakeLakeTools()
        .table("places", "label VARCHAR, country VARCHAR", "Whangārei|United States of America",
            "Auckland|New Zealand", "auckland |New Zealand");

    private Map<String, TableChoice> towns(String column) {
      return byAssumed(choice("towns", "places", Map.of(column, target("places", "label")), List.of()));
    }

    @Test
    void aLiteralWithoutValueEvidenceAsksForAValueSearch() {
      Parts p = new Parts(lake, "SELECT name FROM towns WHERE name = 'Whangarei'", lake.padWith("places"));
      List<Action> wanted = new ArrayList<>();

      Map<String, LiteralFix> fixes = p.literals.literalFixes(towns("name"), wanted, new ArrayList<>(),
          new LinkedHashSet<>());

      assertThat(fixes).isEmpty();
      assertThat(wanted).containsExactly(new Action.SearchValue("places", "Whangarei"));
    }

    @Test
    void aRespellingIsWrittenNearlyAlikeNotOnlyCloseInMeaning() {
      for (String[] same : new String[][] {{"Whangarei", "Whangārei"}, {"AIR REG", "REG AIR"},
          {"Northland", "Northland Region"}, {"US", "United States of America"}, {"Brasil", "Brazil"},
          {" java", "JAVA"}}) {
        assertThat(FilterLiterals.plausibleRespelling(same[0], same[1])).as(same[0] + " ~ " + same[1]).isTrue();
      }
      for (String[] other : new String[][] {{"s. ironic, unusual asymptotes wake blithely r",
          "unts. unusual, final asymptotes "}, {"Auckland", "Wellington"}, {"Customer#000000042", "Customer#000000917"}}) {
        assertThat(FilterLiterals.plausibleRespelling(other[0], other[1])).as(other[0] + " ~ " + other[1]).isFalse();
      }
    }

    @Test
    void aLiteralBesideOthersTheColumnHoldsAsWrittenIsAValueTheDataLacks() {
      // TPC-H q19 asks for ('AIR', 'AIR REG'); the data holds 'AIR' and 'REG AIR'. The column spells the query's
      // values as the query does, so 'AIR REG' matches nothing, as on the clean data; alone it is a respelling.
      FakeLakeTools modes = new FakeLakeTools()
          .table("ship_modes", "label VARCHAR", "AIR", "REG AIR", "MAIL", "air ");
      Scratchpad pad = modes.padWith("ship_modes");
      modes.addValueSearch(pad, "ship_modes", "AIR REG");
      Map<String, TableChoice> tables = byAssumed(choice("lineitem", "ship_modes",
          Map.of("l_shipmode", target("ship_modes", "label")), List.of()));

      Parts both = new Parts(modes, "SELECT l_shipmode FROM lineitem WHERE l_shipmode IN ('AIR', 'AIR REG')", pad);
      List<String> notes = new ArrayList<>();
      Map<String, LiteralFix> fixes = both.literals.literalFixes(tables, new ArrayList<>(), notes,
          new LinkedHashSet<>());
      assertThat(fixes).doesNotContainKey(literalKey("lineitem", "l_shipmode", "AIR REG"));
      assertThat(notes).anyMatch(n -> n.startsWith("'AIR REG' kept as written"));

      Parts alone = new Parts(modes, "SELECT l_shipmode FROM lineitem WHERE l_shipmode = 'AIR REG'", pad);
      assertThat(alone.literals.literalFixes(tables, new ArrayList<>(), new ArrayList<>(), new LinkedHashSet<>())
          .get(literalKey("lineitem", "l_shipmode", "AIR REG")).lakeValue()).isEqualTo("REG AIR");
    }

    @Test
    void aLiteralIsRespelledAsTheLakeSpellsIt() {
      Scratchpad pad = lake.padWith("places");
      lake.addValueSearch(pad, "places", "Whangarei");
      Parts p = new Parts(lake, "SELECT name FROM towns WHERE name = 'Whangarei'", pad);

      Map<String, LiteralFix> fixes = p.literals.literalFixes(towns("name"), new ArrayList<>(), new ArrayList<>(),
          new LinkedHashSet<>());

      assertThat(fixes.get(literalKey("towns", "name", "Whangarei")))
          .isEqualTo(new LiteralFix("places", "label", "Whangārei", 1.0));
    }

    @Test
    void anAcronymIsSpelledOutWhereOneValueHasThoseInitials() {
      Parts p = new Parts(lake, "SELECT name FROM towns WHERE country = 'USA'", lake.padWith("places"));

      assertThat(p.literals.spelling("places", "country", "USA")).contains("United States of America");
      assertThat(p.literals.spelling("places", "country", "NZ")).contains("New Zealand");
      assertThat(p.literals.spelling("places", "country", "UK")).isEmpty();
    }

    @Test
    void aCodeSpellsTheStartsOfTheValuesWords() {
      assertThat(FilterLiterals.spellsWordStarts("USD", "US Dollar")).isTrue();
      assertThat(FilterLiterals.spellsWordStarts("NZD", "New Zealand dollar")).isTrue();
      assertThat(FilterLiterals.spellsWordStarts("EUR", "Euro")).isTrue();
      assertThat(FilterLiterals.spellsWordStarts("USD", "United States")).isFalse();
      assertThat(FilterLiterals.spellsWordStarts("JPY", "Japanese yen")).isFalse();
      assertThat(FilterLiterals.spellsWordStarts("EU", "Euro zone member")).isFalse();
    }

    @Test
    void aValueWithNoisySpellingsIsComparedByTheCleanedKey() {
      Parts p = new Parts(lake, "SELECT name FROM towns WHERE name = 'Auckland'", lake.padWith("places"));
      Set<String> keyed = new LinkedHashSet<>();
      List<Action> wanted = new ArrayList<>();

      Map<String, LiteralFix> fixes = p.literals.literalFixes(towns("name"), wanted, new ArrayList<>(), keyed);

      assertThat(fixes).isEmpty();
      assertThat(wanted).isEmpty();
      assertThat(keyed).containsExactly(literalKey("towns", "name", "Auckland"));
    }

    @Test
    void aLiteralTheOtherPartOfTheUnionHoldsIsKeptAsWritten() {
      // The towns are split by rows: Hamilton is in the archived part, which the query reads through a union.
      FakeLakeTools split = new FakeLakeTools()
          .table("places", "label VARCHAR", "Auckland", "Hamilton East")
          .table("places_archive", "label VARCHAR", "Hamilton", "Tauranga");
      Scratchpad pad = split.padWith("places");
      split.addValueSearch(pad, "places", "Hamilton");
      Parts p = new Parts(split, "SELECT name FROM towns WHERE name = 'Hamilton'", pad);
      Map<String, List<Evidence.UnionPartner>> unions = Map.of("places",
          List.of(new Evidence.UnionPartner("places", "places_archive", Map.of("label", "label"), 0.9)));

      assertThat(p.literals.literalFixes(towns("name"), new ArrayList<>(), new ArrayList<>(), new LinkedHashSet<>()))
          .as("without the union, the nearest value of the first part").isNotEmpty();
      assertThat(p.literals.literalFixes(towns("name"), unions, new ArrayList<>(), new ArrayList<>(),
          new LinkedHashSet<>())).isEmpty();
    }
  }

  @Nested
  class CodeLabels {

    // Licences name their approver by a code; a lookup table named after the code column decodes it. A second
    // lookup holds the same codes but is named after something else; the ratings column holds small numbers too.
    private final FakeLakeTools lake = new FakeLakeTools()
        .table("zo_licences", "LBL VARCHAR, SNCT_BY BIGINT, RTNG BIGINT", "GPL|2|5", "MIT|3|4", "BSD|3|4")
        .table("zo_snct_by_typs", "CD BIGINT, NM VARCHAR", "1|Debian", "2|Free Software Foundation",
            "3|Open Source Initiative")
        .table("zo_clr_typs", "CD BIGINT, NM VARCHAR", "1|red", "2|green", "3|blue", "4|black", "5|white");

    private Map<String, TableChoice> licences(String column, String lakeColumn) {
      return byAssumed(choice("licences", "zo_licences", Map.of("label", target("zo_licences", "LBL"),
          column, target("zo_licences", lakeColumn)), List.of()));
    }

    @Test
    void aCodeColumnTheQueryOnlyReadsIsReadAsTheLabelOfItsNamedLookupTable() {
      Parts p = new Parts(lake, "SELECT label, approved_by FROM licences", lake.padWith("zo_licences"));
      List<JoinRoute> joins = new ArrayList<>();

      TableChoice t = p.missing()
          .codeLabels(licences("approved_by", "SNCT_BY").get("licences"), joins);

      assertThat(t.columns().get("approved_by").lakeTable()).isEqualTo("zo_snct_by_typs");
      assertThat(t.columns().get("approved_by").lakeColumn()).isEqualTo("NM");
      assertThat(joins).singleElement().satisfies(j -> {
        assertThat(j.toLake()).isEqualTo("zo_snct_by_typs");
        assertThat(j.path().steps().get(0).leftColumn()).isEqualTo("SNCT_BY");
        assertThat(j.path().steps().get(0).rightColumn()).isEqualTo("CD");
      });
    }

    @Test
    void aColumnWhoseNameOrUsePromisesANumberKeepsItsValues() {
      Parts rated = new Parts(lake, "SELECT label, rating_score FROM licences", lake.padWith("zo_licences"));
      MissingTableColumns missing = rated.missing();
      List<JoinRoute> joins = new ArrayList<>();
      assertThat(missing.codeLabels(licences("rating_score", "RTNG").get("licences"), joins).columns()
          .get("rating_score").lakeColumn()).isEqualTo("RTNG");

      Parts summed = new Parts(lake, "SELECT SUM(approved_by) FROM licences", lake.padWith("zo_licences"));
      assertThat(summed.missing()
          .codeLabels(licences("approved_by", "SNCT_BY").get("licences"), joins).columns()
          .get("approved_by").lakeColumn()).isEqualTo("SNCT_BY");
      assertThat(joins).isEmpty();
    }

    @Test
    void aColumnNamedLikeTheLookupsKeyKeepsTheCode() {
      FakeLakeTools keyed = new FakeLakeTools()
          .table("tbl_ntn", "NAME VARCHAR, REGIONKEY BIGINT", "FRANCE|3", "JAPAN|2", "KENYA|0")
          .table("tbl_regionkey_dim", "REGIONKEY BIGINT, NAME VARCHAR", "0|AFRICA", "2|ASIA", "3|EUROPE");
      Parts p = new Parts(keyed, "SELECT n_name, n_regionkey FROM nation", keyed.padWith("tbl_ntn"));
      List<JoinRoute> joins = new ArrayList<>();

      TableChoice t = p.missing().codeLabels(choice("nation", "tbl_ntn",
          Map.of("n_name", target("tbl_ntn", "NAME"), "n_regionkey", target("tbl_ntn", "REGIONKEY")), List.of()),
          joins);

      assertThat(t.columns().get("n_regionkey").lakeColumn()).isEqualTo("REGIONKEY");
      assertThat(joins).isEmpty();
    }

    @Test
    void codesAreReadThroughTheirNoiseAndAColumnOfOneCodeIsNoCodeColumn() {
      // A noisy copy of the lake writes some codes with markup and spaces; the profile still reads numbers.
      FakeLakeTools noisy = new FakeLakeTools()
          .table("zo_licences", "LBL VARCHAR, SNCT_BY VARCHAR, PRRT VARCHAR",
              "GPL|2|0", "MIT|<b>3</b>|0", "BSD| 3|<b>0</b>")
          .profiledAs("zo_licences", "SNCT_BY", TypeFamily.NUMERIC)
          .profiledAs("zo_licences", "PRRT", TypeFamily.NUMERIC)
          .table("zo_snct_by_typs", "CD BIGINT, NM VARCHAR", "0|none", "2|Free Software Foundation",
              "3|Open Source Initiative");
      Parts p = new Parts(noisy, "SELECT label, approved_by FROM licences", noisy.padWith("zo_licences"));

      assertThat(p.lookups.codes(target("zo_licences", "SNCT_BY"))).containsExactlyInAnyOrder("2", "3");
      assertThat(p.lookups.named(target("zo_licences", "SNCT_BY"))).isPresent();
      // Every licence has priority 0, which the lookup's keys hold too: one value says nothing about codes.
      assertThat(p.lookups.named(target("zo_licences", "PRRT"))).isEmpty();
    }

    @Test
    void aColumnOfManyIntegersIsAKeyNotACodeThoughAnotherTablesKeyHoldsThemAll() {
      String[] suppliers = new String[60];
      String[] customers = new String[100];
      for (int i = 0; i < customers.length; i++) {
        customers[i] = (i + 1) + "|Customer#" + (i + 1);
        if (i < suppliers.length) {
          suppliers[i] = "Supplier#" + (i + 1) + "|" + (i + 1);
        }
      }
      FakeLakeTools keys = new FakeLakeTools()
          .table("t_supplier", "name VARCHAR, suppkey BIGINT", suppliers)
          .table("t_cstmr_info", "custkey BIGINT, name VARCHAR", customers)
          .edge("t_supplier", "suppkey", "t_cstmr_info", "custkey");
      Parts p = new Parts(keys, "SELECT s_name, s_suppkey FROM supplier", keys.padWith("t_supplier"));

      assertThat(p.lookups.named(target("t_supplier", "suppkey"))).isEmpty();
    }

    @Test
    void aCodeComparedWithALabelJoinsItsLookupOnTheCodeNotOnAnotherColumnTheLookupsKeysFallIn() {
      // The customers' keys 1..8 hold the lookup's codes 1..3 too: the join graph has that edge as well.
      FakeLakeTools codes = new FakeLakeTools()
          .table("t_customers", "cstCust BIGINT, cstMkts BIGINT, cstName VARCHAR", "1|2|Customer#1", "2|1|Customer#2",
              "3|3|Customer#3", "4|2|Customer#4", "5|1|Customer#5", "6|2|Customer#6", "7|3|Customer#7", "8|1|Customer#8")
          .table("t_cstmkts_ref", "crCode BIGINT, crLabel VARCHAR", "1|AUTOMOBILE", "2|BUILDING", "3|MACHINERY")
          .edge("t_customers", "cstCust", "t_cstmkts_ref", "crCode")
          .edge("t_customers", "cstMkts", "t_cstmkts_ref", "crCode");
      String sql = "SELECT c_name FROM customer WHERE c_mktsegment = 'BUILDING'";
      Plan plan = new OfflinePlanner(codes.state(sql, codes.padWith("t_customers"))).plan();

      assertThat(plan.table("customer").orElseThrow().columns().get("c_mktsegment").lakeColumn()).isEqualTo("crLabel");
      assertThat(plan.extraJoins()).singleElement().satisfies(j -> {
        assertThat(j.path().steps().get(0).leftColumn()).isEqualTo("cstMkts");
        assertThat(j.path().steps().get(0).rightColumn()).isEqualTo("crCode");
      });
    }

    @Test
    void withoutALookupTableNamedAfterTheColumnTheCodesStay() {
      Parts p = new Parts(lake, "SELECT label, colour FROM licences", lake.padWith("zo_licences"));
      List<JoinRoute> joins = new ArrayList<>();

      // RTNG's codes are all in zo_clr_typs, but nothing in the names ties "RTNG" to colours.
      TableChoice t = p.missing()
          .codeLabels(licences("colour", "RTNG").get("licences"), joins);

      assertThat(t.columns().get("colour").lakeColumn()).isEqualTo("RTNG");
      assertThat(joins).isEmpty();
    }
  }

  @Nested
  class UnionsAndCleaning {

    private final FakeLakeTools lake = new FakeLakeTools()
        .table("winter_sports_east", "name VARCHAR, kind VARCHAR", "luge|sled", "curling|stone")
        .table("winter_sports_west", "name VARCHAR, kind VARCHAR", "biathlon|ski", "skeleton|sled")
        .table("winter_games", "name VARCHAR, kind VARCHAR", "1992|olympics")
        .noisy("winter_sports_east", "name", "trailing spaces");

    private Map<String, TableChoice> sports() {
      return byAssumed(choice("sports", "winter_sports_east", Map.of("name", target("winter_sports_east", "name")),
          List.of()));
    }

    @Test
    void partsNamedWithOneWordInCommonAreUnionPartnersWhereNoOtherTableHasTheirColumns() {
      FakeLakeTools countries = new FakeLakeTools()
          .table("country_current", "NATI BIGINT, NAME VARCHAR", "1|FRANCE", "2|JAPAN")
          .table("country_archive", "NAME VARCHAR, NATI BIGINT", "KENYA|3", "PERU|4")
          .table("country_codes", "CODE BIGINT, LABEL VARCHAR", "1|a", "2|b")
          .table("ship_lookup", "CODE BIGINT, LABEL VARCHAR", "1|AIR", "2|RAIL");
      Parts p = new Parts(countries, "SELECT n_name FROM nation", countries.padWith("country_current"));

      Map<String, List<Evidence.UnionPartner>> unions = new UnionsAndNoise(p.context, p.chooser).unions(
          byAssumed(choice("nation", "country_current", Map.of("n_name", target("country_current", "NAME")),
              List.of())), new ArrayList<>());

      assertThat(unions.get("country_current")).extracting(Evidence.UnionPartner::table)
          .containsExactly("country_archive");
      // Two lookups with the same columns share no word: no stem, no union.
      assertThat(p.context.partitionStem("ship_lookup")).isEmpty();
    }

    @Test
    void theHorizontalPartsOfALakeTableAreItsUnionPartners() {
      Parts p = new Parts(lake, "SELECT name FROM sports", lake.padWith("winter_sports_east"));

      Map<String, List<Evidence.UnionPartner>> unions = new UnionsAndNoise(p.context, p.chooser).unions(sports(),
          new ArrayList<>());

      // Same columns and the same name stem; winter_games has the columns but is another thing.
      assertThat(unions.get("winter_sports_east")).extracting(Evidence.UnionPartner::table)
          .containsExactly("winter_sports_west");
    }

    @Test
    void aUnionPartnerAddsRowsOnlyWhenTheColumnThatSaysWhatTheBasesRowsAreSaysTheSameOfThem() {
      FakeLakeTools geo = new FakeLakeTools()
          .table("nz_regions", "label VARCHAR, instance_of VARCHAR",
              "Northland|region", "Otago|region", "Southland|region", "Waikato|region")
          .table("world_states", "label VARCHAR, instance_of VARCHAR, continent VARCHAR",
              "France|sovereign state|Europe", "Spain|sovereign state|Europe", "Italy|sovereign state|Europe",
              "Malta|sovereign state|Europe", "Iceland|sovereign state|Europe")
          .table("nz_districts", "label VARCHAR, instance_of VARCHAR",
              "Taupo|region", "Kaikoura|region", "Otago|region", "Westland|region")
          .similar("regions", "region", 0.6).similar("regions", "sovereign state", 0.3)
          .similar("regions", "Europe", 0.58).similar("regions", "nz regions", 0.7)
          .similar("regions", "world states", 0.6).similar("regions", "nz districts", 0.6);
      Scratchpad pad = geo.padWith("nz_regions");
      for (String partner : List.of("world_states", "nz_districts")) {
        pad.add(Scratchpad.Section.UNIONS, "nz_regions|" + partner, 1, partner, new Evidence.UnionPartner("nz_regions",
            partner, Map.of("label", "label", "instance_of", "instance_of"), 1.0));
      }
      Parts p = new Parts(geo, "SELECT name FROM regions", pad, new Action.UnionSearch("nz_regions"));
      Map<String, TableChoice> regions = byAssumed(choice("regions", "nz_regions",
          Map.of("name", target("nz_regions", "label")), List.of()));

      Map<String, List<Evidence.UnionPartner>> unions = new UnionsAndNoise(p.context, p.chooser).unions(regions,
          new ArrayList<>());

      // world_states' continent ('Europe') fits "regions" best of its columns, but it says where a state is: read
      // where the base says what its rows are (instance_of), its rows are sovereign states, not regions.
      assertThat(unions.get("nz_regions")).extracting(Evidence.UnionPartner::table).containsExactly("nz_districts");
    }

    @Test
    void aCleanedTableWithUnionPartnersCleansEveryPartNotOnlyTheBase() throws java.sql.SQLException {
      Scratchpad pad = lake.padWith("winter_sports_east");
      pad.add(Scratchpad.Section.CTES, "winter_sports_east_clean", 1, "cleaned", new Evidence.CleanedTable(
          "winter_sports_east_clean", "winter_sports_east",
          "winter_sports_east_clean AS (SELECT * REPLACE (upper(trim(name)) AS name) FROM winter_sports_east)",
          Map.of("name", "name"), Map.of(), Set.of(), List.of(), null, "trailing spaces"));

      String sql = new OfflineRewriterAgent(dev.lakerewrite.core.sql.SqlParser.standalone())
          .propose(lake.state("SELECT name FROM sports ORDER BY name", pad)).sql();

      try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
          java.sql.Statement st = c.createStatement()) {
        st.execute("CREATE TABLE winter_sports_east AS SELECT * FROM (VALUES ('luge ', 'sled'), (' curling', 'stone'))"
            + " t(name, kind)");
        st.execute("CREATE TABLE winter_sports_west AS SELECT * FROM (VALUES ('biathlon  ', 'ski')) t(name, kind)");
        List<String> names = new ArrayList<>();
        try (java.sql.ResultSet rs = st.executeQuery(sql)) {
          while (rs.next()) {
            names.add(rs.getString(1));
          }
        }
        // The west part is cleaned like the east part it was split from.
        assertThat(names).as(sql).containsExactly("BIATHLON", "CURLING", "LUGE");
      }
    }

    @Test
    void partsOfATableSplitByRowsUnionWhereOneHoldsTheOthersDatesAsText() {
      FakeLakeTools parts = new FakeLakeTools()
          .table("tbl_lin_since_1995", "QTY DOUBLE, SHPD VARCHAR", "28.0|21.04.1996", "32.0|30.01.1996")
          .table("tbl_lin_before_1995", "QTY DOUBLE, SHPD DATE", "45.0|1994-02-02", "49.0|1993-11-09")
          .profiledAs("tbl_lin_since_1995", "SHPD", dev.lakerewrite.retrieval.TypeFamily.DATETIME);
      Parts p = new Parts(parts, "SELECT sum(l_quantity) FROM lineitem WHERE l_shipdate < DATE '1995-01-01'",
          parts.padWith("tbl_lin_since_1995"));
      Map<String, TableChoice> lineitem = byAssumed(choice("lineitem", "tbl_lin_since_1995", Map.of(
          "l_quantity", target("tbl_lin_since_1995", "QTY"), "l_shipdate", target("tbl_lin_since_1995", "SHPD")),
          List.of()));

      Map<String, List<Evidence.UnionPartner>> unions = new UnionsAndNoise(p.context, p.chooser).unions(lineitem,
          new ArrayList<>());

      assertThat(unions.get("tbl_lin_since_1995")).extracting(Evidence.UnionPartner::table)
          .containsExactly("tbl_lin_before_1995");
      // Each branch reads the column as the base declares it: text beside text, dates read from text beside dates.
      assertThat(UnionsAndNoise.unionItem(parts, "tbl_lin_since_1995", "SHPD", "tbl_lin_before_1995", "SHPD"))
          .isEqualTo("CAST(\"SHPD\" AS VARCHAR) AS \"SHPD\"");
      assertThat(UnionsAndNoise.unionItem(parts, "tbl_lin_before_1995", "SHPD", "tbl_lin_since_1995", "SHPD"))
          .isEqualTo("clean_date(\"SHPD\") AS \"SHPD\"");
      assertThat(UnionsAndNoise.unionItem(parts, "tbl_lin_before_1995", "QTY", "tbl_lin_since_1995", "QTY"))
          .isEqualTo("\"QTY\" AS \"QTY\"");
    }

    @Test
    void aTextDateComparedWithADatePlusAnIntervalIsReadAsADateNotANumber() {
      FakeLakeTools items = new FakeLakeTools()
          .table("line_items", "quantity DOUBLE, ship_day VARCHAR", "28.0|21.04.1994", "32.0|30.01.1996")
          .profiledAs("line_items", "ship_day", dev.lakerewrite.retrieval.TypeFamily.DATETIME)
          .similar("lineitem", "line items", 0.9).similar("shipdate", "ship day", 0.8)
          .similar("quantity", "quantity", 1.0);

      String sql = new OfflineRewriterAgent(dev.lakerewrite.core.sql.SqlParser.standalone())
          .propose(items.state("SELECT sum(quantity) FROM lineitem WHERE shipdate >= DATE '1994-01-01' "
              + "AND shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR", items.padWith("line_items"))).sql();

      // clean_number(ship_day) < DATE ... does not bind: the sum of a date and an interval is a date.
      assertThat(sql).contains("clean_date(lineitem.ship_day) <").doesNotContain("clean_number(lineitem.ship_day)");
    }

    @Test
    void theYearOfADateWrittenAsTextIsReadAsADate() {
      FakeLakeTools films = new FakeLakeTools()
          .table("computer_animated_film", "label VARCHAR, publication_date VARCHAR",
              "Soul|2020-12-25", "Onward|2020-03-06", "Coco|2017-11-22")
          .similar("films", "computer animated film", 0.8).similar("release date", "publication date", 0.7)
          .similar("name", "label", 0.7);

      String sql = new OfflineRewriterAgent(dev.lakerewrite.core.sql.SqlParser.standalone())
          .propose(films.state("SELECT name FROM films WHERE YEAR(release_date) = 2020",
              films.padWith("computer_animated_film"))).sql();

      // year(clean_number(...)) does not bind: DuckDB has no year(DOUBLE). (The fake lake types columns by their
      // declared type only, so it cannot show the clean_date a real lake's profile asks for.)
      assertThat(sql).contains("publication_date").doesNotContain("clean_number(");
    }

    @Test
    void aNoisyColumnThePlanReadsAsksForACleanedTable() {
      Parts p = new Parts(lake, "SELECT name FROM sports", lake.padWith("winter_sports_east"));
      List<Action> wanted = new ArrayList<>();

      new UnionsAndNoise(p.context, p.chooser).noise(sports(), new ArrayList<>(), new LinkedHashMap<>(), wanted);

      assertThat(wanted).singleElement().isInstanceOfSatisfying(Action.BuildCte.class, a -> {
        assertThat(a.table()).isEqualTo("winter_sports_east");
        assertThat(a.columns()).containsExactly("name");
        assertThat(a.goal()).contains("trailing spaces");
      });
    }
  }

  @Test
  void thePlanAssemblesThePartsAColumnFromANeighbourAndARespelledLiteral() {
    FakeLakeTools lake = new FakeLakeTools()
        .table("country_profiles", "country_name VARCHAR, currency VARCHAR",
            "Chile|Chilean peso", "United States|US Dollar")
        .table("economy", "country VARCHAR, gini_coef DOUBLE", "Chile|44.9", "United States|41.5")
        .edge("country_profiles", "country_name", "economy", "country")
        .similar("countries", "country profiles", 0.8).similar("gini index", "gini coef", 0.8)
        .similar("name", "country name", 0.7);
    Scratchpad pad = lake.padWith("country_profiles", "economy");
    lake.addJoinPath(pad, "country_profiles", "economy");
    lake.addValueSearch(pad, "country_profiles", "us dollar");

    Plan plan = new OfflinePlanner(lake.state(
        "SELECT name, gini_index FROM countries WHERE currency = 'us dollar'", pad)).plan();

    TableChoice countries = plan.table("countries").orElseThrow();
    assertThat(countries.lake()).isEqualTo("country_profiles");
    assertThat(countries.columns().get("gini_index").lakeColumn()).isEqualTo("gini_coef");
    assertThat(plan.extraJoins()).extracting(JoinRoute::toLake).containsExactly("economy");
    assertThat(plan.literalFixes().get(literalKey("countries", "currency", "us dollar")).lakeValue()).isEqualTo("US Dollar");
  }
}
