package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.Trees;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The names visible in one SELECT block: its FROM items (base tables with their catalog columns, CTE references
 * and subqueries with their output names) and a resolver that tells whether a column reference belongs to the
 * block, to an enclosing block (a correlation), or cannot be decided.
 */
final class Scope {
  /** A FROM item: the name it is referred to by, its columns (null when unknown), and its syntax node. */
  record Item(String name, @Nullable List<String> columns, JsonNode node) {
    boolean hasColumn(String c) {
      return columns != null && columns.stream().anyMatch(x -> x.equalsIgnoreCase(c));
    }
  }

  /** Where a column reference points. */
  enum Kind { LOCAL, OUTER, UNKNOWN }

  record Resolution(Kind kind, @Nullable Item item) {}

  private final List<Item> items;

  private Scope(List<Item> items) {
    this.items = items;
  }

  /**
   * The scope of a SELECT node.
   *
   * @param cteColumns output columns of the CTEs visible here (lower-cased names), null values when unknown
   */
  static Scope of(JsonNode selectNode, Catalog catalog, Map<String, List<String>> cteColumns) {
    List<Item> items = new ArrayList<>();
    for (JsonNode item : Trees.fromItems(selectNode.path("from_table"))) {
      String type = item.path("type").asText();
      String name = Trees.referenceName(item);
      List<String> cols = null;
      JsonNode aliases = item.path("column_name_alias");
      if (type.equals("BASE_TABLE")) {
        String table = item.path("table_name").asText().toLowerCase(Locale.ROOT);
        if (cteColumns.containsKey(table)) {
          cols = cteColumns.get(table);
        } else {
          cols = catalog.table(table).map(t -> t.columns().stream().map(Catalog.Column::name).toList()).orElse(null);
        }
      } else if (type.equals("SUBQUERY")) {
        cols = outputNames(item.path("subquery").path("node"));
      } else if (type.equals("EMPTY")) {
        continue;
      }
      if (aliases.isArray() && aliases.size() > 0) {
        List<String> renamed = new ArrayList<>();
        aliases.forEach(a -> renamed.add(a.asText()));
        if (cols != null) {
          for (int i = renamed.size(); i < cols.size(); i++) {
            renamed.add(cols.get(i));
          }
        }
        cols = renamed;
      }
      items.add(new Item(name, cols, item));
    }
    return new Scope(items);
  }

  /** The output column names of a query node, or null when a star or an unnamed expression hides them. */
  static @Nullable List<String> outputNames(JsonNode node) {
    JsonNode n = node;
    while ("SET_OPERATION_NODE".equals(n.path("type").asText())) {
      JsonNode first = n.path("children").path(0);
      n = first.isMissingNode() ? n.path("left") : first;
      if (n.isMissingNode() || n.isNull()) {
        return null;
      }
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : n.path("select_list")) {
      String alias = item.path("alias").asText("");
      if (!alias.isEmpty()) {
        out.add(alias);
      } else if ("COLUMN_REF".equals(item.path("class").asText())) {
        JsonNode parts = item.path("column_names");
        out.add(parts.get(parts.size() - 1).asText());
      } else {
        return null;
      }
    }
    return out;
  }

  /** Output columns of every CTE of a node's WITH clause (null value when unknown). */
  static Map<String, List<String>> cteColumns(JsonNode root) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    Trees.visit(root, n -> {
      for (JsonNode e : n.path("cte_map").path("map")) {
        List<String> cols = outputNames(e.path("value").path("query_node"));
        JsonNode aliases = e.path("value").path("aliases");
        if (aliases.isArray() && aliases.size() > 0) {
          List<String> renamed = new ArrayList<>();
          aliases.forEach(a -> renamed.add(a.asText()));
          cols = renamed;
        }
        out.put(e.path("key").asText().toLowerCase(Locale.ROOT), cols);
      }
    });
    return out;
  }

  List<Item> items() {
    return items;
  }

  Optional<Item> item(String name) {
    return items.stream().filter(i -> i.name().equalsIgnoreCase(name)).findFirst();
  }

  /** Resolves a column reference given by its name parts. */
  Resolution resolve(List<String> parts) {
    if (parts.size() >= 2) {
      String qualifier = parts.get(parts.size() - 2);
      Optional<Item> item = item(qualifier);
      return item.map(i -> new Resolution(Kind.LOCAL, i)).orElse(new Resolution(Kind.OUTER, null));
    }
    String column = parts.get(0);
    Item found = null;
    boolean unknown = false;
    for (Item i : items) {
      if (i.columns() == null) {
        unknown = true;
      } else if (i.hasColumn(column)) {
        if (found != null) {
          return new Resolution(Kind.UNKNOWN, null);
        }
        found = i;
      }
    }
    if (found != null) {
      return new Resolution(Kind.LOCAL, found);
    }
    return new Resolution(unknown ? Kind.UNKNOWN : Kind.OUTER, null);
  }

  /** The FROM items an expression's columns belong to; null when some reference is outer or undecidable. */
  @Nullable List<Item> owners(JsonNode expression) {
    List<Item> out = new ArrayList<>();
    for (List<String> parts : Trees.columnRefs(expression)) {
      Resolution r = resolve(parts);
      if (r.kind() != Kind.LOCAL) {
        return null;
      }
      if (!out.contains(r.item())) {
        out.add(r.item());
      }
    }
    return out;
  }
}
