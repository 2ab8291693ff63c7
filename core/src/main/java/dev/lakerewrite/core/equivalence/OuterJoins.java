package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.Trees;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Outer-join simplification: a {@code LEFT} (or {@code RIGHT}) join becomes an inner join when a filter above it
 * rejects the rows it pads with NULLs — a conjunct of the block's {@code WHERE}, or of the {@code ON} of a join
 * above on the side that must match, that is FALSE or NULL whenever the padded side's columns are all NULL,
 * whatever the other columns hold ({@code i_category = 'Books'}, {@code w_warehouse_sk = inv_warehouse_sk} of an
 * inner join above, TPC-DS q78's {@code COALESCE(ws_qty, 0) > 0}). The padded rows never reach the result, and the
 * others are the inner join's (Galindo-Legaria and Rosenthal, "Outerjoin simplification and reordering for query
 * optimization", ACM TODS 22(1), 1997). Run before the normal form ({@link Normalizer}), so that a query and its
 * copy with such a join made inner have the same normal form: a proof.
 *
 * <p>Conservative: a column is placed on a side only when its qualifier names a relation of the block or, without
 * one, exactly one relation has a column of that name (base tables by the schema, derived tables and CTEs by their
 * select lists); a star, a table function, USING, NATURAL or LATERAL joins, renamed columns or a CTE named as a
 * table leave the block as it is. The conjunct is evaluated by a small three-valued evaluator (the padded side's
 * columns NULL, every other column any value) that knows comparisons, {@code IN}, {@code BETWEEN}, {@code LIKE},
 * {@code IS [NOT] NULL}, {@code AND}, {@code OR}, {@code NOT}, {@code COALESCE} and functions that return NULL on
 * a NULL argument, and takes anything else for any value. Linear in the size of the tree times the depth of its
 * joins.
 */
final class OuterJoins {
  /** Functions that return NULL when an argument is NULL. */
  private static final Set<String> STRICT = Set.of("+", "-", "*", "/", "//", "%", "abs", "round", "floor", "ceil",
      "ceiling", "substr", "substring", "upper", "lower", "trim", "ltrim", "rtrim", "length", "year", "month", "day",
      "~~", "!~~", "~~*", "!~~*", "like_escape", "not_like_escape", "prefix", "suffix", "contains", "date_part");

  private final Schema schema;
  private final Map<String, JsonNode> ctes;

  private OuterJoins(Schema schema, Map<String, JsonNode> ctes) {
    this.schema = schema;
    this.ctes = ctes;
  }

  /** A copy of the statement with the null-rejected outer joins made inner (the statement itself when none is). */
  static JsonNode simplified(JsonNode statement, Schema schema) {
    Map<String, JsonNode> ctes = new HashMap<>();
    Set<String> repeated = new java.util.HashSet<>();
    Trees.visit(statement, n -> {
      for (JsonNode e : n.path("cte_map").path("map")) {
        String name = e.path("key").asText("").toLowerCase(Locale.ROOT);
        JsonNode value = e.path("value");
        JsonNode query = value.has("query_node") ? value.get("query_node") : value.path("query").path("node");
        if (ctes.put(name, query) != null) {
          repeated.add(name);
        }
      }
    });
    repeated.forEach(ctes::remove); // shadowed names: which definition a reference reads is not looked up here
    OuterJoins o = new OuterJoins(schema, ctes);
    JsonNode copy = statement.deepCopy();
    boolean[] changed = {false};
    Trees.visit(copy, n -> {
      if (n instanceof ObjectNode block && "SELECT_NODE".equals(block.path("type").asText(""))) {
        changed[0] |= o.simplify(block);
      }
    });
    return changed[0] ? copy : statement;
  }

  /** A relation of a block's FROM: the name it is referred to by and its columns (lower case). */
  private record Relation(String name, Set<String> columns) {}

  private boolean simplify(ObjectNode block) {
    List<Relation> all = new ArrayList<>();
    if (!relations(block.path("from_table"), all)) {
      return false;
    }
    List<JsonNode> conjuncts = new ArrayList<>();
    if (block.path("where_clause").isObject()) {
      conjuncts(block.get("where_clause"), conjuncts);
    }
    return simplify(block.path("from_table"), conjuncts, all);
  }

  /**
   * Makes inner the outer joins in this FROM subtree that the filters above it null-reject. The filters are the
   * WHERE conjuncts (they see every row the subtree's padded rows lead to, with the padded columns still NULL) and
   * the ON conjuncts of the joins above on the side whose rows must meet them: both sides of an inner join, the
   * padded side of an outer join (a row there that fails them matches nothing, so without it the join pads the
   * same preserved rows). A preserved side's row that fails its join's ON comes back padded: not a filter there.
   */
  private boolean simplify(JsonNode from, List<JsonNode> above, List<Relation> all) {
    if (!(from instanceof ObjectNode join) || !"JOIN".equals(join.path("type").asText(""))) {
      return false;
    }
    String kind = join.path("join_type").asText("");
    List<JsonNode> on = new ArrayList<>();
    if (join.path("condition").isObject()) {
      conjuncts(join.get("condition"), on);
    }
    boolean changed = false;
    if ((kind.equals("LEFT") || kind.equals("RIGHT")) && join.path("ref_type").asText("").equals("REGULAR")
        && join.path("using_columns").isEmpty()) {
      List<Relation> side = new ArrayList<>();
      if (relations(kind.equals("LEFT") ? join.path("right") : join.path("left"), side)
          && above.stream().anyMatch(c -> rejectsNulls(c, side, all))) {
        join.put("join_type", "INNER");
        kind = "INNER";
        changed = true;
      }
    }
    List<JsonNode> leftFilters = new ArrayList<>(above);
    List<JsonNode> rightFilters = new ArrayList<>(above);
    if (kind.equals("INNER") || kind.equals("RIGHT")) {
      leftFilters.addAll(on);
    }
    if (kind.equals("INNER") || kind.equals("LEFT")) {
      rightFilters.addAll(on);
    }
    changed |= simplify(join.path("left"), leftFilters, all);
    changed |= simplify(join.path("right"), rightFilters, all);
    return changed;
  }

  /** The relations of a FROM tree, added to {@code out}; false when one's columns are unknown. */
  private boolean relations(JsonNode from, List<Relation> out) {
    switch (from.path("type").asText("")) {
      case "JOIN" -> {
        // Joins that merge or hide columns (USING, NATURAL, an alias over the join) or read the left side's row
        // (LATERAL, ASOF, POSITIONAL) make names ambiguous here: left alone.
        String ref = from.path("ref_type").asText("");
        if (!(ref.equals("REGULAR") || ref.equals("CROSS")) || !from.path("using_columns").isEmpty()
            || !from.path("alias").asText("").isEmpty()) {
          return false;
        }
        return relations(from.path("left"), out) && relations(from.path("right"), out);
      }
      case "BASE_TABLE" -> {
        String table = from.path("table_name").asText("").toLowerCase(Locale.ROOT);
        String alias = from.path("alias").asText("");
        Set<String> columns;
        if (!from.path("column_name_alias").isEmpty()
            || ctes.containsKey(table) && schema.table(table).isPresent()) {
          return false; // renamed columns, or a CTE named as a table (which one is read depends on the scope)
        }
        if (from.path("schema_name").asText("").isEmpty() && ctes.containsKey(table)) {
          columns = outputNames(ctes.get(table));
        } else {
          Optional<Schema.Table> t = schema.table(table);
          columns = t.isEmpty() ? null : new LinkedHashSet<>(t.get().columns().stream()
              .map(c -> c.name().toLowerCase(Locale.ROOT)).toList());
        }
        if (columns == null) {
          return false;
        }
        out.add(new Relation((alias.isEmpty() ? table : alias).toLowerCase(Locale.ROOT), columns));
        return true;
      }
      case "SUBQUERY" -> {
        Set<String> columns = outputNames(from.path("subquery").path("node"));
        String alias = from.path("alias").asText("").toLowerCase(Locale.ROOT);
        if (columns == null || alias.isEmpty() || !from.path("column_name_alias").isEmpty()) {
          return false;
        }
        out.add(new Relation(alias, columns));
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /** The names of a query's output columns (lower case); null when one is unknown (a star, an unnamed expression). */
  private static @Nullable Set<String> outputNames(JsonNode node) {
    if ("SET_OPERATION_NODE".equals(node.path("type").asText(""))) {
      JsonNode first = node.path("children").isArray() && !node.path("children").isEmpty()
          ? node.path("children").get(0) : node.path("left");
      return outputNames(first);
    }
    if (!"SELECT_NODE".equals(node.path("type").asText(""))) {
      return null;
    }
    Set<String> out = new LinkedHashSet<>();
    for (JsonNode e : node.path("select_list")) {
      String alias = e.path("alias").asText("");
      if (!alias.isEmpty()) {
        out.add(alias.toLowerCase(Locale.ROOT));
      } else if ("COLUMN_REF".equals(e.path("class").asText(""))) {
        out.add(Trees.columnName(e).toLowerCase(Locale.ROOT));
      } else {
        return null;
      }
    }
    return out;
  }

  private static void conjuncts(JsonNode e, List<JsonNode> out) {
    if ("CONJUNCTION_AND".equals(e.path("type").asText(""))) {
      e.path("children").forEach(c -> conjuncts(c, out));
    } else {
      out.add(e);
    }
  }

  /**
   * Whether the conjunct is FALSE or NULL on every row whose {@code side} columns are all NULL, whatever the other
   * columns hold.
   */
  private static boolean rejectsNulls(JsonNode conjunct, List<Relation> side, List<Relation> all) {
    Value v = new Evaluation(side, all).of(conjunct);
    return v != null && (v.kind() == Kind.NULL || v.kind() == Kind.NOT_TRUE
        || v.kind() == Kind.CONSTANT && Boolean.FALSE.equals(v.value()));
  }

  /** What an expression is known to be: NULL, a constant, not TRUE (FALSE or NULL), or anything. */
  private enum Kind { NULL, CONSTANT, NOT_TRUE, ANY }

  /** A value of {@link Kind} (a CONSTANT's value a Boolean, a BigDecimal or a String). */
  private record Value(Kind kind, @Nullable Object value) {}

  private static final Value NULL = new Value(Kind.NULL, null);
  private static final Value ANY = new Value(Kind.ANY, null);
  private static final Value NOT_TRUE = new Value(Kind.NOT_TRUE, null);

  private static Value constant(Object v) {
    return new Value(Kind.CONSTANT, v);
  }

  /**
   * A three-valued evaluation with the padded side's columns NULL and every other column (and anything this
   * evaluator does not know) any value; null when a column cannot be placed.
   */
  private record Evaluation(List<Relation> side, List<Relation> all) {
    @Nullable Value of(JsonNode e) {
      String cls = e.path("class").asText("");
      String type = e.path("type").asText("");
      List<JsonNode> kids = new ArrayList<>();
      e.path("children").forEach(kids::add);
      switch (cls) {
        case "COLUMN_REF" -> {
          return column(e);
        }
        case "CONSTANT" -> {
          return OuterJoins.constant(e);
        }
        case "CAST" -> {
          Value v = of(e.path("child"));
          return v == null ? null : v.kind() == Kind.NULL ? NULL : ANY;
        }
        case "COMPARISON" -> {
          return compare(type, of(e.path("left")), of(e.path("right")));
        }
        case "BETWEEN" -> {
          Value input = of(e.path("input"));
          Value lower = of(e.path("lower"));
          Value upper = of(e.path("upper"));
          if (input == null || lower == null || upper == null) {
            return null;
          }
          return and(List.of(compare("COMPARE_GREATERTHANOREQUALTO", input, lower),
              compare("COMPARE_LESSTHANOREQUALTO", input, upper)));
        }
        case "CONJUNCTION" -> {
          List<Value> values = each(kids);
          if (values == null) {
            return null;
          }
          return type.equals("CONJUNCTION_AND") ? and(values) : type.equals("CONJUNCTION_OR") ? or(values) : ANY;
        }
        case "OPERATOR" -> {
          List<Value> values = each(kids);
          if (values == null) {
            return null;
          }
          if (values.isEmpty()) {
            return ANY;
          }
          Value first = values.get(0);
          return switch (type) {
            case "OPERATOR_IS_NULL" -> first.kind() == Kind.NULL ? constant(true)
                : first.kind() == Kind.CONSTANT ? constant(false) : ANY;
            case "OPERATOR_IS_NOT_NULL" -> first.kind() == Kind.NULL ? constant(false)
                : first.kind() == Kind.CONSTANT ? constant(true) : ANY;
            case "OPERATOR_NOT" -> first.kind() == Kind.NULL ? NULL
                : first.kind() == Kind.CONSTANT && first.value() instanceof Boolean b ? constant(!b) : ANY;
            case "COMPARE_IN", "COMPARE_NOT_IN" -> first.kind() == Kind.NULL ? NULL : ANY;
            case "OPERATOR_COALESCE" -> coalesce(values);
            default -> ANY;
          };
        }
        case "FUNCTION" -> {
          String name = e.path("function_name").asText("").toLowerCase(Locale.ROOT);
          List<Value> values = each(QueryFacts.arguments(e));
          if (values == null) {
            return null;
          }
          if (name.equals("coalesce") || name.equals("ifnull")) {
            return coalesce(values);
          }
          boolean strict = STRICT.contains(name) && !e.path("distinct").asBoolean(false);
          return strict && values.stream().anyMatch(v -> v.kind() == Kind.NULL) ? NULL : ANY;
        }
        default -> {
          // A CASE, a subquery, a window: any value, but the columns in it must still be placeable.
          boolean[] placeable = {true};
          Trees.visit(e, n -> {
            if (n != e && "COLUMN_REF".equals(n.path("class").asText("")) && column(n) == null) {
              placeable[0] = false;
            }
          });
          return placeable[0] ? ANY : null;
        }
      }
    }

    /** The values of these expressions; null when one's cannot be told. */
    private @Nullable List<Value> each(List<JsonNode> expressions) {
      List<Value> out = new ArrayList<>();
      for (JsonNode x : expressions) {
        Value v = of(x);
        if (v == null) {
          return null;
        }
        out.add(v);
      }
      return out;
    }

    /**
     * NULL for a column of the padded side, any value for another relation's or an outer one; null when the name
     * may be the padded side's and may not.
     */
    private @Nullable Value column(JsonNode ref) {
      JsonNode names = ref.path("column_names");
      String column = Trees.columnName(ref).toLowerCase(Locale.ROOT);
      if (names.size() == 2) {
        String qualifier = names.get(0).asText("").toLowerCase(Locale.ROOT);
        List<Relation> named = all.stream().filter(r -> r.name().equals(qualifier)).toList();
        if (named.isEmpty()) {
          return ANY; // an outer query's relation
        }
        if (named.size() > 1 || !named.get(0).columns().contains(column)) {
          return null;
        }
        return side.contains(named.get(0)) ? NULL : ANY;
      }
      if (names.size() != 1) {
        return null;
      }
      List<Relation> having = all.stream().filter(r -> r.columns().contains(column)).toList();
      if (having.size() > 1) {
        return null;
      }
      return having.size() == 1 && side.contains(having.get(0)) ? NULL : ANY;
    }
  }

  private static Value coalesce(List<Value> values) {
    for (Value v : values) {
      if (v.kind() != Kind.NULL) {
        return v.kind() == Kind.CONSTANT ? v : ANY;
      }
    }
    return NULL;
  }

  private static Value constant(JsonNode e) {
    if (e.path("value").path("is_null").asBoolean(false)) {
      return NULL;
    }
    @Nullable String @Nullable [] literal = dev.lakerewrite.core.sql.SqlAnalyzer.literal(e);
    if (literal == null || literal[0] == null) {
      return ANY;
    }
    String kind = literal[0].toUpperCase(Locale.ROOT);
    String text = literal[1];
    if (kind.startsWith("NULL")) {
      return NULL;
    }
    if (text == null) {
      return ANY;
    }
    return switch (kind) {
      case "BOOLEAN" -> constant(Boolean.parseBoolean(text));
      case "STRING", "VARCHAR" -> constant(text);
      case "INTEGER", "NUMERIC", "DECIMAL", "TINYINT", "SMALLINT", "BIGINT", "HUGEINT", "DOUBLE", "FLOAT" -> {
        try {
          yield constant(new BigDecimal(text.strip()));
        } catch (NumberFormatException ex) {
          yield ANY;
        }
      }
      default -> ANY;
    };
  }

  private static @Nullable Value compare(String type, @Nullable Value l, @Nullable Value r) {
    if (l == null || r == null) {
      return null;
    }
    if (type.equals("COMPARE_DISTINCT_FROM") || type.equals("COMPARE_NOT_DISTINCT_FROM")) {
      return ANY; // not strict
    }
    if (l.kind() == Kind.NULL || r.kind() == Kind.NULL) {
      return NULL;
    }
    if (l.kind() != Kind.CONSTANT || r.kind() != Kind.CONSTANT) {
      return ANY;
    }
    int cmp;
    if (l.value() instanceof BigDecimal a && r.value() instanceof BigDecimal b) {
      cmp = a.compareTo(b);
    } else if (l.value() instanceof String a && r.value() instanceof String b) {
      cmp = a.compareTo(b);
    } else {
      return ANY;
    }
    return switch (type) {
      case "COMPARE_EQUAL" -> constant(cmp == 0);
      case "COMPARE_NOTEQUAL" -> constant(cmp != 0);
      case "COMPARE_LESSTHAN" -> constant(cmp < 0);
      case "COMPARE_GREATERTHAN" -> constant(cmp > 0);
      case "COMPARE_LESSTHANOREQUALTO" -> constant(cmp <= 0);
      case "COMPARE_GREATERTHANOREQUALTO" -> constant(cmp >= 0);
      default -> ANY;
    };
  }

  private static boolean isFalse(Value v) {
    return v.kind() == Kind.CONSTANT && Boolean.FALSE.equals(v.value());
  }

  private static boolean isTrue(Value v) {
    return v.kind() == Kind.CONSTANT && Boolean.TRUE.equals(v.value());
  }

  /** FALSE if one is; not TRUE if one is NULL or not TRUE; TRUE if all are; else anything. */
  private static Value and(List<@Nullable Value> values) {
    if (values.stream().anyMatch(v -> v == null)) {
      return ANY;
    }
    if (values.stream().anyMatch(OuterJoins::isFalse)) {
      return constant(false);
    }
    if (values.stream().anyMatch(v -> v.kind() == Kind.NULL || v.kind() == Kind.NOT_TRUE)) {
      return NOT_TRUE;
    }
    return values.stream().allMatch(OuterJoins::isTrue) ? constant(true) : ANY;
  }

  /** TRUE if one is; FALSE if all are; not TRUE if each is FALSE, NULL or not TRUE; else anything. */
  private static Value or(List<Value> values) {
    if (values.stream().anyMatch(OuterJoins::isTrue)) {
      return constant(true);
    }
    if (values.stream().allMatch(OuterJoins::isFalse)) {
      return constant(false);
    }
    boolean notTrue = values.stream().allMatch(v -> isFalse(v) || v.kind() == Kind.NULL || v.kind() == Kind.NOT_TRUE);
    return notTrue ? NOT_TRUE : ANY;
  }
}
