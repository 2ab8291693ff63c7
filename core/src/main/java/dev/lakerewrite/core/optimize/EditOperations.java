package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lakerewrite.core.sql.SqlSyntaxException;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.sql.DidYouMean;
import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Applies the prompt design's edit operations to a query through its syntax tree — {@code add_cte},
 * {@code delete_cte}, {@code replace_cte}, {@code replace_clause} and {@code patch} (search/replace inside one
 * clause) — and validates the result: it renders and parses again, and every table reference resolves to a CTE
 * in scope or a table of the database (a dangling reference is reported with the block that holds it). Each
 * operation is linear in the size of the tree.
 */
final class EditOperations {

  /** One search/replace inside a clause. */
  record Patch(String search, String replace) {}

  /**
   * One operation, as the model writes it.
   *
   * @param op {@code add_cte | delete_cte | replace_cte | replace_clause | patch}
   * @param name the CTE (add_cte, delete_cte, replace_cte)
   * @param after for add_cte: the CTE after which the new one goes (default: after the last CTE it uses)
   * @param sql the CTE body (add_cte, replace_cte) or the new clause text (replace_clause)
   * @param target {@code block.clause}, e.g. {@code main_query.where}, {@code revenue.group_by}
   * @param patches for patch: the replacements, applied in order
   * @param materialized optional for add_cte/replace_cte: {@code MATERIALIZED} or {@code NOT MATERIALIZED}
   */
  record Operation(String op, @Nullable String name, @Nullable String after, @Nullable String sql,
      @Nullable String target, @Nullable List<Patch> patches, @Nullable String materialized) {
    static Operation addCte(String name, String after, String sql) {
      return new Operation("add_cte", name, after, sql, null, null, null);
    }

    static Operation deleteCte(String name) {
      return new Operation("delete_cte", name, null, null, null, null, null);
    }

    static Operation replaceCte(String name, String sql) {
      return new Operation("replace_cte", name, null, sql, null, null, null);
    }

    static Operation replaceClause(String target, String sql) {
      return new Operation("replace_clause", null, null, sql, target, null, null);
    }

    static Operation patch(String target, Patch... patches) {
      return new Operation("patch", null, null, null, target, List.of(patches), null);
    }
  }

  /** An operation that cannot be applied, or a result that does not validate; the message says which and why. */
  static final class EditException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    EditException(String message) {
      super(message);
    }
  }

  static final Set<String> OPS = Set.of("add_cte", "delete_cte", "replace_cte", "replace_clause", "patch");
  private static final Pattern SPACES = Pattern.compile("\\s+");

  private final Trees trees;
  private final Predicate<String> isDatabaseTable;

  /**
   * @param isDatabaseTable whether a name (as written) is a table or view of the database
   */
  EditOperations(Trees trees, Predicate<String> isDatabaseTable) {
    this.trees = trees;
    this.isDatabaseTable = isDatabaseTable;
  }

  /** Applies the operations in order and returns the validated SQL. */
  String apply(String sql, List<Operation> operations) {
    ObjectNode statement;
    try {
      statement = trees.statement(sql);
    } catch (SqlSyntaxException e) {
      throw new EditException("the query to edit does not parse: " + e.getMessage());
    }
    for (int i = 0; i < operations.size(); i++) {
      Operation op = operations.get(i);
      try {
        applyOne(statement, op);
      } catch (EditException e) {
        throw new EditException("operation " + (i + 1) + " (" + op.op() + "): " + e.getMessage());
      } catch (IllegalArgumentException | SqlSyntaxException e) {
        throw new EditException("operation " + (i + 1) + " (" + op.op() + "): " + e.getMessage());
      }
    }
    String out;
    try {
      out = trees.render(statement);
    } catch (SqlSyntaxException e) {
      throw new EditException("the edited query cannot be rendered: " + e.getMessage());
    }
    return validate(out);
  }

  /**
   * Checks a whole query: it parses as one statement, and every table it names is a CTE defined in the query or a
   * database table. Returns the query unchanged.
   */
  String validate(String sql) {
    ObjectNode statement;
    try {
      statement = trees.statement(sql);
    } catch (SqlSyntaxException e) {
      throw new EditException("the query does not parse: " + e.getMessage());
    }
    QueryBlocks blocks = new QueryBlocks(trees, statement);
    Set<String> ctes = new LinkedHashSet<>();
    Trees.visit(statement, n -> {
      for (JsonNode e : n.path("cte_map").path("map")) {
        ctes.add(e.path("key").asText().toLowerCase(Locale.ROOT));
      }
    });
    for (QueryBlocks.Block b : blocks.blocks()) {
      for (String table : Trees.baseTables(b.node())) {
        if (!ctes.contains(table) && !isDatabaseTable.test(table)) {
          throw new EditException("unresolved reference in " + b.id() + ": " + table
              + " is neither a CTE of the query nor a table of the database"
              + DidYouMean.hint(table, ctes, 1));
        }
      }
    }
    return sql;
  }

  private void applyOne(ObjectNode statement, Operation op) {
    String kind = op.op() == null ? "" : op.op().strip().toLowerCase(Locale.ROOT);
    ObjectNode root = (ObjectNode) statement.get("node");
    switch (kind) {
      case "add_cte" -> addCte(root, op);
      case "delete_cte" -> deleteCte(statement, root, op);
      case "replace_cte" -> replaceCte(root, op);
      case "replace_clause" -> {
        Target t = target(statement, op.target());
        t.blocks().setClause(t.block(), t.clause(), op.sql() == null ? "" : op.sql());
      }
      case "patch" -> patch(statement, op);
      default -> throw new EditException("unknown op '" + op.op() + "': use one of " + String.join(", ", OPS));
    }
  }

  private record Target(QueryBlocks blocks, QueryBlocks.Block block, String clause) {}

  private Target target(ObjectNode statement, String target) {
    String t = required(target, "target").strip();
    int dot = t.lastIndexOf('.');
    if (dot <= 0) {
      throw new EditException("target '" + t + "' must be block.clause, e.g. main_query.where");
    }
    String blockId = t.substring(0, dot);
    String clause = t.substring(dot + 1).toLowerCase(Locale.ROOT);
    if (!QueryBlocks.CLAUSES.contains(clause)) {
      throw new EditException(QueryBlocks.unknownClause(clause));
    }
    QueryBlocks blocks = new QueryBlocks(trees, statement);
    QueryBlocks.Block block = blocks.block(blockId).orElseThrow(() -> new EditException(
        "no block '" + blockId + "': the query has " + String.join(", ", blocks.ids())));
    return new Target(blocks, block, clause);
  }

  private void patch(ObjectNode statement, Operation op) {
    Target t = target(statement, op.target());
    if (op.patches() == null || op.patches().isEmpty()) {
      throw new EditException("patch needs a non-empty \"patches\" list of {search, replace}");
    }
    String text = t.blocks().clause(t.block(), t.clause());
    for (Patch p : op.patches()) {
      String search = required(p.search(), "search");
      String replace = p.replace() == null ? "" : p.replace();
      text = replaceOnce(text, search, replace, t.block().id() + "." + t.clause());
    }
    t.blocks().setClause(t.block(), t.clause(), text);
  }

  /**
   * Replaces the first occurrence of {@code search}; when the exact text is not there (the clause is shown as
   * DuckDB renders it), whitespace and case are ignored.
   */
  static String replaceOnce(String text, String search, String replace, String where) {
    int at = text.indexOf(search);
    if (at >= 0) {
      return text.substring(0, at) + replace + text.substring(at + search.length());
    }
    String[] words = SPACES.split(search.strip());
    StringBuilder regex = new StringBuilder("(?i)");
    for (int i = 0; i < words.length; i++) {
      if (i > 0) {
        regex.append("\\s*");
      }
      regex.append(Pattern.quote(words[i]));
    }
    java.util.regex.Matcher m = Pattern.compile(regex.toString()).matcher(text);
    if (m.find()) {
      return text.substring(0, m.start()) + replace + text.substring(m.end());
    }
    throw new EditException("search text not found in " + where + ": \"" + search + "\"; the clause reads: "
        + (text.length() > 300 ? text.substring(0, 300) + "..." : text));
  }

  private void addCte(ObjectNode root, Operation op) {
    String name = required(op.name(), "name").strip();
    ArrayNode map = cteMap(root);
    for (JsonNode e : map) {
      if (e.path("key").asText().equalsIgnoreCase(name)) {
        throw new EditException("a CTE named " + name + " already exists; use replace_cte");
      }
    }
    ObjectNode entry = cteEntry(name, required(op.sql(), "sql"), op.materialized());
    int position;
    if (op.after() != null && !op.after().isBlank()) {
      position = indexOf(map, op.after().strip());
      if (position < 0) {
        throw new EditException("after: no CTE named " + op.after() + " (CTEs: " + names(map) + ")");
      }
      position++;
    } else {
      // After the last CTE the new body uses, so that it can see it.
      Set<String> used = new LinkedHashSet<>(Trees.baseTables(entry.path("value").path("query_node")));
      position = 0;
      for (int i = 0; i < map.size(); i++) {
        if (used.contains(map.get(i).path("key").asText().toLowerCase(Locale.ROOT))) {
          position = i + 1;
        }
      }
    }
    map.insert(position, entry);
  }

  private void deleteCte(ObjectNode statement, ObjectNode root, Operation op) {
    String name = required(op.name(), "name").strip();
    ArrayNode map = cteMap(root);
    int i = indexOf(map, name);
    if (i < 0) {
      throw new EditException("no CTE named " + name + " (CTEs: " + names(map) + ")");
    }
    ObjectNode copy = statement.deepCopy();
    ((ArrayNode) copy.path("node").path("cte_map").path("map")).remove(i);
    for (QueryBlocks.Block b : new QueryBlocks(trees, copy).blocks()) {
      if (Trees.baseTables(b.node()).contains(name.toLowerCase(Locale.ROOT))) {
        throw new EditException("cannot delete CTE " + name + ": it is still referenced in " + b.id()
            + "; replace those references first");
      }
    }
    map.remove(i);
  }

  private void replaceCte(ObjectNode root, Operation op) {
    String name = required(op.name(), "name").strip();
    ArrayNode map = cteMap(root);
    int i = indexOf(map, name);
    if (i < 0) {
      throw new EditException("no CTE named " + name + " (CTEs: " + names(map) + ")");
    }
    String materialized = op.materialized();
    if (materialized == null) {
      materialized = switch (map.get(i).path("value").path("materialized").asText("")) {
        case "CTE_MATERIALIZE_ALWAYS" -> "MATERIALIZED";
        case "CTE_MATERIALIZE_NEVER" -> "NOT MATERIALIZED";
        default -> null;
      };
    }
    map.set(i, cteEntry(map.get(i).path("key").asText(), required(op.sql(), "sql"), materialized));
  }

  private ObjectNode cteEntry(String name, String body, String materialized) {
    String hint = "";
    if (materialized != null && !materialized.isBlank()) {
      String m = materialized.strip().toUpperCase(Locale.ROOT).replace('_', ' ');
      if (!m.equals("MATERIALIZED") && !m.equals("NOT MATERIALIZED")) {
        throw new EditException("materialized must be MATERIALIZED or NOT MATERIALIZED, was " + materialized);
      }
      hint = m + " ";
    }
    String stripped = body.strip();
    while (stripped.endsWith(";")) {
      stripped = stripped.substring(0, stripped.length() - 1).strip();
    }
    ObjectNode parsed;
    try {
      parsed = trees.node("WITH " + Sql.identifier(name) + " AS " + hint + "(\n" + stripped
          + "\n) SELECT 1");
    } catch (SqlSyntaxException e) {
      throw new EditException("the body of CTE " + name + " does not parse: " + e.getMessage());
    }
    return (ObjectNode) parsed.path("cte_map").path("map").get(0);
  }

  private static ArrayNode cteMap(ObjectNode root) {
    JsonNode cteMap = root.path("cte_map");
    if (!cteMap.isObject()) {
      ObjectNode m = root.putObject("cte_map");
      return m.putArray("map");
    }
    JsonNode map = cteMap.path("map");
    if (!map.isArray()) {
      return ((ObjectNode) cteMap).putArray("map");
    }
    return (ArrayNode) map;
  }

  private static int indexOf(ArrayNode map, String name) {
    for (int i = 0; i < map.size(); i++) {
      if (map.get(i).path("key").asText().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  private static String names(ArrayNode map) {
    List<String> out = new ArrayList<>();
    map.forEach(e -> out.add(e.path("key").asText()));
    return out.isEmpty() ? "none" : String.join(", ", out);
  }

  private static String required(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new EditException("\"" + field + "\" is missing");
    }
    return value;
  }
}
