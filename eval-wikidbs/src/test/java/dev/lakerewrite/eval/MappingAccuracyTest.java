package dev.lakerewrite.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MappingAccuracyTest {

  static final GoldMapping GOLD = new GoldMapping(Map.of("orders", List.of("ord_a", "ord_b")), Map.of(
      "orders.o_totalprice", new GoldMapping.ColumnGold(List.of("ord_a.TotPrc", "ord_b.TotPrc"), "none", ""),
      "orders.o_orderstatus", new GoldMapping.ColumnGold(List.of("ord_a.stat_cd", "status_lkp.label"),
          "code-lookup", "integer codes"),
      "orders.o_clerk", new GoldMapping.ColumnGold(List.of("ord_a.clerk"), "none", "")));

  @Test
  void aColumnIsRightWhenEveryLakeColumnChosenForItIsAGoldOne() {
    MappingAccuracy.Score s = MappingAccuracy.score(GOLD, Map.of(
        "orders.o_totalprice", Set.of("ORD_B.totprc"),                      // one part of a union: right
        "orders.o_orderstatus", Set.of("ord_a.stat_cd", "ord_a.clerk"),     // one wrong column among them: wrong
        "ORDERS.O_CLERK", Set.of("ord_a.clerk"))).orElseThrow();           // case does not matter: right
    assertThat(s.goldColumns()).isEqualTo(3);
    assertThat(s.right()).isEqualTo(2);
    assertThat(s.misses()).containsExactly(new MappingAccuracy.Miss("orders.o_orderstatus",
        Set.of("ord_a.clerk", "ord_a.stat_cd"), List.of("ord_a.stat_cd", "status_lkp.label")));
    assertThat(MappingAccuracy.score(GOLD, Map.of()).orElseThrow().misses()).hasSize(3)
        .allSatisfy(m -> assertThat(m.chosen()).isEmpty());
    assertThat(MappingAccuracy.score(GOLD, Map.of()).orElseThrow().accuracy()).isZero();
    assertThat(MappingAccuracy.score(GoldMapping.empty(), Map.of())).isEmpty();
  }

  @Test
  void goldColumnsReadCountsWholeNamesOfTheRightTableOnly() {
    assertThat(MappingAccuracy.goldColumnsRead(GOLD,
        "SELECT TotPrc, clerk FROM ord_b")).hasValue(1.0 / 3); // clerk is gold only in ord_a
    assertThat(MappingAccuracy.goldColumnsRead(GOLD,
        "SELECT a.TotPrc, a.clerk_name FROM ord_a a")).hasValue(1.0 / 3); // clerk_name is not clerk
    assertThat(MappingAccuracy.goldColumnsRead(GOLD, "")).isEmpty();
  }
}
