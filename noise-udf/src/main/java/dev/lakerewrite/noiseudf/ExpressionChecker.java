package dev.lakerewrite.noiseudf;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.sql.DidYouMean;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Walks a DuckDB expression AST (from {@code json_serialize_sql}) and lists everything that makes it more than a
 * pure, deterministic scalar expression over known names: subqueries, window and aggregate functions, table
 * functions, file/network/environment access, non-determinism ({@code random()}, {@code now()}),
 * {@code getvariable}, parameters, star expressions, functions off the allow-list, qualified names, named
 * arguments, FILTER/ORDER BY/DISTINCT on calls, unknown column references, oversized literals, too many nodes or
 * too deep nesting. Deny by default: only the node classes and functions listed here pass. Linear in the size
 * of the tree.
 */
final class ExpressionChecker {

  /** Pure DuckDB built-ins a cleaning expression may call. Curated: everything else is denied. */
  static final Set<String> ALLOWED_BUILTINS =
      Set.of(
          // text
          "lower", "upper", "lcase", "ucase", "trim", "ltrim", "rtrim", "replace", "regexp_replace",
          "regexp_matches", "regexp_extract", "regexp_full_match", "regexp_split_to_array", "substring", "substr",
          "left", "right", "length", "strlen", "length_grapheme", "concat", "concat_ws", "lpad", "rpad", "repeat",
          "reverse", "split_part", "string_split", "str_split", "string_split_regex", "strip_accents",
          "nfc_normalize", "position", "strpos", "instr", "contains", "starts_with", "ends_with", "prefix", "suffix",
          "translate", "format", "printf", "ascii", "chr", "unicode", "ord", "levenshtein", "damerau_levenshtein",
          "jaro_winkler_similarity", "jaro_similarity", "jaccard", "hamming", "mismatches", "editdist3",
          "array_to_string", "list_aggr", "like_escape", "ilike_escape", "to_base", "bar",
          // lists (pure)
          "list_value", "list_pack", "list_transform", "list_apply", "array_transform", "apply", "list_filter",
          "array_filter", "filter", "list_contains", "list_has", "array_contains", "list_position", "list_indexof",
          "list_extract", "list_element", "array_extract", "list_distinct", "list_sort", "list_reverse_sort",
          "list_concat", "list_cat", "array_concat", "array_length", "len", "list_slice", "array_slice", "flatten",
          "list_reduce", "reduce", "list_any_value", "list_first", "list_last", "list_has_any", "list_has_all",
          "list_zip",
          // numbers
          "abs", "round", "round_even", "floor", "ceil", "ceiling", "trunc", "sign", "greatest", "least", "sqrt",
          "cbrt", "pow", "power", "ln", "log", "log10", "log2", "exp", "mod", "isnan", "isinf", "isfinite", "even",
          "fdiv", "fmod", "divide", "add", "subtract", "multiply", "gcd", "lcm",
          // control flow and NULLs
          "coalesce", "nullif", "ifnull", "if", "try", "typeof", "struct_pack", "struct_extract", "row",
          // dates
          "strptime", "try_strptime", "strftime", "make_date", "date_part", "datepart", "extract", "year", "month",
          "day", "dayofmonth", "dayofweek", "dayofyear", "quarter", "week", "weekofyear", "isodow", "date_trunc",
          "datetrunc", "last_day", "monthname", "dayname", "date_diff", "datediff", "date_add", "to_days",
          "to_months", "to_years", "make_timestamp", "epoch",
          // JSON text
          "json_extract_string", "json_extract", "json_valid", "json_array_length", "json_type", "to_json",
          "json_quote");

  /** Operators (functions with is_operator=true) allowed in expressions. */
  static final Set<String> ALLOWED_OPERATORS =
      Set.of("+", "-", "*", "/", "//", "%", "^", "**", "||", "~~", "!~~", "~~*", "!~~*", "^@", "->>", "->", "&", "|");

  /** OPERATOR node types allowed. */
  static final Set<String> ALLOWED_OPERATOR_TYPES =
      Set.of("OPERATOR_NOT", "OPERATOR_IS_NULL", "OPERATOR_IS_NOT_NULL", "COMPARE_IN", "COMPARE_NOT_IN",
          "ARRAY_EXTRACT", "ARRAY_SLICE", "STRUCT_EXTRACT", "OPERATOR_COALESCE", "OPERATOR_NULLIF", "OPERATOR_TRY");

  /** Why well-known dangerous names are denied (clearer messages than "not on the allow-list"). */
  static final Map<String, String> DENIED_REASONS =
      Map.ofEntries(
          Map.entry("random", "non-deterministic"), Map.entry("setseed", "non-deterministic"),
          Map.entry("uuid", "non-deterministic"), Map.entry("gen_random_uuid", "non-deterministic"),
          Map.entry("uuidv4", "non-deterministic"), Map.entry("uuidv7", "non-deterministic"),
          Map.entry("now", "non-deterministic (time)"), Map.entry("current_date", "non-deterministic (time)"),
          Map.entry("current_time", "non-deterministic (time)"),
          Map.entry("current_timestamp", "non-deterministic (time)"), Map.entry("today", "non-deterministic (time)"),
          Map.entry("get_current_time", "non-deterministic (time)"),
          Map.entry("get_current_timestamp", "non-deterministic (time)"),
          Map.entry("current_localtime", "non-deterministic (time)"),
          Map.entry("current_localtimestamp", "non-deterministic (time)"),
          Map.entry("transaction_timestamp", "non-deterministic (time)"),
          Map.entry("nextval", "non-deterministic (sequence)"), Map.entry("currval", "reads session state"),
          Map.entry("getvariable", "reads session variables"), Map.entry("current_setting", "reads settings"),
          Map.entry("getenv", "reads the environment"), Map.entry("current_database", "reads session state"),
          Map.entry("current_schema", "reads session state"), Map.entry("current_query", "reads session state"),
          Map.entry("version", "reads session state"), Map.entry("txid_current", "reads session state"),
          Map.entry("read_text", "reads files"), Map.entry("read_blob", "reads files"),
          Map.entry("read_csv", "reads files"), Map.entry("read_csv_auto", "reads files"),
          Map.entry("read_json", "reads files"), Map.entry("read_json_auto", "reads files"),
          Map.entry("read_parquet", "reads files"), Map.entry("parquet_scan", "reads files"),
          Map.entry("glob", "lists files"), Map.entry("query", "runs SQL"), Map.entry("query_table", "reads tables"),
          Map.entry("sql_auto_complete", "reads the catalog"), Map.entry("error", "raises errors on purpose"),
          Map.entry("sleep_ms", "stalls the engine"), Map.entry("checkpoint", "touches storage"));

  private final Set<String> callable;
  private final int maxNodes;
  private final int maxDepth;
  private final int maxLiteralLength;
  private final List<String> problems = new ArrayList<>();
  private final Set<String> calls = new HashSet<>();
  private int nodes;

  /**
   * @param callable lower-case names callable besides {@link #ALLOWED_BUILTINS} (vetted functions, accepted
   *     macros)
   */
  ExpressionChecker(Set<String> callable, int maxNodes, int maxDepth, int maxLiteralLength) {
    this.callable = callable;
    this.maxNodes = maxNodes;
    this.maxDepth = maxDepth;
    this.maxLiteralLength = maxLiteralLength;
  }

  /** Problems found so far (empty: the expression is acceptable). */
  List<String> problems() {
    return problems;
  }

  /** Functions and macros the expression calls (lower-case). */
  Set<String> calls() {
    return calls;
  }

  /**
   * Checks one expression.
   *
   * @param columns names a column reference may use (case-insensitive); {@code qualifiers} may prefix them
   */
  void check(JsonNode node, Set<String> columns, Set<String> qualifiers) {
    Set<String> scope = new HashSet<>();
    columns.forEach(c -> scope.add(c.toLowerCase(Locale.ROOT)));
    Set<String> quals = new HashSet<>();
    qualifiers.forEach(q -> quals.add(q.toLowerCase(Locale.ROOT)));
    walk(node, scope, quals, 0);
  }

  private void problem(String p) {
    if (!problems.contains(p) && problems.size() < 10) {
      problems.add(p);
    }
  }

  private void walk(@Nullable JsonNode node, Set<String> scope, Set<String> qualifiers, int depth) {
    if (node == null || node.isNull()) {
      return;
    }
    if (++nodes > maxNodes) {
      problem("expression is too large (more than " + maxNodes + " nodes)");
      return;
    }
    if (depth > maxDepth) {
      problem("expression is nested too deeply (more than " + maxDepth + " levels)");
      return;
    }
    String cls = node.path("class").asText();
    switch (cls) {
      case "CONSTANT" -> {
        String text = node.path("literal").path("text").asText("");
        if (text.length() > maxLiteralLength) {
          problem("a literal is " + text.length() + " characters long (limit " + maxLiteralLength + ")");
        }
      }
      case "COLUMN_REF" -> columnRef(node, scope, qualifiers);
      case "FUNCTION" -> function(node, scope, qualifiers, depth);
      case "CAST" -> {
        JsonNode type = node.path("type_expr");
        if (!"TYPE".equals(type.path("class").asText()) || !type.path("catalog").asText("").isEmpty()
            || !type.path("schema").asText("").isEmpty()
            || !type.path("type_name").asText("").matches("[A-Za-z_][A-Za-z0-9_ ]*")) {
          problem("cast to an unsupported type " + type.path("type_name").asText("?"));
        }
        walk(node.path("child"), scope, qualifiers, depth + 1);
      }
      case "CASE" -> {
        for (JsonNode check : node.path("case_checks")) {
          walk(check.path("when_expr"), scope, qualifiers, depth + 1);
          walk(check.path("then_expr"), scope, qualifiers, depth + 1);
        }
        walk(node.path("else_expr"), scope, qualifiers, depth + 1);
      }
      case "COMPARISON" -> {
        walk(node.path("left"), scope, qualifiers, depth + 1);
        walk(node.path("right"), scope, qualifiers, depth + 1);
      }
      case "CONJUNCTION" -> node.path("children").forEach(c -> walk(c, scope, qualifiers, depth + 1));
      case "OPERATOR" -> {
        String type = node.path("type").asText();
        if (!ALLOWED_OPERATOR_TYPES.contains(type)) {
          problem("operator " + type + " is not allowed");
        }
        node.path("children").forEach(c -> walk(c, scope, qualifiers, depth + 1));
      }
      case "BETWEEN" -> {
        walk(node.path("input"), scope, qualifiers, depth + 1);
        walk(node.path("lower"), scope, qualifiers, depth + 1);
        walk(node.path("upper"), scope, qualifiers, depth + 1);
      }
      case "LAMBDA" -> lambda(node, scope, qualifiers, depth);
      case "SUBQUERY" -> problem("subqueries are not allowed (a cleaning expression reads only its arguments)");
      case "WINDOW" -> problem("window functions are not allowed (" + node.path("function_name").asText() + ")");
      case "STAR" -> problem("* and COLUMNS(...) are not allowed inside an expression");
      case "PARAMETER" -> problem("prepared-statement parameters are not allowed");
      case "POSITIONAL_REFERENCE" -> problem("positional references (#n) are not allowed");
      case "COLLATE" -> problem("COLLATE is not allowed");
      default -> problem("expression kind " + (cls.isEmpty() ? "?" : cls) + " is not allowed");
    }
  }

  private void columnRef(JsonNode node, Set<String> scope, Set<String> qualifiers) {
    JsonNode names = node.path("column_names");
    String name;
    if (names.size() == 1) {
      name = names.get(0).asText();
    } else if (names.size() == 2 && qualifiers.contains(names.get(0).asText().toLowerCase(Locale.ROOT))) {
      name = names.get(1).asText();
    } else {
      StringBuilder sb = new StringBuilder();
      names.forEach(n -> sb.append(sb.length() == 0 ? "" : ".").append(n.asText()));
      problem("reference " + sb + " is not allowed (only the macro's parameters or the base table's columns)");
      return;
    }
    if (!scope.contains(name.toLowerCase(Locale.ROOT))) {
      problem("unknown name " + name + DidYouMean.hint(name, scope));
    }
  }

  private void function(JsonNode node, Set<String> scope, Set<String> qualifiers, int depth) {
    String name = node.path("function_name").asText().toLowerCase(Locale.ROOT);
    boolean operator = node.path("is_operator").asBoolean(false);
    calls.add(name);
    if (!node.path("schema").asText("").isEmpty() || !node.path("catalog").asText("").isEmpty()) {
      problem("qualified function names are not allowed (" + node.path("catalog").asText("") + "."
          + node.path("schema").asText("") + "." + name + ")");
    }
    if (!node.path("filter").isNull() && !node.path("filter").isMissingNode()) {
      problem("FILTER clauses are not allowed (" + name + ")");
    }
    if (node.path("order_bys").path("orders").size() > 0) {
      problem("ORDER BY inside a call is not allowed (" + name + ")");
    }
    if (node.path("distinct").asBoolean(false)) {
      problem("DISTINCT inside a call is not allowed (" + name + ")");
    }
    if (node.path("export_state").asBoolean(false)) {
      problem("EXPORT_STATE is not allowed (" + name + ")");
    }
    if (operator) {
      if (!ALLOWED_OPERATORS.contains(name)) {
        problem("operator " + name + " is not allowed");
      }
    } else if (DENIED_REASONS.containsKey(name) || name.startsWith("read_") || name.startsWith("duckdb_")
        || name.startsWith("pg_") || name.startsWith("pragma_")) {
      problem("function " + name + " is not allowed: " + DENIED_REASONS.getOrDefault(name, "reads outside its arguments"));
    } else if (!ALLOWED_BUILTINS.contains(name) && !callable.contains(name)) {
      List<String> pool = new ArrayList<>(ALLOWED_BUILTINS);
      pool.addAll(callable);
      problem("function " + name + " is not on the allow-list of pure scalar functions"
          + DidYouMean.hint(name, pool));
    }
    for (JsonNode arg : node.path("arguments")) {
      if (!arg.path("name").asText("").isEmpty() && !"struct_pack".equals(name)) {
        problem("named arguments are not allowed (" + name + "(" + arg.path("name").asText() + " := ...))");
      }
      walk(arg.path("expression"), scope, qualifiers, depth + 1);
    }
  }

  private void lambda(JsonNode node, Set<String> scope, Set<String> qualifiers, int depth) {
    Set<String> inner = new HashSet<>(scope);
    JsonNode lhs = node.path("lhs");
    List<JsonNode> params = new ArrayList<>();
    if ("COLUMN_REF".equals(lhs.path("class").asText())) {
      params.add(lhs);
    } else if ("FUNCTION".equals(lhs.path("class").asText()) && "row".equals(lhs.path("function_name").asText())) {
      lhs.path("arguments").forEach(a -> params.add(a.path("expression")));
    } else {
      problem("unsupported lambda parameter list");
      return;
    }
    for (JsonNode p : params) {
      if (!"COLUMN_REF".equals(p.path("class").asText()) || p.path("column_names").size() != 1) {
        problem("unsupported lambda parameter");
        return;
      }
      inner.add(p.path("column_names").get(0).asText().toLowerCase(Locale.ROOT));
    }
    walk(node.path("expr"), inner, qualifiers, depth + 1);
  }
}
