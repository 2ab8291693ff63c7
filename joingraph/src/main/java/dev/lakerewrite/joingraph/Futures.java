package dev.lakerewrite.joingraph;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waits for the build's parallel tasks, rethrowing a task's own exception rather than a wrapper. */
final class Futures {
  private Futures() {}

  /** The results in order; {@code what} names the stage for the interruption message. */
  static <T> List<T> getAll(List<Future<T>> futures, String what) {
    List<T> results = new ArrayList<>(futures.size());
    try {
      for (Future<T> f : futures) {
        results.add(f.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while " + what, e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause()
          : new IllegalStateException(what + " failed", e.getCause());
    }
    return results;
  }
}
