package dev.lakerewrite.retrieval;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Turns text into L2-normalised dense vectors, so that cosine similarity is a dot product. Implementations are
 * thread-safe and expensive to create: make one per process and share it.
 */
public interface Embedder extends AutoCloseable {

  /** A stable identifier of the model (and its pooling), used to key caches: vectors of two ids never mix. */
  String modelId();

  /** Number of dimensions of every vector this embedder returns. */
  int dimension();

  /** Embeds one text. */
  default float[] embed(String text) {
    Objects.requireNonNull(text, "text");
    return embedAll(List.of(text)).get(0);
  }

  /** Embeds texts in order; implementations batch internally. */
  List<float[]> embedAll(List<String> texts);

  /** Cosine similarity of two L2-normalised vectors (their dot product), O(d). */
  static double cosine(float[] a, float[] b) {
    if (a.length != b.length) {
      throw new IllegalArgumentException(
          "vectors differ in dimension: " + a.length + " vs " + b.length);
    }
    double dot = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
    }
    return dot;
  }

  /** Helper for implementations: splits {@code texts} into batches of at most {@code batchSize}. */
  static List<List<String>> batches(List<String> texts, int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1, was " + batchSize);
    }
    List<List<String>> out = new ArrayList<>();
    for (int i = 0; i < texts.size(); i += batchSize) {
      out.add(texts.subList(i, Math.min(texts.size(), i + batchSize)));
    }
    return out;
  }

  @Override
  default void close() {}
}
