package dev.lakerewrite.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.rewrite.StopReason;
import dev.lakerewrite.retrieval.RetrievalException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A component that fails while the lake is indexed (here the retrieval index, whose cache folder is a file) does
 * not escape {@code rewrite}: the result says INDEX_FAILED and why; {@link DataLake#index()} throws it as a
 * {@link LakeIndexException} (the library's family) with the component's exception as the cause.
 */
class IndexFailureTest {

  @Test
  void rewriteReturnsAResultSayingTheIndexFailedAndIndexThrowsTheLibrarysException(@TempDir Path tmp)
      throws Exception {
    Path folder = FolderLakeTest.mixedLake(tmp);
    try (DataLake lake = DataLake.builder().cacheDirectory(tmp.resolve("cache")).fromFolder(folder)) {
      // The retrieval index cannot create its folder where a file stands.
      Files.createDirectories(lake.cacheDirectory());
      Files.writeString(lake.cacheDirectory().resolve("retrieval"), "not a folder");

      RewriteResult r = Rewriter.rewrite("SELECT town FROM places WHERE people > 60000", lake);
      assertThat(r.stopReason()).isEqualTo(StopReason.INDEX_FAILED);
      assertThat(r.succeeded()).isFalse();
      assertThat(r.candidates()).isEmpty();
      assertThat(r.sql()).isEmpty();
      QueryError error = r.error().orElseThrow();
      assertThat(error.message()).contains("the lake's indexes could not be built", "cannot index the lake",
          "RetrievalException", lake.cacheDirectory().resolve("retrieval").toString());
      assertThat(r.trace().events("result")).singleElement()
          .satisfies(e -> assertThat(e.data()).containsEntry("stop", "INDEX_FAILED"));

      assertThatThrownBy(lake::index).isInstanceOf(LakeIndexException.class)
          .isInstanceOf(LakeRewriteException.class)
          .hasMessageContaining("cannot index the lake").hasMessageContaining("RetrievalException")
          .hasCauseInstanceOf(RetrievalException.class);

      // Once the obstacle is gone, the same lake indexes and rewrites.
      Files.delete(lake.cacheDirectory().resolve("retrieval"));
      RewriteResult again = Rewriter.rewrite("SELECT town FROM places WHERE people > 60000", lake);
      assertThat(again.stopReason()).isNotEqualTo(StopReason.INDEX_FAILED);
      assertThat(again.succeeded()).isTrue();
    }
  }
}
