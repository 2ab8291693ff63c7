package dev.lakerewrite.core.rewrite;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.ColumnProfile;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.SqlSyntaxException;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.retrieval.TypeFamily;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a candidate's type error says about its mapping: the lake columns whose declared types DuckDB rejected where
 * the query used the assumed column that reads them. A candidate that fails with {@code No function matches the given
 * name and argument types 'sum(VARCHAR)'} refutes the text column it summed for the assumed column behind it; one
 * that fails with {@code Could not convert string 'BUILDING' to INT32} refutes the numeric column it compared with
 * {@code 'BUILDING'}. The planner then ranks those lake columns last for those assumed columns, so the next candidate
 * reads the next best ones instead of repeating the error (execution-guided search, issue 12).
 *
 * <p>A column is blamed for its declared type only: read through a cleaner, a cast or any other function it is not
 * (the reading was the rewrite's choice, the column may still be right). Cost: one parse of
 * the candidate and one walk over its tree, O(n) in its size.
 */
final class TypeRefutations {

  /**
   * One refuted choice.
   *
   * @param assumedColumn the assumed column (lower case) the lake column was read for
   * @param lakeTable the lake table
   * @param lakeColumn the lake column its type error blames
   * @param reason the error, shortly
   */
  record Refutation(String assumedColumn, String lakeTable, String lakeColumn, String reason) {}

  private static final Pattern NO_FUNCTION = Pattern.compile(
      "No function matches the given name and argument types '([^'(]+)\\(([^)]*)\\)'");
  private static final Pattern NOT_CONVERTED = Pattern.compile(
      "Could not convert string '((?:[^']|'')*)' to '?([A-Za-z0-9_]+)");
  private static final Pattern CAST_SOURCE = Pattern.compile("when casting from source column \"?([^\"\n]+?)\"?\\s*$",
      Pattern.MULTILINE);
  // "and type DATE" for a comparison, "and BIGINT in IN/ANY/ALL clause" for IN and ANY; "Cannot mix values of type
  // VARCHAR and DATE in BETWEEN clause" and "... in COALESCE operator" for BETWEEN and COALESCE.
  private static final Pattern NOT_COMPARABLE = Pattern.compile(
      "Cannot (?:compare|mix) values of type ([A-Za-z0-9_]+) and (?:type )?([A-Za-z0-9_]+)");
  private TypeRefutations() {}

  /** The refutations a failed candidate's error carries; none for other errors or candidates without a mapping. */
  static List<Refutation> of(RewriteCandidate candidate, LakeTools lake) {
    Optional<QueryError> error = candidate.error();
    if (error.isEmpty() || candidate.mapping().isEmpty()) {
      return List.of();
    }
    String message = error.get().message();
    Reader reader = new Reader(candidate, lake);
    Matcher source = CAST_SOURCE.matcher(message);
    if (source.find()) {
      // DuckDB names the column whose values did not convert: whatever compared it, its values are not that type.
      Matcher converted = NOT_CONVERTED.matcher(message);
      String what = converted.find() ? "'" + converted.group(1) + "' is no " + converted.group(2) : "not convertible";
      return reader.refutations(new LinkedHashSet<>(reader.lakeColumns(source.group(1))),
          source.group(1) + " holds values like " + what);
    }
    Matcher noFunction = NO_FUNCTION.matcher(message);
    Matcher notConverted = NOT_CONVERTED.matcher(message);
    Matcher notComparable = NOT_COMPARABLE.matcher(message);
    boolean byFunction = noFunction.find();
    boolean byLiteral = !byFunction && notConverted.find();
    boolean byComparison = !byFunction && !byLiteral && notComparable.find() && error.get().position() >= 0;
    if (!byFunction && !byLiteral && !byComparison) {
      return List.of();
    }
    JsonNode tree;
    try {
      tree = new Trees(SqlParser.standalone()).statement(candidate.sql());
    } catch (SqlSyntaxException | IllegalArgumentException e) {
      return List.of();
    }
    Set<Blame> blamed = new LinkedHashSet<>();
    if (byFunction) {
      String function = noFunction.group(1).strip().toLowerCase(Locale.ROOT);
      List<TypeFamily> argumentFamilies = new ArrayList<>();
      for (String t : noFunction.group(2).split(",")) {
        argumentFamilies.add(t.isBlank() ? null : family(t.strip()));
      }
      Trees.visit(tree, n -> {
        if ("FUNCTION".equals(n.path("class").asText())
            && function.equalsIgnoreCase(n.path("function_name").asText())) {
          List<JsonNode> children = SqlAnalyzer.arguments(n);
          for (int i = 0; i < children.size() && i < argumentFamilies.size(); i++) {
            TypeFamily rejected = argumentFamilies.get(i);
            if (rejected != null) {
              reader.columnsOfFamily(children.get(i), rejected, blamed);
            }
          }
        }
      });
      return reader.refutations(blamed, "DuckDB has no " + function + "(" + noFunction.group(2) + ")");
    }
    if (byComparison) {
      JsonNode comparison = comparisonAt(tree, candidate.sql(), error.get().position());
      if (comparison == null) {
        return List.of();
      }
      TypeFamily first = family(notComparable.group(1));
      TypeFamily second = family(notComparable.group(2));
      for (JsonNode[] sides : sides(comparison)) {
        // A column against a value: the column is wrong; text against a typed column: the text is.
        boolean otherIsValue = Trees.columnRefs(sides[1]).isEmpty();
        for (TypeFamily f : List.of(first, second)) {
          if (otherIsValue || f == TypeFamily.STRING) {
            reader.columnsOfFamily(sides[0], f, blamed);
          }
        }
      }
      return reader.refutations(blamed, "DuckDB cannot compare " + notComparable.group(1) + " with "
          + notComparable.group(2));
    }
    String literal = notConverted.group(1).replace("''", "'");
    TypeFamily target = family(notConverted.group(2));
    Trees.visit(tree, n -> {
      for (JsonNode[] pair : sides(n)) {
        if (!"CONSTANT".equals(pair[1].path("class").asText())) {
          continue;
        }
        JsonNode value = pair[1].path("literal");
        if ("STRING".equals(value.path("kind").asText()) && literal.equals(value.path("text").asText())) {
          reader.columnsOfFamily(pair[0], target, blamed);
        }
      }
    });
    return reader.refutations(blamed, "'" + literal + "' is no " + notConverted.group(2));
  }

  /** The innermost comparison whose text holds the error's position (a character offset into {@code sql}). */
  private static @Nullable JsonNode comparisonAt(JsonNode tree, String sql, int position) {
    JsonNode[] best = {null};
    int[] bestLength = {Integer.MAX_VALUE};
    Trees.visit(tree, n -> {
      if (!isComparison(n) || !n.has("query_location")) {
        return;
      }
      int own = n.path("query_location").asInt(-1);
      int location = own;
      // BETWEEN and IN are located at their keyword, DuckDB's error at the operand before it.
      for (String operand : List.of("input", "child", "left")) {
        int at = n.path(operand).path("query_location").asInt(-1);
        if (at >= 0 && at < location) {
          location = at;
        }
      }
      int start = DialectNormalizer.charIndex(sql, location);
      int end = DialectNormalizer.charIndex(sql, own + n.path("query_location_length").asInt(0));
      if (start >= 0 && start <= position && (end < 0 || position <= end) && end - start < bestLength[0]) {
        best[0] = n;
        bestLength[0] = end - start;
      }
    });
    return best[0];
  }

  /** A comparison, BETWEEN, IN / NOT IN list, COALESCE, or a comparison with ANY / ALL of a subquery (IN too). */
  private static boolean isComparison(JsonNode n) {
    String cls = n.path("class").asText();
    String type = n.path("type").asText();
    return cls.equals("COMPARISON") || cls.equals("BETWEEN")
        || cls.equals("OPERATOR") && (type.startsWith("COMPARE_") || type.equals("OPERATOR_COALESCE"))
        || cls.equals("SUBQUERY") && n.path("subquery_type").asText().equals("ANY");
  }

  /**
   * Each side of a comparison, BETWEEN or IN list with what it is compared with (a comparison both ways); none for
   * other nodes.
   */
  private static List<JsonNode[]> sides(JsonNode n) {
    List<JsonNode[]> out = new ArrayList<>();
    if (!isComparison(n)) {
      return out;
    }
    String cls = n.path("class").asText();
    if (cls.equals("COMPARISON")) {
      out.add(new JsonNode[] {n.path("left"), n.path("right")});
      out.add(new JsonNode[] {n.path("right"), n.path("left")});
    } else if (cls.equals("BETWEEN")) {
      out.add(new JsonNode[] {n.path("input"), n.path("lower")});
      out.add(new JsonNode[] {n.path("input"), n.path("upper")});
    } else if (cls.equals("SUBQUERY")) {
      // x IN (SELECT y ...): x against the subquery's one output, both ways.
      JsonNode selected = n.path("subquery").path("node").path("select_list").path(0);
      if (!selected.isMissingNode()) {
        out.add(new JsonNode[] {n.path("child"), selected});
        out.add(new JsonNode[] {selected, n.path("child")});
      }
    } else if (n.path("type").asText().equals("OPERATOR_COALESCE")) {
      List<JsonNode> kids = new ArrayList<>();
      n.path("children").forEach(kids::add);
      for (JsonNode a : kids) {
        for (JsonNode b : kids) {
          if (a != b) {
            out.add(new JsonNode[] {a, b});
          }
        }
      }
    } else {
      List<JsonNode> kids = new ArrayList<>();
      n.path("children").forEach(kids::add);
      for (int i = 1; i < kids.size(); i++) {
        out.add(new JsonNode[] {kids.get(0), kids.get(i)});
      }
    }
    return out;
  }

  /**
   * The family of a type name as DuckDB's messages write it: SQL names ({@code VARCHAR}, {@code BIGINT}), physical
   * names ({@code INT32}, {@code UINT8}) and literal types ({@code INTEGER_LITERAL}, {@code STRING_LITERAL}).
   */
  static TypeFamily family(String typeName) {
    String t = typeName.toUpperCase(Locale.ROOT).replaceAll("_LITERAL$", "");
    if (t.matches("U?INT(8|16|32|64|128)|FLOAT|DOUBLE|HUGEINT|UHUGEINT|DECIMAL.*")) {
      return TypeFamily.NUMERIC;
    }
    if (t.equals("STRING")) {
      return TypeFamily.STRING;
    }
    return TypeFamily.fromSqlType(t);
  }

  private record Blame(String lakeTable, String lakeColumn) {}

  /** Reads column references of the candidate as the lake columns its mapping applied. */
  private static final class Reader {
    private final RewriteCandidate candidate;
    private final LakeTools lake;

    Reader(RewriteCandidate candidate, LakeTools lake) {
      this.candidate = candidate;
      this.lake = lake;
    }

    /**
     * Adds the lake columns an expression reads whose declared type is of {@code family}: the expression itself or
     * through arithmetic. A column read through a cleaner or a cast is not blamed: the rewrite chose that reading
     * ({@code year(clean_number(x))} fails because x was read as a number, not because x is the wrong column).
     */
    void columnsOfFamily(JsonNode e, TypeFamily family, Set<Blame> out) {
      String cls = e.path("class").asText();
      switch (cls) {
        case "COLUMN_REF" -> {
          List<String> parts = Trees.columnNames(e);
          String column = parts.get(parts.size() - 1);
          for (Blame b : lakeColumns(column)) {
            if (declared(b) == family) {
              out.add(b);
            }
          }
        }
        case "FUNCTION" -> {
          String name = e.path("function_name").asText("").toLowerCase(Locale.ROOT);
          if (e.path("is_operator").asBoolean(false) && name.matches("[-+*/%]")) {
            SqlAnalyzer.arguments(e).forEach(child -> columnsOfFamily(child, family, out));
          }
        }
        default -> { }
      }
    }

    /** The mapping's lake columns of that name (any case). */
    List<Blame> lakeColumns(String column) {
      List<Blame> out = new ArrayList<>();
      for (Set<String> lakeColumns : candidate.mapping().columns().values()) {
        for (String qualified : lakeColumns) {
          int dot = qualified.indexOf('.');
          if (dot > 0 && qualified.substring(dot + 1).equalsIgnoreCase(column)) {
            Blame b = new Blame(qualified.substring(0, dot), qualified.substring(dot + 1));
            if (!out.contains(b)) {
              out.add(b);
            }
          }
        }
      }
      return out;
    }

    private @Nullable TypeFamily declared(Blame b) {
      try {
        return lake.profile(b.lakeTable()).column(b.lakeColumn()).map(ColumnProfile::type)
            .map(TypeFamily::fromSqlType).orElse(null);
      } catch (RuntimeException e) {
        return null;
      }
    }

    /** Each blamed lake column, for every assumed column the mapping read it for. */
    List<Refutation> refutations(Set<Blame> blamed, String reason) {
      List<Refutation> out = new ArrayList<>();
      for (Map.Entry<String, Set<String>> e : candidate.mapping().columns().entrySet()) {
        String assumed = e.getKey();
        String assumedColumn = assumed.substring(assumed.lastIndexOf('.') + 1);
        for (Blame b : blamed) {
          if (e.getValue().contains(b.lakeTable() + "." + b.lakeColumn())) {
            out.add(new Refutation(assumedColumn, b.lakeTable(), b.lakeColumn(),
                reason + " (candidate " + candidate.index() + ")"));
          }
        }
      }
      return out;
    }
  }
}
