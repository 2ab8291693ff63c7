package dev.lakerewrite.core;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Objects;

/**
 * The SQL engines lakerewrite targets: embedded DuckDB (lakes, the default) and PostgreSQL (the optimizer and the
 * equivalence checker also run on a real server). Detected from a JDBC connection's metadata.
 */
public enum Engine {
  DUCKDB("DuckDB"),
  POSTGRESQL("PostgreSQL");

  private final String displayName;

  Engine(String displayName) {
    this.displayName = displayName;
  }

  /** The engine's usual name, for messages and reports. */
  public String displayName() {
    return displayName;
  }

  /**
   * The engine behind this connection.
   *
   * @throws IllegalArgumentException when the connection is to another database product
   * @throws SQLException when its metadata cannot be read (e.g. it is closed)
   */
  public static Engine of(Connection connection) throws SQLException {
    Objects.requireNonNull(connection, "connection");
    String product = connection.getMetaData().getDatabaseProductName();
    String p = product == null ? "" : product.toLowerCase(Locale.ROOT);
    if (p.contains("duckdb")) {
      return DUCKDB;
    }
    if (p.contains("postgresql")) {
      return POSTGRESQL;
    }
    throw new IllegalArgumentException("unsupported database '" + product + "': lakerewrite runs on DuckDB and "
        + "PostgreSQL");
  }
}
