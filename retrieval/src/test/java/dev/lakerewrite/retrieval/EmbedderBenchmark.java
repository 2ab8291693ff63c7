package dev.lakerewrite.retrieval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints all-MiniLM-L6-v2 throughput on this machine: strings per second embedded one at a time and in batches of
 * several sizes, for short (column-name-like) and long (table-snippet-like) texts.
 *
 * <p>Run: {@code mvn -B -q -pl retrieval test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.lakerewrite.retrieval.EmbedderBenchmark}
 */
public final class EmbedderBenchmark {
  private EmbedderBenchmark() {}

  public static void main(String[] args) {
    System.setProperty("ai.djl.offline", "true");
    long t0 = System.nanoTime();
    MiniLmEmbedder shared = MiniLmEmbedder.shared();
    System.out.printf(Locale.ROOT, "model load: %.0f ms%n", (System.nanoTime() - t0) / 1e6);
    List<String> shortTexts = new ArrayList<>();
    List<String> longTexts = new ArrayList<>();
    for (int i = 0; i < 512; i++) {
      shortTexts.add("column number " + i + " population " + (i % 7 == 0 ? "Whangārei" : "capital"));
      StringBuilder sb = new StringBuilder("region of new zealand");
      for (int c = 0; c < 30; c++) {
        sb.append(" column ").append((i * 31 + c) % 97).append(" label");
      }
      longTexts.add(sb.toString());
    }
    System.out.printf(Locale.ROOT, "tokens: short %d, long %d%n", shared.countTokens(shortTexts.get(7)),
        shared.countTokens(longTexts.get(0)));
    // Warm-up.
    shared.embedAll(shortTexts.subList(0, 64));
    for (String kind : List.of("short", "long")) {
      List<String> texts = kind.equals("short") ? shortTexts : longTexts;
      int n = kind.equals("short") ? 256 : 64;
      long s = System.nanoTime();
      for (int i = 0; i < n; i++) {
        shared.embed(texts.get(i));
      }
      double single = n / ((System.nanoTime() - s) / 1e9);
      System.out.printf(Locale.ROOT, "%-5s single: %8.1f strings/s%n", kind, single);
      for (int batch : new int[] {8, 32, 128}) {
        try (MiniLmEmbedder e = MiniLmEmbedder.builder().batchSize(batch).build()) {
          e.embedAll(texts.subList(0, batch));
          long b = System.nanoTime();
          e.embedAll(texts);
          double rate = texts.size() / ((System.nanoTime() - b) / 1e9);
          System.out.printf(Locale.ROOT, "%-5s batch %3d: %8.1f strings/s%n", kind, batch, rate);
        }
      }
    }
  }
}
