package dev.lakerewrite.core;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakerewrite.retrieval.TypeFamily;
import dev.lakerewrite.sql.Sql;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The lake's tables, columns, types and row counts (read once when the lake opens), and per-column profiles
 * (computed on first request or by {@link DataLake#index()}, then kept in memory and in {@code profiles.json} in
 * the lake's cache directory, each keyed by its table's fingerprint, so a changed file recomputes only its table's
 * profile). Tables above a million rows are profiled with bounded memory: exact non-null counts and HyperLogLog
 * distinct counts ({@code approx_count_distinct}) in one streaming scan, frequent values from a Bernoulli sample
 * of a million rows. Thread-safe.
 */
public final class LakeCatalog {
  static final String PROFILES_FILE = "profiles.json";
  /** Distinct values read per column to infer its type family and pick samples. */
  static final int PROFILE_VALUES = 200;
  static final int SAMPLE_VALUES = 5;
  /** Tables above this many rows are profiled from a sample (frequent values) and sketches (distinct counts). */
  static final long SAMPLE_ROWS = 1_000_000;
  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final DataLake lake;
  private final LakeLoader.Manifest manifest;
  private volatile List<CatalogTable> tables;
  private final Map<String, TableProfile> profiles = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
  private boolean profilesLoaded;
  private volatile Map<String, String> manifestFingerprints;

  LakeCatalog(DataLake lake, LakeLoader.Manifest manifest) {
    this.lake = lake;
    this.manifest = manifest;
  }

  /** All tables, sorted by name. */
  public List<CatalogTable> tables() {
    List<CatalogTable> t = tables;
    if (t == null) {
      synchronized (this) {
        t = tables;
        if (t == null) {
          t = readTables();
          tables = t;
        }
      }
    }
    return t;
  }

  /** Table names, sorted. */
  public List<String> tableNames() {
    return tables().stream().map(CatalogTable::name).toList();
  }

  /** The table with this name (exact, else case-insensitive), if the lake has it. */
  public Optional<CatalogTable> table(String name) {
    List<CatalogTable> all = tables();
    for (CatalogTable t : all) {
      if (t.name().equals(name)) {
        return Optional.of(t);
      }
    }
    return all.stream().filter(t -> t.name().equalsIgnoreCase(name)).findFirst();
  }

  /**
   * The table with this name.
   *
   * @throws UnknownTableException naming the nearest existing tables
   */
  public CatalogTable requireTable(String name) {
    return table(name).orElseThrow(() -> new UnknownTableException(name, tableNames()));
  }

  /** The profile of one table, computed on first request and cached. */
  public TableProfile profile(String table) {
    CatalogTable info = requireTable(table);
    synchronized (profiles) {
      loadProfiles();
      TableProfile p = profiles.get(info.name());
      if (p != null) {
        return p;
      }
    }
    TableProfile computed = computeProfile(info);
    synchronized (profiles) {
      TableProfile p = profiles.putIfAbsent(info.name(), computed);
      if (p == null) {
        saveProfiles();
      }
      return p == null ? computed : p;
    }
  }

  /** Profiles of every table (computing the missing ones). */
  public Map<String, TableProfile> profiles() {
    computeMissingProfiles(1, (done, total) -> {});
    synchronized (profiles) {
      return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(profiles));
    }
  }

  /**
   * Computes the profiles the cache does not hold (tables added or changed since), {@code threads} tables at a
   * time, and saves them once.
   *
   * @param progress told (tables done, tables to do) after each table
   * @return the tables profiled now
   */
  List<String> computeMissingProfiles(int threads, java.util.function.BiConsumer<Integer, Integer> progress) {
    List<CatalogTable> todo = new ArrayList<>();
    synchronized (profiles) {
      loadProfiles();
      for (CatalogTable t : tables()) {
        if (!profiles.containsKey(t.name())) {
          todo.add(t);
        }
      }
    }
    progress.accept(0, todo.size());
    if (todo.isEmpty()) {
      return List.of();
    }
    java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
    Parallel.forEach(todo, threads, "lakerewrite-profile", t -> {
      TableProfile p = computeProfile(t);
      synchronized (profiles) {
        profiles.putIfAbsent(t.name(), p);
      }
      progress.accept(done.incrementAndGet(), todo.size());
    });
    synchronized (profiles) {
      saveProfiles();
    }
    return todo.stream().map(CatalogTable::name).toList();
  }

  /** The fingerprint of one table's content: its files' (from the manifest), else the whole lake's. */
  String tableFingerprint(String table) {
    Map<String, String> byName = manifestFingerprints;
    if (byName == null) {
      byName = new java.util.HashMap<>();
      if (manifest != null) {
        for (LakeLoader.ManifestTable t : manifest.tables()) {
          byName.put(t.name(), t.fingerprint());
        }
      }
      manifestFingerprints = byName;
    }
    return byName.getOrDefault(table, lake.fingerprint());
  }

  /** Every table's fingerprint, by name. */
  Map<String, String> tableFingerprints() {
    Map<String, String> out = new LinkedHashMap<>();
    for (CatalogTable t : tables()) {
      out.put(t.name(), tableFingerprint(t.name()));
    }
    return out;
  }

  private List<CatalogTable> readTables() {
    Map<String, Path> sources = new LinkedHashMap<>();
    Map<String, Long> rowCounts = new LinkedHashMap<>();
    if (manifest != null) {
      for (LakeLoader.ManifestTable t : manifest.tables()) {
        sources.put(t.name(), lake.source().resolve(t.location()));
        rowCounts.put(t.name(), t.rows());
      }
    }
    try (Connection c = privateConnection()) {
      Map<String, List<CatalogTable.Column>> columns = new LinkedHashMap<>();
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery(
              "SELECT table_name, column_name, data_type FROM duckdb_columns() "
                  + "WHERE NOT internal AND database_name = current_database() AND schema_name = 'main' "
                  + "ORDER BY table_name, column_index")) {
        while (rs.next()) {
          columns.computeIfAbsent(rs.getString(1), k -> new ArrayList<>())
              .add(new CatalogTable.Column(rs.getString(2), rs.getString(3)));
        }
      }
      List<CatalogTable> out = new ArrayList<>();
      for (Map.Entry<String, List<CatalogTable.Column>> e : columns.entrySet()) {
        // Loaded lakes know their row counts; counting a view would read its files at every open.
        Long rows = rowCounts.get(e.getKey());
        if (rows == null) {
          try (Statement st = c.createStatement();
              ResultSet rs = st.executeQuery("SELECT count(*) FROM " + Sql.quoted(e.getKey()))) {
            rs.next();
            rows = rs.getLong(1);
          }
        }
        out.add(new CatalogTable(e.getKey(), e.getValue(), rows, Optional.ofNullable(sources.get(e.getKey()))));
      }
      if (out.isEmpty()) {
        throw new LakeLoadException(lake.databaseFile(), "empty lake: the database holds no tables");
      }
      return List.copyOf(out);
    } catch (SQLException e) {
      throw new LakeLoadException(lake.databaseFile(), "cannot read the table catalog: " + e.getMessage(), e);
    }
  }

  private Connection privateConnection() throws SQLException {
    org.duckdb.DuckDBConnection root = (org.duckdb.DuckDBConnection) lake.rootConnection();
    synchronized (root) {
      return root.duplicate();
    }
  }

  /** Profiles a table: one {@link TableScan} (with a second, streaming scan for counts above a million rows). */
  private TableProfile computeProfile(CatalogTable table) {
    try (Connection c = privateConnection()) {
      return profileOf(TableScan.scan(c, table, SAMPLE_ROWS, Integer.MAX_VALUE));
    } catch (SQLException e) {
      throw new LakeRewriteException("cannot profile table " + table.name() + ": " + e.getMessage(), e);
    }
  }

  /**
   * A table's profile from its scan: per column the distinct and non-null counts and the most frequent values
   * (type family from the first {@value #PROFILE_VALUES}, samples the first {@value #SAMPLE_VALUES}). When the scan
   * sampled the rows, the counts come from one streaming scan of the whole table instead (exact non-null counts,
   * HyperLogLog distinct counts).
   */
  TableProfile profileOf(TableScan.Result scan) {
    CatalogTable table = scan.table();
    Map<String, long[]> counts = new java.util.HashMap<>();
    for (TableScan.Column c : scan.columns()) {
      counts.put(c.name(), new long[] {c.values().size(), c.nonNull()});
    }
    if (scan.sampled() && !table.columns().isEmpty()) {
      wholeTableCounts(table, counts);
    }
    long rows = table.rowCount();
    List<ColumnProfile> out = new ArrayList<>(table.columns().size());
    for (TableScan.Column col : scan.columns()) {
      long[] dn = counts.getOrDefault(col.name(), new long[] {0, 0});
      long distinct = dn[0];
      long nonNull = dn[1];
      List<String> values = col.values().subList(0, Math.min(PROFILE_VALUES, col.values().size()));
      double nullFraction = rows == 0 ? 0 : (double) (rows - nonNull) / rows;
      double uniqueness = nonNull == 0 ? 0 : (double) distinct / nonNull;
      out.add(new ColumnProfile(col.name(), col.type(), nonNull, distinct, nullFraction, uniqueness,
          values.subList(0, Math.min(SAMPLE_VALUES, values.size())), TypeFamily.infer(col.type(), values)));
    }
    return new TableProfile(table.name(), rows, out);
  }

  /** Tables whose profile is neither in memory nor in the cache. */
  java.util.Set<String> tablesWithoutProfile() {
    synchronized (profiles) {
      loadProfiles();
      java.util.Set<String> out = new java.util.LinkedHashSet<>();
      for (CatalogTable t : tables()) {
        if (!profiles.containsKey(t.name())) {
          out.add(t.name());
        }
      }
      return out;
    }
  }

  /** Keeps a profile computed elsewhere (from a scan made for the indexes); {@link #saveComputedProfiles} stores it. */
  void putProfile(TableProfile p) {
    synchronized (profiles) {
      profiles.putIfAbsent(p.table(), p);
    }
  }

  /** Writes the profiles in memory to the cache. */
  void saveComputedProfiles() {
    synchronized (profiles) {
      saveProfiles();
    }
  }

  /** Exact non-null and approximate distinct counts of every column, in one streaming scan of the table. */
  private void wholeTableCounts(CatalogTable table, Map<String, long[]> counts) {
    StringBuilder sql = new StringBuilder("SELECT ");
    List<CatalogTable.Column> cols = table.columns();
    for (int i = 0; i < cols.size(); i++) {
      String c = Sql.quoted(cols.get(i).name());
      // The values themselves are hashed: casting every cell to text would cost more than the count.
      sql.append(i == 0 ? "" : ", ").append("count(").append(c).append("), approx_count_distinct(").append(c)
          .append(')');
    }
    sql.append(" FROM ").append(Sql.quoted(table.name()));
    try (Connection c = privateConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql.toString())) {
      rs.next();
      for (int i = 0; i < cols.size(); i++) {
        long nonNull = rs.getLong(2 * i + 1);
        counts.put(cols.get(i).name(), new long[] {Math.min(nonNull, rs.getLong(2 * i + 2)), nonNull});
      }
    } catch (SQLException e) {
      throw new LakeRewriteException("cannot count the values of table " + table.name() + ": " + e.getMessage(), e);
    }
  }

  /** Bump when profiling or type-family inference changes, so cached profiles are recomputed. */
  static final int PROFILE_VERSION = 5;

  /** On-disk form of the profile cache: each table's profile with the fingerprint of the content it describes. */
  record ProfileFile(int version, Map<String, ProfileEntry> tables) {}

  record ProfileEntry(String fingerprint, TableProfile profile) {}

  private void loadProfiles() {
    if (profilesLoaded) {
      return;
    }
    profilesLoaded = true;
    Path file = lake.cacheDirectory().resolve(PROFILES_FILE);
    if (!Files.isRegularFile(file)) {
      return;
    }
    try {
      ProfileFile pf = JSON.readValue(file.toFile(), new TypeReference<ProfileFile>() {});
      if (pf.version() == PROFILE_VERSION && pf.tables() != null) {
        Map<String, String> current = tableFingerprints();
        pf.tables().forEach((name, entry) -> {
          if (entry != null && entry.fingerprint() != null && entry.fingerprint().equals(current.get(name))) {
            profiles.put(name, entry.profile());
          }
        });
      }
    } catch (IOException | RuntimeException e) {
      // A damaged cache only costs recomputation.
    }
  }

  private void saveProfiles() {
    Path file = lake.cacheDirectory().resolve(PROFILES_FILE);
    Path tmp = file.resolveSibling(PROFILES_FILE + "." + ProcessHandle.current().pid() + ".tmp");
    try {
      Map<String, ProfileEntry> entries = new TreeMap<>();
      profiles.forEach((name, p) -> entries.put(name, new ProfileEntry(tableFingerprint(name), p)));
      JSON.writeValue(tmp.toFile(), new ProfileFile(PROFILE_VERSION, entries));
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // The cache is an optimisation: profiles stay correct in memory.
    }
  }


}
