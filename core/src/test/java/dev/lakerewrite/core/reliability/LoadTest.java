package dev.lakerewrite.core.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.LakeRewriter;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.TestLakes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 9, load: eight threads rewrite different queries of the dev set on one indexed lake, round after round,
 * with the shared offline rewriter. Every rewrite equals the one-thread rewrite of the same query (SQL, stop
 * reason, result), and nothing leaks: sessions, Java threads (beyond the documented daemon pools), spill files,
 * native memory (resident set growth between two equal loads stays bounded once warm).
 */
class LoadTest {
  /** Sixteen dev-set user queries the offline rewriter handles in well under a second each. */
  static final List<String> QUERIES = List.of(
      "SELECT COUNT(*) AS region_count FROM new_zealand_regions",
      "SELECT r.name, rc.iso_code FROM regions r JOIN region_codes rc ON rc.region_id = r.id WHERE r.name LIKE '%District' ORDER BY r.name",
      "SELECT district, council FROM districts WHERE district LIKE '% City' ORDER BY district",
      "SELECT city, elevation_m FROM cities ORDER BY elevation_m DESC LIMIT 3",
      "SELECT city FROM cities WHERE phone_area_code = 3 ORDER BY city",
      "SELECT place_name, latitude FROM places WHERE latitude < -45 ORDER BY latitude",
      "SELECT name, website FROM nz_councils WHERE name LIKE '%Regional Council' ORDER BY name",
      "SELECT area, capital_city FROM nz_capitals WHERE capital_city IS NOT NULL ORDER BY area",
      "SELECT country, population FROM countries ORDER BY population DESC LIMIT 5",
      "SELECT c.name FROM countries c JOIN currencies cur ON c.currency_id = cur.id WHERE cur.code = 'EUR' ORDER BY c.name",
      "SELECT c.name, cc.iso3 FROM countries c JOIN country_codes cc ON cc.country_id = c.id WHERE c.continent = 'Europe' ORDER BY c.name",
      "SELECT name, gini FROM countries WHERE gini > 0.4 ORDER BY gini DESC",
      "SELECT c.name, pc.commons_category FROM countries c JOIN people_categories pc ON pc.id = c.people_category_id WHERE c.continent = 'South America' ORDER BY c.name",
      "SELECT name, runtime_minutes FROM movies WHERE runtime_minutes > 100 ORDER BY runtime_minutes DESC, name",
      "SELECT d.name AS district, r.iso_code FROM districts d JOIN regions r ON r.id = d.region_id ORDER BY d.name",
      "SELECT c.council_name, c.website, d.population FROM councils c JOIN districts d ON c.council_name = d.name ORDER BY d.population DESC");
  static final int THREADS = 8;
  static final int ROUNDS = 2;
  /** Java thread pools the library keeps for the life of the JVM (daemons, created on first use). */
  static final List<String> DOCUMENTED_POOLS = List.of("lakerewrite-query-canceller", "lakerewrite-llm-call",
      "ForkJoinPool.commonPool-worker", "process reaper");
  /** Resident-set growth allowed between two equal loads once warm. */
  static final long RSS_GROWTH_LIMIT = 256L << 20;

  /** What must not differ between threads: the SQL, why the loop stopped, and the result. */
  record Outcome(String sql, String stop, String result) {
    static Outcome of(RewriteResult r) {
      return new Outcome(r.sql(), r.stopReason().name(),
          r.result().map(t -> t.columnNames() + " " + t.rows()).orElse(r.error().map(e -> e.summary()).orElse("")));
    }
  }

  @Test
  void eightThreadsGiveTheResultsOfOneAndLeakNothing() throws Exception {
    DataLake lake = TestLakes.sample();
    lake.index();
    Path spill = Fingerprints.tempDirectory(lake);
    LakeRewriter rewriter = Rewriter.builder().build();

    List<Outcome> expected = new ArrayList<>();
    for (String q : QUERIES) {
      expected.add(Outcome.of(rewriter.rewrite(q, lake)));
    }
    int sessions = lake.openSessionCount();
    Set<String> threadsBefore = liveThreads();
    long rssWarm = residentBytes();

    int rewrites = load(lake, rewriter, expected);
    long rssFirst = residentBytes();
    rewrites += load(lake, rewriter, expected);
    long rssSecond = residentBytes();

    System.out.printf("[reliability] load: %d concurrent rewrites on %d threads; RSS warm %d MB, after load 1 %d MB,"
        + " after load 2 %d MB%n", rewrites, THREADS, rssWarm >> 20, rssFirst >> 20, rssSecond >> 20);
    assertThat(lake.openSessionCount()).as("sessions left open").isEqualTo(sessions);
    Set<String> added = new TreeSet<>(liveThreads());
    added.removeAll(threadsBefore);
    added.removeIf(t -> DOCUMENTED_POOLS.stream().anyMatch(t::startsWith));
    assertThat(added).as("threads left running").isEmpty();
    assertThat(Fingerprints.listing(spill)).as("spill files").isEmpty();
    assertThat(rssSecond - rssFirst).as("resident set growth of the second load").isLessThan(RSS_GROWTH_LIMIT);
  }

  /** One load: ROUNDS rounds; in each, thread t rewrites queries 2t and 2t+1 (shifted by the round). */
  static int load(DataLake lake, LakeRewriter rewriter, List<Outcome> expected) throws Exception {
    // The workers are joined at the end: a pool reports termination a moment before its threads have died, and
    // the leak check would count them.
    List<Thread> workers = java.util.Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(THREADS, r -> {
      Thread t = new Thread(r, "load-worker");
      workers.add(t);
      return t;
    });
    int done = 0;
    try {
      for (int round = 0; round < ROUNDS; round++) {
        List<Future<List<String>>> futures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          int first = (2 * t + 3 * round) % QUERIES.size();
          futures.add(pool.submit(() -> {
            List<String> mismatches = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
              int i = (first + k) % QUERIES.size();
              Outcome got = Outcome.of(rewriter.rewrite(QUERIES.get(i), lake));
              if (!got.equals(expected.get(i))) {
                mismatches.add(QUERIES.get(i) + "\n  one thread: " + expected.get(i) + "\n  under load: " + got);
              }
            }
            return mismatches;
          }));
        }
        List<String> mismatches = new ArrayList<>();
        for (Future<List<String>> f : futures) {
          mismatches.addAll(f.get(5, TimeUnit.MINUTES));
          done += 2;
        }
        assertThat(mismatches).as("rewrites that differ under load").isEmpty();
      }
    } finally {
      pool.shutdown();
      assertThat(pool.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
      for (Thread t : workers) {
        t.join(TimeUnit.SECONDS.toMillis(10));
      }
    }
    return done;
  }

  static Set<String> liveThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** VmRSS of this process (Linux), after a GC so that the Java heap settles; 0 where /proc is missing. */
  static long residentBytes() throws IOException {
    System.gc();
    Path status = Path.of("/proc/self/status");
    if (!Files.exists(status)) {
      return 0;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    return 0;
  }
}
