package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.Trees;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map.Entry;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The cheap syntactic pass: a normal form of a query's syntax tree in which queries that differ only in ways that
 * cannot change their result look the same. Two queries with equal normal forms are equivalent (proved), because
 * every step preserves meaning:
 * <ul>
 *   <li>source positions and CTE materialisation hints are dropped;</li>
 *   <li>table aliases and CTE names are renamed consistently, by position, honouring scopes (correlated
 *       references and shadowing);</li>
 *   <li>a FROM clause of inner and cross joins only (when the select list has no star, whose column order the
 *       join order decides) becomes a sorted set of relations, and its ON conditions join the WHERE
 *       conjuncts;</li>
 *   <li>AND and OR operands (flattened), operands of {@code =}, {@code <>}, {@code +}, {@code *}, IN lists,
 *       GROUP BY keys, and the branches of UNION / INTERSECT without modifiers are sorted; {@code b > a} becomes
 *       {@code a < b};</li>
 *   <li>aliases of the outermost select list that nothing refers to are dropped (results are compared by
 *       position);</li>
 *   <li>DISTINCT is dropped where the block returns distinct rows anyway: an aggregate without GROUP BY (one row),
 *       or a GROUP BY each of whose keys is a select item (by position or as the same expression);</li>
 *   <li>in a WHERE clause, a comparison of a column with a constant that another conjunct implies (the same
 *       column and the same constant: {@code x > 0} implies {@code x >= 0}, {@code x <> 0}) becomes TRUE wherever
 *       it stands in the other conjuncts outside subqueries ({@code CASE WHEN x >= 0 THEN ...} beside the conjunct
 *       {@code x > 0}: TPC-DS q11): a row on which that conjunct is not TRUE fails the WHERE whatever the rest
 *       says, and on every other row the comparison is TRUE.</li>
 * </ul>
 * Anything the pass does not understand is left as it is, so unequal normal forms say nothing. Linear in the tree
 * apart from the sorts.
 */
final class Normalizer {
  private static final ObjectMapper JSON = Trees.JSON;
  private static final Set<String> SYMMETRIC_COMPARISONS = Set.of("COMPARE_EQUAL", "COMPARE_NOTEQUAL",
      "COMPARE_DISTINCT_FROM", "COMPARE_NOT_DISTINCT_FROM");
  private static final Map<String, String> FLIPPED = Map.of(
      "COMPARE_LESSTHAN", "COMPARE_GREATERTHAN", "COMPARE_GREATERTHAN", "COMPARE_LESSTHAN",
      "COMPARE_LESSTHANOREQUALTO", "COMPARE_GREATERTHANOREQUALTO",
      "COMPARE_GREATERTHANOREQUALTO", "COMPARE_LESSTHANOREQUALTO");

  private int cteCounter;

  private Normalizer() {}

  /** The normal form of a statement tree as text, or null when the tree has a shape the pass refuses. */
  static @Nullable String normalForm(JsonNode statement) {
    try {
      ObjectNode copy = (ObjectNode) statement.deepCopy();
      stripLocations(copy);
      copy.remove("named_param_map");
      Normalizer n = new Normalizer();
      JsonNode node = n.node(copy.get("node"), new ArrayDeque<>(), new ArrayDeque<>(), true);
      return node == null ? null : JSON.writeValueAsString(node);
    } catch (RuntimeException | com.fasterxml.jackson.core.JsonProcessingException e) {
      return null;
    }
  }

  private static void stripLocations(JsonNode n) {
    if (n instanceof ObjectNode o) {
      o.remove("query_location");
      o.remove("query_location_length");
      if (o.has("materialized") && o.get("materialized").isTextual()) {
        o.put("materialized", "CTE_MATERIALIZE_DEFAULT");
      }
    }
    if (n != null && n.isContainerNode()) {
      for (JsonNode child : n) {
        stripLocations(child);
      }
    }
  }

  /** Normalises a query node in place (returns it), under the table-alias scopes and CTE names around it. */
  private JsonNode node(JsonNode n, Deque<Map<String, String>> aliases, Deque<Map<String, String>> ctes,
      boolean outermost) {
    if (!(n instanceof ObjectNode node)) {
      return n;
    }
    Map<String, String> cteNames = new HashMap<>();
    ctes.push(cteNames);
    try {
      for (JsonNode entry : node.path("cte_map").path("map")) {
        String name = entry.path("key").asText("");
        String canonical = "__cte" + (++cteCounter);
        // A recursive CTE sees its own name; a plain one only earlier ones, but naming it early is harmless.
        cteNames.put(name.toLowerCase(Locale.ROOT), canonical);
        ((ObjectNode) entry).put("key", canonical);
        JsonNode value = entry.path("value");
        if (value.has("query_node")) {
          node(value.get("query_node"), aliases, ctes, false);
        } else if (value.path("query").has("node")) {
          node(value.path("query").get("node"), aliases, ctes, false);
        }
      }
      switch (node.path("type").asText("")) {
        case "SELECT_NODE" -> select(node, aliases, ctes, outermost);
        case "SET_OPERATION_NODE" -> setOperation(node, aliases, ctes, outermost);
        default -> {
          for (Iterator<Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Entry<String, JsonNode> f = it.next();
            if (f.getValue().isObject() && f.getValue().path("type").asText("").endsWith("_NODE")) {
              node(f.getValue(), aliases, ctes, false);
            }
          }
        }
      }
      return node;
    } finally {
      ctes.pop();
    }
  }

  private void setOperation(ObjectNode node, Deque<Map<String, String>> aliases, Deque<Map<String, String>> ctes,
      boolean outermost) {
    List<JsonNode> children = new ArrayList<>();
    boolean list = node.path("children").isArray() && !node.path("children").isEmpty();
    if (list) {
      node.get("children").forEach(children::add);
    } else {
      children.add(node.path("left"));
      children.add(node.path("right"));
    }
    for (int i = 0; i < children.size(); i++) {
      node(children.get(i), aliases, ctes, false);
    }
    String op = node.path("setop_type").asText("");
    boolean commutative = (op.equals("UNION") || op.equals("INTERSECT")) && node.path("modifiers").isEmpty();
    if (commutative && !outermostNamesMatter(node, outermost)) {
      children.sort(Comparator.comparing(Normalizer::text));
    }
    ArrayNode kids = JSON.createArrayNode();
    children.forEach(kids::add);
    node.set("children", kids);
    node.putNull("left");
    node.putNull("right");
    for (JsonNode m : node.path("modifiers")) {
      expressionsIn(m, aliases, ctes);
    }
  }

  /** Whether swapping branches could change column names someone reads (never for the outermost query). */
  private static boolean outermostNamesMatter(JsonNode node, boolean outermost) {
    return !outermost;
  }

  private void select(ObjectNode node, Deque<Map<String, String>> aliases, Deque<Map<String, String>> ctes,
      boolean outermost) {
    JsonNode from = node.path("from_table");
    boolean star = false;
    for (JsonNode item : node.path("select_list")) {
      star |= "STAR".equals(item.path("class").asText()) || hasStar(item);
    }
    List<JsonNode> conditions = new ArrayList<>();
    List<JsonNode> items = new ArrayList<>();
    boolean flat = !star && flatten(from, items, conditions);
    if (!flat) {
      items.clear();
      conditions.clear();
    }
    Map<String, String> scope = new HashMap<>();
    int depth = aliases.size();
    if (flat) {
      for (JsonNode item : items) {
        fromItem(item, aliases, ctes);
      }
      items.sort(Comparator.comparing(Normalizer::itemKey));
      for (int i = 0; i < items.size(); i++) {
        if (!rename((ObjectNode) items.get(i), scope, "__t" + depth + "_" + i)) {
          throw new IllegalStateException("two relations with one name");
        }
      }
      ArrayNode list = JSON.createArrayNode();
      items.forEach(list::add);
      ObjectNode canonical = JSON.createObjectNode();
      canonical.put("type", "INNER_JOIN_SET");
      canonical.set("items", list);
      node.set("from_table", canonical);
    } else {
      int[] counter = {0};
      walkFrom(from, aliases, ctes, scope, depth, counter);
    }
    aliases.push(scope);
    try {
      if (flat) {
        List<JsonNode> where = new ArrayList<>(conditions);
        if (node.hasNonNull("where_clause") && node.get("where_clause").isObject()) {
          where.add(node.get("where_clause"));
        }
        if (!where.isEmpty()) {
          ObjectNode and = JSON.createObjectNode();
          and.put("class", "CONJUNCTION");
          and.put("type", "CONJUNCTION_AND");
          and.put("alias", "");
          ArrayNode kids = and.putArray("children");
          where.forEach(kids::add);
          node.set("where_clause", where.size() == 1 ? where.get(0) : and);
        }
      } else {
        walkJoinConditions(node.path("from_table"), aliases, ctes);
      }
      for (String field : List.of("where_clause", "having", "qualify")) {
        if (node.hasNonNull(field)) {
          node.set(field, expression(node.get(field), aliases, ctes));
        }
      }
      if (node.hasNonNull("where_clause") && node.get("where_clause").isObject()) {
        node.set("where_clause", impliedByConjuncts(node.get("where_clause")));
      }
      ArrayNode selectList = (ArrayNode) node.path("select_list");
      for (int i = 0; i < selectList.size(); i++) {
        selectList.set(i, expression(selectList.get(i), aliases, ctes));
      }
      JsonNode groups = node.path("group_expressions");
      if (groups.isArray()) {
        ArrayNode g = (ArrayNode) groups;
        for (int i = 0; i < g.size(); i++) {
          g.set(i, expression(g.get(i), aliases, ctes));
        }
        if (standardGrouping(node) && g.size() > 1) {
          List<JsonNode> sorted = new ArrayList<>();
          g.forEach(sorted::add);
          sorted.sort(Comparator.comparing(Normalizer::text));
          g.removeAll();
          sorted.forEach(g::add);
        }
      }
      for (JsonNode m : node.path("modifiers")) {
        expressionsIn(m, aliases, ctes);
      }
      if ((oneRowAggregate(node) || groupKeysOutput(node)) && node.path("modifiers") instanceof ArrayNode mods) {
        // An aggregate without GROUP BY returns at most one row (TPC-DS q97), and a block that outputs every one of
        // its GROUP BY keys returns one row per group, each with other keys: DISTINCT changes nothing.
        for (int i = mods.size() - 1; i >= 0; i--) {
          if ("DISTINCT_MODIFIER".equals(mods.get(i).path("type").asText(""))
              && mods.get(i).path("distinct_on_targets").isEmpty()) {
            mods.remove(i);
          }
        }
      }
      if (outermost) {
        dropUnusedOutputAliases(node);
      }
    } finally {
      aliases.pop();
    }
  }

  /**
   * Whether the block aggregates without grouping (no GROUP BY, no grouping sets but the empty one) and so returns
   * at most one row: an aggregate function in its select list outside subqueries (not a window function).
   */
  private static boolean oneRowAggregate(JsonNode node) {
    if (!node.path("group_expressions").isEmpty()) {
      return false;
    }
    for (JsonNode set : node.path("group_sets")) {
      if (!set.isEmpty()) {
        return false;
      }
    }
    for (JsonNode item : node.path("select_list")) {
      if (Trees.hasAggregate(item)) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasStar(JsonNode n) {
    boolean[] found = {false};
    Trees.visit(n, x -> found[0] |= "STAR".equals(x.path("class").asText()));
    return found[0];
  }

  /**
   * Whether the block groups by plain keys (no grouping sets) each of which it outputs: a key that is a select item's
   * position ({@code GROUP BY 1}) or the same expression as a select item (a name that is only a select alias is
   * not read as one: the binder may take it for a column of the same name).
   */
  private static boolean groupKeysOutput(JsonNode node) {
    JsonNode groups = node.path("group_expressions");
    if (groups.isEmpty() || !standardGrouping(node)) {
      return false;
    }
    JsonNode selectList = node.path("select_list");
    Set<String> outputs = new HashSet<>();
    for (JsonNode item : selectList) {
      ObjectNode bare = item.deepCopy();
      bare.put("alias", "");
      outputs.add(text(bare));
    }
    for (JsonNode g : groups) {
      ObjectNode bare = g.deepCopy();
      bare.put("alias", "");
      JsonNode literal = g.path("literal");
      boolean position = "VALUE_CONSTANT".equals(g.path("type").asText(""))
          && "INTEGER".equals(literal.path("kind").asText(""))
          && literal.path("text").asText("").matches("[1-9]\\d{0,3}")
          && Integer.parseInt(literal.path("text").asText()) <= selectList.size();
      if (!position && !outputs.contains(text(bare))) {
        return false;
      }
    }
    return true;
  }

  private static boolean standardGrouping(JsonNode node) {
    JsonNode sets = node.path("group_sets");
    if (sets.size() != 1) {
      return false;
    }
    JsonNode only = sets.get(0);
    if (only.size() != node.path("group_expressions").size()) {
      return false;
    }
    for (int i = 0; i < only.size(); i++) {
      if (only.get(i).asInt(-1) != i) {
        return false;
      }
    }
    return true;
  }

  /** Collects the relations and ON conditions of a FROM tree of inner and cross joins; false for anything else. */
  private static boolean flatten(JsonNode from, List<JsonNode> items, List<JsonNode> conditions) {
    if (from == null || from.isNull() || from.isMissingNode()) {
      return false;
    }
    String type = from.path("type").asText("");
    if (type.equals("JOIN")) {
      String join = from.path("join_type").asText("");
      String ref = from.path("ref_type").asText("");
      boolean inner = join.equals("INNER") && (ref.equals("REGULAR") || ref.equals("CROSS"));
      boolean cross = ref.equals("CROSS");
      if (!(inner || cross) || !from.path("using_columns").isEmpty() || !from.path("alias").asText("").isEmpty()) {
        return false;
      }
      if (!flatten(from.path("left"), items, conditions) || !flatten(from.path("right"), items, conditions)) {
        return false;
      }
      if (from.hasNonNull("condition") && from.get("condition").isObject()) {
        conditions.add(from.get("condition"));
      }
      return true;
    }
    if (type.equals("BASE_TABLE") || type.equals("SUBQUERY")) {
      items.add(from);
      return true;
    }
    return false;
  }

  private void fromItem(JsonNode item, Deque<Map<String, String>> aliases, Deque<Map<String, String>> ctes) {
    String type = item.path("type").asText("");
    if (type.equals("SUBQUERY")) {
      node(item.path("subquery").path("node"), aliases, ctes, false);
    } else if (type.equals("BASE_TABLE") && item.path("schema_name").asText("").isEmpty()) {
      String canonical = lookup(ctes, item.path("table_name").asText(""));
      if (canonical != null) {
        ObjectNode o = (ObjectNode) item;
        o.put("original_name", o.path("table_name").asText("").toLowerCase(Locale.ROOT));
        o.put("table_name", canonical);
        o.remove("qualified_name");
      }
    } else if (type.equals("TABLE_FUNCTION")) {
      if (item.has("function")) {
        ((ObjectNode) item).set("function", expression(item.get("function"), aliases, ctes));
      }
    }
  }

  private static String itemKey(JsonNode item) {
    ObjectNode copy = (ObjectNode) item.deepCopy();
    copy.put("alias", "");
    copy.remove("original_name");
    return text(copy);
  }

  /** Gives a relation its canonical alias, remembering the name it was referred to by; false on a clash. */
  private static boolean rename(ObjectNode item, Map<String, String> scope, String canonical) {
    String alias = item.path("alias").asText("");
    String name = !alias.isEmpty() ? alias
        : item.has("original_name") ? item.path("original_name").asText("") : item.path("table_name").asText("");
    item.remove("original_name");
    String key = name.toLowerCase(Locale.ROOT);
    if (!key.isEmpty()) {
      if (scope.containsKey(key)) {
        return false;
      }
      scope.put(key, canonical);
    }
    item.put("alias", canonical);
    return true;
  }

  /** Outside the flattened case: normalise and rename relations in the FROM tree in their written order. */
  private void walkFrom(JsonNode from, Deque<Map<String, String>> aliases, Deque<Map<String, String>> ctes,
      Map<String, String> scope, int depth, int[] counter) {
    if (!(from instanceof ObjectNode o)) {
      return;
    }
    String type = o.path("type").asText("");
    if (type.equals("JOIN")) {
      walkFrom(o.path("left"), aliases, ctes, scope, depth, counter);
      walkFrom(o.path("right"), aliases, ctes, scope, depth, counter);
    } else if (type.equals("BASE_TABLE") || type.equals("SUBQUERY") || type.equals("TABLE_FUNCTION")) {
      fromItem(o, aliases, ctes);
      if (!rename(o, scope, "__t" + depth + "_" + counter[0]++)) {
        throw new IllegalStateException("two relations with one name");
      }
    }
  }

  private void walkJoinConditions(JsonNode from, Deque<Map<String, String>> aliases, Deque<Map<String, String>> ctes) {
    if (!(from instanceof ObjectNode o) || !"JOIN".equals(o.path("type").asText())) {
      return;
    }
    walkJoinConditions(o.path("left"), aliases, ctes);
    walkJoinConditions(o.path("right"), aliases, ctes);
    if (o.hasNonNull("condition") && o.get("condition").isObject()) {
      o.set("condition", expression(o.get("condition"), aliases, ctes));
    }
  }

  private void expressionsIn(JsonNode modifier, Deque<Map<String, String>> aliases, Deque<Map<String, String>> ctes) {
    if (!(modifier instanceof ObjectNode m)) {
      return;
    }
    for (Iterator<Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
      Entry<String, JsonNode> f = it.next();
      JsonNode v = f.getValue();
      if (v.isObject() && v.has("class")) {
        f.setValue(expression(v, aliases, ctes));
      } else if (v.isArray()) {
        ArrayNode a = (ArrayNode) v;
        for (int i = 0; i < a.size(); i++) {
          JsonNode item = a.get(i);
          if (item.isObject() && item.has("class")) {
            a.set(i, expression(item, aliases, ctes));
          } else if (item.isObject() && item.has("expression")) {
            ((ObjectNode) item).set("expression", expression(item.get("expression"), aliases, ctes));
          }
        }
      }
    }
  }

  /** Normalises an expression (renaming qualifiers, normalising subqueries, sorting commutative operands). */
  private JsonNode expression(JsonNode e, Deque<Map<String, String>> aliases, Deque<Map<String, String>> ctes) {
    if (!(e instanceof ObjectNode o)) {
      return e;
    }
    String cls = o.path("class").asText("");
    if (cls.equals("COLUMN_REF")) {
      JsonNode names = o.path("column_names");
      if (names.size() >= 2) {
        String canonical = lookup(aliases, names.get(names.size() - 2).asText());
        if (canonical != null) {
          ArrayNode renamed = JSON.createArrayNode();
          renamed.add(canonical);
          renamed.add(names.get(names.size() - 1).asText());
          o.set("column_names", renamed);
        }
      }
      return o;
    }
    if (cls.equals("STAR") && !o.path("relation_name").asText("").isEmpty()) {
      String canonical = lookup(aliases, o.path("relation_name").asText(""));
      if (canonical != null) {
        o.put("relation_name", canonical);
      }
    }
    if (cls.equals("SUBQUERY")) {
      node(o.path("subquery").path("node"), aliases, ctes, false);
      if (o.hasNonNull("child")) {
        o.set("child", expression(o.get("child"), aliases, ctes));
      }
      return o;
    }
    for (Iterator<Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
      Entry<String, JsonNode> f = it.next();
      JsonNode v = f.getValue();
      if (v.isObject()) {
        if (v.has("class")) {
          f.setValue(expression(v, aliases, ctes));
        } else {
          expressionsIn(v, aliases, ctes);
          if (v.has("expression")) {
            ((ObjectNode) v).set("expression", expression(v.get("expression"), aliases, ctes));
          }
        }
      } else if (v.isArray()) {
        ArrayNode a = (ArrayNode) v;
        for (int i = 0; i < a.size(); i++) {
          JsonNode item = a.get(i);
          if (item.isObject() && item.has("class")) {
            a.set(i, expression(item, aliases, ctes));
          } else if (item instanceof ObjectNode io) {
            for (String k : List.of("expression", "when_expr", "then_expr")) {
              if (io.has(k)) {
                io.set(k, expression(io.get(k), aliases, ctes));
              }
            }
          }
        }
      }
    }
    return commute(o);
  }

  /** Sorts the operands of commutative operators (children already normal). */
  private static JsonNode commute(ObjectNode o) {
    String cls = o.path("class").asText("");
    String type = o.path("type").asText("");
    if (cls.equals("CONJUNCTION")) {
      List<JsonNode> flat = new ArrayList<>();
      flattenConjunction(o, type, flat);
      flat.sort(Comparator.comparing(Normalizer::text));
      ArrayNode kids = JSON.createArrayNode();
      flat.forEach(kids::add);
      o.set("children", kids);
      return o;
    }
    if (cls.equals("COMPARISON")) {
      JsonNode l = o.path("left");
      JsonNode r = o.path("right");
      if (text(l).compareTo(text(r)) > 0) {
        if (SYMMETRIC_COMPARISONS.contains(type)) {
          o.set("left", r);
          o.set("right", l);
        } else if (FLIPPED.containsKey(type)) {
          o.set("left", r);
          o.set("right", l);
          o.put("type", FLIPPED.get(type));
        }
      }
      return o;
    }
    if (cls.equals("OPERATOR") && (type.equals("COMPARE_IN") || type.equals("COMPARE_NOT_IN"))) {
      ArrayNode kids = (ArrayNode) o.path("children");
      if (kids.size() > 2) {
        List<JsonNode> list = new ArrayList<>();
        for (int i = 1; i < kids.size(); i++) {
          list.add(kids.get(i));
        }
        list.sort(Comparator.comparing(Normalizer::text));
        Set<String> seen = new HashSet<>();
        ArrayNode sorted = JSON.createArrayNode();
        sorted.add(kids.get(0));
        for (JsonNode x : list) {
          if (seen.add(text(x))) {
            sorted.add(x);
          }
        }
        o.set("children", sorted);
      }
      return o;
    }
    if (cls.equals("FUNCTION") && o.path("is_operator").asBoolean(false)) {
      String fn = o.path("function_name").asText("");
      JsonNode args = o.path("arguments");
      if ((fn.equals("+") || fn.equals("*")) && args.isArray() && args.size() == 2
          && text(args.get(0)).compareTo(text(args.get(1))) > 0) {
        ArrayNode swapped = JSON.createArrayNode();
        swapped.add(args.get(1));
        swapped.add(args.get(0));
        o.set("arguments", swapped);
      }
    }
    return o;
  }

  /** Comparisons implied by a column compared with the same constant: what each operator implies. */
  private static final Map<String, Set<String>> IMPLIES = Map.of(
      "COMPARE_GREATERTHAN", Set.of("COMPARE_GREATERTHAN", "COMPARE_GREATERTHANOREQUALTO", "COMPARE_NOTEQUAL"),
      "COMPARE_LESSTHAN", Set.of("COMPARE_LESSTHAN", "COMPARE_LESSTHANOREQUALTO", "COMPARE_NOTEQUAL"),
      "COMPARE_EQUAL", Set.of("COMPARE_EQUAL", "COMPARE_GREATERTHANOREQUALTO", "COMPARE_LESSTHANOREQUALTO"),
      "COMPARE_GREATERTHANOREQUALTO", Set.of("COMPARE_GREATERTHANOREQUALTO"),
      "COMPARE_LESSTHANOREQUALTO", Set.of("COMPARE_LESSTHANOREQUALTO"),
      "COMPARE_NOTEQUAL", Set.of("COMPARE_NOTEQUAL"));

  /** A comparison of a column with a constant, read as {@code column op constant}. */
  private record Bound(String column, String op, String constant) {
    boolean implies(Bound other) {
      return column.equals(other.column) && constant.equals(other.constant)
          && IMPLIES.getOrDefault(op, Set.of()).contains(other.op);
    }
  }

  private static @Nullable Bound bound(JsonNode e) {
    if (!"COMPARISON".equals(e.path("class").asText("")) || !IMPLIES.containsKey(e.path("type").asText(""))) {
      return null;
    }
    JsonNode l = e.path("left");
    JsonNode r = e.path("right");
    String type = e.path("type").asText("");
    if ("CONSTANT".equals(l.path("class").asText("")) && "COLUMN_REF".equals(r.path("class").asText(""))) {
      JsonNode t = l;
      l = r;
      r = t;
      type = FLIPPED.getOrDefault(type, type);
    }
    if (!"COLUMN_REF".equals(l.path("class").asText("")) || !"CONSTANT".equals(r.path("class").asText(""))) {
      return null;
    }
    ObjectNode column = (ObjectNode) l.deepCopy();
    column.put("alias", "");
    ObjectNode constant = (ObjectNode) r.deepCopy();
    constant.put("alias", "");
    return new Bound(text(column), type, text(constant));
  }

  /**
   * A WHERE clause with the comparisons of a column with a constant made explicit and simplified, each step
   * keeping the rows the WHERE keeps (a row on which one conjunct is FALSE or NULL fails the WHERE whatever the
   * others are, so every conjunct may assume the others TRUE):
   * <ol>
   *   <li>a conjunct that compares {@code CASE WHEN p THEN a END} (ELSE NULL) with something is TRUE only where
   *       {@code p} is: {@code p}, a comparison of a column with a constant, is added as a conjunct;</li>
   *   <li>a conjunct of that form that another one implies ({@link Bound#implies}) is dropped, one at a time
   *       against those left (of two equal ones, one stays);</li>
   *   <li>in the other conjuncts, outside subqueries and lambdas, a comparison that a remaining one implies is
   *       TRUE.</li>
   * </ol>
   * So {@code x > 0 AND CASE WHEN x >= 0 THEN ...}, {@code x >= 0 AND CASE WHEN x > 0 THEN ... END > ...} and
   * {@code x > 0 AND CASE WHEN x > 0 THEN ... END > ...} get one normal form (TPC-DS q11's first-year totals).
   */
  private static JsonNode impliedByConjuncts(JsonNode where) {
    List<JsonNode> conjuncts = new ArrayList<>();
    if ("CONJUNCTION".equals(where.path("class").asText(""))
        && "CONJUNCTION_AND".equals(where.path("type").asText(""))) {
      flattenConjunction(where, "CONJUNCTION_AND", conjuncts);
    } else if (guardsOf(where).isEmpty()) {
      return where;
    } else {
      conjuncts.add(where); // one conjunct with a guard: the guard is made explicit, as beside others
    }
    String before = text(where);
    List<JsonNode> added = new ArrayList<>();
    for (JsonNode c : conjuncts) {
      for (JsonNode p : guardsOf(c)) {
        ObjectNode copy = (ObjectNode) p.deepCopy();
        copy.put("alias", "");
        added.add(copy);
      }
    }
    conjuncts.addAll(added);
    for (int i = 0; i < conjuncts.size(); i++) {
      Bound b = bound(conjuncts.get(i));
      if (b == null) {
        continue;
      }
      for (int j = 0; j < conjuncts.size(); j++) {
        Bound other = j == i ? null : bound(conjuncts.get(j));
        if (other != null && other.implies(b)) {
          conjuncts.remove(i--);
          break;
        }
      }
    }
    List<Bound> facts = new ArrayList<>();
    for (JsonNode c : conjuncts) {
      Bound b = bound(c);
      if (b != null) {
        facts.add(b);
      }
    }
    for (int i = 0; i < conjuncts.size() && !facts.isEmpty(); i++) {
      if (bound(conjuncts.get(i)) == null) {
        // Operands sorted again: a TRUE in place of a comparison changes the text they were sorted by.
        conjuncts.set(i, recommute(replaceImplied(conjuncts.get(i), facts)));
      }
    }
    conjuncts.removeIf(Normalizer::isTrue);
    JsonNode out;
    if (conjuncts.isEmpty()) {
      out = trueConstant();
    } else if (conjuncts.size() == 1) {
      out = conjuncts.get(0);
    } else {
      ObjectNode and = JSON.createObjectNode();
      and.put("class", "CONJUNCTION");
      and.put("type", "CONJUNCTION_AND");
      and.put("alias", "");
      ArrayNode kids = and.putArray("children");
      conjuncts.forEach(kids::add);
      out = commute(and);
    }
    return text(out).equals(before) ? where : out;
  }

  /**
   * The {@code p} of each side of a conjunct that compares {@code CASE WHEN p THEN a [ELSE NULL] END} with
   * something, when {@code p} compares a column with a constant: the conjunct is TRUE only where each such {@code p}
   * is (both sides, when both are such CASEs: TPC-DS q11/q74's ratios of two channels).
   */
  private static List<JsonNode> guardsOf(JsonNode c) {
    List<JsonNode> out = new ArrayList<>();
    if (!"COMPARISON".equals(c.path("class").asText("")) || !IMPLIES.containsKey(c.path("type").asText(""))) {
      return out;
    }
    for (JsonNode side : List.of(c.path("left"), c.path("right"))) {
      if (!"CASE".equals(side.path("class").asText("")) || side.path("case_checks").size() != 1) {
        continue;
      }
      JsonNode otherwise = side.path("else_expr");
      boolean elseNull = otherwise.isMissingNode() || otherwise.isNull()
          || "CONSTANT".equals(otherwise.path("class").asText("")) && (otherwise.path("literal").path("kind").asText("")
              .startsWith("NULL") || otherwise.path("value").path("is_null").asBoolean(false));
      JsonNode when = side.path("case_checks").get(0).path("when_expr");
      if (elseNull && bound(when) != null) {
        out.add(when);
      }
    }
    return out;
  }

  /** The expression with each comparison a fact implies replaced by TRUE (a new node where one was replaced). */
  private static JsonNode replaceImplied(JsonNode e, List<Bound> facts) {
    if (!(e instanceof ObjectNode o)) {
      return e;
    }
    String cls = o.path("class").asText("");
    if (cls.equals("SUBQUERY") || cls.equals("LAMBDA") || cls.equals("WINDOW")) {
      return e;
    }
    Bound b = bound(o);
    if (b != null) {
      for (Bound f : facts) {
        if (f.implies(b)) {
          ObjectNode t = trueConstant();
          t.put("alias", o.path("alias").asText(""));
          return t;
        }
      }
      return e;
    }
    replaceInside(o, facts);
    return o;
  }

  private static void replaceInside(ObjectNode o, List<Bound> facts) {
    for (Iterator<Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
      Entry<String, JsonNode> f = it.next();
      JsonNode v = f.getValue();
      if (v instanceof ObjectNode child) {
        if (child.has("class")) {
          f.setValue(replaceImplied(child, facts));
        } else {
          replaceInside(child, facts);
        }
      } else if (v instanceof ArrayNode a) {
        for (int i = 0; i < a.size(); i++) {
          if (a.get(i) instanceof ObjectNode item) {
            if (item.has("class")) {
              a.set(i, replaceImplied(item, facts));
            } else {
              replaceInside(item, facts);
            }
          }
        }
      }
    }
  }

  /** Commutative operands sorted again, innermost first (subqueries, already normal, left as they are). */
  private static JsonNode recommute(JsonNode e) {
    if (!(e instanceof ObjectNode o) || "SUBQUERY".equals(o.path("class").asText(""))) {
      return e;
    }
    for (Iterator<Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
      Entry<String, JsonNode> f = it.next();
      JsonNode v = f.getValue();
      if (v instanceof ObjectNode child) {
        f.setValue(child.has("class") ? recommute(child) : recommuteInside(child));
      } else if (v instanceof ArrayNode a) {
        for (int i = 0; i < a.size(); i++) {
          if (a.get(i) instanceof ObjectNode item) {
            a.set(i, item.has("class") ? recommute(item) : recommuteInside(item));
          }
        }
      }
    }
    return o.has("class") ? commute(o) : o;
  }

  private static JsonNode recommuteInside(ObjectNode o) {
    recommute(o);
    return o;
  }

  static ObjectNode trueConstant() {
    ObjectNode t = JSON.createObjectNode();
    t.put("class", "CONSTANT");
    t.put("type", "VALUE_CONSTANT");
    t.put("alias", "");
    ObjectNode value = t.putObject("value");
    value.putObject("type").put("id", "BOOLEAN");
    value.put("is_null", false);
    value.put("value", true);
    return t;
  }

  private static boolean isTrue(JsonNode e) {
    return "CONSTANT".equals(e.path("class").asText("")) && "BOOLEAN".equals(e.path("value").path("type")
        .path("id").asText("")) && e.path("value").path("value").asBoolean(false)
        && !e.path("value").path("is_null").asBoolean(true);
  }

  private static void flattenConjunction(JsonNode n, String type, List<JsonNode> out) {
    if ("CONJUNCTION".equals(n.path("class").asText()) && type.equals(n.path("type").asText())
        && n.path("alias").asText("").isEmpty()) {
      for (JsonNode c : n.path("children")) {
        flattenConjunction(c, type, out);
      }
    } else {
      out.add(n);
    }
  }

  private static void dropUnusedOutputAliases(ObjectNode node) {
    Set<String> referenced = new HashSet<>();
    Trees.visit(node, n -> {
      if ("COLUMN_REF".equals(n.path("class").asText()) && n.path("column_names").size() == 1) {
        referenced.add(n.path("column_names").get(0).asText().toLowerCase(Locale.ROOT));
      }
    });
    for (JsonNode item : node.path("select_list")) {
      String alias = item.path("alias").asText("");
      if (!alias.isEmpty() && !referenced.contains(alias.toLowerCase(Locale.ROOT))) {
        ((ObjectNode) item).put("alias", "");
      }
    }
  }

  private static @Nullable String lookup(Deque<Map<String, String>> scopes, String name) {
    String key = name.toLowerCase(Locale.ROOT);
    for (Map<String, String> s : scopes) {
      String v = s.get(key);
      if (v != null) {
        return v;
      }
    }
    return null;
  }

  private static String text(JsonNode n) {
    return n == null ? "" : n.toString();
  }
}
