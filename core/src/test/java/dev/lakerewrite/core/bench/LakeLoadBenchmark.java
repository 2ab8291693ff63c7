package dev.lakerewrite.core.bench;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Prints load and profile times for a lake (default: the WikiDBs sample). Cold = empty cache directory (CSV
 * files read and materialised); warm = reopening the materialised lake. Run:
 * {@code bin/bench core LakeLoadBenchmark [lake-folder] [repetitions]}.
 */
public final class LakeLoadBenchmark {
  public static void main(String[] args) throws Exception {
    Path folder = Path.of(args.length > 0 ? args[0] : System.getProperty("lakerewrite.sample",
        "../shared/data/wikidbs-sample"));
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    System.out.printf("lake: %s, %d repetitions%n", folder.toAbsolutePath().normalize(), reps);
    double coldLoad = 0;
    double warmLoad = 0;
    double coldProfile = 0;
    double warmProfile = 0;
    double firstQuery = 0;
    int tables = 0;
    for (int r = 0; r < reps; r++) {
      Path cache = Files.createTempDirectory("lakerewrite-bench-");
      try {
        long t0 = System.nanoTime();
        try (DataLake lake = DataLake.builder().cacheDirectory(cache).fromWikiDbs(folder)) {
          coldLoad += ms(t0);
          tables = lake.catalog().tables().size();
          long t1 = System.nanoTime();
          lake.catalog().profiles();
          coldProfile += ms(t1);
        }
        long t2 = System.nanoTime();
        try (DataLake lake = DataLake.builder().cacheDirectory(cache).fromWikiDbs(folder)) {
          warmLoad += ms(t2);
          long t3 = System.nanoTime();
          lake.catalog().profiles();
          warmProfile += ms(t3);
          long t4 = System.nanoTime();
          try (LakeSession s = lake.openSession()) {
            s.execute("SELECT count(*) FROM " + lake.catalog().tableNames().get(0));
          }
          firstQuery += ms(t4);
        }
      } finally {
        try (Stream<Path> w = Files.walk(cache)) {
          w.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    }
    System.out.printf("tables: %d%n", tables);
    System.out.printf("load, cold (CSV -> DuckDB file + catalog): %8.1f ms%n", coldLoad / reps);
    System.out.printf("profile all tables, cold:                   %8.1f ms%n", coldProfile / reps);
    System.out.printf("load, warm (reopen materialised lake):      %8.1f ms%n", warmLoad / reps);
    System.out.printf("profile all tables, warm (from disk cache): %8.1f ms%n", warmProfile / reps);
    System.out.printf("open session + first query:                 %8.1f ms%n", firstQuery / reps);
  }

  private static double ms(long start) {
    return (System.nanoTime() - start) / 1e6;
  }
}
