package dev.lakerewrite.eval.bench;

import dev.lakerewrite.eval.tpc.TpcBenchmark;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * A generated data lake of thousands of tables in mixed formats, for {@link BigLakeBenchmark}: the 24 TPC-DS tables at
 * several scale factors, split into parts, renamed (table and column names in several styles) and exported as
 * Parquet, CSV (comma, semicolon, gzip), JSON and NDJSON; narrow code lists, wide metric tables and tall event tables;
 * one Hive-partitioned click stream larger than the benchmark's heap; and the WikiDBs sample's 29 tables as
 * {@code <db>/<table>.csv} (so the folder loader names them as {@code fromWikiDbs} does). Deterministic for a seed;
 * written once per specification (a hidden marker holds it) and reused.
 */
final class BigLake {
  private static final String MARKER = ".big-lake-spec";
  private static final String[] WORDS = {"alpha", "harbour", "granite", "meadow", "copper", "lagoon", "summit",
      "willow", "ember", "falcon", "quartz", "prairie", "delta", "orchid", "tundra", "canyon", "saffron", "glacier",
      "juniper", "monsoon", "basalt", "cobalt", "fjord", "mesa", "pampas", "reef", "savanna", "taiga", "zephyr"};

  /**
   * What to generate.
   *
   * @param tables tables in all (at least the fixed groups: sample, code lists, wide, tall, click stream)
   * @param scaleFactors TPC-DS scale factors whose tables are split into the remaining tables
   * @param clickRows rows of the Hive-partitioned click stream (about 60 bytes each in Parquet)
   * @param tallRows rows of each tall table
   * @param seed for names, formats and values
   */
  record Spec(int tables, List<Double> scaleFactors, long clickRows, long tallRows, long seed) {
    String key() {
      return "v3 tables=" + tables + " sf=" + scaleFactors + " clickRows=" + clickRows + " tallRows=" + tallRows
          + " seed=" + seed;
    }

    int codeLists() {
      return Math.max(4, tables * 8 / 100);
    }

    int wideTables() {
      return Math.max(2, tables / 50);
    }

    int tallTables() {
      return Math.max(1, tables / 100);
    }
  }

  /** What the generator wrote. */
  record Generated(Path folder, int tables, long bytes, boolean reused, Map<String, Integer> byGroup) {}

  private BigLake() {}

  /** Writes the lake into {@code folder} unless it already holds this specification. */
  static Generated generate(Path folder, Spec spec, Path sample, Path tpcCache) throws Exception {
    Path marker = folder.resolve(MARKER);
    if (Files.isRegularFile(marker) && Files.readString(marker).startsWith(spec.key() + "\n")) {
      List<String> lines = Files.readAllLines(marker);
      Map<String, Integer> groups = new LinkedHashMap<>();
      for (String l : lines.subList(1, lines.size())) {
        String[] kv = l.split("=", 2);
        groups.put(kv[0], Integer.parseInt(kv[1]));
      }
      return new Generated(folder, groups.values().stream().mapToInt(Integer::intValue).sum(), size(folder), true,
          groups);
    }
    deleteRecursively(folder);
    Files.createDirectories(folder);
    Map<String, Integer> groups = new LinkedHashMap<>();
    Random random = new Random(spec.seed());
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      st.execute("SET threads = " + Runtime.getRuntime().availableProcessors());
      st.execute("SET preserve_insertion_order = false");
      st.execute("SET temp_directory = '" + folder.resolveSibling("generator-tmp").toString().replace("'", "''") + "'");
      groups.put("wikidbs sample", copySample(sample, folder));
      groups.put("click stream (hive, larger than the heap)", clickStream(st, folder, spec.clickRows()));
      groups.put("code lists (narrow)", codeLists(st, folder, spec.codeLists(), random));
      groups.put("metrics (wide)", wideTables(st, folder, spec.wideTables(), random));
      groups.put("events (tall)", tallTables(st, folder, spec.tallTables(), spec.tallRows()));
      int rest = spec.tables() - groups.values().stream().mapToInt(Integer::intValue).sum();
      groups.put("TPC-DS parts", tpcds(c, folder, spec.scaleFactors(), rest, random, tpcCache));
    }
    StringBuilder m = new StringBuilder(spec.key()).append('\n');
    groups.forEach((k, v) -> m.append(k).append('=').append(v).append('\n'));
    Files.writeString(marker, m.toString());
    return new Generated(folder, groups.values().stream().mapToInt(Integer::intValue).sum(), size(folder), false,
        groups);
  }

  /** The sample's table files as {@code <db>/<table>.csv}. */
  static int copySample(Path sample, Path folder) throws IOException {
    int n = 0;
    try (Stream<Path> dbs = Files.list(sample.resolve("databases"))) {
      for (Path db : dbs.filter(Files::isDirectory).sorted().toList()) {
        Path tables = db.resolve("tables");
        if (!Files.isDirectory(tables)) {
          continue;
        }
        Path target = Files.createDirectories(folder.resolve(db.getFileName().toString()));
        try (Stream<Path> csv = Files.list(tables)) {
          for (Path f : csv.filter(p -> p.toString().endsWith(".csv")).sorted().toList()) {
            Files.copy(f, target.resolve(f.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
            n++;
          }
        }
      }
    }
    return n;
  }

  private static int clickStream(Statement st, Path folder, long rows) throws SQLException {
    Path dir = folder.resolve("clickstream");
    // Random hashes do not compress: the file's size follows the row count (about 60 bytes a row).
    st.execute("COPY (SELECT range AS event_id, (range * 7919) % 5000000 AS user_id,"
        + " TIMESTAMP '2024-01-01' + to_seconds(range % 2592000) AS event_time,"
        + " date_trunc('day', TIMESTAMP '2024-01-01' + to_seconds(range % 2592000))::DATE AS day,"
        + " '/' || ['home', 'search', 'item', 'cart', 'checkout', 'help'][1 + range % 6] || '/' || (range % 997)"
        + " AS url, md5(range::VARCHAR) AS session, (range % 600)::INTEGER AS duration_ms"
        + " FROM range(" + rows + ")) TO '" + dir + "' (FORMAT parquet, PARTITION_BY (day))");
    return 1;
  }

  private static String word(Random r) {
    return WORDS[r.nextInt(WORDS.length)];
  }

  /** Formats rotate over the table files: each entry is an extension and the COPY options writing it. */
  private static final String[][] FORMATS = {
      {".parquet", "FORMAT parquet"},
      {".csv", "FORMAT csv, HEADER true"},
      {".json", "FORMAT json, ARRAY true"},
      {".csv", "FORMAT csv, HEADER true, DELIMITER ';'"},
      {".ndjson", "FORMAT json"},
      {".csv.gz", "FORMAT csv, HEADER true, COMPRESSION gzip"}};

  private static void export(Statement st, String select, Path file, String options) throws SQLException {
    st.execute("COPY (" + select + ") TO '" + file.toString().replace("'", "''") + "' (" + options + ")");
  }

  private static int codeLists(Statement st, Path folder, int n, Random r) throws SQLException, IOException {
    Path dir = Files.createDirectories(folder.resolve("reference"));
    for (int i = 0; i < n; i++) {
      String name = word(r) + "_" + word(r) + "_codes_" + i;
      int rows = 5 + r.nextInt(400);
      String[] f = FORMATS[i % FORMATS.length];
      String label = i % 3 == 0 ? "label" : i % 3 == 1 ? "Description" : "name";
      export(st, "SELECT printf('%s-%04d', upper(substr('" + word(r) + "', 1, 3)), range) AS code, '" + word(r)
          + " ' || ['" + word(r) + "', '" + word(r) + "', '" + word(r) + "'][1 + range % 3] || ' ' || range AS \""
          + label + "\"" + (i % 2 == 0 ? ", range % 2 = 0 AS active" : "") + " FROM range(" + rows + ")",
          dir.resolve(name + f[0]), f[1]);
    }
    return n;
  }

  private static int wideTables(Statement st, Path folder, int n, Random r) throws SQLException, IOException {
    Path dir = Files.createDirectories(folder.resolve("metrics"));
    for (int i = 0; i < n; i++) {
      int columns = 100 + r.nextInt(200);
      StringBuilder select = new StringBuilder("SELECT range AS reading_id");
      for (int c = 1; c < columns; c++) {
        select.append(c % 7 == 0 ? ", '" + word(r) + "_' || (range % " + (3 + c) + ")" : c % 3 == 0
            ? ", (range * " + c + ") % 1000" : ", round(sin(range + " + c + ") * 100, 3)")
            .append(" AS ").append(String.format(Locale.ROOT, "%s_%03d", word(r), c));
      }
      select.append(" FROM range(1000)");
      String[] f = FORMATS[i % 2 == 0 ? 0 : 1];
      export(st, select.toString(), dir.resolve("sensor_panel_" + i + f[0]), f[1]);
    }
    return n;
  }

  private static int tallTables(Statement st, Path folder, int n, long rows) throws SQLException, IOException {
    Path dir = Files.createDirectories(folder.resolve("logs"));
    for (int i = 0; i < n; i++) {
      export(st, "SELECT range AS log_id, TIMESTAMP '2023-06-01' + to_seconds(range * 3) AS logged_at,"
          + " ['debug', 'info', 'warn', 'error'][1 + (range * " + (i + 3) + ") % 4] AS level,"
          + " (range * 2654435761) % 100000 AS host_id FROM range(" + rows + ")",
          dir.resolve("service_log_" + i + ".parquet"), "FORMAT parquet");
    }
    return n;
  }

  /**
   * Splits the TPC-DS tables of each scale factor into {@code budget} parts in all, parts per table in proportion to
   * the square root of its rows; every part gets a table name and a column naming style of its own and a format
   * in rotation.
   */
  private static int tpcds(Connection c, Path folder, List<Double> scaleFactors, int budget, Random r,
      Path tpcCache) throws Exception {
    record Source(double sf, String table, long rows) {}
    List<Source> sources = new ArrayList<>();
    try (Statement st = c.createStatement()) {
      for (double sf : scaleFactors) {
        Path db = TpcBenchmark.TPCDS.cachedDuckDb(sf, tpcCache);
        String alias = alias(sf);
        st.execute("ATTACH '" + db + "' AS " + alias + " (READ_ONLY)");
        for (String t : TpcBenchmark.TPCDS.tables()) {
          try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + alias + "." + t)) {
            rs.next();
            sources.add(new Source(sf, t, rs.getLong(1)));
          }
        }
      }
    }
    double weight = sources.stream().mapToDouble(s -> Math.sqrt(Math.max(1, s.rows()))).sum();
    int written = 0;
    int fileNo = 0;
    for (int i = 0; i < sources.size(); i++) {
      Source s = sources.get(i);
      int parts = i == sources.size() - 1 ? budget - written
          : (int) Math.max(1, Math.round(budget * Math.sqrt(Math.max(1, s.rows())) / weight));
      // At least about fifty rows a part, so no part is empty.
      parts = (int) Math.max(1, Math.min(parts, s.rows() / 50));
      if (written + parts > budget) {
        parts = Math.max(1, budget - written);
      }
      List<String> columns = columns(c, alias(s.sf()) + "." + s.table());
      Path dir = Files.createDirectories(folder.resolve("tpcds").resolve("sf" + alias(s.sf()).substring(2))
          .resolve(s.table()));
      try (Statement st = c.createStatement()) {
        String from = alias(s.sf()) + "." + s.table();
        if (parts > 1) {
          // One pass assigns the parts; sorted by part, each part's export reads only its own row groups.
          st.execute("CREATE OR REPLACE TEMP TABLE part_source AS SELECT *, hash(" + columns.get(0) + ", "
              + (columns.size() > 1 ? columns.get(1) : "0") + ") % " + parts + " AS lakerewrite_part FROM " + from
              + " ORDER BY lakerewrite_part");
          from = "part_source";
        }
        for (int p = 0; p < parts; p++) {
          String[] f = FORMATS[fileNo++ % FORMATS.length];
          int style = r.nextInt(3);
          StringBuilder select = new StringBuilder("SELECT ");
          for (int k = 0; k < columns.size(); k++) {
            select.append(k == 0 ? "" : ", ").append(columns.get(k)).append(" AS \"")
                .append(renamed(columns.get(k), style)).append('"');
          }
          select.append(" FROM ").append(from);
          if (parts > 1) {
            select.append(" WHERE lakerewrite_part = ").append(p);
          }
          String name = tableName(s.table(), alias(s.sf()), p, style);
          export(st, select.toString(), dir.resolve(name + f[0]), f[1]);
        }
      }
      written += parts;
      if (written >= budget) {
        break;
      }
    }
    return written;
  }

  private static String alias(double sf) {
    return "sf" + String.valueOf(sf).replace('.', '_').replaceAll("_0$", "");
  }

  private static List<String> columns(Connection c, String table) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE " + table)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  /** Column naming styles of real lakes: TPC-DS as is, its prefix dropped, or words with capitals and spaces. */
  static String renamed(String column, int style) {
    String bare = column.contains("_") ? column.substring(column.indexOf('_') + 1) : column;
    return switch (style) {
      case 0 -> column;
      case 1 -> bare;
      default -> {
        StringBuilder sb = new StringBuilder();
        for (String w : bare.split("_")) {
          if (!w.isEmpty()) {
            sb.append(sb.length() == 0 ? "" : " ").append(Character.toUpperCase(w.charAt(0))).append(w.substring(1));
          }
        }
        yield sb.toString();
      }
    };
  }

  private static String tableName(String table, String sf, int part, int style) {
    return switch (style) {
      case 0 -> table + "_" + sf + "_part" + part;
      case 1 -> sf.toUpperCase(Locale.ROOT) + "-" + table.replace('_', '-') + "-" + part;
      default -> "extract " + table.replace('_', ' ') + " " + sf + " " + part;
    };
  }

  static long size(Path folder) throws IOException {
    try (Stream<Path> s = Files.walk(folder)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> {
        try {
          return Files.size(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).sum();
    }
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /**
   * Changes {@code count} of the lake's Parquet and CSV table files (none of the sample's, not the click stream),
   * chosen by {@code seed}: Parquet rewritten with one more row, CSV with its last line once more.
   *
   * @return the changed files
   */
  static List<Path> changeFiles(Path folder, int count, long seed) throws Exception {
    List<Path> candidates;
    try (Stream<Path> s = Files.walk(folder)) {
      candidates = s.filter(Files::isRegularFile)
          .filter(p -> !p.startsWith(folder.resolve("clickstream")))
          .filter(p -> p.startsWith(folder.resolve("tpcds")) || p.startsWith(folder.resolve("reference"))
              || p.startsWith(folder.resolve("metrics")) || p.startsWith(folder.resolve("logs")))
          .filter(p -> p.toString().endsWith(".parquet") || p.toString().endsWith(".csv"))
          .sorted().toList();
    }
    int n = count;
    List<Path> shuffled = new ArrayList<>(candidates);
    java.util.Collections.shuffle(shuffled, new Random(seed));
    List<Path> chosen = shuffled.subList(0, Math.min(n, shuffled.size()));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
      for (Path f : chosen) {
        if (f.toString().endsWith(".csv")) {
          List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
          Files.writeString(f, lines.get(lines.size() - 1) + "\n", StandardCharsets.UTF_8,
              java.nio.file.StandardOpenOption.APPEND);
        } else {
          Path tmp = f.resolveSibling(".changing-" + f.getFileName());
          st.execute("COPY (SELECT * FROM read_parquet('" + f + "') UNION ALL (SELECT * FROM read_parquet('" + f
              + "') LIMIT 1)) TO '" + tmp + "' (FORMAT parquet)");
          Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
        }
        Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
      }
    }
    return chosen;
  }
}
