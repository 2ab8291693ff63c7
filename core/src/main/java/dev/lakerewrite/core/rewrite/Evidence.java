package dev.lakerewrite.core.rewrite;

import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.sql.Sql;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The typed evidence data-lake actions put into the scratchpad. The text the prompts show is rendered from it;
 * the offline agents reason over the records themselves.
 */
public final class Evidence {
  private Evidence() {}

  /**
   * A lake table with a few rows.
   *
   * @param table the lake table
   * @param columns all its columns with DuckDB types ({@code name TYPE})
   * @param preview its first rows
   * @param relevance why it is here and how strongly (retrieval score)
   * @param origin basic retrieval, SEARCH_TABLE, UNION_SEARCH, FIND_JOIN_PATH or the rewriter's own use
   */
  public record TablePreview(String table, List<String> columns, ResultTable preview, double relevance,
      String origin) {
    public TablePreview {
      Objects.requireNonNull(table, "table");
      columns = List.copyOf(columns);
      Objects.requireNonNull(preview, "preview");
      Objects.requireNonNull(origin, "origin");
    }

    public String render(int rows) {
      return "Table " + table + " (" + origin + String.format(", relevance %.2f", relevance) + ")\nColumns: "
          + String.join(", ", columns) + "\n" + preview.preview(rows);
    }
  }

  /** One hop of a join path: {@code leftTable.leftColumn = rightTable.rightColumn}. */
  public record JoinStep(String leftTable, String leftColumn, String rightTable, String rightColumn, double score,
      double fanOut) {}

  /**
   * A join path between two tables found by FIND_JOIN_PATH, with its keys, scores and an executed preview.
   *
   * @param from the first table
   * @param to the last table
   * @param steps the hops, in order
   * @param score the path's score (higher is better)
   * @param rank 1 for the best path between the two tables
   * @param preview a few rows of the executed join
   */
  public record JoinPath(String from, String to, List<JoinStep> steps, double score, int rank,
      @Nullable ResultTable preview) {
    public JoinPath {
      steps = List.copyOf(steps);
    }

    /** The SQL join clause chain, e.g. {@code a JOIN b ON a.x = b.y}. */
    public String sqlJoin() {
      StringBuilder sb = new StringBuilder(Sql.identifier(from));
      for (JoinStep s : steps) {
        sb.append(" JOIN ").append(Sql.identifier(s.rightTable())).append(" ON ")
            .append(Sql.qualified(s.leftTable(), s.leftColumn())).append(" = ")
            .append(Sql.qualified(s.rightTable(), s.rightColumn()));
      }
      return sb.toString();
    }

    public String render(int rows) {
      StringBuilder sb = new StringBuilder("Join path #" + rank + " " + from + " → " + to
          + String.format(" (score %.3f)", score) + "\n");
      for (JoinStep s : steps) {
        sb.append(String.format("  %s.%s = %s.%s  (key score %.3f, fan-out %.2f)%n", s.leftTable(),
            s.leftColumn(), s.rightTable(), s.rightColumn(), s.score(), s.fanOut()));
      }
      sb.append("  SQL: ").append(sqlJoin()).append('\n');
      if (preview != null) {
        sb.append(preview.preview(rows));
      }
      return sb.toString().strip();
    }
  }

  /** One cell value that matches a searched value. */
  public record ValueHit(String column, String value, double score, String why, ResultTable exampleRows) {}

  /** The outcome of SEARCH_VALUE. */
  public record ValueSearch(String table, String searched, List<ValueHit> hits) {
    public ValueSearch {
      hits = List.copyOf(hits);
    }

    public String render(int rows) {
      StringBuilder sb = new StringBuilder("Value search for '" + searched + "' in " + table + ":");
      if (hits.isEmpty()) {
        sb.append(" no similar value");
      }
      for (ValueHit h : hits.subList(0, Math.min(3, hits.size()))) {
        sb.append(String.format("%n  %s.%s = '%s'  (score %.3f, %s)", table, h.column(), h.value(), h.score(),
            h.why()));
      }
      return sb.toString();
    }
  }

  /** A table that can be UNIONed with a base table, and how its columns map. */
  public record UnionPartner(String baseTable, String table, Map<String, String> columnMapping, double score) {
    public UnionPartner {
      columnMapping = Map.copyOf(columnMapping);
    }

    public String render() {
      StringBuilder sb = new StringBuilder(String.format("%s can be UNIONed with %s (score %.3f); columns:",
          table, baseTable, score));
      columnMapping.forEach((b, c) -> sb.append("\n  ").append(baseTable).append('.').append(b).append(" ↔ ")
          .append(table).append('.').append(c));
      return sb.toString();
    }
  }

  /** A cleaning UDF available to queries. */
  public record Udf(String signature, String returnType, String description) {
    public String render() {
      return signature + " -> " + returnType + ": " + description;
    }
  }

  /**
   * A cleaned version of a table as a CTE, from BUILD_CTE.
   *
   * @param name the CTE name
   * @param baseTable the table it cleans
   * @param definition {@code name AS (SELECT ...)}, to copy into a WITH clause
   * @param cleanedColumns original column → the CTE column holding its cleaned values
   * @param matchKeys cleaned column → how to compare its values robustly, with {@code %s} for the value (e.g.
   *     {@code clean_key(%s)}, applied to both sides of an equality); absent for typed columns
   * @param dateColumns cleaned columns that now hold ISO dates as text
   * @param udfs the functions it uses
   * @param preview a few cleaned rows
   * @param goal what the cleaning was for
   */
  public record CleanedTable(String name, String baseTable, String definition, Map<String, String> cleanedColumns,
      Map<String, String> matchKeys, Set<String> dateColumns, List<Udf> udfs, ResultTable preview,
      String goal) {
    public CleanedTable {
      cleanedColumns = Map.copyOf(cleanedColumns);
      matchKeys = Map.copyOf(matchKeys);
      dateColumns = Set.copyOf(dateColumns);
      udfs = List.copyOf(udfs);
    }

    public String render(int rows) {
      return "CTE " + name + " (cleans " + baseTable + ": " + goal + ")\nWITH " + definition + "\nCleaned columns: "
          + cleanedColumns + (preview == null ? "" : "\n" + preview.preview(rows));
    }
  }

  /** A table SEARCH_TABLE found, with its score and why. */
  public record TableHit(String table, double score, String why) {}
}
