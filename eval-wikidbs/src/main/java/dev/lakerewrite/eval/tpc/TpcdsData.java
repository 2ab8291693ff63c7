package dev.lakerewrite.eval.tpc;

import dev.lakerewrite.core.Engine;
import dev.lakerewrite.eval.tpc.TableSpec.ColumnSpec;
import dev.lakerewrite.eval.tpc.TableSpec.Kind;
import io.trino.tpcds.Results;
import io.trino.tpcds.Session;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * TPC-DS data from {@code io.trino.tpcds} (dsdgen ported to Java): the 24 tables of the spec (not
 * {@code dbgen_version}), CHAR columns as VARCHAR, dsdgen's NULLs as NULL, the spec's primary keys (the surrogate
 * key of each dimension; item and ticket/order number for sales and returns). A sales table and its returns table
 * are generated in one pass, as dsdgen does. Linear in the number of rows (about 19 million at scale factor 1).
 */
final class TpcdsData {
  private static final Map<String, List<String>> FACT_KEYS = Map.of(
      "store_sales", List.of("ss_item_sk", "ss_ticket_number"),
      "store_returns", List.of("sr_item_sk", "sr_ticket_number"),
      "catalog_sales", List.of("cs_item_sk", "cs_order_number"),
      "catalog_returns", List.of("cr_item_sk", "cr_order_number"),
      "web_sales", List.of("ws_item_sk", "ws_order_number"),
      "web_returns", List.of("wr_item_sk", "wr_order_number"),
      "inventory", List.of("inv_date_sk", "inv_item_sk", "inv_warehouse_sk"));

  private TpcdsData() {}

  private static List<Table> generated() {
    return Table.getBaseTables().stream().filter(t -> t != Table.DBGEN_VERSION).toList();
  }

  static List<TableSpec> tables() {
    List<TableSpec> out = new ArrayList<>();
    for (Table t : generated()) {
      out.add(spec(t));
    }
    return out;
  }

  private static TableSpec spec(Table t) {
    List<ColumnSpec> columns = new ArrayList<>();
    for (Column c : t.getColumns()) {
      columns.add(switch (c.getType().getBase()) {
        case IDENTIFIER -> new ColumnSpec(c.getName(), Kind.BIGINT, 0, 0);
        case INTEGER -> new ColumnSpec(c.getName(), Kind.INTEGER, 0, 0);
        case DATE -> new ColumnSpec(c.getName(), Kind.DATE, 0, 0);
        case DECIMAL -> new ColumnSpec(c.getName(), Kind.DECIMAL, c.getType().getPrecision().orElse(7),
            c.getType().getScale().orElse(2));
        case VARCHAR, CHAR, TIME -> new ColumnSpec(c.getName(), Kind.VARCHAR, 0, 0);
      });
    }
    List<String> key = FACT_KEYS.getOrDefault(t.getName(), List.of(columns.get(0).name()));
    return new TableSpec(t.getName(), columns, key);
  }

  static void generate(Connection c, Engine engine, double scaleFactor) throws SQLException {
    Session session = Session.getDefaultSession().withScale(scaleFactor);
    for (Table t : generated()) {
      if (t.isChild()) {
        continue;
      }
      TableSpec parent = spec(t);
      TableSpec child = t.hasChild() ? spec(t.getChild()) : null;
      // Resources close in reverse order: the parent's COPY ends before the staged child rows are copied.
      try (RowSink childSink = child == null ? null : RowSink.open(c, engine, child.name(), true);
           RowSink parentSink = RowSink.open(c, engine, parent.name(), false)) {
        for (List<List<String>> rows : Results.constructResults(t, session)) {
          parentSink.row(values(parent, rows.get(0)));
          if (rows.size() > 1 && childSink != null) {
            childSink.row(values(child, rows.get(1)));
          }
        }
      }
    }
  }

  private static @Nullable Object[] values(TableSpec spec, List<@Nullable String> raw) {
    Object[] out = new Object[spec.columns().size()];
    for (int i = 0; i < out.length; i++) {
      String v = raw.get(i);
      if (v == null) {
        continue;
      }
      ColumnSpec col = spec.columns().get(i);
      out[i] = switch (col.kind()) {
        case BIGINT -> Long.parseLong(v);
        case INTEGER -> Integer.parseInt(v);
        case DECIMAL -> new BigDecimal(v).setScale(col.scale(), java.math.RoundingMode.HALF_UP);
        case DATE -> LocalDate.parse(v);
        case VARCHAR -> v;
      };
    }
    return out;
  }
}
