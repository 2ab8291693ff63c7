package dev.lakerewrite.core.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.rewrite.OfflinePlanner.Plan;
import org.junit.jupiter.api.Test;

/** Keys the query only joins on, read by name and by shared values ({@link JoinKeys}). */
class JoinKeysTest {

  /**
   * Customers and their purchases: the purchase's buyer references the client's id; the purchase's own counter and
   * its quantity also hold small integers found among the clients' ids.
   */
  private FakeLakeTools shop() {
    return new FakeLakeTools()
        .table("clients", "id INTEGER, name VARCHAR", "1|Ann", "2|Bob", "3|Cy", "4|Di")
        .table("purchases", "pid INTEGER, buyer INTEGER, qty INTEGER, total DOUBLE",
            "1|2|1|10.0", "2|2|3|20.0", "3|4|2|30.0")
        .similar("customer", "clients", 0.8).similar("orders", "purchases", 0.8)
        .similar("c name", "name", 0.9).similar("o totalprice", "total", 0.9)
        .similar("c custkey", "id", 0.5).similar("o custkey", "buyer", 0.6).similar("o custkey", "pid", 0.45)
        .similar("o custkey", "qty", 0.3)
        .edge("clients", "id", "purchases", "pid")
        .containment("clients", "id", "purchases", "pid", 1.0).keyOverlap("clients", "id", "purchases", "pid", 0.75)
        .containment("clients", "id", "purchases", "buyer", 1.0).keyOverlap("clients", "id", "purchases", "buyer", 0.5)
        .containment("clients", "id", "purchases", "qty", 1.0).keyOverlap("clients", "id", "purchases", "qty", 0.75);
  }

  private static final String SQL = "SELECT c_name, sum(o_totalprice) FROM customer, orders "
      + "WHERE c_custkey = o_custkey GROUP BY c_name";

  @Test
  void aJoinReadsTheColumnsThatAnswerItsKeysByNameAndShareTheirValues() {
    FakeLakeTools lake = shop();
    Scratchpad pad = lake.padWith("clients", "purchases");
    lake.addJoinPath(pad, "clients", "purchases");

    Plan plan = new OfflinePlanner(lake.state(SQL, pad)).plan();

    assertThat(plan.tables().get("orders").columns().get("o_custkey").lakeColumn()).isEqualTo("buyer");
    assertThat(plan.tables().get("customer").columns().get("c_custkey").lakeColumn()).isEqualTo("id");
    assertThat(plan.joinFixes()).isEmpty();
  }

  @Test
  void aKeyHeldByAPartOfTheTableSplitOffByColumnsIsReadThroughThePartJoinedToTheTable() {
    FakeLakeTools lake = new FakeLakeTools()
        .table("clients", "id INTEGER, name VARCHAR", "1|Ann", "2|Bob", "3|Cy", "4|Di")
        .table("purchases", "pid INTEGER, total DOUBLE", "1|10.0", "2|20.0", "3|30.0")
        .table("purchases_parties", "pid INTEGER, buyer INTEGER", "1|2", "2|2", "3|4")
        .similar("customer", "clients", 0.8).similar("orders", "purchases", 0.8)
        .similar("c name", "name", 0.9).similar("o totalprice", "total", 0.9)
        .similar("c custkey", "id", 0.5).similar("o custkey", "buyer", 0.6).similar("o custkey", "pid", 0.45)
        .edge("clients", "id", "purchases", "pid")
        .edge("purchases", "pid", "purchases_parties", "pid")
        .keyOverlap("purchases", "pid", "purchases_parties", "pid", 1.0)
        .containment("clients", "id", "purchases", "pid", 1.0).keyOverlap("clients", "id", "purchases", "pid", 0.75)
        .containment("clients", "id", "purchases_parties", "buyer", 1.0)
        .keyOverlap("clients", "id", "purchases_parties", "buyer", 0.5);
    Scratchpad pad = lake.padWith("clients", "purchases", "purchases_parties");
    lake.addJoinPath(pad, "clients", "purchases");
    lake.addJoinPath(pad, "purchases", "purchases_parties");

    Plan plan = new OfflinePlanner(lake.state(SQL, pad)).plan();

    assertThat(plan.tables().get("orders").columns().get("o_custkey").lakeTable()).isEqualTo("purchases_parties");
    assertThat(plan.tables().get("orders").columns().get("o_custkey").lakeColumn()).isEqualTo("buyer");
    assertThat(plan.extraJoins()).anyMatch(j -> j.fromAssumed().equals("orders")
        && j.toLake().equals("purchases_parties"));
    assertThat(plan.joinFixes()).isEmpty();
  }

  @Test
  void aSmallCodeContainedInALongCounterLosesToTheKeyThatCoversIt() {
    // Sales name their shop a little more like the item key than their item reference; the two shops' codes 1 and 2
    // are contained in the item keys as fully as the items sold, but cover almost none of them (the overlaps are
    // declared as the join graph would measure them over a catalogue of 40 items; three rows stand in for it).
    FakeLakeTools lake = new FakeLakeTools()
        .table("goods", "id INTEGER, title VARCHAR", "1|Pen", "2|Ink", "3|Pad")
        .table("sales", "shop INTEGER, item_ref INTEGER, amount DOUBLE", "1|3|10.0", "2|1|20.0", "1|2|5.0")
        .similar("item", "goods", 0.8).similar("sale", "sales", 0.9)
        .similar("i title", "title", 0.9).similar("s amount", "amount", 0.9)
        .similar("i itemkey", "id", 0.5).similar("s itemkey", "shop", 0.6).similar("s itemkey", "item ref", 0.5)
        .edge("goods", "id", "sales", "shop")
        .containment("goods", "id", "sales", "shop", 1.0).keyOverlap("goods", "id", "sales", "shop", 0.05)
        .containment("goods", "id", "sales", "item_ref", 1.0).keyOverlap("goods", "id", "sales", "item_ref", 0.6);
    Scratchpad pad = lake.padWith("goods", "sales");
    lake.addJoinPath(pad, "goods", "sales");

    Plan plan = new OfflinePlanner(lake.state("SELECT i_title, sum(s_amount) FROM item, sale "
        + "WHERE i_itemkey = s_itemkey GROUP BY i_title", pad)).plan();

    assertThat(plan.tables().get("sale").columns().get("s_itemkey").lakeColumn()).isEqualTo("item_ref");
  }

  @Test
  void aReferenceToAHugeTableIsReadFromTheKeyThatSpreadsOverItsRange() {
    // A thousand demographics (four rows stand in for them): the clients' current demographics spread over all of
    // them, their address keys fill the first few. The join graph's sketches found only the address keys' pair
    // (contained, with a Jaccard similarity of almost nothing); the demographics key is measured when asked.
    FakeLakeTools lake = new FakeLakeTools()
        .table("clients", "id INTEGER, name VARCHAR, current_cdemo INTEGER, crnt_addr INTEGER",
            "1|Ann|5|1", "2|Bob|480|5", "3|Cy|950|1")
        .table("demographics", "demo_sk INTEGER, gender VARCHAR", "1|M", "5|F", "480|F", "950|M", "1000|F")
        .similar("customer", "clients", 0.8).similar("customer demographics", "demographics", 0.8)
        .similar("c name", "name", 0.9).similar("cd gender", "gender", 0.9)
        .similar("c current cdemo sk", "current cdemo", 0.95).similar("c current cdemo sk", "crnt addr", 0.75)
        .similar("cd demo sk", "demo sk", 0.95)
        .edge("clients", "crnt_addr", "demographics", "demo_sk")
        .containment("clients", "crnt_addr", "demographics", "demo_sk", 1.0)
        .keyOverlap("clients", "crnt_addr", "demographics", "demo_sk", 0.0002);
    Scratchpad pad = lake.padWith("clients", "demographics");

    Plan plan = new OfflinePlanner(lake.state("SELECT c_name, cd_gender FROM customer, customer_demographics "
        + "WHERE c_current_cdemo_sk = cd_demo_sk", pad)).plan();

    assertThat(plan.tables().get("customer").columns().get("c_current_cdemo_sk").lakeColumn())
        .isEqualTo("current_cdemo");
  }

  @Test
  void aKeyOfATableSplitByRowsIsMeasuredOverTheUnionOfItsParts() {
    // The purchases' buyers are clients of both parts; against the current clients alone only one of the four is
    // contained, while the two shops' codes 1 and 2 are, by chance.
    FakeLakeTools lake = new FakeLakeTools()
        .table("clients_current", "id INTEGER, name VARCHAR", "1|Ann", "2|Bob", "3|Cy", "4|Di")
        .table("clients_archive", "id INTEGER, name VARCHAR", "5|Eve", "6|Fay", "7|Gus", "8|Hal")
        .table("purchases", "pid INTEGER, buyer INTEGER, shop INTEGER, total DOUBLE",
            "1|2|1|10.0", "2|6|2|20.0", "3|7|1|30.0", "4|8|2|5.0")
        .similar("customer", "clients current", 0.8).similar("orders", "purchases", 0.8)
        .similar("c name", "name", 0.9).similar("o totalprice", "total", 0.9)
        .similar("c custkey", "id", 0.5).similar("o custkey", "buyer", 0.6).similar("o custkey", "shop", 0.6)
        .edge("clients_current", "id", "purchases", "shop")
        .containment("clients_current", "id", "purchases", "shop", 1.0)
        .keyOverlap("clients_current", "id", "purchases", "shop", 0.5)
        .containment("clients_current", "id", "purchases", "buyer", 0.25)
        .keyOverlap("clients_current", "id", "purchases", "buyer", 0.14);
    Scratchpad pad = lake.padWith("clients_current", "clients_archive", "purchases");

    Plan plan = new OfflinePlanner(lake.state(SQL, pad)).plan();

    assertThat(plan.tables().get("orders").columns().get("o_custkey").lakeColumn()).isEqualTo("buyer");
  }
}
