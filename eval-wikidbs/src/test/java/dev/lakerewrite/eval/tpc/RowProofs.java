package dev.lakerewrite.eval.tpc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.Trees;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Two facts about a query's rows proved from the schema alone (primary keys, NOT NULL columns), for the corpus's
 * rule that a mutant is equivalent after all: the result never holds two equal rows (so DISTINCT added or removed
 * changes nothing), and a query block never returns a row (so a change inside it changes nothing).
 *
 * <p><b>Distinct rows</b> by keys and functional dependencies, as in the classical derivation of keys through
 * selection, projection, join and grouping (Paulley and Larson, "Exploiting uniqueness in query optimization",
 * 1994; Simmen, Shekita and Malkemus, "Fundamental techniques for order optimization", 1996): a base table's key is
 * its primary key; a key of each FROM item determines that item's columns; a WHERE or inner-join equality
 * {@code a = b} makes {@code a} and {@code b} determine each other, {@code a = constant} makes {@code a} constant; a
 * plain block's output is distinct when the closure of its output columns holds a key of every FROM item; a grouped
 * block's key is its GROUP BY list less any column the others determine (GROUPING SETS only over NOT NULL columns,
 * the sets pairwise different: each set's NULL pattern then tells its rows apart); an aggregate without GROUP BY
 * gives at most one row (the empty key); DISTINCT and UNION/INTERSECT/EXCEPT without ALL give distinct rows. Keys
 * pass through derived tables and CTEs by their output names. Anything else — outer joins, table functions, an
 * ambiguous or unknown column — proves nothing.
 *
 * <p><b>Empty blocks</b>: a SELECT block whose WHERE has a conjunct {@code c IS NULL} for a column that is NOT NULL
 * in a FROM item joined only by inner joins, and which is grouped by non-empty sets or has no aggregate, returns no
 * row on any database that honours the schema (TPC-DS q76's branches on the schema with every column NOT NULL).
 */
final class RowProofs {
  private final Map<String, TableSpec> tables = new HashMap<>();
  private final boolean nullable;
  private final Trees trees;
  private final Map<JsonNode, Rel> memo = new IdentityHashMap<>();
  private final Set<JsonNode> inProgress = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

  /**
   * @param nullable whether only the key columns are NOT NULL (otherwise every column is)
   */
  RowProofs(Trees trees, List<TableSpec> tables, boolean nullable) {
    this.trees = trees;
    for (TableSpec t : tables) {
      this.tables.put(t.name().toLowerCase(Locale.ROOT), t);
    }
    this.nullable = nullable;
  }

  /** Whether the statement's result never holds two equal rows, on any database that honours the schema. */
  boolean distinct(JsonNode statement) {
    memo.clear();
    return !analyze(statement.path("node"), Scope.ROOT).keys.isEmpty();
  }

  /** Whether the query node at {@code pointer} (a set operation, a SELECT block) never returns two equal rows. */
  boolean distinctAt(JsonNode statement, String pointer) {
    memo.clear();
    return !analyze(statement.at(pointer), scopeOf(statement, pointer)).keys.isEmpty();
  }

  /**
   * Whether the SELECT block enclosing the node at {@code pointer} (or that node itself) returns no row in both
   * statements, on any database that honours the schema: a change at that pointer then changes nothing.
   */
  boolean emptyBlockAround(JsonNode original, JsonNode mutated, String pointer) {
    // Every enclosing block, innermost first: the two statements differ only inside it, so if it returns no row
    // in both, they return the same (TPC-DS q44: a dropped filter inside one ranking subquery, joined with the
    // other, which stays empty).
    String p = pointer;
    while (true) {
      JsonNode a = original.at(p);
      if ("SELECT_NODE".equals(a.path("type").asText()) && a.has("select_list")) {
        memo.clear();
        if (emptyBlock(a, scopeOf(original, p), 0) && emptyBlock(mutated.at(p), scopeOf(mutated, p), 0)) {
          return true;
        }
      }
      int slash = p.lastIndexOf('/');
      if (slash < 0) {
        return false;
      }
      p = p.substring(0, slash);
    }
  }

  // ---- relations --------------------------------------------------------------------------------------

  /**
   * An analysed relation: output column names (lower case), keys (sets of output positions), NOT NULL outputs, and
   * the outputs that are one literal in every row (their text).
   */
  private record Rel(List<String> columns, List<Set<Integer>> keys, Set<Integer> notNull, boolean known,
      Map<Integer, String> constants) {
    static final Rel UNKNOWN = new Rel(List.of(), List.of(), Set.of(), false);

    Rel(List<String> columns, List<Set<Integer>> keys, Set<Integer> notNull, boolean known) {
      this(columns, keys, notNull, known, Map.of());
    }

    /** The position of a column name, or -1 when absent or ambiguous. */
    int index(String name) {
      int at = -1;
      for (int i = 0; i < columns.size(); i++) {
        if (columns.get(i).equals(name)) {
          if (at >= 0) {
            return -1;
          }
          at = i;
        }
      }
      return at;
    }

    Rel renamed(JsonNode aliases) {
      if (aliases == null || !aliases.isArray() || aliases.isEmpty()) {
        return this;
      }
      List<String> names = new ArrayList<>(columns);
      for (int i = 0; i < aliases.size() && i < names.size(); i++) {
        names.set(i, aliases.get(i).asText().toLowerCase(Locale.ROOT));
      }
      return new Rel(names, keys, notNull, known, constants);
    }
  }

  /** CTE names visible at a node: innermost first. */
  private record Scope(Map<String, JsonNode> ctes, @Nullable Scope parent) {
    static final Scope ROOT = new Scope(Map.of(), null);

    @Nullable JsonNode cte(String name) {
      for (Scope s = this; s != null; s = s.parent) {
        JsonNode q = s.ctes.get(name);
        if (q != null) {
          return q;
        }
      }
      return null;
    }

    Scope with(JsonNode node) {
      Map<String, JsonNode> map = new HashMap<>();
      for (JsonNode e : node.path("cte_map").path("map")) {
        map.put(e.path("key").asText().toLowerCase(Locale.ROOT), e.path("value"));
      }
      return map.isEmpty() ? this : new Scope(map, this);
    }
  }

  /** The CTE scope at a pointer: the WITH clauses of every query node on the way down. */
  private static Scope scopeOf(JsonNode statement, String pointer) {
    Scope scope = Scope.ROOT;
    String[] parts = pointer.split("/");
    StringBuilder p = new StringBuilder();
    for (int i = 1; i < parts.length; i++) {
      p.append('/').append(parts[i]);
      JsonNode n = statement.at(p.toString());
      if (n.has("cte_map")) {
        scope = scope.with(n);
      }
    }
    return scope;
  }

  private Rel analyze(JsonNode node, Scope outer) {
    Rel done = memo.get(node);
    if (done != null) {
      return done;
    }
    if (!inProgress.add(node)) {
      return Rel.UNKNOWN; // a recursive CTE
    }
    Rel r;
    try {
      Scope scope = outer.with(node);
      r = switch (node.path("type").asText()) {
        case "SELECT_NODE" -> select(node, scope);
        case "SET_OPERATION_NODE" -> setOperation(node, scope);
        default -> Rel.UNKNOWN;
      };
      if (r.known && hasDistinct(node)) {
        Set<Integer> all = new HashSet<>();
        for (int i = 0; i < r.columns.size(); i++) {
          all.add(i);
        }
        List<Set<Integer>> keys = new ArrayList<>(r.keys);
        keys.add(all);
        r = new Rel(r.columns, keys, r.notNull, true, r.constants);
      }
    } finally {
      inProgress.remove(node);
    }
    memo.put(node, r);
    return r;
  }

  private static boolean hasDistinct(JsonNode node) {
    for (JsonNode m : node.path("modifiers")) {
      if ("DISTINCT_MODIFIER".equals(m.path("type").asText()) && m.path("distinct_on_targets").isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * A set operation: without ALL its rows are distinct. A UNION ALL is distinct too when every branch is and one
   * output holds a different literal in each branch (TPC-DS q77's {@code 'store channel'}, {@code 'catalog
   * channel'}): two rows of one branch differ on that branch's key, two of different branches on the literal. An
   * output of a UNION is NOT NULL when it is in every branch (of INTERSECT and EXCEPT: in the first).
   */
  private Rel setOperation(JsonNode node, Scope scope) {
    List<JsonNode> kids = Trees.setOperands(node);
    List<Rel> branches = new ArrayList<>();
    for (JsonNode kid : kids) {
      branches.add(analyze(kid, scope));
    }
    Rel first = branches.get(0);
    if (!first.known) {
      return Rel.UNKNOWN;
    }
    String op = node.path("setop_type").asText();
    boolean all = node.path("setop_all").asBoolean(false);
    Set<Integer> notNull = new HashSet<>(first.notNull);
    if (op.equals("UNION")) {
      for (Rel b : branches) {
        notNull.retainAll(b.known ? b.notNull : Set.of());
      }
    }
    Set<Integer> every = new HashSet<>();
    for (int i = 0; i < first.columns.size(); i++) {
      every.add(i);
    }
    if (!all && Set.of("UNION", "INTERSECT", "EXCEPT").contains(op)) {
      return new Rel(first.columns, List.of(every), notNull, true);
    }
    if (op.equals("UNION") && branches.stream().allMatch(b -> b.known && !b.keys.isEmpty())) {
      for (int p : every) {
        Set<String> literals = new HashSet<>();
        for (Rel b : branches) {
          literals.add(b.constants.get(p));
        }
        if (!literals.contains(null) && literals.size() == branches.size()) {
          Set<Integer> key = new HashSet<>(Set.of(p));
          branches.forEach(b -> key.addAll(b.keys.get(0)));
          return new Rel(first.columns, List.of(key), notNull, true);
        }
      }
    }
    return new Rel(first.columns, List.of(), notNull, true);
  }

  /** One FROM item of a block. */
  private record Item(String reference, Rel rel) {}

  /**
   * An equality of an outer join's ON condition between a column of the preserved side ({@code determining}: the
   * references of its items) and one of the NULL-extended side: the preserved side's row determines the other
   * side's column (a row matches, with the column equal, or does not, and the column is NULL). When such equalities
   * cover a key of the NULL-extended side, a preserved row joins one row at most.
   */
  private record Directed(JsonNode equality, Set<String> determining, Set<String> determined) {}

  /** A block's FROM items (inner joins only) and the equalities of its inner join conditions, or null. */
  private @Nullable List<Item> fromItems(JsonNode from, Scope scope, List<JsonNode> conditions) {
    return fromItems(from, scope, conditions, new ArrayList<>());
  }

  private @Nullable List<Item> fromItems(JsonNode from, Scope scope, List<JsonNode> conditions,
      List<Directed> directed) {
    List<Item> out = new ArrayList<>();
    if (from == null || from.isMissingNode() || from.isNull() || "EMPTY".equals(from.path("type").asText())) {
      return out;
    }
    switch (from.path("type").asText()) {
      case "JOIN" -> {
        String ref = from.path("ref_type").asText("REGULAR");
        String type = from.path("join_type").asText("INNER");
        if (!Set.of("INNER", "LEFT", "RIGHT", "OUTER").contains(type) || !Set.of("REGULAR", "CROSS").contains(ref)
            || (from.path("using_columns").isArray() && !from.path("using_columns").isEmpty())) {
          return null;
        }
        // An outer join keeps the keys of both sides (a row is one left row with one right row, or with NULLs,
        // once), but the NULL-extended side's columns may be NULL and its ON condition is not a dependency.
        List<JsonNode> on = type.equals("INNER") ? conditions : new ArrayList<>();
        List<Item> left = fromItems(from.path("left"), scope, on, directed);
        List<Item> right = fromItems(from.path("right"), scope, on, directed);
        if (left == null || right == null) {
          return null;
        }
        if (type.equals("LEFT") || type.equals("RIGHT")) {
          Set<String> leftRefs = new HashSet<>();
          left.forEach(i -> leftRefs.add(i.reference));
          Set<String> rightRefs = new HashSet<>();
          right.forEach(i -> rightRefs.add(i.reference));
          for (JsonNode c : Trees.conjuncts(from.path("condition").isObject() ? from.path("condition") : null)) {
            directed.add(type.equals("LEFT") ? new Directed(c, leftRefs, rightRefs)
                : new Directed(c, rightRefs, leftRefs));
          }
        }
        out.addAll(type.equals("RIGHT") || type.equals("OUTER") ? nullable(left) : left);
        out.addAll(type.equals("LEFT") || type.equals("OUTER") ? nullable(right) : right);
        on.addAll(Trees.conjuncts(from.path("condition").isObject() ? from.path("condition") : null));
        return out;
      }
      case "BASE_TABLE" -> {
        String name = from.path("table_name").asText().toLowerCase(Locale.ROOT);
        String alias = from.path("alias").asText("");
        JsonNode cte = from.path("schema_name").asText("").isEmpty() ? scope.cte(name) : null;
        Rel rel;
        if (cte != null) {
          JsonNode body = cte.has("query_node") ? cte.path("query_node") : cte.path("query").path("node");
          rel = analyze(body, scope).renamed(cte.path("aliases"));
        } else {
          TableSpec t = tables.get(name);
          if (t == null) {
            return null;
          }
          rel = base(t);
        }
        rel = rel.renamed(from.path("column_name_alias"));
        out.add(new Item((alias.isEmpty() ? name : alias).toLowerCase(Locale.ROOT), rel));
        return out;
      }
      case "SUBQUERY" -> {
        Rel rel = analyze(from.path("subquery").path("node"), scope).renamed(from.path("column_name_alias"));
        out.add(new Item(from.path("alias").asText("").toLowerCase(Locale.ROOT), rel));
        return out;
      }
      default -> {
        return null;
      }
    }
  }

  private static List<Item> nullable(List<Item> items) {
    List<Item> out = new ArrayList<>();
    for (Item i : items) {
      out.add(new Item(i.reference, new Rel(i.rel.columns, i.rel.keys, Set.of(), i.rel.known)));
    }
    return out;
  }

  private Rel base(TableSpec t) {
    List<String> names = new ArrayList<>();
    Set<Integer> key = new HashSet<>();
    Set<Integer> notNull = new HashSet<>();
    for (int i = 0; i < t.columns().size(); i++) {
      String c = t.columns().get(i).name();
      names.add(c.toLowerCase(Locale.ROOT));
      if (t.primaryKey().contains(c)) {
        key.add(i);
      }
      if (!nullable || t.primaryKey().contains(c)) {
        notNull.add(i);
      }
    }
    return new Rel(names, t.primaryKey().isEmpty() ? List.of() : List.of(key), notNull, true);
  }

  /** The attributes of a block: "item.position", and the dependencies that hold on its FROM rows. */
  private final class Block {
    final List<Item> items;
    final List<Set<String>> lhs = new ArrayList<>();
    final List<Set<String>> rhs = new ArrayList<>();

    Block(List<Item> items, List<JsonNode> conditions) {
      this.items = items;
      for (int i = 0; i < items.size(); i++) {
        Set<String> all = new HashSet<>();
        for (int k = 0; k < items.get(i).rel.columns.size(); k++) {
          all.add(i + "." + k);
        }
        for (Set<Integer> key : items.get(i).rel.keys) {
          Set<String> l = new HashSet<>();
          for (int k : key) {
            l.add(i + "." + k);
          }
          lhs.add(l);
          rhs.add(all);
        }
      }
      for (JsonNode c : conditions) {
        if (!"COMPARE_EQUAL".equals(c.path("type").asText()) || !"COMPARISON".equals(c.path("class").asText())) {
          continue;
        }
        String a = attribute(c.path("left"));
        String b = attribute(c.path("right"));
        if (a != null && b != null) {
          lhs.add(Set.of(a));
          rhs.add(Set.of(b));
          lhs.add(Set.of(b));
          rhs.add(Set.of(a));
        } else if (a != null && constant(c.path("right")) || b != null && constant(c.path("left"))) {
          lhs.add(Set.of());
          rhs.add(Set.of(a != null ? a : b));
        }
      }
    }

    /**
     * Adds the outer joins' equalities: every attribute of the preserved side's items determines the NULL-extended
     * side's column (a preserved row fixes its match, if any).
     */
    void directed(List<Directed> equalities) {
      for (Directed d : equalities) {
        JsonNode c = d.equality();
        if (!"COMPARE_EQUAL".equals(c.path("type").asText()) || !"COMPARISON".equals(c.path("class").asText())) {
          continue;
        }
        String a = attribute(c.path("left"));
        String b = attribute(c.path("right"));
        if (a == null || b == null) {
          continue;
        }
        if (in(b, d.determining()) && in(a, d.determined())) {
          String t = a;
          a = b;
          b = t;
        }
        if (in(a, d.determining()) && in(b, d.determined())) {
          Set<String> preserved = new HashSet<>();
          for (int i = 0; i < items.size(); i++) {
            if (d.determining().contains(items.get(i).reference)) {
              for (int k = 0; k < items.get(i).rel.columns.size(); k++) {
                preserved.add(i + "." + k);
              }
            }
          }
          lhs.add(preserved);
          rhs.add(Set.of(b));
        }
      }
    }

    private boolean in(String attribute, Set<String> references) {
      return references.contains(items.get(Integer.parseInt(attribute.substring(0, attribute.indexOf('.'))))
          .reference);
    }

    /** The attribute a column reference names, or null (not a column, unknown, ambiguous, an outer column). */
    @Nullable String attribute(JsonNode e) {
      if (!"COLUMN_REF".equals(e.path("class").asText())) {
        return null;
      }
      List<String> names = Trees.columnNames(e);
      String column = names.get(names.size() - 1).toLowerCase(Locale.ROOT);
      if (names.size() == 2) {
        String q = names.get(0).toLowerCase(Locale.ROOT);
        String found = null;
        for (int i = 0; i < items.size(); i++) {
          if (items.get(i).reference.equals(q)) {
            if (found != null) {
              return null;
            }
            int k = items.get(i).rel.index(column);
            found = k < 0 ? "" : i + "." + k;
          }
        }
        return found == null || found.isEmpty() ? null : found;
      }
      if (names.size() != 1) {
        return null;
      }
      String found = null;
      for (int i = 0; i < items.size(); i++) {
        if (items.get(i).rel.columns.contains(column)) {
          int k = items.get(i).rel.index(column);
          if (found != null || k < 0) {
            return null;
          }
          found = i + "." + k;
        }
      }
      return found;
    }

    boolean notNull(String attribute) {
      int dot = attribute.indexOf('.');
      Item item = items.get(Integer.parseInt(attribute.substring(0, dot)));
      return item.rel.notNull.contains(Integer.parseInt(attribute.substring(dot + 1)));
    }

    Set<String> closure(Set<String> start) {
      Set<String> out = new HashSet<>(start);
      boolean grew = true;
      while (grew) {
        grew = false;
        for (int i = 0; i < lhs.size(); i++) {
          if (out.containsAll(lhs.get(i)) && !out.containsAll(rhs.get(i))) {
            out.addAll(rhs.get(i));
            grew = true;
          }
        }
      }
      return out;
    }

    /** Whether the attributes determine a whole FROM row: a key of every item in their closure. */
    boolean determinesRow(Set<String> attributes) {
      Set<String> c = closure(attributes);
      for (int i = 0; i < items.size(); i++) {
        boolean any = false;
        for (Set<Integer> key : items.get(i).rel.keys) {
          boolean all = true;
          for (int k : key) {
            all &= c.contains(i + "." + k);
          }
          any |= all;
        }
        if (!any) {
          return false;
        }
      }
      return true;
    }
  }

  private static boolean constant(JsonNode e) {
    String cls = e.path("class").asText();
    return "CONSTANT".equals(cls) || "CAST".equals(cls) && "CONSTANT".equals(e.path("child").path("class").asText());
  }

  private Rel select(JsonNode node, Scope scope) {
    List<JsonNode> conditions = new ArrayList<>(Trees.conjuncts(node.path("where_clause").isObject()
        ? node.path("where_clause") : null));
    List<Directed> directed = new ArrayList<>();
    List<Item> items = fromItems(node.path("from_table"), scope, conditions, directed);
    if (items == null) {
      return Rel.UNKNOWN;
    }
    for (Item item : items) {
      if (!item.rel.known) {
        return Rel.UNKNOWN;
      }
    }
    Block block = new Block(items, conditions);
    block.directed(directed);
    // Outputs: names, and the attribute each plain column output is.
    List<String> names = new ArrayList<>();
    List<String> attributes = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    Map<Integer, String> constants = new HashMap<>();
    for (JsonNode e : node.path("select_list")) {
      String alias = e.path("alias").asText("").toLowerCase(Locale.ROOT);
      if ("STAR".equals(e.path("class").asText())) {
        if (!e.path("exclude_list").isEmpty() || !e.path("replace_list").isEmpty()
            || e.path("columns").asBoolean(false) || e.path("expr").isObject() && !e.path("expr").isEmpty()) {
          return Rel.UNKNOWN;
        }
        String relation = e.path("relation_name").asText("").toLowerCase(Locale.ROOT);
        boolean matched = false;
        for (int i = 0; i < items.size(); i++) {
          if (relation.isEmpty() || items.get(i).reference.equals(relation)) {
            matched = true;
            for (int k = 0; k < items.get(i).rel.columns.size(); k++) {
              names.add(items.get(i).rel.columns.get(k));
              attributes.add(i + "." + k);
              texts.add(null);
            }
          }
        }
        if (!matched) {
          return Rel.UNKNOWN;
        }
        continue;
      }
      String attribute = block.attribute(e);
      if (attribute == null) {
        attribute = injectiveOf(e, block);
      }
      String literal = constant(e) ? trees.expression(withoutAlias(e)) : null;
      if (literal != null && !"NULL".equalsIgnoreCase(literal)) {
        constants.put(names.size(), literal);
      }
      attributes.add(attribute);
      texts.add(trees.expression(e));
      names.add(!alias.isEmpty() ? alias : "COLUMN_REF".equals(e.path("class").asText())
          ? Trees.columnName(e).toLowerCase(Locale.ROOT) : trees.expression(e).toLowerCase(Locale.ROOT));
    }
    JsonNode groups = node.path("group_expressions");
    List<Set<Integer>> keys = new ArrayList<>();
    Set<Integer> notNull = new HashSet<>();
    if (groups.isArray() && !groups.isEmpty()) {
      grouped(node, block, attributes, texts, keys, notNull);
    } else if (aggregateOutside(node.path("select_list")) || aggregateOutside(node.path("having"))) {
      keys.add(Set.of());
    } else {
      Set<String> out = new LinkedHashSet<>();
      for (String a : attributes) {
        if (a != null) {
          out.add(a);
        }
      }
      if (block.determinesRow(out)) {
        keys.add(minimal(block, attributes, out));
      }
      for (int i = 0; i < attributes.size(); i++) {
        if (attributes.get(i) != null && block.notNull(attributes.get(i))) {
          notNull.add(i);
        }
      }
    }
    for (int i : constants.keySet()) {
      notNull.add(i);
    }
    return new Rel(names, keys, notNull, true, constants);
  }

  /** A copy of an expression without its alias (its text then is the expression alone). */
  static JsonNode withoutAlias(JsonNode e) {
    JsonNode copy = e.deepCopy();
    ((com.fasterxml.jackson.databind.node.ObjectNode) copy).put("alias", "");
    return copy;
  }

  /**
   * The attribute a literal prefix or suffix concatenated to a NOT NULL column stands for ({@code 'store' ||
   * s_store_id}, {@code concat('store', s_store_id)}: one value for each value of the column), or null.
   */
  private static @Nullable String injectiveOf(JsonNode e, Block block) {
    if (!"FUNCTION".equals(e.path("class").asText())
        || !Set.of("||", "concat").contains(e.path("function_name").asText().toLowerCase(Locale.ROOT))) {
      return null;
    }
    List<JsonNode> args = SqlAnalyzer.arguments(e);
    if (args.size() != 2) {
      return null;
    }
    for (int i = 0; i < 2; i++) {
      String a = block.attribute(args.get(i));
      if (a != null && constant(args.get(1 - i)) && block.notNull(a)) {
        return a;
      }
    }
    return null;
  }

  /** Output positions of a smallest-found subset of the output attributes that still determines a FROM row. */
  private static Set<Integer> minimal(Block block, List<String> attributes, Set<String> out) {
    Set<String> kept = new LinkedHashSet<>(out);
    for (String a : out) {
      Set<String> without = new HashSet<>(kept);
      without.remove(a);
      if (block.determinesRow(without)) {
        kept.remove(a);
      }
    }
    Set<Integer> positions = new HashSet<>();
    for (String a : kept) {
      positions.add(attributes.indexOf(a));
    }
    return positions;
  }

  private void grouped(JsonNode node, Block block, List<String> attributes, List<String> texts,
      List<Set<Integer>> keys, Set<Integer> notNull) {
    JsonNode groups = node.path("group_expressions");
    List<String> groupKeys = new ArrayList<>();
    for (JsonNode g : groups) {
      if ("CONSTANT".equals(g.path("class").asText())) {
        return; // GROUP BY 1: a position, not read here
      }
      String a = block.attribute(g);
      groupKeys.add(a != null ? a : "expr:" + trees.expression(g));
    }
    JsonNode sets = node.path("group_sets");
    boolean severalSets = sets.isArray() && sets.size() > 1;
    if (severalSets) {
      Set<Set<Integer>> seen = new HashSet<>();
      for (JsonNode set : sets) {
        Set<Integer> s = new HashSet<>();
        set.forEach(i -> s.add(i.asInt()));
        if (!seen.add(s)) {
          return; // a set twice: its rows come twice
        }
      }
      for (String g : groupKeys) {
        if (g.startsWith("expr:") || !block.notNull(g)) {
          return; // a NULL value would look like a set that leaves the column out
        }
      }
    } else if (sets.isArray() && sets.size() == 1 && sets.get(0).isEmpty()) {
      keys.add(Set.of()); // GROUP BY (): one row
      return;
    }
    Set<String> needed = new LinkedHashSet<>(groupKeys);
    if (!severalSets) {
      for (String g : groupKeys) {
        Set<String> rest = new HashSet<>(needed);
        rest.remove(g);
        if (!g.startsWith("expr:") && block.closure(rest).contains(g)) {
          needed.remove(g);
        }
      }
    }
    Set<Integer> key = new HashSet<>();
    Set<String> covered = new HashSet<>();
    for (int i = 0; i < attributes.size(); i++) {
      String a = attributes.get(i);
      String asExpr = texts.get(i) == null ? null : "expr:" + texts.get(i);
      for (String g : needed) {
        if (g.equals(a) || g.equals(asExpr)) {
          if (covered.add(g)) {
            key.add(i);
          }
        }
      }
      if (!severalSets && a != null && groupKeys.contains(a) && block.notNull(a)) {
        notNull.add(i);
      }
    }
    if (covered.size() == needed.size()) {
      keys.add(key);
    }
  }

  /** Whether an aggregate (not a window function) is applied outside any subquery. */
  private static boolean aggregateOutside(JsonNode e) {
    if (!e.isObject() && !e.isArray()) {
      return false;
    }
    if ("SUBQUERY".equals(e.path("class").asText()) || "WINDOW".equals(e.path("class").asText())) {
      return false;
    }
    if ("FUNCTION".equals(e.path("class").asText()) && Set.of("sum", "count", "count_star", "avg", "min", "max",
        "stddev_samp", "stddev", "var_samp", "variance").contains(e.path("function_name").asText()
        .toLowerCase(Locale.ROOT))) {
      return true;
    }
    for (JsonNode child : e) {
      if (aggregateOutside(child)) {
        return true;
      }
    }
    return false;
  }

  // ---- empty blocks -----------------------------------------------------------------------------------

  /** Whether a query node returns no row on any database that honours the schema (the rules below only). */
  private boolean emptyQuery(JsonNode node, Scope outer, int depth) {
    if (depth > 16) {
      return false;
    }
    if ("SET_OPERATION_NODE".equals(node.path("type").asText())) {
      Scope scope = outer.with(node);
      List<Boolean> empty = new ArrayList<>();
      for (JsonNode c : Trees.setOperands(node)) {
        empty.add(emptyQuery(c, scope, depth + 1));
      }
      return switch (node.path("setop_type").asText()) {
        case "UNION", "UNION_BY_NAME" -> !empty.contains(false);
        case "INTERSECT" -> empty.contains(true);
        case "EXCEPT" -> empty.get(0);
        default -> false;
      };
    }
    return emptyBlock(node, outer, depth);
  }

  /** Whether a FROM clause yields no row: an inner-joined derived table or CTE that is empty. */
  private boolean emptyFrom(JsonNode from, Scope scope, int depth) {
    switch (from.path("type").asText()) {
      case "JOIN" -> {
        String type = from.path("join_type").asText("INNER");
        if (!Set.of("REGULAR", "CROSS").contains(from.path("ref_type").asText("REGULAR"))) {
          return false;
        }
        boolean left = emptyFrom(from.path("left"), scope, depth);
        boolean right = emptyFrom(from.path("right"), scope, depth);
        return switch (type) {
          case "INNER" -> left || right;
          case "LEFT" -> left;
          case "RIGHT" -> right;
          case "OUTER" -> left && right;
          default -> false;
        };
      }
      case "SUBQUERY" -> {
        return emptyQuery(from.path("subquery").path("node"), scope, depth + 1);
      }
      case "BASE_TABLE" -> {
        JsonNode cte = from.path("schema_name").asText("").isEmpty()
            ? scope.cte(from.path("table_name").asText().toLowerCase(Locale.ROOT)) : null;
        if (cte == null) {
          return false;
        }
        JsonNode body = cte.has("query_node") ? cte.path("query_node") : cte.path("query").path("node");
        return emptyQuery(body, scope, depth + 1);
      }
      default -> {
        return false;
      }
    }
  }

  /**
   * Whether an expression is NULL on every row: a scalar subquery that returns no row, or arithmetic on one
   * ({@code 0.9 * (SELECT avg(x) ... WHERE c IS NULL GROUP BY ...)} with {@code c} NOT NULL).
   */
  private boolean alwaysNull(JsonNode e, Scope scope, int depth) {
    if ("SUBQUERY".equals(e.path("class").asText())) {
      return "SCALAR".equals(e.path("subquery_type").asText())
          && emptyQuery(e.path("subquery").path("node"), scope, depth + 1);
    }
    if ("CAST".equals(e.path("class").asText())) {
      return alwaysNull(e.path("child"), scope, depth);
    }
    if ("FUNCTION".equals(e.path("class").asText())
        && Set.of("+", "-", "*", "/").contains(e.path("function_name").asText())) {
      for (JsonNode c : SqlAnalyzer.arguments(e)) {
        if (alwaysNull(c, scope, depth)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a conjunct is never true: a comparison with an expression that is always NULL. */
  private boolean neverTrue(JsonNode c, Scope scope, int depth) {
    return "COMPARISON".equals(c.path("class").asText()) && c.has("left")
        && (alwaysNull(c.path("left"), scope, depth) || alwaysNull(c.path("right"), scope, depth));
  }

  private boolean emptyBlock(JsonNode node, Scope outer, int depth) {
    if (!"SELECT_NODE".equals(node.path("type").asText())) {
      return false;
    }
    JsonNode groups = node.path("group_expressions");
    boolean grouped = groups.isArray() && !groups.isEmpty();
    if (grouped) {
      for (JsonNode set : node.path("group_sets")) {
        if (set.isEmpty()) {
          return false; // GROUP BY () returns a row on no input
        }
      }
    } else if (aggregateOutside(node.path("select_list")) || aggregateOutside(node.path("having"))) {
      return false; // one row even on no input
    }
    Scope scope = outer.with(node);
    if (emptyFrom(node.path("from_table"), scope, depth)) {
      return true;
    }
    List<JsonNode> where = Trees.conjuncts(node.path("where_clause").isObject() ? node.path("where_clause") : null);
    List<JsonNode> having = grouped ? Trees.conjuncts(node.path("having").isObject() ? node.path("having") : null)
        : List.of();
    for (JsonNode c : java.util.stream.Stream.concat(where.stream(), having.stream()).toList()) {
      if (neverTrue(c, scope, depth)) {
        return true;
      }
    }
    List<JsonNode> conditions = new ArrayList<>();
    List<Item> items = fromItems(node.path("from_table"), scope, conditions);
    if (items == null) {
      return false;
    }
    Block block = new Block(items, conditions);
    for (JsonNode c : where) {
      if ("OPERATOR_IS_NULL".equals(c.path("type").asText()) && c.path("children").size() == 1) {
        String a = block.attribute(c.path("children").get(0));
        if (a != null && block.notNull(a)) {
          return true;
        }
      }
    }
    return false;
  }
}
