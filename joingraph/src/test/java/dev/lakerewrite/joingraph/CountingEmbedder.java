package dev.lakerewrite.joingraph;

import dev.lakerewrite.retrieval.Embedder;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts the texts an embedder is asked for (to see whether a build embedded anything). */
final class CountingEmbedder implements Embedder {
  private final Embedder delegate;
  final AtomicInteger texts = new AtomicInteger();

  CountingEmbedder(Embedder delegate) {
    this.delegate = delegate;
  }

  @Override
  public String modelId() {
    return delegate.modelId();
  }

  @Override
  public int dimension() {
    return delegate.dimension();
  }

  @Override
  public List<float[]> embedAll(List<String> batch) {
    texts.addAndGet(batch.size());
    return delegate.embedAll(batch);
  }
}
