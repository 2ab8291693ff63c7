package dev.lakerewrite.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/** Runs a task per item on a few daemon threads and waits for all; the first failure is rethrown. */
final class Parallel {
  private Parallel() {}

  static <T> void forEach(List<T> items, int threads, String threadName, Consumer<T> task) {
    if (items.isEmpty()) {
      return;
    }
    int n = Math.max(1, Math.min(threads, items.size()));
    if (n == 1) {
      items.forEach(task);
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(n, r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> futures = new ArrayList<>(items.size());
      for (T item : items) {
        futures.add(pool.submit(() -> task.accept(item)));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LakeRewriteException("interrupted while " + threadName + " was running", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new LakeRewriteException(threadName + " failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }
}
