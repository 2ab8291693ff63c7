package dev.lakerewrite.eval.tpc;

import dev.lakerewrite.core.Engine;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Where generated rows go: DuckDB's appender, or PostgreSQL's {@code COPY ... FROM STDIN} in CSV (streamed through
 * the driver's CopyManager, or staged in a file when another COPY holds the connection). Values are {@link Long},
 * {@link Integer}, {@link BigDecimal}, {@link LocalDate}, {@link String} or null.
 */
abstract class RowSink implements AutoCloseable {
  abstract void row(@Nullable Object[] values) throws SQLException;

  @Override
  public abstract void close() throws SQLException;

  /** A sink into an existing table; {@code staged} for PostgreSQL when a second COPY would overlap the first. */
  static RowSink open(Connection c, Engine engine, String table, boolean staged) throws SQLException {
    return switch (engine) {
      case DUCKDB -> new DuckDbSink(c.unwrap(DuckDBConnection.class).createAppender("main", table));
      case POSTGRESQL -> staged ? new StagedCopySink(c, table) : new CopySink(c, table);
    };
  }

  private static final class DuckDbSink extends RowSink {
    private final DuckDBAppender appender;

    DuckDbSink(DuckDBAppender appender) {
      this.appender = appender;
    }

    @Override
    void row(@Nullable Object[] values) throws SQLException {
      appender.beginRow();
      for (Object v : values) {
        if (v == null) {
          appender.appendNull();
        } else if (v instanceof Long l) {
          appender.append(l.longValue());
        } else if (v instanceof Integer i) {
          appender.append(i.intValue());
        } else if (v instanceof BigDecimal d) {
          appender.append(d);
        } else if (v instanceof LocalDate d) {
          appender.appendEpochDays((int) d.toEpochDay());
        } else {
          appender.append(v.toString());
        }
      }
      appender.endRow();
    }

    @Override
    public void close() throws SQLException {
      appender.close();
    }
  }

  /** One CSV line per row: NULL is an unquoted empty field, every text is quoted (so '' stays ''). */
  static void csv(@Nullable Object[] values, StringBuilder out) {
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      Object v = values[i];
      if (v == null) {
        continue;
      }
      if (v instanceof String s) {
        out.append('"').append(s.replace("\"", "\"\"")).append('"');
      } else if (v instanceof BigDecimal d) {
        out.append(d.toPlainString());
      } else {
        out.append(v);
      }
    }
    out.append('\n');
  }

  static String copySql(String table) {
    return "COPY " + table + " FROM STDIN (FORMAT csv)";
  }

  private static final class CopySink extends RowSink {
    private static final int FLUSH_CHARS = 1 << 20;
    private final CopyIn copy;
    private final StringBuilder buffer = new StringBuilder(FLUSH_CHARS + 4096);

    CopySink(Connection c, String table) throws SQLException {
      this.copy = c.unwrap(PGConnection.class).getCopyAPI().copyIn(copySql(table));
    }

    @Override
    void row(@Nullable Object[] values) throws SQLException {
      csv(values, buffer);
      if (buffer.length() >= FLUSH_CHARS) {
        flush();
      }
    }

    private void flush() throws SQLException {
      byte[] bytes = buffer.toString().getBytes(StandardCharsets.UTF_8);
      copy.writeToCopy(bytes, 0, bytes.length);
      buffer.setLength(0);
    }

    @Override
    public void close() throws SQLException {
      try {
        flush();
        copy.endCopy();
      } finally {
        if (copy.isActive()) {
          copy.cancelCopy();
        }
      }
    }
  }

  private static final class StagedCopySink extends RowSink {
    private final Connection connection;
    private final String table;
    private final Path file;
    private final BufferedWriter writer;
    private final StringBuilder line = new StringBuilder();

    StagedCopySink(Connection c, String table) throws SQLException {
      this.connection = c;
      this.table = table;
      try {
        this.file = Files.createTempFile("lakerewrite-" + table, ".csv");
        this.writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new SQLException("cannot stage rows of " + table + ": " + e.getMessage(), e);
      }
    }

    @Override
    void row(@Nullable Object[] values) {
      line.setLength(0);
      csv(values, line);
      try {
        writer.append(line);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() throws SQLException {
      try {
        writer.close();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          connection.unwrap(PGConnection.class).getCopyAPI().copyIn(copySql(table), in);
        }
      } catch (IOException e) {
        throw new SQLException("cannot copy the staged rows of " + table + ": " + e.getMessage(), e);
      } finally {
        try {
          Files.deleteIfExists(file);
        } catch (IOException ignored) {
          // A temp file left behind is harmless.
        }
      }
    }
  }
}
