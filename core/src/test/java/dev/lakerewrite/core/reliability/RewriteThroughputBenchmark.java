package dev.lakerewrite.core.reliability;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeRewriter;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.TestLakes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Throughput of the offline rewriter on the WikiDBs sample lake (indexed once) at 1, 2, 4 and 8 threads: each
 * configuration rewrites the load test's 16 dev-set queries {@value #PASSES} times, threads taking the next query
 * from a shared counter. Prints rewrites per second and the speed-up over one thread.
 *
 * <pre>
 * mvn -B -q -pl core test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.lakerewrite.core.reliability.RewriteThroughputBenchmark \
 *   -Dlakerewrite.sample=$PWD/../shared/data/wikidbs-sample
 * </pre>
 */
public final class RewriteThroughputBenchmark {
  static final int PASSES = 3;

  private RewriteThroughputBenchmark() {}

  public static void main(String[] args) throws Exception {
    DataLake lake = TestLakes.sample();
    long t0 = System.nanoTime();
    System.out.println("index: " + lake.index().summary() + " (" + (System.nanoTime() - t0) / 1_000_000 + " ms)");
    LakeRewriter rewriter = Rewriter.builder().build();
    for (String q : LoadTest.QUERIES) {
      rewriter.rewrite(q, lake); // warm-up: caches, JIT
    }
    System.out.printf("%-8s %10s %12s %10s %9s%n", "threads", "rewrites", "seconds", "rewrites/s", "speed-up");
    double single = 0;
    for (int threads : new int[] {1, 2, 4, 8}) {
      int total = LoadTest.QUERIES.size() * PASSES;
      AtomicInteger next = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      long start = System.nanoTime();
      List<Future<Integer>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          int done = 0;
          for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
            if (!rewriter.rewrite(LoadTest.QUERIES.get(i % LoadTest.QUERIES.size()), lake).stopDetail().isEmpty()) {
              done++;
            }
          }
          return done;
        }));
      }
      int done = 0;
      for (Future<Integer> f : futures) {
        done += f.get();
      }
      pool.shutdown();
      double seconds = (System.nanoTime() - start) / 1e9;
      double rate = done / seconds;
      if (threads == 1) {
        single = rate;
      }
      System.out.printf("%-8d %10d %12.2f %10.2f %8.2fx%n", threads, done, seconds, rate, rate / single);
    }
    System.out.println("sessions open at the end: " + lake.openSessionCount() + "; available processors: "
        + Runtime.getRuntime().availableProcessors());
    lake.close();
  }
}
