package dev.lakerewrite.joingraph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The graph's JSON file: read back equal, reused while current, rebuilt when the lake or settings change. */
class PersistenceTest {

  @Test
  void writtenGraphReadsBackEqual(@TempDir Path dir) throws IOException {
    JoinGraph graph = SampleGraphs.defaults();
    Path file = dir.resolve("g.json");
    graph.write(file);
    JoinGraph read = JoinGraph.read(file);
    assertThat(read).isEqualTo(graph);
    assertThat(read.tables()).isEqualTo(graph.tables());
    assertThat(read.edges()).isEqualTo(graph.edges());
    assertThat(read.buildStats()).isEqualTo(graph.buildStats());
    for (JoinEdge e : graph.edges()) {
      assertThat(read.joinability(e.tableA(), e.tableB())).isEqualTo(e.joinability());
    }
    // Compact: one line, arrays for columns and pairs.
    String json = Files.readString(file);
    assertThat(json).doesNotContain("\n").contains("\"format\":\"lakerewrite-joingraph\"");
    assertThat(Files.size(file)).isLessThan(60_000);
    // Written again, byte for byte the same.
    Path again = dir.resolve("again.json");
    read.write(again);
    assertThat(Files.readString(again)).isEqualTo(json);
  }

  private static CountingSource lake() {
    return new CountingSource(ColumnSource.fromConnection(SampleGraphs.connection(), 1_000_000));
  }

  private static JoinGraph build(Path cache, String fingerprint, CountingSource source, CountingEmbedder embedder,
      JoinGraphConfig config) {
    return JoinGraph.builder().connection(SampleGraphs.connection()).columnSource(source).embedder(embedder)
        .cacheDirectory(cache).lakeFingerprint(fingerprint).config(config).build();
  }

  @Test
  void builderReusesTheCachedGraphUntilTheFingerprintChanges(@TempDir Path cache) {
    CountingSource firstLake = lake();
    CountingEmbedder first = new CountingEmbedder(TestEmbedders.miniLm());
    JoinGraph built = build(cache, "lake-v1", firstLake, first, JoinGraphConfig.defaults());
    assertThat(firstLake.tablesRead.get()).isEqualTo(29);
    assertThat(first.texts.get()).isPositive();
    assertThat(cache.resolve(JoinGraph.FILE_NAME)).isRegularFile();
    assertThat(cache.resolve(JoinGraph.EMBEDDINGS_DIRECTORY)).isDirectory();

    CountingSource secondLake = lake();
    CountingEmbedder second = new CountingEmbedder(TestEmbedders.miniLm());
    JoinGraph loaded = build(cache, "lake-v1", secondLake, second, JoinGraphConfig.defaults());
    assertThat(secondLake.tablesRead.get()).as("a current cache is loaded, not rebuilt").isZero();
    assertThat(second.texts.get()).isZero();
    assertThat(loaded).isEqualTo(built);
    assertThat(loaded.findJoinPaths("capital", "region_of_new_zealand", 1)).hasSize(1);

    CountingSource thirdLake = lake();
    CountingEmbedder third = new CountingEmbedder(TestEmbedders.miniLm());
    JoinGraph rebuilt = build(cache, "lake-v2", thirdLake, third, JoinGraphConfig.defaults());
    assertThat(thirdLake.tablesRead.get()).as("a new fingerprint rebuilds").isEqualTo(29);
    assertThat(third.texts.get()).as("names embedded for v1 come from the vector cache").isZero();
    assertThat(rebuilt.fingerprint()).isEqualTo("lake-v2");
    assertThat(rebuilt.edges()).isEqualTo(built.edges());
    assertThat(JoinGraph.read(cache.resolve(JoinGraph.FILE_NAME)).fingerprint()).isEqualTo("lake-v2");
  }

  @Test
  void changedBuildSettingsRebuildButQuerySettingsDoNot(@TempDir Path cache) {
    build(cache, "v1", lake(), new CountingEmbedder(TestEmbedders.miniLm()), JoinGraphConfig.defaults());
    CountingSource queryLake = lake();
    JoinGraph sameBuild = build(cache, "v1", queryLake, new CountingEmbedder(TestEmbedders.miniLm()),
        JoinGraphConfig.builder().hopPenalty(2).paths(5).build());
    assertThat(queryLake.tablesRead.get()).isZero();
    assertThat(sameBuild.config().paths()).isEqualTo(5);

    CountingSource buildLake = lake();
    JoinGraph thesis = build(cache, "v1", buildLake, new CountingEmbedder(TestEmbedders.miniLm()),
        JoinGraphConfig.thesis());
    // The graph is built again, from the kept column sketches: the thesis settings read values with the same caps.
    assertThat(buildLake.tablesRead.get()).isZero();
    assertThat(thesis.buildKey()).isNotEqualTo(sameBuild.buildKey());

    CountingSource cappedLake = lake();
    build(cache, "v1", cappedLake, new CountingEmbedder(TestEmbedders.miniLm()),
        JoinGraphConfig.builder().valueCap(512).build());
    assertThat(cappedLake.tablesRead.get()).as("another value cap sketches again").isEqualTo(29);
  }

  @Test
  void unreadableCacheIsRebuiltAndMalformedFilesAreReported(@TempDir Path cache) throws IOException {
    Path file = cache.resolve(JoinGraph.FILE_NAME);
    Files.writeString(file, "{\"format\":\"lakerewrite-joingraph\",\"version\":1,\"tables\":[");
    JoinGraph graph = JoinGraph.builder().connection(SampleGraphs.connection()).embedder(TestEmbedders.miniLm())
        .cacheDirectory(cache).lakeFingerprint("v1").build();
    assertThat(graph.edges()).isNotEmpty();
    assertThat(JoinGraph.read(file)).isEqualTo(graph);

    Path other = cache.resolve("other.json");
    Files.writeString(other, "{\"format\":\"something-else\"}");
    assertThatThrownBy(() -> JoinGraph.read(other))
        .isInstanceOf(JoinGraphException.class)
        .hasMessageContaining("not a lakerewrite-joingraph file")
        .satisfies(e -> assertThat(((JoinGraphException) e).reason()).isEqualTo(JoinGraphException.Reason.READ_FILE));
    assertThatThrownBy(() -> JoinGraph.read(cache.resolve("missing.json")))
        .isInstanceOf(JoinGraphException.class).hasMessageContaining("missing.json");
  }

  @Test
  void builderExplainsWhatIsMissing(@TempDir Path cache) {
    assertThatThrownBy(() -> JoinGraph.builder().embedder(TestEmbedders.miniLm()).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("connection(...) or columnSource(...)");
    assertThatThrownBy(() -> JoinGraph.builder().connection(SampleGraphs.connection()).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("embedder");
    assertThatThrownBy(() -> JoinGraph.builder().connection(SampleGraphs.connection())
        .embedder(TestEmbedders.miniLm()).cacheDirectory(cache).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("lakeFingerprint");
    assertThatThrownBy(() -> JoinGraph.builder().lakeFingerprint(" "))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
  }
}
