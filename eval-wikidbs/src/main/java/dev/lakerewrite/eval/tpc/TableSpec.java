package dev.lakerewrite.eval.tpc;

import dev.lakerewrite.core.Engine;
import java.util.List;

/** A benchmark table: its columns in generator order and its primary key. */
record TableSpec(String name, List<ColumnSpec> columns, List<String> primaryKey) {

  /** The kinds of value the generators produce. */
  enum Kind { BIGINT, INTEGER, DECIMAL, DATE, VARCHAR }

  /** One column; precision and scale only for decimals. */
  record ColumnSpec(String name, Kind kind, int precision, int scale) {
    String type(Engine engine) {
      return switch (kind) {
        case BIGINT -> "BIGINT";
        case INTEGER -> "INTEGER";
        case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
        case DATE -> "DATE";
        case VARCHAR -> "VARCHAR";
      };
    }
  }

  /** {@code CREATE TABLE} for this engine; the primary key inline when {@code withKey}. */
  String createTable(Engine engine, boolean withKey) {
    StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(name).append(" (");
    for (int i = 0; i < columns.size(); i++) {
      ColumnSpec c = columns.get(i);
      ddl.append(i == 0 ? "" : ", ").append(c.name()).append(' ').append(c.type(engine));
      if (primaryKey.contains(c.name())) {
        ddl.append(" NOT NULL");
      }
    }
    if (withKey) {
      ddl.append(", PRIMARY KEY (").append(String.join(", ", primaryKey)).append(')');
    }
    return ddl.append(')').toString();
  }

  String addPrimaryKey() {
    return "ALTER TABLE " + name + " ADD PRIMARY KEY (" + String.join(", ", primaryKey) + ")";
  }
}
