package dev.lakerewrite.noiseudf;

import dev.lakerewrite.testing.SampleLake;
import dev.lakerewrite.testing.Sandbox;
import dev.lakerewrite.sql.Sql;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.duckdb.DuckDBConnection;

/**
 * Injection, then offline BUILD_CTE, then scoring (issue 5): for each noise kind, the fraction of injected cells
 * that the cleaned CTE restores, and the fraction of clean cells it damages.
 *
 * <ul>
 *   <li><b>restored</b>: for a text column (CTE keeps VARCHAR text), the cleaned noisy cell equals the original
 *       cell exactly; for a typed column (numbers, dates as ISO, booleans), the cleaned noisy cell equals the
 *       cleaned original (same number, same date, same truth value). Cells in columns the builder left alone
 *       count as not restored.
 *   <li><b>key-restored</b>: {@code clean_key(noisy) = clean_key(original)}, i.e. a comparison through the
 *       column's {@code matchKey} would still match (for spelling noise on values seen once).
 *   <li><b>damaged</b>: a cell the injector did not touch that the CTE changed (text columns) or turned into
 *       NULL (typed columns).
 * </ul>
 *
 * Runs on the WikiDBs sample and on a seeded synthetic lake that also has boolean, date and quantity columns in
 * volume (the sample has no boolean column). Also checks that the CTE's SQL output equals the Java plan cell by
 * cell. Usage: {@code mvn -B -q -pl noise-udf test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.lakerewrite.noiseudf.NoiseCleaningBenchmark [-Dexec.args="seed rate"]}.
 */
public final class NoiseCleaningBenchmark {

  private NoiseCleaningBenchmark() {}

  public static void main(String[] args) throws Exception {
    long seed = args.length > 0 ? Long.parseLong(args[0]) : 42;
    double rate = args.length > 1 ? Double.parseDouble(args[1]) : 0.03;
    Path work = SharedLake.moduleTarget().resolve("bench").resolve("noise-" + seed + "-" + rate);
    deleteRecursively(work);
    Files.createDirectories(work);
    Path synthetic = work.resolve("synthetic");
    writeSyntheticLake(synthetic, seed);
    System.out.printf(Locale.ROOT, "Noise injection + offline BUILD_CTE, seed %d, rate %.3f per kind%n%n", seed, rate);
    run("WikiDBs sample (29 tables)", SampleLake.folder(), work.resolve("sample"), seed, rate);
    run("synthetic lake (booleans, dates, quantities, categories)", synthetic, work.resolve("synthetic-out"), seed, rate);
  }

  private static final class Score {
    long injected;
    long restored;
    long keyRestored;
    long untouchedColumn;
  }

  private static void run(String title, Path source, Path work, long seed, double rate) throws Exception {
    long t0 = System.nanoTime();
    Path noisy = work.resolve("noisy");
    NoiseInjector.InjectionReport report = NoiseInjector.builder().seed(seed).rate(rate).build().inject(source, noisy);
    long t1 = System.nanoTime();
    Path lakeFile = work.resolve("noisy.duckdb");
    SampleLake.build(noisy, lakeFile);
    Path cleanFile = work.resolve("clean.duckdb");
    SampleLake.build(source, cleanFile);
    Map<String, Path> files = SampleLake.tables(noisy);
    Map<String, Path> originals = SampleLake.tables(source);
    Map<String, Map<Long, Map<String, NoiseInjector.InjectedCell>>> injected = new HashMap<>();
    for (NoiseInjector.InjectedCell c : report.changed()) {
      injected.computeIfAbsent(c.table(), k -> new HashMap<>()).computeIfAbsent(c.row(), k -> new HashMap<>()).put(c.column(), c);
    }
    Map<NoiseKind, Score> scores = new EnumMap<>(NoiseKind.class);
    for (NoiseKind k : NoiseKind.values()) {
      scores.put(k, new Score());
    }
    long cleanCells = 0;
    long damaged = 0;
    long cleanCellsInCleanedColumns = 0;
    long sqlMismatches = 0;
    long cleanedColumns = 0;
    int tablesWithCte = 0;
    List<String> damageExamples = new ArrayList<>();
    long buildNanos = 0;
    try (DuckDBConnection c = Sandbox.open(lakeFile, work.resolve("tmp"));
        DuckDBConnection clean = Sandbox.open(cleanFile, work.resolve("tmp-clean"))) {
      CleaningFunctions.register(c);
      OfflineCteBuilder builder = OfflineCteBuilder.create();
      NoiseDetector detector = NoiseDetector.create();
      for (Map.Entry<String, Path> e : files.entrySet()) {
        String table = e.getKey();
        List<String[]> noisyRows = SharedLake.readCsv(e.getValue());
        List<String[]> originalRows = SharedLake.readCsv(originals.get(table));
        String[] header = noisyRows.get(0);
        long b0 = System.nanoTime();
        CteBuildResult result = builder.build(c, CteRequest.of(table));
        buildNanos += System.nanoTime() - b0;
        Map<String, OfflineCteBuilder.ColumnPlan> plans = new HashMap<>();
        Jdbc.Table raw = Jdbc.table(c, "SELECT * FROM " + Sql.quoted(table), Integer.MAX_VALUE);
        Jdbc.Table loadedClean = Jdbc.table(clean, "SELECT * FROM " + Sql.quoted(table), Integer.MAX_VALUE);
        List<List<String>> cteRows = raw.rows();
        List<String> cteColumns = raw.columns();
        if (result.succeeded()) {
          tablesWithCte++;
          for (ColumnSample s : NoiseDetector.samples(c, table, List.of(), 5000)) {
            OfflineCteBuilder.ColumnPlan p = builder.plan(s, detector.detect(s));
            if (p != null) {
              plans.put(s.column(), p);
            }
          }
          Jdbc.Table t = Jdbc.table(c, "WITH " + result.withClause().orElseThrow() + " SELECT * FROM "
              + Sql.quoted(result.cteName()), Integer.MAX_VALUE);
          cteRows = t.rows();
          cteColumns = t.columns();
          cleanedColumns += plans.size();
        }
        Map<Long, Map<String, NoiseInjector.InjectedCell>> tableNoise = injected.getOrDefault(table, Map.of());
        for (int col = 0; col < header.length; col++) {
          String column = header[col];
          OfflineCteBuilder.ColumnPlan plan = plans.get(column);
          int cteCol = cteColumns.indexOf(column);
          for (int r = 1; r < noisyRows.size(); r++) {
            String o = cell(originalRows.get(r), col);
            String n = cell(noisyRows.get(r), col);
            if (o == null) {
              continue;
            }
            Object cleanedNoisy = plan == null ? n : plan.apply(n);
            if (plan != null && cteCol >= 0) {
              String sql = cteRows.get(r - 1).get(cteCol);
              if (!Objects.equals(sql, cleanedNoisy == null ? null : cleanedNoisy.toString())) {
                sqlMismatches++;
              }
            }
            boolean typed = plan != null && plan.typed() != OfflineCteBuilder.ColumnPlan.Typed.NONE;
            Object target = typed ? plan.apply(o) : o;
            NoiseInjector.InjectedCell noise = tableNoise.getOrDefault((long) r, Map.of()).get(column);
            if (noise != null) {
              Score s = scores.get(noise.kind());
              s.injected++;
              if (plan == null) {
                s.untouchedColumn++;
              }
              if (plan == null) {
                // left alone: restored only if the lake as loaded already holds the original value (e.g. a
                // padded number DuckDB still reads as the same BIGINT)
                int cleanCol = loadedClean.columns().indexOf(column);
                if (cteCol >= 0 && cleanCol >= 0
                    && Objects.equals(cteRows.get(r - 1).get(cteCol), loadedClean.rows().get(r - 1).get(cleanCol))) {
                  s.restored++;
                }
              } else if (target != null && target.equals(cleanedNoisy)) {
                s.restored++;
              }
              if (Cleaners.textKey(n).equals(Cleaners.textKey(o))) {
                s.keyRestored++;
              }
            } else {
              cleanCells++;
              if (plan != null) {
                cleanCellsInCleanedColumns++;
                Object cleanedOriginal = plan.apply(o);
                boolean bad = typed ? cleanedOriginal == null : !o.equals(cleanedOriginal);
                if (bad) {
                  damaged++;
                  if (damageExamples.size() < 8) {
                    damageExamples.add(table + "." + column + ": " + NoiseDetector.show(o) + " → "
                        + (cleanedOriginal == null ? "NULL" : NoiseDetector.show(cleanedOriginal.toString())));
                  }
                }
              }
            }
          }
        }
      }
    }
    long t2 = System.nanoTime();
    System.out.println("== " + title);
    System.out.printf(Locale.ROOT, "%d tables, %d non-empty cells, %d injected (%.1f%%); CTEs built for %d tables, %d columns cleaned%n",
        report.tables(), report.cells(), report.changed().size(), 100.0 * report.changed().size() / report.cells(),
        tablesWithCte, cleanedColumns);
    System.out.printf(Locale.ROOT, "%-14s %9s %9s %10s %13s %14s%n", "kind", "injected", "restored", "fraction",
        "key-restored", "col. untouched");
    for (NoiseKind k : NoiseKind.values()) {
      Score s = scores.get(k);
      if (s.injected == 0) {
        System.out.printf(Locale.ROOT, "%-14s %9d %9s %10s %13s %14s%n", k, 0, "-", "n/a", "-", "-");
        continue;
      }
      System.out.printf(Locale.ROOT, "%-14s %9d %9d %10.3f %13.3f %14d%n", k, s.injected, s.restored,
          (double) s.restored / s.injected, (double) s.keyRestored / s.injected, s.untouchedColumn);
    }
    long fi = 0;
    long fr = 0;
    for (NoiseKind k : NoiseKind.values()) {
      if (k.formatting()) {
        fi += scores.get(k).injected;
        fr += scores.get(k).restored;
      }
    }
    System.out.printf(Locale.ROOT, "formatting kinds together: %d/%d restored = %.3f%n", fr, fi, fi == 0 ? 0 : (double) fr / fi);
    System.out.printf(Locale.ROOT, "damaged clean cells: %d of %d = %.4f (of %d clean cells in cleaned columns: %.4f)%n",
        damaged, cleanCells, (double) damaged / Math.max(1, cleanCells), cleanCellsInCleanedColumns,
        (double) damaged / Math.max(1, cleanCellsInCleanedColumns));
    damageExamples.forEach(x -> System.out.println("  damage: " + x));
    System.out.printf(Locale.ROOT, "SQL CTE output vs Java plan: %d mismatching cells%n", sqlMismatches);
    System.out.printf(Locale.ROOT, "time: inject %.2f s, BUILD_CTE %.2f s, total %.2f s%n%n", (t1 - t0) / 1e9, buildNanos / 1e9, (t2 - t0) / 1e9);
  }

  private static String cell(String[] row, int col) {
    return col < row.length && !row[col].isEmpty() ? row[col] : null;
  }


  /** A seeded lake with the column types the sample lacks: booleans, and dates and quantities in volume. */
  static void writeSyntheticLake(Path folder, long seed) throws IOException {
    Files.createDirectories(folder);
    SplittableRandom random = new SplittableRandom(seed);
    String[] cities = {"Whangārei", "Auckland", "Hamilton", "Tauranga", "Ōpōtiki", "Palmerston North", "Wellington",
        "Nelson", "Blenheim", "Christchurch", "Dunedin", "Invercargill", "Taupō", "Rotorua", "Whakatāne", "Napier"};
    String[] statuses = {"active", "closed", "pending review", "archived"};
    for (int t = 0; t < 4; t++) {
      StringBuilder sb = new StringBuilder("id,city,status,is open,opened on,visitors,revenue,comment\n");
      for (int i = 0; i < 400; i++) {
        int year = 1950 + random.nextInt(70);
        int month = 1 + random.nextInt(12);
        int day = 1 + random.nextInt(28);
        String date = random.nextInt(10) == 0 ? String.format(Locale.ROOT, "+%04d-00-00T00:00:00Z", year)
            : String.format(Locale.ROOT, "+%04d-%02d-%02dT00:00:00Z", year, month, day);
        sb.append(t * 1000 + i).append(',')
            .append(cities[random.nextInt(cities.length)]).append(',')
            .append(statuses[random.nextInt(statuses.length)]).append(',')
            .append(random.nextBoolean() ? "true" : "false").append(',')
            .append(date).append(',')
            .append('+').append(random.nextInt(2_000_000)).append(',')
            .append(random.nextInt(3) == 0 ? "-" : "+").append(random.nextInt(100_000)).append('.').append(String.format(Locale.ROOT, "%02d", random.nextInt(100))).append(',')
            .append(NoiseInjector.csvField("visit " + i + " of table " + t + ", note")).append('\n');
      }
      Files.writeString(folder.resolve("sites " + t + ".csv"), sb.toString(), StandardCharsets.UTF_8);
    }
  }

  private static void deleteRecursively(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(x);
      }
    }
  }
}
