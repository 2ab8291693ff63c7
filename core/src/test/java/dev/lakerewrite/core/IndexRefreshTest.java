package dev.lakerewrite.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.retrieval.QueryTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15: {@link DataLake#index()} builds everything rewrites need and says what; after a file changes, only its
 * table is built again (profile, retrieval entries, sketches), the rest is reused, and the result equals a full
 * build of the changed lake.
 */
class IndexRefreshTest {

  private static Map<IndexStage, long[]> builtAndReused(IndexStatus status) {
    Map<IndexStage, long[]> out = new EnumMap<>(IndexStage.class);
    status.stages().forEach(s -> out.put(s.stage(), new long[] {s.built(), s.reused()}));
    return out;
  }

  /** What rewrites see of a lake's derived data: profiles, retrieval answers, join edges, a rewrite. */
  private static List<Object> derived(DataLake lake) {
    List<Object> out = new ArrayList<>();
    out.add(lake.catalog().profiles());
    out.add(lake.services().index().tables());
    out.add(lake.services().index().queryRelevance(List.of(new QueryTable("places", List.of("town", "people"))))
        .ranking());
    out.add(lake.services().index().searchValueInLake("Nelson", 5));
    out.add(lake.services().joinGraph().tables());
    out.add(lake.services().joinGraph().edges());
    out.add(Rewriter.rewrite("SELECT town FROM places WHERE people > 60000", lake).sql());
    return out;
  }

  @Test
  void aChangedFileRebuildsOnlyItsTableAndTheResultEqualsAFullBuild(@TempDir Path tmp) throws Exception {
    Path folder = FolderLakeTest.mixedLake(tmp);
    Path cache = tmp.resolve("cache");
    Map<IndexStage, Long> lastDone = new EnumMap<>(IndexStage.class);
    try (DataLake lake = DataLake.builder().cacheDirectory(cache).fromFolder(folder)) {
      IndexStatus first = lake.index((stage, done, total) -> {
        assertThat(done).isBetween(0L, total);
        lastDone.merge(stage, done, Math::max);
      });
      assertThat(first.tables()).isEqualTo(7);
      assertThat(first.changes()).hasSize(7);
      assertThat(builtAndReused(first)).containsEntry(IndexStage.LOAD, new long[] {7, 0})
          .containsEntry(IndexStage.READ, new long[] {7, 0})
          .containsEntry(IndexStage.RETRIEVAL, new long[] {7, 0})
          .containsEntry(IndexStage.JOIN_GRAPH, new long[] {7, 0});
      assertThat(first.stage(IndexStage.VALUES).orElseThrow().built()).isPositive();
      assertThat(first.stage(IndexStage.VALUES).orElseThrow().reused()).as("an empty cache has no vectors").isZero();
      assertThat(first.stage(IndexStage.VALUES).orElseThrow().detail()).isEqualTo("all string values");
      assertThat(first.upToDate()).isFalse();
      assertThat(lastDone).containsKeys(IndexStage.values());
      assertThat(first.changes()).extracting(IndexStatus.TableChange::kind).containsOnly(IndexStatus.TableChange.Kind.ADDED);

      IndexStatus again = lake.index();
      assertThat(again.upToDate()).as("%s", again).isFalse(); // the load's changes stay reported
      assertThat(builtAndReused(again)).containsEntry(IndexStage.RETRIEVAL, new long[] {0, 7});
    }
    try (DataLake reopened = DataLake.builder().cacheDirectory(cache).fromFolder(folder)) {
      IndexStatus current = reopened.index();
      assertThat(current.upToDate()).as("%s", current).isTrue();
      assertThat(current.summary()).contains("up to date");
    }

    Path towns = folder.resolve("towns.tsv");
    Files.writeString(towns, "town\tpopulation\nWhangārei\t52900\nNapier\t66300\nNelson\t55000\n");
    Files.setLastModifiedTime(towns, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
    List<Object> refreshed;
    try (DataLake changed = DataLake.builder().cacheDirectory(cache).fromFolder(folder)) {
      IndexStatus status = changed.index();
      assertThat(status.changes()).singleElement().satisfies(c -> {
        assertThat(c.table()).isEqualTo("towns");
        assertThat(c.kind()).isEqualTo(IndexStatus.TableChange.Kind.CHANGED);
        assertThat(c.reason()).startsWith("towns.tsv changed");
      });
      assertThat(builtAndReused(status)).containsEntry(IndexStage.LOAD, new long[] {1, 6})
          .containsEntry(IndexStage.READ, new long[] {1, 6})
          .containsEntry(IndexStage.RETRIEVAL, new long[] {1, 6})
          .containsEntry(IndexStage.JOIN_GRAPH, new long[] {1, 6});
      assertThat(changed.catalog().profile("towns").rowCount()).isEqualTo(3);
      refreshed = derived(changed);
    }
    try (DataLake full = DataLake.builder().cacheDirectory(tmp.resolve("fresh")).fromFolder(folder)) {
      IndexStatus status = full.index();
      assertThat(status.stage(IndexStage.RETRIEVAL).orElseThrow().built()).isEqualTo(7);
      assertThat(derived(full)).isEqualTo(refreshed);
    }
  }
}
