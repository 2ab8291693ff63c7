package dev.lakerewrite.joingraph;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where the join graph reads a lake's tables and column values from. {@link #fromConnection} reads a DuckDB lake
 * with its own trusted SQL; tests and benchmarks feed values directly ({@link #inMemory} or their own
 * implementation), so the value/sketch stage never depends on SQL.
 */
public interface ColumnSource {

  /** A column as the source declares it. */
  record Column(String name, String sqlType) {
    public Column {
      Objects.requireNonNull(name, "name");
    }
  }

  /**
   * A table: {@code name} is how the graph calls it; {@code schema} and {@code relation} are where SQL finds it.
   */
  record Table(String name, String schema, String relation, List<Column> columns) {
    public Table {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(schema, "schema");
      Objects.requireNonNull(relation, "relation");
      columns = List.copyOf(columns);
    }
  }

  /** The tables of the lake in a stable order, names unique. */
  List<Table> tables();

  /**
   * How many tables the source can read at once: with more than one, the builder calls {@link #readColumns} from
   * that many threads, each for a different table. Default 1.
   */
  default int parallelism() {
    return 1;
  }

  /**
   * Hands the values of every column of {@code table} to {@code sink}, in column order. The builder calls it from
   * one thread, table after table (or from {@link #parallelism()} threads, one table each), and iterates each
   * column's {@link ColumnValues#values()} once, later, on one of its worker threads: values may be materialised
   * (as the SQL source does, since a connection serves one thread) or generated lazily.
   *
   * @throws JoinGraphException when the values cannot be read
   */
  void readColumns(Table table, Consumer<ColumnValues> sink);

  /**
   * Reads the tables and views of the connection's current database from {@code duckdb_columns()} (temporary ones
   * excluded) and their distinct values, at most {@code maxScannedValues} per column; a table with more rows than
   * that is read from a reservoir sample of that many rows. The connection may be read-only and sandboxed; it is
   * not closed.
   */
  static ColumnSource fromConnection(Connection connection, int maxScannedValues) {
    return new SqlColumnSource(List.of(connection), maxScannedValues);
  }

  /**
   * {@link #fromConnection} over several connections to the same lake, reading as many tables at once. The
   * connections are not closed.
   */
  static ColumnSource fromConnections(List<Connection> connections, int maxScannedValues) {
    return new SqlColumnSource(connections, maxScannedValues);
  }

  /**
   * A lake held in memory: table name → column name → cells (nulls allowed), all of type VARCHAR, in the maps'
   * iteration order.
   */
  static ColumnSource inMemory(Map<String, ? extends Map<String, ? extends List<String>>> tables) {
    Map<String, Map<String, List<String>>> copy = new LinkedHashMap<>();
    List<Table> schema = new ArrayList<>();
    tables.forEach((table, columns) -> {
      Map<String, List<String>> cols = new LinkedHashMap<>();
      List<Column> declared = new ArrayList<>();
      columns.forEach((column, cells) -> {
        cols.put(column, new ArrayList<>(cells));
        declared.add(new Column(column, "VARCHAR"));
      });
      copy.put(table, cols);
      schema.add(new Table(table, "main", table, declared));
    });
    List<Table> frozen = List.copyOf(schema);
    return new ColumnSource() {
      @Override
      public List<Table> tables() {
        return frozen;
      }

      @Override
      public void readColumns(Table table, Consumer<ColumnValues> sink) {
        Map<String, List<String>> cols = copy.get(table.name());
        if (cols == null) {
          throw new IllegalArgumentException("no table " + table.name() + " in this in-memory lake");
        }
        cols.forEach((column, cells) -> sink.accept(ColumnValues.ofCells(column, "VARCHAR", cells)));
      }
    };
  }
}
