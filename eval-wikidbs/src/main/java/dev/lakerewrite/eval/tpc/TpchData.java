package dev.lakerewrite.eval.tpc;

import dev.lakerewrite.core.Engine;
import dev.lakerewrite.eval.tpc.TableSpec.ColumnSpec;
import dev.lakerewrite.eval.tpc.TableSpec.Kind;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * TPC-H data from {@code io.trino.tpch} (dbgen ported to Java): prices as DECIMAL(15,2) as in dbgen, the spec's
 * primary keys. Linear in the number of rows (about 8.7 million at scale factor 1).
 */
final class TpchData {
  private static final Map<String, List<String>> PRIMARY_KEYS = Map.of(
      "region", List.of("r_regionkey"), "nation", List.of("n_nationkey"), "part", List.of("p_partkey"),
      "supplier", List.of("s_suppkey"), "partsupp", List.of("ps_partkey", "ps_suppkey"),
      "customer", List.of("c_custkey"), "orders", List.of("o_orderkey"),
      "lineitem", List.of("l_orderkey", "l_linenumber"));

  private TpchData() {}

  static List<TableSpec> tables() {
    List<TableSpec> out = new ArrayList<>();
    for (TpchTable<?> t : TpchTable.getTables()) {
      out.add(spec(t));
    }
    return out;
  }

  private static TableSpec spec(TpchTable<?> t) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (TpchColumn<?> c : t.getColumns()) {
      columns.add(switch (c.getType().getBase()) {
        case IDENTIFIER -> new ColumnSpec(c.getColumnName(), Kind.BIGINT, 0, 0);
        case INTEGER -> new ColumnSpec(c.getColumnName(), Kind.INTEGER, 0, 0);
        case DATE -> new ColumnSpec(c.getColumnName(), Kind.DATE, 0, 0);
        case DOUBLE -> new ColumnSpec(c.getColumnName(), Kind.DECIMAL, 15, 2);
        case VARCHAR -> new ColumnSpec(c.getColumnName(), Kind.VARCHAR, 0, 0);
      });
    }
    return new TableSpec(t.getTableName(), columns, PRIMARY_KEYS.get(t.getTableName()));
  }

  static void generate(Connection c, Engine engine, double scaleFactor) throws SQLException {
    for (TpchTable<?> t : TpchTable.getTables()) {
      generate(c, engine, t, scaleFactor);
    }
  }

  private static <E extends TpchEntity> void generate(Connection c, Engine engine, TpchTable<E> table, double sf)
      throws SQLException {
    List<TpchColumn<E>> columns = table.getColumns();
    Object[] row = new Object[columns.size()];
    try (RowSink sink = RowSink.open(c, engine, table.getTableName(), false)) {
      for (E entity : table.createGenerator(sf, 1, 1)) {
        for (int i = 0; i < row.length; i++) {
          TpchColumn<E> col = columns.get(i);
          row[i] = switch (col.getType().getBase()) {
            case IDENTIFIER -> col.getIdentifier(entity);
            case INTEGER -> col.getInteger(entity);
            case DATE -> LocalDate.ofEpochDay(col.getDate(entity));
            case DOUBLE -> BigDecimal.valueOf(col.getDouble(entity)).setScale(2, RoundingMode.HALF_UP);
            case VARCHAR -> col.getString(entity);
          };
        }
        sink.row(row);
      }
    }
  }
}
