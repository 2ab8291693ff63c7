package dev.lakerewrite.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.rewrite.LakeTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the lake tools measure of a real lake's columns for the planner: number ranges, and keys over split parts. */
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
}
