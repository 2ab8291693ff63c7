package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TypeFamilyTest {

  @Test
  void declaredTypesWin() {
    assertThat(TypeFamily.infer("BIGINT", List.of("x"))).isEqualTo(TypeFamily.NUMERIC);
    assertThat(TypeFamily.infer("DECIMAL(18,3)", List.of())).isEqualTo(TypeFamily.NUMERIC);
    assertThat(TypeFamily.infer("BOOLEAN", List.of())).isEqualTo(TypeFamily.BOOLEAN);
    assertThat(TypeFamily.infer("TIMESTAMP WITH TIME ZONE", List.of())).isEqualTo(TypeFamily.DATETIME);
  }

  @Test
  void textColumnsAreJudgedByTheirValues() {
    assertThat(TypeFamily.infer("VARCHAR", List.of("+13789", "1.234,5", "12 484,59", "-3", "7%", "179'100")))
        .isEqualTo(TypeFamily.NUMERIC);
    assertThat(TypeFamily.infer("VARCHAR", List.of("t", "true", "trüe", "No", "YES", "f")))
        .isEqualTo(TypeFamily.BOOLEAN);
    assertThat(TypeFamily.infer("VARCHAR", List.of("+1995-11-22T00:00:00Z", "2001-03-04", "04/03/2001", "March 4, 2001")))
        .isEqualTo(TypeFamily.DATETIME);
    assertThat(TypeFamily.infer("VARCHAR", List.of("Whangārei", "Wellington", "12"))).isEqualTo(TypeFamily.STRING);
  }

  @Test
  void ignoresBlanksAndNullsAndNeedsAClearMajority() {
    assertThat(TypeFamily.fromValues(Arrays.asList(null, "", " ", "5"))).isEqualTo(TypeFamily.NUMERIC);
    assertThat(TypeFamily.fromValues(List.of("+179100\t", " +52600", "1\u00ad2", "\u200b+7257"))).isEqualTo(TypeFamily.NUMERIC);
    assertThat(TypeFamily.fromValues(List.of("<b>12</b>", "\u00A07", "33", "<i>1</i>", "8")))
        .as("markup and no-break spaces around numbers").isEqualTo(TypeFamily.NUMERIC);
    assertThat(TypeFamily.fromValues(List.of("<b>bold</b>", "<i>plain</i>", "text"))).isEqualTo(TypeFamily.STRING);
    assertThat(TypeFamily.fromValues(Arrays.asList(null, ""))).isEqualTo(TypeFamily.STRING);
    assertThat(TypeFamily.fromValues(List.of("1", "2", "3", "4", "5", "6", "7", "8", "nine")))
        .isEqualTo(TypeFamily.STRING);
  }
}
