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

  @Test
  void builderReusesTheCachedGraphUntilTheFingerprintChanges(@TempDir Path cache) {
    CountingEmbedder first = new CountingEmbedder(TestEmbedders.miniLm());
    JoinGraph built = JoinGraph.builder().connection(SampleGraphs.connection()).embedder(first)
        .cacheDirectory(cache).lakeFingerprint("lake-v1").build();
    assertThat(first.texts.get()).isPositive();
    assertThat(cache.resolve(JoinGraph.FILE_NAME)).isRegularFile();

    CountingEmbedder second = new CountingEmbedder(TestEmbedders.miniLm());
    JoinGraph loaded = JoinGraph.builder().connection(SampleGraphs.connection()).embedder(second)
        .cacheDirectory(cache).lakeFingerprint("lake-v1").build();
    assertThat(second.texts.get()).as("a current cache is loaded, not rebuilt").isZero();
    assertThat(loaded).isEqualTo(built);
    assertThat(loaded.findJoinPaths("capital", "region_of_new_zealand", 1)).hasSize(1);

    CountingEmbedder third = new CountingEmbedder(TestEmbedders.miniLm());
    JoinGraph rebuilt = JoinGraph.builder().connection(SampleGraphs.connection()).embedder(third)
        .cacheDirectory(cache).lakeFingerprint("lake-v2").build();
    assertThat(third.texts.get()).as("a new fingerprint rebuilds").isPositive();
    assertThat(rebuilt.fingerprint()).isEqualTo("lake-v2");
    assertThat(rebuilt.edges()).isEqualTo(built.edges());
    assertThat(JoinGraph.read(cache.resolve(JoinGraph.FILE_NAME)).fingerprint()).isEqualTo("lake-v2");
  }

  @Test
  void changedBuildSettingsRebuildButQuerySettingsDoNot(@TempDir Path cache) {
    JoinGraph.builder().connection(SampleGraphs.connection()).embedder(TestEmbedders.miniLm())
        .cacheDirectory(cache).lakeFingerprint("v1").build();
    CountingEmbedder query = new CountingEmbedder(TestEmbedders.miniLm());
    JoinGraph sameBuild = JoinGraph.builder().connection(SampleGraphs.connection()).embedder(query)
        .cacheDirectory(cache).lakeFingerprint("v1")
        .config(JoinGraphConfig.builder().hopPenalty(2).paths(5).build()).build();
    assertThat(query.texts.get()).isZero();
    assertThat(sameBuild.config().paths()).isEqualTo(5);

    CountingEmbedder build = new CountingEmbedder(TestEmbedders.miniLm());
    JoinGraph thesis = JoinGraph.builder().connection(SampleGraphs.connection()).embedder(build)
        .cacheDirectory(cache).lakeFingerprint("v1").config(JoinGraphConfig.thesis()).build();
    assertThat(build.texts.get()).isPositive();
    assertThat(thesis.buildKey()).isNotEqualTo(sameBuild.buildKey());
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
