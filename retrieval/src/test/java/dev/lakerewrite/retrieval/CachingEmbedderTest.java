package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachingEmbedderTest {

  /** A deterministic fake model that counts what it embeds. */
  static final class CountingEmbedder implements Embedder {
    final AtomicInteger embedded = new AtomicInteger();
    final String id;

    CountingEmbedder(String id) {
      this.id = id;
    }

    @Override
    public String modelId() {
      return id;
    }

    @Override
    public int dimension() {
      return 4;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      embedded.addAndGet(texts.size());
      List<float[]> out = new ArrayList<>();
      for (String t : texts) {
        float h = t.hashCode();
        float[] v = {t.length(), h % 97, h % 13, 1};
        double n = 0;
        for (float x : v) {
          n += x * x;
        }
        for (int i = 0; i < 4; i++) {
          v[i] /= (float) Math.sqrt(n);
        }
        out.add(v);
      }
      return out;
    }
  }

  @TempDir
  Path dir;

  @Test
  void embedsEachTextOnceAcrossRestarts() {
    CountingEmbedder model = new CountingEmbedder("fake-1");
    List<float[]> first;
    try (CachingEmbedder cache = CachingEmbedder.open(model, dir)) {
      first = cache.embedAll(List.of("Whangārei", "Wellington Region", "Whangārei", ""));
      assertThat(model.embedded.get()).isEqualTo(3);
      assertThat(cache.misses()).isEqualTo(3);
      assertThat(first.get(0)).isEqualTo(first.get(2)).isNotSameAs(first.get(2));
      cache.embedAll(List.of("Wellington Region"));
      assertThat(model.embedded.get()).isEqualTo(3);
      assertThat(cache.hits()).isEqualTo(1);
    }
    try (CachingEmbedder reopened = CachingEmbedder.open(model, dir)) {
      assertThat(reopened.size()).isEqualTo(3);
      List<float[]> again = reopened.embedAll(List.of("Whangārei", "Wellington Region", ""));
      assertThat(model.embedded.get()).isEqualTo(3);
      assertThat(again.get(0)).containsExactly(first.get(0));
      assertThat(again.get(1)).containsExactly(first.get(1));
      assertThat(again.get(2)).containsExactly(first.get(3));
    }
  }

  @Test
  void separatesModels() {
    CountingEmbedder a = new CountingEmbedder("model-a");
    CountingEmbedder b = new CountingEmbedder("model-b");
    try (CachingEmbedder ca = CachingEmbedder.open(a, dir); CachingEmbedder cb = CachingEmbedder.open(b, dir)) {
      ca.embed("x");
      cb.embed("x");
      assertThat(a.embedded.get()).isEqualTo(1);
      assertThat(b.embedded.get()).isEqualTo(1);
      assertThat(ca.file()).isNotEqualTo(cb.file());
    }
  }

  @Test
  void dropsATornRecordAndKeepsTheRest() throws IOException {
    CountingEmbedder model = new CountingEmbedder("fake-torn");
    Path file;
    try (CachingEmbedder cache = CachingEmbedder.open(model, dir)) {
      cache.embedAll(List.of("one", "two"));
      file = cache.file();
    }
    long size = Files.size(file);
    // A crash in the middle of the second record.
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size - 5);
    }
    try (CachingEmbedder cache = CachingEmbedder.open(model, dir)) {
      assertThat(cache.size()).isEqualTo(1);
      assertThat(cache.contains("one")).isTrue();
      cache.embedAll(List.of("two", "three"));
      assertThat(model.embedded.get()).isEqualTo(4);
    }
    try (CachingEmbedder cache = CachingEmbedder.open(model, dir)) {
      assertThat(cache.size()).isEqualTo(3);
    }
  }

  @Test
  void detectsACorruptVector() throws IOException {
    CountingEmbedder model = new CountingEmbedder("fake-corrupt");
    Path file;
    try (CachingEmbedder cache = CachingEmbedder.open(model, dir)) {
      cache.embedAll(List.of("alpha"));
      file = cache.file();
    }
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 9] ^= 0x5A;
    Files.write(file, bytes);
    try (CachingEmbedder cache = CachingEmbedder.open(model, dir)) {
      assertThat(cache.contains("alpha")).isFalse();
      cache.embed("alpha");
      assertThat(model.embedded.get()).isEqualTo(2);
    }
  }

  @Test
  void refusesAFileOfAnotherModel() throws IOException {
    CountingEmbedder model = new CountingEmbedder("fake-header");
    Path file;
    try (CachingEmbedder cache = CachingEmbedder.open(model, dir)) {
      file = cache.file();
    }
    Files.writeString(file, "not a vector file at all");
    assertThatThrownBy(() -> CachingEmbedder.open(model, dir))
        .isInstanceOf(RetrievalException.class).hasMessageContaining("fake-header").hasMessageContaining("delete");
  }

  @Test
  void concurrentWritersLoseNothing() throws Exception {
    CountingEmbedder model = new CountingEmbedder("fake-concurrent");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t;
        futures.add(pool.submit(() -> {
          // Each thread opens its own handle, as separate components of one process do.
          try (CachingEmbedder cache = CachingEmbedder.open(model, dir)) {
            for (int i = 0; i < 200; i++) {
              cache.embedAll(List.of("v" + i, "w" + (i + offset * 1000)));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    try (CachingEmbedder cache = CachingEmbedder.open(model, dir)) {
      assertThat(cache.size()).isEqualTo(200 + 800);
      float[] expected = model.embedAll(List.of("w3150")).get(0);
      assertThat(cache.embed("w3150")).containsExactly(expected);
    }
  }

  @Test
  void refusesToCacheACache() {
    try (CachingEmbedder cache = CachingEmbedder.open(new CountingEmbedder("x"), dir)) {
      assertThatThrownBy(() -> CachingEmbedder.open(cache, dir)).isInstanceOf(IllegalArgumentException.class);
      assertThat(CachingEmbedder.wrap(cache, dir)).isSameAs(cache);
    }
  }

  @Test
  void anInterruptedCallerKeepsItsInterruptAndDoesNotBreakTheCacheForOthers() throws Exception {
    CountingEmbedder model = new CountingEmbedder("fake-interrupt");
    try (CachingEmbedder cache = CachingEmbedder.open(model, dir)) {
      List<float[]> stored = cache.embedAll(List.of("Whangārei", "Wellington Region"));

      // A cancelled rewrite: its thread is interrupted while it reads and writes vectors.
      Thread.currentThread().interrupt();
      try {
        assertThat(cache.embedAll(List.of("Whangārei"))).containsExactly(stored.get(0));
        cache.embedAll(List.of("Auckland Region"));
        assertThat(Thread.currentThread().isInterrupted()).as("the caller's interrupt is kept").isTrue();
      } finally {
        Thread.interrupted();
      }

      // Every other thread still reads the file: a FileChannel closed by that interrupt would fail here.
      ExecutorService other = Executors.newSingleThreadExecutor();
      try {
        List<float[]> again = other.submit(() -> cache.embedAll(
            List.of("Wellington Region", "Auckland Region"))).get();
        assertThat(again.get(0)).isEqualTo(stored.get(1));
        assertThat(model.embedded.get()).as("Auckland Region was stored by the interrupted caller").isEqualTo(3);
      } finally {
        other.shutdownNow();
      }
    }
    try (CachingEmbedder reopened = CachingEmbedder.open(model, dir)) {
      assertThat(reopened.size()).isEqualTo(3);
    }
  }
}
