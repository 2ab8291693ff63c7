package dev.lakerewrite.eval.perturb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A corpus of disorganized lakes with a fit / validation / held-out split: several schemas, each disorganized with
 * several lake seeds, each lake paired with queries (the schema's standard queries plus generated ones of every SQL
 * shape).
 *
 * <h2>The split</h2>
 * Both lakes and queries are split, so the held-out part has naming habits, encodings and splits the fitting never
 * saw, and queries it never saw either:
 * <ul>
 *   <li>lakes: the {@link Spec#fitSeeds()} give fit lakes, the {@link Spec#validationSeeds()} validation lakes, the
 *       {@link Spec#heldOutSeeds()} held-out lakes (all disjoint);</li>
 *   <li>queries: a query is held out when the first byte of SHA-256({@code corpus/schema/query id}) is odd; fit
 *       lakes get only fit queries and held-out lakes only held-out queries. Validation lakes get queries of their
 *       own: {@link Spec#validationQueries()} more generated per schema with another generator seed ({@code val-}
 *       ids), none of them textually a fit or held-out query.</li>
 * </ul>
 * Fit a matcher and develop on the fit part; choose between versions on the validation part (new lakes and new
 * queries, read as often as a choice needs, never looked at pair by pair); report on the held-out part, read once.
 *
 * <h2>Layout</h2>
 * {@code <root>/<corpus>-<fingerprint>/corpus.json} (the index) and one folder per lake {@code <schema>-s<seed>/}
 * as {@link LakePerturber} writes it. Building is deterministic: the same spec gives the same files. An existing
 * corpus with the same spec fingerprint is reused; otherwise earlier builds of the corpus are removed and it is
 * built anew in a folder of its own (so caches keyed by a lake's path never serve an older lake).
 */
public final class PerturbedCorpus {

  /** Bumped when the generator's output changes, so old corpora are rebuilt. */
  static final int FORMAT_VERSION = 1;

  private PerturbedCorpus() {}

  /** Which part of the split. */
  public enum Split {
    FIT, VALIDATION, HELD_OUT;

    public String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Optional<Split> fromLabel(String label) {
      for (Split s : values()) {
        if (s.label().equalsIgnoreCase(label.strip()) || s.name().equalsIgnoreCase(label.strip())) {
          return Optional.of(s);
        }
      }
      return Optional.empty();
    }
  }

  /**
   * One schema of the corpus.
   *
   * @param name a short name (folder names)
   * @param database the clean DuckDB database
   * @param tables the tables of the schema (empty for all)
   * @param standardQueries the schema's own queries (TPC-H's 22, ...), possibly none
   * @param generatedQueries how many queries to generate over it
   */
  public record Schema(String name, Path database, Set<String> tables, List<SourceQuery> standardQueries,
      int generatedQueries) {
    public Schema {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(database, "database");
      tables = Set.copyOf(tables);
      standardQueries = List.copyOf(standardQueries);
    }
  }

  /**
   * What to build.
   *
   * @param name the corpus name ({@code tpch}, {@code tpcds}, {@code wikidbs-perturbed})
   * @param description one line
   * @param schemas the schemas
   * @param fitSeeds lake seeds of the fit part
   * @param heldOutSeeds lake seeds of the held-out part
   * @param validationSeeds lake seeds of the validation part (the three parts' seeds pairwise disjoint)
   * @param validationQueries queries generated per schema for the validation lakes (0 when there are none)
   * @param maxResultRows queries with larger results are dropped
   */
  public record Spec(String name, String description, List<Schema> schemas, List<Long> fitSeeds,
      List<Long> heldOutSeeds, List<Long> validationSeeds, int validationQueries, int maxResultRows) {
    public Spec {
      Objects.requireNonNull(name, "name");
      schemas = List.copyOf(schemas);
      fitSeeds = List.copyOf(fitSeeds);
      heldOutSeeds = List.copyOf(heldOutSeeds);
      validationSeeds = List.copyOf(validationSeeds);
      if (fitSeeds.stream().anyMatch(heldOutSeeds::contains)) {
        throw new IllegalArgumentException("fit and held-out lake seeds must differ: " + fitSeeds + " / " + heldOutSeeds);
      }
      Set<Long> others = new HashSet<>(fitSeeds);
      others.addAll(heldOutSeeds);
      if (validationSeeds.stream().anyMatch(others::contains)) {
        throw new IllegalArgumentException("validation lake seeds must differ from the fit and held-out ones: "
            + validationSeeds + " / " + fitSeeds + " / " + heldOutSeeds);
      }
      if (validationQueries < 0 || validationQueries > 0 && validationSeeds.isEmpty()) {
        throw new IllegalArgumentException("validation queries must be at least 0, and need validation seeds; was "
            + validationQueries + " with seeds " + validationSeeds);
      }
    }

    /** A spec without a validation part. */
    public Spec(String name, String description, List<Schema> schemas, List<Long> fitSeeds, List<Long> heldOutSeeds,
        int maxResultRows) {
      this(name, description, schemas, fitSeeds, heldOutSeeds, List.of(), 0, maxResultRows);
    }

    /** The lake seeds of one part. */
    public List<Long> seeds(Split split) {
      return switch (split) {
        case FIT -> fitSeeds;
        case VALIDATION -> validationSeeds;
        case HELD_OUT -> heldOutSeeds;
      };
    }
  }

  /**
   * One lake of a built corpus.
   *
   * @param name {@code <schema>-s<seed>}
   * @param schema the schema's name
   * @param seed the lake seed
   * @param split fit, validation or held-out
   * @param folder the lake's folder ({@code lake/}, {@code noisy-lake/}, {@code pairs.json}, {@code manifest.json})
   * @param pairs verified pairs
   * @param dropped queries that gave no pair
   */
  public record Lake(String name, String schema, long seed, Split split, Path folder, int pairs, int dropped) {
    public Path lakeFolder() {
      return folder.resolve("lake");
    }

    public Path pairFile() {
      return folder.resolve("pairs.json");
    }

    /** The noisy copy, when the lake has one. */
    public Optional<Path> noisyLakeFolder() {
      Path p = folder.resolve("noisy-lake");
      return Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
    }
  }

  /** A built corpus: its folder and lakes. */
  public record Index(String name, Path folder, List<Lake> lakes) {
    public Index {
      lakes = List.copyOf(lakes);
    }

    /** The lakes of one part. */
    public List<Lake> lakes(Split split) {
      return lakes.stream().filter(l -> l.split() == split).toList();
    }

    public int pairs(Split split) {
      return lakes(split).stream().mapToInt(Lake::pairs).sum();
    }
  }

  /** Whether a query is held out (see the class comment). */
  public static boolean heldOutQuery(String corpus, String schema, String queryId) {
    return (sha256(corpus + "/" + schema + "/" + queryId)[0] & 1) == 1;
  }

  /**
   * Builds the corpus under {@code root} (or reuses it when an earlier build of the same spec is there).
   *
   * @param cacheDirectory where verification loads keep their derived data, or null for core's default
   * @param progress told about each lake as it starts
   */
  public static Index build(Spec spec, Path root, Path cacheDirectory, Consumer<String> progress)
      throws IOException, SQLException {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(root, "root");
    String fingerprint = fingerprint(spec);
    // The folder names the build: a rebuilt corpus gets new lake paths, so nothing cached for an older lake at the
    // same path (indexes, join graphs, noisy copies) can be taken for it.
    Path folder = root.resolve(spec.name() + "-" + fingerprint.substring(0, 8));
    Optional<Index> existing = read(folder);
    if (existing.isPresent() && fingerprint.equals(readFingerprint(folder))) {
      return existing.get();
    }
    if (Files.isDirectory(root)) {
      try (Stream<Path> older = Files.list(root)) {
        for (Path o : older.filter(p -> p.getFileName().toString().startsWith(spec.name() + "-")
            && Files.isRegularFile(p.resolve("corpus.json"))).toList()) {
          deleteRecursively(o); // earlier builds of this corpus
        }
      }
    }
    deleteRecursively(folder);
    Files.createDirectories(folder);
    List<Lake> lakes = new ArrayList<>();
    for (int s = 0; s < spec.schemas().size(); s++) {
      Schema schema = spec.schemas().get(s);
      List<SourceQuery> queries = new ArrayList<>();
      schema.standardQueries().forEach(q -> queries.add(new SourceQuery("std-" + q.id(), q.sql(), q.shapes())));
      if (schema.generatedQueries() > 0) {
        progress.accept(spec.name() + ": generating " + schema.generatedQueries() + " queries over " + schema.name());
        queries.addAll(QueryGenerator.builder().seed(LakePlanner.mix(1000 + s, schema.name()))
            .count(schema.generatedQueries()).maxRows(Math.min(500, spec.maxResultRows())).tables(schema.tables())
            .build().generate(schema.database(), "gen-"));
      }
      List<SourceQuery> validation = validationQueries(spec, s, queries);
      for (Split split : Split.values()) {
        List<SourceQuery> part = split == Split.VALIDATION ? validation : queries.stream()
            .filter(q -> heldOutQuery(spec.name(), schema.name(), q.id()) == (split == Split.HELD_OUT)).toList();
        for (long seed : spec.seeds(split)) {
          String name = schema.name() + "-s" + seed;
          progress.accept(spec.name() + ": lake " + name + " (" + split.label() + ", " + part.size() + " queries)");
          LakePerturber.Builder b = LakePerturber.builder().seed(seed).tables(schema.tables()).lakeName(name)
              .maxResultRows(spec.maxResultRows());
          if (cacheDirectory != null) {
            b.cacheDirectory(cacheDirectory);
          }
          PerturbedLake lake = b.build().perturb(schema.database(), part, folder.resolve(name));
          lakes.add(new Lake(name, schema.name(), seed, split, lake.folder(), lake.pairs().size(),
              lake.dropped().size()));
        }
      }
    }
    Index index = new Index(spec.name(), folder, lakes);
    write(index, spec, fingerprint);
    return index;
  }

  /**
   * The validation lakes' queries of schema {@code s}: generated with a seed of their own, those that are textually
   * one of the schema's other queries left out (they would be fit or held-out queries again).
   */
  private static List<SourceQuery> validationQueries(Spec spec, int s, List<SourceQuery> others) throws SQLException {
    Schema schema = spec.schemas().get(s);
    if (spec.validationQueries() == 0) {
      return List.of();
    }
    Set<String> seen = new HashSet<>();
    others.forEach(q -> seen.add(q.sql().strip()));
    return QueryGenerator.builder().seed(LakePlanner.mix(2000 + s, schema.name())).count(spec.validationQueries())
        .maxRows(Math.min(500, spec.maxResultRows())).tables(schema.tables()).build()
        .generate(schema.database(), "val-").stream().filter(q -> !seen.contains(q.sql().strip())).toList();
  }

  /** The corpus built in {@code folder}, if one is complete there. */
  public static Optional<Index> read(Path folder) throws IOException {
    Path file = folder.resolve("corpus.json");
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    JsonNode j = LakePerturber.JSON.readTree(file.toFile());
    List<Lake> lakes = new ArrayList<>();
    for (JsonNode l : j.path("lakes")) {
      lakes.add(new Lake(l.path("name").asText(), l.path("schema").asText(), l.path("seed").asLong(),
          Split.fromLabel(l.path("split").asText()).orElseThrow(), folder.resolve(l.path("name").asText()),
          l.path("pairs").asInt(), l.path("dropped").asInt()));
    }
    return Optional.of(new Index(j.path("corpus").asText(), folder, lakes));
  }

  private static String readFingerprint(Path folder) throws IOException {
    return LakePerturber.JSON.readTree(folder.resolve("corpus.json").toFile()).path("fingerprint").asText();
  }

  private static void write(Index index, Spec spec, String fingerprint) throws IOException {
    ObjectNode j = LakePerturber.JSON.createObjectNode();
    j.put("corpus", index.name());
    j.put("description", spec.description());
    j.put("fingerprint", fingerprint);
    j.put("split", "lakes by seed (fit " + spec.fitSeeds() + ", validation " + spec.validationSeeds() + ", held-out "
        + spec.heldOutSeeds() + "); queries by SHA-256(corpus/schema/query id): first byte odd = held out; fit lakes "
        + "get fit queries only, held-out lakes held-out queries only, validation lakes " + spec.validationQueries()
        + " queries per schema generated for them alone");
    j.put("fit_pairs", index.pairs(Split.FIT));
    j.put("validation_pairs", index.pairs(Split.VALIDATION));
    j.put("held_out_pairs", index.pairs(Split.HELD_OUT));
    ArrayNode lakes = j.putArray("lakes");
    for (Lake l : index.lakes()) {
      lakes.addObject().put("name", l.name()).put("schema", l.schema()).put("seed", l.seed())
          .put("split", l.split().label()).put("pairs", l.pairs()).put("dropped", l.dropped());
    }
    Path tmp = index.folder().resolve("corpus.json.tmp");
    LakePerturber.JSON.writeValue(tmp.toFile(), j);
    Files.move(tmp, index.folder().resolve("corpus.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  /** What decides the corpus's content: the spec, the databases' sizes, and the generator's own classes. */
  static String fingerprint(Spec spec) throws IOException {
    StringBuilder b = new StringBuilder().append(FORMAT_VERSION).append('\n').append(spec.name()).append('\n')
        .append(spec.fitSeeds()).append(spec.heldOutSeeds()).append(spec.maxResultRows()).append('\n');
    if (!spec.validationSeeds().isEmpty()) {
      // Appended only when there is a validation part, so corpora without one keep their fingerprint.
      b.append("validation ").append(spec.validationSeeds()).append(spec.validationQueries()).append('\n');
    }
    for (Schema s : spec.schemas()) {
      b.append(s.name()).append(s.tables().stream().sorted().toList()).append(s.generatedQueries())
          .append(Files.size(s.database())).append('\n');
      s.standardQueries().forEach(q -> b.append(q.id()).append(q.sql()).append('\n'));
    }
    for (Class<?> c : List.of(LakePerturber.class, LakePlanner.class, Namer.class, Encoding.class,
        GoldenQueries.class, QueryGenerator.class, Words.class)) {
      try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
        b.append(in == null ? "?" : HexFormat.of().formatHex(sha256(new String(in.readAllBytes(),
            StandardCharsets.ISO_8859_1)))).append('\n');
      }
    }
    return HexFormat.of().formatHex(sha256(b.toString())).substring(0, 16);
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (Files.exists(dir)) {
      MoreFiles.deleteRecursively(dir, RecursiveDeleteOption.ALLOW_INSECURE);
    }
  }
}
