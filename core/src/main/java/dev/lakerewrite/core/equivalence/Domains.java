package dev.lakerewrite.core.equivalence;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The small pool of values each column's cells are drawn from. Columns the queries compare with each other share
 * one pool (so joins match, and miss, and groups collide); each pool holds the constants the queries compare its
 * columns with and the values just either side of them (boundaries: {@code <} against {@code <=},
 * {@code BETWEEN}'s ends), strings a LIKE pattern does and does not match, dates inside and around a year, a few
 * real values when the database has data, and a few ordinary defaults. Pools stay small on purpose (about a
 * dozen values): bounded verifiers such as VeriEQL find most counterexamples on small domains.
 *
 * <p>Values are normalised by DuckDB ({@code CAST(TRY_CAST(v AS type) AS VARCHAR)}), so a pool holds only values
 * of its column's type, each written once.
 */
final class Domains {
  private static final int POOL_CAP = 14;

  private final Map<QueryFacts.ColumnKey, List<String>> values;
  private final Map<QueryFacts.ColumnKey, List<String>> satisfying;
  private final Map<QueryFacts.ColumnKey, Boolean> nullable;
  private final List<@Nullable Atom> atoms;

  /**
   * One comparison of a column with a constant, the constant evaluated in the column's type: {@code column
   * operator value} ({@code =, <>, <, <=, >, >=, IN, NOT IN, LIKE, NOT LIKE}, or {@code ?}).
   */
  record Atom(QueryFacts.ColumnKey column, QueryFacts.Relation relation, String operator, String value) {}

  private Domains(Map<QueryFacts.ColumnKey, List<String>> values, Map<QueryFacts.ColumnKey, List<String>> satisfying,
      Map<QueryFacts.ColumnKey, Boolean> nullable, List<@Nullable Atom> atoms) {
    this.values = values;
    this.satisfying = satisfying;
    this.nullable = nullable;
    this.atoms = atoms;
  }

  /** The queries' constants as atoms, in the order of {@link QueryFacts#constants()} (null where not evaluated). */
  List<@Nullable Atom> atoms() {
    return atoms;
  }

  /**
   * Values of the pool that satisfy a predicate the queries put on the column itself ({@code x = 5}: 5;
   * {@code x < 5}: 4; a string a LIKE pattern matches): drawing them often makes rows pass the filters, so that
   * queries with many conjuncts return rows at all.
   */
  List<String> satisfying(QueryFacts.ColumnKey column) {
    return satisfying.getOrDefault(column, List.of());
  }

  /** The non-NULL values a column's cells are drawn from (may be empty for types without defaults). */
  List<String> values(QueryFacts.ColumnKey column) {
    return values.getOrDefault(column, List.of());
  }

  boolean nullable(QueryFacts.ColumnKey column) {
    return nullable.getOrDefault(column, true);
  }

  /**
   * Builds the pools of every column of these tables.
   *
   * @param duckdb a scratch DuckDB connection the library owns (constants are evaluated and values cast there)
   * @param real a few real values per column (empty without data)
   */
  static Domains build(QueryFacts facts, List<Schema.Table> tables, Connection duckdb,
      Map<QueryFacts.ColumnKey, List<String>> real) throws SQLException {
    SqlParser parser = SqlParser.on(duckdb);
    Map<QueryFacts.ColumnKey, LinkedHashSet<String>> byClass = new HashMap<>();
    Map<QueryFacts.ColumnKey, LinkedHashSet<String>> passing = new HashMap<>();
    List<QueryFacts.Constant> constants = facts.constants();
    List<String> evaluated = evaluate(duckdb, parser, facts, constants);
    List<@Nullable Atom> atoms = new ArrayList<>();
    for (int i = 0; i < constants.size(); i++) {
      String v = evaluated.get(i);
      QueryFacts.Constant c = constants.get(i);
      Optional<ValueType> type = facts.typeOf(c.column());
      if (v == null || type.isEmpty()) {
        atoms.add(null);
        continue;
      }
      atoms.add(new Atom(c.column(), c.relation(), c.operator(), v));
      LinkedHashSet<String> pool = byClass.computeIfAbsent(facts.classOf(c.column()), k -> new LinkedHashSet<>());
      ValueType t = type.get();
      List<String> pass = passingValues(c, v, t);
      passing.computeIfAbsent(c.column(), k -> new LinkedHashSet<>()).addAll(pass);
      pool.addAll(pass);
      switch (c.relation()) {
        case COMPARE -> {
          pool.add(v);
          pool.addAll(t.neighbours(v));
        }
        case LIKE -> pool.addAll(ValueType.likeExamples(v));
        case FUNCTION -> {
          if (t.family() == ValueType.Family.STRING) {
            pool.add(v);
            pool.add(v + "0");
            pool.add(v.toLowerCase(Locale.ROOT));
            pool.add(v.toUpperCase(Locale.ROOT));
            pool.addAll(ValueType.likeExamples("%" + v + "%"));
          } else {
            pool.add(v);
            pool.addAll(t.neighbours(v));
          }
        }
        case YEAR -> {
          try {
            pool.addAll(t.yearValues((int) Double.parseDouble(v)));
          } catch (NumberFormatException ignored) {
            // Not a year after all.
          }
        }
        case ARITHMETIC -> {
          // Only the value that does not vanish (below), among the passing ones.
        }
      }
    }
    Map<QueryFacts.ColumnKey, List<String>> candidates = new LinkedHashMap<>();
    Map<QueryFacts.ColumnKey, Boolean> nullable = new HashMap<>();
    Map<QueryFacts.ColumnKey, String> types = new LinkedHashMap<>();
    for (Schema.Table t : tables) {
      for (Schema.Column col : t.columns()) {
        QueryFacts.ColumnKey key = QueryFacts.ColumnKey.of(t.name(), col.name());
        ValueType type = ValueType.of(col.valueType());
        LinkedHashSet<String> pool = new LinkedHashSet<>(byClass.getOrDefault(facts.classOf(key), new LinkedHashSet<>()));
        pool.addAll(real.getOrDefault(key, List.of()));
        List<String> defaults = type.defaults();
        int wanted = pool.isEmpty() ? 3 : 2;
        for (int d = 0; d < defaults.size() && wanted > 0; d++) {
          if (pool.add(defaults.get(d))) {
            wanted--;
          }
        }
        candidates.put(key, new ArrayList<>(pool));
        nullable.put(key, col.nullable());
        types.put(key, col.valueType());
      }
    }
    Map<QueryFacts.ColumnKey, List<String>> passingCandidates = new LinkedHashMap<>();
    Map<QueryFacts.ColumnKey, String> passingTypes = new LinkedHashMap<>();
    passing.forEach((k, v) -> {
      if (types.containsKey(k)) {
        passingCandidates.put(k, new ArrayList<>(v));
        passingTypes.put(k, types.get(k));
      }
    });
    return new Domains(normalise(duckdb, candidates, types), normalise(duckdb, passingCandidates, passingTypes),
        nullable, atoms);
  }

  /** The values that make the column satisfy this comparison with the constant {@code v}. */
  private static List<String> passingValues(QueryFacts.Constant c, String v, ValueType t) {
    List<String> around = t.neighbours(v);
    String below = around.size() == 2 ? around.get(0) : null;
    String above = around.size() == 2 ? around.get(1) : around.isEmpty() ? null : around.get(0);
    List<String> out = new ArrayList<>();
    switch (c.relation()) {
      case COMPARE -> {
        switch (c.operator()) {
          case "<" -> out.add(below);
          case "<=" -> out.add(v);
          case ">" -> out.add(above);
          case ">=" -> out.add(v);
          case "<>", "NOT IN" -> out.add(above);
          default -> out.add(v);
        }
      }
      case LIKE -> {
        List<String> examples = ValueType.likeExamples(v);
        if (c.operator().equals("NOT LIKE")) {
          out.add(examples.get(examples.size() - 1));
        } else {
          out.addAll(examples.subList(0, Math.max(1, examples.size() - 1)));
        }
      }
      case FUNCTION -> {
        out.add(v);
        if (t.family() == ValueType.Family.STRING) {
          out.add(v + "0");
        }
      }
      case ARITHMETIC -> out.add(below != null ? below : above);
      case YEAR -> {
        try {
          out.addAll(t.yearValues((int) Double.parseDouble(v)).subList(0, 2));
        } catch (NumberFormatException | IndexOutOfBoundsException ignored) {
          // Not a year after all.
        }
      }
    }
    out.removeIf(java.util.Objects::isNull);
    return out;
  }

  /** Each constant as text in the type its column is compared in, or null when it does not evaluate. */
  private static List<String> evaluate(Connection duckdb, SqlParser parser, QueryFacts facts,
      List<QueryFacts.Constant> constants) {
    List<String> expressions = new ArrayList<>();
    for (QueryFacts.Constant c : constants) {
      String text;
      try {
        text = parser.renderExpression(withoutAlias(c.expression()));
      } catch (RuntimeException e) {
        expressions.add(null);
        continue;
      }
      String type = switch (c.relation()) {
        case LIKE -> "VARCHAR";
        case YEAR -> "BIGINT";
        case FUNCTION -> facts.typeOf(c.column()).filter(t -> t.family() != ValueType.Family.STRING)
            .map(ValueType::type).orElse("VARCHAR");
        case COMPARE, ARITHMETIC -> facts.typeOf(c.column()).map(ValueType::type).orElse("VARCHAR");
      };
      expressions.add("CAST(TRY_CAST((" + text + ") AS " + type + ") AS VARCHAR)");
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < expressions.size(); i++) {
      out.add(null);
    }
    if (expressions.stream().allMatch(java.util.Objects::isNull)) {
      return out;
    }
    // All at once; one by one if that fails (a constant DuckDB cannot evaluate alone leaves only itself out).
    StringBuilder all = new StringBuilder("SELECT ");
    int n = 0;
    for (String e : expressions) {
      all.append(n++ == 0 ? "" : ", ").append(e == null ? "NULL" : e);
    }
    try {
      List<String> row = single(duckdb, all.toString());
      for (int i = 0; i < row.size(); i++) {
        out.set(i, row.get(i));
      }
      return out;
    } catch (SQLException e) {
      for (int i = 0; i < expressions.size(); i++) {
        if (expressions.get(i) != null) {
          try {
            out.set(i, single(duckdb, "SELECT " + expressions.get(i)).get(0));
          } catch (SQLException ignored) {
            // Left out.
          }
        }
      }
      return out;
    }
  }

  private static JsonNode withoutAlias(JsonNode e) {
    com.fasterxml.jackson.databind.node.ObjectNode copy = (com.fasterxml.jackson.databind.node.ObjectNode) e.deepCopy();
    copy.put("alias", "");
    return copy;
  }

  private static List<String> single(Connection c, String sql) throws SQLException {
    List<List<String>> rows = EngineAnswers.rows(c, sql);
    return rows.isEmpty() ? new ArrayList<>() : new ArrayList<>(rows.get(0));
  }

  /** The candidates cast to their column types (those that do not cast dropped, duplicates merged), capped. */
  private static Map<QueryFacts.ColumnKey, List<String>> normalise(Connection duckdb,
      Map<QueryFacts.ColumnKey, List<String>> candidates, Map<QueryFacts.ColumnKey, String> types)
      throws SQLException {
    Map<QueryFacts.ColumnKey, List<String>> out = new HashMap<>();
    List<QueryFacts.ColumnKey> keys = new ArrayList<>();
    StringBuilder sql = new StringBuilder();
    for (Map.Entry<QueryFacts.ColumnKey, List<String>> e : candidates.entrySet()) {
      out.put(e.getKey(), new ArrayList<>());
      if (e.getValue().isEmpty()) {
        continue;
      }
      int id = keys.size();
      keys.add(e.getKey());
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < e.getValue().size(); i++) {
        values.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(Sql.literal(e.getValue().get(i)))
            .append(')');
      }
      sql.append(sql.length() == 0 ? "" : "\nUNION ALL ").append("SELECT ").append(id).append(" AS k, i, CAST(TRY_CAST(v AS ")
          .append(types.get(e.getKey())).append(") AS VARCHAR) AS v FROM (VALUES ").append(values).append(") AS x(i, v)");
    }
    if (keys.isEmpty()) {
      return out;
    }
    for (List<String> row : EngineAnswers.rows(duckdb, "SELECT k, v FROM (" + sql + ") WHERE v IS NOT NULL "
        + "ORDER BY k, i")) {
      List<String> pool = out.get(keys.get(Integer.parseInt(row.get(0))));
      String v = row.get(1);
      if (!pool.contains(v) && pool.size() < POOL_CAP) {
        pool.add(v);
      }
    }
    return out;
  }
}
