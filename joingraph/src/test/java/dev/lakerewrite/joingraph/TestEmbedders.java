package dev.lakerewrite.joingraph;

import dev.lakerewrite.retrieval.CachingEmbedder;
import dev.lakerewrite.retrieval.Embedder;
import dev.lakerewrite.retrieval.MiniLmEmbedder;
import java.nio.file.Path;

/** The real all-MiniLM-L6-v2 embedder, with its vectors cached under target/ across test runs. */
final class TestEmbedders {
  private static Embedder miniLm;

  private TestEmbedders() {}

  static synchronized Embedder miniLm() {
    if (miniLm == null) {
      miniLm = CachingEmbedder.open(MiniLmEmbedder.shared(), Path.of("target", "embedding-cache"));
    }
    return miniLm;
  }
}
