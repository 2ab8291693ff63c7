package dev.lakerewrite.core;

import dev.lakerewrite.joingraph.ColumnSource;
import dev.lakerewrite.joingraph.ColumnValues;
import dev.lakerewrite.joingraph.JoinGraphException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * The join graph's view of the lake when indexing: each table it reads is scanned once ({@link TableScan}), the
 * scan handed to {@code alsoFeeds} (profiles, the retrieval index) and its values to the graph. Tables are read on
 * the given connections, one table per connection at a time.
 */
final class ScanColumnSource implements ColumnSource {
  private final List<Table> tables;
  private final java.util.Map<String, CatalogTable> byName = new java.util.HashMap<>();
  private final BlockingQueue<Connection> free;
  private final int parallelism;
  private final long maxRows;
  private final int maxValues;
  private final Consumer<TableScan.Result> alsoFeeds;

  ScanColumnSource(List<CatalogTable> catalog, List<Connection> connections, long maxRows, int maxValues,
      Consumer<TableScan.Result> alsoFeeds) {
    List<Table> out = new ArrayList<>();
    for (CatalogTable t : catalog) {
      List<Column> cols = t.columns().stream().map(c -> new Column(c.name(), c.type())).toList();
      out.add(new Table(t.name(), "main", t.name(), cols));
      byName.put(t.name(), t);
    }
    this.tables = List.copyOf(out);
    this.free = new LinkedBlockingQueue<>(connections);
    this.parallelism = connections.size();
    this.maxRows = maxRows;
    this.maxValues = maxValues;
    this.alsoFeeds = alsoFeeds;
  }

  @Override
  public List<Table> tables() {
    return tables;
  }

  @Override
  public int parallelism() {
    return parallelism;
  }

  @Override
  public void readColumns(Table table, Consumer<ColumnValues> sink) {
    TableScan.Result scan = scan(table.name());
    for (TableScan.Column c : scan.columns()) {
      sink.accept(new ColumnValues(c.name(), c.type(), c.nonNull(), c.values()));
    }
  }

  /** Scans a table on a free connection and feeds the scan to the other consumers. */
  TableScan.Result scan(String table) {
    Connection c;
    try {
      c = free.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LakeRewriteException("interrupted while reading table " + table, e);
    }
    TableScan.Result scan;
    try {
      scan = TableScan.scan(c, byName.get(table), maxRows, maxValues);
    } catch (SQLException e) {
      throw new JoinGraphException(JoinGraphException.Reason.READ_LAKE,
          "cannot read the values of table " + table + ": " + e.getMessage(), e);
    } finally {
      free.add(c);
    }
    alsoFeeds.accept(scan);
    return scan;
  }
}
