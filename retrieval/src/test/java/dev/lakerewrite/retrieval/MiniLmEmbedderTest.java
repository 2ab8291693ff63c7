package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MiniLmEmbedderTest {
  private static final String LONG_TEXT = String.join(" ", java.util.Collections.nCopies(40,
      "The Whangārei District lies in the Northland Region of New Zealand's North Island."));
  private static final List<String> TEXTS = List.of(
      "region of new zealand",
      "Whangārei",
      "Whangarei",
      "Encyclopædia Britannica Online ID",
      "ニュージーランドの地域",
      "新西兰的地区",
      "🐉 fictional creature 🦄",
      "nz regions name population capital name population capital",
      "A",
      "  spaces   around  ",
      "1992 Winter Olympics",
      "ÉTATS-UNIS d'Amérique",
      LONG_TEXT);

  static MiniLmEmbedder embedder;
  static AllMiniLmL6V2EmbeddingModel reference;

  @BeforeAll
  static void load() {
    // Ours first: DJL's engine must create the OrtEnvironment before LangChain4j does.
    embedder = MiniLmEmbedder.shared();
    reference = new AllMiniLmL6V2EmbeddingModel();
  }

  @Test
  void vectorsEqualTheReferenceImplementation() {
    List<float[]> batched = embedder.embedAll(TEXTS);
    for (int i = 0; i < TEXTS.size(); i++) {
      float[] expected = reference.embed(TEXTS.get(i)).content().vector();
      float[] single = embedder.embed(TEXTS.get(i));
      assertThat(single).hasSize(384);
      assertThat(Embedder.cosine(single, expected)).as("single: %s", TEXTS.get(i)).isGreaterThan(0.9999);
      assertThat(Embedder.cosine(batched.get(i), expected)).as("batched: %s", TEXTS.get(i)).isGreaterThan(0.9999);
    }
  }

  @Test
  void truncatesAt128TokensLikeTheReference() {
    assertThat(embedder.countTokens(LONG_TEXT)).isEqualTo(128);
    // Everything after the 128th token is ignored: appending text changes nothing.
    float[] longer = embedder.embed(LONG_TEXT + " Completely different words about volcanoes and rugby.");
    assertThat(Embedder.cosine(longer, embedder.embed(LONG_TEXT))).isCloseTo(1.0, within(1e-5));
    float[] expected = reference.embed(LONG_TEXT).content().vector();
    assertThat(Embedder.cosine(embedder.embed(LONG_TEXT), expected)).isGreaterThan(0.9999);
  }

  @Test
  void embedsTheEmptyStringWhichTheReferenceRejects() {
    assertThatThrownBy(() -> reference.embed("")).isInstanceOf(IllegalArgumentException.class);
    float[] empty = embedder.embed("");
    assertThat(norm(empty)).isCloseTo(1.0, within(1e-5));
    assertThat(Embedder.cosine(empty, embedder.embed("   "))).isCloseTo(1.0, within(1e-5));
    assertThat(embedder.countTokens("")).isEqualTo(2);
  }

  @Test
  void vectorsAreUnitLengthAndSemanticallyOrdered() {
    List<float[]> v = embedder.embedAll(List.of("capital city", "seat of government", "protein acetyltransferase"));
    for (float[] x : v) {
      assertThat(norm(x)).isCloseTo(1.0, within(1e-5));
    }
    assertThat(Embedder.cosine(v.get(0), v.get(1))).isGreaterThan(Embedder.cosine(v.get(0), v.get(2)));
  }

  @Test
  void isThreadSafeAndBatchingDoesNotChangeVectors() throws Exception {
    List<float[]> expected = new ArrayList<>();
    for (String t : TEXTS) {
      expected.add(embedder.embed(t));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<float[]>>> futures = new ArrayList<>();
      for (int k = 0; k < 8; k++) {
        futures.add(pool.submit(() -> embedder.embedAll(TEXTS)));
      }
      for (Future<List<float[]>> f : futures) {
        List<float[]> got = f.get();
        for (int i = 0; i < TEXTS.size(); i++) {
          assertThat(Embedder.cosine(got.get(i), expected.get(i))).isGreaterThan(0.99999);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void rejectsNullTextsWithTheirPosition() {
    List<String> withNull = new ArrayList<>(List.of("a", "b"));
    withNull.add(null);
    assertThatThrownBy(() -> embedder.embedAll(withNull))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("texts[2]");
    assertThatThrownBy(() -> MiniLmEmbedder.builder().batchSize(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batchSize");
  }

  @Test
  void sharedInstanceIsOneAndSurvivesClose() {
    MiniLmEmbedder s = MiniLmEmbedder.shared();
    s.close();
    assertThat(MiniLmEmbedder.shared()).isSameAs(s);
    assertThat(s.embed("still open")).hasSize(384);
    assertThat(s.modelId()).isEqualTo(MiniLmEmbedder.MODEL_ID);
    assertThat(s.dimension()).isEqualTo(384);
  }

  static double norm(float[] v) {
    double s = 0;
    for (float x : v) {
      s += x * x;
    }
    return Math.sqrt(s);
  }
}
