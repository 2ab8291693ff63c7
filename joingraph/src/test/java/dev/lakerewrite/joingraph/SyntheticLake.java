package dev.lakerewrite.joingraph;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * A synthetic data lake with realistic key overlap, generated lazily (a table's values are made when the builder
 * reads them, from the seed and the table's number, so 5,000 tables never sit in memory):
 *
 * <ul>
 *   <li>entity tables (40 %): one key column ({@code label} with name-like values, {@code id} with Wikidata-like
 *       {@code Q…} ids, {@code name}, or a {@code … code} like {@code BC-0012} whose prefix other types share),
 *       attributes;
 *   <li>parallel tables (10 %): other attributes of a subset of an entity table's entities, same key values;
 *   <li>fact tables (50 %): one to three foreign keys into entity tables (a skewed sample of their keys), named
 *       after the referenced entity type, with an {@code id}/{@code key} suffix, or by an unrelated role;
 *   <li>in every table, junk: {@code country}, {@code instance of}, {@code status}, a boolean flag, a year, a
 *       small count, a date, an amount, a {@code description} built from a small vocabulary, a sparse
 *       {@code comment}, a unique row id; labels draw 5 % of their values from a pool shared by all types.
 * </ul>
 *
 * The planted joins (fact → entity, parallel → entity) are the ground truth ({@link #truth()}).
 */
final class SyntheticLake implements ColumnSource {
  private static final String[] NOUNS = {"composer", "river", "lake", "mountain", "city", "painter", "novel",
      "film", "album", "song", "ship", "airport", "bridge", "castle", "church", "museum", "university", "school",
      "hospital", "company", "brand", "product", "drug", "gene", "protein", "species", "genus", "disease",
      "language", "dialect", "festival", "award", "team", "league", "stadium", "player", "coach", "politician",
      "party", "election", "treaty", "battle", "war", "dynasty", "emperor", "poet", "philosopher", "theorem",
      "journal", "publisher", "newspaper", "radio station", "tv channel", "satellite", "planet", "star", "galaxy",
      "mineral", "element", "compound", "enzyme", "dish", "beverage", "grape variety", "cheese", "car model",
      "aircraft", "locomotive", "road", "railway line", "canal", "island", "volcano", "glacier", "forest", "park",
      "building", "skyscraper", "architect", "sculptor", "photographer", "actor", "director", "producer",
      "character", "video game", "board game", "sport", "occupation", "religion", "saint", "order", "monastery",
      "region", "province", "district", "municipality", "village", "county"};
  private static final String[] QUALIFIERS = {"", "baroque", "modern", "ancient", "medieval", "french",
      "german", "italian", "spanish", "japanese", "chinese", "indian", "brazilian", "mexican", "canadian",
      "australian", "nordic", "alpine", "coastal", "northern", "southern", "eastern", "western", "central",
      "historic", "contemporary", "fictional", "independent", "national", "regional", "local", "urban", "rural",
      "tropical", "arctic", "desert", "volcanic", "royal", "imperial", "colonial", "soviet", "roman", "greek",
      "celtic", "aztec", "ottoman", "victorian", "classical", "romantic", "gothic", "renaissance", "experimental",
      "industrial", "digital", "electric", "marine", "alpine lake", "highland", "lowland", "upper", "lower"};
  private static final String[] SYLLABLES = {"ka", "ro", "vin", "del", "mar", "sa", "tor", "el", "an", "bri",
      "go", "lu", "mi", "na", "or", "pe", "qui", "ra", "sten", "ul", "va", "wen", "xi", "yo", "zu", "ber", "cha",
      "dor", "fen", "gal", "hel", "is", "jo", "kel", "lor", "mon", "nor", "os", "pra", "ren", "sol", "tan"};
  private static final String[] ROLES = {"winner", "located in", "part of", "owned by", "operator", "founder",
      "author", "performer", "member of", "subsidiary", "followed by", "based on", "manufacturer", "sponsor",
      "partner", "origin", "destination", "host", "participant", "creator"};
  private static final String[] ATTRIBUTES = {"population", "area", "height", "length", "elevation",
      "inception", "budget", "revenue", "employees", "capacity", "duration", "width", "depth", "mass",
      "speed", "volume", "rank", "score", "rating", "website", "motto", "image", "logo", "coordinates",
      "official name", "native name", "nickname", "short name", "Commons category", "Freebase ID", "VIAF ID",
      "GND ID", "topic's main category", "described by source", "named after", "opening date", "closing date"};
  private static final String[] COUNTRIES = new String[60];
  private static final String[] CLASSES = new String[300];
  private static final String[] COMMON_NAMES = new String[500];
  private static final String[] WORDS = {"a", "the", "of", "in", "from", "historic", "small", "large", "famous",
      "known", "former", "notable", "major", "minor", "old", "new", "first", "second", "main", "public"};

  static {
    Random r = new Random(7);
    for (int i = 0; i < COUNTRIES.length; i++) {
      COUNTRIES[i] = capitalise(word(r, 2, 3)) + (i % 7 == 0 ? " Republic" : "");
    }
    for (int i = 0; i < CLASSES.length; i++) {
      CLASSES[i] = NOUNS[i % NOUNS.length] + (i < NOUNS.length ? "" : " of " + word(r, 1, 2));
    }
    for (int i = 0; i < COMMON_NAMES.length; i++) {
      COMMON_NAMES[i] = capitalise(word(r, 2, 2)) + " " + capitalise(word(r, 2, 3));
    }
  }

  /** What a table is. */
  enum Kind { ENTITY, PARALLEL, FACT }

  /** How a column's values are made. */
  enum Gen {
    KEY, PARALLEL_KEY, FOREIGN_KEY, ATTRIBUTE_NUMBER, ATTRIBUTE_TEXT, COUNTRY, INSTANCE_OF, STATUS, FLAG, YEAR,
    COUNT, DATE, AMOUNT, DESCRIPTION, COMMENT, ROW_ID
  }

  /** A column of the plan: its generator and, for keys, the entity table it draws from. */
  record ColumnPlan(String name, String sqlType, Gen gen, int entity) {}

  /** A table of the plan. */
  record TablePlan(int index, String name, Kind kind, int rows, int entity, List<ColumnPlan> columns) {}

  /** The key style of an entity table. */
  enum KeyStyle { LABEL, QID, NAME, CODE }

  private final long seed;
  private final List<TablePlan> plans = new ArrayList<>();
  private final List<KeyStyle> keyStyles = new ArrayList<>();
  private final List<Table> tables = new ArrayList<>();
  private final Set<String> truth = new LinkedHashSet<>();

  /**
   * @param tableCount number of tables
   * @param columnsPerTable columns per table (at least 12 for every kind of junk to fit)
   * @param seed everything derives from it
   */
  SyntheticLake(int tableCount, int columnsPerTable, long seed) {
    this.seed = seed;
    SplittableRandom r = new SplittableRandom(seed);
    int entities = Math.max(2, (int) Math.round(tableCount * 0.4));
    int parallels = (int) Math.round(tableCount * 0.1);
    Set<String> usedNames = new LinkedHashSet<>();
    for (int t = 0; t < tableCount; t++) {
      Kind kind = t < entities ? Kind.ENTITY : t < entities + parallels ? Kind.PARALLEL : Kind.FACT;
      int rows;
      int entity = -1;
      String base;
      List<ColumnPlan> cols = new ArrayList<>();
      if (kind == Kind.ENTITY) {
        rows = logUniform(r, 20, 1500);
        base = entityType(t);
        KeyStyle style = KeyStyle.values()[r.nextInt(KeyStyle.values().length)];
        keyStyles.add(style);
        String keyName = switch (style) {
          case LABEL -> "label";
          case QID -> "id";
          case NAME -> "name";
          case CODE -> base + " code";
        };
        cols.add(new ColumnPlan(keyName, "VARCHAR", Gen.KEY, t));
      } else if (kind == Kind.PARALLEL) {
        entity = r.nextInt(entities);
        TablePlan e = plans.get(entity);
        rows = Math.max(5, (int) (e.rows() * (0.5 + 0.5 * r.nextDouble())));
        base = e.name().replace('_', ' ') + " " + ATTRIBUTES[r.nextInt(ATTRIBUTES.length)];
        cols.add(new ColumnPlan(e.columns().get(0).name(), "VARCHAR", Gen.PARALLEL_KEY, entity));
        truth.add(GroundTruth.pairKey(lakeName(base, usedNames, false), e.name()));
      } else {
        rows = logUniform(r, 50, 3000);
        int e0 = r.nextInt(entities);
        base = entityType(e0) + " " + ROLES[r.nextInt(ROLES.length)] + " record";
        int fks = 1 + r.nextInt(3);
        Set<Integer> referenced = new LinkedHashSet<>();
        for (int f = 0; f < fks; f++) {
          referenced.add(f == 0 ? e0 : r.nextInt(entities));
        }
        for (int ref : referenced) {
          String type = entityType(ref);
          double style = r.nextDouble();
          String fkName = style < 0.4 ? type : style < 0.7 ? type + (r.nextBoolean() ? " id" : "_key")
              : ROLES[r.nextInt(ROLES.length)] + (style < 0.9 ? "" : " " + type.split(" ")[0]);
          if (cols.stream().anyMatch(c -> c.name().equals(fkName))) {
            continue;
          }
          cols.add(new ColumnPlan(fkName, "VARCHAR", Gen.FOREIGN_KEY, ref));
          truth.add(GroundTruth.pairKey(lakeName(base, usedNames, false), plans.get(ref).name()));
        }
      }
      String name = lakeName(base, usedNames, true);
      addJunk(cols, columnsPerTable, r);
      plans.add(new TablePlan(t, name, kind, rows, entity, List.copyOf(cols)));
      List<Column> declared = cols.stream().map(c -> new Column(c.name(), c.sqlType())).toList();
      tables.add(new Table(name, "main", name, declared));
    }
  }

  /** The planted joins, as {@link GroundTruth#pairKey} strings. */
  Set<String> truth() {
    return truth;
  }

  List<TablePlan> plans() {
    return plans;
  }

  /** The planted joins as foreign keys (fact → entity key, parallel → entity key), for {@link GroundTruth}. */
  List<GroundTruth.ForeignKey> foreignKeys() {
    List<GroundTruth.ForeignKey> keys = new ArrayList<>();
    for (TablePlan p : plans) {
      for (ColumnPlan c : p.columns()) {
        if (c.gen() == Gen.FOREIGN_KEY || c.gen() == Gen.PARALLEL_KEY) {
          TablePlan e = plans.get(c.entity());
          keys.add(new GroundTruth.ForeignKey("synthetic", p.name(), c.name(), e.name(), e.columns().get(0).name()));
        }
      }
    }
    return keys;
  }

  @Override
  public List<Table> tables() {
    return tables;
  }

  /**
   * Hands out each column with lazy values: they are generated when the profiler iterates them (on its worker
   * threads), from the seed, the table and the column alone, so the same values come out every time.
   */
  @Override
  public void readColumns(Table table, Consumer<ColumnValues> sink) {
    TablePlan plan = plans.get(indexOf(table));
    for (int c = 0; c < plan.columns().size(); c++) {
      ColumnPlan col = plan.columns().get(c);
      long columnSeed = seed * 1_000_003L + plan.index() * 131L + c;
      long nonNull = 0;
      for (int row = 0; row < plan.rows(); row++) {
        nonNull += isNull(col, columnSeed, row) ? 0 : 1;
      }
      Iterable<String> values = () -> new java.util.Iterator<String>() {
        private final SplittableRandom r = new SplittableRandom(columnSeed);
        private int row;

        @Override
        public boolean hasNext() {
          return row < plan.rows();
        }

        @Override
        public String next() {
          int current = row++;
          return isNull(col, columnSeed, current) ? null : cell(plan, col, current, r);
        }
      };
      sink.accept(new ColumnValues(col.name(), col.sqlType(), nonNull, values));
    }
  }

  private static boolean isNull(ColumnPlan col, long columnSeed, int row) {
    double share = col.gen() == Gen.FOREIGN_KEY ? 0.05 : col.gen() == Gen.COMMENT ? 0.9 : 0;
    return share > 0 && unit(columnSeed * 0x9E3779B97F4A7C15L + row) < share;
  }

  /** A deterministic uniform number in [0, 1) from a 64-bit input (SplitMix64's finaliser). */
  private static double unit(long x) {
    x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
    x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
    x = x ^ (x >>> 31);
    return (x >>> 11) * 0x1.0p-53;
  }

  /** The cells of every column of one table (for loading a small synthetic lake into DuckDB). */
  List<List<String>> cells(int table) {
    List<List<String>> out = new ArrayList<>();
    readColumns(tables.get(table), v -> {
      List<String> cells = new ArrayList<>();
      v.values().forEach(cells::add);
      out.add(cells);
    });
    return out;
  }

  private int indexOf(Table table) {
    for (int i = 0; i < tables.size(); i++) {
      if (tables.get(i).name().equals(table.name())) {
        return i;
      }
    }
    throw new IllegalArgumentException("no table " + table.name());
  }

  private String cell(TablePlan plan, ColumnPlan col, int row, SplittableRandom r) {
    switch (col.gen()) {
      case KEY:
        return entityKey(col.entity(), row);
      case PARALLEL_KEY: {
        // A subset of the entity's rows, in another order: key values shared 1:1.
        int entityRows = plans.get(col.entity()).rows();
        return entityKey(col.entity(), (int) ((row * 7919L + col.entity()) % entityRows));
      }
      case FOREIGN_KEY: {
        int entityRows = plans.get(col.entity()).rows();
        // Skewed: popular entities are referenced often, and the fact covers only part of the entities.
        double u = r.nextDouble();
        int idx = (int) (entityRows * u * u);
        return entityKey(col.entity(), Math.min(entityRows - 1, idx));
      }
      case ATTRIBUTE_NUMBER:
        return Long.toString(1000 + (long) (r.nextDouble() * 9_000_000));
      case ATTRIBUTE_TEXT:
        return capitalise(word(r, 2, 4)) + " " + capitalise(word(r, 2, 4));
      case COUNTRY:
        return COUNTRIES[(int) (COUNTRIES.length * Math.pow(r.nextDouble(), 2))];
      case INSTANCE_OF:
        return CLASSES[(plan.index() * 3 + r.nextInt(3)) % CLASSES.length];
      case STATUS:
        return new String[] {"active", "inactive", "unknown"}[r.nextInt(3)];
      case FLAG:
        return r.nextBoolean() ? "true" : "false";
      case YEAR:
        return Integer.toString(1900 + r.nextInt(125));
      case COUNT:
        return Integer.toString(r.nextInt(200));
      case DATE: {
        int month = 1 + r.nextInt(12);
        int day = 1 + r.nextInt(28);
        return (1950 + r.nextInt(75)) + (month < 10 ? "-0" : "-") + month + (day < 10 ? "-0" : "-") + day;
      }
      case AMOUNT: {
        int cents = r.nextInt(1_000_000);
        int fraction = cents % 100;
        return (cents / 100) + (fraction < 10 ? ".0" : ".") + fraction;
      }
      case DESCRIPTION:
        return WORDS[r.nextInt(WORDS.length)] + " " + CLASSES[r.nextInt(40)] + " in "
            + COUNTRIES[r.nextInt(COUNTRIES.length)];
      case COMMENT:
        return word(r, 3, 5);
      case ROW_ID:
        return "r" + plan.index() + "-" + row;
      default:
        throw new IllegalStateException(col.gen().toString());
    }
  }

  /** The key of row {@code row} of entity table {@code entity}, in that table's key style. */
  String entityKey(int entity, int row) {
    KeyStyle style = keyStyles.get(entity);
    SplittableRandom r = new SplittableRandom(seed ^ (entity * 0x9E3779B97F4A7C15L) ^ row * 31L);
    switch (style) {
      case QID:
        return "Q" + (1_000_000L * (entity + 1) + row * 17L);
      case CODE: {
        String type = entityType(entity);
        String[] parts = type.split(" ");
        String prefix = parts.length > 1 ? ("" + parts[0].charAt(0) + parts[1].charAt(0))
            : type.substring(0, 2);
        return prefix.toUpperCase(Locale.ROOT) + "-" + String.format(Locale.ROOT, "%04d", row);
      }
      default:
        if (r.nextDouble() < 0.05) {
          return COMMON_NAMES[r.nextInt(COMMON_NAMES.length)];
        }
        return capitalise(word(r, 2, 3)) + " " + capitalise(word(r, 2, 4)) + " " + row;
    }
  }

  private static void addJunk(List<ColumnPlan> cols, int columnsPerTable, SplittableRandom r) {
    Gen[] junk = {Gen.COUNTRY, Gen.INSTANCE_OF, Gen.DESCRIPTION, Gen.YEAR, Gen.STATUS, Gen.FLAG, Gen.COUNT,
        Gen.DATE, Gen.AMOUNT, Gen.COMMENT, Gen.ROW_ID};
    String[] junkNames = {"country", "instance of", "description", "year", "status", "flag", "count", "date",
        "amount", "comment", "row id"};
    for (int j = 0; j < junk.length && cols.size() < columnsPerTable; j++) {
      if (r.nextDouble() < 0.8) {
        String type = switch (junk[j]) {
          case YEAR, COUNT -> "BIGINT";
          case AMOUNT -> "DOUBLE";
          case DATE -> "DATE";
          case FLAG -> "BOOLEAN";
          default -> "VARCHAR";
        };
        cols.add(new ColumnPlan(junkNames[j], type, junk[j], -1));
      }
    }
    while (cols.size() < columnsPerTable) {
      String attribute = ATTRIBUTES[r.nextInt(ATTRIBUTES.length)];
      String name = attribute;
      for (int k = 2; taken(cols, name); k++) {
        name = attribute + " " + k;
      }
      boolean numeric = r.nextBoolean();
      cols.add(new ColumnPlan(name, numeric ? "BIGINT" : "VARCHAR",
          numeric ? Gen.ATTRIBUTE_NUMBER : Gen.ATTRIBUTE_TEXT, -1));
    }
  }

  private static boolean taken(List<ColumnPlan> cols, String name) {
    return cols.stream().anyMatch(c -> c.name().equals(name));
  }

  private static String entityType(int entity) {
    String q = QUALIFIERS[(entity / NOUNS.length) % QUALIFIERS.length];
    String n = NOUNS[entity % NOUNS.length];
    int round = entity / (NOUNS.length * QUALIFIERS.length);
    return (q.isEmpty() ? n : q + " " + n) + (round == 0 ? "" : " " + (round + 1));
  }

  private static String lakeName(String base, Set<String> used, boolean register) {
    String name = base.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
    String candidate = name;
    for (int k = 2; used.contains(candidate); k++) {
      candidate = name + "_" + k;
    }
    if (register) {
      used.add(candidate);
    }
    return candidate;
  }

  private static int logUniform(SplittableRandom r, int min, int max) {
    return (int) Math.round(Math.exp(Math.log(min) + r.nextDouble() * (Math.log(max) - Math.log(min))));
  }

  private static String word(Random r, int minSyllables, int maxSyllables) {
    return word(r::nextInt, minSyllables, maxSyllables);
  }

  private static String word(SplittableRandom r, int minSyllables, int maxSyllables) {
    return word(r::nextInt, minSyllables, maxSyllables);
  }

  /** A pronounceable made-up word of a few syllables; {@code nextInt(n)} draws from [0, n). */
  private static String word(java.util.function.IntUnaryOperator nextInt, int minSyllables, int maxSyllables) {
    int n = minSyllables + nextInt.applyAsInt(maxSyllables - minSyllables + 1);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(SYLLABLES[nextInt.applyAsInt(SYLLABLES.length)]);
    }
    return sb.toString();
  }

  private static String capitalise(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
