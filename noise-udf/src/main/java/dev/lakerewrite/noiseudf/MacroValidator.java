package dev.lakerewrite.noiseudf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.sql.DidYouMean;
import dev.lakerewrite.sql.DuckDbParser;
import dev.lakerewrite.sql.Sql;
import dev.lakerewrite.sql.SqlParseException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The gate between LLM-written cleaning code and the engine (thesis §6.2–6.3, with validated DuckDB macros in
 * place of Python UDFs). A generated UDF becomes {@code CREATE OR REPLACE TEMP MACRO name(params) AS expr} on the
 * session's connection only after:
 *
 * <ol>
 *   <li><b>name rules</b>: a lower-case identifier, not a keyword, not the {@code clean_} prefix, not the name
 *       of any existing function or macro except a temp macro of this session (no shadowing of built-ins);
 *   <li><b>text rules</b>: a length cap, no statement separators, no comments, no dollar quoting;
 *   <li><b>parse</b>: DuckDB's parser ({@code json_serialize_sql('SELECT ' || body)}) must see exactly one
 *       SELECT of exactly one unaliased expression and nothing else;
 *   <li><b>AST rules</b> ({@link ExpressionChecker}): a pure scalar expression over the parameters, calling only
 *       allow-listed built-ins, vetted {@code clean_*} functions and already accepted macros;
 *   <li><b>recursion</b>: no cycle through the session's macros (DuckDB would accept one and fail at bind);
 *   <li><b>registration</b> of the rendered, validated AST under a probe name (never the model's text);
 *   <li><b>preview</b>: run on the base table's rows for each column it applies to; rejected if it errors,
 *       turns more than {@link Builder#maxNullShare} of non-null values into NULL, or merges distinct values
 *       that are not spellings of one value (same {@link Cleaners#textKey}, boolean, date or number) for more
 *       than {@link Builder#maxMergeShare} of the distinct inputs;
 *   <li>then, and only then, registration under its real name.
 * </ol>
 *
 * <p>{@link #validateCte} applies the same parse/AST discipline to the CTE: one SELECT projection over the base
 * table alone (no joins, subqueries, WHERE, GROUP BY, LIMIT or nested WITH), so it keeps every row; then runs it
 * on preview rows and compares each cleaned column with its original.
 *
 * <p>Immutable and thread-safe; each call works on the connection it is given (TEMP macros are per connection).
 */
public final class MacroValidator {

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{2,47}");
  private static final Pattern PARAMETER = Pattern.compile("[a-z_][a-z0-9_]{0,30}");
  private static final Pattern CTE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");
  private static final AtomicLong PROBES = new AtomicLong();

  private final int maxBodyLength;
  private final int maxCteLength;
  private final int maxNodes;
  private final int maxDepth;
  private final int maxLiteralLength;
  private final int maxParameters;
  private final int validationRows;
  private final double maxNullShare;
  private final double maxMergeShare;

  private MacroValidator(Builder b) {
    this.maxBodyLength = b.maxBodyLength;
    this.maxCteLength = b.maxCteLength;
    this.maxNodes = b.maxNodes;
    this.maxDepth = b.maxDepth;
    this.maxLiteralLength = b.maxLiteralLength;
    this.maxParameters = b.maxParameters;
    this.validationRows = b.validationRows;
    this.maxNullShare = b.maxNullShare;
    this.maxMergeShare = b.maxMergeShare;
  }

  /** A validator with default limits. */
  public static MacroValidator create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Limits; all have defaults. */
  public static final class Builder {
    private int maxBodyLength = 2000;
    private int maxCteLength = 20_000;
    private int maxNodes = 400;
    private int maxDepth = 40;
    private int maxLiteralLength = 4000;
    private int maxParameters = 4;
    private int validationRows = 200;
    private double maxNullShare = 0.05;
    private double maxMergeShare = 0.2;

    private Builder() {}

    /** Characters in a macro body (default 2000). */
    public Builder maxBodyLength(int n) {
      this.maxBodyLength = positive("maxBodyLength", n);
      return this;
    }

    /** Characters in a CTE (default 20000). */
    public Builder maxCteLength(int n) {
      this.maxCteLength = positive("maxCteLength", n);
      return this;
    }

    /** AST nodes in one expression (default 400). */
    public Builder maxNodes(int n) {
      this.maxNodes = positive("maxNodes", n);
      return this;
    }

    /** Nesting depth of one expression (default 40). */
    public Builder maxDepth(int n) {
      this.maxDepth = positive("maxDepth", n);
      return this;
    }

    /** Characters in one literal (default 4000; vocabularies are literals). */
    public Builder maxLiteralLength(int n) {
      this.maxLiteralLength = positive("maxLiteralLength", n);
      return this;
    }

    /** Parameters of one macro (default 4). */
    public Builder maxParameters(int n) {
      this.maxParameters = positive("maxParameters", n);
      return this;
    }

    /** Base-table rows a macro or CTE is tried on (default 200). */
    public Builder validationRows(int n) {
      this.validationRows = positive("validationRows", n);
      return this;
    }

    /** Share of non-null inputs a cleaner may turn into NULL (default 0.05; strict parsers NULL garbage). */
    public Builder maxNullShare(double share) {
      this.maxNullShare = share("maxNullShare", share);
      return this;
    }

    /** Share of distinct inputs a cleaner may merge into values they are not spellings of (default 0.2). */
    public Builder maxMergeShare(double share) {
      this.maxMergeShare = share("maxMergeShare", share);
      return this;
    }

    public MacroValidator build() {
      return new MacroValidator(this);
    }

    private static int positive(String what, int n) {
      return Args.atLeast(what, n, 1);
    }

    private static double share(String what, double s) {
      if (!(s >= 0 && s <= 1)) {
        throw new IllegalArgumentException(what + " must be in [0, 1], got " + s);
      }
      return s;
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // Macros

  /**
   * The verdict on one generated UDF.
   *
   * @param udf what was proposed
   * @param accepted true when it was registered on the session connection
   * @param createStatement the statement that registered it (rendered from the validated AST), or null
   * @param returnType DuckDB type it returned on the preview ("unknown" if it was not run)
   * @param calls functions and macros it calls
   * @param rejections why it was rejected (empty when accepted)
   */
  public record MacroVerdict(
      GeneratedUdf udf, boolean accepted, @Nullable String createStatement, String returnType, Set<String> calls,
      List<Rejection> rejections) {
    public MacroVerdict {
      calls = Set.copyOf(calls);
      rejections = List.copyOf(rejections);
    }
  }

  /**
   * Validates {@code udf} and, if it passes every check, registers it as a TEMP macro on {@code session} only.
   * The preview test runs on the {@link GeneratedUdf#appliesTo} columns of {@code baseTable} (one-parameter
   * macros; others are tested through the CTE).
   */
  public MacroVerdict validateAndRegister(Connection session, @Nullable String baseTable, GeneratedUdf udf) throws SQLException {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(udf, "udf");
    StaticResult s = checkStatically(session, udf);
    if (!s.rejections.isEmpty()) {
      return new MacroVerdict(udf, false, null, "unknown", s.calls, s.rejections);
    }
    String params = String.join(", ", udf.parameters());
    String probe = "lr_probe_" + PROBES.incrementAndGet();
    try {
      Jdbc.execute(session, "CREATE OR REPLACE TEMP MACRO " + probe + "(" + params + ") AS " + s.expression);
    } catch (SQLException e) {
      return new MacroVerdict(udf, false, null, "unknown", s.calls,
          List.of(new Rejection(udf.name(), Rejection.Stage.REGISTRATION, firstLine(e.getMessage()))));
    }
    List<Rejection> rejections = new ArrayList<>();
    String returnType = "unknown";
    try {
      if (baseTable != null && udf.parameters().size() == 1) {
        List<String[]> columns = Jdbc.describeTable(session, baseTable);
        List<String> names = columns.stream().map(c -> c[0]).toList();
        for (String column : udf.appliesTo()) {
          if (!names.contains(column)) {
            rejections.add(new Rejection(udf.name(), Rejection.Stage.PREVIEW, "applies_to names no column '" + column
                + "' of " + baseTable + DidYouMean.hint(column, names)));
            continue;
          }
          String c = Sql.quoted(column);
          try {
            Jdbc.Table t = Jdbc.table(session, "SELECT CAST(" + c + " AS VARCHAR), CAST(" + probe + "(" + c
                + ") AS VARCHAR), typeof(" + probe + "(" + c + ")) FROM " + Sql.quoted(baseTable)
                + " LIMIT " + validationRows, validationRows);
            List<@Nullable String> in = t.rows().stream().map(r -> r.get(0)).toList();
            List<@Nullable String> out = t.rows().stream().map(r -> r.get(1)).toList();
            if (!t.rows().isEmpty()) {
              returnType = t.rows().get(0).get(2);
            }
            for (String p : compareColumn(in, out)) {
              rejections.add(new Rejection(udf.name(), Rejection.Stage.PREVIEW, "on " + baseTable + "." + column + ": " + p));
            }
          } catch (SQLException e) {
            rejections.add(new Rejection(udf.name(), Rejection.Stage.PREVIEW,
                "fails on " + baseTable + "." + column + ": " + firstLine(e.getMessage())));
          }
        }
      }
    } finally {
      Jdbc.execute(session, "DROP MACRO IF EXISTS temp.main." + probe);
    }
    if (!rejections.isEmpty()) {
      return new MacroVerdict(udf, false, null, returnType, s.calls, rejections);
    }
    String create = "CREATE OR REPLACE TEMP MACRO " + udf.name() + "(" + params + ") AS " + s.expression;
    try {
      Jdbc.execute(session, create);
    } catch (SQLException e) {
      return new MacroVerdict(udf, false, null, returnType, s.calls,
          List.of(new Rejection(udf.name(), Rejection.Stage.REGISTRATION, firstLine(e.getMessage()))));
    }
    return new MacroVerdict(udf, true, create, returnType, s.calls, List.of());
  }

  private static final Pattern DEFINITION =
      Pattern.compile("CREATE OR REPLACE TEMP MACRO ([a-z][a-z0-9_]*)\\(([a-z0-9_, ]*)\\) AS (.+)", Pattern.DOTALL);

  /**
   * Registers the generated macros of a BUILD_CTE result on another connection (TEMP macros are per
   * connection: a duplicate does not see the session's). Each one is validated again on {@code target}, in the
   * order the result lists them, so dependencies come first. Vetted functions need no registration.
   *
   * @return one verdict per generated macro
   */
  public List<MacroVerdict> registerOn(Connection target, CteBuildResult result) throws SQLException {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(result, "result");
    List<MacroVerdict> out = new ArrayList<>();
    for (UdfInfo u : result.udfs()) {
      if (u.origin() != UdfInfo.Origin.GENERATED) {
        continue;
      }
      java.util.regex.Matcher m = DEFINITION.matcher(u.definition() == null ? "" : u.definition());
      if (!m.matches()) {
        out.add(new MacroVerdict(new GeneratedUdf(u.name(), List.of(), "", u.description(), List.of()), false, null,
            "unknown", Set.of(), List.of(new Rejection(u.name(), Rejection.Stage.PARSE, "not a definition this validator wrote"))));
        continue;
      }
      List<String> params = java.util.Arrays.stream(m.group(2).split(",")).map(String::trim).filter(p -> !p.isEmpty()).toList();
      out.add(validateAndRegister(target, null, new GeneratedUdf(m.group(1), params, m.group(3), u.description(), List.of())));
    }
    return out;
  }

  /** The outcome of the checks that need no registration. */
  record StaticResult(@Nullable String expression, Set<String> calls, List<Rejection> rejections) {}

  /**
   * Name, text, parse, AST and recursion checks, without registering anything. Returns the rendered expression
   * when there are no rejections.
   */
  StaticResult checkStatically(Connection session, GeneratedUdf udf) throws SQLException {
    List<Rejection> rejections = new ArrayList<>();
    String name = udf.name();
    // One catalog scan (duckdb_functions() costs ~0.1 s): the session's macros and anything named like the UDF.
    Map<String, String> sessionMacros = new LinkedHashMap<>();
    List<@Nullable String> existingOther = null;
    for (List<@Nullable String> row : Jdbc.query(session,
        "SELECT function_name, database_name, function_type, macro_definition FROM duckdb_functions() "
            + "WHERE (database_name = 'temp' AND function_type = 'macro') OR lower(function_name) = lower(?) ORDER BY 1",
        name)) {
      if ("temp".equals(row.get(1)) && "macro".equals(row.get(2))) {
        sessionMacros.put(row.get(0).toLowerCase(Locale.ROOT), row.get(3));
      } else if (existingOther == null) {
        existingOther = row;
      }
    }
    // 1. name and parameters
    if (!NAME.matcher(name).matches()) {
      rejections.add(new Rejection(name, Rejection.Stage.NAME,
          "name must be 3-48 characters of a-z, 0-9 and _, starting with a letter"));
    } else if (name.startsWith(CleaningFunctions.PREFIX) || name.startsWith("lr_probe_")) {
      rejections.add(new Rejection(name, Rejection.Stage.NAME, "the prefixes clean_ and lr_probe_ are reserved"));
    } else if (isKeyword(session, name)) {
      rejections.add(new Rejection(name, Rejection.Stage.NAME, "name is an SQL keyword"));
    } else if (!sessionMacros.containsKey(name) && existingOther != null) {
      rejections.add(new Rejection(name, Rejection.Stage.NAME, "name shadows an existing " + existingOther.get(2)
          + " function in " + existingOther.get(1) + "; pick a new name"));
    }
    if (udf.parameters().isEmpty() || udf.parameters().size() > maxParameters) {
      rejections.add(new Rejection(name, Rejection.Stage.NAME,
          "a cleaning macro takes 1 to " + maxParameters + " parameters, got " + udf.parameters().size()));
    }
    Set<String> seen = new HashSet<>();
    for (String p : udf.parameters()) {
      if (!PARAMETER.matcher(p).matches() || isKeyword(session, p)) {
        rejections.add(new Rejection(name, Rejection.Stage.NAME, "parameter '" + p + "' is not a plain lower-case identifier"));
      } else if (!seen.add(p)) {
        rejections.add(new Rejection(name, Rejection.Stage.NAME, "parameter '" + p + "' appears twice"));
      }
    }
    // 2. text
    rejections.addAll(textProblems(name, udf.body(), maxBodyLength));
    if (!rejections.isEmpty()) {
      return new StaticResult(null, Set.of(), rejections);
    }
    // 3. parse
    List<ObjectNode> statements;
    try {
      statements = DuckDbParser.on(session).parse("SELECT " + udf.body());
    } catch (SqlParseException e) {
      return new StaticResult(null, Set.of(), List.of(new Rejection(name, Rejection.Stage.PARSE, firstLine(e.getMessage()))));
    }
    List<String> shape = SqlAst.singleSelectProblems(statements);
    JsonNode node = statements.size() == 1 ? statements.get(0).path("node") : null;
    if (shape.isEmpty()) {
      shape.addAll(bareSelectProblems(node));
      if (node.path("select_list").size() != 1) {
        shape.add("the body must be exactly one expression, found " + node.path("select_list").size());
      } else if (!node.path("select_list").get(0).path("alias").asText("").isEmpty()) {
        shape.add("the body must be an expression without an alias");
      }
    }
    if (!shape.isEmpty()) {
      shape.forEach(p -> rejections.add(new Rejection(name, Rejection.Stage.PARSE, p)));
      return new StaticResult(null, Set.of(), rejections);
    }
    // 4. AST
    Set<String> callable = new HashSet<>(CleaningFunctions.names());
    callable.addAll(sessionMacros.keySet());
    callable.remove(name);
    ExpressionChecker checker = new ExpressionChecker(callable, maxNodes, maxDepth, maxLiteralLength);
    checker.check(node.path("select_list").get(0), new HashSet<>(udf.parameters()), Set.of());
    if (checker.calls().contains(name)) {
      rejections.add(new Rejection(name, Rejection.Stage.RECURSION, "the macro calls itself"));
    }
    checker.problems().forEach(p -> rejections.add(new Rejection(name, Rejection.Stage.AST, p)));
    if (!rejections.isEmpty()) {
      return new StaticResult(null, checker.calls(), rejections);
    }
    // 5. recursion through other macros of the session
    List<String> cycle = cycleThrough(session, name, checker.calls(), sessionMacros);
    if (!cycle.isEmpty()) {
      return new StaticResult(null, checker.calls(), List.of(new Rejection(name, Rejection.Stage.RECURSION,
          "calls form a cycle: " + String.join(" -> ", cycle))));
    }
    String rendered = DuckDbParser.on(session).render(statements.get(0));
    if (!rendered.startsWith("SELECT ")) {
      return new StaticResult(null, checker.calls(), List.of(new Rejection(name, Rejection.Stage.PARSE,
          "could not render the expression back to SQL")));
    }
    return new StaticResult(rendered.substring("SELECT ".length()), checker.calls(), List.of());
  }

  /** Scalar macros of the session (temp catalog): name → definition. */
  static Map<String, String> sessionMacros(Connection session) throws SQLException {
    Map<String, String> out = new LinkedHashMap<>();
    for (List<@Nullable String> row : Jdbc.query(session,
        "SELECT function_name, macro_definition FROM duckdb_functions() "
            + "WHERE database_name = 'temp' AND function_type = 'macro' ORDER BY 1")) {
      out.put(row.get(0).toLowerCase(Locale.ROOT), row.get(1));
    }
    return out;
  }

  private static boolean isKeyword(Connection session, String word) throws SQLException {
    return !Jdbc.query(session, "SELECT 1 FROM duckdb_keywords() WHERE keyword_name = ? AND keyword_category <> 'unreserved'",
        word.toLowerCase(Locale.ROOT)).isEmpty();
  }

  /** A call cycle that {@code name} (with the new calls) would close, or empty. */
  private static List<String> cycleThrough(Connection session, String name, Set<String> calls,
      Map<String, String> sessionMacros) throws SQLException {
    Map<String, Set<String>> graph = new HashMap<>();
    for (Map.Entry<String, String> e : sessionMacros.entrySet()) {
      if (e.getKey().equals(name)) {
        continue;
      }
      try {
        List<ObjectNode> st = DuckDbParser.on(session).parse("SELECT " + e.getValue());
        graph.put(e.getKey(), SqlAst.calledFunctions(st));
      } catch (SqlParseException ex) {
        graph.put(e.getKey(), Set.of());
      }
    }
    graph.put(name, calls);
    // DFS from name looking for a path back to name.
    Deque<List<String>> stack = new ArrayDeque<>();
    stack.push(List.of(name));
    Set<String> visited = new HashSet<>();
    while (!stack.isEmpty()) {
      List<String> path = stack.pop();
      String last = path.get(path.size() - 1);
      for (String next : graph.getOrDefault(last, Set.of())) {
        if (next.equals(name)) {
          List<String> cycle = new ArrayList<>(path);
          cycle.add(name);
          return cycle;
        }
        if (graph.containsKey(next) && visited.add(next)) {
          List<String> longer = new ArrayList<>(path);
          longer.add(next);
          stack.push(longer);
        }
      }
    }
    return List.of();
  }

  /** Statement separators, comments, dollar quoting and length, outside string literals and quoted names. */
  static List<Rejection> textProblems(String subject, String text, int maxLength) {
    List<Rejection> out = new ArrayList<>();
    if (text.isBlank()) {
      out.add(new Rejection(subject, Rejection.Stage.TEXT, "empty"));
      return out;
    }
    if (text.length() > maxLength) {
      out.add(new Rejection(subject, Rejection.Stage.TEXT, "too long: " + text.length() + " characters (limit " + maxLength + ")"));
      return out;
    }
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
      if (quote != 0) {
        if (c == quote) {
          if (next == quote) {
            i++;
          } else {
            quote = 0;
          }
        }
        continue;
      }
      if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == ';') {
        out.add(new Rejection(subject, Rejection.Stage.TEXT, "statement separator ';' outside a string"));
        break;
      } else if ((c == '-' && next == '-') || (c == '/' && next == '*')) {
        out.add(new Rejection(subject, Rejection.Stage.TEXT, "comments are not allowed"));
        break;
      } else if (c == '$') {
        out.add(new Rejection(subject, Rejection.Stage.TEXT, "dollar quoting and $-parameters are not allowed"));
        break;
      }
    }
    if (quote != 0 && out.isEmpty()) {
      out.add(new Rejection(subject, Rejection.Stage.TEXT, "unterminated " + (quote == '\'' ? "string" : "quoted name")));
    }
    return out;
  }

  /** A SELECT node without FROM, WHERE, GROUP BY, HAVING, QUALIFY, modifiers or CTEs. */
  private static List<String> bareSelectProblems(JsonNode node) {
    List<String> p = new ArrayList<>();
    if (!"EMPTY".equals(node.path("from_table").path("type").asText("EMPTY"))) {
      p.add("the body must not contain FROM");
    }
    p.addAll(clauseProblems(node));
    return p;
  }

  private static List<String> clauseProblems(JsonNode node) {
    List<String> p = new ArrayList<>();
    if (node.path("modifiers").size() > 0) {
      p.add("LIMIT, ORDER BY and DISTINCT are not allowed");
    }
    if (node.path("cte_map").path("map").size() > 0) {
      p.add("nested WITH is not allowed");
    }
    for (String clause : List.of("where_clause", "having", "qualify", "sample")) {
      if (!node.path(clause).isNull() && !node.path(clause).isMissingNode()) {
        p.add(clause.replace("_clause", "").toUpperCase(Locale.ROOT) + " is not allowed");
      }
    }
    if (node.path("group_expressions").size() > 0 || node.path("group_sets").size() > 0) {
      p.add("GROUP BY is not allowed");
    }
    if (!"STANDARD_HANDLING".equals(node.path("aggregate_handling").asText("STANDARD_HANDLING"))) {
      p.add("aggregate handling " + node.path("aggregate_handling").asText() + " is not allowed");
    }
    return p;
  }

  // ---------------------------------------------------------------------------------------------------------
  // CTEs

  /**
   * The verdict on a CTE.
   *
   * @param accepted true when the CTE passed every check and ran on the preview
   * @param cteSql the CTE body as rendered from the validated AST (what the rewriter should use), or null
   * @param preview the first rows of the CTE's result, or null
   * @param changedCells per cleaned column, how many preview cells the CTE changed
   * @param rejections why it was rejected (empty when accepted)
   */
  public record CteVerdict(
      boolean accepted, @Nullable String cteSql, @Nullable PreviewTable preview, Map<String, Integer> changedCells,
      List<Rejection> rejections) {
    public CteVerdict {
      changedCells = changedCells == null ? Map.of() : Map.copyOf(changedCells);
      rejections = List.copyOf(rejections);
    }
  }

  /**
   * Validates a CTE body: one SELECT projection over {@code baseTable} alone whose expressions pass the same
   * AST rules as macros (base-table columns in scope; vetted functions and the session's macros callable);
   * then runs it on {@code previewRows} rows and checks each cleaned column against its original.
   */
  public CteVerdict validateCte(Connection session, String baseTable, String cteSql, int previewRows) throws SQLException {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(baseTable, "baseTable");
    Objects.requireNonNull(cteSql, "cteSql");
    List<Rejection> rejections = new ArrayList<>(textProblems("cte", cteSql, maxCteLength));
    if (!rejections.isEmpty()) {
      return new CteVerdict(false, null, null, null, rejections);
    }
    List<ObjectNode> statements;
    try {
      statements = DuckDbParser.on(session).parse(cteSql);
    } catch (SqlParseException e) {
      return new CteVerdict(false, null, null, null, List.of(new Rejection("cte", Rejection.Stage.PARSE, firstLine(e.getMessage()))));
    }
    List<String> shape = SqlAst.singleSelectProblems(statements);
    if (!shape.isEmpty()) {
      shape.forEach(p -> rejections.add(new Rejection("cte", Rejection.Stage.PARSE, p)));
      return new CteVerdict(false, null, null, null, rejections);
    }
    JsonNode node = statements.get(0).path("node");
    JsonNode from = node.path("from_table");
    List<String> columns = Jdbc.describeTable(session, baseTable).stream().map(c -> c[0]).toList();
    if (columns.isEmpty()) {
      return new CteVerdict(false, null, null, null, List.of(new Rejection("cte", Rejection.Stage.AST, "no table " + baseTable)));
    }
    if (!"BASE_TABLE".equals(from.path("type").asText())) {
      rejections.add(new Rejection("cte", Rejection.Stage.AST, "the CTE must read FROM " + baseTable + " alone (found "
          + from.path("type").asText("nothing") + "; joins, subqueries and table functions are not allowed)"));
    } else {
      String table = from.path("table_name").asText();
      String schema = from.path("schema_name").asText("");
      if (!table.equalsIgnoreCase(baseTable) || !(schema.isEmpty() || schema.equals("main"))
          || !from.path("catalog_name").asText("").isEmpty()) {
        rejections.add(new Rejection("cte", Rejection.Stage.AST, "the CTE must read FROM " + baseTable + ", not " + table));
      }
      if (!from.path("sample").isNull() || !from.path("at_clause").isNull() || from.path("column_name_alias").size() > 0) {
        rejections.add(new Rejection("cte", Rejection.Stage.AST, "TABLESAMPLE, AT and column aliases on the table are not allowed"));
      }
    }
    clauseProblems(node).forEach(p -> rejections.add(new Rejection("cte", Rejection.Stage.AST, p + " (the CTE keeps every row)")));
    Set<String> callable = new HashSet<>(CleaningFunctions.names());
    callable.addAll(sessionMacros(session).keySet());
    ExpressionChecker checker = new ExpressionChecker(callable, maxNodes * 8, maxDepth, maxLiteralLength);
    Set<String> qualifiers = new HashSet<>(List.of(baseTable));
    if (!from.path("alias").asText("").isEmpty()) {
      qualifiers.add(from.path("alias").asText());
    }
    Set<String> scope = new HashSet<>(columns);
    for (JsonNode item : node.path("select_list")) {
      if ("STAR".equals(item.path("class").asText())) {
        if (item.path("columns").asBoolean(false) || !item.path("expr").isNull()
            || item.path("qualified_exclude_list").size() > 0 || item.path("rename_list").size() > 0) {
          rejections.add(new Rejection("cte", Rejection.Stage.AST, "only * with EXCLUDE/REPLACE is allowed, not COLUMNS(...) or RENAME"));
        }
        for (JsonNode r : item.path("replace_list")) {
          checker.check(r.path("value"), scope, qualifiers);
        }
      } else {
        checker.check(item, scope, qualifiers);
      }
    }
    checker.problems().forEach(p -> rejections.add(new Rejection("cte", Rejection.Stage.AST, p)));
    if (!rejections.isEmpty()) {
      return new CteVerdict(false, null, null, null, rejections);
    }
    String rendered = DuckDbParser.on(session).render(statements.get(0));
    try {
      JsonNode again = DuckDbParser.on(session).parse(rendered).get(0);
      if (!SqlAst.withoutLocations(again).equals(SqlAst.withoutLocations(statements.get(0)))) {
        return new CteVerdict(false, null, null, null, List.of(new Rejection("cte", Rejection.Stage.PARSE,
            "the CTE does not survive a parse/render round trip unchanged")));
      }
    } catch (SqlParseException e) {
      return new CteVerdict(false, null, null, null, List.of(new Rejection("cte", Rejection.Stage.PARSE,
          "the rendered CTE does not parse: " + firstLine(e.getMessage()))));
    }
    // Run it, aligned with the originals: the same projection plus the base columns under helper names.
    ObjectNode aligned = (ObjectNode) statements.get(0).deepCopy();
    ArrayNode list = (ArrayNode) aligned.path("node").path("select_list");
    int outputs = list.size();
    for (int i = 0; i < columns.size(); i++) {
      ObjectNode ref = SqlAst.JSON.createObjectNode();
      ref.put("class", "COLUMN_REF");
      ref.put("type", "COLUMN_REF");
      ref.put("alias", "__lr_in_" + i);
      ref.putArray("column_names").add(columns.get(i));
      list.add(ref);
    }
    Jdbc.Table table;
    try {
      table = Jdbc.table(session, "SELECT * FROM (" + DuckDbParser.on(session).render(aligned) + ") LIMIT " + validationRows, validationRows);
    } catch (SQLException e) {
      return new CteVerdict(false, null, null, null, List.of(new Rejection("cte", Rejection.Stage.PREVIEW,
          "fails on the preview rows: " + firstLine(e.getMessage()))));
    }
    int produced = table.columns().size() - columns.size();
    Map<String, Integer> changed = new LinkedHashMap<>();
    Set<String> outputNames = new LinkedHashSet<>();
    for (int j = 0; j < produced; j++) {
      String out = table.columns().get(j);
      if (!outputNames.add(out)) {
        rejections.add(new Rejection("cte", Rejection.Stage.AST, "output column " + out + " appears twice"));
      }
      int original = columns.indexOf(out);
      if (original < 0) {
        continue;
      }
      int jj = j;
      List<@Nullable String> in = table.rows().stream().map(r -> r.get(produced + original)).toList();
      List<@Nullable String> cleaned = table.rows().stream().map(r -> r.get(jj)).toList();
      int diffs = 0;
      for (int r = 0; r < in.size(); r++) {
        if (!Objects.equals(in.get(r), cleaned.get(r))) {
          diffs++;
        }
      }
      if (diffs > 0) {
        changed.put(out, diffs);
        for (String p : compareColumn(in, cleaned)) {
          rejections.add(new Rejection("cte", Rejection.Stage.PREVIEW, "column " + out + ": " + p));
        }
      }
    }
    if (outputs == 0 || produced == 0) {
      rejections.add(new Rejection("cte", Rejection.Stage.AST, "the CTE selects nothing"));
    }
    if (!rejections.isEmpty()) {
      return new CteVerdict(false, null, null, changed, rejections);
    }
    Jdbc.Table preview = Jdbc.table(session, "SELECT * FROM (" + rendered + ") LIMIT " + previewRows, previewRows);
    return new CteVerdict(true, rendered, new PreviewTable(preview.columns(), preview.types(), preview.rows()), changed, List.of());
  }

  /** Problems a cleaned column shows against its original (row-aligned), empty when it looks like cleaning. */
  List<String> compareColumn(List<@Nullable String> in, List<@Nullable String> out) {
    List<String> problems = new ArrayList<>();
    int nonNull = 0;
    int nulled = 0;
    String nulledExample = null;
    Map<String, Set<String>> inputsByOutput = new LinkedHashMap<>();
    Set<String> distinctInputs = new HashSet<>();
    for (int i = 0; i < in.size(); i++) {
      String a = in.get(i);
      String b = out.get(i);
      if (a == null) {
        continue;
      }
      nonNull++;
      distinctInputs.add(a);
      if (b == null) {
        nulled++;
        if (nulledExample == null) {
          nulledExample = a;
        }
      } else {
        inputsByOutput.computeIfAbsent(b, k -> new LinkedHashSet<>()).add(a);
      }
    }
    if (nulled > 0 && nulled > maxNullShare * nonNull) {
      problems.add("turns " + nulled + " of " + nonNull + " non-null values into NULL, e.g. "
          + NoiseDetector.show(nulledExample));
    }
    int badMerges = 0;
    String mergeExample = null;
    for (Map.Entry<String, Set<String>> e : inputsByOutput.entrySet()) {
      Set<String> inputs = e.getValue();
      if (inputs.size() < 2 || spellingsOfOneValue(inputs)) {
        continue;
      }
      badMerges += inputs.size() - 1;
      if (mergeExample == null) {
        List<String> shown = inputs.stream().limit(3).map(NoiseDetector::show).toList();
        mergeExample = String.join(", ", shown) + " → " + NoiseDetector.show(e.getKey());
      }
    }
    if (badMerges > 0 && (badMerges > maxMergeShare * distinctInputs.size()
        || (inputsByOutput.size() == 1 && distinctInputs.size() >= 3))) {
      problems.add("maps " + badMerges + " of " + distinctInputs.size()
          + " distinct values onto values they are not spellings of, e.g. " + mergeExample);
    }
    return problems;
  }

  /** True when all inputs are spellings of one value: one text key, or one boolean, date or number. */
  static boolean spellingsOfOneValue(Set<String> inputs) {
    return sameUnder(inputs, Cleaners::textKey) || sameUnder(inputs, v -> nullToString(Cleaners.parseBoolean(v)))
        || sameUnder(inputs, Cleaners::isoDate) || sameUnder(inputs, v -> nullToString(Cleaners.parseNumber(v)));
  }

  private static @Nullable String nullToString(@Nullable Object o) {
    return o == null ? null : o.toString();
  }

  private static boolean sameUnder(Set<String> inputs, java.util.function.Function<String, @Nullable String> f) {
    String first = null;
    for (String v : inputs) {
      String k = f.apply(v);
      if (k == null) {
        return false;
      }
      if (first == null) {
        first = k;
      } else if (!first.equals(k)) {
        return false;
      }
    }
    return true;
  }

  /** Validates a CTE name: a fresh lower-case identifier that does not shadow a table of the lake. */
  static List<Rejection> cteNameProblems(Connection session, @Nullable String name) throws SQLException {
    if (name == null || !CTE_NAME.matcher(name).matches()) {
      return List.of(new Rejection("cte_name", Rejection.Stage.NAME, "cte_name must be a lower-case identifier (a-z, 0-9, _)"));
    }
    if (Jdbc.tableNames(session).stream().anyMatch(t -> t.equalsIgnoreCase(name))) {
      return List.of(new Rejection("cte_name", Rejection.Stage.NAME, "cte_name " + name + " would shadow a table of the lake"));
    }
    return List.of();
  }

  static String firstLine(@Nullable String message) {
    if (message == null) {
      return "unknown error";
    }
    String m = message.strip();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
