package dev.lakerewrite.noiseudf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.duckdb.DuckDBColumnType;
import org.duckdb.DuckDBDataChunkReader;
import org.duckdb.DuckDBFunctions;
import org.duckdb.DuckDBLogicalType;
import org.duckdb.DuckDBReadableVector;
import org.duckdb.DuckDBScalarFunction;
import org.duckdb.DuckDBWritableVector;
import org.jspecify.annotations.Nullable;

/**
 * The catalogue of vetted cleaning functions and their registration as DuckDB Java scalar UDFs.
 *
 * <h2>How DuckDB JDBC 2.0.0.1 registers Java UDFs (measured, see {@code CleaningFunctionsTest})</h2>
 *
 * <ul>
 *   <li>{@code DuckDBFunctions.scalarFunction()...register(conn)} works on the sandboxed connection: after
 *       {@code SET enable_external_access=false} and {@code SET lock_configuration=true}, on a database opened
 *       with {@code duckdb.read_only=true} (functions live in the in-memory system catalog, not in the file).
 *   <li>Registration is <b>per database instance</b>, not per connection: the function lands in
 *       {@code system.main}; every connection of that instance sees it, including {@code duplicate()}s made
 *       before or after, and a second {@code DriverManager} connection to the same file with the same
 *       properties (the driver shares the instance). Another instance (e.g. {@code jdbc:duckdb:}) does not.
 *   <li>Registering the same name and signature again succeeds silently and replaces the earlier
 *       implementation; a different arity adds an overload. There is no de-registration.
 *   <li>Parameter and return types: primitives, VARCHAR, DATE, TIMESTAMP, DECIMAL(p,s) and the like; LIST,
 *       STRUCT and MAP are rejected ("Unsupported logical type for UDF registration: LIST"), so a vocabulary is
 *       passed as variadic VARCHAR arguments or as one JSON-array string (see {@code clean_category}).
 *   <li>DuckDB does not cast INTEGER to VARCHAR implicitly for these functions: apply them to text columns, or
 *       {@code CAST(col AS VARCHAR)}.
 *   <li>An exception thrown in Java becomes a DuckDB "Invalid Input Error" for that query; the connection
 *       stays usable (the JDBC statement does not: open a new one).
 * </ul>
 *
 * <p>Hence the API: {@link #register(Connection)} once per database instance (calling it again, on any
 * connection of the instance, is a cheap no-op; it is idempotent and thread-safe). Names all start with
 * {@code clean_}, none shadows a DuckDB built-in, and generated macros may not use the prefix.
 */
public final class CleaningFunctions {

  /** Every vetted function's name starts with this; generated macros may not. */
  public static final String PREFIX = "clean_";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Object REGISTRATION_LOCK = new Object();

  private CleaningFunctions() {}

  private static final List<FunctionSpec> CATALOGUE =
      List.of(
          spec("clean_text", List.of("value VARCHAR"), "VARCHAR",
              "Lossless formatting repair: fixes mojibake, removes control characters and HTML markup, collapses whitespace; keeps case and accents.",
              "clean_text('  WhangÄ\u0081rei&nbsp;') = 'Whangārei'"),
          spec("clean_key", List.of("value VARCHAR"), "VARCHAR",
              "Matching key: clean_text, then accents stripped and case folded; equal for spelling variants of one value. Compare keys, do not display them.",
              "clean_key('Whangārei') = clean_key(' WHANGAREI') = 'whangarei'"),
          spec("clean_unaccent", List.of("value VARCHAR"), "VARCHAR",
              "Unicode decomposition and diacritic stripping (also ø, ł, đ).",
              "clean_unaccent('Ōpōtiki') = 'Opotiki'"),
          spec("clean_whitespace", List.of("value VARCHAR"), "VARCHAR",
              "Trims and collapses runs of spaces, tabs, newlines and no-break spaces into one space.",
              "clean_whitespace(' Hamilton\u00a0  City ') = 'Hamilton City'"),
          spec("clean_punctuation", List.of("value VARCHAR"), "VARCHAR",
              "Punctuation spacing: no space before , ; : ! ? ) or after (, one space after a comma before a letter.",
              "clean_punctuation('Hamilton ,New Zealand') = 'Hamilton, New Zealand'"),
          spec("clean_markup", List.of("value VARCHAR"), "VARCHAR",
              "Removes HTML/XML tags, decodes HTML entities, deletes control and zero-width characters.",
              "clean_markup('<b>Toy&amp;Story</b>') = 'Toy&Story'"),
          spec("clean_mojibake", List.of("value VARCHAR"), "VARCHAR",
              "Repairs UTF-8 text that was decoded as Windows-1252/Latin-1; leaves correct text alone.",
              "clean_mojibake('SÃ£o Paulo') = 'São Paulo'"),
          spec("clean_casefold", List.of("value VARCHAR"), "VARCHAR",
              "Unicode case folding (NFKC, then lower case; ß becomes ss).",
              "clean_casefold('STRAßE') = 'strasse'"),
          spec("clean_boolean", List.of("value VARCHAR"), "BOOLEAN",
              "Strict boolean parsing: t/true/yes/y/1/on and f/false/no/n/0/off in any case, spacing or accents; NULL for anything else.",
              "clean_boolean(' TRÜE') = true, clean_boolean('maybe') IS NULL"),
          spec("clean_iso_date", List.of("value VARCHAR"), "VARCHAR",
              "Date to ISO 8601 text from ISO, Wikidata '+1995-11-22T00:00:00Z', DD.MM.YYYY, DD/MM/YYYY, 'Nov 22, 1995', '22 November 1995'; 'YYYY-MM'/'YYYY' for reduced precision; NULL if not a date.",
              "clean_iso_date('+1995-11-22T00:00:00Z') = '1995-11-22', clean_iso_date('+1992-00-00T00:00:00Z') = '1992'"),
          spec("clean_iso_date", List.of("value VARCHAR", "date_order VARCHAR"), "VARCHAR",
              "clean_iso_date reading ambiguous numeric dates like 03/04/2020 as 'DMY' or 'MDY'.",
              "clean_iso_date('03/04/2020', 'MDY') = '2020-03-04'"),
          spec("clean_date", List.of("value VARCHAR"), "DATE",
              "clean_iso_date as a DATE; NULL unless the value names a full day.",
              "clean_date('22.11.1995') = DATE '1995-11-22'"),
          spec("clean_number", List.of("value VARCHAR"), "DOUBLE",
              "Number from text with sign, group separators and decimal comma; a lone ',' before exactly 3 digits groups; NULL if not a number.",
              "clean_number('+13789') = 13789, clean_number('12 484,59') = 12484.59, clean_number('1.234,5') = 1234.5"),
          spec("clean_number", List.of("value VARCHAR", "decimal_separator VARCHAR"), "DOUBLE",
              "clean_number with the decimal separator ('.' or ',') fixed for values with a single separator.",
              "clean_number('13,789', ',') = 13.789"),
          spec("clean_decimal", List.of("value VARCHAR"), "DECIMAL(38,10)",
              "clean_number as an exact DECIMAL(38,10).",
              "clean_decimal('1.234,5') = 1234.5"),
          spec("clean_category", List.of("value VARCHAR", "vocabulary VARCHAR..."), "VARCHAR",
              "Categorical canonicalisation: the vocabulary entry with the same clean_key as value, else value unchanged. The vocabulary is the further arguments, or one JSON array string.",
              "clean_category('whangarei', 'Whangārei', 'Auckland') = 'Whangārei', clean_category(x, '[\"Yes\",\"No\"]')"));

  private static FunctionSpec spec(String name, List<String> params, String ret, String description, String example) {
    return new FunctionSpec(name, params, ret, description, example);
  }

  /** The vetted functions, one entry per overload, in a stable order. */
  public static List<FunctionSpec> catalogue() {
    return CATALOGUE;
  }

  /** Distinct names of the vetted functions. */
  public static Set<String> names() {
    return CATALOGUE.stream().map(FunctionSpec::name).collect(Collectors.toCollection(java.util.TreeSet::new));
  }

  /** The catalogue as prompt text, one function per line. */
  public static String promptCatalogue() {
    return CATALOGUE.stream().map(f -> "- " + f.promptLine()).collect(Collectors.joining("\n"));
  }

  /**
   * What {@link #register} did.
   *
   * @param registered overloads registered by this call ({@code name/arity})
   * @param alreadyPresent overloads the database instance already had
   */
  public record Registration(List<String> registered, List<String> alreadyPresent) {
    public Registration {
      registered = List.copyOf(registered);
      alreadyPresent = List.copyOf(alreadyPresent);
    }
  }

  /**
   * Registers every vetted function on the DuckDB database instance behind {@code connection} (all its
   * connections and duplicates see them). Idempotent: overloads that the instance already has are skipped, so
   * core may call this once per database or once per session. Works on a read-only, locked, sandboxed
   * connection.
   *
   * @throws SQLException if the connection is not a DuckDB connection or DuckDB refuses a registration
   */
  public static Registration register(Connection connection) throws SQLException {
    Objects.requireNonNull(connection, "connection");
    synchronized (REGISTRATION_LOCK) {
      Set<String> present = new HashSet<>();
      for (List<@Nullable String> row :
          Jdbc.query(connection,
              "SELECT function_name, len(parameters) FROM duckdb_functions() "
                  + "WHERE function_name LIKE 'clean\\_%' ESCAPE '\\' AND function_type = 'scalar'")) {
        present.add(row.get(0) + "/" + row.get(1));
      }
      List<String> registered = new ArrayList<>();
      List<String> already = new ArrayList<>();
      for (Map.Entry<String, Registrar> e : registrars().entrySet()) {
        if (present.contains(e.getKey())) {
          already.add(e.getKey());
        } else {
          e.getValue().register(connection);
          registered.add(e.getKey());
        }
      }
      return new Registration(registered, already);
    }
  }

  /** True when every vetted function is visible on {@code connection}. */
  public static boolean isRegistered(Connection connection) throws SQLException {
    List<List<@Nullable String>> rows =
        Jdbc.query(connection,
            "SELECT DISTINCT function_name || '/' || len(parameters) FROM duckdb_functions() "
                + "WHERE function_name LIKE 'clean\\_%' ESCAPE '\\' AND function_type = 'scalar'");
    Set<String> present = rows.stream().map(r -> r.get(0)).collect(Collectors.toSet());
    return present.containsAll(registrars().keySet());
  }

  // ---------------------------------------------------------------------------------------------------------
  // Registration plumbing: vectorized callbacks with a per-chunk memo (cells repeat a lot in lakes).

  @FunctionalInterface
  private interface Registrar {
    void register(Connection connection) throws SQLException;
  }

  /** Keys are {@code name/arity} as duckdb_functions() reports them (variadic: fixed parameters only). */
  private static Map<String, Registrar> registrars() {
    Map<String, Registrar> r = new LinkedHashMap<>();
    r.put("clean_text/1", c -> unaryText(c, "clean_text", Cleaners::cleanText));
    r.put("clean_key/1", c -> unaryText(c, "clean_key", Cleaners::textKey));
    r.put("clean_unaccent/1", c -> unaryText(c, "clean_unaccent", Cleaners::unaccent));
    r.put("clean_whitespace/1", c -> unaryText(c, "clean_whitespace", Cleaners::collapseWhitespace));
    r.put("clean_punctuation/1", c -> unaryText(c, "clean_punctuation", Cleaners::punctuationSpacing));
    r.put("clean_markup/1", c -> unaryText(c, "clean_markup", Cleaners::stripMarkup));
    r.put("clean_mojibake/1", c -> unaryText(c, "clean_mojibake", Cleaners::fixMojibake));
    r.put("clean_casefold/1", c -> unaryText(c, "clean_casefold", Cleaners::casefold));
    r.put("clean_boolean/1", c -> unary(c, "clean_boolean", DuckDBColumnType.BOOLEAN, Cleaners::parseBoolean,
        (out, row, v) -> out.setBoolean(row, (Boolean) v)));
    r.put("clean_iso_date/1", c -> unaryText(c, "clean_iso_date", v -> Cleaners.isoDate(v)));
    r.put("clean_iso_date/2", c -> binaryText(c, "clean_iso_date",
        (v, order) -> Cleaners.isoDate(v, Cleaners.DateOrder.parse(order))));
    r.put("clean_date/1", c -> unary(c, "clean_date", DuckDBColumnType.DATE,
        v -> Cleaners.parseDate(v, Cleaners.DateOrder.DMY), (out, row, v) -> out.setDate(row, (LocalDate) v)));
    r.put("clean_number/1", c -> unary(c, "clean_number", DuckDBColumnType.DOUBLE, v -> Cleaners.parseNumber(v),
        (out, row, v) -> out.setDouble(row, (Double) v)));
    r.put("clean_number/2", c -> binary(c, "clean_number", DuckDBLogicalType.of(DuckDBColumnType.DOUBLE),
        (v, sep) -> Cleaners.parseNumber(v, separator(sep)), (out, row, v) -> out.setDouble(row, (Double) v)));
    r.put("clean_decimal/1", c -> unary(c, "clean_decimal", DuckDBLogicalType.decimal(38, 10),
        v -> decimalOrNull(Cleaners.parseDecimal(v, null, 10)), (out, row, v) -> out.setBigDecimal(row, (BigDecimal) v)));
    r.put("clean_category/1", CleaningFunctions::registerCategory);
    return r;
  }

  private static @Nullable BigDecimal decimalOrNull(@Nullable BigDecimal d) {
    return d == null || d.precision() > 38 ? null : d;
  }

  private static @Nullable Character separator(@Nullable String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    if (text.length() != 1 || (text.charAt(0) != '.' && text.charAt(0) != ',')) {
      throw new IllegalArgumentException("decimal_separator must be '.' or ',', got '" + text + "'");
    }
    return text.charAt(0);
  }

  @FunctionalInterface
  private interface Writer {
    void write(DuckDBWritableVector out, long row, Object value);
  }

  private static void unaryText(Connection c, String name, Function<String, @Nullable String> f) throws SQLException {
    unary(c, name, DuckDBColumnType.VARCHAR, f::apply, (out, row, v) -> out.setString(row, (String) v));
  }

  private static void unary(Connection c, String name, DuckDBColumnType type, Function<String, @Nullable Object> f, Writer w)
      throws SQLException {
    unary(c, name, DuckDBLogicalType.of(type), f, w);
  }

  private static void unary(Connection c, String name, DuckDBLogicalType type, Function<String, @Nullable Object> f, Writer w)
      throws SQLException {
    DuckDBScalarFunction body =
        (DuckDBDataChunkReader in, DuckDBWritableVector out) -> {
          DuckDBReadableVector values = in.vector(0);
          Map<String, Object> memo = new HashMap<>();
          for (long row = 0, n = in.rowCount(); row < n; row++) {
            if (values.isNull(row)) {
              out.setNull(row);
              continue;
            }
            String value = values.getString(row);
            Object result = memo.computeIfAbsent(value, v -> boxNull(f.apply(v)));
            write(out, row, result, w);
          }
        };
    DuckDBFunctions.scalarFunction()
        .withName(name)
        .withParameter(DuckDBLogicalType.of(DuckDBColumnType.VARCHAR))
        .withReturnType(type)
        .withVectorizedFunction(body)
        .register(c);
  }

  private static void binaryText(Connection c, String name, BiFunction<String, @Nullable String, @Nullable String> f) throws SQLException {
    binary(c, name, DuckDBLogicalType.of(DuckDBColumnType.VARCHAR), f::apply,
        (out, row, v) -> out.setString(row, (String) v));
  }

  private static void binary(
      Connection c, String name, DuckDBLogicalType type, BiFunction<String, @Nullable String, @Nullable Object> f, Writer w)
      throws SQLException {
    DuckDBScalarFunction body =
        (DuckDBDataChunkReader in, DuckDBWritableVector out) -> {
          DuckDBReadableVector values = in.vector(0);
          DuckDBReadableVector options = in.vector(1);
          Map<List<@Nullable String>, Object> memo = new HashMap<>();
          for (long row = 0, n = in.rowCount(); row < n; row++) {
            if (values.isNull(row)) {
              out.setNull(row);
              continue;
            }
            String value = values.getString(row);
            String option = options.isNull(row) ? null : options.getString(row);
            Object result = memo.computeIfAbsent(java.util.Arrays.asList(value, option),
                k -> boxNull(f.apply(value, option)));
            write(out, row, result, w);
          }
        };
    DuckDBFunctions.scalarFunction()
        .withName(name)
        .withParameters(DuckDBLogicalType.of(DuckDBColumnType.VARCHAR), DuckDBLogicalType.of(DuckDBColumnType.VARCHAR))
        .withReturnType(type)
        .withVectorizedFunction(body)
        .register(c);
  }

  private static void registerCategory(Connection c) throws SQLException {
    Map<List<@Nullable String>, Cleaners.Vocabulary> cache = new java.util.concurrent.ConcurrentHashMap<>();
    DuckDBFunctions.scalarFunction()
        .withName("clean_category")
        .withParameter(DuckDBLogicalType.of(DuckDBColumnType.VARCHAR))
        .withVarArgs(DuckDBLogicalType.of(DuckDBColumnType.VARCHAR))
        .withReturnType(DuckDBLogicalType.of(DuckDBColumnType.VARCHAR))
        .withVarArgsFunction(
            args -> {
              if (args.length == 0 || args[0] == null) {
                return null;
              }
              List<@Nullable String> entries = new ArrayList<>(args.length - 1);
              for (int i = 1; i < args.length; i++) {
                entries.add(args[i] == null ? null : args[i].toString());
              }
              if (cache.size() > 64) {
                cache.clear();
              }
              Cleaners.Vocabulary vocabulary = cache.computeIfAbsent(entries, CleaningFunctions::vocabulary);
              return vocabulary.canonical(args[0].toString());
            })
        .register(c);
  }

  /** Builds a vocabulary from variadic entries; a single entry that is a JSON array of strings is expanded. */
  static Cleaners.Vocabulary vocabulary(List<@Nullable String> entries) {
    if (entries.size() == 1 && entries.get(0) != null && entries.get(0).trim().startsWith("[")) {
      try {
        JsonNode array = JSON.readTree(entries.get(0));
        List<String> expanded = new ArrayList<>();
        for (JsonNode item : array) {
          if (!item.isNull()) {
            expanded.add(item.asText());
          }
        }
        return Cleaners.Vocabulary.of(expanded);
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("clean_category: vocabulary looks like a JSON array but is not valid JSON: "
            + e.getOriginalMessage());
      }
    }
    return Cleaners.Vocabulary.of(entries);
  }

  private static final Object NULL = new Object();

  private static Object boxNull(@Nullable Object o) {
    return o == null ? NULL : o;
  }

  private static void write(DuckDBWritableVector out, long row, Object result, Writer w) {
    if (result == NULL) {
      out.setNull(row);
    } else {
      w.write(out, row, result);
    }
  }
}
