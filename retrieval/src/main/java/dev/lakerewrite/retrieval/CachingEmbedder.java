package dev.lakerewrite.retrieval;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * An {@link Embedder} that remembers every vector on disk, keyed by the delegate's {@link Embedder#modelId()} and
 * the exact text, so that a lake is embedded once and later runs (and other processes) reuse the vectors (DESIGN
 * principle 3).
 *
 * <p>Vectors live in one append-only file per model in the given directory (format in {@link EmbeddingStore}):
 * safe when several threads and several processes use the same directory at once (appends take an exclusive file
 * lock; a record torn by a crash is detected by its checksum and dropped). Only the texts and file offsets are
 * held in memory; vectors are read back with positional reads. Thread-safe.
 *
 * <p>Closing this embedder releases the file but does not close the delegate, which is usually shared.
 */
public final class CachingEmbedder implements Embedder {
  private final Embedder delegate;
  private final EmbeddingStore store;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final AtomicBoolean closed = new AtomicBoolean();

  private CachingEmbedder(Embedder delegate, EmbeddingStore store) {
    this.delegate = delegate;
    this.store = store;
  }

  /**
   * Opens (creating if needed) the cache of {@code delegate}'s vectors in {@code directory}.
   *
   * @throws RetrievalException if the directory cannot be created or holds a cache file of another model
   */
  public static CachingEmbedder open(Embedder delegate, Path directory) {
    Objects.requireNonNull(delegate, "delegate");
    Objects.requireNonNull(directory, "directory");
    if (delegate instanceof CachingEmbedder) {
      throw new IllegalArgumentException("delegate is already a CachingEmbedder; cache the model itself");
    }
    return new CachingEmbedder(delegate,
        EmbeddingStore.acquire(directory, delegate.modelId(), delegate.dimension()));
  }

  /** Returns {@code embedder} if it already caches, else a cache of it in {@code directory}. */
  public static CachingEmbedder wrap(Embedder embedder, Path directory) {
    return embedder instanceof CachingEmbedder c ? c : open(embedder, directory);
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
  public List<float[]> embedAll(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    if (closed.get()) {
      throw new IllegalStateException("this CachingEmbedder is closed");
    }
    float[][] out = new float[texts.size()][];
    Map<String, List<Integer>> missing = new LinkedHashMap<>();
    for (int i = 0; i < out.length; i++) {
      String text = texts.get(i);
      if (text == null) {
        throw new IllegalArgumentException("texts[" + i + "] is null");
      }
      float[] cached = store.get(text);
      if (cached != null) {
        out[i] = cached;
        hits.increment();
      } else {
        missing.computeIfAbsent(text, k -> new ArrayList<>(1)).add(i);
      }
    }
    if (!missing.isEmpty()) {
      List<String> todo = new ArrayList<>(missing.keySet());
      List<float[]> computed = delegate.embedAll(todo);
      misses.add(todo.size());
      store.putAll(todo, computed);
      for (int k = 0; k < todo.size(); k++) {
        float[] vector = computed.get(k);
        boolean first = true;
        for (int i : missing.get(todo.get(k))) {
          out[i] = first ? vector : vector.clone();
          first = false;
        }
      }
    }
    return Arrays.asList(out);
  }

  /** Whether {@code text}'s vector is in the cache (memory or disk). */
  public boolean contains(String text) {
    return store.contains(Objects.requireNonNull(text, "text"));
  }

  /** Number of vectors in the cache file(s) as this process knows them. */
  public int size() {
    return store.size();
  }

  /** Texts served from the cache since this embedder was opened. */
  public long hits() {
    return hits.sum();
  }

  /** Texts the delegate had to embed since this embedder was opened. */
  public long misses() {
    return misses.sum();
  }

  /** The embedder that computes missing vectors. */
  public Embedder delegate() {
    return delegate;
  }

  /** The cache file. */
  public Path file() {
    return store.file();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      store.release();
    }
  }

  @Override
  public String toString() {
    return "CachingEmbedder[" + delegate.modelId() + " at " + store.file() + ", " + store.size() + " vectors]";
  }
}
