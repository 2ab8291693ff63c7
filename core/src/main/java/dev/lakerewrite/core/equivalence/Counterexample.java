package dev.lakerewrite.core.equivalence;

import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.sql.Sql;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A database on which two queries return different results: its tables as {@code CREATE TABLE} statements (with
 * the schema's keys and foreign keys), its rows as {@code INSERT} statements, as few as delta debugging could
 * leave, and what each query returns on it. Run {@link #script()} in an empty database, then both queries, to
 * see the difference.
 */
public final class Counterexample {
  private final String instance;
  private final List<String> createStatements;
  private final Map<String, List<List<String>>> rows;
  private final List<String> insertStatements;
  private final ResultTable leftResult;
  private final ResultTable rightResult;
  private final @Nullable String rightFailure;
  private final String difference;
  private final int rowsBeforeMinimising;

  Counterexample(String instance, Database db, ResultTable leftResult, ResultTable rightResult,
      @Nullable String rightFailure, String difference, int rowsBeforeMinimising) {
    this.instance = Objects.requireNonNull(instance, "instance");
    List<String> creates = new ArrayList<>();
    List<String> inserts = new ArrayList<>();
    Map<String, List<List<String>>> data = new LinkedHashMap<>();
    for (Schema.Table t : db.tables()) {
      creates.add(t.createStatement(true));
      List<List<String>> r = db.rows(t);
      data.put(t.name(), r);
      if (!r.isEmpty()) {
        inserts.add(insert(t, r));
      }
    }
    this.createStatements = List.copyOf(creates);
    this.insertStatements = List.copyOf(inserts);
    this.rows = Collections.unmodifiableMap(data);
    this.leftResult = Objects.requireNonNull(leftResult, "leftResult");
    this.rightResult = Objects.requireNonNull(rightResult, "rightResult");
    this.rightFailure = rightFailure;
    this.difference = Objects.requireNonNull(difference, "difference");
    this.rowsBeforeMinimising = rowsBeforeMinimising;
  }

  /** {@code INSERT INTO t VALUES (...), ...} with literals any SQL engine reads (strings cast implicitly). */
  static String insert(Schema.Table t, List<List<String>> rows) {
    StringBuilder sb = new StringBuilder("INSERT INTO ").append(Sql.identifier(t.name())).append(" VALUES");
    for (int r = 0; r < rows.size(); r++) {
      sb.append(r == 0 ? "\n  (" : ",\n  (");
      for (int c = 0; c < t.columns().size(); c++) {
        sb.append(c == 0 ? "" : ", ").append(literal(rows.get(r).get(c), ValueType.of(t.columns().get(c).valueType())));
      }
      sb.append(')');
    }
    return sb.toString();
  }

  static String literal(String value, ValueType type) {
    if (value == null) {
      return "NULL";
    }
    switch (type.family()) {
      case INTEGER, DECIMAL, FLOAT -> {
        try {
          new BigDecimal(value.strip());
          return value.strip();
        } catch (NumberFormatException e) {
          return Sql.literal(value);
        }
      }
      case BOOLEAN -> {
        String v = value.strip().toLowerCase(Locale.ROOT);
        return v.equals("true") || v.equals("false") ? v.toUpperCase(Locale.ROOT) : Sql.literal(value);
      }
      default -> {
        return Sql.literal(value);
      }
    }
  }

  /** Which generated instance it was minimised from, e.g. {@code generated #5 (random, ...)}. */
  public String instance() {
    return instance;
  }

  /** {@code CREATE TABLE} statements, referenced tables first. */
  public List<String> createStatements() {
    return createStatements;
  }

  /** {@code INSERT} statements, one per non-empty table. */
  public List<String> insertStatements() {
    return insertStatements;
  }

  /** The whole database as one script: the CREATE TABLE and INSERT statements, each ending in a semicolon. */
  public String script() {
    StringBuilder sb = new StringBuilder();
    for (String s : createStatements) {
      sb.append(s).append(";\n");
    }
    for (String s : insertStatements) {
      sb.append(s).append(";\n");
    }
    return sb.toString();
  }

  /** The rows per table, each cell as text (null for NULL). */
  public Map<String, List<List<@Nullable String>>> rows() {
    return rows;
  }

  /** How many rows the database holds. */
  public int rowCount() {
    return rows.values().stream().mapToInt(List::size).sum();
  }

  /** How many rows the instance held before delta debugging shrank it. */
  public int rowsBeforeMinimising() {
    return rowsBeforeMinimising;
  }

  /** What the left query returns on this database. */
  public ResultTable leftResult() {
    return leftResult;
  }

  /** What the right query returns on this database. */
  public ResultTable rightResult() {
    return rightResult;
  }

  /**
   * The error the right query fails with on this database, where the left one answers (a scalar subquery that
   * returns two rows, a value that does not convert): then {@link #rightResult()} is empty.
   */
  public java.util.Optional<String> rightFailure() {
    return java.util.Optional.ofNullable(rightFailure);
  }

  /** How the results differ, in one line. */
  public String difference() {
    return difference;
  }

  @Override
  public String toString() {
    return "-- " + difference + "\n" + script() + "-- left returns:\n" + leftResult.preview(20)
        + (rightFailure != null ? "\n-- right fails: " + rightFailure
            : "\n-- right returns:\n" + rightResult.preview(20));
  }
}
