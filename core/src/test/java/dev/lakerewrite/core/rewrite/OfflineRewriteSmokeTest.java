package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.TestLakes;
import org.junit.jupiter.api.Test;

class OfflineRewriteSmokeTest {
  @Test
  void smoke() {
    String[] queries = {
        "SELECT name, population FROM nz_regions WHERE capital = 'Whangarei'",
        "SELECT name, iso_code FROM nz_regions ORDER BY name",
        "SELECT region, capital_city, capital_population FROM nz_regions ORDER BY region",
        "SELECT r.name, rc.iso_code FROM regions r JOIN region_codes rc ON rc.region_id = r.id WHERE r.name LIKE '%District' ORDER BY r.name",
        "SELECT r.name, c.website FROM regions r JOIN councils c ON c.region_id = r.id ORDER BY r.name",
        "SELECT COUNT(*) AS english_films FROM films WHERE language = 'English'",
    };
    for (String q : queries) {
      long t0 = System.nanoTime();
      RewriteResult r = Rewriter.offline().rewrite(q, TestLakes.sample());
      System.out.println("=== " + q + "  (" + (System.nanoTime() - t0) / 1_000_000 + " ms)");
      System.out.println(r.stopReason() + " " + r.stopDetail());
      r.candidates().forEach(c -> System.out.println("  [" + c.index() + "] " + c.sql().replace('\n', ' ') + " -> "
          + c.error().map(e -> e.summary()).orElseGet(() -> c.result().get().rowCount() + " rows") + " score " + c.score()));
      r.result().ifPresent(t -> System.out.println(t.preview(4)));
      r.trace().events("action").forEach(e -> System.out.println("  action " + e.data()));
      r.trace().events("decision").forEach(e -> System.out.println("  decision " + e.data().get("actions") + " | " + e.data().get("reasoning")));
    }
  }
}
