package dev.lakerewrite.eval.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.IndexStage;
import dev.lakerewrite.core.IndexStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15: {@link BigLakeBenchmark}'s code path at a few dozen tables: the generated lake (mixed formats, a
 * Hive-partitioned table, the WikiDBs sample among TPC-DS parts) loads in place with the sample's tables under the
 * names {@code fromWikiDbs} gives them, and after changing a few files a refresh reads exactly their tables again.
 */
class BigLakeTest {
  private static final Path SAMPLE =
      Path.of(System.getProperty("lakerewrite.sample", "../../shared/data/wikidbs-sample")).toAbsolutePath();

  @Test
  void aSmallGeneratedLakeIndexesAndARefreshReadsOnlyTheChangedTables(@TempDir Path dir) throws Exception {
    BigLake.Spec spec = new BigLake.Spec(45, List.of(0.01), 20_000, 5_000, 15);
    BigLake.Generated generated = BigLake.generate(dir.resolve("lake"), spec, SAMPLE, dir.resolve("tpc"));
    assertThat(generated.tables()).isEqualTo(45);
    assertThat(generated.byGroup()).containsEntry("wikidbs sample", 29);
    Path cache = dir.resolve("cache");
    List<String> sampleNames;
    try (DataLake sample = DataLake.builder().cacheDirectory(cache).fromWikiDbs(SAMPLE)) {
      sampleNames = sample.catalog().tableNames();
    }
    try (DataLake lake = DataLake.builder().cacheDirectory(cache).fromFolder(generated.folder())) {
      assertThat(lake.catalog().tableNames()).hasSize(45).containsAll(sampleNames).contains("clickstream");
      assertThat(lake.catalog().table("clickstream").orElseThrow().columns()).extracting(c -> c.name()).contains("day");
      IndexStatus full = lake.index();
      assertThat(full.tables()).isEqualTo(45);
      assertThat(full.stage(IndexStage.READ).orElseThrow().built()).isEqualTo(45);
    }

    List<Path> changed = BigLake.changeFiles(generated.folder(), 2, 7);
    assertThat(changed).hasSize(2).allMatch(Files::isRegularFile);
    try (DataLake lake = DataLake.builder().cacheDirectory(cache).fromFolder(generated.folder())) {
      IndexStatus refresh = lake.index();
      assertThat(refresh.changes()).hasSize(2)
          .allMatch(c -> c.kind() == IndexStatus.TableChange.Kind.CHANGED);
      assertThat(refresh.stage(IndexStage.READ).orElseThrow().built()).isEqualTo(2);
      assertThat(refresh.stage(IndexStage.READ).orElseThrow().reused()).isEqualTo(43);
      assertThat(refresh.tables()).isEqualTo(45);
    }
  }
}
