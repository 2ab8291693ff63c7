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
 * (computed on first request, then kept in memory and in {@code profiles.json} in the lake's cache directory,
 * keyed by the lake's fingerprint). Thread-safe.
 */
public final class LakeCatalog {
  static final String PROFILES_FILE = "profiles.json";
  /** Distinct values read per column to infer its type family and pick samples. */
  static final int PROFILE_VALUES = 200;
  static final int SAMPLE_VALUES = 5;
  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final DataLake lake;
  private final LakeLoader.Manifest manifest;
  private volatile List<CatalogTable> tables;
  private final Map<String, TableProfile> profiles = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
  private boolean profilesLoaded;

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
      if (p == null) {
        p = computeProfile(info);
        profiles.put(info.name(), p);
        saveProfiles();
      }
      return p;
    }
  }

  /** Profiles of every table (computing the missing ones). */
  public Map<String, TableProfile> profiles() {
    synchronized (profiles) {
      loadProfiles();
      boolean changed = false;
      for (CatalogTable t : tables()) {
        if (!profiles.containsKey(t.name())) {
          profiles.put(t.name(), computeProfile(t));
          changed = true;
        }
      }
      if (changed) {
        saveProfiles();
      }
      return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(profiles));
    }
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

  /**
   * Profiles a table in one scan: every column cast to text and unpivoted (which drops NULLs), grouped per
   * column and value; distinct and non-null counts come from the groups, samples from the most frequent ones.
   */
  private TableProfile computeProfile(CatalogTable table) {
    String sql = "WITH u AS (UNPIVOT (SELECT COLUMNS(*)::VARCHAR FROM " + Sql.quoted(table.name()) + ") "
        + "ON COLUMNS(*) INTO NAME col VALUE v), "
        + "g AS (SELECT col, v, count(*) AS n FROM u GROUP BY ALL) "
        + "SELECT col, count(*) OVER (PARTITION BY col) AS distinct_count, "
        + "sum(n) OVER (PARTITION BY col) AS non_null, v FROM g "
        + "QUALIFY row_number() OVER (PARTITION BY col ORDER BY n DESC, v) <= " + PROFILE_VALUES + " "
        + "ORDER BY col, n DESC, v";
    Map<String, long[]> counts = new java.util.HashMap<>();
    Map<String, List<String>> frequent = new java.util.HashMap<>();
    try (Connection c = privateConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        String col = rs.getString(1);
        counts.putIfAbsent(col, new long[] {rs.getLong(2), rs.getLong(3)});
        frequent.computeIfAbsent(col, k -> new ArrayList<>()).add(rs.getString(4));
      }
    } catch (SQLException e) {
      throw new LakeRewriteException("cannot profile table " + table.name() + ": " + e.getMessage(), e);
    }
    long rows = table.rowCount();
    List<ColumnProfile> out = new ArrayList<>(table.columns().size());
    for (CatalogTable.Column col : table.columns()) {
      long[] dn = counts.getOrDefault(col.name(), new long[] {0, 0});
      long distinct = dn[0];
      long nonNull = dn[1];
      List<String> values = frequent.getOrDefault(col.name(), List.of());
      double nullFraction = rows == 0 ? 0 : (double) (rows - nonNull) / rows;
      double uniqueness = nonNull == 0 ? 0 : (double) distinct / nonNull;
      out.add(new ColumnProfile(col.name(), col.type(), nonNull, distinct, nullFraction, uniqueness,
          values.subList(0, Math.min(SAMPLE_VALUES, values.size())), TypeFamily.infer(col.type(), values)));
    }
    return new TableProfile(table.name(), rows, out);
  }

  /** Bump when profiling or type-family inference changes, so cached profiles are recomputed. */
  static final int PROFILE_VERSION = 3;

  /** On-disk form of the profile cache. */
  record ProfileFile(int version, String fingerprint, Map<String, TableProfile> tables) {}

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
      if (pf.version() == PROFILE_VERSION && lake.fingerprint().equals(pf.fingerprint()) && pf.tables() != null) {
        profiles.putAll(pf.tables());
      }
    } catch (IOException e) {
      // A damaged cache only costs recomputation.
    }
  }

  private void saveProfiles() {
    Path file = lake.cacheDirectory().resolve(PROFILES_FILE);
    Path tmp = file.resolveSibling(PROFILES_FILE + "." + ProcessHandle.current().pid() + ".tmp");
    try {
      JSON.writeValue(tmp.toFile(), new ProfileFile(PROFILE_VERSION, lake.fingerprint(), new TreeMap<>(profiles)));
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // The cache is an optimisation: profiles stay correct in memory.
    }
  }


}
