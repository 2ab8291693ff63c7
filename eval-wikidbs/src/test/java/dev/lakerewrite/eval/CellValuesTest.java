package dev.lakerewrite.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CellValuesTest {

  @Test
  void numbersReadAsPlainDecimals() {
    assertThat(CellValues.canonical(13789.0)).isEqualTo("13789");
    assertThat(CellValues.canonical(new BigDecimal("1.50"))).isEqualTo("1.5");
    assertThat(CellValues.canonical(-0.0)).isEqualTo("0");
    assertThat(CellValues.canonical(1.0e21)).isEqualTo("1000000000000000000000");
    assertThat(CellValues.canonical(new BigInteger("984162669634555500009"))).isEqualTo("984162669634555500009");
    assertThat(CellValues.canonical("984162669634555500009")).isEqualTo("984162669634555500009");
    assertThat(CellValues.canonical(2854.3199999999997)).isEqualTo("2854.32");
    assertThat(CellValues.canonical(1.0 / 3)).isEqualTo("0.333333333333");
    assertThat(CellValues.canonical(Double.NaN)).isEqualTo("NaN");
    assertThat(CellValues.canonical("+6")).isEqualTo("6");
    assertThat(CellValues.canonical("-.5")).isEqualTo("-0.5");
    assertThat(CellValues.canonical("0110")).isEqualTo("110");
  }

  @Test
  void otherStringsStayVerbatim() {
    for (String s : List.of("Whangārei", " Auckland", "AUCKLAND", "1e5", "13,789", "1 000", "+", "", "NaN", "null")) {
      assertThat(CellValues.canonical(s)).isEqualTo(s);
    }
  }

  @Test
  void nullStaysNullAndOtherTypesReadAsIsoOrText() {
    assertThat(CellValues.canonical(null)).isNull();
    assertThat(CellValues.canonical(true)).isEqualTo("true");
    assertThat(CellValues.canonical(LocalDate.of(2020, 1, 31))).isEqualTo("2020-01-31");
    assertThat(CellValues.canonical(java.sql.Date.valueOf("2020-01-31"))).isEqualTo("2020-01-31");
    assertThat(CellValues.canonical(LocalDateTime.of(2020, 1, 31, 10, 15))).isEqualTo("2020-01-31T10:15:00");
    assertThat(CellValues.canonical(java.sql.Timestamp.valueOf("2020-01-31 10:15:00")))
        .isEqualTo("2020-01-31T10:15:00");
    assertThat(CellValues.canonical(OffsetDateTime.of(2020, 1, 31, 10, 15, 0, 0, ZoneOffset.UTC)))
        .isEqualTo("2020-01-31T10:15:00Z");
    assertThat(CellValues.canonical(new byte[] {1, (byte) 0xab})).isEqualTo("\\x01ab");
    assertThat(CellValues.canonical(Arrays.asList(1.0, null, "+2"))).isEqualTo("[1, NULL, 2]");
    assertThat(CellValues.canonical(new Object[] {"a", null})).isEqualTo("[a, NULL]");
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("k", 2.50);
    assertThat(CellValues.canonical(map)).isEqualTo("{k=2.5}");
    assertThat(CellValues.canonical('x')).isEqualTo("x");
  }
}
