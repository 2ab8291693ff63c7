package dev.lakerewrite.retrieval;

import dev.lakerewrite.sql.Sql;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A table (or view) of the lake as the index saw it.
 *
 * @param name the id every search uses: the table name, prefixed with {@code schema.} outside schema {@code main}
 * @param schema the schema that holds it
 * @param table the table name verbatim
 * @param rowCount rows when the index was built
 * @param columns the columns in order
 */
public record LakeTable(String name, String schema, String table, long rowCount, List<LakeColumn> columns) {
  public LakeTable {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(table, "table");
    columns = List.copyOf(columns);
  }

  /** The table as SQL must write it: {@code "schema"."table"}. */
  public String sqlName() {
    return Sql.quoted(schema, table);
  }

  public List<String> columnNames() {
    List<String> out = new ArrayList<>(columns.size());
    for (LakeColumn c : columns) {
      out.add(c.name());
    }
    return out;
  }

  /** The column named exactly {@code name}. */
  public Optional<LakeColumn> column(String name) {
    for (LakeColumn c : columns) {
      if (c.name().equals(name)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** The schema snippet embedded for this table ({@link Snippets#table}). */
  public String snippet() {
    return Snippets.table(table, columnNames());
  }
}
