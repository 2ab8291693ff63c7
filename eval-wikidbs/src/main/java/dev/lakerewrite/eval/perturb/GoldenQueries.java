package dev.lakerewrite.eval.perturb;

import dev.lakerewrite.eval.SqlText;
import dev.lakerewrite.sql.Sql;
import dev.lakerewrite.eval.GoldMapping;
import dev.lakerewrite.eval.perturb.LakePlan.Layout;
import dev.lakerewrite.eval.perturb.LakePlan.Lookup;
import dev.lakerewrite.eval.perturb.LakePlan.Part;
import dev.lakerewrite.eval.perturb.LakePlan.TablePlan;
import dev.lakerewrite.eval.perturb.SourceSchema.SourceColumn;
import dev.lakerewrite.eval.perturb.SourceSchema.SourceTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Golden queries: the source query over one CTE per source table it reads, each named like the source table and
 * rebuilding it from the lake — vertical parts joined on their key, horizontal parts unioned, codes looked up,
 * encodings decoded for the column types the lake loader gave them. The CTE projects only the columns the query
 * mentions (all of them for a {@code *}) and reads only the parts and lookups those need, so the golden query's
 * tables are the tables the query really needs.
 */
final class GoldenQueries {

  private final SourceSchema schema;
  private final LakePlan plan;
  private final Map<String, Map<String, String>> loadedTypes; // lake table (lower) -> column -> type

  GoldenQueries(SourceSchema schema, LakePlan plan, Map<String, Map<String, String>> loadedTypes) {
    this.schema = schema;
    this.plan = plan;
    this.loadedTypes = loadedTypes;
  }

  /** One rebuilt source table: its CTE and what it reads. */
  record Rebuilt(String cte, Set<String> lakeTables, Map<String, GoldMapping.ColumnGold> columns,
      Set<Perturbation> perturbations, boolean needsSecondPart, Set<String> encodedColumns) {}

  /** Rebuilds {@code table} with the given columns (source names). */
  Rebuilt rebuild(String table, List<String> columns) {
    SourceTable source = schema.table(table).orElseThrow();
    TablePlan tp = plan.table(table).orElseThrow();
    Set<String> lakeTables = new LinkedHashSet<>();
    Map<String, GoldMapping.ColumnGold> mapping = new LinkedHashMap<>();
    Set<Perturbation> kinds = new LinkedHashSet<>();
    Set<String> encoded = new LinkedHashSet<>();
    List<Part> parts = tp.parts();
    boolean second = false;
    if (tp.layout() == Layout.VERTICAL) {
      second = columns.stream().anyMatch(c -> !c.equals(tp.key().orElseThrow()) && parts.get(1).columns().containsKey(c));
    }
    List<String> selects = new ArrayList<>();
    if (tp.layout() == Layout.HORIZONTAL) {
      for (Part p : parts) {
        selects.add(select(source, tp, List.of(p), columns, lakeTables, mapping, kinds, encoded));
      }
      kinds.add(Perturbation.HORIZONTAL_SPLIT);
    } else if (tp.layout() == Layout.VERTICAL && second) {
      selects.add(select(source, tp, parts, columns, lakeTables, mapping, kinds, encoded));
      kinds.add(Perturbation.VERTICAL_SPLIT);
    } else {
      selects.add(select(source, tp, List.of(parts.get(0)), columns, lakeTables, mapping, kinds, encoded));
    }
    String name = Sql.identifier(source.name());
    String cte = name + " AS (\n  " + String.join("\n  UNION ALL\n  ", selects) + "\n)";
    if (!parts.get(0).table().equalsIgnoreCase(source.name())) {
      kinds.add(Perturbation.RENAME_TABLE);
    }
    return new Rebuilt(cte, lakeTables, mapping, kinds, second, encoded);
  }

  /** The SELECT reading {@code columns} from one part (or, for a vertical split, the first joined with the second). */
  private String select(SourceTable source, TablePlan tp, List<Part> parts, List<String> columns,
      Set<String> lakeTables, Map<String, GoldMapping.ColumnGold> mapping, Set<Perturbation> kinds,
      Set<String> encoded) {
    List<String> items = new ArrayList<>();
    List<String> joins = new ArrayList<>();
    String[] aliases = {"a", "b"};
    for (int i = 0; i < parts.size(); i++) {
      lakeTables.add(parts.get(i).table());
    }
    int lookups = 0;
    for (String column : columns) {
      SourceColumn sc = source.column(column).orElseThrow();
      int at = 0;
      while (at < parts.size() && !parts.get(at).columns().containsKey(column)) {
        at++;
      }
      if (at == parts.size()) { // a vertical split's key column lives in both; read it from the first
        at = 0;
      }
      Part part = parts.get(at);
      String lakeColumn = part.columns().get(column);
      String ref = aliases[at] + "." + Sql.identifier(lakeColumn);
      String loaded = type(part.table(), lakeColumn);
      Encoding enc = tp.encoding(column);
      List<String> lake = new ArrayList<>();
      lake.add(part.table() + "." + lakeColumn);
      String expression;
      if (enc instanceof Encoding.CodeLookup code) {
        Lookup lookup = plan.lookups().stream().filter(l -> l.encoding().equals(code)).findFirst().orElseThrow();
        String alias = "l" + (++lookups);
        joins.add("LEFT JOIN " + Sql.identifier(lookup.table()) + " " + alias + " ON " + ref + " = " + alias + "."
            + Sql.identifier(code.codeColumn()));
        lakeTables.add(lookup.table());
        lake.add(lookup.table() + "." + code.labelColumn());
        expression = code.decode(alias + "." + Sql.identifier(code.labelColumn()), type(lookup.table(),
            code.labelColumn()), sc.type());
      } else {
        expression = enc.decode(ref, loaded, sc.type());
      }
      boolean effective = !(enc instanceof Encoding.Plain) && !enc.undoneByLoader(loaded, sc.type());
      if (effective) {
        Perturbation.ofEncoding(enc).ifPresent(kinds::add);
        encoded.add(column.toLowerCase(Locale.ROOT));
      }
      if (!Words.tokens(lakeColumn).equals(Words.tokens(column))) {
        kinds.add(Perturbation.RENAME_COLUMN);
      }
      String key = source.name().toLowerCase(Locale.ROOT) + "." + column.toLowerCase(Locale.ROOT);
      GoldMapping.ColumnGold previous = mapping.get(key);
      if (previous != null) { // another horizontal part: add its column
        List<String> all = new ArrayList<>(previous.lake());
        lake.stream().filter(l -> !all.contains(l)).forEach(all::add);
        mapping.put(key, new GoldMapping.ColumnGold(all, previous.encoding(), previous.detail()));
      } else {
        mapping.put(key, new GoldMapping.ColumnGold(lake, effective ? enc.kind() : "none",
            effective ? enc.describe() : ""));
      }
      items.add(expression + " AS " + Sql.identifier(column));
    }
    StringBuilder from = new StringBuilder(Sql.identifier(parts.get(0).table()) + " a");
    if (parts.size() > 1) {
      String key = tp.key().orElseThrow();
      from.append(" LEFT JOIN ").append(Sql.identifier(parts.get(1).table())).append(" b ON a.")
          .append(Sql.identifier(parts.get(0).columns().get(key))).append(" = b.")
          .append(Sql.identifier(parts.get(1).columns().get(key)));
    }
    joins.forEach(j -> from.append(" ").append(j));
    return "SELECT " + String.join(", ", items) + " FROM " + from;
  }

  private String type(String lakeTable, String column) {
    Map<String, String> cols = loadedTypes.get(lakeTable.toLowerCase(Locale.ROOT));
    if (cols == null || !cols.containsKey(column)) {
      throw new IllegalStateException("the loaded lake has no column " + lakeTable + "." + column
          + " (the lake loader named the files' tables or columns differently)");
    }
    return cols.get(column);
  }

  /**
   * The source query over the CTEs: after its own {@code WITH} when it has one, else before it. A trailing
   * semicolon is dropped.
   */
  static String compose(String sql, List<String> ctes) {
    String body = sql.strip();
    while (body.endsWith(";")) {
      body = body.substring(0, body.length() - 1).stripTrailing();
    }
    if (ctes.isEmpty()) {
      return body;
    }
    String defs = String.join(",\n", ctes);
    List<SqlText.Token> tokens = SqlTokens.tokenize(body);
    if (!tokens.isEmpty() && tokens.get(0).isKeyword("WITH")) {
      int at = indexAfterWith(body);
      boolean recursive = tokens.size() > 1 && tokens.get(1).isKeyword("RECURSIVE");
      String rest = body.substring(at).stripLeading();
      if (recursive) {
        rest = rest.substring("RECURSIVE".length()).stripLeading();
      }
      return "WITH " + (recursive ? "RECURSIVE " : "") + defs + ",\n" + rest;
    }
    return "WITH " + defs + "\n" + body;
  }

  private static int indexAfterWith(String body) {
    int i = 0;
    while (i < body.length() && !body.regionMatches(true, i, "WITH", 0, 4)) {
      i++;
    }
    return i + 4;
  }
}
