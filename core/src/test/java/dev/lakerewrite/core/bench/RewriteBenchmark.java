package dev.lakerewrite.core.bench;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.LakeRewriter;
import dev.lakerewrite.core.Rewriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Offline rewrite latency on the WikiDBs sample once the lake is indexed: a warm-up pass, then {@code rounds}
 * timed passes over analyst queries of every kind; prints the median, p90 and mean per query.
 * Run: {@code bin/bench core RewriteBenchmark [rounds]}.
 */
public final class RewriteBenchmark {
  static final List<String> QUERIES = List.of(
      "SELECT name, population FROM nz_regions WHERE capital = 'Whangarei'",
      "SELECT name, iso_code FROM nz_regions ORDER BY name",
      "SELECT region, capital_city, capital_population FROM nz_regions ORDER BY region",
      "SELECT r.name, c.website FROM regions r JOIN councils c ON c.region_id = r.id ORDER BY r.name",
      "SELECT r.name, rc.iso_code FROM regions r JOIN region_codes rc ON rc.region_id = r.id ORDER BY r.name",
      "SELECT COUNT(*) AS english_films FROM films WHERE language = 'English'",
      "SELECT name FROM countries WHERE continent = 'Asia' ORDER BY name",
      "SELECT capital, population FROM countries WHERE name = 'USA'",
      "SELECT title FROM works WHERE genre = 'Fantasy' ORDER BY title",
      "SELECT name FROM disciplines WHERE parent = 'winter sport' ORDER BY name",
      "SELECT protein_name, uniprot_id FROM proteins WHERE organism = 'Yersinia pestis CO92'",
      "SELECT implementation_language, COUNT(*) AS editors FROM xml_editors GROUP BY implementation_language",
      "SELECT name, birth_year FROM leaders WHERE birth_year < 1950 ORDER BY birth_year",
      "SELECT c.name FROM creatures c JOIN creature_types t ON t.id = c.type_id WHERE t.type_name = 'video game character'",
      "SELECT COUNT(*) AS categories FROM people_categories",
      "SELECT event, venue FROM events_1992 ORDER BY event");

  public static void main(String[] args) throws Exception {
    Path folder = Path.of(System.getProperty("lakerewrite.sample", "../shared/data/wikidbs-sample"));
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    Path cache = Files.createTempDirectory("lakerewrite-rewrite-bench-");
    try (DataLake lake = DataLake.builder().cacheDirectory(cache).fromWikiDbs(folder)) {
      long t0 = System.nanoTime();
      System.out.println("index: " + lake.index().summary());
      System.out.printf("index build (cold cache): %.1f s%n", (System.nanoTime() - t0) / 1e9);
      LakeRewriter rewriter = Rewriter.builder().build();
      for (String q : QUERIES) {
        rewriter.rewrite(q, lake); // warm-up: first value searches embed their tables' values
      }
      List<Double> ms = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        for (String q : QUERIES) {
          long s = System.nanoTime();
          RewriteResult res = rewriter.rewrite(q, lake);
          ms.add((System.nanoTime() - s) / 1e6);
          if (r == 0) {
            System.out.printf("%6.0f ms  %-16s %d candidates  %s%n", ms.get(ms.size() - 1), res.stopReason(),
                res.candidates().size(), q);
          }
        }
      }
      Collections.sort(ms);
      double mean = ms.stream().mapToDouble(Double::doubleValue).average().orElse(0);
      System.out.printf("offline rewrite, %d queries x %d rounds: median %.0f ms, p90 %.0f ms, mean %.0f ms%n",
          QUERIES.size(), rounds, ms.get(ms.size() / 2), ms.get((int) (ms.size() * 0.9)), mean);
    }
  }
}
