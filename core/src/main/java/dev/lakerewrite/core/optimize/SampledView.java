package dev.lakerewrite.core.optimize;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A smaller instance of a PostgreSQL database without writing anything: every query is prefixed with CTEs that
 * shadow the large tables it reads by a deterministic sample of their rows ({@code key % m = 0} on the first
 * primary-key column, so related tables keyed alike keep matching rows). PostgreSQL resolves a table name to a
 * same-named CTE, and a non-recursive CTE's body sees the real table. The original and every candidate see the
 * same sample, so two equivalent queries agree on it; an original that runs for minutes on the whole database
 * finishes on it. Linear in the number of tables read.
 */
final class SampledView implements UnaryOperator<String> {
  private static final Set<String> INTEGER_TYPES = Set.of("INTEGER", "BIGINT", "SMALLINT", "INT", "INT4", "INT8",
      "INT2", "HUGEINT");
  private static final Pattern LEADING_WITH = Pattern.compile("(?is)^\\s*WITH\\s+(RECURSIVE\\s+)?");

  private final String ctes;
  private final String description;

  private SampledView(String ctes, String description) {
    this.ctes = ctes;
    this.description = description;
  }

  /**
   * A view sampling each of {@code tables} with more than {@code 2 * maxRows} estimated rows down to about
   * {@code maxRows}; empty when none is that large (or none has an integer key to sample on).
   */
  static Optional<SampledView> of(Catalog catalog, String schema, List<String> tables, long maxRows) {
    List<String> parts = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (String name : new java.util.LinkedHashSet<>(tables)) {
      Catalog.Table t = catalog.table(name).orElse(null);
      if (t == null || t.estimatedRows() <= 2 * maxRows || t.primaryKey().isEmpty()) {
        continue;
      }
      String key = t.primaryKey().get(0);
      String type = t.column(key).map(Catalog.Column::type).orElse("").toUpperCase(Locale.ROOT);
      if (!INTEGER_TYPES.contains(type)) {
        continue;
      }
      long modulus = (t.estimatedRows() + maxRows - 1) / maxRows;
      // MATERIALIZED: computed once; inlined, a correlated subplan would still read the whole table per loop.
      parts.add(quote(t.name()) + " AS MATERIALIZED (SELECT * FROM " + quote(schema) + "." + quote(t.name()) + " WHERE "
          + quote(key) + " % " + modulus + " = 0)");
      notes.add(t.name() + " 1/" + modulus + " by " + key);
    }
    if (parts.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SampledView(String.join(", ", parts), String.join(", ", notes)));
  }

  private static String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  /** Which tables are sampled and how. */
  String description() {
    return description;
  }

  @Override
  public String apply(String sql) {
    Matcher m = LEADING_WITH.matcher(sql);
    if (m.find()) {
      String recursive = m.group(1) == null ? "" : "RECURSIVE ";
      return "WITH " + recursive + ctes + ",\n" + sql.substring(m.end());
    }
    return "WITH " + ctes + "\n" + sql.strip();
  }
}
