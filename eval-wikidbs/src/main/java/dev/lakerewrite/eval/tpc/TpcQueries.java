package dev.lakerewrite.eval.tpc;

import dev.lakerewrite.core.Engine;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The standard query texts, read from Maven Central artifacts (never typed in): TPC-H's 22 from {@code io.trino.tpch}
 * (dbgen's qgen with the validation parameters); TPC-DS's 99 from Apache Spark's SQL test jar ({@code tpcds/q*.sql},
 * dsqgen with the qualification parameters, the four two-statement queries split into a and b). The dialect
 * changes are mechanical: TPC-H Q15's view becomes a CTE; Spark's {@code INTERVAL 30 days} becomes
 * {@code INTERVAL '30 days'} and its back-quoted aliases double-quoted, which DuckDB and PostgreSQL both read;
 * q30's {@code c_last_review_date} is the spec's {@code c_last_review_date_sk} (a known slip of that copy); q90's
 * alias {@code at} (a DuckDB keyword) becomes {@code am_t}; for PostgreSQL, which does not let an ORDER BY
 * expression name an output column, q36/q70/q86's {@code CASE WHEN lochierarchy} repeats the column's expression.
 */
final class TpcQueries {
  private static final Pattern SPARK_INTERVAL = Pattern.compile("(?i)INTERVAL\\s+(\\d+)\\s+days?\\b");
  private static final Pattern BACKQUOTED = Pattern.compile("`([^`]*)`");
  private static final Pattern LOCHIERARCHY = Pattern.compile("(?i)(grouping\\([^)]*\\)\\s*\\+\\s*grouping\\([^)]*\\))"
      + "\\s+AS\\s+lochierarchy");

  private TpcQueries() {}

  static List<String> tpchNames() {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= 22; i++) {
      out.add("q" + i);
    }
    return out;
  }

  static List<String> tpcdsNames() {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= 99; i++) {
      if (i == 14 || i == 23 || i == 24 || i == 39) {
        out.add("q" + i + "a");
        out.add("q" + i + "b");
      } else {
        out.add("q" + i);
      }
    }
    return out;
  }

  static String tpch(String name, Engine engine) {
    String text = resource(TpchTable.class, "queries/" + name + ".sql");
    text = text.replaceAll("(?m)^--.*$", "").strip();
    if (name.equals("q15")) {
      Matcher m = Pattern.compile("(?is)CREATE\\s+OR\\s+REPLACE\\s+VIEW\\s+(\\w+)\\s+AS\\s+(.*?);\\s*(SELECT.*)")
          .matcher(text);
      if (!m.matches()) {
        throw new IllegalStateException("unexpected shape of TPC-H q15 in io.trino.tpch");
      }
      text = "WITH " + m.group(1) + " AS (\n" + m.group(2).strip() + "\n)\n" + m.group(3).strip();
    }
    return stripSemicolons(text);
  }

  static String tpcds(String name, Engine engine) {
    String text = resource(TpcQueries.class, "/tpcds/" + name + ".sql");
    text = text.replaceAll("(?m)^\\s*--.*$", "").strip();
    text = SPARK_INTERVAL.matcher(text).replaceAll("INTERVAL '$1 days'");
    text = BACKQUOTED.matcher(text).replaceAll(m -> Matcher.quoteReplacement('"' + m.group(1).replace("\"", "")
        + '"'));
    text = text.replaceAll("\\bc_last_review_date\\b", "c_last_review_date_sk");
    if (name.equals("q90")) {
      text = text.replaceAll("\\) at,", ") am_t,");
    }
    Matcher loc = LOCHIERARCHY.matcher(text);
    if (engine == Engine.POSTGRESQL && loc.find()) {
      text = text.replaceAll("(?i)CASE\\s+WHEN\\s+lochierarchy\\b", Matcher.quoteReplacement("CASE WHEN ("
          + loc.group(1) + ")"));
    }
    return stripSemicolons(text);
  }

  private static String resource(Class<?> anchor, String path) {
    try (InputStream in = anchor.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("query text " + path + " is not on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read query text " + path, e);
    }
  }

  private static String stripSemicolons(String text) {
    String s = text.strip();
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }
}
