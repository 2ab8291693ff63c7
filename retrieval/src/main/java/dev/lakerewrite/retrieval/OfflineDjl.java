package dev.lakerewrite.retrieval;

import ai.djl.engine.Engine;

/**
 * Keeps DJL off the network and on the ONNX Runtime engine. DJL downloads native libraries and model-zoo files
 * when it cannot find them, and on EC2 it sends telemetry; with {@code ai.djl.offline=true} it does neither (the
 * tokenizers and ONNX Runtime jars bundle their native libraries). DJL's ONNX Runtime engine must create the
 * process-wide {@code OrtEnvironment} itself (it sets thread pools), so it is initialised here, before any other
 * library can create one.
 */
final class OfflineDjl {
  private static volatile Engine engine;

  private OfflineDjl() {}

  /** Sets DJL's offline switches unless the application chose otherwise. Idempotent. */
  static void configure() {
    setIfAbsent("ai.djl.offline", "true");
    setIfAbsent("OPT_OUT_TRACKING", "true");
    // Without PyTorch there is no alternative engine; do not look for one.
    setIfAbsent("ai.djl.onnx.disable_alternative", "true");
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }

  /** DJL's ONNX Runtime engine, initialised on first call. */
  static Engine onnxRuntime() {
    Engine e = engine;
    if (e == null) {
      synchronized (OfflineDjl.class) {
        e = engine;
        if (e == null) {
          configure();
          try {
            e = Engine.getEngine(MiniLmEmbedder.ENGINE);
          } catch (RuntimeException | Error failure) {
            throw new RetrievalException("cannot start DJL's " + MiniLmEmbedder.ENGINE + " engine; if another"
                + " library created an ai.onnxruntime.OrtEnvironment first, create MiniLmEmbedder.shared() before"
                + " it", failure);
          }
          engine = e;
        }
      }
    }
    return e;
  }
}
