package dev.lakerewrite.eval.cli;

import static dev.lakerewrite.eval.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.eval.perturb.ShopDatabase;
import dev.lakerewrite.eval.perturb.SourceQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code perturb}: a database and queries into a lake and pairs; exit codes and bad input. */
class PerturbCommandTest {

  @TempDir
  Path dir;

  @Test
  void writesTheLakeAndVerifiedPairsAndSaysWhatItDid() throws Exception {
    Path db = ShopDatabase.create(dir.resolve("shop.duckdb"));
    Path sql = Files.writeString(dir.resolve("queries.sql"), ShopDatabase.queries().stream().map(SourceQuery::sql)
        .collect(Collectors.joining(";\n")) + ";\nSELECT no_such_column FROM customer;");
    Path out = dir.resolve("out");
    CliTest.Run r = cli("perturb", "--db", db.toString(), "--queries", sql.toString(), "--generate", "13",
        "--seed", "4", "--out", out.toString(), "--cache", dir.resolve("cache").toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("pairs: 27 of 28 queries", "by error type:", "by perturbation:",
        "dropped: 1 {the query fails on the source=1}");
    assertThat(out.resolve("pairs.json")).exists();
    assertThat(out.resolve("manifest.json")).content().contains("\"seed\" : 4", "q015");
    try (var files = Files.list(out.resolve("lake"))) {
      assertThat(files.filter(f -> f.toString().endsWith(".csv")).count()).isGreaterThanOrEqualTo(3);
    }

    CliTest.Run again = cli("perturb", "--db", db.toString(), "--queries", sql.toString(), "--out", out.toString());
    assertThat(again.code()).isEqualTo(2);
    assertThat(again.err()).contains("lakerewrite perturb: the output folder is not empty");
  }

  @Test
  void badInputIsExitCodeTwoWithTheReason() throws Exception {
    CliTest.Run noDb = cli("perturb", "--db", dir.resolve("none.duckdb").toString(), "--generate", "5", "--out",
        dir.resolve("o").toString());
    assertThat(noDb.code()).isEqualTo(2);
    assertThat(noDb.err()).contains("no DuckDB database at");
    Path db = ShopDatabase.create(dir.resolve("shop.duckdb"));
    CliTest.Run noQueries = cli("perturb", "--db", db.toString(), "--out", dir.resolve("o").toString());
    assertThat(noQueries.code()).isEqualTo(2);
    assertThat(noQueries.err()).contains("--queries PATH, --generate N");
    CliTest.Run badRate = cli("perturb", "--db", db.toString(), "--generate", "3", "--vertical-split-rate", "1.5",
        "--out", dir.resolve("o").toString());
    assertThat(badRate.code()).isEqualTo(2);
    assertThat(badRate.err()).contains("verticalSplitRate must be in [0, 1], was 1.5");
    CliTest.Run badTable = cli("perturb", "--db", db.toString(), "--generate", "3", "--tables", "custmer",
        "--out", dir.resolve("o").toString());
    assertThat(badTable.code()).isEqualTo(2);
    assertThat(badTable.err()).contains("no table [custmer]");
  }
}
