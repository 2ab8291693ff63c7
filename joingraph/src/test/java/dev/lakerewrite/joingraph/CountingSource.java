package dev.lakerewrite.joingraph;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** Counts the tables a build reads (to see whether a build read the lake at all). */
final class CountingSource implements ColumnSource {
  private final ColumnSource delegate;
  final AtomicInteger tablesRead = new AtomicInteger();

  CountingSource(ColumnSource delegate) {
    this.delegate = delegate;
  }

  @Override
  public List<Table> tables() {
    return delegate.tables();
  }

  @Override
  public void readColumns(Table table, Consumer<ColumnValues> sink) {
    tablesRead.incrementAndGet();
    delegate.readColumns(table, sink);
  }
}
