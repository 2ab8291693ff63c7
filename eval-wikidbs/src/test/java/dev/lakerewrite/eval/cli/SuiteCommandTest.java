package dev.lakerewrite.eval.cli;

import static dev.lakerewrite.eval.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.eval.perturb.PerturbedCorpus;
import dev.lakerewrite.eval.perturb.ShopDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code eval --suite}: every lake of a corpus's part, reported per lake; bad suite names. */
class SuiteCommandTest {

  @TempDir
  Path dir;

  @Test
  void aCorpusSuiteRunsEveryHeldOutLakeAndReportsPerLake() throws Exception {
    Path db = ShopDatabase.create(dir.resolve("shop.duckdb"));
    PerturbedCorpus.Spec spec = new PerturbedCorpus.Spec("shop-suite", "test", List.of(new PerturbedCorpus.Schema(
        "shop", db, Set.of(), ShopDatabase.queries(), 0)), List.of(1L), List.of(101L, 102L), 500);
    PerturbedCorpus.Index index = PerturbedCorpus.build(spec, dir.resolve("corpora"), dir.resolve("cache"), m -> { });
    Path out = dir.resolve("out");
    CliTest.Run r = cli("eval", "--suite", index.folder().toString(), "--method", "one-step", "--limit", "2",
        "--no-warm-up", "--no-progress", "--cache", dir.resolve("cache").toString(), "--out", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).as("every table of the mixed CSV/Parquet lakes loads").doesNotContain("problem(s)");
    assertThat(r.out()).contains("shop-s101", "shop-s102", "held-out", "one-step").doesNotContain("shop-s1 ");
    assertThat(out.resolve("shop-suite/shop-s101/report.md")).exists();
    assertThat(out.resolve("suites.md")).content().contains("| shop-suite | shop-s102 | held-out | one-step | 2 |",
        "by SQL shape", "by perturbation kind");
    assertThat(out.resolve("suites.json")).content().contains("\"by_perturbation\"");

    // --id names pairs as <lake>/<query>: only lakes with a named pair run.
    String id = new com.fasterxml.jackson.databind.ObjectMapper().readTree(index.lakes(PerturbedCorpus.Split.HELD_OUT)
        .get(1).pairFile().toFile()).get("pairs").get(0).get("id").asText();
    assertThat(id).startsWith("shop-s102/");
    Path one = dir.resolve("one");
    CliTest.Run picked = cli("eval", "--suite", index.folder().toString(), "--method", "one-step", "--id", id,
        "--no-warm-up", "--no-progress", "--cache", dir.resolve("cache").toString(), "--out", one.toString());
    assertThat(picked.code()).as(picked.err()).isZero();
    assertThat(picked.err()).contains("lake shop-s102").doesNotContain("lake shop-s101");
    assertThat(Files.readAllLines(one.resolve("shop-suite/shop-s102/pairs.jsonl"))).hasSize(1);
    CliTest.Run noLake = cli("eval", "--suite", index.folder().toString(), "--id", "shop-s103/std-q1", "--out",
        dir.resolve("o3").toString());
    assertThat(noLake.code()).isEqualTo(2);
    assertThat(noLake.err()).contains("no lake of this run has pair 'shop-s103/std-q1'", "did you mean 'shop-s10");

    CliTest.Run unknown = cli("eval", "--suite", "tpcx");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).contains("unknown suite 'tpcx'", "dev, wikidbs-perturbed, tpch, tpcds");
    CliTest.Run both = cli("eval", "--suite", "dev", "--pairs", "x.json");
    assertThat(both.code()).isEqualTo(2);
    assertThat(both.err()).contains("--pairs and --suite exclude each other");
    CliTest.Run split = cli("eval", "--suite", index.folder().toString(), "--split", "both", "--out",
        dir.resolve("o2").toString());
    assertThat(split.code()).isEqualTo(2);
    assertThat(split.err()).contains("--split must be held-out, fit, validation or all");
    assertThat(Files.exists(dir.resolve("o2/suites.md"))).isFalse();
  }
}
