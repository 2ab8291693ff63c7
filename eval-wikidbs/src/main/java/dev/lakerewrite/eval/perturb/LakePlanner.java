package dev.lakerewrite.eval.perturb;

import dev.lakerewrite.sql.Sql;
import dev.lakerewrite.eval.perturb.LakePlan.Layout;
import dev.lakerewrite.eval.perturb.LakePlan.Lookup;
import dev.lakerewrite.eval.perturb.LakePlan.Part;
import dev.lakerewrite.eval.perturb.LakePlan.TablePlan;
import dev.lakerewrite.eval.perturb.SourceSchema.SourceColumn;
import dev.lakerewrite.eval.perturb.SourceSchema.SourceTable;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Draws a {@link LakePlan} for a schema from a seed. Every table is renamed; some are split by columns or by rows;
 * some columns are re-encoded; some lake tables are chosen for cell noise. Draws use one random stream per source
 * table (derived from the seed and the table's name), so adding a table does not change the others' plans.
 */
final class LakePlanner {

  private static final List<String> DATE_FORMATS = List.of("%d %b %Y", "%b %d, %Y", "%Y/%m/%d", "%d.%m.%Y",
      "%m/%d/%Y", "%Y%m%d");
  private static final List<String[]> UNITS = List.of(new String[] {"USD ", ""}, new String[] {"", " EUR"},
      new String[] {"", " units"}, new String[] {"$", ""}, new String[] {"", " kg"}, new String[] {"", " pcs"});
  private static final List<String[]> BOOLEAN_WORDS = List.of(new String[] {"yes", "no"},
      new String[] {"active", "inactive"}, new String[] {"present", "absent"}, new String[] {"on", "off"},
      new String[] {"enabled", "disabled"});
  private static final List<String> VERTICAL_ROLES = List.of("details", "ext", "info", "attributes", "extra");
  private static final List<List<String>> HORIZONTAL_ROLES = List.of(List.of("current", "archive"),
      List.of("part 1", "part 2", "part 3"), List.of("batch a", "batch b"), List.of("east", "west", "central"));
  private static final List<String> LOOKUP_ROLES = List.of("codes", "lookup", "ref", "types", "dim");
  private static final int MAX_ENCODINGS_PER_TABLE = 3;

  private final LakePerturber.Settings settings;
  private final long seed;

  LakePlanner(LakePerturber.Settings settings, long seed) {
    this.settings = settings;
    this.seed = seed;
  }

  /**
   * Plans the lake. {@code connection} has the work tables ({@code workTable(i)}: the source tables with
   * {@link LakePlan#SURROGATE_KEY}), used for value statistics.
   */
  LakePlan plan(SourceSchema schema, Connection connection) throws SQLException {
    SplittableRandom lakeRandom = new SplittableRandom(mix(seed, "lake"));
    NamingStyle style = NamingStyle.draw(lakeRandom);
    Namer namer = new Namer(style, new SplittableRandom(mix(seed, "names")));
    schema.tables().forEach(t -> namer.reserveTable(t.name())); // lake names never reuse a source table's name
    Set<String> keyColumns = new HashSet<>();
    schema.foreignKeys().forEach(f -> {
      keyColumns.add(f.table().toLowerCase(Locale.ROOT) + "." + f.column().toLowerCase(Locale.ROOT));
      keyColumns.add(f.refTable().toLowerCase(Locale.ROOT) + "." + f.refColumn().toLowerCase(Locale.ROOT));
    });
    List<TablePlan> tables = new ArrayList<>();
    List<Lookup> lookups = new ArrayList<>();
    Set<String> noise = new TreeSet<>();
    for (int i = 0; i < schema.tables().size(); i++) {
      SourceTable t = schema.tables().get(i);
      SplittableRandom r = new SplittableRandom(mix(seed, "table:" + t.name()));
      String work = workTable(i);
      String lakeName = lakeTableName(namer.table(t.name()));
      Namer.Columns cols = namer.columns(lakeName, t.columnNames());
      Map<String, String> names = new LinkedHashMap<>();
      t.columns().forEach(c -> names.put(c.name(), cols.name(c.name())));

      Map<String, Encoding> encodings = new LinkedHashMap<>();
      List<SourceColumn> shuffled = new ArrayList<>(t.columns());
      Collections.shuffle(shuffled, new java.util.Random(r.nextLong()));
      for (SourceColumn c : shuffled) {
        if (encodings.size() >= MAX_ENCODINGS_PER_TABLE
            || t.key().map(k -> k.equals(c.name())).orElse(false)
            || keyColumns.contains(t.name().toLowerCase(Locale.ROOT) + "." + c.name().toLowerCase(Locale.ROOT))) {
          continue;
        }
        double x = r.nextDouble();
        if (c.bool() && x < settings.encodingRate() * 1.5) {
          String[] w = BOOLEAN_WORDS.get(r.nextInt(BOOLEAN_WORDS.size()));
          encodings.put(c.name(), new Encoding.BooleanAsWords(w[0], w[1]));
        } else if (c.date() && x < settings.encodingRate()) {
          encodings.put(c.name(), new Encoding.DateAsText(DATE_FORMATS.get(r.nextInt(DATE_FORMATS.size()))));
        } else if (c.exactNumber() && x < settings.encodingRate() * 0.6) {
          String[] u = UNITS.get(r.nextInt(UNITS.size()));
          encodings.put(c.name(), new Encoding.NumberAsText(u[0], u[1]));
        } else if (c.text() && x < settings.encodingRate() && categorical(connection, work, c.name(), t.rows())) {
          String lookupName = lakeTableName(namer.part(style.tablePrefix()
              + style.wordCase().join(Words.tokens(names.get(c.name()))),
              LOOKUP_ROLES.get(r.nextInt(LOOKUP_ROLES.size()))));
          Namer.Columns lc = namer.columns(lookupName, List.of());
          String code = lc.fixed(r.nextBoolean() ? List.of("code") : List.of("id"));
          String label = lc.fixed(r.nextBoolean() ? List.of("label") : List.of("name"));
          int first = new int[] {0, 1, 10, 100}[r.nextInt(4)];
          Encoding.CodeLookup enc = new Encoding.CodeLookup(lookupName, code, label, first);
          encodings.put(c.name(), enc);
          lookups.add(new Lookup(lookupName, lookupName + (parquet(r) ? ".parquet" : ".csv"), t.name(), c.name(),
              enc));
        }
      }

      double layoutDraw = r.nextDouble();
      List<String> nonKey = t.columnNames().stream().filter(c -> !t.key().map(c::equals).orElse(false)).toList();
      List<Part> parts = new ArrayList<>();
      Layout layout;
      Optional<String> key = Optional.empty();
      if (nonKey.size() >= 3 && layoutDraw < settings.verticalSplitRate()) {
        layout = Layout.VERTICAL;
        String k = t.key().orElse(LakePlan.SURROGATE_KEY);
        key = Optional.of(k);
        List<String> moved = new ArrayList<>(nonKey);
        Collections.shuffle(moved, new java.util.Random(r.nextLong()));
        int keep = 1 + r.nextInt(nonKey.size() - 1);
        List<String> partBColumns = new ArrayList<>(moved.subList(keep, moved.size()));
        String role = VERTICAL_ROLES.get(r.nextInt(VERTICAL_ROLES.size()));
        String partB = lakeTableName(namer.part(lakeName, role));
        Namer.Columns bCols = namer.columns(partB, t.columnNames());
        // Part B keeps the names its columns got in the whole table: its key's second name must not take one.
        partBColumns.forEach(c -> bCols.reserve(names.get(c)));
        String keyA = t.key().isPresent() ? names.get(k) : cols.fixed(List.of("rec", "id"));
        String keyB = t.key().isPresent() ? bCols.name(k) : bCols.fixed(List.of("record", "ref"));
        if (keyB.equalsIgnoreCase(keyA)) {
          keyB = bCols.fixed(concat(Words.tokens(keyA), "ref"));
        }
        Map<String, String> a = new LinkedHashMap<>();
        Map<String, String> b = new LinkedHashMap<>();
        a.put(k, keyA);
        b.put(k, keyB);
        for (String c : t.columnNames()) {
          if (c.equals(k)) {
            continue;
          }
          (partBColumns.contains(c) ? b : a).put(c, names.get(c));
        }
        List<String> notNull = partBColumns.stream().map(c -> "w." + Sql.quoted(c) + " IS NOT NULL").toList();
        parts.add(new Part(lakeName, lakeName + ".csv", a, "TRUE", "the table's first columns"));
        parts.add(new Part(partB, partB + ".csv", b, "(" + String.join(" OR ", notNull) + ")",
            "the other columns, joined on " + keyA + " = " + keyB + "; rows only where one of them has a value"));
      } else if (t.rows() >= 6 && layoutDraw < settings.verticalSplitRate() + settings.horizontalSplitRate()) {
        layout = Layout.HORIZONTAL;
        Optional<SourceColumn> dateColumn = t.columns().stream().filter(SourceColumn::date).findFirst();
        Integer splitYear = dateColumn.isPresent() ? medianYear(connection, work, dateColumn.get().name()) : null;
        List<String> filters = new ArrayList<>();
        List<String> roles = new ArrayList<>();
        if (splitYear != null) {
          String d = "w." + Sql.quoted(dateColumn.get().name());
          filters.add("year(" + d + ") < " + splitYear);
          filters.add("(year(" + d + ") >= " + splitYear + " OR " + d + " IS NULL)");
          roles.add("before " + splitYear);
          roles.add("since " + splitYear);
        } else {
          List<String> pick = HORIZONTAL_ROLES.get(r.nextInt(HORIZONTAL_ROLES.size()));
          int k = pick.size();
          long salt = Math.floorMod(r.nextLong(), 1_000_003L);
          for (int p = 0; p < k; p++) {
            filters.add("(w." + LakePlan.SURROGATE_KEY + " * 7919 + " + salt + ") % " + k + " = " + p);
            roles.add(pick.get(p));
          }
        }
        for (int p = 0; p < filters.size(); p++) {
          String name = lakeTableName(namer.part(lakeName, roles.get(p)));
          Map<String, String> m = new LinkedHashMap<>(names);
          if (p > 0) { // later parts list their columns in another order: a union must go by name
            List<Map.Entry<String, String>> entries = new ArrayList<>(m.entrySet());
            Collections.shuffle(entries, new java.util.Random(r.nextLong()));
            m = new LinkedHashMap<>();
            for (Map.Entry<String, String> e : entries) {
              m.put(e.getKey(), e.getValue());
            }
          }
          parts.add(new Part(name, name + ".csv", m, filters.get(p), "rows " + roles.get(p)));
        }
      } else {
        layout = Layout.WHOLE;
        parts.add(new Part(lakeName, lakeName + ".csv", names, "TRUE", "the whole table"));
      }
      List<Part> placed = new ArrayList<>();
      for (Part p : parts) {
        boolean noisy = r.nextDouble() < settings.noiseTableRate();
        if (noisy) {
          noise.add(p.table()); // the noise injector writes CSV files: noisy tables stay CSV
        }
        placed.add(new Part(p.table(), p.table() + (!noisy && parquet(r) ? ".parquet" : ".csv"), p.columns(),
            p.rowFilter(), p.description()));
      }
      parts = placed;
      tables.add(new TablePlan(t.name(), layout, key, parts, encodings));
    }
    return new LakePlan(seed, style, tables, lookups, noise);
  }

  /** Whether a lake table is written as Parquet (its exact types kept) rather than CSV (types inferred on load). */
  private boolean parquet(SplittableRandom r) {
    return switch (settings.format()) {
      case CSV -> false;
      case PARQUET -> true;
      case MIXED -> r.nextBoolean();
    };
  }

  /** The name of the i-th work table. */
  static String workTable(int i) {
    return "w_" + i;
  }

  /** The table name the lake loader gives a file with this stem (lower case, runs of other characters '_'). */
  static String lakeTableName(String stem) {
    return stem.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
  }

  private static List<String> concat(List<String> words, String word) {
    List<String> out = new ArrayList<>(words);
    out.add(word);
    return out;
  }

  /** A text column with 2 to 60 distinct values, each used about twice or more: a category. */
  private static boolean categorical(Connection c, String work, String column, long rows) throws SQLException {
    String col = Sql.quoted(column);
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT count(DISTINCT " + col + ") FROM " + work)) {
      rs.next();
      long distinct = rs.getLong(1);
      return distinct >= 2 && distinct <= 60 && distinct * 2 <= rows;
    }
  }

  private static @Nullable Integer medianYear(Connection c, String work, String column) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT CAST(quantile_disc(year(" + Sql.quoted(column) + "), 0.5) AS INTEGER), min(year("
            + Sql.quoted(column) + ")) FROM " + work)) {
      rs.next();
      int median = rs.getInt(1);
      if (rs.wasNull() || median <= rs.getInt(2)) {
        return null;
      }
      return median;
    }
  }

  /** A 64-bit seed from the lake's seed and a label (stable across JVMs and runs). */
  static long mix(long seed, String label) {
    long h = seed ^ 0x9E3779B97F4A7C15L;
    for (byte b : label.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ b) * 0x100000001B3L;
      h ^= h >>> 29;
    }
    return new SplittableRandom(h).nextLong();
  }
}
