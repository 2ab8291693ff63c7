package dev.lakerewrite.eval.perturb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.eval.LoadedPairs;
import dev.lakerewrite.eval.PairLoader;
import dev.lakerewrite.eval.QueryResultPair;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PerturbedCorpusTest {

  @TempDir
  Path dir;

  @Test
  void heldOutLakesGetOnlyHeldOutQueriesAndTheBuildIsReusedUntilTheSpecChanges() throws Exception {
    Path db = ShopDatabase.create(dir.resolve("shop.duckdb"));
    PerturbedCorpus.Schema shop = new PerturbedCorpus.Schema("shop", db, Set.of(), ShopDatabase.queries(), 12);
    PerturbedCorpus.Spec spec = new PerturbedCorpus.Spec("shop-corpus", "test", List.of(shop), List.of(1L),
        List.of(101L), 500);
    List<String> progress = new ArrayList<>();
    PerturbedCorpus.Index index = PerturbedCorpus.build(spec, dir.resolve("corpora"), dir.resolve("cache"),
        progress::add);
    assertThat(index.lakes()).extracting(PerturbedCorpus.Lake::name).containsExactly("shop-s1", "shop-s101");
    assertThat(progress).anyMatch(p -> p.contains("generating 12 queries"));

    Set<String> fitQueries = new HashSet<>();
    Set<String> heldOutQueries = new HashSet<>();
    for (PerturbedCorpus.Lake lake : index.lakes()) {
      LoadedPairs pairs = PairLoader.parseOnly().load(lake.pairFile());
      assertThat(pairs.pairs()).hasSize(lake.pairs());
      for (QueryResultPair p : pairs.pairs()) {
        String query = p.id().substring(p.id().indexOf('/') + 1);
        assertThat(PerturbedCorpus.heldOutQuery("shop-corpus", "shop", query))
            .isEqualTo(lake.split() == PerturbedCorpus.Split.HELD_OUT);
        (lake.split() == PerturbedCorpus.Split.FIT ? fitQueries : heldOutQueries).add(query);
      }
    }
    assertThat(fitQueries).isNotEmpty().doesNotContainAnyElementsOf(heldOutQueries);
    assertThat(heldOutQueries).isNotEmpty();
    assertThat(index.pairs(PerturbedCorpus.Split.FIT) + index.pairs(PerturbedCorpus.Split.HELD_OUT))
        .isEqualTo(ShopDatabase.queries().size() + 12);

    long written = Files.getLastModifiedTime(index.folder().resolve("corpus.json")).toMillis();
    progress.clear();
    PerturbedCorpus.Index again = PerturbedCorpus.build(spec, dir.resolve("corpora"), dir.resolve("cache"),
        progress::add);
    assertThat(progress).as("an up-to-date corpus is reused").isEmpty();
    assertThat(again).isEqualTo(index);
    assertThat(Files.getLastModifiedTime(index.folder().resolve("corpus.json")).toMillis()).isEqualTo(written);

    PerturbedCorpus.Spec other = new PerturbedCorpus.Spec("shop-corpus", "test", List.of(shop), List.of(2L),
        List.of(101L), 500);
    PerturbedCorpus.Index rebuilt = PerturbedCorpus.build(other, dir.resolve("corpora"), dir.resolve("cache"),
        progress::add);
    assertThat(rebuilt.lakes()).extracting(PerturbedCorpus.Lake::name).containsExactly("shop-s2", "shop-s101");
    assertThat(rebuilt.folder()).isNotEqualTo(index.folder());
    assertThat(index.folder()).as("the older build is removed").doesNotExist();
  }

  @Test
  void validationLakesGetQueriesOfTheirOwn() throws Exception {
    Path db = ShopDatabase.create(dir.resolve("shop.duckdb"));
    PerturbedCorpus.Schema shop = new PerturbedCorpus.Schema("shop", db, Set.of(), ShopDatabase.queries(), 8);
    PerturbedCorpus.Spec spec = new PerturbedCorpus.Spec("shop-corpus", "test", List.of(shop), List.of(1L),
        List.of(101L), List.of(201L), 6, 500);

    PerturbedCorpus.Index index = PerturbedCorpus.build(spec, dir.resolve("corpora"), dir.resolve("cache"), p -> { });

    assertThat(index.lakes()).extracting(PerturbedCorpus.Lake::name)
        .containsExactly("shop-s1", "shop-s201", "shop-s101");
    PerturbedCorpus.Lake validation = index.lakes(PerturbedCorpus.Split.VALIDATION).get(0);
    assertThat(validation.seed()).isEqualTo(201L);
    Set<String> otherSql = new HashSet<>();
    for (PerturbedCorpus.Lake lake : index.lakes()) {
      if (lake != validation) {
        PairLoader.parseOnly().load(lake.pairFile()).pairs().forEach(p -> otherSql.add(p.userQuery().strip()));
      }
    }
    List<QueryResultPair> pairs = PairLoader.parseOnly().load(validation.pairFile()).pairs();
    assertThat(pairs).isNotEmpty().hasSize(validation.pairs());
    assertThat(pairs).allSatisfy(p -> {
      assertThat(p.id()).startsWith("shop-s201/val-");
      assertThat(otherSql).doesNotContain(p.userQuery().strip());
    });
    assertThat(PerturbedCorpus.read(index.folder()).orElseThrow().lakes(PerturbedCorpus.Split.VALIDATION))
        .containsExactly(validation);
  }

  @Test
  void validationSeedsMustDifferFromTheOthersAndValidationQueriesNeedThem() {
    assertThatThrownBy(() -> new PerturbedCorpus.Spec("x", "", List.of(), List.of(1L), List.of(101L), List.of(1L), 5,
        10)).hasMessageContaining("validation lake seeds must differ");
    assertThatThrownBy(() -> new PerturbedCorpus.Spec("x", "", List.of(), List.of(1L), List.of(101L), List.of(), 5,
        10)).hasMessageContaining("need validation seeds");
  }

  @Test
  void fitAndHeldOutSeedsMustDiffer() {
    assertThatThrownBy(() -> new PerturbedCorpus.Spec("x", "", List.of(), List.of(1L, 2L), List.of(2L), 10))
        .hasMessageContaining("must differ");
  }
}
