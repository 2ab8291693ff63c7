package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.Trees;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A physical plan ({@code EXPLAIN (FORMAT JSON)} or {@code EXPLAIN (ANALYZE, FORMAT JSON)}, DuckDB's or
 * PostgreSQL's) as a tree of operators (PostgreSQL's node types upper-cased with underscores: {@code SEQ_SCAN},
 * {@code NESTED_LOOP}; its rows and times totalled over loops, each operator's own time without its children's), and its linearisation into the indented text E3-Rewrite calls the <em>execution hint</em>: one
 * operator per line, nesting by indentation, with estimated and (when analysed) actual cardinalities and
 * timings, and bottlenecks marked — the operators taking most of the time, large cardinality misestimates and
 * scans whose filters discard most of what they read. Linear in the number of operators.
 */
final class ExecutionPlan {
  /** Share of the total operator time from which an operator is called a bottleneck. */
  static final double BOTTLENECK_SHARE = 0.20;
  private static final Set<String> SKIPPED = Set.of("RESULT_COLLECTOR", "EXPLAIN_ANALYZE", "PROJECTION");

  /**
   * One operator. Times in seconds (its own, without its children); -1 where unknown (plain EXPLAIN). Rows and
   * estimates are totals over all its loops; {@code loops} is how often it ran (a correlated subplan runs once per
   * outer row), 1 where the engine does not say.
   */
  record Operator(String type, Map<String, String> info, long rows, long estimated, long scanned, double seconds,
      long loops, List<Operator> children) {
    Operator(String type, Map<String, String> info, long rows, long estimated, long scanned, double seconds,
        List<Operator> children) {
      this(type, info, rows, estimated, scanned, seconds, 1, children);
    }
  }

  private final Operator root;
  private final boolean analyzed;
  private final double totalSeconds;

  private ExecutionPlan(Operator root, boolean analyzed) {
    this.root = root;
    this.analyzed = analyzed;
    this.totalSeconds = analyzed ? sumSeconds(root) : 0;
  }

  /** Parses the JSON text DuckDB returns in {@code explain_value} or PostgreSQL in {@code QUERY PLAN}. */
  static ExecutionPlan parse(String json, boolean analyzed) {
    JsonNode tree;
    try {
      tree = Trees.JSON.readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("the plan is not JSON: " + e.getOriginalMessage(), e);
    }
    if (tree.isArray() && tree.size() == 1 && tree.get(0).has("Plan")) {
      return new ExecutionPlan(postgresOperator(tree.get(0).get("Plan")), analyzed);
    }
    JsonNode top = tree.isArray() ? tree : tree.path("operator");
    List<Operator> roots = new ArrayList<>();
    for (JsonNode n : top) {
      roots.add(operator(n));
    }
    Operator root = roots.size() == 1 ? roots.get(0) : new Operator("PLAN", Map.of(), -1, -1, -1, -1, roots);
    return new ExecutionPlan(unwrap(root), analyzed);
  }

  private static Operator unwrap(Operator op) {
    while (SKIPPED.contains(op.type()) && op.children().size() == 1 && !op.type().equals("PROJECTION")) {
      op = op.children().get(0);
    }
    return op;
  }

  private static Operator operator(JsonNode n) {
    String type = n.has("type") ? n.path("type").asText() : n.path("name").asText("?");
    Map<String, String> info = new LinkedHashMap<>();
    n.path("extra_info").fields().forEachRemaining(f -> {
      JsonNode v = f.getValue();
      String text;
      if (v.isArray()) {
        List<String> parts = new ArrayList<>();
        v.forEach(x -> parts.add(x.asText()));
        text = String.join(", ", parts);
      } else {
        text = v.asText();
      }
      info.put(f.getKey(), text.replace('\n', ' '));
    });
    long estimated = parseLong(info.remove("Estimated Cardinality"));
    long rows = n.has("operator_cardinality") ? n.path("operator_cardinality").asLong(-1)
        : n.has("intermediate_rows") ? n.path("intermediate_rows").asLong(-1) : -1;
    long scanned = n.has("rows_scanned") ? n.path("rows_scanned").asLong(-1)
        : n.has("operator_rows_scanned") ? n.path("operator_rows_scanned").asLong(-1) : -1;
    double seconds = n.has("timing") ? n.path("timing").asDouble(-1)
        : n.has("operator_timing") ? n.path("operator_timing").asDouble(-1) : -1;
    List<Operator> children = new ArrayList<>();
    for (JsonNode c : n.path("children")) {
      children.add(operator(c));
    }
    return new Operator(type, info, rows, estimated, scanned, seconds, children);
  }

  /** PostgreSQL keys kept as operator info, renamed to the DuckDB-style names the rest of the optimizer reads. */
  private static final Map<String, String> POSTGRES_INFO = Map.ofEntries(
      Map.entry("Relation Name", "Table"), Map.entry("CTE Name", "CTE"), Map.entry("Alias", "Alias"),
      Map.entry("Filter", "Filters"), Map.entry("Join Filter", "Join Filter"), Map.entry("Hash Cond", "Conditions"),
      Map.entry("Merge Cond", "Conditions"), Map.entry("Index Cond", "Index Cond"), Map.entry("Join Type", "Join Type"),
      Map.entry("Group Key", "Groups"), Map.entry("Strategy", "Strategy"), Map.entry("Subplan Name", "Subplan"),
      Map.entry("Parent Relationship", "Relationship"), Map.entry("Index Name", "Index"),
      Map.entry("Sort Key", "Sort Key"));

  private static Operator postgresOperator(JsonNode n) {
    String type = n.path("Node Type").asText("?").toUpperCase(java.util.Locale.ROOT).replace(' ', '_');
    Map<String, String> info = new LinkedHashMap<>();
    POSTGRES_INFO.forEach((from, to) -> {
      JsonNode v = n.get(from);
      if (v != null && !v.isNull()) {
        if (v.isArray()) {
          List<String> parts = new ArrayList<>();
          v.forEach(x -> parts.add(x.asText()));
          info.put(to, String.join(", ", parts));
        } else {
          info.put(to, v.asText());
        }
      }
    });
    long loops = Math.max(1, n.path("Actual Loops").asLong(1));
    boolean actual = n.has("Actual Rows");
    long rows = actual ? Math.round(n.path("Actual Rows").asDouble() * loops) : -1;
    long estimated = Math.round(n.path("Plan Rows").asDouble(-1) * (actual ? loops : 1));
    long removed = Math.round(n.path("Rows Removed by Filter").asDouble(0) * loops);
    long scanned = actual && type.contains("SCAN") && n.has("Rows Removed by Filter") ? rows + removed : -1;
    List<Operator> children = new ArrayList<>();
    double childMillis = 0;
    for (JsonNode c : n.path("Plans")) {
      children.add(postgresOperator(c));
      childMillis += c.path("Actual Total Time").asDouble(0) * Math.max(1, c.path("Actual Loops").asLong(1));
    }
    double seconds = n.has("Actual Total Time")
        ? Math.max(0, n.path("Actual Total Time").asDouble() * loops - childMillis) / 1000.0 : -1;
    if (loops > 1) {
      info.put("Loops", String.valueOf(loops));
    }
    return new Operator(type, info, rows, estimated, scanned, seconds, loops, children);
  }

  private static long parseLong(String s) {
    if (s == null) {
      return -1;
    }
    try {
      return Long.parseLong(s.replaceAll("[^0-9]", ""));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static double sumSeconds(Operator op) {
    double s = Math.max(0, op.seconds());
    for (Operator c : op.children()) {
      s += sumSeconds(c);
    }
    return s;
  }

  boolean analyzed() {
    return analyzed;
  }

  Operator root() {
    return root;
  }

  /** Every operator, depth first. */
  List<Operator> operators() {
    List<Operator> out = new ArrayList<>();
    collect(root, out);
    return out;
  }

  private static void collect(Operator op, List<Operator> out) {
    out.add(op);
    op.children().forEach(c -> collect(c, out));
  }

  /** How many operators of this type the plan has. */
  long count(String type) {
    return operators().stream().filter(o -> o.type().equals(type)).count();
  }

  /** Table scans per table name (short name), to spot repeated scans. */
  Map<String, Integer> scansPerTable() {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Operator o : operators()) {
      String table = o.info().get("Table");
      if (table != null && o.type().contains("SCAN")) {
        String shortName = table.substring(table.lastIndexOf('.') + 1);
        out.merge(shortName, 1, Integer::sum);
      }
    }
    return out;
  }

  /** The bottleneck notes per operator (empty list when the operator is fine). */
  List<String> notes(Operator op) {
    List<String> notes = new ArrayList<>();
    if (analyzed && totalSeconds > 0 && op.seconds() >= BOTTLENECK_SHARE * totalSeconds) {
      notes.add(String.format(Locale.ROOT, "BOTTLENECK %.0f%% of operator time", 100 * op.seconds() / totalSeconds));
    }
    if (analyzed && op.rows() >= 0 && op.estimated() > 0) {
      double ratio = (op.rows() + 1.0) / (op.estimated() + 1.0);
      if ((ratio > 10 || ratio < 0.1) && Math.max(op.rows(), op.estimated()) > 1000) {
        notes.add(String.format(Locale.ROOT, "MISESTIMATE actual/estimated = %.3g", ratio));
      }
    }
    if (op.scanned() > 10_000 && op.rows() >= 0 && op.rows() < op.scanned() / 20) {
      notes.add(String.format(Locale.ROOT, "filter keeps %.1f%% of %,d rows scanned", 100.0 * op.rows() / op.scanned(),
          op.scanned()));
    }
    if (op.loops() > 1000) {
      notes.add(String.format(Locale.ROOT, "runs %,d times (a correlated subplan or the inner side of a nested loop)",
          op.loops()));
    }
    if (op.type().contains("NESTED_LOOP") || op.type().equals("CROSS_PRODUCT") || op.type().contains("BLOCKWISE")) {
      notes.add("non-equi or cross join");
    }
    return notes;
  }

  /** The operators marked as bottlenecks, heaviest first. */
  List<Operator> bottlenecks() {
    List<Operator> out = new ArrayList<>();
    for (Operator o : operators()) {
      if (!notes(o).isEmpty()) {
        out.add(o);
      }
    }
    out.sort(Comparator.comparingDouble(Operator::seconds).reversed());
    return out;
  }

  /** The execution hint: the plan as an indented operator tree with cardinalities, timings and marks. */
  String linearize() {
    StringBuilder sb = new StringBuilder();
    if (analyzed) {
      sb.append(String.format(Locale.ROOT, "(EXPLAIN ANALYZE; total operator time %.1f ms)%n", totalSeconds * 1000));
    } else {
      sb.append("(EXPLAIN; estimated cardinalities only)\n");
    }
    line(root, 0, sb);
    return sb.toString();
  }

  private void line(Operator op, int depth, StringBuilder sb) {
    if (SKIPPED.contains(op.type()) && op.children().size() == 1) {
      line(op.children().get(0), depth, sb);
      return;
    }
    sb.append("  ".repeat(depth)).append(op.type());
    List<String> details = new ArrayList<>();
    for (Map.Entry<String, String> e : op.info().entrySet()) {
      String k = e.getKey();
      if (k.equals("Projections") || k.equals("Type") && e.getValue().equals("Sequential Scan")) {
        continue;
      }
      String v = e.getValue();
      if (v.length() > 160) {
        v = v.substring(0, 157) + "...";
      }
      details.add(k.toLowerCase(Locale.ROOT).replace(' ', '_') + "=" + v);
    }
    if (!details.isEmpty()) {
      sb.append(" [").append(String.join("; ", details)).append(']');
    }
    if (op.rows() >= 0) {
      sb.append(String.format(Locale.ROOT, " rows=%,d", op.rows()));
    }
    if (op.estimated() >= 0) {
      sb.append(String.format(Locale.ROOT, " est=%,d", op.estimated()));
    }
    if (op.scanned() >= 0) {
      sb.append(String.format(Locale.ROOT, " scanned=%,d", op.scanned()));
    }
    if (analyzed && op.seconds() >= 0) {
      sb.append(String.format(Locale.ROOT, " time=%.2fms", op.seconds() * 1000));
    }
    for (String note : notes(op)) {
      sb.append("  <-- ").append(note);
    }
    sb.append('\n');
    for (Operator c : op.children()) {
      line(c, depth + 1, sb);
    }
  }
}
