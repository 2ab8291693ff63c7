package dev.lakerewrite.eval.perturb;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.LakeRewriteException;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.sql.Sql;
import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.eval.Difficulty;
import dev.lakerewrite.eval.DifficultyTag;
import dev.lakerewrite.eval.GoldMapping;
import dev.lakerewrite.eval.LakeQueryRunner;
import dev.lakerewrite.eval.Lakes;
import dev.lakerewrite.eval.PairWriter;
import dev.lakerewrite.eval.PlainTable;
import dev.lakerewrite.eval.QueryResultPair;
import dev.lakerewrite.eval.QueryRunException;
import dev.lakerewrite.eval.ResultMetrics;
import dev.lakerewrite.eval.SqlText;
import dev.lakerewrite.eval.perturb.LakePlan.Lookup;
import dev.lakerewrite.eval.perturb.LakePlan.Part;
import dev.lakerewrite.eval.perturb.LakePlan.TablePlan;
import dev.lakerewrite.eval.perturb.SourceSchema.SourceTable;
import dev.lakerewrite.noiseudf.NoiseInjector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The lake disorganizer: turns a clean DuckDB database and queries over it into a disorganized lake and verified
 * query–result pairs (issue 12; the error types of thesis §7.1).
 *
 * <pre>{@code
 * PerturbedLake out = LakePerturber.builder().seed(7).build()
 *     .perturb(Path.of("tpch.duckdb"), queries, Path.of("target/lakes/tpch-s7"));
 * out.lake();       // CSV and Parquet files: Lakes.open(out.lake(), cache), i.e. DataLake.fromFolder
 * out.pairFile();   // pairs.json: user query = the source query, golden query = it over CTEs that undo the disorder
 * }</pre>
 *
 * <p>What it does, all drawn from the seed (the same seed and inputs give byte-identical files):
 * <ul>
 *   <li>renames every table and most columns in one {@link NamingStyle} per lake: WordNet synonyms, abbreviations,
 *       letter case, prefixes, plural/singular, vendor codes;</li>
 *   <li>splits some tables by columns (two tables sharing a key named differently in each, no declared keys) and
 *       some by rows (a union gives them back);</li>
 *   <li>re-encodes some columns ({@link Encoding}): labels as codes with a lookup table, numbers as text with units
 *       and separators, dates in other formats, booleans as words;</li>
 *   <li>injects seeded cell noise (noise-udf's {@link NoiseInjector}) into some lake tables of a copy of the lake;
 *       pairs reading them are Noise pairs and run on that copy.</li>
 * </ul>
 * Every pair is verified as it is made: the golden query runs through core's safe executor on the lake as the
 * harness loads it ({@link Lakes#open}: {@code DataLake.fromCsvFolder} for CSV files only, {@code fromFolder} with
 * Parquet) and must return the source query's result exactly (same columns, same
 * rows; same order when the query has a top-level ORDER BY), else the query is dropped with its reason
 * ({@link PerturbedLake#dropped()}). Each pair records its gold mapping, its error-type tags, its perturbation
 * kinds and its SQL shapes.
 *
 * <p>Cost: one pass over the source per lake table (DuckDB {@code COPY}), one lake load, and two executions per
 * query. Immutable and thread-safe; {@link #perturb} calls do not share state.
 */
public final class LakePerturber {

  static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private final Settings settings;
  private final long seed;
  private final Set<String> tables;
  private final String lakeName;
  private final Path cacheDirectory;

  private LakePerturber(Builder b) {
    this.settings = new Settings(b.verticalSplitRate, b.horizontalSplitRate, b.encodingRate, b.noiseTableRate,
        b.noiseCellRate, b.maxResultRows, b.format);
    this.seed = b.seed;
    this.tables = Set.copyOf(b.tables);
    this.lakeName = b.lakeName;
    this.cacheDirectory = b.cacheDirectory;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The draw rates and limits (see the builder). */
  record Settings(double verticalSplitRate, double horizontalSplitRate, double encodingRate, double noiseTableRate,
      double noiseCellRate, int maxResultRows, Format format) {}

  /** The file format of the lake's tables. */
  public enum Format {
    /**
     * Every table a CSV file (the default): the loader infers the types (a decimal comes back a double, say; the
     * golden queries cast back). The default while a lake of views ({@code DataLake.fromFolder}, which mixed
     * lakes load with) gets no join graph: the join graph reads base tables only.
     */
    CSV,
    /** Every table a Parquet file, with its exact types (tables that get cell noise stay CSV). */
    PARQUET,
    /** Each table CSV or Parquet, drawn from the seed, as in a real lake. */
    MIXED
  }

  /** Configures a {@link LakePerturber}; every setting has a default. */
  public static final class Builder {
    private long seed = 1;
    private double verticalSplitRate = 0.3;
    private double horizontalSplitRate = 0.25;
    private double encodingRate = 0.35;
    private double noiseTableRate = 0.25;
    private double noiseCellRate = 0.05;
    private int maxResultRows = 2_000;
    private Format format = Format.CSV;
    private Set<String> tables = Set.of();
    private @Nullable String lakeName;
    private @Nullable Path cacheDirectory;

    private Builder() {}

    /** The seed every draw comes from (default 1). */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Probability that a table (of 4+ columns) is split by columns (default 0.3). */
    public Builder verticalSplitRate(double rate) {
      this.verticalSplitRate = rate(rate, "verticalSplitRate");
      return this;
    }

    /** Probability that a table (of 6+ rows) is split by rows (default 0.25). */
    public Builder horizontalSplitRate(double rate) {
      this.horizontalSplitRate = rate(rate, "horizontalSplitRate");
      return this;
    }

    /** Base probability that an eligible column is re-encoded (default 0.35; at most 3 per table). */
    public Builder encodingRate(double rate) {
      this.encodingRate = rate(rate, "encodingRate");
      return this;
    }

    /** Probability that a lake table gets cell noise in the noisy copy (default 0.25; 0 for no noisy copy). */
    public Builder noiseTableRate(double rate) {
      this.noiseTableRate = rate(rate, "noiseTableRate");
      return this;
    }

    /** The noise injector's rate per applicable noise kind in a noisy table (default 0.05). */
    public Builder noiseCellRate(double rate) {
      this.noiseCellRate = rate(rate, "noiseCellRate");
      return this;
    }

    /** Queries whose result has more rows are dropped (default 2000): pairs stay small and fast to score. */
    public Builder maxResultRows(int rows) {
      if (rows < 1) {
        throw new IllegalArgumentException("maxResultRows must be at least 1, was " + rows);
      }
      this.maxResultRows = rows;
      return this;
    }

    /** The tables' file format (default {@link Format#CSV}). */
    public Builder format(Format format) {
      this.format = Objects.requireNonNull(format, "format");
      return this;
    }

    /** Only these source tables (default: all); queries reading others are dropped. */
    public Builder tables(Collection<String> names) {
      this.tables = Set.copyOf(Objects.requireNonNull(names, "names"));
      return this;
    }

    /** The lake's name in pair ids and the pair file (default: the output folder's name). */
    public Builder lakeName(String name) {
      this.lakeName = Objects.requireNonNull(name, "name");
      return this;
    }

    /** Where the verification loads of the lake and the source keep their derived data (default: core's). */
    public Builder cacheDirectory(Path directory) {
      this.cacheDirectory = Objects.requireNonNull(directory, "directory");
      return this;
    }

    public LakePerturber build() {
      if (verticalSplitRate + horizontalSplitRate > 1) {
        throw new IllegalArgumentException("verticalSplitRate + horizontalSplitRate must be at most 1, was "
            + (verticalSplitRate + horizontalSplitRate));
      }
      return new LakePerturber(this);
    }

    private static double rate(double rate, String name) {
      if (!(rate >= 0 && rate <= 1)) {
        throw new IllegalArgumentException(name + " must be in [0, 1], was " + rate);
      }
      return rate;
    }
  }

  /**
   * Disorganizes the DuckDB database {@code source} into {@code out} ({@code lake/}, {@code noisy-lake/},
   * {@code pairs.json}, {@code manifest.json}) and makes a verified pair of every query that allows one.
   *
   * @param source a DuckDB database file (read only; never changed)
   * @param queries queries over it; each becomes a pair or a {@linkplain PerturbedLake#dropped() dropped} entry
   * @param out the output folder; must not exist or be empty
   * @throws IllegalArgumentException for a missing source, a non-empty output folder, duplicate query ids or
   *     unknown tables
   * @throws IOException when files cannot be written
   */
  public PerturbedLake perturb(Path source, List<SourceQuery> queries, Path out) throws IOException {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(queries, "queries");
    Objects.requireNonNull(out, "out");
    if (!Files.isRegularFile(source)) {
      throw new IllegalArgumentException("no DuckDB database at " + source.toAbsolutePath().normalize());
    }
    if (Files.isDirectory(out)) {
      try (Stream<Path> s = Files.list(out)) {
        if (s.findAny().isPresent()) {
          throw new IllegalArgumentException("the output folder is not empty: " + out.toAbsolutePath().normalize());
        }
      }
    } else if (Files.exists(out)) {
      throw new IllegalArgumentException("the output path is a file, not a folder: " + out);
    }
    Set<String> ids = new TreeSet<>();
    for (SourceQuery q : queries) {
      if (!ids.add(q.id())) {
        throw new IllegalArgumentException("duplicate query id '" + q.id() + "'");
      }
    }
    String name = lakeName != null ? lakeName
        : out.toAbsolutePath().normalize().getFileName() == null ? "lake" : out.toAbsolutePath().normalize().getFileName().toString();
    Path lakeDir = out.resolve("lake");
    Files.createDirectories(lakeDir);

    SourceSchema schema;
    LakePlan plan;
    String url = "jdbc:duckdb:";
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("SET threads = 1"); // one thread: COPY writes rows in a stable order
      st.execute("ATTACH " + Sql.literal(source.toAbsolutePath().toString()) + " AS src (READ_ONLY)");
      schema = SourceSchema.read(c, "src", tables);
      for (int i = 0; i < schema.tables().size(); i++) {
        SourceTable t = schema.tables().get(i);
        String order = String.join(", ", t.columnNames().stream().map(Sql::quoted).toList());
        st.execute("CREATE TEMP TABLE " + LakePlanner.workTable(i) + " AS SELECT row_number() OVER (ORDER BY "
            + order + ") AS " + LakePlan.SURROGATE_KEY + ", * FROM " + SourceSchema.qualified("src", t.name()));
      }
      plan = new LakePlanner(settings, seed).plan(schema, c);
      writeLake(c, schema, plan, lakeDir);
    } catch (SQLException e) {
      throw new IOException("cannot write the lake from " + source + ": " + e.getMessage(), e);
    }

    Optional<Path> noisyDir = Optional.empty();
    Map<String, Long> noiseCells = new TreeMap<>();
    if (!plan.noiseTables().isEmpty()) {
      Path noisy = out.resolve("noisy-lake");
      NoiseInjector.InjectionReport report = NoiseInjector.builder().seed(seed).rate(settings.noiseCellRate())
          .tables(plan.noiseTables()).build().inject(lakeDir, noisy);
      report.changed().forEach(cell -> noiseCells.merge(cell.table(), 1L, Long::sum));
      noisyDir = Optional.of(noisy);
    }

    List<QueryResultPair> pairs = new ArrayList<>();
    List<PerturbedLake.Dropped> dropped = new ArrayList<>();
    DataLake.Builder lakes = DataLake.builder().queryTimeout(Duration.ofSeconds(60));
    if (cacheDirectory != null) {
      lakes.cacheDirectory(cacheDirectory);
    }
    try (DataLake clean = lakes.open(source); DataLake lake = Lakes.open(lakeDir, cacheDirectory);
        LakeSession cleanSession = clean.openSession(); LakeSession lakeSession = lake.openSession()) {
      QueryLimits limits = new QueryLimits(Duration.ofSeconds(60), settings.maxResultRows());
      LakeQueryRunner sourceRunner = LakeQueryRunner.on(cleanSession, limits);
      LakeQueryRunner lakeRunner = LakeQueryRunner.on(lakeSession, limits);
      GoldenQueries golden = new GoldenQueries(schema, plan, loadedTypes(lake, plan, lakeDir));
      for (SourceQuery q : queries) {
        try {
          pairs.add(pair(name, q, schema, plan, golden, sourceRunner, lakeRunner, noiseCells));
        } catch (DropException e) {
          dropped.add(new PerturbedLake.Dropped(q.id(), e.getMessage()));
        }
      }
    } catch (LakeRewriteException e) {
      throw new IOException("cannot load the written lake " + lakeDir + " for verification: " + e.getMessage(), e);
    }

    Path pairFile = out.resolve("pairs.json");
    PairWriter.write(pairFile, name, "disorganized from " + source.getFileName() + " with seed " + seed + " ("
        + plan.style() + "); golden queries undo the disorder exactly", pairs);
    Path manifest = out.resolve("manifest.json");
    JSON.writeValue(manifest.toFile(), manifest(name, source, schema, plan, noiseCells, pairs, dropped));
    return new PerturbedLake(out, lakeDir, noisyDir, pairFile, manifest, plan, pairs, dropped);
  }

  /** Writes lookups and parts as CSV files with DuckDB's COPY. */
  private static void writeLake(Connection c, SourceSchema schema, LakePlan plan, Path lakeDir) throws SQLException {
    try (Statement st = c.createStatement()) {
      Map<Lookup, String> lookupTemp = new LinkedHashMap<>();
      for (Lookup l : plan.lookups()) {
        int i = indexOf(schema, l.sourceTable());
        String temp = "lk_" + lookupTemp.size();
        lookupTemp.put(l, temp);
        st.execute("CREATE TEMP TABLE " + temp + " AS SELECT label, CAST(dense_rank() OVER (ORDER BY label) - 1 + "
            + l.encoding().firstCode() + " AS INTEGER) AS code FROM (SELECT DISTINCT " + Sql.quoted(l.sourceColumn())
            + " AS label FROM " + LakePlanner.workTable(i) + " WHERE " + Sql.quoted(l.sourceColumn()) + " IS NOT NULL)");
        st.execute("COPY (SELECT code AS " + Sql.quoted(l.encoding().codeColumn()) + ", label AS "
            + Sql.quoted(l.encoding().labelColumn()) + " FROM " + temp + " ORDER BY code) TO "
            + Sql.literal(lakeDir.resolve(l.file()).toAbsolutePath().toString()) + copyOptions(l.file()));
      }
      for (TablePlan tp : plan.tables()) {
        int i = indexOf(schema, tp.source());
        for (Part p : tp.parts()) {
          List<String> items = new ArrayList<>();
          List<String> joins = new ArrayList<>();
          for (Map.Entry<String, String> e : p.columns().entrySet()) {
            String column = e.getKey();
            String ref = "w." + (column.equals(LakePlan.SURROGATE_KEY) ? column : Sql.quoted(column));
            Encoding enc = tp.encoding(column);
            String expression;
            if (enc instanceof Encoding.CodeLookup code) {
              Lookup l = plan.lookups().stream().filter(x -> x.encoding().equals(code)).findFirst().orElseThrow();
              String alias = "j" + joins.size();
              joins.add("LEFT JOIN " + lookupTemp.get(l) + " " + alias + " ON " + ref + " = " + alias + ".label");
              expression = alias + ".code";
            } else {
              expression = enc.encode(ref);
            }
            items.add(expression + " AS " + Sql.quoted(e.getValue()));
          }
          String filter = p.rowFilter();
          st.execute("COPY (SELECT " + String.join(", ", items) + " FROM " + LakePlanner.workTable(i) + " w "
              + String.join(" ", joins) + " WHERE " + filter + " ORDER BY w." + LakePlan.SURROGATE_KEY + ") TO "
              + Sql.literal(lakeDir.resolve(p.file()).toAbsolutePath().toString()) + copyOptions(p.file()));
        }
      }
    }
  }

  private static String copyOptions(String file) {
    return file.endsWith(".parquet") ? " (FORMAT PARQUET)" : " (HEADER, DELIMITER ',')";
  }

  private static int indexOf(SourceSchema schema, String table) {
    for (int i = 0; i < schema.tables().size(); i++) {
      if (schema.tables().get(i).name().equals(table)) {
        return i;
      }
    }
    throw new IllegalStateException("no source table " + table);
  }

  /** Lake table (lower case) → column → type, as the loader typed the files; checks every planned table loaded. */
  private static Map<String, Map<String, String>> loadedTypes(DataLake lake, LakePlan plan, Path lakeDir) {
    Map<String, Map<String, String>> out = new TreeMap<>();
    for (CatalogTable t : lake.catalog().tables()) {
      Map<String, String> cols = new LinkedHashMap<>();
      t.columns().forEach(c -> cols.put(c.name(), c.type()));
      out.put(t.name().toLowerCase(Locale.ROOT), cols);
    }
    for (String table : plan.lakeTables()) {
      if (!out.containsKey(table.toLowerCase(Locale.ROOT))) {
        throw new IllegalStateException("the lake loader did not produce the table " + table + " from " + lakeDir
            + " (it has " + out.keySet() + ")");
      }
    }
    return out;
  }

  /** Signals a query that gives no pair. */
  private static final class DropException extends Exception {
    DropException(String message) {
      super(message, null, false, false);
    }
  }

  private QueryResultPair pair(String lake, SourceQuery q, SourceSchema schema, LakePlan plan, GoldenQueries golden,
      LakeQueryRunner sourceRunner, LakeQueryRunner lakeRunner, Map<String, Long> noiseCells) throws DropException {
    List<SqlText.Token> tokens = SqlTokens.tokenize(q.sql());
    Map<String, SourceTable> byName = new TreeMap<>();
    schema.tables().forEach(t -> byName.put(t.name().toLowerCase(Locale.ROOT), t));
    Set<String> used = new LinkedHashSet<>();
    for (SqlText.Token t : tokens) {
      String id = t.identifier();
      if (id != null && byName.containsKey(id)) {
        used.add(id);
      }
    }
    if (used.isEmpty()) {
      throw new DropException("reads no table of the schema" + (tables.isEmpty() ? "" : " (restricted to " + tables + ")"));
    }
    boolean star = false;
    for (int i = 1; i < tokens.size(); i++) {
      SqlText.Token prev = tokens.get(i - 1);
      if (tokens.get(i).isSymbol("*") && (prev.isKeyword("SELECT") || prev.isSymbol(",") || prev.isSymbol(".")
          || prev.isKeyword("DISTINCT"))) {
        star = true;
      }
    }
    Set<String> identifiers = new LinkedHashSet<>();
    tokens.forEach(t -> {
      if (t.identifier() != null) {
        identifiers.add(t.identifier());
      }
    });

    PlainTable expected;
    try {
      expected = sourceRunner.run(q.sql());
    } catch (QueryRunException e) {
      throw new DropException("the query fails on the source: " + e.getMessage());
    }
    if (expected.isEmpty()) {
      throw new DropException("empty result: an empty answer would score 1");
    }
    if (expected.allNull()) {
      throw new DropException("all-NULL result");
    }

    List<String> ctes = new ArrayList<>();
    Set<String> required = new LinkedHashSet<>();
    Map<String, List<String>> tableGold = new LinkedHashMap<>();
    Map<String, GoldMapping.ColumnGold> columnGold = new LinkedHashMap<>();
    Set<Perturbation> kinds = EnumSet.noneOf(Perturbation.class);
    Set<DifficultyTag> tags = EnumSet.noneOf(DifficultyTag.class);
    Set<String> encodedColumns = new TreeSet<>();
    Set<String> renamedColumns = new TreeSet<>();
    for (String t : used) {
      SourceTable st = byName.get(t);
      List<String> columns = star ? st.columnNames()
          : st.columnNames().stream().filter(c -> identifiers.contains(c.toLowerCase(Locale.ROOT))).toList();
      if (columns.isEmpty()) { // COUNT(*) and the like: one column keeps the row count
        columns = List.of(st.key().orElse(st.columnNames().get(0)));
      }
      GoldenQueries.Rebuilt r = golden.rebuild(st.name(), columns);
      ctes.add(r.cte());
      required.addAll(r.lakeTables());
      tableGold.put(t, List.copyOf(r.lakeTables()));
      columnGold.putAll(r.columns());
      kinds.addAll(r.perturbations());
      encodedColumns.addAll(r.encodedColumns());
      TablePlan tp = plan.table(st.name()).orElseThrow();
      for (String c : columns) {
        String lakeName = tp.partsHolding(c).get(0).columns().get(c);
        if (!Words.tokens(lakeName).equals(Words.tokens(c))) {
          renamedColumns.add(c.toLowerCase(Locale.ROOT));
        }
      }
      if (r.needsSecondPart()) {
        tags.add(DifficultyTag.MISSING_TABLE);
        tags.add(DifficultyTag.KEY_MISMATCH);
      }
    }
    String goldenSql = GoldenQueries.compose(q.sql(), ctes);
    PlainTable actual;
    try {
      actual = lakeRunner.run(goldenSql);
    } catch (QueryRunException e) {
      throw new DropException("the golden query fails on the lake: " + e.getMessage());
    }
    boolean ordered = SqlText.hasTopLevelOrderBy(q.sql());
    if (!actual.columns().equals(expected.columns())) {
      throw new DropException("not reproduced: the golden query's columns " + actual.columns() + " differ from "
          + expected.columns());
    }
    if (!ResultMetrics.exactMatch(actual, expected, ordered)) {
      throw new DropException("not reproduced: the golden query's result differs from the source result ("
          + actual.rowCount() + " vs " + expected.rowCount() + " rows; ties under ORDER BY ... LIMIT, or a decoding "
          + "that is not exact)");
    }

    if (kinds.contains(Perturbation.RENAME_TABLE) || !renamedColumns.isEmpty()) {
      tags.add(DifficultyTag.NAME_MISMATCH);
    }
    if (kinds.contains(Perturbation.HORIZONTAL_SPLIT)) {
      tags.add(DifficultyTag.UNION);
    }
    if (kinds.contains(Perturbation.CODE_LOOKUP)) {
      tags.add(DifficultyTag.MISSING_TABLE);
    }
    Set<String> allColumns = new TreeSet<>();
    used.forEach(t -> byName.get(t).columnNames().forEach(c -> allColumns.add(c.toLowerCase(Locale.ROOT))));
    for (int i = 0; i < tokens.size(); i++) {
      String id = tokens.get(i).identifier();
      if (id == null) {
        continue;
      }
      if (encodedColumns.contains(id) && SqlTokens.comparedWithLiteral(tokens, i)) {
        tags.add(DifficultyTag.FILTER_MISMATCH);
      }
      if (renamedColumns.contains(id) && SqlTokens.equatedWithColumn(tokens, i, allColumns::contains)) {
        tags.add(DifficultyTag.KEY_MISMATCH);
      }
    }
    boolean noisy = required.stream().anyMatch(t -> noiseCells.getOrDefault(t, 0L) > 0);
    if (noisy) {
      tags.add(DifficultyTag.NOISE);
      kinds.add(Perturbation.CELL_NOISE);
    }
    if (tags.isEmpty()) {
      tags.add(DifficultyTag.NAME_MISMATCH); // renamed nothing it reads: still a lake of other names
    }
    long hard = tags.stream().filter(t -> t != DifficultyTag.NAME_MISMATCH).count();
    Difficulty difficulty = hard == 0 ? Difficulty.EASY : hard <= 2 ? Difficulty.MEDIUM : Difficulty.HARD;
    Set<SqlShape> shapes = q.shapes().isEmpty() ? SqlShape.detect(q.sql(), byName.keySet()) : q.shapes();
    List<String> kindLabels = kinds.stream().map(Perturbation::label).toList();
    List<String> shapeLabels = shapes.stream().sorted().map(SqlShape::label).toList();
    return new QueryResultPair(lake + "/" + q.id(), q.sql().strip(), goldenSql, expected, difficulty, tags, noisy,
        List.copyOf(required), "lake seed " + seed + "; " + String.join(", ", kindLabels),
        new GoldMapping(tableGold, columnGold), kindLabels, shapeLabels);
  }

  private ObjectNode manifest(String name, Path source, SourceSchema schema, LakePlan plan,
      Map<String, Long> noiseCells, List<QueryResultPair> pairs, List<PerturbedLake.Dropped> dropped) {
    ObjectNode m = JSON.createObjectNode();
    m.put("lake", name);
    m.put("source", source.getFileName().toString());
    m.put("seed", seed);
    ObjectNode s = m.putObject("settings");
    s.put("vertical_split_rate", settings.verticalSplitRate());
    s.put("horizontal_split_rate", settings.horizontalSplitRate());
    s.put("encoding_rate", settings.encodingRate());
    s.put("noise_table_rate", settings.noiseTableRate());
    s.put("noise_cell_rate", settings.noiseCellRate());
    s.put("max_result_rows", settings.maxResultRows());
    m.put("naming_style", plan.style().toString());
    ArrayNode ts = m.putArray("tables");
    for (TablePlan tp : plan.tables()) {
      ObjectNode t = ts.addObject();
      t.put("source", tp.source());
      t.put("layout", tp.layout().name().toLowerCase(Locale.ROOT));
      tp.key().ifPresent(k -> t.put("key", k));
      ArrayNode parts = t.putArray("parts");
      for (Part p : tp.parts()) {
        ObjectNode po = parts.addObject();
        po.put("table", p.table());
        po.put("file", p.file());
        po.put("rows", p.description());
        ObjectNode cols = po.putObject("columns");
        p.columns().forEach(cols::put);
      }
      ObjectNode enc = t.putObject("encodings");
      tp.encodings().forEach((c, e) -> enc.put(c, e.kind() + ": " + e.describe()));
    }
    ArrayNode lookups = m.putArray("lookups");
    plan.lookups().forEach(l -> lookups.addObject().put("table", l.table()).put("for", l.sourceTable() + "."
        + l.sourceColumn()).put("code", l.encoding().codeColumn()).put("label", l.encoding().labelColumn()));
    ObjectNode noise = m.putObject("noise");
    noise.put("cell_rate", settings.noiseCellRate());
    ArrayNode nt = noise.putArray("tables");
    plan.noiseTables().forEach(nt::add);
    ObjectNode changed = noise.putObject("changed_cells");
    noiseCells.forEach(changed::put);
    m.put("pairs", pairs.size());
    ObjectNode droppedNode = m.putObject("dropped");
    droppedNode.put("count", dropped.size());
    ArrayNode list = droppedNode.putArray("queries");
    dropped.forEach(d -> list.addObject().put("id", d.queryId()).put("reason", d.reason()));
    return m;
  }
}
