package dev.lakerewrite.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.rewrite.LakeTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the lake tools measure of a real lake's columns for the planner: number ranges, keys over split parts, and
 * tuples of keys.
 */
class LakeToolsMeasuresTest {

  @Test
  void rangesReadNumbersAsTheCleanersDoAndKeysAreContainedInTheUnionOfAPartitionsParts(@TempDir Path tmp)
      throws IOException {
    Path folder = tmp.resolve("lake");
    Files.createDirectories(folder);
    Files.writeString(folder.resolve("sales.csv"),
        "client,amount,note\n1,\"USD 1,200.50\",first\n2,USD 7.25,second\n5,USD 310,third\n6,USD 99,fourth\n"
            + "1,USD 12,fifth\n");
    Files.writeString(folder.resolve("clients_current.csv"), "id,name\n1,Ann\n2,Bob\n3,Cid\n");
    Files.writeString(folder.resolve("clients_archive.csv"), "id,name\n4,Dan\n5,Eve\n6,Fay\n");

    try (DataLake lake = DataLake.builder().cacheDirectory(tmp.resolve("cache")).fromCsvFolder(folder);
        MatchLakes match = MatchLakes.open(lake)) {
      LakeTools tools = (LakeTools) match.lake();

      assertThat(tools.numericRange("sales", "amount")).hasValueSatisfying(r -> assertThat(r).containsExactly(7.25, 1200.5));
      assertThat(tools.numericRange("sales", "client")).hasValueSatisfying(r -> assertThat(r).containsExactly(1, 6));
      assertThat(tools.numericRange("sales", "note")).isEmpty();
      // The sales refer to clients 1, 2, 5 and 6; one part holds two of its three, the two parts together all.
      assertThat(tools.unionContainment(List.of("sales"), "client", List.of("clients_current"), "id"))
          .isEqualTo(2 / 3.0);
      assertThat(tools.unionContainment(List.of("sales"), "client", List.of("clients_current", "clients_archive"),
          "id")).isEqualTo(1.0);
      assertThat(tools.unionContainment(List.of("sales"), "no_such_column", List.of("clients_current"), "id"))
          .isZero();
    }
  }

  @Test
  void aJoinOnSeveralKeysIsContainedOnlyWhereItsKeysMeetInOneRow(@TempDir Path tmp) throws IOException {
    Path folder = tmp.resolve("lake");
    Files.createDirectories(folder);
    Files.writeString(folder.resolve("sales.csv"), "cust,item,ticket\n1,10,100\n2,20,101\n3,30,102\n");
    // The shop's returns name sales; the catalog's hold the same customers, items and numbers, never together.
    Files.writeString(folder.resolve("shop_returns_a.csv"), "cust,item,ticket\n1,10,100\n");
    Files.writeString(folder.resolve("shop_returns_b.csv"), "cust,item,ticket\n3,30,102\n");
    Files.writeString(folder.resolve("catalog_returns.csv"), "cust,item,ticket\n1,20,101\n2,30,102\n3,10,100\n");

    try (DataLake lake = DataLake.builder().cacheDirectory(tmp.resolve("cache")).fromCsvFolder(folder);
        MatchLakes match = MatchLakes.open(lake)) {
      LakeTools tools = (LakeTools) match.lake();
      List<String> keys = List.of("cust", "item", "ticket");

      assertThat(tools.tupleContainment(List.of("shop_returns_a", "shop_returns_b"), keys, List.of("sales"), keys))
          .isEqualTo(1.0);
      assertThat(tools.tupleContainment(List.of("catalog_returns"), keys, List.of("sales"), keys)).isZero();
      assertThat(tools.unionContainment(List.of("catalog_returns"), "item", List.of("sales"), "item"))
          .isEqualTo(1.0);
      assertThatThrownBy(() -> tools.tupleContainment(List.of("sales"), keys, List.of("sales"), List.of("cust")))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("as many columns on each side");
    }
  }
}
