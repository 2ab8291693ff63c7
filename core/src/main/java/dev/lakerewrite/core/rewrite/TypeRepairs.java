package dev.lakerewrite.core.rewrite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.sql.Trees;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Repairs of a rewritten query the binder rejects for its types, the last guard of "a query that binds on its
 * assumed schema is never turned into one that does not bind". A lake column chosen for an assumed one may be typed
 * otherwise than the query uses it (a year read with {@code date_part} from dates kept as integers, a key compared
 * through {@code IN} with numbers while the lake holds it as text); the rewrite then fails as a whole and returns
 * nothing. The repair reads the operands the binder names as the type the query needs, the way the lake's cleaning
 * reads values ({@code clean_date}, {@code clean_number}, {@code TRY_CAST}): a value that cannot be read becomes NULL
 * instead of failing the query. Two errors are repaired, each at the expression the error's position points at:
 * <ul>
 *   <li>{@code Cannot compare values of type A and B in IN/ANY/ALL clause}: both sides of the {@code IN} (the tested
 *       expression and the subquery's output) are read as the non-text type, or both as text;
 *   <li>{@code No function matches ... 'f(A, B)'}: for a date function, the arguments that are no date, time or
 *       interval are read as dates; for a numeric function, the text arguments as numbers.
 * </ul>
 * Anything else, or an error without a position, is left as it is. O(n) in the query's tree size per repair.
 */
final class TypeRepairs {
  private static final Pattern COMPARE = Pattern.compile(
      "Cannot compare values of type (\\w+(?: \\w+)*?) and (\\w+(?: \\w+)*?) in IN/ANY/ALL clause");
  private static final Pattern NO_FUNCTION = Pattern.compile(
      "No function matches the given name and argument types '([\\w.]+)\\((.*?)\\)'");
  private static final Set<String> DATE_FUNCTIONS = Set.of("date_part", "datepart", "extract", "year", "month",
      "day", "quarter", "week", "weekofyear", "dayofweek", "dayofmonth", "dayofyear", "isodow", "yearweek",
      "date_trunc", "datetrunc", "strftime", "last_day", "monthname", "dayname", "date_diff", "datediff",
      "date_sub", "datesub");
  private static final Set<String> NUMERIC_FUNCTIONS = Set.of("sum", "avg", "mean", "round", "abs", "ceil",
      "ceiling", "floor", "sqrt", "ln", "log", "log10", "log2", "exp", "power", "pow", "stddev", "stddev_samp",
      "stddev_pop", "variance", "var_samp", "var_pop", "median", "quantile_cont", "sign", "trunc", "fsum", "sumkahan");
  private static final Set<String> TEMPORAL = Set.of("DATE", "TIMESTAMP", "TIME", "INTERVAL",
      "TIMESTAMP WITH TIME ZONE", "TIME WITH TIME ZONE", "TIMESTAMP_NS", "TIMESTAMP_MS", "TIMESTAMP_S", "TIME_NS");
  private static final Set<String> NUMERIC = Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
      "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL", "INTEGER_LITERAL");

  private TypeRepairs() {}

  /**
   * The query with the operands the binder error names read as the types their use needs, with a note of what was
   * changed; empty when the error is not a type error this repairs, has no position, or no expression there.
   *
   * @param trees the parser of the engine the query failed on
   * @param sql the query the binder rejected
   * @param error the binder's error for it
   */
  static Optional<Repair> repair(Trees trees, String sql, QueryError error) {
    if (error.kind() != ErrorKind.BINDER || error.position() < 0) {
      return Optional.empty();
    }
    ObjectNode statement;
    try {
      statement = trees.statement(sql);
    } catch (RuntimeException e) {
      return Optional.empty(); // not one statement the parser reads: nothing to repair
    }
    Matcher compare = COMPARE.matcher(error.message());
    if (compare.find()) {
      return at(statement, error.position(), "SUBQUERY").flatMap(n -> repairIn(trees, statement, n,
          compare.group(1), compare.group(2)));
    }
    Matcher function = NO_FUNCTION.matcher(error.message());
    if (function.find()) {
      String name = function.group(1).toLowerCase(Locale.ROOT);
      List<String> types = argumentTypes(function.group(2));
      return at(statement, error.position(), "FUNCTION")
          .filter(n -> n.path("function_name").asText("").equalsIgnoreCase(name))
          .flatMap(n -> repairFunction(trees, statement, n, name, types));
    }
    return Optional.empty();
  }

  /** A repaired query and what the repair did, for the trace. */
  record Repair(String sql, String note) {}

  private static Optional<Repair> repairIn(Trees trees, ObjectNode statement, ObjectNode subquery, String left,
      String right) {
    JsonNode child = subquery.get("child");
    JsonNode selectList = subquery.path("subquery").path("node").path("select_list");
    if (!(child instanceof ObjectNode) || selectList.size() != 1 || !(selectList.get(0) instanceof ObjectNode)
        || "STAR".equals(selectList.get(0).path("class").asText())) {
      return Optional.empty();
    }
    String other = left.equals("VARCHAR") ? right : left;
    String template = NUMERIC.contains(other) ? "TRY_CAST(%s AS DOUBLE)"
        : TEMPORAL.contains(other) ? "clean_date(CAST(%s AS VARCHAR))" : "CAST(%s AS VARCHAR)";
    String tested = trees.expression(child);
    ObjectNode output = (ObjectNode) selectList.get(0);
    String alias = output.path("alias").asText("");
    wrap(trees, (ObjectNode) child, template);
    wrap(trees, output, template);
    output.put("alias", alias);
    return Optional.of(new Repair(trees.render(statement), String.format(Locale.ROOT,
        "the binder could not compare %s with %s in IN: both sides read as %s (%s)", left, right,
        template.replace("%s", "…"), tested)));
  }

  private static Optional<Repair> repairFunction(Trees trees, ObjectNode statement, ObjectNode function, String name,
      List<String> types) {
    boolean date = DATE_FUNCTIONS.contains(name);
    boolean numeric = NUMERIC_FUNCTIONS.contains(name);
    // Arguments are serialised as {name, expression} (older engines: the expressions as children).
    List<JsonNode> args = new ArrayList<>();
    function.path(function.has("arguments") ? "arguments" : "children")
        .forEach(a -> args.add(a.has("expression") ? a.get("expression") : a));
    if (!date && !numeric || args.size() != types.size()) {
      return Optional.empty();
    }
    List<String> read = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      JsonNode arg = args.get(i);
      String type = types.get(i);
      if (!(arg instanceof ObjectNode) || "CONSTANT".equals(arg.path("class").asText())) {
        continue;
      }
      if (date && !TEMPORAL.contains(type) && !type.endsWith("[]")) {
        read.add(trees.expression(arg) + " (" + type + ") as a date");
        wrap(trees, (ObjectNode) arg, "clean_date(CAST(%s AS VARCHAR))");
      } else if (numeric && type.equals("VARCHAR")) {
        read.add(trees.expression(arg) + " (text) as a number");
        wrap(trees, (ObjectNode) arg, "clean_number(%s)");
      }
    }
    if (read.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Repair(trees.render(statement), "the binder found no " + name + " for its argument types: "
        + String.join(", ", read)));
  }

  private static void wrap(Trees trees, ObjectNode expression, String template) {
    ObjectNode wrapped = trees.parseExpression(String.format(template, trees.expression(expression)));
    Trees.replace(expression, wrapped);
    expression.put("alias", "");
  }

  /** The argument types of a binder message's signature, split at top-level commas. */
  private static List<String> argumentTypes(String signature) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    StringBuilder current = new StringBuilder();
    for (char c : signature.toCharArray()) {
      if (c == ',' && depth == 0) {
        out.add(current.toString().strip());
        current.setLength(0);
        continue;
      }
      depth += c == '(' || c == '[' ? 1 : c == ')' || c == ']' ? -1 : 0;
      current.append(c);
    }
    if (!current.toString().isBlank()) {
      out.add(current.toString().strip());
    }
    return out;
  }

  /** The innermost node of a class whose source span holds the position. */
  private static Optional<ObjectNode> at(ObjectNode statement, int position, String cls) {
    ObjectNode[] best = {null};
    int[] bestLength = {Integer.MAX_VALUE};
    Trees.visit(statement, n -> {
      if (!cls.equals(n.path("class").asText()) || !n.has("query_location")) {
        return;
      }
      long start = n.path("query_location").asLong(-1);
      long length = n.path("query_location_length").asLong(0);
      // A subquery's span starts at its operator (name = ANY(...)), a function's at its name.
      if (start >= 0 && start <= position && position < start + Math.max(length, 1) && length < bestLength[0]) {
        best[0] = (ObjectNode) n;
        bestLength[0] = (int) length;
      }
    });
    return Optional.ofNullable(best[0]);
  }
}
