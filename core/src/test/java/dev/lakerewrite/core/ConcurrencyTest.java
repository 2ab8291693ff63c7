package dev.lakerewrite.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ConcurrencyTest {

  @Test
  void eightThreadsWithTheirOwnSessionsSeeTheSameResultsAsOne() throws Exception {
    DataLake lake = TestLakes.sample();
    List<String> queries = new ArrayList<>();
    for (String t : lake.catalog().tableNames()) {
      queries.add("SELECT * FROM " + Sql.identifier(t) + " ORDER BY ALL");
    }
    List<ResultTable> expected = new ArrayList<>();
    try (LakeSession s = lake.openSession()) {
      for (String q : queries) {
        expected.add(s.execute(q).table());
      }
    }
    int before = lake.openSessionCount();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<List<ResultTable>>> futures = new ArrayList<>();
      for (int thread = 0; thread < 8; thread++) {
        futures.add(pool.submit(() -> {
          List<ResultTable> got = new ArrayList<>();
          try (LakeSession s = lake.openSession()) {
            for (int round = 0; round < 3; round++) {
              got.clear();
              for (String q : queries) {
                got.add(s.execute(q).table());
              }
            }
          }
          return got;
        }));
      }
      for (Future<List<ResultTable>> f : futures) {
        assertThat(f.get()).isEqualTo(expected);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(lake.openSessionCount()).isEqualTo(before);
  }
}
